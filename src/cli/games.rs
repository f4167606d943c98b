//! `croupier games` and `croupier rules`, finding a game by its name, and how its players and
//! the rule options a record changes from its defaults are written.

use super::exit::{self, usage, Outcome};
use super::output::table;
use crate::game::GameSpec;

/// The game named `name`; an unknown name is a usage error that lists the games.
pub(crate) fn find_game(name: &str) -> Result<GameSpec, (u8, String)> {
    crate::games::find(name).ok_or_else(|| {
        let names: Vec<&str> = crate::games::all().iter().map(|g| g.name).collect();
        usage(format!("unknown game '{name}'; games: {}", names.join(", ")))
    })
}

/// `4` or `3-16`.
pub(crate) fn player_range(g: &GameSpec) -> String {
    if g.min_players == g.max_players {
        g.min_players.to_string()
    } else {
        format!("{}-{}", g.min_players, g.max_players)
    }
}

pub(super) fn list() -> Outcome {
    let rows: Vec<[String; 3]> = crate::games::all()
        .iter()
        .map(|g| {
            [
                g.name.to_string(),
                format!("{} players", player_range(g)),
                g.summary.to_string(),
            ]
        })
        .collect();
    for l in table(&rows) {
        outln!("{l}");
    }
    Ok(exit::OK)
}

pub(super) fn rules(game: &str) -> Outcome {
    let g = find_game(game)?;
    outln!("{} ({}): {}", g.title, g.name, g.summary);
    let players = if g.min_players == g.max_players {
        format!("{}", g.min_players)
    } else {
        format!("{}-{} (default {})", g.min_players, g.max_players, g.default_players)
    };
    outln!("players: {players}");
    let (lo, hi) = g.compare_bounds;
    outln!("compare: default --sprt {lo},{hi} (mean paired score difference per game and seat)");
    outln!();
    outln!("Options (--rule name=value):");
    let rows: Vec<[String; 3]> = (g.options)()
        .iter()
        .map(|o| {
            [
                format!("{} = {}", o.name, o.values_text()),
                format!("default {}", o.default),
                o.help.to_string(),
            ]
        })
        .collect();
    for l in table(&rows) {
        outln!("  {l}");
    }
    if !g.notes.is_empty() {
        outln!();
        outln!("{}", g.notes.trim_end());
    }
    Ok(exit::OK)
}

/// The options of a record that differ from the game's defaults (the record holds them all):
/// `default rules`, or `name=value …`.
pub(super) fn rules_text(options: &crate::options::Options, spec: &GameSpec) -> String {
    let defaults = (spec.options)();
    let opts: Vec<String> = options
        .iter()
        .filter(|(k, v)| {
            defaults
                .iter()
                .find(|o| o.name == k.as_str())
                .is_none_or(|o| o.default != v.as_str())
        })
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
    if opts.is_empty() {
        "default rules".to_string()
    } else {
        opts.join(" ")
    }
}
