//! Svängknack: the header, the trick play, then the turn-up, trump, each seat's words this deal
//! (swing, redeal vote, knock or fold, Färg), the swinger, the participants, chips and pot.

use super::tricks::{tricks_size, Tricks};
use super::writer::{card_of, seat_arg, seat_of, with_text, MAX_SEATS, W};
use croupier_games::game::{Event, SeatView};
use croupier_games::games::svangknack::view::SvangView;

/// The words a seat says, in their multi-hot order (the action space's).
use crate::vocab::SVANGKNACK_WORDS as WORDS;

/// The trump suits, in their one-hot order.
const SUITS: [&str; 4] = ["S", "H", "D", "C"];

pub(super) fn size(p: usize) -> usize {
    super::writer::header_size(p) + tricks_size(p) + 12 * p + 57
}

pub(super) fn fill(w: &mut W, view: &dyn SeatView, deal: &[Event]) {
    let v = view.as_any().downcast_ref::<SvangView>().expect("a Svängknack view");
    w.cards(v.hand());
    let mut tricks = Tricks::default();
    let mut words = [0u64; MAX_SEATS];
    let (mut turnup, mut trump, mut swinger, mut participants) = (0u64, None, None, 0u32);
    for e in deal {
        let a = &e.args;
        match e.kind {
            "move" => {
                let Some(s) = seat_arg(a) else { continue };
                if let Some(c) = card_of(a.get(1)) {
                    tricks.play(s, c);
                    continue;
                }
                let Some(t) = a.get(1) else { continue };
                if let Some(i) = with_text(t, |t| WORDS.iter().position(|x| *x == t)) {
                    words[s] |= 1 << i;
                    if i == 0 {
                        swinger = Some(s);
                    }
                }
            }
            "trick" => tricks.end(a),
            "turnup" => {
                turnup = a
                    .iter()
                    .filter_map(|x| card_of(Some(x)))
                    .fold(0, |m, c| m | super::writer::bit(c))
            }
            "trump" => {
                trump = a
                    .first()
                    .and_then(|t| with_text(t, |t| SUITS.iter().position(|x| *x == t)))
            }
            "swinger" => swinger = seat_of(a.first()),
            "participants" => {
                participants = a.first().map_or(0, |d| {
                    with_text(d, |t| {
                        t.split(',')
                            .filter_map(|x| x.parse::<u32>().ok())
                            .filter(|&x| x < 32)
                            .fold(0, |m, x| m | 1 << x)
                    })
                })
            }
            _ => {}
        }
    }
    tricks.write(w);
    w.set(turnup);
    w.onehot(SUITS.len(), trump);
    w.rel_bits(WORDS.len(), &words);
    w.rel_onehot(swinger);
    w.rel_mask(participants);
    let chips: [f64; MAX_SEATS] = std::array::from_fn(|s| v.chips().get(s).copied().unwrap_or(0) as f64);
    w.rel_values(&chips[..]);
    w.value(v.pot() as f64);
}
