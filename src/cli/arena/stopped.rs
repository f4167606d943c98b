//! How a run that stopped early ends: the exit code and message of a stop, and the command
//! line that resumes an interrupted run.

use crate::cli::io;
use std::path::PathBuf;

/// This run's command line with `--resume` (added unless it is there), quoted for a shell:
/// what an interrupted `match`, `tournament` or `compare` prints, to be run as it is. The seed
/// and the bot seed need not be on it: a resumed run reads them from its record.
pub fn resume_command() -> String {
    let mut args: Vec<String> = std::env::args_os().map(|a| a.to_string_lossy().into_owned()).collect();
    if !args.iter().skip(1).any(|a| a == "--resume") {
        args.push("--resume".to_string());
    }
    shell_words::join(args)
}

/// The exit code and message of a run that stopped early: 4 when `--on-fault abort` stopped it
/// at a bot's fault, else 2.
pub fn run_stopped(what: &str, e: String) -> (u8, String) {
    let code = if e.contains(crate::referee::ABORTED) { 4 } else { 2 };
    (code, format!("{what} stopped: {e}"))
}

/// What an interrupted `match` or `tournament` says it kept: `played` of the `total` games it
/// had to play (and `already`, those its record held before), and where they are; with a
/// record file, the command that finishes the run.
pub(crate) fn interrupted(record: Option<&PathBuf>, already: u64, played: u64, total: u64) -> String {
    match record {
        Some(p) if io::is_dash(p) => {
            format!("interrupted: {played} of {total} games played and written to standard output")
        }
        Some(p) => format!(
            "interrupted: {} of {} games recorded in {}; run the same command with --resume to finish:\n  {}",
            already + played,
            already + total,
            p.display(),
            resume_command()
        ),
        None => format!(
            "interrupted: {played} of {total} games played, none recorded (with --record FILE, \
             the same command with --resume finishes an interrupted run)"
        ),
    }
}
