//! Tournaments: many bots, a schedule of tables, one rating per bot.
//!
//! A tournament of `B` bots at a table of `n` seats plays every combination of `n` distinct
//! bots (a round robin of tables), or with a gauntlet one bot with every combination of `n − 1`
//! of the others. A table never seats a bot twice when there are enough bots: a bot in two
//! seats plays partly with itself (in Rikken perhaps as its own partner), which is not the
//! strength it shows against others. With fewer bots than seats there is one table, the bots
//! cycled over the seats as `match` seats them.
//!
//! Every table plays each deal under every rotation of its lineup (duplicate deals), as a set
//! of the match machinery ([`super::run()`]): set `i` is deal `i / T` of table `i % T` (`T`
//! tables), with its own cards, so `--shard`, `--resume` and `--concurrency` work as in a
//! match. The worker tables hold every bot once (as many times as a table seats it), and each
//! game seats the ones it needs. The ratings come from [`crate::ratings`].

use super::accumulator::Accumulator;
use super::report::{finite, signed, Cells, MatchInfo};
use super::sets::{rotations, Job};
use crate::stats::fmt_interval;
use serde_json::{json, Value};

const LEVEL: f64 = 0.95;

/// The tables of a tournament: each a lineup (bot indexes, one per seat).
pub fn schedule(bots: usize, seats: usize, gauntlet: Option<usize>) -> Vec<Vec<usize>> {
    if bots <= seats {
        return vec![(0..seats).map(|s| s % bots).collect()];
    }
    match gauntlet {
        None => combinations(bots, seats),
        Some(g) => {
            let others: Vec<usize> = (0..bots).filter(|&b| b != g).collect();
            combinations(others.len(), seats - 1)
                .into_iter()
                .map(|c| std::iter::once(g).chain(c.into_iter().map(|i| others[i])).collect())
                .collect()
        }
    }
}

/// The schedule of `bots` bots at tables of `seats` (`gauntlet`: its bot's name and index)
/// for people: "10 table(s) of 3 (round robin)".
pub fn schedule_text(bots: usize, seats: usize, gauntlet: Option<(&str, usize)>) -> String {
    let tables = schedule(bots, seats, gauntlet.map(|g| g.1)).len();
    let kind = match gauntlet {
        Some((name, _)) => format!("gauntlet of {name}"),
        None if bots <= seats => "the bots cycled over the seats".to_string(),
        None => "round robin".to_string(),
    };
    format!("{tables} table(s) of {seats} ({kind})")
}

/// The `k`-element subsets of `0..n` in lexicographic order.
pub fn combinations(n: usize, k: usize) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    if k > n {
        return out;
    }
    let mut c: Vec<usize> = (0..k).collect();
    loop {
        out.push(c.clone());
        // The rightmost position that can still move right.
        let Some(i) = (0..k).rev().find(|&i| c[i] < n - k + i) else {
            return out;
        };
        c[i] += 1;
        for j in i + 1..k {
            c[j] = c[j - 1] + 1;
        }
    }
}

/// A tournament's schedule made into jobs: which table player sits where.
#[derive(Clone, Debug)]
pub struct Tournament {
    /// Bot names, in `--bot` order.
    pub names: Vec<String>,
    pub tables: Vec<Vec<usize>>,
    /// The bot of each table player (each started once per worker table).
    players: Vec<usize>,
    /// Per table, the player of each lineup position.
    player_at: Vec<Vec<usize>>,
}

impl Tournament {
    /// With one table its lineup's positions are the players, as in `match` (the same bots on
    /// the same players play the same games); with more, every bot is one player.
    pub fn new(names: Vec<String>, tables: Vec<Vec<usize>>) -> Tournament {
        let (players, player_at) = if tables.len() == 1 {
            (tables[0].clone(), vec![(0..tables[0].len()).collect()])
        } else {
            debug_assert!(tables.iter().all(|t| (1..t.len()).all(|i| !t[..i].contains(&t[i]))));
            ((0..names.len()).collect(), tables.clone())
        };
        Tournament {
            names,
            tables,
            players,
            player_at,
        }
    }

    /// The bot of each table player (to start the players and name their logs).
    pub fn player_bots(&self) -> Vec<usize> {
        self.players.clone()
    }

    /// The number of sets of `deals` deals per table.
    pub fn sets(&self, deals: u64) -> u64 {
        deals.saturating_mul(self.tables.len() as u64)
    }

    /// The table of set `i`.
    pub fn table_of(&self, i: u64) -> usize {
        (i % self.tables.len() as u64) as usize
    }

    /// The games of set `i`: every distinct rotation of its table's lineup.
    pub fn jobs(&self, i: u64) -> Vec<Job> {
        let t = self.table_of(i);
        let (lineup, player) = (&self.tables[t], &self.player_at[t]);
        let names: Vec<String> = lineup.iter().map(|&b| self.names[b].clone()).collect();
        rotations(&names)
            .into_iter()
            .enumerate()
            .map(|(r, seat_of)| Job {
                key: format!("r{r}"),
                bots: seat_of.iter().map(|&p| names[p].clone()).collect(),
                seat_of: seat_of.iter().map(|&p| player[p]).collect(),
            })
            .collect()
    }

    /// The job keys of every set (every table has as many rotations: the same bots' count).
    pub fn keys(&self) -> Vec<String> {
        self.jobs(0).into_iter().map(|j| j.key).collect()
    }
}

/// One bot's row: name, spec, rating with interval, games, faults, ms per decision, max ms.
struct Row {
    name: String,
    spec: String,
    rating: (f64, f64, f64),
    games: u64,
    faults: u64,
    ms: f64,
    max_ms: f64,
}

fn rows(acc: &Accumulator, reference: &str) -> Option<(Vec<Row>, crate::ratings::Fit)> {
    let (names, fit) = acc.ratings(reference)?;
    let totals = acc.bot_totals();
    let rows = totals
        .into_iter()
        .map(|(name, spec, games, faults, ms, max_ms)| {
            let b = names.iter().position(|n| *n == name).expect("the same bots");
            Row {
                rating: fit.interval(b, LEVEL),
                name,
                spec,
                games,
                faults,
                ms,
                max_ms,
            }
        })
        .collect();
    Some((rows, fit))
}

/// A head-to-head paired difference: mean, interval and the number of deals.
#[derive(Clone, Copy, Debug)]
struct HeadToHead {
    mean: f64,
    lo: f64,
    hi: f64,
    deals: u64,
}

/// The model's difference of every pair, with the head-to-head paired difference where they
/// sat together: (a, b, model mean/low/high, head to head).
type PairRow = (String, String, (f64, f64, f64), Option<HeadToHead>);

/// Best first: by rating, higher first, then by name; bots not compared (NaN) last.
fn by_rating(x: (f64, &str), y: (f64, &str)) -> std::cmp::Ordering {
    x.0.is_nan()
        .cmp(&y.0.is_nan())
        .then(y.0.total_cmp(&x.0))
        .then(x.1.cmp(y.1))
}

/// Every pair of bots, `a` before `b` in `order` (bot names; `None`: report order, the
/// order of `--bot`), each difference `a − b`.
fn pair_rows(acc: &Accumulator, reference: &str, order: Option<&[String]>) -> Vec<PairRow> {
    let Some((names, fit)) = acc.ratings(reference) else {
        return Vec::new();
    };
    let order: Vec<usize> = match order {
        Some(o) => o.iter().filter_map(|n| names.iter().position(|m| m == n)).collect(),
        None => (0..names.len()).collect(),
    };
    let h2h = acc.head_to_head();
    let direct = |a: &str, b: &str| {
        h2h.iter().find_map(|(x, y, s)| {
            let (lo, hi) = s.ci(LEVEL);
            let (mean, deals) = (s.mean(), s.n());
            if x == a && y == b {
                Some(HeadToHead { mean, lo, hi, deals })
            } else if x == b && y == a {
                // The same deals seen from the other side.
                Some(HeadToHead {
                    mean: -mean,
                    lo: -hi,
                    hi: -lo,
                    deals,
                })
            } else {
                None
            }
        })
    };
    let mut out = Vec::new();
    for (i, &a) in order.iter().enumerate() {
        for &b in &order[i + 1..] {
            let (na, nb) = (&names[a], &names[b]);
            out.push((na.clone(), nb.clone(), fit.diff(a, b, LEVEL), direct(na, nb)));
        }
    }
    out
}

/// The standings for a progress line: every bot by rating, best first, as the result table
/// orders them, each with its rating relative to `reference` (at most [`STANDINGS`] bots).
/// `None` until `reference` has played a deal.
pub fn standings(acc: &Accumulator, reference: &str) -> Option<String> {
    let (names, fit) = acc.ratings(reference)?;
    let mut order: Vec<usize> = (0..names.len()).collect();
    order.sort_by(|&x, &y| by_rating((fit.rating[x], &names[x]), (fit.rating[y], &names[y])));
    let mut parts: Vec<String> = order
        .iter()
        .take(STANDINGS)
        .map(|&b| format!("{} {}", names[b], signed(fit.rating[b])))
        .collect();
    if order.len() > STANDINGS {
        parts.push(format!("… {} more", order.len() - STANDINGS));
    }
    Some(format!("standings: {}", parts.join(", ")))
}

/// The most bots [`standings`] names.
pub const STANDINGS: usize = 8;

/// The result of a tournament as JSON (`tournament --json`, `stats --json`). Bots in `--bot`
/// order; documented in the README ("JSON output").
pub fn tournament_json(info: &MatchInfo, acc: &Accumulator, reference: &str) -> Value {
    let (bots, deals) = match rows(acc, reference) {
        Some((rows, fit)) => (
            rows.iter()
                .map(|r| {
                    json!({
                        "bot": r.name, "spec": r.spec, "rating": finite(r.rating.0),
                        "ci95": [finite(r.rating.1), finite(r.rating.2)], "games": r.games,
                        "faults": r.faults, "ms_per_decision": finite(r.ms), "max_ms": r.max_ms,
                    })
                })
                .collect::<Vec<_>>(),
            fit.deals,
        ),
        None => (Vec::new(), 0),
    };
    let pairs: Vec<Value> = pair_rows(acc, reference, None)
        .into_iter()
        .map(|(a, b, (m, lo, hi), direct)| {
            let h2h =
                direct.map(|s| json!({"deals": s.deals, "mean": finite(s.mean), "ci95": [finite(s.lo), finite(s.hi)]}));
            json!({"a": a, "b": b, "mean": finite(m), "ci95": [finite(lo), finite(hi)], "head_to_head": h2h})
        })
        .collect();
    json!({
        "game": info.game, "tournament": info.id, "seed": info.seed, "shard": info.shard,
        "reference": reference, "tables": acc.table_count(), "deals": deals, "games": acc.games,
        "bots": bots, "pairs": pairs,
    })
}

/// The result table for people: bots by rating, best first; with three bots or more, the
/// model's difference of every pair beside their head-to-head result, the pairs in the order
/// of the table (`a − b` with `a` above `b`).
pub fn tournament_lines(acc: &Accumulator, reference: &str) -> Vec<String> {
    let Some(c) = tournament_cells(acc, reference) else {
        return vec!["no deals".to_string()];
    };
    let mut out: Vec<String> = c
        .layout(
            &[" ", "  ", " ", " ", " ", " "],
            &[true, false, true, false, false, false, false],
        )
        .into_iter()
        .map(|l| l.trim_end().to_string())
        .collect();
    if !c.pairs.is_empty() {
        out.push(String::new());
        out.push(format!("{}:", c.pairs_title));
        for p in &c.pairs {
            out.push(format!("  {}: {}  (head to head {})", p[0], p[1], p[2]));
        }
    }
    out
}

/// The cells of [`tournament_lines`] (`None` without deals): `stats --html` shows the same
/// strings.
pub fn tournament_cells(acc: &Accumulator, reference: &str) -> Option<Cells> {
    let (mut rows, _) = rows(acc, reference)?;
    rows.sort_by(|x, y| by_rating((x.rating.0, &x.name), (y.rating.0, &y.name)));
    let cells: Vec<Vec<String>> = rows
        .iter()
        .map(|r| {
            let (m, lo, hi) = r.rating;
            vec![
                r.name.clone(),
                signed(m),
                if r.name == reference {
                    "(reference)".to_string()
                } else {
                    format!("[{}, {}]", signed(lo), signed(hi))
                },
                r.games.to_string(),
                r.faults.to_string(),
                format!("{:.3}", r.ms),
                format!("{:.1}", r.max_ms),
            ]
        })
        .collect();
    let head = [
        "bot",
        "rating",
        "95% interval",
        "games",
        "faults",
        "ms/decision",
        "max ms",
    ]
    .map(String::from)
    .to_vec();
    let mut pairs = Vec::new();
    if rows.len() > 2 {
        let order: Vec<String> = rows.iter().map(|r| r.name.clone()).collect();
        for (a, b, (m, lo, hi), direct) in pair_rows(acc, reference, Some(&order)) {
            let h2h = match direct {
                Some(s) => format!("{} over {} deal(s)", fmt_interval(s.mean, s.lo, s.hi), s.deals),
                None => "never at one table".to_string(),
            };
            pairs.push(vec![format!("{a} − {b}"), fmt_interval(m, lo, hi), h2h]);
        }
    }
    Some(Cells {
        head,
        rows: cells,
        note: Some(format!(
            "rating: mean score per deal and seat relative to {reference} (a linear model of all tables' duplicate deals; 95 % intervals clustered by deal)"
        )),
        pairs_title: "pairs: the model's difference, and head to head on the deals they shared".into(),
        pairs_head: ["pair", "model [95% interval]", "head to head"].map(String::from).to_vec(),
        pairs,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_robins_and_gauntlets_seat_distinct_bots() {
        assert_eq!(combinations(4, 2).len(), 6);
        assert_eq!(combinations(5, 3).len(), 10);
        assert_eq!(combinations(3, 3), vec![vec![0, 1, 2]]);
        assert_eq!(schedule(5, 4, None).len(), 5);
        let g = schedule(5, 3, Some(2));
        assert_eq!(g.len(), 6, "2 with each pair of the other four");
        assert!(g.iter().all(|t| t[0] == 2 && !t[1..].contains(&2)));
        // Fewer bots than seats: one table, the bots cycled.
        assert_eq!(schedule(2, 4, None), vec![vec![0, 1, 0, 1]]);
        assert_eq!(schedule(3, 3, Some(1)), vec![vec![0, 1, 2]]);
    }

    #[test]
    fn jobs_seat_each_bot_in_every_seat_and_copies_on_their_own_players() {
        let names: Vec<String> = ["a", "b", "c", "d"].map(String::from).to_vec();
        let t = Tournament::new(names.clone(), schedule(4, 3, None));
        assert_eq!(t.player_bots(), vec![0, 1, 2, 3]);
        assert_eq!(t.sets(10), 40);
        let jobs = t.jobs(5); // deal 1 of table 1: a, b, d
        assert_eq!(jobs.len(), 3);
        for s in 0..3 {
            let mut at: Vec<&str> = jobs.iter().map(|j| j.bots[s].as_str()).collect();
            at.sort();
            assert_eq!(at, ["a", "b", "d"]);
        }
        assert!(jobs
            .iter()
            .all(|j| j.seat_of.iter().zip(&j.bots).all(|(&p, n)| names[p] == *n)));
        let two = Tournament::new(names[..2].to_vec(), schedule(2, 4, None));
        assert_eq!(two.player_bots(), vec![0, 1, 0, 1], "as match seats a,b,a,b");
        let jobs = two.jobs(0);
        assert_eq!(jobs.len(), 2, "a,b,a,b has two distinct rotations");
        assert_eq!(jobs[1].seat_of, vec![1, 2, 3, 0]);
    }
}
