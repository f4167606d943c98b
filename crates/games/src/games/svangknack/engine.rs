//! The Svängknack state machine (svangknack.md Sec. 2-5): pot, deal, the swinger's choice
//! (redeal vote, swing, hand-over), the turn-up and trump, knocking, three tricks among the
//! participants with forced overtaking, must-trump and Färg, settlement by thirds and bets,
//! and the session end.
//!
//! Audiences follow Sec. 7: a `hand` goes to its owner only; everything else is public. Cards
//! of players who folded, of a lone swinger and a Färg caller's leftover cards are never sent.
//!
//! The state is a typed [`Engine`]: per-seat state, the stock, the queues and the trick live in
//! fixed arrays (at most 16 players, 52 cards), so a state clones without touching the heap
//! for them and a decision allocates nothing; options are read into [`Rules`] once.

use crate::args;
use crate::cards::{deck_from, Card, CardSet, Rank, Suit};
use crate::chance::{Chance, DealRequest};
use crate::engine::{Engine, Events, Typed};
use crate::few::Few;
use crate::game::{Arg, Audience, Game, Outcome, Seat};
use crate::options::Options;
use std::fmt;
use std::sync::Arc;

/// Builds a Svängknack session (the [`crate::game::NewGame`] of the spec): the typed engine
/// behind the string interface.
pub fn new_game(players: usize, options: &Options, chance: Chance, listening: bool) -> Result<Box<dyn Game>, String> {
    Ok(Box::new(Typed::listening(listening, |events| {
        Svangknack::new(players, options, chance, events)
    })?))
}

/// The most players Svängknack seats (svangknack.md Sec. 1).
const MAX_PLAYERS: usize = 16;
/// The largest deck.
const DECK: usize = 52;

/// A Svängknack action. `Display` writes its protocol token; [`Svangknack::parse`](Engine::parse)
/// reads one back.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SvangknackAction {
    /// `swing`: the swinger plays.
    Swing,
    /// `handover`: the swing passes left.
    Handover,
    /// `handover_last`: a hand-over with "sista man" (`last_man=true`).
    HandoverLast,
    /// `redeal`: the swinger proposes a redeal (once a round).
    Redeal,
    /// `agree` to a redeal.
    Agree,
    /// `refuse` a redeal.
    Refuse,
    /// The trump suit, from the turned cards (its letter).
    Trump(Suit),
    /// `knock`: take part.
    Knock,
    /// `fold`.
    Fold,
    /// A card to the trick.
    Play(Card),
    /// `farg`: "Färg", keep one's cards.
    Farg,
}

impl fmt::Display for SvangknackAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.token())
    }
}

crate::action_arg!(SvangknackAction, SvangknackAction::Play);

impl SvangknackAction {
    /// The token of an action that is not a card, as a fixed word (an event argument that
    /// makes no text); `None` for a card.
    pub fn word(self) -> Option<&'static str> {
        use SvangknackAction::*;
        Some(match self {
            Swing => "swing",
            Handover => "handover",
            HandoverLast => "handover_last",
            Redeal => "redeal",
            Agree => "agree",
            Refuse => "refuse",
            Trump(s) => s.token(),
            Knock => "knock",
            Fold => "fold",
            Play(_) => return None,
            Farg => "farg",
        })
    }

    /// The action's token (every one is a string of the program's).
    pub fn token(self) -> &'static str {
        match (self, self.word()) {
            (_, Some(w)) => w,
            (SvangknackAction::Play(c), None) => c.token(),
            (_, None) => unreachable!("only a card has no word"),
        }
    }

    /// The action as an event argument: a card, or its fixed word.
    fn arg(self) -> Arg {
        match (self, self.word()) {
            (_, Some(w)) => Arg::Word(w),
            (a, None) => Arg::from(a),
        }
    }
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

/// When everyone must take part ('tvingad medgång', option `forced_participation`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ForcedParticipation {
    Off,
    SessionFirstRound,
    EveryNewPot,
}

/// The rule options in force, read once.
#[derive(Clone, Copy, Debug)]
pub struct Rules {
    pub deck36: bool,
    pub stake: i64,
    pub last_man: bool,
    pub same_suit_forces_all: bool,
    pub force_pot_limit: i64,
    pub forced_participation: ForcedParticipation,
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
            forced_participation: match o.get("forced_participation") {
                "session_first_round" => ForcedParticipation::SessionFirstRound,
                "every_new_pot" => ForcedParticipation::EveryNewPot,
                _ => ForcedParticipation::Off,
            },
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

/// A trick in progress, as far as the trick law needs it (an array: no heap).
#[derive(Clone, Copy, Debug)]
pub struct TrickState {
    /// Cards played, in order (the first is the lead); the first `len` count.
    cards: [(Seat, Card); MAX_PLAYERS],
    len: usize,
    /// Seats that called Färg in this trick (a bit set).
    pub farg: u32,
}

impl Default for TrickState {
    fn default() -> TrickState {
        TrickState {
            cards: [(0, Card::from_index(0)); MAX_PLAYERS],
            len: 0,
            farg: 0,
        }
    }
}

impl TrickState {
    /// A trick with these cards played, in order.
    pub fn from_cards(cards: &[(Seat, Card)]) -> TrickState {
        let mut t = TrickState::default();
        for &c in cards {
            t.push(c);
        }
        t
    }
    /// The cards played, in order (the first is the lead).
    pub fn cards(&self) -> &[(Seat, Card)] {
        &self.cards[..self.len]
    }
    fn push(&mut self, play: (Seat, Card)) {
        self.cards[self.len] = play;
        self.len += 1;
    }
    pub fn led(&self) -> Option<Card> {
        self.cards().first().map(|&(_, c)| c)
    }
    /// The highest rank of suit `s` in the trick.
    pub fn highest(&self, s: Suit) -> Option<Rank> {
        self.cards()
            .iter()
            .filter(|(_, c)| c.suit == s)
            .map(|(_, c)| c.rank)
            .max()
    }
    /// The seat winning the trick so far: the highest trump, else the highest card of the led suit.
    pub fn winner(&self, trump: Suit) -> Option<Seat> {
        let led = self.led()?.suit;
        let key = |c: &Card| (c.suit == trump, c.suit == led, c.rank);
        self.cards().iter().max_by_key(|(_, c)| key(c)).map(|&(s, _)| s)
    }
}

/// The cards of `set` ranked above `r` (all of them without `r`).
fn above(set: CardSet, r: Option<Rank>) -> CardSet {
    match r {
        None => set,
        Some(r) => {
            let mut out = set;
            for c in CardSet::iter(set) {
                if c.rank <= r {
                    out.remove(c);
                }
            }
            out
        }
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

/// One finished round, for the outcome's `round_summaries` (made into text only there).
#[derive(Clone, Copy, Debug)]
enum RoundSummary {
    /// Nobody knocked: the swinger took the pot alone.
    Lone { round: usize, seat: Seat, pot: i64 },
    /// Tricks were played: the tricks won per seat and the seats that went bet (a bit set).
    Played {
        round: usize,
        pot: i64,
        won: [u8; MAX_PLAYERS],
        bets: u32,
    },
}

impl RoundSummary {
    /// `round 3: seat 2 alone takes 21`, `round 1: pot 18, tricks 1:2 5:1, bet -`.
    fn text(&self, n: usize) -> String {
        let mut t = String::with_capacity(48);
        t.push_str("round ");
        match *self {
            RoundSummary::Lone { round, seat, pot } => {
                push_int(&mut t, round as i64);
                t.push_str(": seat ");
                push_int(&mut t, seat as i64);
                t.push_str(" alone takes ");
                push_int(&mut t, pot);
            }
            RoundSummary::Played { round, pot, won, bets } => {
                push_int(&mut t, round as i64);
                t.push_str(": pot ");
                push_int(&mut t, pot);
                t.push_str(", tricks ");
                for (k, s) in (0..n).filter(|&s| won[s] > 0).enumerate() {
                    if k > 0 {
                        t.push(' ');
                    }
                    push_int(&mut t, s as i64);
                    t.push(':');
                    push_int(&mut t, won[s] as i64);
                }
                t.push_str(", bet ");
                write_seats(&mut t, bets, n);
            }
        }
        t
    }
}

/// Seats of a bit set as one token: `0,2,5`, or `-` for none.
fn seats_token(seats: u32, n: usize) -> String {
    let mut t = String::with_capacity(3 * seats.count_ones().max(1) as usize);
    write_seats(&mut t, seats, n);
    t
}

/// Writes [`seats_token`] at the end of `out`.
fn write_seats(out: &mut String, seats: u32, n: usize) {
    if seats == 0 {
        out.push('-');
        return;
    }
    for (k, s) in (0..n).filter(|&s| seats & (1 << s) != 0).enumerate() {
        if k > 0 {
            out.push(',');
        }
        push_int(out, s as i64);
    }
}

/// Writes `v` in decimal at the end of `out` (as `Display` does, without the formatter).
fn push_int(out: &mut String, v: i64) {
    let mut buf = [0u8; 20];
    let mut i = buf.len();
    let mut u = v.unsigned_abs();
    loop {
        i -= 1;
        buf[i] = b'0' + (u % 10) as u8;
        u /= 10;
        if u == 0 {
            break;
        }
    }
    if v < 0 {
        out.push('-');
    }
    out.extend(buf[i..].iter().map(|&d| d as char));
}

/// The seats of the game, clockwise (a queue of voters, knockers or players to act).
type Seats = Few<Seat, MAX_PLAYERS>;

/// One session of Svängknack.
#[derive(Clone)]
pub struct Svangknack {
    n: usize,
    r: Rules,
    chance: Chance,
    phase: Phase,
    turn: Seat,
    // The session (per-seat arrays: the first `n` entries count).
    round_no: usize,
    dealer: Seat,
    chips: [i64; MAX_PLAYERS],
    /// Bets owed to the next pot ("gått bet").
    carried: i64,
    /// The pot of this round, P.
    pot: i64,
    deal_no: usize,
    rounds_log: Vec<RoundSummary>,
    final_split: i64,
    // The round.
    hands: [CardSet; MAX_PLAYERS],
    /// The stock in order: `stock[..stock_len]`, of which `stock_pos..` is left.
    stock: [Card; DECK],
    stock_len: usize,
    stock_pos: usize,
    forehand: Seat,
    swinger: Seat,
    redeal_available: bool,
    handed_over: bool,
    last_man_called: bool,
    forced_round: bool,
    one_card: bool,
    voters: Seats,
    turnup: Few<Card, 2>,
    trump: Option<Suit>,
    queue: Seats,
    /// The participants of the round (a bit set).
    participants: u32,
    trick_no: usize,
    leader: Seat,
    trick: TrickState,
    to_act: Seats,
    won: [u32; MAX_PLAYERS],
    /// Why the session ended, once it has (the outcome is made from this and the state).
    ended: Option<&'static str>,
    /// A deal from a deal file that failed; reported by the `apply` that caused it.
    deal_error: Option<String>,
    /// The request of every deal (shared by clones until one deals).
    deal_request: Arc<DealRequest>,
}

impl Svangknack {
    /// A new session for `players` seats; the first round is reported to `events`.
    pub fn new(
        players: usize,
        o: &Options,
        mut chance: Chance,
        events: &mut impl Events,
    ) -> Result<Svangknack, String> {
        if !(3..=MAX_PLAYERS).contains(&players) {
            return Err(format!("svangknack is played by 3-16 players, not {players}"));
        }
        let r = Rules::from_options(o, players)?;
        let dealer = chance.first_dealer(players);
        let no_card = Card::from_index(0);
        let mut g = Svangknack {
            n: players,
            r,
            chance,
            phase: Phase::Swing,
            turn: 0,
            round_no: 0,
            dealer,
            chips: [0; MAX_PLAYERS],
            carried: 0,
            pot: 0,
            deal_no: 0,
            rounds_log: Vec::new(),
            final_split: 0,
            hands: [CardSet::EMPTY; MAX_PLAYERS],
            stock: [no_card; DECK],
            stock_len: 0,
            stock_pos: 0,
            forehand: 0,
            swinger: 0,
            redeal_available: true,
            handed_over: false,
            last_man_called: false,
            forced_round: false,
            one_card: false,
            voters: Few::new(0),
            turnup: Few::new(no_card),
            trump: None,
            queue: Few::new(0),
            participants: 0,
            trick_no: 0,
            leader: 0,
            trick: TrickState::default(),
            to_act: Few::new(0),
            won: [0; MAX_PLAYERS],
            ended: None,
            deal_error: None,
            deal_request: Arc::new(Svangknack::deal_request(&r, players, dealer)),
        };
        g.start_round(events)?;
        Ok(g)
    }

    pub fn rules(&self) -> &Rules {
        &self.r
    }

    fn all(&self) -> Audience {
        Audience::all(self.n)
    }

    fn left(&self, s: Seat) -> Seat {
        (s + 1) % self.n
    }

    fn participates(&self, s: Seat) -> bool {
        self.participants & (1 << s) != 0
    }

    /// Every seat's chips as one token: `3,-2,5`.
    fn chips_token(&self) -> String {
        let mut t = String::with_capacity(4 * self.n);
        for (i, &c) in self.chips[..self.n].iter().enumerate() {
            if i > 0 {
                t.push(',');
            }
            push_int(&mut t, c);
        }
        t
    }

    /// What a round deals: 3 cards each from the dealer's left, the rest is the stock.
    fn deal_request(r: &Rules, n: usize, dealer: Seat) -> DealRequest {
        let deck = if r.deck36 {
            deck_from(Rank::new(6))
        } else {
            deck_from(Rank::TWO)
        };
        let mut req = DealRequest::hands(dealer, deck, n, 3);
        req.piles = vec![("stock", usize::MAX)];
        req
    }

    fn stock(&self) -> &[Card] {
        &self.stock[..self.stock_len]
    }

    // ----- Sec. 2.0-2.1: pot and deal -----

    fn start_round(&mut self, ev: &mut impl Events) -> Result<(), String> {
        self.round_no += 1;
        self.forehand = self.left(self.dealer);
        self.swinger = self.forehand;
        let a = self.r.stake;
        let new_pot = self.carried == 0;
        ev.emit(self.all(), "round", || args![self.round_no, self.dealer, self.forehand]);
        if self.round_no == 1 && self.r.first_round_dealer_only {
            self.chips[self.dealer] -= a;
            self.pot = a;
            ev.emit(self.all(), "ante", || args![a, self.dealer]);
        } else if new_pot {
            for c in &mut self.chips[..self.n] {
                *c -= a;
            }
            self.pot = a * self.n as i64;
            ev.emit(self.all(), "ante", || args![a, "all"]);
        } else {
            self.chips[self.dealer] -= a;
            self.pot = self.carried + a;
            self.carried = 0;
            ev.emit(self.all(), "ante", || args![a, self.dealer]);
        }
        ev.emit(self.all(), "pot", || args![self.pot, self.pot / 3]);
        self.forced_round = match self.r.forced_participation {
            ForcedParticipation::SessionFirstRound => self.round_no == 1,
            ForcedParticipation::EveryNewPot => new_pot,
            ForcedParticipation::Off => false,
        };
        self.one_card = self.forced_round || (self.round_no == 1 && self.r.first_round_dealer_only);
        self.redeal_available = true;
        self.handed_over = false;
        self.last_man_called = false;
        self.turnup.clear();
        self.trump = None;
        self.participants = 0;
        self.won = [0; MAX_PLAYERS];
        self.trick = TrickState::default();
        self.deal_cards(ev)?;
        self.phase = Phase::Swing;
        self.turn = self.swinger;
        Ok(())
    }

    /// A fresh shuffle: 3 cards each, all at once, clockwise from the dealer's left; the rest is
    /// the stock (in order).
    fn deal_cards(&mut self, ev: &mut impl Events) -> Result<(), String> {
        // The request is kept (the deck made once): only the dealer changes.
        let req = Arc::make_mut(&mut self.deal_request);
        req.dealer = self.dealer;
        req.first = (self.dealer + 1) % self.n;
        let deal = self.chance.deal(&self.deal_request)?;
        self.deal_no += 1;
        let stock = deal.piles.get("stock").map_or(&[][..], Vec::as_slice);
        let kept = stock.len().min(DECK);
        self.stock[..kept].copy_from_slice(&stock[..kept]);
        self.stock_len = kept;
        if stock.len() < 2 {
            return Err(format!(
                "deal {}: the stock must hold at least 2 cards (the turn-up)",
                self.deal_no
            ));
        }
        self.stock_pos = 0;
        for s in 0..self.n {
            self.hands[s] = CardSet::from_cards(&deal.hands[s]);
        }
        ev.emit(self.all(), "deal", || args![self.deal_no, self.dealer]);
        self.send_hands(ev);
        Ok(())
    }

    fn send_hands(&mut self, ev: &mut impl Events) {
        for s in 0..self.n {
            let hand = self.hands[s];
            ev.emit(Audience::seat(s), "hand", || {
                CardSet::iter(hand).map(Arg::Card).collect()
            });
        }
    }

    // ----- Sec. 2.2: the swinger's choice -----

    fn swing_actions(&self, out: &mut Vec<SvangknackAction>) {
        out.push(SvangknackAction::Swing);
        if !self.forced_round {
            out.push(SvangknackAction::Handover);
            if self.r.last_man {
                out.push(SvangknackAction::HandoverLast);
            }
        }
        if self.redeal_available {
            out.push(SvangknackAction::Redeal);
        }
    }

    fn swing_refusal(&self, token: &str) -> String {
        match token {
            "redeal" => "a redeal was already proposed this round (only once)".into(),
            "handover" | "handover_last" if self.forced_round => {
                "every player takes part in this round (forced participation): the swing cannot be handed over".into()
            }
            "handover_last" => "'sista man' needs the option last_man=true".into(),
            _ => {
                let mut v = Vec::new();
                self.swing_actions(&mut v);
                let tokens: Vec<String> = v.iter().map(|a| a.to_string()).collect();
                format!("'{token}' is not a swinger's choice: {}", tokens.join(", "))
            }
        }
    }

    fn apply_swing(&mut self, action: SvangknackAction, ev: &mut impl Events) -> Result<(), String> {
        let f = self.swinger;
        ev.emit(self.all(), "move", || args![f, action.arg(), "swing"]);
        match action {
            SvangknackAction::Redeal => {
                self.redeal_available = false;
                self.voters.clear();
                for k in 1..self.n {
                    let s = (f + k) % self.n;
                    if s != self.dealer {
                        self.voters.push(s);
                    }
                }
                self.phase = Phase::Consent;
                self.turn = self.voters.remove_first();
                Ok(())
            }
            SvangknackAction::Swing => self.turn_up(ev),
            _ => {
                // Sec. 2.2b: the swing passes left; the new swinger must swing.
                self.handed_over = true;
                self.last_man_called = action == SvangknackAction::HandoverLast;
                self.swinger = self.left(f);
                ev.emit(self.all(), "swinger", || args![self.swinger]);
                self.turn_up(ev)
            }
        }
    }

    fn apply_consent(&mut self, agree: bool, ev: &mut impl Events) -> Result<(), String> {
        let p = self.turn;
        if agree {
            ev.emit(self.all(), "move", || args![p, "agree", "consent"]);
            if !self.voters.is_empty() {
                self.turn = self.voters.remove_first();
                return Ok(());
            }
            self.redeal(ev)?;
        } else {
            ev.emit(self.all(), "move", || args![p, "refuse", "consent"]);
            self.voters.clear();
            ev.emit(self.all(), "redeal", || args!["refused"]);
        }
        self.phase = Phase::Swing;
        self.turn = self.swinger;
        Ok(())
    }

    /// Sec. 2.2a: with at most 7 players the new hands come from the stock without shuffling
    /// (the old ones are set aside unseen); with 8 or more, or when the stock is too short
    /// (deck=36), all cards are gathered, shuffled and dealt again.
    fn redeal(&mut self, ev: &mut impl Events) -> Result<(), String> {
        let need = 3 * self.n + 2;
        if self.n <= 7 && self.stock_len - self.stock_pos >= need {
            ev.emit(self.all(), "redeal", || args!["stock"]);
            let mut pos = self.stock_pos;
            for k in 1..=self.n {
                let s = (self.dealer + k) % self.n;
                self.hands[s] = CardSet::from_cards(&self.stock[pos..pos + 3]);
                pos += 3;
            }
            self.stock_pos = pos;
            self.send_hands(ev);
            Ok(())
        } else {
            ev.emit(self.all(), "redeal", || args!["shuffle"]);
            self.deal_cards(ev)
        }
    }

    // ----- Sec. 2.3: turn-up and trump -----

    fn turn_up(&mut self, ev: &mut impl Events) -> Result<(), String> {
        let k = if self.one_card { 1 } else { 2 };
        self.turnup.clear();
        for i in self.stock_pos..self.stock_pos + k {
            let c = self.stock()[i];
            self.turnup.push(c);
        }
        self.stock_pos += k;
        let turnup = self.turnup;
        ev.emit(self.all(), "turnup", || {
            turnup.as_slice().iter().map(|&c| Arg::Card(c)).collect()
        });
        let s0 = self.turnup.as_slice()[0].suit;
        if self.turnup.as_slice().iter().all(|c| c.suit == s0) {
            self.set_trump(s0, ev);
        } else {
            self.phase = Phase::Trump;
            self.turn = self.swinger;
        }
        Ok(())
    }

    fn trump_tokens(&self) -> String {
        self.turnup
            .as_slice()
            .iter()
            .map(|c| c.suit.letter().to_string())
            .collect::<Vec<_>>()
            .join(" or ")
    }

    fn set_trump(&mut self, s: Suit, ev: &mut impl Events) {
        self.trump = Some(s);
        ev.emit(self.all(), "trump", || args![s.token()]);
        self.participants = 1 << self.swinger;
        let t = self.turnup.as_slice();
        let same_suit = t.len() == 2 && t[0].suit == t[1].suit;
        let force = self.forced_round
            || (self.r.same_suit_forces_all
                && same_suit
                && (self.r.force_pot_limit == 0 || self.pot <= self.r.force_pot_limit));
        if force {
            for s in 0..self.n {
                if !(self.handed_over && s == self.forehand) {
                    self.participants |= 1 << s;
                }
            }
            let why = if self.forced_round {
                "participation"
            } else {
                "same_suit"
            };
            ev.emit(self.all(), "forced", || args![why]);
            self.start_play(ev);
            return;
        }
        // Sec. 2.4: clockwise from the swinger's left to the dealer.
        self.queue.clear();
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
            self.after_knocks(ev);
        } else {
            self.phase = Phase::Knock;
            self.turn = self.queue.remove_first();
        }
    }

    // ----- Sec. 2.4: knocking -----

    fn apply_knock(&mut self, knock: bool, ev: &mut impl Events) {
        let p = self.turn;
        if knock {
            self.participants |= 1 << p;
        }
        let token = if knock { "knock" } else { "fold" };
        ev.emit(self.all(), "move", || args![p, token, "knock"]);
        if self.queue.is_empty() {
            self.after_knocks(ev);
        } else {
            self.turn = self.queue.remove_first();
        }
    }

    fn after_knocks(&mut self, ev: &mut impl Events) {
        if self.participants.count_ones() > 1 {
            self.start_play(ev);
            return;
        }
        if self.last_man_called {
            self.participants |= 1 << self.forehand;
            ev.emit(self.all(), "lastman", || args![self.forehand]);
            self.start_play(ev);
            return;
        }
        // Nobody knocked: the swinger takes the pot without showing his cards.
        let s = self.swinger;
        self.chips[s] += self.pot;
        ev.emit(self.all(), "lone", || args![s, self.pot]);
        let summary = RoundSummary::Lone {
            round: self.round_no,
            seat: s,
            pot: self.pot,
        };
        self.end_round(summary, ev);
    }

    // ----- Sec. 2.5 and 3: tricks -----

    fn start_play(&mut self, ev: &mut impl Events) {
        let (ps, n) = (self.participants, self.n);
        ev.emit(self.all(), "participants", || args![seats_token(ps, n)]);
        self.phase = Phase::Play;
        self.trick_no = 1;
        self.start_trick(self.swinger);
    }

    fn start_trick(&mut self, leader: Seat) {
        self.leader = leader;
        self.trick = TrickState::default();
        self.to_act.clear();
        for k in 1..self.n {
            let s = (leader + k) % self.n;
            if self.participates(s) {
                self.to_act.push(s);
            }
        }
        self.turn = leader;
    }

    fn trump_suit(&self) -> Suit {
        self.trump.expect("trump is fixed before play")
    }

    fn is_leader(&self) -> bool {
        self.trick.len == 0
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

    fn farg_refusal(&self) -> String {
        if self.is_leader() {
            "the leader cannot call Färg"
        } else if !(self.trick_no <= 2 || self.r.farg_trick3) {
            "Färg can be called only in tricks 1 and 2"
        } else if !one_suited(self.hands[self.turn]) {
            "Färg needs all your cards in one suit"
        } else {
            "Färg needs that you cannot overtake, and you can"
        }
        .into()
    }

    fn parse_play(&self, token: &str) -> Result<SvangknackAction, String> {
        let p = self.turn;
        if token == "farg" {
            return if self.farg_legal() {
                Ok(SvangknackAction::Farg)
            } else {
                Err(self.farg_refusal())
            };
        }
        let card: Card = token.parse()?;
        if !self.hands[p].contains(card) {
            return Err(format!("{card} is not in seat {p}'s hand"));
        }
        if !self.legal_cards().contains(card) {
            return Err(self.card_refusal(card));
        }
        Ok(SvangknackAction::Play(card))
    }

    fn apply_play(&mut self, action: SvangknackAction, ev: &mut impl Events) {
        let p = self.turn;
        match action {
            SvangknackAction::Play(card) => {
                self.hands[p].remove(card);
                self.trick.push((p, card));
                ev.emit(self.all(), "move", || args![p, card, "play"]);
            }
            _ => {
                ev.emit(self.all(), "move", || args![p, "farg", "play"]);
                self.trick.farg |= 1 << p;
            }
        }
        if !self.to_act.is_empty() {
            self.turn = self.to_act.remove_first();
            return;
        }
        let w = self.trick.winner(self.trump_suit()).expect("the leader played");
        self.won[w] += 1;
        ev.emit(self.all(), "trick", || args![self.trick_no, w]);
        if self.trick_no < 3 {
            self.trick_no += 1;
            self.start_trick(w);
        } else {
            self.settle(ev);
        }
    }

    // ----- Sec. 2.6-2.7 and 5: settlement, next round, session end -----

    fn settle(&mut self, ev: &mut impl Events) {
        let third = self.pot / 3;
        let mut bets = 0u32;
        for s in 0..self.n {
            if self.won[s] > 0 {
                let amount = third * self.won[s] as i64;
                self.chips[s] += amount;
                ev.emit(self.all(), "paid", || args![s, self.won[s], amount]);
            }
        }
        for s in 0..self.n {
            if self.participates(s) && self.won[s] == 0 {
                let bet = self.pot.min(self.r.bet_cap);
                self.chips[s] -= bet;
                self.carried += bet;
                bets |= 1 << s;
                ev.emit(self.all(), "bet", || args![s, bet]);
            }
        }
        let mut won = [0u8; MAX_PLAYERS];
        for (w, &x) in won.iter_mut().zip(&self.won) {
            *w = x as u8;
        }
        let summary = RoundSummary::Played {
            round: self.round_no,
            pot: self.pot,
            won,
            bets,
        };
        self.end_round(summary, ev);
    }

    fn end_round(&mut self, summary: RoundSummary, ev: &mut impl Events) {
        ev.emit(self.all(), "chips", || args![self.chips_token()]);
        self.rounds_log.push(summary);
        self.pot = 0;
        self.dealer = self.forehand;
        let min = self.r.rounds;
        if self.round_no >= min && self.carried == 0 {
            self.finish("rounds_done", ev);
        } else if self.round_no >= min + self.r.extra_cap {
            // The cap: the bets still owed are divided equally; the remainder one chip each,
            // clockwise from the (next) dealer's left.
            let total = self.carried;
            self.final_split = total;
            let n = self.n as i64;
            for c in &mut self.chips[..self.n] {
                *c += total / n;
            }
            for k in 0..(total % n) as usize {
                let s = (self.dealer + 1 + k) % self.n;
                self.chips[s] += 1;
            }
            self.carried = 0;
            ev.emit(self.all(), "split", || args![total, self.chips_token()]);
            self.finish("cap_split", ev);
        } else if let Err(e) = self.start_round(ev) {
            // Only a deal file that does not fit can fail here; end the session cleanly.
            self.deal_error = Some(e);
            self.finish("deal_error", ev);
        }
    }

    fn finish(&mut self, reason: &'static str, ev: &mut impl Events) {
        self.phase = Phase::Over;
        ev.emit(self.all(), "end", || args![reason]);
        self.ended = Some(reason);
    }

    /// The outcome of a finished session (made when asked, from the state it ended in).
    fn make_outcome(&self) -> Option<Outcome> {
        use serde_json::Value;
        let reason = self.ended?;
        let chips = &self.chips[..self.n];
        let best = (0..self.n).max_by_key(|&s| chips[s]).unwrap_or(0);
        let summary = format!(
            "{} round(s), {}; best seat {best} with {:+} chips",
            self.round_no,
            if reason == "cap_split" {
                format!("{} in bets split", self.final_split)
            } else {
                "no bets left".to_string()
            },
            chips[best]
        );
        let rounds: Vec<Value> = self.rounds_log.iter().map(|r| Value::String(r.text(self.n))).collect();
        // The keys in the order of the record.
        let mut detail = serde_json::Map::with_capacity(7);
        detail.insert("rounds".into(), self.round_no.into());
        detail.insert("deals".into(), self.deal_no.into());
        detail.insert("end".into(), reason.into());
        detail.insert("split".into(), self.final_split.into());
        detail.insert("chips".into(), chips.to_vec().into());
        detail.insert("round_summaries".into(), rounds.into());
        detail.insert("summary".into(), summary.into());
        Some(Outcome {
            scores: chips.iter().map(|&c| c as f64).collect(),
            detail: Value::Object(detail),
        })
    }
}

impl Engine for Svangknack {
    type Action = SvangknackAction;

    fn token(action: &SvangknackAction) -> Option<&'static str> {
        Some(action.token())
    }

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

    fn legal(&self, out: &mut Vec<SvangknackAction>) {
        use SvangknackAction::*;
        out.clear();
        match self.phase {
            Phase::Swing => self.swing_actions(out),
            Phase::Consent => out.extend([Agree, Refuse]),
            Phase::Trump => out.extend(self.turnup.as_slice().iter().map(|c| Trump(c.suit))),
            Phase::Knock => out.extend([Knock, Fold]),
            Phase::Play => {
                out.extend(CardSet::iter(self.legal_cards()).map(Play));
                if self.farg_legal() {
                    out.push(Farg);
                }
            }
            Phase::Over => {}
        }
    }

    fn apply<E: Events>(&mut self, action: SvangknackAction, ev: &mut E) -> Result<(), String> {
        use SvangknackAction::*;
        match action {
            Swing | Handover | HandoverLast | Redeal => self.apply_swing(action, ev)?,
            Agree | Refuse => self.apply_consent(action == Agree, ev)?,
            Trump(s) => {
                ev.emit(self.all(), "move", || args![self.swinger, s.token(), "trump"]);
                self.set_trump(s, ev);
            }
            Knock | Fold => self.apply_knock(action == Knock, ev),
            Play(_) | Farg => self.apply_play(action, ev),
        }
        match self.deal_error.take() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    fn parse(&self, token: &str) -> Result<SvangknackAction, String> {
        use SvangknackAction::*;
        match self.phase {
            Phase::Swing => {
                let mut legal = Vec::new();
                self.swing_actions(&mut legal);
                legal
                    .into_iter()
                    .find(|a| a.to_string() == token)
                    .ok_or_else(|| self.swing_refusal(token))
            }
            Phase::Consent => match token {
                "agree" => Ok(Agree),
                "refuse" => Ok(Refuse),
                _ => Err(format!(
                    "'{token}' is not an answer to a redeal proposal: agree or refuse"
                )),
            },
            Phase::Trump => token
                .parse::<Suit>()
                .ok()
                .filter(|s| self.turnup.as_slice().iter().any(|c| c.suit == *s))
                .map(Trump)
                .ok_or_else(|| {
                    format!(
                        "'{token}' is not a suit of the turned cards: choose {}",
                        self.trump_tokens()
                    )
                }),
            Phase::Knock => match token {
                "knock" => Ok(Knock),
                "fold" => Ok(Fold),
                _ => Err(format!("'{token}' is not a knock decision: knock or fold")),
            },
            Phase::Play => self.parse_play(token),
            Phase::Over => Err("the game is over".into()),
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        self.make_outcome()
    }

    /// The chips each seat won or lost, without the summaries of every round.
    fn scores(&self) -> Option<Vec<f64>> {
        self.ended?;
        Some(self.chips[..self.n].iter().map(|&c| c as f64).collect())
    }

    fn chance(&self) -> &Chance {
        &self.chance
    }

    fn chance_mut(&mut self) -> &mut Chance {
        &mut self.chance
    }
}

#[cfg(test)]
mod tests {
    use super::push_int;

    #[test]
    fn numbers_are_written_as_display_writes_them() {
        for v in [0, 7, -3, 10, -10, 1234567, i64::MAX, i64::MIN] {
            let mut t = String::from("x");
            push_int(&mut t, v);
            assert_eq!(t, format!("x{v}"));
        }
    }
}
