//! The typed rules engine: what search plays on, and the one adapter that turns it into the
//! string interface ([`Game`]) the referee, records and process bots speak.
//!
//! A rules engine works on typed values: its actions are a small `Copy` type (an enum, a card),
//! its options are read once into fields, and it reports its changes of state to an [`Events`]
//! sink that may not listen at all. This is the shape of OpenSpiel's games (integer actions,
//! `action_to_string` only at the edge, cheap `clone`) and of shakmaty's positions (typed moves,
//! `Display`/`FromStr` at the notation boundary), adapted to events with audiences:
//!
//! - search clones an [`Engine`], asks for [`Engine::legal`] actions into a buffer it keeps,
//!   and [`Engine::apply`]s them with [`NoEvents`]: no token is written, no event argument is
//!   built, nothing is allocated except when a deal is made;
//! - [`Typed`] wraps an engine as a [`Game`]: it collects the events into a `Vec<Event>`, writes
//!   the legal actions as tokens with the action's `Display`, and reads a token back with
//!   [`Engine::parse`], which is also the one place that says why a token is refused.
//!
//! Protocol tokens therefore come from exactly two functions per game: the action's `Display`
//! and `parse`.

use crate::cards::Card;
use crate::chance::{Chance, Rng};
use crate::game::{Args, Audience, Event, FaultRuling, Game, Outcome, Ruling, Seat};
use std::fmt;

/// Where an engine reports its events. The arguments come as a closure, so a sink that does
/// not listen ([`NoEvents`], for search playouts) never builds them.
pub trait Events {
    /// Reports an event `kind args…` for the seats in `to`.
    fn emit(&mut self, to: Audience, kind: &'static str, args: impl FnOnce() -> Args);
    /// False for a sink that drops everything: an engine that gathers events before handing
    /// them over need not make them at all.
    fn listening(&self) -> bool {
        true
    }
    /// The seats whose events the sink keeps (`None`: every event, the record's too). An
    /// engine that gathers events before handing them over makes only these.
    fn only(&self) -> Option<Audience> {
        None
    }
    /// Reports events already made, in order, leaving `events` empty.
    fn emit_all(&mut self, events: &mut Vec<Event>) {
        for e in events.drain(..) {
            self.emit(e.to, e.kind, move || e.args);
        }
    }
}

/// Whether a sink that keeps only `only`'s events (`None`: every event) keeps one for `to`.
fn heard(only: Option<Audience>, to: Audience) -> bool {
    only.is_none_or(|a| a.0 & to.0 != 0)
}

/// An event sink that drops everything (search playouts).
#[derive(Clone, Copy, Debug, Default)]
pub struct NoEvents;

impl Events for NoEvents {
    fn emit_all(&mut self, events: &mut Vec<Event>) {
        events.clear();
    }
    #[inline]
    fn emit(&mut self, _to: Audience, _kind: &'static str, _args: impl FnOnce() -> Args) {}
    fn listening(&self) -> bool {
        false
    }
}

/// The events a [`Typed`] game collects: every one (what the referee routes and records), or
/// only those some seats receive ([`Game::hear_only`]): a search's replay compares only its own
/// seat's lines, and the arguments of the others' events are then never built.
#[derive(Clone, Debug, Default)]
struct Gathered {
    events: Vec<Event>,
    only: Option<Audience>,
}

impl Events for Gathered {
    fn emit(&mut self, to: Audience, kind: &'static str, args: impl FnOnce() -> Args) {
        if heard(self.only, to) {
            self.events.push(Event::new(to, kind, args()));
        }
    }
    fn only(&self) -> Option<Audience> {
        self.only
    }
    fn emit_all(&mut self, events: &mut Vec<Event>) {
        if self.only.is_some() {
            events.retain(|e| heard(self.only, e.to));
        }
        self.events.append(events);
    }
}

/// Collects every event, in order (what the referee routes and records).
impl Events for Vec<Event> {
    fn emit(&mut self, to: Audience, kind: &'static str, args: impl FnOnce() -> Args) {
        self.push(Event::new(to, kind, args()));
    }
    /// One copy of the whole list.
    fn emit_all(&mut self, events: &mut Vec<Event>) {
        self.append(events);
    }
}

/// The events of an action being applied, for an engine that emits them from many places
/// through `&mut self`: gathered here, then handed to the caller's sink when the action is
/// done. It keeps nothing, and runs no argument closure, when that sink does not listen.
#[derive(Clone, Debug, Default)]
pub struct Pending {
    listen: bool,
    /// The seats whose events the sink keeps (`None`: every event).
    only: Option<Audience>,
    events: Vec<Event>,
}

/// A buffer is a sink itself: what a game's construction emits, gathered for [`Typed`].
impl Events for Pending {
    fn emit(&mut self, to: Audience, kind: &'static str, args: impl FnOnce() -> Args) {
        Pending::emit(self, to, kind, args);
    }
    fn listening(&self) -> bool {
        self.listen
    }
    fn only(&self) -> Option<Audience> {
        self.only
    }
}

impl Pending {
    /// An empty buffer that listens when `events` does, to what it keeps.
    pub fn new(events: &impl Events) -> Pending {
        Pending {
            listen: events.listening(),
            only: events.only(),
            events: Vec::new(),
        }
    }
    /// Listens from now on when `events` does, to what it keeps (at the start of an action).
    pub fn listen_to(&mut self, events: &impl Events) {
        self.listen = events.listening();
        self.only = events.only();
    }
    /// Whether the sink of this action listens (work done only for events can be skipped).
    pub fn listening(&self) -> bool {
        self.listen
    }
    pub fn emit(&mut self, to: Audience, kind: &'static str, args: impl FnOnce() -> Args) {
        if self.listen && heard(self.only, to) {
            self.events.push(Event::new(to, kind, args()));
        }
    }
    /// Hands what was gathered to `events`, in order.
    pub fn hand_over(&mut self, events: &mut impl Events) {
        events.emit_all(&mut self.events);
    }
}

/// A rules engine with typed actions, for one game (the unit that ends with a score per seat).
///
/// While [`to_move`](Engine::to_move) is `Some(seat)`, that seat chooses one of the
/// [`legal`](Engine::legal) actions and it is [`apply`](Engine::apply)'d. Actions that public
/// information forces are made by the engine itself and only appear as events. Chance
/// (dealing) goes through the engine's [`Chance`], so deals are seeded, logged and
/// replayable; cloning an engine clones its chance, so a clone deals what the original would.
///
/// The constructor of an engine takes an `&mut impl Events` too: starting a game emits events
/// (an ante, a deal, the hands).
///
/// [`Typed`] derives the string interface ([`Game`]) from this trait; see the module docs.
pub trait Engine: Clone + Send + 'static {
    /// One action. Compact (`Copy`, no heap); `Display` writes the protocol token, and is the
    /// only place tokens are made.
    type Action: Copy + Eq + fmt::Debug + fmt::Display + Send + 'static;

    fn players(&self) -> usize;
    /// The seat that must decide now, or `None` when the game is over.
    fn to_move(&self) -> Option<Seat>;
    /// What kind of decision is asked (`bid`, `trump`, `call`, `play`, …); one word.
    fn decision(&self) -> &'static str;
    /// The legal actions of the seat to move, in the protocol's stable order, written into
    /// `out` (cleared first): no allocation once `out` has grown. Never empty while a seat is
    /// to move.
    fn legal(&self, out: &mut Vec<Self::Action>);
    /// Applies a legal action of the seat to move (anything else is a bug of the caller and
    /// may panic or corrupt the state). Allocates only when a deal is made.
    ///
    /// `Err` only when the deal that the action leads to is a given one (a deal file) that
    /// does not fit the rules; seeded deals never fail. The state is then not to be played on.
    fn apply<E: Events>(&mut self, action: Self::Action, events: &mut E) -> Result<(), String>;
    /// A protocol token as an action of the seat to move, or why it is refused: not an action
    /// of this decision, or not legal now. These messages are made here and nowhere else.
    fn parse(&self, token: &str) -> Result<Self::Action, String>;
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
    /// The action's token where it is a fixed string, which is written without the formatting
    /// machinery (a record keeps every action's token); `None` (the default): its `Display`.
    /// Must be what `Display` writes.
    fn token(_action: &Self::Action) -> Option<&'static str> {
        None
    }
    /// The chance source, whose log holds every deal made so far.
    fn chance(&self) -> &Chance;
    /// The chance source, to queue a deal ([`Chance::give`]).
    fn chance_mut(&mut self) -> &mut Chance;
    /// The cards `seat` holds now, as its seat view's [`held`](crate::game::SeatView::held)
    /// has them (the same cards; the order may differ): what a search's repairs read of a
    /// world without views. `None` (the default): the engine does not tell.
    fn seat_cards(&self, _seat: Seat) -> Option<Vec<Card>> {
        None
    }
    /// The seat to move has faulted; as [`Game::on_fault`], with a typed action. The default:
    /// no rule applies, the referee plays a seeded random legal action.
    fn on_fault<E: Events>(&mut self, _seat: Seat, _kind: &str, _events: &mut E) -> Ruling<Self::Action> {
        Ruling::Substitute
    }
}

/// The string interface ([`Game`]) of a typed engine: events are collected into a
/// `Vec<Event>` for [`Game::take_events`], legal actions become tokens with the action's
/// `Display`, and a token is read back with [`Engine::parse`] (whose message is the refusal).
#[derive(Clone)]
pub struct Typed<G: Engine> {
    engine: G,
    events: Gathered,
    /// False when nobody reads the events: actions are then applied with [`NoEvents`].
    listening: bool,
    /// The legal actions of the last [`Game::legal_count`], addressed by index.
    legal: Vec<G::Action>,
    /// The game's playout policy on the engine, if it has one
    /// ([`with_playout_policy`](Typed::with_playout_policy)).
    playout: Option<EnginePolicy<G>>,
}

/// A game's playout policy ([`GameSpec::playout_policy`](crate::game::GameSpec::playout_policy),
/// `simple`'s in every game) on the engine itself, for the seat to move: the index in `legal`
/// (the engine's [`legal`](Engine::legal) actions, in their order) of the action the policy
/// chooses on that seat's view. It reads only what that seat may see and chooses exactly as
/// the policy on the view fed by events; the games' `typed_playouts` test holds every game to
/// that at every decision of many sessions. A search plays out with it
/// ([`play_out`]) without events, views or tokens.
///
/// A game's policy is written above its engine (it reads the engine's state), so the engine
/// does not name it: the game's spec attaches it to the [`Typed`] game it builds.
///
/// A search does not ask it where the seat has one legal action (`policy_index`): its answer
/// can only be 0, and the last tricks of a deal and many a follow are forced.
pub type EnginePolicy<G> = fn(&G, &[<G as Engine>::Action]) -> usize;

/// The index `policy` chooses among `legal` for the seat to move in `g`: 0, without asking
/// it, where there is one legal action.
fn policy_index<G: Engine>(policy: EnginePolicy<G>, g: &G, legal: &[G::Action]) -> usize {
    if legal.len() == 1 {
        0
    } else {
        policy(g, legal)
    }
}

impl<G: Engine> Typed<G> {
    /// Builds the engine with `build`, keeping the events its construction emits.
    pub fn new(build: impl FnOnce(&mut Pending) -> Result<G, String>) -> Result<Typed<G>, String> {
        Typed::listening(true, build)
    }

    /// Builds the engine with `build`; when nobody will read the events (`listening` false:
    /// every seat a built-in bot that reads no view), none is made, from the deal on.
    pub fn listening(
        listening: bool,
        build: impl FnOnce(&mut Pending) -> Result<G, String>,
    ) -> Result<Typed<G>, String> {
        let mut gathered = Pending {
            listen: listening,
            only: None,
            events: Vec::new(),
        };
        let engine = build(&mut gathered)?;
        Ok(Typed {
            engine,
            events: Gathered {
                events: gathered.events,
                only: None,
            },
            listening,
            legal: Vec::new(),
            playout: None,
        })
    }

    /// The game with its playout policy on the engine (see [`EnginePolicy`]): a search then
    /// plays out on the engine ([`Game::play_out`], [`Game::playout_index`]).
    pub fn with_playout_policy(mut self, policy: EnginePolicy<G>) -> Typed<G> {
        self.playout = Some(policy);
        self
    }

    /// The typed engine inside.
    pub fn engine(&self) -> &G {
        &self.engine
    }
}

/// A `Typed<G>` reads as its engine (its accessors, for tests and tools).
impl<G: Engine> std::ops::Deref for Typed<G> {
    type Target = G;
    fn deref(&self) -> &G {
        &self.engine
    }
}

impl<G: Engine> Game for Typed<G> {
    fn players(&self) -> usize {
        self.engine.players()
    }

    fn to_move(&self) -> Option<Seat> {
        self.engine.to_move()
    }

    fn decision(&self) -> &'static str {
        self.engine.decision()
    }

    fn legal_actions(&self) -> Vec<String> {
        let mut legal = Vec::new();
        self.engine.legal(&mut legal);
        legal.iter().map(|a| a.to_string()).collect()
    }

    fn apply(&mut self, token: &str) -> Result<(), String> {
        let action = self.engine.parse(token)?;
        if self.listening {
            self.engine.apply(action, &mut self.events)
        } else {
            self.engine.apply(action, &mut NoEvents)
        }
    }

    fn take_events(&mut self) -> Vec<Event> {
        std::mem::take(&mut self.events.events)
    }

    fn take_events_into(&mut self, out: &mut Vec<Event>) {
        out.append(&mut self.events.events);
    }

    fn indexed(&self) -> bool {
        true
    }

    fn legal_count(&mut self) -> usize {
        self.engine.legal(&mut self.legal);
        self.legal.len()
    }

    fn legal_token(&self, i: usize) -> String {
        self.legal[i].to_string()
    }

    /// By each legal action's token compared with `token`: a fixed token as it is, another
    /// written into one buffer (reading the token instead costs more where `parse` works out
    /// every legal action, as Skwitz's captures).
    fn legal_index(&self, token: &str) -> Option<usize> {
        use std::fmt::Write;
        thread_local! {
            static BUFFER: std::cell::RefCell<String> = const { std::cell::RefCell::new(String::new()) };
        }
        BUFFER.with_borrow_mut(|buf| {
            self.legal.iter().position(|a| match G::token(a) {
                Some(t) => t == token,
                None => {
                    buf.clear();
                    let _ = write!(buf, "{a}");
                    buf == token
                }
            })
        })
    }

    fn write_legal_token(&self, i: usize, out: &mut String) {
        use std::fmt::Write;
        match G::token(&self.legal[i]) {
            Some(t) => {
                debug_assert_eq!(t, self.legal[i].to_string(), "Engine::token and Display differ");
                out.push_str(t)
            }
            None => {
                let _ = write!(out, "{}", self.legal[i]);
            }
        }
    }

    fn typed_legal(&self) -> Option<&dyn std::any::Any> {
        Some(&self.legal)
    }

    fn apply_legal(&mut self, i: usize) -> Result<(), String> {
        let action = self.legal[i];
        if self.listening {
            self.engine.apply(action, &mut self.events)
        } else {
            self.engine.apply(action, &mut NoEvents)
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        self.engine.outcome()
    }

    fn scores(&self) -> Option<Vec<f64>> {
        self.engine.scores()
    }

    fn standing(&self) -> Option<(u64, Vec<f64>)> {
        self.engine.standing()
    }

    fn give_deal(&mut self, spec: crate::chance::DealSpec) {
        self.engine.chance_mut().give(spec);
    }

    fn reseed(&mut self, seed: u64) {
        self.engine.chance_mut().reseed(seed);
    }

    fn chance(&self) -> &Chance {
        self.engine.chance()
    }

    fn quiet(&mut self) {
        self.listening = false;
        self.events.events.clear();
    }

    fn hear_only(&mut self, seat: Seat) {
        let only = Some(Audience::seat(seat));
        self.events.events.retain(|e| heard(only, e.to));
        self.events.only = only;
    }

    fn has_playout_policy(&self) -> bool {
        self.playout.is_some()
    }

    fn seat_cards(&self, seat: Seat) -> Option<Vec<Card>> {
        self.engine.seat_cards(seat)
    }

    fn playout_index(&self) -> Option<usize> {
        self.playout
            .map(|policy| policy_index(policy, &self.engine, &self.legal))
    }

    fn play_out(&self, since: Option<u64>, random: Option<&mut Rng>) -> Option<Vec<f64>> {
        match (random, self.playout) {
            (Some(rng), _) => Some(play_out(
                self.engine.clone(),
                |_, legal| rng.below(legal.len() as u64) as usize,
                since,
            )),
            (None, Some(policy)) => Some(play_out_sketched(&self.engine, policy, since)),
            (None, None) => None,
        }
    }

    fn play_out_after(&self, i: usize, since: Option<u64>) -> Option<Vec<f64>> {
        let policy = self.playout?;
        play_out_after(&self.engine, *self.legal.get(i)?, policy, since)
    }

    fn on_fault(&mut self, seat: Seat, kind: &str) -> FaultRuling {
        let ruling = if self.listening {
            self.engine.on_fault(seat, kind, &mut self.events)
        } else {
            self.engine.on_fault(seat, kind, &mut NoEvents)
        };
        match ruling {
            Ruling::Substitute => Ruling::Substitute,
            Ruling::Play(a) => Ruling::Play(a.to_string()),
            Ruling::Handled => Ruling::Handled,
        }
    }
}

/// Whether a playout or search that began with `since` points settled stops now, with the
/// game's deal count `now` and the count when it was last looked at kept in `deals`: the
/// standing's scores (`standing`: [`Game::standing`]) if so.
pub fn settled_after(
    since: Option<u64>,
    deals: &mut usize,
    now: usize,
    standing: impl FnOnce() -> Option<(u64, Vec<f64>)>,
) -> Option<Vec<f64>> {
    let k0 = since?;
    if now == *deals {
        return None;
    }
    *deals = now;
    standing().filter(|(k, _)| *k > k0).map(|(_, s)| s)
}

/// Plays `engine` out without events, each decision made by `choose` (the game's
/// [`EnginePolicy`], or a random choice) on the engine and its legal actions, to where a search
/// that began with `since` points settled stops ([`crate::playout`]). Every seat's score there (zeros
/// if the game could not go on: a given deal that does not fit). With the game's policy it
/// chooses and stops as [`play_out_on_views`](crate::playout::play_out_on_views) does, so a search's decisions do not depend on
/// which of the two it plays out with.
pub fn play_out<G: Engine>(
    engine: G,
    mut choose: impl FnMut(&G, &[G::Action]) -> usize,
    since: Option<u64>,
) -> Vec<f64> {
    run_out(engine, &mut choose, since, false).unwrap_or_default()
}

/// [`play_out`] of a copy of `start` with the game's playout policy (deterministic), where the
/// deals it makes are first only sketched ([`Chance::sketch`]): a playout of a session game
/// mostly stops at the first point the session is scored after a deal ends
/// ([`settled_after`]), which is when the next deal has just been made, and looks at none of
/// its cards; shuffling that deal with ChaCha was a sixth of a Svängknack or Kul search. Where
/// the playout would go on into a sketched deal (or end the game after one), it is played again
/// from `start` with real deals: the same scores as [`play_out`] in every case, as the policy
/// chooses the same actions up to that deal, and the standing at a deal's start does not
/// depend on its cards (the games' `typed_playouts` test).
pub fn play_out_sketched<G: Engine>(start: &G, policy: EnginePolicy<G>, since: Option<u64>) -> Vec<f64> {
    let mut choose = |g: &G, legal: &[G::Action]| policy_index(policy, g, legal);
    if since.is_some() {
        let mut engine = start.clone();
        engine.chance_mut().sketch();
        if let Some(scores) = run_out(engine, &mut choose, since, true) {
            return scores;
        }
    }
    play_out(start.clone(), choose, since)
}

/// `action` on a copy of `start`, then [`play_out_sketched`] from there, with one copy: the
/// scores where the action itself ends the game or reaches a point where a search that began
/// with `since` points settled stops ([`settled_after`]), else the playout's. In a session game
/// the copy sketches from before the action, so a deal the action makes is sketched too; where
/// the game would end at a sketched deal or play on into one, it is played again from `start`
/// with real deals, so the scores are always those of the action applied to a copy and
/// `play_out_sketched` from there. `None` where the engine refuses `action`.
pub fn play_out_after<G: Engine>(
    start: &G,
    action: G::Action,
    policy: EnginePolicy<G>,
    since: Option<u64>,
) -> Option<Vec<f64>> {
    let mut engine = start.clone();
    let first = engine.chance().deals().len();
    let sketched = since.is_some();
    if sketched {
        engine.chance_mut().sketch();
    }
    engine.apply(action, &mut NoEvents).ok()?;
    // A deal the action made is sketched: only the standing at its start may be read, not the
    // scores of a game it ended, nor its play.
    let sketched_deal = sketched && engine.chance().deals().len() != first;
    if !(sketched_deal && engine.to_move().is_none()) {
        if let Some(scores) = stopped(&engine, since, first) {
            return Some(scores);
        }
    }
    if !sketched_deal {
        let mut choose = |g: &G, legal: &[G::Action]| policy_index(policy, g, legal);
        if let Some(scores) = run_out(engine, &mut choose, since, sketched) {
            return Some(scores);
        }
    }
    // A sketched deal was played on or ended the game: the action and the playout again, with
    // real deals.
    let mut engine = start.clone();
    engine.apply(action, &mut NoEvents).ok()?;
    stopped(&engine, since, first).or_else(|| Some(play_out_sketched(&engine, policy, since)))
}

/// Every seat's score where the game has ended, or where a search that began with `since`
/// points settled stops once a deal has ended since `first` deals were made
/// ([`settled_after`]); `None` while play goes on.
fn stopped<G: Engine>(engine: &G, since: Option<u64>, first: usize) -> Option<Vec<f64>> {
    if engine.to_move().is_none() {
        return Some(engine.scores().unwrap_or_else(|| vec![0.0; engine.players()]));
    }
    settled_after(since, &mut { first }, engine.chance().deals().len(), || {
        engine.standing()
    })
}

/// The loop of [`play_out`]. With `sketched` (the engine's deals are sketched), `None` where a
/// deal it made would be played on or scored at the game's end; else always `Some`.
fn run_out<G: Engine>(
    mut engine: G,
    choose: &mut impl FnMut(&G, &[G::Action]) -> usize,
    since: Option<u64>,
    sketched: bool,
) -> Option<Vec<f64>> {
    let mut legal = Vec::new();
    let first = engine.chance().deals().len();
    let mut deals = first;
    let mut steps = 0u32;
    while engine.to_move().is_some() {
        let now = engine.chance().deals().len();
        if let Some(scores) = settled_after(since, &mut deals, now, || engine.standing()) {
            return Some(scores);
        }
        if sketched && now != first {
            return None;
        }
        engine.legal(&mut legal);
        let i = choose(&engine, &legal);
        if engine.apply(legal[i], &mut NoEvents).is_err() {
            break;
        }
        steps += 1;
        if steps > 100_000 {
            break;
        }
    }
    if sketched && engine.chance().deals().len() != first {
        return None;
    }
    Some(engine.scores().unwrap_or_else(|| vec![0.0; engine.players()]))
}
