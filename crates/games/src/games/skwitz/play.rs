//! Skwitz play (skwitz.md Sec. 2.3, 2.4): the legal actions, reading one and why it is refused,
//! capturing and trailing, the default action of a seat in breach, and the next turn.

use super::action::SkwitzAction;
use super::captures::{self, is_matador, value};
use super::rules::TrailRule;
use super::state::Skwitz;
use crate::args;
use crate::cards::{Card, CardSet};
use crate::game::Seat;

impl Skwitz {
    fn can_declare(&self, s: Seat) -> bool {
        self.rules.out_on_turn && self.points[self.side(s)] >= self.target
    }

    /// Whether `card` (in the mover's hand) may be trailed.
    fn may_trail(&self, card: Card) -> Result<(), String> {
        let hand = &self.hands[self.turn];
        match self.rules.trail {
            TrailRule::Free => Ok(()),
            TrailRule::CardLevel => {
                if let Some(c) = captures::captures(card, &self.table).first() {
                    Err(format!(
                        "{card} can capture ({}), so it must capture (trail_rule=card_level)",
                        captures::token(card, c)
                    ))
                } else {
                    Ok(())
                }
            }
            TrailRule::OnlyWhenUnable => {
                for &h in hand {
                    if let Some(c) = captures::captures(h, &self.table).first() {
                        return Err(format!(
                            "you can capture ({}), and a player may trail only when no card can capture",
                            captures::token(h, c)
                        ));
                    }
                }
                Ok(())
            }
        }
    }

    /// Parses an action token against the current state without changing anything.
    pub(super) fn parse_action(&self, token: &str) -> Result<Action, String> {
        if token == "out" {
            if !self.rules.out_on_turn {
                return Err("Out! is automatic at the deal end under out_timing=auto_at_deal_end".into());
            }
            let side = self.side(self.turn);
            if !self.can_declare(self.turn) {
                return Err(format!(
                    "Out! needs {} points; {} has {}",
                    self.target,
                    if self.teams { "your team" } else { "you" },
                    self.points[side]
                ));
            }
            return Ok(Action::Out);
        }
        let (card_s, rest) = match token.split_once(':') {
            Some((c, r)) => (c, Some(r)),
            None => (token, None),
        };
        let card: Card = card_s.parse().map_err(|e| {
            format!("'{token}' is not an action: write out, a card to trail (7H) or CARD:C1,C2 to capture ({e})")
        })?;
        if !self.hands[self.turn].contains(&card) {
            return Err(format!("{card} is not in your hand"));
        }
        match rest {
            None => {
                self.may_trail(card)?;
                Ok(Action::Trail(card))
            }
            Some(list) => {
                let mut taken: Vec<Card> = Vec::new();
                for t in list.split(',') {
                    let c: Card = t.parse().map_err(|e| {
                        format!("'{token}': the captured cards must be cards separated by commas ({e})")
                    })?;
                    if !self.table.contains(&c) {
                        return Err(format!("{c} is not on the table"));
                    }
                    if taken.contains(&c) {
                        return Err(format!("{c} is listed twice"));
                    }
                    taken.push(c);
                }
                captures::check(card, &taken)?;
                let canonical = captures::token(card, &taken);
                if canonical != token {
                    return Err(format!(
                        "write the captured cards in notation order (S H D C, high to low): {canonical}"
                    ));
                }
                Ok(Action::Capture(card, taken))
            }
        }
    }

    /// `card` from the mover's hand takes `taken` (a legal capture) from the table into the
    /// mover's pile: the cards entering the pile (the played card first, then the taken ones in
    /// notation order) score their matadors, and a cleared table a skwitz.
    pub(super) fn capture(&mut self, card: Card, taken: CardSet) {
        let s = self.turn;
        self.hands[s].retain(|&c| c != card);
        self.table.retain(|&c| !taken.contains(c));
        let table_only = self.rules.matador_table_only;
        let played = std::iter::once(card).filter(|_| !table_only);
        for c in played.chain(taken.iter()) {
            if is_matador(c) {
                self.ev.emit(self.everyone(), "matador", || args![s, c]);
                self.score(s, "matador");
                self.bonus_payments(s, "matador");
            }
        }
        let last_play = self.stock.is_empty() && self.hands.iter().all(Vec::is_empty);
        if self.table.is_empty() && (self.rules.last_play_skwitz || !last_play) {
            // The marker: the first taken card in notation order.
            let marker = taken.iter().next().expect("a capture takes a card");
            self.ev.emit(self.everyone(), "skwitz", || args![s, marker]);
            self.score(s, "skwitz");
            self.bonus_payments(s, "skwitz");
        }
        self.piles[s].push(card);
        self.piles[s].extend(taken.iter());
        self.last_captor = Some(s);
    }

    /// The default legal action of SK14 for a seat in breach: the lowest-value trail if trailing
    /// is legal (A = 1 … 10, then J, Q, K; equal values in notation order), otherwise the first
    /// capture in the canonical order (the capturing cards in notation order S H D C, high to
    /// low; each card's captures largest set first, then card by card in notation order).
    /// Never `out`: declaring is a choice.
    pub fn default_action(&self) -> String {
        let mut typed = Vec::new();
        self.legal_into(&mut typed);
        let legal: Vec<String> = typed.iter().map(|a| a.to_string()).collect();
        let trail = legal
            .iter()
            .filter(|t| !t.contains(':'))
            .filter_map(|t| t.parse::<Card>().ok())
            .min_by_key(|&c| (value(c).unwrap_or(c.rank.value()), c));
        if let Some(c) = trail {
            return c.to_string();
        }
        let mut hand = self.hands[self.turn].clone();
        hand.sort();
        for c in hand {
            if let Some(x) = captures::captures(c, &self.table).first() {
                let t = captures::token(c, x);
                if legal.contains(&t) {
                    return t;
                }
            }
        }
        legal
            .into_iter()
            .find(|t| t != "out")
            .expect("a legal play besides out")
    }

    /// After an action: the next turn, a new draw, or the deal end.
    pub(super) fn advance(&mut self) -> Result<(), String> {
        if self.hands.iter().any(|h| !h.is_empty()) {
            self.turn = self.right(self.turn);
            return Ok(());
        }
        if !self.stock.is_empty() {
            self.draw();
            return Ok(());
        }
        self.deal_end()
    }
}

pub(super) enum Action {
    Out,
    Trail(Card),
    Capture(Card, Vec<Card>),
}

impl Skwitz {
    /// The legal actions of the seat to move (captures as the rules enumerate them).
    pub(super) fn legal_into(&self, out: &mut Vec<SkwitzAction>) {
        out.clear();
        if self.over {
            return;
        }
        if self.can_declare(self.turn) {
            out.push(SkwitzAction::Out);
        }
        let hand = &self.hands[self.turn];
        let table = CardSet::from_cards(&self.table);
        let mut capturing = CardSet::default();
        for &c in hand {
            let wrap = |x| SkwitzAction::Capture(c, x);
            let set_of = |a: &SkwitzAction| match *a {
                SkwitzAction::Capture(_, x) => x,
                _ => CardSet::EMPTY,
            };
            if captures::push_captures(c, table, out, wrap, set_of) > 0 {
                capturing.insert(c);
            }
        }
        for &c in hand {
            let ok = match self.rules.trail {
                TrailRule::Free => true,
                TrailRule::CardLevel => !capturing.contains(c),
                TrailRule::OnlyWhenUnable => capturing.is_empty(),
            };
            if ok {
                out.push(SkwitzAction::Trail(c));
            }
        }
    }
}
