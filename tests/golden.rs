//! The golden corpus: for fixed seeds, every deal, action, score and protocol line croupier
//! produces, in every game, for several player counts and option sets, with random and simple
//! seats. Refactors of the inside (a typed core, batching, streaming) must not change any of it.
//!
//! `tests/golden/` holds, per case, the records of in-process games (`<case>.jsonl`, without the
//! fields that vary from run to run: decision times, durations, the croupier version) and, for
//! process cases, the exact lines each seat received (`<case>.seat<k>.txt`). After an intended
//! change of what users see, regenerate them with `CROUPIER_BLESS=1 cargo test --test golden`
//! and review the diff.

mod common;
use common::croupier;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// One golden case: a `croupier play` run.
struct Case {
    name: &'static str,
    game: &'static str,
    players: usize,
    rules: &'static [&'static str],
    /// Built-in seats (in process), cycled over the seats; empty for a process case.
    builtin: &'static [&'static str],
    seed: u64,
    games: usize,
}

const CASES: &[Case] = &[
    // In-process seats: records only.
    case("rikken-random", "rikken", 4, &[], &["random"], 1, 12),
    case("rikken-simple", "rikken", 4, &[], &["simple", "random"], 2, 12),
    case(
        "rikken-variants",
        "rikken",
        4,
        &[
            "all_pass=schoppen_mieen",
            "malheur_mode=optional",
            "fail_mode=mirrored_undertricks",
            "allow_join_piek_open=true",
            "open_declarer_leads=false",
            "hide_quitted_tricks=true",
        ],
        &["simple", "random", "random", "simple"],
        3,
        12,
    ),
    case(
        "rikken-op-voorhand",
        "rikken",
        4,
        &["special=op_voorhand"],
        &["simple", "random"],
        4,
        6,
    ),
    case(
        "rikken-piek-totaal",
        "rikken",
        4,
        &["special=open_piek_totaal"],
        &["random"],
        5,
        4,
    ),
    case("zwikken-3", "zwikken", 3, &["deals=6"], &["simple", "random"], 6, 3),
    case(
        "zwikken-6-classic",
        "zwikken",
        6,
        &[
            "deals=6",
            "follow_rule=classic",
            "exchange_targets=suit_matched",
            "bankroll=30",
        ],
        &["simple", "simple", "random"],
        7,
        2,
    ),
    case(
        "svangknack-3",
        "svangknack",
        3,
        &["rounds=6"],
        &["simple", "random"],
        8,
        2,
    ),
    case(
        "svangknack-8-36",
        "svangknack",
        8,
        &[
            "rounds=4",
            "deck=36",
            "last_man=true",
            "forced_participation=every_new_pot",
            "literal_C=true",
        ],
        &["simple", "random"],
        9,
        2,
    ),
    case("kul-2", "kul", 2, &[], &["simple", "random"], 10, 3),
    case(
        "kul-5",
        "kul",
        5,
        &["marks_to_win=2", "redeal_request=true"],
        &["random", "simple"],
        11,
        3,
    ),
    case("skwitz-2", "skwitz", 2, &["games=2"], &["simple", "random"], 12, 2),
    case(
        "skwitz-4-teams",
        "skwitz",
        4,
        &[
            "games=2",
            "teams=true",
            "trail_rule=free",
            "leftover_to_last_captor=true",
        ],
        &["simple", "random"],
        13,
        2,
    ),
    case("schwimmen-2", "schwimmen", 2, &[], &["simple", "random"], 14, 3),
    case(
        "schwimmen-5-32",
        "schwimmen",
        5,
        &[
            "deck=32",
            "allow_pass=true",
            "knocker_double=true",
            "same_round_rank=by_hand_value",
        ],
        &["random", "simple"],
        15,
        3,
    ),
    // Process seats: the lines every seat received (seat 0 is the bundled Python bot, which asks
    // for the JSON view; the others are `croupier bot simple` / `random` processes).
    case("rikken-lines", "rikken", 4, &[], &[], 21, 2),
    case("zwikken-lines", "zwikken", 4, &["deals=4"], &[], 22, 1),
    case("svangknack-lines", "svangknack", 4, &["rounds=4"], &[], 23, 1),
    case("kul-lines", "kul", 3, &["games=2"], &[], 24, 1),
    case("skwitz-lines", "skwitz", 3, &["games=1"], &[], 25, 1),
    case("schwimmen-lines", "schwimmen", 3, &[], &[], 26, 1),
];

const fn case(
    name: &'static str,
    game: &'static str,
    players: usize,
    rules: &'static [&'static str],
    builtin: &'static [&'static str],
    seed: u64,
    games: usize,
) -> Case {
    Case {
        name,
        game,
        players,
        rules,
        builtin,
        seed,
        games,
    }
}

fn golden_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden")
}

fn blessing() -> bool {
    std::env::var_os("CROUPIER_BLESS").is_some()
}

/// A record without what varies between runs of the same seed.
fn normalized(mut rec: Value) -> Value {
    let o = rec.as_object_mut().unwrap();
    o.remove("duration_ms");
    o.remove("croupier");
    for a in o.get_mut("actions").and_then(Value::as_array_mut).into_iter().flatten() {
        a.as_object_mut().unwrap().remove("ms");
    }
    for s in o.get_mut("seats").and_then(Value::as_array_mut).into_iter().flatten() {
        s.as_object_mut().unwrap().remove("think_ms");
    }
    rec
}

fn run(c: &Case, dir: &Path) -> (Vec<String>, Vec<String>) {
    let exe = env!("CARGO_BIN_EXE_croupier");
    let rec = dir.join("r.jsonl");
    let mut cmd = croupier();
    cmd.args(["play", c.game, "--quiet", "--strict"])
        .args(["--players", &c.players.to_string()])
        .args(["--seed", &c.seed.to_string(), "--games", &c.games.to_string()])
        .arg("--record")
        .arg(&rec)
        .arg("--log-dir")
        .arg(dir.join("logs"));
    for r in c.rules {
        cmd.args(["--rule", r]);
    }
    let python = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("bots/python/croupier_bot.py");
    for s in 0..c.players {
        let seat = if c.builtin.is_empty() {
            let tee = dir.join(format!("seat{s}.txt"));
            let bot = match s {
                0 => format!("python3 {}", python.display()),
                s if s % 2 == 1 => format!("{exe} bot simple"),
                _ => format!("{exe} bot random --seed {s}"),
            };
            format!("sh -c 'tee {} | {bot}'", tee.display())
        } else {
            c.builtin[s % c.builtin.len()].to_string()
        };
        cmd.args(["--seat", &seat]);
    }
    if c.builtin.is_empty() {
        // Process bots' rngseeds come from a bot seed drawn apart from --seed (protocol.md §13):
        // fix it so that the lines are the same in every run.
        cmd.args(["--bot-seed", "1"]);
    }
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "{}: {}",
        c.name,
        String::from_utf8_lossy(&out.stderr)
    );
    let records: Vec<String> = std::fs::read_to_string(&rec)
        .unwrap()
        .lines()
        .map(|l| normalized(serde_json::from_str(l).unwrap()).to_string())
        .collect();
    let seats = if c.builtin.is_empty() {
        (0..c.players)
            .map(|s| std::fs::read_to_string(dir.join(format!("seat{s}.txt"))).unwrap())
            .collect()
    } else {
        Vec::new()
    };
    (records, seats)
}

/// Compares `got` with the golden file (or writes it when blessing); names the first line that
/// differs.
fn check(file: &Path, got: &str) {
    if blessing() {
        std::fs::write(file, got).unwrap();
        return;
    }
    let want = std::fs::read_to_string(file).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (run CROUPIER_BLESS=1 cargo test --test golden)",
            file.display()
        )
    });
    if want != got {
        let (w, g): (Vec<&str>, Vec<&str>) = (want.lines().collect(), got.lines().collect());
        let k = w
            .iter()
            .zip(&g)
            .position(|(a, b)| a != b)
            .unwrap_or(w.len().min(g.len()));
        panic!(
            "{}: line {} differs from the golden corpus\n  golden: {}\n  now:    {}",
            file.display(),
            k + 1,
            w.get(k).unwrap_or(&"(end of file)"),
            g.get(k).unwrap_or(&"(end of file)")
        );
    }
}

#[test]
fn every_case_gives_the_golden_records_and_lines() {
    std::fs::create_dir_all(golden_dir()).unwrap();
    for c in CASES {
        let dir = tempfile::tempdir().unwrap();
        let (records, seats) = run(c, dir.path());
        assert_eq!(records.len(), c.games, "{}", c.name);
        if c.builtin.is_empty() {
            // Process seats: what every seat received, line by line.
            for (s, lines) in seats.iter().enumerate() {
                assert!(lines.starts_with("1 hello 1\n"), "{}: seat {s}", c.name);
                check(&golden_dir().join(format!("{}.seat{s}.txt", c.name)), lines);
            }
        } else {
            check(
                &golden_dir().join(format!("{}.jsonl", c.name)),
                &(records.join("\n") + "\n"),
            );
        }
    }
}

#[test]
fn the_corpus_holds_no_stale_files() {
    if blessing() {
        return;
    }
    let mut expected: Vec<String> = Vec::new();
    for c in CASES {
        if c.builtin.is_empty() {
            expected.extend((0..c.players).map(|s| format!("{}.seat{s}.txt", c.name)));
        } else {
            expected.push(format!("{}.jsonl", c.name));
        }
    }
    for e in std::fs::read_dir(golden_dir()).unwrap() {
        let name = e.unwrap().file_name().to_string_lossy().into_owned();
        assert!(expected.contains(&name), "tests/golden/{name} belongs to no case");
    }
}
