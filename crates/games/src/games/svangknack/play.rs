//! Svängknack trick play (svangknack.md Sec. 2.5 and 3): the legal cards with Färg, why a
//! card is refused, reading and playing a card.

use super::action::SvangknackAction;
use super::state::{Phase, Svangknack};
use super::text::seats_token;
use super::tricks::{can_overtake, legal_follow, one_suited, TrickState};
use crate::args;
use crate::cards::{Card, CardSet, Suit};
use crate::engine::Events;
use crate::game::Seat;

impl Svangknack {
    pub(super) fn start_play(&mut self, ev: &mut impl Events) {
        let (ps, n) = (self.participants, self.n);
        ev.emit(self.all(), "participants", || args![seats_token(ps, n)]);
        self.phase = Phase::Play;
        self.trick_no = 1;
        self.start_trick(self.swinger);
    }

    fn start_trick(&mut self, leader: Seat) {
        self.leader = leader;
        self.trick = TrickState::default();
        self.to_act.clear();
        for k in 1..self.n {
            let s = (leader + k) % self.n;
            if self.participates(s) {
                self.to_act.push(s);
            }
        }
        self.turn = leader;
    }

    fn trump_suit(&self) -> Suit {
        self.trump.expect("trump is fixed before play")
    }

    fn is_leader(&self) -> bool {
        self.trick.len == 0
    }

    pub(super) fn legal_cards(&self) -> CardSet {
        let hand = self.hands[self.turn];
        let t = self.trump_suit();
        if self.is_leader() {
            if self.trick_no == 2 && hand.has_suit(t) {
                return hand.of_suit(t);
            }
            return hand;
        }
        legal_follow(hand, &self.trick, t, &self.r)
    }

    pub(super) fn farg_legal(&self) -> bool {
        let hand = self.hands[self.turn];
        let in_tricks = self.trick_no <= 2 || self.r.farg_trick3;
        in_tricks
            && !self.is_leader()
            && one_suited(hand)
            && !can_overtake(hand, &self.trick, self.trump_suit(), &self.r)
    }

    fn card_refusal(&self, card: Card) -> String {
        let p = self.turn;
        let hand = self.hands[p];
        let t = self.trump_suit();
        let legal = crate::cards::format_cards(&self.legal_cards().cards());
        if self.is_leader() {
            return format!("{card}: trick 2 must be led with a trump (you hold one): {legal}");
        }
        let l = self.trick.led().expect("a lead").suit;
        if hand.has_suit(l) && card.suit != l {
            format!(
                "{card} does not follow the led suit {} (you hold it): {legal}",
                l.letter()
            )
        } else if card.suit == l {
            format!("{card} does not overtake: forced overtaking, play one of {legal}")
        } else if card.suit == t {
            format!("{card} does not overtrump: you must play a higher trump, one of {legal}")
        } else {
            format!("{card}: void in the led suit you must trump, one of {legal}")
        }
    }

    fn farg_refusal(&self) -> String {
        if self.is_leader() {
            "the leader cannot call Färg"
        } else if !(self.trick_no <= 2 || self.r.farg_trick3) {
            "Färg can be called only in tricks 1 and 2"
        } else if !one_suited(self.hands[self.turn]) {
            "Färg needs all your cards in one suit"
        } else {
            "Färg needs that you cannot overtake, and you can"
        }
        .into()
    }

    pub(super) fn parse_play(&self, token: &str) -> Result<SvangknackAction, String> {
        let p = self.turn;
        if token == "farg" {
            return if self.farg_legal() {
                Ok(SvangknackAction::Farg)
            } else {
                Err(self.farg_refusal())
            };
        }
        let card: Card = token.parse()?;
        if !self.hands[p].contains(card) {
            return Err(format!("{card} is not in seat {p}'s hand"));
        }
        if !self.legal_cards().contains(card) {
            return Err(self.card_refusal(card));
        }
        Ok(SvangknackAction::Play(card))
    }

    pub(super) fn apply_play(&mut self, action: SvangknackAction, ev: &mut impl Events) {
        let p = self.turn;
        match action {
            SvangknackAction::Play(card) => {
                self.hands[p].remove(card);
                self.trick.push((p, card));
                ev.emit(self.all(), "move", || args![p, card, "play"]);
            }
            _ => {
                ev.emit(self.all(), "move", || args![p, "farg", "play"]);
                self.trick.farg |= 1 << p;
            }
        }
        if !self.to_act.is_empty() {
            self.turn = self.to_act.remove_first();
            return;
        }
        let w = self.trick.winner(self.trump_suit()).expect("the leader played");
        self.won[w] += 1;
        ev.emit(self.all(), "trick", || args![self.trick_no, w]);
        if self.trick_no < 3 {
            self.trick_no += 1;
            self.start_trick(w);
        } else {
            self.settle(ev);
        }
    }
}
