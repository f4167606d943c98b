//! Every Rikken fixture played through the binary: `--deal` reads the fixture file directly,
//! and four scripted bot processes (tests/support/fixture_bot.py) play the book's moves. Under
//! `--strict` any refused move is a failure; the recorded scores must equal `spec_score`.

use assert_cmd::Command;
use serde_json::Value;
use std::path::PathBuf;

#[test]
fn every_fixture_through_the_referee_with_scripted_bot_processes() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let dir = root.join("tests/fixtures/rikken");
    let bot = root.join("tests/support/fixture_bot.py");
    let tmp = tempfile::tempdir().unwrap();
    let mut paths: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    paths.sort();
    let mut n = 0;
    for path in paths.iter().filter(|p| p.extension().is_some_and(|e| e == "json")) {
        let mut f: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        let id = f["id"].as_str().unwrap().to_string();
        if f["dealer"].is_null() {
            // No dealer in the book: the declarer's right-hand neighbour deals (fixtures README).
            let d = "NESW".find(f["contract"]["declarer"].as_str().unwrap()).unwrap();
            f["dealer"] = Value::String("NESW"[(d + 3) % 4..(d + 3) % 4 + 1].to_string());
        }
        let fixture = tmp.path().join(format!("{id}.json"));
        std::fs::write(&fixture, f.to_string()).unwrap();
        let rec = tmp.path().join(format!("{id}.jsonl"));
        let mut cmd = Command::cargo_bin("croupier").unwrap();
        cmd.args(["play", "rikken", "--strict", "--quiet", "--deal"])
            .arg(&fixture)
            .arg("--record")
            .arg(&rec);
        cmd.arg("--log-dir").arg(tmp.path().join("logs"));
        for s in ["N", "E", "S", "W"] {
            cmd.arg("--seat")
                .arg(format!("python3 {} {} {s}", bot.display(), fixture.display()));
        }
        let out = cmd.output().unwrap();
        assert!(
            out.status.success(),
            "{id}: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        let r: Value = serde_json::from_str(std::fs::read_to_string(&rec).unwrap().lines().next().unwrap()).unwrap();
        let want: Vec<Value> = ["N", "E", "S", "W"]
            .iter()
            .map(|s| f["spec_score"][s].clone())
            .collect();
        let got: Vec<f64> = r["result"]["scores"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_f64().unwrap())
            .collect();
        let want: Vec<f64> = want.iter().map(|x| x.as_f64().unwrap()).collect();
        assert_eq!(got, want, "{id}");
        assert_eq!(r["deal_source"], "file");
        assert_eq!(r["faults"].as_array().unwrap().len(), 0, "{id}");
        n += 1;
    }
    assert_eq!(n, 23);
}
