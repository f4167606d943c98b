//! Skwitz: the header, then each seat's cards played and captured this deal, the table, the
//! bottom card (the dealer's), hand sizes, the stock, the last captor, matadors and skwitzes this
//! deal, points, chips, the pot and its holder.

use super::writer::{bit, card_of, seat_arg, with_text, MAX_SEATS, W};
use croupier_games::cards::Card;
use croupier_games::game::{Event, SeatView};
use croupier_games::games::skwitz::view::SkwitzView;

pub(super) fn size(p: usize) -> usize {
    super::writer::header_size(p) + 111 * p + 106
}

/// The cards of a move token: the card played and the cards it captured (`C` or `C:X,Y`).
fn move_cards(t: &str) -> Option<(Card, u64)> {
    let (c, rest) = t.split_once(':').unwrap_or((t, ""));
    let c = Card::from_token(c)?;
    let taken = rest.split(',').filter_map(Card::from_token).fold(0, |m, x| m | bit(x));
    Some((c, taken))
}

fn i64s(v: &[i64]) -> [f64; MAX_SEATS] {
    std::array::from_fn(|s| v.get(s).copied().unwrap_or(0) as f64)
}

pub(super) fn fill(w: &mut W, view: &dyn SeatView, deal: &[Event]) {
    let v = view.as_any().downcast_ref::<SkwitzView>().expect("a Skwitz view");
    w.cards(v.hand());
    let mut played = [0u64; MAX_SEATS];
    let mut captured = [0u64; MAX_SEATS];
    let (mut matadors, mut skwitzes) = ([0u32; MAX_SEATS], [0u32; MAX_SEATS]);
    let (mut bottom, mut last_captor) = (0u64, None);
    for e in deal {
        let a = &e.args;
        match e.kind {
            "move" => {
                let Some(s) = seat_arg(a) else { continue };
                let cards = match card_of(a.get(1)) {
                    Some(c) => Some((c, 0)),
                    None => a.get(1).and_then(|t| with_text(t, move_cards)),
                };
                if let Some((c, taken)) = cards {
                    played[s] |= bit(c);
                    if taken != 0 {
                        captured[s] |= taken | bit(c);
                        last_captor = Some(s);
                    }
                }
            }
            "bottom" => bottom = card_of(a.first()).map_or(0, bit),
            "matador" | "skwitz" => {
                if let Some(s) = seat_arg(a) {
                    let n = if e.kind == "matador" {
                        &mut matadors
                    } else {
                        &mut skwitzes
                    };
                    n[s] += 1;
                }
            }
            _ => {}
        }
    }
    w.rel_sets(&played);
    w.rel_sets(&captured);
    w.cards(v.table());
    w.set(bottom);
    let sizes: [f64; MAX_SEATS] = std::array::from_fn(|s| v.hand_sizes().get(s).copied().unwrap_or(0) as f64);
    w.rel_values(&sizes[..]);
    w.value(v.stock() as f64);
    w.rel_onehot(last_captor);
    w.rel_values(&matadors[..]);
    w.rel_values(&skwitzes[..]);
    w.rel_values(&i64s(v.points())[..]);
    w.rel_values(&i64s(v.chips())[..]);
    w.value(v.pot() as f64);
    w.rel_onehot(v.pot_holder());
}
