//! `croupier stats`: the `match` table of record files, one table per group of records that
//! belong together (shards and resumed runs of a match, more runs of the same bots).

use super::arena::tag_str;
use super::exit::{self, usage, Outcome};
use super::games::rules_text;
use super::io;
use super::recorded_test::{default_test, recorded_test, RecordedTest};
use super::report_html;
use crate::arena::tournament::{schedule, schedule_text, tournament_json, tournament_lines};
// Strings many records share (run seeds, deal seeds that are not plain numbers, job keys) are
// kept once in `Strings`: a set or a game refers to them by number.
use crate::arena::report::Names as Strings;
use crate::arena::report::{match_json, seat_bots, signed, Accumulator, MatchInfo, SetFacts};
use crate::game::GameSpec;
use crate::record::GameRecord;
use crate::stats::Decision;
use clap::Args;
use serde_json::{json, Value};
use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet, HashSet};

#[derive(Args, Debug)]
pub struct StatsArgs {
    /// Record files (shards, resumed runs); `-` reads standard input.
    #[arg(required = true)]
    files: Vec<String>,
    /// Print one JSON object per group, one per line (JSON Lines), each as `match --json`
    /// prints it.
    #[arg(long)]
    json: bool,
    /// In tournaments, the bot whose rating is 0 (default: the tournament's first bot).
    #[arg(long, value_name = "NAME")]
    reference: Option<String>,
    /// Also write a report to look at: one self-contained HTML page (nothing fetched when it
    /// is viewed) with each group's table as printed, each bot's mean or rating with its 95 %
    /// interval as a chart, the running estimate over the deals, the sequential test's
    /// log-likelihood ratio of `compare` runs, and each bot's distribution of per-deal scores.
    /// `-` writes the page to standard output; the tables then go to stderr.
    #[arg(long, value_name = "FILE|-")]
    html: Option<std::path::PathBuf>,
}

/// What makes records one group: the same game, player count and options, played by the same
/// bots (a match's lineup with each bot's spec; the seats of `play`; one `compare` run).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct GroupKey {
    game: String,
    players: usize,
    options: crate::options::Options,
    bots: String,
}

/// A deal seed as written in a record: a plain decimal number, or other text (by number).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Seed {
    Num(u64),
    Text(u32),
}

impl Seed {
    fn of(s: &str, strings: &mut Strings) -> Seed {
        match s.parse::<u64>() {
            Ok(n) if n.to_string() == s => Seed::Num(n),
            _ => Seed::Text(strings.id(s)),
        }
    }

    /// Its text as the record has it, as bytes (`buf` holds a number's digits).
    fn text<'a>(&self, strings: &'a Strings, buf: &'a mut [u8; 20]) -> &'a [u8] {
        match *self {
            Seed::Num(mut n) => {
                let mut k = buf.len();
                loop {
                    k -= 1;
                    buf[k] = b'0' + (n % 10) as u8;
                    n /= 10;
                    if n == 0 {
                        break;
                    }
                }
                &buf[k..]
            }
            Seed::Text(id) => strings.get(id).as_bytes(),
        }
    }
}

/// The bits of a seed and, for the top bit of a `u32` number beside it, whether it is a text's
/// number: the keys below take 24 bytes instead of 40 (group and string numbers stay below
/// 2^31).
fn pack(seed: Seed) -> (u64, u32) {
    match seed {
        Seed::Num(n) => (n, 0),
        Seed::Text(id) => (u64::from(id), TEXT),
    }
}

/// The flag of [`pack`].
const TEXT: u32 = 1 << 31;

/// A number (a group's, a string's) with the flag of a text seed beside it in its top bit.
fn flagged(n: u32, flag: u32) -> u32 {
    assert!(n < TEXT, "fewer than 2^31 groups and strings");
    n | flag
}

/// Which deal a game belongs to: its set index, run seed and deal seed, with `k`, the index of
/// its facts (not part of the key: hashed and compared without it). Sets are summed in the
/// order of (index, run seed, deal seed), the seeds compared as text: a run's sets in the order
/// `match` sums them. A set of these rather than a `HashMap<SetKey, u32>`: 24 bytes a deal
/// instead of 40, the table that doubles as it grows.
#[derive(Clone, Copy, Debug)]
struct SetKey {
    set: u64,
    seed: u64,
    /// The run seed's string number; its top bit: the deal seed is a text's number.
    run: u32,
    k: u32,
}

impl SetKey {
    fn new(set: u64, run: u32, seed: Seed) -> SetKey {
        let (seed, flag) = pack(seed);
        SetKey {
            set,
            seed,
            run: flagged(run, flag),
            k: 0,
        }
    }

    fn run(&self) -> u32 {
        self.run & !TEXT
    }

    fn seed(&self) -> Seed {
        if self.run & TEXT == 0 {
            Seed::Num(self.seed)
        } else {
            Seed::Text(self.seed as u32)
        }
    }
}

impl PartialEq for SetKey {
    fn eq(&self, o: &SetKey) -> bool {
        (self.set, self.seed, self.run) == (o.set, o.seed, o.run)
    }
}

impl Eq for SetKey {}

impl std::hash::Hash for SetKey {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        (self.set, self.seed, self.run).hash(h);
    }
}

/// A game seen, for finding duplicates: its group, deal seed and job (the key), and where it
/// was first, file and line packed in `at` (file << 40 | line). 24 bytes a game; the
/// `HashMap<(u32, Seed, u32), (u32, usize)>` before took 40.
#[derive(Clone, Copy, Debug)]
struct Seen {
    seed: u64,
    /// The group's number; its top bit: the deal seed is a text's number.
    group: u32,
    job: u32,
    at: u64,
}

impl Seen {
    const LINE_BITS: u32 = 40;

    fn new(group: usize, seed: Seed, job: u32, file: usize, line: usize) -> Seen {
        let (seed, flag) = pack(seed);
        let (file, line) = (file as u64, line as u64);
        assert!(file < 1 << (64 - Self::LINE_BITS) && line < 1 << Self::LINE_BITS);
        Seen {
            seed,
            group: flagged(u32::try_from(group).expect("fewer than 2^31 groups"), flag),
            job,
            at: file << Self::LINE_BITS | line,
        }
    }

    /// The file (its index) and line where the game was first seen.
    fn at(&self) -> (usize, usize) {
        (
            (self.at >> Self::LINE_BITS) as usize,
            (self.at & ((1 << Self::LINE_BITS) - 1)) as usize,
        )
    }
}

impl PartialEq for Seen {
    fn eq(&self, o: &Seen) -> bool {
        (self.seed, self.group, self.job) == (o.seed, o.group, o.job)
    }
}

impl Eq for Seen {}

impl std::hash::Hash for Seen {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        (self.seed, self.group, self.job).hash(h);
    }
}

fn cmp_keys(a: &SetKey, b: &SetKey, strings: &Strings) -> Ordering {
    a.set
        .cmp(&b.set)
        .then_with(|| strings.get(a.run()).cmp(strings.get(b.run())))
        .then_with(|| {
            let (mut x, mut y) = ([0u8; 20], [0u8; 20]);
            a.seed().text(strings, &mut x).cmp(b.seed().text(strings, &mut y))
        })
}

/// A list that grows in chunks of [`Chunked::CHUNK`]: no copy of everything when it grows,
/// and no room reserved for twice its length. Facts of every deal are most of what `stats`
/// keeps (128 bytes a deal); a `Vec` of them held up to 16.8 MiB for 97,000 deals, and twice
/// that for a moment each time it doubled.
struct Chunked<T> {
    chunks: Vec<Vec<T>>,
}

impl<T> Default for Chunked<T> {
    fn default() -> Self {
        Chunked { chunks: Vec::new() }
    }
}

impl<T> Chunked<T> {
    const CHUNK: usize = 4096;

    /// Adds `x` and returns its index.
    fn push(&mut self, x: T) -> u32 {
        if self.chunks.last().is_none_or(|c| c.len() == Self::CHUNK) {
            self.chunks.push(Vec::with_capacity(Self::CHUNK));
        }
        let last = self.chunks.len() - 1;
        self.chunks[last].push(x);
        u32::try_from(last * Self::CHUNK + self.chunks[last].len() - 1).expect("fewer than 2^32 deals")
    }

    fn get_mut(&mut self, k: u32) -> &mut T {
        let k = k as usize;
        &mut self.chunks[k / Self::CHUNK][k % Self::CHUNK]
    }
}

struct Group {
    spec: GameSpec,
    key: GroupKey,
    /// Statistics of the group (its bots' names), filled at the end.
    acc: Accumulator,
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
    fn heading(&self, acc: &Accumulator) -> String {
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

pub fn run(a: StatsArgs) -> Outcome {
    io::stdin_at_most_once(a.files.iter().map(String::as_str))?;
    // The page's file is opened before anything is read: a path that cannot be written is an
    // error at once, and a record file is never overwritten by its own report.
    let mut page = match &a.html {
        Some(out) => {
            for f in a.files.iter().filter(|f| *f != "-") {
                io::distinct_outputs(&[
                    ("the record file", Some(std::path::Path::new(f))),
                    ("--html", Some(out)),
                ])?;
            }
            if io::is_dash(out) {
                super::output::stdout_is_data();
            }
            Some(io::open_output(out, "--html", false)?)
        }
        None => None,
    };
    let mut sections: Vec<report_html::Section> = Vec::new();
    // Options order by their names and values only, never by the typed forms they cache.
    #[allow(clippy::mutable_key_type)]
    let mut index: BTreeMap<GroupKey, usize> = BTreeMap::new();
    let mut groups: Vec<Group> = Vec::new();
    let mut strings = Strings::default();
    // A game is a duplicate when its group, deal and seating were seen before: where first.
    let mut seen: HashSet<Seen> = HashSet::new();
    let mut dups = Vec::new();
    // Per match (its fingerprint), the bot seeds its records were played with, each with the
    // first file that has it: shards of one run must share one.
    let mut bot_seeds: BTreeMap<String, BTreeMap<String, usize>> = BTreeMap::new();
    let mut dup_count = 0usize;
    for (file, f) in a.files.iter().enumerate() {
        for r in io::records(f, true)? {
            let (line, r, spec) = r?;
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
                    test: recorded_test(&r),
                });
                groups.len() - 1
            });
            let seed = Seed::of(&r.seed, &mut strings);
            let game = Seen::new(g, seed, strings.id(&tag_str(&r, "job")), file, line);
            if let Some(first) = seen.get(&game) {
                let (first_file, first_line) = first.at();
                dup_count += 1;
                if dups.len() < 20 {
                    dups.push(format!(
                        "{}:{line} repeats {}:{first_line}",
                        io::input_name(f),
                        io::input_name(&a.files[first_file])
                    ));
                }
                continue;
            }
            seen.insert(game);
            let group = &mut groups[g];
            for b in with_specs {
                if !group.bots.contains(&b) {
                    group.bots.push(b);
                }
            }
            let run_seed = tag_str(&r, "match_seed");
            if !run_seed.is_empty() && !group.seeds.contains(&run_seed) {
                group.seeds.insert(run_seed.clone());
            }
            let m = tag_str(&r, "match");
            if let Some(k) = r.bot_seed.as_ref().filter(|k| !group.bot_seeds.contains(*k)) {
                group.bot_seeds.insert(k.clone());
            }
            if let (false, Some(k)) = (m.is_empty(), &r.bot_seed) {
                bot_seeds.entry(m.clone()).or_default().entry(k.clone()).or_insert(file);
            }
            if !m.is_empty() && !group.matches.contains(&m) {
                group.matches.insert(m);
            }
            group.shards.insert(tag_str(&r, "shard"));
            // Records of `play` carry no set: each game is a deal of its own.
            let set = r.tags.get("set").and_then(Value::as_u64).unwrap_or(u64::MAX);
            let set_key = SetKey::new(set, strings.id(&run_seed), seed);
            let k = match group.sets.get(&set_key) {
                Some(s) => s.k,
                None => {
                    // The first game of a set that sorts before every other: the report's header.
                    if group
                        .head
                        .as_ref()
                        .is_none_or(|(k, _)| cmp_keys(&set_key, k, &strings) == Ordering::Less)
                    {
                        group.head = Some((set_key, MatchInfo::from_records([&r])));
                    }
                    let k = group.facts.push(SetFacts::default());
                    group.sets.insert(SetKey { k, ..set_key });
                    k
                }
            };
            group.acc.note(group.facts.get_mut(k), &r);
        }
    }
    // Only reading needed the games seen; the sets are sorted next.
    drop(seen);
    // What is printed, kept until the page is written: a reader that stops reading early
    // (`| head`) must not stop the page.
    let mut out: Vec<String> = Vec::new();
    for (k, g) in groups.iter_mut().enumerate() {
        let mut sets: Vec<SetKey> = std::mem::take(&mut g.sets).into_iter().collect();
        sets.sort_by(|x, y| cmp_keys(x, y, &strings));
        let mut trace = page.as_ref().map(|_| {
            let kind = match &g.tournament {
                Some(first) => report_html::Kind::Tournament(a.reference.clone().unwrap_or_else(|| first.clone())),
                None if g.key.bots.starts_with("compare ") => report_html::Kind::Compare,
                None => report_html::Kind::Match,
            };
            report_html::Trace::new(kind, g.bots.len(), &g.spec, g.test.clone())
        });
        // A compare group's verdict: its test over the deals in order (shards merged, too).
        let mut verdict = g.key.bots.starts_with("compare ").then(|| {
            g.test
                .as_ref()
                .map(|r| r.test.clone())
                .unwrap_or_else(|| default_test(&g.spec))
        });
        let mut means = Vec::new();
        for (i, s) in sets.into_iter().enumerate() {
            let facts = std::mem::take(g.facts.get_mut(s.k));
            let scale = facts.scale();
            if trace.is_some() || verdict.is_some() {
                means.clear();
                means.extend(facts.means());
            }
            g.acc.add_facts(i as u64, facts);
            if let Some(t) = verdict.as_mut().filter(|t| t.decided().is_none()) {
                let of = |who: &str| means.iter().find(|m| g.acc.name(m.0) == who).map(|m| m.1);
                if let (Some(c), Some(b)) = (of("candidate"), of("baseline")) {
                    t.push(c - b, scale);
                }
            }
            if let Some(t) = &mut trace {
                t.deal(&g.acc, &means, scale);
            }
        }
        g.facts = Chunked::default();
        let acc = &g.acc;
        let reference = match (&g.tournament, &a.reference) {
            (None, _) => None,
            (Some(_), Some(r)) => {
                let names: Vec<String> = acc.bot_totals().into_iter().map(|b| b.0).collect();
                if !names.contains(r) {
                    return Err(usage(format!(
                        "--reference {r} is not a bot of the tournament (bots: {})",
                        names.join(", ")
                    )));
                }
                Some(r.clone())
            }
            (Some(first), None) => Some(first.clone()),
        };
        let mut info = g.head.take().map(|(_, info)| info).unwrap_or_default();
        info.id = g.matches.iter().map(String::as_str).collect::<Vec<_>>().join(",");
        // The shard only when every record has the same one.
        info.shard = match g.shards.len() {
            1 => g.shards.first().filter(|s| !s.is_empty()).cloned(),
            _ => None,
        };
        let (mut json, mut lines) = match &reference {
            Some(r) => (tournament_json(&info, acc, r), tournament_lines(acc, r)),
            None => (match_json(&info, acc), acc.lines()),
        };
        if let Some(t) = &verdict {
            let (result, at) = match t.decided() {
                Some((d, Decision::AcceptUpper)) => ("pass", Some(d)),
                Some((d, _)) => ("fail", Some(d)),
                None => ("no decision", None),
            };
            let (log_pass, log_fail) = t.log_wealth();
            json["test"] = json!({
                "lower": t.lower(), "upper": t.upper(), "alpha": t.alpha(), "beta": t.beta(),
                "evidence": t.evidence(), "log_wealth": {"pass": log_pass, "fail": log_fail},
                "result": result, "deal": at,
            });
            lines.push(String::new());
            lines.push(format!(
                "sequential test by betting over the deals in order, H0: difference <= {} against H1: difference >= {} (alpha {}, beta {}): evidence {:+.2}: {}",
                signed(t.lower()),
                signed(t.upper()),
                t.alpha(),
                t.beta(),
                t.evidence(),
                match at {
                    Some(d) => format!("{result} at deal {d}"),
                    None => format!("no decision after {} deal(s)", t.summary().n()),
                }
            ));
        }
        if let Some(t) = trace {
            sections.push(report_html::Section::new(g.heading(acc), json.clone(), acc, t));
        }
        if a.json {
            out.push(json.to_string());
        } else {
            if k > 0 {
                out.push(String::new());
            }
            out.push(g.heading(acc));
            out.extend(lines);
        }
    }
    if let (Some(path), Some(o)) = (&a.html, &mut page) {
        o.write(report_html::page(&sections, &a.files).as_bytes())
            .map_err(|e| usage(format!("--html {}: {e}", path.display())))?;
    }
    for l in out {
        outln!("{l}");
    }
    for (m, seeds) in bot_seeds.iter().filter(|(_, s)| s.len() > 1) {
        let each: Vec<String> = seeds.iter().map(|(k, &f)| format!("{k} ({})", a.files[f])).collect();
        eprintln!(
            "croupier: WARNING: the records of match {m} were played with {} different bot seeds: {}. \
             Its shards did not share one --bot-seed, so the bot processes (and the built-in random \
             and pimc) drew other random numbers in each, and the merged table is not the one run \
             would give. Run every shard with the same --bot-seed.",
            seeds.len(),
            each.join(", ")
        );
    }
    if dup_count > 0 {
        eprintln!("croupier: {dup_count} duplicate game(s) counted once:");
        for d in &dups {
            eprintln!("  {d}");
        }
    }
    Ok(exit::OK)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_chunked_list_gives_each_index_its_own_item_across_chunks() {
        let mut list = Chunked::default();
        let n = 2 * Chunked::<u64>::CHUNK + 5;
        for i in 0..n {
            assert_eq!(list.push(i as u64 * 3) as usize, i);
        }
        assert_eq!(list.chunks.len(), 3);
        assert!(list.chunks.iter().all(|c| c.capacity() == Chunked::<u64>::CHUNK));
        for i in [0, Chunked::<u64>::CHUNK - 1, Chunked::<u64>::CHUNK, n - 1] {
            assert_eq!(*list.get_mut(i as u32), i as u64 * 3);
        }
        *list.get_mut(4096) += 1;
        assert_eq!(*list.get_mut(4096), 4096 * 3 + 1);
        assert_eq!(*list.get_mut(4095), 4095 * 3);
    }

    #[test]
    fn deals_sort_by_their_seeds_as_text_whether_kept_as_numbers_or_not() {
        let mut strings = Strings::default();
        let seeds = ["9", "10", "007", "18446744073709551615", "0x1f", "1", "", "100"];
        let run = strings.id("5");
        let mut keys: Vec<(SetKey, &str)> = seeds
            .iter()
            .map(|s| {
                let seed = Seed::of(s, &mut strings);
                (SetKey::new(1, run, seed), *s)
            })
            .collect();
        assert!(matches!(keys[0].0.seed(), Seed::Num(9)));
        assert!(matches!(keys[2].0.seed(), Seed::Text(_)), "007 is kept as written");
        assert_eq!(keys[2].0.run(), run);
        keys.sort_by(|a, b| cmp_keys(&a.0, &b.0, &strings));
        let mut as_text = seeds.to_vec();
        as_text.sort();
        assert_eq!(keys.iter().map(|k| k.1).collect::<Vec<_>>(), as_text);
    }
}
