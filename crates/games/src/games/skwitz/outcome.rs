//! The end of a Skwitz deal, of a game (Out!) and of the session (skwitz.md Sec. 2.5, 2.6, 5):
//! the deal-end points, the payments of Out!, the pot, and the outcome.

use super::payments::Purse;
use super::rules::FORCE_OUT_AFTER_DEALS;
use super::state::Skwitz;
use crate::args;
use crate::cards::Suit;
use crate::game::{Arg, Outcome, Seat};
use serde_json::json;

impl Skwitz {
    pub(super) fn deal_end(&mut self) -> Result<(), String> {
        let to = self.last_captor.filter(|_| self.rules.leftover_to_last_captor);
        match to {
            Some(s) => self.piles[s].extend_from_slice(&self.table),
            None => self.removed.extend_from_slice(&self.table),
        }
        self.ev.emit(self.everyone(), "clear", || {
            let mut a = args![to.map_or(Arg::Word("none"), Arg::from)];
            a.extend(self.table.iter().map(|&c| Arg::Card(c)));
            a
        });
        self.table.clear();
        for s in 0..self.n {
            let spades = self.piles[s].iter().filter(|c| c.suit == Suit::Spades).count();
            self.ev
                .emit(self.everyone(), "count", || args![s, self.piles[s].len(), spades]);
        }
        // Per side (at most 8).
        let sides = self.points.len();
        let mut cards = [0usize; 8];
        let mut spades = [0usize; 8];
        for s in 0..self.n {
            cards[self.side(s)] += self.piles[s].len();
            spades[self.side(s)] += self.piles[s].iter().filter(|c| c.suit == Suit::Spades).count();
        }
        for (counts, reason) in [(cards, "cards"), (spades, "spades")] {
            let most = self.most(&counts[..sides]);
            for side in (0..sides).filter(|&side| most & 1 << side != 0) {
                self.score(side, reason);
            }
        }
        if let Some(s) = self.last_captor {
            self.score(s, "last");
        }
        self.deals_done += 1;
        self.ev.emit(self.everyone(), "dealend", || args![self.deal_no]);
        let auto = !self.rules.out_on_turn || self.deals_in_game >= FORCE_OUT_AFTER_DEALS;
        if auto {
            let best = *self.points.iter().max().unwrap();
            if best >= self.target {
                // The first seat in turn order from forehand whose side has the most points.
                let mut s = self.right(self.dealer);
                while self.points[self.side(s)] != best {
                    s = self.right(s);
                }
                return self.go_out(s, "auto");
            }
        }
        self.dealer = self.right(self.dealer);
        self.start_deal()
    }

    /// The sides that score a "most" point, as a mask (bit `side`): the unique maximum, or
    /// every tied side under `tie_rule=all_tied` (nobody when every count is 0).
    fn most(&self, counts: &[usize]) -> u32 {
        let max = *counts.iter().max().unwrap();
        if max == 0 {
            return 0;
        }
        let tied = (0..counts.len())
            .filter(|&i| counts[i] == max)
            .fold(0u32, |m, i| m | 1 << i);
        if tied.count_ones() == 1 || self.rules.tie_all_tied {
            tied
        } else {
            0
        }
    }

    /// Out! by `w`: payments, matsch, the pot, and the next game or the end of the session.
    pub(super) fn go_out(&mut self, w: Seat, how: &'static str) -> Result<(), String> {
        self.ev.emit(self.everyone(), "out", || args![w, how]);
        let s = self.stake;
        for o in self.opponents(w) {
            self.pay(Purse::Seat(o), Purse::Seat(w), s, "out");
            self.pay(Purse::Seat(o), Purse::Pot, s, "out");
        }
        for o in self.opponents(w) {
            if self.points[self.side(o)] == 0 {
                self.ev.emit(self.everyone(), "matsch", || args![o]);
                self.pay(Purse::Seat(o), Purse::Seat(w), s, "matsch");
                self.pay(Purse::Seat(o), Purse::Pot, s, "matsch");
            }
        }
        let side = self.side(w);
        self.wins_since_collect[side] += 1;
        let collect = if self.rules.collect_second_win {
            self.wins_since_collect[side] >= 2
        } else {
            self.pot_holder == Some(side)
        };
        if collect {
            let pot = self.pot;
            self.pay(Purse::Pot, Purse::Seat(w), pot, "collect");
            self.collections.push((w, pot));
            self.pot_holder = None;
            self.wins_since_collect.fill(0);
            self.ev.emit(self.everyone(), "potholder", || args!["none"]);
        } else {
            self.pot_holder = Some(side);
            self.ev.emit(self.everyone(), "potholder", || args![w]);
        }
        self.winners.push(w);
        self.deals_done += 1;
        self.ev.emit(self.everyone(), "gameend", || args![self.game_no, w]);
        self.dealer = w;
        self.points.fill(0);
        self.table.clear();
        self.stock.clear();
        self.hands = vec![Vec::new(); self.n];
        let done =
            self.game_no >= self.games_target && (self.pot == 0 || self.game_no >= self.games_target + self.extra_cap);
        if done {
            self.finish();
            return Ok(());
        }
        self.game_no += 1;
        self.deals_in_game = 0;
        self.ev
            .emit(self.everyone(), "newgame", || args![self.game_no, self.dealer]);
        self.start_deal()
    }

    /// The end of the session: split a pot nobody collected, and the outcome.
    fn finish(&mut self) {
        if self.pot > 0 {
            let n = self.n as i64;
            let share = self.pot / n;
            let mut rem = self.pot % n;
            let mut s = self.right(self.dealer);
            for _ in 0..self.n {
                let extra = if rem > 0 { 1 } else { 0 };
                rem -= extra;
                self.pay(Purse::Pot, Purse::Seat(s), share + extra, "split");
                s = self.right(s);
            }
        }
        self.ev.emit(self.everyone(), "sessionend", || args![self.game_no]);
        self.over = true;
        let scores: Vec<f64> = (0..self.n)
            .map(|s| {
                if self.teams {
                    (self.chips[s] + self.chips[(s + 2) % 4]) as f64
                } else {
                    self.chips[s] as f64
                }
            })
            .collect();
        let winners: Vec<String> = self.winners.iter().map(|w| w.to_string()).collect();
        let chips: Vec<String> = scores.iter().map(|c| format!("{c:+}")).collect();
        let summary = format!(
            "{} games ({} deals); Out! by {}; {}; chips {}",
            self.game_no,
            self.deal_no,
            winners.join(","),
            if self.collections.is_empty() {
                "pot split".to_string()
            } else {
                format!(
                    "pot collected by {}",
                    self.collections
                        .iter()
                        .map(|(s, p)| format!("{s}({p})"))
                        .collect::<Vec<_>>()
                        .join(",")
                )
            },
            chips.join(" ")
        );
        self.outcome = Some(Outcome {
            scores,
            detail: json!({
                "summary": summary,
                "games": self.game_no,
                "deals": self.deal_no,
                "winners": self.winners,
                "collections": self.collections.iter().map(|(s, p)| json!([s, p])).collect::<Vec<_>>(),
                "chips": self.chips,
                "teams": self.teams,
                "breaches": self.breaches,
            }),
        });
    }
}
