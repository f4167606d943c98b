//! What a new user still tripped on (issue 28): files readable by other users, `--games`
//! counting deals, `--seat` meaning two things, resume refusals that did not say what changed
//! and interrupted runs that did not say how to go on.

mod common;
use common::{assert_usage_error, croupier, wait_for_lines};

use serde_json::Value;
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

/// stdout of a run that must end with `code`.
fn stdout_of(args: &[&str], code: i32) -> String {
    let out = croupier().args(args).output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(code),
        "croupier {}: {}",
        args.join(" "),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The one JSON object a run prints.
fn json_of(args: &[&str]) -> Value {
    serde_json::from_str(&stdout_of(args, 0)).unwrap()
}

/// The help paragraph of `--option` in `croupier CMD --help`, on one line.
fn help_of(cmd: &str, option: &str) -> String {
    let help = stdout_of(&[cmd, "--help"], 0);
    let mut lines = help
        .lines()
        .skip_while(|l| !l.trim_start().starts_with(&format!("{option} ")));
    let first = lines
        .next()
        .unwrap_or_else(|| panic!("{option} not in {help}"))
        .to_string();
    // The paragraph ends at the next option or a blank line (clap's long layout).
    let rest: Vec<&str> = lines
        .take_while(|l| !l.trim().is_empty() && !l.trim_start().starts_with('-'))
        .collect();
    format!("{first} {}", rest.join(" "))
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn deals_is_what_match_tournament_and_compare_count_and_games_still_works() {
    let bots = ["kul", "--players", "3", "--bot", "simple", "--bot", "random"];
    let with = |cmd: &'static str, base: &[&'static str], extra: &[&'static str]| -> Vec<&'static str> {
        std::iter::once(cmd)
            .chain(base.iter().copied())
            .chain(extra.iter().copied())
            .collect()
    };
    let m = json_of(&with(
        "match",
        &bots,
        &["--deals", "2", "--seed", "5", "--quiet", "--json"],
    ));
    assert_eq!((m["deals"].as_u64(), m["games"].as_u64()), (Some(2), Some(6)), "{m}");
    // The old name plays the same run (the same fingerprint: records of either resume alike).
    let old = json_of(&with(
        "match",
        &bots,
        &["--games", "2", "--seed", "5", "--quiet", "--json"],
    ));
    assert_eq!((&old["match"], &old["deals"]), (&m["match"], &m["deals"]));
    let text = stdout_of(&with("match", &bots, &["--deals", "2", "--seed", "5", "--quiet"]), 0);
    assert!(text.starts_with("kul: 2 deal(s), 6 game(s)"), "{text}");

    let t = json_of(&with(
        "tournament",
        &bots,
        &[
            "--bot",
            "m=mix:p=0.5",
            "--deals",
            "2",
            "--seed",
            "5",
            "--quiet",
            "--json",
        ],
    ));
    assert_eq!((t["tables"].as_u64(), t["deals"].as_u64()), (Some(1), Some(2)), "{t}");

    let c = json_of(&[
        "compare",
        "kul",
        "--players",
        "3",
        "--candidate",
        "simple",
        "--baseline",
        "random",
        "--deals",
        "3",
        "--no-test",
        "--seed",
        "5",
        "--quiet",
        "--json",
    ]);
    assert_eq!(c["deals"].as_u64(), Some(3), "{c}");

    for cmd in ["match", "tournament", "compare"] {
        let help = help_of(cmd, "--deals");
        assert!(help.contains("deals") && help.contains("--games"), "{cmd}: {help}");
    }
    let root = stdout_of(&["--help"], 0)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(root.contains("no decision within --deals"), "{root}");
    assert!(help_of("play", "--games").contains("Number of games"));
    assert_usage_error(
        &with("match", &bots, &["--deals", "0"]),
        &["invalid value '0' for '--deals <DEALS>'"],
    );
}

#[test]
fn play_seats_bots_with_bot_and_seats_are_counted_from_zero_everywhere() {
    let dir = tempfile::tempdir().unwrap();
    let (rec, logs) = (dir.path().join("p.jsonl"), dir.path().join("logs"));
    let loud = format!(
        "loud=sh -c {}",
        shell_words::quote(&format!(
            "echo starting >&2; exec {} bot simple",
            shell_words::quote(&exe().display().to_string())
        ))
    );
    croupier()
        .args([
            "play", "kul", "--bot", "simple", "--bot", "random", "--bot", &loud, "--seed", "2", "--quiet",
        ])
        .arg("--record")
        .arg(&rec)
        .arg("--log-dir")
        .arg(&logs)
        .assert()
        .success();
    let r = &common::records(&rec)[0];
    let specs: Vec<&str> = r["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["spec"].as_str().unwrap())
        .collect();
    assert_eq!(&specs[..2], ["simple", "random"], "{r}");
    assert!(
        specs[2].starts_with("sh -c "),
        "NAME= is not part of the spec: {specs:?}"
    );
    // NAME= names the bot's log, as in `match`.
    let names: Vec<String> = common::log_files(&logs)
        .iter()
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, ["loud.log"]);
    // The old spelling still seats bots.
    let out = stdout_of(
        &[
            "play", "kul", "--seat", "simple", "--seat", "random", "--seat", "simple", "--seed", "2", "--quiet",
        ],
        0,
    );
    assert!(out.contains("seat 1 random"), "{out}");
    assert_usage_error(
        &["play", "kul", "--players", "3", "--bot", "simple"],
        &["1 --bot given for 3 players"],
    );
    // One convention, said where a number is given: seats from 0, games and actions from 1.
    let play = help_of("play", "--bot");
    assert!(play.contains("the first --bot is seat 0"), "{play}");
    let seat = help_of("show", "--seat");
    assert!(seat.contains("counted from 0"), "{seat}");
    for (cmd, option) in [("show", "--index"), ("ask", "--index"), ("ask", "--action")] {
        let help = help_of(cmd, option);
        assert!(
            help.contains("counted from 1") && help.contains("seats from 0"),
            "{cmd} {option}: {help}"
        );
    }
}

#[test]
fn resume_refusals_name_the_argument_that_changed() {
    let dir = tempfile::tempdir().unwrap();
    let (m, t, c) = (
        dir.path().join("m.jsonl").display().to_string(),
        dir.path().join("t.jsonl").display().to_string(),
        dir.path().join("c.jsonl").display().to_string(),
    );
    let bots = [
        "kul",
        "--players",
        "3",
        "--bot",
        "simple",
        "--bot",
        "random",
        "--seed",
        "1",
        "--quiet",
    ];
    let run = |cmd: &str, extra: &[&str], rec: &str| -> Vec<String> {
        std::iter::once(cmd)
            .chain(bots.iter().copied())
            .chain(extra.iter().copied())
            .chain(["--record", rec])
            .map(str::to_string)
            .collect()
    };
    let refused = |args: Vec<String>, needle: &str| {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        assert_usage_error(&args, &["was written by a run with other arguments", needle]);
    };
    stdout_of(
        &run("match", &["--deals", "2"], &m)
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>(),
        0,
    );
    refused(run("match", &["--deals", "3", "--resume"], &m), "--deals 2 then, 3 now");
    refused(
        run("match", &["--deals", "2", "--move-time", "5s", "--resume"], &m),
        "--move-time 10s then, 5s now",
    );
    refused(
        run("match", &["--deals", "2", "--rule", "games=2", "--resume"], &m),
        "--rule games=3 then, games=2 now",
    );
    refused(
        run("match", &["--deals", "2", "--on-fault", "forfeit", "--resume"], &m),
        "--on-fault substitute then, forfeit now",
    );
    stdout_of(
        &run("match", &["--deals", "2", "--resume"], &m)
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>(),
        0,
    );

    let three = ["--bot", "m=mix:p=0.5", "--deals", "1"];
    stdout_of(
        &run("tournament", &three, &t)
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>(),
        0,
    );
    refused(
        run("tournament", &["--bot", "m=mix:p=0.5", "--deals", "2", "--resume"], &t),
        "--deals 1 then, 2 now",
    );
    refused(
        run("tournament", &["--bot", "m=mix:p=0.6", "--deals", "1", "--resume"], &t),
        "--bot simple random m=mix:p=0.5 then, simple random m=mix:p=0.6 now",
    );

    let gate = |extra: &[&str]| -> Vec<String> {
        [
            "compare",
            "kul",
            "--players",
            "3",
            "--candidate",
            "simple",
            "--baseline",
            "random",
        ]
        .into_iter()
        .chain(["--deals", "2", "--no-test", "--quiet", "--record", &c])
        .chain(extra.iter().copied())
        .map(str::to_string)
        .collect()
    };
    stdout_of(
        &gate(&["--seed", "1"]).iter().map(String::as_str).collect::<Vec<_>>(),
        0,
    );
    refused(
        gate(&["--startup-time", "3s", "--resume"]),
        "--startup-time 10s then, 3s now",
    );
    refused(
        gate(&["--field", "simple", "--resume"]),
        "--field random then, simple now",
    );
    refused(gate(&["--seed", "2", "--resume"]), "--seed 1 then, 2 now");
    // Without --seed a resumed run takes the record's.
    stdout_of(&gate(&["--resume"]).iter().map(String::as_str).collect::<Vec<_>>(), 0);
}

/// Starts `args`, waits until its record holds `lines` lines, stops it with SIGINT and returns
/// what it printed on stderr.
fn interrupted(args: &[String], record: &Path, lines: usize) -> String {
    let mut child = std::process::Command::new(exe())
        .args(args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    assert!(
        wait_for_lines(record, lines, &mut child),
        "the run ended before it was stopped"
    );
    // SAFETY: kill has no memory-safety preconditions; the pid is our own running child.
    assert_eq!(unsafe { libc::kill(child.id() as i32, libc::SIGINT) }, 0);
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(130), "{stderr}");
    stderr
}

#[test]
fn an_interrupted_run_prints_the_command_that_resumes_it() {
    let dir = tempfile::tempdir().unwrap();
    for (k, args) in [
        &["match", "kul", "--players", "3", "--bot", "simple", "--bot", "random"][..],
        &[
            "tournament",
            "kul",
            "--players",
            "2",
            "--bot",
            "simple",
            "--bot",
            "random",
            "--bot",
            "m=mix:p=0.5",
        ],
        &[
            "compare",
            "kul",
            "--players",
            "3",
            "--candidate",
            "simple",
            "--baseline",
            "random",
            "--no-test",
        ],
    ]
    .iter()
    .enumerate()
    {
        let rec = dir.path().join(format!("run {k}.jsonl"));
        // Far more deals than are played before the signal.
        let mut argv: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        argv.extend(["--deals", "1000000", "--seed", "3", "--quiet", "--record"].map(str::to_string));
        argv.push(rec.display().to_string());
        let stderr = interrupted(&argv, &rec, 4);
        let said = stderr
            .lines()
            .skip_while(|l| !l.contains("--resume to"))
            .nth(1)
            .unwrap_or_else(|| panic!("{}: no command after the message: {stderr}", args[0]));
        let mut expected = vec![exe().display().to_string()];
        expected.extend(argv);
        expected.push("--resume".into());
        assert_eq!(shell_words::split(said.trim()).unwrap(), expected, "{stderr}");
    }
}
