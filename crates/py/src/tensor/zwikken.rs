//! Zwikken: the header, the trick play, then the turned cards, the bids of this period, the
//! seeks, the cards known in each hand, the points, chips, pot and who is still in.

use super::tricks::{tricks_size, Tricks};
use super::writer::{bit, card_of, seat_arg, seat_of, with_text, MAX_SEATS, W};
use croupier_games::cards::Card;
use croupier_games::game::{Event, SeatView};
use croupier_games::games::zwikken::view::ZwikkenView;

/// The bid words, in their multi-hot order.
const BIDS: [&str; 5] = ["pass", "ask", "ken_pass", "ken_ask", "wait_better"];

pub(super) fn size(p: usize) -> usize {
    super::writer::header_size(p) + tricks_size(p) + 60 * p + 54
}

/// The card played by a first-trick `exchange_X_Y` (Y), if the token is one.
fn exchange_play(t: &str) -> Option<Card> {
    let rest = t.strip_prefix("exchange_")?;
    let (_, y) = rest.split_once('_')?;
    Card::from_token(y)
}

pub(super) fn fill(w: &mut W, view: &dyn SeatView, deal: &[Event]) {
    let v = view.as_any().downcast_ref::<ZwikkenView>().expect("a Zwikken view");
    w.cards(v.hand());
    let mut tricks = Tricks::default();
    let mut bids = [0u64; MAX_SEATS];
    let mut known = [0u64; MAX_SEATS];
    let mut points = [0u32; MAX_SEATS];
    let mut seeks = 0u32;
    for e in deal {
        let a = &e.args;
        match e.kind {
            "move" => {
                let Some(s) = seat_arg(a) else { continue };
                let card = card_of(a.get(1)).or_else(|| a.get(1).and_then(|t| with_text(t, exchange_play)));
                if let Some(c) = card {
                    tricks.play(s, c);
                    known[s] &= !bit(c);
                    continue;
                }
                let Some(t) = a.get(1) else { continue };
                with_text(t, |t| {
                    if t == "seek" {
                        seeks += 1;
                    } else if let Some(i) = BIDS.iter().position(|b| *b == t) {
                        bids[s] |= 1 << i;
                    }
                });
            }
            "turn" => bids = [0; MAX_SEATS],
            "trick" => tricks.end(a),
            "exchange" => {
                if let (Some(s), Some(take)) = (seat_arg(a), card_of(a.get(1))) {
                    known[s] |= bit(take);
                }
            }
            "zwik" => {
                if let Some(s) = seat_arg(a) {
                    known[s] |= a[1..]
                        .iter()
                        .filter_map(|x| card_of(Some(x)))
                        .fold(0, |m, c| m | bit(c));
                }
            }
            "points" => {
                for (i, x) in a.iter().enumerate().take(MAX_SEATS) {
                    points[i] = seat_of(Some(x)).unwrap_or(0) as u32;
                }
            }
            _ => {}
        }
    }
    tricks.write(w);
    w.cards(v.turned());
    w.rel_bits(BIDS.len(), &bids);
    w.value(f64::from(seeks));
    w.rel_sets(&known);
    w.rel_values(&points[..]);
    let chips: [f64; MAX_SEATS] = std::array::from_fn(|s| v.chips().get(s).copied().unwrap_or(0) as f64);
    w.rel_values(&chips[..]);
    w.value(v.pot() as f64);
    let active: [u32; MAX_SEATS] = std::array::from_fn(|s| u32::from(v.active().get(s).copied().unwrap_or(false)));
    w.rel_values(&active[..]);
}
