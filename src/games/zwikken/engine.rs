//! The Zwikken state machine (zwikken.md §2): a session of deals; per deal the ante, the deal
//! and the turned card, two bidding rounds, the dealer's seeks, the trump-ten exchange, the zwik
//! showdown, three tricks and the settlement.
//!
//! Audiences follow zwikken.md §7: a hand goes to its owner only; turned cards, every bid, the
//! seek decision, chips, exchanges, a showdown zwik, plays and results go to everybody; the
//! stock, other hands and the pair rank of "ik verwacht een betere" go to nobody.

use super::money;
use crate::args;
use crate::cards::{deck_from, format_cards, Card, CardSet, Rank, Suit};
use crate::chance::{Chance, DealRequest};
use crate::game::{Audience, Event, Game, Outcome, Seat};
use crate::options::Options;
use serde_json::json;

/// Builds a Zwikken session (the [`crate::game::NewGame`] of the spec).
pub fn new_game(players: usize, options: &Options, chance: Chance) -> Result<Box<dyn Game>, String> {
    Ok(Box::new(Zwikken::new(players, options.clone(), chance)?))
}

/// The phase of the current deal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    Bid,
    Seek,
    Exchange,
    Play,
    Over,
}

/// Card points for counting tricks: A 4, K 3, Q 2, J 1, 10 0.
pub fn card_points(c: Card) -> u32 {
    match c.rank.value() {
        14 => 4,
        13 => 3,
        12 => 2,
        11 => 1,
        _ => 0,
    }
}

/// The zwik rank of a three-card hand (three of one rank): 10-zwik 5 > A 4 > K 3 > Q 2 > J 1.
pub fn zwik_rank(hand: &[Card]) -> Option<u8> {
    if hand.len() != 3 || hand.iter().any(|c| c.rank != hand[0].rank) {
        return None;
    }
    Some(match hand[0].rank.value() {
        10 => 5,
        14 => 4,
        13 => 3,
        12 => 2,
        _ => 1,
    })
}

/// The cards a seat may play to `trick` (zwikken.md §3): `seed` or `classic` law.
pub fn legal_plays(hand: CardSet, trick: &[(Seat, Card)], trump: Suit, classic: bool) -> CardSet {
    let Some(&(_, first)) = trick.first() else {
        return hand;
    };
    let led = first.suit;
    let hl = hand.of_suit(led);
    let ht = hand.of_suit(trump);
    if led == trump {
        return if ht.is_empty() { hand } else { ht };
    }
    let hi = trick.iter().filter(|(_, c)| c.suit == trump).map(|(_, c)| c.rank).max();
    let over = CardSet::from_cards(
        &ht.cards()
            .into_iter()
            .filter(|t| hi.is_none_or(|h| t.rank > h))
            .collect::<Vec<_>>(),
    );
    if classic {
        if !hl.is_empty() {
            return hl;
        }
        if !over.is_empty() {
            return over;
        }
        let side = hand.minus(ht);
        return if side.is_empty() { hand } else { side };
    }
    if !hl.is_empty() {
        return hl.union(over);
    }
    let cand = hand.minus(ht).union(over);
    if cand.is_empty() {
        hand
    } else {
        cand
    }
}

/// The seat that wins a complete trick: the highest trump, else the highest card of the led suit.
pub fn trick_winner(trick: &[(Seat, Card)], trump: Suit) -> Seat {
    let led = trick[0].1.suit;
    let mut best = trick[0];
    for &(s, c) in &trick[1..] {
        let b = best.1;
        let better = if c.suit == trump {
            b.suit != trump || c.rank > b.rank
        } else {
            b.suit != trump && c.suit == led && c.rank > b.rank
        };
        if better {
            best = (s, c);
        }
    }
    best.0
}

/// A guard of the arithmetic, not a rule: losing askers multiply the pot (a deal without a
/// winner and k askers leaves (1+k)·P), so reckless bots grow it exponentially. A session whose
/// pot passes 2^40 chips ends at once and the pot is divided as at the cap (zwikken.md §5),
/// which keeps every balance exact in an `f64` score. [PROPOSAL]
pub const POT_LIMIT: i64 = 1 << 40;

fn ten_of(s: Suit) -> Card {
    Card::new(Rank::TEN, s)
}

/// One session of Zwikken.
pub struct Zwikken {
    n: usize,
    o: Options,
    chance: Chance,
    events: Vec<Event>,
    // The session.
    balance: Vec<i64>,
    start: i64,
    pot: i64,
    active: Vec<bool>,
    deal_no: usize,
    dealer: Seat,
    target_deals: usize,
    cap: usize,
    /// How the deals ended: zwik, points, passer, tie, no_play.
    tally: [usize; 5],
    split: Vec<(Seat, i64)>,
    /// Per finished deal: how it ended and the chips it moved (in the outcome's detail).
    ledger: Vec<serde_json::Value>,
    /// Balances and pot when the current deal started (before its ante).
    deal_start: (Vec<i64>, i64),
    deal_end: Option<(&'static str, Option<Seat>)>,
    // The deal.
    phase: Phase,
    turn: Seat,
    hands: Vec<CardSet>,
    turned: Vec<Card>,
    stock: Vec<Card>,
    trump: Suit,
    repeat: bool,
    period: usize,
    seeks: usize,
    round: u8,
    speakers: Vec<Seat>,
    spk: usize,
    asked: Vec<bool>,
    passed1: Vec<bool>,
    asks: usize,
    /// "ik verwacht een betere": (seat, suit of his ten, rank of his pair).
    waits: Vec<(Seat, Suit, Rank)>,
    /// Suits of the tens exchanged this deal.
    exchanged: Vec<Suit>,
    ex_queue: Vec<Seat>,
    leader: Seat,
    trick: Vec<(Seat, Card)>,
    trick_no: usize,
    taken: Vec<u32>,
    outcome: Option<Outcome>,
    /// A deal from a deal file that failed; reported by the `apply` that caused it.
    deal_error: Option<String>,
}

impl Zwikken {
    pub fn new(players: usize, o: Options, mut chance: Chance) -> Result<Zwikken, String> {
        let n = players;
        if !(3..=6).contains(&n) {
            return Err(format!("zwikken is played by 3 to 6 players, not {n}"));
        }
        let dealer = chance.first_dealer(n);
        let start = o.int("bankroll");
        let deals = match o.int("deals") {
            0 => 4 * n,
            d => d as usize,
        };
        let cap = match o.int("extra_deals_cap") {
            c if c < 0 => 2 * n,
            c => c as usize,
        };
        let mut g = Zwikken {
            n,
            chance,
            events: Vec::new(),
            balance: vec![start; n],
            start,
            pot: 0,
            active: vec![true; n],
            deal_no: 0,
            dealer,
            target_deals: deals,
            cap,
            tally: [0; 5],
            split: Vec::new(),
            ledger: Vec::new(),
            deal_start: (vec![start; n], 0),
            deal_end: None,
            phase: Phase::Bid,
            turn: 0,
            hands: vec![CardSet::EMPTY; n],
            turned: Vec::new(),
            stock: Vec::new(),
            trump: Suit::Spades,
            repeat: false,
            period: 0,
            seeks: 0,
            round: 1,
            speakers: Vec::new(),
            spk: 0,
            asked: vec![false; n],
            passed1: vec![false; n],
            asks: 0,
            waits: Vec::new(),
            exchanged: Vec::new(),
            ex_queue: Vec::new(),
            leader: 0,
            trick: Vec::new(),
            trick_no: 0,
            taken: vec![0; n],
            outcome: None,
            deal_error: None,
            o,
        };
        g.start_deal()?;
        Ok(g)
    }

    fn emit(&mut self, to: Audience, kind: &'static str, args: Vec<String>) {
        self.events.push(Event::new(to, kind, args));
    }

    fn all(&self) -> Audience {
        Audience::all(self.n)
    }

    fn public(&mut self, kind: &'static str, args: Vec<String>) {
        let to = self.all();
        self.emit(to, kind, args);
    }

    fn bankroll(&self) -> bool {
        self.start > 0
    }

    /// The next active seat clockwise after `s`.
    fn next_active(&self, s: Seat) -> Seat {
        let mut t = (s + 1) % self.n;
        while !self.active[t] {
            t = (t + 1) % self.n;
        }
        t
    }

    /// The active seats from the dealer's left, the dealer last.
    fn order(&self) -> Vec<Seat> {
        (1..=self.n)
            .map(|k| (self.dealer + k) % self.n)
            .filter(|&s| self.active[s])
            .collect()
    }

    pub fn phase(&self) -> Phase {
        self.phase
    }
    pub fn pot(&self) -> i64 {
        self.pot
    }
    /// Every seat's chips now (net, or the bankroll balance).
    pub fn balances(&self) -> &[i64] {
        &self.balance
    }
    pub fn hand(&self, s: Seat) -> Vec<Card> {
        self.hands[s].cards()
    }
    pub fn turned(&self) -> &[Card] {
        &self.turned
    }
    pub fn stock(&self) -> &[Card] {
        &self.stock
    }
    pub fn trump(&self) -> Suit {
        self.trump
    }
    pub fn deal_number(&self) -> usize {
        self.deal_no
    }
    pub fn dealer(&self) -> Seat {
        self.dealer
    }
    pub fn active(&self) -> &[bool] {
        &self.active
    }
    /// The trick in progress: (seat, card) in play order.
    pub fn current_trick(&self) -> &[(Seat, Card)] {
        &self.trick
    }

    /// Starts the next deal: eliminations (bankroll), the dealer, the ante, the cards.
    fn start_deal(&mut self) -> Result<(), String> {
        if self.bankroll() {
            for s in 0..self.n {
                if self.active[s] && self.balance[s] <= 0 {
                    self.active[s] = false;
                    self.public("out", args![s]);
                }
            }
            if self.active.iter().filter(|&&a| a).count() <= 1 {
                self.finish("one_left");
                return Ok(());
            }
        }
        if self.deal_no > 0 || !self.active[self.dealer] {
            self.dealer = self.next_active(self.dealer);
        }
        self.deal_no += 1;
        self.deal_start = (self.balance.clone(), self.pot);
        self.public("deal", args![self.deal_no, self.dealer]);
        if self.pot == 0 || self.o.get("ante_rule") == "every_deal" {
            self.everyone_pays(1, "ante");
        }
        let deck = deck_from(Rank::TEN);
        let sizes = (0..self.n).map(|s| if self.active[s] { 3 } else { 0 }).collect();
        let req = DealRequest {
            dealer: self.dealer,
            deck,
            hand_sizes: sizes,
            piles: vec![("turned", 1), ("stock", usize::MAX)],
            first: self.next_active(self.dealer),
            clockwise: true,
            packets: vec![],
            cut_from: None,
        };
        let deal = self.chance.deal(&req)?;
        let turned = deal.piles.get("turned").cloned().unwrap_or_default();
        if turned.len() != 1 {
            return Err(format!("deal {}: the turned pile must hold one card", self.deal_no));
        }
        for s in 0..self.n {
            self.hands[s] = CardSet::from_cards(&deal.hands[s]);
        }
        self.stock = deal.piles.get("stock").cloned().unwrap_or_default();
        let dealt = deal.hands.iter().map(Vec::len).sum::<usize>() + 1 + self.stock.len();
        if dealt != 20 {
            return Err(format!(
                "deal {}: the stock must hold the {} cards left after the hands and the turned card, not {}",
                self.deal_no,
                20 + self.stock.len() - dealt,
                self.stock.len()
            ));
        }
        self.turned = turned;
        self.trump = self.turned[0].suit;
        self.repeat = false;
        self.period = 1;
        self.seeks = 0;
        self.waits.clear();
        self.exchanged.clear();
        self.trick.clear();
        self.trick_no = 0;
        self.taken = vec![0; self.n];
        for s in 0..self.n {
            if self.active[s] {
                let cards = self.hands[s].cards().iter().map(|c| c.to_string()).collect();
                self.emit(Audience::seat(s), "hand", cards);
            }
        }
        self.public("turn", args![self.turned[0]]);
        self.start_bidding();
        Ok(())
    }

    /// Every active player pays `amount` into the pot.
    fn everyone_pays(&mut self, amount: i64, why: &'static str) {
        if amount <= 0 {
            return;
        }
        for s in 0..self.n {
            if self.active[s] {
                self.balance[s] -= amount;
                self.pot += amount;
                self.public("pay", args![s, amount, why]);
            }
        }
        self.public("pot", args![self.pot]);
    }

    fn start_bidding(&mut self) {
        self.phase = Phase::Bid;
        self.round = 1;
        self.speakers = self.order();
        self.spk = 0;
        self.asked = vec![false; self.n];
        self.passed1 = vec![false; self.n];
        self.asks = 0;
        self.turn = self.speakers[0];
    }

    /// The holder of the trump ten, if a player holds it.
    fn tth(&self) -> Option<Seat> {
        (0..self.n).find(|&s| self.hands[s].contains(ten_of(self.trump)))
    }

    /// The rank of the pair beside the trump ten ("op zwik zitten"), if `p` is on zwik.
    fn on_zwik(&self, p: Seat) -> Option<Rank> {
        let h = self.hands[p];
        if !h.contains(ten_of(self.trump)) {
            return None;
        }
        let rest: Vec<Card> = h.cards().into_iter().filter(|&c| c != ten_of(self.trump)).collect();
        (rest.len() == 2 && rest[0].rank == rest[1].rank && rest[0].rank != Rank::TEN).then_some(rest[0].rank)
    }

    /// The waiting player whose card has just come (he must ask).
    fn forced_asker(&self) -> Option<Seat> {
        let last = *self.turned.last()?;
        if !self.repeat || self.round != 1 {
            return None;
        }
        self.waits
            .iter()
            .find(|&&(_, suit, rank)| suit == last.suit && rank == last.rank)
            .map(|&(s, _, _)| s)
    }

    fn may_ask(&self, p: Seat) -> bool {
        !self.bankroll() || self.balance[p] >= self.pot
    }

    fn legal_bids(&self, p: Seat) -> Vec<String> {
        let tth = self.tth() == Some(p);
        let mut v: Vec<&str> = Vec::new();
        if self.repeat {
            if self.forced_asker() == Some(p) {
                v.push("ken_ask");
            } else {
                v.push(if tth { "ken_pass" } else { "pass" });
            }
        } else if tth {
            v.push("ken_pass");
            if self.may_ask(p) {
                v.push("ken_ask");
            }
            if self.round == 1 && self.on_zwik(p).is_some() {
                v.push("wait_better");
            }
        } else {
            v.push("pass");
            if self.may_ask(p) {
                v.push("ask");
            }
        }
        v.into_iter().map(String::from).collect()
    }

    fn bid_refusal(&self, p: Seat, token: &str) -> String {
        let tth = self.tth() == Some(p);
        match token {
            "pass" | "ask" if tth => format!(
                "seat {p} holds the trump ten {} and must say 'ik ken hem': use ken_pass or ken_ask",
                ten_of(self.trump)
            ),
            "ken_pass" | "ken_ask" | "wait_better" if !tth => {
                format!("seat {p} does not hold the trump ten {}", ten_of(self.trump))
            }
            "wait_better" if self.round == 2 => "'ik verwacht een betere' is said in the first round only".into(),
            "wait_better" if self.repeat => "in a repeated trump suit everyone must pass".into(),
            "wait_better" => format!("seat {p} is not on zwik (the trump ten and a pair of J, Q, K or A)"),
            "ask" | "ken_ask" if self.repeat => {
                "this trump suit was turned before: everyone must pass (only a waiting player whose card came must ask)"
                    .into()
            }
            "ask" | "ken_ask" if !self.may_ask(p) => format!(
                "seat {p} has {} chips and may not ask for a pot of {}",
                self.balance[p], self.pot
            ),
            "pass" | "ken_pass" if self.forced_asker() == Some(p) => {
                format!("the card seat {p} waited for has come: 'ik verwacht een betere' obliges it to ask (ken_ask)")
            }
            _ => format!("'{token}' is not a bid here; legal: {}", self.legal_bids(p).join(" ")),
        }
    }

    fn wording(&self, token: &str) -> String {
        let ask = match self.asks {
            0 => "ik_vraag",
            1 => "ik_vraag_beter",
            _ => "ik_vraag_nog_beter",
        };
        match token {
            "pass" => "pas".into(),
            "ask" => ask.into(),
            "ken_pass" => "ik_ken_hem_en_ik_pas".into(),
            "ken_ask" => format!("ik_ken_hem_en_{ask}"),
            _ => "ik_verwacht_een_betere".into(),
        }
    }

    fn apply_bid(&mut self, token: &str) -> Result<(), String> {
        let p = self.turn;
        if !self.legal_bids(p).iter().any(|t| t == token) {
            return Err(self.bid_refusal(p, token));
        }
        self.public("move", args![p, token, "bid"]);
        let said = self.wording(token);
        self.public("say", args![p, said]);
        match token {
            "ask" | "ken_ask" => {
                self.asked[p] = true;
                self.asks += 1;
            }
            "wait_better" => {
                let r = self.on_zwik(p).expect("on zwik");
                self.waits.push((p, self.trump, r));
                if self.round == 1 {
                    self.passed1[p] = true;
                }
            }
            _ => {
                if self.round == 1 {
                    self.passed1[p] = true;
                }
            }
        }
        self.spk += 1;
        if self.spk < self.speakers.len() {
            self.turn = self.speakers[self.spk];
            return Ok(());
        }
        if self.asks == 0 {
            self.public("allpass", vec![]);
            self.all_passed();
        } else if self.round == 1 {
            self.round = 2;
            self.speakers = self.order().into_iter().filter(|&s| self.passed1[s]).collect();
            self.spk = 0;
            match self.speakers.first() {
                Some(&s) => self.turn = s,
                None => self.end_bidding(),
            }
        } else {
            self.end_bidding();
        }
        Ok(())
    }

    fn seek_available(&self) -> bool {
        (self.seeks as i64) < self.o.int("max_seeks") && !self.stock.is_empty()
    }

    fn all_passed(&mut self) {
        if self.seek_available() {
            self.phase = Phase::Seek;
            self.turn = self.dealer;
        } else {
            self.end("no_play", None);
            self.end_deal();
        }
    }

    fn seek_fee(&self, k: usize) -> i64 {
        self.o
            .get("seek_fee")
            .split(',')
            .nth(k)
            .and_then(|x| x.parse().ok())
            .unwrap_or(0)
    }

    fn apply_seek(&mut self, token: &str) -> Result<(), String> {
        let d = self.dealer;
        match token {
            "seek" => {
                self.public("move", args![d, "seek", "seek"]);
                self.public("say", args![d, "zoeken"]);
                let fee = self.seek_fee(self.seeks);
                self.everyone_pays(fee, "seek");
                self.seeks += 1;
                let card = self.stock.remove(0);
                self.repeat = self.turned.iter().any(|c| c.suit == card.suit);
                self.turned.push(card);
                self.trump = card.suit;
                self.period += 1;
                self.public("turn", args![card]);
                self.start_bidding();
                Ok(())
            }
            "no_seek" => {
                self.public("move", args![d, "no_seek", "seek"]);
                self.end("no_play", None);
                self.end_deal();
                Ok(())
            }
            _ => Err(format!("'{token}' is not a seek decision: seek or no_seek")),
        }
    }

    /// The exchanges `p` may make now: (turned card to take, ten to lay in its place).
    fn targets(&self, p: Seat) -> Vec<(Card, Card)> {
        let h = self.hands[p];
        match self.o.get("exchange_targets") {
            "suit_matched" => self
                .turned
                .iter()
                .filter(|c| h.contains(ten_of(c.suit)) && !self.exchanged.contains(&c.suit))
                .map(|&c| (c, ten_of(c.suit)))
                .collect(),
            mode => {
                let ten = ten_of(self.trump);
                if !self.exchanged.is_empty() || !h.contains(ten) {
                    return vec![];
                }
                self.turned
                    .iter()
                    .filter(|c| mode == "any_turned" || c.suit == self.trump)
                    .map(|&c| (c, ten))
                    .collect()
            }
        }
    }

    fn do_exchange(&mut self, p: Seat, take: Card, ten: Card) {
        self.hands[p].remove(ten);
        self.hands[p].insert(take);
        if let Some(slot) = self.turned.iter_mut().find(|c| **c == take) {
            *slot = ten;
        }
        self.exchanged.push(ten.suit);
        self.public("exchange", args![p, take, ten]);
    }

    fn end_bidding(&mut self) {
        self.ex_queue = self
            .order()
            .into_iter()
            .filter(|&s| !self.targets(s).is_empty())
            .collect();
        self.next_exchange();
    }

    fn next_exchange(&mut self) {
        while let Some(&s) = self.ex_queue.first() {
            if self.targets(s).is_empty() {
                self.ex_queue.remove(0);
                continue;
            }
            self.phase = Phase::Exchange;
            self.turn = s;
            return;
        }
        self.showdown();
    }

    fn legal_exchanges(&self) -> Vec<String> {
        let mut v = vec!["no_exchange".to_string()];
        v.extend(self.targets(self.turn).iter().map(|(c, _)| format!("exchange_{c}")));
        v
    }

    fn apply_exchange(&mut self, token: &str) -> Result<(), String> {
        let p = self.turn;
        if token == "no_exchange" {
            self.public("move", args![p, token, "exchange"]);
        } else {
            let target = token
                .strip_prefix("exchange_")
                .and_then(|c| c.parse::<Card>().ok())
                .ok_or_else(|| format!("'{token}' is not an exchange decision: no_exchange or exchange_<card>"))?;
            let Some(&(take, ten)) = self.targets(p).iter().find(|(c, _)| *c == target) else {
                return Err(self.exchange_refusal(p, target));
            };
            self.public("move", args![p, token, "exchange"]);
            self.do_exchange(p, take, ten);
        }
        self.ex_queue.remove(0);
        self.next_exchange();
        Ok(())
    }

    fn exchange_refusal(&self, p: Seat, target: Card) -> String {
        if !self.turned.contains(&target) {
            return format!(
                "{target} is not a face-up turned card (turned: {})",
                format_cards(&self.turned)
            );
        }
        match self.o.get("exchange_targets") {
            "current_suit_only" if target.suit != self.trump => format!(
                "{target} is not of the trump suit {}: exchange_targets=current_suit_only",
                self.trump
            ),
            "suit_matched" => format!("seat {p} does not hold the ten of {}, or it was exchanged", target.suit),
            _ => format!("seat {p} may not exchange {target} now"),
        }
    }

    /// Only askers' zwiks count; the highest wins at once (zwikken.md §2.6).
    fn showdown(&mut self) {
        let askers: Vec<Seat> = self.order().into_iter().filter(|&s| self.asked[s]).collect();
        let mut best: Option<(u8, Seat)> = None;
        for &a in &askers {
            let h = self.hands[a].cards();
            if let Some(z) = zwik_rank(&h) {
                self.public(
                    "zwik",
                    std::iter::once(a.to_string())
                        .chain(h.iter().map(|c| c.to_string()))
                        .collect(),
                );
                if best.is_none_or(|(b, _)| z > b) {
                    best = Some((z, a));
                }
            }
        }
        match best {
            Some((_, w)) => {
                self.end("zwik", Some(w));
                self.settle(Some(w));
            }
            None => {
                self.phase = Phase::Play;
                self.leader = self.order()[0];
                self.turn = self.leader;
                self.trick_no = 1;
            }
        }
    }

    fn classic(&self) -> bool {
        self.o.get("follow_rule") == "classic"
    }

    fn legal_play_tokens(&self) -> Vec<String> {
        let p = self.turn;
        let mut v: Vec<String> = legal_plays(self.hands[p], &self.trick, self.trump, self.classic())
            .cards()
            .iter()
            .map(|c| c.to_string())
            .collect();
        if self.trick_no == 1 {
            for (take, ten) in self.targets(p) {
                let mut h = self.hands[p];
                h.remove(ten);
                h.insert(take);
                for c in legal_plays(h, &self.trick, self.trump, self.classic()).cards() {
                    v.push(format!("exchange_{take}_{c}"));
                }
            }
        }
        v
    }

    fn apply_play(&mut self, token: &str) -> Result<(), String> {
        let p = self.turn;
        let legal = self.legal_play_tokens();
        if !legal.iter().any(|t| t == token) {
            return Err(self.play_refusal(p, token));
        }
        self.public("move", args![p, token, "play"]);
        let card = if let Some(rest) = token.strip_prefix("exchange_") {
            let (take, play) = rest.split_once('_').expect("a legal exchange token");
            let take: Card = take.parse().expect("a card");
            let ten = self
                .targets(p)
                .into_iter()
                .find(|(c, _)| *c == take)
                .map(|(_, t)| t)
                .expect("a legal target");
            self.do_exchange(p, take, ten);
            play.parse::<Card>().expect("a card")
        } else {
            token.parse::<Card>().expect("a card")
        };
        self.hands[p].remove(card);
        self.trick.push((p, card));
        let playing = self.active.iter().filter(|&&a| a).count();
        if self.trick.len() < playing {
            self.turn = self.next_active(p);
            return Ok(());
        }
        let w = trick_winner(&self.trick, self.trump);
        self.taken[w] += self.trick.iter().map(|&(_, c)| card_points(c)).sum::<u32>();
        self.public("trick", args![self.trick_no, w]);
        self.trick.clear();
        if self.trick_no < 3 {
            self.trick_no += 1;
            self.leader = w;
            self.turn = w;
            return Ok(());
        }
        self.count_points();
        Ok(())
    }

    fn play_refusal(&self, p: Seat, token: &str) -> String {
        let hand = self.hands[p];
        if let Some(rest) = token.strip_prefix("exchange_") {
            if self.trick_no != 1 {
                return "the trump ten can be exchanged only before one's card in the first trick".into();
            }
            let take = rest.split('_').next().and_then(|c| c.parse::<Card>().ok());
            return match take {
                Some(t) if self.targets(p).iter().any(|(c, _)| *c == t) => {
                    format!("'{token}': that card may not be played after the exchange (follow the trick law)")
                }
                Some(t) => self.exchange_refusal(p, t),
                None => format!("'{token}' is not exchange_<turned card>_<card to play>"),
            };
        }
        let Ok(card) = token.parse::<Card>() else {
            return format!("'{token}' is not a card");
        };
        if !hand.contains(card) {
            return format!("seat {p} does not hold {card}");
        }
        let led = self.trick[0].1.suit;
        if card.suit == self.trump {
            format!("{card} would undertrump; legal: {}", self.legal_play_tokens().join(" "))
        } else if hand.has_suit(led) {
            format!(
                "seat {p} must follow {led} (or trump); legal: {}",
                self.legal_play_tokens().join(" ")
            )
        } else {
            format!("seat {p} must trump; legal: {}", self.legal_play_tokens().join(" "))
        }
    }

    /// After trick 3: the unique highest total wins if it is an asker's; a passer's best or a
    /// shared top makes every asker lose (zwikken.md §2.8).
    fn count_points(&mut self) {
        let pts: Vec<String> = self.taken.iter().map(|p| p.to_string()).collect();
        self.public("points", pts);
        let order = self.order();
        let top = order.iter().map(|&s| self.taken[s]).max().unwrap_or(0);
        let best: Vec<Seat> = order.iter().copied().filter(|&s| self.taken[s] == top).collect();
        if best.len() > 1 {
            self.end("tie", None);
            self.settle(None);
        } else if self.asked[best[0]] {
            self.end("points", Some(best[0]));
            self.settle(Some(best[0]));
        } else {
            self.end("passer", Some(best[0]));
            self.settle(None);
        }
    }

    /// Announces how the deal ended and counts it.
    fn end(&mut self, how: &'static str, winner: Option<Seat>) {
        let k = ["zwik", "points", "passer", "tie", "no_play"]
            .iter()
            .position(|&h| h == how)
            .expect("a known end");
        self.tally[k] += 1;
        self.public("end", args![how, winner.map_or("-".to_string(), |w| w.to_string())]);
        self.deal_end = Some((how, winner));
    }

    /// One line of the session's ledger in the outcome: how the deal ended and what it moved.
    fn ledger_entry(&mut self) {
        let (how, winner) = self.deal_end.take().unwrap_or(("none", None));
        let delta: Vec<i64> = (0..self.n).map(|s| self.balance[s] - self.deal_start.0[s]).collect();
        let askers: Vec<Seat> = (0..self.n).filter(|&s| self.asked[s] && how != "no_play").collect();
        self.ledger.push(json!({
            "deal": self.deal_no,
            "dealer": self.dealer,
            "turned": self.turned.iter().map(|c| c.to_string()).collect::<Vec<_>>(),
            "askers": askers,
            "end": how,
            "winner": winner,
            "pot_before": self.deal_start.1,
            "pot_after": self.pot,
            "chips": delta,
        }));
    }

    fn settle(&mut self, winner: Option<Seat>) {
        let askers: Vec<Seat> = self.order().into_iter().filter(|&s| self.asked[s]).collect();
        let s = money::settle(self.pot, &askers, winner);
        if let Some((w, x)) = s.won {
            self.balance[w] += x;
            self.public("win", args![w, x]);
        }
        for &(a, x) in &s.paid {
            self.balance[a] -= x;
            self.public("pay", args![a, x, "lose"]);
        }
        self.pot = s.pot_after;
        self.public("pot", args![self.pot]);
        self.end_deal();
    }

    /// The session ends at the first deal end with an empty pot after `deals` deals, or at the
    /// cap, where the pot is divided (zwikken.md §5).
    fn end_deal(&mut self) {
        self.phase = Phase::Over;
        self.ledger_entry();
        if self.pot > POT_LIMIT {
            self.finish("pot_limit");
        } else if self.deal_no >= self.target_deals && self.pot == 0 {
            self.finish("pot_empty");
        } else if self.deal_no >= self.target_deals + self.cap {
            self.finish("cap");
        } else if let Err(e) = self.start_deal() {
            self.deal_error = Some(e);
            self.finish("deal_error");
        }
    }

    fn finish(&mut self, reason: &'static str) {
        self.phase = Phase::Over;
        let mut seats = self.order();
        if seats.is_empty() {
            // Everyone ran out of chips at once: the pot goes to all of them. [PROPOSAL]
            seats = (1..=self.n).map(|k| (self.dealer + k) % self.n).collect();
        }
        self.split = money::split(self.pot, &seats);
        for &(s, x) in &self.split.clone() {
            self.balance[s] += x;
            self.pot -= x;
            self.public("split", args![s, x]);
        }
        if !self.split.is_empty() {
            self.public("pot", args![self.pot]);
        }
        let scores: Vec<f64> = self.balance.iter().map(|&b| (b - self.start) as f64).collect();
        let chips: Vec<String> = scores.iter().map(|s| format!("{s:+}")).collect();
        let t = self.tally;
        let split: i64 = self.split.iter().map(|(_, x)| x).sum();
        let summary = format!(
            "{} deals ({} zwik, {} won on points, {} lost to a passer, {} tied, {} not played); {}; chips {}",
            self.deal_no,
            t[0],
            t[1],
            t[2],
            t[3],
            t[4],
            match reason {
                "pot_empty" => "the pot was cleared".to_string(),
                "one_left" => "at most one player left with chips".to_string(),
                "deal_error" => "stopped by a bad deal".to_string(),
                "pot_limit" => format!("a pot of {split} over the limit divided"),
                _ => format!("a pot of {split} divided at the cap"),
            },
            chips.join(" ")
        );
        self.public("session", args![reason]);
        self.outcome = Some(Outcome {
            scores,
            detail: json!({
                "deals": self.deal_no,
                "end": reason,
                "zwik": t[0],
                "points": t[1],
                "passer": t[2],
                "tie": t[3],
                "no_play": t[4],
                "split": split,
                "active": self.active,
                "split_shares": self.split.iter().map(|&(s, x)| json!([s, x])).collect::<Vec<_>>(),
                "ledger": self.ledger,
                "summary": summary,
            }),
        });
    }
}

impl Game for Zwikken {
    fn players(&self) -> usize {
        self.n
    }

    fn to_move(&self) -> Option<Seat> {
        (self.phase != Phase::Over).then_some(self.turn)
    }

    fn decision(&self) -> &'static str {
        match self.phase {
            Phase::Bid => "bid",
            Phase::Seek => "seek",
            Phase::Exchange => "exchange",
            Phase::Play | Phase::Over => "play",
        }
    }

    fn legal_actions(&self) -> Vec<String> {
        match self.phase {
            Phase::Bid => self.legal_bids(self.turn),
            Phase::Seek => vec!["no_seek".into(), "seek".into()],
            Phase::Exchange => self.legal_exchanges(),
            Phase::Play => self.legal_play_tokens(),
            Phase::Over => vec![],
        }
    }

    fn apply(&mut self, action: &str) -> Result<(), String> {
        let r = match self.phase {
            Phase::Bid => self.apply_bid(action),
            Phase::Seek => self.apply_seek(action),
            Phase::Exchange => {
                if action == "no_exchange" || self.legal_exchanges().iter().any(|t| t == action) {
                    self.apply_exchange(action)
                } else if let Some(t) = action.strip_prefix("exchange_").and_then(|c| c.parse::<Card>().ok()) {
                    Err(self.exchange_refusal(self.turn, t))
                } else {
                    Err(format!(
                        "'{action}' is not an exchange decision: no_exchange or exchange_<card>"
                    ))
                }
            }
            Phase::Play => self.apply_play(action),
            Phase::Over => Err("the game is over".into()),
        };
        r?;
        match self.deal_error.take() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    fn take_events(&mut self) -> Vec<Event> {
        std::mem::take(&mut self.events)
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome.clone()
    }

    fn chance(&self) -> &Chance {
        &self.chance
    }
}
