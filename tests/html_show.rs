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
        let events = croupier::record::replay(&rec, &spec).unwrap();
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

/// A card as the page writes it in words: `♠A`, `♥10`.
fn pretty(card: &str) -> String {
    let suit = match &card[1..] {
        "S" => "♠",
        "H" => "♥",
        "D" => "♦",
        _ => "♣",
    };
    let rank = if &card[..1] == "T" { "10" } else { &card[..1] };
    format!("{suit}{rank}")
}

/// The `data-card`s of the cards in a DOM dump's seat box (the text up to the next seat box).
fn seat_cards(dom: &str, seat: Seat) -> (BTreeSet<String>, usize) {
    let tag = format!(" data-seat=\"{seat}\"><h3>");
    let start = dom.find(&tag).unwrap_or_else(|| panic!("no seat {seat} in the page")) + tag.len();
    let rest = &dom[start..];
    let end = rest.find("data-seat=").unwrap_or(rest.len());
    let part = &rest[..end];
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
        for e in steps[last]["events"].as_array().unwrap() {
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
