//! The resource limits a bot runs under, and the way `--bot-memory` writes a size.

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
    /// Processes (threads included) the bot's user may have (RLIMIT_NPROC): set for a sandboxed
    /// bot with a uid of its own, where it counts that bot's processes alone.
    pub processes: Option<u64>,
    /// `--sandbox`: the bot runs in a sandbox ([`crate::process::sandbox`]; it must have been
    /// enabled).
    pub sandbox: bool,
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
            processes: None,
            sandbox: false,
        }
    }
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
