//! The progress of a run on stderr, as its games finish.

use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::time::{Duration, Instant};

/// Progress on stderr: a bar on a terminal, a plain line every 10 s otherwise.
pub(crate) struct Progress {
    bar: Option<ProgressBar>,
    quiet: bool,
    total: u64,
    start: Instant,
    last: Instant,
}

impl Progress {
    const BAR_MESSAGE: Duration = Duration::from_millis(100);

    pub(crate) fn new(total: u64, quiet: bool) -> Progress {
        let bar = (!quiet && std::io::stderr().is_terminal()).then(|| {
            let b = ProgressBar::new(total);
            b.set_style(
                ProgressStyle::with_template("{bar:30} {pos}/{len} games  {per_sec}  eta {eta}  {msg}")
                    .expect("a valid template"),
            );
            b
        });
        Progress {
            bar,
            quiet,
            total,
            start: Instant::now(),
            last: Instant::now(),
        }
    }

    /// `done` games played; `msg` (the leading difference) is made only when it is shown: a
    /// bar's message at most every [`Progress::BAR_MESSAGE`], a line every ten seconds.
    pub(crate) fn update(&mut self, done: u64, msg: impl FnOnce() -> Option<String>) {
        if let Some(b) = &self.bar {
            b.set_position(done);
            if self.last.elapsed() >= Self::BAR_MESSAGE || done == self.total {
                self.last = Instant::now();
                b.set_message(msg().unwrap_or_default());
            }
        } else if !self.quiet && (self.last.elapsed() >= Duration::from_secs(10) || done == self.total) {
            self.last = Instant::now();
            let msg = msg().unwrap_or_default();
            let secs = self.start.elapsed().as_secs_f64();
            eprintln!(
                "{done}/{} games  {:.1} games/s  {msg}",
                self.total,
                done as f64 / secs.max(1e-9)
            );
        }
    }

    pub(crate) fn finish(&self) {
        if let Some(b) = &self.bar {
            b.finish_and_clear();
        }
    }
}
