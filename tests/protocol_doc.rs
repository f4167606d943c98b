//! protocol.md is the contract with bot authors: its 15-line example bot must play every game
//! without a single fault.

mod common;
use common::{croupier, records};

#[test]
fn the_example_bot_of_protocol_md_plays_every_game() {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/protocol.md")).unwrap();
    let start = doc.find("```python\n").expect("a python example") + "```python\n".len();
    let code = &doc[start..start + doc[start..].find("```").unwrap()];
    let dir = tempfile::tempdir().unwrap();
    let bot = dir.path().join("firstbot.py");
    std::fs::write(&bot, code).unwrap();
    for g in croupier::games::all() {
        let rec = dir.path().join(format!("{}.jsonl", g.name));
        let mut cmd = croupier();
        cmd.args([
            "play", g.name, "--games", "1", "--seed", "5", "--strict", "--quiet", "--record",
        ])
        .arg(&rec)
        .arg("--log-dir")
        .arg(dir.path());
        cmd.args(["--players", &g.min_players.max(2).to_string()]);
        cmd.arg("--seat").arg(format!("python3 {}", bot.display()));
        for _ in 1..g.min_players.max(2) {
            cmd.args(["--seat", "simple"]);
        }
        cmd.assert().success();
        let r = &records(&rec)[0];
        assert_eq!(r["seats"][0]["name"], "firstbot", "{}", g.name);
        assert_eq!(r["faults"].as_array().unwrap().len(), 0, "{}: {}", g.name, r["faults"]);
    }
}
