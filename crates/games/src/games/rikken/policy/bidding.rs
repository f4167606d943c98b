//! Hand evaluation and bidding: the tricks a hand is worth with a trump suit, the bid, the
//! trump and the called card.

use super::cards::{bottom, has, of_suit, parse_legal_cards, top};
use crate::cards::{Card, CardSet, Rank, Suit};
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
pub(crate) fn bid_rank(token: &str) -> u32 {
    let base = token.strip_suffix("_join").unwrap_or(token);
    let alone = |n: u32, beter: bool| {
        let r = match n {
            7 | 8 => 3 + 2 * (n - 7),
            _ => 8 + 2 * (n - 9),
        };
        r + u32::from(beter)
    };
    match base {
        "pass" => 0,
        "rik" => 1,
        "rik_beter" => 2,
        "misere" | "piek" => 7,
        "malheur" => 16,
        "open_misere" | "open_piek" => 17,
        "open_misere_praatje" | "open_piek_praatje" => 18,
        "solo" => 19,
        "solo_beter" => 20,
        _ => {
            let rest = base.strip_prefix("alone").unwrap_or("");
            let (num, beter) = match rest.strip_suffix("_beter") {
                Some(n) => (n, true),
                None => (rest, false),
            };
            num.parse().map(|n| alone(n, beter)).unwrap_or(0)
        }
    }
}

pub(super) fn bid(view: &RikkenView, legal: &[String]) -> Option<String> {
    bid_on(&view.deal.hand, legal)
}

/// [`bid`] on the seat's hand alone (all the auction's rules of thumb read).
pub(super) fn bid_on(hand: &[Card], legal: &[String]) -> Option<String> {
    let aces = hand.iter().filter(|c| c.rank == Rank::ACE).count();
    let est = best_trump(hand, &Suit::ALL).map_or(0.0, |t| trick_estimate(hand, t));
    let est_h = trick_estimate(hand, Suit::Hearts);
    let risky = misere_risky(hand, 5);
    let misere_ok = risky.is_empty();
    let open_ok = misere_risky(hand, 4).is_empty();
    let piek_ok = risky.len() == 1 && top(risky).is_some_and(|c| c.rank == Rank::ACE) && aces == 1;
    let supports = |token: &str| -> bool {
        let base = token.strip_suffix("_join").unwrap_or(token);
        match base {
            "rik" => est >= 5.0,
            "rik_beter" => est_h >= 5.0,
            "misere" => misere_ok,
            "piek" => piek_ok,
            "open_misere" => open_ok,
            "malheur" => aces >= 3,
            "solo" => est >= 12.5,
            "solo_beter" => est_h >= 12.5,
            _ => {
                let Some(rest) = base.strip_prefix("alone") else {
                    return false;
                };
                match rest.strip_suffix("_beter") {
                    Some(n) => n.parse::<f64>().is_ok_and(|n| est_h >= n + 0.5),
                    None => rest.parse::<f64>().is_ok_and(|n| est >= n + 0.5),
                }
            }
        }
    };
    let lowest = |pred: &dyn Fn(&str) -> bool| -> Option<String> {
        legal
            .iter()
            .filter(|t| t.as_str() != "pass" && pred(t))
            .min_by_key(|t| bid_rank(t))
            .cloned()
    };
    if let Some(b) = lowest(&supports) {
        return Some(b);
    }
    if legal.iter().any(|t| t == "pass") {
        return Some("pass".into());
    }
    // Passing is not allowed: the obligatory malheur, or the cheapest bid there is.
    if legal.iter().any(|t| t == "malheur") {
        return Some("malheur".into());
    }
    if misere_risky(hand, 7).len() <= 1 {
        if let Some(b) = lowest(&|t| t == "misere" || t == "piek") {
            return Some(b);
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
