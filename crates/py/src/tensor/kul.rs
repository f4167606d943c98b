//! Kul: the header, the trick play, then marks, chips, pot, stake and the redeal vote.

use super::tricks::{tricks_size, Tricks};
use super::writer::{card_of, seat_arg, with_text, MAX_SEATS, W};
use croupier_games::game::{Event, SeatView};
use croupier_games::games::kul::view::KulView;

/// The redeal words, in their one-hot order (the action space's).
use crate::vocab::KUL_WORDS as REDEAL;

pub(super) fn size(p: usize) -> usize {
    super::writer::header_size(p) + tricks_size(p) + 6 * p + 2
}

pub(super) fn fill(w: &mut W, view: &dyn SeatView, deal: &[Event]) {
    let v = view.as_any().downcast_ref::<KulView>().expect("a Kul view");
    w.cards(v.hand());
    let mut tricks = Tricks::default();
    let mut redeal = [None; MAX_SEATS];
    for e in deal {
        match e.kind {
            "move" => {
                let Some(s) = seat_arg(&e.args) else {
                    continue;
                };
                match card_of(e.args.get(1)) {
                    Some(c) => tricks.play(s, c),
                    None => {
                        redeal[s] = e
                            .args
                            .get(1)
                            .and_then(|a| with_text(a, |t| REDEAL.iter().position(|x| *x == t)))
                    }
                }
            }
            "trick" => tricks.end(&e.args),
            _ => {}
        }
    }
    tricks.write(w);
    w.rel_values(v.marks());
    let chips: [f64; MAX_SEATS] = std::array::from_fn(|s| v.chips().get(s).copied().unwrap_or(0) as f64);
    w.rel_values(&chips[..]);
    w.value(v.pot() as f64);
    w.value(v.stake() as f64);
    w.rel_choices(REDEAL.len(), &redeal);
}
