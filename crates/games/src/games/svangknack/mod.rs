//! Svängknack: 3 to 16 players, 3 cards each, a pot won by thirds per trick, the swinger's
//! choice (redeal, swing, hand over), trump chosen from two turned cards, knocking to join,
//! forced overtaking, must-trump, "Färg", and "bet" payments carried into the next pot
//! (rules: `docs/rules/svangknack.md`).
//!
//! [`engine`] holds the state machine and the trick law, [`view`] what one seat knows,
//! [`policy`] the `simple` bot, [`render`] the text of `croupier show`. The state machine is
//! in files by phase: `state`, `rules`, `action`, `deal`, `swing`, `trump`,
//! `knocking`, `tricks` (the trick law), `play`, `outcome` and `text`.

mod action;
mod deal;
pub mod engine;
mod knocking;
mod outcome;
mod play;
pub mod policy;
pub mod render;
mod rules;
mod state;
mod swing;
mod text;
mod tricks;
mod trump;
pub mod view;

use crate::chance::Chance;
use crate::engine::Typed;
use crate::game::{DealLines, Game, GameSpec};
use crate::options::OptionSpec;
use crate::options::Options;

/// Builds a game (the spec's `new_game`): the engine as a [`Game`], with the playout policy on
/// the engine that searches play out with ([`Typed::with_playout_policy`]).
pub fn new_game(players: usize, options: &Options, chance: Chance, listening: bool) -> Result<Box<dyn Game>, String> {
    let game = Typed::listening(listening, |events| {
        engine::Svangknack::new(players, options, chance, events)
    })?;
    Ok(Box::new(game.with_playout_policy(policy::engine_policy)))
}

pub fn spec() -> GameSpec {
    GameSpec {
        name: "svangknack",
        title: "Svängknack",
        summary: "pot by thirds per trick, swing or hand over, knock to join, forced overtaking, Färg",
        min_players: 3,
        max_players: 16,
        default_players: 6,
        notes: "A croupier game is a session (svangknack.md Sec. 5): `rounds` rounds (0 = 3 per player), then \
                more rounds until one ends without bet players, at most `extra_rounds_cap` more (-1 = one per \
                player); bets still owed then are split equally.\n\
                Scores are each seat's net chips over the session (zero-sum). Seats 0..n-1 clockwise; the \
                player left of the dealer is forehand and swinger, and deals the next round.",
        options,
        new_game,
        new_view: view::new_view,
        simple_policy: policy::simple_policy,
        playout_policy: policy::simple_policy,
        typed_policy: Some(policy::typed_policy),
        typed_playout_policy: Some(policy::typed_policy),
        search_sure: 1.0,
        search_scale: 5,
        deal_lines: DealLines::NONE,
        render: render::render,
        // A session (3n rounds, stake 3) moves about ±50 chips per seat at the default 6 players
        // (simple bots: standard deviation 56); losing two base stakes (6 chips) per session and
        // seat is a small but clear regression.
        compare_bounds: (-6.0, 0.0),
        forfeit,
    }
}

/// A forfeit costs one base stake per player (`base_stake` × players) to each other player.
fn forfeit(players: usize, seat: crate::game::Seat, options: &crate::options::Options) -> Vec<f64> {
    crate::game::forfeit_paying_each(players, seat, (options.int("base_stake") * players as i64) as f64)
}

/// Every named option of svangknack.md Sec. 6, defaults first.
pub fn options() -> Vec<OptionSpec> {
    vec![
        OptionSpec::choice("deck", &["52", "36"], "52", "52 cards, or 36 (A-6, at most 11 players) [outside]"),
        OptionSpec::int(
            "base_stake",
            3,
            999,
            "3",
            "A, the base stake (a multiple of 3): everyone's ante for a new pot, the dealer's otherwise",
        ),
        OptionSpec::bool(
            "last_man",
            false,
            "at a hand-over forehand may say 'sista man' (handover_last): if everyone folds he plays against the swinger [outside]",
        ),
        OptionSpec::bool(
            "same_suit_forces_all",
            false,
            "two turned cards of one suit force every player to take part [outside]",
        ),
        OptionSpec::int(
            "force_pot_limit",
            0,
            1_000_000,
            "0",
            "with same_suit_forces_all: force only while the pot is at most this (0 = always)",
        ),
        OptionSpec::choice(
            "forced_participation",
            &["off", "session_first_round", "every_new_pot"],
            "off",
            "'tvingad medgång': one card turned for trump and every player takes part, in the session's first round or after every new pot",
        ),
        OptionSpec::bool(
            "first_round_dealer_only",
            false,
            "the first round's pot is the dealer's stake only, and one card is turned for trump",
        ),
        OptionSpec::choice(
            "overtake_after_trump",
            &["still_required", "relaxed"],
            "still_required",
            "once a trick is trumped, a follower must still beat the best card of the led suit, or may play any card of it",
        ),
        OptionSpec::bool(
            "literal_C",
            false,
            "clause C literally: a player with no higher card of the led suit and no trump may play any card",
        ),
        OptionSpec::choice(
            "farg_reference",
            &["overtake_obligation", "led_card_only"],
            "overtake_obligation",
            "Färg needs: unable to meet the overtaking duty (best card so far), or only unable to beat the led card",
        ),
        OptionSpec::choice("farg_tricks", &["1,2", "1,2,3"], "1,2", "the tricks in which Färg may be called"),
        OptionSpec::int(
            "bet_cap",
            0,
            1_000_000_000,
            "0",
            "[PROPOSAL] a bet pays the pot but at most this (a multiple of 3; 0 = 1000 x base_stake)",
        ),
        OptionSpec::int("rounds", 0, 10_000, "0", "rounds in a session before it may end (0 = 3 per player)"),
        OptionSpec::int(
            "extra_rounds_cap",
            -1,
            10_000,
            "-1",
            "at most this many extra rounds to clear the bets before they are split (-1 = one per player)",
        ),
    ]
}
