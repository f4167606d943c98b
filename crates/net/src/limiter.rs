//! Failed attempts per address: after [`Limiter::MAX_FAILURES`] failures within a window, an
//! address is turned away at once (before any TLS) until the window has passed. Guessing a
//! 256-bit secret is hopeless anyway; the limit keeps a prober from costing the referee work.

use std::collections::HashMap;
use std::net::IpAddr;
use std::time::{Duration, Instant};

/// Failures per address within a sliding window.
pub struct Limiter {
    window: Duration,
    failures: HashMap<IpAddr, Vec<Instant>>,
}

impl Limiter {
    /// Failures an address may have within the window.
    pub const MAX_FAILURES: usize = 5;

    pub fn new(window: Duration) -> Limiter {
        Limiter {
            window,
            failures: HashMap::new(),
        }
    }

    fn recent(&mut self, ip: IpAddr, now: Instant) -> &mut Vec<Instant> {
        let window = self.window;
        let list = self.failures.entry(ip).or_default();
        list.retain(|&t| now.duration_since(t) < window);
        list
    }

    /// Whether `ip` may try now.
    pub fn allowed(&mut self, ip: IpAddr, now: Instant) -> bool {
        let ok = self.recent(ip, now).len() < Self::MAX_FAILURES;
        // Forget addresses with nothing recent (the map stays small).
        if self.failures.len() > 4096 {
            let window = self.window;
            self.failures
                .retain(|_, l| l.last().is_some_and(|&t| now.duration_since(t) < window));
        }
        ok
    }

    /// `ip` failed once more.
    pub fn failed(&mut self, ip: IpAddr, now: Instant) {
        self.recent(ip, now).push(now);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_address_is_turned_away_after_five_failures_until_the_window_passes() {
        let mut l = Limiter::new(Duration::from_secs(60));
        let (a, b): (IpAddr, IpAddr) = ("10.0.0.1".parse().unwrap(), "10.0.0.2".parse().unwrap());
        let t0 = Instant::now();
        for i in 0..5 {
            assert!(l.allowed(a, t0), "failure {i}");
            l.failed(a, t0);
        }
        assert!(!l.allowed(a, t0 + Duration::from_secs(59)));
        assert!(l.allowed(b, t0), "another address is not affected");
        assert!(l.allowed(a, t0 + Duration::from_secs(61)), "the window passed");
    }
}
