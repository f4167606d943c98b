//! `croupier stats --html`: the report page of match, compare and tournament records. Its
//! tables hold exactly the strings `stats` prints, its data the numbers `stats --json` gives
//! (the running estimate ends at them; a compare run's evidence crosses its bound where `compare`
//! stopped), its curves and histograms stay small whatever the number of deals; in a real
//! headless Chromium it renders without console errors or network requests, with a mark per bot
//! and the evidence's trajectory. The browser tests skip, saying so, without Chromium (or node and
//! playwright-core: `npm ci` in tests/browser).

mod common;

use common::browser::{self, op};
use common::{assert_usage_error, croupier, records};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

/// The records of a match of two bots, a compare run and a tournament of three, their report,
/// and what `stats` and `compare` printed.
struct Fixture {
    files: Vec<PathBuf>,
    page: PathBuf,
    /// `stats` of the files: its text and its JSON lines (one per group).
    text: String,
    json: Vec<Value>,
    /// `compare --json`.
    compare: Value,
}

fn fixture() -> &'static Fixture {
    static F: std::sync::OnceLock<Fixture> = std::sync::OnceLock::new();
    F.get_or_init(|| {
        let dir = common::shared_fixture_dir("stats_html");
        let m = dir.join("match.jsonl");
        croupier()
            .args([
                "match",
                "kul",
                "--players",
                "4",
                "--bot",
                "a=simple",
                "--bot",
                "b=random",
            ])
            .args(["--games", "40"])
            .args(["--seed", "3", "--quiet", "--record"])
            .arg(&m)
            .assert()
            .success();
        let c = dir.join("compare.jsonl");
        let out = croupier()
            .args([
                "compare",
                "kul",
                "--players",
                "3",
                "--candidate",
                "simple",
                "--baseline",
                "random",
            ])
            // Not compare's defaults: the page must draw the test the run used.
            .args(["--sprt", "-0.5,0.5", "--alpha", "0.1", "--beta", "0.1"])
            .args(["--games", "400", "--seed", "4", "--quiet", "--json", "--record"])
            .arg(&c)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "compare passes");
        let compare: Value = serde_json::from_slice(&out.stdout).unwrap();
        let t = dir.join("tournament.jsonl");
        croupier()
            .args([
                "tournament",
                "kul",
                "--bot",
                "s=simple",
                "--bot",
                "r=random",
                "--bot",
                "p=simple",
            ])
            .args(["--players", "2", "--games", "15", "--seed", "5", "--quiet", "--record"])
            .arg(&t)
            .assert()
            .success();
        let files = vec![m, c, t];
        let page = dir.join("report.html");
        let out = croupier()
            .arg("stats")
            .args(&files)
            .arg("--html")
            .arg(&page)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let text = String::from_utf8(out.stdout).unwrap();
        let plain = croupier().arg("stats").args(&files).output().unwrap();
        assert_eq!(
            text,
            String::from_utf8(plain.stdout).unwrap(),
            "--html prints the same tables"
        );
        let out = croupier().arg("stats").arg("--json").args(&files).output().unwrap();
        let json = String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        Fixture {
            files,
            page,
            text,
            json,
            compare,
        }
    })
}

/// The data a page embeds (`const DATA = {…};`, one line).
fn data(page: &Path) -> Value {
    let text = std::fs::read_to_string(page).unwrap();
    let start = text.find("const DATA = ").expect("the page holds its data") + "const DATA = ".len();
    let line = text[start..].lines().next().unwrap();
    serde_json::from_str(line.trim_end().trim_end_matches(';')).unwrap()
}

/// One group of `stats`' text: its heading, its table's lines (header first), the lines of its
/// pairs.
struct Printed {
    heading: String,
    table: Vec<String>,
    pairs: Vec<String>,
}

fn printed(text: &str) -> Vec<Printed> {
    let mut out: Vec<Printed> = Vec::new();
    let mut in_table = false;
    for l in text.lines() {
        if l.contains(" deal(s), ") && l.contains(" game(s)") && !l.starts_with(' ') {
            out.push(Printed {
                heading: l.to_string(),
                table: Vec::new(),
                pairs: Vec::new(),
            });
            in_table = true;
        } else if l.is_empty() || l.starts_with("rating: ") {
            in_table = false;
        } else if let Some(g) = out.last_mut() {
            if in_table {
                g.table.push(l.to_string());
            } else if l.starts_with("  ") {
                g.pairs.push(l.to_string());
            }
        }
    }
    out
}

fn words(s: &str) -> Vec<String> {
    s.split_whitespace().map(String::from).collect()
}

/// `+1.23`, as `stats` prints a number.
fn signed(x: f64) -> String {
    format!("{x:+.2}")
}

#[test]
fn the_page_is_self_contained_and_its_data_ends_at_the_numbers_stats_prints() {
    let f = fixture();
    let text = std::fs::read_to_string(&f.page).unwrap();
    for needle in [
        "http://",
        "https://",
        "<link",
        "@import",
        "src=",
        "url(http",
        "@font-face",
    ] {
        assert!(!text.contains(needle), "the page has {needle}");
    }
    let script = &text[text.find("const DATA = ").unwrap()..];
    assert!(!script.lines().next().unwrap().contains('<'), "no '<' in the data");
    let d = data(&f.page);
    let groups = d["groups"].as_array().unwrap();
    assert_eq!(groups.len(), 3);
    assert_eq!(
        groups.iter().map(|g| g["kind"].as_str().unwrap()).collect::<Vec<_>>(),
        ["match", "compare", "tournament"]
    );
    for (g, j) in groups.iter().zip(&f.json) {
        assert_eq!(&g["stats"], j, "the group's stats --json");
        let r = &g["running"];
        let deals = r["deals"].as_array().unwrap();
        assert_eq!(
            deals.last().unwrap(),
            &j["deals"],
            "{}: the last point is the last deal",
            g["kind"]
        );
        assert!(deals.len() <= 513);
        let last = r["values"].as_array().unwrap().last().unwrap().as_array().unwrap();
        let series: Vec<&str> = r["series"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_str().unwrap())
            .collect();
        // The final estimate of each curve is what stats gives, to the last bit.
        let expected: Vec<Value> = match g["kind"].as_str().unwrap() {
            "match" => {
                assert_eq!(series, ["a − b"]);
                vec![j["pairs"][0]["mean"].clone()]
            }
            "compare" => {
                assert_eq!(series, ["candidate − baseline"]);
                let p = j["pairs"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|p| p["a"] == "candidate" && p["b"] == "baseline");
                vec![p.unwrap()["mean"].clone()]
            }
            _ => series
                .iter()
                .map(|s| {
                    let b = j["bots"].as_array().unwrap().iter().find(|b| b["bot"] == *s).unwrap();
                    b["rating"].clone()
                })
                .collect(),
        };
        assert_eq!(
            last.iter().map(|v| v[0].clone()).collect::<Vec<_>>(),
            expected,
            "{}",
            g["kind"]
        );
        // Histograms: a bot's counts add up to its deals.
        for h in g["hist"].as_array().unwrap() {
            let n: u64 = h["bins"]
                .as_array()
                .unwrap()
                .iter()
                .map(|b| b[1].as_u64().unwrap())
                .sum();
            let bot = j["bots"]
                .as_array()
                .unwrap()
                .iter()
                .find(|b| b["bot"] == h["bot"])
                .unwrap();
            let deals = bot.get("deals").and_then(Value::as_u64);
            // A tournament bot sits at two of the three tables.
            let want = deals.unwrap_or(j["deals"].as_u64().unwrap() * 2 / 3);
            assert_eq!(n, want, "{}: {}", g["kind"], h["bot"]);
        }
        assert_eq!(g["test"].is_null(), g["kind"] != "compare");
    }
    // The compare run's evidence: compare's own, and the test decides where compare stopped.
    let llr = &groups[1]["test"];
    assert_eq!(llr["recorded"], true);
    assert!(
        llr["note"]
            .as_str()
            .unwrap()
            .contains("the test the run used (--sprt -0.5,0.5 --alpha 0.1 --beta 0.1)"),
        "{}",
        llr["note"]
    );
    assert_eq!(llr["bounds"], f.compare["evidence_bounds"]);
    assert_eq!(llr["decided"]["deal"], f.compare["deals"]);
    assert_eq!(llr["decided"]["result"], f.compare["result"]);
    let (ours, theirs) = (llr["final"].as_f64().unwrap(), f.compare["evidence"].as_f64().unwrap());
    assert!(
        (ours - theirs).abs() < 1e-9,
        "evidence {ours} against compare's {theirs}"
    );
    assert_eq!(
        llr["deals"].as_array().unwrap().len(),
        f.compare["deals"].as_u64().unwrap() as usize
    );
}

#[test]
fn a_report_of_ten_thousand_deals_keeps_a_bounded_number_of_points() {
    let dir = tempfile::tempdir().unwrap();
    // A match's first deal (its games, one per seating), made into 10,000 deals with scores
    // that vary (the actions and cards left out: stats reads the scores, and the input is
    // small enough for a debug build).
    let deal: Vec<Value> = records(&fixture().files[0])
        .into_iter()
        .filter(|r| r["tags"]["set"] == 0)
        .collect();
    assert!(deal.len() >= 2);
    let src = dir.path().join("big.jsonl");
    // Each game as a template (the seed, set and scores to fill in), for speed.
    let templates: Vec<(String, usize)> = deal
        .iter()
        .map(|r| {
            let mut r = r.clone();
            r["seed"] = json!("@SEED@");
            r["tags"]["set"] = json!("@SET@");
            r["actions"] = json!([]);
            r["deals"] = json!([]);
            let n = r["result"]["scores"].as_array().unwrap().len();
            r["result"]["scores"] = json!((0..n).map(|s| format!("@S{s}@")).collect::<Vec<_>>());
            (serde_json::to_string(&r).unwrap(), n)
        })
        .collect();
    let mut text = String::new();
    for i in 0..10_000u64 {
        for (t, n) in &templates {
            let mut line = t
                .replace("\"@SEED@\"", &format!("\"{}\"", 1_000_000 + i))
                .replace("\"@SET@\"", &i.to_string());
            // Scores that vary from deal to deal and seat to seat, in halves.
            for s in 0..*n {
                let k = ((i * 7919 + s as u64 * 31) % 13) as f64 - 6.0;
                let x = if s + 1 < *n { k / 2.0 } else { 0.0 };
                line = line.replace(&format!("\"@S{s}@\""), &x.to_string());
            }
            text.push_str(&line);
            text.push('\n');
        }
    }
    std::fs::write(&src, text).unwrap();
    let out = croupier()
        .arg("stats")
        .arg("--html")
        .arg("-")
        .arg(&src)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let page = dir.path().join("big.html");
    std::fs::write(&page, &out.stdout).unwrap();
    // The tables went to stderr: stdout is the page alone.
    assert!(String::from_utf8_lossy(&out.stderr).contains("10000 deal(s)"));
    assert!(out.stdout.starts_with(b"<!DOCTYPE html>"));
    assert!(out.stdout.len() < 200_000, "{} bytes", out.stdout.len());
    let d = data(&page);
    let r = &d["groups"][0]["running"];
    let n = r["deals"].as_array().unwrap().len();
    assert!((128..=513).contains(&n), "{n} points");
    assert_eq!(r["deals"].as_array().unwrap().last().unwrap(), 10_000);
    for h in d["groups"][0]["hist"].as_array().unwrap() {
        assert!(h["bins"].as_array().unwrap().len() <= 200);
    }
}

#[test]
fn bad_uses_of_html_are_refused_before_anything_is_read() {
    let f = fixture();
    let m = f.files[0].to_str().unwrap();
    // A path that cannot be written: named, exit 2, whatever the records (here none exist).
    assert_usage_error(
        &[
            "stats",
            "--html",
            "/nonexistent-dir/r.html",
            "/nonexistent-dir/no.jsonl",
        ],
        &["--html /nonexistent-dir/r.html"],
    );
    // The record file is not overwritten by its report.
    let before = std::fs::read(m).unwrap();
    assert_usage_error(&["stats", m, "--html", m], &["give each output its own file"]);
    assert_eq!(std::fs::read(m).unwrap(), before);
}

#[test]
fn chromium_renders_every_group_with_its_charts() {
    let Some(chromium) = browser::chromium() else {
        browser::skip(
            "chromium_renders_every_group_with_its_charts",
            "no chromium (/usr/bin/chromium, or $CHROMIUM)",
        );
        return;
    };
    let f = fixture();
    let dom = browser::dump_dom(&chromium, &browser::file_url(&f.page));
    assert!(dom.contains("data-ready=\"1\""), "the script ran to its end");
    for k in 0..3 {
        let start = dom.find(&format!("<section class=\"group\" id=\"g{k}\"")).unwrap();
        let part = &dom[start..];
        let part = &part[..part.find("</section>").unwrap()];
        let bots = f.json[k]["bots"].as_array().unwrap().len();
        assert_eq!(
            part.matches("class=\"mark\"").count(),
            bots,
            "group {k}: a mark per bot"
        );
        assert_eq!(part.matches("<svg class=\"hist\"").count(), bots, "group {k}");
        assert_eq!(part.contains("<svg class=\"evidence\""), k == 1, "group {k}");
        assert!(part.contains("<svg class=\"running\""), "group {k}");
    }
}

#[test]
fn playwright_finds_the_numbers_stats_prints_and_no_errors() {
    let Some(chromium) = browser::chromium() else {
        browser::skip(
            "playwright_finds_the_numbers_stats_prints_and_no_errors",
            "no chromium (/usr/bin/chromium, or $CHROMIUM)",
        );
        return;
    };
    let dir = match browser::playwright() {
        Ok(d) => d,
        Err(why) => {
            browser::skip("playwright_finds_the_numbers_stats_prints_and_no_errors", &why);
            return;
        }
    };
    let f = fixture();
    // Per group: heading, table rows' cells, pairs' cells; the charts' marks, curves, labels.
    let js = r#"[...document.querySelectorAll("section.group")].map(s => {
        const cells = sel => [...s.querySelectorAll(sel + " tr")].map(tr => [...tr.children].map(c => c.textContent));
        const q = sel => [...s.querySelectorAll(sel)];
        const running = s.querySelector("svg.running");
        const vb = running.viewBox.baseVal;
        return {
          heading: s.querySelector("h2").textContent,
          table: cells("table.bots"),
          pairs: cells("table.pairs"),
          marks: q("svg.estimates .mark").map(m => m.getAttribute("data-bot")),
          estimates: q("svg.estimates text.estimate").map(t => t.textContent),
          lines: q("svg.running polyline.line").map(l => ({
            series: l.getAttribute("data-series"),
            last: l.getAttribute("points").trim().split(" ").pop().split(",").map(Number),
          })),
          finals: q("svg.running line.final").map(l => ({ series: l.getAttribute("data-series"), y: Number(l.getAttribute("y1")), x2: Number(l.getAttribute("x2")) })),
          labels: q("svg.running text.final-label").map(t => t.textContent),
          width: vb.width,
          llr: q("svg.evidence polyline.evidence-line").map(l => l.getAttribute("points").trim().split(" ").length),
          bounds: q("svg.evidence line.bound").map(l => Number(l.getAttribute("data-bound"))),
          llrText: q(".test-final").map(p => p.textContent).join(""),
          hist: q("svg.hist").map(h => ({ bot: h.getAttribute("data-bot"), n: [...h.querySelectorAll("rect.bar")].reduce((a, r) => a + Number(r.getAttribute("data-count")), 0) })),
        };
      })"#;
    let answer = browser::drive(
        &dir,
        &chromium,
        &[
            op("goto", &[("url", json!(browser::file_url(&f.page)))]),
            op("eval", &[("js", json!(js))]),
        ],
    );
    assert_eq!(browser::console_problems(&answer), Vec::<String>::new());
    assert_eq!(answer["requests"], json!([]), "no network requests");
    let groups = answer["results"][1].as_array().unwrap();
    let printed = printed(&f.text);
    assert_eq!(groups.len(), 3);
    assert_eq!(printed.len(), 3);
    for (k, ((g, p), j)) in groups.iter().zip(&printed).zip(&f.json).enumerate() {
        let kind = ["match", "compare", "tournament"][k];
        assert_eq!(g["heading"], json!(p.heading), "{kind}");
        // The table: its lines as stats prints them, cell by cell.
        let table: Vec<Vec<String>> = serde_json::from_value(g["table"].clone()).unwrap();
        assert_eq!(table.len(), p.table.len(), "{kind}: {table:?}");
        for (row, line) in table.iter().zip(&p.table) {
            assert_eq!(words(&row.join(" ")), words(line), "{kind}");
        }
        // And the numbers of stats --json in the row of each bot, formatted as stats does.
        let value = if kind == "tournament" { "rating" } else { "mean" };
        for b in j["bots"].as_array().unwrap() {
            let name = b["bot"].as_str().unwrap();
            let row = table
                .iter()
                .find(|r| r[0] == name)
                .unwrap_or_else(|| panic!("{kind}: no row {name}"));
            assert!(
                row.contains(&signed(b[value].as_f64().unwrap())),
                "{kind} {name}: {row:?}"
            );
            assert!(row.contains(&b["games"].to_string()) && row.contains(&b["faults"].to_string()));
            if !(kind == "tournament" && name == j["reference"]) {
                let (lo, hi) = (b["ci95"][0].as_f64().unwrap(), b["ci95"][1].as_f64().unwrap());
                assert!(
                    row.contains(&format!("[{}, {}]", signed(lo), signed(hi))),
                    "{kind} {name}: {row:?}"
                );
            }
        }
        // The pairs as printed.
        let pairs: Vec<Vec<String>> = serde_json::from_value(g["pairs"].clone()).unwrap();
        let shown: Vec<String> = pairs
            .iter()
            .skip(1)
            .map(|c| match kind {
                "tournament" => format!("  {}: {}  (head to head {})", c[0], c[1], c[2]),
                _ => format!("  {}: {} over {} deal(s)", c[0], c[1], c[2]),
            })
            .collect();
        assert_eq!(shown, p.pairs, "{kind}");
        assert!(!shown.is_empty(), "{kind}");
        // A mark per bot, labelled with the numbers of its row, in the order of the rows (a
        // tournament's by rating, not the order of --bot that stats --json keeps).
        let names: Vec<&str> = table.iter().skip(1).map(|r| r[0].as_str()).collect();
        assert_eq!(names.len(), j["bots"].as_array().unwrap().len(), "{kind}");
        assert_eq!(g["marks"], json!(names), "{kind}");
        for (text, name) in g["estimates"].as_array().unwrap().iter().zip(&names) {
            let row = table.iter().find(|r| r[0] == *name).unwrap();
            let (v, i) = if kind == "tournament" {
                (&row[1], &row[2])
            } else {
                (&row[2], &row[3])
            };
            assert_eq!(text, &json!(format!("{v} {i}")), "{kind} {name}");
        }
        // The running estimate ends at the last deal (the plot's right edge) on its final
        // value, labelled as stats prints it.
        let lines = g["lines"].as_array().unwrap();
        let finals = g["finals"].as_array().unwrap();
        assert_eq!(lines.len(), if kind == "tournament" { 3 } else { 1 }, "{kind}");
        assert_eq!(finals.len(), lines.len(), "{kind}");
        for (l, fin) in lines.iter().zip(finals) {
            let (x, y) = (l["last"][0].as_f64().unwrap(), l["last"][1].as_f64().unwrap());
            assert!(
                (x - fin["x2"].as_f64().unwrap()).abs() < 0.01,
                "{kind}: ends at the right edge: {l} {fin}"
            );
            assert!(
                (y - fin["y"].as_f64().unwrap()).abs() < 0.01,
                "{kind}: ends on the final value: {l} {fin}"
            );
        }
        let labels: Vec<String> = serde_json::from_value(g["labels"].clone()).unwrap();
        let want: Vec<String> = match kind {
            "tournament" => names
                .iter()
                .map(|name| {
                    let b = j["bots"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .find(|b| b["bot"] == *name)
                        .unwrap();
                    format!("{name} {}", signed(b["rating"].as_f64().unwrap()))
                })
                .collect(),
            _ => {
                let p = j["pairs"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|p| kind == "match" || (p["a"] == "candidate" && p["b"] == "baseline"))
                    .unwrap();
                vec![format!(
                    "{} − {} {}",
                    p["a"].as_str().unwrap(),
                    p["b"].as_str().unwrap(),
                    signed(p["mean"].as_f64().unwrap())
                )]
            }
        };
        assert_eq!(labels, want, "{kind}");
        // Histograms: one per bot, its bars counting the bot's deals.
        assert_eq!(g["hist"].as_array().unwrap().len(), names.len(), "{kind}");
        // The compare run's evidence between its bounds; the others have none.
        if kind == "compare" {
            assert_eq!(
                g["llr"],
                json!([f.compare["deals"].as_u64().unwrap()]),
                "a point per deal"
            );
            let bounds: Vec<f64> = serde_json::from_value(g["bounds"].clone()).unwrap();
            assert_eq!(json!(bounds), f.compare["evidence_bounds"]);
            let text = g["llrText"].as_str().unwrap();
            assert!(
                text.contains(&format!("evidence {}", signed(f.compare["evidence"].as_f64().unwrap())))
                    && text.contains(&format!("pass at deal {}", f.compare["deals"])),
                "{text}"
            );
        } else {
            assert_eq!(g["llr"], json!([]), "{kind}");
        }
    }
}

#[test]
fn a_compare_run_of_equal_bots_draws_the_evidence_of_their_ties() {
    let dir = tempfile::tempdir().unwrap();
    let rec = dir.path().join("same.jsonl");
    // simple against itself: every paired difference is 0, and each tie wins the pass side a bet.
    let out = croupier()
        .args([
            "compare",
            "kul",
            "--players",
            "3",
            "--candidate",
            "simple",
            "--baseline",
            "simple",
        ])
        .args([
            "--field", "random", "--games", "400", "--seed", "4", "--quiet", "--json", "--record",
        ])
        .arg(&rec)
        .output()
        .unwrap();
    let compare: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(compare["result"], "pass", "{compare}");
    let page = dir.path().join("same.html");
    croupier()
        .arg("stats")
        .arg(&rec)
        .arg("--html")
        .arg(&page)
        .assert()
        .success();
    let test = &data(&page)["groups"][0]["test"];
    assert_eq!(test["decided"]["deal"], compare["deals"]);
    assert_eq!(test["final"], compare["evidence"]);
    let points: Vec<f64> = serde_json::from_value(test["evidence"].clone()).unwrap();
    assert!(points[0] > 0.0, "one tie already wins a bet");
    assert!(points.windows(2).all(|w| w[1] > w[0]), "every tie adds to the evidence");
    let Some(chromium) = browser::chromium() else {
        browser::skip(
            "a_compare_run_of_equal_bots_draws_the_evidence_of_their_ties",
            "no chromium (/usr/bin/chromium, or $CHROMIUM)",
        );
        return;
    };
    let dom = browser::dump_dom(&chromium, &browser::file_url(&page));
    assert!(dom.contains("data-ready=\"1\""), "the script ran to its end");
    let deals = compare["deals"].as_u64().unwrap();
    assert!(dom.contains(&format!("data-points=\"{deals}\"")), "a point per deal");
    assert!(dom.contains(&format!("after {deals} deal(s)")));
    assert!(dom.contains(&format!("pass at deal {deals}")));
}

#[test]
fn a_reader_that_stops_reading_the_tables_does_not_stop_the_page() {
    let f = fixture();
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("r.html");
    // Standard output's reader is gone before croupier writes a line (`stats … | head -0`).
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("croupier"))
        .arg("stats")
        .args(&f.files)
        .arg("--html")
        .arg(&page)
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    assert!(child.wait().unwrap().success());
    assert_eq!(std::fs::read(&page).unwrap(), std::fs::read(&f.page).unwrap());
}

#[test]
fn a_tournaments_charts_and_pairs_follow_its_table_and_deal_axes_count_whole_deals() {
    let Some(chromium) = browser::chromium() else {
        browser::skip(
            "a_tournaments_charts_and_pairs_follow_its_table_and_deal_axes_count_whole_deals",
            "no chromium (/usr/bin/chromium, or $CHROMIUM)",
        );
        return;
    };
    let dir = match browser::playwright() {
        Ok(d) => d,
        Err(why) => {
            browser::skip(
                "a_tournaments_charts_and_pairs_follow_its_table_and_deal_axes_count_whole_deals",
                &why,
            );
            return;
        }
    };
    let tmp = tempfile::tempdir().unwrap();
    // random first: the order of --bot is not the order by rating.
    let t = tmp.path().join("t.jsonl");
    croupier()
        .args([
            "tournament",
            "kul",
            "--players",
            "2",
            "--bot",
            "r=random",
            "--bot",
            "s=simple",
        ])
        .args(["--bot", "h=mix:p=0.5", "--deals", "12", "--seed", "5", "-q", "--record"])
        .arg(&t)
        .assert()
        .success();
    // 15 deals without a decision: an axis from 1 to 15, where ticks of 2.5 deals fit.
    let c = tmp.path().join("c.jsonl");
    let out = croupier()
        .args([
            "compare",
            "kul",
            "--players",
            "3",
            "--candidate",
            "random",
            "--baseline",
            "random",
        ])
        .args(["--deals", "15", "--seed", "4", "-q", "--json", "--record"])
        .arg(&c)
        .output()
        .unwrap();
    let compare: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(compare["deals"], 15, "{compare}");
    let page = tmp.path().join("r.html");
    croupier()
        .arg("stats")
        .args([&t, &c])
        .arg("--html")
        .arg(&page)
        .assert()
        .success();
    // What a person sees, top to bottom: the table's bots, the pairs, the names beside the
    // ratings chart; each bot's colour there, in the running estimate and in its histogram;
    // the numbers under the deal axes.
    let js = r#"[...document.querySelectorAll("section.group")].map(s => {
        const box = e => e.getBoundingClientRect();
        const mid = e => (box(e).top + box(e).bottom) / 2;
        const byTop = list => [...list].sort((a, b) => box(a).top - box(b).top);
        const first = tr => tr.children[0].textContent;
        const rows = byTop(s.querySelectorAll("table.bots tbody tr")).map(first);
        const pairs = byTop(s.querySelectorAll("table.pairs tbody tr")).map(first);
        const est = s.querySelector("svg.estimates");
        const names = byTop([...est.querySelectorAll("text")].filter(t => rows.includes(t.textContent)));
        const colours = {};
        for (const n of names) {
          const mark = [...est.querySelectorAll("circle")].find(c => Math.abs(mid(c) - mid(n)) < 6);
          const label = [...s.querySelectorAll("svg.running text")].find(t => t.textContent.startsWith(n.textContent + " "));
          const title = [...s.querySelectorAll(".hist h4")].find(h => h.textContent.startsWith(n.textContent + " ("));
          const bar = title && title.parentElement.querySelector("rect.bar");
          colours[n.textContent] = [mark, label, bar].map(e => e ? getComputedStyle(e).fill : null);
        }
        const ticks = sel => [...s.querySelectorAll(sel)].map(svg => {
          const axis = [...svg.querySelectorAll("line.axis")].find(l => l.getAttribute("y1") === l.getAttribute("y2"));
          const below = box(axis).bottom;
          return [...svg.querySelectorAll("text")].filter(t => box(t).top >= below && t.textContent !== "deals").map(t => t.textContent);
        });
        return { rows, pairs, names: names.map(n => n.textContent), colours, ticks: ticks("svg.running").concat(ticks("svg.evidence")) };
      })"#;
    let answer = browser::drive(
        &dir,
        &chromium,
        &[
            op("goto", &[("url", json!(browser::file_url(&page)))]),
            op("eval", &[("js", json!(js))]),
        ],
    );
    assert_eq!(browser::console_problems(&answer), Vec::<String>::new());
    let groups = answer["results"][1].as_array().unwrap();
    assert_eq!(groups.len(), 2);
    let g = &groups[0];
    let rows: Vec<String> = serde_json::from_value(g["rows"].clone()).unwrap();
    assert_eq!(rows.len(), 3, "{g}");
    assert_ne!(rows, ["r", "s", "h"], "the table is by rating: {g}");
    assert_eq!(
        g["names"],
        json!(rows),
        "the ratings chart lists the bots as the table does"
    );
    let mut want = Vec::new();
    for (i, a) in rows.iter().enumerate() {
        for b in &rows[i + 1..] {
            want.push(format!("{a} − {b}"));
        }
    }
    assert_eq!(g["pairs"], json!(want), "the pairs in the order of the table");
    // One colour per bot, the same in every chart.
    let mut seen = Vec::new();
    for bot in &rows {
        let c = g["colours"][bot].as_array().unwrap();
        assert!(c[0].is_string() && c.iter().all(|x| *x == c[0]), "{bot}: {c:?}");
        seen.push(c[0].clone());
    }
    seen.dedup();
    assert_eq!(seen.len(), 3, "{seen:?}");
    // Both groups' deal axes (running estimates; the compare run's evidence) count whole deals.
    let axes: Vec<Vec<String>> = groups
        .iter()
        .flat_map(|g| serde_json::from_value::<Vec<Vec<String>>>(g["ticks"].clone()).unwrap())
        .collect();
    assert_eq!(axes.len(), 3, "{axes:?}");
    for ticks in &axes {
        assert!(ticks.len() >= 2, "{axes:?}");
        assert!(
            ticks
                .iter()
                .all(|t| !t.is_empty() && t.chars().all(|c| c.is_ascii_digit())),
            "ticks on a deal axis are whole numbers: {axes:?}"
        );
    }
}
