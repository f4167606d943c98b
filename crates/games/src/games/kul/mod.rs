//! Kul (Femkort, Sista stick): the short last-trick game played after a Svängknack session,
//! 2 to 10 players, 5 cards each, no trump, forced overtaking; the winner of the fifth trick
//! gets a mark and the first to three marks takes the pot (rules: `docs/rules/kul.md`).
//!
//! [`engine`] holds the state machine, [`view`] what one seat knows, [`policy`] the `simple`
//! bot, [`render`] the text of `croupier show`.

pub mod engine;
pub mod policy;
pub mod render;
pub mod view;

use crate::chance::Chance;
use crate::engine::Typed;
use crate::game::{DealLines, Game, GameSpec};
use crate::options::OptionSpec;
use crate::options::Options;

/// Builds a game (the spec's `new_game`): the engine as a [`Game`], with the playout policy on
/// the engine that searches play out with ([`Typed::with_playout_policy`]).
pub fn new_game(players: usize, options: &Options, chance: Chance, listening: bool) -> Result<Box<dyn Game>, String> {
    let game = Typed::listening(listening, |events| engine::Kul::new(players, options, chance, events))?;
    Ok(Box::new(game.with_playout_policy(policy::engine_policy)))
}

pub fn spec() -> GameSpec {
    GameSpec {
        name: "kul",
        title: "Kul",
        summary: "5 cards, no trump, forced overtaking, a mark for the last trick, 3 marks take the pot",
        min_players: 2,
        max_players: 10,
        default_players: 5,
        notes: "A croupier game is a session of `games` Kul games (kul.md Sec. 5). Every player pays `stake` \
                into the pot at the start of each Kul game; the winner of trick 5 of a deal gets a mark; \
                the first to `marks_to_win` marks takes the whole pot and deals the next game.\n\
                Scores are each seat's net chips over the session (zero-sum). Seats 0..n-1 clockwise; \
                the player left of the dealer leads trick 1.",
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
        // A session (3 Kul games, stake 1) moves about ±3.5 chips per seat at 5 players
        // (simple bots: standard deviation 3.5); losing half a chip per session and seat is a
        // small but clear regression.
        compare_bounds: (-0.5, 0.0),
        forfeit,
    }
}

/// A forfeit costs every Kul game's stake of the session (`stake` × `games`) to each other
/// player: as if each of them had won every ante from the forfeiting seat.
fn forfeit(players: usize, seat: crate::game::Seat, options: &crate::options::Options) -> Vec<f64> {
    crate::game::forfeit_paying_each(players, seat, (options.int("stake") * options.int("games")) as f64)
}

/// Every rule option of kul.md, defaults first.
pub fn options() -> Vec<OptionSpec> {
    vec![
        OptionSpec::choice(
            "marks_to_win",
            &["3", "2", "1"],
            "3",
            "marks (last tricks won) that take the pot: 3, the variant 2, or 1 (the 1847 one pot per deal)",
        ),
        OptionSpec::int(
            "stake",
            1,
            1000,
            "1",
            "K: what every player pays into the pot at the start of a game",
        ),
        OptionSpec::int("games", 1, 100, "3", "Kul games in a session (one croupier game)"),
        OptionSpec::bool(
            "redeal_request",
            false,
            "forehand may ask for a redeal before the first lead; it happens if every other player agrees [outside]",
        ),
        OptionSpec::int(
            "max_deals_per_game",
            1,
            1000,
            "30",
            "safety cap: after this many deals in one game the pot is split equally",
        ),
    ]
}
