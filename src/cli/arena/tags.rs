//! The tags a run writes into its records and reads back: a tag as text, the `args` tag (the
//! arguments of the run's fingerprint that a record holds nowhere else), and what a resume with
//! other arguments is told changed.

use crate::arena;
use crate::chance::format_seed;
use crate::record::GameRecord;
use crate::referee::SeatSpec;
use serde_json::{json, Value};
use std::collections::BTreeMap;

/// Tag `k` of a record as text: a string as it is, another value as JSON, empty when the
/// record has no such tag.
pub(crate) fn tag_str(rec: &GameRecord, k: &str) -> String {
    match rec.tags.get(k) {
        Some(Value::String(s)) => s.clone(),
        Some(v) => v.to_string(),
        None => String::new(),
    }
}

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
fn args_tag(canonical: &Value) -> Value {
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
pub(crate) fn changed_arguments(r: &GameRecord, now: &Value, shard: &str) -> Vec<String> {
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

/// The tags every record of a run carries: its fingerprint (`match`), its seed, its `args`
/// and its shard (`K/N`; empty for a whole run).
pub(crate) fn run_tags(fp: &str, seed: u64, canonical: &Value, shard_tag: &str) -> BTreeMap<String, Value> {
    let mut tags = BTreeMap::new();
    tags.insert("match".to_string(), Value::from(fp));
    tags.insert("match_seed".to_string(), Value::from(format_seed(seed)));
    tags.insert("args".to_string(), args_tag(canonical));
    tags.insert("shard".to_string(), Value::from(shard_tag));
    tags
}
