//! The built-in `simple` Schwimmen bot: deterministic rules of thumb on what the seat knows.
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
//!
//! The rules read a `Ctx`: the seen packet, the hand and the middle, built from the seat's
//! view (`Ctx::from_view`, the `simple` bot and the spec's token and typed policies) or from
//! the engine (`Ctx::from_engine`, the engine's playout policy, which reads no view), so that
//! both paths make the same decisions with the same functions.

use super::engine::SchwimmenAction;
use super::scoring::{card_points, is_31, value_halves};
use super::state::{Phase, Schwimmen};
use super::view::SchwimmenView;
use crate::cards::{Card, Rank};
use crate::game::{Seat, SeatView};

/// What the policy reads of what a seat knows: borrowed, nothing copied or built.
#[derive(Clone, Copy, Debug)]
pub(super) struct Ctx<'a> {
    /// The packet the dealer has seen, while he chooses (empty otherwise, and for every other
    /// seat).
    packet: &'a [Card],
    /// The seat's hand (empty before the dealer has chosen). Its order does not matter: the
    /// choice is the same in any order of the same cards.
    hand: &'a [Card],
    /// The middle, in the order the engine tells it.
    middle: &'a [Card],
}

impl<'a> Ctx<'a> {
    /// What the seat's view has kept.
    pub(super) fn from_view(view: &'a SchwimmenView) -> Ctx<'a> {
        let r = &view.round;
        Ctx {
            packet: &r.packet,
            hand: &r.hand,
            middle: &r.middle,
        }
    }

    /// What seat `seat` knows of `g`, read from the engine as the view keeps it: the seen
    /// packet only for the dealer while he chooses (the view forgets it with his new hand),
    /// the seat's own hand (the view's `hand` lines: sorted there, the same cards) and the
    /// public middle.
    pub(super) fn from_engine(g: &'a Schwimmen, seat: Seat) -> Ctx<'a> {
        let packet: &[Card] = if g.phase == Phase::Choose && seat == g.dealer {
            &g.seen
        } else {
            &[]
        };
        Ctx {
            packet,
            hand: &g.hands[seat],
            middle: &g.middle,
        }
    }
}

/// The `simple` bot's choice for a Schwimmen decision (the `simple_policy` of the game's spec).
pub fn simple_policy(view: &dyn SeatView, decision: &str, legal: &[String]) -> String {
    let Some(first) = legal.first() else {
        return String::new();
    };
    let Some(view) = view.as_any().downcast_ref::<SchwimmenView>() else {
        return first.clone();
    };
    let ctx = Ctx::from_view(view);
    let choice = match decision {
        "choose" => Some(choose(ctx)),
        "turn" => turn(ctx, legal),
        _ => None,
    };
    match choice {
        Some(c) if legal.contains(&c) => c,
        _ => first.clone(),
    }
}

fn choose(ctx: Ctx) -> String {
    choose_action(ctx).token().into()
}

/// The packet choice: keep the seen packet when it is worth 21 or more (or is a 31).
fn choose_action(ctx: Ctx) -> SchwimmenAction {
    if value_halves(ctx.packet) >= 42 || is_31(ctx.packet) {
        SchwimmenAction::KeepSeen
    } else {
        SchwimmenAction::TakeUnseen
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
    rank_parts(a.max(c), a.min(c).max(b.max(d)), trio, rank)
}

/// [`rank_of`] from the best and the second-best suit total.
#[inline(always)]
fn rank_parts(first: u32, second: u32, trio: bool, rank: Rank) -> (u32, u32, u32) {
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
    let choose = match decision {
        "choose" => true,
        "turn" => false,
        _ => return Some(0),
    };
    Some(typed_index(Ctx::from_view(view), choose, legal))
}

/// The `simple` policy (the playout policy of the spec) for the seat to move, on what it
/// knows of the engine ([`Ctx::from_engine`]: its seen packet, its hand, the middle): the
/// game's [`EnginePolicy`](crate::engine::EnginePolicy).
pub(super) fn engine_policy(g: &Schwimmen, legal: &[SchwimmenAction]) -> usize {
    if legal.is_empty() {
        return 0;
    }
    typed_index(Ctx::from_engine(g, g.turn), g.phase == Phase::Choose, legal)
}

/// The policy's choice among the typed `legal` actions (not empty) of a `choose` decision
/// (`choose`) or a `turn`: [`typed_policy`] on the view, the engine's playout policy on the
/// engine. As `simple_policy`: no choice, or one that is not legal, plays the first action.
pub(super) fn typed_index(ctx: Ctx, choose: bool, legal: &[SchwimmenAction]) -> usize {
    let choice = if choose {
        let want = choose_action(ctx);
        legal.iter().position(|&a| a == want)
    } else {
        turn_listed(ctx.hand, ctx.middle, legal)
    };
    choice.unwrap_or(0)
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

fn turn(ctx: Ctx, legal: &[String]) -> Option<String> {
    turn_typed(ctx.hand, ctx.middle, legal.iter().map(|t| turn_action(t))).map(|i| legal[i].clone())
}

/// The `turn` choice among `legal` (`None` where a token is not an action): its index.
fn turn_typed(hand: &[Card], middle: &[Card], legal: impl Iterator<Item = Option<SchwimmenAction>>) -> Option<usize> {
    let (Ok(hand3), Ok(middle3)) = (<[Card; 3]>::try_from(hand), <[Card; 3]>::try_from(middle)) else {
        return None;
    };
    let t = TurnHand::new(hand3, middle3);
    let (mut knock, mut pass) = (None, None);
    // The best swap: its key (see `TurnHand`; never 0) and its index in legal.
    let (mut bkey, mut bi) = (0, 0);
    for (i, a) in legal.enumerate() {
        let key = match a {
            Some(SchwimmenAction::Swap(h, m)) => t.swap_key(h, m),
            Some(SchwimmenAction::SwapAll) => t.all,
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
        if key > bkey {
            (bkey, bi) = (key, i);
        }
    }
    settle(t.value, (bkey, bi), knock, pass)
}

/// [`turn_typed`] on the engine's legal actions. The engine lists a turn as the nine swaps hand
/// card by hand card (in its own order of the hand), then `swap_all`, then `knock` and `pass`
/// where allowed: such a list is recognized, and the keys are read in that order without
/// looking each action up. Any other list is looked up action by action.
fn turn_listed(hand: &[Card], middle: &[Card], legal: &[SchwimmenAction]) -> Option<usize> {
    let listed = || -> Option<Option<usize>> {
        let (Ok(hand3), Ok(middle3)) = (<[Card; 3]>::try_from(hand), <[Card; 3]>::try_from(middle)) else {
            return None;
        };
        let (swaps, rest) = legal.split_first_chunk::<9>()?;
        let [SchwimmenAction::Swap(h0, _), _, _, SchwimmenAction::Swap(h1, _), _, _, SchwimmenAction::Swap(h2, _), _, _] =
            *swaps
        else {
            return None;
        };
        let listed_hand = [h0, h1, h2];
        let in_order = (0..9).all(|i| swaps[i] == SchwimmenAction::Swap(listed_hand[i / 3], middle3[i % 3]));
        // The same three cards as the seat's hand (a key depends on the cards, not their order).
        let same_hand = match listed_hand.map(|c| position(&hand3, c)) {
            [Some(a), Some(b), Some(c)] => a != b && a != c && b != c,
            _ => false,
        };
        let (SchwimmenAction::SwapAll, tail) = rest.split_first()? else {
            return None;
        };
        if !(in_order && same_hand) {
            return None;
        }
        let (mut knock, mut pass) = (None, None);
        for (i, &a) in tail.iter().enumerate() {
            match a {
                SchwimmenAction::Knock => knock = knock.or(Some(10 + i)),
                SchwimmenAction::Pass => pass = pass.or(Some(10 + i)),
                _ => return None,
            }
        }
        let t = TurnHand::new(listed_hand, middle3);
        let (mut bkey, mut bi) = (0, 0);
        for (i, &key) in t.keys.as_flattened().iter().chain([&t.all]).enumerate() {
            if key > bkey {
                (bkey, bi) = (key, i);
            }
        }
        Some(settle(t.value, (bkey, bi), knock, pass))
    };
    match listed() {
        Some(choice) => choice,
        None => turn_typed(hand, middle, legal.iter().copied().map(Some)),
    }
}

/// The turn, from the hand's value `now`, the best swap (its key, 0 if none, and index), and
/// where knock and pass are in the legal list.
fn settle(now: u32, (bkey, bi): (u32, usize), knock: Option<usize>, pass: Option<usize>) -> Option<usize> {
    if bkey == 0 {
        return None;
    }
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

/// A hand and a middle at a `turn` decision, with the key of every swap between them worked
/// out once.
///
/// A key orders the hands a swap leaves as (rank, minus the points laid down) do, [`rank_hand`]
/// first: the rank's parts (special, value, second) and the points laid down (`given`, at most
/// three cards' points, stored as `64 - given`, so a key is never 0) in one number, each part
/// below 256.
struct TurnHand {
    hand: [Card; 3],
    middle: [Card; 3],
    /// The key of laying down `hand[k]` and taking `middle[j]`, at `[k][j]`.
    keys: [[u32; 3]; 3],
    /// The key of swapping the whole hand.
    all: u32,
    /// The hand's value in half points (value_halves of three cards).
    value: u32,
}

impl TurnHand {
    fn new(hand: [Card; 3], middle: [Card; 3]) -> TurnHand {
        let points = hand.map(card_points);
        let mut totals = [0u32; 4];
        for (c, p) in hand.iter().zip(points) {
            totals[c.suit.index()] += p;
        }
        let trio = hand.iter().all(|c| c.rank == hand[0].rank);
        let mut keys = [[0; 3]; 3];
        for (k, row) in keys.iter_mut().enumerate() {
            // The two cards kept when card k is laid down: the suit with their best total
            // (`best`), the other suit and its total (`other`: the same suit and 0 if they
            // share one), and the rank they share (0: none; the card taken makes a trio if it
            // has that rank).
            let (a, b) = ((k + 1) % 3, (k + 2) % 3);
            let ((sa, pa), (sb, pb)) = ((hand[a].suit, points[a]), (hand[b].suit, points[b]));
            let (best, other) = if sa == sb {
                ((sa, pa + pb), (sa, 0))
            } else if pa >= pb {
                ((sa, pa), (sb, pb))
            } else {
                ((sb, pb), (sa, pa))
            };
            let pair = if hand[a].rank == hand[b].rank {
                hand[a].rank.value()
            } else {
                0
            };
            for (key, &m) in row.iter_mut().zip(&middle) {
                // The total of the suit taken, and the best two totals of the other suits.
                let s = m.suit;
                let taken = card_points(m)
                    + if s == best.0 {
                        best.1
                    } else if s == other.0 {
                        other.1
                    } else {
                        0
                    };
                let rest = if s == best.0 { other.1 } else { best.1 };
                let next = if s == best.0 || s == other.0 { 0 } else { other.1 };
                let (first, second) = (taken.max(rest), taken.min(rest).max(next));
                *key = pack(rank_parts(first, second, pair == m.rank.value(), m.rank)) | (64 - points[k]);
            }
        }
        TurnHand {
            hand,
            middle,
            keys,
            all: pack(rank_hand(&middle)) | (64 - points.iter().sum::<u32>()),
            value: rank_of(totals, trio, hand[0].rank).1,
        }
    }

    /// The key of laying down `h` and taking `m`.
    fn swap_key(&self, h: Card, m: Card) -> u32 {
        match (position(&self.hand, h), position(&self.middle, m)) {
            (Some(k), Some(j)) => self.keys[k][j],
            _ => self.other_swap_key(h, m),
        }
    }

    /// [`swap_key`](Self::swap_key) for cards not in the hand or not in the middle (never in
    /// a legal list): as the hand it would make.
    #[cold]
    fn other_swap_key(&self, h: Card, m: Card) -> u32 {
        pack(rank_hand(&self.hand.map(|c| if c == h { m } else { c }))) | (64 - card_points(h))
    }
}

/// Where `c` is among three cards.
fn position(cards: &[Card; 3], c: Card) -> Option<usize> {
    cards.iter().position(|&x| x == c)
}

/// A hand's rank in the high bytes of a key (see [`TurnHand`]).
#[inline(always)]
fn pack((special, value, second): (u32, u32, u32)) -> u32 {
    ((special << 16) | (value << 8) | second) << 8
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

    /// The engine's list of a turn read in its order (`turn_listed`'s short path) and looked up
    /// action by action (`turn_typed`) choose the same action, also when the engine's hand
    /// order is not the view's; in any other order the choice is as good (ties may go to
    /// another swap).
    #[test]
    fn the_engines_order_and_any_other_order_choose_alike() {
        let deck = crate::cards::deck_from(Rank::new(7));
        let mut rng = crate::chance::Rng::new(7, crate::chance::Purpose::Bot, 0);
        let mut short_path = 0;
        for _ in 0..20_000 {
            let mut d = deck.clone();
            rng.shuffle(&mut d);
            let (hand, middle) = ([d[0], d[1], d[2]], [d[3], d[4], d[5]]);
            // The engine lists its own order of the hand: a rotation of the view's.
            let r = rng.below(3) as usize;
            let listed_hand = [hand[r], hand[(r + 1) % 3], hand[(r + 2) % 3]];
            let mut legal: Vec<SchwimmenAction> = listed_hand
                .iter()
                .flat_map(|&h| middle.iter().map(move |&m| SchwimmenAction::Swap(h, m)))
                .collect();
            legal.push(SchwimmenAction::SwapAll);
            if rng.below(2) == 0 {
                legal.push(SchwimmenAction::Knock);
            }
            legal.push(SchwimmenAction::Pass);
            let listed = turn_listed(&hand, &middle, &legal).map(|i| legal[i]);
            let looked_up = turn_typed(&hand, &middle, legal.iter().copied().map(Some)).map(|i| legal[i]);
            assert_eq!(listed, looked_up, "hand {hand:?}, middle {middle:?}");
            // In another order a tie may go to another swap, but never to a worse one.
            let mut shuffled = legal.clone();
            rng.shuffle(&mut shuffled);
            let other = turn_typed(&hand, &middle, shuffled.iter().copied().map(Some)).map(|i| shuffled[i]);
            let t = TurnHand::new(hand, middle);
            let key = |a: Option<SchwimmenAction>| match a {
                Some(SchwimmenAction::Swap(h, m)) => Some(t.swap_key(h, m)),
                Some(SchwimmenAction::SwapAll) => Some(t.all),
                _ => None,
            };
            match (listed, other) {
                (Some(SchwimmenAction::Swap(..) | SchwimmenAction::SwapAll), _) => {
                    assert_eq!(key(listed), key(other), "hand {hand:?}, middle {middle:?}")
                }
                _ => assert_eq!(listed, other, "hand {hand:?}, middle {middle:?}"),
            }
            short_path += usize::from(listed.is_some());
        }
        assert!(short_path > 10_000, "the lists were decided: {short_path}");
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
