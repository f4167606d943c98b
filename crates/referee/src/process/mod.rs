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

use std::collections::BTreeSet;
use std::fs::{File, OpenOptions};
use std::io::{self, Read, Write};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::PathBuf;
use std::process::{Child, ChildStderr, ChildStdin, ChildStdout, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The bots of this process that are not reaped yet. [`sweep_orphans`] ends every other child
/// of croupier; a bot is registered in the same critical section that spawns it.
static LIVE_BOTS: Mutex<BTreeSet<i32>> = Mutex::new(BTreeSet::new());

fn live_bots() -> std::sync::MutexGuard<'static, BTreeSet<i32>> {
    LIVE_BOTS.lock().unwrap_or_else(|e| e.into_inner())
}

/// Makes croupier the reaper of whatever its bots leave behind (`PR_SET_CHILD_SUBREAPER`): a
/// descendant that left its bot's process group (`setsid`, a daemon) and outlives the bot
/// becomes croupier's child instead of init's, and [`sweep_orphans`] ends it.
pub fn become_subreaper() {
    // SAFETY: prctl with integer arguments only.
    unsafe {
        libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
    }
}

/// The children of this process: from `/proc/self/task/*/children` (one small file per
/// thread), or where the kernel has no such files, from every `/proc/<pid>/stat`.
fn children_of(parent: i32) -> Vec<i32> {
    if let Ok(tasks) = std::fs::read_dir("/proc/self/task") {
        let mut kids = Vec::new();
        let mut found = false;
        for t in tasks.flatten() {
            if let Ok(text) = std::fs::read_to_string(t.path().join("children")) {
                found = true;
                kids.extend(text.split_whitespace().filter_map(|p| p.parse::<i32>().ok()));
            }
        }
        if found {
            return kids;
        }
    }
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    dir.filter_map(|e| e.ok()?.file_name().to_str()?.parse::<i32>().ok())
        .filter(|pid| {
            // `pid (comm) state ppid …`; comm may hold spaces and parentheses.
            std::fs::read_to_string(format!("/proc/{pid}/stat"))
                .ok()
                .and_then(|st| st.rsplit_once(')')?.1.split_whitespace().nth(1)?.parse::<i32>().ok())
                == Some(parent)
        })
        .collect()
}

/// Kills and reaps every child of croupier that is not a live bot: what stopped bots left
/// behind (with [`become_subreaper`]). A killed orphan's own escaped children become
/// croupier's in turn; the sweep repeats while it finds any (a few rounds at most).
pub fn sweep_orphans() {
    // SAFETY: getpid has no preconditions.
    let me = unsafe { libc::getpid() };
    for _ in 0..16 {
        let live = live_bots();
        let orphans: Vec<i32> = children_of(me).into_iter().filter(|p| !live.contains(p)).collect();
        if orphans.is_empty() {
            return;
        }
        for pid in orphans {
            // SAFETY: kill and waitpid on a child of ours, which stays reserved until reaped.
            unsafe {
                libc::kill(-pid, libc::SIGKILL); // its group, if it leads one (setsid)
                libc::kill(pid, libc::SIGKILL);
                libc::waitpid(pid, std::ptr::null_mut(), 0);
            }
        }
    }
}

/// Set by [`kill_all_bots`]: croupier is about to exit, and a bot killed for it did not crash.
static STOPPING_AT_ONCE: AtomicBool = AtomicBool::new(false);

/// Ends every live bot's process group and then what they left behind: for a croupier that
/// must stop at once (a second Ctrl-C) and cannot shut its tables down one by one. From now
/// on a wait for a bot never returns (see [`BotProcess::read_line`]): the caller exits.
pub fn kill_all_bots() {
    STOPPING_AT_ONCE.store(true, Ordering::SeqCst);
    for &pid in live_bots().iter() {
        // SAFETY: kill has no memory-safety preconditions; the groups are our bots'.
        unsafe {
            libc::kill(-pid, libc::SIGKILL);
        }
    }
    sweep_orphans();
}

/// Resource limits for one bot process.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Longest accepted line from the bot, in bytes (without the line ending). Default 1 MiB.
    pub max_line_bytes: usize,
    /// Most bytes queued for the bot's stdin before it is declared "not reading". Default 16 MiB.
    pub max_pending_bytes: usize,
    /// Most bytes of stderr kept in the log file. Default 10 MiB.
    pub max_log_bytes: u64,
    /// `--bot-memory`: the bot's address space (RLIMIT_AS), in bytes; allocations past it fail.
    pub memory_bytes: Option<u64>,
    /// `--bot-cpu`: CPU seconds over the process's life (RLIMIT_CPU); SIGXCPU when spent, SIGKILL
    /// a second later.
    pub cpu_seconds: Option<u64>,
    /// `--bot-user`: the user (uid, its primary gid) the bot runs as; croupier must be root.
    pub user: Option<(u32, u32)>,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_line_bytes: 1 << 20,
            max_pending_bytes: 16 << 20,
            max_log_bytes: 10 << 20,
            memory_bytes: None,
            cpu_seconds: None,
            user: None,
        }
    }
}

/// The outcome of waiting for a line from a bot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReadResult {
    /// One line, without its `\n` or `\r\n` (invalid UTF-8 replaced lossily).
    Line(String),
    /// The deadline passed without a complete line.
    Timeout,
    /// The bot is gone: it closed its stdout, or its stdin pipe broke (a write gave EPIPE, or it
    /// closed its stdin leaving our output unread). `status` describes how it ended ("exit code
    /// 3", "killed by signal 11 (SIGSEGV)") when it has exited already (we wait at most 50 ms,
    /// never past the deadline, for an exit after EOF), followed by the last lines the bot
    /// wrote to stderr if it wrote any (`exit code 3; last stderr: "a", "b"`, see
    /// [`BotProcess::stderr_tail`]).
    Exited { status: Option<String> },
    /// The bot sent a line longer than [`Limits::max_line_bytes`]. Carries the start of the line
    /// (at most 64 bytes, lossily decoded). The rest of that line is discarded.
    Flood(String),
    /// More than [`Limits::max_pending_bytes`] were queued for the bot: it does not read its
    /// stdin. Further output to it is discarded.
    NotReading,
}

const READ_CHUNK: usize = 64 * 1024;
const FLOOD_PREFIX: usize = 64;
/// How long to wait (at most, and never past the read deadline) for a bot whose stdout reached
/// EOF to become reapable, so that [`ReadResult::Exited`] can carry its status.
const EXIT_STATUS_WAIT: Duration = Duration::from_millis(50);
/// Most bytes read from stderr in one [`BotProcess::drain_stderr`] call, and at a bot's end:
/// a child the bot left behind may write without end.
const DRAIN_LIMIT: usize = 4 << 20;
/// How long a bot's stderr is read, at most, for its end (EOF) once the bot is killed: what the
/// bot wrote is in the pipe by then; the wait is for the last members of its process group to
/// die and close it, and a process outside the group that holds the pipe cuts it short.
const STDERR_END_WAIT: Duration = Duration::from_millis(50);
/// The last bytes of stderr kept for [`BotProcess::stderr_tail`] (between this and twice this).
const TAIL_BYTES: usize = 4096;
/// The last lines of stderr an exit report names, and the most characters shown of each.
const TAIL_LINES: usize = 5;
const TAIL_LINE_CHARS: usize = 160;
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
struct StderrLog {
    path: Option<PathBuf>,
    label: Option<String>,
    /// A labelled log's unfinished last line.
    part: Vec<u8>,
    cap: u64,
    file: Option<File>,
    written: u64,
    truncated: bool,
    ends_with_newline: bool,
    error: Option<String>,
}

impl StderrLog {
    fn write(&mut self, data: &[u8], cap: u64) {
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

/// A running bot: a child process with non-blocking pipes on its stdin, stdout and stderr.
#[derive(Debug)]
pub struct BotProcess {
    argv: Vec<String>,
    child: Child,
    pid: i32,
    stdin: Option<ChildStdin>,
    stdout: Option<ChildStdout>,
    stderr: Option<ChildStderr>,
    limits: Limits,
    /// See [`BotProcess::late_look`].
    late_look: Option<Duration>,
    /// Queued output: `out[out_pos..]` is not yet written.
    out: Vec<u8>,
    out_pos: usize,
    /// Input read from stdout: `inb[in_pos..]` is not yet consumed; no `\n` in `inb[in_pos..scan]`.
    inb: Vec<u8>,
    /// Scratch space for one read of stdout or stderr (zeroed once, not at every read).
    rbuf: Box<[u8]>,
    in_pos: usize,
    scan: usize,
    /// Discarding the rest of a flood line (up to its `\n`).
    skipping: bool,
    stdout_eof: bool,
    broken_pipe: bool,
    /// The bot closed its stdin after reading everything we sent.
    stdin_reader_gone: bool,
    not_reading: bool,
    status: Option<ExitStatus>,
    group_killed: bool,
    log: StderrLog,
    /// The last [`TAIL_BYTES`] or more of stderr, for [`BotProcess::stderr_tail`].
    tail: Vec<u8>,
    /// Readable once the bot has exited: a wait wakes on the exit itself, also when a child
    /// the bot left behind still holds its stdout open (no EOF comes then).
    pidfd: Option<OwnedFd>,
    /// `--transcript`: every line both ways, with times.
    transcript: Option<Transcript>,
    /// When the process was started: the transcript's clock.
    started: Instant,
    /// Its last answer came within [`look_time`] of the wait for it: the next wait looks for
    /// the answer before it sleeps.
    answers_fast: bool,
}

/// What `--transcript` writes for one bot: every line croupier sends it (`>`), every line it
/// answers (`<`), and what became of a read that brought no line (`#`: timeout, exit, flood),
/// each with the time since the bot was started. Lines are kept in memory until the first file
/// is opened (the handshake comes before the first game), then go to the current game's file.
#[derive(Debug, Default)]
struct Transcript {
    file: Option<io::BufWriter<File>>,
    early: Vec<u8>,
    /// The first write error; the transcript stops there.
    error: Option<String>,
}

impl Transcript {
    fn line(&mut self, started: Instant, dir: char, text: &str) {
        if self.error.is_some() {
            return;
        }
        let t = started.elapsed().as_secs_f64();
        let entry = format!("{t:12.6} {dir} {text}\n");
        match &mut self.file {
            Some(f) => {
                if let Err(e) = f.write_all(entry.as_bytes()) {
                    self.error = Some(e.to_string());
                }
            }
            None => self.early.extend_from_slice(entry.as_bytes()),
        }
    }
}

impl BotProcess {
    /// Starts `argv` (program and arguments, looked up in `PATH`) as a bot.
    ///
    /// The child gets piped stdin/stdout/stderr, its own process group, `PR_SET_PDEATHSIG =
    /// SIGKILL`, and every file descriptor >= 3 marked close-on-exec. stderr is appended to
    /// `stderr_log` (created, with its parent directories, on the first byte), or discarded.
    pub fn spawn(argv: &[String], stderr_log: Option<PathBuf>, limits: Limits) -> Result<BotProcess, String> {
        let target = stderr_log.map(|path| LogTarget { path, label: None });
        BotProcess::spawn_logged(argv, target, limits)
    }

    /// [`spawn`](Self::spawn) with stderr going to `log`: a file of its own, or one shared
    /// with other processes, each line labelled.
    pub fn spawn_logged(argv: &[String], log: Option<LogTarget>, limits: Limits) -> Result<BotProcess, String> {
        let Some(program) = argv.first() else {
            return Err("cannot start bot: empty command".to_string());
        };
        let mut cmd = Command::new(program);
        cmd.args(&argv[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            // The run's seed may come through the environment; no bot may see it.
            .env_remove("CROUPIER_SEED")
            .env_remove("CROUPIER_BOT_SEED")
            .process_group(0);
        // SAFETY: getpid is always safe.
        let parent = unsafe { libc::getpid() };
        let (memory, cpu, user) = (limits.memory_bytes, limits.cpu_seconds, limits.user);
        // SAFETY: the closure only makes async-signal-safe system calls (setgroups, setgid,
        // setuid, setrlimit, prctl, getppid, syscall, getrlimit, fcntl) and does not allocate.
        unsafe {
            cmd.pre_exec(move || {
                let check = |r: libc::c_int| {
                    if r == -1 {
                        Err(io::Error::last_os_error())
                    } else {
                        Ok(())
                    }
                };
                if let Some((uid, gid)) = user {
                    // Groups first: once the uid is dropped they cannot be changed.
                    check(libc::setgroups(1, &gid))?;
                    check(libc::setgid(gid))?;
                    check(libc::setuid(uid))?;
                }
                if let Some(bytes) = memory {
                    let lim = libc::rlimit {
                        rlim_cur: bytes,
                        rlim_max: bytes,
                    };
                    check(libc::setrlimit(libc::RLIMIT_AS, &lim))?;
                }
                if let Some(secs) = cpu {
                    // SIGXCPU at the soft limit; the kernel sends SIGKILL at the hard one.
                    let lim = libc::rlimit {
                        rlim_cur: secs,
                        rlim_max: secs + 1,
                    };
                    check(libc::setrlimit(libc::RLIMIT_CPU, &lim))?;
                }
                // After the change of user, which clears the parent-death signal.
                if libc::prctl(
                    libc::PR_SET_PDEATHSIG,
                    libc::SIGKILL as libc::c_ulong,
                    0 as libc::c_ulong,
                    0 as libc::c_ulong,
                    0 as libc::c_ulong,
                ) == -1
                {
                    return Err(io::Error::last_os_error());
                }
                if libc::getppid() != parent {
                    // The referee died before prctl took effect.
                    return Err(io::Error::from_raw_os_error(libc::ESRCH));
                }
                mark_fds_cloexec();
                Ok(())
            });
        }
        // Spawned and registered in one critical section: a sweep never takes it for an orphan.
        let mut live = live_bots();
        let mut child = cmd
            .spawn()
            .map_err(|e| format!("cannot start bot '{program}': {}", os_error_text(&e)))?;
        live.insert(child.id() as i32);
        drop(live);
        let stdin = child.stdin.take();
        let stdout = child.stdout.take();
        let stderr = child.stderr.take();
        let pid = child.id() as i32;
        let bot = BotProcess {
            argv: argv.to_vec(),
            child,
            pidfd: pidfd_open(pid),
            pid,
            stdin,
            stdout,
            stderr,
            limits,
            late_look: None,
            out: Vec::new(),
            out_pos: 0,
            inb: Vec::new(),
            rbuf: vec![0u8; READ_CHUNK].into_boxed_slice(),
            in_pos: 0,
            scan: 0,
            skipping: false,
            stdout_eof: false,
            broken_pipe: false,
            stdin_reader_gone: false,
            not_reading: false,
            status: None,
            group_killed: false,
            transcript: None,
            started: Instant::now(),
            answers_fast: false,
            tail: Vec::new(),
            log: StderrLog {
                path: log.as_ref().map(|l| l.path.clone()),
                label: log.and_then(|l| l.label),
                part: Vec::new(),
                cap: limits.max_log_bytes,
                file: None,
                written: 0,
                truncated: false,
                ends_with_newline: true,
                error: None,
            },
        };
        let fds = [
            bot.stdin.as_ref().map(|f| f.as_raw_fd()),
            bot.stdout.as_ref().map(|f| f.as_raw_fd()),
            bot.stderr.as_ref().map(|f| f.as_raw_fd()),
        ];
        for fd in fds.into_iter().flatten() {
            if let Err(e) = set_nonblocking(fd) {
                // `bot` is dropped here: killed and reaped.
                return Err(format!(
                    "cannot start bot '{program}': cannot make pipe non-blocking: {}",
                    os_error_text(&e)
                ));
            }
        }
        Ok(bot)
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
        if let Some(e) = &t.error {
            return Err(e.clone());
        }
        if let Some(mut f) = t.file.take() {
            f.flush().map_err(|e| e.to_string())?;
        }
        let open = || -> io::Result<File> {
            if let Some(dir) = path.parent() {
                std::fs::create_dir_all(dir)?;
            }
            // Owner-only (protocol.md §13), as the bots' logs.
            use std::os::unix::fs::OpenOptionsExt;
            OpenOptions::new()
                .write(true)
                .create(true)
                .truncate(true)
                .mode(0o600)
                .open(path)
        };
        let mut f = io::BufWriter::new(open().map_err(|e| format!("{}: {e}", path.display()))?);
        f.write_all(&std::mem::take(&mut t.early))
            .map_err(|e| format!("{}: {e}", path.display()))?;
        t.file = Some(f);
        Ok(())
    }

    /// Continues the transcript of the process `old` that this one replaces (a restart): its
    /// lines go on in the file of the game in play, after a `#` line that says so, instead of
    /// waiting for the next game's file.
    pub fn transcript_after(&mut self, old: &mut BotProcess) -> Result<(), String> {
        let (Some(t), Some(before)) = (&mut self.transcript, &mut old.transcript) else {
            return Ok(());
        };
        if let Some(e) = before.error.take() {
            return Err(e);
        }
        let Some(mut f) = before.file.take() else {
            return Ok(());
        };
        let write = |f: &mut io::BufWriter<File>, bytes: &[u8]| f.write_all(bytes).map_err(|e| e.to_string());
        write(
            &mut f,
            format!(
                "{:12.6} # restarted: a new process, its times count from its start\n",
                0.0
            )
            .as_bytes(),
        )?;
        write(&mut f, &std::mem::take(&mut t.early))?;
        t.file = Some(f);
        Ok(())
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
    fn transcribe(&mut self, r: &ReadResult) {
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

    /// Whether the bot process has not exited yet (reaps it without blocking if it has).
    pub fn is_alive(&mut self) -> bool {
        self.try_reap();
        self.status.is_none()
    }

    /// How the bot ended ("exit code 0", "killed by signal 9 (SIGKILL)"), if it has been reaped
    /// (this reaps it without blocking if possible).
    pub fn exit_status(&mut self) -> Option<String> {
        self.try_reap();
        self.status.map(|st| describe_exit(st, &self.limits))
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

    /// Queues `line` plus `\n` for the bot, without writing: queued lines go out together, in
    /// one `write` where the pipe takes them, at the next [`flush`](Self::flush) or whenever
    /// the referee waits ([`read_line`](Self::read_line), [`pump`],
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

    /// A bot with more than [`Limits::max_pending_bytes`] unwritten is not reading its input.
    fn check_pending(&mut self) {
        if self.pending_bytes() > self.limits.max_pending_bytes {
            self.not_reading = true;
            self.out = Vec::new();
            self.out_pos = 0;
        }
    }

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

    /// Waits until `deadline` for the next line from the bot, meanwhile flushing its pending
    /// output and draining its stderr. Lines already buffered are returned without waiting.
    /// Only this bot is watched: other bots are neither written to nor read while it waits
    /// (one write per bot and decision; bots that are not asked are not woken).
    ///
    /// Once croupier stops at once ([`kill_all_bots`]), this never returns: the bot's death
    /// is croupier's doing, not a crash, and the game in play must not go on to be recorded
    /// with it (with substitutes for a "crashed" bot) in the moment before croupier exits.
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
    fn drain_stderr_to_end(&mut self, wait: Duration) {
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
        self.status.map(|st| describe_exit(st, &self.limits))
    }

    // ----- internals -----

    fn try_reap(&mut self) {
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
    fn exit_report(&mut self, deadline: Instant) -> ReadResult {
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
        let mut status = describe_exit(st, &self.limits);
        if let Some(tail) = self.stderr_tail() {
            status.push_str("; ");
            status.push_str(&tail);
        }
        ReadResult::Exited { status: Some(status) }
    }

    /// The read end of the bot's stdin was closed while nothing was pending on our side. If
    /// what we sent is still unread in the pipe, it is lost: the pipe is broken (as for EPIPE).
    /// Otherwise the bot read everything and closed its stdin: it may still answer, but the next
    /// [`send`](Self::send) counts as EPIPE.
    fn reader_gone(&mut self) {
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

    fn discard_input(&mut self) {
        self.inb.clear();
        self.in_pos = 0;
        self.scan = 0;
    }

    /// Writes pending output until the pipe is full. EPIPE marks the bot dead.
    fn flush_stdin(&mut self) {
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
    fn read_stdout_once(&mut self) {
        let Some(stdout) = &mut self.stdout else {
            self.stdout_eof = true;
            return;
        };
        if self.in_pos > 0 {
            self.inb.drain(..self.in_pos);
            self.scan -= self.in_pos;
            self.in_pos = 0;
        }
        let buf = &mut self.rbuf;
        loop {
            match stdout.read(buf) {
                Ok(0) => {
                    self.stdout_eof = true;
                    self.stdout = None;
                }
                Ok(n) => self.inb.extend_from_slice(&buf[..n]),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {}
                Err(_) => {
                    self.stdout_eof = true;
                    self.stdout = None;
                }
            }
            return;
        }
    }

    /// One read from stderr into the log. Returns the bytes read, or None at EOF / error /
    /// nothing available.
    fn read_stderr_once(&mut self) -> Option<usize> {
        let stderr = self.stderr.as_mut()?;
        let buf = &mut self.rbuf;
        loop {
            match stderr.read(buf) {
                Ok(0) => {
                    self.stderr = None;
                    return None;
                }
                Ok(n) => {
                    self.log.write(&buf[..n], self.limits.max_log_bytes);
                    Self::keep_tail(&mut self.tail, &buf[..n]);
                    return Some(n);
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => return None,
                Err(_) => {
                    self.stderr = None;
                    return None;
                }
            }
        }
    }

    /// A result that is available without waiting: a buffered line or flood, NotReading,
    /// or the end of stdout.
    fn ready_result(&mut self, deadline: Instant) -> Option<ReadResult> {
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

impl Drop for BotProcess {
    fn drop(&mut self) {
        self.kill();
    }
}

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
fn poll_round(
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
    true
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

/// Services every process without waiting: writes pending output that fits, drains stderr.
pub fn pump(procs: &mut [&mut BotProcess]) {
    while !poll_round(procs, None, None, Duration::ZERO) {}
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

/// The time left until `deadline`, or None if it has passed.
fn time_left(deadline: Instant) -> Option<Duration> {
    let left = deadline.checked_duration_since(Instant::now())?;
    (!left.is_zero()).then_some(left)
}

/// `ppoll` with a timeout of nanosecond resolution (plain `poll` counts whole milliseconds,
/// which would let an answer up to a millisecond late pass for on time).
fn ppoll(fds: &mut [libc::pollfd], timeout: Duration) -> libc::c_int {
    let ts = libc::timespec {
        tv_sec: timeout.as_secs().min(i32::MAX as u64) as libc::time_t,
        tv_nsec: timeout.subsec_nanos() as libc::c_long,
    };
    // SAFETY: `fds` is a valid array of `fds.len()` pollfd structures; `ts` outlives the call;
    // a null signal mask leaves the mask as it is.
    unsafe { libc::ppoll(fds.as_mut_ptr(), fds.len() as libc::nfds_t, &ts, std::ptr::null()) }
}

fn flood_prefix(line: &[u8]) -> String {
    String::from_utf8_lossy(&line[..line.len().min(FLOOD_PREFIX)]).into_owned()
}

fn set_nonblocking(fd: RawFd) -> io::Result<()> {
    // SAFETY: fcntl on a file descriptor we own.
    unsafe {
        let flags = libc::fcntl(fd, libc::F_GETFL);
        if flags == -1 || libc::fcntl(fd, libc::F_SETFL, flags | libc::O_NONBLOCK) == -1 {
            return Err(io::Error::last_os_error());
        }
    }
    Ok(())
}

/// Marks every fd >= 3 close-on-exec (runs in the child between fork and exec).
///
/// Closing them outright (`close_range(3, ~0, 0)`) would also close the close-on-exec pipe
/// through which std reports a failed `exec` to the parent, turning "no such program" into a
/// child that aborts. Marking them CLOEXEC closes them all at `exec` just the same.
fn mark_fds_cloexec() {
    const CLOSE_RANGE_CLOEXEC: libc::c_uint = 1 << 2;
    // SAFETY: raw syscalls on fd numbers; async-signal-safe.
    unsafe {
        let r = libc::syscall(
            libc::SYS_close_range,
            3 as libc::c_uint,
            libc::c_uint::MAX,
            CLOSE_RANGE_CLOEXEC,
        );
        if r == 0 {
            return;
        }
        // Older kernels (< 5.11): walk the fd table.
        let mut lim = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        let max = if libc::getrlimit(libc::RLIMIT_NOFILE, &mut lim) == 0 {
            lim.rlim_cur.clamp(1024, 1 << 16) as libc::c_int
        } else {
            1024
        };
        for fd in 3..max {
            let flags = libc::fcntl(fd, libc::F_GETFD);
            if flags >= 0 && flags & libc::FD_CLOEXEC == 0 {
                libc::fcntl(fd, libc::F_SETFD, flags | libc::FD_CLOEXEC);
            }
        }
    }
}

/// A pidfd for `pid` (Linux >= 5.3), readable once the process has exited.
fn pidfd_open(pid: i32) -> Option<OwnedFd> {
    // SAFETY: pidfd_open has no memory-safety preconditions; the fd it returns is ours.
    let fd = unsafe { libc::syscall(libc::SYS_pidfd_open, pid, 0 as libc::c_uint) };
    if fd < 0 {
        return None;
    }
    // SAFETY: a fresh fd owned by nobody else.
    Some(unsafe { OwnedFd::from_raw_fd(fd as RawFd) })
}

/// "No such file or directory" rather than "No such file or directory (os error 2)".
fn os_error_text(e: &io::Error) -> String {
    let text = e.to_string();
    match text.find(" (os error ") {
        Some(i) => text[..i].to_string(),
        None => text,
    }
}

fn signal_name(sig: i32) -> Option<&'static str> {
    Some(match sig {
        libc::SIGHUP => "SIGHUP",
        libc::SIGINT => "SIGINT",
        libc::SIGQUIT => "SIGQUIT",
        libc::SIGILL => "SIGILL",
        libc::SIGTRAP => "SIGTRAP",
        libc::SIGABRT => "SIGABRT",
        libc::SIGBUS => "SIGBUS",
        libc::SIGFPE => "SIGFPE",
        libc::SIGKILL => "SIGKILL",
        libc::SIGUSR1 => "SIGUSR1",
        libc::SIGSEGV => "SIGSEGV",
        libc::SIGUSR2 => "SIGUSR2",
        libc::SIGPIPE => "SIGPIPE",
        libc::SIGALRM => "SIGALRM",
        libc::SIGTERM => "SIGTERM",
        libc::SIGXCPU => "SIGXCPU",
        libc::SIGXFSZ => "SIGXFSZ",
        libc::SIGSYS => "SIGSYS",
        _ => return None,
    })
}

/// [`describe_status`], with what a limit of the bot's has to do with it: a CPU limit spent, or
/// a memory limit that may have made an allocation fail.
fn describe_exit(st: ExitStatus, limits: &Limits) -> String {
    let mut s = describe_status(st);
    let cpu_signal = matches!(st.signal(), Some(libc::SIGXCPU) | Some(libc::SIGKILL));
    match (limits.cpu_seconds, limits.memory_bytes) {
        (Some(secs), _) if st.signal() == Some(libc::SIGXCPU) => {
            s.push_str(&format!(": its --bot-cpu limit of {secs}s is spent"))
        }
        (_, Some(bytes)) if !cpu_signal && !st.success() => s.push_str(&format!(
            "; it ran under --bot-memory {}, past which allocations fail",
            format_bytes(bytes)
        )),
        _ => {}
    }
    s
}

/// Bytes as `--bot-memory` takes them: `512M`, `2G`, or a number.
pub fn format_bytes(b: u64) -> String {
    for (unit, size) in [("G", 1u64 << 30), ("M", 1 << 20), ("K", 1 << 10)] {
        if b >= size && b.is_multiple_of(size) {
            return format!("{}{unit}", b / size);
        }
    }
    b.to_string()
}

/// "exit code 3", "killed by signal 11 (SIGSEGV), core dumped".
fn describe_status(st: ExitStatus) -> String {
    if let Some(code) = st.code() {
        return format!("exit code {code}");
    }
    if let Some(sig) = st.signal() {
        let mut s = match signal_name(sig) {
            Some(name) => format!("killed by signal {sig} ({name})"),
            None => format!("killed by signal {sig}"),
        };
        if st.core_dumped() {
            s.push_str(", core dumped");
        }
        return s;
    }
    st.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sh(script: &str) -> Vec<String> {
        vec!["sh".into(), "-c".into(), script.into()]
    }

    fn start(script: &str) -> BotProcess {
        BotProcess::spawn(&sh(script), None, Limits::default()).expect("spawn")
    }

    fn soon(ms: u64) -> Instant {
        Instant::now() + Duration::from_millis(ms)
    }

    fn line(s: &str) -> ReadResult {
        ReadResult::Line(s.to_string())
    }

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

    #[test]
    fn child_inherits_only_stdio() {
        let file = tempfile::NamedTempFile::new().unwrap();
        let cpath = std::ffi::CString::new(file.path().as_os_str().as_encoded_bytes()).unwrap();
        // Deliberately without O_CLOEXEC.
        let fd = unsafe { libc::open(cpath.as_ptr(), libc::O_RDONLY) };
        assert!(fd >= 3);
        let argv = vec!["ls".to_string(), "/proc/self/fd".to_string()];
        let mut b = BotProcess::spawn(&argv, None, Limits::default()).unwrap();
        let mut fds = Vec::new();
        loop {
            match b.read_line(soon(3000)) {
                ReadResult::Line(l) => fds.push(l),
                ReadResult::Exited { .. } => break,
                other => panic!("{other:?}"),
            }
        }
        unsafe { libc::close(fd) };
        // 0, 1, 2 and the directory fd `ls` itself opened.
        assert_eq!(fds, ["0", "1", "2", "3"]);
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

    #[test]
    fn death_signal_set() {
        // PR_SET_PDEATHSIG fires when the spawning thread ends.
        // `sleep` directly, not under `sh`: the death signal is not inherited by grandchildren.
        let argv = vec!["sleep".to_string(), "100".to_string()];
        let mut b = std::thread::spawn(move || BotProcess::spawn(&argv, None, Limits::default()).unwrap())
            .join()
            .unwrap();
        match b.read_line(soon(3000)) {
            ReadResult::Exited { status } => {
                assert_eq!(status.as_deref(), Some("killed by signal 9 (SIGKILL)"))
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn missing_program_is_a_clear_error() {
        let err = BotProcess::spawn(&["/nonexistent/bot".into()], None, Limits::default()).unwrap_err();
        assert_eq!(err, "cannot start bot '/nonexistent/bot': No such file or directory");
        let err = BotProcess::spawn(&["croupier-no-such-bot".into()], None, Limits::default()).unwrap_err();
        assert!(err.starts_with("cannot start bot 'croupier-no-such-bot': "), "{err}");
        assert!(BotProcess::spawn(&[], None, Limits::default()).is_err());
    }
}
