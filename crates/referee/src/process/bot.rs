//! The running bot, [`BotProcess`]: its pipes, buffers and state, what it tells about itself,
//! and the switches of its transcript. What it does lives beside it: spawning, writing, reading
//! lines, stderr, waiting, the poll and the end.

use std::io::Write;
use std::os::fd::OwnedFd;
use std::process::{Child, ChildStderr, ChildStdin, ChildStdout, ExitStatus};
use std::time::{Duration, Instant};

use super::limits::Limits;
use super::log::StderrLog;
use super::read_result::ReadResult;
use super::transcript::Transcript;

/// The most bytes one read of stdout or stderr takes.
pub(super) const READ_CHUNK: usize = 64 * 1024;

thread_local! {
    /// Scratch space for one read of a bot's stdout or stderr, one per thread (not per bot):
    /// zeroing 64 KiB for each bot started cost a run of short games a page fault per 4 KiB.
    static READ_BUF: std::cell::RefCell<Box<[u8]>> =
        std::cell::RefCell::new(vec![0u8; READ_CHUNK].into_boxed_slice());
}

/// Runs `f` on this thread's read scratch space ([`READ_CHUNK`] bytes).
pub(super) fn with_read_buf<R>(f: impl FnOnce(&mut [u8]) -> R) -> R {
    READ_BUF.with(|b| f(&mut b.borrow_mut()))
}

/// A running bot: a child process with non-blocking pipes on its stdin, stdout and stderr.
#[derive(Debug)]
pub struct BotProcess {
    pub(super) argv: Vec<String>,
    pub(super) child: Child,
    pub(super) pid: i32,
    pub(super) stdin: Option<ChildStdin>,
    pub(super) stdout: Option<ChildStdout>,
    pub(super) stderr: Option<ChildStderr>,
    pub(super) limits: Limits,
    /// See [`BotProcess::late_look`].
    pub(super) late_look: Option<Duration>,
    /// Queued output: `out[out_pos..]` is not yet written.
    pub(super) out: Vec<u8>,
    pub(super) out_pos: usize,
    /// Input read from stdout: `inb[in_pos..]` is not yet consumed; no `\n` in `inb[in_pos..scan]`.
    pub(super) inb: Vec<u8>,
    pub(super) in_pos: usize,
    pub(super) scan: usize,
    /// Discarding the rest of a flood line (up to its `\n`).
    pub(super) skipping: bool,
    pub(super) stdout_eof: bool,
    pub(super) broken_pipe: bool,
    /// The bot closed its stdin after reading everything we sent.
    pub(super) stdin_reader_gone: bool,
    pub(super) not_reading: bool,
    pub(super) status: Option<ExitStatus>,
    pub(super) group_killed: bool,
    pub(super) log: StderrLog,
    /// The last [`TAIL_BYTES`](super::stderr::TAIL_BYTES) or more of stderr, for
    /// [`BotProcess::stderr_tail`].
    pub(super) tail: Vec<u8>,
    /// Readable once the bot has exited: a wait wakes on the exit itself, also when a child
    /// the bot left behind still holds its stdout open (no EOF comes then).
    pub(super) pidfd: Option<OwnedFd>,
    /// `--transcript`: every line both ways, with times.
    pub(super) transcript: Option<Transcript>,
    /// When the process was started: the transcript's clock.
    pub(super) started: Instant,
    /// Its last answer came within [`look_time`](super::wait::look_time) of the wait for it: the
    /// next wait looks for the answer before it sleeps.
    pub(super) answers_fast: bool,
    /// Its sandbox's scratch directory and control groups (`--sandbox`), given back when it is
    /// dropped.
    pub(super) confinement: Option<super::sandbox::Confinement>,
}

impl BotProcess {
    /// The command line the bot was started with.
    pub fn argv(&self) -> &[String] {
        &self.argv
    }

    /// The command line as one shell-quoted string, for messages.
    pub fn command_line(&self) -> String {
        shell_words::join(&self.argv)
    }

    /// The bot's process id (also its process group id).
    pub fn pid(&self) -> u32 {
        self.pid as u32
    }

    /// How long after its deadline the last wait for a line took its last look at the pipe
    /// (croupier's own lateness), if the wait went past its deadline.
    pub fn late_look(&self) -> Option<Duration> {
        self.late_look
    }

    /// The limits this bot runs under.
    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// Bytes queued for the bot's stdin and not yet written.
    pub fn pending_bytes(&self) -> usize {
        self.out.len() - self.out_pos
    }

    /// Whether the bot was declared not reading (see [`ReadResult::NotReading`]).
    pub fn is_not_reading(&self) -> bool {
        self.not_reading
    }

    /// A problem with the stderr log file (it could not be created or written), if any.
    pub fn stderr_log_error(&self) -> Option<&str> {
        self.log.error.as_deref()
    }

    /// Keeps a transcript of the bot's lines from now on (the lines since its start are kept
    /// for the first file given to [`transcript_to`](Self::transcript_to)).
    pub fn keep_transcript(&mut self) {
        self.transcript.get_or_insert_with(Transcript::default);
    }

    /// Writes the transcript into `path` from now on (created with its directory, truncated),
    /// closing the last one. Errors: the file cannot be made, or an earlier write failed.
    pub fn transcript_to(&mut self, path: &std::path::Path) -> Result<(), String> {
        let Some(t) = &mut self.transcript else {
            return Ok(());
        };
        t.write_to(path)
    }

    /// Continues the transcript of the process `old` that this one replaces (a restart): its
    /// lines go on in the file of the game in play, after a `#` line that says so, instead of
    /// waiting for the next game's file.
    pub fn transcript_after(&mut self, old: &mut BotProcess) -> Result<(), String> {
        let (Some(t), Some(before)) = (&mut self.transcript, &mut old.transcript) else {
            return Ok(());
        };
        t.go_on_after(before)
    }

    /// Writes out the transcript's buffered lines (the referee does at the end of each game).
    pub fn flush_transcript(&mut self) -> Result<(), String> {
        match &mut self.transcript {
            Some(Transcript { error: Some(e), .. }) => Err(e.clone()),
            Some(Transcript { file: Some(f), .. }) => f.flush().map_err(|e| e.to_string()),
            _ => Ok(()),
        }
    }

    /// Notes what a read brought in the transcript.
    pub(super) fn transcribe(&mut self, r: &ReadResult) {
        if let Some(t) = &mut self.transcript {
            match r {
                ReadResult::Line(l) => t.line(self.started, '<', l),
                ReadResult::Timeout => t.line(self.started, '#', "timeout: no answer by the deadline"),
                ReadResult::Exited { status } => t.line(
                    self.started,
                    '#',
                    &format!("exited ({})", status.as_deref().unwrap_or("status unknown")),
                ),
                ReadResult::Flood(prefix) => t.line(self.started, '#', &format!("line too long, starting '{prefix}'")),
                ReadResult::NotReading => t.line(self.started, '#', "not reading its input"),
            }
        }
    }
}
