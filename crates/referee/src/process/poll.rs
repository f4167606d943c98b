//! The poll loop: one `ppoll(2)` over the pipes of one bot (a wait for its answer) or of every
//! bot (a pump, a shutdown), and the service of what is ready: writes, reads into the line
//! buffer, stderr into the log.

use std::io;
use std::os::fd::{AsRawFd, RawFd};
use std::time::{Duration, Instant};

use super::bot::BotProcess;

/// The pipe (of `procs[i]`) or the extra descriptor that an entry of the poll set watches.
#[derive(Clone, Copy)]
enum Slot {
    Stdin(usize),
    Stdout(usize),
    Stderr(usize),
    Extra,
}

/// One `poll(2)` over `procs[read_from]` alone (its stdout, its stdin for POLLOUT when output
/// is pending, its stderr), or over every process when `read_from` is `None` (stdins and
/// stderrs), and `extra`. Services what is ready (writes,
/// reads into the line buffer, stderr into the log). Returns false if poll was interrupted (EINTR); panics on
/// any other poll failure (which would otherwise make the caller spin).
pub(super) fn poll_round(
    procs: &mut [&mut BotProcess],
    read_from: Option<usize>,
    extra: Option<RawFd>,
    timeout: Duration,
) -> bool {
    // A wait for one bot's answer (once per decision) polls at most four descriptors: they
    // live on the stack. Only a poll over every bot (pumps, shutdown) needs the heap.
    const SMALL: usize = 4;
    let needed = match read_from {
        Some(_) => 3,
        None => procs.len() * 2,
    } + 1;
    let unused = libc::pollfd {
        fd: -1,
        events: 0,
        revents: 0,
    };
    let (mut small_fds, mut small_slots) = ([unused; SMALL], [Slot::Extra; SMALL]);
    let (mut big_fds, mut big_slots) = (Vec::new(), Vec::new());
    let (fds, slots): (&mut [libc::pollfd], &mut [Slot]) = if needed <= SMALL {
        (&mut small_fds, &mut small_slots)
    } else {
        big_fds.resize(needed, unused);
        big_slots.resize(needed, Slot::Extra);
        (&mut big_fds, &mut big_slots)
    };
    let used = watch(procs, read_from, extra, fds, slots);
    let fds = &mut fds[..used];
    let n = ppoll(fds, timeout);
    if n < 0 {
        let err = io::Error::last_os_error();
        if err.kind() == io::ErrorKind::Interrupted {
            return false;
        }
        panic!("poll failed: {err}");
    }
    if n == 0 {
        return true;
    }
    service(procs, fds, slots);
    true
}

/// Fills `fds` and `slots` with what one round of [`poll_round`] watches: the pipes of
/// `procs[read_from]` alone, or of every process, and `extra`. Returns how many it filled.
fn watch(
    procs: &[&mut BotProcess],
    read_from: Option<usize>,
    extra: Option<RawFd>,
    fds: &mut [libc::pollfd],
    slots: &mut [Slot],
) -> usize {
    let mut used = 0;
    let mut add = |fds: &mut [libc::pollfd], fd: RawFd, events: libc::c_short, slot: Slot| {
        fds[used] = libc::pollfd { fd, events, revents: 0 };
        slots[used] = slot;
        used += 1;
    };
    for (i, p) in procs.iter().enumerate() {
        // While waiting for one bot's answer, only that bot is watched: the others are neither
        // written to (their lines wait for their own turn: one write per bot and decision, no
        // wake-up of bots that are not asked) nor read (a bot that fills its stderr pipe while
        // not asked waits until its turn). A short poll set keeps the wait cheap.
        if read_from.is_some_and(|r| r != i) {
            continue;
        }
        if Some(i) == read_from {
            if let Some(f) = &p.stdout {
                add(fds, f.as_raw_fd(), libc::POLLIN, Slot::Stdout(i));
            }
        }
        if let Some(f) = &p.stdin {
            // Without pending output, poll only for POLLERR (always reported): the read end was
            // closed, i.e. the bot closed its stdin or died.
            let events = if p.pending_bytes() > 0 { libc::POLLOUT } else { 0 };
            add(fds, f.as_raw_fd(), events, Slot::Stdin(i));
        }
        if let Some(f) = &p.stderr {
            add(fds, f.as_raw_fd(), libc::POLLIN, Slot::Stderr(i));
        }
    }
    if let Some(fd) = extra {
        add(fds, fd, libc::POLLIN, Slot::Extra);
    }
    used
}

/// Services what one round of [`poll_round`] found ready: writes, reads into the line buffer,
/// stderr into the log. `slots[k]` names the pipe of `fds[k]`.
fn service(procs: &mut [&mut BotProcess], fds: &[libc::pollfd], slots: &[Slot]) {
    for (pfd, &slot) in fds.iter().zip(slots.iter()) {
        if pfd.revents == 0 {
            continue;
        }
        let invalid = pfd.revents & libc::POLLNVAL != 0;
        match slot {
            Slot::Stdin(i) => {
                let p = &mut procs[i];
                if !invalid && p.pending_bytes() > 0 {
                    p.flush_stdin(); // EPIPE marks the pipe broken
                } else if pfd.revents & (libc::POLLERR | libc::POLLHUP | libc::POLLNVAL) != 0 {
                    p.reader_gone();
                }
            }
            Slot::Stdout(i) => {
                if invalid {
                    procs[i].stdout_eof = true;
                    procs[i].stdout = None;
                } else {
                    procs[i].read_stdout_once();
                }
            }
            Slot::Stderr(i) => {
                if invalid {
                    procs[i].stderr = None;
                } else {
                    procs[i].read_stderr_once();
                }
            }
            Slot::Extra => {}
        }
    }
}

/// Services every process without waiting: writes pending output that fits, drains stderr.
pub fn pump(procs: &mut [&mut BotProcess]) {
    while !poll_round(procs, None, None, Duration::ZERO) {}
}

/// The time left until `deadline`, or None if it has passed.
pub(super) fn time_left(deadline: Instant) -> Option<Duration> {
    let left = deadline.checked_duration_since(Instant::now())?;
    (!left.is_zero()).then_some(left)
}

/// `ppoll` with a timeout of nanosecond resolution (plain `poll` counts whole milliseconds,
/// which would let an answer up to a millisecond late pass for on time).
pub(super) fn ppoll(fds: &mut [libc::pollfd], timeout: Duration) -> libc::c_int {
    let ts = libc::timespec {
        tv_sec: timeout.as_secs().min(i32::MAX as u64) as libc::time_t,
        tv_nsec: timeout.subsec_nanos() as libc::c_long,
    };
    // SAFETY: `fds` is a valid array of `fds.len()` pollfd structures; `ts` outlives the call;
    // a null signal mask leaves the mask as it is.
    unsafe { libc::ppoll(fds.as_mut_ptr(), fds.len() as libc::nfds_t, &ts, std::ptr::null()) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::process::testing::{line, soon, start};

    /// While croupier waits on one bot, the others' queued lines wait for their own turn:
    /// only the bot waited on is written to (one write per bot and decision; bots that are not
    /// asked are not woken). A pump writes every bot's queue.
    #[test]
    fn waiting_on_one_bot_writes_only_to_it() {
        let a = start("sleep 0.1; head -c 2000000 >/dev/null; echo got");
        let b = start("echo warn >&2; sleep 0.3; echo b");
        let mut bots = [a, b];
        bots[0].send(&"z".repeat(1_999_999));
        let queued = bots[0].pending_bytes();
        assert!(queued > 0);
        assert_eq!(bots[1].read_line(soon(5000)), line("b"));
        assert_eq!(
            bots[0].pending_bytes(),
            queued,
            "nothing written to a bot not waited on"
        );
        assert_eq!(bots[0].read_line(soon(5000)), line("got"));
        assert_eq!(bots[0].pending_bytes(), 0);

        // Bots kept as Vec<Option<BotProcess>>, with a gap.
        let c = start("read x; echo c:$x");
        let d = start("sleep 0.1; head -c 1000000 >/dev/null; echo d");
        let mut opt = [Some(c), None, Some(d)];
        opt[2].as_mut().unwrap().send(&"w".repeat(999_999));
        opt[0].as_mut().unwrap().send("go");
        assert_eq!(opt[0].as_mut().unwrap().read_line(soon(5000)), line("c:go"));
        // d's pending output is written by a pump (or when d is waited on).
        let mut rest: Vec<&mut BotProcess> = opt.iter_mut().flatten().collect();
        pump(&mut rest);
        assert_eq!(rest[1].read_line(soon(5000)), line("d"));
    }
}
