//! Helpers shared by the integration tests (each test file is its own crate and uses a part).
#![allow(dead_code)]

pub mod browser;
pub mod netns;
pub mod netrelay;

use assert_cmd::Command;
use croupier::cards::parse_cards;
use croupier::chance::{Chance, DealSpec, Rng};
use croupier::game::{Event, Game, GameInfo, GameSpec};
use croupier::options::{OptionKind, OptionSpec, Options};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;

/// A fresh directory for fixtures that the tests of one test binary share, made once per
/// process: `<target tmp>/<name>/<pid>`. Test runners that run each test in a process of its own
/// (cargo-nextest) make one each instead of racing on one; the directories of processes that
/// have ended are removed.
#[allow(dead_code)] // not every test binary that includes this module shares fixtures
pub fn shared_fixture_dir(name: &str) -> std::path::PathBuf {
    let parent = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::create_dir_all(&parent).unwrap();
    let me = std::process::id();
    for entry in std::fs::read_dir(&parent).unwrap().flatten() {
        let pid = entry.file_name().to_string_lossy().parse::<u32>().ok();
        // A stale directory: its process is gone (or it predates per-process directories).
        if pid.is_none_or(|p| p != me && !Path::new(&format!("/proc/{p}")).exists()) {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
    let dir = parent.join(me.to_string());
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

pub fn croupier() -> Command {
    Command::cargo_bin("croupier").unwrap()
}

/// Every record of a JSON Lines file.
pub fn records(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// A record's `result.scores`.
pub fn scores(rec: &Value) -> Vec<f64> {
    rec["result"]["scores"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_f64().unwrap())
        .collect()
}

/// A deal with the given dealer, hands (`""` = dealt at random) and piles.
pub fn deal_spec(dealer: usize, hands: &[&str], piles: &[(&str, &str)]) -> DealSpec {
    DealSpec {
        dealer: Some(dealer),
        hands: hands
            .iter()
            .map(|h| (!h.is_empty()).then(|| parse_cards(h).unwrap()))
            .collect(),
        piles: piles
            .iter()
            .map(|(k, v)| (k.to_string(), parse_cards(v).unwrap()))
            .collect::<BTreeMap<_, _>>(),
    }
}

/// Applies `tokens` in turn, collecting the events; panics naming the refused token.
pub fn drive(g: &mut dyn Game, events: &mut Vec<Event>, tokens: &[&str]) {
    for t in tokens {
        let s = g.to_move().expect("a seat to move");
        if let Err(e) = g.apply(t) {
            panic!("seat {s}: {t} refused: {e}; legal {:?}", g.legal_actions());
        }
        events.extend(g.take_events());
    }
}

/// The protocol lines of events.
pub fn lines(events: &[Event]) -> Vec<String> {
    events.iter().map(|e| e.line()).collect()
}

/// A random valid value of an option (integers from the low end of their range).
pub fn random_option_value(o: &OptionSpec, rng: &mut Rng) -> String {
    match &o.kind {
        OptionKind::Bool => ["true", "false"][rng.below(2) as usize].to_string(),
        OptionKind::Int { min, max } => (min + rng.below((max - min + 1).min(13) as u64) as i64).to_string(),
        OptionKind::Choice(vs) => vs[rng.below(vs.len() as u64) as usize].to_string(),
        OptionKind::Text { .. } => o.default.to_string(),
    }
}

/// Plays a whole game of `spec` with every seat's view folded from the events routed to it
/// and the built-in `simple` policy deciding from that view alone. Checks that every choice is
/// legal (and, for a card, in the view's `hand`) and returns the views (for checks on what each seat knew) and the final scores.
pub fn play_with_simple_views(spec: &GameSpec, options: &Options, players: usize, seed: u64) -> (Vec<Value>, Vec<f64>) {
    let mut views: Vec<_> = (0..players)
        .map(|s| {
            (spec.new_view)(&GameInfo {
                game: spec.name.into(),
                options: options.clone(),
                players,
                seat: s,
            })
        })
        .collect();
    let mut g = (spec.new_game)(players, options, Chance::seeded(seed), true).unwrap();
    loop {
        for e in g.take_events() {
            for s in e.to.members(players) {
                views[s].observe(e.kind, &e.args);
            }
        }
        let Some(seat) = g.to_move() else { break };
        let legal = g.legal_actions();
        let view = views[seat].to_json();
        let choice = (spec.simple_policy)(views[seat].as_ref(), g.decision(), &legal);
        assert!(legal.contains(&choice), "{choice} not in {legal:?}");
        if let (Ok(_), Some(hand)) = (choice.parse::<croupier::cards::Card>(), view["hand"].as_array()) {
            assert!(
                hand.iter().any(|c| c.as_str() == Some(choice.as_str())),
                "seat {seat}: the view's hand {hand:?} lacks {choice}"
            );
        }
        g.apply(&choice).unwrap();
    }
    let scores = g.outcome().expect("an outcome").scores;
    (views.iter().map(|v| v.to_json()).collect(), scores)
}

/// Runs `croupier match GAME --bot simple --bot random ARGS… --json` and checks that `simple`
/// is clearly better (the paired interval lies above 0); returns the pair.
pub fn assert_simple_beats_random(game: &str, args: &[&str]) -> Value {
    let out = croupier()
        .args(["match", game, "--bot", "simple", "--bot", "random", "--json", "--quiet"])
        .args(args)
        .output()
        .unwrap();
    assert!(out.status.success(), "{game}: {}", String::from_utf8_lossy(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let pair = v["pairs"][0].clone();
    assert_eq!(
        (pair["a"].as_str(), pair["b"].as_str()),
        (Some("simple"), Some("random")),
        "{v}"
    );
    assert!(
        pair["ci95"][0].as_f64().unwrap() > 0.0,
        "{game}: simple is not clearly better than random: {pair}"
    );
    pair
}

/// Runs croupier with `args` and checks it fails as a usage error (exit 2) whose message on
/// stderr contains every one of `needles`.
pub fn assert_usage_error(args: &[&str], needles: &[&str]) {
    let out = croupier().args(args).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "croupier {}: {stderr}", args.join(" "));
    for n in needles {
        assert!(
            stderr.contains(n),
            "croupier {}: '{n}' not in: {stderr}",
            args.join(" ")
        );
    }
}

/// Each of `bad` that is not a legal action now is refused with a reason, produces no event,
/// and leaves the decision and the legal actions as they were.
pub fn assert_refused(g: &mut dyn Game, bad: &[&str]) {
    let legal = g.legal_actions();
    let before = (g.decision(), legal.clone());
    for b in bad.iter().filter(|b| !legal.iter().any(|l| l == *b)) {
        let why = g.apply(b).expect_err(&format!("{b} accepted; legal {legal:?}"));
        assert!(!why.is_empty(), "{b} refused without a reason");
        assert!(g.take_events().is_empty(), "refusing {b} produced events");
        assert_eq!(
            (g.decision(), g.legal_actions()),
            before,
            "refusing {b} changed the state"
        );
    }
}

/// The bot log files under a `--log-dir` (each run writes a directory of its own), sorted.
pub fn log_files(log_dir: &Path) -> Vec<std::path::PathBuf> {
    let mut files = Vec::new();
    for run in std::fs::read_dir(log_dir).unwrap() {
        for f in std::fs::read_dir(run.unwrap().path()).unwrap() {
            files.push(f.unwrap().path());
        }
    }
    files.sort();
    files
}

/// Waits until `path` holds at least `n` lines (a run is under way): true then, false if `child`
/// ended first. There is no deadline: it looks again every [`POLL`] until one of the two is so,
/// so a loaded machine only makes it wait longer, never fail.
#[allow(dead_code)] // not every test binary that includes this module uses it
pub fn wait_for_lines(path: &Path, n: usize, child: &mut std::process::Child) -> bool {
    loop {
        let lines = std::fs::read_to_string(path).map(|t| t.lines().count()).unwrap_or(0);
        if lines >= n {
            return true;
        }
        if child.try_wait().unwrap().is_some() {
            return false;
        }
        std::thread::sleep(POLL);
    }
}

/// How often [`wait_for_lines`] looks at the file again: a pause between looks (so that the
/// test does not take a core from the run it waits for), not a limit on the wait.
#[allow(dead_code)]
pub const POLL: std::time::Duration = std::time::Duration::from_millis(5);

/// Plays a whole game (`chance` deals it) with `bot` at seat 0 and `simple` at the other seats,
/// feeding the bot every line routed to its seat; returns seat 0's actions (each checked legal).
pub fn play_bot_against_simple(
    spec: &GameSpec,
    info: &GameInfo,
    chance: Chance,
    bot: &mut dyn croupier::bots::Bot,
) -> Vec<String> {
    play_bot_at_table(spec, info, chance, bot, &[], 0)
}

/// [`play_bot_against_simple`], but the seats in `random` choose uniformly at random among
/// their legal actions (from `seed`), as the `random` bot does.
pub fn play_bot_at_table(
    spec: &GameSpec,
    info: &GameInfo,
    chance: Chance,
    bot: &mut dyn croupier::bots::Bot,
    random: &[usize],
    seed: u64,
) -> Vec<String> {
    let mut rng = Rng::new(seed, croupier::chance::Purpose::Bot, 0);
    let players = info.players;
    let mut g = (spec.new_game)(players, &info.options, chance, true).unwrap();
    let mut views: Vec<Box<dyn croupier::game::SeatView>> = (0..players)
        .map(|s| {
            (spec.new_view)(&GameInfo {
                seat: s,
                ..info.clone()
            })
        })
        .collect();
    let mut mine = Vec::new();
    loop {
        for e in g.take_events() {
            for s in e.to.members(players) {
                views[s].observe(e.kind, &e.args);
            }
            if e.to.contains(0) {
                bot.notify(e.kind, &e.args);
            }
        }
        let Some(s) = g.to_move() else { break };
        let legal = g.legal_actions();
        let a = if s == 0 {
            let a = bot.act(g.decision(), 0, &legal);
            assert!(legal.contains(&a), "{}: {a} is not one of {legal:?}", spec.name);
            mine.push(a.clone());
            a
        } else if random.contains(&s) {
            legal[rng.below(legal.len() as u64) as usize].clone()
        } else {
            (spec.simple_policy)(views[s].as_ref(), g.decision(), &legal)
        };
        g.apply(&a).unwrap();
    }
    mine
}

/// A game's spec by name.
pub fn game_spec(game: &str) -> GameSpec {
    croupier::games::find(game).unwrap()
}

/// The setup of seat `seat` in a game of `spec` at its default options.
pub fn default_info(spec: &GameSpec, players: usize, seat: usize) -> GameInfo {
    GameInfo {
        game: spec.name.to_string(),
        options: Options::resolve(&(spec.options)(), spec.name, &[] as &[&str]).unwrap(),
        players,
        seat,
    }
}
