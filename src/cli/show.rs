//! `croupier show` and `croupier replay`.

use super::{exit, find_game, usage, Outcome};
use crate::game::GameSpec;
use crate::record::{fmt_score, read_records, replay, GameRecord};
use clap::Args;
use std::io::Read;

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

fn read_file(path: &str) -> Result<String, (u8, String)> {
    if path == "-" {
        let mut s = String::new();
        std::io::stdin()
            .read_to_string(&mut s)
            .map_err(|e| usage(format!("stdin: {e}")))?;
        Ok(s)
    } else {
        std::fs::read_to_string(path).map_err(|e| usage(format!("{path}: {e}")))
    }
}

pub fn replay_files(files: &[String]) -> Outcome {
    let mut total = 0;
    for f in files {
        let text = read_file(f)?;
        let records = read_records(&text, f).map_err(|e| (exit::CHECK_FAILED, e))?;
        for (k, (line, rec)) in records.iter().enumerate() {
            let spec = find_game(&rec.game).map_err(|(_, e)| (exit::CHECK_FAILED, format!("{f}:{line}: {e}")))?;
            replay(rec, &spec).map_err(|e| (exit::CHECK_FAILED, format!("{f}:{line} (game {}): {e}", k + 1)))?;
            total += 1;
        }
    }
    outln!("replayed {total} game(s): all agree with the rules");
    Ok(exit::OK)
}

pub fn run(a: ShowArgs) -> Outcome {
    let text = read_file(&a.file)?;
    let records = read_records(&text, &a.file).map_err(usage)?;
    let Some((line, rec)) = records.get(a.game.wrapping_sub(1)) else {
        return Err(usage(format!(
            "{} holds {} game(s); there is no game {}",
            a.file,
            records.len(),
            a.game
        )));
    };
    let spec = find_game(&rec.game)?;
    if let Some(s) = a.seat {
        if s >= rec.players {
            return Err(usage(format!("there is no seat {s} in a {}-player game", rec.players)));
        }
    }
    let events = replay(rec, &spec).map_err(|e| (exit::CHECK_FAILED, format!("{}:{line}: {e}", a.file)))?;
    let events: Vec<_> = match a.seat {
        Some(s) => events.into_iter().filter(|e| e.to.contains(s)).collect(),
        None => events,
    };
    print_header(rec, &spec, a.seat);
    for l in (spec.render)(&events, rec.players) {
        outln!("{l}");
    }
    Ok(exit::OK)
}

fn print_header(rec: &GameRecord, spec: &GameSpec, seat: Option<usize>) {
    // Only the options that differ from the defaults: the record holds them all.
    let defaults = (spec.options)();
    let opts: Vec<String> = rec
        .options
        .iter()
        .filter(|(k, v)| {
            defaults
                .iter()
                .find(|o| o.name == k.as_str())
                .is_none_or(|o| o.default != v.as_str())
        })
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
    let rules = if opts.is_empty() {
        "default rules".to_string()
    } else {
        opts.join(" ")
    };
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
