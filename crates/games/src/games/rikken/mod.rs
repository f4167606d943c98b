//! Rikken: four players, an auction over a 20-slot ladder, a partner found through a called
//! ace, misère and piek, open hands (rules: `docs/rules/rikken.md`).
//!
//! [`bids`] holds the contracts and the ladder, [`engine`] the state machine, [`scoring`] the
//! points of Sec. 9, [`view`] what one seat knows, [`policy`] the `simple` bot, [`render`] the
//! text of `croupier show`. The state machine is in files by phase: `state`, `rules` (the rules
//! read from the options), `action`, `deal`, `auction`, `declarations`, `play` and `outcome`.

mod action;
mod auction;
pub mod bids;
mod deal;
mod declarations;
pub mod engine;
mod outcome;
mod play;
pub mod policy;
pub mod render;
mod rules;
pub mod scoring;
mod state;
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
        engine::Rikken::new(players, options, chance, events)
    })?;
    Ok(Box::new(game.with_playout_policy(policy::engine_policy)))
}

pub fn spec() -> GameSpec {
    GameSpec {
        name: "rikken",
        title: "Rikken",
        summary: "auction, a partner through a called ace, misère and piek, open hands",
        min_players: 4,
        max_players: 4,
        default_players: 4,
        notes: "A game is one deal (after any all-pass redeals). Scores are zero-sum points per deal \
                (rikken.md Sec. 9): amounts are per opponent, a lone declarer receives or pays three times.\n\
                Seats 0..3 are N E S W, clockwise; the player left of the dealer speaks and leads first.",
        options,
        new_game,
        new_view: view::new_view,
        simple_policy: policy::simple_policy,
        // `simple` is also the model of play in pimc's playouts: it is how the others at a
        // table of `simple` bots really play (a fight for a piek declarer's first trick, which
        // simple does not make, misled the search about every piek).
        playout_policy: policy::simple_policy,
        typed_policy: Some(policy::typed_policy),
        typed_playout_policy: Some(policy::typed_policy),
        search_sure: 1.0,
        search_scale: 1,
        deal_lines: DealLines::NONE,
        render: render::render,
        // A deal moves about ±5 points per seat: a loss of a point per deal is a clear regression.
        compare_bounds: (-1.0, 0.0),
        forfeit,
    }
}

/// A forfeit costs what a failed solo beter costs, per opponent (`score_solo_beter`, 16).
fn forfeit(players: usize, seat: crate::game::Seat, options: &crate::options::Options) -> Vec<f64> {
    crate::game::forfeit_paying_each(players, seat, options.int("score_solo_beter") as f64)
}

/// Every rule option of Sec. 10 (and the scoring table of Sec. 9), defaults first.
pub fn options() -> Vec<OptionSpec> {
    vec![
        OptionSpec::choice(
            "lowest_alone_bid",
            &["7", "8", "9"],
            "7",
            "the lowest alone bid; 8 removes 7 alleen/beter, 9 also 8 alleen/beter (Sec. 10.1)",
        ),
        OptionSpec::choice(
            "misere_above",
            &["8", "9", "10"],
            "8",
            "misère/piek rank just above 'N beter' for this N (Sec. 10.1)",
        ),
        OptionSpec::choice(
            "malheur_mode",
            &["obligatory", "optional", "abolished"],
            "obligatory",
            "a holder of 3 or 4 aces must bid malheur (or higher), may, or the bid does not exist (Sec. 10.2)",
        ),
        OptionSpec::bool(
            "malheur_strict",
            false,
            "under obligatory malheur only 'malheur' itself is legal, not a higher bid (A4)",
        ),
        OptionSpec::bool(
            "malheur_called_card_forced",
            true,
            "the fourth ace (or called K/Q) in malheur has the called-card duties of Sec. 7.2 (Sec. 10.3)",
        ),
        OptionSpec::bool(
            "malheur_trump_excludes_called_suit",
            false,
            "the malheur partner may not make the called card's suit trump (Sec. 10.4)",
        ),
        OptionSpec::int(
            "open_closed_tricks",
            0,
            12,
            "0",
            "open misère/piek: the declarer's hand is shown only after this many tricks (Sec. 10.5)",
        ),
        OptionSpec::bool(
            "open_declarer_leads",
            true,
            "open misère/piek: the declarer leads trick 1; false: the player left of the dealer (Sec. 10.5)",
        ),
        OptionSpec::choice(
            "all_pass",
            &["redeal", "fourth_must_bid", "schoppen_mieen"],
            "redeal",
            "when all four pass: same dealer redeals; the dealer may not pass; or play schoppen mieën (Sec. 10.6-10.8)",
        ),
        OptionSpec::bool(
            "mie_first_trick",
            false,
            "schoppen mieën: the winner of trick 1 pays 1 to each other player",
        ),
        OptionSpec::bool(
            "mie_last_trick",
            false,
            "schoppen mieën: the winner of trick 13 pays 1 to each other player",
        ),
        OptionSpec::choice(
            "mie_most_tricks",
            &["off", "wins", "loses"],
            "off",
            "schoppen mieën: the player(s) with the most tricks receive (wins) or pay (loses) 1 from/to each other",
        ),
        OptionSpec::bool(
            "mie_spade_penalty",
            false,
            "schoppen mieën: each spade taken costs 1 to each other player",
        ),
        OptionSpec::choice(
            "special",
            &["none", "op_voorhand", "open_piek_totaal"],
            "none",
            "play every game as a special deal: op voorhand rikken (Sec. 10.9) or open piek totaal (Sec. 10.10)",
        ),
        OptionSpec::bool(
            "piek_allowed",
            true,
            "piek may be bid; false removes piek from all three slots (Sec. 10.11)",
        ),
        OptionSpec::bool(
            "alone_requires_rikken",
            false,
            "an alone bid needs a prior 'rik' in the auction, not just any prior bid (A1)",
        ),
        OptionSpec::bool(
            "allow_join_piek_open",
            false,
            "piek and the open forms can be joined like misère ('ik piek ook', A12)",
        ),
        OptionSpec::bool(
            "protect_called_card",
            true,
            "the holder may not discard the called card while he has another legal card (A7)",
        ),
        OptionSpec::choice(
            "fail_mode",
            &["base", "mirrored_undertricks"],
            "base",
            "a failed contract pays its base stake, or score_overtrick more per trick short beyond the first; solo is always fixed (Sec. 9.3, A14)",
        ),
        OptionSpec::bool(
            "hide_quitted_tricks",
            false,
            "completed tricks are turned down: views keep only leader and winner (A22)",
        ),
        OptionSpec::bool(
            "cut_only",
            false,
            "an all-pass redeal is cut, not shuffled: the hands are gathered from the dealer's left and cut once (Sec. 2.1)",
        ),
        OptionSpec::choice(
            "deal_packets",
            &["7+6", "6+7", "13"],
            "7+6",
            "packets when dealing (only matters with cut_only; a shuffled deck makes it cosmetic)",
        ),
        OptionSpec::bool(
            "misdeal_always_redeal",
            false,
            "accepted for completeness (Sec. 2.3): croupier deals itself and never misdeals",
        ),
        OptionSpec::int("score_rik", 0, 1000, "1", "rikken made with 8 tricks, per player"),
        OptionSpec::int("score_rik_13", 0, 1000, "10", "rikken with all 13 tricks, per player"),
        OptionSpec::int("score_malheur", 0, 1000, "2", "malheur made with 8 tricks, per player"),
        OptionSpec::int("score_malheur_13", 0, 1000, "11", "malheur with all 13 tricks, per player"),
        OptionSpec::int("score_overtrick", 0, 1000, "1", "each trick above the target, per opponent"),
        OptionSpec::int("score_alone", 0, 1000, "1", "N alleen made exactly, per opponent (declarer gets 3x)"),
        OptionSpec::int("score_misere", 0, 1000, "3", "misère/piek, per opponent"),
        OptionSpec::int("score_open", 0, 1000, "6", "open misère/piek, per opponent"),
        OptionSpec::int("score_praatje", 0, 1000, "9", "open misère/piek met een praatje, per opponent"),
        OptionSpec::int("score_solo", 0, 1000, "15", "solo, per opponent"),
        OptionSpec::int("score_solo_beter", 0, 1000, "16", "solo beter, per opponent"),
        OptionSpec::int("score_mie", 0, 1000, "3", "schoppen mieën: the taker of the queen of spades pays each other player"),
        OptionSpec::int("score_open_piek_totaal", 0, 1000, "3", "open piek totaal: each loser pays each winner"),
    ]
}
