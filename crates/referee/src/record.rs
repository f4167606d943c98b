//! Game records: one JSON object per game, one line each (JSON Lines); [`crate::replay`]
//! re-runs one through the rules engine.

use crate::chance::Deal;
use crate::game::{GameSpec, Outcome, Seat};
use crate::options::Options;
use compact_str::CompactString;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;

/// The record format's name and version.
pub const FORMAT: &str = "croupier-record";
pub const FORMAT_VERSION: u32 = 1;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SeatRecord {
    /// Which player (index into the run's `--seat` list) sat here.
    pub player: usize,
    /// The seat spec: a built-in bot's name or the command line.
    pub spec: String,
    /// The name and version the bot reported.
    pub name: String,
    pub version: String,
    /// Milliseconds this seat's bot spent deciding in this game (the sum of its actions' `ms`,
    /// timeouts included).
    #[serde(default)]
    pub think_ms: f64,
    /// With `--time`: what was left on the seat's clock when the game ended, in milliseconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock_ms: Option<f64>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ActionRecord {
    /// Which deal of the game (1-based) the action belongs to.
    pub deal: usize,
    pub seat: Seat,
    /// The action's token. Inline up to 24 bytes (every token of the six games is shorter but
    /// a few Skwitz captures): a game's hundreds of actions would be as many allocations, made
    /// by a table's thread and freed by the thread that writes the record.
    pub action: CompactString,
    /// Milliseconds the seat took (microsecond resolution).
    pub ms: f64,
    /// True when the referee chose the action because the bot faulted.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub substitute: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FaultRecord {
    pub seat: Seat,
    pub player: usize,
    pub deal: usize,
    /// Index into `actions` of the action this fault concerns.
    pub action: usize,
    /// `illegal`, `error`, `timeout`, `crash`, `flood`, `dead` (the turn was not the bot's
    /// own: the rules ruled on it), or `garbage` and `restart` (recorded only).
    pub kind: String,
    pub message: String,
}

impl FaultRecord {
    /// Whether the rules ruled on this fault ([`crate::game::Game::on_fault`]): every kind
    /// except `garbage` (the bot's answer still counted) and `restart` (a note on the bot).
    pub fn ruled(&self) -> bool {
        !matches!(self.kind.as_str(), "garbage" | "restart")
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ResultRecord {
    /// Final score per seat (index = seat); written as integers when whole.
    #[serde(serialize_with = "whole_scores")]
    pub scores: Vec<f64>,
    #[serde(default)]
    pub detail: Value,
}

/// One game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    pub format: String,
    pub version: u32,
    pub croupier: String,
    pub game: String,
    pub players: usize,
    /// Every option of the game with its value (not validated when read: [`check_record`]).
    pub options: Options,
    /// The seed of this game's deals (decimal string).
    pub seed: String,
    /// `seed`: the deals follow from the seed; `file`: they were given (`--deal`).
    pub deal_source: String,
    /// The bot seed the seats' `rngseed`s came from, when it is not derived from `seed`: with
    /// a process bot at the table it is drawn apart from the deal seed (or given with
    /// `--bot-seed`), so that no bot's seed is a key to the deal (protocol.md §13).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bot_seed: Option<String>,
    /// Extra facts from the run (game number, match rotation, …).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub tags: BTreeMap<String, Value>,
    pub seats: Vec<SeatRecord>,
    pub deals: Vec<Deal>,
    pub actions: Vec<ActionRecord>,
    #[serde(default)]
    pub faults: Vec<FaultRecord>,
    /// Set when a seat forfeited the game (`--on-fault forfeit`): the game ended at its last
    /// fault, and the scores are the game's forfeit scores.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub forfeit: Option<ForfeitRecord>,
    pub result: ResultRecord,
    pub duration_ms: u64,
}

/// A forfeited game: the seat and the kind of its fault.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ForfeitRecord {
    pub seat: Seat,
    pub fault: String,
}

/// Scores print as integers when they are whole (the games' notation, below the records).
pub use crate::notation::fmt_score;

impl GameRecord {
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        game: &str,
        players: usize,
        options: &Options,
        seed: String,
        deal_source: &str,
        seats: Vec<SeatRecord>,
        deals: Vec<Deal>,
        actions: Vec<ActionRecord>,
        faults: Vec<FaultRecord>,
        outcome: Outcome,
        duration_ms: u64,
    ) -> GameRecord {
        GameRecord {
            format: FORMAT.into(),
            version: FORMAT_VERSION,
            croupier: env!("CARGO_PKG_VERSION").into(),
            game: game.into(),
            players,
            options: options.clone(),
            seed,
            deal_source: deal_source.into(),
            bot_seed: None,
            tags: BTreeMap::new(),
            seats,
            deals,
            actions,
            faults,
            forfeit: None,
            result: ResultRecord {
                scores: outcome.scores,
                detail: outcome.detail,
            },
            duration_ms,
        }
    }

    /// The record as one JSON line (without the newline). Whole scores are written as integers.
    pub fn to_line(&self) -> String {
        let mut out = Vec::with_capacity(4096);
        self.write_line(&mut out);
        out.pop();
        String::from_utf8(out).expect("JSON is UTF-8")
    }

    /// Appends the record's JSON line and a newline to `out`: serialized straight from the
    /// record (a `Value` tree first took four times as long as playing a game of Kul).
    pub fn write_line(&self, out: &mut Vec<u8>) {
        serde_json::to_writer(&mut *out, self).expect("records serialize");
        out.push(b'\n');
    }
}

/// Scores as the record writes them: whole ones as integers (`3`, not `3.0`).
fn whole_scores<S: serde::Serializer>(scores: &[f64], s: S) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeSeq;
    let mut seq = s.serialize_seq(Some(scores.len()))?;
    for &x in scores {
        if x.fract() == 0.0 && x.abs() < 1e15 {
            seq.serialize_element(&(x as i64))?;
        } else {
            seq.serialize_element(&x)?;
        }
    }
    seq.end()
}

/// One record line, or why it is not one.
pub fn parse_record(line: &str) -> Result<GameRecord, String> {
    let v: Value = serde_json::from_str(line).map_err(|e| {
        // serde_json ends its message with "at line L column C"; the line is the file's own.
        let msg = e.to_string();
        let msg = msg.rsplit_once(" at line ").map(|(m, _)| m.to_string()).unwrap_or(msg);
        format!("not a croupier record: not JSON ({msg} at column {})", e.column())
    })?;
    match v.get("format") {
        Some(Value::String(f)) if f == FORMAT => {}
        Some(f) => return Err(format!("not a croupier record: format is {f}, expected \"{FORMAT}\"")),
        None => return Err(format!("not a croupier record: it has no \"format\": \"{FORMAT}\"")),
    }
    if let Some(version) = v.get("version").and_then(Value::as_u64) {
        if version > u64::from(FORMAT_VERSION) {
            return Err(format!(
                "record version {version} is newer than this croupier understands ({FORMAT_VERSION})"
            ));
        }
    }
    serde_json::from_value(v).map_err(|e| format!("a croupier record with a bad field: {e}"))
}

/// Checks what a record asks of this croupier: a known game, a player count it allows,
/// options it knows with values they accept, a seat and a score per player. Returns the game.
pub fn check_record(rec: &GameRecord) -> Result<GameSpec, String> {
    let Some(spec) = crate::games::find(&rec.game) else {
        let names: Vec<&str> = crate::games::all().iter().map(|g| g.name).collect();
        return Err(format!("unknown game '{}'; games: {}", rec.game, names.join(", ")));
    };
    if rec.players < spec.min_players || rec.players > spec.max_players {
        return Err(format!(
            "{} players: {} is played by {} to {}",
            rec.players, spec.name, spec.min_players, spec.max_players
        ));
    }
    options_of(rec, &spec)?;
    if rec.seats.len() != rec.players || rec.result.scores.len() != rec.players {
        return Err(format!(
            "{} seats and {} scores for {} players",
            rec.seats.len(),
            rec.result.scores.len(),
            rec.players
        ));
    }
    Ok(spec)
}

/// The record's options, checked against its game's: the options a replay plays with.
pub fn options_of(rec: &GameRecord, spec: &GameSpec) -> Result<Options, String> {
    let pairs: Vec<(String, String)> = rec.options.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
    Options::from_pairs(&(spec.options)(), &rec.game, &pairs)
}

/// The kinds of fault a record may hold (see [`FaultRecord::kind`]).
pub const FAULT_KINDS: [&str; 8] = [
    "illegal", "error", "timeout", "crash", "flood", "dead", "garbage", "restart",
];

#[cfg(test)]
mod tests {
    use super::*;

    /// A record line is the record's fields in order, whole scores as integers, other scores
    /// as they are; it reads back as the same record.
    #[test]
    fn a_record_line_writes_whole_scores_as_integers_and_reads_back() {
        let outcome = Outcome {
            scores: vec![3.0, -1.5, 0.0, -1.5],
            detail: serde_json::json!({"contract": "piek"}),
        };
        let rec = GameRecord::new(
            "rikken",
            4,
            &Options::default(),
            "7".into(),
            "seed",
            vec![],
            vec![],
            vec![],
            vec![],
            outcome,
            12,
        );
        let line = rec.to_line();
        assert!(
            line.starts_with(r#"{"format":"croupier-record","version":1,"#),
            "{line}"
        );
        assert!(
            line.contains(r#""result":{"scores":[3,-1.5,0,-1.5],"detail":{"contract":"piek"}}"#),
            "{line}"
        );
        assert!(!line.contains('\n'));
        let mut buf = b"earlier\n".to_vec();
        rec.write_line(&mut buf);
        assert_eq!(buf, format!("earlier\n{line}\n").into_bytes());
        assert_eq!(parse_record(&line).unwrap(), rec);
    }
}
