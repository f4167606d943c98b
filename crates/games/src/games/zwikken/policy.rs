//! The built-in `simple` Zwikken bot: deterministic rules of thumb on what a seat knows.
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
//!
//! The rules read a [`Know`]: the few things of the seat's knowledge they use, in fixed-size
//! fields, made from the seat's view ([`Know::from_view`]: the `simple` bot and the spec's
//! typed policy) or from the engine ([`Know::from_engine`]: a search's playouts, through
//! [`EnginePolicy`](crate::engine::EnginePolicy)), so both choose alike.

use super::engine::{card_points, zwik_rank, ExchangeTargets, Phase, Zwikken, ZwikkenAction};
use super::view::ZwikkenView;
use crate::cards::{Card, CardSet, Rank, Suit};
use crate::few::Few;
use crate::game::{Seat, SeatView};

/// The most cards in a list of a [`Know`] (the deck: a view fed by the engine holds far fewer).
const CARDS: usize = 20;

/// The most cards in a trick (six seats).
const TRICK: usize = 6;

/// A list of cards of a [`Know`].
type Cards = Few<Card, CARDS>;

/// Exchanges on offer: (turned card to take, ten to lay in its place), each card once.
type Targets = Few<(Card, Card), CARDS>;

fn no_card() -> Card {
    Card::from_index(0)
}

/// What the policy reads of one seat's knowledge: its hand, the turned cards, the trick in
/// progress, the players in, the askers of this period and the `exchange_targets` rule.
#[derive(Clone, Copy, Debug)]
pub struct Know {
    /// The seat's cards in the view's order: as dealt (the `hand` line: card order) with the
    /// cards played taken out and a card taken at an exchange put last. The order counts only
    /// in the bidding (the sum of [`strength`]), before any exchange or play.
    hand: Cards,
    /// The turned cards face up (an exchanged ten in the taken card's place); the last one's
    /// suit is trump.
    turned: Cards,
    /// The cards of the trick in progress, in play order.
    trick: Few<Card, TRICK>,
    /// The seats still in the session.
    players: usize,
    /// How many have asked since the last card was turned.
    askers: usize,
    /// Whether this seat is one of them.
    asker: bool,
    exchange_targets: ExchangeTargets,
}

impl Know {
    /// What the view of a seat knows.
    pub fn from_view(view: &ZwikkenView) -> Know {
        let d = &view.deal;
        let mut hand = Few::new(no_card());
        for &c in &d.hand {
            hand.push_unless_full(c);
        }
        let mut turned = Few::new(no_card());
        for &c in &d.turned {
            turned.push_unless_full(c);
        }
        Know {
            hand,
            turned,
            trick: d.trick.map_or(Few::new(no_card()), |t| t.cards),
            // The active seats (4 when the view knows none).
            players: if view.active.is_empty() {
                4
            } else {
                view.active.iter().filter(|&&a| a).count()
            },
            askers: d.askers.len(),
            asker: d.askers.contains(&view.seat),
            exchange_targets: view.exchange_targets,
        }
    }

    /// What `seat` knows in `game`, read from the engine: the seat's own hand and public state
    /// only, as its view holds them (the `hand` line lists a hand in card order, as a
    /// [`CardSet`] iterates, and the hand changes before any bid no more).
    pub fn from_engine(game: &Zwikken, seat: Seat) -> Know {
        let mut hand = Few::new(no_card());
        for c in CardSet::iter(game.hands[seat]) {
            hand.push_unless_full(c);
        }
        let mut turned = Few::new(no_card());
        for &c in game.turned.iter() {
            turned.push(c);
        }
        let mut trick = Few::new(no_card());
        for &(_, c) in game.trick.iter() {
            trick.push(c);
        }
        Know {
            hand,
            turned,
            trick,
            players: game.playing(),
            // The askers of the period: the view's list is emptied at each `turn` line, as the
            // engine's count and flags are when the bidding starts after a card is turned.
            askers: game.asks,
            asker: game.asked[seat],
            exchange_targets: game.rules.exchange_targets,
        }
    }

    /// The trump suit: that of the last turned card.
    fn trump(&self) -> Option<Suit> {
        self.turned.last().map(|c| c.suit)
    }
}

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
    let k = Know::from_view(view);
    let choice = match decision {
        "bid" => bid(&k, legal),
        "seek" => Some("seek".to_string()),
        "exchange" => exchange(&k, legal),
        "play" => play(&k, legal),
        _ => None,
    };
    match choice {
        Some(c) if legal.contains(&c) => c,
        _ => first.clone(),
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
fn targets_of(k: &Know, trump: Suit, legal: &[String]) -> Targets {
    let takes = legal
        .iter()
        .filter_map(|t| t.strip_prefix("exchange_")?.split('_').next()?.parse::<Card>().ok());
    targets_from(k, trump, takes)
}

/// The exchanges on offer as (card, ten) pairs, from the turned cards the exchange actions
/// take (in their order, each once).
fn targets_from(k: &Know, trump: Suit, takes: impl Iterator<Item = Card>) -> Targets {
    let matched = k.exchange_targets == ExchangeTargets::SuitMatched;
    let mut out: Targets = Few::new((no_card(), no_card()));
    for take in takes {
        if out.iter().any(|&(t, _)| t == take) {
            continue;
        }
        let ten = Card::new(Rank::TEN, if matched { take.suit } else { trump });
        out.push_unless_full((take, ten));
    }
    out
}

/// [`targets_of`] on the typed actions.
fn typed_targets(k: &Know, trump: Suit, actions: &[ZwikkenAction]) -> Targets {
    let takes = actions.iter().filter_map(|a| match *a {
        ZwikkenAction::Exchange(c) | ZwikkenAction::ExchangePlay(c, _) => Some(c),
        _ => None,
    });
    targets_from(k, trump, takes)
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

fn bid(k: &Know, legal: &[String]) -> Option<String> {
    let ask = legal.iter().find(|t| t.ends_with("ask"));
    let wait = legal.iter().any(|t| t == "wait_better");
    match wanted_bid(k, ask.is_some(), wait)? {
        Bid::Ask => ask.cloned(),
        Bid::Wait => Some("wait_better".into()),
    }
}

/// The bid the policy wants, when it may ask (`can_ask`) and may wait (`can_wait`); `None`:
/// the first legal bid (a pass).
fn wanted_bid(k: &Know, can_ask: bool, can_wait: bool) -> Option<Bid> {
    let hand = k.hand.as_slice();
    let trump = k.trump()?;
    if !can_ask {
        return None;
    }
    if zwik_rank(hand).is_some() {
        return Some(Bid::Ask);
    }
    let ten = Card::new(Rank::TEN, trump);
    let turned = k.turned.as_slice();
    let any_turned = k.exchange_targets == ExchangeTargets::AnyTurned;
    let mut best_hand = k.hand;
    if hand.contains(&ten) {
        let mut targets: Targets = Few::new((no_card(), no_card()));
        for &c in turned.iter().filter(|c| any_turned || c.suit == trump) {
            targets.push((c, ten));
        }
        if zwik_target(hand, targets.as_slice()).is_some() {
            return Some(Bid::Ask);
        }
        // The exchange for the current turned card improves the trump.
        if let Some(&t) = turned.last() {
            if t.suit == trump {
                best_hand.retain(|c| c != ten);
                best_hand.push(t);
            }
        }
    }
    let mut need = 1.7 + 0.1 * (k.players as f64 - 4.0).max(0.0);
    if k.askers > 0 {
        need += 0.2;
    }
    if strength(best_hand.as_slice(), trump) >= need {
        return Some(Bid::Ask);
    }
    if can_wait {
        return Some(Bid::Wait);
    }
    None
}

fn exchange(k: &Know, legal: &[String]) -> Option<String> {
    let trump = k.trump()?;
    let targets = targets_of(k, trump, legal);
    wanted_take(k, targets.as_slice()).map(|take| format!("exchange_{take}"))
}

/// The turned card the policy takes at the exchange among `targets`: a zwik for an asker,
/// else the highest of the ten's own suit.
fn wanted_take(k: &Know, targets: &[(Card, Card)]) -> Option<Card> {
    if k.asker {
        if let Some(z) = zwik_target(k.hand.as_slice(), targets) {
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
    let actions = legal.downcast_ref::<Vec<ZwikkenAction>>()?;
    let v = view.as_any().downcast_ref::<ZwikkenView>()?;
    if actions.len() <= 1 {
        return (actions.len() == 1).then_some(0);
    }
    let phase = match decision {
        "bid" => Phase::Bid,
        "seek" => Phase::Seek,
        "exchange" => Phase::Exchange,
        "play" => Phase::Play,
        _ => return None,
    };
    Some(typed_choice(&Know::from_view(v), phase, actions))
}

/// The `simple` policy ([`typed_choice`]) on what the seat to move knows, read from the
/// engine ([`Know::from_engine`]: its own hand and the public state): the game's
/// [`EnginePolicy`](crate::engine::EnginePolicy).
pub(super) fn engine_policy(g: &Zwikken, legal: &[ZwikkenAction]) -> usize {
    typed_choice(&Know::from_engine(g, g.turn), g.phase, legal)
}

/// The policy's choice among the typed legal `actions` (at least one) of a decision of
/// `phase`, from what the seat knows: the index of its action, else 0. The one decision
/// function of the view's typed policy and the engine's playout policy.
pub(super) fn typed_choice(k: &Know, phase: Phase, actions: &[ZwikkenAction]) -> usize {
    use ZwikkenAction::*;
    if actions.len() <= 1 {
        return 0;
    }
    let choice = match phase {
        Phase::Bid => {
            let ask = actions.iter().copied().find(|&a| a == Ask || a == KenAsk);
            match wanted_bid(k, ask.is_some(), actions.contains(&WaitBetter)) {
                Some(Bid::Ask) => ask,
                Some(Bid::Wait) => Some(WaitBetter),
                None => None,
            }
        }
        Phase::Seek => Some(Seek),
        Phase::Exchange => k
            .trump()
            .and_then(|trump| wanted_take(k, typed_targets(k, trump, actions).as_slice()).map(Exchange)),
        Phase::Play => typed_play(k, actions),
        Phase::Over => None,
    };
    choice.and_then(|c| actions.iter().position(|&a| a == c)).unwrap_or(0)
}

/// [`play`] on the typed actions.
fn typed_play(k: &Know, actions: &[ZwikkenAction]) -> Option<ZwikkenAction> {
    let trump = k.trump()?;
    let targets = typed_targets(k, trump, actions);
    if let Some(take) = wanted_exchange(k.hand.as_slice(), targets.as_slice()) {
        let ten = targets.iter().find(|(t, _)| *t == take).map(|(_, ten)| *ten)?;
        let mut hand = k.hand;
        hand.retain(|c| c != ten);
        hand.push_unless_full(take);
        let mut options: Cards = Few::new(no_card());
        for a in actions {
            if let ZwikkenAction::ExchangePlay(t, c) = *a {
                if t == take {
                    if options.len() == CARDS {
                        return None;
                    }
                    options.push(c);
                }
            }
        }
        let card = choose_card(k, hand.as_slice(), options.as_slice(), trump)?;
        return Some(ZwikkenAction::ExchangePlay(take, card));
    }
    // The cards (at most the deck's 20), without a Vec.
    let mut options: Cards = Few::new(no_card());
    for a in actions {
        if let ZwikkenAction::Play(c) = *a {
            if options.len() == CARDS {
                return None;
            }
            options.push(c);
        }
    }
    choose_card(k, k.hand.as_slice(), options.as_slice(), trump).map(ZwikkenAction::Play)
}

fn play(k: &Know, legal: &[String]) -> Option<String> {
    let mut hand: Vec<Card> = k.hand.as_slice().to_vec();
    let trump = k.trump()?;
    // The first-trick exchange: decide it first, then play from the new hand.
    let targets = targets_of(k, trump, legal);
    let mut prefix = String::new();
    let mut options: Vec<Card> = legal.iter().filter_map(|t| t.parse().ok()).collect();
    if let Some(take) = wanted_exchange(&hand, targets.as_slice()) {
        let ten = targets.iter().find(|(t, _)| *t == take).map(|(_, ten)| *ten)?;
        prefix = format!("exchange_{take}_");
        hand.retain(|&c| c != ten);
        hand.push(take);
        options = legal
            .iter()
            .filter_map(|t| t.strip_prefix(&prefix)?.parse().ok())
            .collect();
    }
    let card = choose_card(k, &hand, &options, trump)?;
    Some(format!("{prefix}{card}"))
}

fn choose_card(k: &Know, hand: &[Card], options: &[Card], trump: Suit) -> Option<Card> {
    let trick = k.trick.as_slice();
    let players = k.players;
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
