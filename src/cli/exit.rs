//! Exit codes (documented in `--help` and the README), a command's [`Outcome`], and the usage
//! error (exit 2) that most failures are.

/// Success.
pub const OK: u8 = 0;
/// A check failed: `replay` found a mismatch.
pub const CHECK_FAILED: u8 = 1;
/// Usage, configuration or input error.
pub const USAGE: u8 = 2;
/// `compare` reached no decision within `--deals`.
pub const UNDECIDED: u8 = 3;
/// A bot faulted and `--strict` was given.
pub const BOT_FAULT: u8 = 4;

/// A command's result: an exit code, or an exit code with a message for stderr.
pub type Outcome = Result<u8, (u8, String)>;

pub(crate) fn usage<E: std::fmt::Display>(e: E) -> (u8, String) {
    (USAGE, e.to_string())
}
