//! Time at the table: the game clock of `--time` ([`Clock`]), each seat's thinking time and
//! what is left on its clock in a game, and milliseconds as records hold them.

use crate::game::Seat;
use std::time::Duration;

/// A game clock (`--time BANK+INC`): every seat starts each game with `bank`; the time it takes
/// for a decision is taken off, then `increment` is added. A decision may take at most what is
/// on the clock (and at most `move_time`); past it, the answer is a `timeout`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    pub bank: Duration,
    pub increment: Duration,
}

impl Clock {
    /// `BANK+INC` or `BANK` (durations like `60s`, `1.5s`, `500ms`, `2m`).
    pub fn parse(s: &str) -> Result<Clock, String> {
        let (bank, inc) = s.split_once('+').unwrap_or((s, "0s"));
        let d = |t: &str| match t.trim() {
            "0" | "0s" | "0ms" => Ok(Duration::ZERO),
            t => parse_duration(t).map_err(|e| format!("'{s}': {e}")),
        };
        let clock = Clock {
            bank: d(bank)?,
            increment: d(inc)?,
        };
        if clock.bank.is_zero() {
            return Err(format!("'{s}': the bank must be more than 0"));
        }
        Ok(clock)
    }
}

/// Each seat's thinking time in a game, and its clock (`--time`).
pub(super) struct SeatTimes {
    /// Milliseconds spent deciding, per seat.
    pub(super) think: Vec<f64>,
    /// What is left on each seat's clock, with `--time`.
    clock: Option<(Vec<Duration>, Clock)>,
}

impl SeatTimes {
    pub(super) fn new(n: usize, clock: Option<Clock>) -> SeatTimes {
        SeatTimes {
            think: vec![0.0; n],
            clock: clock.map(|c| (vec![c.bank; n], c)),
        }
    }
    /// What is left on `seat`'s clock (with `--time`).
    pub(super) fn left(&self, seat: Seat) -> Option<Duration> {
        self.clock.as_ref().map(|(left, _)| left[seat])
    }
    /// `seat` took `ms` for a decision: off its clock, then the increment on.
    pub(super) fn spent(&mut self, seat: Seat, ms: f64) {
        self.think[seat] += ms;
        if let Some((left, clock)) = &mut self.clock {
            left[seat] = left[seat].saturating_sub(Duration::from_secs_f64(ms / 1000.0)) + clock.increment;
        }
    }
}

/// Milliseconds with microsecond resolution (fast in-process bots are not all 0), as the
/// records hold them. Through a `u64`: `as_micros()` is a `u128`, and its conversion to a
/// float took 3 % of a match of random Kul bots.
pub(crate) fn ms_of(d: Duration) -> f64 {
    (d.as_secs() * 1_000_000 + u64::from(d.subsec_micros())) as f64 / 1000.0
}

/// Parses durations like `300ms`, `2s`, `1.5s`, `1m`.
pub fn parse_duration(s: &str) -> Result<std::time::Duration, String> {
    let t = s.trim();
    let (num, mult) = if let Some(n) = t.strip_suffix("ms") {
        (n, 0.001)
    } else if let Some(n) = t.strip_suffix('s') {
        (n, 1.0)
    } else if let Some(n) = t.strip_suffix('m') {
        (n, 60.0)
    } else {
        return Err(format!(
            "bad duration '{s}': write a number with a unit, like 300ms, 2s or 1m"
        ));
    };
    match num.trim().parse::<f64>() {
        Ok(x) if x > 0.0 && x.is_finite() => Ok(std::time::Duration::from_secs_f64(x * mult)),
        _ => Err(format!(
            "bad duration '{s}': write a positive number with a unit, like 300ms, 2s or 1m"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::ms_of;
    use std::time::Duration;

    #[test]
    fn milliseconds_keep_microseconds_and_drop_the_rest() {
        for (d, ms) in [
            (Duration::from_nanos(999), 0.0),
            (Duration::from_nanos(1_999), 0.001),
            (Duration::from_micros(12_345), 12.345),
            (Duration::new(90_061, 250_000_999), 90_061_250.0),
        ] {
            assert_eq!(ms_of(d), ms, "{d:?}");
            assert_eq!(ms_of(d), d.as_micros() as f64 / 1000.0, "{d:?}");
        }
    }
}
