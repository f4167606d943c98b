//! The end of a Svängknack round and of the session (svangknack.md Sec. 2.6-2.7 and 5): the
//! settlement by thirds and bets, and the outcome.

use super::rules::MAX_PLAYERS;
use super::state::{Phase, RoundSummary, Svangknack};
use crate::args;
use crate::engine::Events;
use crate::game::Outcome;

impl Svangknack {
    pub(super) fn settle(&mut self, ev: &mut impl Events) {
        let third = self.pot / 3;
        let mut bets = 0u32;
        for s in 0..self.n {
            if self.won[s] > 0 {
                let amount = third * self.won[s] as i64;
                self.chips[s] += amount;
                ev.emit(self.all(), "paid", || args![s, self.won[s], amount]);
            }
        }
        for s in 0..self.n {
            if self.participates(s) && self.won[s] == 0 {
                let bet = self.pot.min(self.r.bet_cap);
                self.chips[s] -= bet;
                self.carried += bet;
                bets |= 1 << s;
                ev.emit(self.all(), "bet", || args![s, bet]);
            }
        }
        let mut won = [0u8; MAX_PLAYERS];
        for (w, &x) in won.iter_mut().zip(&self.won) {
            *w = x as u8;
        }
        let summary = RoundSummary::Played {
            round: self.round_no,
            pot: self.pot,
            won,
            bets,
        };
        self.end_round(summary, ev);
    }

    pub(super) fn end_round(&mut self, summary: RoundSummary, ev: &mut impl Events) {
        ev.emit(self.all(), "chips", || args![self.chips_token()]);
        self.rounds_log.push(summary);
        self.pot = 0;
        self.dealer = self.forehand;
        let min = self.r.rounds;
        if self.round_no >= min && self.carried == 0 {
            self.finish("rounds_done", ev);
        } else if self.round_no >= min + self.r.extra_cap {
            // The cap: the bets still owed are divided equally; the remainder one chip each,
            // clockwise from the (next) dealer's left.
            let total = self.carried;
            self.final_split = total;
            let n = self.n as i64;
            for c in &mut self.chips[..self.n] {
                *c += total / n;
            }
            for k in 0..(total % n) as usize {
                let s = (self.dealer + 1 + k) % self.n;
                self.chips[s] += 1;
            }
            self.carried = 0;
            ev.emit(self.all(), "split", || args![total, self.chips_token()]);
            self.finish("cap_split", ev);
        } else if let Err(e) = self.start_round(ev) {
            // Only a deal file that does not fit can fail here; end the session cleanly.
            self.deal_error = Some(e);
            self.finish("deal_error", ev);
        }
    }

    fn finish(&mut self, reason: &'static str, ev: &mut impl Events) {
        self.phase = Phase::Over;
        ev.emit(self.all(), "end", || args![reason]);
        self.ended = Some(reason);
    }

    /// The outcome of a finished session (made when asked, from the state it ended in).
    pub(super) fn make_outcome(&self) -> Option<Outcome> {
        use serde_json::Value;
        let reason = self.ended?;
        let chips = &self.chips[..self.n];
        let best = (0..self.n).max_by_key(|&s| chips[s]).unwrap_or(0);
        let summary = format!(
            "{} round(s), {}; best seat {best} with {:+} chips",
            self.round_no,
            if reason == "cap_split" {
                format!("{} in bets split", self.final_split)
            } else {
                "no bets left".to_string()
            },
            chips[best]
        );
        let rounds: Vec<Value> = self.rounds_log.iter().map(|r| Value::String(r.text(self.n))).collect();
        // The keys in the order of the record.
        let mut detail = serde_json::Map::with_capacity(7);
        detail.insert("rounds".into(), self.round_no.into());
        detail.insert("deals".into(), self.deal_no.into());
        detail.insert("end".into(), reason.into());
        detail.insert("split".into(), self.final_split.into());
        detail.insert("chips".into(), chips.to_vec().into());
        detail.insert("round_summaries".into(), rounds.into());
        detail.insert("summary".into(), summary.into());
        Some(Outcome {
            scores: chips.iter().map(|&c| c as f64).collect(),
            detail: Value::Object(detail),
        })
    }
}
