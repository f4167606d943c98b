//! The game abstraction every rules engine implements, and the events that carry visibility.
//!
//! Rules engines are written against the typed [`Engine`](crate::engine::Engine) trait (see [`crate::engine`]); the
//! string interface here, [`Game`], is what the referee, records and process bots use, and
//! [`Typed`](crate::engine::Typed) derives it from any engine. (Engines not converted yet implement [`Game`] directly.)
//!
//! A game is a state machine: whose turn it is, the legal actions of that seat, applying an
//! action, and the final result. Every change of state is reported as an [`Event`] with an
//! [`Audience`]; the referee routes each event to exactly the seats in its audience, and the
//! seat views ([`SeatView`]) that bots, logs and search bots use are folded from those routed
//! events only. A rules engine therefore decides *once*, at the place it changes state, who
//! may learn about the change.

use crate::cards::Card;
use crate::chance::Chance;
use crate::options::{OptionSpec, Options};
use serde_json::Value;
use std::fmt;

pub use crate::seat::Seat;

/// Who may see an event: a bit set over seats. The empty set means "the referee only"
/// (the event is kept in the record but sent to nobody).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Audience(pub u32);

impl Audience {
    /// Every seat of an `n`-player game.
    pub fn all(n: usize) -> Audience {
        Audience(((1u64 << n) - 1) as u32)
    }
    /// One seat only.
    pub fn seat(s: Seat) -> Audience {
        Audience(1 << s)
    }
    /// Every seat except `s`.
    pub fn all_except(n: usize, s: Seat) -> Audience {
        Audience(Audience::all(n).0 & !(1 << s))
    }
    /// No seat: kept for the record only.
    pub fn referee() -> Audience {
        Audience(0)
    }
    pub fn seats(seats: &[Seat]) -> Audience {
        Audience(seats.iter().fold(0, |m, &s| m | (1 << s)))
    }
    pub fn contains(self, s: Seat) -> bool {
        self.0 & (1 << s) != 0
    }
    pub fn members(self, n: usize) -> impl Iterator<Item = Seat> {
        (0..n).filter(move |&s| self.contains(s))
    }
    /// The one seat of a single-seat audience (a private event), if it is one.
    pub fn only(self, n: usize) -> Option<Seat> {
        let mut m = self.members(n);
        match (m.next(), m.next()) {
            (Some(s), None) => Some(s),
            _ => None,
        }
    }
}

/// One argument of an event: typed inside the process (a number, a card, a fixed word), text
/// only where a line is written ([`Display`](fmt::Display)) or was read from one (`Text`).
///
/// Engines make events with typed arguments and views read them back typed
/// ([`Arg::parse`], [`Arg::card`]): no token is written or parsed on the way from
/// a rules engine to an in-process bot. An argument read from a protocol line is `Text`, and
/// reads the same: `parse` of `Text("7")` and of `Int(7)` give 7, and they are equal, as
/// arguments compare by the token they write.
#[derive(Clone)]
pub enum Arg {
    Int(i64),
    Card(Card),
    /// A token fixed in the program (`pass`, `three_aces`).
    Word(&'static str),
    /// Any other token (made at run time, or read from a line).
    Text(String),
    /// A game's action as the game's own number for it, which that game's views read instead
    /// of parsing a token ([`Arg::action_code`]), and the game's function that writes its
    /// token: the token is made only where a line is written. Read from a line, the same
    /// action is `Text`.
    Action {
        code: u64,
        write: fn(u64, &mut fmt::Formatter<'_>) -> fmt::Result,
    },
}

/// Why an argument is not what a view asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ArgError;

impl fmt::Display for ArgError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("not an argument of this type")
    }
}

/// A value an [`Arg`] can be read as ([`Arg::parse`]): directly from a typed argument, by
/// parsing from `Text`.
pub trait FromArg: Sized {
    fn from_arg(arg: &Arg) -> Result<Self, ArgError>;
}

/// Typed arguments are read inline (views read every card of every event they see); a token
/// is parsed out of line.
impl FromArg for Card {
    #[inline]
    fn from_arg(arg: &Arg) -> Result<Card, ArgError> {
        match arg {
            Arg::Card(c) => Ok(*c),
            other => card_from_token(other),
        }
    }
}

fn card_from_token(arg: &Arg) -> Result<Card, ArgError> {
    match arg {
        Arg::Card(c) => Ok(*c),
        Arg::Text(t) => Card::from_token(t).ok_or(ArgError),
        Arg::Word(w) => Card::from_token(w).ok_or(ArgError),
        Arg::Action { .. } => Card::from_token(&arg.to_string()).ok_or(ArgError),
        Arg::Int(_) => Err(ArgError),
    }
}

impl FromArg for String {
    fn from_arg(arg: &Arg) -> Result<String, ArgError> {
        Ok(arg.to_string())
    }
}

macro_rules! int_args {
    ($($t:ty),*) => {$(
        impl FromArg for $t {
            #[inline]
            fn from_arg(arg: &Arg) -> Result<$t, ArgError> {
                match arg {
                    Arg::Int(i) => <$t>::try_from(*i).map_err(|_| ArgError),
                    other => int_from_token(other),
                }
            }
        }
        impl From<$t> for Arg {
            fn from(v: $t) -> Arg {
                Arg::Int(v as i64)
            }
        }
    )*};
}
int_args!(i64, u64, usize, u32, i32, u16, u8);

fn int_from_token<T: std::str::FromStr>(arg: &Arg) -> Result<T, ArgError> {
    match arg {
        Arg::Text(t) => t.parse().map_err(|_| ArgError),
        Arg::Word(w) => w.parse().map_err(|_| ArgError),
        Arg::Action { .. } => arg.to_string().parse().map_err(|_| ArgError),
        Arg::Int(_) | Arg::Card(_) => Err(ArgError),
    }
}

impl FromArg for f64 {
    fn from_arg(arg: &Arg) -> Result<f64, ArgError> {
        match arg {
            Arg::Int(i) => Ok(*i as f64),
            other => int_from_token(other),
        }
    }
}

impl Arg {
    /// The argument as a `T` (as `str::parse` reads a token, without making one).
    #[inline]
    pub fn parse<T: FromArg>(&self) -> Result<T, ArgError> {
        T::from_arg(self)
    }
    /// The argument as a card, if it is one.
    #[inline]
    pub fn card(&self) -> Option<Card> {
        Card::from_arg(self).ok()
    }
    /// The token as text (borrowed for words and text, written for numbers, cards and
    /// actions).
    pub fn text(&self) -> std::borrow::Cow<'_, str> {
        match self {
            Arg::Word(w) => std::borrow::Cow::Borrowed(w),
            Arg::Text(t) => std::borrow::Cow::Borrowed(t.as_str()),
            other => std::borrow::Cow::Owned(other.to_string()),
        }
    }
    /// The game's number of an [`Arg::Action`] (`None` for any other argument: a token to
    /// parse).
    #[inline]
    pub fn action_code(&self) -> Option<u64> {
        match self {
            Arg::Action { code, .. } => Some(*code),
            _ => None,
        }
    }
}

impl fmt::Display for Arg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Arg::Int(i) => write!(f, "{i}"),
            Arg::Card(c) => c.fmt(f),
            Arg::Word(w) => f.write_str(w),
            Arg::Text(t) => f.write_str(t),
            Arg::Action { code, write } => write(*code, f),
        }
    }
}

/// As derived, but an action shows its token (`Action(2S)`), not its number and writer.
impl fmt::Debug for Arg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Arg::Int(i) => f.debug_tuple("Int").field(i).finish(),
            Arg::Card(c) => f.debug_tuple("Card").field(c).finish(),
            Arg::Word(w) => f.debug_tuple("Word").field(w).finish(),
            Arg::Text(t) => f.debug_tuple("Text").field(t).finish(),
            Arg::Action { .. } => write!(f, "Action({self})"),
        }
    }
}

/// Arguments are equal when they write the same token (`Int(7)` and `Text("7")`).
impl PartialEq for Arg {
    fn eq(&self, other: &Arg) -> bool {
        match (self, other) {
            (Arg::Int(a), Arg::Int(b)) => a == b,
            (Arg::Card(a), Arg::Card(b)) => a == b,
            (Arg::Word(a), Arg::Word(b)) => a == b,
            // One game's action (one writer, one number): the same token, without writing it.
            // (Two copies of one writer compare by their tokens, below.)
            (Arg::Action { code: a, write: wa }, Arg::Action { code: b, write: wb })
                if a == b && std::ptr::fn_addr_eq(*wa, *wb) =>
            {
                true
            }
            _ => self.text() == other.text(),
        }
    }
}

impl Eq for Arg {}

impl PartialEq<str> for Arg {
    fn eq(&self, other: &str) -> bool {
        match self {
            Arg::Word(w) => *w == other,
            Arg::Text(t) => t == other,
            _ => self.text() == other,
        }
    }
}

impl PartialEq<&str> for Arg {
    fn eq(&self, other: &&str) -> bool {
        self == *other
    }
}

impl PartialEq<String> for Arg {
    fn eq(&self, other: &String) -> bool {
        self == other.as_str()
    }
}

impl From<Card> for Arg {
    fn from(c: Card) -> Arg {
        Arg::Card(c)
    }
}

impl From<&'static str> for Arg {
    fn from(w: &'static str) -> Arg {
        Arg::Word(w)
    }
}

impl From<crate::cards::Suit> for Arg {
    fn from(s: crate::cards::Suit) -> Arg {
        Arg::Word(["S", "H", "D", "C"][s.index()])
    }
}

impl FromArg for crate::cards::Suit {
    fn from_arg(arg: &Arg) -> Result<crate::cards::Suit, ArgError> {
        arg.text().parse().map_err(|_| ArgError)
    }
}

impl From<char> for Arg {
    fn from(c: char) -> Arg {
        Arg::Text(c.to_string())
    }
}

impl From<String> for Arg {
    fn from(t: String) -> Arg {
        Arg::Text(t)
    }
}

/// Arguments as the tokens they write (for tools that read events as text: `show`).
pub fn texts(args: &[Arg]) -> Vec<String> {
    args.iter().map(Arg::to_string).collect()
}

/// A protocol line's arguments read as text (what `croupier bot` and the tools parse).
pub fn text_args<'a>(tokens: impl IntoIterator<Item = &'a str>) -> Args {
    tokens.into_iter().map(|t| Arg::Text(t.to_string())).collect()
}

/// An action type as an event argument (`impl From<Action> for Arg`): the variants that hold
/// the card which is their whole token stay typed (`action_arg!(KulAction, KulAction::Play)`),
/// every other action is its token. Debug builds check that the argument writes the token.
#[macro_export]
macro_rules! action_arg {
    ($t:ty $(, $card:path)*) => {
        impl From<$t> for $crate::game::Arg {
            fn from(a: $t) -> $crate::game::Arg {
                let arg = match a {
                    $($card(c) => $crate::game::Arg::Card(c),)*
                    #[allow(unreachable_patterns)]
                    other => $crate::game::Arg::Text(other.to_string()),
                };
                debug_assert_eq!(arg.to_string(), a.to_string(), "an action's argument writes its token");
                arg
            }
        }
    };
}

/// An event's arguments. Most events have three or fewer; they are kept inline, so that making
/// an event allocates nothing (a `Vec` per event was most of the allocator's work in a game of
/// built-in bots). A longer list (a hand of cards) is kept on the heap as a `Vec` would be.
pub type Args = smallvec::SmallVec<[Arg; 3]>;

/// A change of state, as a protocol line `kind arg arg …` plus who may see it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Event {
    pub to: Audience,
    pub kind: &'static str,
    pub args: Args,
}

impl Event {
    pub fn new(to: Audience, kind: &'static str, args: impl Into<Args>) -> Event {
        let args = args.into();
        Event { to, kind, args }
    }
    /// The protocol line for this event (without the newline).
    pub fn line(&self) -> String {
        crate::notation::notification(self.kind, &self.args)
    }
}

/// Builds an event's argument list from typed values: `args![seat, card, "pass"]` (numbers,
/// cards, fixed words, or `String`s).
#[macro_export]
macro_rules! args {
    ($($x:expr),* $(,)?) => { $crate::smallvec::smallvec![$($crate::game::Arg::from($x)),*] as $crate::game::Args };
}

/// The end of a game: a score per seat (index = seat), and a short machine-readable summary.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    pub scores: Vec<f64>,
    /// Game-specific facts about how it ended (contract, tricks, …), for records and summaries.
    pub detail: Value,
}

/// A rules engine for one game (the unit that ends with a final score per seat).
///
/// The referee drives it: while `to_move()` is `Some(seat)`, it asks that seat to choose one of
/// `legal_actions()` and calls `apply`. After each `apply` (and after construction) it takes the
/// new events with `take_events()` and routes them. Actions that public information forces
/// (a player who has passed re-passing, automatic announcements) are performed by the engine
/// itself and only appear as events. Chance (dealing) goes through the [`Chance`] the engine was
/// built with, so that deals are seeded, recorded and replayable.
pub trait Game: Send + CloneGame {
    fn players(&self) -> usize;
    /// The seat that must decide now, or `None` when the game is over.
    fn to_move(&self) -> Option<Seat>;
    /// What kind of decision is asked (`bid`, `trump`, `call`, `play`, …); one word.
    fn decision(&self) -> &'static str;
    /// The legal action tokens of the seat to move, in a stable order. Never empty while a seat
    /// is to move.
    fn legal_actions(&self) -> Vec<String>;
    /// Applies an action of the seat to move. An illegal or unknown token is refused with a
    /// message that says why, and the state is unchanged.
    fn apply(&mut self, action: &str) -> Result<(), String>;
    /// Events produced since the last call, in order.
    fn take_events(&mut self) -> Vec<Event>;
    /// The same events appended to `out`: a caller that takes them after every action keeps
    /// one buffer, and the engine keeps its own (no allocation per action).
    fn take_events_into(&mut self, out: &mut Vec<Event>) {
        out.append(&mut self.take_events());
    }
    /// Whether legal actions by index ([`legal_count`](Game::legal_count) and the rest) are
    /// cheap: true for typed engines; the defaults below make every token each time.
    fn indexed(&self) -> bool {
        false
    }
    /// The number of legal actions of the seat to move; they are then addressed by index with
    /// [`legal_token`](Game::legal_token) and [`apply_legal`](Game::apply_legal), in the order
    /// of `legal_actions`, without making every token. (Defaults through `legal_actions`.)
    fn legal_count(&mut self) -> usize {
        self.legal_actions().len()
    }
    /// The token of legal action `i` (after [`legal_count`](Game::legal_count)).
    fn legal_token(&self, i: usize) -> String {
        self.legal_actions().swap_remove(i)
    }
    /// Writes the token of legal action `i` into `out` (after [`legal_count`](Game::legal_count)):
    /// a referee that keeps its token buffers allocates nothing for them.
    fn write_legal_token(&self, i: usize, out: &mut String) {
        out.push_str(&self.legal_token(i));
    }
    /// The index of `token` among the legal actions of the last
    /// [`legal_count`](Game::legal_count), or `None` when it is none of them: without a list of
    /// every token (a typed engine compares each legal action's token in turn). That list, which
    /// [`legal_token`](Game::legal_token) and [`apply_legal`](Game::apply_legal) address, stays
    /// as it was until the next `legal_count`, also when an action is applied, where the game is
    /// [`indexed`](Game::indexed).
    fn legal_index(&self, token: &str) -> Option<usize> {
        self.legal_actions().iter().position(|t| t == token)
    }
    /// The legal actions of the seat to move as the engine's own typed values, in the order of
    /// the tokens (after [`legal_count`](Game::legal_count)): a `Vec` of the game's action type,
    /// for a policy that reads them typed ([`GameSpec::typed_policy`]). `None` where the game
    /// has no typed engine.
    fn typed_legal(&self) -> Option<&dyn std::any::Any> {
        None
    }
    /// Applies legal action `i` (after [`legal_count`](Game::legal_count)).
    fn apply_legal(&mut self, i: usize) -> Result<(), String> {
        let token = self.legal_token(i);
        self.apply(&token)
    }
    /// The outcome, once the game is over.
    fn outcome(&self) -> Option<Outcome>;
    /// The outcome's scores alone, once the game is over, for a caller that keeps no detail (a
    /// match that records nothing, a search playout). The same scores as
    /// [`outcome`](Self::outcome)'s; an engine whose detail costs more than its scores (text,
    /// JSON) works them out without it.
    fn scores(&self) -> Option<Vec<f64>> {
        self.outcome().map(|o| o.scores)
    }
    /// Where a session stands at the points where it can be scored, for search: a playout can
    /// stop at the next such point instead of playing on through deals that no decision now
    /// changes. The number of such points passed so far, and each seat's score as the session
    /// stands there: exact where a game of the session has just been settled, else the game's
    /// estimate (Kul: the pot shared by the chances of the marks so far; Schwimmen: places
    /// expected from the lives left). `None` (the default): the game has no such points.
    fn standing(&self) -> Option<(u64, Vec<f64>)> {
        None
    }
    /// The chance source, whose log holds every deal made so far.
    fn chance(&self) -> &Chance;
    /// Queues a deal for the next time the game deals (what a deal file does): a search bot
    /// plays a world it sampled this way. `spec` must fit the rules, or that deal fails.
    fn give_deal(&mut self, spec: crate::chance::DealSpec);
    /// Deals from `seed` from now on (a sampled world's future deals are its own).
    fn reseed(&mut self, seed: u64);
    /// Makes no events from now on (a search's copy of a game, played without seat views).
    fn quiet(&mut self) {}
    /// Keeps from now on only the events `seat` receives, and drops the others not yet taken
    /// (a search's replay, which compares only its own seat's lines: the others' events are
    /// not made). The default: every event is kept.
    fn hear_only(&mut self, _seat: Seat) {}
    /// The cards `seat` holds now, as its seat view's [`held`](SeatView::held) has them (the
    /// same cards; the order may differ), read from the game itself: a search replays a deal
    /// on a world without views and reads a seat's hand here. `None` (the default): the game
    /// does not tell.
    fn seat_cards(&self, _seat: Seat) -> Option<Vec<crate::cards::Card>> {
        None
    }
    /// Whether [`playout_index`](Game::playout_index) and [`play_out`](Game::play_out) play the
    /// game's playout policy on the game itself (a typed engine with
    /// [`EnginePolicy`](crate::engine::EnginePolicy)); false: a search
    /// plays out on seat views fed by events.
    fn has_playout_policy(&self) -> bool {
        false
    }
    /// The index of the legal action (after [`legal_count`](Game::legal_count)) that the
    /// game's playout policy chooses for the seat to move, read from the game itself; `None`
    /// where [`has_playout_policy`](Game::has_playout_policy) is false.
    fn playout_index(&self) -> Option<usize> {
        None
    }
    /// A copy of the game played out without events, with the playout policy at every seat
    /// (or at random with `random`), to the game's end or, where a search began with `since`
    /// points of the session settled, the next such point once a deal has ended
    /// ([`play_out`](crate::playout::play_out)): every seat's score there. `None` where the game
    /// cannot (no typed engine, or no [`playout_index`](Game::playout_index) without `random`).
    fn play_out(&self, _since: Option<u64>, _random: Option<&mut crate::chance::Rng>) -> Option<Vec<f64>> {
        None
    }
    /// Legal action `i` (after [`legal_count`](Game::legal_count)) and then
    /// [`play_out`](Game::play_out) with the playout policy, on one copy of the game: every
    /// seat's score where a search that began with `since` points settled stops, which may be
    /// where the action itself ended a deal or the game. What a search's playout of one of its
    /// actions is worth, without a second copy. `None` where the game cannot (as `play_out`) or
    /// `i` is not a legal action's index.
    fn play_out_after(&self, _i: usize, _since: Option<u64>) -> Option<Vec<f64>> {
        None
    }
    /// The seat to move has faulted (`kind`: `illegal`, `error`, `timeout`, `crash`, `flood`,
    /// `dead`; see protocol.md). Games whose rules attach a consequence to a failing player (a
    /// penalty, a misdeal, a forfeit) apply it here, with events like any change of state, and
    /// say how the turn goes on. The default: no rule applies, the referee plays a seeded random
    /// legal action. `replay` calls this again at the recorded faults.
    fn on_fault(&mut self, _seat: Seat, _kind: &str) -> FaultRuling {
        FaultRuling::Substitute
    }
}

/// A boxed game is cloned through this (every [`Typed`](crate::engine::Typed) engine is `Clone`): search copies the
/// worlds it samples.
pub trait CloneGame {
    fn clone_box(&self) -> Box<dyn Game>;
}

impl<T: Game + Clone + 'static> CloneGame for T {
    fn clone_box(&self) -> Box<dyn Game> {
        Box::new(self.clone())
    }
}

impl Clone for Box<dyn Game> {
    fn clone(&self) -> Box<dyn Game> {
        self.clone_box()
    }
}

/// How a game rules on a bot's fault ([`Game::on_fault`], [`Engine::on_fault`](crate::engine::Engine::on_fault)), with the
/// action type of the interface: a token for [`Game`] ([`FaultRuling`]), a typed action for
/// an [`Engine`](crate::engine::Engine).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ruling<A> {
    /// No rule applies: the referee plays a legal action drawn from the game's seed.
    Substitute,
    /// The rules name the action played for the faulty seat.
    Play(A),
    /// The rules have settled the turn themselves (say, a misdeal and a redeal): play on.
    Handled,
}

/// A ruling of the string interface: the action is a protocol token.
pub type FaultRuling = Ruling<String>;

/// What a seat knows, folded from the event lines routed to it, and nothing else.
///
/// The referee keeps one per seat to send the JSON view to bots that ask for it; built-in bots
/// keep their own from the lines they receive; `croupier show --seat` renders one.
pub trait SeatView: Send + CloneView {
    /// Folds one event line that was routed to this seat.
    fn observe(&mut self, kind: &str, args: &[Arg]);
    /// The seat's knowledge as JSON (the `view` line of the protocol): built only for a process
    /// bot that asked for it.
    fn to_json(&self) -> Value;
    /// The view as its concrete type, for the game's own policies, which read its fields
    /// directly (no JSON on the hot path).
    fn as_any(&self) -> &dyn std::any::Any;
    /// The cards the seat holds now, as its view's JSON `hand` lists them, where the view
    /// keeps them as such (a search asks often; `None`: read the JSON).
    fn held(&self) -> Option<&[crate::cards::Card]> {
        None
    }
}

/// A boxed view is cloned through this: search keeps a view per seat in every world it plays.
pub trait CloneView {
    fn clone_box(&self) -> Box<dyn SeatView>;
}

impl<T: SeatView + Clone + 'static> CloneView for T {
    fn clone_box(&self) -> Box<dyn SeatView> {
        Box::new(self.clone())
    }
}

impl Clone for Box<dyn SeatView> {
    fn clone(&self) -> Box<dyn SeatView> {
        self.clone_box()
    }
}

/// Setup facts every seat is told at the start of a game.
#[derive(Clone, Debug)]
pub struct GameInfo {
    pub game: String,
    pub options: Options,
    pub players: usize,
    pub seat: Seat,
}

/// The forfeit scores of a zero-sum game: the forfeiting seat pays `amount` to every other
/// seat.
pub fn forfeit_paying_each(players: usize, seat: Seat, amount: f64) -> Vec<f64> {
    (0..players)
        .map(|s| {
            if s == seat {
                -amount * (players - 1) as f64
            } else {
                amount
            }
        })
        .collect()
}

/// Builds a new game for `players` seats. `options` are already validated.
///
/// When `listening` is false nobody reads the game's events (every seat a built-in bot that reads
/// no view): an engine may then make none, and `take_events` returns nothing.
pub type NewGame =
    fn(players: usize, options: &Options, chance: Chance, listening: bool) -> Result<Box<dyn Game>, String>;

/// A registered game: its name, player range, options and constructors.
#[derive(Clone)]
pub struct GameSpec {
    pub name: &'static str,
    pub title: &'static str,
    /// One line for `croupier games`.
    pub summary: &'static str,
    pub min_players: usize,
    pub max_players: usize,
    pub default_players: usize,
    /// Extra lines for `croupier rules GAME` (scoring notes and the like).
    pub notes: &'static str,
    pub options: fn() -> Vec<OptionSpec>,
    /// Builds a new game. `options` are already validated against `options()`.
    pub new_game: NewGame,
    /// Builds an empty seat view for one seat.
    pub new_view: fn(info: &GameInfo) -> Box<dyn SeatView>,
    /// The built-in `simple` bot's choice, from the seat's typed view (the one `new_view`
    /// builds) and the legal actions.
    pub simple_policy: fn(view: &dyn SeatView, decision: &str, legal: &[String]) -> String,
    /// `simple_policy` on the typed legal actions ([`Game::typed_legal`]), where a game has
    /// it: the index of the action `simple_policy` chooses among their tokens, or `None` for a
    /// decision it leaves to the tokens. The built-in `simple` bot then decides without a token
    /// written or parsed. It must choose exactly as `simple_policy` (the golden corpus checks).
    pub typed_policy: Option<TypedPolicy>,
    /// `playout_policy` on the typed legal actions, as `typed_policy` is `simple_policy`'s:
    /// a search's playouts then run without tokens.
    pub typed_playout_policy: Option<TypedPolicy>,
    /// The policy a search bot (`pimc`) plays its playouts with, at every seat: its model of
    /// how the others play. `simple_policy` in every game today (the opponents a search meets
    /// most are `simple`, and a model that plays better than they do misleads it: a stronger
    /// defence against a Rikken piek made pimc refuse pieks that `simple` defenders let through);
    /// a game whose `simple` misjudges a situation badly enough to mislead the search can give
    /// a better one here.
    pub playout_policy: fn(view: &dyn SeatView, decision: &str, legal: &[String]) -> String,
    /// How sure a search bot must be to leave the playout policy's choice, in standard errors
    /// of the gain it measured (`pimc`'s `sure`, when its spec does not say). 1 where the
    /// playout policy is a good guide and a choice among many noisy actions would go astray
    /// (Rikken's auction); 0 where its choices lose by small margins that the search should
    /// take (Schwimmen).
    pub search_sure: f64,
    /// The search bots' default budget per decision as a multiple of 1,000 playouts in at most
    /// 100 worlds, found in at most 600 replays (`pimc`'s `playouts`, `samples` and `replays`,
    /// `ismcts`'s `iterations`, `worlds` and `replays`, where a bot's spec does not say): above 1
    /// only where the searches are fast enough that the 99th percentile of a decision's time
    /// stays under 50 ms on one idle core (the search-bot issue's limit), and where more worlds
    /// measured stronger on seeds no tuning used (BENCHMARKS.md, "fifteenth session").
    pub search_scale: usize,
    /// What a search bot must know of the game's lines to rebuild deals from them (most
    /// games: [`DealLines::NONE`]).
    pub deal_lines: DealLines,
    /// Default bounds of `croupier compare`'s sequential test on the mean paired score
    /// difference per deal and seat: (LOWER, UPPER), a non-regression test when UPPER = 0.
    pub compare_bounds: (f64, f64),
    /// The scores of a game that seat `seat` forfeits (`--on-fault forfeit`, or a bot
    /// disqualified by `--max-faults`): the game ends at once with these. Each game's rules
    /// document define them (section "Forfeit").
    pub forfeit: fn(players: usize, seat: Seat, options: &Options) -> Vec<f64>,
    /// Renders a sequence of events for people (`croupier show`): the whole game, or only the
    /// events one seat saw.
    pub render: fn(events: &[Event], players: usize) -> Vec<String>,
}

impl GameSpec {
    /// The index of the legal action (after [`Game::legal_count`], so that
    /// [`Game::apply_legal`] takes it) that the `simple` policy chooses for the seat to move
    /// on `view`, or the playout policy with `playout`: on the typed actions where the game's
    /// typed policy decides, else on the tokens (the first action when the choice is none of
    /// them, as the built-in bots play).
    pub fn policy_index(&self, game: &mut dyn Game, view: &dyn SeatView, playout: bool) -> usize {
        let (typed, tokens) = if playout {
            (self.typed_playout_policy, self.playout_policy)
        } else {
            (self.typed_policy, self.simple_policy)
        };
        let count = game.legal_count();
        let decision = game.decision();
        if let Some(i) = typed
            .and_then(|policy| policy(view, decision, game.typed_legal()?))
            .filter(|&i| i < count)
        {
            return i;
        }
        let legal = game.legal_actions();
        let choice = tokens(view, decision, &legal);
        legal.iter().position(|t| *t == choice).unwrap_or(0)
    }
}

/// A policy on typed legal actions: see [`GameSpec::typed_policy`].
pub type TypedPolicy = fn(view: &dyn SeatView, decision: &str, legal: &dyn std::any::Any) -> Option<usize>;

/// The lines of a game that a determinizing search (`pimc`) reads as more than events: it
/// rebuilds the deals a seat cannot see from the seat's lines, replaying them on sampled deals,
/// and most lines it only compares. These are the ones it must understand.
#[derive(Clone, Copy, Debug, Default)]
pub struct DealLines {
    /// Kinds of line telling the seat that a deal was thrown away unplayed and dealt anew
    /// (Skwitz's `reshuffle`): a sampled world must throw away as many.
    pub rejected: &'static [&'static str],
    /// Lines that exchange two cards in the open, as (kind, prefix of the first argument after
    /// the seat): the argument names the card laid down, then the card taken (Schwimmen's
    /// `move <seat> swap_<laid>_<taken> turn`). A card such a line shows in a new place is
    /// followed back to where it was dealt. Zwikken's `exchange <seat> <taken> <ten>` is one too
    /// (an empty prefix: the line's cards are the exchange's).
    pub exchanges: &'static [(&'static str, &'static str)],
    /// Lines that exchange a seat's whole hand with a pile in the open, card for card, as (kind,
    /// the first argument after the seat, the kind of the line that shows the pile): the pile's
    /// line before names the cards taken, its line after the cards laid, in the same order
    /// (Schwimmen's `move <seat> swap_all turn`, between two `middle` lines).
    pub exchanges_all: &'static [(&'static str, &'static str, &'static str)],
    /// Kinds of line `<kind> <seat> <cards…>` that show the whole hand the seat holds then
    /// (Schwimmen's `show` at the end of a round): a search that cannot make a world fit an
    /// earlier line deals that hand to the seat first.
    pub shows: &'static [&'static str],
    /// What a line tells of a card it does not name: given a deal's lines (from its `deal`
    /// line) and the place of one among them, `Some((seat, card, holds))` when that line tells
    /// that `seat` holds `card` then (`holds`) or does not. A Zwikken bid does: `ken_…` and
    /// `wait_better` are said by the seat that holds the trump ten, `pass` and `ask` by the
    /// others. A search deals its worlds to agree, instead of finding out by replaying them.
    pub tells: Option<Tells>,
}

/// [`DealLines::tells`]: from a deal's lines and the place of one, `(seat, card, holds)`.
pub type Tells = fn(lines: &[(String, Args)], at: usize) -> Option<(Seat, Card, bool)>;

impl DealLines {
    /// A game whose deals a search rebuilds from comparing lines alone.
    pub const NONE: DealLines = DealLines {
        rejected: &[],
        exchanges: &[],
        exchanges_all: &[],
        shows: &[],
        tells: None,
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arguments_compare_by_the_token_they_write() {
        fn write(code: u64, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            write!(f, "a{}", code / 2)
        }
        let action = |code| Arg::Action { code, write };
        assert_eq!(action(4), action(4));
        // Two numbers that write one token are one token; so are an action and its text.
        assert_eq!(action(4), action(5));
        assert_ne!(action(4), action(6));
        assert_eq!(action(4), Arg::Text("a2".to_string()));
        assert_eq!(Arg::Int(7), Arg::Text("7".to_string()));
        assert_eq!(Arg::Word("pass"), Arg::Word("pass"));
        assert_ne!(Arg::Word("pass"), Arg::Word("bid"));
        assert_eq!(Arg::Word("pass"), Arg::Text("pass".to_string()));
        // A debug print (pimc's traces) shows an action's token, not its number and writer.
        assert_eq!(format!("{:?}", action(4)), "Action(a2)");
        assert_eq!(format!("{:?}", Arg::Word("pass")), "Word(\"pass\")");
    }

    #[test]
    fn audiences() {
        assert_eq!(Audience::seat(2).only(4), Some(2));
        assert_eq!(Audience::all(4).only(4), None);
        assert_eq!(Audience::referee().only(4), None);
        assert_eq!(Audience::all_except(4, 1).members(4).collect::<Vec<_>>(), vec![0, 2, 3]);
        assert_eq!(Audience::seats(&[0, 3]).members(4).collect::<Vec<_>>(), vec![0, 3]);
    }
}
