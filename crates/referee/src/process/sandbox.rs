//! `--sandbox`: each bot process in a sandbox of its own, made by bubblewrap (`bwrap`, Debian's
//! package): its own PID namespace (everything it starts ends with it, also when croupier is
//! SIGKILLed: bwrap dies with croupier and takes the namespace with it), no network but its own
//! loopback (unless allowed), its own IPC, UTS and cgroup namespaces, a new session (no
//! terminal to push keys into), an empty environment but PATH, HOME and TMPDIR, and a view of
//! the filesystem that holds only the system's read-only directories, the directories its
//! command line names (read-only), a private `/tmp` and a private writable scratch directory,
//! `/scratch`, removed afterwards. croupier's own outputs (records, logs, transcripts, keys) are
//! hidden even where they lie inside a directory the bot sees. When croupier runs as root, each
//! bot process also gets a uid of its own (it cannot read or signal another bot or croupier)
//! and at most [`PROCESSES`] processes (or `--bot-processes`), and the memory and processes of
//! its whole tree are limited in control groups of its own (`process/cgroup.rs`) where the
//! machine has them.
//!
//! bubblewrap rather than namespaces written here: it is a small, well-kept setuid-free tool that
//! Flatpak relies on, it handles the order of mounts and the corner cases of the kernel, and it
//! costs 5–9 ms a bot start here, control groups included (`bench/sandbox.sh`, BENCHMARKS.md).

use std::os::unix::fs::{DirBuilderExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::OnceLock;

use super::cgroup::{Cgroup, Hierarchies};
use super::limits::Limits;

/// The run's sandbox, set once by [`enable`].
struct Sandbox {
    bwrap: PathBuf,
    /// The bots may use the network (`--sandbox-net`).
    net: bool,
    /// Paths a bot must not see (croupier's outputs).
    hide: Vec<PathBuf>,
    /// Where scratch directories are made.
    scratch_root: PathBuf,
    /// This run's control groups (croupier as root, cgroup v1), else why there are none.
    groups: Result<Hierarchies, String>,
}

static SANDBOX: OnceLock<Sandbox> = OnceLock::new();

/// The system's directories a bot sees, read-only (those that exist).
const SYSTEM: [&str; 9] = [
    "/usr", "/etc", "/opt", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32",
];

/// The processes a sandboxed bot with a uid of its own may have at once (RLIMIT_NPROC, which
/// counts a user's processes and threads): a fork bomb stops there.
pub const PROCESSES: u64 = 64;

/// The first uid of the ranges a root croupier gives its sandboxed bots, one each: a run takes
/// the thousand uids from `UID_BASE + (its pid mod 4000) * 1000`, so that two runs at once do
/// not share a uid (nor its count of processes).
const UID_BASE: u32 = 3_000_000;

fn uid_range() -> u32 {
    UID_BASE + (std::process::id() % 4000) * 1000
}
static NEXT_UID: AtomicU32 = AtomicU32::new(0);

fn is_root() -> bool {
    // SAFETY: geteuid has no preconditions.
    unsafe { libc::geteuid() == 0 }
}

/// Turns the sandbox on for the bot processes started from now on whose limits ask for it:
/// finds bwrap and checks that it can make its namespaces here (as the user a bot would run
/// as). The error says what is missing and how to get it: croupier never runs a bot
/// unsandboxed when asked for a sandbox. The answer says what holds less here than with root
/// and cgroups (for the run's header), one line each.
pub fn enable(net: bool, hide: Vec<PathBuf>) -> Result<Vec<String>, String> {
    if let Some(sb) = SANDBOX.get() {
        return Ok(sb.caveats());
    }
    let bwrap = find_bwrap().ok_or(
        "--sandbox needs bubblewrap (`bwrap`), which is not on PATH: install it (Debian/Ubuntu: apt-get install bubblewrap; Fedora: dnf install bubblewrap)",
    )?;
    let scratch_root = std::env::temp_dir().join(format!("croupier-sandbox-{}", std::process::id()));
    remove_stale_scratch(&scratch_root);
    std::fs::DirBuilder::new()
        .mode(0o711)
        .recursive(true)
        .create(&scratch_root)
        .map_err(|e| format!("--sandbox: {}: {e}", scratch_root.display()))?;
    let _ = std::fs::set_permissions(&scratch_root, std::fs::Permissions::from_mode(0o711));
    let hide = hide.into_iter().filter_map(|p| std::path::absolute(p).ok()).collect();
    let sb = Sandbox {
        bwrap,
        net,
        hide,
        scratch_root,
        groups: Hierarchies::find(),
    };
    probe(&sb)?;
    let caveats = sb.caveats();
    let _ = SANDBOX.set(sb);
    Ok(caveats)
}

/// Removes the scratch directories' root and the run's control groups (at the end of the run).
pub fn clean_up() {
    if let Some(sb) = SANDBOX.get() {
        let _ = std::fs::remove_dir_all(&sb.scratch_root);
        if let Ok(groups) = &sb.groups {
            groups.remove();
        }
    }
}

/// Removes the scratch roots that runs SIGKILLed before their end left in `ours`'s directory
/// (their pid is gone), and `ours` itself if it is there: a dead run's whose pid this process
/// has now.
fn remove_stale_scratch(ours: &Path) {
    let _ = std::fs::remove_dir_all(ours);
    let Some(dir) = ours.parent() else { return };
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        let Some(pid) = name
            .strip_prefix("croupier-sandbox-")
            .and_then(|p| p.parse::<u32>().ok())
        else {
            continue;
        };
        if !Path::new(&format!("/proc/{pid}")).exists() {
            let _ = std::fs::remove_dir_all(e.path());
        }
    }
}

fn find_bwrap() -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join("bwrap"))
        .find(|p| p.is_file())
}

/// Runs `true` in a sandbox as a bot would run; the error quotes bwrap and says how to enable
/// what the kernel refused.
fn probe(sb: &Sandbox) -> Result<(), String> {
    let scratch = sb.scratch_root.join("probe");
    let _ = std::fs::create_dir_all(&scratch);
    let uid = is_root().then_some(uid_range() + 999);
    if let Some(u) = uid {
        chown(&scratch, u)?;
    }
    let argv = sb.wrap(&["true".to_string()], &scratch);
    let mut cmd = Command::new(&argv[0]);
    cmd.args(&argv[1..])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    if let Some(u) = uid {
        use std::os::unix::process::CommandExt;
        // (std drops the supplementary groups of a root parent when it sets the uid.)
        cmd.uid(u).gid(u);
    }
    let out = cmd.output().map_err(|e| format!("--sandbox: cannot run bwrap: {e}"))?;
    let _ = std::fs::remove_dir_all(&scratch);
    if out.status.success() {
        return Ok(());
    }
    let said = String::from_utf8_lossy(&out.stderr).trim().to_string();
    Err(format!(
        "--sandbox: bubblewrap cannot make a sandbox here ({said}). It needs unprivileged user \
         namespaces: `sysctl user.max_user_namespaces` must be above 0 (and on older Debian \
         kernels `sysctl kernel.unprivileged_userns_clone=1`); in a container, one that allows \
         them (e.g. docker run --security-opt seccomp=unconfined, or podman). No bot was started."
    ))
}

fn chown(path: &Path, uid: u32) -> Result<(), String> {
    std::os::unix::fs::chown(path, Some(uid), Some(uid)).map_err(|e| format!("--sandbox: {}: {e}", path.display()))
}

/// A sandboxed bot's start: the command line that runs `argv` in the sandbox, the uid to run
/// it as (a root croupier's: one per bot process), and what it holds while it runs.
pub(super) struct Sandboxed {
    pub argv: Vec<String>,
    pub uid: Option<u32>,
    pub hold: Confinement,
}

/// What a sandboxed bot holds while it runs, and gives back when it is dropped (after the bot
/// is reaped): its scratch directory and its control groups.
#[derive(Debug)]
pub(super) struct Confinement {
    scratch: PathBuf,
    pub cgroup: Option<Cgroup>,
}

impl Drop for Confinement {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.scratch);
        if let Some(g) = &self.cgroup {
            g.remove();
        }
    }
}

impl Sandboxed {
    /// The limits the wrapped command runs under, from the bot's `limits`: its own uid (as
    /// root); with control groups, processes and memory are limited for the bot's whole tree
    /// there, not per uid and per process (an address-space limit breaks runtimes that reserve large
    /// ranges they never use: Go, Java, V8).
    pub fn confine(&self, limits: Limits) -> Limits {
        Limits {
            user: limits.user.or(self.uid.map(|u| (u, u))),
            // The group counts the bot's processes where there is one (and names the limit
            // when it refuses one); else RLIMIT_NPROC, which counts a uid's.
            processes: self
                .uid
                .filter(|_| self.hold.cgroup.is_none())
                .map(|_| limits.processes.unwrap_or(PROCESSES)),
            memory_bytes: limits.memory_bytes.filter(|_| self.hold.cgroup.is_none()),
            ..limits
        }
    }
}

/// Wraps `argv` for the sandbox, with a fresh scratch directory and control groups, when the
/// bot's limits ask for a sandbox. A bot whose limits ask for a sandbox when none was set up is
/// refused: never run unsandboxed.
pub(super) fn wrap(argv: &[String], limits: &Limits) -> Result<Option<Sandboxed>, String> {
    if !limits.sandbox {
        return Ok(None);
    }
    let Some(sb) = SANDBOX.get() else {
        return Err("a sandbox was asked for but not set up (sandbox::enable)".to_string());
    };
    let k = NEXT_UID.fetch_add(1, Ordering::SeqCst);
    let scratch = sb.scratch_root.join(format!("bot-{k}"));
    std::fs::DirBuilder::new()
        .mode(0o700)
        .create(&scratch)
        .map_err(|e| format!("--sandbox: {}: {e}", scratch.display()))?;
    let mut hold = Confinement { scratch, cgroup: None };
    let uid = is_root().then_some(uid_range() + (k % 990));
    if let Some(u) = uid {
        chown(&hold.scratch, u)?;
    }
    if let Ok(groups) = &sb.groups {
        let processes = limits.processes.unwrap_or(PROCESSES);
        hold.cgroup = Some(
            groups
                .make(k, limits.memory_bytes, processes)
                .map_err(|e| format!("--sandbox: cannot make the bot's control groups: {e}"))?,
        );
    }
    Ok(Some(Sandboxed {
        argv: sb.wrap(argv, &hold.scratch),
        uid,
        hold,
    }))
}

impl Sandbox {
    /// What holds less here than for a root croupier with control groups, one line each.
    fn caveats(&self) -> Vec<String> {
        let mut said = Vec::new();
        if !is_root() {
            said.push(
                "--sandbox without root: the bots run as croupier's own user inside their namespaces \
                 (they still see no other process and no file outside their view), with no limit \
                 on their processes"
                    .to_string(),
            );
        }
        if let Err(why) = &self.groups {
            said.push(format!(
                "--sandbox: no control groups ({why}): --bot-memory limits each process's address \
                 space, not a bot's whole tree"
            ));
        }
        said
    }

    /// bwrap's command line for `argv` with `scratch` as /scratch.
    fn wrap(&self, argv: &[String], scratch: &Path) -> Vec<String> {
        let mut a: Vec<String> = vec![self.bwrap.to_string_lossy().into_owned()];
        let mut push = |words: &[&str]| a.extend(words.iter().map(|w| w.to_string()));
        push(&["--unshare-all", "--die-with-parent", "--new-session", "--clearenv"]);
        if self.net {
            push(&["--share-net"]);
        }
        for dir in SYSTEM {
            let p = Path::new(dir);
            match std::fs::read_link(p) {
                Ok(target) => push(&["--symlink", &target.to_string_lossy(), dir]),
                Err(_) if p.is_dir() => push(&["--ro-bind", dir, dir]),
                Err(_) => {}
            }
        }
        push(&["--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp"]);
        // What the command line names: a file's directory, or the directory, read-only.
        let mut seen: Vec<PathBuf> = Vec::new();
        for word in argv {
            let Ok(p) = std::path::absolute(word) else { continue };
            if !p.exists() {
                continue;
            }
            let dir = if p.is_dir() {
                p.clone()
            } else {
                p.parent().map(Path::to_path_buf).unwrap_or(p.clone())
            };
            if SYSTEM.iter().any(|s| dir.starts_with(s)) || seen.iter().any(|d| dir.starts_with(d)) {
                continue;
            }
            seen.push(dir.clone());
            let d = dir.to_string_lossy().into_owned();
            push(&["--ro-bind", &d, &d]);
        }
        // croupier's outputs, hidden where a directory the bot sees holds them.
        for h in &self.hide {
            if !seen.iter().any(|d| h.starts_with(d)) || !h.exists() {
                continue;
            }
            let s = h.to_string_lossy().into_owned();
            if h.is_dir() {
                push(&["--tmpfs", &s]);
            } else {
                push(&["--ro-bind", "/dev/null", &s]);
            }
        }
        let sc = scratch.to_string_lossy().into_owned();
        push(&["--bind", &sc, "/scratch"]);
        let cwd = std::env::current_dir()
            .map(|d| d.to_string_lossy().into_owned())
            .unwrap_or("/scratch".into());
        if !seen.iter().any(|d| Path::new(&cwd).starts_with(d)) {
            push(&["--dir", &cwd]);
        }
        push(&["--chdir", &cwd]);
        push(&[
            "--setenv",
            "PATH",
            "/usr/local/bin:/usr/bin:/bin",
            "--setenv",
            "HOME",
            "/scratch",
        ]);
        push(&["--setenv", "TMPDIR", "/tmp", "--setenv", "LANG", "C.UTF-8", "--"]);
        a.extend(argv.iter().cloned());
        a
    }
}
