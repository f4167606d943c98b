//! Bot processes: spawning, a non-blocking line transport with deadlines, stderr logs, and
//! clean shutdown (Linux only).
//!
//! Everything here is single-threaded and `poll(2)`-based: the referee never blocks on a bot's
//! pipe, never busy-polls and never sleeps.
//!
//! * [`BotProcess::spawn`] starts a bot in its own process group, with `PR_SET_PDEATHSIG`
//!   (the bot is killed if the spawning thread of the referee dies) and every inherited file
//!   descriptor other than 0, 1, 2 closed at `exec` (so a bot never holds another bot's pipe).
//! * [`BotProcess::send`] queues a line; queued lines go out in one `write` at
//!   [`BotProcess::flush`] or when the referee waits for this bot's answer
//!   ([`BotProcess::read_line`]).
//! * [`BotProcess::read_line`] returns the next line, or why there is none
//!   ([`ReadResult`]).
//! * stderr is drained whenever we poll and appended to a capped log file; when a bot ends it
//!   is read to its end (bounded in bytes and time), and the last lines of it are told with the
//!   bot's exit ([`ReadResult::Exited`]).
//! * [`BotProcess::shutdown`], [`BotProcess::kill`] and `Drop` kill the whole process group and
//!   reap the bot: no zombies, no orphans.
//!
//! Caveats: `PR_SET_PDEATHSIG` fires when the *thread* that spawned the bot exits, and covers
//! only the bot itself, not processes it forks (those are still killed with its group by
//! `kill`/`shutdown`/`Drop`, but not if the referee is killed). Writing relies on SIGPIPE being
//! ignored in the referee (the Rust runtime does this for `main`), so that a dead reader gives
//! EPIPE.

mod bot;
mod cgroup;
mod exit_status;
mod limits;
mod lines;
mod log;
mod output;
mod poll;
mod read_result;
mod reap;
mod registry;
pub mod sandbox;
mod spawn;
mod stderr;
mod transcript;
mod wait;

pub use bot::BotProcess;
pub use limits::{format_bytes, Limits};
pub use log::LogTarget;
pub use poll::pump;
pub use read_result::ReadResult;
pub use reap::shutdown_all;
pub use registry::{become_subreaper, kill_all_bots, spawned_argv, sweep_orphans};

#[cfg(test)]
mod testing;
