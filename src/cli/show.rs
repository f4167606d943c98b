//! `croupier show` and `croupier replay`.

use super::{exit, io, usage, Outcome};
use crate::game::GameSpec;
use crate::record::{fmt_score, replay, GameRecord};
use clap::Args;
use std::collections::BTreeMap;

#[derive(Args, Debug)]
pub struct ShowArgs {
    /// A record file (JSON Lines); `-` reads standard input.
    file: String,
    /// Which game of the file (1 = the first line).
    #[arg(long, default_value_t = 1)]
    game: usize,
    /// Show only what this seat saw.
    #[arg(long)]
    seat: Option<usize>,
}

pub fn replay_files(files: &[String]) -> Outcome {
    io::stdin_at_most_once(files.iter().map(String::as_str))?;
    // Every file is read and checked first: a file that is not a record file is an input
    // error (exit 2), whatever the files before it hold.
    let mut all = Vec::new();
    for f in files {
        all.push((io::input_name(f), io::read_record_file(f, false)?));
    }
    let mut total = 0;
    for (name, records) in &all {
        for (k, (line, rec, spec)) in records.iter().enumerate() {
            replay(rec, spec).map_err(|e| (exit::CHECK_FAILED, format!("{name}:{line} (game {}): {e}", k + 1)))?;
            total += 1;
        }
    }
    outln!("replayed {total} game(s): all agree with the rules");
    Ok(exit::OK)
}

pub fn run(a: ShowArgs) -> Outcome {
    let name = io::input_name(&a.file);
    let records = io::read_record_file(&a.file, false)?;
    let Some((line, rec, spec)) = records.get(a.game.wrapping_sub(1)) else {
        return Err(usage(format!(
            "{name} holds {} game(s); there is no game {}",
            records.len(),
            a.game
        )));
    };
    if let Some(s) = a.seat {
        if s >= rec.players {
            return Err(usage(format!("there is no seat {s} in a {}-player game", rec.players)));
        }
    }
    let events = replay(rec, spec).map_err(|e| (exit::CHECK_FAILED, format!("{name}:{line}: {e}")))?;
    let events: Vec<_> = match a.seat {
        Some(s) => events.into_iter().filter(|e| e.to.contains(s)).collect(),
        None => events,
    };
    print_header(rec, spec, a.seat);
    for l in (spec.render)(&events, rec.players) {
        outln!("{l}");
    }
    Ok(exit::OK)
}

/// The options of a record that differ from the game's defaults (the record holds them all):
/// `default rules`, or `name=value …`.
pub(super) fn rules_text(options: &BTreeMap<String, String>, spec: &GameSpec) -> String {
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

fn print_header(rec: &GameRecord, spec: &GameSpec, seat: Option<usize>) {
    let rules = rules_text(&rec.options, spec);
    outln!("{} — seed {} — {rules}", rec.game, rec.seed);
    for (s, seat_rec) in rec.seats.iter().enumerate() {
        outln!("  seat {s}: {} {} ({})", seat_rec.name, seat_rec.version, seat_rec.spec);
    }
    if let Some(s) = seat {
        outln!("What seat {s} saw:");
    }
    for f in &rec.faults {
        outln!("  fault ({}): {}", f.kind, f.message);
    }
    let scores: Vec<String> = rec.result.scores.iter().map(|s| fmt_score(*s)).collect();
    outln!("  result: [{}]", scores.join(", "));
}
