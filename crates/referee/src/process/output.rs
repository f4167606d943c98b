//! Writing to a bot: lines queued and written in one `write` where the pipe takes them, the
//! limit on what may wait unwritten (a bot that does not read), a broken pipe, and the close
//! of its stdin.

use std::io::{self, Write};
use std::os::fd::AsRawFd;

use super::bot::BotProcess;

impl BotProcess {
    /// Queues `line` plus `\n` for the bot, without writing: queued lines go out together, in
    /// one `write` where the pipe takes them, at the next [`flush`](Self::flush) or whenever
    /// the referee waits ([`read_line`](Self::read_line), [`pump`](crate::process::pump),
    /// [`shutdown`](Self::shutdown)). The referee flushes a bot when it asks it something, so
    /// a decision costs one write however many notifications came before it. Problems (not
    /// reading, dead bot) surface through the read API; output to such a bot is discarded.
    pub fn send(&mut self, line: &str) {
        self.send_display(line)
    }

    /// [`send`](Self::send) for a line written by `Display`, straight into the queue (no
    /// `String` made for it).
    pub fn send_display(&mut self, line: impl std::fmt::Display) {
        if self.stdin_reader_gone {
            self.broken_pipe = true;
        }
        if self.stdin.is_none() || self.not_reading || self.broken_pipe {
            return;
        }
        let start = self.out.len();
        // Writing into a Vec cannot fail.
        let _ = write!(self.out, "{line}");
        if let Some(t) = &mut self.transcript {
            t.line(self.started, '>', &String::from_utf8_lossy(&self.out[start..]));
        }
        self.out.push(b'\n');
        self.check_pending();
    }

    /// Writes what is queued, as far as the pipe takes it now, without blocking.
    pub fn flush(&mut self) {
        self.flush_stdin();
        self.check_pending();
    }

    /// A bot with more than [`Limits::max_pending_bytes`](crate::process::Limits::max_pending_bytes)
    /// unwritten is not reading its input.
    fn check_pending(&mut self) {
        if self.pending_bytes() > self.limits.max_pending_bytes {
            self.not_reading = true;
            self.out = Vec::new();
            self.out_pos = 0;
        }
    }

    /// Closes the bot's stdin (after one last non-blocking attempt to write pending output; what
    /// still does not fit is discarded). The bot sees EOF.
    pub fn close_stdin(&mut self) {
        if self.stdin.is_some() && self.pending_bytes() > 0 {
            self.flush_stdin();
        }
        self.stdin = None;
        self.out = Vec::new();
        self.out_pos = 0;
    }

    /// The read end of the bot's stdin was closed while nothing was pending on our side. If
    /// what we sent is still unread in the pipe, it is lost: the pipe is broken (as for EPIPE).
    /// Otherwise the bot read everything and closed its stdin: it may still answer, but the next
    /// [`send`](Self::send) counts as EPIPE.
    pub(super) fn reader_gone(&mut self) {
        let mut unread: libc::c_int = 0;
        if let Some(stdin) = &self.stdin {
            // SAFETY: FIONREAD writes one c_int; it works on either end of a pipe.
            if unsafe { libc::ioctl(stdin.as_raw_fd(), libc::FIONREAD, &mut unread) } != 0 {
                unread = 1;
            }
        }
        if unread > 0 {
            self.broken_pipe = true;
        } else {
            self.stdin_reader_gone = true;
        }
        self.stdin = None;
        self.out = Vec::new();
        self.out_pos = 0;
    }

    /// Writes pending output until the pipe is full. EPIPE marks the bot dead.
    pub(super) fn flush_stdin(&mut self) {
        while self.out_pos < self.out.len() {
            let Some(stdin) = &mut self.stdin else { return };
            match stdin.write(&self.out[self.out_pos..]) {
                Ok(0) => break,
                Ok(n) => self.out_pos += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => break,
                Err(_) => {
                    // EPIPE (or worse): nobody reads this pipe any more.
                    self.broken_pipe = true;
                    self.stdin = None;
                    self.out = Vec::new();
                    self.out_pos = 0;
                    return;
                }
            }
        }
        if self.out_pos == self.out.len() {
            self.out.clear();
            self.out_pos = 0;
        } else if self.out_pos > (1 << 20) && self.out_pos * 2 > self.out.len() {
            self.out.drain(..self.out_pos);
            self.out_pos = 0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::process::limits::Limits;
    use crate::process::read_result::ReadResult;
    use crate::process::testing::{line, soon, start};
    use std::time::{Duration, Instant};

    #[test]
    fn echo_round_trip() {
        let mut b = BotProcess::spawn(&["cat".to_string()], None, Limits::default()).unwrap();
        assert!(b.is_alive());
        assert_eq!(b.argv(), &["cat".to_string()]);
        b.send("1 hello 1");
        b.send("game rikken");
        assert_eq!(b.read_line(soon(3000)), line("1 hello 1"));
        assert_eq!(b.read_line(soon(3000)), line("game rikken"));
        assert_eq!(b.shutdown(Duration::from_secs(2)), Some("exit code 0".into()));
    }

    #[test]
    fn broken_pipe_is_exited() {
        // Closes its stdin but stays alive with stdout open: EPIPE alone must end the wait.
        let mut b = start("exec 0<&-; echo closed; sleep 5");
        assert_eq!(b.read_line(soon(3000)), line("closed"));
        b.send("1 quit");
        let t0 = Instant::now();
        let r = b.read_line(soon(3000));
        assert!(matches!(r, ReadResult::Exited { .. }), "{r:?}");
        assert!(t0.elapsed() < Duration::from_secs(1), "{:?}", t0.elapsed());
        // Sending more is a no-op; it stays Exited.
        b.send("2 quit");
        assert!(matches!(b.read_line(soon(3000)), ReadResult::Exited { .. }));
    }

    #[test]
    fn unread_request_lost_when_bot_closes_stdin() {
        // The request sits unread in the pipe when the bot closes its stdin: it can never be
        // answered, so the wait ends at once with Exited (the bot itself lives on).
        let mut b = start("sleep 0.2; exec 0<&-; sleep 5");
        b.send("1 act play 1000 AS KS");
        let t0 = Instant::now();
        let r = b.read_line(soon(3000));
        assert!(matches!(r, ReadResult::Exited { status: None }), "{r:?}");
        assert!(t0.elapsed() < Duration::from_secs(2), "{:?}", t0.elapsed());
        assert!(b.is_alive());
    }

    #[test]
    fn non_reading_bot_does_not_block_us() {
        let mut b = start("sleep 10");
        let mb = "x".repeat(1 << 20);
        let t0 = Instant::now();
        for i in 0..50 {
            b.send(&mb);
            if i < 10 {
                assert!(!b.is_not_reading());
            }
        }
        assert!(t0.elapsed() < Duration::from_secs(2), "{:?}", t0.elapsed());
        assert!(b.is_not_reading());
        assert_eq!(b.pending_bytes(), 0);
        assert_eq!(b.read_line(soon(3000)), ReadResult::NotReading);
        let t1 = Instant::now();
        b.shutdown(Duration::from_millis(100));
        assert!(t1.elapsed() < Duration::from_secs(2));
        assert!(!b.is_alive());
    }

    #[test]
    fn large_send_is_flushed_while_waiting() {
        // 4 MB to a bot that reads it all, then answers.
        let mut b = start("sleep 0.1; head -c 4000000 >/dev/null; echo got");
        b.send(&"y".repeat(3_999_999));
        assert!(b.pending_bytes() > 0);
        assert_eq!(b.read_line(soon(5000)), line("got"));
        assert_eq!(b.pending_bytes(), 0);
    }
}
