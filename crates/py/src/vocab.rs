//! Each game's fixed integer action space: a list of tokens (the integer is the position), and
//! for Skwitz's captures, whose tokens name a set of cards, "the k-th capture with card c".
//!
//! The order is fixed here and never depends on a state: words first, then the suits, then
//! card blocks in card index order (`Card::from_index`), then pairs of cards (`52 * a + b`).

use croupier_games::cards::Card;
use std::collections::HashMap;

/// How many captures with one card a Skwitz action space holds (the k-th capture with a card,
/// in the engine's order, k below this).
pub const SKWITZ_CAPTURES: usize = 128;

/// Rikken's words, in the action space's order: `pass`, the 23 bids from low to high, the 6
/// joins (the observation tensor's auction block uses the same order).
pub const RIKKEN_WORDS: [&str; 30] = [
    "pass",
    "rik",
    "rik_beter",
    "alone7",
    "alone7_beter",
    "alone8",
    "alone8_beter",
    "misere",
    "piek",
    "alone9",
    "alone9_beter",
    "alone10",
    "alone10_beter",
    "alone11",
    "alone11_beter",
    "alone12",
    "alone12_beter",
    "malheur",
    "open_misere",
    "open_piek",
    "open_misere_praatje",
    "open_piek_praatje",
    "solo",
    "solo_beter",
    "misere_join",
    "piek_join",
    "open_misere_join",
    "open_piek_join",
    "open_misere_praatje_join",
    "open_piek_praatje_join",
];

/// Svängknack's words, in the action space's order (and the tensor's).
pub const SVANGKNACK_WORDS: [&str; 9] = [
    "swing",
    "handover",
    "handover_last",
    "redeal",
    "agree",
    "refuse",
    "knock",
    "fold",
    "farg",
];

/// Kul's words (the redeal vote), in the action space's order (and the tensor's).
pub const KUL_WORDS: [&str; 4] = ["keep", "redeal", "agree", "refuse"];

pub struct Vocab {
    names: Vec<String>,
    index: HashMap<String, usize>,
    /// Skwitz: where the capture block starts (after the tokens).
    captures: Option<usize>,
}

fn cards() -> impl Iterator<Item = &'static str> {
    (0..52).map(|i| Card::from_index(i).token())
}

fn words(w: &[&str]) -> Vec<String> {
    w.iter().map(|s| s.to_string()).collect()
}

fn suits() -> Vec<String> {
    words(&["S", "H", "D", "C"])
}

fn pairs(prefix: &str) -> Vec<String> {
    let mut v = Vec::with_capacity(52 * 52);
    for a in cards() {
        for b in cards() {
            v.push(format!("{prefix}{a}_{b}"));
        }
    }
    v
}

impl Vocab {
    /// The action space of game `name` (as `croupier games` names it).
    pub fn of(name: &str) -> Vocab {
        let card_list = || cards().map(String::from).collect::<Vec<_>>();
        let mut names = Vec::new();
        let mut captures = None;
        match name {
            "rikken" => {
                names.extend(words(&RIKKEN_WORDS));
                names.extend(suits());
                names.extend(card_list());
            }
            "zwikken" => {
                names.extend(words(&[
                    "pass",
                    "ask",
                    "ken_pass",
                    "ken_ask",
                    "wait_better",
                    "seek",
                    "no_seek",
                    "no_exchange",
                ]));
                names.extend(card_list());
                names.extend(cards().map(|c| format!("exchange_{c}")));
                names.extend(pairs("exchange_"));
            }
            "svangknack" => {
                names.extend(words(&SVANGKNACK_WORDS));
                names.extend(suits());
                names.extend(card_list());
            }
            "kul" => {
                names.extend(words(&KUL_WORDS));
                names.extend(card_list());
            }
            "skwitz" => {
                names.push("out".to_string());
                names.extend(card_list());
                captures = Some(names.len());
            }
            "schwimmen" => {
                names.extend(words(&["keep_seen", "take_unseen", "swap_all", "knock", "pass"]));
                names.extend(pairs("swap_"));
            }
            _ => {}
        }
        let index = names.iter().enumerate().map(|(i, n)| (n.clone(), i)).collect();
        Vocab { names, index, captures }
    }

    /// The size of the action space.
    pub fn len(&self) -> usize {
        self.names.len() + self.captures.map_or(0, |_| 52 * SKWITZ_CAPTURES)
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The name of action `a` out of any state.
    pub fn name(&self, a: usize) -> Option<String> {
        if let Some(t) = self.names.get(a) {
            return Some(t.clone());
        }
        let base = self.captures?;
        let k = a.checked_sub(base)?;
        (k < 52 * SKWITZ_CAPTURES).then(|| format!("capture{}:{}", k / 52, Card::from_index(k % 52).token()))
    }

    /// The integers of legal tokens (in their order): each its token's place, a capture
    /// `base + 52 * k + card` where it is the k-th capture with that card among them.
    pub fn ids(&self, tokens: &[String]) -> Result<Vec<usize>, String> {
        let mut per_card = [0usize; 52];
        tokens
            .iter()
            .map(|t| {
                if let Some(&i) = self.index.get(t) {
                    return Ok(i);
                }
                let capture = self.captures.and_then(|base| {
                    let (card, _) = t.split_once(':')?;
                    let c = Card::from_token(card)?.index();
                    let k = per_card[c];
                    per_card[c] += 1;
                    Some((base, k, c))
                });
                match capture {
                    Some((base, k, c)) if k < SKWITZ_CAPTURES => Ok(base + 52 * k + c),
                    Some(_) => Err(format!("more than {SKWITZ_CAPTURES} captures with one card: {t}")),
                    None => Err(format!(
                        "the action {t} has no number (croupier-py's action space misses it)"
                    )),
                }
            })
            .collect()
    }
}
