//! `--sandbox` and its options ([`SandboxArgs`]), for every command that starts bot processes
//! (`play`, `match`, `tournament`, `compare`, `check`, `ask`, `regress`), and turning the
//! sandbox on with what its bots must not see.

use super::exit::usage;
use std::path::PathBuf;

#[derive(clap::Args, Debug, Clone, Default)]
pub struct SandboxArgs {
    /// Run every bot process in a sandbox of its own (bubblewrap): its own process namespace
    /// (nothing it starts outlives it), no network, a read-only view of the system and of the
    /// directories its command names, a private scratch directory; as root, a uid of its own
    /// and limits on the memory and processes of its whole tree (protocol.md §13). Refused,
    /// with what is missing, where it cannot be made.
    #[arg(long)]
    pub sandbox: bool,
    /// With --sandbox: let the bots use the network.
    #[arg(long, requires = "sandbox")]
    pub sandbox_net: bool,
    /// With --sandbox: processes (threads included) a bot and all it starts may have at once;
    /// a start past it fails, and a bot that dies of it faults as a crash that names the limit.
    /// Needs root (a uid of its own per bot, and cgroups where the machine has them).
    #[arg(long, value_name = "N", default_value_t = crate::process::sandbox::PROCESSES, requires = "sandbox",
          value_parser = clap::value_parser!(u64).range(1..))]
    pub bot_processes: u64,
}

impl SandboxArgs {
    /// The sandbox's part of a bot's limits.
    pub fn limits(&self) -> crate::process::Limits {
        crate::process::Limits {
            sandbox: self.sandbox,
            processes: self.sandbox.then_some(self.bot_processes),
            ..crate::process::Limits::default()
        }
    }

    /// Turns the sandbox on (when asked for), with `hide` (croupier's outputs and inputs that
    /// hold hidden cards) out of every bot's sight: each must exist by now (a mount point).
    /// Refused where it cannot be made: no bot then starts. What holds less than with root
    /// and cgroups is said on stderr, unless `quiet`.
    pub fn enable(&self, hide: Vec<PathBuf>, quiet: bool) -> Result<(), (u8, String)> {
        if !self.sandbox {
            return Ok(());
        }
        let caveats = crate::process::sandbox::enable(self.sandbox_net, hide).map_err(usage)?;
        if !quiet {
            for c in caveats {
                eprintln!("note: {c}");
            }
        }
        Ok(())
    }
}
