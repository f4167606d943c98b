//! `croupier man`: the manual pages (roff), made from the command line.

use super::exit::{self, usage, Outcome};
use super::output::write_stdout;

/// The manual from the command-line definition itself (clap_mangen), so it cannot drift from
/// `--help`.
pub(super) fn run(dir: Option<&std::path::Path>, cmd: clap::Command) -> Outcome {
    let Some(dir) = dir else {
        let mut out = Vec::new();
        clap_mangen::Man::new(cmd).render(&mut out).map_err(usage)?;
        return write_stdout(&out);
    };
    std::fs::create_dir_all(dir).map_err(|e| usage(format!("{}: {e}", dir.display())))?;
    clap_mangen::generate_to(cmd, dir).map_err(|e| usage(format!("{}: {e}", dir.display())))?;
    outln!("wrote the manual pages into {}", dir.display());
    Ok(exit::OK)
}
