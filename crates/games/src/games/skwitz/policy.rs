//! The built-in `simple` Skwitz bot: declares Out! as soon as it may; otherwise it values
//! each capture by the cards, spades, matadors and sweeps it brings, and subtracts the risk
//! of what it leaves on the table for the next player (a sweep or a matador within reach of
//! the cards it has not seen). A trail is chosen to leave the least within reach.

use super::captures::{self, is_matador};
use super::engine::SkwitzAction;
use super::state::Skwitz;
use super::view::SkwitzView;
use crate::cards::{Card, CardSet, Suit};
use crate::game::{Seat, SeatView};

/// What the bot knows: read from the view ([`know_of`], the `simple` bot) or from the engine
/// ([`know_of_engine`], a search's playouts), which reads only the seat's hand and public
/// state. Every decision is weighed on it alone.
struct Know {
    table: CardSet,
    /// The ranks (bit = rank value 2..=14) of which some card is unseen (not in our hand, not
    /// seen face up this deal).
    ranks: u16,
    /// By rank value, for those ranks: the chance that the next player holds at least one
    /// card of the rank.
    p_holds: [f64; 15],
    /// The matadors, as a mask.
    matadors: u64,
    matador_any: bool,
}

impl Know {
    /// The chance that the next player holds at least one card of a rank of which
    /// `unseen_of_rank` of the `unseen` cards are.
    fn p_holds(unseen_of_rank: usize, unseen: usize, next_hand: usize) -> f64 {
        if unseen == 0 || next_hand == 0 {
            return 0.0;
        }
        let q = 1.0 - unseen_of_rank as f64 / unseen as f64;
        1.0 - q.powi(next_hand as i32)
    }

    /// The expected damage of leaving `rest` on the table for the next player.
    fn risk(&self, rest: CardSet) -> f64 {
        if rest.is_empty() {
            return 0.0;
        }
        let mut risk = 0.0;
        // Rank by rank, low to high.
        let mut ranks = self.ranks;
        while ranks != 0 {
            let r = ranks.trailing_zeros() as u8;
            ranks &= ranks - 1;
            // The first in the canonical order: the largest.
            let Some(best) = captures::best_capture_of_rank(r, rest) else {
                continue;
            };
            let mut harm = 0.1 * best.len() as f64;
            if best.len() == rest.len() {
                harm += 10.0; // a skwitz
            }
            harm += 8.0 * (best.0 & self.matadors).count_ones() as f64;
            risk += self.p_holds[r as usize] * harm;
        }
        risk
    }
}

/// The gain of capturing `taken` with `card` from a table of `table_len` cards, before risk.
fn gain(card: Card, taken: CardSet, table_len: usize, matador_any: bool) -> f64 {
    // A card is worth little (one point for most cards per deal); spades a bit more.
    let mut g = 0.25 * (taken.len() + 1) as f64;
    let all = std::iter::once(card).chain(taken.iter());
    for c in all {
        if c.suit == Suit::Spades {
            g += 0.3;
        }
        if is_matador(c) && (matador_any || c != card) {
            g += 10.0;
        }
    }
    if taken.len() == table_len {
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
            let taken: Vec<Card> = list.split(',').filter_map(|x| x.parse().ok()).collect();
            Some(Move::Capture(card, CardSet::from_cards(&taken)))
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
    Some(choose(&know_of(view), legal))
}

/// The playout policy ([`simple_policy`]) on the engine, for the seat to move
/// ([`EnginePolicy`](crate::engine::EnginePolicy)): what it knows read
/// from the engine ([`know_of_engine`]), weighed as on the view.
pub(super) fn engine_policy(g: &Skwitz, legal: &[SkwitzAction]) -> usize {
    if let Some(i) = legal.iter().position(|&a| a == SkwitzAction::Out) {
        return i;
    }
    choose(&know_of_engine(g, g.turn), legal)
}

/// The best of the typed legal actions that are not `out` (the first action when none is).
fn choose(know: &Know, legal: &[SkwitzAction]) -> usize {
    let moves = legal.iter().map(|&a| match a {
        SkwitzAction::Out => None,
        SkwitzAction::Trail(c) => Some(Move::Trail(c)),
        SkwitzAction::Capture(c, taken) => Some(Move::Capture(c, taken)),
    });
    best_move(know, moves).unwrap_or(0)
}

/// What the seat knows that the policy weighs, read from the view.
fn know_of(view: &SkwitzView) -> Know {
    let n = view.players;
    let next = (view.seat + n - 1) % n;
    let next_hand = view.hand_sizes.get(next).copied().unwrap_or(0);
    know(
        CardSet::from_cards(&view.hand).union(view.seen_set),
        CardSet::from_cards(&view.table),
        next_hand,
        view.matador_any,
    )
}

/// What `seat` knows that the policy weighs, read from the engine: its own hand, the cards
/// shown face up this deal (the layout and the cards played, as the view keeps them), the
/// table, how many cards the next player holds, and the rules.
fn know_of_engine(g: &Skwitz, seat: Seat) -> Know {
    let next = g.right(seat);
    know(
        CardSet::from_cards(&g.hands[seat]).union(g.face_up),
        CardSet::from_cards(&g.table),
        g.hands[next].len(),
        !g.rules.matador_table_only,
    )
}

/// What the policy weighs, from the cards the seat knows the places of (`known`: its hand and
/// the cards seen face up), the table, the size of the next player's hand and whether the
/// capturing card scores a matador.
fn know(known: CardSet, table: CardSet, next_hand: usize, matador_any: bool) -> Know {
    let unseen_cards = CardSet::DECK.minus(known);
    let unseen = unseen_cards.len();
    // The unseen cards of each rank, counted for every rank at once: the four suits' 13-bit
    // rows added up bit by bit into a three-bit count per rank (bit i: rank 14 - i).
    let m = unseen_cards.0;
    let row = |s: u32| (m >> (13 * s)) & 0x1fff;
    let (x, y) = (row(0) ^ row(1), row(0) & row(1));
    let (z, w) = (row(2) ^ row(3), row(2) & row(3));
    let carry = x & z;
    let bits = [x ^ z, y ^ w ^ carry, (y & w) | ((y ^ w) & carry)];
    // The chance is the same for ranks with as many unseen cards: made once for each count.
    let mut by_count = [None::<f64>; 5];
    let mut ranks = 0u16;
    let mut p_holds = [0.0; 15];
    for (r, p) in p_holds.iter_mut().enumerate().skip(2) {
        let i = 14 - r;
        let count = (0..3).map(|b| ((bits[b] >> i) & 1) << b).sum::<u64>() as usize;
        if count != 0 {
            ranks |= 1 << r;
            *p = *by_count[count].get_or_insert_with(|| Know::p_holds(count, unseen, next_hand));
        }
    }
    Know {
        table,
        ranks,
        p_holds,
        matadors: captures::matador_mask(),
        matador_any,
    }
}

/// A move to weigh: a capture (the card, then the cards it takes) or a trail.
enum Move {
    Capture(Card, CardSet),
    Trail(Card),
}

fn score(know: &Know, m: &Move) -> f64 {
    match *m {
        Move::Capture(card, taken) => {
            let rest = know.table.minus(taken);
            gain(card, taken, know.table.len(), know.matador_any) - know.risk(rest)
        }
        Move::Trail(card) => {
            let mut rest = know.table;
            rest.insert(card);
            let mut s = -know.risk(rest);
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
