//! Rikken trick play (Sec. 3, 6, 7.2): the legal cards with the called-card duties, playing a
//! card, the winner of a trick, the end of play and the hints to the seat to move.

use super::bids::{Contract, OPEN, PRAATJE};
use super::state::{left, Phase, Rikken, Trick, N, NO_CARD};
use crate::args;
use crate::cards::{Card, CardSet, Rank, Suit};
use crate::game::{Arg, Audience, Seat};

impl Rikken {
    pub(super) fn start_play(&mut self) {
        let c = self.contract.expect("a contract");
        self.duties = c.has_called_card() && (c != Contract::Malheur || self.rules.malheur_called_card_forced);
        // A lone open or praatje declarer leads; when several declarers joined, the player left
        // of the dealer leads, as in a plain misère (A29).
        self.leader = match c.openness() {
            _ if self.declarers.len() > 1 => left(self.dealer),
            PRAATJE => self.declarers[0],
            OPEN if self.rules.open_declarer_leads => self.declarers[0],
            _ => left(self.dealer),
        };
        match c {
            Contract::OpenPiekTotaal => self.expose(&[0, 1, 2, 3]),
            _ if c.openness() == PRAATJE => self.expose(&[0, 1, 2, 3]),
            _ if c.openness() == OPEN && self.rules.open_closed_tricks == 0 => {
                let ds = self.declarers;
                self.expose(ds.as_slice())
            }
            _ => {}
        }
        self.phase = Phase::Play;
        self.turn = self.leader;
        self.prompt();
    }

    /// Lays the hands of `seats` open to every other seat.
    fn expose(&mut self, seats: &[Seat]) {
        for &s in seats {
            self.exposed[s] = true;
            self.ev.emit(Audience::all_except(N, s), "exposed", || {
                let mut a = args![s];
                a.extend(self.hands[s].iter().map(Arg::Card));
                a
            });
        }
    }

    /// The called card, if `p` holds it and its duties still bind him.
    fn duty(&self, p: Seat) -> Option<Card> {
        let c = self.called?;
        (self.duties && !self.called_suit_led && self.hands[p].contains(c)).then_some(c)
    }

    /// The legal cards of `p`, and the hint that explains a duty restricting them.
    pub(super) fn legal_cards(&self, p: Seat) -> (CardSet, Option<&'static str>) {
        let hand = self.hands[p];
        let duty = self.duty(p);
        match self.trick.first() {
            None => {
                if let Some(c) = duty {
                    let others = hand.of_suit(c.suit).minus(CardSet::from_cards(&[c]));
                    if !others.is_empty() {
                        return (hand.minus(others), Some("must_lead_called"));
                    }
                }
                (hand, None)
            }
            Some(&(_, lead)) => {
                let follow = hand.of_suit(lead.suit);
                let l = if follow.is_empty() { hand } else { follow };
                if let Some(c) = duty {
                    if c.suit == lead.suit {
                        return (CardSet::from_cards(&[c]), Some("must_play_called"));
                    }
                    if self.rules.protect_called_card && l.contains(c) && l.len() > 1 {
                        return (l.minus(CardSet::from_cards(&[c])), Some("protect_called"));
                    }
                }
                (l, None)
            }
        }
    }

    fn card_refusal(&self, p: Seat, card: Card) -> String {
        let hand = self.hands[p];
        if !hand.contains(card) {
            return format!("you do not hold {card}");
        }
        let (_, hint) = self.legal_cards(p);
        let called = self.called.map(|c| c.to_string()).unwrap_or_default();
        match hint {
            Some("must_play_called") => {
                format!("the called card {called} must be played: its suit is led for the first time")
            }
            Some("must_lead_called") => {
                format!("you must lead the called card {called} before other cards of its suit")
            }
            Some("protect_called") if Some(card) == self.called => {
                format!("the called card {called} may not be discarded while you have another legal card (protect_called_card)")
            }
            _ => match self.trick.first() {
                Some(&(_, lead)) => format!("you must follow suit ({})", lead.suit.letter()),
                None => format!("{card} may not be led now"),
            },
        }
    }

    pub(super) fn check_card(&self, token: &str) -> Result<(), String> {
        let p = self.turn;
        let card: Card = token.parse()?;
        let (legal, _) = self.legal_cards(p);
        if !legal.contains(card) {
            return Err(self.card_refusal(p, card));
        }
        Ok(())
    }

    pub(super) fn play(&mut self, card: Card) {
        let p = self.turn;
        self.hands[p].remove(card);
        self.trick.push((p, card));
        self.ev.emit(Self::all(), "move", || args![p, card, "play"]);
        if Some(card) == self.called && !self.partner_public && self.partner.is_some() {
            self.partner_public = true;
            self.ev.emit(Self::all(), "partner", || args![p]);
        }
        if self.trick.len() < N {
            self.turn = left(p);
            self.prompt();
            return;
        }
        let winner = self.trick_winner();
        self.won[winner] += 1;
        // The duties bind for the whole first trick in which the called suit is led.
        if Some(self.trick[0].1.suit) == self.called.map(|c| c.suit) {
            self.called_suit_led = true;
        }
        let mut cards = [NO_CARD; N];
        for (slot, &(_, c)) in cards.iter_mut().zip(self.trick.iter()) {
            *slot = c;
        }
        self.trick.clear();
        self.tricks.push(Trick { cards, winner });
        let n = self.tricks.len();
        self.ev.emit(Self::all(), "trick", || args![n, winner]);
        if let Some(reason) = self.early_end(winner) {
            self.finish(reason);
            return;
        }
        let c = self.contract.expect("a contract");
        if c.openness() == OPEN && !self.exposed.contains(&true) && n as i64 == self.rules.open_closed_tricks {
            let ds = self.declarers;
            self.expose(ds.as_slice());
        }
        self.leader = winner;
        self.turn = winner;
        self.prompt();
    }

    fn trick_winner(&self) -> Seat {
        let lead = self.trick[0].1.suit;
        let best_of = |suit: Suit| {
            self.trick
                .iter()
                .filter(|(_, c)| c.suit == suit)
                .max_by_key(|(_, c)| c.rank)
                .map(|&(s, _)| s)
        };
        if let Some(w) = self.trump.and_then(best_of) {
            return w;
        }
        if self.contract == Some(Contract::OpVoorhand) {
            // The called card is the highest of a trick led in its suit (Sec. 10.9, A18).
            if let Some(&(s, _)) = self
                .trick
                .iter()
                .find(|(_, c)| Some(*c) == self.called && c.suit == lead)
            {
                return s;
            }
        }
        best_of(lead).expect("the leader's card follows its own suit")
    }

    /// The reason play stops after a trick won by `winner`, if it does.
    fn early_end(&self, winner: Seat) -> Option<&'static str> {
        let c = self.contract.expect("a contract");
        let last = self.tricks.last().expect("a trick");
        match c {
            Contract::Misere { .. } | Contract::Piek { .. } => {
                let (limit, reason) = match c {
                    Contract::Misere { .. } => (1, "misere_lost"),
                    _ => (2, "piek_lost"),
                };
                if self.declarers.iter().all(|&d| self.won[d] >= limit) {
                    return Some(reason);
                }
            }
            Contract::Solo { .. } if winner != self.declarers[0] => return Some("solo_lost"),
            Contract::SchoppenMieen
                if !self.rules.mie_extras && last.cards.contains(&Card::new(Rank::QUEEN, Suit::Spades)) =>
            {
                return Some("mie_taken")
            }
            _ => {}
        }
        (self.tricks.len() == 13).then_some("tricks_done")
    }

    fn finish(&mut self, reason: &'static str) {
        self.ev.emit(Self::all(), "end", || args![reason]);
        self.phase = Phase::Over;
        self.end = Some(reason);
    }

    /// Tells the seat to move about a duty that restricts it (to that seat only).
    pub(super) fn prompt(&mut self) {
        if self.phase == Phase::Play && self.ev.listening() {
            if let (_, Some(hint)) = self.legal_cards(self.turn) {
                self.ev.emit(Audience::seat(self.turn), "hint", || args![hint]);
            }
        }
    }
}
