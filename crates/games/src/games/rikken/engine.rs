//! The Rikken state machine as an [`Engine`]: the decision, the legal actions, applying one,
//! reading a token and saying why it is refused, and the outcome.
//!
//! Every change of state is emitted as an [`Event`](crate::game::Event) whose audience follows rikken.md Sec. 8:
//! hands go to their owner only; the partner learns that he is the partner at the call, the
//! others when the called card is played; hints go to the acting seat only. The state is in
//! `state.rs` (its rules in `rules.rs`), its phases in `deal.rs`, `auction.rs`,
//! `declarations.rs` and `play.rs`, the result in `outcome.rs`.

pub use super::action::RikkenAction;
use super::bids::Contract;
pub use super::state::Rikken;
use super::state::{Phase, N};
use crate::cards::{Card, Suit};
use crate::chance::Chance;
use crate::engine::{Engine, Events};
use crate::game::{Outcome, Seat};

impl Rikken {
    /// The legal actions of this decision as tokens, for refusal messages.
    pub(super) fn legal_tokens(&self) -> String {
        let mut legal = Vec::new();
        self.legal(&mut legal);
        legal.iter().map(|a| a.to_string()).collect::<Vec<_>>().join(" ")
    }
}

impl Rikken {
    /// Why a token of the seat to move is refused: the rules' checks of this decision, each
    /// with its own words (`Ok` if none refuses it).
    fn check_token(&self, token: &str) -> Result<(), String> {
        match self.phase {
            Phase::Bidding => self.check_bid(token),
            Phase::Trump => self.check_trump(token),
            Phase::Call => self.check_call(token),
            Phase::Play => self.check_card(token),
            Phase::Over => Err("the game is over".into()),
        }
    }

    /// A token read as the action it names in this phase, without asking whether it is legal.
    fn read_token(&self, token: &str) -> Option<RikkenAction> {
        match self.phase {
            Phase::Bidding if token == "pass" => Some(RikkenAction::Pass),
            Phase::Bidding => Contract::parse_join(token)
                .map(RikkenAction::Join)
                .or_else(|| Contract::parse(token).map(RikkenAction::Bid)),
            Phase::Trump => {
                let mut cs = token.chars();
                match (cs.next().and_then(Suit::from_letter), cs.next()) {
                    (Some(s), None) => Some(RikkenAction::Trump(s)),
                    _ => None,
                }
            }
            Phase::Call => Card::from_token(token).map(RikkenAction::Call),
            Phase::Play => Card::from_token(token).map(RikkenAction::Play),
            Phase::Over => None,
        }
    }
}

impl Engine for Rikken {
    type Action = RikkenAction;

    fn token(action: &RikkenAction) -> Option<&'static str> {
        action.fixed_token()
    }

    fn players(&self) -> usize {
        N
    }

    fn to_move(&self) -> Option<Seat> {
        (self.phase != Phase::Over).then_some(self.turn)
    }

    fn decision(&self) -> &'static str {
        match self.phase {
            Phase::Bidding => "bid",
            Phase::Trump => "trump",
            Phase::Call => "call",
            Phase::Play | Phase::Over => "play",
        }
    }

    fn legal(&self, out: &mut Vec<RikkenAction>) {
        out.clear();
        let p = self.turn;
        match self.phase {
            Phase::Bidding => {
                if self.may_pass(p).is_ok() {
                    out.push(RikkenAction::Pass);
                }
                if let Some(c) = self.joinable(p) {
                    out.push(RikkenAction::Join(c));
                }
                let bidder = self.bidder(p);
                for (c, slot) in self.setup.ladder.slots() {
                    if self.bid_refusal_at(&bidder, c, slot).is_none() {
                        out.push(RikkenAction::Bid(c));
                    }
                }
            }
            Phase::Trump => out.extend(self.trump_suits().map(RikkenAction::Trump)),
            Phase::Call => out.extend(self.callable().iter().map(RikkenAction::Call)),
            Phase::Play => out.extend(self.legal_cards(p).0.iter().map(RikkenAction::Play)),
            Phase::Over => {}
        }
    }

    fn apply<E: Events>(&mut self, action: RikkenAction, events: &mut E) -> Result<(), String> {
        self.ev.listen_to(events);
        match (self.phase, action) {
            (Phase::Bidding, RikkenAction::Pass | RikkenAction::Join(_) | RikkenAction::Bid(_)) => {
                self.record_bid(self.turn, action);
                self.after_bid();
            }
            (Phase::Trump, RikkenAction::Trump(suit)) => self.name_trump(suit),
            (Phase::Call, RikkenAction::Call(card)) => self.call(card),
            (Phase::Play, RikkenAction::Play(card)) => self.play(card),
            _ => panic!("{action} is not an action of this decision ({})", self.decision()),
        }
        self.ev.hand_over(events);
        match self.deal_error.take() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    fn parse(&self, token: &str) -> Result<RikkenAction, String> {
        let mut legal = Vec::new();
        self.legal(&mut legal);
        if let Some(a) = self.read_token(token).filter(|a| legal.contains(a)) {
            return Ok(a);
        }
        // Refused: the rules' own checks say why.
        match self.check_token(token) {
            Err(why) => Err(why),
            Ok(()) => Err(format!("'{token}' is not an action now")),
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        self.end.map(|reason| self.make_outcome(reason, true))
    }

    fn scores(&self) -> Option<Vec<f64>> {
        self.end.map(|reason| self.make_outcome(reason, false).scores)
    }

    fn seat_cards(&self, seat: Seat) -> Option<Vec<Card>> {
        Some(if self.hands_withheld {
            Vec::new()
        } else {
            self.hands[seat].iter().collect()
        })
    }

    fn chance(&self) -> &Chance {
        &self.chance
    }

    fn chance_mut(&mut self) -> &mut Chance {
        &mut self.chance
    }
}
