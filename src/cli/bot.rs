//! `croupier bot NAME`: a built-in bot on standard input/output, speaking the protocol.

use super::exit::{self, usage, Outcome};

/// Runs the built-in bot `name` with its own randomness seeded by `seed`.
pub(super) fn run(name: &str, seed: &str) -> Outcome {
    let seed = crate::chance::parse_seed(seed).map_err(usage)?;
    let mut b = crate::bots::builtin(name, seed).map_err(usage)?;
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    crate::bots::stdio::run(b.as_mut(), stdin.lock(), stdout.lock()).map_err(|e| usage(format!("bot i/o: {e}")))?;
    Ok(exit::OK)
}
