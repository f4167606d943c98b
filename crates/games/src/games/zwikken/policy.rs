//! The built-in `simple` Zwikken bot: deterministic rules of thumb on the seat view.
//!
//! * **bid**: asks with a zwik, with a trump ten that an exchange turns into a zwik, or with a
//!   hand worth about two tricks (trump ace and king, the trump ace with another trump or a side
//!   ace, three trumps); later askers ("ik vraag beter") need a little more, and so does a table
//!   of five or six. With the trump ten and a pair it waits ("ik verwacht een betere") rather
//!   than pass. Otherwise it passes.
//! * **seek**: the dealer always seeks when he may (everyone pays the same fee).
//! * **exchange**: takes a turned card that completes a zwik, else the highest turned card of
//!   the ten's own suit (a better trump for the trump ten); at the first trick the same choice
//!   is made together with the card to play.
//! * **play**: wins the trick as cheaply as possible when last to play, with its best card
//!   when others follow, otherwise throws the card worth the fewest points; leads its highest
//!   trump when it holds the trump ace or king, else its highest card.
//!
//! The answer is always one of `legal` (the first one when nothing better is found).

use super::engine::{card_points, zwik_rank, ExchangeTargets, ZwikkenAction};
use super::view::ZwikkenView;
use crate::cards::{Card, Rank, Suit};
use crate::few::Few;
use crate::game::SeatView;

/// The `simple` bot's choice for a Zwikken decision (the `simple_policy` of the game's spec),
/// read from the seat's typed view.
pub fn simple_policy(view: &dyn SeatView, decision: &str, legal: &[String]) -> String {
    let Some(first) = legal.first() else {
        return String::new();
    };
    if legal.len() == 1 {
        return first.clone();
    }
    let Some(view) = view.as_any().downcast_ref::<ZwikkenView>() else {
        return first.clone();
    };
    let choice = match decision {
        "bid" => bid(view, legal),
        "seek" => Some("seek".to_string()),
        "exchange" => exchange(view, legal),
        "play" => play(view, legal),
        _ => None,
    };
    match choice {
        Some(c) if legal.contains(&c) => c,
        _ => first.clone(),
    }
}

/// The trump suit: that of the last turned card.
fn trump_of(view: &ZwikkenView) -> Option<Suit> {
    view.deal.turned.last().map(|c| c.suit)
}

/// The active seats (4 when the view knows none).
fn players(view: &ZwikkenView) -> usize {
    if view.active.is_empty() {
        4
    } else {
        view.active.iter().filter(|&&a| a).count()
    }
}

/// The turned card `take` that, exchanged for `ten`, gives the hand a zwik.
fn zwik_target(hand: &[Card], targets: &[(Card, Card)]) -> Option<Card> {
    targets.iter().find_map(|&(take, ten)| {
        // The hand after the exchange is a zwik: three cards of one rank.
        let mut kept = hand.iter().filter(|&&c| c != ten);
        let n = kept.clone().count() + 1;
        (n == 3 && kept.all(|c| c.rank == take.rank)).then_some(take)
    })
}

/// The turned cards the seat may take, as (card, ten) pairs, from `exchange_X` tokens.
fn targets_of(view: &ZwikkenView, trump: Suit, legal: &[String]) -> Vec<(Card, Card)> {
    let takes = legal
        .iter()
        .filter_map(|t| t.strip_prefix("exchange_")?.split('_').next()?.parse::<Card>().ok());
    targets_from(view, trump, takes)
}

/// The exchanges on offer as (card, ten) pairs, from the turned cards the exchange actions
/// take (in their order, each once).
fn targets_from(view: &ZwikkenView, trump: Suit, takes: impl Iterator<Item = Card>) -> Vec<(Card, Card)> {
    let matched = view.exchange_targets == ExchangeTargets::SuitMatched;
    let mut out: Vec<(Card, Card)> = Vec::new();
    for take in takes {
        if out.iter().any(|&(t, _)| t == take) {
            continue;
        }
        let ten = Card::new(Rank::TEN, if matched { take.suit } else { trump });
        out.push((take, ten));
    }
    out
}

/// [`targets_of`] on the typed actions.
fn typed_targets(view: &ZwikkenView, trump: Suit, actions: &[ZwikkenAction]) -> Vec<(Card, Card)> {
    let takes = actions.iter().filter_map(|a| match *a {
        ZwikkenAction::Exchange(c) | ZwikkenAction::ExchangePlay(c, _) => Some(c),
        _ => None,
    });
    targets_from(view, trump, takes)
}

/// The exchange the policy wants: a zwik, else a higher card of the ten's suit.
fn wanted_exchange(hand: &[Card], targets: &[(Card, Card)]) -> Option<Card> {
    zwik_target(hand, targets).or_else(|| {
        targets
            .iter()
            .filter(|(take, ten)| take.suit == ten.suit)
            .max_by_key(|(take, _)| take.rank)
            .map(|(take, _)| *take)
    })
}

/// About how many tricks the hand takes with `trump`.
fn strength(hand: &[Card], trump: Suit) -> f64 {
    let has = |r: Rank| hand.contains(&Card::new(r, trump));
    let mut s = 0.0;
    for c in hand {
        s += if c.suit == trump {
            match c.rank.value() {
                14 => 1.0,
                13 if has(Rank::ACE) => 0.9,
                13 => 0.7,
                12 if has(Rank::ACE) && has(Rank::KING) => 0.9,
                12 => 0.5,
                11 => 0.4,
                _ => 0.35,
            }
        } else {
            match c.rank.value() {
                14 => 0.45,
                13 => 0.15,
                _ => 0.0,
            }
        }
    }
    s
}

/// What the policy bids: ask, or wait for a better card.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Bid {
    Ask,
    Wait,
}

fn bid(view: &ZwikkenView, legal: &[String]) -> Option<String> {
    let ask = legal.iter().find(|t| t.ends_with("ask"));
    let wait = legal.iter().any(|t| t == "wait_better");
    match wanted_bid(view, ask.is_some(), wait)? {
        Bid::Ask => ask.cloned(),
        Bid::Wait => Some("wait_better".into()),
    }
}

/// The bid the policy wants, when it may ask (`can_ask`) and may wait (`can_wait`); `None`:
/// the first legal bid (a pass).
fn wanted_bid(view: &ZwikkenView, can_ask: bool, can_wait: bool) -> Option<Bid> {
    let hand = &view.deal.hand;
    let trump = trump_of(view)?;
    if !can_ask {
        return None;
    }
    if zwik_rank(hand).is_some() {
        return Some(Bid::Ask);
    }
    let ten = Card::new(Rank::TEN, trump);
    let turned = &view.deal.turned;
    let any_turned = view.exchange_targets == ExchangeTargets::AnyTurned;
    let mut best_hand = std::borrow::Cow::Borrowed(&hand[..]);
    if hand.contains(&ten) {
        let targets: Vec<(Card, Card)> = turned
            .iter()
            .filter(|c| any_turned || c.suit == trump)
            .map(|&c| (c, ten))
            .collect();
        if zwik_target(hand, &targets).is_some() {
            return Some(Bid::Ask);
        }
        // The exchange for the current turned card improves the trump.
        if let Some(&t) = turned.last() {
            if t.suit == trump {
                let h = best_hand.to_mut();
                h.retain(|&c| c != ten);
                h.push(t);
            }
        }
    }
    let players = players(view);
    let asked_before = view.deal.askers.len();
    let mut need = 1.7 + 0.1 * (players as f64 - 4.0).max(0.0);
    if asked_before > 0 {
        need += 0.2;
    }
    if strength(&best_hand, trump) >= need {
        return Some(Bid::Ask);
    }
    if can_wait {
        return Some(Bid::Wait);
    }
    None
}

fn exchange(view: &ZwikkenView, legal: &[String]) -> Option<String> {
    let trump = trump_of(view)?;
    let targets = targets_of(view, trump, legal);
    wanted_take(view, &targets).map(|take| format!("exchange_{take}"))
}

/// The turned card the policy takes at the exchange among `targets`: a zwik for an asker,
/// else the highest of the ten's own suit.
fn wanted_take(view: &ZwikkenView, targets: &[(Card, Card)]) -> Option<Card> {
    let hand = &view.deal.hand;
    let asker = view.deal.askers.contains(&view.seat);
    if asker {
        if let Some(z) = zwik_target(hand, targets) {
            return Some(z);
        }
    }
    let t = targets
        .iter()
        .filter(|(take, ten)| take.suit == ten.suit)
        .max_by_key(|(take, _)| take.rank)?;
    Some(t.0)
}

/// Does `c` beat `best` in a trick led with `led`?
fn beats(c: Card, best: Card, led: Suit, trump: Suit) -> bool {
    if c.suit == trump {
        best.suit != trump || c.rank > best.rank
    } else {
        best.suit != trump && c.suit == led && c.rank > best.rank
    }
}

/// [`simple_policy`] on the typed legal actions (the spec's `typed_policy`): every decision,
/// as `simple_policy` chooses among their tokens (its choice where it is legal, else the
/// first action).
pub fn typed_policy(view: &dyn SeatView, decision: &str, legal: &dyn std::any::Any) -> Option<usize> {
    use ZwikkenAction::*;
    let actions = legal.downcast_ref::<Vec<ZwikkenAction>>()?;
    let v = view.as_any().downcast_ref::<ZwikkenView>()?;
    if actions.len() <= 1 {
        return (actions.len() == 1).then_some(0);
    }
    let choice = match decision {
        "bid" => {
            let ask = actions.iter().copied().find(|&a| a == Ask || a == KenAsk);
            match wanted_bid(v, ask.is_some(), actions.contains(&WaitBetter)) {
                Some(Bid::Ask) => ask,
                Some(Bid::Wait) => Some(WaitBetter),
                None => None,
            }
        }
        "seek" => Some(Seek),
        "exchange" => trump_of(v).and_then(|trump| wanted_take(v, &typed_targets(v, trump, actions)).map(Exchange)),
        "play" => typed_play(v, actions),
        _ => return None,
    };
    Some(choice.and_then(|c| actions.iter().position(|&a| a == c)).unwrap_or(0))
}

/// [`play`] on the typed actions.
fn typed_play(view: &ZwikkenView, actions: &[ZwikkenAction]) -> Option<ZwikkenAction> {
    let trump = trump_of(view)?;
    let targets = typed_targets(view, trump, actions);
    let hand = &view.deal.hand;
    if let Some(take) = wanted_exchange(hand, &targets) {
        let ten = targets.iter().find(|(t, _)| *t == take).map(|(_, ten)| *ten)?;
        let mut hand = hand.clone();
        hand.retain(|&c| c != ten);
        hand.push(take);
        let options: Vec<Card> = actions
            .iter()
            .filter_map(|a| match *a {
                ZwikkenAction::ExchangePlay(t, c) if t == take => Some(c),
                _ => None,
            })
            .collect();
        let card = choose_card(view, &hand, &options, trump)?;
        return Some(ZwikkenAction::ExchangePlay(take, card));
    }
    // The cards (at most the deck's 20), without a Vec.
    let mut options: Few<Card, 20> = Few::new(Card::from_index(0));
    for a in actions {
        if let ZwikkenAction::Play(c) = *a {
            if options.len() == 20 {
                return None;
            }
            options.push(c);
        }
    }
    choose_card(view, hand, options.as_slice(), trump).map(ZwikkenAction::Play)
}

fn play(view: &ZwikkenView, legal: &[String]) -> Option<String> {
    let mut hand = view.deal.hand.clone();
    let trump = trump_of(view)?;
    // The first-trick exchange: decide it first, then play from the new hand.
    let targets = targets_of(view, trump, legal);
    let mut prefix = String::new();
    let mut options: Vec<Card> = legal.iter().filter_map(|t| t.parse().ok()).collect();
    if let Some(take) = wanted_exchange(&hand, &targets) {
        let ten = targets.iter().find(|(t, _)| *t == take).map(|(_, ten)| *ten)?;
        prefix = format!("exchange_{take}_");
        hand.retain(|&c| c != ten);
        hand.push(take);
        options = legal
            .iter()
            .filter_map(|t| t.strip_prefix(&prefix)?.parse().ok())
            .collect();
    }
    let card = choose_card(view, &hand, &options, trump)?;
    Some(format!("{prefix}{card}"))
}

fn choose_card(view: &ZwikkenView, hand: &[Card], options: &[Card], trump: Suit) -> Option<Card> {
    let trick: &[Card] = view.deal.trick.as_ref().map_or(&[], |t| t.cards.as_slice());
    let players = players(view);
    let strength_of = |c: &Card| (c.suit == trump, c.rank);
    if trick.is_empty() {
        let has_top = hand.iter().any(|c| c.suit == trump && c.rank >= Rank::KING);
        let trumps = options.iter().copied().filter(|c| c.suit == trump);
        if has_top {
            if let Some(t) = trumps.max_by_key(|c| c.rank) {
                return Some(t);
            }
        }
        return options.iter().copied().max_by_key(strength_of);
    }
    let led = trick[0].suit;
    let mut best = trick[0];
    for &c in &trick[1..] {
        if beats(c, best, led, trump) {
            best = c;
        }
    }
    let winning = options.iter().copied().filter(|&c| beats(c, best, led, trump));
    let last = trick.len() + 1 == players;
    let win = if last {
        winning.min_by_key(strength_of)
    } else {
        winning.max_by_key(strength_of)
    };
    if win.is_some() {
        return win;
    }
    options
        .iter()
        .copied()
        .min_by_key(|c| (card_points(*c), c.suit == trump, c.rank))
}

#[cfg(test)]
mod tests {
    use super::super::view::Trick;
    use super::*;
    use crate::game::GameInfo;
    use crate::games::zwikken::options;
    use crate::options::Options;

    /// Seat 1 of four, default options: its hand, the turned cards and the askers so far.
    fn view(hand: &[&str], turned: &[&str], askers: &[usize]) -> ZwikkenView {
        let o = Options::resolve(&options(), "zwikken", &[] as &[&str]).unwrap();
        let mut v = ZwikkenView::new(&GameInfo {
            game: "zwikken".into(),
            options: o,
            players: 4,
            seat: 1,
        });
        v.deal.hand = hand.iter().map(|c| c.parse().unwrap()).collect();
        v.deal.turned = turned.iter().map(|c| c.parse().unwrap()).collect();
        v.deal.askers = askers.to_vec();
        v
    }

    /// The trick in progress: its seats and cards.
    fn trick(seats: &[u8], cards: &[&str]) -> Option<Trick> {
        let mut t = Trick::default();
        for (&s, c) in seats.iter().zip(cards) {
            t.seats.push(s);
            t.cards.push(c.parse().unwrap());
        }
        Some(t)
    }

    fn legal(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn asks_with_strong_hands_and_passes_with_weak_ones() {
        let bid = |hand: &[&str], turned: &[&str], askers: &[usize], l: &[&str]| {
            simple_policy(&view(hand, turned, askers), "bid", &legal(l))
        };
        assert_eq!(
            bid(&["QH", "QD", "QC"], &["JS"], &[], &["pass", "ask"]),
            "ask",
            "a zwik"
        );
        assert_eq!(
            bid(&["AS", "KS", "JD"], &["JS"], &[], &["pass", "ask"]),
            "ask",
            "trump A K"
        );
        assert_eq!(bid(&["AS", "QS", "AD"], &["JS"], &[], &["pass", "ask"]), "ask");
        assert_eq!(
            bid(&["JH", "QD", "KC"], &["JS"], &[], &["pass", "ask"]),
            "pass",
            "no trump"
        );
        assert_eq!(
            bid(&["QS", "JD", "KC"], &["JS"], &[], &["pass", "ask"]),
            "pass",
            "one small trump"
        );
        assert_eq!(
            bid(&["AS", "JD", "TC"], &["JS"], &[], &["pass", "ask"]),
            "pass",
            "a lone trump ace"
        );
        // After another asker ("ik vraag beter") the same hand (about 1.85 tricks) is too weak.
        assert_eq!(bid(&["AS", "JS", "AD"], &["KS"], &[], &["pass", "ask"]), "ask");
        assert_eq!(bid(&["AS", "JS", "AD"], &["KS"], &[0], &["pass", "ask"]), "pass");
        // The trump ten and a pair: exchange for a turned king makes a zwik, so ask.
        assert_eq!(
            bid(
                &["TS", "KH", "KD"],
                &["KS"],
                &[],
                &["ken_pass", "ken_ask", "wait_better"]
            ),
            "ken_ask"
        );
        // Without that card it waits for a better one.
        assert_eq!(
            bid(
                &["TS", "QH", "QD"],
                &["JS"],
                &[],
                &["ken_pass", "ken_ask", "wait_better"]
            ),
            "wait_better"
        );
        // A forced action is taken as it is.
        assert_eq!(bid(&["JH", "QD", "KC"], &["JS"], &[], &["ken_ask"]), "ken_ask");
    }

    #[test]
    fn exchanges_for_a_zwik_or_a_better_trump() {
        let v = view(&["TS", "KH", "KD"], &["KC", "JS"], &[1]);
        let l = legal(&["no_exchange", "exchange_KC", "exchange_JS"]);
        assert_eq!(simple_policy(&v, "exchange", &l), "exchange_KC", "the zwik");
        let v = view(&["TS", "AH", "KD"], &["KC", "JS"], &[]);
        assert_eq!(simple_policy(&v, "exchange", &l), "exchange_JS", "a higher trump");
        assert_eq!(simple_policy(&v, "seek", &legal(&["no_seek", "seek"])), "seek");
    }

    #[test]
    fn plays_cheaply_when_last_and_throws_few_points_when_beaten() {
        let mut v = view(&["AH", "QS", "JH"], &["JS"], &[]);
        v.deal.trick = trick(&[2, 3, 0], &["KH", "TH", "QH"]);
        let l = legal(&["AH", "JH", "QS"]);
        assert_eq!(simple_policy(&v, "play", &l), "AH", "the cheapest winner when last");
        v.deal.trick = trick(&[2, 3, 0], &["KH", "KS", "QH"]);
        assert_eq!(simple_policy(&v, "play", &l), "JH", "beaten: the fewest points");
        // Leading with the trump king: draw with the highest trump.
        let v = view(&["KS", "AH", "JD"], &["JS"], &[]);
        assert_eq!(simple_policy(&v, "play", &legal(&["KS", "AH", "JD"])), "KS");
        // The first-trick exchange comes with the card.
        let mut v = view(&["TS", "AH", "JD"], &["QS"], &[]);
        v.deal.trick = trick(&[0], &["KS"]);
        let l = legal(&["TS", "exchange_QS_QS"]);
        assert_eq!(simple_policy(&v, "play", &l), "exchange_QS_QS");
    }

    #[test]
    fn the_view_folded_from_event_lines_drives_the_choice() {
        let mut v = view(&[], &[], &[]);
        for line in ["deal 1 0", "hand TS KH KD", "turn KC", "move 0 pass", "turn JS"] {
            let mut w = line.split(' ');
            let kind = w.next().unwrap();
            let args: Vec<String> = w.map(String::from).collect();
            v.observe(kind, &crate::game::text_args(args.iter().map(String::as_str)));
        }
        v.deal.askers = vec![1];
        let l = legal(&["no_exchange", "exchange_KC", "exchange_JS"]);
        assert_eq!(simple_policy(&v, "exchange", &l), "exchange_KC");
    }

    #[test]
    fn suit_matched_tens_are_read_from_the_options() {
        let o = Options::resolve(&options(), "zwikken", &["exchange_targets=suit_matched"]).unwrap();
        let mut v = ZwikkenView::new(&GameInfo {
            game: "zwikken".into(),
            options: o,
            players: 4,
            seat: 1,
        });
        // Holding TH, not the trump ten: the matched ten is laid for QH, which makes a queen
        // zwik with QS QD; any_turned would lay the trump ten TS (not held) and see no zwik.
        v.deal.hand = ["TH", "QS", "QD"].iter().map(|c| c.parse().unwrap()).collect();
        v.deal.turned = ["QH", "JS"].iter().map(|c| c.parse().unwrap()).collect();
        v.deal.askers = vec![1];
        let l = legal(&["no_exchange", "exchange_QH"]);
        assert_eq!(simple_policy(&v, "exchange", &l), "exchange_QH");
        v.exchange_targets = ExchangeTargets::AnyTurned;
        assert_eq!(simple_policy(&v, "exchange", &l), "no_exchange");
    }
}
