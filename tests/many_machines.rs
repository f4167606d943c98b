//! The README's recipe for many machines, run for real: a match sharded with GNU parallel and
//! merged by `stats` gives what one unsharded run gives. Skipped, with a message, without GNU
//! parallel (`.ci/run` installs it).

mod common;

use std::path::Path;
use std::process::Command;

fn have_gnu_parallel() -> bool {
    Command::new("parallel")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success() && String::from_utf8_lossy(&o.stdout).contains("GNU parallel"))
}

fn stats_json(dir: &Path, files: &[&str]) -> serde_json::Value {
    let out = common::croupier()
        .current_dir(dir)
        .arg("stats")
        .arg("--json")
        .args(files)
        .output()
        .unwrap();
    assert!(out.status.success(), "stats: {}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    let mut objs: Vec<serde_json::Value> = text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(objs.len(), 1, "one group expected: {text}");
    let mut obj = objs.remove(0);
    // Times differ from run to run; everything else must not.
    for b in obj["bots"].as_array_mut().unwrap() {
        let b = b.as_object_mut().unwrap();
        b.remove("ms_per_decision");
        b.remove("max_ms");
    }
    obj
}

#[test]
fn gnu_parallel_shards_merge_to_one_run() {
    if !have_gnu_parallel() {
        eprintln!("SKIPPED: GNU parallel is not installed (apt-get install parallel); .ci/run installs it");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let exe = assert_cmd::cargo::cargo_bin("croupier");
    let path = format!(
        "{}:{}",
        exe.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    // The README's recipe, scaled down: 4 shards on 2 jobs, with bot processes that draw
    // random numbers (`croupier bot random`), so the shards agree with one run only through
    // the one bot seed the recipe exports.
    // (Scripts, as the README's ./new and ./old: GNU parallel splits a command's words again.)
    for (name, bot) in [("new", "random"), ("old", "simple")] {
        let script = dir.path().join(name);
        std::fs::write(&script, format!("#!/bin/sh\nexec croupier bot {bot}\n")).unwrap();
        std::fs::set_permissions(&script, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    }
    let bots = "--bot new=./new --bot old=./old";
    let lone = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "croupier match kul {bots} --games 24 --seed 42 --quiet --shard 0/4"
        ))
        .current_dir(dir.path())
        .env("PATH", &path)
        .env_remove("CROUPIER_BOT_SEED")
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&lone.stderr);
    assert_eq!(
        lone.status.code(),
        Some(2),
        "a shard without a bot seed is refused: {said}"
    );
    assert!(
        said.contains("--bot-seed") && said.contains("the same for every shard"),
        "{said}"
    );
    let recipe = format!(
        "export CROUPIER_BOT_SEED=$(od -An -N8 -tu8 /dev/urandom | tr -d ' ')\n\
         parallel -j 2 croupier match kul {bots} --games 24 --seed 42 \\\n\
             --quiet --shard {{}}/4 --record shard-{{}}.jsonl ::: 0 1 2 3\n\
         croupier match kul {bots} --games 24 --seed 42 --quiet --record one.jsonl\n"
    );
    let out = Command::new("sh")
        .arg("-c")
        .arg(&recipe)
        .current_dir(dir.path())
        .env("PATH", &path)
        .env_remove("CROUPIER_BOT_SEED")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{recipe}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let shards: Vec<String> = (0..4).map(|k| format!("shard-{k}.jsonl")).collect();
    // Every shard played its share, and no deal twice.
    let mut seeds = std::collections::BTreeSet::new();
    let mut games = 0;
    for s in &shards {
        let recs = common::records(&dir.path().join(s));
        assert!(!recs.is_empty(), "{s} is empty");
        for r in recs {
            games += 1;
            seeds.insert((
                r["seed"].as_str().unwrap().to_string(),
                r["seats"][0]["player"].as_u64().unwrap(),
            ));
        }
    }
    assert_eq!(seeds.len(), games, "a game was played in two shards");
    let merged = stats_json(dir.path(), &shards.iter().map(String::as_str).collect::<Vec<_>>());
    let single = stats_json(dir.path(), &["one.jsonl"]);
    assert_eq!(merged["games"], single["games"]);
    assert_eq!(merged["bots"], single["bots"], "merged shards differ from one run");
    assert!(single["pairs"].as_array().is_some_and(|p| p.len() == 1), "{single}");
    assert_eq!(merged["pairs"], single["pairs"]);
    assert_eq!(merged["deals"], 24);
    // Shards of one match played with two bot seeds are merged, loudly.
    let other = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "croupier match kul {bots} --games 24 --seed 42 --quiet --shard 1/4 --bot-seed 7 --record other.jsonl"
        ))
        .current_dir(dir.path())
        .env("PATH", &path)
        .output()
        .unwrap();
    assert!(other.status.success(), "{}", String::from_utf8_lossy(&other.stderr));
    let out = common::croupier()
        .current_dir(dir.path())
        .args(["stats", "shard-0.jsonl", "other.jsonl"])
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains("WARNING") && said.contains("2 different bot seeds"),
        "{said}"
    );
}
