//! The end of a Schwimmen round (schwimmen.md Sec. 2.5, 2.6): the showdown, strikes and
//! drowning, redeals and misdeals, withdrawals, and the next dealer.

use super::scoring::{self, value_halves, value_text};
use super::state::{End, Phase, Schwimmen};
use crate::args;
use crate::few::Few;
use crate::game::{Arg, Args, Seat};
use crate::notation::fmt_score;

impl Schwimmen {
    pub(super) fn end_round(&mut self, end: End) {
        let all = self.all();
        // The active seats in turn order from the dealer's right (at most 10).
        let mut order = Few::<Seat, 10>::new(0);
        for t in self.turn_order_iter(self.dealer) {
            order.push(t);
        }
        let (reason, who) = match end {
            End::ThreeAces(s) => ("three_aces", Some(s)),
            End::ThirtyOne(s) => ("thirtyone", Some(s)),
            End::Showdown => ("showdown", None),
            End::Cap => ("cap", None),
        };
        self.ev.emit(all, "end", || {
            let mut a = args![reason];
            if let Some(s) = who {
                a.push(Arg::from(s));
            }
            a
        });
        // Who takes strikes, and how many.
        let mut strikes = Few::<(Seat, u32), 10>::new((0, 0));
        if let End::ThreeAces(s) = end {
            self.show(s);
            for &t in order.iter() {
                if t != s {
                    strikes.push((t, 1));
                }
            }
        } else {
            for &s in order.iter() {
                self.show(s);
            }
            let low = scoring::lowest_of(order.iter().map(|&s| (s, &self.hands[s][..])), self.rules.tiebreak);
            for &s in order.iter() {
                if low & 1 << s != 0 {
                    let k = if self.rules.knocker_double && self.knocker == Some(s) {
                        2
                    } else {
                        1
                    };
                    strikes.push((s, k));
                }
            }
        }
        self.struck.clear();
        self.struck.extend(strikes.iter().map(|&(s, _)| s));
        // Drowning, with the reprieve when everyone left would drown.
        let drown = self.rules.drown;
        let swim = self.rules.swim;
        let mut would = Few::<Seat, 10>::new(0);
        for &(s, k) in strikes.iter() {
            if self.strikes[s] + k >= drown {
                would.push(s);
            }
        }
        let reprieve = !would.is_empty() && would.len() == order.len();
        if reprieve {
            self.ev.emit(all, "reprieve", || args![]);
        }
        for &(s, k) in strikes.iter() {
            let before = self.strikes[s];
            let mut after = before + k;
            if reprieve {
                after = after.min(drown.saturating_sub(1)).max(before);
            }
            self.strikes[s] = after;
            self.ev.emit(all, "strike", || args![s, after]);
            if after >= swim && before < swim && after < drown {
                self.ev.emit(all, "swimming", || args![s]);
            }
        }
        if !reprieve && !would.is_empty() {
            let out = would.as_slice().to_vec();
            let remaining = order.len();
            // Only a three-aces round drowns players with different values (a showdown strikes
            // equal values only); there the hidden hands rank them, and only the order is told.
            let values: Option<Vec<u32>> = self
                .rules
                .rank_by_value
                .then(|| out.iter().map(|&s| value_halves(&self.hands[s])).collect());
            let places = scoring::group_places(&out, remaining, values.as_deref());
            for (s, place) in places {
                self.places[s] = Some(place);
                self.active[s] = false;
                self.ev.emit(all, "out", || args![s, fmt_score(place)]);
            }
            self.drowned.push((self.round, out));
        }
        if self.active_count() == 1 {
            let last = (0..self.n).find(|&s| self.active[s]).expect("one seat is left");
            self.finish(last);
            return;
        }
        self.dealer = self.next_dealer();
        if let Err(e) = self.start_round() {
            // Only a deal file can make a deal fail; it is reported when the move is applied.
            self.deal_error = Some(e);
        }
    }

    /// Shows seat `s`'s hand and its value to everyone.
    fn show(&mut self, s: Seat) {
        let all = self.all();
        self.ev.emit(all, "show", || {
            let h = &self.hands[s];
            let mut a = Args::with_capacity(h.len() + 2);
            a.push(Arg::from(s));
            a.extend(h.iter().map(|&c| Arg::Card(c)));
            // A whole value is a number (the same token as its text).
            let v = value_halves(h);
            a.push(if v.is_multiple_of(2) {
                Arg::Int(i64::from(v / 2))
            } else {
                Arg::Text(value_text(v))
            });
            a
        });
    }

    /// One strike for `s` outside a round end (a misdeal), with swimming and drowning.
    fn strike_alone(&mut self, s: Seat) {
        let all = self.all();
        let drown = self.rules.drown;
        let swim = self.rules.swim;
        let before = self.strikes[s];
        let after = before + 1;
        self.strikes[s] = after;
        self.ev.emit(all, "strike", || args![s, after]);
        if after >= swim && before < swim && after < drown {
            self.ev.emit(all, "swimming", || args![s]);
        }
        if after >= drown {
            // The last place among the players still in (never everyone: two or more are in).
            let place = self.active_count() as f64;
            self.places[s] = Some(place);
            self.active[s] = false;
            self.ev.emit(all, "out", || args![s, fmt_score(place)]);
            self.drowned.push((self.round, vec![s]));
        }
    }

    /// The round is abandoned and dealt again by `dealer`, or the game ends if one player is left.
    fn redeal(&mut self, dealer: Seat) {
        let left = self.active_seats();
        if left.len() == 1 {
            self.finish(left[0]);
            return;
        }
        self.dealer = dealer;
        if let Err(e) = self.start_round() {
            // Only a deal file can make a deal fail; it is reported by the next apply.
            self.deal_error = Some(e);
        }
    }

    /// Sec. 2.6 misdeal strike (`misdeal_strike`): the dealer failed at the packet choice. He takes
    /// a strike and deals again (if he drowned, the next player to his right deals).
    pub(super) fn misdeal(&mut self, d: Seat, kind: &str) {
        let all = self.all();
        self.misdeals[d] += 1;
        self.ev.emit(all, "misdeal", || args![d, kind.to_string()]);
        self.strike_alone(d);
        let next = if self.active[d] { d } else { self.right_active(d) };
        self.redeal(next);
    }

    /// Sec. 4 absent player: seat `s`'s bot is dead. It leaves the game at once and is ranked
    /// last: below every player still in and every player drowned so far (they move up one place);
    /// of several absent seats the one that left first ranks lowest. Its cards leave play; a
    /// round whose dealer leaves before choosing is dealt again by the next player.
    pub(super) fn withdraw(&mut self, s: Seat) {
        let place = (self.n - self.absent.len()) as f64;
        for p in self.places.iter_mut().flatten() {
            if *p <= place {
                *p -= 1.0;
            }
        }
        self.places[s] = Some(place);
        self.absent.push(s);
        self.active[s] = false;
        let all = self.all();
        self.ev.emit(all, "absent", || args![s, fmt_score(place)]);
        if self.phase == Phase::Choose {
            let next = self.right_active(s);
            self.redeal(next);
            return;
        }
        let hand = std::mem::take(&mut self.hands[s]);
        self.discard.extend(hand);
        let left = self.active_seats();
        if left.len() == 1 {
            self.finish(left[0]);
            return;
        }
        if self.knocker.is_some() {
            self.final_left -= 1;
            if self.final_left == 0 {
                self.end_round(End::Showdown);
                return;
            }
        }
        self.turn = self.right_active(s);
    }

    fn next_dealer(&self) -> Seat {
        if self.rules.loser_deals {
            let n = self.n;
            let d = self.dealer;
            if let Some(s) = (1..=n)
                .map(|k| (d + n * k - k) % n)
                .find(|&t| self.active[t] && self.struck.contains(&t))
            {
                return s;
            }
        }
        self.right_active(self.dealer)
    }
}
