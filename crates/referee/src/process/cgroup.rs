//! The limits of a sandboxed bot's whole process tree, in control groups (cgroup v1, the memory
//! and pids controllers): what the bot and everything it starts may use together, where a
//! per-process rlimit counts each process alone. A run makes `croupier-<pid>` under croupier's
//! own group in each hierarchy, and in it a group per bot process (`bot-<k>`); the bot joins
//! both before `exec`, so all it starts is counted, and nothing in the sandbox can leave them
//! (it sees no `/sys`, and its cgroup namespace starts at its own group).
//!
//! When a limit is hit, the bot's end says which ([`Cgroup::findings`]): the kernel's OOM
//! killer ended a process at the memory limit, or process starts were refused at the limit on
//! processes.
//!
//! cgroups need root (the hierarchies belong to it); cgroup v2 alone (no v1 memory and pids
//! hierarchies) is not used yet: [`Hierarchies::find`] says why not, and the sandbox runs
//! without them.

use std::ffi::CString;
use std::path::{Path, PathBuf};

/// The two hierarchies' directories for this run (`…/croupier-<pid>`).
#[derive(Debug)]
pub(super) struct Hierarchies {
    memory: PathBuf,
    pids: PathBuf,
}

/// A v1 hierarchy mounted with `controller`: its mount point and the mount's root.
fn mount_of(mountinfo: &str, controller: &str) -> Option<(PathBuf, String)> {
    mountinfo.lines().find_map(|line| {
        let (left, right) = line.split_once(" - ")?;
        let mut r = right.split_whitespace();
        if r.next()? != "cgroup" {
            return None;
        }
        let _source = r.next()?;
        if !r.next()?.split(',').any(|o| o == controller) {
            return None;
        }
        let f: Vec<&str> = left.split_whitespace().collect();
        Some((PathBuf::from(f.get(4)?), f.get(3)?.to_string()))
    })
}

/// This process's group in the v1 hierarchy of `controller`, from `/proc/self/cgroup`.
fn own_group(cgroup: &str, controller: &str) -> Option<String> {
    cgroup.lines().find_map(|line| {
        let mut f = line.splitn(3, ':');
        let _id = f.next()?;
        let controllers = f.next()?;
        let path = f.next()?;
        controllers
            .split(',')
            .any(|c| c == controller)
            .then(|| path.to_string())
    })
}

/// The directory of this process's own group in the hierarchy of `controller`.
fn own_dir(mountinfo: &str, cgroup: &str, controller: &str) -> Result<PathBuf, String> {
    let (mount, root) =
        mount_of(mountinfo, controller).ok_or(format!("no cgroup v1 hierarchy with the {controller} controller"))?;
    let group = own_group(cgroup, controller).ok_or(format!("croupier is in no {controller} cgroup"))?;
    let rel = group.strip_prefix(root.trim_end_matches('/')).unwrap_or(&group);
    Ok(mount.join(rel.trim_start_matches('/')))
}

impl Hierarchies {
    /// Makes this run's groups, after removing what runs that were SIGKILLed left (empty groups
    /// of processes that are gone). The error says what is missing.
    pub fn find() -> Result<Hierarchies, String> {
        // SAFETY: geteuid has no preconditions.
        if unsafe { libc::geteuid() } != 0 {
            return Err("cgroups need root".into());
        }
        let mountinfo = std::fs::read_to_string("/proc/self/mountinfo").map_err(|e| e.to_string())?;
        let cgroup = std::fs::read_to_string("/proc/self/cgroup").map_err(|e| e.to_string())?;
        let run = format!("croupier-{}", std::process::id());
        let mut dirs = Vec::new();
        for controller in ["memory", "pids"] {
            let own = own_dir(&mountinfo, &cgroup, controller)?;
            remove_stale(&own);
            let dir = own.join(&run);
            // One there already is a dead run's whose pid this process has now.
            remove_tree(&dir);
            std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
            dirs.push(dir);
        }
        let pids = dirs.pop().expect("two");
        let memory = dirs.pop().expect("two");
        Ok(Hierarchies { memory, pids })
    }

    /// A group in each hierarchy for bot process `k`: at most `memory` bytes (if given) and
    /// `processes` processes for the bot and all it starts.
    pub fn make(&self, k: u32, memory: Option<u64>, processes: u64) -> Result<Cgroup, String> {
        let name = format!("bot-{k}");
        let group = Cgroup {
            memory: self.memory.join(&name),
            pids: self.pids.join(&name),
            memory_limit: memory,
            processes,
        };
        for dir in [&group.memory, &group.pids] {
            std::fs::create_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        }
        let set = |dir: &Path, file: &str, value: String| {
            std::fs::write(dir.join(file), &value).map_err(|e| format!("{}/{file} = {value}: {e}", dir.display()))
        };
        if let Some(bytes) = memory {
            set(&group.memory, "memory.limit_in_bytes", bytes.to_string())?;
            // No swap to move to either (where the kernel counts it): the limit is the limit.
            let _ = set(&group.memory, "memory.memsw.limit_in_bytes", bytes.to_string());
        }
        set(&group.pids, "pids.max", processes.to_string())?;
        Ok(group)
    }

    /// Removes this run's groups (at its end: every bot is gone by then).
    pub fn remove(&self) {
        for dir in [&self.memory, &self.pids] {
            remove_tree(dir);
        }
    }
}

/// Removes `dir`'s sub-groups, then `dir` (groups are removed with rmdir, empty or not: their
/// files are the kernel's). A group whose last process has just exited can be busy for a
/// moment: tried again for up to a second.
fn remove_tree(dir: &Path) {
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        if e.path().is_dir() {
            remove_group(&e.path());
        }
    }
    remove_group(dir);
}

fn remove_group(dir: &Path) {
    for _ in 0..100 {
        match std::fs::remove_dir(dir) {
            Err(e) if e.raw_os_error() == Some(libc::EBUSY) => std::thread::sleep(std::time::Duration::from_millis(10)),
            _ => return,
        }
    }
}

/// Removes the `croupier-<pid>` groups under `own` whose run is gone.
fn remove_stale(own: &Path) {
    for e in std::fs::read_dir(own).into_iter().flatten().flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        let Some(pid) = name.strip_prefix("croupier-").and_then(|p| p.parse::<u32>().ok()) else {
            continue;
        };
        if !Path::new(&format!("/proc/{pid}")).exists() {
            remove_tree(&e.path());
        }
    }
}

/// One bot process's groups.
#[derive(Debug)]
pub(super) struct Cgroup {
    memory: PathBuf,
    pids: PathBuf,
    memory_limit: Option<u64>,
    processes: u64,
}

impl Cgroup {
    /// The files a child writes `0` (itself) into, between fork and exec, to join the groups.
    pub fn join_files(&self) -> Vec<CString> {
        [&self.memory, &self.pids]
            .iter()
            .map(|d| {
                CString::new(d.join("cgroup.procs").into_os_string().into_encoded_bytes()).expect("no NUL in a path")
            })
            .collect()
    }

    /// The limits that were hit, in words, for the bot's fault or log ("the kernel's OOM killer
    /// ended 1 process at the memory limit of 64M (--bot-memory, for the bot and all it started)").
    pub fn findings(&self) -> Vec<String> {
        let mut said = Vec::new();
        let read = |dir: &Path, file: &str, key: &str| -> u64 {
            let text = std::fs::read_to_string(dir.join(file)).unwrap_or_default();
            text.lines()
                .find_map(|l| l.strip_prefix(key)?.trim().parse().ok())
                .unwrap_or(0)
        };
        let oom = read(&self.memory, "memory.oom_control", "oom_kill ");
        if oom > 0 {
            let limit = self.memory_limit.map(super::limits::format_bytes).unwrap_or_default();
            said.push(format!(
                "the kernel's OOM killer ended {oom} process(es) at the memory limit of {limit} (--bot-memory, for the bot and all it started)"
            ));
        }
        let refused = read(&self.pids, "pids.events", "max ");
        if refused > 0 {
            said.push(format!(
                "{refused} process start(s) were refused at the limit of {} processes (--bot-processes, for the bot and all it started)",
                self.processes
            ));
        }
        said
    }

    /// Removes the groups (once the bot's processes are gone).
    pub fn remove(&self) {
        remove_group(&self.memory);
        remove_group(&self.pids);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MOUNTINFO: &str = "\
31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755
35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory
39 31 0:36 /outer /sys/fs/cgroup/pids rw,relatime - cgroup cgroup rw,pids
41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw
";
    const CGROUP: &str = "8:pids:/outer/inner\n4:memory:/process_api/5ef3\n0::/\n";

    #[test]
    fn the_own_group_is_found_under_its_mount() {
        assert_eq!(
            own_dir(MOUNTINFO, CGROUP, "memory").unwrap(),
            PathBuf::from("/sys/fs/cgroup/memory/process_api/5ef3")
        );
        // A mount whose root is a group of its own (a container's view).
        assert_eq!(
            own_dir(MOUNTINFO, CGROUP, "pids").unwrap(),
            PathBuf::from("/sys/fs/cgroup/pids/inner")
        );
        let err = own_dir(MOUNTINFO, CGROUP, "cpu").unwrap_err();
        assert!(err.contains("cpu controller"), "{err}");
    }
}
