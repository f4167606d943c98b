//! The end of a Zwikken deal and of the session: the settlement, the ledger of the deals, the
//! division of the pot at the end, and the outcome.

use super::money;
use super::state::{LedgerEntry, Phase, Zwikken, MAX_PLAYERS};
use crate::args;
use crate::engine::Events;
use crate::game::{Arg, Outcome, Seat};
use serde_json::json;

/// A guard of the arithmetic, not a rule: losing askers multiply the pot (a deal without a
/// winner and k askers leaves (1+k)·P), so reckless bots grow it exponentially. A session whose
/// pot passes 2^40 chips ends at once and the pot is divided as at the cap (zwikken.md §5),
/// which keeps every balance exact in an `f64` score. \[PROPOSAL\]
pub const POT_LIMIT: i64 = 1 << 40;

/// How a deal ended (the `end` event), counted in the session's tally in this order.
const ENDS: [&str; 5] = ["zwik", "points", "passer", "tie", "no_play"];

impl Zwikken {
    /// Announces how the deal ended and counts it.
    pub(super) fn end(&mut self, how: &'static str, winner: Option<Seat>, ev: &mut impl Events) {
        let k = ENDS.iter().position(|&h| h == how).expect("a known end");
        self.tally[k] += 1;
        ev.emit(self.all(), "end", || {
            args![how, winner.map_or(Arg::Word("-"), Arg::from)]
        });
        self.deal_end = Some((how, winner));
    }

    /// One line of the session's ledger in the outcome: how the deal ended and what it moved.
    fn ledger_entry(&mut self) {
        let (how, winner) = self.deal_end.take().unwrap_or(("none", None));
        let mut chips = [0; MAX_PLAYERS];
        for (s, c) in chips.iter_mut().enumerate().take(self.n) {
            *c = self.balance[s] - self.deal_start.0[s];
        }
        let askers = if how == "no_play" {
            0
        } else {
            (0..self.n).filter(|&s| self.asked[s]).fold(0, |m, s| m | (1 << s))
        };
        self.ledger.push(LedgerEntry {
            deal: self.deal_no,
            dealer: self.dealer,
            turned: self.turned,
            askers,
            end: how,
            winner,
            pot_before: self.deal_start.1,
            pot_after: self.pot,
            chips,
        });
    }

    pub(super) fn settle(&mut self, winner: Option<Seat>, ev: &mut impl Events) {
        let askers = self.askers();
        let s = money::settle(self.pot, askers.as_slice(), winner);
        if let Some((w, x)) = s.won {
            self.balance[w] += x;
            ev.emit(self.all(), "win", || args![w, x]);
        }
        for &(a, x) in &s.paid {
            self.balance[a] -= x;
            ev.emit(self.all(), "pay", || args![a, x, "lose"]);
        }
        self.pot = s.pot_after;
        ev.emit(self.all(), "pot", || args![self.pot]);
        self.end_deal(ev);
    }

    /// The session ends at the first deal end with an empty pot after `deals` deals, or at the
    /// cap, where the pot is divided (zwikken.md §5).
    pub(super) fn end_deal(&mut self, ev: &mut impl Events) {
        self.deals_done += 1;
        self.phase = Phase::Over;
        self.ledger_entry();
        if self.pot > POT_LIMIT {
            self.finish("pot_limit", ev);
        } else if self.deal_no >= self.rules.deals && self.pot == 0 {
            self.finish("pot_empty", ev);
        } else if self.deal_no >= self.rules.deals + self.rules.cap {
            self.finish("cap", ev);
        } else if let Err(e) = self.start_deal(ev) {
            self.deal_error = Some(e);
            self.finish("deal_error", ev);
        }
    }

    pub(super) fn finish(&mut self, reason: &'static str, ev: &mut impl Events) {
        self.phase = Phase::Over;
        let mut seats: Vec<Seat> = self.order().iter().copied().collect();
        if seats.is_empty() {
            // Everyone ran out of chips at once: the pot goes to all of them. [PROPOSAL]
            seats = (1..=self.n).map(|k| (self.dealer + k) % self.n).collect();
        }
        self.split = money::split(self.pot, &seats);
        for &(s, x) in &self.split {
            self.balance[s] += x;
            self.pot -= x;
            ev.emit(self.all(), "split", || args![s, x]);
        }
        if !self.split.is_empty() {
            ev.emit(self.all(), "pot", || args![self.pot]);
        }
        let scores = self.balance[..self.n].iter().map(|&b| (b - self.start) as f64);
        let chips: Vec<String> = scores.map(|s| format!("{s:+}")).collect();
        let t = self.tally;
        let split: i64 = self.split.iter().map(|(_, x)| x).sum();
        let summary = format!(
            "{} deals ({} zwik, {} won on points, {} lost to a passer, {} tied, {} not played); {}; chips {}",
            self.deal_no,
            t[0],
            t[1],
            t[2],
            t[3],
            t[4],
            match reason {
                "pot_empty" => "the pot was cleared".to_string(),
                "one_left" => "at most one player left with chips".to_string(),
                "deal_error" => "stopped by a bad deal".to_string(),
                "pot_limit" => format!("a pot of {split} over the limit divided"),
                _ => format!("a pot of {split} divided at the cap"),
            },
            chips.join(" ")
        );
        ev.emit(self.all(), "session", || args![reason]);
        self.ended = Some((reason, summary));
    }

    /// The outcome of a finished session: the scores, and the tally and ledger in the detail
    /// (made when asked, from the state the session ended in).
    /// Each seat's chips won or lost over the session, once it has ended.
    pub(super) fn final_scores(&self) -> Option<Vec<f64>> {
        self.ended.as_ref()?;
        Some(
            self.balance[..self.n]
                .iter()
                .map(|&b| (b - self.start) as f64)
                .collect(),
        )
    }

    pub(super) fn make_outcome(&self) -> Option<Outcome> {
        use serde_json::{Map, Value};
        let (reason, summary) = self.ended.as_ref()?;
        let scores = self.final_scores()?;
        let t = self.tally;
        let split: i64 = self.split.iter().map(|(_, x)| x).sum();
        let seats = |set: u32| -> Value { (0..self.n).filter(|&s| set & (1 << s) != 0).collect::<Vec<_>>().into() };
        // Every line has the same keys, in the order of the record: a line is a copy of this
        // one (no key hashed again) with its values set.
        const KEYS: [&str; 9] = [
            "deal",
            "dealer",
            "turned",
            "askers",
            "end",
            "winner",
            "pot_before",
            "pot_after",
            "chips",
        ];
        let mut line = Map::with_capacity(KEYS.len());
        for k in KEYS {
            line.insert(k.into(), Value::Null);
        }
        let ledger: Vec<Value> = self
            .ledger
            .iter()
            .map(|l| {
                let mut m = line.clone();
                for (k, v) in m.iter_mut() {
                    *v = match k.as_str() {
                        "deal" => l.deal.into(),
                        "dealer" => l.dealer.into(),
                        "turned" => l
                            .turned
                            .iter()
                            .map(|c| Value::String(c.to_string()))
                            .collect::<Vec<_>>()
                            .into(),
                        "askers" => seats(l.askers),
                        "end" => l.end.into(),
                        "winner" => l.winner.map_or(Value::Null, Value::from),
                        "pot_before" => l.pot_before.into(),
                        "pot_after" => l.pot_after.into(),
                        _ => l.chips[..self.n].to_vec().into(),
                    };
                }
                Value::Object(m)
            })
            .collect();
        // The keys in the order of the record (values made here, not serialized again).
        let mut detail = Map::with_capacity(12);
        detail.insert("deals".into(), self.deal_no.into());
        detail.insert("end".into(), (*reason).into());
        for (k, name) in ENDS.iter().enumerate() {
            detail.insert((*name).into(), t[k].into());
        }
        detail.insert("split".into(), split.into());
        detail.insert("active".into(), self.active[..self.n].to_vec().into());
        let shares: Vec<Value> = self.split.iter().map(|&(s, x)| json!([s, x])).collect();
        detail.insert("split_shares".into(), shares.into());
        detail.insert("ledger".into(), ledger.into());
        detail.insert("summary".into(), summary.as_str().into());
        Some(Outcome {
            scores,
            detail: Value::Object(detail),
        })
    }
}
