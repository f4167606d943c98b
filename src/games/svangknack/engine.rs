//! The Svängknack state machine (svangknack.md Sec. 2-5): pot, deal, the swinger's choice
//! (redeal vote, swing, hand-over), the turn-up and trump, knocking, three tricks among the
//! participants with forced overtaking, must-trump and Färg, settlement by thirds and bets,
//! and the session end.
//!
//! Audiences follow Sec. 7: a `hand` goes to its owner only; everything else is public. Cards
//! of players who folded, of a lone swinger and a Färg caller's leftover cards are never sent.

use crate::args;
use crate::cards::{deck_from, Card, CardSet, Rank, Suit};
use crate::chance::{Chance, DealRequest};
use crate::game::{Audience, Event, Game, Outcome, Seat};
use crate::options::Options;
use serde_json::json;

/// Builds a Svängknack session (the [`crate::game::NewGame`] of the spec).
pub fn new_game(players: usize, options: &Options, chance: Chance) -> Result<Box<dyn Game>, String> {
    Ok(Box::new(Svangknack::new(players, options.clone(), chance)?))
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// The swinger chooses: redeal, swing, hand over.
    Swing,
    /// The other players (not the dealer) answer a redeal proposal in turn.
    Consent,
    /// The swinger picks trump from the two turned suits.
    Trump,
    /// Knock or fold, clockwise from the swinger's left to the dealer.
    Knock,
    Play,
    Over,
}

/// The rule options in force, read once.
#[derive(Clone, Debug)]
pub struct Rules {
    pub deck36: bool,
    pub stake: i64,
    pub last_man: bool,
    pub same_suit_forces_all: bool,
    pub force_pot_limit: i64,
    pub forced_participation: String,
    pub first_round_dealer_only: bool,
    pub relaxed_after_trump: bool,
    pub literal_c: bool,
    pub farg_led_card_only: bool,
    pub farg_trick3: bool,
    pub rounds: usize,
    pub extra_cap: usize,
    /// The most a bet pays (PROPOSAL: the seed's bet is the whole pot, which grows without
    /// bound when several players go bet round after round).
    pub bet_cap: i64,
}

impl Rules {
    pub fn from_options(o: &Options, n: usize) -> Result<Rules, String> {
        let stake = o.int("base_stake");
        if stake % 3 != 0 {
            return Err(format!(
                "bad value '{stake}' for option 'base_stake': the stake must be divisible by 3"
            ));
        }
        let bet_cap = match o.int("bet_cap") {
            0 => 1000 * stake,
            c if c % 3 != 0 => {
                return Err(format!(
                    "bad value '{c}' for option 'bet_cap': it must be divisible by 3 (the pot stays divisible by 3)"
                ))
            }
            c => c,
        };
        let deck36 = o.get("deck") == "36";
        if deck36 && n > 11 {
            return Err(format!("with deck=36 at most 11 play svangknack, not {n}"));
        }
        let rounds = match o.int("rounds") {
            0 => 3 * n,
            r => r as usize,
        };
        let extra_cap = match o.int("extra_rounds_cap") {
            -1 => n,
            c => c as usize,
        };
        Ok(Rules {
            deck36,
            stake,
            last_man: o.flag("last_man"),
            same_suit_forces_all: o.flag("same_suit_forces_all"),
            force_pot_limit: o.int("force_pot_limit"),
            forced_participation: o.get("forced_participation").to_string(),
            first_round_dealer_only: o.flag("first_round_dealer_only"),
            relaxed_after_trump: o.get("overtake_after_trump") == "relaxed",
            literal_c: o.flag("literal_C"),
            farg_led_card_only: o.get("farg_reference") == "led_card_only",
            farg_trick3: o.get("farg_tricks") == "1,2,3",
            rounds,
            extra_cap,
            bet_cap,
        })
    }
}

/// A trick in progress, as far as the trick law needs it.
#[derive(Clone, Debug, Default)]
pub struct TrickState {
    /// Cards played, in order (the first is the lead).
    pub cards: Vec<(Seat, Card)>,
    /// Seats that called Färg in this trick.
    pub farg: Vec<Seat>,
}

impl TrickState {
    pub fn led(&self) -> Option<Card> {
        self.cards.first().map(|&(_, c)| c)
    }
    /// The highest rank of suit `s` in the trick.
    pub fn highest(&self, s: Suit) -> Option<Rank> {
        self.cards
            .iter()
            .filter(|(_, c)| c.suit == s)
            .map(|(_, c)| c.rank)
            .max()
    }
    /// The seat winning the trick so far: the highest trump, else the highest card of the led suit.
    pub fn winner(&self, trump: Suit) -> Option<Seat> {
        let led = self.led()?.suit;
        let key = |c: &Card| (c.suit == trump, c.suit == led, c.rank);
        self.cards.iter().max_by_key(|(_, c)| key(c)).map(|&(s, _)| s)
    }
}

fn above(set: CardSet, r: Option<Rank>) -> CardSet {
    match r {
        None => set,
        Some(r) => CardSet::from_cards(&set.cards().into_iter().filter(|c| c.rank > r).collect::<Vec<_>>()),
    }
}

/// The cards a follower may play (svangknack.md Sec. 3, clauses A-C and their options).
pub fn legal_follow(hand: CardSet, t: &TrickState, trump: Suit, r: &Rules) -> CardSet {
    let Some(led) = t.led() else {
        return hand;
    };
    let l = led.suit;
    let hl = hand.of_suit(l);
    let ht = hand.of_suit(trump);
    if !hl.is_empty() {
        if r.relaxed_after_trump && l != trump && t.highest(trump).is_some() {
            return hl;
        }
        let hi = above(hl, t.highest(l));
        if !hi.is_empty() {
            return hi;
        }
        if r.literal_c && ht.is_empty() {
            return hand;
        }
        return hl;
    }
    if l != trump && !ht.is_empty() {
        let hi = above(ht, t.highest(trump));
        return if hi.is_empty() { ht } else { hi };
    }
    hand
}

/// Whether a follower can meet an overtaking duty (the condition Färg needs to be false).
pub fn can_overtake(hand: CardSet, t: &TrickState, trump: Suit, r: &Rules) -> bool {
    let Some(led) = t.led() else {
        return true;
    };
    let l = led.suit;
    let hl = hand.of_suit(l);
    let ht = hand.of_suit(trump);
    if r.farg_led_card_only {
        return (!hl.is_empty() && !above(hl, Some(led.rank)).is_empty())
            || (hl.is_empty() && l != trump && !ht.is_empty());
    }
    if !hl.is_empty() {
        return !above(hl, t.highest(l)).is_empty();
    }
    l != trump && !above(ht, t.highest(trump)).is_empty()
}

/// Whether all cards of a hand are of one suit.
pub fn one_suited(hand: CardSet) -> bool {
    Suit::ALL.iter().filter(|&&s| hand.has_suit(s)).count() == 1
}

/// One session of Svängknack.
pub struct Svangknack {
    n: usize,
    r: Rules,
    chance: Chance,
    events: Vec<Event>,
    phase: Phase,
    turn: Seat,
    // The session.
    round_no: usize,
    dealer: Seat,
    chips: Vec<i64>,
    /// Bets owed to the next pot ("gått bet").
    carried: i64,
    /// The pot of this round, P.
    pot: i64,
    deal_no: usize,
    rounds_log: Vec<serde_json::Value>,
    final_split: i64,
    // The round.
    hands: Vec<CardSet>,
    stock: Vec<Card>,
    stock_pos: usize,
    forehand: Seat,
    swinger: Seat,
    redeal_available: bool,
    handed_over: bool,
    last_man_called: bool,
    forced_round: bool,
    one_card: bool,
    voters: Vec<Seat>,
    turnup: Vec<Card>,
    trump: Option<Suit>,
    queue: Vec<Seat>,
    participants: Vec<bool>,
    trick_no: usize,
    leader: Seat,
    trick: TrickState,
    to_act: Vec<Seat>,
    won: Vec<u32>,
    outcome: Option<Outcome>,
    /// A deal from a deal file that failed; reported by the `apply` that caused it.
    deal_error: Option<String>,
}

impl Svangknack {
    pub fn new(players: usize, o: Options, mut chance: Chance) -> Result<Svangknack, String> {
        if !(3..=16).contains(&players) {
            return Err(format!("svangknack is played by 3-16 players, not {players}"));
        }
        let r = Rules::from_options(&o, players)?;
        let dealer = chance.first_dealer(players);
        let mut g = Svangknack {
            n: players,
            r,
            chance,
            events: Vec::new(),
            phase: Phase::Swing,
            turn: 0,
            round_no: 0,
            dealer,
            chips: vec![0; players],
            carried: 0,
            pot: 0,
            deal_no: 0,
            rounds_log: Vec::new(),
            final_split: 0,
            hands: vec![CardSet::EMPTY; players],
            stock: Vec::new(),
            stock_pos: 0,
            forehand: 0,
            swinger: 0,
            redeal_available: true,
            handed_over: false,
            last_man_called: false,
            forced_round: false,
            one_card: false,
            voters: Vec::new(),
            turnup: Vec::new(),
            trump: None,
            queue: Vec::new(),
            participants: vec![false; players],
            trick_no: 0,
            leader: 0,
            trick: TrickState::default(),
            to_act: Vec::new(),
            won: vec![0; players],
            outcome: None,
            deal_error: None,
        };
        g.start_round()?;
        Ok(g)
    }

    pub fn rules(&self) -> &Rules {
        &self.r
    }

    fn all(&self) -> Audience {
        Audience::all(self.n)
    }

    fn emit_all(&mut self, kind: &'static str, args: Vec<String>) {
        self.events.push(Event::new(self.all(), kind, args));
    }

    fn left(&self, s: Seat) -> Seat {
        (s + 1) % self.n
    }

    fn seats_token(seats: &[Seat]) -> String {
        if seats.is_empty() {
            "-".into()
        } else {
            seats.iter().map(|s| s.to_string()).collect::<Vec<_>>().join(",")
        }
    }

    fn chips_token(&self) -> String {
        self.chips.iter().map(|c| c.to_string()).collect::<Vec<_>>().join(",")
    }

    fn deck(&self) -> Vec<Card> {
        if self.r.deck36 {
            deck_from(Rank::new(6))
        } else {
            deck_from(Rank::TWO)
        }
    }

    // ----- Sec. 2.0-2.1: pot and deal -----

    fn start_round(&mut self) -> Result<(), String> {
        self.round_no += 1;
        self.forehand = self.left(self.dealer);
        self.swinger = self.forehand;
        let a = self.r.stake;
        let new_pot = self.carried == 0;
        self.emit_all("round", args![self.round_no, self.dealer, self.forehand]);
        if self.round_no == 1 && self.r.first_round_dealer_only {
            self.chips[self.dealer] -= a;
            self.pot = a;
            self.emit_all("ante", args![a, self.dealer]);
        } else if new_pot {
            for c in &mut self.chips {
                *c -= a;
            }
            self.pot = a * self.n as i64;
            self.emit_all("ante", args![a, "all"]);
        } else {
            self.chips[self.dealer] -= a;
            self.pot = self.carried + a;
            self.carried = 0;
            self.emit_all("ante", args![a, self.dealer]);
        }
        self.emit_all("pot", args![self.pot, self.pot / 3]);
        self.forced_round = match self.r.forced_participation.as_str() {
            "session_first_round" => self.round_no == 1,
            "every_new_pot" => new_pot,
            _ => false,
        };
        self.one_card = self.forced_round || (self.round_no == 1 && self.r.first_round_dealer_only);
        self.redeal_available = true;
        self.handed_over = false;
        self.last_man_called = false;
        self.turnup.clear();
        self.trump = None;
        self.participants = vec![false; self.n];
        self.won = vec![0; self.n];
        self.trick = TrickState::default();
        self.deal_cards()?;
        self.phase = Phase::Swing;
        self.turn = self.swinger;
        Ok(())
    }

    /// A fresh shuffle: 3 cards each, all at once, clockwise from the dealer's left; the rest is
    /// the stock (in order).
    fn deal_cards(&mut self) -> Result<(), String> {
        let mut req = DealRequest::hands(self.dealer, self.deck(), self.n, 3);
        req.piles = vec![("stock", usize::MAX)];
        let deal = self.chance.deal(&req)?;
        self.deal_no += 1;
        self.stock = deal.piles.get("stock").cloned().unwrap_or_default();
        if self.stock.len() < 2 {
            return Err(format!(
                "deal {}: the stock must hold at least 2 cards (the turn-up)",
                self.deal_no
            ));
        }
        self.stock_pos = 0;
        for s in 0..self.n {
            self.hands[s] = CardSet::from_cards(&deal.hands[s]);
        }
        self.emit_all("deal", args![self.deal_no, self.dealer]);
        self.send_hands();
        Ok(())
    }

    fn send_hands(&mut self) {
        for s in 0..self.n {
            let cards = self.hands[s].cards().iter().map(|c| c.to_string()).collect();
            self.events.push(Event::new(Audience::seat(s), "hand", cards));
        }
    }

    // ----- Sec. 2.2: the swinger's choice -----

    fn swing_actions(&self) -> Vec<String> {
        let mut v = vec!["swing".to_string()];
        if !self.forced_round {
            v.push("handover".into());
            if self.r.last_man {
                v.push("handover_last".into());
            }
        }
        if self.redeal_available {
            v.push("redeal".into());
        }
        v
    }

    fn apply_swing(&mut self, token: &str) -> Result<(), String> {
        if !self.swing_actions().iter().any(|a| a == token) {
            return Err(match token {
                "redeal" => "a redeal was already proposed this round (only once)".into(),
                "handover" | "handover_last" if self.forced_round => {
                    "every player takes part in this round (forced participation): the swing cannot be handed over"
                        .into()
                }
                "handover_last" => "'sista man' needs the option last_man=true".into(),
                _ => format!(
                    "'{token}' is not a swinger's choice: {}",
                    self.swing_actions().join(", ")
                ),
            });
        }
        let f = self.swinger;
        self.emit_all("move", args![f, token, "swing"]);
        match token {
            "redeal" => {
                self.redeal_available = false;
                self.voters = (1..self.n)
                    .map(|k| (f + k) % self.n)
                    .filter(|&s| s != self.dealer)
                    .collect();
                self.phase = Phase::Consent;
                self.turn = self.voters.remove(0);
                Ok(())
            }
            "swing" => self.turn_up(),
            _ => {
                // Sec. 2.2b: the swing passes left; the new swinger must swing.
                self.handed_over = true;
                self.last_man_called = token == "handover_last";
                self.swinger = self.left(f);
                self.emit_all("swinger", args![self.swinger]);
                self.turn_up()
            }
        }
    }

    fn apply_consent(&mut self, token: &str) -> Result<(), String> {
        let p = self.turn;
        match token {
            "agree" => {
                self.emit_all("move", args![p, "agree", "consent"]);
                if !self.voters.is_empty() {
                    self.turn = self.voters.remove(0);
                    return Ok(());
                }
                self.redeal()?;
            }
            "refuse" => {
                self.emit_all("move", args![p, "refuse", "consent"]);
                self.voters.clear();
                self.emit_all("redeal", args!["refused"]);
            }
            _ => {
                return Err(format!(
                    "'{token}' is not an answer to a redeal proposal: agree or refuse"
                ))
            }
        }
        self.phase = Phase::Swing;
        self.turn = self.swinger;
        Ok(())
    }

    /// Sec. 2.2a: with at most 7 players the new hands come from the stock without shuffling
    /// (the old ones are set aside unseen); with 8 or more, or when the stock is too short
    /// (deck=36), all cards are gathered, shuffled and dealt again.
    fn redeal(&mut self) -> Result<(), String> {
        let need = 3 * self.n + 2;
        if self.n <= 7 && self.stock.len() - self.stock_pos >= need {
            self.emit_all("redeal", args!["stock"]);
            let mut pos = self.stock_pos;
            for k in 1..=self.n {
                let s = (self.dealer + k) % self.n;
                self.hands[s] = CardSet::from_cards(&self.stock[pos..pos + 3]);
                pos += 3;
            }
            self.stock_pos = pos;
            self.send_hands();
            Ok(())
        } else {
            self.emit_all("redeal", args!["shuffle"]);
            self.deal_cards()
        }
    }

    // ----- Sec. 2.3: turn-up and trump -----

    fn turn_up(&mut self) -> Result<(), String> {
        let k = if self.one_card { 1 } else { 2 };
        self.turnup = self.stock[self.stock_pos..self.stock_pos + k].to_vec();
        self.stock_pos += k;
        let toks: Vec<String> = self.turnup.iter().map(|c| c.to_string()).collect();
        self.events.push(Event::new(self.all(), "turnup", toks));
        let s0 = self.turnup[0].suit;
        if self.turnup.iter().all(|c| c.suit == s0) {
            self.set_trump(s0);
        } else {
            self.phase = Phase::Trump;
            self.turn = self.swinger;
        }
        Ok(())
    }

    fn trump_actions(&self) -> Vec<String> {
        self.turnup.iter().map(|c| c.suit.letter().to_string()).collect()
    }

    fn apply_trump(&mut self, token: &str) -> Result<(), String> {
        let Some(s) = token
            .parse::<Suit>()
            .ok()
            .filter(|s| self.turnup.iter().any(|c| c.suit == *s))
        else {
            return Err(format!(
                "'{token}' is not a suit of the turned cards: choose {}",
                self.trump_actions().join(" or ")
            ));
        };
        self.emit_all("move", args![self.swinger, s.letter(), "trump"]);
        self.set_trump(s);
        Ok(())
    }

    fn set_trump(&mut self, s: Suit) {
        self.trump = Some(s);
        self.emit_all("trump", args![s.letter()]);
        self.participants = vec![false; self.n];
        self.participants[self.swinger] = true;
        let same_suit = self.turnup.len() == 2 && self.turnup[0].suit == self.turnup[1].suit;
        let force = self.forced_round
            || (self.r.same_suit_forces_all
                && same_suit
                && (self.r.force_pot_limit == 0 || self.pot <= self.r.force_pot_limit));
        if force {
            for s in 0..self.n {
                if !(self.handed_over && s == self.forehand) {
                    self.participants[s] = true;
                }
            }
            self.emit_all(
                "forced",
                args![if self.forced_round {
                    "participation"
                } else {
                    "same_suit"
                }],
            );
            self.start_play();
            return;
        }
        // Sec. 2.4: clockwise from the swinger's left to the dealer.
        self.queue = Vec::new();
        let mut s = self.left(self.swinger);
        loop {
            if !(self.handed_over && s == self.forehand) {
                self.queue.push(s);
            }
            if s == self.dealer {
                break;
            }
            s = self.left(s);
        }
        if self.queue.is_empty() {
            self.after_knocks();
        } else {
            self.phase = Phase::Knock;
            self.turn = self.queue.remove(0);
        }
    }

    // ----- Sec. 2.4: knocking -----

    fn apply_knock(&mut self, token: &str) -> Result<(), String> {
        let p = self.turn;
        match token {
            "knock" => self.participants[p] = true,
            "fold" => {}
            _ => return Err(format!("'{token}' is not a knock decision: knock or fold")),
        }
        self.emit_all("move", args![p, token, "knock"]);
        if self.queue.is_empty() {
            self.after_knocks();
        } else {
            self.turn = self.queue.remove(0);
        }
        Ok(())
    }

    fn after_knocks(&mut self) {
        if self.participants.iter().filter(|&&x| x).count() > 1 {
            self.start_play();
            return;
        }
        if self.last_man_called {
            self.participants[self.forehand] = true;
            self.emit_all("lastman", args![self.forehand]);
            self.start_play();
            return;
        }
        // Nobody knocked: the swinger takes the pot without showing his cards.
        let s = self.swinger;
        self.chips[s] += self.pot;
        self.emit_all("lone", args![s, self.pot]);
        self.end_round(format!("round {}: seat {s} alone takes {}", self.round_no, self.pot));
    }

    // ----- Sec. 2.5 and 3: tricks -----

    fn participant_seats(&self) -> Vec<Seat> {
        (0..self.n).filter(|&s| self.participants[s]).collect()
    }

    fn start_play(&mut self) {
        let ps = self.participant_seats();
        self.emit_all("participants", args![Self::seats_token(&ps)]);
        self.phase = Phase::Play;
        self.trick_no = 1;
        self.start_trick(self.swinger);
    }

    fn start_trick(&mut self, leader: Seat) {
        self.leader = leader;
        self.trick = TrickState::default();
        self.to_act = (1..self.n)
            .map(|k| (leader + k) % self.n)
            .filter(|&s| self.participants[s])
            .collect();
        self.turn = leader;
    }

    fn trump_suit(&self) -> Suit {
        self.trump.expect("trump is fixed before play")
    }

    fn is_leader(&self) -> bool {
        self.trick.cards.is_empty()
    }

    fn legal_cards(&self) -> CardSet {
        let hand = self.hands[self.turn];
        let t = self.trump_suit();
        if self.is_leader() {
            if self.trick_no == 2 && hand.has_suit(t) {
                return hand.of_suit(t);
            }
            return hand;
        }
        legal_follow(hand, &self.trick, t, &self.r)
    }

    fn farg_legal(&self) -> bool {
        let hand = self.hands[self.turn];
        let in_tricks = self.trick_no <= 2 || self.r.farg_trick3;
        in_tricks
            && !self.is_leader()
            && one_suited(hand)
            && !can_overtake(hand, &self.trick, self.trump_suit(), &self.r)
    }

    fn play_actions(&self) -> Vec<String> {
        let mut v: Vec<String> = self.legal_cards().cards().iter().map(|c| c.to_string()).collect();
        if self.farg_legal() {
            v.push("farg".into());
        }
        v
    }

    fn card_refusal(&self, card: Card) -> String {
        let p = self.turn;
        let hand = self.hands[p];
        let t = self.trump_suit();
        let legal = crate::cards::format_cards(&self.legal_cards().cards());
        if self.is_leader() {
            return format!("{card}: trick 2 must be led with a trump (you hold one): {legal}");
        }
        let l = self.trick.led().expect("a lead").suit;
        if hand.has_suit(l) && card.suit != l {
            format!(
                "{card} does not follow the led suit {} (you hold it): {legal}",
                l.letter()
            )
        } else if card.suit == l {
            format!("{card} does not overtake: forced overtaking, play one of {legal}")
        } else if card.suit == t {
            format!("{card} does not overtrump: you must play a higher trump, one of {legal}")
        } else {
            format!("{card}: void in the led suit you must trump, one of {legal}")
        }
    }

    fn apply_play(&mut self, token: &str) -> Result<(), String> {
        let p = self.turn;
        if token == "farg" {
            if !self.farg_legal() {
                let why = if self.is_leader() {
                    "the leader cannot call Färg"
                } else if !(self.trick_no <= 2 || self.r.farg_trick3) {
                    "Färg can be called only in tricks 1 and 2"
                } else if !one_suited(self.hands[p]) {
                    "Färg needs all your cards in one suit"
                } else {
                    "Färg needs that you cannot overtake, and you can"
                };
                return Err(why.into());
            }
            self.emit_all("move", args![p, "farg", "play"]);
            self.trick.farg.push(p);
        } else {
            let card: Card = token.parse()?;
            if !self.hands[p].contains(card) {
                return Err(format!("{card} is not in seat {p}'s hand"));
            }
            if !self.legal_cards().contains(card) {
                return Err(self.card_refusal(card));
            }
            self.hands[p].remove(card);
            self.trick.cards.push((p, card));
            self.emit_all("move", args![p, card, "play"]);
        }
        if !self.to_act.is_empty() {
            self.turn = self.to_act.remove(0);
            return Ok(());
        }
        let w = self.trick.winner(self.trump_suit()).expect("the leader played");
        self.won[w] += 1;
        self.emit_all("trick", args![self.trick_no, w]);
        if self.trick_no < 3 {
            self.trick_no += 1;
            self.start_trick(w);
        } else {
            self.settle();
        }
        Ok(())
    }

    // ----- Sec. 2.6-2.7 and 5: settlement, next round, session end -----

    fn settle(&mut self) {
        let third = self.pot / 3;
        let mut bets = Vec::new();
        for s in 0..self.n {
            if self.won[s] > 0 {
                let amount = third * self.won[s] as i64;
                self.chips[s] += amount;
                self.emit_all("paid", args![s, self.won[s], amount]);
            }
        }
        for s in 0..self.n {
            if self.participants[s] && self.won[s] == 0 {
                let bet = self.pot.min(self.r.bet_cap);
                self.chips[s] -= bet;
                self.carried += bet;
                bets.push(s);
                self.emit_all("bet", args![s, bet]);
            }
        }
        let winners: Vec<String> = (0..self.n)
            .filter(|&s| self.won[s] > 0)
            .map(|s| format!("{s}:{}", self.won[s]))
            .collect();
        let summary = format!(
            "round {}: pot {}, tricks {}, bet {}",
            self.round_no,
            self.pot,
            winners.join(" "),
            Self::seats_token(&bets)
        );
        self.end_round(summary);
    }

    fn end_round(&mut self, summary: String) {
        self.emit_all("chips", args![self.chips_token()]);
        self.rounds_log.push(json!(summary));
        self.pot = 0;
        self.dealer = self.forehand;
        let min = self.r.rounds;
        if self.round_no >= min && self.carried == 0 {
            self.finish("rounds_done");
        } else if self.round_no >= min + self.r.extra_cap {
            // The cap: the bets still owed are divided equally; the remainder one chip each,
            // clockwise from the (next) dealer's left.
            let total = self.carried;
            self.final_split = total;
            let n = self.n as i64;
            for c in &mut self.chips {
                *c += total / n;
            }
            for k in 0..(total % n) as usize {
                let s = (self.dealer + 1 + k) % self.n;
                self.chips[s] += 1;
            }
            self.carried = 0;
            self.emit_all("split", args![total, self.chips_token()]);
            self.finish("cap_split");
        } else if let Err(e) = self.start_round() {
            // Only a deal file that does not fit can fail here; end the session cleanly.
            self.finish_with_error(e);
        }
    }

    fn finish_with_error(&mut self, e: String) {
        self.deal_error = Some(e);
        self.finish("deal_error");
    }

    fn finish(&mut self, reason: &'static str) {
        self.phase = Phase::Over;
        self.emit_all("end", args![reason]);
        let best = (0..self.n).max_by_key(|&s| self.chips[s]).unwrap_or(0);
        let summary = format!(
            "{} round(s), {}; best seat {best} with {:+} chips",
            self.round_no,
            if reason == "cap_split" {
                format!("{} in bets split", self.final_split)
            } else {
                "no bets left".to_string()
            },
            self.chips[best]
        );
        self.outcome = Some(Outcome {
            scores: self.chips.iter().map(|&c| c as f64).collect(),
            detail: json!({
                "rounds": self.round_no,
                "deals": self.deal_no,
                "end": reason,
                "split": self.final_split,
                "chips": self.chips,
                "round_summaries": self.rounds_log,
                "summary": summary,
            }),
        });
    }
}

impl Game for Svangknack {
    fn players(&self) -> usize {
        self.n
    }

    fn to_move(&self) -> Option<Seat> {
        (self.phase != Phase::Over).then_some(self.turn)
    }

    fn decision(&self) -> &'static str {
        match self.phase {
            Phase::Swing => "swing",
            Phase::Consent => "consent",
            Phase::Trump => "trump",
            Phase::Knock => "knock",
            Phase::Play | Phase::Over => "play",
        }
    }

    fn legal_actions(&self) -> Vec<String> {
        match self.phase {
            Phase::Swing => self.swing_actions(),
            Phase::Consent => vec!["agree".into(), "refuse".into()],
            Phase::Trump => self.trump_actions(),
            Phase::Knock => vec!["knock".into(), "fold".into()],
            Phase::Play => self.play_actions(),
            Phase::Over => vec![],
        }
    }

    fn apply(&mut self, action: &str) -> Result<(), String> {
        let r = match self.phase {
            Phase::Swing => self.apply_swing(action),
            Phase::Consent => self.apply_consent(action),
            Phase::Trump => self.apply_trump(action),
            Phase::Knock => self.apply_knock(action),
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
