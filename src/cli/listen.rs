//! `--listen ADDR` and `--keys DIR`: the hub where the bots of `remote:NAME` seats connect
//! (croupier_net::hub). Each remote seat gets a token file in DIR (made once, mode 0600, its
//! secret kept from run to run), which its bot's machine needs for `croupier connect`.

use crate::cli::arena::TableArgs;
use crate::cli::bot_args::BotArgs;
use crate::cli::exit::usage;
use crate::referee::{remote_link_argv, SeatSpec};
use croupier_net::hub::{Hub, HubConfig};
use std::path::Path;

/// Starts the hub when a seat is remote (`tables` tables of `seats` at once, each a process per
/// remote seat): its tokens are made, and unless `quiet` the way to connect each seat is told
/// on stderr. Remote seats without `--listen`, or `--listen` without a remote seat, are usage
/// errors.
pub fn start_hub(
    bots: &BotArgs,
    seats: &[SeatSpec],
    tables: usize,
    log_dir: &Path,
    quiet: bool,
) -> Result<(), (u8, String)> {
    let mut names: Vec<(String, usize)> = Vec::new();
    for s in seats.iter().filter_map(SeatSpec::remote_name) {
        match names.iter_mut().find(|(n, _)| n == s) {
            Some((_, k)) => *k += tables,
            None => names.push((s.to_string(), tables)),
        }
    }
    let Some(listen) = &bots.listen else {
        return match names.first() {
            Some((n, _)) => Err(usage(format!(
                "seat remote:{n} needs --listen ADDR (where its bot connects, like 0.0.0.0:7000)"
            ))),
            None => Ok(()),
        };
    };
    if names.is_empty() {
        return Err(usage(format!(
            "--listen {listen}: no seat is remote (remote:NAME); leave --listen out"
        )));
    }
    std::fs::create_dir_all(log_dir).map_err(|e| usage(format!("--log-dir {}: {e}", log_dir.display())))?;
    let hub = Hub::start(HubConfig {
        listen: listen.clone(),
        keys: bots.keys.clone(),
        seats: names.clone(),
        log: Some(log_dir.join("network.log")),
        local_ok: Box::new(|pid, name| crate::process::spawned_argv(pid) == Some(remote_link_argv(name))),
    })
    .map_err(usage)?;
    if !quiet {
        eprintln!(
            "croupier: listening on {} for remote seats (certificate sha256 {}; log {})",
            hub.address(),
            hub.fingerprint(),
            log_dir.join("network.log").display()
        );
        for (name, path) in hub.tokens() {
            eprintln!(
                "  seat {name}: on the bot's machine, with a copy of {}: croupier connect --token-file {name}.token -- YOUR-BOT",
                path.display()
            );
        }
    }
    Ok(())
}

/// [`start_hub`] for a run of `match`, `tournament` or `compare`: `players` at each of its
/// `--concurrency` tables, named `names` (`--trust` must name one of them); and the sandbox,
/// with `record` among what the bots must not see.
pub fn start_run_hub(
    t: &TableArgs,
    players: &[SeatSpec],
    names: &[String],
    record: Option<&Path>,
) -> Result<(), (u8, String)> {
    t.bots.trusted(names)?;
    start_sandbox(&t.bots, &t.log_dir, record, t.quiet)?;
    start_hub(&t.bots, players, t.concurrency, &t.log_dir, t.quiet)
}

/// `--sandbox`: every bot process from now on runs in a sandbox, which hides croupier's outputs
/// (the run's log directory, `record`, the transcripts and keys). Refused where it cannot be
/// made: no bot then starts. What holds less than with root and cgroups is said on stderr,
/// unless `quiet`.
pub fn start_sandbox(bots: &BotArgs, log_dir: &Path, record: Option<&Path>, quiet: bool) -> Result<(), (u8, String)> {
    if !bots.sandbox.sandbox {
        return Ok(());
    }
    // What is hidden must exist when a bot starts (a mount point): the run's log directory and
    // the record file are made now, empty (the record is opened for writing later anyway).
    std::fs::create_dir_all(log_dir).map_err(|e| usage(format!("--log-dir {}: {e}", log_dir.display())))?;
    let mut hide = vec![log_dir.to_path_buf(), bots.keys.clone()];
    if let Some(r) = record.filter(|r| !crate::cli::io::is_dash(r)) {
        use std::os::unix::fs::OpenOptionsExt;
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .mode(0o600)
            .open(r)
            .map_err(|e| usage(format!("--record {}: cannot open for writing: {e}", r.display())))?;
        hide.push(r.to_path_buf());
    }
    hide.extend(bots.transcript.clone());
    bots.sandbox.enable(hide, quiet)
}
