//! The points of rikken.md Sec. 9 (and the special deals of Sec. 10.8, 10.10). Every function
//! returns a zero-sum score per seat.

use super::bids::{Contract, CLOSED, OPEN};
use crate::cards::{Card, Rank, Suit};
use crate::game::Seat;
use crate::options::Options;

/// The per-opponent amount of a trick-target contract (rikken, malheur, op voorhand, alone,
/// solo) and whether it was made, for `t` tricks of the declaring side (Sec. 9.2, 9.3).
pub fn target_amount(o: &Options, contract: Contract, t: usize) -> (bool, i64) {
    let target = contract.target().expect("a trick-target contract");
    let over = o.int("score_overtrick");
    let t = t as i64;
    let n = target as i64;
    let (base, all13) = match contract {
        Contract::Rik { .. } | Contract::OpVoorhand => (o.int("score_rik"), Some(o.int("score_rik_13"))),
        Contract::Malheur => (o.int("score_malheur"), Some(o.int("score_malheur_13"))),
        Contract::Alone { .. } => (o.int("score_alone"), None),
        Contract::Solo { beter: false } => (o.int("score_solo"), None),
        Contract::Solo { beter: true } => (o.int("score_solo_beter"), None),
        _ => unreachable!("not a trick-target contract"),
    };
    if t >= n {
        let a = match all13 {
            Some(a13) if t == 13 => a13,
            _ => base + (t - n) * over,
        };
        (true, a)
    } else if o.get("fail_mode") == "mirrored_undertricks" && !matches!(contract, Contract::Solo { .. }) {
        // Solo and solo beter are fixed amounts with no trick-count component (Sec. 9.2, A14).
        (false, base + (n - 1 - t) * over)
    } else {
        (false, base)
    }
}

/// Scores of a trick-target contract. `side` is the declaring side (one or two seats).
pub fn target_scores(o: &Options, contract: Contract, side: &[Seat], t: usize) -> (bool, Vec<f64>) {
    let (made, a) = target_amount(o, contract, t);
    let sign = if made { 1 } else { -1 };
    let per_side = a * (4 - side.len() as i64) / side.len() as i64;
    let scores = (0..4)
        .map(|s| (if side.contains(&s) { sign * per_side } else { -sign * a }) as f64)
        .collect();
    (made, scores)
}

/// The per-opponent amount of a misère or piek of this openness.
pub fn misere_amount(o: &Options, contract: Contract) -> i64 {
    match contract.openness() {
        CLOSED => o.int("score_misere"),
        OPEN => o.int("score_open"),
        _ => o.int("score_praatje"),
    }
}

/// Misère/piek, each declarer settled on his own against the other three (Sec. 9.4).
/// Returns who made it, per declarer, and the scores.
pub fn misere_scores(o: &Options, contract: Contract, declarers: &[Seat], tricks: &[usize]) -> (Vec<bool>, Vec<f64>) {
    let a = misere_amount(o, contract);
    let want = if matches!(contract, Contract::Piek { .. }) {
        1
    } else {
        0
    };
    let mut scores = vec![0.0; 4];
    let mut made = Vec::new();
    for &d in declarers {
        let ok = tricks[d] == want;
        made.push(ok);
        let sign = if ok { 1.0 } else { -1.0 };
        for (s, score) in scores.iter_mut().enumerate() {
            *score += if s == d {
                3.0 * a as f64 * sign
            } else {
                -(a as f64) * sign
            };
        }
    }
    (made, scores)
}

/// Schoppen mieën (Sec. 10.8): `tricks` are the completed tricks as (winner, cards).
pub fn mieen_scores(o: &Options, tricks: &[(Seat, Vec<Card>)]) -> Vec<f64> {
    let mut scores = vec![0.0; 4];
    let mut pay = |payer: Seat, each: i64| {
        for (s, score) in scores.iter_mut().enumerate() {
            *score += if s == payer { -3.0 * each as f64 } else { each as f64 };
        }
    };
    let mie = Card::new(Rank::QUEEN, Suit::Spades);
    for (i, (winner, cards)) in tricks.iter().enumerate() {
        if cards.contains(&mie) {
            pay(*winner, o.int("score_mie"));
        }
        if i == 0 && o.flag("mie_first_trick") {
            pay(*winner, 1);
        }
        if i == 12 && o.flag("mie_last_trick") {
            pay(*winner, 1);
        }
        if o.flag("mie_spade_penalty") {
            let spades = cards.iter().filter(|c| c.suit == Suit::Spades).count() as i64;
            pay(*winner, spades);
        }
    }
    let mode = o.get("mie_most_tricks");
    if mode != "off" {
        let mut count = [0usize; 4];
        for (w, _) in tricks {
            count[*w] += 1;
        }
        let most = *count.iter().max().unwrap();
        for (s, &c) in count.iter().enumerate() {
            if c == most {
                pay(s, if mode == "wins" { -1 } else { 1 });
            }
        }
    }
    scores
}

/// Open piek totaal (Sec. 10.10, A24): the winners, and the scores (each loser pays each
/// winner). No settlement if one player took all 13 tricks.
pub fn open_piek_totaal_scores(o: &Options, tricks: &[usize]) -> (Vec<Seat>, Vec<f64>) {
    let stake = o.int("score_open_piek_totaal") as f64;
    if tricks.contains(&13) {
        return (vec![], vec![0.0; 4]);
    }
    let seats: Vec<Seat> = (0..4).collect();
    let with = |f: &dyn Fn(usize) -> bool| seats.iter().copied().filter(|&s| f(tricks[s])).collect::<Vec<_>>();
    let nonzero = with(&|t| t > 0);
    let winners = if nonzero.len() == 2 {
        // Two players together took all 13.
        nonzero
    } else {
        let one = with(&|t| t == 1);
        if !one.is_empty() {
            one
        } else {
            let fewest = tricks.iter().copied().filter(|&t| t >= 2).min().unwrap_or(0);
            with(&|t| t == fewest && t >= 2)
        }
    };
    let losers = 4 - winners.len();
    let scores = (0..4)
        .map(|s| {
            if winners.contains(&s) {
                stake * losers as f64
            } else {
                -stake * winners.len() as f64
            }
        })
        .collect();
    (winners, scores)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::rikken::bids::PRAATJE;
    use crate::games::rikken::options as rikken_options;

    fn opts(rules: &[&str]) -> Options {
        Options::resolve(&rikken_options(), "rikken", rules).unwrap()
    }

    const RIK: Contract = Contract::Rik { beter: false };

    #[test]
    fn rikken_rows_of_the_table() {
        let o = opts(&[]);
        for (t, a) in [(8, 1), (9, 2), (11, 4), (12, 5), (13, 10)] {
            assert_eq!(target_amount(&o, RIK, t), (true, a), "{t} tricks");
            assert_eq!(target_amount(&o, Contract::Rik { beter: true }, t), (true, a));
            assert_eq!(target_amount(&o, Contract::OpVoorhand, t), (true, a));
        }
        for t in [0, 5, 7] {
            assert_eq!(target_amount(&o, RIK, t), (false, 1));
        }
        let (made, s) = target_scores(&o, RIK, &[2, 3], 11);
        assert!(made);
        assert_eq!(s, vec![-4.0, -4.0, 4.0, 4.0]); // SVB 1/2
    }

    #[test]
    fn malheur_is_rikken_plus_one() {
        let o = opts(&[]);
        for (t, a) in [(8, 2), (9, 3), (12, 6), (13, 11)] {
            assert_eq!(target_amount(&o, Contract::Malheur, t), (true, a));
        }
        assert_eq!(target_amount(&o, Contract::Malheur, 7), (false, 2));
    }

    #[test]
    fn alone_and_solo_rows() {
        let o = opts(&[]);
        let nine_beter = Contract::Alone { n: 9, beter: true };
        assert_eq!(target_scores(&o, nine_beter, &[1], 10).1, vec![-2.0, 6.0, -2.0, -2.0]); // SVB 6
        let ten = Contract::Alone { n: 10, beter: false };
        assert_eq!(target_scores(&o, ten, &[0], 10).1, vec![3.0, -1.0, -1.0, -1.0]); // SVB 21
        let seven = Contract::Alone { n: 7, beter: false };
        assert_eq!(target_amount(&o, seven, 13), (true, 7)); // no all-13 bonus (A10)
        assert_eq!(target_scores(&o, seven, &[0], 6).1, vec![-3.0, 1.0, 1.0, 1.0]);
        assert_eq!(target_amount(&o, Contract::Solo { beter: false }, 13), (true, 15));
        assert_eq!(target_amount(&o, Contract::Solo { beter: true }, 13), (true, 16));
        assert_eq!(target_amount(&o, Contract::Solo { beter: true }, 12), (false, 16));
    }

    #[test]
    fn mirrored_undertricks() {
        let o = opts(&["fail_mode=mirrored_undertricks"]);
        assert_eq!(target_amount(&o, RIK, 7), (false, 1));
        assert_eq!(target_amount(&o, RIK, 6), (false, 2)); // Sec. 9.3 example
        assert_eq!(target_amount(&o, Contract::Alone { n: 9, beter: false }, 5), (false, 4));
        // Solo is fixed: a failed solo costs its stake whatever the tricks (Sec. 9.2, A14).
        assert_eq!(target_amount(&o, Contract::Solo { beter: false }, 1), (false, 15));
        assert_eq!(target_amount(&o, Contract::Solo { beter: true }, 12), (false, 16));
    }

    #[test]
    fn misere_rows_and_joint_misere() {
        let o = opts(&[]);
        let m = Contract::Misere { open: CLOSED };
        let (made, s) = misere_scores(&o, m, &[0], &[0, 5, 4, 4]);
        assert_eq!((made, s), (vec![true], vec![9.0, -3.0, -3.0, -3.0]));
        let (_, s) = misere_scores(&o, Contract::Piek { open: OPEN }, &[1], &[3, 2, 8, 0]);
        assert_eq!(s, vec![6.0, -18.0, 6.0, 6.0]);
        let (_, s) = misere_scores(&o, Contract::Misere { open: PRAATJE }, &[3], &[4, 4, 5, 0]);
        assert_eq!(s, vec![-9.0, -9.0, -9.0, 27.0]);
        // Joint misère: N makes it, S fails; each settled against the other three.
        let (made, s) = misere_scores(&o, m, &[0, 2], &[0, 6, 1, 6]);
        assert_eq!(made, vec![true, false]);
        assert_eq!(s, vec![9.0 + 3.0, -3.0 + 3.0, -3.0 - 9.0, -3.0 + 3.0]);
        assert_eq!(s.iter().sum::<f64>(), 0.0);
    }

    #[test]
    fn schoppen_mieen_payments() {
        let c = |s: &str| crate::cards::parse_cards(s).unwrap();
        let mut tricks = vec![(1, c("2H 3H 4H 5H"))];
        tricks.push((2, c("QS 2S 3S 4S")));
        for _ in 2..13 {
            tricks.push((3, c("6H 7H 8H 9H")));
        }
        let o = opts(&["all_pass=schoppen_mieen"]);
        assert_eq!(mieen_scores(&o, &tricks), vec![3.0, 3.0, -9.0, 3.0]);
        let o = opts(&[
            "mie_first_trick=true",
            "mie_last_trick=true",
            "mie_spade_penalty=true",
            "mie_most_tricks=loses",
        ]);
        // E pays 1 (trick 1); S pays 3 (mie) + 4 (spades); W pays 1 (trick 13) + 1 (most tricks).
        assert_eq!(
            mieen_scores(&o, &tricks),
            vec![1.0 + 7.0 + 2.0, -3.0 + 7.0 + 2.0, -21.0 + 1.0 + 2.0, 1.0 + 7.0 - 6.0]
        );
    }

    #[test]
    fn open_piek_totaal_winners() {
        let o = opts(&[]);
        let (w, s) = open_piek_totaal_scores(&o, &[1, 5, 1, 6]);
        assert_eq!(w, vec![0, 2]);
        assert_eq!(s, vec![6.0, -6.0, 6.0, -6.0]);
        let (w, _) = open_piek_totaal_scores(&o, &[0, 9, 4, 0]);
        assert_eq!(w, vec![1, 2]); // two players took all 13
        let (w, s) = open_piek_totaal_scores(&o, &[0, 2, 2, 9]);
        assert_eq!(w, vec![1, 2]); // fewest among those with 2 or more; 0 always loses
        assert_eq!(s, vec![-6.0, 6.0, 6.0, -6.0]);
        assert_eq!(open_piek_totaal_scores(&o, &[13, 0, 0, 0]).1, vec![0.0; 4]);
    }
}
