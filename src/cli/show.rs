//! `croupier show` and `croupier replay`.

use super::exit::{self, usage, Outcome};
use super::games::rules_text;
use super::io;
use crate::game::GameSpec;
use crate::record::{fmt_score, GameRecord};
use crate::replay::replay;
use clap::Args;

#[derive(Args, Debug)]
pub struct ShowArgs {
    /// A record file (JSON Lines); `-` reads standard input.
    file: String,
    // `--game K`, the old spelling, still works (a hidden alias): GAME is a name elsewhere.
    /// Which game of the file, counted from 1 (the first game is 1). Games and actions are
    /// counted from 1, seats from 0.
    #[arg(long = "index", alias = "game", value_name = "K", default_value = "1",
          allow_hyphen_values = true, value_parser = super::args::at_least_one_usize)]
    index: usize,
    /// Show only what this seat saw: its number counted from 0 (the first seat is 0, as records,
    /// transcripts and the protocol number seats), or N E S W in a 4-player game (as in deal
    /// files). Games and actions are counted from 1, seats from 0.
    #[arg(long, value_name = "SEAT", allow_hyphen_values = true, value_parser = seat_arg)]
    seat: Option<String>,
    /// Write the game as one self-contained web page to OUT (`-`: standard output) instead of
    /// text: it replays the game step by step (buttons, a slider, the keys ←/→ or j/k and
    /// Home/End; `page.html#step=N` opens at step N), showing every hand, the table, each
    /// event in words, whose turn it is and the scores. With --seat only what that seat saw.
    /// Nothing is loaded from the network.
    #[arg(long, value_name = "OUT")]
    html: Option<std::path::PathBuf>,
    /// With --seat: print the protocol lines that seat was told, exactly as a bot process read
    /// them (setup, the game's notifications, gameover; not requests, views, clock or fault
    /// lines). A `--transcript` file of that game and seat holds the same lines, with times.
    #[arg(long, requires = "seat", conflicts_with = "html")]
    lines: bool,
}

/// `--seat`: a number from 0, or a compass letter (checked against the game once it is read).
pub(super) fn seat_arg(s: &str) -> Result<String, String> {
    let t = s.trim();
    if t.parse::<usize>().is_ok() || ["N", "E", "S", "W", "O", "Z"].contains(&t) {
        Ok(t.to_string())
    } else {
        Err("write a seat number counted from 0 (the first seat is 0), or N, E, S or W in a 4-player game".into())
    }
}

pub fn replay_files(files: &[String]) -> Outcome {
    io::stdin_at_most_once(files.iter().map(String::as_str))?;
    // The files are read a record at a time. Every file is read and checked to its end: a
    // file that is not a record file is an input error (exit 2), whatever the files before
    // it hold; the first game that does not replay is the answer otherwise (exit 1).
    let mut failed: Option<String> = None;
    let mut total = 0;
    for f in files {
        let mut records = io::records(f, false)?;
        let name = records.name().to_string();
        let mut k = 0;
        for r in &mut records {
            let (line, rec, spec) = r?;
            k += 1;
            if failed.is_none() {
                match replay(&rec, &spec) {
                    Ok(_) => total += 1,
                    Err(e) => failed = Some(format!("{name}:{line} (game {k}): {e}")),
                }
            }
        }
    }
    if let Some(e) = failed {
        return Err((exit::CHECK_FAILED, e));
    }
    outln!("replayed {total} game(s): all agree with the rules");
    Ok(exit::OK)
}

pub fn run(a: ShowArgs) -> Outcome {
    let (name, line, rec, spec) = io::nth_record(&a.file, a.index)?;
    let seat = match &a.seat {
        Some(s) => Some(
            crate::chance::parse_seat(&serde_json::Value::String(s.clone()), rec.players)
                .map_err(|e| usage(format!("--seat: {e}")))?,
        ),
        None => None,
    };
    if let Some(out) = &a.html {
        if a.file != "-" {
            io::distinct_outputs(&[
                ("the record file", Some(std::path::Path::new(&a.file))),
                ("--html", Some(out)),
            ])?;
        }
        // Opened before the work, as every output: a path that cannot be written fails at once.
        let mut o = io::open_output(out, "--html", false)?;
        let page =
            super::html::page(&rec, &spec, seat).map_err(|e| (exit::CHECK_FAILED, format!("{name}:{line}: {e}")))?;
        o.write(page.as_bytes())
            .map_err(|e| usage(format!("--html {}: {e}", out.display())))?;
        return Ok(exit::OK);
    }
    if let (true, Some(s)) = (a.lines, seat) {
        let lines = crate::replay::seat_lines(&rec, &spec, s)
            .map_err(|e| (exit::CHECK_FAILED, format!("{name}:{line}: {e}")))?;
        for l in lines {
            outln!("{l}");
        }
        return Ok(exit::OK);
    }
    let events = replay(&rec, &spec).map_err(|e| (exit::CHECK_FAILED, format!("{name}:{line}: {e}")))?;
    let events: Vec<_> = match seat {
        Some(s) => events.into_iter().filter(|e| e.to.contains(s)).collect(),
        None => events,
    };
    print_header(&rec, &spec, seat);
    for l in (spec.render)(&events, rec.players) {
        outln!("{l}");
    }
    Ok(exit::OK)
}

fn print_header(rec: &GameRecord, spec: &GameSpec, seat: Option<usize>) {
    let rules = rules_text(&rec.options, spec);
    outln!("{} — seed {} — {rules}", rec.game, rec.seed);
    for (s, seat_rec) in rec.seats.iter().enumerate() {
        // A 4-player game's seats also go by N E S W (--seat, deal files, Rikken's layout).
        let letter = if rec.players == 4 {
            format!(" ({})", ["N", "E", "S", "W"][s])
        } else {
            String::new()
        };
        outln!(
            "  seat {s}{letter}: {} {} ({})",
            seat_rec.name,
            seat_rec.version,
            seat_rec.spec
        );
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
