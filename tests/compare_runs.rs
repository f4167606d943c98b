//! `compare --resume` and `compare --shard`: an interrupted gate run goes on where it stopped,
//! and shards merged by `stats` reach the verdict of one run, at the same deal.

mod common;

use common::croupier;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;

const ARGS: [&str; 9] = [
    "compare",
    "rikken",
    "--candidate",
    "mix:p=0.9",
    "--baseline",
    "simple",
    "--seed",
    "13",
    "--quiet",
];

fn compare(extra: &[&str], record: &Path) -> Value {
    let out = croupier()
        .args(ARGS)
        .args(["--json", "--record"])
        .arg(record)
        .args(extra)
        .output()
        .unwrap();
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// The records of a file without what differs from run to run (times), by deal.
fn games(path: &Path) -> BTreeMap<u64, Vec<String>> {
    let mut out: BTreeMap<u64, Vec<String>> = BTreeMap::new();
    for mut r in common::records(path) {
        let r = r.as_object_mut().unwrap();
        r.remove("seats");
        r.remove("duration_ms");
        for a in r["actions"].as_array_mut().unwrap() {
            a.as_object_mut().unwrap().remove("ms");
        }
        let deal = r["tags"]["set"].as_u64().unwrap();
        out.entry(deal).or_default().push(serde_json::to_string(r).unwrap());
    }
    for games in out.values_mut() {
        games.sort();
    }
    out
}

#[test]
fn a_resumed_compare_run_ends_as_the_whole_run() {
    let dir = tempfile::tempdir().unwrap();
    let whole = dir.path().join("whole.jsonl");
    let cut = dir.path().join("cut.jsonl");
    // Eight tables on two cores: deals finish out of turn.
    let one = compare(&["--concurrency", "8"], &whole);
    assert_eq!(one["result"], "fail", "{one}");
    // Cut after 152 records (a deal of 5 games half written) and a torn line, as a killed run
    // leaves its record.
    let text = std::fs::read_to_string(&whole).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines.len() > 200, "{}", lines.len());
    let mut part = lines[..152].join("\n");
    part.push('\n');
    part.push_str(&lines[152][..100]);
    std::fs::write(&cut, part).unwrap();
    let resumed = compare(&["--resume", "--concurrency", "2"], &cut);
    for k in ["result", "deals", "mean", "evidence", "ci95"] {
        assert_eq!(resumed[k], one[k], "{k}: {resumed} against {one}");
    }
    assert_eq!(resumed["read"], 152);
    // Each record holds the deals the test took and no other, each game once, whichever
    // table was faster: a deal that a table finished before the deciding one is not written.
    let decided = one["deals"].as_u64().unwrap();
    let held = games(&whole);
    assert_eq!(
        held.keys().copied().collect::<Vec<_>>(),
        (0..decided).collect::<Vec<_>>()
    );
    assert!(held.values().all(|g| g.len() == 5), "five games a deal, each once");
    assert_eq!(games(&cut), held, "the same games");
    // Resuming a finished run plays nothing and says the same.
    let again = compare(&["--resume"], &cut);
    assert_eq!(again["games"], 0);
    assert_eq!(again["result"], one["result"]);
    // Another run's record is refused, naming the line.
    let out = croupier()
        .args(ARGS)
        .args([
            "--sprt",
            "-2,0",
            "--players",
            "4",
            "--field",
            "random",
            "--resume",
            "--record",
        ])
        .arg(&cut)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains("line 1 was written by a run with other arguments"),
        "{said}"
    );
}

#[test]
fn shards_merged_by_stats_decide_at_the_deal_one_run_decides() {
    let dir = tempfile::tempdir().unwrap();
    let one = compare(&[], &dir.path().join("one.jsonl"));
    let decided = one["deals"].as_u64().unwrap();
    let mut files = Vec::new();
    for k in 0..3 {
        let f = dir.path().join(format!("shard-{k}.jsonl"));
        let shard = format!("{k}/3");
        let part = compare(&["--shard", &shard, "--games", "200"], &f);
        assert_eq!(part["result"], "shard", "a shard gives no verdict: {part}");
        files.push(f);
    }
    let out = croupier().arg("stats").arg("--json").args(&files).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let merged: Value = serde_json::from_slice(&out.stdout).unwrap();
    let test = &merged["test"];
    assert_eq!(test["result"], one["result"], "{merged}");
    assert_eq!(test["deal"], decided, "{merged}");
    assert_eq!(test["evidence"], one["evidence"], "{merged}");
    let text = croupier().arg("stats").args(&files).output().unwrap();
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(text.contains(&format!("fail at deal {decided}")), "{text}");
}
