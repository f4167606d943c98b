//! Reading lines from a bot's stdout: non-blocking reads into a buffer, lines cut at `\n` (or
//! `\r\n`), the limit on a line's length (a flood, whose rest is skipped), and the lines a bot
//! wrote before it was asked.

use std::io::{self, Read};
use std::time::Instant;

use super::bot::{with_read_buf, BotProcess, READ_CHUNK};
use super::read_result::ReadResult;

/// The most bytes of a flood line that [`ReadResult::Flood`] carries.
const FLOOD_PREFIX: usize = 64;

impl BotProcess {
    /// The complete lines the bot has written so far, taken without waiting. The referee takes
    /// them before it writes a request: none of them can answer that request, which the bot
    /// has not seen yet. (A line over the size limit is left for the next read, which reports
    /// the flood.)
    ///
    /// This only reads the bot's stdout (one `read` that finds the pipe empty, in the usual
    /// case): what is queued for the bot stays queued, so the notifications and the request
    /// go out in one `write`. (Writing the notifications here, before the request, woke the
    /// bot twice per decision: two extra context switches, the largest cost of a process
    /// bot's decision on one core.)
    pub fn stale_lines(&mut self) -> Vec<String> {
        self.read_available();
        let mut lines = Vec::new();
        while let Some(off) = self.inb[self.in_pos..].iter().position(|&b| b == b'\n') {
            if self.skipping || off > self.limits.max_line_bytes {
                break;
            }
            match self.ready_result(Instant::now()) {
                Some(ReadResult::Line(l)) => {
                    if let Some(t) = &mut self.transcript {
                        t.line(self.started, '<', &l);
                    }
                    lines.push(l);
                }
                _ => break,
            }
        }
        lines
    }

    pub(super) fn discard_input(&mut self) {
        self.inb.clear();
        self.in_pos = 0;
        self.scan = 0;
    }

    /// Reads stdout without waiting until the pipe is empty (or at its end).
    fn read_available(&mut self) {
        while self.stdout.is_some() {
            let before = self.inb.len() - self.in_pos;
            self.read_stdout_once();
            let got = (self.inb.len() - self.in_pos).saturating_sub(before);
            if got < READ_CHUNK {
                break;
            }
        }
    }

    /// One read from stdout into the input buffer.
    pub(super) fn read_stdout_once(&mut self) {
        let Some(stdout) = &mut self.stdout else {
            self.stdout_eof = true;
            return;
        };
        if self.in_pos > 0 {
            self.inb.drain(..self.in_pos);
            self.scan -= self.in_pos;
            self.in_pos = 0;
        }
        let inb = &mut self.inb;
        let gone = with_read_buf(|buf| loop {
            match stdout.read(buf) {
                Ok(0) => return true,
                Ok(n) => inb.extend_from_slice(&buf[..n]),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {}
                Err(_) => return true,
            }
            return false;
        });
        if gone {
            self.stdout_eof = true;
            self.stdout = None;
        }
    }

    /// A result that is available without waiting: a buffered line or flood, NotReading,
    /// or the end of stdout.
    pub(super) fn ready_result(&mut self, deadline: Instant) -> Option<ReadResult> {
        loop {
            let pending = &self.inb[self.scan..];
            if let Some(off) = pending.iter().position(|&b| b == b'\n') {
                let end = self.scan + off;
                let start = self.in_pos;
                self.in_pos = end + 1;
                self.scan = end + 1;
                if self.skipping {
                    self.skipping = false;
                    continue;
                }
                let mut line = &self.inb[start..end];
                if line.last() == Some(&b'\r') {
                    line = &line[..line.len() - 1];
                }
                return Some(if line.len() > self.limits.max_line_bytes {
                    ReadResult::Flood(flood_prefix(line))
                } else {
                    ReadResult::Line(String::from_utf8_lossy(line).into_owned())
                });
            }
            self.scan = self.inb.len();
            break;
        }
        let partial = &self.inb[self.in_pos..];
        if self.skipping {
            self.discard_input();
        } else if partial.len() > self.limits.max_line_bytes
            && !(partial.len() == self.limits.max_line_bytes + 1 && partial.last() == Some(&b'\r'))
        {
            let prefix = flood_prefix(partial);
            self.discard_input();
            self.skipping = true;
            return Some(ReadResult::Flood(prefix));
        }
        if self.not_reading {
            return Some(ReadResult::NotReading);
        }
        if self.stdout_eof {
            if self.in_pos < self.inb.len() && !self.skipping {
                // A last line without its newline.
                let mut line = &self.inb[self.in_pos..];
                if line.last() == Some(&b'\r') {
                    line = &line[..line.len() - 1];
                }
                let text = String::from_utf8_lossy(line).into_owned();
                self.discard_input();
                return Some(ReadResult::Line(text));
            }
            self.discard_input();
            return Some(self.exit_report(deadline));
        }
        None
    }
}

fn flood_prefix(line: &[u8]) -> String {
    String::from_utf8_lossy(&line[..line.len().min(FLOOD_PREFIX)]).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::process::limits::Limits;
    use crate::process::testing::{line, sh, soon, start};
    use std::time::Duration;

    /// Taking the early lines before a request reads them, and writes nothing: the
    /// notifications queued since the bot's last turn go out with the request, in one write
    /// (each write wakes the bot: two writes per decision were two extra context switches).
    #[test]
    fn stale_lines_take_early_lines_and_leave_queued_output_queued() {
        let mut b = start("echo early; echo guess; read x; read y; echo got:$x,$y");
        assert_eq!(b.read_line(soon(5000)), line("early"));
        b.send("move 1 AS play");
        let queued = b.pending_bytes();
        assert_eq!(queued, "move 1 AS play\n".len());
        let deadline = soon(5000);
        let stale = loop {
            let lines = b.stale_lines();
            assert_eq!(b.pending_bytes(), queued, "stale_lines wrote the queued notification");
            if !lines.is_empty() || Instant::now() > deadline {
                break lines;
            }
            std::thread::sleep(Duration::from_millis(1));
        };
        assert_eq!(stale, vec!["guess".to_string()]);
        b.send_display(format_args!("{} act {}", 2, "play"));
        b.flush();
        assert_eq!(b.pending_bytes(), 0);
        assert_eq!(b.read_line(soon(5000)), line("got:move 1 AS play,2 act play"));
    }

    #[test]
    fn reads_lines_lf_crlf_and_last_unterminated() {
        let mut b = start(r"printf 'a\r\nb\nc\r\n\377x\nlast'");
        assert_eq!(b.read_line(soon(3000)), line("a"));
        assert_eq!(b.read_line(soon(3000)), line("b"));
        assert_eq!(b.read_line(soon(3000)), line("c"));
        assert_eq!(b.read_line(soon(3000)), line("\u{FFFD}x"));
        assert_eq!(b.read_line(soon(3000)), line("last"));
        assert_eq!(
            b.read_line(soon(3000)),
            ReadResult::Exited {
                status: Some("exit code 0".into())
            }
        );
        // Stays exited.
        assert!(matches!(b.read_line(soon(3000)), ReadResult::Exited { .. }));
        assert!(!b.is_alive());
    }

    #[test]
    fn flood_lines() {
        let limits = Limits {
            max_line_bytes: 1000,
            ..Limits::default()
        };
        // Complete long line, then an exact-limit line (with CRLF), then a normal one.
        let mut b = BotProcess::spawn(
            &sh(r#"head -c 1500 /dev/zero | tr '\0' x; echo; head -c 1000 /dev/zero | tr '\0' y; printf '\r\nok\n'"#),
            None,
            limits,
        )
        .unwrap();
        assert_eq!(b.read_line(soon(3000)), ReadResult::Flood("x".repeat(64)));
        assert_eq!(b.read_line(soon(3000)), line(&"y".repeat(1000)));
        assert_eq!(b.read_line(soon(3000)), line("ok"));

        // An unterminated flood is reported before its end arrives (which waits for the test's
        // `go`, not for a time); the rest is skipped.
        let mut c = BotProcess::spawn(
            &sh(r#"head -c 5000 /dev/zero | tr '\0' x; read go; head -c 5000 /dev/zero | tr '\0' x; echo; echo ok"#),
            None,
            limits,
        )
        .unwrap();
        assert_eq!(c.read_line(soon(60_000)), ReadResult::Flood("x".repeat(64)));
        c.send("go");
        assert_eq!(c.read_line(soon(60_000)), line("ok"));
    }

    #[test]
    fn default_flood_limit() {
        let mut b = start(r#"head -c 1100000 /dev/zero | tr '\0' q; echo; echo fine"#);
        assert_eq!(b.read_line(soon(3000)), ReadResult::Flood("q".repeat(64)));
        assert_eq!(b.read_line(soon(3000)), line("fine"));
    }
}
