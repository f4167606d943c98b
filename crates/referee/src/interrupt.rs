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
//!
//! One interrupt often arrives as several signals: `timeout -s INT` sends its signal to the
//! command and then to its own process group, croupier included (coreutils' `timeout`, unless
//! `--foreground`), so croupier gets two within microseconds; a Ctrl-C at a terminal under such
//! a wrapper reaches croupier from the terminal and again from the wrapper. Those read as two
//! Ctrl-Cs ("again: stopping at once", issue 28). So every signal within [`SAME_INTERRUPT`] of
//! the first is the same interrupt, and croupier says it is stopping (and that another signal
//! stops it at once) only when that time is over: a signal sent after that notice, by a person
//! or a script that waits for it, always stops croupier at once.
//!
//! Why not tell the copies apart by who sent them (`si_pid`, signal-hook's `WithOrigin`)? The
//! two copies `timeout` sends do come from one pid, but a Ctrl-C under a wrapper comes from
//! the kernel (the terminal) and from the wrapper: two senders, one keypress. And a second
//! interrupt from the same sender (a script's second `kill`) must count. Only the time between
//! them tells the copies of one interrupt from a second one.

use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::Once;
use std::time::Duration;

/// How long after the first signal further signals are copies of the same interrupt. The
/// copies come within microseconds (a wrapper that forwards a signal is woken by it and runs
/// at once); a quarter of a second leaves room for a loaded machine, and is short enough that
/// the notice that croupier is stopping does not seem late.
pub const SAME_INTERRUPT: Duration = Duration::from_millis(250);

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
            let Some(first) = signals.forever().next() else {
                return;
            };
            // The run stops starting games at once; only the notice waits.
            SIGNAL.store(first, Ordering::SeqCst);
            std::thread::sleep(SAME_INTERRUPT);
            // Copies of the first signal (see the module's comment): dropped.
            signals.pending().for_each(drop);
            eprintln!(
                "croupier: {}: finishing the games being played, starting no more \
                 (send it again to stop at once)",
                name(first)
            );
            if let Some(sig) = signals.forever().next() {
                eprintln!("croupier: {} again: stopping at once", name(sig));
                crate::process::kill_all_bots();
                std::process::exit(exit_code(sig).into());
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
