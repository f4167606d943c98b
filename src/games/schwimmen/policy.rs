//! The built-in `simple` Schwimmen bot: deterministic rules of thumb on the seat view.
//!
//! * **choose**: keeps the seen packet when it is worth at least 21 (a random three cards are
//!   worth about 17-18), else takes the unseen one.
//! * **turn**: takes a 31 (or three aces) when a swap makes one; knocks with 27 or more when
//!   it may; otherwise makes the swap that gives the best hand, ties broken by keeping the best
//!   suit together (the higher second-best suit total) and then by laying down the lowest card;
//!   a hand of 25 or more that no swap improves knocks. After a knock it simply maximizes the
//!   hand value. It passes (when passing is allowed) only when every swap makes the hand worse
//!   and it may not knock.
//!
//! The answer is always one of `legal` (the first one when nothing better is found).

use super::engine::SchwimmenAction;
use super::scoring::{card_points, is_31, value_halves};
use super::view::SchwimmenView;
use crate::cards::{Card, Rank};
use crate::game::SeatView;

/// The `simple` bot's choice for a Schwimmen decision (the `simple_policy` of the game's spec).
pub fn simple_policy(view: &dyn SeatView, decision: &str, legal: &[String]) -> String {
    let Some(first) = legal.first() else {
        return String::new();
    };
    let Some(view) = view.as_any().downcast_ref::<SchwimmenView>() else {
        return first.clone();
    };
    let r = &view.round;
    let choice = match decision {
        "choose" => Some(choose(&r.packet)),
        "turn" => turn(&r.hand, &r.middle, legal),
        _ => None,
    };
    match choice {
        Some(c) if legal.contains(&c) => c,
        _ => first.clone(),
    }
}

fn choose(packet: &[Card]) -> String {
    if value_halves(packet) >= 42 || is_31(packet) {
        "keep_seen".into()
    } else {
        "take_unseen".into()
    }
}

/// How good a hand is for a bot: its value first, then the second-best suit total (a hand that
/// keeps two suits alive), in half points.
fn rank_hand(hand: &[Card; 3]) -> (u32, u32, u32) {
    // The suit totals once (value_halves, is_31 and best_suit_total would each add them up).
    let mut totals = [0u32; 4];
    for &c in hand {
        totals[c.suit.index()] += card_points(c);
    }
    let trio = hand.iter().all(|c| c.rank == hand[0].rank);
    rank_of(totals, trio, hand[0].rank)
}

/// [`rank_hand`] of a hand with suit totals `totals`, a trio or not, and `rank` the rank of
/// one of its cards.
fn rank_of(totals: [u32; 4], trio: bool, rank: Rank) -> (u32, u32, u32) {
    // The best and the second-best suit total (of the totals sorted high to low), without
    // branches: the greater and the lesser of each pair, then of the greater ones.
    let [t0, t1, t2, t3] = totals;
    let (a, b) = (t0.max(t1), t0.min(t1));
    let (c, d) = (t2.max(t3), t2.min(t3));
    let first = a.max(c);
    let second = a.min(c).max(b.max(d));
    let special = u32::from((trio && rank == Rank::ACE) || first == 31);
    let value = if trio { (2 * first).max(61) } else { 2 * first };
    (special, value, second)
}

/// [`simple_policy`] on the typed legal actions (the spec's `typed_policy`).
pub fn typed_policy(view: &dyn SeatView, decision: &str, legal: &dyn std::any::Any) -> Option<usize> {
    let legal = legal.downcast_ref::<Vec<SchwimmenAction>>()?;
    let view = view.as_any().downcast_ref::<SchwimmenView>()?;
    if legal.is_empty() {
        return None;
    }
    let r = &view.round;
    // As `simple_policy`: no choice, or one that is not legal, plays the first legal action.
    let choice = match decision {
        "choose" => {
            let want = match choose(&r.packet).as_str() {
                "keep_seen" => SchwimmenAction::KeepSeen,
                _ => SchwimmenAction::TakeUnseen,
            };
            legal.iter().position(|&a| a == want)
        }
        "turn" => turn_typed(&r.hand, &r.middle, legal.iter().copied().map(Some)),
        _ => None,
    };
    Some(choice.unwrap_or(0))
}

/// A `turn` token as the engine's action (`None`: not one).
fn turn_action(token: &str) -> Option<SchwimmenAction> {
    match token {
        "swap_all" => Some(SchwimmenAction::SwapAll),
        "knock" => Some(SchwimmenAction::Knock),
        "pass" => Some(SchwimmenAction::Pass),
        _ => {
            let mut it = token
                .strip_prefix("swap_")?
                .split('_')
                .filter_map(|c| c.parse::<Card>().ok());
            Some(SchwimmenAction::Swap(it.next()?, it.next()?))
        }
    }
}

fn turn(hand: &[Card], middle: &[Card], legal: &[String]) -> Option<String> {
    turn_typed(hand, middle, legal.iter().map(|t| turn_action(t))).map(|i| legal[i].clone())
}

/// The `turn` choice among `legal` (`None` where a token is not an action): its index.
fn turn_typed(hand: &[Card], middle: &[Card], legal: impl Iterator<Item = Option<SchwimmenAction>>) -> Option<usize> {
    let (Ok(hand3), Ok(middle3)) = (<[Card; 3]>::try_from(hand), <[Card; 3]>::try_from(middle)) else {
        return None;
    };
    // The hand's points and suit totals, once: a swap changes two totals.
    let points = hand3.map(card_points);
    let mut totals = [0u32; 4];
    for (c, p) in hand3.iter().zip(points) {
        totals[c.suit.index()] += p;
    }
    let trio = hand3.iter().all(|c| c.rank == hand3[0].rank);
    // The hand's value (value_halves of three cards).
    let now = rank_of(totals, trio, hand3[0].rank).1;
    let (mut knock, mut pass) = (None, None);
    // Every swap with its resulting hand: (rank, minus the points laid down, index in legal).
    // The rank and the points laid down as one number, compared as (rank, given) are: each
    // part of the rank is below 256, and `given` (minus at most three cards' points) is in
    // -33..=0.
    let pack = |(special, value, second): (u32, u32, u32), given: i64| {
        (((special << 16) | (value << 8) | second) << 8) | (given + 64) as u32
    };
    let mut best: Option<(u32, usize)> = None;
    for (i, a) in legal.enumerate() {
        // Prefer laying down a low card (it helps the next player less).
        let (key, given) = match a {
            Some(SchwimmenAction::SwapAll) => (rank_hand(&middle3), -points.iter().map(|&p| i64::from(p)).sum::<i64>()),
            Some(SchwimmenAction::Swap(h, m)) => match hand3.iter().position(|&c| c == h) {
                Some(k) => {
                    let mut t = totals;
                    t[h.suit.index()] -= points[k];
                    t[m.suit.index()] += card_points(m);
                    let same = |j: usize| (j == k) | (hand3[j].rank == m.rank);
                    let trio = same(0) & same(1) & same(2);
                    (rank_of(t, trio, m.rank), -i64::from(points[k]))
                }
                None => (
                    rank_hand(&hand3.map(|c| if c == h { m } else { c })),
                    -i64::from(card_points(h)),
                ),
            },
            Some(SchwimmenAction::Knock) => {
                knock = knock.or(Some(i));
                continue;
            }
            Some(SchwimmenAction::Pass) => {
                pass = pass.or(Some(i));
                continue;
            }
            _ => continue,
        };
        let key = pack(key, given);
        if best.is_none_or(|b| key > b.0) {
            best = Some((key, i));
        }
    }
    let (bkey, bi) = best?;
    let (special, value) = (bkey >> 24, (bkey >> 16) & 0xff);
    if special == 1 {
        return Some(bi);
    }
    if let Some(k) = knock.filter(|_| now >= 54) {
        return Some(k);
    }
    if value > now {
        return Some(bi);
    }
    if let Some(k) = knock.filter(|_| now >= 50) {
        return Some(k);
    }
    if let Some(p) = pass.filter(|_| value < now) {
        return Some(p);
    }
    // Nothing improves: keep the hand's value as well as possible.
    Some(bi)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::GameInfo;
    use crate::options::Options;

    /// A seat's view after the lines `lines`.
    fn view(lines: &[String]) -> SchwimmenView {
        let spec = crate::games::schwimmen::spec();
        let mut v = SchwimmenView::new(&GameInfo {
            game: "schwimmen".into(),
            options: Options::resolve(&(spec.options)(), "schwimmen", &[] as &[&str]).unwrap(),
            players: 4,
            seat: 0,
        });
        for l in lines {
            let mut w = l.split(' ');
            let kind = w.next().unwrap();
            v.observe(kind, &crate::game::text_args(w));
        }
        v
    }

    fn legal(hand: &[&str], middle: &[&str], knock: bool) -> Vec<String> {
        let mut v: Vec<String> = hand
            .iter()
            .flat_map(|h| middle.iter().map(move |m| format!("swap_{h}_{m}")))
            .collect();
        v.push("swap_all".into());
        if knock {
            v.push("knock".into());
        }
        v
    }

    fn decide(hand: &[&str], middle: &[&str], knock: bool) -> String {
        let v = view(&[
            format!("hand {}", hand.join(" ")),
            format!("middle {}", middle.join(" ")),
        ]);
        simple_policy(&v, "turn", &legal(hand, middle, knock))
    }

    #[test]
    fn takes_a_31_and_keeps_the_best_suit() {
        assert_eq!(decide(&["KC", "QC", "7H"], &["AC", "6D", "8S"], true), "swap_7H_AC");
        // Builds on clubs: lays down the heart, not a club.
        let t = decide(&["KC", "9C", "7H"], &["8C", "6D", "7S"], true);
        assert_eq!(t, "swap_7H_8C");
        // Swap all when the middle is better as a whole.
        assert_eq!(decide(&["6S", "7H", "8D"], &["AD", "KD", "9D"], true), "swap_all");
    }

    #[test]
    fn knocks_with_a_strong_hand_and_chooses_packets() {
        assert_eq!(decide(&["AH", "KH", "8H"], &["6S", "7C", "9D"], true), "knock");
        // Not allowed to knock: still a legal swap.
        let t = decide(&["AH", "KH", "8H"], &["6S", "7C", "9D"], false);
        assert!(t.starts_with("swap_"), "{t}");
        let choose = |p: &[&str]| {
            simple_policy(
                &view(&[format!("packet {}", p.join(" "))]),
                "choose",
                &["keep_seen".into(), "take_unseen".into()],
            )
        };
        assert_eq!(choose(&["AS", "KS", "7D"]), "keep_seen");
        assert_eq!(choose(&["6S", "7H", "8D"]), "take_unseen");
    }
}
