//! Ctrl-C (SIGINT) and SIGTERM for the commands that play games (`play`, `match`, `compare`).
//!
//! The first signal asks them to stop: no new game starts, games being played finish (every
//! bot read has a deadline, so they do), a set that is not complete is not written, every bot
//! gets `quit` and is reaped, and the command says what was kept and exits 128 + the signal
//! (130 for SIGINT, 143 for SIGTERM); a bot that faults meanwhile is not started again (its
//! seat plays substitutes). A second signal stops croupier at once (same exit code);
//! its bots die with it (`PR_SET_PDEATHSIG`) and a record may end in a torn line, which
//! `--resume` and `stats` drop.
//!
//! Bots run in their own process groups, so a Ctrl-C typed at a terminal reaches croupier only.
//! The signals are received on a thread of their own (signal-hook's iterator), which may print
//! and exit where a signal handler may not.

use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::Once;

/// The first signal received, 0 while none.
static SIGNAL: AtomicI32 = AtomicI32::new(0);
static INSTALL: Once = Once::new();

/// Starts listening for SIGINT and SIGTERM (once per process; later calls do nothing).
pub fn install() {
    INSTALL.call_once(|| {
        let mut signals = match signal_hook::iterator::Signals::new([libc::SIGINT, libc::SIGTERM]) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("croupier: cannot listen for Ctrl-C: {e}");
                return;
            }
        };
        std::thread::spawn(move || {
            for sig in signals.forever() {
                let first = SIGNAL
                    .compare_exchange(0, sig, Ordering::SeqCst, Ordering::SeqCst)
                    .is_ok();
                if first {
                    eprintln!(
                        "croupier: {}: finishing the games being played, starting no more \
                         (send it again to stop at once)",
                        name(sig)
                    );
                } else {
                    eprintln!("croupier: {} again: stopping at once", name(sig));
                    crate::process::kill_all_bots();
                    std::process::exit(exit_code(sig).into());
                }
            }
        });
    });
}

/// The signal that asked croupier to stop, if one did.
pub fn requested() -> Option<i32> {
    match SIGNAL.load(Ordering::SeqCst) {
        0 => None,
        s => Some(s),
    }
}

/// The exit code after signal `sig`: 128 + its number, as shells report it.
pub fn exit_code(sig: i32) -> u8 {
    u8::try_from(128 + sig).unwrap_or(u8::MAX)
}

fn name(sig: i32) -> &'static str {
    match sig {
        libc::SIGINT => "interrupted (SIGINT)",
        libc::SIGTERM => "terminated (SIGTERM)",
        _ => "signal",
    }
}
