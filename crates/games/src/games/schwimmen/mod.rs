//! 31 / Schwimmen (Swiss "Zoggeli" house rules): 2–10 players exchange cards with a face-up
//! middle, knock, take strikes and drown; the last survivor wins and every player pays its
//! place to a kitty (rules: `docs/rules/schwimmen.md`).
//!
//! [`engine`] holds the state machine, [`scoring`] hand values and the ranking payments,
//! [`view`] what one seat knows, [`policy`] the `simple` bot, [`render`] the text of
//! `croupier show`. The state machine is in files by phase: `state`, `rules`, `action`, `deal`,
//! `turns`, `round_end` and `outcome`.

mod action;
mod deal;
pub mod engine;
mod outcome;
pub mod policy;
pub mod render;
mod round_end;
mod rules;
pub mod scoring;
mod state;
mod turns;
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
        engine::Schwimmen::new(players, options, chance, events)
    })?;
    Ok(Box::new(game.with_playout_policy(policy::engine_policy)))
}

pub fn spec() -> GameSpec {
    GameSpec {
        name: "schwimmen",
        title: "31 / Schwimmen",
        summary: "swap with the middle, knock, 31 and three aces; strikes, drowning, a kitty",
        min_players: 2,
        max_players: 10,
        default_players: 4,
        notes: "A game is one game of Schwimmen: rounds are dealt until one player is left (schwimmen.md Sec. 2.7).\n\
                Every round gives strikes; the 4th strike drowns a player. At the end place r (1 = last survivor)\n\
                pays r francs to the kitty (players drowned in the same round share their places), so the scores\n\
                are MINUS what each seat pays and are NOT zero-sum: they always sum to -n(n+1)/2.\n\
                Seats are numbered clockwise; play and the deal pass anticlockwise (to the right: seat s-1).\n\
                A session of G games (the spec's `games`) is croupier's --games; the option is accepted but\n\
                does not change one game.\n\
                Faults: a seat whose bot is dead (could not be restarted) is absent (Sec. 4): it leaves the game at\n\
                once and is ranked last, below everyone drowned so far (they move up a place; of several absent\n\
                seats the first to leave ranks lowest); a dealer absent before his packet choice is replaced by the\n\
                next player, who deals a new round. With misdeal_strike=true any other fault of the dealer at the\n\
                packet choice is a misdeal (Sec. 2.6, W14): he takes a strike (and may drown) and deals again.\n\
                Every other fault gets croupier's seeded random substitute move.",
        options,
        new_game,
        new_view: view::new_view,
        simple_policy: policy::simple_policy,
        playout_policy: policy::simple_policy,
        typed_policy: Some(policy::typed_policy),
        typed_playout_policy: Some(policy::typed_policy),
        search_sure: 0.0,
        search_scale: 1,
        deal_lines: DealLines {
            exchanges: &[("move", "swap_")],
            exchanges_all: &[("move", "swap_all", "middle")],
            shows: &["show"],
            ..DealLines::NONE
        },
        render: render::render,
        // A game pays between 1 and n francs per seat (2.5 francs on average with 4 players,
        // about 1.3 francs spread per seat): losing a quarter of a franc per game and seat is a
        // clear regression.
        compare_bounds: (-0.25, 0.0),
        forfeit,
    }
}

/// A forfeiting seat takes the last place and pays n francs; the others share the other places
/// and pay n/2 each, so the payments add up to n(n+1)/2 as in every game.
fn forfeit(players: usize, seat: crate::game::Seat, _options: &crate::options::Options) -> Vec<f64> {
    let n = players as f64;
    (0..players).map(|s| if s == seat { -n } else { -n / 2.0 }).collect()
}

/// Every named option of schwimmen.md (Sec. 6), defaults first.
pub fn options() -> Vec<OptionSpec> {
    vec![
        OptionSpec::choice(
            "deck",
            &["36", "32"],
            "36",
            "36: the Swiss Jass pack 6-A in French suits; 32: 7-A (then at most 9 players) (Sec. 1)",
        ),
        OptionSpec::choice(
            "dealer_rule",
            &["rotate", "loser_deals"],
            "rotate",
            "the next dealer: the next active player to the right, or the player who took the strike (Sec. 1)",
        ),
        OptionSpec::bool(
            "allow_pass",
            false,
            "a turn may be a pass (schieben) instead of a swap or knock (Sec. 2.4)",
        ),
        OptionSpec::bool(
            "all_pass_refresh",
            true,
            "with allow_pass: a full circuit of passes replaces the middle with 3 cards of the unused pack",
        ),
        OptionSpec::bool(
            "no_knock_first_circuit",
            false,
            "nobody may knock before every active player has had a turn (Sec. 2.4)",
        ),
        OptionSpec::choice(
            "lowest_tie",
            &["all_strike", "highest_cards_tiebreak"],
            "all_strike",
            "a tie for lowest: everyone tied gets a strike, or the higher cards (by rank) escape (Sec. 2.5)",
        ),
        OptionSpec::bool(
            "knocker_double",
            false,
            "a knocker among the lowest takes 2 strikes (Sec. 2.5)",
        ),
        OptionSpec::choice(
            "same_round_rank",
            &["share_average", "by_hand_value"],
            "share_average",
            "players drowned in one round share their places, or rank by hand value (ties share; after three aces by the unshown hands) (Sec. 4)",
        ),
        OptionSpec::bool(
            "misdeal_strike",
            false,
            "a dealer whose bot faults at the packet choice misdeals: a strike, and he deals again (Sec. 2.6 proposal, W14); false: a substitute choice",
        ),
        OptionSpec::int(
            "max_circuits",
            1,
            1000,
            "30",
            "a round without a knock ends in a showdown after this many full circuits (Sec. 2.4)",
        ),
        OptionSpec::int(
            "games",
            1,
            1000,
            "3",
            "games per session: use croupier's --games; accepted for completeness, no effect on one game (Sec. 5)",
        ),
        OptionSpec::int(
            "strikes_to_swim",
            1,
            20,
            "3",
            "strikes that make a player 'swimming' (announced; no effect on play) (Sec. 2.6)",
        ),
        OptionSpec::int(
            "strikes_to_drown",
            1,
            20,
            "4",
            "strikes that drown (eliminate) a player (Sec. 2.6)",
        ),
    ]
}
