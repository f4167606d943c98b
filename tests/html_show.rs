//! `croupier show --html`: the page of every game, its embedded data (built by replaying the
//! record; a seat's page holds only what that seat saw), and the page in a real headless
//! Chromium: it renders without console errors, steps with buttons, keys and the slider, opens
//! at `#step=N`, shows the record's final scores at the last step, and a seat's page shows its
//! hand and nobody else's. The browser tests skip, saying so, without Chromium (or node and
//! playwright-core: `npm ci` in tests/browser).

mod common;

use common::browser::{self, op};
use common::{croupier, records};
use croupier::game::Seat;
use serde_json::{json, Value};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// Every game, with the seats of the recorded game (few, to keep sessions short).
const GAMES: &[(&str, usize)] = &[
    ("rikken", 4),
    ("zwikken", 3),
    ("svangknack", 3),
    ("kul", 3),
    ("skwitz", 3),
    ("schwimmen", 3),
];

/// A recorded game and its pages.
struct Game {
    name: &'static str,
    record: Value,
    /// The page of every seat, and its data.
    full: PathBuf,
    full_data: Value,
    /// The seat after the first dealer (it holds cards at the deal in every game), its page
    /// and data.
    seat: Seat,
    seat_page: PathBuf,
    seat_data: Value,
}

/// Records one game of `name` between `simple` bots and makes its two pages in `dir`.
fn game(dir: &Path, name: &'static str, players: usize) -> Game {
    let rec_path = dir.join(format!("{name}.jsonl"));
    let mut cmd = croupier();
    cmd.args(["play", name, "--seed", "15", "--record"]).arg(&rec_path);
    for _ in 0..players {
        cmd.args(["--seat", "simple"]);
    }
    cmd.assert().success();
    let record = records(&rec_path).remove(0);
    let n = record["players"].as_u64().unwrap() as usize;
    let seat = (record["deals"][0]["dealer"].as_u64().unwrap() as usize + 1) % n;
    let full = dir.join(format!("{name}.html"));
    croupier()
        .arg("show")
        .arg(&rec_path)
        .arg("--html")
        .arg(&full)
        .assert()
        .success()
        .stdout("");
    let seat_page = dir.join(format!("{name}-seat{seat}.html"));
    croupier()
        .arg("show")
        .arg(&rec_path)
        .args(["--seat", &seat.to_string(), "--html"])
        .arg(&seat_page)
        .assert()
        .success();
    Game {
        name,
        full_data: data(&full),
        seat_data: data(&seat_page),
        record,
        full,
        seat,
        seat_page,
    }
}

/// Every game, recorded once per process for the tests of this file (in a fresh directory of
/// the target's temporary directory: `common::shared_fixture_dir`).
fn games() -> &'static [Game] {
    static ALL: std::sync::OnceLock<Vec<Game>> = std::sync::OnceLock::new();
    ALL.get_or_init(|| {
        let dir = common::shared_fixture_dir("html_show");
        GAMES.iter().map(|&(g, p)| game(&dir, g, p)).collect()
    })
}

/// The game data a page embeds (`const DATA = {…};`, one line).
fn data(page: &Path) -> Value {
    let text = std::fs::read_to_string(page).unwrap();
    let start = text.find("const DATA = ").expect("the page holds its data") + "const DATA = ".len();
    let line = text[start..].lines().next().unwrap();
    serde_json::from_str(line.trim_end().trim_end_matches(';')).unwrap()
}

/// Every card token (`AS`, `TD`) in a text.
fn card_tokens(text: &str) -> BTreeSet<String> {
    let b = text.as_bytes();
    let mut out = BTreeSet::new();
    for i in 0..b.len().saturating_sub(1) {
        let edge = |j: usize| j >= b.len() || !b[j].is_ascii_alphanumeric();
        if b"23456789TJQKA".contains(&b[i]) && b"SHDC".contains(&b[i + 1]) && (i == 0 || edge(i - 1)) && edge(i + 2) {
            out.insert(text[i..i + 2].to_string());
        }
    }
    out
}

fn cards(v: &Value) -> BTreeSet<String> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap().to_string())
        .collect()
}

fn scores(rec: &Value) -> Vec<String> {
    rec["result"]["scores"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.to_string())
        .collect()
}

/// Every event line of a page's data, in order (each step's `[audience, line]`).
fn page_lines(data: &Value) -> Vec<String> {
    data["steps"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|s| s["events"].as_array().unwrap().iter())
        .map(|e| e[1].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn every_game_has_a_page_with_a_step_per_action() {
    for g in games() {
        let steps = g.full_data["steps"].as_array().unwrap();
        let actions = g.record["actions"].as_array().unwrap();
        assert_eq!(
            steps.len(),
            actions.len() + 2,
            "{}: the deal, each action, the end",
            g.name
        );
        for (k, a) in actions.iter().enumerate() {
            assert_eq!(steps[k + 1]["actor"], a["seat"], "{} step {}", g.name, k + 1);
            let move_line = format!("move {} {} ", a["seat"], a["action"].as_str().unwrap());
            assert!(
                steps[k + 1]["events"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|e| e[1].as_str().unwrap().starts_with(&move_line)),
                "{} step {}: no '{move_line}…' in {}",
                g.name,
                k + 1,
                steps[k + 1]["events"]
            );
        }
        let n = g.record["players"].as_u64().unwrap() as usize;
        assert!(
            steps.iter().all(|s| s["views"].as_array().unwrap().len() == n),
            "{}: a view per seat",
            g.name
        );
        let last = steps.last().unwrap();
        assert_eq!(
            last["events"].as_array().unwrap().last().unwrap()[1],
            json!(format!("gameover {}", scores(&g.record).join(" ")))
        );
        assert_eq!(g.full_data["scores"], g.record["result"]["scores"], "{}", g.name);
        // Self-contained: nothing is fetched, no `<` inside the data (it cannot end the script).
        let text = std::fs::read_to_string(&g.full).unwrap();
        for needle in ["http://", "https://", "<link", "@import", "src="] {
            assert!(!text.contains(needle), "{}: the page has {needle}", g.name);
        }
        let script = &text[text.find("const DATA = ").unwrap()..];
        assert!(!script.lines().next().unwrap().contains('<'), "{}", g.name);
        // The seat's page for stdout is the same page.
        let out = croupier()
            .arg("show")
            .arg(g.full.with_extension("jsonl"))
            .args(["--seat", &g.seat.to_string(), "--html", "-"])
            .output()
            .unwrap();
        assert!(out.status.success());
        assert_eq!(out.stdout, std::fs::read(&g.seat_page).unwrap(), "{}", g.name);
    }
}

#[test]
fn a_seat_page_holds_only_what_the_seat_saw() {
    for g in games() {
        let s = g.seat;
        assert_eq!(g.seat_data["seat"], json!(s));
        // The page's events are exactly those the rules sent to the seat (and the gameover).
        let line = serde_json::to_string(&g.record).unwrap();
        let rec = croupier::record::parse_record(&line).unwrap();
        let spec = croupier::games::find(&rec.game).unwrap();
        let events = croupier::replay::replay(&rec, &spec).unwrap();
        let mut seen: Vec<String> = events.iter().filter(|e| e.to.contains(s)).map(|e| e.line()).collect();
        seen.push(format!("gameover {}", scores(&g.record).join(" ")));
        assert_eq!(page_lines(&g.seat_data), seen, "{}: the events of seat {s}", g.name);
        let steps = g.seat_data["steps"].as_array().unwrap();
        assert!(
            steps.iter().all(|st| st["views"].as_array().unwrap().len() == 1),
            "{}: one view",
            g.name
        );
        // No line the seat was not sent is anywhere in its page (there are such lines: the
        // others' hands).
        let text = std::fs::read_to_string(&g.seat_page).unwrap();
        let hidden: BTreeSet<String> = events
            .iter()
            .filter(|e| !e.to.contains(s))
            .map(|e| e.line())
            .filter(|l| !seen.contains(l))
            .collect();
        assert!(
            hidden.iter().any(|l| l.starts_with("hand ")),
            "{}: others' hands are hidden lines",
            g.name
        );
        for l in &hidden {
            assert!(
                !text.contains(&format!("\"{l}\"")),
                "{}: seat {s}'s page has '{l}'",
                g.name
            );
        }
        // At the deal (step 0) the page shows no card of another seat's hand, where the full
        // page shows them all.
        let deal = &g.record["deals"][0];
        let others: BTreeSet<String> = deal["hands"]
            .as_array()
            .unwrap()
            .iter()
            .enumerate()
            .filter(|&(t, _)| t != s)
            .flat_map(|(_, h)| cards(h))
            .collect();
        let own = cards(&deal["hands"][s]);
        let at_deal = card_tokens(&g.seat_data["steps"][0].to_string());
        let leaked: Vec<_> = at_deal.intersection(&others).collect();
        assert!(
            leaked.is_empty(),
            "{}: seat {s}'s page at the deal shows {leaked:?}",
            g.name
        );
        assert!(
            own.is_subset(&at_deal),
            "{}: seat {s}'s own hand {own:?} at the deal",
            g.name
        );
        let full_at_deal = card_tokens(&g.full_data["steps"][0].to_string());
        assert!(
            others.is_subset(&full_at_deal),
            "{}: the full page shows every hand",
            g.name
        );
        // A fault of another seat would name its answer: none of them is kept.
        assert!(g.seat_data["faults"]
            .as_array()
            .unwrap()
            .iter()
            .all(|f| f["seat"] == json!(s)));
    }
}

#[test]
fn bad_uses_of_html_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let g = game(dir.path(), "kul", 3);
    let rec = dir.path().join("kul.jsonl");
    // The record file itself is not overwritten.
    croupier()
        .arg("show")
        .arg(&rec)
        .arg("--html")
        .arg(&rec)
        .assert()
        .code(2)
        .stderr(predicates::str::contains("give each output its own file"));
    assert_eq!(records(&rec)[0], g.record);
    croupier()
        .arg("show")
        .arg(&rec)
        .args(["--html", "/nonexistent-dir/x.html"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("--html /nonexistent-dir/x.html"));
    croupier()
        .arg("show")
        .arg(&rec)
        .args(["--index", "2", "--html", "-"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("no game 2"));
}

/// Runs `f` on every game in parallel threads (browser runs are slow, mostly waiting).
fn each_parallel(games: &[Game], f: impl Fn(&Game) + Sync) {
    std::thread::scope(|sc| {
        let f = &f;
        let handles: Vec<_> = games.iter().map(|g| sc.spawn(move || f(g))).collect();
        for h in handles {
            if let Err(e) = h.join() {
                std::panic::resume_unwind(e);
            }
        }
    });
}

/// `text` without its parts from `open` to `close`.
fn without(text: &str, open: &str, close: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(i) = rest.find(open) {
        out.push_str(&rest[..i]);
        rest = rest[i..].find(close).map_or("", |j| &rest[i + j + close.len()..]);
    }
    out.push_str(rest);
    out
}

/// A card as people read it, on the page as everywhere: `A♠`, `10♥`.
fn pretty(card: &str) -> String {
    let suit = match &card[1..] {
        "S" => "♠",
        "H" => "♥",
        "D" => "♦",
        _ => "♣",
    };
    let rank = if &card[..1] == "T" { "10" } else { &card[..1] };
    format!("{rank}{suit}")
}

/// The `data-card`s of the cards in a DOM dump's seat box (the text up to the next seat box),
/// and the number of card backs there.
fn seat_cards(dom: &str, seat: Seat) -> (BTreeSet<String>, usize) {
    let tag = format!(" data-seat=\"{seat}\"");
    let part = dom
        .split("<div class=\"seat")
        .skip(1)
        .find(|p| p[..p.find('>').unwrap_or(0)].contains(&tag))
        .unwrap_or_else(|| panic!("no seat {seat} in the page"));
    let hand_start = part
        .find("class=\"row hand\"")
        .unwrap_or_else(|| panic!("no hand row for seat {seat} in {part}"));
    let hand = &part[hand_start..];
    let hand = &hand[..hand.find("</div>").unwrap()];
    let mut cards = BTreeSet::new();
    for piece in hand.split("data-card=\"").skip(1) {
        cards.insert(piece[..2].to_string());
    }
    (cards, hand.matches("card back").count())
}

#[test]
fn chromium_opens_the_page_at_the_step_of_the_hash() {
    let Some(chromium) = browser::chromium() else {
        browser::skip(
            "chromium_opens_the_page_at_the_step_of_the_hash",
            "no chromium (/usr/bin/chromium, or $CHROMIUM)",
        );
        return;
    };
    let games = games();
    each_parallel(games, |g| {
        // The last step, by its hash: its events, the final scores.
        let steps = g.full_data["steps"].as_array().unwrap();
        let last = steps.len() - 1;
        let dom = browser::dump_dom(&chromium, &format!("{}#step={last}", browser::file_url(&g.full)));
        assert!(
            dom.contains(&format!("data-step=\"{last}\"")),
            "{}: not at step {last}",
            g.name
        );
        assert!(
            dom.contains(&format!("<span id=\"step-no\">{last}</span>")),
            "{}",
            g.name
        );
        // Each event in words (a line another one says the same as has none).
        for e in steps[last]["events"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| !e[2].is_null())
        {
            assert!(
                dom.contains(&format!("data-line=\"{}\"", e[1].as_str().unwrap())),
                "{}: event {e} not shown",
                g.name
            );
        }
        let shown: Vec<String> = dom
            .split("<td class=\"v\">")
            .skip(1)
            .map(|p| p[..p.find('<').unwrap()].to_string())
            .collect();
        assert_eq!(shown, scores(&g.record), "{}: the final scores", g.name);
        // The seat's page at the deal (here for one game, without node; in Playwright for all).
        if g.name == "rikken" {
            let dom = browser::dump_dom(&chromium, &format!("{}#step=0", browser::file_url(&g.seat_page)));
            seat_page_at_the_deal(g, &dom);
        }
    });
}

/// Checks a seat's page at the deal (its DOM): the seat's dealt hand, no other seat's cards,
/// nor any of them anywhere on the page as it stands.
fn seat_page_at_the_deal(g: &Game, dom: &str) {
    assert!(dom.contains("data-step=\"0\""), "{}", g.name);
    let (own, _) = seat_cards(dom, g.seat);
    assert_eq!(
        own,
        cards(&g.record["deals"][0]["hands"][g.seat]),
        "{}: seat {}'s hand",
        g.name,
        g.seat
    );
    let n = g.record["players"].as_u64().unwrap() as usize;
    for t in (0..n).filter(|&t| t != g.seat) {
        let (theirs, _) = seat_cards(dom, t);
        assert!(
            theirs.is_empty(),
            "{}: seat {t}'s cards {theirs:?} on seat {}'s page",
            g.name,
            g.seat
        );
    }
    // Nor anywhere else on the page as it stands (the data of later steps and the list of
    // all steps aside), as a card or in words.
    let shown = without(&without(dom, "<script>", "</script>"), "<ol id=\"log\">", "</ol>");
    for t in (0..n).filter(|&t| t != g.seat) {
        for c in cards(&g.record["deals"][0]["hands"][t]) {
            assert!(
                !shown.contains(&format!("\"{c}\"")) && !shown.contains(&pretty(&c)),
                "{}: seat {t}'s {c} on seat {}'s page",
                g.name,
                g.seat
            );
        }
    }
}

/// A script for drive.js with named results.
#[derive(Default)]
struct Script {
    commands: Vec<Value>,
}

impl Script {
    /// Adds a command; its result's index.
    fn add(&mut self, op_name: &str, args: &[(&str, Value)]) -> usize {
        self.commands.push(op(op_name, args));
        self.commands.len() - 1
    }
    fn step_no(&mut self) -> usize {
        self.add("text", &[("sel", json!("#step-no"))])
    }
    fn shown(&mut self) -> usize {
        self.add("eval", &[("js", json!("document.querySelector('main').innerText"))])
    }
}

#[test]
fn playwright_steps_through_every_game_with_buttons_keys_and_slider() {
    let Some(chromium) = browser::chromium() else {
        browser::skip(
            "playwright_steps_through_every_game_with_buttons_keys_and_slider",
            "no chromium (/usr/bin/chromium, or $CHROMIUM)",
        );
        return;
    };
    let dir_browser = match browser::playwright() {
        Ok(d) => d,
        Err(why) => {
            browser::skip("playwright_steps_through_every_game_with_buttons_keys_and_slider", &why);
            return;
        }
    };
    let games = games();
    // One browser for every game: a page after another.
    let mut sc = Script::default();
    struct Marks {
        start: usize,
        start_shown: usize,
        next: usize,
        next_shown: usize,
        right: usize,
        j: usize,
        k: usize,
        left: usize,
        last: usize,
        last_url: usize,
        scores: usize,
        seats: usize,
        hands: usize,
        first: usize,
        end: usize,
        home: usize,
        slider: usize,
        slider_url: usize,
        hash: usize,
        seat_dom: usize,
        seat_title: usize,
        seat_scores: usize,
    }
    let mut marks = Vec::new();
    for g in games {
        let url = browser::file_url(&g.full);
        sc.add("goto", &[("url", json!(url))]);
        let start = sc.step_no();
        let start_shown = sc.shown();
        sc.add("click", &[("sel", json!("#next"))]);
        let next = sc.step_no();
        let next_shown = sc.shown();
        sc.add("press", &[("key", json!("ArrowRight"))]);
        let right = sc.step_no();
        sc.add("press", &[("key", json!("j"))]);
        let j = sc.step_no();
        sc.add("press", &[("key", json!("k"))]);
        let k = sc.step_no();
        sc.add("press", &[("key", json!("ArrowLeft"))]);
        let left = sc.step_no();
        sc.add("click", &[("sel", json!("#last"))]);
        let last = sc.step_no();
        let last_url = sc.add("url", &[]);
        let scores = sc.add("texts", &[("sel", json!("#scores td.v"))]);
        let seats = sc.add("count", &[("sel", json!(".seat"))]);
        sc.add("click", &[("sel", json!("#first"))]);
        let hands = sc.add(
            "eval",
            &[(
                "js",
                json!("[...document.querySelectorAll('.seat')].map(s => [...s.querySelectorAll('.hand .card')].map(c => c.dataset.card))"),
            )],
        );
        let first = sc.step_no();
        sc.add("press", &[("key", json!("End"))]);
        let end = sc.step_no();
        sc.add("press", &[("key", json!("Home"))]);
        let home = sc.step_no();
        sc.add("input", &[("sel", json!("#slider")), ("value", json!(5))]);
        let slider = sc.step_no();
        let slider_url = sc.add("url", &[]);
        sc.add("goto", &[("url", json!(format!("{url}#step=7")))]);
        let hash = sc.step_no();
        // The seat's page.
        let seat_url = browser::file_url(&g.seat_page);
        sc.add("goto", &[("url", json!(format!("{seat_url}#step=0")))]);
        let seat_dom = sc.add("eval", &[("js", json!("document.documentElement.outerHTML"))]);
        let seat_title = sc.add("text", &[("sel", json!("#title"))]);
        sc.add("press", &[("key", json!("End"))]);
        let seat_scores = sc.add("texts", &[("sel", json!("#scores td.v"))]);
        marks.push(Marks {
            start,
            start_shown,
            next,
            next_shown,
            right,
            j,
            k,
            left,
            last,
            last_url,
            scores,
            seats,
            hands,
            first,
            end,
            home,
            slider,
            slider_url,
            hash,
            seat_dom,
            seat_title,
            seat_scores,
        });
    }
    let answer = browser::drive(&dir_browser, &chromium, &sc.commands);
    let problems = browser::console_problems(&answer);
    assert!(problems.is_empty(), "the pages' console: {problems:#?}");
    assert_eq!(answer["requests"], json!([]), "the pages asked the network");
    let r = &answer["results"];
    for (g, m) in games.iter().zip(&marks) {
        let name = g.name;
        let last = (g.full_data["steps"].as_array().unwrap().len() - 1).to_string();
        let n = g.record["players"].as_u64().unwrap();
        let at = |i: usize| r[i].as_str().unwrap_or_default().to_string();
        assert_eq!(at(m.start), "0", "{name}: opens at step 0");
        assert_eq!(at(m.next), "1", "{name}: the next button");
        assert_ne!(
            at(m.start_shown),
            at(m.next_shown),
            "{name}: a step changes what is shown"
        );
        assert_eq!(at(m.right), "2", "{name}: →");
        assert_eq!(at(m.j), "3", "{name}: j");
        assert_eq!(at(m.k), "2", "{name}: k");
        assert_eq!(at(m.left), "1", "{name}: ←");
        assert_eq!(at(m.last), last, "{name}: the last button");
        assert!(
            at(m.last_url).ends_with(&format!("#step={last}")),
            "{name}: the hash follows"
        );
        assert_eq!(r[m.scores], json!(scores(&g.record)), "{name}: final scores");
        assert_eq!(r[m.seats], json!(n), "{name}: a box per seat");
        // Every hand at the deal (the dealer's, in Schwimmen, comes after his choice of packet).
        let dealer = g.record["deals"][0]["dealer"].as_u64().unwrap() as usize;
        for t in (0..n as usize).filter(|&t| t != dealer) {
            let shown: BTreeSet<String> = r[m.hands][t]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| c.as_str().unwrap().to_string())
                .collect();
            assert_eq!(
                shown,
                cards(&g.record["deals"][0]["hands"][t]),
                "{name}: seat {t}'s hand at the deal"
            );
        }
        assert_eq!(at(m.first), "0", "{name}: the first button");
        assert_eq!(at(m.end), last, "{name}: End");
        assert_eq!(at(m.home), "0", "{name}: Home");
        assert_eq!(at(m.slider), "5", "{name}: the slider");
        assert!(at(m.slider_url).ends_with("#step=5"), "{name}");
        assert_eq!(at(m.hash), "7", "{name}: #step=7");
        seat_page_at_the_deal(g, r[m.seat_dom].as_str().unwrap());
        assert!(at(m.seat_title).contains("saw"), "{name}: {}", at(m.seat_title));
        assert_eq!(
            r[m.seat_scores],
            json!(scores(&g.record)),
            "{name}: the seat page's final scores"
        );
    }
}

/// A bot that answers every `act` with an action no game has: each of its turns is a fault.
fn cheat(dir: &Path) -> String {
    let body = r#"while read -r id cmd rest; do
  case "$cmd" in
    hello) echo "=$id cheat 1" ;;
    quit) echo "=$id"; exit 0 ;;
    act) echo "=$id XX" ;;
  esac
done"#;
    let path = dir.join("cheat.sh");
    std::fs::write(&path, body).unwrap();
    format!("sh {}", path.display())
}

#[test]
fn games_with_faults_and_forfeits_have_pages() {
    let dir = tempfile::tempdir().unwrap();
    for (game, policy) in [
        ("schwimmen", "substitute"),
        ("skwitz", "substitute"),
        ("rikken", "forfeit"),
    ] {
        let rec = dir.path().join(format!("{game}-{policy}.jsonl"));
        let mut c = croupier();
        c.args([
            "play",
            game,
            "--seed",
            "3",
            "--quiet",
            "--on-fault",
            policy,
            "--seat",
            &cheat(dir.path()),
        ]);
        for _ in 1..if game == "rikken" { 4 } else { 3 } {
            c.args(["--seat", "simple"]);
        }
        c.args(["--log-dir", &dir.path().join("logs").display().to_string(), "--record"])
            .arg(&rec)
            .assert()
            .success();
        let record = records(&rec).remove(0);
        let faults = record["faults"].as_array().unwrap();
        assert!(
            !faults.is_empty() && faults.iter().all(|f| f["seat"] == json!(0)),
            "{game}"
        );
        for seat in [None, Some(0), Some(1)] {
            let page = dir.path().join(format!("{game}-{seat:?}.html"));
            let mut c = croupier();
            c.arg("show").arg(&rec);
            if let Some(s) = seat {
                c.args(["--seat", &s.to_string()]);
            }
            c.arg("--html").arg(&page).assert().success();
            let d = data(&page);
            let steps = d["steps"].as_array().unwrap();
            assert_eq!(
                steps.len(),
                record["actions"].as_array().unwrap().len() + 2,
                "{game} {seat:?}"
            );
            let last = steps.last().unwrap()["events"].as_array().unwrap().last().unwrap()[1].clone();
            assert_eq!(
                last,
                json!(format!("gameover {}", scores(&record).join(" "))),
                "{game} {seat:?}"
            );
            // The cheat's faults name its answers: on its own page and the full one only.
            let shown = d["faults"].as_array().unwrap().len();
            assert_eq!(shown, if seat == Some(1) { 0 } else { faults.len() }, "{game} {seat:?}");
            assert_eq!(d["forfeit"].is_null(), policy != "forfeit", "{game} {seat:?}");
        }
    }
}

/// The browser, or a skip with a message: Chromium and Playwright (tests/browser).
fn browser_or_skip(test: &str) -> Option<(PathBuf, PathBuf)> {
    let Some(chromium) = browser::chromium() else {
        browser::skip(test, "no chromium (/usr/bin/chromium, or $CHROMIUM)");
        return None;
    };
    match browser::playwright() {
        Ok(d) => Some((chromium, d)),
        Err(why) => {
            browser::skip(test, &why);
            None
        }
    }
}

fn game_named(name: &str) -> &'static Game {
    games().iter().find(|g| g.name == name).unwrap()
}

/// Where each seat box and the table are on the page at a step: `{seats: [[left, top, right,
/// bottom]…], table: [...], trick: {seat: [...]}}`.
const GEOMETRY: &str = "(() => {
  const r = e => { const b = e.getBoundingClientRect(); return [b.left, b.top, b.right, b.bottom]; };
  const seats = [...document.querySelectorAll('.seat')].sort((a, b) => a.dataset.seat - b.dataset.seat).map(r);
  const trick = {};
  for (const p of document.querySelectorAll('#trick .play')) trick[p.dataset.seat] = r(p);
  return { seats, table: r(document.getElementById('table')), trick };
})()";

/// A bridge hand viewer's layout: the seats sit around the table, clockwise from the top
/// (North), and each card of a trick lies on its player's side of the table.
#[test]
fn the_seats_sit_around_the_table() {
    let Some((chromium, dir)) = browser_or_skip("the_seats_sit_around_the_table") else {
        return;
    };
    let rikken = game_named("rikken");
    let zwikken = game_named("zwikken");
    // A Rikken step with a whole trick on the table: the step that plays its fourth card.
    let steps = rikken.full_data["steps"].as_array().unwrap();
    let full_trick = steps
        .iter()
        .position(|s| {
            s["events"]
                .as_array()
                .unwrap()
                .iter()
                .any(|e| e[1].as_str().unwrap().starts_with("trick "))
        })
        .expect("a trick is won");
    let mut sc = Script::default();
    sc.add(
        "goto",
        &[(
            "url",
            json!(format!("{}#step={full_trick}", browser::file_url(&rikken.full))),
        )],
    );
    let r4 = sc.add("eval", &[("js", json!(GEOMETRY))]);
    sc.add(
        "goto",
        &[("url", json!(format!("{}#step=1", browser::file_url(&zwikken.full))))],
    );
    let z3 = sc.add("eval", &[("js", json!(GEOMETRY))]);
    let answer = browser::drive(&dir, &chromium, &sc.commands);
    assert!(browser::console_problems(&answer).is_empty(), "{answer}");
    let r = &answer["results"];
    let rect = |v: &Value| -> [f64; 4] {
        let a = v.as_array().unwrap();
        [0, 1, 2, 3].map(|i| a[i].as_f64().unwrap())
    };
    let mid = |b: [f64; 4]| ((b[0] + b[2]) / 2.0, (b[1] + b[3]) / 2.0);
    // Rikken: North above the table, East to its right, South below, West to its left.
    let t = rect(&r[r4]["table"]);
    let s: Vec<[f64; 4]> = r[r4]["seats"].as_array().unwrap().iter().map(rect).collect();
    assert!(s[0][3] <= t[1], "North {:?} above the table {t:?}", s[0]);
    assert!(s[1][0] >= t[2], "East {:?} right of the table {t:?}", s[1]);
    assert!(s[2][1] >= t[3], "South {:?} below the table {t:?}", s[2]);
    assert!(s[3][2] <= t[0], "West {:?} left of the table {t:?}", s[3]);
    // The four cards of the trick, each toward its player.
    let trick = &r[r4]["trick"];
    let c: Vec<(f64, f64)> = (0..4).map(|k| mid(rect(&trick[k.to_string()]))).collect();
    assert!(
        c[0].1 < c[1].1 && c[0].1 < c[3].1 && c[2].1 > c[1].1 && c[2].1 > c[3].1,
        "{trick}"
    );
    assert!(
        c[1].0 > c[0].0 && c[1].0 > c[2].0 && c[3].0 < c[0].0 && c[3].0 < c[2].0,
        "{trick}"
    );
    // Three players: seat 0 at the top, then clockwise: seat 1 below right, seat 2 below left.
    let t = rect(&r[z3]["table"]);
    let s: Vec<[f64; 4]> = r[z3]["seats"].as_array().unwrap().iter().map(rect).collect();
    assert!(s[0][3] <= t[1], "seat 0 {:?} above the table {t:?}", s[0]);
    assert!(mid(s[1]).1 > mid(t).1 && mid(s[2]).1 > mid(t).1, "{s:?} {t:?}");
    assert!(mid(s[1]).0 > mid(s[2]).0, "seat 1 right of seat 2: {s:?}");
}

/// A seat's page shows how many cards every other seat holds (as backs, and in words), as
/// many as that seat's own hand holds at the step (the full page shows them).
#[test]
fn hidden_hands_show_how_many_cards_they_hold() {
    let Some((chromium, dir)) = browser_or_skip("hidden_hands_show_how_many_cards_they_hold") else {
        return;
    };
    let counts = "[...document.querySelectorAll('.seat')].sort((a, b) => a.dataset.seat - b.dataset.seat)
        .map(s => [s.querySelectorAll('.hand .card.back').length, (s.querySelector('.hand .count') || {}).textContent || ''])";
    let mut sc = Script::default();
    let mut marks = Vec::new();
    for name in ["rikken", "kul", "skwitz"] {
        let g = game_named(name);
        let steps = g.seat_data["steps"].as_array().unwrap().len();
        sc.add(
            "goto",
            &[("url", json!(format!("{}#step=0", browser::file_url(&g.seat_page))))],
        );
        for k in [0, steps / 3, steps / 2, steps - 2] {
            sc.add("eval", &[("js", json!(format!("go({k})")))]);
            marks.push((g, k, sc.add("eval", &[("js", json!(counts))])));
        }
    }
    let answer = browser::drive(&dir, &chromium, &sc.commands);
    assert!(browser::console_problems(&answer).is_empty(), "{answer}");
    for (g, k, i) in marks {
        // The full page's views: each seat's hand after step k.
        let mut hands: Vec<Value> = vec![json!([]); g.record["players"].as_u64().unwrap() as usize];
        for st in &g.full_data["steps"].as_array().unwrap()[..=k] {
            for (s, v) in st["views"].as_array().unwrap().iter().enumerate() {
                if let Some(h) = v.get("hand") {
                    hands[s] = h.clone();
                }
            }
        }
        for (s, shown) in answer["results"][i].as_array().unwrap().iter().enumerate() {
            if s == g.seat {
                continue;
            }
            let n = hands[s].as_array().unwrap().len();
            let words = if n == 1 {
                "1 card".to_string()
            } else {
                format!("{n} cards")
            };
            assert_eq!(
                shown,
                &json!([n, words]),
                "{} step {k}: seat {s}'s hidden hand on seat {}'s page",
                g.name,
                g.seat
            );
        }
    }
}

/// Rikken's bidding as an auction grid: a column per seat, each call in its bidder's column,
/// in words, and the automatic re-passes marked; the calls chosen are the record's.
#[test]
fn rikken_bidding_is_an_auction_grid() {
    let Some((chromium, dir)) = browser_or_skip("rikken_bidding_is_an_auction_grid") else {
        return;
    };
    let g = game_named("rikken");
    let bids: Vec<(u64, String)> = g.record["actions"]
        .as_array()
        .unwrap()
        .iter()
        .take_while(|a| {
            let t = a["action"].as_str().unwrap();
            t == "pass" || t.chars().any(|c| c.is_ascii_lowercase())
        })
        .map(|a| (a["seat"].as_u64().unwrap(), a["action"].as_str().unwrap().to_string()))
        .collect();
    assert!(bids.len() >= 4, "{bids:?}");
    let grid = "(() => { const t = document.getElementById('auction'); if (!t) return null;
        return { head: [...t.querySelectorAll('th')].map(h => h.textContent),
                 rows: [...t.querySelectorAll('tr')].slice(1).map(r => [...r.children].map(c => [c.textContent, c.className, c.dataset.seat === undefined ? null : Number(c.dataset.seat)])) }; })()";
    let mut sc = Script::default();
    sc.add(
        "goto",
        &[(
            "url",
            json!(format!("{}#step={}", browser::file_url(&g.full), bids.len())),
        )],
    );
    let at = sc.add("eval", &[("js", json!(grid))]);
    let answer = browser::drive(&dir, &chromium, &sc.commands);
    let r = &answer["results"][at];
    assert_eq!(r["head"], json!(["North", "East", "South", "West"]), "{r}");
    let mut chosen = Vec::new();
    let mut passed = BTreeSet::new();
    for row in r["rows"].as_array().unwrap() {
        for (col, cell) in row.as_array().unwrap().iter().enumerate() {
            let text = cell[0].as_str().unwrap();
            if text.is_empty() {
                continue;
            }
            assert_eq!(cell[2], json!(col), "a call in its bidder's column: {r}");
            assert!(!text.contains('_'), "a call in words: {text}");
            if cell[1] == "auto" {
                assert!(text == "pass" && passed.contains(&col), "an automatic pass: {r}");
            } else {
                chosen.push((col as u64, text.to_string()));
            }
            if text == "pass" {
                passed.insert(col);
            }
        }
    }
    let words = |t: &str| croupier::games::rikken::view::contract_words(t);
    let expected: Vec<(u64, String)> = bids.iter().map(|(s, t)| (*s, words(t))).collect();
    assert_eq!(chosen, expected, "the calls chosen, in order: {r}");
}

/// Schwimmen: every hand shown has its value beside it, as the rules count it.
#[test]
fn schwimmen_hands_show_their_value() {
    let Some((chromium, dir)) = browser_or_skip("schwimmen_hands_show_their_value") else {
        return;
    };
    let g = game_named("schwimmen");
    let values = "[...document.querySelectorAll('.seat')].map(s => [[...s.querySelectorAll('.hand .card')].map(c => c.dataset.card), (s.querySelector('.row.value .value') || {}).textContent || null])";
    let mut sc = Script::default();
    sc.add("goto", &[("url", json!(browser::file_url(&g.full)))]);
    let steps = g.full_data["steps"].as_array().unwrap().len();
    let mut marks = Vec::new();
    for k in (1..steps).step_by(steps / 12) {
        sc.add("eval", &[("js", json!(format!("go({k})")))]);
        marks.push(sc.add("eval", &[("js", json!(values))]));
    }
    let answer = browser::drive(&dir, &chromium, &sc.commands);
    assert!(browser::console_problems(&answer).is_empty(), "{answer}");
    let mut checked = 0;
    for i in marks {
        for seat in answer["results"][i].as_array().unwrap() {
            let cards: Vec<String> = seat[0]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| c.as_str().unwrap().to_string())
                .collect();
            if cards.len() != 3 {
                assert!(seat[1].is_null(), "{seat}");
                continue;
            }
            let points = |c: &str| match &c[..1] {
                "A" => 11,
                "K" | "Q" | "J" | "T" => 10,
                n => n.parse::<u32>().unwrap(),
            };
            let best = "SHDC"
                .chars()
                .map(|s| cards.iter().filter(|c| c.ends_with(s)).map(|c| points(c)).sum::<u32>())
                .max()
                .unwrap();
            let trio = cards.iter().all(|c| c[..1] == cards[0][..1]);
            let value = if trio && best < 31 {
                "30.5".to_string()
            } else {
                best.to_string()
            };
            assert_eq!(seat[1], json!(value), "{seat}");
            checked += 1;
        }
    }
    assert!(checked > 10, "{checked} hands checked");
}

/// No page shows a raw token: no card token (`AS`), no word with an underscore
/// (`no_play`, `must_lead_called`, `solo_beter`), at steps all through every game, on the
/// full page and a seat's; Zwikken's deals so far read as words.
#[test]
fn no_page_shows_raw_tokens() {
    let Some((chromium, dir)) = browser_or_skip("no_page_shows_raw_tokens") else {
        return;
    };
    let mut sc = Script::default();
    let mut marks = Vec::new();
    for g in games() {
        for page in [&g.full, &g.seat_page] {
            sc.add("goto", &[("url", json!(browser::file_url(page)))]);
            let steps = g.full_data["steps"].as_array().unwrap().len();
            for k in (0..steps).step_by((steps / 25).max(1)).chain([steps - 1]) {
                sc.add("eval", &[("js", json!(format!("go({k})")))]);
                marks.push((
                    g.name,
                    k,
                    sc.add("eval", &[("js", json!("document.querySelector('main').innerText"))]),
                ));
            }
        }
    }
    let answer = browser::drive(&dir, &chromium, &sc.commands);
    assert!(
        browser::console_problems(&answer).is_empty(),
        "{:?}",
        browser::console_problems(&answer)
    );
    let mut zwikken_history = false;
    for (name, k, i) in marks {
        let text = answer["results"][i].as_str().unwrap();
        let tokens = card_tokens(text);
        assert!(tokens.is_empty(), "{name} step {k}: card tokens {tokens:?} in\n{text}");
        let underscored: Vec<&str> = text
            .split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .filter(|w| w.contains('_'))
            .collect();
        assert!(underscored.is_empty(), "{name} step {k}: {underscored:?} in\n{text}");
        zwikken_history |= name == "zwikken" && text.contains("Deals so far: 1: ");
    }
    assert!(zwikken_history, "Zwikken's deals so far are on the page");
}
