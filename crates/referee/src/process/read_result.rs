//! What a wait for a bot's line brings: the line, or why there is none.

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
    /// [`BotProcess::stderr_tail`](crate::process::BotProcess::stderr_tail)).
    Exited { status: Option<String> },
    /// The bot sent a line longer than
    /// [`Limits::max_line_bytes`](crate::process::Limits::max_line_bytes). Carries the start of
    /// the line (at most 64 bytes, lossily decoded). The rest of that line is discarded.
    Flood(String),
    /// More than [`Limits::max_pending_bytes`](crate::process::Limits::max_pending_bytes) were
    /// queued for the bot: it does not read its stdin. Further output to it is discarded.
    NotReading,
}
