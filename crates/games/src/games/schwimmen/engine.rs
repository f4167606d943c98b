//! The Schwimmen state machine: deal, the dealer's packet choice, turns (swap one, swap all,
//! knock, optional pass), the immediate ends (31, three aces), showdown, strikes, drowning and
//! the final ranking.
//!
//! Every change of state is an [`Event`](crate::game::Event) whose audience follows schwimmen.md Sec. 7: hands go
//! to their owner only, the seen packet to the dealer only; the middle, every action, strikes
//! and eliminations to everyone; hands are shown to everyone at a showdown or a 31, but only
//! the three aces at a three-aces end.
//!
//! This file holds the [`Engine`] impl; the state is in `state.rs`, its rules in `rules.rs`,
//! the phases of a round in `deal.rs`, `turns.rs` and `round_end.rs`, the final ranking in
//! `outcome.rs`.

pub(super) use super::action::swap_of_code;
pub use super::action::SchwimmenAction;
use super::scoring;
pub use super::state::Schwimmen;
use super::state::{Phase, Turn};
use crate::cards::Card;
use crate::chance::Chance;
use crate::engine::{Engine, Events};
use crate::game::{Outcome, Ruling, Seat};

impl Schwimmen {
    pub(super) fn legal_tokens(&self) -> String {
        let mut v = Vec::new();
        self.legal_turns(&mut v);
        v.iter().map(|a| a.to_string()).collect::<Vec<_>>().join(" ")
    }
}

impl Schwimmen {
    /// Runs `f` with the events it makes going to `events`.
    fn with_events<R>(&mut self, events: &mut impl Events, f: impl FnOnce(&mut Self) -> R) -> R {
        self.ev.listen_to(events);
        let r = f(self);
        self.ev.hand_over(events);
        r
    }
}

impl Engine for Schwimmen {
    type Action = SchwimmenAction;

    fn token(action: &SchwimmenAction) -> Option<&'static str> {
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
            Phase::Choose => "choose",
            Phase::Turn | Phase::Over => "turn",
        }
    }

    fn legal(&self, out: &mut Vec<SchwimmenAction>) {
        out.clear();
        match self.phase {
            Phase::Choose => out.extend([SchwimmenAction::KeepSeen, SchwimmenAction::TakeUnseen]),
            Phase::Turn => self.legal_turns(out),
            Phase::Over => {}
        }
    }

    fn apply<E: Events>(&mut self, action: SchwimmenAction, events: &mut E) -> Result<(), String> {
        self.with_events(events, |g| match action {
            SchwimmenAction::KeepSeen => g.apply_choice(true),
            SchwimmenAction::TakeUnseen => g.apply_choice(false),
            turn => g.apply_turn(turn),
        });
        match self.deal_error.take() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    fn parse(&self, token: &str) -> Result<SchwimmenAction, String> {
        match self.phase {
            Phase::Choose => match token {
                "keep_seen" => Ok(SchwimmenAction::KeepSeen),
                "take_unseen" => Ok(SchwimmenAction::TakeUnseen),
                _ => Err(format!(
                    "'{token}' is not a choice of the dealer (legal now: keep_seen take_unseen)"
                )),
            },
            Phase::Turn => Ok(match self.parse_turn(token)? {
                Turn::SwapOne(h, m) => SchwimmenAction::Swap(h, m),
                Turn::SwapAll => SchwimmenAction::SwapAll,
                Turn::Knock => SchwimmenAction::Knock,
                Turn::Pass => SchwimmenAction::Pass,
            }),
            Phase::Over => Err("the game is over".into()),
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        self.winner.map(|w| self.make_outcome(w))
    }

    /// What each seat paid, without the summary and the JSON.
    fn scores(&self) -> Option<Vec<f64>> {
        self.winner?;
        let (_, paid) = self.final_places();
        Some(paid.iter().map(|p| -p).collect())
    }

    /// Between rounds: the rounds played, and each seat's score *estimated* from the lives
    /// left (a drowned seat's place is known; a seat still in is expected to outlast each
    /// other one with the share of their lives it holds: place 1 + Σ L_j / (L_i + L_j)). Not
    /// a settled result like Kul's or Skwitz's, but a search's playout can stop at the end of
    /// the round instead of playing the session to its end.
    fn standing(&self) -> Option<(u64, Vec<f64>)> {
        if self.winner.is_some() {
            let (_, paid) = self.final_places();
            return Some((self.round as u64, paid.iter().map(|p| -p).collect()));
        }
        let drown = self.rules.drown as f64;
        let lives: Vec<f64> = (0..self.n).map(|s| (drown - self.strikes[s] as f64).max(0.5)).collect();
        let scores = (0..self.n)
            .map(|i| match self.places[i] {
                Some(place) if !self.active[i] => -scoring::payment(place),
                _ => {
                    let place = 1.0
                        + (0..self.n)
                            .filter(|&j| j != i && self.active[j])
                            .map(|j| lives[j] / (lives[i] + lives[j]))
                            .sum::<f64>();
                    -scoring::payment(place)
                }
            })
            .collect();
        Some((self.round.saturating_sub(1) as u64, scores))
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

    /// A seat whose bot is `dead` is absent (Sec. 4): it leaves the game, ranked last. Under
    /// `misdeal_strike`, any other fault of the dealer at the packet choice is a misdeal (Sec. 2.6).
    /// Otherwise the referee's usual substitute.
    fn on_fault<E: Events>(&mut self, seat: Seat, kind: &str, events: &mut E) -> Ruling<SchwimmenAction> {
        if self.phase == Phase::Over || seat != self.turn {
            return Ruling::Substitute;
        }
        if kind == "dead" {
            self.with_events(events, |g| g.withdraw(seat));
            return Ruling::Handled;
        }
        if self.phase == Phase::Choose && self.rules.misdeal_strike {
            self.with_events(events, |g| g.misdeal(seat, kind));
            return Ruling::Handled;
        }
        Ruling::Substitute
    }
}
