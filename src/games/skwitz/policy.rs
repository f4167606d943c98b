//! The built-in `simple` Skwitz bot: declares Out! as soon as it may; otherwise it values
//! each capture by the cards, spades, matadors and sweeps it brings, and subtracts the risk
//! of what it leaves on the table for the next player (a sweep or a matador within reach of
//! the cards it has not seen). A trail is chosen to leave the least within reach.

use super::captures::{self, is_matador};
use super::engine::SkwitzAction;
use super::view::SkwitzView;
use crate::cards::{Card, CardSet, Rank, Suit};
use crate::game::SeatView;

/// What the bot knows, read from the view.
struct Know {
    table: Vec<Card>,
    /// Unseen cards (not in our hand, not seen face up this deal) by rank value 2..=14.
    unseen_by_rank: [usize; 15],
    unseen: usize,
    /// Cards in the next player's hand.
    next_hand: usize,
    matador_any: bool,
}

impl Know {
    /// The chance that the next player holds at least one card of rank `r`.
    fn p_holds(&self, r: usize) -> f64 {
        if self.unseen == 0 || self.next_hand == 0 {
            return 0.0;
        }
        let q = 1.0 - self.unseen_by_rank[r] as f64 / self.unseen as f64;
        1.0 - q.powi(self.next_hand as i32)
    }

    /// The expected damage of leaving `rest` on the table for the next player.
    fn risk(&self, rest: &[Card]) -> f64 {
        if rest.is_empty() {
            return 0.0;
        }
        let mut risk = 0.0;
        let table = CardSet::from_cards(rest);
        // One buffer for every rank's captures (the search asks this at every playout step).
        let mut caps: Vec<CardSet> = Vec::with_capacity(16);
        for r in 2..=14usize {
            if self.unseen_by_rank[r] == 0 {
                continue;
            }
            let probe = Card::new(Rank::new(r as u8), Suit::Clubs);
            caps.clear();
            captures::push_captures(probe, table, &mut caps, |s| s, |&s| s);
            // The first in the canonical order: the largest.
            let Some(&best) = caps.first() else { continue };
            let mut harm = 0.1 * best.len() as f64;
            if best.len() == rest.len() {
                harm += 10.0; // a skwitz
            }
            harm += 8.0 * best.iter().filter(|&c| is_matador(c)).count() as f64;
            risk += self.p_holds(r) * harm;
        }
        risk
    }
}

/// The gain of capturing `taken` with `card`, before risk.
fn gain(card: Card, taken: &[Card], table: &[Card], matador_any: bool) -> f64 {
    // A card is worth little (one point for most cards per deal); spades a bit more.
    let mut g = 0.25 * (taken.len() + 1) as f64;
    let all = std::iter::once(card).chain(taken.iter().copied());
    for c in all {
        if c.suit == Suit::Spades {
            g += 0.3;
        }
        if is_matador(c) && (matador_any || c != card) {
            g += 10.0;
        }
    }
    if taken.len() == table.len() {
        g += 10.0;
    }
    g
}

/// The `simple` bot's choice for a Skwitz decision (the `simple_policy` of the game's spec).
pub fn simple_policy(view: &dyn SeatView, _decision: &str, legal: &[String]) -> String {
    if legal.iter().any(|l| l == "out") {
        return "out".into();
    }
    let Some(view) = view.as_any().downcast_ref::<SkwitzView>() else {
        return legal.first().cloned().unwrap_or_default();
    };
    let know = know_of(view);
    let moves = legal.iter().map(|t| match t.split_once(':') {
        Some((c, list)) => {
            let card = c.parse::<Card>().ok()?;
            Some(Move::Capture(
                card,
                list.split(',').filter_map(|x| x.parse().ok()).collect(),
            ))
        }
        None => t.parse::<Card>().ok().map(Move::Trail),
    });
    best_move(&know, moves).map_or_else(|| legal[0].clone(), |i| legal[i].clone())
}

/// [`simple_policy`] on the typed legal actions (the spec's `typed_policy`).
pub fn typed_policy(view: &dyn SeatView, _decision: &str, legal: &dyn std::any::Any) -> Option<usize> {
    let legal = legal.downcast_ref::<Vec<SkwitzAction>>()?;
    if legal.is_empty() {
        return None;
    }
    if let Some(i) = legal.iter().position(|&a| a == SkwitzAction::Out) {
        return Some(i);
    }
    let view = view.as_any().downcast_ref::<SkwitzView>()?;
    let know = know_of(view);
    let moves = legal.iter().map(|&a| match a {
        SkwitzAction::Out => None,
        SkwitzAction::Trail(c) => Some(Move::Trail(c)),
        // The taken cards in notation order, as the token lists them.
        SkwitzAction::Capture(c, taken) => Some(Move::Capture(c, taken.cards())),
    });
    Some(best_move(&know, moves).unwrap_or(0))
}

/// What the seat knows that the policy weighs.
fn know_of(view: &SkwitzView) -> Know {
    let (hand, table, seen) = (&view.hand, &view.table, &view.seen);
    let n = view.players;
    let seat = view.seat;
    let next = (seat + n - 1) % n;
    let next_hand = view.hand_sizes.get(next).copied().unwrap_or(0);
    let mut unseen_by_rank = [0usize; 15];
    let known = CardSet::from_cards(hand).union(CardSet::from_cards(seen));
    let unseen_cards = CardSet::DECK.minus(known);
    for c in unseen_cards.iter() {
        unseen_by_rank[c.rank.value() as usize] += 1;
    }
    let unseen = unseen_cards.len();
    let matador_any = view.options.get("matador_source") != "table_only";
    Know {
        table: table.clone(),
        unseen_by_rank,
        unseen,
        next_hand,
        matador_any,
    }
}

/// A move to weigh: a capture (the card, then the cards it takes) or a trail.
enum Move {
    Capture(Card, Vec<Card>),
    Trail(Card),
}

fn score(know: &Know, m: &Move) -> f64 {
    match m {
        Move::Capture(card, taken) => {
            let rest: Vec<Card> = know.table.iter().copied().filter(|c| !taken.contains(c)).collect();
            gain(*card, taken, &know.table, know.matador_any) - know.risk(&rest)
        }
        &Move::Trail(card) => {
            let mut rest = know.table.clone();
            rest.push(card);
            let mut s = -know.risk(&rest);
            if is_matador(card) {
                s -= 5.0;
            }
            if card.suit == Suit::Spades {
                s -= 0.5;
            }
            s
        }
    }
}

/// The index of the best of `moves` (`None`: not a move), the first of equals.
fn best_move(know: &Know, moves: impl Iterator<Item = Option<Move>>) -> Option<usize> {
    let mut best: Option<(f64, usize)> = None;
    for (i, m) in moves.enumerate() {
        let Some(m) = m else { continue };
        let score = score(know, &m);
        if best.is_none_or(|(b, _)| score > b) {
            best = Some((score, i));
        }
    }
    best.map(|(_, i)| i)
}
