//! The end of a bot: reaping it, the report of its exit, the kill of its whole process group,
//! and the shutdown of bots (politely, then firmly) with one grace period for all of them.

use std::os::fd::AsRawFd;
use std::time::{Duration, Instant};

use super::bot::BotProcess;
use super::exit_status::describe_exit;
use super::poll::{poll_round, ppoll, time_left};
use super::read_result::ReadResult;
use super::registry::{live_bots, sweep_orphans};
use super::spawn::pidfd_open;
use super::stderr::STDERR_END_WAIT;

/// How long to wait (at most, and never past the read deadline) for a bot whose stdout reached
/// EOF to become reapable, so that [`ReadResult::Exited`] can carry its status.
const EXIT_STATUS_WAIT: Duration = Duration::from_millis(50);

impl BotProcess {
    /// Whether the bot process has not exited yet (reaps it without blocking if it has).
    pub fn is_alive(&mut self) -> bool {
        self.try_reap();
        self.status.is_none()
    }

    /// How the bot ended ("exit code 0", "killed by signal 9 (SIGKILL)"), if it has been reaped
    /// (this reaps it without blocking if possible).
    pub fn exit_status(&mut self) -> Option<String> {
        self.try_reap();
        self.status.map(|st| self.describe(st))
    }

    /// Kills the bot's whole process group with SIGKILL and reaps the bot. Idempotent.
    pub fn kill(&mut self) {
        if !self.group_killed {
            self.group_killed = true;
            // SAFETY: kill has no memory-safety preconditions. The group id is the bot's pid,
            // which stays reserved while the bot is unreaped or any group member lives.
            unsafe {
                libc::kill(-self.pid, libc::SIGKILL);
            }
        }
        if self.status.is_none() {
            if let Ok(st) = self.child.wait() {
                self.status = Some(st);
            }
        }
        live_bots().remove(&self.pid);
        self.stdin = None;
        self.out = Vec::new();
        self.out_pos = 0;
        // What the bot left outside its group (setsid children) is croupier's now: end it.
        sweep_orphans();
        // The last of its stderr: a bot that crashed between two reads of it (or that is
        // replaced at once after a crash) wrote its last words there (issue 28: 0 of 5 lines
        // reached the log). Then the pipe is closed: a second kill (Drop) does not wait again.
        self.drain_stderr_to_end(STDERR_END_WAIT);
        self.stderr = None;
    }

    /// Ends the bot politely, then firmly: flushes pending output (within `grace`), closes its
    /// stdin, waits (within the same `grace`) for EOF on its stdout and for it to exit, then
    /// SIGKILLs its process group and reaps it. Sending `<id> quit` first is the caller's job.
    /// Stdout read during shutdown is discarded; stderr goes to the log. Returns how the bot
    /// ended (see [`exit_status`](Self::exit_status)).
    pub fn shutdown(&mut self, grace: Duration) -> Option<String> {
        shutdown_all(&mut [&mut *self], grace);
        self.status.map(|st| self.describe(st))
    }

    /// How the bot ended ([`describe_exit`]), with the limits of its control groups it hit.
    fn describe(&self, st: std::process::ExitStatus) -> String {
        let hit = self
            .confinement
            .as_ref()
            .and_then(|c| c.cgroup.as_ref())
            .map(|g| g.findings())
            .unwrap_or_default();
        describe_exit(st, &self.limits, &hit)
    }

    pub(super) fn try_reap(&mut self) {
        if self.status.is_none() {
            if let Ok(Some(st)) = self.child.try_wait() {
                self.status = Some(st);
            }
        }
    }

    /// The exit status for an `Exited` report: reaps without blocking; if the bot is not
    /// reapable yet, waits on its pidfd for at most [`EXIT_STATUS_WAIT`] (never past `deadline`).
    /// With the status comes the last of the bot's stderr: once the bot is reaped, all it wrote
    /// is in the pipe, so reading what is there without waiting takes it all (a child the bot
    /// left behind may keep the pipe open: waiting for EOF here would cost every crash of such
    /// a bot the wait; [`kill`](Self::kill) reads the rest to the end for the log).
    pub(super) fn exit_report(&mut self, deadline: Instant) -> ReadResult {
        self.try_reap();
        if self.status.is_none() {
            let limit = deadline.min(Instant::now() + EXIT_STATUS_WAIT);
            if let Some(pidfd) = pidfd_open(self.pid) {
                while self.status.is_none() {
                    let Some(left) = time_left(limit) else { break };
                    let mut p = libc::pollfd {
                        fd: pidfd.as_raw_fd(),
                        events: libc::POLLIN,
                        revents: 0,
                    };
                    ppoll(std::slice::from_mut(&mut p), left);
                    self.try_reap();
                }
            }
        }
        let Some(st) = self.status else {
            return ReadResult::Exited { status: None };
        };
        self.drain_stderr_to_end(Duration::ZERO);
        let mut status = self.describe(st);
        if let Some(tail) = self.stderr_tail() {
            status.push_str("; ");
            status.push_str(&tail);
        }
        ReadResult::Exited { status: Some(status) }
    }
}

impl Drop for BotProcess {
    fn drop(&mut self) {
        self.kill();
        // Its scratch directory and control groups, now that it is gone.
        self.confinement = None;
    }
}

/// Ends bots politely, then firmly, with one grace period for all of them (they overlap; a
/// table of four bots that ignore `quit` costs one grace period, not four): writes what is
/// queued for each (the `quit` line) while the pipes take it, closes every stdin (EOF is a
/// request to exit too), waits until every bot has exited or the shared deadline has passed,
/// then kills each one's whole process group, reaps it and keeps the last of its stderr.
pub fn shutdown_all(procs: &mut [&mut BotProcess], grace: Duration) {
    let deadline = Instant::now() + grace;
    // 1. Flush pending output, every bot at once.
    while procs.iter().any(|p| p.stdin.is_some() && p.pending_bytes() > 0) {
        let Some(left) = time_left(deadline) else {
            break;
        };
        poll_round(procs, None, None, left.min(Duration::from_millis(10)));
    }
    // 2. Close every stdin.
    for p in procs.iter_mut() {
        p.close_stdin();
    }
    // 3. Wait for the exits, draining stdout and stderr meanwhile.
    loop {
        for p in procs.iter_mut() {
            p.try_reap();
            p.discard_input();
        }
        if procs.iter().all(|p| p.status.is_some()) {
            break;
        }
        let Some(left) = time_left(deadline) else {
            break;
        };
        for i in 0..procs.len() {
            if procs[i].status.is_none() && !procs[i].stdout_eof {
                poll_round(&mut procs[i..=i], Some(0), None, Duration::ZERO);
            }
        }
        poll_round(procs, None, None, left.min(Duration::from_millis(5)));
    }
    // 4. Kill what is left of each group, reap, keep the last of stderr (kill reads it).
    for p in procs.iter_mut() {
        p.kill();
        p.stdout = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::process::testing::{line, soon, start};

    /// Processes of group `pgid` that are not zombies.
    fn live_group_members(pgid: u32) -> Vec<u32> {
        let mut live = Vec::new();
        for entry in std::fs::read_dir("/proc").unwrap().flatten() {
            let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
                continue;
            };
            let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
                continue;
            };
            // pid (comm) state ppid pgrp ...
            let Some(close) = stat.rfind(')') else {
                continue;
            };
            let fields: Vec<&str> = stat[close + 1..].split_whitespace().collect();
            if fields.len() > 2 && fields[2] == pgid.to_string() && fields[0] != "Z" {
                live.push(pid);
            }
        }
        live
    }

    #[test]
    fn exit_and_crash_status() {
        let mut b = start("echo hi; exit 3");
        assert_eq!(b.read_line(soon(3000)), line("hi"));
        assert_eq!(
            b.read_line(soon(3000)),
            ReadResult::Exited {
                status: Some("exit code 3".into())
            }
        );
        let mut c = start("echo bye; kill -SEGV $$");
        assert_eq!(c.read_line(soon(3000)), line("bye"));
        match c.read_line(soon(3000)) {
            ReadResult::Exited { status: Some(s) } => {
                assert!(s.contains("signal 11 (SIGSEGV)"), "{s}")
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(c.exit_status().as_deref().map(|s| s.contains("SIGSEGV")), Some(true));
    }

    #[test]
    fn shutdown_kills_stubborn_group() {
        let mut b = start(r#"trap "" TERM HUP; sleep 100 & sleep 100"#);
        let pgid = b.pid();
        assert!(b.is_alive());
        assert!(!live_group_members(pgid).is_empty());
        let t0 = Instant::now();
        let status = b.shutdown(Duration::from_millis(300));
        let took = t0.elapsed();
        assert!(
            took >= Duration::from_millis(250) && took < Duration::from_secs(3),
            "{took:?}"
        );
        assert_eq!(status.as_deref(), Some("killed by signal 9 (SIGKILL)"));
        assert!(!b.is_alive());
        // SIGKILL delivery to the background sleep is asynchronous: allow a moment.
        let until = soon(1000);
        while !live_group_members(pgid).is_empty() && Instant::now() < until {
            std::thread::sleep(Duration::from_millis(10));
        }
        assert_eq!(live_group_members(pgid), Vec::<u32>::new());
    }

    #[test]
    fn drop_kills_and_reaps() {
        let b = start("sleep 100 & sleep 100");
        let pid = b.pid();
        drop(b);
        let until = soon(1000);
        while !live_group_members(pid).is_empty() && Instant::now() < until {
            std::thread::sleep(Duration::from_millis(10));
        }
        assert!(live_group_members(pid).is_empty());
        // Reaped: no zombie left with our pid.
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
        assert!(stat.is_empty() || !stat.contains(") Z "), "{stat}");
    }
}
