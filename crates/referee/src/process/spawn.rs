//! Starting a bot: the command (its environment, its own process group), the limits and user
//! set in the child before `exec`, the parent-death signal, the inherited descriptors closed,
//! the registration among the live bots, and the non-blocking pipes.

use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::Instant;

use super::bot::BotProcess;
use super::limits::Limits;
use super::log::{LogTarget, StderrLog};
use super::registry::live_bots;

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
        let sandboxed =
            super::sandbox::wrap(argv, &limits).map_err(|e| format!("cannot start bot '{program}': {e}"))?;
        let (run, confined) = match &sandboxed {
            Some(s) => (&s.argv[..], s.confine(limits)),
            // A count of processes is the sandbox's (with a uid or groups of the bot's own).
            None => (
                argv,
                Limits {
                    processes: None,
                    ..limits
                },
            ),
        };
        let join = sandboxed
            .as_ref()
            .and_then(|s| s.hold.cgroup.as_ref())
            .map(|g| g.join_files())
            .unwrap_or_default();
        let mut cmd = bot_command(&run[0], &run[1..]);
        confine_child(&mut cmd, &confined, join);
        // Registered with the command line it was asked for (what a caller that trusts it checks).
        let child = spawn_registered(&mut cmd, argv)?;
        let mut bot = BotProcess::from_child(argv, child, log, confined);
        bot.confinement = sandboxed.map(|s| s.hold);
        // On an error, `bot` is dropped here: killed and reaped.
        bot.make_pipes_nonblocking(program)?;
        Ok(bot)
    }

    /// The bot of `child`, just started from `argv`: its pipes taken from the child, its pidfd
    /// opened, its buffers empty, its stderr going to `log`.
    fn from_child(argv: &[String], mut child: Child, log: Option<LogTarget>, limits: Limits) -> BotProcess {
        let stdin = child.stdin.take();
        let stdout = child.stdout.take();
        let stderr = child.stderr.take();
        let pid = child.id() as i32;
        BotProcess {
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
            log: StderrLog::new(log, limits.max_log_bytes),
            confinement: None,
        }
    }

    /// Makes the bot's three pipes non-blocking. The error names `program`.
    fn make_pipes_nonblocking(&self, program: &str) -> Result<(), String> {
        let fds = [
            self.stdin.as_ref().map(|f| f.as_raw_fd()),
            self.stdout.as_ref().map(|f| f.as_raw_fd()),
            self.stderr.as_ref().map(|f| f.as_raw_fd()),
        ];
        for fd in fds.into_iter().flatten() {
            if let Err(e) = set_nonblocking(fd) {
                return Err(format!(
                    "cannot start bot '{program}': cannot make pipe non-blocking: {}",
                    os_error_text(&e)
                ));
            }
        }
        Ok(())
    }
}

/// The command that starts `program` with `args` as a bot: piped stdin, stdout and stderr, no
/// seed in its environment, a process group of its own.
fn bot_command(program: &str, args: &[String]) -> Command {
    let mut cmd = Command::new(program);
    cmd.args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        // The run's seed may come through the environment; no bot may see it.
        .env_remove("CROUPIER_SEED")
        .env_remove("CROUPIER_BOT_SEED")
        .process_group(0);
    cmd
}

/// Has the child, between `fork` and `exec`, join the control groups whose `cgroup.procs` files
/// are `join`, take the bot's user and its memory and CPU limits, ask for SIGKILL at the death
/// of the referee's thread (and fail if the referee is already gone), and mark every inherited
/// file descriptor >= 3 close-on-exec.
fn confine_child(cmd: &mut Command, limits: &Limits, join: Vec<std::ffi::CString>) {
    // SAFETY: getpid is always safe.
    let parent = unsafe { libc::getpid() };
    let (memory, cpu, user, procs) = (limits.memory_bytes, limits.cpu_seconds, limits.user, limits.processes);
    // SAFETY: the closure only makes async-signal-safe system calls (open, write, close,
    // setgroups, setgid, setuid, setrlimit, prctl, getppid, syscall, getrlimit, fcntl) and does
    // not allocate (the paths of `join` were made before the fork).
    unsafe {
        cmd.pre_exec(move || {
            let check = |r: libc::c_int| {
                if r == -1 {
                    Err(io::Error::last_os_error())
                } else {
                    Ok(())
                }
            };
            // While still root: writing `0` moves the writer, and all it will start, into the group.
            for file in &join {
                let fd = libc::open(file.as_ptr(), libc::O_WRONLY | libc::O_CLOEXEC);
                check(fd)?;
                let wrote = libc::write(fd, b"0".as_ptr().cast(), 1);
                libc::close(fd);
                if wrote != 1 {
                    return Err(io::Error::last_os_error());
                }
            }
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
            if let Some(n) = procs {
                let lim = libc::rlimit {
                    rlim_cur: n,
                    rlim_max: n,
                };
                check(libc::setrlimit(libc::RLIMIT_NPROC, &lim))?;
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
}

/// Spawns `cmd`, the bot `argv`, and registers the child among the live bots.
fn spawn_registered(cmd: &mut Command, argv: &[String]) -> Result<Child, String> {
    let program = &argv[0];
    // Spawned and registered in one critical section: a sweep never takes it for an orphan.
    let mut live = live_bots();
    let child = cmd
        .spawn()
        .map_err(|e| format!("cannot start bot '{program}': {}", os_error_text(&e)))?;
    live.insert(child.id() as i32, argv.to_vec());
    drop(live);
    Ok(child)
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
pub(super) fn pidfd_open(pid: i32) -> Option<OwnedFd> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::process::read_result::ReadResult;
    use crate::process::testing::soon;

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
