//! The deals of a compare run: the games of each (the candidate and the baseline in every
//! seat), the value of a deal (their paired difference), the deals still to play, and the
//! sequential test taking the deals in order as they finish in any order.

use crate::arena::{Job, Set};
use crate::cli::arena::{jobs_held, tag_str};
use crate::record::GameRecord;
use crate::sequential::BettingTest;
use crate::stats::Decision;
use std::collections::{BTreeMap, BTreeSet};

/// Player `me` (named `me_name`) in seat `s`, the field's players in the other seats: each
/// seat's player and the bots' names.
pub(super) fn seated(n: usize, s: usize, me: usize, me_name: &str) -> (Vec<usize>, Vec<String>) {
    let mut k = 2;
    let mut seat_of = Vec::new();
    let mut names = Vec::new();
    for t in 0..n {
        if t == s {
            seat_of.push(me);
            names.push(me_name.to_string());
        } else {
            seat_of.push(k);
            names.push("field".to_string());
            k += 1;
        }
    }
    (seat_of, names)
}

/// The games of a deal: the candidate in every seat (`cand@S`) and the baseline in every seat
/// (`base@S`), or, when the baseline is the field too, one game of baselines (`base`).
pub(super) fn deal_jobs(n: usize, shared_base: bool) -> Vec<Job> {
    let mut jobs = Vec::new();
    for s in 0..n {
        let (seat_of, bots) = seated(n, s, 0, "candidate");
        jobs.push(Job {
            key: format!("cand@{s}"),
            seat_of,
            bots,
        });
        if shared_base && s == 0 {
            // Every seat holds the baseline: `stats` then compares the candidate with it seat by seat.
            let (seat_of, _) = seated(n, s, 1, "baseline");
            jobs.push(Job {
                key: "base".into(),
                seat_of,
                bots: vec!["baseline".into(); n],
            });
        } else if !shared_base {
            let (seat_of, bots) = seated(n, s, 1, "baseline");
            jobs.push(Job {
                key: format!("base@{s}"),
                seat_of,
                bots,
            });
        }
    }
    jobs
}

/// The deals of a run as they finish, in any order, and the sequential test that takes them in
/// deal order (the resumed ones first) until it decides.
///
/// A deal's record lines wait here until the test takes it, so that the record of a decided
/// run holds the deals the test took and no other: a deal that a second table finished
/// before the deciding one is not written (whether there is such a deal depends on which
/// table was faster). A run that stops undecided (interrupted, or a table failed) writes
/// the waiting ones too ([`Deals::unwritten`]), and a resumed run does not play them again.
pub(super) struct Deals {
    pub(super) test: BettingTest,
    /// The values of the deals waiting for their turn, by deal.
    pub(super) pending: BTreeMap<u64, [f64; 2]>,
    /// The record lines of the deals played now that wait for their turn, by deal.
    lines: BTreeMap<u64, Vec<u8>>,
    /// The record lines of the deals taken, in deal order, for the record.
    taken: Vec<u8>,
    /// The games of deals that the resumed record holds only partly, by deal.
    pub(super) partial: BTreeMap<u64, Vec<GameRecord>>,
    /// The next deal the test takes, and the step to the one after it (a shard's).
    pub(super) next: u64,
    pub(super) step: u64,
    /// Whether the test may decide (`--no-test` and a shard only play).
    pub(super) deciding: bool,
    pub(super) decision: Decision,
    /// The players of a table, and whether the baseline is the field too ([`deal_difference`]).
    pub(super) players: usize,
    pub(super) shared_base: bool,
}

impl Deals {
    /// The deals from `first` on, by `step`, with those a resumed record holds (whole ones in
    /// `pending`, partly written ones in `partial`), the test taking what it can already.
    pub(super) fn new(
        test: BettingTest,
        pending: BTreeMap<u64, [f64; 2]>,
        partial: BTreeMap<u64, Vec<GameRecord>>,
        (first, step): (u64, u64),
        deciding: bool,
        (players, shared_base): (usize, bool),
    ) -> Deals {
        let mut deals = Deals {
            test,
            pending,
            lines: BTreeMap::new(),
            taken: Vec::new(),
            partial,
            next: first,
            step,
            deciding,
            decision: Decision::Continue,
            players,
            shared_base,
        };
        deals.decision = deals.take();
        deals
    }

    /// The deals waiting for their turn, taken in order by the test until it decides.
    fn take(&mut self) -> Decision {
        while let Some([d, scale]) = self.pending.remove(&self.next) {
            if let Some(lines) = self.lines.remove(&self.next) {
                self.taken.extend_from_slice(&lines);
            }
            self.next += self.step;
            if self.test.push(d, scale) != Decision::Continue && self.deciding {
                return self.test.decision();
            }
        }
        Decision::Continue
    }

    /// Deal `index` finished: `records`, its games played now, `lines`, their record lines,
    /// and `value`, the value its table worked out from them. A deal begun before is valued
    /// with its games of then. Returns the record lines to write now: those of the deals the
    /// test took, in deal order.
    pub(super) fn finished(
        &mut self,
        index: u64,
        records: &mut Vec<GameRecord>,
        lines: &[u8],
        value: Option<[f64; 2]>,
    ) -> Vec<u8> {
        let value = match self.partial.remove(&index) {
            // A deal begun before: its games of then and of now, together.
            Some(mut old) => {
                old.append(records);
                deal_difference(&old, self.players, self.shared_base)
            }
            None => value.expect("compare gives its run a set_value"),
        };
        self.pending.insert(index, value);
        if !lines.is_empty() {
            self.lines.insert(index, lines.to_vec());
        }
        if self.decision == Decision::Continue {
            self.decision = self.take();
        }
        std::mem::take(&mut self.taken)
    }

    /// The record lines of the deals played now that the test has not taken, in deal order:
    /// nothing once it has decided (those deals come after the deciding one).
    pub(super) fn unwritten(&mut self) -> Vec<u8> {
        if self.decision != Decision::Continue {
            return Vec::new();
        }
        std::mem::take(&mut self.lines).into_values().flatten().collect()
    }
}

/// The deals still to play (`to_play` of them, from the next the test takes to `deals`), each
/// with the games the resumed record does not hold. They are made as the tables take them: a
/// run of any length needs no list of them.
pub(super) fn sets_to_play<'a>(
    jobs: &'a [Job],
    deals: &Deals,
    last: u64,
    to_play: u64,
) -> impl Iterator<Item = Set> + Send + 'a {
    let have = jobs_held(&deals.partial);
    let waiting: BTreeSet<u64> = deals.pending.keys().copied().collect();
    (deals.next..last)
        .step_by(usize::try_from(deals.step).unwrap_or(usize::MAX))
        .filter(move |i| !waiting.contains(i))
        .take(usize::try_from(to_play).unwrap_or(usize::MAX))
        .map(move |i| Set {
            index: i,
            jobs: jobs
                .iter()
                .filter(|j| have.get(&i).is_none_or(|h| !h.contains(&j.key)))
                .cloned()
                .collect(),
        })
}

/// The candidate's mean score per seat minus the baseline's on the same cards in the same seat,
/// and the largest absolute score of a seat in the deal's games (the test's scale).
pub(super) fn deal_difference(recs: &[GameRecord], n: usize, shared_base: bool) -> [f64; 2] {
    let find = |key: &str| recs.iter().find(|r| tag_str(r, "job") == key);
    let mut sum = 0.0;
    for s in 0..n {
        let cand = find(&format!("cand@{s}")).map(|r| r.result.scores[s]).unwrap_or(0.0);
        let key = if shared_base {
            "base".to_string()
        } else {
            format!("base@{s}")
        };
        let base = find(&key).map(|r| r.result.scores[s]).unwrap_or(0.0);
        sum += cand - base;
    }
    let scale = recs
        .iter()
        .flat_map(|r| r.result.scores.iter())
        .fold(0.0f64, |m, s| m.max(s.abs()));
    [sum / n as f64, scale]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn deals(deciding: bool) -> Deals {
        let test = BettingTest::new(-1.0, 0.0, 0.05, 0.05);
        Deals::new(test, BTreeMap::new(), BTreeMap::new(), (0, 1), deciding, (4, true))
    }

    /// Deal `i` finished, its record lines `"i\n"`; what is written now.
    fn finish(d: &mut Deals, i: u64) -> String {
        let lines = format!("{i}\n");
        String::from_utf8(d.finished(i, &mut Vec::new(), lines.as_bytes(), Some([0.0, 10.0]))).unwrap()
    }

    #[test]
    fn a_decided_run_writes_the_deals_the_test_took_in_order_and_no_other() {
        let mut d = deals(true);
        let mut written = String::new();
        // Deals finish in pairs out of turn: 1 0 3 2 5 4 ...
        let mut pair = 0;
        while d.decision == Decision::Continue {
            assert!(pair < 200, "identical deals decide within 400");
            written += &finish(&mut d, 2 * pair + 1);
            written += &finish(&mut d, 2 * pair);
            pair += 1;
        }
        let taken = d.test.summary().n();
        let expect: String = (0..taken).map(|i| format!("{i}\n")).collect();
        assert_eq!(written, expect);
        assert_eq!(finish(&mut d, 2 * pair), "", "a deal after the decision");
        assert_eq!(d.unwritten(), b"", "the deals after the deciding one are left out");
    }

    #[test]
    fn an_undecided_run_keeps_the_deals_played_out_of_turn() {
        let mut d = deals(false);
        assert_eq!(finish(&mut d, 1), "");
        assert_eq!(finish(&mut d, 0), "0\n1\n");
        assert_eq!(finish(&mut d, 4), "");
        assert_eq!(finish(&mut d, 3), "");
        // Deal 2 never finished (the run was interrupted): 3 and 4 are kept, in order.
        assert_eq!(d.unwritten(), b"3\n4\n");
        assert_eq!(d.unwritten(), b"", "once");
    }
}
