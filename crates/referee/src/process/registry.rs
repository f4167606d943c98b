//! The registry of live bots, and what croupier does with the children it does not know: the
//! subreaper that adopts what bots leave behind, the sweep that ends it, and the kill of every
//! bot at once for a croupier that must stop now.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

/// The bots of this process that are not reaped yet, with the command line each was started
/// with. [`sweep_orphans`] ends every other child of croupier; a bot is registered in the same
/// critical section that spawns it.
static LIVE_BOTS: Mutex<BTreeMap<i32, Vec<String>>> = Mutex::new(BTreeMap::new());

pub(super) fn live_bots() -> std::sync::MutexGuard<'static, BTreeMap<i32, Vec<String>>> {
    LIVE_BOTS.lock().unwrap_or_else(|e| e.into_inner())
}

/// The command line that live bot `pid` was started with, if `pid` is a live bot of this
/// process. (What a process runs now may differ: a bot may `exec` another program; this is what
/// croupier started, which is what a caller that must trust the process needs.)
pub fn spawned_argv(pid: u32) -> Option<Vec<String>> {
    live_bots().get(&(pid as i32)).cloned()
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
        let orphans: Vec<i32> = children_of(me).into_iter().filter(|p| !live.contains_key(p)).collect();
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
pub(super) static STOPPING_AT_ONCE: AtomicBool = AtomicBool::new(false);

/// Ends every live bot's process group and then what they left behind: for a croupier that
/// must stop at once (a second Ctrl-C) and cannot shut its tables down one by one. From now
/// on a wait for a bot never returns (see
/// [`BotProcess::read_line`](crate::process::BotProcess::read_line)): the caller exits.
pub fn kill_all_bots() {
    STOPPING_AT_ONCE.store(true, Ordering::SeqCst);
    for &pid in live_bots().keys() {
        // SAFETY: kill has no memory-safety preconditions; the groups are our bots'.
        unsafe {
            libc::kill(-pid, libc::SIGKILL);
        }
    }
    sweep_orphans();
}
