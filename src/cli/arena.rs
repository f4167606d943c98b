//! `croupier match` and what `compare` and `tournament` share with it (`croupier compare` is in
//! compare.rs, `croupier stats` in stats.rs).

use super::exit::{self, usage, Outcome};
use super::games::find_game;
use super::io;
use crate::arena::report::{match_json, Accumulator, MatchInfo};
use crate::arena::{self, Control, Job, RunSpec, Set};
use crate::chance::{derive, format_seed, parse_seed, Purpose};
use crate::options::Options;
use crate::record::{parse_record, GameRecord};
use crate::referee::{Config, SeatSpec};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::{json, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::fs::{File, OpenOptions};
use std::io::{IsTerminal, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

// Options shared by `match` and `compare`. (`//`: a doc comment would become the about of the
// deferred subcommands that flatten it.)
#[derive(Args, Debug)]
pub struct TableArgs {
    /// Run seed: fixes every deal (decimal or 0x-hex). `@FILE` reads it from FILE; the
    /// environment variable CROUPIER_SEED also sets it (bots do not inherit it): both keep it
    /// off the command line, which other local users can read. Default: drawn from the OS and
    /// recorded.
    #[arg(long, env = "CROUPIER_SEED", allow_hyphen_values = true, value_parser = super::args::seed_arg)]
    pub(super) seed: Option<String>,
    #[command(flatten)]
    pub(super) bots: super::bot_args::BotArgs,
    /// A rule option, name=value (see `croupier rules GAME`); repeatable.
    #[arg(long = "rule", value_name = "NAME=VALUE")]
    pub(super) rules: Vec<String>,
    /// Tables playing at once, each with its own bot processes.
    #[arg(long, default_value = "1", allow_hyphen_values = true, value_parser = super::args::at_least_one_usize)]
    pub(super) concurrency: usize,
    /// Directory for the bots' stderr logs: each run writes DIR/<UTC time>-<pid>/<bot>.log.
    #[arg(long, default_value = "croupier-logs")]
    pub(super) log_dir: PathBuf,
    /// Exit with code 4 if any bot faulted.
    #[arg(long)]
    pub(super) strict: bool,
    /// Print the result as one JSON object instead of text (its keys: README, "JSON output").
    #[arg(long)]
    pub(super) json: bool,
    /// No progress bar or progress lines on stderr.
    #[arg(long, short)]
    pub(super) quiet: bool,
}

#[derive(Args, Debug)]
pub struct MatchArgs {
    /// The game (see `croupier games`).
    game: String,
    /// A bot: NAME=SPEC, or just SPEC (a built-in bot's name or a command line); repeatable.
    #[arg(long = "bot", value_name = "NAME=SPEC", required = true)]
    bots: Vec<String>,
    /// Bot names in seat order, comma-separated; every --bot must have a seat (default: the
    /// bots cycled over the seats).
    #[arg(long, value_name = "NAME,…")]
    lineup: Option<String>,
    /// Number of players (default: the --lineup's length, else the game's default).
    #[arg(long, allow_hyphen_values = true, value_parser = super::args::at_least_one_usize)]
    players: Option<usize>,
    /// Number of distinct deals, each played under every rotation of the lineup (a game per
    /// seating). `--games` is its old name.
    #[arg(long, visible_alias = "games", default_value = "100", allow_hyphen_values = true,
          value_parser = super::args::at_least_one)]
    deals: u64,
    /// Play every deal under every rotation of the lineup (the default when the lineup has
    /// more than one distinct bot).
    #[arg(long, conflicts_with = "no_duplicate")]
    duplicate: bool,
    /// Play each deal once, in the lineup's seating.
    #[arg(long)]
    no_duplicate: bool,
    #[command(flatten)]
    run: RunArgs,
    #[command(flatten)]
    table: TableArgs,
}

// Where the records of a `match` or `tournament` go, and which part of the run this process
// plays. (`//`: a doc comment would become the about of the deferred subcommands that flatten
// it.)
#[derive(Args, Debug)]
pub struct RunArgs {
    /// Write one JSON line per finished game to FILE, flushed, the games of a deal together.
    /// A FILE that is not empty is refused, unless --resume continues the run it holds. `-`
    /// writes them to standard output; the result then goes to stderr.
    #[arg(long, value_name = "FILE|-")]
    pub record: Option<PathBuf>,
    /// Continue an interrupted run: read --record, drop a torn last line, play what is missing.
    #[arg(long, requires = "record")]
    pub resume: bool,
    /// Play only the sets (a deal; in a tournament, a deal at one table) whose index is K mod N
    /// (0 <= K < N); merge the shards' records with `croupier stats`.
    #[arg(long, value_name = "K/N", allow_hyphen_values = true)]
    pub shard: Option<String>,
}

impl RunArgs {
    /// `--shard K/N`, checked.
    pub fn shard(&self) -> Result<Option<(u64, u64)>, (u8, String)> {
        self.shard
            .as_deref()
            .map(|s| arena::parse_shard(s).map_err(usage))
            .transpose()
    }
}

// ----- shared pieces -----

/// Progress on stderr: a bar on a terminal, a plain line every 10 s otherwise.
pub(super) struct Progress {
    bar: Option<ProgressBar>,
    quiet: bool,
    total: u64,
    start: Instant,
    last: Instant,
}

impl Progress {
    const BAR_MESSAGE: Duration = Duration::from_millis(100);

    pub(super) fn new(total: u64, quiet: bool) -> Progress {
        let bar = (!quiet && std::io::stderr().is_terminal()).then(|| {
            let b = ProgressBar::new(total);
            b.set_style(
                ProgressStyle::with_template("{bar:30} {pos}/{len} games  {per_sec}  eta {eta}  {msg}")
                    .expect("a valid template"),
            );
            b
        });
        Progress {
            bar,
            quiet,
            total,
            start: Instant::now(),
            last: Instant::now(),
        }
    }

    /// `done` games played; `msg` (the leading difference) is made only when it is shown: a
    /// bar's message at most every [`Progress::BAR_MESSAGE`], a line every ten seconds.
    pub(super) fn update(&mut self, done: u64, msg: impl FnOnce() -> Option<String>) {
        if let Some(b) = &self.bar {
            b.set_position(done);
            if self.last.elapsed() >= Self::BAR_MESSAGE || done == self.total {
                self.last = Instant::now();
                b.set_message(msg().unwrap_or_default());
            }
        } else if !self.quiet && (self.last.elapsed() >= Duration::from_secs(10) || done == self.total) {
            self.last = Instant::now();
            let msg = msg().unwrap_or_default();
            let secs = self.start.elapsed().as_secs_f64();
            eprintln!(
                "{done}/{} games  {:.1} games/s  {msg}",
                self.total,
                done as f64 / secs.max(1e-9)
            );
        }
    }

    pub(super) fn finish(&self) {
        if let Some(b) = &self.bar {
            b.finish_and_clear();
        }
    }
}

/// The bot limits that change results (a bot killed by one faults), in a run's fingerprint when
/// set: a resumed run keeps them. Runs without limits keep the fingerprints they had.
pub(super) fn limits_canon(canonical: &mut Value, config: &Config) {
    if let Some(m) = config.limits.memory_bytes {
        canonical["bot_memory"] = m.into();
    }
    if let Some(c) = config.limits.cpu_seconds {
        canonical["bot_cpu_s"] = c.into();
    }
    if config.on_fault != crate::referee::FaultPolicy::Substitute {
        canonical["on_fault"] = config.on_fault.name().into();
    }
    if let Some(m) = config.max_faults {
        canonical["max_faults"] = m.into();
    }
    if let Some(c) = config.clock {
        canonical["time_ms"] = serde_json::json!([c.bank.as_millis() as u64, c.increment.as_millis() as u64]);
    }
}

pub(super) struct Common {
    pub(super) spec: crate::game::GameSpec,
    pub(super) options: Options,
    pub(super) players: usize,
    pub(super) config: Config,
}

pub(super) fn common(game: &str, t: &TableArgs, players: Option<usize>, seed: u64) -> Result<Common, (u8, String)> {
    let spec = find_game(game)?;
    let players = players.unwrap_or(spec.default_players);
    if players < spec.min_players || players > spec.max_players {
        return Err(usage(format!(
            "{} is played by {} players, not {players}",
            spec.name,
            super::games::player_range(&spec)
        )));
    }
    let options = Options::resolve(&(spec.options)(), spec.name, &t.rules).map_err(usage)?;
    let config = Config {
        move_time: t.bots.move_time,
        startup_time: t.bots.startup_time,
        log_dir: t.log_dir.clone(),
        bot_seed: derive(seed, Purpose::Bot, u64::MAX),
        limits: t.bots.limits(),
        on_fault: t.bots.on_fault,
        clock: t.bots.time,
        max_faults: t.bots.max_faults,
        transcript: t.bots.transcript_dir()?,
        ..Config::default()
    };
    Ok(Common {
        spec,
        options,
        players,
        config,
    })
}

/// An append-only record file (or standard output) written a set at a time.
pub(super) struct Sink(Option<io::Output>);

impl Sink {
    /// Opens the record before the first game; `-` is standard output, which then carries only
    /// the records (the result goes to stderr).
    pub(super) fn open(path: Option<&PathBuf>) -> Result<Sink, (u8, String)> {
        let Some(p) = path else { return Ok(Sink(None)) };
        if io::is_dash(p) {
            super::output::stdout_is_data();
        }
        Ok(Sink(Some(io::open_output(p, "--record", true)?)))
    }

    /// Writes the record lines of one set (made by its table, [`RunSpec::record_lines`])
    /// with one write, then flushes.
    pub(super) fn write(&mut self, lines: &[u8]) -> Result<(), String> {
        if let Some(out) = &mut self.0 {
            out.write(lines).map_err(|e| format!("writing the record: {e}"))?;
        }
        Ok(())
    }
}

pub(super) fn parse_spec(s: &str) -> Result<SeatSpec, (u8, String)> {
    SeatSpec::parse(s).map_err(usage)
}

/// The length of `text` without a torn last line (see [`io::whole_lines`]).
#[cfg(test)]
fn whole_lines(text: &str) -> usize {
    io::whole_lines(text.as_bytes())
}

/// Gets a record file ready for resuming and returns its first record (it holds the run
/// seed). A torn last line (no newline at its end, as a killed writer leaves it) is cut off
/// the file; a whole last record that lost only its newline gets one. Only the file's end and
/// its first record are read here ([`read_resume`] reads the rest).
fn prepare_resume(path: &Path) -> Result<Option<GameRecord>, (u8, String)> {
    let name = path.display().to_string();
    let err = |e: std::io::Error| usage(format!("{name}: {e}"));
    let mut f = match File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(err(e)),
    };
    let len = f.metadata().map_err(err)?.len();
    if len > 0 && !io::ends_with_newline(path) {
        // The last line starts after the last newline: look for it from the end.
        let mut start = len;
        let mut chunk = vec![0u8; 1 << 16];
        loop {
            let from = start.saturating_sub(chunk.len() as u64);
            let n = (start - from) as usize;
            f.seek(SeekFrom::Start(from)).map_err(err)?;
            f.read_exact(&mut chunk[..n]).map_err(err)?;
            if let Some(p) = chunk[..n].iter().rposition(|&b| b == b'\n') {
                start = from + p as u64 + 1;
                break;
            }
            start = from;
            if from == 0 {
                break;
            }
        }
        let mut last = Vec::new();
        f.seek(SeekFrom::Start(start)).map_err(err)?;
        f.read_to_end(&mut last).map_err(err)?;
        if io::is_torn(&last) {
            eprintln!(
                "croupier: {name}: dropping a torn last line ({} bytes) left by an interrupted run",
                last.len()
            );
            let f = OpenOptions::new().write(true).open(path).map_err(err)?;
            f.set_len(start).map_err(err)?;
        } else {
            // A whole last record that lost only its newline: end the line before appending.
            let mut f = OpenOptions::new().append(true).open(path).map_err(err)?;
            f.write_all(b"\n").map_err(err)?;
        }
    }
    drop(f);
    let mut lines = io::LineReader::open(path)?;
    while let Some(l) = lines.next_line()? {
        if let Some(rec) = resume_line(&name, l.number, l.bytes)? {
            return Ok(Some(rec));
        }
    }
    Ok(None)
}

/// One line of a record file being resumed: a record, `None` for a blank line, or an error
/// naming the file and line.
fn resume_line(name: &str, line: usize, bytes: &[u8]) -> Result<Option<GameRecord>, (u8, String)> {
    let text = std::str::from_utf8(bytes).map_err(|_| {
        usage(format!(
            "{name}:{line}: not a croupier record: not text (invalid UTF-8)"
        ))
    })?;
    if text.trim().is_empty() {
        return Ok(None);
    }
    parse_record(text)
        .map(Some)
        .map_err(|e| usage(format!("{name}:{line}: {e}")))
}

/// What a record file being resumed holds, beyond the whole deals already summed.
#[derive(Default)]
struct Resumed {
    /// Every record read, also those of a deal whose other games are still missing.
    already: u64,
    /// Deals of this run whose every game is in the file.
    complete: u64,
    /// The games of deals that are only partly in the file (a write cut short), by set.
    partial: BTreeMap<u64, Vec<GameRecord>>,
}

/// The position of a record's game among the seatings of its deal (`keys`: `r0`, `r1`, …).
fn seating(keys: &[String], r: &GameRecord) -> usize {
    let k = tag_str(r, "job");
    keys.iter().position(|x| *x == k).unwrap_or(keys.len())
}

/// Reads the record file of a resumed run a line at a time and hands `each` every record with
/// the file's name and its line, after checking that it comes from a run with the same
/// arguments (`canonical`, the arguments the run's fingerprint is made of, and `shard`); a
/// record of other arguments is refused, naming those that changed. Returns how many records
/// were read (0 without a file).
pub(super) fn resumed_records(
    path: &Path,
    canonical: &Value,
    shard: &str,
    mut each: impl FnMut(&str, usize, GameRecord) -> Result<(), (u8, String)>,
) -> Result<u64, (u8, String)> {
    if !path.exists() {
        return Ok(0);
    }
    let fp = arena::fingerprint(&canonical.to_string());
    let mut lines = io::LineReader::open(path)?;
    let name = lines.name().to_string();
    let mut read = 0;
    while let Some(l) = lines.next_line()? {
        let line = l.number;
        let Some(r) = resume_line(&name, line, l.bytes)? else {
            continue;
        };
        if tag_str(&r, "match") != fp || tag_str(&r, "shard") != shard {
            return Err(usage(format!(
                "{name}: line {line} was written by a run with other arguments: {}; resume with the same arguments as that run, or use another file",
                changed_arguments(&r, canonical, shard).join("; ")
            )));
        }
        read += 1;
        each(&name, line, r)?;
    }
    Ok(read)
}

// ----- resume: which argument changed -----

/// The keys of a run's fingerprint whose values its records hold elsewhere (the game, its rule
/// options and players, the seed, the bots and their specs): the `args` tag keeps the others.
const IN_THE_RECORD: [&str; 11] = [
    "game",
    "tournament",
    "compare",
    "options",
    "players",
    "seed",
    "lineup",
    "bots",
    "candidate",
    "baseline",
    "field",
];

/// The `args` tag of a run's records: the arguments its fingerprint is made of that a record
/// does not hold elsewhere (the number of deals, the time limits, …), so that a resume with
/// other arguments can say which one changed.
pub(super) fn args_tag(canonical: &Value) -> Value {
    let mut m = canonical.as_object().cloned().unwrap_or_default();
    m.retain(|k, _| !IN_THE_RECORD.contains(&k.as_str()));
    Value::Object(m)
}

/// The arguments of the run that wrote `r`, as the fingerprint's object `now` has them, as far
/// as the record tells: the value of a key the record does not hold is `now`'s (unknown, taken
/// as unchanged). Also whether everything was known (a record with an `args` tag).
fn previous_arguments(r: &GameRecord, now: &Value) -> (Value, bool) {
    let mut then = now.clone();
    let Some(m) = then.as_object_mut() else {
        return (then, false);
    };
    let args = r.tags.get("args").and_then(Value::as_object);
    if let Some(args) = args {
        // Keys that only the other run has (a limit it set) are added, keys only this one
        // has are dropped.
        m.retain(|k, _| IN_THE_RECORD.contains(&k.as_str()) || args.contains_key(k));
        for (k, v) in args {
            m.insert(k.clone(), v.clone());
        }
    }
    // A spec as this run writes it when it names the program the record names: two ways of
    // writing one command line are told apart below, by the fingerprint.
    let spec_then = |now: Option<&str>, recorded: &str| -> Value {
        match now {
            Some(n) if SeatSpec::parse(n).is_ok_and(|s| s.display() == recorded) => n.into(),
            _ => recorded.into(),
        }
    };
    let spec_of_player = |p: usize| r.seats.iter().find(|s| s.player == p).map(|s| s.spec.as_str());
    for key in ["game", "tournament", "compare"] {
        if m.contains_key(key) {
            m.insert(key.into(), r.game.clone().into());
        }
    }
    m.insert("options".into(), r.options.to_json());
    m.insert("players".into(), r.players.into());
    if let Some(seed) = r.tags.get("match_seed") {
        m.insert("seed".into(), seed.clone());
    }
    if m.contains_key("lineup") {
        // A match: the lineup's names are a tag, player p's spec is in its seat.
        if let Some(names) = r.tags.get("lineup").and_then(Value::as_array) {
            let now_pairs = now["lineup"].as_array().cloned().unwrap_or_default();
            let pairs: Vec<Value> = names
                .iter()
                .enumerate()
                .map(|(p, name)| {
                    let now_spec = now_pairs.get(p).filter(|x| x[0] == *name).and_then(|x| x[1].as_str());
                    let spec = match spec_of_player(p) {
                        Some(rec) => spec_then(now_spec, rec),
                        None => now_spec.into(),
                    };
                    json!([name, spec])
                })
                .collect();
            m.insert("lineup".into(), pairs.into());
        }
    }
    if m.contains_key("bots") {
        if let Some(bots) = r.tags.get("tournament") {
            m.insert("bots".into(), bots.clone());
        }
    }
    // compare: player 0 is the candidate, 1 the baseline, 2… the field.
    for (key, player) in [("candidate", Some(0)), ("baseline", Some(1)), ("field", None)] {
        if !m.contains_key(key) {
            continue;
        }
        let recorded = match player {
            Some(p) => spec_of_player(p),
            None => r.seats.iter().find(|s| s.player >= 2).map(|s| s.spec.as_str()),
        };
        if let Some(rec) = recorded {
            let v = spec_then(now[key].as_str(), rec);
            m.insert(key.into(), v);
        }
    }
    (then, args.is_some())
}

/// How an argument of the fingerprint is written on the command line, and its value there.
fn argument_text(key: &str, v: Option<&Value>) -> (String, String) {
    let ms = |x: &Value| {
        let ms = x.as_u64().unwrap_or(0);
        if ms.is_multiple_of(1000) {
            format!("{}s", ms / 1000)
        } else {
            format!("{ms}ms")
        }
    };
    let plain = |x: &Value| match x {
        Value::String(s) => s.clone(),
        Value::Null => "none".to_string(),
        other => other.to_string(),
    };
    let bots = |x: &Value| {
        let pairs: Vec<String> = x
            .as_array()
            .into_iter()
            .flatten()
            .map(|p| match (plain(&p[0]), plain(&p[1])) {
                (name, spec) if name == spec => quoted(name),
                (name, spec) => quoted(format!("{name}={spec}")),
            })
            .collect();
        pairs.join(" ")
    };
    let flag = match key {
        "game" | "tournament" | "compare" => "the game",
        "players" => "--players",
        "seed" => "--seed",
        "lineup" => "--bot/--lineup",
        "bots" => "--bot",
        "candidate" => "--candidate",
        "baseline" => "--baseline",
        "field" => "--field",
        "games" => "--deals",
        "duplicate" => "--duplicate/--no-duplicate",
        "gauntlet" => "--gauntlet",
        "move_time_ms" => "--move-time",
        "startup_time_ms" => "--startup-time",
        "bot_memory" => "--bot-memory",
        "bot_cpu_s" => "--bot-cpu",
        "on_fault" => "--on-fault",
        "max_faults" => "--max-faults",
        "time_ms" => "--time",
        other => other,
    };
    let value = match (key, v) {
        ("on_fault", None) => "substitute".to_string(),
        (_, None) => "not given".to_string(),
        ("lineup" | "bots", Some(x)) => bots(x),
        ("duplicate", Some(x)) => if x.as_bool() == Some(true) {
            "duplicate"
        } else {
            "not duplicate"
        }
        .to_string(),
        ("move_time_ms" | "startup_time_ms", Some(x)) => ms(x),
        ("bot_memory", Some(x)) => format!("{}M", x.as_u64().unwrap_or(0) >> 20),
        ("bot_cpu_s", Some(x)) => format!("{}s", plain(x)),
        ("time_ms", Some(x)) => format!("{}+{}", ms(&x[0]), ms(&x[1])),
        (_, Some(x)) => plain(x),
    };
    (flag.to_string(), value)
}

/// `s`, in quotes when it has a space or a quote (a bot's command line among others).
fn quoted(s: String) -> String {
    if s.contains(|c: char| c.is_whitespace() || c == '\'' || c == '"') {
        shell_words::quote(&s).into_owned()
    } else {
        s
    }
}

/// What differs between the run that wrote `r` and this one (`now`, its fingerprint's
/// arguments; `shard`), each as `--deals 2 then, 3 now`. Never empty: when the record does not
/// tell, it says which arguments it could not check.
pub(super) fn changed_arguments(r: &GameRecord, now: &Value, shard: &str) -> Vec<String> {
    let (then, complete) = previous_arguments(r, now);
    let mut out = Vec::new();
    let empty = serde_json::Map::new();
    let (t, n) = (then.as_object().unwrap_or(&empty), now.as_object().unwrap_or(&empty));
    let mut keys: Vec<&String> = n.keys().collect();
    keys.extend(t.keys().filter(|k| !n.contains_key(*k)));
    for k in keys {
        let (a, b) = (t.get(k), n.get(k));
        if a == b {
            continue;
        }
        if k == "options" {
            let (a, b) = (a.and_then(Value::as_object), b.and_then(Value::as_object));
            for (name, v) in b.into_iter().flatten() {
                let old = a.and_then(|a| a.get(name));
                if old != Some(v) {
                    let old = old.and_then(Value::as_str).unwrap_or("not an option");
                    out.push(format!(
                        "--rule {name}={old} then, {name}={} now",
                        v.as_str().unwrap_or_default()
                    ));
                }
            }
            continue;
        }
        let (flag, old) = argument_text(k, a);
        let (_, new) = argument_text(k, b);
        out.push(format!("{flag} {old} then, {new} now"));
    }
    let shard_then = tag_str(r, "shard");
    if shard_then != shard {
        let show = |s: &str| {
            if s.is_empty() {
                "not given".to_string()
            } else {
                s.to_string()
            }
        };
        out.push(format!("--shard {} then, {} now", show(&shard_then), show(shard)));
    }
    let fp_then = tag_str(r, "match");
    let same_fp = arena::fingerprint(&then.to_string()) == fp_then;
    if out.is_empty() || !same_fp && out.iter().all(|c| c.starts_with("--shard ")) {
        out.push(if complete {
            // Every argument agrees but the fingerprint does not: a command line written
            // otherwise (two spaces for one, quotes), or a croupier that made it otherwise.
            format!(
                "the same arguments, written otherwise (run {fp_then}, this run {}): write each --bot as that run did",
                arena::fingerprint(&now.to_string())
            )
        } else {
            "one that records of croupier before the `args` tag do not keep: --deals, \
             --move-time, --startup-time, --duplicate, --gauntlet, --bot-memory, --bot-cpu, \
             --on-fault, --max-faults or --time"
                .to_string()
        });
    }
    out
}

/// The error for a game found twice in the file of a resumed run.
pub(super) fn repeated_game(name: &str, line: usize, set: u64, job: &str) -> (u8, String) {
    usage(format!(
        "{name}:{line}: deal {set} seating '{job}' is already in the file: a run writes each game once, so the file was edited or joined; use another file"
    ))
}

/// Reads the record file of a resumed run ([`resumed_records`]). Each record must be there
/// once. A deal of the run whose games are all in the file goes to `acc` as soon as it is
/// complete; the games of deals still missing some are returned.
fn read_resume(
    path: &Path,
    canonical: &Value,
    shard: &str,
    in_plan: impl Fn(u64) -> bool,
    keys: &[String],
    acc: &mut Accumulator,
) -> Result<Resumed, (u8, String)> {
    let mut out = Resumed::default();
    out.already = resumed_records(path, canonical, shard, |name, line, r| {
        let set = r.tags.get("set").and_then(|v| v.as_u64()).unwrap_or(u64::MAX);
        if !in_plan(set) {
            return Ok(());
        }
        let job = tag_str(&r, "job");
        if acc.holds(set) {
            return Err(repeated_game(name, line, set, &job));
        }
        if seating(keys, &r) == keys.len() {
            return Err(usage(format!(
                "{name}:{line}: seating '{job}' is not one of this match's ({})",
                keys.join(", ")
            )));
        }
        let recs = out.partial.entry(set).or_default();
        if recs.iter().any(|x| tag_str(x, "job") == job) {
            return Err(repeated_game(name, line, set, &job));
        }
        recs.push(r);
        if recs.len() == keys.len() {
            let mut recs = out.partial.remove(&set).unwrap_or_default();
            recs.sort_by_key(|r| seating(keys, r));
            acc.add_set(set, &recs);
            out.complete += 1;
        }
        Ok(())
    })?;
    Ok(out)
}

pub(super) fn tag_str(rec: &GameRecord, k: &str) -> String {
    match rec.tags.get(k) {
        Some(Value::String(s)) => s.clone(),
        Some(v) => v.to_string(),
        None => String::new(),
    }
}

/// The sets of a run and the job keys of each: what `match` and `tournament` share.
pub(super) struct Plan {
    /// The run's sets are 0..sets (deal indexes in a match).
    pub sets: u64,
    /// Play only the sets whose index is K mod N.
    pub shard: Option<(u64, u64)>,
    /// The arguments the run's fingerprint is made of (every record's `match` tag).
    pub canonical: Value,
    /// The keys of every set's games, in the order they are counted.
    pub keys: Vec<String>,
    /// A tournament's reference bot: the progress line shows the standings, each bot's rating
    /// relative to it (`None`: a match, the first pair's difference).
    pub reference: Option<String>,
}

/// What [`play_plan`] leaves: the statistics of the plan's sets, the records read from the
/// file being resumed and the games played now.
pub(super) struct Played {
    pub acc: Accumulator,
    pub already: u64,
    pub played: u64,
}

/// Plays the sets of `plan` (its shard) that `record` does not hold yet, `jobs_of(i)` making
/// the games of set `i`: reads the file of a resumed run (whole sets go to the statistics, the
/// games of partly written ones are completed), writes each finished set to `record`, shows
/// progress, and says what was kept when Ctrl-C or SIGTERM stopped it (`what`: the command).
/// A resumed run needs [`RunSpec::keep_records`]: the records of a partly written set are put
/// together with the games played now.
pub(super) fn play_plan(
    plan: &Plan,
    jobs_of: impl Fn(u64) -> Vec<Job> + Send,
    run: &RunSpec,
    record: Option<&PathBuf>,
    resume: bool,
    quiet: bool,
    what: &str,
) -> Result<Played, (u8, String)> {
    let (sets, keys) = (plan.sets, &plan.keys);
    let shard_tag = plan.shard.map(|(k, m)| format!("{k}/{m}")).unwrap_or_default();
    // The sets of this run (of its shard), in the order they are made and summed.
    let (first, step) = plan.shard.unwrap_or((0, 1));
    let in_plan = |i: u64| i < sets && i % step == first;
    let planned = if first < sets { (sets - 1 - first) / step + 1 } else { 0 };
    let mut acc = Accumulator::in_order(first, step);
    // What the record already holds: whole sets go to the statistics as it is read.
    let resumed = match (record, resume) {
        (Some(p), true) => read_resume(p, &plan.canonical, &shard_tag, in_plan, keys, &mut acc)?,
        _ => Resumed::default(),
    };
    let already = resumed.already;
    let mut partial = resumed.partial;
    if !partial.is_empty() && !run.keep_records {
        return Err(usage(
            "internal error: a resumed run must keep its records (RunSpec::keep_records)",
        ));
    }
    let to_play = planned - resumed.complete;
    let total: u64 = to_play * keys.len() as u64 - partial.values().map(|v| v.len() as u64).sum::<u64>();
    // The sets are made as the tables take them: a run of any length needs no list of them.
    let (folded_to, ahead) = (acc.next_index(), acc.waiting_indexes());
    let have: BTreeMap<u64, BTreeSet<String>> = partial
        .iter()
        .map(|(i, recs)| (*i, recs.iter().map(|r| tag_str(r, "job")).collect()))
        .collect();
    let to_make = (first..sets)
        .step_by(usize::try_from(step).unwrap_or(usize::MAX))
        .filter(move |i| *i >= folded_to && !ahead.contains(i))
        .map(move |i| Set {
            index: i,
            jobs: jobs_of(i)
                .into_iter()
                .filter(|j| have.get(&i).is_none_or(|h| !h.contains(&j.key)))
                .collect(),
        });
    let mut sink = Sink::open(record)?;
    let mut progress = Progress::new(total, quiet);
    let mut played = 0u64;
    let result = arena::run(run, to_make, to_play, |set| {
        sink.write(set.lines)?;
        played += set.games;
        match partial.remove(&set.index) {
            Some(old) => {
                // The set's games in the order of its seatings, as one run plays them.
                set.records.extend(old);
                set.records.sort_by_key(|r| seating(keys, r));
                acc.add_set(set.index, set.records);
            }
            None => set.add_to(&mut acc),
        }
        progress.update(played, || match &plan.reference {
            Some(r) => crate::arena::tournament::standings(&acc, r),
            None => acc.leading(),
        });
        Ok(Control::Continue)
    });
    progress.finish();
    result.map_err(|e| run_stopped(what, e))?;
    if let Some(sig) = crate::interrupt::requested().filter(|_| played < total) {
        let msg = match record {
            Some(p) if io::is_dash(p) => {
                format!("interrupted: {played} of {total} games played and written to standard output")
            }
            Some(p) => format!(
                "interrupted: {} of {} games recorded in {}; run the same command with --resume to finish:\n  {}",
                already + played,
                already + total,
                p.display(),
                resume_command()
            ),
            None => format!(
                "interrupted: {played} of {total} games played, none recorded (with --record FILE, \
                 the same command with --resume finishes an interrupted run)"
            ),
        };
        return Err((crate::interrupt::exit_code(sig), msg));
    }
    Ok(Played { acc, already, played })
}

/// `NAME=SPEC` as (Some(NAME), SPEC); anything else is a SPEC alone.
pub(super) fn split_name(b: &str) -> (Option<&str>, &str) {
    match b.split_once('=') {
        // `pimc:samples=64`, `mix:p=0.7` are specs, not names: a name has no colon.
        Some((n, s)) if !n.is_empty() && !n.contains(' ') && !n.contains(':') => (Some(n), s),
        _ => (None, b),
    }
}

/// `--bot NAME=SPEC` (or just SPEC, its own name) in order; names must differ.
pub(super) fn parse_bots(args: &[String]) -> Result<Vec<(String, String)>, (u8, String)> {
    let mut bots: Vec<(String, String)> = Vec::new();
    for b in args {
        let (name, spec) = match split_name(b) {
            (Some(n), s) => (n.to_string(), s.to_string()),
            (None, _) => (b.clone(), b.clone()),
        };
        if bots.iter().any(|(n, _)| *n == name) {
            return Err(usage(format!(
                "--bot {name} is given twice: give each bot a distinct NAME="
            )));
        }
        parse_spec(&spec)?;
        bots.push((name, spec));
    }
    Ok(bots)
}

/// The first record of the run that `--record FILE --resume` continues (its file made ready,
/// see [`prepare_resume`]); without --resume, a FILE that is not empty is refused.
pub(super) fn previous_run(record: Option<&PathBuf>, resume: bool) -> Result<Option<GameRecord>, (u8, String)> {
    match (record, resume) {
        (Some(p), true) if io::is_dash(p) => Err(usage(
            "--resume reads the run so far from --record FILE: it cannot be - (standard output)",
        )),
        (Some(p), true) => prepare_resume(p),
        (Some(p), false) if io::is_dash(p) => Ok(None),
        (Some(p), false) => {
            if std::fs::metadata(p).map(|m| m.len() > 0).unwrap_or(false) {
                return Err(usage(format!(
                    "{} already exists and is not empty: use --resume to continue that run, or another file",
                    p.display()
                )));
            }
            Ok(None)
        }
        _ => Ok(None),
    }
}

/// The run seed: given, else the resumed file's, else fresh.
pub(super) fn run_seed(given: Option<&str>, previous: Option<&GameRecord>) -> Result<u64, (u8, String)> {
    match (given, previous) {
        (Some(s), _) => parse_seed(s).map_err(usage),
        (None, Some(r)) => parse_seed(&tag_str(r, "match_seed")).map_err(|e| usage(format!("resuming: {e}"))),
        (None, None) => Ok(rand::random::<u64>()),
    }
}

/// This run's command line with `--resume` (added unless it is there), quoted for a shell:
/// what an interrupted `match`, `tournament` or `compare` prints, to be run as it is. The seed
/// and the bot seed need not be on it: a resumed run reads them from its record.
pub fn resume_command() -> String {
    let mut args: Vec<String> = std::env::args_os().map(|a| a.to_string_lossy().into_owned()).collect();
    if !args.iter().skip(1).any(|a| a == "--resume") {
        args.push("--resume".to_string());
    }
    shell_words::join(args)
}

/// The exit code and message of a run that stopped early: 4 when `--on-fault abort` stopped it
/// at a bot's fault, else 2.
pub fn run_stopped(what: &str, e: String) -> (u8, String) {
    let code = if e.contains(crate::referee::ABORTED) { 4 } else { 2 };
    (code, format!("{what} stopped: {e}"))
}

// ----- match -----

pub fn run_match(mut a: MatchArgs) -> Outcome {
    a.table.log_dir = io::run_log_dir(&a.table.log_dir)?;
    let bots = parse_bots(&a.bots)?;
    let spec_of = |name: &str| bots.iter().find(|(n, _)| n == name).map(|(_, s)| s.clone());
    let previous = previous_run(a.run.record.as_ref(), a.run.resume)?;
    let seed = run_seed(a.table.seed.as_deref(), previous.as_ref())?;
    let lineup: Vec<String> = match &a.lineup {
        Some(l) => l.split(',').map(|s| s.trim().to_string()).collect(),
        None => Vec::new(),
    };
    let c = common(
        &a.game,
        &a.table,
        a.players.or((!lineup.is_empty()).then_some(lineup.len())),
        seed,
    )?;
    let n = c.players;
    let names: Vec<&str> = bots.iter().map(|(n, _)| n.as_str()).collect();
    if lineup.is_empty() && bots.len() > n {
        let more = if bots.len() <= c.spec.max_players {
            format!(", or seat them all with --players {}", bots.len())
        } else {
            String::new()
        };
        return Err(usage(format!(
            "{} bots ({}) for the {n} seats of this {} table: give at most {n} --bot, or choose the {n} \
             to seat with --lineup NAME,…{more}; for more bots than seats, play `croupier tournament`",
            bots.len(),
            names.join(", "),
            c.spec.name,
        )));
    }
    let lineup: Vec<String> = if lineup.is_empty() {
        (0..n).map(|s| bots[s % bots.len()].0.clone()).collect()
    } else {
        lineup
    };
    if lineup.len() != n {
        return Err(usage(format!("--lineup names {} seats for {n} players", lineup.len())));
    }
    for name in &lineup {
        if spec_of(name).is_none() {
            return Err(usage(format!(
                "--lineup names '{name}', which is not a --bot (bots: {})",
                names.join(", ")
            )));
        }
    }
    let unseated: Vec<&str> = names
        .iter()
        .copied()
        .filter(|b| !lineup.iter().any(|l| l == b))
        .collect();
    if !unseated.is_empty() {
        return Err(usage(format!(
            "--lineup {} leaves --bot {} without a seat: seat every --bot or leave it out (for more \
             bots than seats, play `croupier tournament`)",
            lineup.join(","),
            unseated.join(", ")
        )));
    }
    let distinct: BTreeSet<&String> = lineup.iter().collect();
    let duplicate = a.duplicate || (!a.no_duplicate && distinct.len() > 1);
    let seatings = if duplicate {
        arena::rotations(&lineup)
    } else {
        vec![(0..n).collect()]
    };
    let shard = a.run.shard()?;
    let mut canonical = json!({
        "game": c.spec.name, "options": c.options.to_json(), "players": n,
        "lineup": lineup.iter().map(|l| json!([l, spec_of(l)])).collect::<Vec<_>>(),
        // `games` is the key of the deals' number since the option's old name: kept, so that
        // the fingerprints of earlier runs do not change.
        "games": a.deals, "seed": format_seed(seed), "duplicate": duplicate,
        // The time limits change results too (a slow bot's timeouts): a resumed run keeps them.
        "move_time_ms": c.config.move_time.as_millis() as u64,
        "startup_time_ms": c.config.startup_time.as_millis() as u64,
    });
    limits_canon(&mut canonical, &c.config);
    let fp = arena::fingerprint(&canonical.to_string());
    let shard_tag = shard.map(|(k, m)| format!("{k}/{m}")).unwrap_or_default();
    let all_jobs: Vec<Job> = seatings
        .iter()
        .enumerate()
        .map(|(r, seat_of)| Job {
            key: format!("r{r}"),
            seat_of: seat_of.clone(),
            bots: seat_of.iter().map(|&p| lineup[p].clone()).collect(),
        })
        .collect();
    let plan = Plan {
        sets: a.deals,
        shard,
        canonical: canonical.clone(),
        keys: all_jobs.iter().map(|j| j.key.clone()).collect(),
        reference: None,
    };
    let mut tags = BTreeMap::new();
    tags.insert("match".to_string(), Value::from(fp.clone()));
    tags.insert("match_seed".to_string(), Value::from(format_seed(seed)));
    tags.insert("args".to_string(), args_tag(&canonical));
    tags.insert("lineup".to_string(), Value::from(lineup.clone()));
    tags.insert("shard".to_string(), Value::from(shard_tag.clone()));
    let players: Vec<SeatSpec> = lineup
        .iter()
        .map(|l| parse_spec(&spec_of(l).unwrap()))
        .collect::<Result<_, _>>()?;
    let recorded_key = previous.as_ref().and_then(|r| r.bot_seed.as_deref());
    super::bot_args::shard_needs_bot_seed(shard, a.table.bots.bot_seed.as_deref(), recorded_key, &players)
        .map_err(usage)?;
    let bot_key = super::bot_args::bot_key(a.table.bots.bot_seed.as_deref(), recorded_key, &players).map_err(usage)?;
    let run = RunSpec {
        game: c.spec.name.to_string(),
        options: c.options.clone(),
        players,
        // A bot's log is named after its --bot NAME.
        config: Config {
            log_names: lineup.clone(),
            bot_key,
            ..c.config
        },
        seed,
        tags,
        concurrency: a.table.concurrency,
        record_lines: a.run.record.is_some(),
        set_facts: true,
        // A resumed run completes the sets it had begun: their records are put together.
        keep_records: a.run.resume,
        set_value: None,
    };
    let Played { acc, already, played } = play_plan(
        &plan,
        move |_| all_jobs.clone(),
        &run,
        a.run.record.as_ref(),
        a.run.resume,
        a.table.quiet,
        "match",
    )?;
    let info = MatchInfo {
        game: c.spec.name.to_string(),
        id: fp.clone(),
        seed: Some(format_seed(seed)),
        lineup: lineup.clone(),
        shard: (!shard_tag.is_empty()).then(|| shard_tag.clone()),
    };
    let faults = report(&a.table, &info, &acc, |out| {
        let dup = if duplicate {
            format!("duplicate, {} seating(s) per deal", seatings.len())
        } else {
            "not duplicate".to_string()
        };
        let shard = if shard_tag.is_empty() {
            String::new()
        } else {
            format!(", shard {shard_tag}")
        };
        out.push(format!(
            "{}: {} deal(s), {} game(s) ({dup}{shard}), seed {seed}{}, lineup {}, match {fp}",
            c.spec.name,
            acc.sets,
            acc.games,
            super::bot_args::bot_seed_note(bot_key),
            lineup.join(",")
        ));
        if already > 0 {
            out.push(format!("({already} game(s) read from the record, {played} played now)"));
        }
    });
    finish(&a.table, faults)
}

/// Prints the result (table or JSON) and returns the number of faults.
pub(super) fn report(t: &TableArgs, info: &MatchInfo, acc: &Accumulator, header: impl FnOnce(&mut Vec<String>)) -> u64 {
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
pub(super) fn faults_note(t: &TableArgs, faults: u64) -> String {
    match io::logs_note(&t.log_dir) {
        Some(note) => format!("croupier: {faults} bot fault(s); {note}"),
        None => format!("croupier: {faults} bot fault(s)"),
    }
}

pub(super) fn finish(t: &TableArgs, faults: u64) -> Outcome {
    if faults > 0 {
        eprintln!("{}", faults_note(t, faults));
        if t.strict {
            return Err((exit::BOT_FAULT, format!("{faults} bot fault(s) under --strict")));
        }
    }
    Ok(exit::OK)
}

#[cfg(test)]
mod tests {
    use super::whole_lines;

    #[test]
    fn only_a_torn_last_line_is_dropped() {
        assert_eq!(whole_lines(""), 0);
        assert_eq!(whole_lines("{}\n{}\n"), 6);
        assert_eq!(whole_lines("{}\n{\"a\":"), 3);
        assert_eq!(
            whole_lines("{}\n{}"),
            5,
            "a complete last line without its newline is kept"
        );
        assert_eq!(whole_lines("{\"form"), 0);
    }
}
