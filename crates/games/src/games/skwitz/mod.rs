//! Skwitz: a fishing game for 2–8 players (rules: `docs/rules/skwitz.md`).
//! A move captures a set of table cards with one card from the hand (same-rank matches and
//! sums of two or more number cards, in any combination), or trails a card to the table.
//!
//! [`captures`] enumerates and checks captures, [`engine`] is the state machine (deals, draws,
//! the in-play payments, deal-end points, "Out!", the pot and the session of games), [`view`]
//! is what one seat knows, [`policy`] the `simple` bot, [`render`] the text of `croupier show`.
//! The state machine is in files by phase: `state`, `rules`, `action`, `deal`, `play`,
//! `payments` and `outcome`; the deal table of Sec. 1.1 is in `deal_table`.

mod action;
pub mod captures;
mod deal;
mod deal_table;
pub mod engine;
mod outcome;
mod payments;
mod play;
pub mod policy;
pub mod render;
mod rules;
mod state;
pub mod view;

use crate::chance::Chance;
use crate::engine::Typed;
use crate::game::{DealLines, Game, GameSpec};
use crate::options::OptionSpec;
use crate::options::Options;

pub use deal_table::{check_deal_table, parse_deal_table, DEAL_TABLE};

/// Builds a game (the spec's `new_game`): the engine as a [`Game`], with the playout policy on
/// the engine that searches play out with ([`Typed::with_playout_policy`]).
pub fn new_game(players: usize, options: &Options, chance: Chance, listening: bool) -> Result<Box<dyn Game>, String> {
    let game = Typed::listening(listening, |events| {
        engine::Skwitz::new(players, options, chance, events)
    })?;
    Ok(Box::new(game.with_playout_policy(policy::engine_policy)))
}

pub fn spec() -> GameSpec {
    GameSpec {
        name: "skwitz",
        title: "Skwitz",
        summary: "anticlockwise; fishing: capture by matching and summing, skwitz sweeps, matadors, Out! at 7",
        min_players: 2,
        max_players: 8,
        default_players: 4,
        notes: "A croupier game is a session of Skwitz games (option games, default 5; each ends when a player \
                declares Out!), played on while the pot is not collected (extra_games_cap). Scores are net \
                chips per seat (zero-sum; with teams=true each seat scores its team's shared pool).\n\
                Play is anticlockwise: the next player is the seat to the right, seat s-1 (mod n).\n\
                Action tokens: `out`, a capture `CARD:C1,C2,...` (the played card, then the captured table \
                cards in notation order S H D C, high to low), a trail `CARD`.\n\
                A faulting bot (illegal answer, error, timeout, crash, flood, dead) gets croupier's seeded random \
                substitute; with breach_penalty=true the fault is a breach (SK14): the seat pays S/2 to each other \
                player (the other team with teams; `breach` and `pay ... breach` events) and plays the default \
                action: its lowest-value trail (A=1..10, then J Q K) if it may trail, else the first capture in \
                canonical order (capturing card in notation order, largest set first).\n\
                [PROPOSAL, not in the spec] After 30 deals in one game, the next deal end at which a player has \
                reached the target declares Out! for him, so bots that never declare cannot play forever.",
        options,
        new_game,
        new_view: view::new_view,
        simple_policy: policy::simple_policy,
        playout_policy: policy::simple_policy,
        typed_policy: Some(policy::typed_policy),
        typed_playout_policy: Some(policy::typed_policy),
        search_sure: 1.0,
        search_scale: 1,
        deal_lines: DealLines {
            rejected: &["reshuffle"],
            ..DealLines::NONE
        },
        render: render::render,
        // Scores are net chips per session (5 games, stake 4). A session moves a seat by about a
        // hundred chips, and the paired difference of a candidate one decision in a hundred off
        // `simple` has a spread of 80: at 2 chips the test needed some 10,000 deals (it never
        // decided within compare's 2,000). 20 chips (five stakes) decides in a few hundred.
        compare_bounds: (-20.0, 0.0),
        forfeit,
    }
}

/// A forfeit costs one stake per game of the session (`stake` × `games`) to each other player
/// (with `teams=true` the forfeiting seat's partner pays it too: the team's pool is shared).
fn forfeit(players: usize, seat: crate::game::Seat, options: &crate::options::Options) -> Vec<f64> {
    let amount = (options.int("stake") * options.int("games")) as f64;
    if options.flag("teams") && players == 4 {
        // Two teams of two: each seat of the forfeiting team pays each opponent `amount`.
        let team = seat % 2;
        return (0..4)
            .map(|s| if s % 2 == team { -2.0 * amount } else { 2.0 * amount })
            .collect();
    }
    crate::game::forfeit_paying_each(players, seat, amount)
}

/// Every rule option of skwitz.md (Sec. 6's list), defaults first.
pub fn options() -> Vec<OptionSpec> {
    vec![
        OptionSpec::int("target", 1, 100, "7", "points needed to declare Out! (Sec. 2.3)"),
        OptionSpec::int(
            "stake",
            2,
            1000,
            "4",
            "the stake S in chips, even: ante S, matador and skwitz S/2 to the captor and S/2 to the pot per other player (Sec. 4)",
        ),
        OptionSpec::text(
            "deal_table",
            "standard|n:T,h,k/...",
            check_deal_table,
            "standard",
            "override the deal table of Sec. 1.1 for n players: T table cards, h cards per draw, k draws (T+n*h*k=52, h>=2)",
        ),
        OptionSpec::choice(
            "ante_per",
            &["deal", "game"],
            "deal",
            "every player antes S into the pot every deal, or only at the first deal of a game (Sec. 2.0)",
        ),
        OptionSpec::choice(
            "trail_rule",
            &["only_when_unable", "free", "card_level"],
            "only_when_unable",
            "trailing only when no card can capture; any time; or with any card that cannot capture (Sec. 2.3)",
        ),
        OptionSpec::choice(
            "matador_source",
            &["any_into_pile", "table_only"],
            "any_into_pile",
            "a matador scores when it enters a pile, the capturing card included; or only when taken from the table (Sec. 2.4)",
        ),
        OptionSpec::choice(
            "last_play_skwitz",
            &["counts", "no"],
            "counts",
            "a sweep with the last card of the deal is a skwitz, or not (Sec. 2.4)",
        ),
        OptionSpec::bool(
            "leftover_to_last_captor",
            false,
            "the cards left on the table at the deal end go to the last captor (Cassino); default: out of play (Sec. 2.5)",
        ),
        OptionSpec::choice(
            "tie_rule",
            &["nobody", "all_tied"],
            "nobody",
            "a tie for most cards or most spades scores for nobody, or for every tied player (Sec. 2.5)",
        ),
        OptionSpec::choice(
            "out_timing",
            &["on_turn", "auto_at_deal_end"],
            "on_turn",
            "Out! is declared at the start of one's turn (optional); or automatic at the deal end (Sec. 2.5)",
        ),
        OptionSpec::choice(
            "collect_rule",
            &["consecutive", "second_win_total"],
            "consecutive",
            "the pot holder collects when he wins again in a row; or whoever wins a second time since the last collection (Sec. 2.6)",
        ),
        OptionSpec::bool(
            "teams",
            false,
            "4 players as two teams of two partners sitting opposite (0+2, 1+3), sharing points and chips (Sec. 6 SK16)",
        ),
        OptionSpec::bool(
            "breach_penalty",
            false,
            "a fault of the seat to move (illegal, error, timeout, crash, flood, dead) is a breach: it pays S/2 to each other player (the other team with teams) and the default action is played: the lowest-value trail if trailing is legal, else the first capture in canonical order (SK14); false: croupier's seeded random substitute",
        ),
        OptionSpec::int("games", 1, 1000, "5", "games (each up to an Out!) in a session (Sec. 5)"),
        OptionSpec::int(
            "extra_games_cap",
            0,
            100,
            "3",
            "after the last game, play at most this many more until the pot is collected, then split it (Sec. 5)",
        ),
    ]
}
