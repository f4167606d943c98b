//! What the tests of the process layer share: bots as `sh -c` scripts, deadlines, lines.

use std::time::{Duration, Instant};

use super::bot::BotProcess;
use super::limits::Limits;
use super::read_result::ReadResult;

pub(super) fn sh(script: &str) -> Vec<String> {
    vec!["sh".into(), "-c".into(), script.into()]
}

pub(super) fn start(script: &str) -> BotProcess {
    BotProcess::spawn(&sh(script), None, Limits::default()).expect("spawn")
}

pub(super) fn soon(ms: u64) -> Instant {
    Instant::now() + Duration::from_millis(ms)
}

pub(super) fn line(s: &str) -> ReadResult {
    ReadResult::Line(s.to_string())
}
