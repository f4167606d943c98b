//! Hand evaluation and bidding: the tricks a hand is worth with a trump suit, the bid, the
//! trump and the called card.

use super::cards::{bottom, has, of_suit, parse_legal_cards, top};
use crate::cards::{Card, CardSet, Rank, Suit};
use crate::games::rikken::action::RikkenAction;
use crate::games::rikken::bids::{Contract, CLOSED, OPEN};
use crate::games::rikken::view::RikkenView;

/// Estimated tricks of `hand` with `trump` as trump suit (by itself, without partner).
pub(crate) fn trick_estimate(hand: &[Card], trump: Suit) -> f64 {
    estimate(CardSet::from_cards(hand), trump)
}

fn estimate(hand: CardSet, trump: Suit) -> f64 {
    let tlen = hand.of_suit(trump).len();
    let mut est = 0.0;
    for s in Suit::ALL {
        let len = hand.of_suit(s).len();
        let (a, k, q, j) = (
            hand.contains(Card::new(Rank::ACE, s)),
            hand.contains(Card::new(Rank::KING, s)),
            hand.contains(Card::new(Rank::QUEEN, s)),
            hand.contains(Card::new(Rank::JACK, s)),
        );
        if s == trump {
            est += f64::from(u8::from(a));
            est += if k && len >= 2 { 1.0 } else { 0.0 };
            est += if q && len >= 3 { 1.0 } else { 0.0 };
            est += if j && len >= 4 { 0.5 } else { 0.0 };
            est += len.saturating_sub(3) as f64;
        } else {
            est += f64::from(u8::from(a));
            if k && len >= 2 {
                est += if a { 1.0 } else { 0.6 };
            }
            if q && len >= 3 {
                est += if a && k { 0.75 } else { 0.25 };
            }
            if tlen >= 3 {
                est += match len {
                    0 => 1.0,
                    1 if !a => 0.5,
                    _ => 0.0,
                };
            }
        }
    }
    est
}

fn best_trump(hand: &[Card], allowed: &[Suit]) -> Option<Suit> {
    let set = CardSet::from_cards(hand);
    let key = |s: Suit| (estimate(set, s), set.of_suit(s).len());
    allowed
        .iter()
        .map(|&s| (s, key(s)))
        .max_by(|(a, ka), (b, kb)| ka.partial_cmp(kb).unwrap_or(std::cmp::Ordering::Equal).then(b.cmp(a)))
        .map(|(s, _)| s)
}

/// Cards of `hand` a misère player may be forced to win with: the i-th lowest card of a suit
/// (0-based) is risky above rank `base + 2 i`.
pub(super) fn misere_risky(hand: &[Card], base: u8) -> CardSet {
    let set = CardSet::from_cards(hand);
    let mut risky = CardSet::EMPTY;
    for s in Suit::ALL {
        let mut cs = set.of_suit(s);
        let mut i = 0;
        while let Some(c) = bottom(cs) {
            if c.rank.value() > base + 2 * i {
                risky.insert(c);
            }
            cs.remove(c);
            i += 1;
        }
    }
    risky
}

/// The ladder rank of a bid token (higher overbids lower); joins rank as their bid.
#[cfg(test)]
pub(crate) fn bid_rank(token: &str) -> u32 {
    auction_action(token).map_or(0, rank)
}

/// A legal auction token as the bid rules read it (`None`: no auction action).
fn auction_action(token: &str) -> Option<RikkenAction> {
    if token == "pass" {
        return Some(RikkenAction::Pass);
    }
    match token.strip_suffix("_join") {
        Some(base) => Contract::parse(base).map(RikkenAction::Join),
        None => Contract::parse(token).map(RikkenAction::Bid),
    }
}

/// The ladder rank of an auction action (higher overbids lower); a join ranks as its bid.
fn rank(a: RikkenAction) -> u32 {
    let alone = |n: u32, beter: bool| {
        let r = match n {
            7 | 8 => 3 + 2 * (n - 7),
            _ => 8 + 2 * (n - 9),
        };
        r + u32::from(beter)
    };
    let (RikkenAction::Bid(c) | RikkenAction::Join(c)) = a else {
        return 0;
    };
    match c {
        Contract::Rik { beter } => 1 + u32::from(beter),
        Contract::Misere { open: CLOSED } | Contract::Piek { open: CLOSED } => 7,
        Contract::Malheur => 16,
        Contract::Misere { open: OPEN } | Contract::Piek { open: OPEN } => 17,
        Contract::Misere { .. } | Contract::Piek { .. } => 18,
        Contract::Solo { beter } => 19 + u32::from(beter),
        Contract::Alone { n, beter } => alone(u32::from(n), beter),
        Contract::SchoppenMieen | Contract::OpVoorhand | Contract::OpenPiekTotaal => 0,
    }
}

pub(super) fn bid(view: &RikkenView, legal: &[String]) -> Option<String> {
    bid_on(&view.deal.hand, legal)
}

/// [`bid`] on the seat's hand alone (all the auction's rules of thumb read), on the tokens.
pub(super) fn bid_on(hand: &[Card], legal: &[String]) -> Option<String> {
    let actions: Vec<Option<RikkenAction>> = legal.iter().map(|t| auction_action(t)).collect();
    bid_choice(hand, &actions).map(|i| legal[i].clone())
}

/// The bid rules on the legal auction actions (`None`: a token that is none): the index of
/// the one chosen. The lowest bid the hand supports; else pass; else (passing is not allowed)
/// the obligatory malheur, a misère or piek of a hand nearly safe for it, or the cheapest bid.
pub(super) fn bid_choice(hand: &[Card], legal: &[Option<RikkenAction>]) -> Option<usize> {
    let aces = hand.iter().filter(|c| c.rank == Rank::ACE).count();
    let est = best_trump(hand, &Suit::ALL).map_or(0.0, |t| trick_estimate(hand, t));
    let est_h = trick_estimate(hand, Suit::Hearts);
    let risky = misere_risky(hand, 5);
    let misere_ok = risky.is_empty();
    let open_ok = misere_risky(hand, 4).is_empty();
    let piek_ok = risky.len() == 1 && top(risky).is_some_and(|c| c.rank == Rank::ACE) && aces == 1;
    let supports = |a: RikkenAction| -> bool {
        let (RikkenAction::Bid(c) | RikkenAction::Join(c)) = a else {
            return false;
        };
        match c {
            Contract::Rik { beter: false } => est >= 5.0,
            Contract::Rik { beter: true } => est_h >= 5.0,
            Contract::Misere { open: CLOSED } => misere_ok,
            Contract::Piek { open: CLOSED } => piek_ok,
            Contract::Misere { open: OPEN } => open_ok,
            Contract::Malheur => aces >= 3,
            Contract::Solo { beter: false } => est >= 12.5,
            Contract::Solo { beter: true } => est_h >= 12.5,
            Contract::Alone { n, beter } => (if beter { est_h } else { est }) >= f64::from(n) + 0.5,
            _ => false,
        }
    };
    let lowest = |pred: &dyn Fn(RikkenAction) -> bool| -> Option<usize> {
        (0..legal.len())
            .filter_map(|i| legal[i].map(|a| (i, a)))
            .filter(|&(_, a)| a != RikkenAction::Pass && pred(a))
            .min_by_key(|&(_, a)| rank(a))
            .map(|(i, _)| i)
    };
    let find = |want: RikkenAction| legal.iter().position(|&a| a == Some(want));
    if let Some(i) = lowest(&supports) {
        return Some(i);
    }
    if let Some(i) = find(RikkenAction::Pass) {
        return Some(i);
    }
    // Passing is not allowed: the obligatory malheur, or the cheapest bid there is.
    if let Some(i) = find(RikkenAction::Bid(Contract::Malheur)) {
        return Some(i);
    }
    if misere_risky(hand, 7).len() <= 1 {
        let plain = |a: RikkenAction| {
            matches!(
                a,
                RikkenAction::Bid(Contract::Misere { open: CLOSED } | Contract::Piek { open: CLOSED })
            )
        };
        if let Some(i) = lowest(&plain) {
            return Some(i);
        }
    }
    lowest(&|_| true)
}

pub(super) fn choose_trump(view: &RikkenView, legal: &[String]) -> Option<String> {
    choose_trump_on(&view.deal.hand, legal)
}

/// [`choose_trump`] on the seat's hand.
pub(super) fn choose_trump_on(hand: &[Card], legal: &[String]) -> Option<String> {
    let allowed: Vec<Suit> = legal.iter().filter_map(|t| t.parse().ok()).collect();
    best_trump(hand, &allowed).map(|s| s.to_string())
}

pub(super) fn call(view: &RikkenView, legal: &[String]) -> Option<String> {
    call_on(&view.deal.hand, view.trump_suit(), legal)
}

/// [`call`] on the seat's hand and the trump suit declared.
pub(super) fn call_on(hand: &[Card], trump: Option<Suit>, legal: &[String]) -> Option<String> {
    parse_legal_cards(legal)
        .into_iter()
        .max_by_key(|c| {
            let len = of_suit(hand, c.suit).len() as i32;
            let k = i32::from(c.rank < Rank::KING && has(hand, Rank::KING, c.suit));
            let q = i32::from(c.rank < Rank::QUEEN && has(hand, Rank::QUEEN, c.suit) && len >= 2);
            let not_trump = i32::from(Some(c.suit) != trump);
            // Prefer a suit where the partner's card makes own honours good; avoid trump.
            (not_trump, 6 * k + 3 * q + len, std::cmp::Reverse(c.index()))
        })
        .map(|c| c.to_string())
}
