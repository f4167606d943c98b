//! The observation tensor, one layout per game, made only from what one seat was told: its seat
//! view (the game's own, folded from the seat's lines; read through the view's typed accessors)
//! and the lines it was told, `seen`, from the start of the current deal. No JSON and no heap
//! allocation on this path: it runs once per step of a batched environment.
//!
//! Every layout starts with the same header (`header`); `docs/rules/<game>.md`, "Python
//! tensor", gives each game's table (offset, size, block), which `tests/test_tensor.py` reads and
//! checks against this code. Seats are relative where the block is per seat: block `r` is the
//! seat `(seat + r) mod P`, so block 0 is always the observing seat.

use croupier_games::game::{Event, Seat, SeatView};

mod kul;
mod rikken;
mod schwimmen;
mod skwitz;
mod svangknack;
mod tricks;
mod writer;
mod zwikken;

use writer::{deal_start, seat_of, W};

/// The length of the observation tensor of `game` (its name) at a table of `players` (0 for a
/// game this module does not know).
pub fn size(game: &str, players: usize) -> usize {
    match game {
        "kul" => kul::size(players),
        "rikken" => rikken::size(players),
        "zwikken" => zwikken::size(players),
        "svangknack" => svangknack::size(players),
        "skwitz" => skwitz::size(players),
        "schwimmen" => schwimmen::size(players),
        _ => 0,
    }
}

/// Writes the observation of `seat` into `out` (of [`size`], every element written): what the
/// seat was told, `seen`, and its seat view `view`, folded from those same lines; `to_move` is
/// public. The one entry point of this module: the state's `observation_tensor` and the batched
/// environment both call it.
#[allow(clippy::too_many_arguments)]
pub fn fill(
    game: &str,
    players: usize,
    seat: Seat,
    to_move: Option<Seat>,
    view: &dyn SeatView,
    seen: &[Event],
    out: &mut [f32],
) {
    assert_eq!(
        out.len(),
        size(game, players),
        "tensor buffer of the wrong length for {game}"
    );
    out.fill(0.0);
    if out.is_empty() {
        return;
    }
    let deal = &seen[deal_start(seen)..];
    let mut w = W {
        out,
        at: 0,
        seat,
        players,
    };
    header(&mut w, to_move, deal);
    match game {
        "kul" => kul::fill(&mut w, view, deal),
        "rikken" => rikken::fill(&mut w, view, deal),
        "zwikken" => zwikken::fill(&mut w, view, deal),
        "svangknack" => svangknack::fill(&mut w, view, deal),
        "skwitz" => skwitz::fill(&mut w, view, deal),
        "schwimmen" => schwimmen::fill(&mut w, view, deal),
        _ => {}
    }
    debug_assert_eq!(w.at, w.out.len(), "{game}: the layout written is not size()");
}

/// The header: `this seat` (absolute, P), `to move` (absolute, P; zeros once the game is over),
/// `to move` (relative, P), `dealer` of the current deal (relative, P), then the seat's hand (52),
/// written by the game (its view's hand).
fn header(w: &mut W, to_move: Option<Seat>, deal: &[Event]) {
    let p = w.players;
    w.onehot(p, Some(w.seat));
    w.onehot(p, to_move);
    w.rel_onehot(to_move);
    let dealer = deal
        .first()
        .filter(|e| e.kind == "deal")
        .and_then(|e| seat_of(e.args.get(1)));
    w.rel_onehot(dealer);
}

#[cfg(test)]
mod tests;
