//! The end of a `match` or `tournament` run: its result printed (a table or JSON), its bots'
//! faults counted and noted, and the exit code `--strict` asks for.

use super::args::TableArgs;
use crate::arena::accumulator::Accumulator;
use crate::arena::report::{match_json, MatchInfo};
use crate::cli::exit::{self, Outcome};
use crate::cli::io;

/// Prints the result (table or JSON) and returns the number of faults.
pub(crate) fn report(t: &TableArgs, info: &MatchInfo, acc: &Accumulator, header: impl FnOnce(&mut Vec<String>)) -> u64 {
    let j = match_json(info, acc);
    let faults: u64 = j["bots"]
        .as_array()
        .map(|b| b.iter().filter_map(|x| x["faults"].as_u64()).sum())
        .unwrap_or(0);
    if t.json {
        outln!("{j}");
    } else {
        let mut out = Vec::new();
        header(&mut out);
        out.extend(acc.lines());
        for l in out {
            outln!("{l}");
        }
    }
    faults
}

/// `N bot fault(s)`, and where the bots' logs are when there are any.
fn faults_note(t: &TableArgs, faults: u64) -> String {
    match io::logs_note(&t.log_dir) {
        Some(note) => format!("croupier: {faults} bot fault(s); {note}"),
        None => format!("croupier: {faults} bot fault(s)"),
    }
}

/// The end of a run after its bots' `faults`: noted on stderr when there are any, exit 4
/// under `--strict`.
pub(crate) fn finish(t: &TableArgs, faults: u64) -> Outcome {
    if faults > 0 {
        eprintln!("{}", faults_note(t, faults));
        if t.strict {
            return Err((exit::BOT_FAULT, format!("{faults} bot fault(s) under --strict")));
        }
    }
    Ok(exit::OK)
}
