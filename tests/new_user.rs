//! What a new user still tripped on (issue 28): files readable by other users, `--games`
//! counting deals, `--seat` meaning two things, resume refusals that did not say what changed
//! and interrupted runs that did not say how to go on.

mod common;

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

/// The croupier binary's path.
fn exe() -> PathBuf {
    assert_cmd::cargo::cargo_bin("croupier")
}

/// Runs croupier with `args` under umask 022 (a file made without a mode of its own is then
/// 0644, readable by every user); returns stdout, checking the exit code.
fn under_umask_022(args: &[&str], code: i32) -> String {
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg("umask 022; exec \"$0\" \"$@\"")
        .arg(exe())
        .args(args)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(code),
        "croupier {}: {}",
        args.join(" "),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The permission bits of a file.
fn mode(p: &Path) -> u32 {
    std::fs::metadata(p).unwrap().permissions().mode() & 0o777
}

/// Every file under `dir`, at any depth.
fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            out.extend(files_under(&p));
        } else {
            out.push(p);
        }
    }
    out
}

#[test]
fn records_logs_transcripts_and_reports_are_made_owner_only() {
    let dir = tempfile::tempdir().unwrap();
    let d = |name: &str| dir.path().join(name).display().to_string();
    // A bot process that writes to stderr, so that the run has a log.
    let noisy = format!(
        "noisy=sh -c {}",
        shell_words::quote(&format!(
            "echo starting >&2; exec {} bot simple",
            shell_words::quote(&exe().display().to_string())
        ))
    );
    let (record, logs, transcripts) = (d("m.jsonl"), d("logs"), d("transcripts"));
    under_umask_022(
        &[
            "match",
            "kul",
            "--players",
            "3",
            "--bot",
            &noisy,
            "--bot",
            "random",
            "--games",
            "1",
            "--seed",
            "1",
            "--quiet",
            "--record",
            &record,
            "--log-dir",
            &logs,
            "--transcript",
            &transcripts,
        ],
        0,
    );
    let logs = files_under(Path::new(&logs));
    assert!(!logs.is_empty(), "the noisy bot left no log");
    let transcripts = files_under(Path::new(&transcripts));
    assert!(!transcripts.is_empty(), "no transcript");
    let (junit, page, played) = (d("gate.xml"), d("game.html"), d("p.jsonl"));
    under_umask_022(
        &[
            "compare",
            "kul",
            "--players",
            "3",
            "--candidate",
            "simple",
            "--baseline",
            "random",
            "--games",
            "2",
            "--no-test",
            "--seed",
            "1",
            "--quiet",
            "--record",
            &d("c.jsonl"),
            "--junit",
            &junit,
        ],
        0,
    );
    under_umask_022(&["show", &record, "--html", &page], 0);
    under_umask_022(&["play", "kul", "--seed", "1", "--quiet", "--record", &played], 0);
    let made: Vec<PathBuf> = [record, d("c.jsonl"), junit, page, played]
        .iter()
        .map(PathBuf::from)
        .chain(logs)
        .chain(transcripts)
        .collect();
    for f in &made {
        assert_eq!(mode(f), 0o600, "{} is {:o}", f.display(), mode(f));
    }
    // A file that exists keeps its mode: croupier did not make it.
    let given = dir.path().join("given.jsonl");
    std::fs::write(&given, "").unwrap();
    std::fs::set_permissions(&given, std::fs::Permissions::from_mode(0o640)).unwrap();
    under_umask_022(
        &[
            "play",
            "kul",
            "--seed",
            "1",
            "--quiet",
            "--record",
            &given.display().to_string(),
        ],
        0,
    );
    assert_eq!(mode(&given), 0o640);
    assert!(std::fs::metadata(&given).unwrap().len() > 0);
}
