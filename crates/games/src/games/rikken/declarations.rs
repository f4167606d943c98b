//! The Rikken declarations after the auction (Sec. 5, 7.1): naming trump, calling a card and
//! finding the partner, and the called ace of op voorhand.

use super::bids::Contract;
use super::state::{Phase, Rikken, N};
use crate::args;
use crate::cards::{format_cards, Card, CardSet, Rank, Suit};
use crate::game::{Audience, Seat};

impl Rikken {
    fn holder(&self, c: Card) -> Option<Seat> {
        (0..N).find(|&s| self.hands[s].contains(c))
    }

    pub(super) fn check_trump(&self, token: &str) -> Result<(), String> {
        if !self.trump_suits().any(|s| s.letter().to_string() == token) {
            return Err(format!(
                "'{token}' is not a trump suit you may name (legal: {})",
                self.legal_tokens()
            ));
        }
        Ok(())
    }

    pub(super) fn name_trump(&mut self, suit: Suit) {
        self.trump = Some(suit);
        self.ev.emit(Self::all(), "move", || args![self.turn, suit, "trump"]);
        self.ev.emit(Self::all(), "trump", || args![suit]);
        self.after_trump();
    }

    pub(super) fn after_trump(&mut self) {
        match self.contract {
            Some(Contract::Rik { .. }) | Some(Contract::OpVoorhand) => {
                self.phase = Phase::Call;
                self.turn = self.declarers[0];
                self.prompt();
            }
            _ => self.start_play(),
        }
    }

    /// The cards the declarer may call (in the order of a [`CardSet`]: suit by suit).
    pub(super) fn callable(&self) -> CardSet {
        let d = self.declarers[0];
        let trump = self.trump;
        let suits = |all: bool| Suit::ALL.into_iter().filter(move |&s| all || Some(s) != trump);
        // The cards of the highest rank from `top` down that `d` does not hold, in `suits`.
        let highest_missing = |top: Rank, all: bool| -> CardSet {
            Rank::descending()
                .filter(|&r| r <= top)
                .map(|r| {
                    let mut set = CardSet::default();
                    for c in suits(all).map(|s| Card::new(r, s)) {
                        if !self.hands[d].contains(c) {
                            set.insert(c);
                        }
                    }
                    set
                })
                .find(|set| !set.is_empty())
                .unwrap_or_default()
        };
        match self.contract {
            // Named before the deal: any ace not of trump (Sec. 10.9).
            Some(Contract::OpVoorhand) => {
                let mut set = CardSet::default();
                suits(false).for_each(|s| {
                    set.insert(Card::new(Rank::ACE, s));
                });
                set
            }
            // Four aces: a king he does not hold, else a queen, … (Sec. 4.5, A19).
            Some(Contract::Malheur) => highest_missing(Rank::KING, true),
            // An ace he does not hold, not of trump; else the highest such card (A6).
            _ => highest_missing(Rank::ACE, false),
        }
    }

    pub(super) fn check_call(&self, token: &str) -> Result<(), String> {
        let card: Card = token.parse()?;
        if !self.callable().contains(card) {
            let d = self.declarers[0];
            let why = if self.hands[d].contains(card) && !self.hands_withheld {
                format!("you hold {card}; call a card you do not hold")
            } else if Some(card.suit) == self.trump && self.contract != Some(Contract::Malheur) {
                format!("{card} is of the trump suit and cannot be called")
            } else {
                format!("{card} cannot be called now")
            };
            return Err(format!("{why} (legal: {})", format_cards(&self.callable().cards())));
        }
        Ok(())
    }

    pub(super) fn call(&mut self, card: Card) {
        self.ev.emit(Self::all(), "move", || args![self.turn, card, "call"]);
        self.set_called(card);
        match self.contract {
            Some(Contract::Malheur) => self.malheur_partner(),
            Some(Contract::OpVoorhand) => {
                self.send_hands();
                if let Err(e) = self.op_voorhand_substitute() {
                    self.deal_error = Some(e);
                }
            }
            _ => {
                let h = self.holder(card).expect("the called card is in a hand");
                self.partner = Some(h);
                self.ev.emit(Audience::seat(h), "partner", || args![h]);
                self.start_play();
            }
        }
    }

    pub(super) fn set_called(&mut self, card: Card) {
        self.called = Some(card);
        self.ev.emit(Self::all(), "called", || args![card]);
    }

    /// Malheur: the partner makes himself known and names trump.
    pub(super) fn malheur_partner(&mut self) {
        let called = self.called.expect("the called card");
        let h = self.holder(called).expect("the called card is in a hand");
        self.partner = Some(h);
        self.partner_public = true;
        self.ev.emit(Self::all(), "partner", || args![h]);
        self.phase = Phase::Trump;
        self.turn = h;
        self.prompt();
    }

    /// Op voorhand, after the deal: if the rikker holds the called ace, the next lower card of
    /// that suit he does not hold is called instead; if he holds the whole suit the deal is void.
    pub(super) fn op_voorhand_substitute(&mut self) -> Result<(), String> {
        let rikker = self.declarers[0];
        let mut called = self.called.expect("the called ace");
        let suit = called.suit;
        if self.hands[rikker].contains(called) {
            let sub = Rank::descending()
                .map(|r| Card::new(r, suit))
                .find(|c| !self.hands[rikker].contains(*c));
            match sub {
                Some(c) => {
                    called = c;
                    self.set_called(c);
                }
                None => {
                    self.ev.emit(Self::all(), "void", || args![]);
                    return self.start_deal();
                }
            }
        }
        let h = self.holder(called).expect("the called card is in a hand");
        self.partner = Some(h);
        self.ev.emit(Audience::seat(h), "partner", || args![h]);
        self.start_play();
        Ok(())
    }
}

impl Rikken {
    /// The trump suits the declarer may name.
    pub(super) fn trump_suits(&self) -> impl Iterator<Item = Suit> {
        let excluded = match (self.contract, self.called) {
            (Some(Contract::Malheur), Some(c)) if self.rules.malheur_trump_excludes_called_suit => Some(c.suit),
            _ => None,
        };
        Suit::ALL.into_iter().filter(move |&s| Some(s) != excluded)
    }
}
