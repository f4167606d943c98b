//! The `human` seat as a person uses it: croupier runs in a real terminal (a tmux pane), the
//! test reads the screen and types answers. Every test that needs tmux prints why it skips when
//! tmux is missing; the tests of the fallback to standard input need no terminal at all.

mod common;

use common::{croupier, records};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_croupier");
/// How long the screen may take to show what a test waits for (debug build, busy machine).
const PATIENCE: Duration = Duration::from_secs(20);
const PROMPT: &str = "Your choice (";

/// A tmux server of its own (its own socket, in the test's directory, so nothing is left
/// behind), killed when the test ends, even on failure.
struct Pane {
    socket: PathBuf,
}

fn tmux_available() -> bool {
    let ok = Command::new("tmux")
        .arg("-V")
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        println!("skipping: tmux is not installed (the human seat is tested in a tmux pane)");
    }
    ok
}

impl Pane {
    /// Runs `command` (a shell command line) in a 120×50 pane; `EXITED=<status>` is printed
    /// when it ends. `env` is set in the pane.
    fn start(dir: &Path, command: &str, env: &[(&str, &str)]) -> Pane {
        static COUNT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = COUNT.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        let socket = dir.join(format!("tmux-{n}.sock"));
        let conf = dir.join("tmux.conf");
        std::fs::write(&conf, "set -g history-limit 100000\n").unwrap();
        let pane = Pane { socket };
        // The pane's environment is the test's; NO_COLOR only where a test sets it.
        let unset = if env.iter().any(|(k, _)| *k == "NO_COLOR") {
            ""
        } else {
            "unset NO_COLOR; "
        };
        let script = format!("{unset}cd '{}' && {command}; echo EXITED=$?; sleep 600", dir.display());
        let mut args: Vec<String> = vec!["-f".into(), conf.display().to_string()];
        args.extend(["new-session", "-d", "-x", "120", "-y", "50"].map(String::from));
        for (k, v) in env {
            args.push("-e".into());
            args.push(format!("{k}={v}"));
        }
        args.push(script);
        let out = pane.tmux(&args.iter().map(String::as_str).collect::<Vec<_>>());
        assert!(
            out.status.success(),
            "tmux new-session: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        pane
    }

    fn tmux(&self, args: &[&str]) -> Output {
        Command::new("tmux")
            .arg("-S")
            .arg(&self.socket)
            .args(args)
            .stdin(Stdio::null())
            .output()
            .expect("tmux runs")
    }

    /// The whole pane with its history, wrapped lines joined.
    fn screen(&self) -> String {
        String::from_utf8_lossy(&self.tmux(&["capture-pane", "-p", "-J", "-S", "-"]).stdout).into_owned()
    }

    /// The same with the colour escapes kept.
    fn screen_with_escapes(&self) -> String {
        String::from_utf8_lossy(&self.tmux(&["capture-pane", "-p", "-e", "-J", "-S", "-"]).stdout).into_owned()
    }

    /// Types `text` and Enter.
    fn type_line(&self, text: &str) {
        if !text.is_empty() {
            self.tmux(&["send-keys", "-l", text]);
        }
        self.tmux(&["send-keys", "Enter"]);
    }

    fn key(&self, key: &str) {
        self.tmux(&["send-keys", key]);
    }

    /// Waits until the screen satisfies `done`; fails showing the screen after [`PATIENCE`].
    fn wait(&self, what: &str, done: impl Fn(&str) -> bool) -> String {
        let start = Instant::now();
        loop {
            let s = self.screen();
            if done(&s) {
                return s;
            }
            if start.elapsed() > PATIENCE {
                panic!("waited {PATIENCE:?} for {what}; the screen:\n{s}");
            }
            std::thread::sleep(Duration::from_millis(40));
        }
    }

    /// Waits for the prompt number `k` (1-based) or for the command to end. Returns the screen
    /// and the number of actions the prompt offers (`None`: the command ended).
    fn prompt(&self, k: usize) -> (String, Option<usize>) {
        let s = self.wait(&format!("prompt {k}"), |s| prompts(s) >= k || s.contains("EXITED="));
        if prompts(&s) < k {
            return (s, None);
        }
        let last = &s[s.rfind(PROMPT).unwrap() + PROMPT.len()..];
        let n = last
            .split([',', ')'])
            .next()
            .and_then(|r| r.rsplit('-').next())
            .and_then(|n| n.trim().parse().ok())
            .expect("the prompt says how many actions there are");
        (s, Some(n))
    }
}

impl Drop for Pane {
    fn drop(&mut self) {
        let _ = self.tmux(&["kill-server"]);
    }
}

fn prompts(screen: &str) -> usize {
    screen.matches(PROMPT).count()
}

/// The exit status the pane printed.
fn exit_status(screen: &str) -> i32 {
    let tail = &screen[screen.rfind("EXITED=").expect("the command ended") + 7..];
    tail.split_whitespace().next().unwrap().parse().unwrap()
}

/// The tokens of "You chose k: label (TOKEN)", in order, with k.
fn chosen(screen: &str) -> Vec<(usize, String)> {
    screen
        .lines()
        .filter_map(|l| {
            let rest = l.trim().strip_prefix("You chose ")?;
            let (k, rest) = rest.split_once(':')?;
            let token = rest.trim_end().strip_suffix(')')?.rsplit_once('(')?.1;
            Some((k.parse().ok()?, token.to_string()))
        })
        .collect()
}

/// The human seat's actions in a record, in order.
fn seat_actions(rec: &Value, seat: u64) -> Vec<String> {
    rec["actions"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|a| a["seat"].as_u64() == Some(seat))
        .map(|a| a["action"].as_str().unwrap().to_string())
        .collect()
}

/// A small deterministic choice among `n` for step `i`.
fn pick(i: usize, n: usize, salt: u64) -> usize {
    let mut x = (i as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ salt;
    x ^= x >> 29;
    x = x.wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x ^= x >> 32;
    1 + (x % n as u64) as usize
}

/// Answers every prompt from prompt `from` on until the command ends, each with a pick among
/// the numbered actions; returns the final screen and how many prompts were answered.
fn answer_all(pane: &Pane, from: usize, salt: u64) -> (String, usize) {
    let mut k = from;
    loop {
        let (screen, n) = pane.prompt(k);
        let Some(n) = n else { return (screen, k - from) };
        pane.type_line(&pick(k, n, salt).to_string());
        k += 1;
        assert!(k < from + 2000, "more than 2000 prompts: the game does not end");
    }
}

fn replays(path: &Path) {
    croupier().arg("replay").arg(path).assert().success();
}

fn only_record(path: &Path) -> Value {
    let recs = records(path);
    assert_eq!(recs.len(), 1, "one game recorded in {}", path.display());
    recs.into_iter().next().unwrap()
}

/// The bad answers of the brief, at the first prompt: each asked again with a message.
fn bad_answers_are_asked_again(pane: &Pane) {
    let (_, n) = pane.prompt(1);
    let n = n.expect("a first prompt");
    let cases = [
        ("x", "'x' is not one of the actions".to_string()),
        ("0", "There is no action 0".to_string()),
        ("999", format!("There is no action 999: type a number from 1 to {n}")),
        ("", "Type a number from 1 to".to_string()),
    ];
    for (i, (typed, message)) in cases.iter().enumerate() {
        pane.type_line(typed);
        let s = pane.wait(&format!("the answer to '{typed}'"), |s| prompts(s) >= i + 2);
        assert!(
            s.contains(message.as_str()),
            "after '{typed}': no '{message}' on the screen:\n{s}"
        );
        assert!(!s.contains("EXITED="), "croupier ended after '{typed}':\n{s}");
        assert!(chosen(&s).is_empty(), "'{typed}' was taken as a choice:\n{s}");
    }
}

fn tempdir() -> tempfile::TempDir {
    tempfile::tempdir().unwrap()
}

/// A whole Kul game against two `simple` bots: the hand with suit symbols, the table, the
/// numbered actions, bad answers asked again, the final scores; the record replays and holds
/// the actions typed.
#[test]
fn a_whole_game_of_kul_at_the_terminal() {
    if !tmux_available() {
        return;
    }
    let dir = tempdir();
    let cmd = format!(
        "'{BIN}' play kul --players 3 --seat human --seat simple --seat simple --seed 11 \
         --rule games=1 --record kul.jsonl"
    );
    let pane = Pane::start(dir.path(), &cmd, &[]);
    bad_answers_are_asked_again(&pane);
    let first = pane.screen();
    let hand = first
        .lines()
        .find(|l| l.starts_with("Your hand: "))
        .expect("the hand is shown");
    assert_eq!(
        hand.matches(['♠', '♥', '♦', '♣']).count(),
        5,
        "five cards in symbols: {hand}"
    );
    assert!(
        first.contains("A new game of Kul for 3 players: you are Seat 0."),
        "{first}"
    );
    assert!(first.contains("Seat 0 (you), your turn (play):"), "{first}");
    assert!(first.contains(" 1) "), "numbered actions:\n{first}");
    assert!(first.contains("Kul game 1: everyone pays 1; the pot is 3."), "{first}");

    let (screen, answered) = answer_all(&pane, 5, 11);
    assert_eq!(exit_status(&screen), 0, "{screen}");
    assert!(answered >= 5, "a Kul game asks at least five times");
    // What happened between turns, in words, and the last trick's mark.
    assert!(screen.contains("Trick 1 goes to Seat "), "{screen}");
    assert!(screen.contains("takes the last trick:"), "{screen}");
    let rec = only_record(&dir.path().join("kul.jsonl"));
    replays(&dir.path().join("kul.jsonl"));
    let typed = chosen(&screen);
    assert_eq!(typed.len(), answered, "one choice per prompt but the four bad answers");
    let tokens: Vec<String> = typed.into_iter().map(|(_, t)| t).collect();
    assert_eq!(seat_actions(&rec, 0), tokens, "the record holds the actions typed");
    // The final scores, as the record has them.
    let scores: Vec<String> = rec["result"]["scores"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| croupier::record::fmt_score(s.as_f64().unwrap()))
        .collect();
    let line = format!(
        "Game over. Final scores: Seat 0 (you) {}, Seat 1 {}, Seat 2 {}",
        scores[0], scores[1], scores[2]
    );
    assert!(screen.contains(&line), "no '{line}':\n{screen}");
    assert!(screen.contains(&format!("You score {}.", scores[0])), "{screen}");
    assert_eq!(rec["seats"][0]["spec"], "human");
    assert_eq!(rec["seats"][0]["name"], "human");
}

/// A whole Rikken deal, the person in seat 2 (South), records on standard output: the
/// person's screen is the terminal, the records stay clean. A slow answer is no timeout.
#[test]
fn a_whole_deal_of_rikken_with_records_on_stdout() {
    if !tmux_available() {
        return;
    }
    let dir = tempdir();
    let cmd = format!(
        "'{BIN}' play rikken --seat simple --seat simple --seat human --seat simple --seed 5 \
         --move-time 100ms --record - > rikken.jsonl"
    );
    let pane = Pane::start(dir.path(), &cmd, &[]);
    let (first, n) = pane.prompt(1);
    let hand = first
        .lines()
        .find(|l| l.starts_with("Your hand: "))
        .expect("the hand is shown");
    assert_eq!(
        hand.matches(['♠', '♥', '♦', '♣']).count(),
        13,
        "13 cards in symbols: {hand}"
    );
    assert!(first.contains("you are South"), "{first}");
    assert!(first.contains("South (you), your turn (bid):"), "{first}");
    // The action token typed instead of its number is taken too.
    assert!(first.contains(" 1) pass"), "pass is the first bid:\n{first}");
    // Slower than --move-time: a person has no deadline.
    std::thread::sleep(Duration::from_millis(400));
    pane.type_line("pass");
    let s = pane.wait("the choice of pass", |s| !chosen(s).is_empty());
    assert_eq!(chosen(&s)[0], (1, "pass".to_string()), "{s}");
    let _ = n;
    let (screen, answered) = answer_all(&pane, 2, 5);
    assert_eq!(exit_status(&screen), 0, "{screen}");
    let path = dir.path().join("rikken.jsonl");
    let rec = only_record(&path);
    replays(&path);
    let tokens: Vec<String> = chosen(&screen).into_iter().map(|(_, t)| t).collect();
    assert_eq!(tokens.len(), answered + 1);
    assert_eq!(seat_actions(&rec, 2), tokens, "the record holds the actions typed");
    assert!(
        rec["faults"].as_array().unwrap().is_empty(),
        "no timeout: {}",
        rec["faults"]
    );
    let first_ms = rec["actions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["seat"] == 2)
        .unwrap()["ms"]
        .as_f64()
        .unwrap();
    assert!(
        first_ms > 100.0,
        "the slow answer took {first_ms} ms, over --move-time, and counted"
    );
    // The words of the auction and the play, the called card and the tricks.
    assert!(
        screen.contains("Contract: ") || screen.contains("Everybody passed."),
        "{screen}"
    );
    assert!(screen.contains("Game over. Final scores: North "), "{screen}");
    // Cards played in symbols, by compass names.
    assert!(
        ["North plays ", "East plays ", "West plays "]
            .iter()
            .any(|p| screen.contains(p)),
        "{screen}"
    );
}

/// Ctrl-D at a prompt of the second game: croupier says so and exits non-zero; the first
/// game's record is whole and replays.
#[test]
fn end_of_input_stops_cleanly_and_keeps_the_games_played() {
    if !tmux_available() {
        return;
    }
    let dir = tempdir();
    let cmd = format!(
        "'{BIN}' play kul --players 2 --seat simple --seat human --seed 3 --games 2 \
         --rule games=1 --rule marks_to_win=1 --record kul.jsonl"
    );
    let pane = Pane::start(dir.path(), &cmd, &[]);
    let mut k = 1;
    // Game 1, to its end.
    loop {
        let (s, n) = pane.prompt(k);
        let n = n.expect("game 2 is still to come");
        if s.contains("Game over.") {
            break;
        }
        pane.type_line(&pick(k, n, 3).to_string());
        k += 1;
    }
    let s = pane.screen();
    assert!(s.contains("A new game of Kul for 2 players"), "{s}");
    pane.key("C-d");
    let s = pane.wait("the end", |s| s.contains("EXITED="));
    assert_eq!(exit_status(&s), 130, "{s}");
    assert!(s.contains("End of input: you left the game."), "{s}");
    assert!(
        s.contains("end of input (Ctrl-D) at the human seat's prompt: game 2 of 2 stopped and not recorded; 1 game(s) played, recorded in kul.jsonl"),
        "{s}"
    );
    assert!(!s.contains("panicked"), "{s}");
    only_record(&dir.path().join("kul.jsonl"));
    replays(&dir.path().join("kul.jsonl"));
}

/// Ctrl-C at the prompt stops at once (croupier's handler takes the signal: the person is
/// not left waiting for the next turn), exit 130.
#[test]
fn ctrl_c_at_the_prompt_stops_the_run() {
    if !tmux_available() {
        return;
    }
    let dir = tempdir();
    let cmd = format!("'{BIN}' play rikken --seat human --seat simple --seat simple --seat simple --seed 2");
    let pane = Pane::start(dir.path(), &cmd, &[]);
    pane.prompt(1);
    pane.key("C-c");
    let s = pane.wait("the end", |s| s.contains("EXITED="));
    assert_eq!(exit_status(&s), 130, "{s}");
    assert!(s.contains("interrupted at the human seat's prompt"), "{s}");
}

/// Hearts and diamonds in red on a terminal; no colour with NO_COLOR.
#[test]
fn red_suits_unless_no_color() {
    if !tmux_available() {
        return;
    }
    let dir = tempdir();
    // Seed 5: the person's Rikken hand holds hearts or diamonds (13 cards nearly always do).
    let cmd = format!("'{BIN}' play rikken --seat human --seat simple --seat simple --seat simple --seed 5");
    let coloured = Pane::start(dir.path(), &cmd, &[]);
    coloured.prompt(1);
    let s = coloured.screen_with_escapes();
    let hand = s.lines().find(|l| l.starts_with("Your hand: ")).unwrap();
    assert!(hand.contains("\x1b[31m"), "red suits: {hand:?}");
    let plain = Pane::start(dir.path(), &cmd, &[("NO_COLOR", "1")]);
    plain.prompt(1);
    let s = plain.screen_with_escapes();
    let hand = s.lines().find(|l| l.starts_with("Your hand: ")).unwrap();
    assert!(!hand.contains('\x1b'), "no colour under NO_COLOR: {hand:?}");
    assert!(hand.contains('♥') || hand.contains('♦'), "{hand}");
}

/// Every game, every kind of decision it asks of a seat: a whole (short) game of each with
/// the person answering; the records replay and hold what was typed.
#[test]
fn every_game_is_playable_at_the_terminal() {
    if !tmux_available() {
        return;
    }
    let games: &[(&str, &str)] = &[
        ("rikken", "--seat human --seat simple --seat simple --seat simple"),
        (
            "zwikken",
            "--players 3 --seat human --seat simple --seat simple --rule deals=2 --rule extra_deals_cap=0",
        ),
        (
            "svangknack",
            "--players 3 --seat simple --seat human --seat simple --rule rounds=3 --rule extra_rounds_cap=0",
        ),
        (
            "kul",
            "--players 3 --seat human --seat simple --seat simple --rule games=1 --rule redeal_request=true",
        ),
        (
            "skwitz",
            "--players 2 --seat human --seat simple --rule games=1 --rule target=2 --rule extra_games_cap=0",
        ),
        (
            "schwimmen",
            "--players 3 --seat simple --seat human --seat simple --rule strikes_to_drown=2",
        ),
    ];
    let mut decisions = std::collections::BTreeSet::new();
    for (i, (game, seats)) in games.iter().enumerate() {
        let dir = tempdir();
        let cmd = format!("'{BIN}' play {game} {seats} --seed {} --record r.jsonl", 20 + i);
        let pane = Pane::start(dir.path(), &cmd, &[]);
        let (screen, answered) = answer_all(&pane, 1, i as u64);
        assert_eq!(exit_status(&screen), 0, "{game}:\n{screen}");
        assert!(answered > 0, "{game}: the person was asked nothing");
        let path: PathBuf = dir.path().join("r.jsonl");
        let rec = only_record(&path);
        replays(&path);
        let seat = seats
            .split("--seat ")
            .skip(1)
            .position(|s| s.starts_with("human"))
            .expect("a human seat") as u64;
        let tokens: Vec<String> = chosen(&screen).into_iter().map(|(_, t)| t).collect();
        assert_eq!(
            seat_actions(&rec, seat),
            tokens,
            "{game}: the record holds the actions typed"
        );
        assert!(screen.contains("Game over. Final scores:"), "{game}:\n{screen}");
        for l in screen.lines().filter(|l| l.contains("your turn (")) {
            let d = l.rsplit('(').next().unwrap().trim_end_matches("):");
            decisions.insert(format!("{game} {d}"));
        }
        // No event line fell back to its raw protocol form.
        for raw in ["  move ", "  trick ", "  deal "] {
            assert!(
                !screen.lines().any(|l| l.starts_with(raw)),
                "{game}: a raw line:\n{screen}"
            );
        }
    }
    println!("decisions asked: {decisions:?}");
    for d in [
        "rikken bid",
        "rikken play",
        "zwikken bid",
        "zwikken play",
        "svangknack play",
        "kul play",
        "skwitz play",
        "schwimmen turn",
    ] {
        assert!(decisions.contains(d), "no '{d}' decision was asked: {decisions:?}");
    }
}

/// Without a controlling terminal the seat reads standard input and writes standard error:
/// bad answers are asked again, end of input stops the run with exit 130.
#[test]
fn without_a_terminal_stdin_and_stderr() {
    let args = "play kul --players 3 --seat human --seat simple --seat simple --seed 4 --rule games=1 --record k.jsonl";
    let (code, err, dir) = run_without_terminal(&args.split_whitespace().collect::<Vec<_>>(), "x\n0\n999\n\n1\n");
    assert_eq!(code, Some(130), "{err}");
    assert!(err.contains("Your hand: "), "{err}");
    for m in [
        "'x' is not one of the actions",
        "There is no action 0",
        "There is no action 999",
        "Type a number from 1 to",
    ] {
        assert!(err.contains(m), "no '{m}':\n{err}");
    }
    assert_eq!(chosen(&err).len(), 1, "the one good answer was taken:\n{err}");
    assert!(
        err.contains("end of input (Ctrl-D) at the human seat's prompt: game 1 of 1 ends there, forfeited by the human seat; what was played is recorded in k.jsonl"),
        "{err}"
    );
    assert!(!err.contains('\x1b'), "no colour when standard error is not a terminal");
    assert!(!err.contains("panicked"), "{err}");
    // What was played is kept: the one action typed, then the seat's forfeit.
    let path = dir.path().join("k.jsonl");
    let rec = only_record(&path);
    replays(&path);
    let typed: Vec<String> = chosen(&err).into_iter().map(|(_, t)| t).collect();
    assert_eq!(seat_actions(&rec, 0), typed);
    assert_eq!(rec["forfeit"]["seat"], 0, "{}", rec["forfeit"]);
}

/// Runs `croupier ARGS` in a new session (no controlling terminal: the human seat reads
/// standard input and writes standard error) with `input` on standard input, in a new
/// directory. Returns the exit code, standard error and the directory.
fn run_without_terminal(args: &[&str], input: &str) -> (Option<i32>, String, tempfile::TempDir) {
    use std::io::Write;
    use std::os::unix::process::CommandExt;
    let dir = tempdir();
    let mut cmd = Command::new(BIN);
    cmd.args(args)
        .current_dir(dir.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    // SAFETY: setsid is async-signal-safe.
    unsafe {
        cmd.pre_exec(|| {
            libc::setsid();
            Ok(())
        });
    }
    let mut child = cmd.spawn().unwrap();
    {
        let mut stdin = child.stdin.take().unwrap();
        // Answers left over when the game ends are never read.
        let _ = stdin.write_all(input.as_bytes());
    }
    let out = child.wait_with_output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        dir,
    )
}

/// A whole game on standard input (no terminal): the first action every time; the record
/// holds those actions and replays.
#[test]
fn a_whole_game_from_standard_input() {
    let args = "play zwikken --players 3 --seat simple --seat human --seat simple --seed 9 \
                --rule deals=1 --rule extra_deals_cap=0 --record z.jsonl";
    let (code, err, dir) = run_without_terminal(&args.split_whitespace().collect::<Vec<_>>(), &"1\n".repeat(200));
    assert_eq!(code, Some(0), "{err}");
    let path = dir.path().join("z.jsonl");
    let rec = only_record(&path);
    replays(&path);
    let typed = chosen(&err);
    assert!(typed.iter().all(|(k, _)| *k == 1));
    let tokens: Vec<String> = typed.into_iter().map(|(_, t)| t).collect();
    assert_eq!(seat_actions(&rec, 1), tokens);
    assert!(err.contains("Game over. Final scores:"), "{err}");
}

/// Rikken's declarer decisions: the person bids rik by its token, names trump and calls an
/// ace (seed 4: the others pass).
#[test]
fn rikken_bid_trump_and_call_typed_as_tokens() {
    let args = "play rikken --seat human --seat simple --seat simple --seat simple --seed 4 --record r.jsonl";
    let input = format!("rik\nH\nAC\n{}", "1\n".repeat(100));
    let (code, err, dir) = run_without_terminal(&args.split_whitespace().collect::<Vec<_>>(), &input);
    assert_eq!(code, Some(0), "{err}");
    for d in [
        "your turn (bid)",
        "your turn (trump)",
        "your turn (call)",
        "your turn (play)",
    ] {
        assert!(err.contains(d), "no '{d}':\n{err}");
    }
    assert!(err.contains("Contract: rik by North (you)."), "{err}");
    assert!(err.contains("North (you) names trump: ♥ hearts."), "{err}");
    let path = dir.path().join("r.jsonl");
    let rec = only_record(&path);
    replays(&path);
    let mine = seat_actions(&rec, 0);
    assert_eq!(mine[..3], ["rik", "H", "AC"], "the tokens typed, in the record");
    let tokens: Vec<String> = chosen(&err).into_iter().map(|(_, t)| t).collect();
    assert_eq!(mine, tokens);
}

/// `croupier bot human` would answer the referee's pipes, not a person: refused.
#[test]
fn croupier_bot_human_is_refused() {
    let out = croupier()
        .args(["bot", "human"])
        .write_stdin("1 hello 1\n")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("'human' is a person at a terminal"), "{err}");
    assert!(out.stdout.is_empty(), "nothing answered on stdout");
}

/// `croupier check human` would play whole games at the terminal: refused as well.
#[test]
fn croupier_check_human_is_refused() {
    let out = croupier().args(["check", "human"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("`human` is you at the terminal"));
    assert!(!String::from_utf8_lossy(&out.stdout).contains("checking"));
}

/// Every notification protocol.md lists for a game (its tables of lines, and the common ones a
/// seat can receive during a game) has its wording in the human seat's table: none is shown raw.
#[test]
fn every_event_kind_of_protocol_md_has_words() {
    let doc = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("protocol.md")).unwrap();
    let mut game = "";
    let mut in_lines = false;
    let mut checked = 0;
    for line in doc.lines() {
        for (head, g) in [
            ("## 4. ", "*"),
            ("## 5. ", ""),
            ("## 6. ", "rikken"),
            ("## 7. ", "zwikken"),
            ("### 8.1 ", "svangknack"),
            ("### 8.2 ", "kul"),
            ("## 9. ", "skwitz"),
            ("## 10. ", "schwimmen"),
            ("## 11. ", ""),
        ] {
            if line.starts_with(head) {
                game = g;
            }
        }
        if line.starts_with('|') {
            in_lines = in_lines || line.starts_with("| line |");
        } else {
            in_lines = false;
            continue;
        }
        let Some(kind) = line.strip_prefix("| `").and_then(|r| r.split([' ', '`']).next()) else {
            continue;
        };
        // Setup lines go to an in-process bot as values (Bot::start), the view only to processes.
        if !in_lines
            || game.is_empty()
            || ["game", "option", "players", "seat", "rngseed", "view", "gameover"].contains(&kind)
        {
            continue;
        }
        let known = croupier::bots::human::WORDS
            .iter()
            .any(|(g, key, _)| (*g == game || *g == "*") && key.split(' ').next() == Some(kind));
        assert!(known, "{game}: protocol.md's '{kind}' line has no wording in WORDS");
        checked += 1;
    }
    assert!(checked > 80, "only {checked} event kinds found in protocol.md");
}

/// The lines of the screen that say what happened, without their indent.
fn said(screen: &str) -> Vec<&str> {
    screen.lines().map(str::trim).collect()
}

/// Ctrl-D in the middle of a long session (a default Skwitz session, the hint about a shorter
/// one shown at the start): nothing played is lost. The game ends there as the person's
/// forfeit, the record holds every action typed and replays, and croupier says where it is
/// (with --record, and without: then in a file of its own in the current directory).
#[test]
fn ctrl_d_in_a_long_session_keeps_what_was_played() {
    if !tmux_available() {
        return;
    }
    for record in [true, false] {
        let dir = tempdir();
        let rec_arg = if record { " --record s.jsonl" } else { "" };
        let cmd = format!("'{BIN}' play skwitz --players 3 --seat human --seat simple --seat simple --seed 8{rec_arg}");
        let pane = Pane::start(dir.path(), &cmd, &[]);
        let (first, _) = pane.prompt(1);
        assert!(
            first.contains("This session is 5 Skwitz game(s), each played until someone declares Out! at 7 points")
                && first
                    .contains("For a shorter one, play with --rule games=1 --rule target=3 --rule extra_games_cap=0."),
            "no hint of a shorter session:\n{first}"
        );
        for k in 1..=6 {
            let (_, n) = pane.prompt(k);
            pane.type_line(&pick(k, n.expect("the session goes on"), 8).to_string());
        }
        pane.prompt(7);
        pane.key("C-d");
        let s = pane.wait("the end", |s| s.contains("EXITED="));
        assert_eq!(exit_status(&s), 130, "{s}");
        assert!(s.contains("End of input: you left the game."), "{s}");
        assert!(s.contains("You left: the game ends here, forfeited by you"), "{s}");
        let path = if record {
            assert!(
                s.contains(
                    "game 1 of 1 ends there, forfeited by the human seat; what was played is recorded in s.jsonl"
                ),
                "{s}"
            );
            dir.path().join("s.jsonl")
        } else {
            let line = said(&s)
                .into_iter()
                .find(|l| l.contains("what was played is saved in "))
                .unwrap_or_else(|| panic!("no word of where the game is:\n{s}"));
            let name = line.rsplit("saved in ").next().unwrap().split(' ').next().unwrap();
            assert!(name.starts_with("croupier-left-skwitz-"), "{line}");
            dir.path().join(name)
        };
        let rec = only_record(&path);
        replays(&path);
        let typed: Vec<String> = chosen(&s).into_iter().map(|(_, t)| t).collect();
        assert_eq!(typed.len(), 6);
        assert_eq!(seat_actions(&rec, 0), typed, "every action typed is in the record");
        assert_eq!(rec["forfeit"]["seat"], 0);
        assert!(!s.contains("panicked"), "{s}");
    }
}

/// The hint's rules are real: with them the session is short, and no hint is given.
#[test]
fn the_shorter_session_of_the_hint_is_played_without_a_hint() {
    let args = "play skwitz --players 3 --seat human --seat simple --seat simple --seed 8 \
                --rule games=1 --rule target=3 --rule extra_games_cap=0";
    let (code, err, _dir) = run_without_terminal(&args.split_whitespace().collect::<Vec<_>>(), &"1\n".repeat(400));
    assert_eq!(code, Some(0), "{err}");
    assert!(!err.contains("This session is"), "{err}");
    assert!(err.contains("Game over. Final scores:"), "{err}");
}

/// The automatic re-pass of a Rikken seat that passed is said to be automatic, not a choice
/// (seed 1: North passes, East bids, and the auction comes round to North again).
#[test]
fn an_automatic_rikken_pass_is_not_shown_as_a_choice() {
    if !tmux_available() {
        return;
    }
    let dir = tempdir();
    let cmd = format!("'{BIN}' play rikken --seat human --seat simple --seat simple --seat simple --seed 1");
    let pane = Pane::start(dir.path(), &cmd, &[]);
    pane.prompt(1);
    pane.type_line("pass");
    let (s, _) = pane.prompt(2);
    let lines = said(&s);
    assert!(lines.contains(&"North (you) passes."), "{s}");
    assert!(
        lines.contains(&"North (you) passes again, automatically: a player who has passed may not bid again."),
        "{s}"
    );
    assert_eq!(
        lines.iter().filter(|l| l.starts_with("North (you) passes")).count(),
        2,
        "{s}"
    );
    assert_eq!(chosen(&s).len(), 1, "the person chose one pass:\n{s}");
}

/// Schwimmen: the hand's value is shown beside it, as the rules count it (the best one-suit
/// total, A 11, K Q J 10, a number card its number; three of a kind 30.5).
#[test]
fn schwimmen_shows_the_value_of_the_hand() {
    if !tmux_available() {
        return;
    }
    let dir = tempdir();
    let cmd = format!(
        "'{BIN}' play schwimmen --players 3 --seat simple --seat human --seat simple --seed 6 --rule strikes_to_drown=1"
    );
    let pane = Pane::start(dir.path(), &cmd, &[]);
    let mut checked = 0;
    for k in 1..=8 {
        let (s, n) = pane.prompt(k);
        let Some(n) = n else { break };
        let line = s
            .lines()
            .rev()
            .find(|l| l.starts_with("Your hand: "))
            .expect("the hand is shown");
        let (cards, value) = line["Your hand: ".len()..]
            .rsplit_once("(value ")
            .unwrap_or_else(|| panic!("no value: {line}"));
        let value = value.trim_end().trim_end_matches(')');
        let cards: Vec<(String, char)> = cards
            .split_whitespace()
            .map(|c| {
                let suit = c.chars().last().unwrap();
                (c[..c.len() - suit.len_utf8()].to_string(), suit)
            })
            .collect();
        assert_eq!(cards.len(), 3, "{line}");
        let points = |r: &str| match r {
            "A" => 11,
            "K" | "Q" | "J" => 10,
            n => n.parse::<u32>().unwrap(),
        };
        let best = ['♠', '♥', '♦', '♣']
            .iter()
            .map(|s| cards.iter().filter(|c| c.1 == *s).map(|c| points(&c.0)).sum::<u32>())
            .max()
            .unwrap();
        let expected = if cards.iter().all(|c| c.0 == cards[0].0) && best < 31 {
            "30.5".to_string()
        } else {
            best.to_string()
        };
        assert_eq!(value, expected, "{line}");
        checked += 1;
        pane.type_line(&pick(k, n, 6).to_string());
    }
    assert!(checked >= 2, "the hand was shown at {checked} prompt(s)");
}
