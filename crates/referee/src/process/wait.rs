//! Waiting for a bot's next line until a deadline: a short look at the pipe for a bot that
//! answers fast, then a sleep in `ppoll` until the line, the bot's exit or the deadline.

use std::os::fd::AsRawFd;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use super::bot::BotProcess;
use super::poll::{poll_round, time_left};
use super::read_result::ReadResult;
use super::registry::STOPPING_AT_ONCE;

impl BotProcess {
    /// Waits until `deadline` for the next line from the bot, meanwhile flushing its pending
    /// output and draining its stderr. Lines already buffered are returned without waiting.
    /// Only this bot is watched: other bots are neither written to nor read while it waits
    /// (one write per bot and decision; bots that are not asked are not woken).
    ///
    /// Once croupier stops at once ([`kill_all_bots`](crate::process::kill_all_bots)), this
    /// never returns: the bot's death is croupier's doing, not a crash, and the game in play
    /// must not go on to be recorded with it (with substitutes for a "crashed" bot) in the
    /// moment before croupier exits.
    pub fn read_line(&mut self, deadline: Instant) -> ReadResult {
        let r = wait_untranscribed(self, deadline);
        if STOPPING_AT_ONCE.load(Ordering::Relaxed) {
            loop {
                std::thread::park();
            }
        }
        self.transcribe(&r);
        r
    }
}

fn wait_untranscribed(bot: &mut BotProcess, deadline: Instant) -> ReadResult {
    bot.late_look = None;
    let asked = Instant::now();
    let r = match bot.ready_result(deadline) {
        Some(r) => return r,
        None => look_without_sleeping(bot, asked, deadline).unwrap_or_else(|| wait_sleeping(bot, deadline)),
    };
    bot.answers_fast = matches!(r, ReadResult::Line(_)) && asked.elapsed() <= look_time();
    r
}

/// How long a wait for a fast bot's answer looks at its pipe before it sleeps: 50 µs, or
/// `CROUPIER_SPIN_US` microseconds (0: never look, always sleep), read once.
fn look_time() -> Duration {
    static T: std::sync::OnceLock<Duration> = std::sync::OnceLock::new();
    *T.get_or_init(|| {
        Duration::from_micros(
            std::env::var("CROUPIER_SPIN_US")
                .ok()
                .and_then(|v| v.parse().ok())
                .unwrap_or(50),
        )
    })
}

/// For a bot that answered its last request within [`look_time`]: looks at its pipe for the
/// answer for up to that long (never past `deadline`), giving the core to whoever else wants
/// it between looks. A bot that answers that fast answers while a sleeping referee would still
/// be waking up: with the bot on another core, the two wake-ups were most of a decision's time
/// (a bot slower than that is waited for asleep, so a slow bot costs no CPU; one on the same
/// core runs at each look, which yields to it).
fn look_without_sleeping(bot: &mut BotProcess, asked: Instant, deadline: Instant) -> Option<ReadResult> {
    if !bot.answers_fast || bot.pending_bytes() > 0 || bot.broken_pipe || look_time().is_zero() {
        return None;
    }
    let until = (asked + look_time()).min(deadline);
    loop {
        bot.read_stdout_once();
        if let Some(r) = bot.ready_result(deadline) {
            return Some(r);
        }
        if bot.stdout_eof || Instant::now() >= until {
            return None;
        }
        // A bot on this core runs now (sched_yield); on an idle core this returns at once.
        std::thread::yield_now();
    }
}

/// Waits, sleeping in `ppoll`, until the next line from the bot, its exit or `deadline`.
fn wait_sleeping(bot: &mut BotProcess, deadline: Instant) -> ReadResult {
    loop {
        if let Some(r) = bot.ready_result(deadline) {
            return r;
        }
        // A broken stdin pipe means the bot is gone: collect what it wrote, do not wait.
        let dead = bot.broken_pipe;
        let left = if dead {
            Some(Duration::ZERO)
        } else {
            time_left(deadline)
        };
        let Some(left) = left else {
            // Deadline passed: one last look without waiting, at what is in the pipe now. How
            // long after the deadline this look comes is croupier's own lateness.
            bot.late_look = Some(Instant::now().saturating_duration_since(deadline));
            poll_round(&mut [&mut *bot], Some(0), None, Duration::ZERO);
            return bot.ready_result(deadline).unwrap_or(ReadResult::Timeout);
        };
        let pidfd = bot.pidfd.as_ref().map(|f| f.as_raw_fd());
        if !poll_round(&mut [&mut *bot], Some(0), pidfd, left) {
            continue; // EINTR: retry with the remaining time.
        }
        // The answer came: no need to ask whether the bot exited (a wait4 per decision).
        if let Some(r) = bot.ready_result(deadline) {
            return r;
        }
        bot.try_reap();
        if bot.status.is_some() && !bot.stdout_eof {
            // The bot exited while something else (a child it forked) keeps its stdout open:
            // take what it wrote before it died, then report the exit, not a timeout later.
            poll_round(&mut [&mut *bot], Some(0), None, Duration::ZERO);
            return bot.ready_result(deadline).unwrap_or_else(|| bot.exit_report(deadline));
        }
        if dead {
            return bot.ready_result(deadline).unwrap_or_else(|| bot.exit_report(deadline));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::process::testing::{line, soon, start};

    #[test]
    fn timeout_without_answer() {
        let mut b = start("read x; sleep 5");
        b.send("1 act play 100 AS");
        let t0 = Instant::now();
        assert_eq!(b.read_line(soon(200)), ReadResult::Timeout);
        let took = t0.elapsed();
        assert!(took >= Duration::from_millis(190), "{took:?}");
        assert!(took < Duration::from_secs(3), "{took:?}");
        // A deadline in the past still returns (Timeout) at once.
        assert_eq!(b.read_line(Instant::now()), ReadResult::Timeout);
        assert!(b.is_alive());
    }

    #[test]
    fn a_wait_that_looks_before_it_sleeps_keeps_deadlines_and_reports_exits() {
        // As after a fast answer: the next wait looks at the pipe before it sleeps.
        let mut b = start("read x; sleep 0.2; echo late; read y; sleep 5");
        b.answers_fast = true;
        b.send("1 act play 100 AS");
        // The answer comes after the look: it is still read, and the bot is not fast any more.
        assert_eq!(b.read_line(soon(3000)), line("late"));
        assert!(!b.answers_fast);
        // No answer: the deadline holds, looking or not.
        b.answers_fast = true;
        b.send("2 act play 100 AS");
        let t0 = Instant::now();
        assert_eq!(b.read_line(soon(200)), ReadResult::Timeout);
        assert!(t0.elapsed() >= Duration::from_millis(190), "{:?}", t0.elapsed());
        assert!(!b.answers_fast);
        b.answers_fast = true;
        assert_eq!(b.read_line(Instant::now()), ReadResult::Timeout);
        // An exit is an exit.
        let mut c = start("read x; exit 4");
        c.answers_fast = true;
        c.send("1 act play 100 AS");
        assert_eq!(
            c.read_line(soon(3000)),
            ReadResult::Exited {
                status: Some("exit code 4".into())
            }
        );
    }
}
