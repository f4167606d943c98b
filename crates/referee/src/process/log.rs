//! A bot's stderr log: a file created on the first byte, capped, and shared line by line between
//! processes when labelled.

use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::PathBuf;

const TRUNCATED_LINE: &[u8] = b"[croupier: log truncated]\n";

/// Where a bot's stderr goes: a file, created (with its directories) on the first byte and
/// appended to. With a `label`, several processes share the file: every line is written
/// whole, with the label in front, so that the lines of different processes do not mix.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogTarget {
    pub path: PathBuf,
    pub label: Option<String>,
}

/// The longest part line a labelled log holds back waiting for its end.
const MAX_PART_LINE: usize = 64 * 1024;

/// The stderr sink of a bot: a lazily created, capped log file (or nothing).
#[derive(Debug)]
pub(super) struct StderrLog {
    path: Option<PathBuf>,
    label: Option<String>,
    /// A labelled log's unfinished last line.
    part: Vec<u8>,
    cap: u64,
    file: Option<File>,
    written: u64,
    truncated: bool,
    ends_with_newline: bool,
    pub(super) error: Option<String>,
}

impl StderrLog {
    /// The log of a bot that has written nothing yet: to `log`, or nowhere; at most `cap` bytes.
    pub(super) fn new(log: Option<LogTarget>, cap: u64) -> StderrLog {
        StderrLog {
            path: log.as_ref().map(|l| l.path.clone()),
            label: log.and_then(|l| l.label),
            part: Vec::new(),
            cap,
            file: None,
            written: 0,
            truncated: false,
            ends_with_newline: true,
            error: None,
        }
    }

    pub(super) fn write(&mut self, data: &[u8], cap: u64) {
        self.cap = cap;
        let Some(label) = &self.label else {
            self.write_raw(data);
            return;
        };
        // Whole lines only, each after the label; a part line waits for its end.
        self.part.extend_from_slice(data);
        let whole = match self.part.iter().rposition(|&b| b == b'\n') {
            Some(i) => i + 1,
            None if self.part.len() > MAX_PART_LINE => self.part.len(),
            None => return,
        };
        let mut out = Vec::with_capacity(whole + label.len() * 4);
        for line in self.part[..whole].split_inclusive(|&b| b == b'\n') {
            out.extend_from_slice(label.as_bytes());
            out.extend_from_slice(line);
        }
        if !out.ends_with(b"\n") {
            out.push(b'\n');
        }
        self.part.drain(..whole);
        self.write_raw(&out);
    }

    fn write_raw(&mut self, data: &[u8]) {
        let cap = self.cap;
        if data.is_empty() || self.truncated || self.error.is_some() {
            return;
        }
        let Some(path) = &self.path else { return };
        if self.file.is_none() {
            let opened = (|| -> io::Result<File> {
                if let Some(dir) = path.parent() {
                    if !dir.as_os_str().is_empty() {
                        std::fs::create_dir_all(dir)?;
                    }
                }
                // Owner-only (protocol.md §13): a bot's log is no other user's to read.
                use std::os::unix::fs::OpenOptionsExt;
                OpenOptions::new().create(true).append(true).mode(0o600).open(path)
            })();
            match opened {
                Ok(f) => {
                    // Appending to an existing log: what is already there counts toward the cap.
                    self.written = f.metadata().map(|m| m.len()).unwrap_or(0);
                    if self.written >= cap {
                        self.truncated = true;
                        return;
                    }
                    self.file = Some(f);
                }
                Err(e) => {
                    self.error = Some(format!("cannot write log {}: {e}", path.display()));
                    return;
                }
            }
        }
        let room = cap.saturating_sub(self.written);
        let keep = data.len().min(usize::try_from(room).unwrap_or(usize::MAX));
        let mut out: Vec<u8> = data[..keep].to_vec();
        if keep > 0 {
            self.ends_with_newline = data[keep - 1] == b'\n';
        }
        if keep < data.len() {
            if !self.ends_with_newline && self.written + keep as u64 > 0 {
                out.push(b'\n');
            }
            if let Some(label) = &self.label {
                out.extend_from_slice(label.as_bytes());
            }
            out.extend_from_slice(TRUNCATED_LINE);
            self.truncated = true;
        }
        self.written += keep as u64;
        if let Some(f) = &mut self.file {
            if let Err(e) = f.write_all(&out) {
                self.error = Some(format!("cannot write log: {e}"));
                self.file = None;
            }
        }
        if self.truncated {
            self.file = None;
        }
    }
}

impl Drop for StderrLog {
    /// A labelled log's last line, even without its newline.
    fn drop(&mut self) {
        if !self.part.is_empty() {
            self.part.push(b'\n');
            let cap = self.cap;
            self.write(&[], cap);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::process::bot::BotProcess;
    use crate::process::limits::Limits;
    use crate::process::read_result::ReadResult;
    use crate::process::testing::{line, sh, soon};
    use std::time::Duration;

    #[test]
    fn stderr_log_lazy_and_capped() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("logs/deep/bot.log");
        let mut b = BotProcess::spawn(
            &sh("read x; echo err >&2; echo done"),
            Some(path.clone()),
            Limits::default(),
        )
        .unwrap();
        assert_eq!(b.read_line(soon(100)), ReadResult::Timeout);
        assert!(!path.exists(), "log created before any stderr");
        b.send("go");
        assert_eq!(b.read_line(soon(3000)), line("done"));
        b.drain_stderr();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "err\n");
        b.shutdown(Duration::from_secs(1));

        // A silent bot leaves no log.
        let quiet = dir.path().join("quiet.log");
        let mut q = BotProcess::spawn(&sh("echo ok"), Some(quiet.clone()), Limits::default()).unwrap();
        assert_eq!(q.read_line(soon(3000)), line("ok"));
        q.shutdown(Duration::from_secs(1));
        assert!(!quiet.exists());

        // The cap.
        let capped = dir.path().join("capped.log");
        let limits = Limits {
            max_log_bytes: 100,
            ..Limits::default()
        };
        let mut c = BotProcess::spawn(
            &sh(r#"head -c 300000 /dev/zero | tr '\0' e >&2; echo done"#),
            Some(capped.clone()),
            limits,
        )
        .unwrap();
        assert_eq!(c.read_line(soon(3000)), line("done"));
        c.shutdown(Duration::from_secs(1));
        let text = std::fs::read_to_string(&capped).unwrap();
        assert_eq!(text, format!("{}\n[croupier: log truncated]\n", "e".repeat(100)));
    }

    #[test]
    fn labelled_logs_share_a_file_line_by_line() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("bot.log");
        let target = |l: &str| {
            Some(LogTarget {
                path: path.clone(),
                label: Some(format!("[{l}] ")),
            })
        };
        // Each writes a line in two pieces, then a last line without its newline.
        let script = |me: &str| {
            sh(&format!(
                "printf 'one ' >&2; read x; printf 'two\\nlast {me}' >&2; echo done"
            ))
        };
        let mut a = BotProcess::spawn_logged(&script("a"), target("a"), Limits::default()).unwrap();
        let mut b = BotProcess::spawn_logged(&script("b"), target("b"), Limits::default()).unwrap();
        for p in [&mut a, &mut b] {
            p.send("go");
        }
        assert_eq!(a.read_line(soon(3000)), line("done"));
        assert_eq!(b.read_line(soon(3000)), line("done"));
        a.shutdown(Duration::from_secs(1));
        b.shutdown(Duration::from_secs(1));
        drop((a, b));
        let text = std::fs::read_to_string(&path).unwrap();
        let mut lines: Vec<&str> = text.lines().collect();
        lines.sort();
        assert_eq!(
            lines,
            ["[a] last a", "[a] one two", "[b] last b", "[b] one two"],
            "{text}"
        );
    }
}
