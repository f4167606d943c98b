//! The Skwitz state machine: a session of games; each game is a run of deals until a player
//! declares Out!; each deal is an ante, a shuffle with the matador bottom check, a layout and
//! draws until the stock is empty (skwitz.md Sec. 2, 4, 5).
//!
//! Audiences (Sec. 7): a seat's hand goes to that seat only, the bottom card of the stock to
//! the dealer only; everything else (table, plays, points, payments, the pot) is public.
//!
//! This file holds the [`Engine`] impl; the state is in `state.rs`, its rules in `rules.rs`,
//! the deal in `deal.rs`, play in `play.rs`, the chips and points in `payments.rs`, the ends
//! of a deal, a game and the session in `outcome.rs`.

pub(super) use super::action::capture_of_code;
pub use super::action::SkwitzAction;
use super::captures::value;
use super::payments::Purse;
use super::play::Action;
pub use super::rules::FORCE_OUT_AFTER_DEALS;
pub use super::state::Skwitz;
use crate::args;
use crate::cards::{Card, CardSet};
use crate::chance::Chance;
use crate::engine::{Engine, Events};
use crate::game::{Outcome, Ruling, Seat};

impl Engine for Skwitz {
    type Action = SkwitzAction;

    fn token(action: &SkwitzAction) -> Option<&'static str> {
        action.fixed_token()
    }

    fn players(&self) -> usize {
        self.n
    }

    fn to_move(&self) -> Option<Seat> {
        if self.over {
            None
        } else {
            Some(self.turn)
        }
    }

    fn decision(&self) -> &'static str {
        "play"
    }

    fn legal(&self, out: &mut Vec<SkwitzAction>) {
        self.legal_into(out);
    }

    fn apply<E: Events>(&mut self, action: SkwitzAction, events: &mut E) -> Result<(), String> {
        if let Some(e) = self.deal_error.take() {
            return Err(e);
        }
        self.ev.listen_to(events);
        let s = self.turn;
        self.ev.emit(self.everyone(), "move", || args![s, action, "play"]);
        let r = match action {
            SkwitzAction::Out => self.go_out(s, "declared"),
            SkwitzAction::Trail(c) => {
                self.face_up.insert(c);
                self.hands[s].retain(|&h| h != c);
                self.table.push(c);
                self.advance()
            }
            SkwitzAction::Capture(c, taken) => {
                self.face_up.insert(c);
                self.capture(c, taken);
                self.advance()
            }
        };
        self.ev.hand_over(events);
        if let Err(e) = r {
            // A deal from a deal file did not fit: the session cannot go on.
            self.over = true;
            self.deal_error = Some(e.clone());
            return Err(e);
        }
        Ok(())
    }

    fn parse(&self, token: &str) -> Result<SkwitzAction, String> {
        if self.over {
            return Err("the session is over".into());
        }
        Ok(match self.parse_action(token)? {
            Action::Out => SkwitzAction::Out,
            Action::Trail(c) => SkwitzAction::Trail(c),
            Action::Capture(c, taken) => SkwitzAction::Capture(c, CardSet::from_cards(&taken)),
        })
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome.clone()
    }

    /// After each deal and each Skwitz game: the chips of each seat (its team's with `teams`)
    /// with the Skwitz game in play estimated: its side goes out first with the chance of a
    /// race to the target in which every point goes to any side alike
    /// ([`race_odds`](crate::games::race::race_odds)), and is paid (or pays) the Out; the pot,
    /// with what the Out adds to it, is shared alike (matsch and collections left out). The
    /// estimates add up to zero over the sides; at the end of the session they are the scores.
    fn standing(&self) -> Option<(u64, Vec<f64>)> {
        let side_chips = |s: Seat| -> i64 {
            if self.teams {
                self.chips[s] + self.chips[(s + 2) % 4]
            } else {
                self.chips[s]
            }
        };
        if self.over {
            return Some((self.deals_done, (0..self.n).map(|s| side_chips(s) as f64).collect()));
        }
        let sides = self.points.len();
        let q = (self.n / sides) as f64;
        let n = self.n as f64;
        let stake = self.stake as f64;
        let needs: Vec<u32> = self.points.iter().map(|&p| (self.target - p).max(1) as u32).collect();
        let odds = crate::games::race::race_odds(&needs);
        let pot_share = q * (self.pot as f64 + (n - q) * stake) / n;
        let est = (0..self.n)
            .map(|s| {
                let p = odds[self.side(s)];
                side_chips(s) as f64 + p * (n - q) * stake - (1.0 - p) * 2.0 * q * stake + pot_share
            })
            .collect();
        Some((self.deals_done, est))
    }

    fn seat_cards(&self, seat: Seat) -> Option<Vec<Card>> {
        Some(self.hands[seat].clone())
    }

    fn chance(&self) -> &Chance {
        &self.chance
    }

    fn chance_mut(&mut self) -> &mut Chance {
        &mut self.chance
    }

    /// SK14 under `breach_penalty=true`: the faulty seat pays S/2 to every other player (the
    /// other team with `teams`), and the default action ([`Skwitz::default_action`]) is played
    /// for it. Otherwise the referee's usual substitute.
    fn on_fault<E: Events>(&mut self, seat: Seat, kind: &str, events: &mut E) -> Ruling<SkwitzAction> {
        if !self.rules.breach_penalty || self.over || seat != self.turn {
            return Ruling::Substitute;
        }
        self.ev.listen_to(events);
        self.breaches[seat] += 1;
        self.ev
            .emit(self.everyone(), "breach", || args![seat, kind.to_string()]);
        let half = self.stake / 2;
        for o in self.opponents(seat) {
            self.pay(Purse::Seat(seat), Purse::Seat(o), half, "breach");
        }
        self.ev.hand_over(events);
        let token = self.default_action();
        Ruling::Play(self.parse(&token).expect("the default action is legal"))
    }
}

/// The value of a card for sums (re-exported for the policy and tests).
pub fn card_value(c: Card) -> Option<u8> {
    value(c)
}
