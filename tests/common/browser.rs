//! A real headless browser for the tests of croupier's web pages (`show --html`, and any later
//! report page): Chromium from the system (`apt-get install chromium`), driven either by its own
//! `--dump-dom` (the DOM a page has built, at a URL such as `page.html#step=3`) or, for clicks
//! and keys, by the node script tests/browser/drive.js (playwright-core, `npm ci` in
//! tests/browser). Tests skip with a message on stderr when these are missing.

use serde_json::Value;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Chromium's flags for these tests: headless, no sandbox (root in CI), and nothing that
/// reaches for the network (without those flags Chromium hangs on a closed network).
pub const FLAGS: &[&str] = &[
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
];

/// How long one browser run may take before the test fails.
const TIMEOUT: Duration = Duration::from_secs(120);

/// Says on stderr, past the test harness's capture, that a test is skipped and why.
pub fn skip(test: &str, why: &str) {
    let _ = writeln!(std::io::stderr(), "SKIPPED {test}: {why}");
}

/// The Chromium executable: `$CHROMIUM`, else /usr/bin/chromium; None when it is missing.
pub fn chromium() -> Option<PathBuf> {
    let p = std::env::var_os("CHROMIUM")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/usr/bin/chromium"));
    p.is_file().then_some(p)
}

/// tests/browser, when node and its playwright-core (`npm ci` there) are present.
pub fn playwright() -> Result<PathBuf, String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/browser");
    let node = Command::new("node")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
    if !matches!(node, Ok(s) if s.success()) {
        return Err("node is not installed".into());
    }
    if !dir.join("node_modules/playwright-core/package.json").is_file() {
        return Err(format!(
            "playwright-core is not installed: run `npm ci` in {}",
            dir.display()
        ));
    }
    Ok(dir)
}

/// A file's `file://` URL.
pub fn file_url(path: &Path) -> String {
    let abs = std::fs::canonicalize(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    format!("file://{}", abs.display())
}

/// Runs `cmd` with `input` on stdin; its stdout, or a panic naming `what` on failure or after
/// [`TIMEOUT`].
fn run(mut cmd: Command, input: &[u8], what: &str) -> String {
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{what}: cannot start: {e}"));
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(input).unwrap();
    drop(stdin);
    let out = child.stdout.take().unwrap();
    let err = child.stderr.take().unwrap();
    let read_out = std::thread::spawn(move || std::io::read_to_string(out).unwrap_or_default());
    let read_err = std::thread::spawn(move || std::io::read_to_string(err).unwrap_or_default());
    let start = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if start.elapsed() > TIMEOUT {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{what}: no answer within {TIMEOUT:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let out = read_out.join().unwrap();
    let err = read_err.join().unwrap();
    assert!(status.success(), "{what}: {status}\n{err}");
    out
}

/// The DOM of `url` after its scripts ran (Chromium's `--dump-dom`, with a fresh profile).
pub fn dump_dom(chromium: &Path, url: &str) -> String {
    let profile = tempfile::tempdir().unwrap();
    let mut cmd = Command::new(chromium);
    cmd.args(FLAGS)
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .arg("--virtual-time-budget=5000")
        .arg("--dump-dom")
        .arg(url);
    run(cmd, b"", &format!("chromium --dump-dom {url}"))
}

/// Runs drive.js (see there) with these commands in one page; its answer: `results` (one per
/// command), `console`, `errors`, `requests` (network requests, refused), `failed`.
pub fn drive(dir: &Path, chromium: &Path, commands: &[Value]) -> Value {
    let mut cmd = Command::new("node");
    cmd.arg(dir.join("drive.js")).env("CHROMIUM", chromium);
    let req = serde_json::json!({ "commands": commands });
    let out = run(cmd, req.to_string().as_bytes(), "node tests/browser/drive.js");
    let answer: Value = serde_json::from_str(out.trim()).unwrap_or_else(|e| panic!("drive.js answered {out:?}: {e}"));
    assert!(answer["failed"].is_null(), "drive.js: {}", answer["failed"]);
    answer
}

/// Messages of a page's console at level error or warning, and its uncaught exceptions.
pub fn console_problems(answer: &Value) -> Vec<String> {
    let mut out: Vec<String> = answer["console"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|m| matches!(m["type"].as_str(), Some("error" | "warning")))
        .map(|m| format!("console {}: {}", m["type"], m["text"]))
        .collect();
    out.extend(
        answer["errors"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|e| format!("uncaught: {}", e.as_str().unwrap_or_default())),
    );
    out
}

/// `{"op": "goto", "url": …}` and the like, for [`drive`].
pub fn op(op: &str, args: &[(&str, Value)]) -> Value {
    let mut m = serde_json::Map::new();
    m.insert("op".into(), op.into());
    for (k, v) in args {
        m.insert((*k).into(), v.clone());
    }
    Value::Object(m)
}
