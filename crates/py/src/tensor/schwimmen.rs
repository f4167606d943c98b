//! Schwimmen (31): the header, then the middle, the dealer's seen packet, the values of the hand
//! and the middle, who knocked, each seat's moves this round, the cards known in each hand,
//! strikes, who is still in and who swims.

use super::writer::{bit, card_of, seat_arg, with_text, MAX_SEATS, W};
use croupier_games::cards::Card;
use croupier_games::game::{Event, SeatView};
use croupier_games::games::schwimmen::scoring::value_halves;
use croupier_games::games::schwimmen::view::SchwimmenView;

/// The move words, in their multi-hot order (`swap` is any swap of one card).
const WORDS: [&str; 6] = ["keep_seen", "take_unseen", "swap", "swap_all", "knock", "pass"];

pub(super) fn size(p: usize) -> usize {
    super::writer::header_size(p) + 62 * p + 106
}

/// A one-card swap token `swap_X_Y`: the card given (X, from the hand) and the card taken (Y,
/// from the middle).
fn swap(t: &str) -> Option<(Card, Card)> {
    let (x, y) = t.strip_prefix("swap_")?.split_once('_')?;
    Some((Card::from_token(x)?, Card::from_token(y)?))
}

fn set_of(a: &[croupier_games::game::Arg]) -> u64 {
    a.iter().filter_map(|x| card_of(Some(x))).fold(0, |m, c| m | bit(c))
}

pub(super) fn fill(w: &mut W, view: &dyn SeatView, deal: &[Event]) {
    let v = view.as_any().downcast_ref::<SchwimmenView>().expect("a Schwimmen view");
    w.cards(v.hand());
    let mut words = [0u64; MAX_SEATS];
    let mut known = [0u64; MAX_SEATS];
    let (mut middle, mut knocker) = (0u64, None);
    for e in deal {
        let a = &e.args;
        match e.kind {
            "move" => {
                let (Some(s), Some(t)) = (seat_arg(a), a.get(1)) else {
                    continue;
                };
                with_text(t, |t| {
                    if let Some((x, y)) = swap(t) {
                        words[s] |= 1 << 2;
                        known[s] = (known[s] & !bit(x)) | bit(y);
                        for (o, k) in known.iter_mut().enumerate() {
                            if o != s {
                                *k &= !bit(y);
                            }
                        }
                    } else if let Some(i) = WORDS.iter().position(|x| *x == t) {
                        words[s] |= 1 << i;
                        if t == "knock" {
                            knocker = Some(s);
                        }
                        if t == "swap_all" {
                            known[s] = middle;
                            for (o, k) in known.iter_mut().enumerate() {
                                if o != s {
                                    *k &= !middle;
                                }
                            }
                        }
                    }
                });
            }
            "middle" => middle = set_of(&a[..]),
            "show" => {
                if let Some(s) = seat_arg(a) {
                    known[s] = set_of(&a[1..]);
                }
            }
            _ => {}
        }
    }
    w.cards(v.middle());
    w.cards(v.packet());
    w.value(f64::from(value_halves(v.hand())) / 2.0);
    w.value(f64::from(value_halves(v.middle())) / 2.0);
    w.rel_onehot(knocker);
    w.rel_bits(WORDS.len(), &words);
    w.rel_sets(&known);
    w.rel_values(v.strikes());
    let flags =
        |f: &[bool]| -> [u32; MAX_SEATS] { std::array::from_fn(|s| u32::from(f.get(s).copied().unwrap_or(false))) };
    w.rel_values(&flags(v.active())[..]);
    w.rel_values(&flags(v.swimming())[..]);
}
