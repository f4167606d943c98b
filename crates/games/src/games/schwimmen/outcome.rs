//! The end of a Schwimmen game: the final places and the outcome.

use super::scoring;
use super::state::{Phase, Schwimmen};
use crate::args;
use crate::game::{Outcome, Seat};
use crate::notation::fmt_score;
use serde_json::Value;

impl Schwimmen {
    pub(super) fn finish(&mut self, winner: Seat) {
        self.places[winner] = Some(1.0);
        self.phase = Phase::Over;
        self.winner = Some(winner);
        if self.ev.listening() {
            let all = self.all();
            let (places, paid) = self.final_places();
            for s in Self::by_place(&places) {
                self.ev
                    .emit(all, "place", || args![s, fmt_score(places[s]), fmt_score(paid[s])]);
            }
        }
    }

    /// Every seat's final place (everyone is placed once the game is over) and payment.
    pub(super) fn final_places(&self) -> (Vec<f64>, Vec<f64>) {
        let places: Vec<f64> = self.places.iter().map(|p| p.unwrap_or(self.n as f64)).collect();
        let paid = places.iter().map(|&p| scoring::payment(p)).collect();
        (places, paid)
    }

    /// The seats from the first place to the last (seat order within a shared place).
    fn by_place(places: &[f64]) -> Vec<Seat> {
        let mut by_place: Vec<Seat> = (0..places.len()).collect();
        by_place.sort_by(|&a, &b| places[a].total_cmp(&places[b]).then(a.cmp(&b)));
        by_place
    }

    /// The outcome of a game that is over (made when asked for: once, by the referee).
    pub(super) fn make_outcome(&self, winner: Seat) -> Outcome {
        use std::fmt::Write;
        let (places, paid) = self.final_places();
        // `place:seat` from the first place to the last, written into one string.
        let mut ranking = String::new();
        for (i, s) in Self::by_place(&places).into_iter().enumerate() {
            let sep = if i == 0 { "" } else { " " };
            let _ = write!(ranking, "{sep}{}:{s}", fmt_score(places[s]));
        }
        let summary = format!(
            "seat {winner} is the last one left after {} round(s); places {ranking}; the kitty gets {} francs",
            self.round,
            fmt_score(paid.iter().sum())
        );
        // The JSON made directly, as `json!` makes it (the same values, keys in the same order).
        fn array<T: Copy + Into<Value>>(xs: &[T]) -> Value {
            Value::Array(xs.iter().map(|&x| x.into()).collect())
        }
        fn object<const N: usize>(fields: [(&str, Value); N]) -> Value {
            Value::Object(fields.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
        }
        let drowned = self
            .drowned
            .iter()
            .map(|(r, seats)| object([("round", (*r).into()), ("seats", array(seats))]))
            .collect();
        Outcome {
            scores: paid.iter().map(|p| -p).collect(),
            detail: object([
                ("winner", winner.into()),
                ("places", array(&places)),
                ("paid", array(&paid)),
                ("kitty", paid.iter().sum::<f64>().into()),
                ("strikes", array(&self.strikes)),
                ("rounds", self.round.into()),
                ("drowned", Value::Array(drowned)),
                ("absent", array(&self.absent)),
                ("misdeals", array(&self.misdeals)),
                ("summary", summary.into()),
            ]),
        }
    }
}
