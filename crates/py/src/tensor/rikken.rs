//! Rikken: the header, the trick play, then the auction, the contract and its declarers, trump,
//! the called card, the partner, the hands laid open.

use super::tricks::{tricks_size, Tricks};
use super::writer::{bit, card_of, seat_arg, seat_of, with_text, MAX_SEATS, W};
use croupier_games::game::{Event, SeatView};
use croupier_games::games::rikken::view::RikkenView;

/// The auction's words, in their one-hot order (the action space's order: `pass`, the 23 bids,
/// the 6 joins).
pub(super) use crate::vocab::RIKKEN_WORDS as BIDS;

/// The contracts beyond the 23 bids: the special deals.
pub(super) const SPECIAL: [&str; 3] = ["schoppen_mieen", "op_voorhand", "open_piek_totaal"];

/// Trump: the four suits, then `none`.
const TRUMPS: [&str; 5] = ["S", "H", "D", "C", "none"];

pub(super) fn size(p: usize) -> usize {
    super::writer::header_size(p) + tricks_size(p) + 30 * p + 26 + p + 5 + 52 + p + 52 * p
}

pub(super) fn fill(w: &mut W, view: &dyn SeatView, deal: &[Event]) {
    let v = view.as_any().downcast_ref::<RikkenView>().expect("a Rikken view");
    w.cards(v.hand());
    let mut tricks = Tricks::default();
    let mut bids = [0u64; MAX_SEATS];
    let (mut contract, mut declarers, mut trump, mut called, mut partner) = (None, 0u32, None, 0u64, None);
    let mut exposed = [0u64; MAX_SEATS];
    for e in deal {
        let a = &e.args;
        match e.kind {
            "move" => {
                let Some(s) = seat_arg(a) else { continue };
                let decision = a.get(2).map(|d| with_text(d, |t| t == "play" || t == "bid"));
                if let Some(c) = card_of(a.get(1)).filter(|_| decision == Some(true)) {
                    tricks.play(s, c);
                    for x in exposed.iter_mut() {
                        *x &= !bit(c);
                    }
                } else if decision == Some(true) {
                    if let Some(i) = a
                        .get(1)
                        .and_then(|t| with_text(t, |t| BIDS.iter().position(|b| *b == t)))
                    {
                        bids[s] |= 1 << i;
                    }
                }
            }
            "trick" => tricks.end(a),
            "contract" => {
                contract = a
                    .first()
                    .and_then(|t| with_text(t, |t| BIDS[1..24].iter().chain(SPECIAL.iter()).position(|b| *b == t)));
                declarers = a.get(1).map_or(0, |d| {
                    with_text(d, |t| {
                        t.split(',')
                            .filter_map(|x| x.parse::<u32>().ok())
                            .filter(|&x| x < 32)
                            .fold(0, |m, x| m | 1 << x)
                    })
                });
            }
            "trump" => {
                trump = a
                    .first()
                    .and_then(|t| with_text(t, |t| TRUMPS.iter().position(|x| *x == t)))
            }
            "called" => called = card_of(a.first()).map_or(0, bit),
            "partner" => partner = seat_of(a.first()),
            "exposed" => {
                if let Some(s) = seat_arg(a) {
                    let all_played = tricks.played.iter().fold(0, |m, x| m | x);
                    exposed[s] = a[1..]
                        .iter()
                        .filter_map(|x| card_of(Some(x)))
                        .fold(0, |m, c| m | bit(c))
                        & !all_played;
                }
            }
            _ => {}
        }
    }
    tricks.write(w);
    w.rel_bits(BIDS.len(), &bids);
    w.onehot(26, contract);
    w.rel_mask(declarers);
    w.onehot(TRUMPS.len(), trump);
    w.set(called);
    w.rel_onehot(partner);
    w.rel_sets(&exposed);
}
