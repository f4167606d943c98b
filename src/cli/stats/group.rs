//! A group of records that belong together (the same game, options and bots): what `stats`
//! keeps of it while reading, its deals folded in order, and its heading.

use super::chunked::Chunked;
use super::keys::{cmp_keys, Seed, SetKey};
use crate::arena::accumulator::Accumulator;
use crate::arena::facts::Names as Strings;
use crate::arena::facts::{seat_bots, SetFacts};
use crate::arena::report::MatchInfo;
use crate::arena::tournament::{schedule, schedule_text};
use crate::cli::arena::tag_str;
use crate::cli::exit::usage;
use crate::cli::games::rules_text;
use crate::cli::recorded_test::{default_test, recorded_test, RecordedTest};
use crate::cli::report_html::{Kind, Trace};
use crate::game::GameSpec;
use crate::record::GameRecord;
use crate::sequential::BettingTest;
use serde_json::Value;
use std::cmp::Ordering;
use std::collections::{BTreeSet, HashSet};

/// What makes records one group: the same game, player count and options, played by the same
/// bots (a match's lineup with each bot's spec; the seats of `play`; one `compare` run).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct GroupKey {
    pub(super) game: String,
    pub(super) players: usize,
    pub(super) options: crate::options::Options,
    pub(super) bots: String,
}

/// The records of one group, folded as they are read: per deal a few numbers, and what its
/// heading says (seeds, matches, shards, bots).
pub(super) struct Group {
    spec: GameSpec,
    key: GroupKey,
    /// Statistics of the group (its bots' names), filled at the end.
    pub(super) acc: Accumulator,
    /// A few numbers per bot for each deal, not the records: `facts[sets[key].k]`.
    sets: HashSet<SetKey>,
    facts: Chunked<SetFacts>,
    /// The header of the group's report: from the first game of the first set.
    head: Option<(SetKey, MatchInfo)>,
    shards: BTreeSet<String>,
    seeds: BTreeSet<String>,
    matches: BTreeSet<String>,
    /// `name=spec` of every bot, in the order they were first seen.
    bots: Vec<String>,
    /// A tournament's first bot (its default reference); `None` for other groups.
    tournament: Option<String>,
    /// A tournament's bots in `--bot` order, and its gauntlet bot as its records' `args` tag
    /// has it (`None`: records without the tag; `Some(None)`: no gauntlet).
    tournament_bots: Vec<String>,
    gauntlet: Option<Option<String>>,
    /// The bot seeds the records were played with (`bot_seed`).
    bot_seeds: BTreeSet<String>,
    /// A compare run's sequential test, as its records hold it (`sprt` tag).
    test: Option<RecordedTest>,
}

/// The bots of a record as part of its group's key, and each as `name=spec`.
pub(super) fn bots_of(r: &GameRecord) -> (String, Vec<String>) {
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
    let key = if let Some(all) = r.tags.get("tournament").and_then(Value::as_array) {
        // A tournament: every bot of it, whatever the table.
        let pairs: Vec<String> = all
            .iter()
            .map(|p| {
                let s = |k: usize| p.get(k).and_then(Value::as_str).unwrap_or("?");
                format!("{}={}", s(0), s(1))
            })
            .collect();
        format!("tournament {}", pairs.join(", "))
    } else if r.tags.contains_key("lineup") {
        format!("lineup {} ({})", seated.join(","), with_specs.join(", "))
    } else if r.tags.contains_key("match") {
        // A compare run: its games seat different bots; the run is the group.
        format!("compare {}", tag_str(r, "match"))
    } else {
        format!("seats {} ({})", seated.join(","), with_specs.join(", "))
    };
    (key, with_specs)
}

/// `, seed 5` or `, seeds 3, 4` (nothing for none): the values of a heading.
fn list(one: &str, many: &str, v: &BTreeSet<String>) -> String {
    let all: Vec<&str> = v.iter().map(String::as_str).collect();
    match all.len() {
        0 => String::new(),
        1 => format!(", {one} {}", all[0]),
        _ => format!(", {many} {}", all.join(", ")),
    }
}

impl Group {
    /// A new group of `key`, of the game `spec`, from its first record `r`.
    pub(super) fn new(spec: GameSpec, key: GroupKey, r: &GameRecord) -> Group {
        Group {
            spec,
            key,
            acc: Accumulator::in_order(0, 1),
            sets: HashSet::new(),
            facts: Chunked::default(),
            head: None,
            shards: BTreeSet::new(),
            seeds: BTreeSet::new(),
            matches: BTreeSet::new(),
            bots: Vec::new(),
            tournament: r
                .tags
                .get("tournament")
                .and_then(|t| t.get(0)?.get(0)?.as_str())
                .map(str::to_string),
            tournament_bots: r
                .tags
                .get("tournament")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .map(|p| p.get(0).and_then(Value::as_str).unwrap_or("?").to_string())
                .collect(),
            gauntlet: r
                .tags
                .get("args")
                .and_then(|a| a.get("gauntlet"))
                .map(|g| g.as_str().map(str::to_string)),
            bot_seeds: BTreeSet::new(),
            test: recorded_test(r),
        }
    }

    /// Adds the game `r` (not seen before) of deal seed `seed`: its bots (`with_specs`, each as
    /// `name=spec`), run seed, match `m`, bot seed and shard to the heading, its numbers to its
    /// deal's facts.
    pub(super) fn add(
        &mut self,
        r: &GameRecord,
        seed: Seed,
        with_specs: Vec<String>,
        m: String,
        strings: &mut Strings,
    ) {
        for b in with_specs {
            if !self.bots.contains(&b) {
                self.bots.push(b);
            }
        }
        let run_seed = tag_str(r, "match_seed");
        if !run_seed.is_empty() && !self.seeds.contains(&run_seed) {
            self.seeds.insert(run_seed.clone());
        }
        if let Some(k) = r.bot_seed.as_ref().filter(|k| !self.bot_seeds.contains(*k)) {
            self.bot_seeds.insert(k.clone());
        }
        if !m.is_empty() && !self.matches.contains(&m) {
            self.matches.insert(m);
        }
        self.shards.insert(tag_str(r, "shard"));
        // Records of `play` carry no set: each game is a deal of its own.
        let set = r.tags.get("set").and_then(Value::as_u64).unwrap_or(u64::MAX);
        let set_key = SetKey::new(set, strings.id(&run_seed), seed);
        let k = match self.sets.get(&set_key) {
            Some(s) => s.k,
            None => {
                // The first game of a set that sorts before every other: the report's header.
                if self
                    .head
                    .as_ref()
                    .is_none_or(|(k, _)| cmp_keys(&set_key, k, strings) == Ordering::Less)
                {
                    self.head = Some((set_key, MatchInfo::from_records([r])));
                }
                let k = self.facts.push(SetFacts::default());
                self.sets.insert(set_key.with_facts(k));
                k
            }
        };
        self.acc.note(self.facts.get_mut(k), r);
    }

    /// The trace of the group's deals for the report page (`reference`: `--reference`).
    pub(super) fn trace(&self, reference: Option<&String>) -> Trace {
        let kind = match &self.tournament {
            Some(first) => Kind::Tournament(reference.cloned().unwrap_or_else(|| first.clone())),
            None if self.key.bots.starts_with("compare ") => Kind::Compare,
            None => Kind::Match,
        };
        Trace::new(kind, self.bots.len(), &self.spec, self.test.clone())
    }

    /// A compare group's sequential test (the one its records hold, else compare's default),
    /// to run over its deals in order; `None` for other groups.
    pub(super) fn compare_test(&self) -> Option<BettingTest> {
        self.key.bots.starts_with("compare ").then(|| {
            self.test
                .as_ref()
                .map(|r| r.test.clone())
                .unwrap_or_else(|| default_test(&self.spec))
        })
    }

    /// Folds the group's deals into its statistics in order (the order of [`cmp_keys`]), each
    /// also into `trace` and, until it decides, `verdict`.
    pub(super) fn fold(
        &mut self,
        strings: &Strings,
        mut trace: Option<&mut Trace>,
        mut verdict: Option<&mut BettingTest>,
    ) {
        let mut sets: Vec<SetKey> = std::mem::take(&mut self.sets).into_iter().collect();
        sets.sort_by(|x, y| cmp_keys(x, y, strings));
        let mut means = Vec::new();
        for (i, s) in sets.into_iter().enumerate() {
            let facts = std::mem::take(self.facts.get_mut(s.k));
            let scale = facts.scale();
            if trace.is_some() || verdict.is_some() {
                means.clear();
                means.extend(facts.means());
            }
            self.acc.add_facts(i as u64, facts);
            if let Some(t) = verdict.as_mut().filter(|t| t.decided().is_none()) {
                let of = |who: &str| means.iter().find(|m| self.acc.name(m.0) == who).map(|m| m.1);
                if let (Some(c), Some(b)) = (of("candidate"), of("baseline")) {
                    t.push(c - b, scale);
                }
            }
            if let Some(t) = &mut trace {
                t.deal(&self.acc, &means, scale);
            }
        }
        self.facts = Chunked::default();
    }

    /// A tournament's reference bot: `given` (`--reference`), which must be one of its bots,
    /// else its first bot; `None` for other groups.
    pub(super) fn reference(&self, given: Option<&String>) -> Result<Option<String>, (u8, String)> {
        Ok(match (&self.tournament, given) {
            (None, _) => None,
            (Some(_), Some(r)) => {
                let names: Vec<String> = self.acc.bot_totals().into_iter().map(|b| b.0).collect();
                if !names.contains(r) {
                    return Err(usage(format!(
                        "--reference {r} is not a bot of the tournament (bots: {})",
                        names.join(", ")
                    )));
                }
                Some(r.clone())
            }
            (Some(first), None) => Some(first.clone()),
        })
    }

    /// What the group's report says of its run: the first set's header, with every match of
    /// the group and the shard when every record has the same one.
    pub(super) fn info(&mut self) -> MatchInfo {
        let mut info = self.head.take().map(|(_, info)| info).unwrap_or_default();
        info.id = self.matches.iter().map(String::as_str).collect::<Vec<_>>().join(",");
        // The shard only when every record has the same one.
        info.shard = match self.shards.len() {
            1 => self.shards.first().filter(|s| !s.is_empty()).cloned(),
            _ => None,
        };
        info
    }

    pub(super) fn heading(&self, acc: &Accumulator) -> String {
        if self.tournament.is_some() {
            return self.tournament_heading(acc);
        }
        let bots = if self.key.bots.starts_with("compare ") {
            format!("compare {}", self.bots.join(", "))
        } else {
            self.key.bots.clone()
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

    /// A tournament's heading, as `tournament` heads its result: its bots, its tables, its
    /// deals, games and seeds.
    fn tournament_heading(&self, acc: &Accumulator) -> String {
        let (bots, players) = (self.tournament_bots.len(), self.key.players);
        let specs = self.key.bots.strip_prefix("tournament ").unwrap_or(&self.key.bots);
        let tables = match &self.gauntlet {
            Some(g) => {
                let g = g.as_deref();
                let at = g.and_then(|g| self.tournament_bots.iter().position(|b| b == g));
                schedule_text(bots, players, g.zip(at))
            }
            // Records without their arguments (no `args` tag): what the tables they hold
            // tell for sure (a gauntlet never holds every table of a round robin).
            None => {
                let seen = acc.table_count();
                if bots <= players || seen == schedule(bots, players, None).len() {
                    schedule_text(bots, players, None)
                } else {
                    format!("{seen} table(s) of {players}")
                }
            }
        };
        let shards: Vec<&String> = self.shards.iter().collect();
        let shard = match shards[..] {
            [s] if !s.is_empty() => format!(", shard {s}"),
            _ => String::new(),
        };
        format!(
            "{} ({players} players, {}), tournament of {bots} bots ({specs}), {tables}, {} deal(s), {} game(s){shard}{}{}{}",
            self.key.game,
            rules_text(&self.key.options, &self.spec),
            acc.sets,
            acc.games,
            list("seed", "seeds", &self.seeds),
            list("bot seed", "bot seeds", &self.bot_seeds),
            list("tournament", "tournaments", &self.matches),
        )
    }
}
