//! A bot's stderr: drained into its log whenever croupier polls, read to its end (bounded in
//! bytes and time) when the bot ends, and its last lines kept for the report of an exit.

use std::io::{self, Read};
use std::os::fd::AsRawFd;
use std::time::{Duration, Instant};

use super::bot::{with_read_buf, BotProcess};
use super::poll::{ppoll, time_left};

/// Most bytes read from stderr in one [`BotProcess::drain_stderr`] call, and at a bot's end:
/// a child the bot left behind may write without end.
const DRAIN_LIMIT: usize = 4 << 20;
/// How long a bot's stderr is read, at most, for its end (EOF) once the bot is killed: what the
/// bot wrote is in the pipe by then; the wait is for the last members of its process group to
/// die and close it, and a process outside the group that holds the pipe cuts it short.
pub(super) const STDERR_END_WAIT: Duration = Duration::from_millis(50);
/// The last bytes of stderr kept for [`BotProcess::stderr_tail`] (between this and twice this).
const TAIL_BYTES: usize = 4096;
/// The last lines of stderr an exit report names, and the most characters shown of each.
const TAIL_LINES: usize = 5;
const TAIL_LINE_CHARS: usize = 160;

impl BotProcess {
    /// Reads whatever the bot has written to stderr so far (without blocking) into its log.
    pub fn drain_stderr(&mut self) {
        let mut total = 0;
        while self.stderr.is_some() && total < DRAIN_LIMIT {
            match self.read_stderr_once() {
                Some(n) if n > 0 => total += n,
                _ => break,
            }
        }
    }

    /// Reads the bot's stderr into its log until its end (EOF), waiting for it at most `wait`
    /// and reading at most [`DRAIN_LIMIT`] bytes: a child the bot left behind may hold the pipe
    /// open, or write without end.
    pub(super) fn drain_stderr_to_end(&mut self, wait: Duration) {
        let until = Instant::now() + wait;
        let mut total = 0;
        while total < DRAIN_LIMIT {
            let Some(fd) = self.stderr.as_ref().map(|f| f.as_raw_fd()) else {
                return; // at its end
            };
            if let Some(n) = self.read_stderr_once() {
                total += n;
                continue;
            }
            if self.stderr.is_none() {
                return;
            }
            // Empty for now, not at its end.
            let Some(left) = time_left(until) else { return };
            let mut p = libc::pollfd {
                fd,
                events: libc::POLLIN,
                revents: 0,
            };
            if ppoll(std::slice::from_mut(&mut p), left) == 0 {
                return;
            }
        }
    }

    /// The last lines the bot wrote to stderr (at most `TAIL_LINES`, blank ones left out,
    /// each cut at `TAIL_LINE_CHARS` characters), as `last stderr: "a", "b"` with control
    /// characters escaped; None if it wrote none. For a crash's fault: a bot author needs
    /// exactly the lines a bot wrote as it failed (an assertion, a traceback's last line).
    pub fn stderr_tail(&self) -> Option<String> {
        let text = String::from_utf8_lossy(&self.tail);
        let lines: Vec<&str> = text
            .split('\n')
            .map(|l| l.trim_end_matches('\r'))
            .filter(|l| !l.trim().is_empty())
            .collect();
        if lines.is_empty() {
            return None;
        }
        let shown: Vec<String> = lines[lines.len().saturating_sub(TAIL_LINES)..]
            .iter()
            .map(|l| {
                let mut cut: String = l.chars().take(TAIL_LINE_CHARS).collect();
                if cut.len() < l.len() {
                    cut.push('…');
                }
                // Quoted and escaped: a bot's bytes never reach a terminal as control codes.
                format!("{cut:?}")
            })
            .collect();
        Some(format!("last stderr: {}", shown.join(", ")))
    }

    /// Keeps the last of stderr for [`stderr_tail`](Self::stderr_tail), from a line's start.
    fn keep_tail(tail: &mut Vec<u8>, data: &[u8]) {
        tail.extend_from_slice(&data[data.len().saturating_sub(2 * TAIL_BYTES)..]);
        if tail.len() > 2 * TAIL_BYTES {
            let mut cut = tail.len() - TAIL_BYTES;
            // From the start of a line, where one starts in what is kept.
            match tail[cut - 1..].iter().position(|&b| b == b'\n') {
                Some(nl) if cut + nl < tail.len() => cut += nl,
                _ => {}
            }
            tail.drain(..cut);
        }
    }

    /// One read from stderr into the log. Returns the bytes read, or None at EOF / error /
    /// nothing available.
    pub(super) fn read_stderr_once(&mut self) -> Option<usize> {
        let stderr = self.stderr.as_mut()?;
        let (log, tail, max) = (&mut self.log, &mut self.tail, self.limits.max_log_bytes);
        // Ok(Some(n)): n bytes read; Ok(None): nothing available; Err(()): EOF or an error.
        let got = with_read_buf(|buf| loop {
            match stderr.read(buf) {
                Ok(0) => return Err(()),
                Ok(n) => {
                    log.write(&buf[..n], max);
                    Self::keep_tail(tail, &buf[..n]);
                    return Ok(Some(n));
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => return Ok(None),
                Err(_) => return Err(()),
            }
        });
        got.unwrap_or_else(|()| {
            self.stderr = None;
            None
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::process::limits::Limits;
    use crate::process::read_result::ReadResult;
    use crate::process::testing::{line, sh, soon};

    /// A bot's stderr is read to its end when it ends, but never waited on without bound: a
    /// process outside its group that holds the pipe open (and writes without end) neither
    /// keeps `kill` waiting nor fills the memory; the log keeps its cap.
    #[test]
    fn the_end_of_stderr_is_read_within_bounds() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("bot.log");
        let pids = dir.path().join("pids");
        let limits = Limits {
            max_log_bytes: 1000,
            ..Limits::default()
        };
        // Two escapees keep the pipe: one silent, one writing without end. (This test process
        // is no subreaper: they are not swept.)
        // "ready" once the flood is in the log (croupier reads stderr while it waits).
        let script = format!(
            "setsid sleep 60 & echo $! > {p}; setsid yes flood >&2 & echo $! >> {p}; \
             until grep -q flood {log}; do sleep 0.01; done; \
             echo last words >&2; echo ready; read x; exit 3",
            p = pids.display(),
            log = path.display()
        );
        let mut b = BotProcess::spawn(&sh(&script), Some(path.clone()), limits).unwrap();
        assert_eq!(b.read_line(soon(120_000)), line("ready"));
        b.send("go");
        let r = b.read_line(soon(120_000));
        assert!(
            matches!(&r, ReadResult::Exited { status: Some(s) } if s.starts_with("exit code 3")),
            "{r:?}"
        );
        let t0 = Instant::now();
        b.kill();
        assert!(t0.elapsed() < Duration::from_secs(30), "{:?}", t0.elapsed());
        assert!(b.stderr.is_none());
        assert!(b.tail.len() <= 2 * TAIL_BYTES);
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.ends_with("[croupier: log truncated]\n"), "{text}");
        for pid in std::fs::read_to_string(&pids).unwrap().split_whitespace() {
            unsafe { libc::kill(pid.parse().unwrap(), libc::SIGKILL) };
        }
    }

    #[test]
    fn the_tail_of_stderr_starts_at_a_line() {
        let mut tail = Vec::new();
        for k in 0..10_000 {
            BotProcess::keep_tail(&mut tail, format!("line {k}\n").as_bytes());
            assert!(tail.len() <= 2 * TAIL_BYTES);
            assert!(tail.starts_with(b"line "), "{}", String::from_utf8_lossy(&tail));
        }
        // A last line longer than what is kept: its end is kept.
        BotProcess::keep_tail(&mut tail, &[b'z'; 3 * TAIL_BYTES]);
        BotProcess::keep_tail(&mut tail, b"\n");
        assert!(tail.len() >= TAIL_BYTES && tail.ends_with(b"zz\n"));
    }
}
