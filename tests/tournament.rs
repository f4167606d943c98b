//! `croupier tournament` and `stats` of its records, through the binary.

mod common;
use common::{assert_usage_error, croupier, records};

use serde_json::Value;
use std::path::Path;
use std::time::{Duration, Instant};

fn json_of(args: &[&str]) -> Value {
    let out = croupier().args(args).arg("--json").assert().success();
    serde_json::from_slice(&out.get_output().stdout).unwrap()
}

/// The numbers of a tournament's result, without the timings (they differ from run to run).
fn numbers(mut v: Value) -> Value {
    for b in v["bots"].as_array_mut().unwrap() {
        let o = b.as_object_mut().unwrap();
        o.remove("ms_per_decision");
        o.remove("max_ms");
    }
    if let Some(o) = v.as_object_mut() {
        o.remove("shard");
    }
    v
}

fn f(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"))
}

fn bot<'a>(j: &'a Value, name: &str) -> &'a Value {
    j["bots"].as_array().unwrap().iter().find(|b| b["bot"] == name).unwrap()
}

fn stats(files: &[&Path]) -> Value {
    let out = croupier().arg("stats").arg("--json").args(files).assert().success();
    serde_json::from_slice(&out.get_output().stdout).unwrap()
}

#[test]
fn two_bots_agree_with_match_on_the_same_deals() {
    let dir = tempfile::tempdir().unwrap();
    let (m, t) = (dir.path().join("m.jsonl"), dir.path().join("t.jsonl"));
    let common = [
        "rikken", "--bot", "a=simple", "--bot", "b=random", "--games", "40", "--seed", "5", "-q",
    ];
    let mut args = vec!["match"];
    args.extend(common);
    args.extend(["--record", m.to_str().unwrap()]);
    let matched = json_of(&args);
    let mut args = vec!["tournament"];
    args.extend(common);
    args.extend(["--record", t.to_str().unwrap()]);
    let tour = json_of(&args);
    // a is the reference: b's rating is minus match's a − b, its interval mirrored.
    let pair = &matched["pairs"][0];
    assert_eq!((pair["a"].as_str(), pair["b"].as_str()), (Some("a"), Some("b")));
    let b = bot(&tour, "b");
    assert!((f(&b["rating"]) + f(&pair["mean"])).abs() < 1e-9, "{b} vs {pair}");
    assert!((f(&b["ci95"][0]) + f(&pair["ci95"][1])).abs() < 1e-9, "{b} vs {pair}");
    assert!((f(&b["ci95"][1]) + f(&pair["ci95"][0])).abs() < 1e-9, "{b} vs {pair}");
    assert_eq!(f(&bot(&tour, "a")["rating"]), 0.0);
    assert_eq!(tour["deals"], 40);
    assert_eq!(tour["games"], matched["games"]);
    assert!(f(&pair["mean"]) > 0.0, "simple beats random");
    // One table, seated as match seats it: the very same games.
    let scores = |p: &Path| {
        records(p)
            .iter()
            .map(|r| r["result"]["scores"].clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(scores(&m), scores(&t));
    // stats reads the tournament's records as a tournament, with the same numbers.
    assert_eq!(numbers(stats(&[&t])), numbers(tour.clone()));
    // The reference can be the other bot: the same difference, turned around.
    let other = stats_with(&["--reference", "b"], &t);
    assert!((f(&bot(&other, "a")["rating"]) - f(&pair["mean"])).abs() < 1e-9);
}

fn stats_with(extra: &[&str], file: &Path) -> Value {
    let out = croupier()
        .arg("stats")
        .arg("--json")
        .args(extra)
        .arg(file)
        .assert()
        .success();
    serde_json::from_slice(&out.get_output().stdout).unwrap()
}

const FOUR: [&str; 8] = [
    "--bot",
    "m0=mix:p=0.0",
    "--bot",
    "m33=mix:p=0.33",
    "--bot",
    "m67=mix:p=0.67",
    "--bot",
    "m100=mix:p=1.0",
];

#[test]
fn bots_of_known_strength_come_out_in_order() {
    // Schwimmen at tables of three: four tables, each bot at three of them.
    let mut args = vec![
        "tournament",
        "schwimmen",
        "--players",
        "3",
        "--games",
        "20",
        "--seed",
        "21",
        "-q",
    ];
    args.extend(FOUR);
    let j = json_of(&args);
    assert_eq!(j["tables"], 4);
    assert_eq!(j["deals"], 80);
    let r: Vec<f64> = ["m0", "m33", "m67", "m100"]
        .iter()
        .map(|b| f(&bot(&j, b)["rating"]))
        .collect();
    assert!(r.windows(2).all(|w| w[0] < w[1]), "ratings in order of p: {r:?}");
    // Neighbours are told apart: each interval above the one below.
    let lo = |b: &str| f(&bot(&j, b)["ci95"][0]);
    let hi = |b: &str| f(&bot(&j, b)["ci95"][1]);
    assert!(
        hi("m33") < lo("m67") && hi("m67") < lo("m100") && lo("m33") > 0.0,
        "{j}"
    );
    assert_eq!(bot(&j, "m100")["games"], 180, "three tables, 20 deals, three rotations");
    // Every pair is in the pairwise table, with its head-to-head result (3 of 4 tables
    // seat any two bots together: 40 deals).
    assert_eq!(j["pairs"].as_array().unwrap().len(), 6);
    assert_eq!(j["pairs"][0]["head_to_head"]["deals"], 40);
}

#[test]
fn a_gauntlet_seats_one_bot_at_every_table_and_the_others_are_compared_through_it() {
    let mut args = vec![
        "tournament",
        "schwimmen",
        "--players",
        "2",
        "--games",
        "15",
        "--seed",
        "2",
        "-q",
        "--gauntlet",
        "m33",
        "--reference",
        "m33",
    ];
    args.extend(FOUR);
    let j = json_of(&args);
    assert_eq!(j["tables"], 3);
    assert_eq!(j["reference"], "m33");
    assert_eq!(bot(&j, "m33")["games"], 90, "3 tables × 15 deals × 2 rotations");
    assert_eq!(bot(&j, "m0")["games"], 30);
    // m0 and m100 never sat together, yet they are compared (through m33).
    let pair = j["pairs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["a"] == "m0" && p["b"] == "m100")
        .unwrap();
    assert!(pair["head_to_head"].is_null());
    assert!(f(&pair["mean"]) < 0.0 && f(&pair["ci95"][1]) < 0.0, "{pair}");
    assert_eq!(f(&bot(&j, "m33")["rating"]), 0.0);
}

#[test]
fn shards_and_concurrency_merged_by_stats_equal_one_run() {
    let dir = tempfile::tempdir().unwrap();
    let base = |extra: &[&str]| {
        let mut v = vec![
            "tournament",
            "kul",
            "--players",
            "3",
            "--games",
            "12",
            "--seed",
            "9",
            "-q",
        ];
        v.extend(FOUR);
        v.extend(extra);
        v.iter().map(|s| s.to_string()).collect::<Vec<_>>()
    };
    let one = {
        let a = base(&[]);
        json_of(&a.iter().map(String::as_str).collect::<Vec<_>>())
    };
    let mut files = Vec::new();
    for k in 0..3 {
        let p = dir.path().join(format!("s{k}.jsonl"));
        let shard = format!("{k}/3");
        let a = base(&["--shard", &shard, "--concurrency", "2", "--record", p.to_str().unwrap()]);
        croupier().args(&a).assert().success();
        files.push(p);
    }
    let merged = stats(&files.iter().map(|p| p.as_path()).collect::<Vec<_>>());
    assert_eq!(numbers(merged), numbers(one.clone()));
    assert_eq!(one["tables"], 4);
    assert_eq!(one["games"], 4 * 12 * 3);
    // Text output: the same table, headed as a tournament.
    let text = croupier().arg("stats").args(&files).assert().success();
    let text = String::from_utf8_lossy(&text.get_output().stdout).to_string();
    assert!(
        text.contains("tournament of 4 bots (m0=mix:p=0.0, m33=mix:p=0.33, m67=mix:p=0.67, m100=mix:p=1.0), 4 table(s) of 3 (round robin), 48 deal(s)"),
        "{text}"
    );
    assert!(text.contains("(reference)") && text.contains("head to head"), "{text}");
}

#[test]
fn a_tournament_killed_with_sigkill_and_resumed_gives_the_uninterrupted_numbers() {
    let dir = tempfile::tempdir().unwrap();
    let (full, part) = (dir.path().join("full.jsonl"), dir.path().join("part.jsonl"));
    let args = |rec: &Path| -> Vec<String> {
        let mut v: Vec<String> = [
            "tournament",
            "kul",
            "--players",
            "2",
            "--bot",
            "a=croupier bot simple",
            "--bot",
            "b=croupier bot random",
            "--bot",
            "c=croupier bot mix:p=0.5",
            "--games",
            "40",
            "--seed",
            "4",
            "--bot-seed",
            "4",
            "--concurrency",
            "2",
            "--quiet",
            "--json",
            "--log-dir",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        v.push(dir.path().display().to_string());
        v.push("--record".into());
        v.push(rec.display().to_string());
        v
    };
    let exe = assert_cmd::cargo::cargo_bin("croupier");
    let out = std::process::Command::new(&exe).args(args(&full)).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let uninterrupted: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(uninterrupted["games"], 3 * 40 * 2);
    let mut child = std::process::Command::new(&exe)
        .args(args(&part))
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    loop {
        let lines = std::fs::read_to_string(&part).map(|t| t.lines().count()).unwrap_or(0);
        if lines >= 30 || start.elapsed() > Duration::from_secs(60) {
            break;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    let written = std::fs::read_to_string(&part).unwrap().lines().count();
    assert!((30..240).contains(&written), "killed midway: {written} lines");
    let mut a = args(&part);
    a.push("--resume".into());
    let out = std::process::Command::new(&exe).args(&a).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let resumed: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(numbers(resumed), numbers(uninterrupted));
    assert_eq!(std::fs::read_to_string(&part).unwrap().lines().count(), 240);
    croupier().arg("replay").arg(&part).assert().success();
    // Resuming with other bots is refused.
    let mut other = args(&part);
    other[9] = "c=croupier bot mix:p=0.6".into();
    other.push("--resume".into());
    let out = std::process::Command::new(&exe).args(&other).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("other arguments"));
}

#[test]
fn bad_tournaments_are_refused_with_the_reason() {
    assert_usage_error(
        &["tournament", "kul", "--bot", "simple", "--games", "2"],
        &["at least two bots"],
    );
    assert_usage_error(
        &[
            "tournament",
            "kul",
            "--bot",
            "simple",
            "--bot",
            "random",
            "--gauntlet",
            "x",
        ],
        &["--gauntlet x is not a --bot", "simple, random"],
    );
    assert_usage_error(
        &[
            "tournament",
            "kul",
            "--bot",
            "simple",
            "--bot",
            "random",
            "--reference",
            "y",
        ],
        &["--reference y is not a --bot"],
    );
    assert_usage_error(
        &["tournament", "kul", "--bot", "mix:p=2", "--bot", "random"],
        &["mix takes p=PROBABILITY", "p=2"],
    );
    assert_usage_error(
        &["tournament", "kul", "--bot", "m=mix:q=1", "--bot", "random"],
        &["mix takes p=PROBABILITY", "q=1"],
    );
    assert_usage_error(
        &[
            "tournament",
            "kul",
            "--bot",
            "simple",
            "--bot",
            "random",
            "--players",
            "11",
        ],
        &["2-10 players, not 11"],
    );
}

/// The bots and ratings of a tournament's result table as printed, top to bottom.
fn printed_ratings(text: &str) -> Vec<(String, String)> {
    text.lines()
        .skip_while(|l| !l.starts_with("bot "))
        .skip(1)
        .take_while(|l| !l.starts_with("rating: "))
        .map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            (w[0].to_string(), w[1].to_string())
        })
        .collect()
}

#[test]
fn the_progress_line_shows_the_standings_in_the_order_of_the_table() {
    // random first: the order of --bot is not the order by rating.
    let out = croupier()
        .args([
            "tournament",
            "kul",
            "--players",
            "2",
            "--bot",
            "r=random",
            "--bot",
            "s=simple",
        ])
        .args(["--bot", "h=mix:p=0.5", "--deals", "12", "--seed", "5"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let (text, err) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    let table = printed_ratings(&text);
    assert_eq!(table.len(), 3, "{text}");
    assert_ne!(table[0].0, "r", "random is not first in the table: {text}");
    // stderr is no terminal: a plain progress line, the last one when every game is played
    // (3 tables of 12 deals, two seatings each), with every bot as the table has it.
    let last = err.lines().rfind(|l| !l.trim().is_empty()).unwrap_or_default();
    assert!(last.starts_with("72/72 games"), "{err}");
    let each: Vec<String> = table.iter().map(|(bot, rating)| format!("{bot} {rating}")).collect();
    let want = format!("standings: {}", each.join(", "));
    assert!(
        last.ends_with(&want),
        "progress {last:?}, not ending in {want:?}\n{text}"
    );
}

#[test]
fn stats_heads_a_tournament_with_its_tables_and_bot_seed_as_tournament_does() {
    let dir = tempfile::tempdir().unwrap();
    for (extra, kind, tables) in [
        (vec![], "round robin", 3),
        (vec!["--gauntlet", "b"], "gauntlet of b", 2),
    ] {
        let file = dir.path().join(format!("t{tables}.jsonl"));
        let out = croupier()
            .args([
                "tournament",
                "kul",
                "--players",
                "2",
                "--bot",
                "a=simple",
                "--bot",
                "b=random",
            ])
            .args([
                "--bot",
                "c=random",
                "--deals",
                "4",
                "--seed",
                "5",
                "--bot-seed",
                "77",
                "-q",
            ])
            .args(&extra)
            .arg("--record")
            .arg(&file)
            .assert()
            .success();
        let text = String::from_utf8_lossy(&out.get_output().stdout).to_string();
        let head = text.lines().next().unwrap();
        let start = "kul: tournament of 3 bots";
        assert!(head.starts_with(start), "{head}");
        // ", 3 table(s) of 2 (round robin), 12 deal(s), …, bot seed 77, tournament …"
        let tail = &head[start.len()..];
        assert!(
            tail.starts_with(&format!(", {tables} table(s) of 2 ({kind}), {} deal(s)", 4 * tables))
                && tail.contains(", bot seed 77, tournament "),
            "{head}"
        );
        let out = croupier().arg("stats").arg(&file).assert().success();
        let stats = String::from_utf8_lossy(&out.get_output().stdout).to_string();
        let heading = stats.lines().next().unwrap();
        let bots = "tournament of 3 bots (a=simple, b=random, c=random)";
        assert!(heading.starts_with("kul (2 players, "), "{heading}");
        assert!(
            heading.ends_with(&format!(", {bots}{tail}")),
            "stats: {heading}\ntournament: {head}"
        );
        assert!(!heading.contains("match"), "{heading}");
    }
}

#[test]
fn the_pairs_follow_the_table_each_the_bot_above_minus_the_one_below() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("t.jsonl");
    // random first: the order of --bot is not the order by rating.
    let out = croupier()
        .args([
            "tournament",
            "kul",
            "--players",
            "2",
            "--bot",
            "r=random",
            "--bot",
            "s=simple",
        ])
        .args(["--bot", "h=mix:p=0.5", "--deals", "12", "--seed", "5", "-q", "--record"])
        .arg(&file)
        .assert()
        .success();
    let text = String::from_utf8_lossy(&out.get_output().stdout).to_string();
    let table: Vec<String> = printed_ratings(&text).into_iter().map(|r| r.0).collect();
    assert_ne!(table[0], "r", "{text}");
    let j = stats(&[&file]);
    let fmt = |m: f64, lo: f64, hi: f64| format!("{m:+.2} [{lo:+.2}, {hi:+.2}]");
    let mut want = Vec::new();
    for (i, a) in table.iter().enumerate() {
        for b in &table[i + 1..] {
            // stats --json keeps the order of --bot: the pair either way round.
            let p = j["pairs"]
                .as_array()
                .unwrap()
                .iter()
                .find(|p| (p["a"] == *a && p["b"] == *b) || (p["a"] == *b && p["b"] == *a))
                .unwrap();
            let sign = if p["a"] == *a { 1.0 } else { -1.0 };
            let turned = |v: &Value| {
                let (m, lo, hi) = (f(&v["mean"]), f(&v["ci95"][0]), f(&v["ci95"][1]));
                if sign > 0.0 {
                    fmt(m, lo, hi)
                } else {
                    fmt(-m, -hi, -lo)
                }
            };
            let h = &p["head_to_head"];
            want.push(format!(
                "  {a} − {b}: {}  (head to head {} over {} deal(s))",
                turned(p),
                turned(h),
                h["deals"]
            ));
        }
    }
    let printed: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("  ") && l.contains(" − "))
        .collect();
    assert_eq!(printed, want, "{text}");
}
