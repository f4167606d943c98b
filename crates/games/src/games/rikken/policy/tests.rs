//! Tests of the `simple` Rikken bot: its bids, trumps, calls and card play on dealt and
//! random hands.

use super::bidding::{bid_rank, misere_risky};
use super::cards::{at_or_above, below, bottom, top};
use super::decide::simple_policy;
use crate::cards::{Card, CardSet, Suit};

use crate::cards::full_deck;
use crate::game::SeatView;
use crate::games::rikken::view::tests::{view_for, HANDS};
use crate::games::rikken::view::RikkenView;
use serde_json::Value;

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

fn deal(rng: &mut Rng) -> Vec<Vec<Card>> {
    let mut deck = full_deck();
    for i in (1..52).rev() {
        let j = rng.below(i + 1);
        deck.swap(i, j);
    }
    (0..4)
        .map(|s| {
            let mut h = deck[s * 13..s * 13 + 13].to_vec();
            h.sort();
            h
        })
        .collect()
}

/// Folds one protocol line into a view.
fn say(view: &mut RikkenView, line: &str) {
    let w: Vec<String> = line.split(' ').map(String::from).collect();
    view.observe(&w[0], &crate::game::text_args(w[1..].iter().map(String::as_str)));
}

fn tell(views: &mut [RikkenView], to: Option<usize>, line: &str) {
    for (s, v) in views.iter_mut().enumerate() {
        if to.is_none_or(|t| t == s) {
            say(v, line);
        }
    }
}

fn strings(cs: &[Card]) -> Vec<String> {
    cs.iter().map(|c| c.to_string()).collect()
}

fn trick_winner(trick: &[(usize, Card)], trump: Option<Suit>) -> usize {
    let mut best = 0;
    for i in 1..trick.len() {
        let (a, w) = (trick[i].1, trick[best].1);
        let beats = if a.suit == w.suit {
            a.rank > w.rank
        } else {
            Some(a.suit) == trump
        };
        if beats {
            best = i;
        }
    }
    trick[best].0
}

/// Plays one deal of card play (follow suit only) for a fixed contract and returns the tricks
/// won per seat. `smart[s]`: seat s uses the policy, else a random legal card. Every policy
/// answer is checked to be legal.
fn play_deal(seed: u64, bid: &str, declarers: &[usize], partner: Option<usize>, smart: [bool; 4]) -> Vec<u32> {
    play_deal_with(seed, bid, declarers, partner, smart, false, true)
}

/// `play_deal` with `hide_quitted_tricks` views, and a partner told only to himself until
/// his first card when `public` is false.
fn play_deal_with(
    seed: u64,
    bid: &str,
    declarers: &[usize],
    partner: Option<usize>,
    smart: [bool; 4],
    hide: bool,
    public: bool,
) -> Vec<u32> {
    let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let mut hands = deal(&mut rng);
    let mut views: Vec<RikkenView> = (0..4).map(|s| view_for(s, hide)).collect();
    tell(&mut views, None, "deal 1 3");
    for (s, h) in hands.iter().enumerate() {
        tell(&mut views, Some(s), &format!("hand {}", strings(h).join(" ")));
    }
    let decl: Vec<String> = declarers.iter().map(|d| d.to_string()).collect();
    tell(&mut views, None, &format!("contract {bid} {}", decl.join(",")));
    let trump = if bid.contains("misere") || bid.contains("piek") {
        None
    } else {
        let legal: Vec<String> = ["S", "H", "D", "C"].iter().map(|s| s.to_string()).collect();
        let t = simple_policy(&views[declarers[0]], "trump", &legal);
        assert!(legal.contains(&t));
        tell(&mut views, None, &format!("move {} {t} trump", declarers[0]));
        t.parse::<Suit>().ok()
    };
    tell(
        &mut views,
        None,
        &format!("trump {}", trump.map_or("none".into(), |t| t.to_string())),
    );
    if let (Some(p), true) = (partner, bid.starts_with("rik")) {
        // The call: a card of the partner's hand.
        let c = hands[p][0];
        tell(&mut views, None, &format!("move {} {c} call", declarers[0]));
        tell(&mut views, None, &format!("called {c}"));
    }
    if let Some(p) = partner {
        tell(&mut views, if public { None } else { Some(p) }, &format!("partner {p}"));
    }
    let mut partner_told = public;
    let mut won = vec![0; 4];
    let mut leader = 0;
    for n in 1..=13 {
        let mut trick: Vec<(usize, Card)> = Vec::new();
        for i in 0..4 {
            let s = (leader + i) % 4;
            let h = &hands[s];
            let legal: Vec<Card> = match trick.first() {
                Some(&(_, c)) if h.iter().any(|x| x.suit == c.suit) => {
                    h.iter().copied().filter(|x| x.suit == c.suit).collect()
                }
                _ => h.clone(),
            };
            let legal = strings(&legal);
            let choice = if smart[s] {
                let c = simple_policy(&views[s], "play", &legal);
                assert!(legal.contains(&c), "{c} not in {legal:?}");
                c
            } else {
                legal[rng.below(legal.len())].clone()
            };
            let card: Card = choice.parse().unwrap();
            hands[s].retain(|&x| x != card);
            trick.push((s, card));
            tell(&mut views, None, &format!("move {s} {choice} play"));
            if Some(s) == partner && !partner_told {
                partner_told = true;
                tell(&mut views, None, &format!("partner {s}"));
            }
        }
        leader = trick_winner(&trick, trump);
        won[leader] += 1;
        tell(&mut views, None, &format!("trick {n} {leader}"));
    }
    for v in &views {
        assert!(v.deal.hand.is_empty());
    }
    won
}

#[test]
fn the_policy_side_takes_more_tricks_than_random_play() {
    let (mut smart, mut random, mut smart_def, mut random_def) = (0, 0, 0, 0);
    for seed in 1..=150u64 {
        let w = play_deal(seed, "malheur", &[0], Some(2), [true, false, true, false]);
        smart += w[0] + w[2];
        let w = play_deal(seed, "malheur", &[0], Some(2), [false; 4]);
        random += w[0] + w[2];
        random_def += w[1] + w[3];
        let w = play_deal(seed, "malheur", &[0], Some(2), [false, true, false, true]);
        smart_def += w[1] + w[3];
    }
    // With the same cards the policy side does clearly better than random.
    assert!(
        smart > random + 150,
        "declaring side: policy {smart} vs random {random}"
    );
    assert!(
        smart_def > random_def + 150,
        "defence: policy {smart_def} vs random {random_def}"
    );
    eprintln!("declaring {smart} vs {random}; defence {smart_def} vs {random_def}");
}

#[test]
fn a_misere_declarer_with_the_policy_takes_fewer_tricks() {
    let (mut smart, mut random, mut smart_opp) = (0, 0, 0);
    for seed in 1..=150u64 {
        let w = play_deal(seed, "misere", &[1], None, [false, true, false, false]);
        smart += w[1];
        let w = play_deal(seed, "misere", &[1], None, [false; 4]);
        random += w[1];
        let w = play_deal(seed, "misere", &[1], None, [true, false, true, true]);
        smart_opp += w[1];
    }
    assert!(
        smart + 100 < random,
        "misère declarer: policy {smart} vs random {random}"
    );
    assert!(
        smart_opp > random,
        "misère defence: policy {smart_opp} vs random {random}"
    );
    eprintln!("misère declarer {smart} vs {random}; defence makes him take {smart_opp}");
}

#[test]
fn every_contract_kind_gets_legal_cards_also_with_hidden_tricks() {
    let kinds: [(&str, &[usize], Option<usize>); 8] = [
        ("rik", &[0], Some(3)),
        ("alone8", &[2], None),
        ("misere", &[1, 3], None),
        ("piek", &[0], None),
        ("open_misere_praatje", &[2], None),
        ("open_piek_totaal", &[0, 1, 2, 3], None),
        ("schoppen_mieen", &[], None),
        ("solo_beter", &[3], None),
    ];
    for seed in 1..=12u64 {
        for (bid, decl, partner) in kinds {
            let decl: &[usize] = if decl.is_empty() { &[0] } else { decl };
            for hide in [false, true] {
                let w = play_deal_with(seed, bid, decl, partner, [true; 4], hide, false);
                assert_eq!(w.iter().sum::<u32>(), 13);
            }
        }
    }
}

/// Seat 0's view in the auction of deal 1: its hand, and the bids before its turn.
fn bid_view(hand: &str, auction: &[(usize, &str)]) -> RikkenView {
    let mut v = view_for(0, false);
    say(&mut v, "deal 1 3");
    say(&mut v, &format!("hand {hand}"));
    for (seat, bid) in auction {
        say(&mut v, &format!("move {seat} {bid} bid"));
    }
    v
}

/// A seat view of another game: the policy answers the first legal token.
#[derive(Clone)]
struct OtherView;
impl SeatView for OtherView {
    fn observe(&mut self, _: &str, _: &[crate::game::Arg]) {}
    fn to_json(&self) -> Value {
        Value::Null
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

fn toks(s: &str) -> Vec<String> {
    s.split(' ').map(String::from).collect()
}

const OPENING: &str =
    "pass rik misere piek open_misere open_piek open_misere_praatje open_piek_praatje solo solo_beter";

#[test]
fn bids_follow_the_strength_of_the_hand() {
    // Weak, no misère either: pass.
    let weak = "QS 8S 3S JH 9H 4H KD 9D 5D QC TC 7C 2C";
    assert_eq!(simple_policy(&bid_view(weak, &[]), "bid", &toks(OPENING)), "pass");
    // Long strong spades and side aces: rik.
    let strong = "AS KS QS JS 9S 4S AH 5H KD 7D 3D 8C 2C";
    assert_eq!(simple_policy(&bid_view(strong, &[]), "bid", &toks(OPENING)), "rik");
    // The same hand over a rik bids alone.
    let over = toks("pass rik_beter alone7 alone7_beter alone8 alone8_beter misere piek alone9 solo");
    assert_eq!(simple_policy(&bid_view(strong, &[(3, "rik")]), "bid", &over), "alone7");
    // Low cards everywhere: misère.
    let low = "7S 4S 2S 6H 3H 2H 8D 5D 3D 2D 6C 4C 2C";
    assert_eq!(simple_policy(&bid_view(low, &[]), "bid", &toks(OPENING)), "misere");
    // Three aces and no pass allowed: the obligatory malheur.
    let aces = "AS 4S 2S AH 3H 2H AD 5D 3D 2D 6C 4C 2C";
    let forced = toks("malheur open_misere open_piek open_misere_praatje open_piek_praatje solo solo_beter");
    assert_eq!(simple_policy(&bid_view(aces, &[]), "bid", &forced), "malheur");
    // The answer is always legal, whatever subset is offered.
    let all = toks(
        "pass rik rik_beter alone7 alone8_beter misere misere_join piek malheur open_misere \
         open_piek_praatje solo solo_beter",
    );
    let mut rng = Rng(7);
    for hand in [weak, strong, low, aces, HANDS[0], HANDS[1], HANDS[2], HANDS[3]] {
        for _ in 0..40 {
            let legal: Vec<String> = all.iter().filter(|_| rng.below(2) == 0).cloned().collect();
            if legal.is_empty() {
                continue;
            }
            let b = simple_policy(&bid_view(hand, &[]), "bid", &legal);
            assert!(legal.contains(&b), "{b} not in {legal:?}");
        }
    }
}

#[test]
fn trump_and_call_choices() {
    let hand = "AS KS QS JS 9S 4S AH 5H KD 7D 3D 8C 2C";
    let v = bid_view(hand, &[]);
    assert_eq!(simple_policy(&v, "trump", &toks("S H D C")), "S");
    assert_eq!(simple_policy(&v, "trump", &toks("H D C")), "D");
    let mut v = v;
    say(&mut v, "trump S");
    // The ace of diamonds, where it holds the king.
    assert_eq!(simple_policy(&v, "call", &toks("AD AC")), "AD");
    assert_eq!(simple_policy(&v, "call", &toks("AC")), "AC");
    // Nonsense decisions and views of another game still give a legal answer.
    assert_eq!(simple_policy(&v, "what", &toks("x y")), "x");
    assert_eq!(simple_policy(&OtherView, "play", &toks("3C 2C")), "3C");
    assert_eq!(simple_policy(&OtherView, "bid", &toks("rik pass")), "rik");
    assert_eq!(simple_policy(&v, "play", &[]), "");
}

#[test]
fn the_playouts_defend_a_piek_as_simple_does_closed_or_open() {
    // W (3) plays piek and leads ♥9, N plays ♥2; E (1) holds ♥K 3 with S still to come.
    // simple ducks, as against a misère, and lets W have his one trick; the playouts model
    // the same defence (a fight for that trick predicted the pieks of simple's table worse).
    let spec = crate::games::rikken::spec();
    for (contract, exposed) in [
        ("piek", None),
        ("open_piek", Some("exposed 3 9H 8H 7H 6H 5H 4H 2S 3S 4S 2D 3D 4D 2C")),
        (
            "open_piek_praatje",
            Some("exposed 3 9H 8H 7H 6H 5H 4H 2S 3S 4S 2D 3D 4D 2C"),
        ),
    ] {
        let mut v = view_for(1, false);
        let contract_line = format!("contract {contract} 3");
        let mut lines = vec![
            "deal 1 0",
            "hand KH 3H AS KS QS JS AD KD QD JD AC KC QC",
            contract_line.as_str(),
            "trump none",
        ];
        lines.extend(exposed);
        lines.extend(["move 3 9H play", "move 0 2H play"]);
        for line in lines {
            say(&mut v, line);
        }
        assert_eq!(simple_policy(&v, "play", &toks("KH 3H")), "3H", "{contract}");
        assert_eq!((spec.playout_policy)(&v, "play", &toks("KH 3H")), "3H", "{contract}");
    }
}

#[test]
fn card_play_in_the_example_deal() {
    // Seat 2 (S) in the example rikken deal: after N's ♦7 and E's ♦A, S must follow diamonds.
    let lines = crate::games::rikken::view::tests::rik_deal();
    let upto = lines.iter().position(|(_, l)| l == "move 2 4D play").unwrap();
    let mut v = view_for(2, false);
    crate::games::rikken::view::tests::feed(&mut v, &lines, upto);
    // Partner E wins with the ace: S (an opponent of N and E) cannot win, plays lowest.
    assert_eq!(simple_policy(&v, "play", &toks("JD 9D 4D")), "4D");
    // The only legal card is played.
    assert_eq!(simple_policy(&v, "play", &toks("9D")), "9D");
    // N leads trick 1 as rikker with ♠A K Q 5 in trumps: draws trumps with the ace.
    let upto = lines.iter().position(|(_, l)| l == "move 0 AS play").unwrap();
    let mut v = view_for(0, false);
    crate::games::rikken::view::tests::feed(&mut v, &lines, upto);
    let legal = strings(&v.deal.hand);
    assert_eq!(simple_policy(&v, "play", &legal), "AS");
}

#[test]
fn the_suit_bit_helpers_agree_with_their_card_by_card_definitions() {
    let mut rng = Rng(11);
    for _ in 0..300 {
        let set = CardSet(rng.next() & ((1u64 << 52) - 1));
        let cards = set.cards();
        for s in Suit::ALL {
            let suit: Vec<Card> = cards.iter().copied().filter(|c| c.suit == s).collect();
            assert_eq!(top(set.of_suit(s)), suit.iter().copied().max_by_key(|c| c.rank));
            assert_eq!(bottom(set.of_suit(s)), suit.iter().copied().min_by_key(|c| c.rank));
        }
        for c in full_deck() {
            let of = |keep: &dyn Fn(&Card) -> bool| {
                CardSet::from_cards(
                    &cards
                        .iter()
                        .copied()
                        .filter(|u| u.suit == c.suit && keep(u))
                        .collect::<Vec<_>>(),
                )
            };
            assert_eq!(at_or_above(set, c), of(&|u| u.rank >= c.rank), "{c}");
            assert_eq!(below(set, c), of(&|u| u.rank < c.rank), "{c}");
        }
        // Misère risk: the i-th lowest card of a suit above rank base + 2 i.
        let hand: Vec<Card> = cards.iter().copied().take(13).collect();
        for base in [4, 5, 7] {
            let mut naive = CardSet::EMPTY;
            for s in Suit::ALL {
                let mut cs: Vec<Card> = hand.iter().copied().filter(|c| c.suit == s).collect();
                cs.sort_by_key(|c| c.rank);
                for (i, c) in cs.iter().enumerate() {
                    if usize::from(c.rank.value()) > usize::from(base) + 2 * i {
                        naive.insert(*c);
                    }
                }
            }
            assert_eq!(misere_risky(&hand, base), naive);
        }
    }
}

#[test]
fn bid_ranks_follow_the_ladder() {
    let ladder = [
        "rik",
        "rik_beter",
        "alone7",
        "alone7_beter",
        "alone8",
        "alone8_beter",
        "misere",
        "alone9",
        "alone9_beter",
        "alone12_beter",
        "malheur",
        "open_misere",
        "open_piek_praatje",
        "solo",
        "solo_beter",
    ];
    for w in ladder.windows(2) {
        assert!(bid_rank(w[0]) < bid_rank(w[1]), "{} < {}", w[0], w[1]);
    }
    assert_eq!(bid_rank("misere_join"), bid_rank("piek"));
}
