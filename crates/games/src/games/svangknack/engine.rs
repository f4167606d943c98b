//! The Svängknack state machine (svangknack.md Sec. 2-5): pot, deal, the swinger's choice
//! (redeal vote, swing, hand-over), the turn-up and trump, knocking, three tricks among the
//! participants with forced overtaking, must-trump and Färg, settlement by thirds and bets,
//! and the session end.
//!
//! Audiences follow Sec. 7: a `hand` goes to its owner only; everything else is public. Cards
//! of players who folded, of a lone swinger and a Färg caller's leftover cards are never sent.
//!
//! The state is a typed [`Engine`]: per-seat state, the stock, the queues and the trick live in
//! fixed arrays (at most 16 players, 52 cards), so a state clones without touching the heap
//! for them and a decision allocates nothing; options are read into [`Rules`] once.
//!
//! This file holds the [`Engine`] impl; the state is in `state.rs`, its rules in `rules.rs`, the
//! phases of a round in `deal.rs`, `swing.rs`, `trump.rs`, `knocking.rs` and `play.rs` (with the
//! trick law in `tricks.rs`), the settlement and the outcome in `outcome.rs`, their texts in
//! `text.rs`.

pub use super::action::SvangknackAction;
pub use super::rules::{ForcedParticipation, Rules};
use super::state::Phase;
pub use super::state::Svangknack;
pub use super::tricks::{can_overtake, legal_follow, one_suited, TrickState};
use crate::args;
use crate::cards::{Card, CardSet, Suit};
use crate::chance::Chance;
use crate::engine::{Engine, Events};
use crate::game::{Outcome, Seat};

impl Engine for Svangknack {
    type Action = SvangknackAction;

    fn token(action: &SvangknackAction) -> Option<&'static str> {
        Some(action.token())
    }

    fn players(&self) -> usize {
        self.n
    }

    fn to_move(&self) -> Option<Seat> {
        (self.phase != Phase::Over).then_some(self.turn)
    }

    fn decision(&self) -> &'static str {
        match self.phase {
            Phase::Swing => "swing",
            Phase::Consent => "consent",
            Phase::Trump => "trump",
            Phase::Knock => "knock",
            Phase::Play | Phase::Over => "play",
        }
    }

    fn legal(&self, out: &mut Vec<SvangknackAction>) {
        use SvangknackAction::*;
        out.clear();
        match self.phase {
            Phase::Swing => self.swing_actions(out),
            Phase::Consent => out.extend([Agree, Refuse]),
            Phase::Trump => out.extend(self.turnup.as_slice().iter().map(|c| Trump(c.suit))),
            Phase::Knock => out.extend([Knock, Fold]),
            Phase::Play => {
                out.extend(CardSet::iter(self.legal_cards()).map(Play));
                if self.farg_legal() {
                    out.push(Farg);
                }
            }
            Phase::Over => {}
        }
    }

    fn apply<E: Events>(&mut self, action: SvangknackAction, ev: &mut E) -> Result<(), String> {
        use SvangknackAction::*;
        match action {
            Swing | Handover | HandoverLast | Redeal => self.apply_swing(action, ev)?,
            Agree | Refuse => self.apply_consent(action == Agree, ev)?,
            Trump(s) => {
                ev.emit(self.all(), "move", || args![self.swinger, s.token(), "trump"]);
                self.set_trump(s, ev);
            }
            Knock | Fold => self.apply_knock(action == Knock, ev),
            Play(_) | Farg => self.apply_play(action, ev),
        }
        match self.deal_error.take() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    fn parse(&self, token: &str) -> Result<SvangknackAction, String> {
        use SvangknackAction::*;
        match self.phase {
            Phase::Swing => {
                let mut legal = Vec::new();
                self.swing_actions(&mut legal);
                legal
                    .into_iter()
                    .find(|a| a.to_string() == token)
                    .ok_or_else(|| self.swing_refusal(token))
            }
            Phase::Consent => match token {
                "agree" => Ok(Agree),
                "refuse" => Ok(Refuse),
                _ => Err(format!(
                    "'{token}' is not an answer to a redeal proposal: agree or refuse"
                )),
            },
            Phase::Trump => token
                .parse::<Suit>()
                .ok()
                .filter(|s| self.turnup.as_slice().iter().any(|c| c.suit == *s))
                .map(Trump)
                .ok_or_else(|| {
                    format!(
                        "'{token}' is not a suit of the turned cards: choose {}",
                        self.trump_tokens()
                    )
                }),
            Phase::Knock => match token {
                "knock" => Ok(Knock),
                "fold" => Ok(Fold),
                _ => Err(format!("'{token}' is not a knock decision: knock or fold")),
            },
            Phase::Play => self.parse_play(token),
            Phase::Over => Err("the game is over".into()),
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        self.make_outcome()
    }

    /// After each round: the rounds ended so far, and each seat's chips with the chips in the
    /// pots (the bets owed to the next pot and this round's pot) shared alike by every seat: a
    /// bet paid comes back in part to whoever takes tricks in the later rounds, and any seat may
    /// take part in them. Exact at the end of the session, where every pot has been paid out.
    fn standing(&self) -> Option<(u64, Vec<f64>)> {
        let share = (self.carried + self.pot) as f64 / self.n as f64;
        let est = self.chips[..self.n].iter().map(|&c| c as f64 + share).collect();
        Some((self.rounds_log.len() as u64, est))
    }

    /// The chips each seat won or lost, without the summaries of every round.
    fn scores(&self) -> Option<Vec<f64>> {
        self.ended?;
        Some(self.chips[..self.n].iter().map(|&c| c as f64).collect())
    }

    fn seat_cards(&self, seat: Seat) -> Option<Vec<Card>> {
        Some(self.hands[seat].iter().collect())
    }

    fn chance(&self) -> &Chance {
        &self.chance
    }

    fn chance_mut(&mut self) -> &mut Chance {
        &mut self.chance
    }
}
