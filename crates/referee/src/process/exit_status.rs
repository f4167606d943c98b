//! How a bot ended, in words: its exit code or signal, and what a limit of its had to do with it.

use std::os::unix::process::ExitStatusExt;
use std::process::ExitStatus;

use super::limits::{format_bytes, Limits};

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

/// [`describe_status`], with what a limit of the bot's has to do with it: the limits of its
/// control groups it hit (`hit`, in words), a CPU limit spent, or a memory limit that may have
/// made an allocation fail.
pub(super) fn describe_exit(st: ExitStatus, limits: &Limits, hit: &[String]) -> String {
    let mut s = describe_status(st);
    if !hit.is_empty() && !st.success() {
        s.push_str(": ");
        s.push_str(&hit.join("; "));
        return s;
    }
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
    if let Some(n) = limits.processes.filter(|_| !cpu_signal && !st.success()) {
        s.push_str(&format!(
            "; it ran under --bot-processes {n}, past which process starts fail"
        ));
    }
    s
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
