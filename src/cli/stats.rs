//! `croupier stats`: the `match` table of record files, one table per group of records that
//! belong together (shards and resumed runs of a match, more runs of the same bots).

use super::arena::tag_str;
use super::show::rules_text;
use super::{exit, io, Outcome};
use crate::arena::report::{match_json, seat_bots, Accumulator, MatchInfo};
use crate::game::GameSpec;
use crate::record::GameRecord;
use clap::Args;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

#[derive(Args, Debug)]
pub struct StatsArgs {
    /// Record files (shards, resumed runs); `-` reads standard input.
    #[arg(required = true)]
    files: Vec<String>,
    /// Print one JSON object per group, one per line (JSON Lines), each as `match --json`
    /// prints it.
    #[arg(long)]
    json: bool,
}

/// What makes records one group: the same game, player count and options, played by the same
/// bots (a match's lineup with each bot's spec; the seats of `play`; one `compare` run).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct GroupKey {
    game: String,
    players: usize,
    options: BTreeMap<String, String>,
    bots: String,
}

struct Group {
    spec: GameSpec,
    key: GroupKey,
    /// The games of each deal, by (set index, run seed, deal seed): sets of one run in the
    /// order `match` sums them.
    sets: BTreeMap<(u64, String, String), Vec<GameRecord>>,
    seeds: BTreeSet<String>,
    matches: BTreeSet<String>,
    /// `name=spec` of every bot, in the order they were first seen.
    bots: Vec<String>,
}

/// The bots of a record as part of its group's key, and each as `name=spec`.
fn bots_of(r: &GameRecord) -> (String, Vec<String>) {
    let names = seat_bots(r);
    let spec_of = |name: &str| {
        names
            .iter()
            .position(|n| n == name)
            .and_then(|s| r.seats.get(s))
            .map(|s| s.spec.clone())
            .unwrap_or_else(|| "?".into())
    };
    let mut distinct: Vec<&String> = Vec::new();
    let seated: Vec<String> = match r.tags.get("lineup").and_then(Value::as_array) {
        Some(l) => l.iter().map(|x| x.as_str().unwrap_or("?").to_string()).collect(),
        None => names.clone(),
    };
    for n in &seated {
        if !distinct.contains(&n) {
            distinct.push(n);
        }
    }
    let with_specs: Vec<String> = distinct.iter().map(|n| format!("{n}={}", spec_of(n))).collect();
    let key = if r.tags.contains_key("lineup") {
        format!("lineup {} ({})", seated.join(","), with_specs.join(", "))
    } else if r.tags.contains_key("match") {
        // A compare run: its games seat different bots; the run is the group.
        format!("compare {}", tag_str(r, "match"))
    } else {
        format!("seats {} ({})", seated.join(","), with_specs.join(", "))
    };
    (key, with_specs)
}

impl Group {
    fn heading(&self, acc: &Accumulator) -> String {
        let bots = if self.key.bots.starts_with("compare ") {
            format!("compare {}", self.bots.join(", "))
        } else {
            self.key.bots.clone()
        };
        let list = |one: &str, many: &str, v: &BTreeSet<String>| {
            let all: Vec<&str> = v.iter().map(String::as_str).collect();
            match all.len() {
                0 => String::new(),
                1 => format!(", {one} {}", all[0]),
                _ => format!(", {many} {}", all.join(", ")),
            }
        };
        format!(
            "{} ({} players, {}), {bots}: {} deal(s), {} game(s){}{}",
            self.key.game,
            self.key.players,
            rules_text(&self.key.options, &self.spec),
            acc.sets,
            acc.games,
            list("seed", "seeds", &self.seeds),
            list("match", "matches", &self.matches),
        )
    }
}

pub fn run(a: StatsArgs) -> Outcome {
    io::stdin_at_most_once(a.files.iter().map(String::as_str))?;
    let mut index: BTreeMap<GroupKey, usize> = BTreeMap::new();
    let mut groups: Vec<Group> = Vec::new();
    // A game is a duplicate when its group, deal and seating were seen before.
    let mut seen: BTreeMap<(usize, String, String), String> = BTreeMap::new();
    let mut dups = Vec::new();
    for f in &a.files {
        let name = io::input_name(f);
        for (line, r, spec) in io::read_record_file(f, true)? {
            let (bots, with_specs) = bots_of(&r);
            let key = GroupKey {
                game: r.game.clone(),
                players: r.players,
                options: r.options.clone(),
                bots,
            };
            let g = *index.entry(key.clone()).or_insert_with(|| {
                groups.push(Group {
                    spec,
                    key,
                    sets: BTreeMap::new(),
                    seeds: BTreeSet::new(),
                    matches: BTreeSet::new(),
                    bots: Vec::new(),
                });
                groups.len() - 1
            });
            let place = format!("{name}:{line}");
            let game_key = (g, r.seed.clone(), tag_str(&r, "job"));
            if let Some(first) = seen.get(&game_key) {
                dups.push(format!("{place} repeats {first}"));
                continue;
            }
            seen.insert(game_key, place);
            let group = &mut groups[g];
            for b in with_specs {
                if !group.bots.contains(&b) {
                    group.bots.push(b);
                }
            }
            let run_seed = tag_str(&r, "match_seed");
            if !run_seed.is_empty() {
                group.seeds.insert(run_seed.clone());
            }
            let m = tag_str(&r, "match");
            if !m.is_empty() {
                group.matches.insert(m);
            }
            // Records of `play` carry no set: each game is a deal of its own.
            let set = r.tags.get("set").and_then(Value::as_u64).unwrap_or(u64::MAX);
            group.sets.entry((set, run_seed, r.seed.clone())).or_default().push(r);
        }
    }
    for (k, g) in groups.iter().enumerate() {
        let mut acc = Accumulator::default();
        for (i, recs) in g.sets.values().enumerate() {
            acc.add_set(i as u64, recs);
        }
        if a.json {
            let matches: Vec<&str> = g.matches.iter().map(String::as_str).collect();
            let mut info = MatchInfo::from_records(g.sets.values().flatten());
            info.id = matches.join(",");
            outln!("{}", match_json(&info, &acc));
        } else {
            if k > 0 {
                outln!();
            }
            outln!("{}", g.heading(&acc));
            for l in acc.lines() {
                outln!("{l}");
            }
        }
    }
    if !dups.is_empty() {
        eprintln!("croupier: {} duplicate game(s) counted once:", dups.len());
        for d in dups.iter().take(20) {
            eprintln!("  {d}");
        }
    }
    Ok(exit::OK)
}
