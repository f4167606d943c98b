//! `croupier ask` and `croupier regress`: recorded positions put to a bot.

mod common;

use common::{assert_usage_error, croupier};
use std::path::Path;

fn record(dir: &Path, game: &str, seats: &[&str], seed: &str) -> std::path::PathBuf {
    let path = dir.join(format!("{game}.jsonl"));
    let mut cmd = croupier();
    cmd.args(["play", game, "--games", "1", "--seed", seed, "--record"])
        .arg(&path);
    for s in seats {
        cmd.args(["--seat", s]);
    }
    cmd.assert().success();
    path
}

fn ask_json(path: &Path, action: usize, bot: &str) -> serde_json::Value {
    let out = croupier()
        .arg("ask")
        .arg(path)
        .args(["--action", &action.to_string(), "--bot", bot, "--json"])
        .output()
        .unwrap();
    assert!(
        out.status.code().is_some_and(|c| c <= 1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// `simple` decides from what its seat saw alone: put back at any recorded decision of its own,
/// told only what the seat saw up to there, it gives the recorded answer. In every game.
#[test]
fn simple_gives_its_recorded_answer_at_every_position_of_every_game() {
    let dir = tempfile::tempdir().unwrap();
    for (game, n) in [
        ("rikken", 4),
        ("zwikken", 4),
        ("svangknack", 4),
        ("kul", 3),
        ("skwitz", 3),
        ("schwimmen", 4),
    ] {
        let seats = vec!["simple"; n];
        let path = record(dir.path(), game, &seats, "21");
        let rec = &common::records(&path)[0];
        let actions = rec["actions"].as_array().unwrap();
        // Spread over the game: the first, some in the middle, the last.
        let mut picks: Vec<usize> = (1..=actions.len()).step_by((actions.len() / 6).max(1)).collect();
        picks.push(actions.len());
        for k in picks {
            let j = ask_json(&path, k, "simple");
            assert_eq!(j["answer"], actions[k - 1]["action"], "{game} action {k}: {j}");
            assert_eq!(j["seat"], actions[k - 1]["seat"], "{game} action {k}");
            assert_eq!(j["is_legal"], true);
        }
    }
}

/// The same through the protocol: `croupier bot simple` as a process, caught up by lines.
#[test]
fn a_process_bot_is_told_the_position_through_the_protocol() {
    let dir = tempfile::tempdir().unwrap();
    let path = record(dir.path(), "rikken", &["simple"; 4], "5");
    let rec = &common::records(&path)[0];
    let actions = rec["actions"].as_array().unwrap();
    for k in [1, actions.len() / 2, actions.len() - 3] {
        let j = ask_json(&path, k, "croupier bot simple");
        assert_eq!(j["answer"], actions[k - 1]["action"], "action {k}: {j}");
    }
    // Text for people: the position, the record's answer and the bot's.
    let out = croupier()
        .arg("ask")
        .arg(&path)
        .args(["--action", "3", "--bot", "croupier bot simple"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    for needle in ["action 3: seat", "hand:", "legal:", "recorded:", "answers:"] {
        assert!(text.contains(needle), "'{needle}' not in:\n{text}");
    }
}

#[test]
fn a_bot_that_answers_nonsense_or_nothing_fails_the_position() {
    let dir = tempfile::tempdir().unwrap();
    let path = record(dir.path(), "kul", &["simple"; 3], "8");
    let liar = dir.path().join("liar.sh");
    std::fs::write(
        &liar,
        "while read -r id cmd rest; do case \"$cmd\" in hello) echo \"=$id liar 1\";; act) echo \"=$id XX\";; quit) exit 0;; esac; done\n",
    )
    .unwrap();
    let j = ask_json(&path, 2, &format!("bash {}", liar.display()));
    assert_eq!(j["answer"], "XX");
    assert_eq!(j["is_legal"], false);
    let out = croupier()
        .arg("ask")
        .arg(&path)
        .args(["--action", "2", "--bot", &format!("bash {}", liar.display())])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).contains("not legal"));
    let out = croupier()
        .arg("ask")
        .arg(&path)
        .args([
            "--action",
            "2",
            "--move-time",
            "200ms",
            "--bot",
            "sh -c 'read l; echo =1 sleeper 1; sleep 5'",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("timeout"),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

#[test]
fn ask_names_what_is_wrong_with_its_input() {
    let dir = tempfile::tempdir().unwrap();
    let path = record(dir.path(), "kul", &["simple"; 3], "8");
    let p = path.to_str().unwrap();
    assert_usage_error(
        &["ask", p, "--action", "100000", "--bot", "simple"],
        &["no action 100000"],
    );
    assert_usage_error(
        &["ask", p, "--index", "2", "--action", "1", "--bot", "simple"],
        &["1 game(s)", "no game 2"],
    );
    assert_usage_error(
        &["ask", p, "--action", "1", "--bot", "nosuchbot"],
        &["cannot start bot 'nosuchbot'"],
    );
    assert_usage_error(&["ask", p, "--action", "0", "--bot", "simple"], &["--action"]);
}

#[test]
fn regress_runs_a_suite_and_fails_on_any_failed_position() {
    let dir = tempfile::tempdir().unwrap();
    let path = record(dir.path(), "zwikken", &["simple"; 4], "3");
    let rec = &common::records(&path)[0];
    let actions = rec["actions"].as_array().unwrap();
    let a5 = actions[4]["action"].as_str().unwrap();
    let suite = dir.path().join("suite.txt");
    std::fs::write(
        &suite,
        format!("# positions\nzwikken.jsonl 1 5 expect {a5}   # the record's own answer\n\nzwikken.jsonl 1 9 expect recorded\nzwikken.jsonl 1 12 forbid XX,YY\n"),
    )
    .unwrap();
    let out = croupier()
        .arg("regress")
        .arg(&suite)
        .args(["--bot", "simple"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(text.contains("3 position(s): 3 passed, 0 failed"), "{text}");
    assert!(text.contains("# the record's own answer"), "{text}");
    // Forbid what simple plays: one failure, exit 1, the line named.
    std::fs::write(
        &suite,
        format!("zwikken.jsonl 1 5 forbid {a5}\nzwikken.jsonl 1 9 expect recorded\n"),
    )
    .unwrap();
    let out = croupier()
        .arg("regress")
        .arg(&suite)
        .args(["--bot", "simple"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("FAIL line 1:") && text.contains("forbidden"), "{text}");
    assert!(text.contains("ok   line 2:"), "{text}");
    assert!(text.contains("2 position(s): 1 passed, 1 failed"), "{text}");
}

#[test]
fn a_bad_suite_is_a_usage_error_naming_file_line_and_value() {
    let dir = tempfile::tempdir().unwrap();
    record(dir.path(), "kul", &["simple"; 3], "8");
    let suite = dir.path().join("bad.txt");
    let s = suite.to_str().unwrap();
    for (text, needles) in [
        ("kul.jsonl 1 2 expect\n", vec!["bad.txt:1", "4 word(s)"]),
        ("# ok\nkul.jsonl 1 2 prefer AS\n", vec!["bad.txt:2", "'prefer'"]),
        ("kul.jsonl one 2 expect AS\n", vec!["bad.txt:1", "game 'one'"]),
        ("kul.jsonl 1 99999 expect AS\n", vec!["bad.txt:1", "no action 99999"]),
        ("missing.jsonl 1 2 expect AS\n", vec!["bad.txt:1", "missing.jsonl"]),
        ("# nothing\n", vec!["no positions"]),
    ] {
        std::fs::write(&suite, text).unwrap();
        assert_usage_error(&["regress", s, "--bot", "simple"], &needles);
    }
}

/// The suite shipped in bots/regress/: `simple` passes it, `random` does not.
#[test]
fn the_example_suite_passes_with_simple_and_fails_with_random() {
    let out = croupier()
        .args(["regress", "bots/regress/rikken.suite", "--bot", "simple"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("passed, 0 failed"), "{text}");
    let out = croupier()
        .args(["regress", "bots/regress/rikken.suite", "--bot", "random"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stdout));
}

/// A built-in search bot shows what it found: every legal action's value for the seat and its
/// gain on the playout policy's choice, with the standard error it was judged by; the action
/// marked chosen is its answer, and it left the policy's choice only for a gain above `sure`
/// standard errors. A bot that does not search, or one over the protocol, shows none.
#[test]
fn a_search_bot_shows_the_values_it_chose_by() {
    let dir = tempfile::tempdir().unwrap();
    for (game, n) in [("rikken", 4), ("kul", 3), ("schwimmen", 4)] {
        let path = record(dir.path(), game, &vec!["simple"; n], "21");
        let rec = &common::records(&path)[0];
        let actions = rec["actions"].as_array().unwrap();
        let mut searched = 0;
        for k in (1..=actions.len()).step_by((actions.len() / 5).max(1)) {
            for bot in ["pimc:samples=12", "ismcts:worlds=12"] {
                let j = ask_json(&path, k, bot);
                let an = &j["analysis"];
                let legal = j["legal"].as_array().unwrap();
                if legal.len() == 1 {
                    // One legal action: nothing to search.
                    assert!(an.is_null(), "{game} {k} {bot}: {j}");
                    continue;
                }
                assert!(an.is_object(), "{game} action {k} {bot}: no analysis: {j}");
                searched += 1;
                let rows = an["actions"].as_array().unwrap();
                let tokens: Vec<&serde_json::Value> = rows.iter().map(|r| &r["action"]).collect();
                assert_eq!(tokens, legal.iter().collect::<Vec<_>>(), "{game} {k} {bot}");
                assert_eq!(an["chosen"], j["answer"], "{game} {k} {bot}");
                let worlds = an["worlds"].as_u64().unwrap();
                assert!((1..=12).contains(&worlds), "{game} {k} {bot}: {worlds} worlds");
                let policy = an["policy"].as_str().expect("the playout policy's choice");
                assert!(legal.iter().any(|l| l == policy));
                let sure = an["sure"].as_f64().unwrap();
                for r in rows {
                    assert!(r["mean"].as_f64().is_some_and(f64::is_finite), "{game} {k} {bot}: {r}");
                    assert_eq!(r["action"] == policy, r["gain"].is_null(), "{game} {k} {bot}: {r}");
                }
                let chosen = rows.iter().find(|r| r["action"] == an["chosen"]).unwrap();
                if chosen["action"] != policy && sure > 0.0 && worlds >= 2 {
                    let (g, se) = (chosen["gain"].as_f64().unwrap(), chosen["se"].as_f64().unwrap());
                    assert!(g - sure * se > 0.0, "{game} {k} {bot}: left the policy for {g} ± {se}");
                    // And no other action's lower bound is higher.
                    for r in rows.iter().filter(|r| r["action"] != policy) {
                        let lower = r["gain"].as_f64().unwrap() - sure * r["se"].as_f64().unwrap();
                        assert!(lower <= g - sure * se + 1e-12, "{game} {k} {bot}: {r} beats the choice");
                    }
                }
            }
        }
        assert!(searched >= 4, "{game}: only {searched} positions searched");
        // The answer of a bot that does not search: no analysis.
        assert!(ask_json(&path, 1, "simple")["analysis"].is_null());
        assert!(ask_json(&path, 1, "croupier bot pimc")["analysis"].is_null());
    }
    // For people: a row per legal action, the answer marked.
    let path = dir.path().join("rikken.jsonl");
    let out = croupier()
        .args(["ask"])
        .arg(&path)
        .args(["--action", "30", "--bot", "pimc:samples=12"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("its search: "), "{text}");
    let j = ask_json(&path, 30, "pimc:samples=12");
    let answer = j["answer"].as_str().unwrap();
    let marked: Vec<&str> = text.lines().filter(|l| l.ends_with("← chosen")).collect();
    assert_eq!(marked.len(), 1, "{text}");
    assert!(marked[0].contains(&format!("({answer})")), "{text}");
    let rows = text
        .lines()
        .filter(|l| l.starts_with("    ") && l.contains('('))
        .count();
    assert_eq!(rows, j["legal"].as_array().unwrap().len(), "{text}");
}

/// `ask --seat` reviews a whole game of one seat: every decision where the seat had a choice,
/// in order, put to the bot. A deterministic bot asked about its own game agrees with every
/// decision; a search bot says by its own values how much more its answers are worth.
#[test]
fn ask_seat_reviews_every_decision_of_a_seat() {
    let dir = tempfile::tempdir().unwrap();
    let path = record(dir.path(), "rikken", &["simple"; 4], "21");
    let rec = &common::records(&path)[0];
    let lines = |bot: &str, seat: &str| -> Vec<serde_json::Value> {
        let out = croupier()
            .arg("ask")
            .arg(&path)
            .args(["--seat", seat, "--bot", bot, "--json"])
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    };
    // Seat 2 is S at a table of four (N, E, S, W): the same seat either way (times apart).
    let untimed = |mut v: Vec<serde_json::Value>| {
        v.iter_mut().for_each(|j| j["ms"] = serde_json::Value::Null);
        v
    };
    let simple = untimed(lines("simple", "S"));
    assert_eq!(simple, untimed(lines("simple", "2")));
    let actions = rec["actions"].as_array().unwrap();
    let mine: Vec<usize> = (1..=actions.len()).filter(|&k| actions[k - 1]["seat"] == 2).collect();
    let asked: Vec<usize> = simple.iter().map(|j| j["action"].as_u64().unwrap() as usize).collect();
    assert!(
        asked.len() >= 8 && asked.iter().all(|k| mine.contains(k)),
        "{asked:?} of {mine:?}"
    );
    // Only the decisions with a choice, each one of them.
    for &k in &mine {
        let one = ask_json(&path, k, "simple");
        let choices = one["legal"].as_array().unwrap().len();
        assert_eq!(asked.contains(&k), choices > 1, "action {k}: {one}");
    }
    for j in &simple {
        assert_eq!(j["answer"], j["recorded"], "{j}");
        assert!(j["analysis"].is_null() && j["better_by"].is_null(), "{j}");
    }
    // A search bot: `better_by` is its answer's mean less the record's, 0 where they agree.
    let searched = lines("pimc:samples=12", "2");
    assert_eq!(searched.len(), simple.len());
    let mut total = 0.0;
    for j in &searched {
        let by = j["better_by"].as_f64().unwrap_or_else(|| panic!("no better_by: {j}"));
        let mean = |t: &serde_json::Value| {
            j["analysis"]["actions"]
                .as_array()
                .unwrap()
                .iter()
                .find(|a| a["action"] == *t)
                .unwrap()["mean"]
                .as_f64()
                .unwrap()
        };
        if j["answer"] == j["recorded"] {
            assert_eq!(by, 0.0);
        } else {
            assert!((by - (mean(&j["answer"]) - mean(&j["recorded"]))).abs() < 1e-9, "{j}");
        }
        total += by;
    }
    // The text: a row per decision and the sum in the summary.
    let out = croupier()
        .arg("ask")
        .arg(&path)
        .args(["--seat", "2", "--bot", "pimc:samples=12"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let rows = text
        .lines()
        .filter(|l| l.trim_start().starts_with(|c: char| c.is_ascii_digit()) && !l.contains("with a choice"))
        .count();
    assert_eq!(rows, searched.len(), "{text}");
    let agreed = searched.iter().filter(|j| j["answer"] == j["recorded"]).count();
    assert!(
        text.contains(&format!("the bot agreed with the record on {agreed}")),
        "{text}"
    );
    assert!(text.contains(&format!("worth {total:+.2} more in all")), "{text}");
    // The decisions worth a look first: the largest gains, largest first.
    let mut gains: Vec<(f64, u64)> = searched
        .iter()
        .map(|j| (j["better_by"].as_f64().unwrap(), j["action"].as_u64().unwrap()))
        .filter(|(d, _)| *d > 0.0)
        .collect();
    gains.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    if let Some(&(d, k)) = gains.first() {
        assert!(
            text.contains(&format!("worth a look first: action {k} ({d:+.2})")),
            "{text}"
        );
    } else {
        assert!(!text.contains("worth a look first"), "{text}");
    }
    // A seat the game does not have.
    assert_usage_error(
        &["ask", path.to_str().unwrap(), "--seat", "4", "--bot", "simple"],
        &["--seat", "4"],
    );
}

/// A search bot's failed position says what its search valued its answer and the listed
/// actions at (the analysis's means), so that a suite's author sees how close it was; a bot
/// without a search says only what it answered.
#[test]
fn regress_shows_a_search_bots_values_where_it_fails() {
    let dir = tempfile::tempdir().unwrap();
    let path = record(dir.path(), "rikken", &["simple"; 4], "21");
    let bot = "pimc:samples=12";
    // A position with a choice, and an action other than the bot's answer there.
    let (k, j) = (20..60)
        .map(|k| (k, ask_json(&path, k, bot)))
        .find(|(_, j)| j["legal"].as_array().unwrap().len() >= 3 && j["analysis"].is_object())
        .expect("a searched position with three actions");
    let answer = j["answer"].as_str().unwrap();
    let other = j["legal"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l.as_str().unwrap())
        .find(|l| *l != answer)
        .unwrap();
    let mean = |t: &str| {
        let rows = j["analysis"]["actions"].as_array().unwrap();
        rows.iter().find(|r| r["action"] == t).unwrap()["mean"]
            .as_f64()
            .unwrap()
    };
    let suite = dir.path().join("suite.txt");
    std::fs::write(
        &suite,
        format!("rikken.jsonl 1 {k} expect {other}\nrikken.jsonl 1 {k} forbid {answer}\n"),
    )
    .unwrap();
    let run = |bot: &str| {
        let out = croupier()
            .arg("regress")
            .arg(&suite)
            .args(["--bot", bot])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1));
        String::from_utf8(out.stdout).unwrap()
    };
    let text = run(bot);
    let values = format!(
        "(its values: {answer} {:+.2}, {other} {:+.2})",
        mean(answer),
        mean(other)
    );
    assert!(
        text.contains(&format!("answered {answer}, expected {other} {values}")),
        "{text}"
    );
    assert!(
        text.contains(&format!(
            "answered {answer}, which is forbidden (its values: {answer} {:+.2})",
            mean(answer)
        )),
        "{text}"
    );
    // `simple` answers as the record did: forbidding that fails it, without values.
    std::fs::write(&suite, format!("rikken.jsonl 1 {k} forbid recorded\n")).unwrap();
    let text = run("simple");
    assert!(
        text.contains("which is forbidden") && !text.contains("its values"),
        "{text}"
    );
}
