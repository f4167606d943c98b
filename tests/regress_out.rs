//! `croupier regress --junit FILE` and `--json`: a regression suite's result in the forms CI
//! reads, one test case per position.

mod common;

use common::croupier;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The suite that ships in bots/regress/ (`simple` passes all four positions).
fn shipped_suite() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("bots/regress/rikken.suite")
}

/// A suite of two positions of the shipped record: `simple` passes the first and fails the
/// second (it throws the queen there, which this line forbids). The comment has the characters
/// XML must escape.
fn failing_suite(dir: &Path) -> PathBuf {
    let record = Path::new(env!("CARGO_MANIFEST_DIR")).join("bots/regress/rikken.jsonl");
    let suite = dir.join("mixed.suite");
    std::fs::write(
        &suite,
        format!(
            "# two positions\n{r} 1 21 expect AD   # void in hearts: shed the ace\n{r} 1 29 forbid QS   # <keep> the \"queen\" & see\n",
            r = record.display()
        ),
    )
    .unwrap();
    suite
}

fn have_python() -> bool {
    Command::new("python3")
        .args(["-c", "import xml.etree.ElementTree"])
        .output()
        .is_ok_and(|o| o.status.success())
}

/// A JUnit report as a real XML parser reads it (python3's xml.etree), as JSON: each
/// testsuite's `tests` and `failures` and its cases' classname, name, and failure message and
/// text (`null` when it passed). `None` without python3.
fn parsed(xml: &Path) -> Option<Value> {
    if !have_python() {
        eprintln!("SKIPPED the XML parse: python3 is not installed");
        return None;
    }
    let script = r#"
import json, sys
import xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
assert root.tag == "testsuites", root.tag
suites = []
for s in root.findall("testsuite"):
    cases = []
    for c in s.findall("testcase"):
        f = c.find("failure")
        cases.append({"classname": c.get("classname"), "name": c.get("name"), "time": c.get("time"),
                      "failure": None if f is None else f.get("message"),
                      "text": None if f is None else f.text})
    suites.append({"name": s.get("name"), "tests": s.get("tests"), "failures": s.get("failures"), "cases": cases})
print(json.dumps(suites))
"#;
    let out = Command::new("python3").args(["-c", script]).arg(xml).output().unwrap();
    assert!(
        out.status.success(),
        "not XML a parser reads: {}\n{}",
        String::from_utf8_lossy(&out.stderr),
        std::fs::read_to_string(xml).unwrap()
    );
    Some(serde_json::from_slice(&out.stdout).unwrap())
}

fn regress(suite: &Path, extra: &[&str]) -> std::process::Output {
    croupier()
        .arg("regress")
        .arg(suite)
        .args(["--bot", "simple"])
        .args(extra)
        .output()
        .unwrap()
}

#[test]
fn junit_has_a_case_per_position_and_names_the_failing_one() {
    let dir = tempfile::tempdir().unwrap();

    // A suite that passes: four cases, no failure, exit 0.
    let pass = dir.path().join("pass.xml");
    let out = regress(&shipped_suite(), &["--junit", pass.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let text = std::fs::read_to_string(&pass).unwrap();
    assert!(text.starts_with("<?xml") && !text.contains("<failure"), "{text}");
    // The text for people is printed as without --junit.
    assert!(String::from_utf8_lossy(&out.stdout).contains("4 position(s): 4 passed, 0 failed"));
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&pass).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600, "the report is its user's alone");
    }
    if let Some(j) = parsed(&pass) {
        let s = &j[0];
        assert_eq!(
            (s["tests"].as_str(), s["failures"].as_str()),
            (Some("4"), Some("0")),
            "{j}"
        );
        let cases = s["cases"].as_array().unwrap();
        assert_eq!(cases.len(), 4);
        assert!(cases.iter().all(|c| c["failure"].is_null()), "{j}");
        assert_eq!(cases[0]["classname"], "croupier.regress.rikken");
        assert!(
            cases[1]["name"]
                .as_str()
                .unwrap()
                .starts_with("line 15: rikken.jsonl game 1 action 21"),
            "{j}"
        );
    }

    // A suite with a failing position: exit 1, one failure, on the case that failed.
    let fail = dir.path().join("fail.xml");
    let out = regress(&failing_suite(dir.path()), &["--junit", fail.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
    let text = std::fs::read_to_string(&fail).unwrap();
    assert_eq!(text.matches("<failure").count(), 1, "{text}");
    if let Some(j) = parsed(&fail) {
        let s = &j[0];
        assert_eq!(
            (s["tests"].as_str(), s["failures"].as_str()),
            (Some("2"), Some("1")),
            "{j}"
        );
        let cases = s["cases"].as_array().unwrap();
        assert!(cases[0]["failure"].is_null(), "{j}");
        let failing = &cases[1];
        assert_eq!(
            failing["name"], "line 3: rikken.jsonl game 1 action 29: <keep> the \"queen\" & see",
            "{j}"
        );
        assert_eq!(failing["failure"], "answered QS, which is forbidden", "{j}");
        assert!(failing["text"].as_str().unwrap().contains("seat 2 to play"), "{j}");
    }
}

#[test]
fn junit_dash_is_standard_output_and_the_text_goes_to_stderr() {
    let dir = tempfile::tempdir().unwrap();
    let out = regress(&failing_suite(dir.path()), &["--junit", "-"]);
    assert_eq!(out.status.code(), Some(1));
    let xml = String::from_utf8(out.stdout).unwrap();
    assert!(
        xml.starts_with("<?xml") && xml.trim_end().ends_with("</testsuites>"),
        "{xml}"
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("FAIL line 3") && err.contains("1 passed, 1 failed"),
        "{err}"
    );
    let file = dir.path().join("stdout.xml");
    std::fs::write(&file, &xml).unwrap();
    if let Some(j) = parsed(&file) {
        assert_eq!(j[0]["failures"], "1", "{j}");
    }
}

#[test]
fn junit_to_a_path_that_cannot_be_written_fails_before_the_bot_is_asked() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("no-such-dir").join("r.xml");
    // A bot that would leave a mark if it were started.
    let mark = dir.path().join("started");
    let bot = format!("sh -c 'touch {}; exec croupier bot simple'", mark.display());
    let out = croupier()
        .arg("regress")
        .arg(shipped_suite())
        .args(["--bot", &bot, "--junit"])
        .arg(&bad)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--junit") && err.contains("no-such-dir/r.xml"), "{err}");
    assert!(!mark.exists(), "the bot was started");
}

#[test]
fn json_is_one_object_with_every_case_and_the_totals() {
    let dir = tempfile::tempdir().unwrap();
    let out = regress(&failing_suite(dir.path()), &["--json"]);
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.lines().count(), 1, "one object, no text: {text}");
    let j: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(
        (&j["positions"], &j["passed"], &j["failed"]),
        (&2.into(), &1.into(), &1.into()),
        "{j}"
    );
    assert_eq!(j["bot"], "simple");
    let cases = j["cases"].as_array().unwrap();
    assert_eq!(cases[0]["result"], "pass");
    assert_eq!(cases[0]["message"], Value::Null);
    assert_eq!(cases[0]["answer"], "AD");
    assert_eq!((&cases[0]["line"], &cases[0]["action"]), (&2.into(), &21.into()));
    assert_eq!(cases[1]["result"], "fail");
    assert_eq!(cases[1]["message"], "answered QS, which is forbidden");
    assert_eq!(cases[1]["kind"], "forbid");
    assert_eq!(cases[1]["actions"], serde_json::json!(["QS"]));
    assert_eq!(cases[1]["comment"], "<keep> the \"queen\" & see");
    assert_eq!((&cases[1]["game"], &cases[1]["seat"]), (&"rikken".into(), &2.into()));

    let out = regress(&shipped_suite(), &["--json"]);
    assert_eq!(out.status.code(), Some(0));
    let j: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        (&j["positions"], &j["passed"], &j["failed"]),
        (&4.into(), &4.into(), &0.into()),
        "{j}"
    );
    assert!(
        j["cases"].as_array().unwrap().iter().all(|c| c["result"] == "pass"),
        "{j}"
    );
}
