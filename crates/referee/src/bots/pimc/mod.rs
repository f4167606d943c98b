//! `pimc`: perfect-information Monte Carlo search, for every game through the one game
//! interface.
//!
//! The bot knows only what its seat is told (the setup and the event lines routed to it,
//! like any bot); it never holds the referee's game. From those lines it keeps a *world*: a
//! game of its own, built with the same rules, whose deals it chose so that every line the
//! world routes to its seat is the line the seat really received. For a decision it samples
//! more such worlds (the cards it has not seen dealt anew, then the deal's actions replayed
//! and checked line by line), plays each legal action out in each world with `simple` at
//! every seat, and takes the action with the best mean score for its seat.
//!
//! Nothing here knows a game's rules or its lines. A world is consistent when it routes the
//! same lines to the seat; where it does not, it is repaired by generic moves on its deal:
//! a card the seat saw in a place it is not, is swapped there; a card another seat played
//! that the world's rules refused, is dealt to it, and the cards the world forced it to play
//! instead are dealt away. What cannot be repaired is dropped (the world kept so far always
//! is consistent).

use super::bot::Bot;
use super::setup::SetupLines;
use crate::cards::Card;
use crate::chance::{DealSpec, Purpose, Rng};
use crate::game::{Arg, Args, Event, Game, GameInfo, GameSpec, Seat, SeatView};
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

/// A line routed to the seat: kind and arguments.
type Line = (String, Args);

/// Notifications from the referee that are not game events.
const NOT_EVENTS: &[&str] = &[
    "game", "option", "players", "seat", "rngseed", "clock", "fault", "gameover",
];

/// How long a `pimc` bot thinks, and how sure it must be to leave the playout policy's choice.
/// Without `ms` it is deterministic for a given seed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Budget {
    /// At most this many worlds per decision (each legal action is played out once in each).
    pub samples: usize,
    /// At most this many playouts per decision: a decision with many legal actions plays out
    /// fewer worlds (but at least two).
    pub playouts: usize,
    /// A cap on the time per decision in milliseconds.
    pub ms: Option<u64>,
    /// The search plays another action than the playout policy (its model of good play) would
    /// only when that action's mean gain over it, paired world by world, is more than `sure`
    /// standard errors above zero; of such actions, the one with the highest lower bound. `0`:
    /// the best mean, however small the gain and noisy its estimate. `None`: the game's
    /// [`search_sure`](crate::game::GameSpec::search_sure).
    pub sure: Option<f64>,
    /// The weight a sampled world keeps for each action of another seat that the playout
    /// policy would not have played there (inference from the others' actions): 1 infers
    /// nothing, smaller trusts the playout policy more as a model of the others.
    pub infer: f64,
}

impl Default for Budget {
    fn default() -> Budget {
        Budget {
            samples: 100,
            playouts: 1000,
            ms: None,
            sure: None,
            infer: UNLIKE_SIMPLE,
        }
    }
}

impl Budget {
    /// Reads `samples=N,playouts=N,ms=M,sure=Z,infer=W` (any may be left out).
    pub fn parse(params: &str) -> Result<Budget, String> {
        let mut b = Budget::default();
        for part in params.split(',').filter(|p| !p.is_empty()) {
            let (k, v) = part.split_once('=').ok_or_else(|| {
                format!("bad pimc parameter '{part}': write samples=N, playouts=N, ms=N, sure=Z or infer=W")
            })?;
            if k == "sure" {
                b.sure = Some(
                    v.parse::<f64>()
                        .ok()
                        .filter(|z| z.is_finite() && *z >= 0.0)
                        .ok_or_else(|| format!("bad pimc parameter '{part}': {v} is not a number of at least 0"))?,
                );
                continue;
            }
            if k == "infer" {
                b.infer =
                    v.parse::<f64>().ok().filter(|w| *w > 0.0 && *w <= 1.0).ok_or_else(|| {
                        format!("bad pimc parameter '{part}': {v} is not a number above 0 and at most 1")
                    })?;
                continue;
            }
            let n: u64 = v
                .parse()
                .ok()
                .filter(|&n| n > 0)
                .ok_or_else(|| format!("bad pimc parameter '{part}': {v} is not a whole number of at least 1"))?;
            match k {
                "samples" => b.samples = n as usize,
                "playouts" => b.playouts = n as usize,
                "ms" => b.ms = Some(n),
                _ => {
                    return Err(format!(
                        "unknown pimc parameter '{k}' (pimc takes samples=N, playouts=N, ms=N, sure=Z and infer=W)"
                    ))
                }
            }
        }
        Ok(b)
    }
}

/// A place a card is dealt to: a seat's hand or a named pile; or the rest of the deck, which
/// the deal leaves out.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Place {
    Hand(Seat),
    Pile(String),
    Undealt,
}

/// A deal as a list of (place, card), in the order the deal lists them.
#[derive(Clone, Debug)]
struct Layout {
    dealer: Seat,
    hands: usize,
    cards: Vec<(Place, Card)>,
    /// Deals the rules throw away before this one (a Skwitz reshuffle): each the layout's
    /// cards shuffled by its seed.
    rejected: Vec<u64>,
}

impl Layout {
    fn of(deal: &crate::chance::Deal) -> Layout {
        let mut cards = Vec::new();
        for (s, h) in deal.hands.iter().enumerate() {
            cards.extend(h.iter().map(|&c| (Place::Hand(s), c)));
        }
        for (name, pile) in &deal.piles {
            cards.extend(pile.iter().map(|&c| (Place::Pile(name.clone()), c)));
        }
        cards.extend(deal.undealt.iter().map(|&c| (Place::Undealt, c)));
        Layout {
            dealer: deal.dealer,
            hands: deal.hands.len(),
            cards,
            rejected: Vec::new(),
        }
    }

    /// The deals to give, in order: the rejected ones, then this one.
    fn specs(&self) -> Vec<DealSpec> {
        let mut out: Vec<DealSpec> = self
            .rejected
            .iter()
            .map(|&seed| {
                let mut other = self.clone();
                other.rejected.clear();
                // The deck in a fixed order, shuffled by the seed: the same deal whatever this
                // layout's order, so a sample keeps the tracker's thrown-away deals.
                let mut cards: Vec<Card> = other.cards.iter().map(|&(_, c)| c).collect();
                cards.sort();
                Rng::new(seed, Purpose::Bot, 1).shuffle(&mut cards);
                for (slot, c) in other.cards.iter_mut().zip(cards) {
                    slot.1 = c;
                }
                other.spec()
            })
            .collect();
        out.push(self.spec());
        out
    }

    fn spec(&self) -> DealSpec {
        let mut hands = vec![Vec::new(); self.hands];
        let mut piles: BTreeMap<String, Vec<Card>> = BTreeMap::new();
        for (place, c) in &self.cards {
            match place {
                Place::Hand(s) => hands[*s].push(*c),
                Place::Pile(p) => piles.entry(p.clone()).or_default().push(*c),
                Place::Undealt => {}
            }
        }
        DealSpec {
            dealer: Some(self.dealer),
            hands: hands.into_iter().map(Some).collect(),
            piles,
        }
    }

    fn position(&self, c: Card) -> Option<usize> {
        self.cards.iter().position(|&(_, x)| x == c)
    }

    /// Swaps the places of two cards (positions).
    fn swap(&mut self, i: usize, j: usize) {
        let (a, b) = (self.cards[i].1, self.cards[j].1);
        self.cards[i].1 = b;
        self.cards[j].1 = a;
    }
}

/// Every card named in a line's arguments (`7H`, or inside a token such as `7H:3D,4C`).
fn cards_in(args: &[Arg]) -> Vec<Card> {
    let mut cards = Vec::new();
    for a in args {
        match a {
            Arg::Card(c) => cards.push(*c),
            Arg::Int(_) => {}
            other => cards.extend(
                other
                    .text()
                    .split(|ch: char| !ch.is_ascii_alphanumeric())
                    .filter_map(Card::from_token),
            ),
        }
    }
    cards
}

/// A game the bot plays on its own: the game and a view per seat, fed the lines each seat
/// would be routed.
#[derive(Clone)]
struct World {
    game: Box<dyn Game>,
    views: Vec<Box<dyn SeatView>>,
}

impl World {
    /// A new game whose first deal is `deal` (or dealt at random from `seed`); returns the
    /// world and the lines routed to `me`.
    fn start(spec: &GameSpec, info: &GameInfo, deals: Vec<DealSpec>, seed: u64) -> Result<(World, Vec<Line>), String> {
        let chance = crate::chance::Chance::given(seed, deals).titled(spec.title);
        let game = (spec.new_game)(info.players, &info.options, chance, true)?;
        let views = (0..info.players)
            .map(|s| {
                (spec.new_view)(&GameInfo {
                    game: info.game.clone(),
                    options: info.options.clone(),
                    players: info.players,
                    seat: s,
                })
            })
            .collect();
        let mut w = World { game, views };
        let lines = w.route(Some(info.seat));
        Ok((w, lines))
    }

    /// Routes the game's new events to the views; returns those `me` receives (none for
    /// `None`: a playout reads nothing).
    fn route(&mut self, me: Option<Seat>) -> Vec<Line> {
        let n = self.views.len();
        let mut mine = Vec::new();
        for Event { to, kind, args } in self.game.take_events() {
            for s in to.members(n) {
                self.views[s].observe(kind, &args);
            }
            if me.is_some_and(|m| to.contains(m)) {
                mine.push((kind.to_string(), args));
            }
        }
        mine
    }

    fn apply(&mut self, token: &str, me: Seat) -> Result<Vec<Line>, String> {
        self.game.apply(token)?;
        Ok(self.route(Some(me)))
    }

    fn deals(&self) -> usize {
        self.game.chance().deals().len()
    }

    /// Plays to the end with the game's playout policy (`simple`, mostly) at every seat; the
    /// score of `me`. In a session of several games ([`Game::standing`]), only to the next
    /// point where it can be scored: the later deals no decision now changes would only add
    /// noise.
    fn play_out(mut self, spec: &GameSpec, me: Seat) -> f64 {
        let mut steps = 0;
        let settled = self.game.standing().map(|(k, _)| k);
        let mut deals = self.deals();
        while let Some(s) = self.game.to_move() {
            // A game of the session can only end where a deal ends.
            if let Some(k0) = settled.filter(|_| self.deals() != deals) {
                deals = self.deals();
                if let Some((_, scores)) = self.game.standing().filter(|(k, _)| *k > k0) {
                    return scores[me];
                }
            }
            // Typed where the game's typed policy decides: no tokens made or parsed.
            let i = spec.policy_index(self.game.as_mut(), self.views[s].as_ref(), true);
            if self.game.apply_legal(i).is_err() {
                break;
            }
            self.route(None);
            steps += 1;
            if steps > 100_000 {
                break;
            }
        }
        self.game.scores().map(|s| s[me]).unwrap_or(0.0)
    }
}

/// Why a replay stopped: the world refused or contradicted what the seat saw.
struct Mismatch {
    /// The seat whose action failed, the token it really played (if the lines name it), and
    /// the world's legal tokens for it.
    seat: Option<Seat>,
    token: Option<String>,
    legal: Vec<String>,
    /// Where in the seat's lines it failed.
    pos: usize,
    /// What the failing seat holds in the world at that point (its view's `hand`).
    held: Vec<Card>,
    /// The first line that differs: (the world's, the seat's).
    lines: Option<(Line, Line)>,
    /// Where the seat's differing line is among its lines, when a deal's opening lines differ.
    line_at: Option<usize>,
    /// Where the seat's differing line is among its lines (any differing line).
    seen_at: Option<usize>,
}

impl Mismatch {
    /// A deal that does not fit the lines from `pos` (no seat's action to blame).
    fn of_deal(pos: usize, lines: Option<(Line, Line)>) -> Box<Mismatch> {
        Box::new(Mismatch {
            seat: None,
            token: None,
            legal: Vec::new(),
            pos,
            held: Vec::new(),
            lines,
            line_at: None,
            seen_at: None,
        })
    }

    /// How far the lines before it go: the cards in them are where they are at this line.
    fn upto(&self) -> usize {
        self.seen_at.unwrap_or(self.pos)
    }
}

/// The exchanges of cards since the deal, in order: where a card the lines show now was dealt.
#[derive(Default)]
struct Trace(Vec<(Card, Card)>);

impl Trace {
    /// Follows the game's exchange lines ([`DealLines::exchanges`](crate::game::DealLines::exchanges)) among `lines`.
    fn of(lines: &[Line], exchanges: &[(&str, &str)]) -> Trace {
        let pairs = lines.iter().filter_map(|(k, a)| {
            let (_, prefix) = exchanges.iter().find(|(kind, _)| kind == k)?;
            let rest = a.get(1..)?;
            if !rest.first()?.text().starts_with(prefix) {
                return None;
            }
            match cards_in(if prefix.is_empty() { rest } else { &rest[..1] })[..] {
                [x, y] => Some((x, y)),
                _ => None,
            }
        });
        Trace(pairs.collect())
    }

    /// The card dealt to the place where `c` is now (each exchange, latest first, undone).
    fn origin(&self, c: Card) -> Card {
        self.0.iter().rev().fold(c, |c, &(x, y)| {
            if c == x {
                y
            } else if c == y {
                x
            } else {
                c
            }
        })
    }

    /// Where the layout dealt the card that is now `c`'s place.
    fn position(&self, layout: &Layout, c: Card) -> Option<usize> {
        layout.position(self.origin(c))
    }
}

/// The seat's knowledge as a consistent world, and what is needed to sample others.
struct Tracker {
    spec: GameSpec,
    info: GameInfo,
    me: Seat,
    /// Every game line routed to the seat.
    observed: Vec<Line>,
    /// A world that routed exactly `observed[..explained]` to the seat.
    world: World,
    explained: usize,
    /// The current deal: the world before the action that made it (`None`: the game's start),
    /// that action, and where its lines begin in `observed`.
    base: Option<(World, String)>,
    deal_start: usize,
    /// The deals the rules threw away before the current one, as the last fit made them.
    rejected: Vec<u64>,
    /// Set when the lines could not be explained: the bot then plays `simple` on its view.
    lost: bool,
    /// The seat's own view, fed every line: what `simple` decides on when the bot follows no
    /// world (lost, or out of time this decision).
    own: Box<dyn SeatView>,
    /// When the catch-up of this decision must stop (its share of the time); set when it did.
    deadline: Option<Instant>,
    timed_out: bool,
    /// A refit that ran out of time, to go on with.
    unfinished: Option<Unfinished>,
    seed: u64,
    /// The budget's `infer`: a sampled world's weight per action of another seat unlike the
    /// playout policy's.
    infer: f64,
}

/// The weight a sampled world keeps for each action of another seat that `simple` would not
/// have played there, by default (`infer`): the bot expects the others to play about as
/// `simple` does, so worlds in which their bids and plays make sense count more (inference
/// from the actions seen).
const UNLIKE_SIMPLE: f64 = 0.3;

/// How many repairs a sampled world may take before it is dropped.
const REPAIRS: usize = 40;
/// How many the world the bot follows may take (it must fit, or the bot plays `simple`).
const REFITS: usize = 150;
/// A refit stopped by the clock: which deal (where its lines start, the world's deal count), the
/// layout and pinned cards it had reached, and the tries it made.
struct Unfinished {
    key: (usize, usize),
    layout: Layout,
    pinned: Vec<Card>,
    tries: usize,
}

/// How many cards of the last deal a new deal's first lines may fix (`start_deal`).
const LAST_DEAL_FIXES: usize = 24;

/// The fits a refit makes before it looks at the clock.
const MIN_REFITS: usize = 10;

/// Deals the cards that are not `fixed` anew among their places.
fn shuffle_free(layout: &mut Layout, fixed: &[Card], rng: &mut Rng) {
    let free: Vec<usize> = (0..layout.cards.len())
        .filter(|&i| !fixed.contains(&layout.cards[i].1))
        .collect();
    let mut cards: Vec<Card> = free.iter().map(|&i| layout.cards[i].1).collect();
    rng.shuffle(&mut cards);
    for (&i, c) in free.iter().zip(cards) {
        layout.cards[i].1 = c;
    }
}

impl Tracker {
    fn new(spec: GameSpec, info: GameInfo, seed: u64, infer: f64) -> Result<Tracker, String> {
        let me = info.seat;
        let (world, _) = World::start(&spec, &info, Vec::new(), seed)?;
        let own = (spec.new_view)(&info);
        Ok(Tracker {
            spec,
            info,
            me,
            observed: Vec::new(),
            world,
            explained: 0,
            base: None,
            deal_start: 0,
            rejected: Vec::new(),
            lost: false,
            own,
            deadline: None,
            timed_out: false,
            unfinished: None,
            seed,
            infer,
        })
    }

    /// Where this deal's own lines begin: after those of the action that made it (a card played
    /// to the last deal's last trick, say, is not in this deal).
    fn deal_lines_from(&self) -> usize {
        match (&self.base, self.observed.get(self.deal_start)) {
            (Some(_), Some((k, _))) if k == "move" => self.deal_start + 1,
            _ => self.deal_start,
        }
    }

    /// The exchanges in this deal's lines before `upto`.
    fn trace(&self, upto: usize) -> Trace {
        let from = self.deal_lines_from();
        Trace::of(
            &self.observed[from.min(upto)..upto.max(from).min(self.observed.len())],
            self.spec.deal_lines.exchanges,
        )
    }

    /// A deal's opening lines differ in how many deals the rules threw away
    /// ([`DealLines::rejected`](crate::game::DealLines::rejected): Skwitz's reshuffles): changes the deals `layout` has thrown away before it. False for any other
    /// difference.
    fn fix_rejected(&self, layout: &mut Layout, m: &Mismatch, fixed: &[Card], rng: &mut Rng) -> bool {
        let (Some((got, seen)), Some(at)) = (&m.lines, m.line_at) else {
            return false;
        };
        // Lines that tell the seat a deal was thrown away unplayed: the world must make as many.
        let tells_rejected_deal = |l: &Line| self.spec.deal_lines.rejected.contains(&l.0.as_str());
        if !tells_rejected_deal(got) && !tells_rejected_deal(seen) {
            return false;
        }
        // The world threw away as many deals as the seat saw before this line.
        let made = self.observed[self.deal_start.min(at)..at]
            .iter()
            .filter(|l| tells_rejected_deal(l))
            .count();
        if tells_rejected_deal(seen) && layout.rejected.len() <= made {
            layout.rejected.push(rng.next_u64());
        } else if tells_rejected_deal(seen) {
            // A deal meant to be thrown away was played: another one.
            layout.rejected[made] = rng.next_u64();
        } else if layout.rejected.len() > made {
            layout.rejected.truncate(made);
        } else {
            // This deal itself is one the rules throw away: deal anew what no line has placed.
            shuffle_free(layout, fixed, rng);
        }
        true
    }

    /// Compares lines the world routed with the seat's from `pos`: the first difference, with
    /// the index of the seat's line that differs.
    fn differ_at(&self, got: &[Line], pos: usize) -> Option<(usize, (Line, Line))> {
        for (k, g) in got.iter().enumerate() {
            match self.observed.get(pos + k) {
                Some(o) if o == g => {}
                Some(o) => return Some((pos + k, (g.clone(), o.clone()))),
                None => return Some((pos + k, (g.clone(), (String::new(), Args::new())))),
            }
        }
        None
    }

    /// The token the seat's lines from `pos` show `seat` playing (`move <seat> <token> …`).
    fn shown_token(&self, pos: usize, seat: Seat) -> Option<String> {
        self.observed[pos..]
            .iter()
            .find(|(k, a)| k == "move" && a.first().and_then(|s| s.parse::<Seat>().ok()) == Some(seat))
            .and_then(|(_, a)| a.get(1).map(Arg::to_string))
    }

    /// One action of `world` that routes to the seat the lines from `pos`: the shown token
    /// first, else (a hidden action) any legal one whose lines agree. Returns the token and
    /// the lines consumed.
    ///
    /// With `in_place`, a shown token is applied to `world` itself, not to a copy: faster (a
    /// copy of the game and every view per action was a tenth of a Skwitz search), but on a
    /// mismatch `world` is left after the action (the caller drops it) and the seat's cards
    /// the mismatch names are those it held after the action, with the card the token plays.
    fn step(
        &self,
        world: &mut World,
        pos: usize,
        rng: &mut Rng,
        in_place: bool,
    ) -> Result<(String, usize), Box<Mismatch>> {
        let seat = world.game.to_move().expect("a seat to move");
        let legal = world.game.legal_actions();
        let shown = self.shown_token(pos, seat);
        let mismatch = |world: &World, lines: Option<(usize, (Line, Line))>, played: Option<Card>| {
            let hand = world.views[seat].to_json()["hand"].clone();
            let mut held: Vec<Card> = hand
                .as_array()
                .map(|a| a.iter().filter_map(|c| c.as_str().and_then(Card::from_token)).collect())
                .unwrap_or_default();
            held.extend(played.filter(|c| !held.contains(c)));
            Box::new(Mismatch {
                seat: Some(seat),
                token: shown.clone(),
                legal: legal.clone(),
                pos,
                held,
                seen_at: lines.as_ref().map(|(at, _)| *at),
                lines: lines.map(|(_, d)| d),
                line_at: None,
            })
        };
        if let Some(t) = shown.as_ref().filter(|t| legal.contains(t) && in_place) {
            let got = world.apply(t, self.me).map_err(|_| mismatch(world, None, None))?;
            return match self.differ_at(&got, pos) {
                None => Ok((t.clone(), got.len())),
                Some(d) => {
                    let played = cards_in(&[Arg::Text(t.clone())]).first().copied();
                    Err(mismatch(world, Some(d), played))
                }
            };
        }
        if let Some(t) = shown.as_ref().filter(|t| legal.contains(t)) {
            let mut w = world.clone();
            let got = w.apply(t, self.me).map_err(|_| mismatch(world, None, None))?;
            return match self.differ_at(&got, pos) {
                None => {
                    *world = w;
                    Ok((t.clone(), got.len()))
                }
                Some(d) => Err(mismatch(world, Some(d), None)),
            };
        }
        // Not a token the world offers: a hidden action, or a card this world did not deal there.
        let mut fits = Vec::new();
        let mut first_difference = None;
        for t in &legal {
            let mut w = world.clone();
            if let Ok(got) = w.apply(t, self.me) {
                match self.differ_at(&got, pos) {
                    None if !got.is_empty() => fits.push((t.clone(), w, got.len())),
                    None => {}
                    Some(d) => {
                        first_difference.get_or_insert(d);
                    }
                }
            }
        }
        if fits.is_empty() {
            // Without a token of the seat's, the lines tell what differs (a hand shown, say).
            return Err(mismatch(
                world,
                if shown.is_none() { first_difference } else { None },
                None,
            ));
        }
        let (t, w, used) = fits.swap_remove(rng.below(fits.len() as u64) as usize);
        *world = w;
        Ok((t, used))
    }

    /// Follows the seat's new lines with the world; on a contradiction, deals the current deal
    /// anew until it fits. False when nothing fits.
    fn catch_up(&mut self, rng: &mut Rng) -> bool {
        if self.lost {
            return false;
        }
        if self.explained == 0 && self.base.is_none() && !self.observed.is_empty() {
            // The first deal: make the world's agree with the seat's lines.
            let w = self.world.clone();
            match self.refit(w, true, rng) {
                Ok(w) => self.world = w,
                Err(_) => return self.fail(),
            }
        }
        let from = self.explained;
        'lines: while self.explained < self.observed.len() {
            if self.world.game.to_move().is_none() {
                return self.give_up();
            }
            // Out of time (having made some progress): the next decision goes on from here.
            if self.explained > from && self.deadline.is_some_and(|d| Instant::now() >= d) {
                self.timed_out = true;
                return false;
            }
            let before = self.world.clone();
            let deals = self.world.deals();
            let mut w = self.world.clone();
            match self.step(&mut w, self.explained, rng, true) {
                Ok((_, used)) if w.deals() == deals => {
                    self.world = w;
                    self.explained += used;
                }
                Ok((token, used)) => {
                    // The action made a deal whose lines agree with the world's (a deal the seat sees nothing of).
                    self.base = Some((before, token.clone()));
                    self.deal_start = self.explained;
                    self.rejected.clear();
                    self.world = w;
                    self.explained += used;
                }
                Err(m) => {
                    if std::env::var_os("CROUPIER_PIMC_DEBUG").is_some() {
                        eprintln!(
                            "catch_up: at {} token {:?} lines {:?}",
                            self.explained, m.token, m.lines
                        );
                    }
                    // A deal the seat saw differently: was it this very action's? Then it starts the deal.
                    if let Some(token) = m.token.clone().filter(|t| m.legal.contains(t)) {
                        let mut w = before.clone();
                        if w.apply(&token, self.me).is_ok() && w.deals() > deals {
                            if self.start_deal(before, token, rng) {
                                continue 'lines;
                            }
                            // Or the world's deal ended where the seat's goes on: fit this deal
                            // through that action.
                            let current = self.world.clone();
                            if self.timed_out {
                                return false;
                            }
                            match self.refit(current, false, rng) {
                                Ok(w) => {
                                    self.world = w;
                                    continue 'lines;
                                }
                                Err(_) => return self.fail(),
                            }
                        }
                    }
                    // Otherwise the current deal is wrong: deal it anew and replay.
                    let current = self.world.clone();
                    match self.refit(current, true, rng) {
                        Ok(w) => self.world = w,
                        Err(_) => return self.fail(),
                    }
                }
            }
        }
        true
    }

    /// The action `token`, played on `before`, made a deal the seat saw differently: deal it
    /// so that its lines fit. The action's own lines may also tell of the deal before (a
    /// hand shown at its end): when the new deal cannot fit them, the last deal is fixed by
    /// them first.
    fn start_deal(&mut self, mut before: World, token: String, rng: &mut Rng) -> bool {
        let trigger = self.explained;
        let saved = (self.base.clone(), self.deal_start);
        // Each round fixes one card of the last deal that the action's lines show (the hands
        // shown at a showdown may need one per card).
        for _ in 0..LAST_DEAL_FIXES {
            self.base = Some((before.clone(), token.clone()));
            self.deal_start = trigger;
            let mut w = before.clone();
            if w.apply(&token, self.me).is_err() {
                break;
            }
            let m = match self.refit(w, true, rng) {
                Ok(fitted) => {
                    self.world = fitted;
                    return true;
                }
                Err(m) => m,
            };
            if std::env::var_os("CROUPIER_PIMC_DEBUG").is_some() {
                eprintln!("start_deal: refit failed at {} lines {:?}", m.pos, m.lines);
            }
            if self.timed_out {
                break;
            }
            (self.base, self.deal_start) = saved.clone();
            let Some(lines) = &m.lines else { break };
            let Some(deal) = before.game.chance().deals().last() else {
                break;
            };
            let mut old = Layout::of(deal);
            if repair_lines(&mut old, lines, &self.trace(m.upto())).is_empty() {
                break;
            }
            match self.replay(&old, trigger, true, false, rng) {
                Ok((w, pos, _)) if pos == trigger => before = w,
                _ => break,
            }
        }
        (self.base, self.deal_start) = saved;
        self.explained = trigger;
        false
    }

    /// A fit failed: out of time for this decision (the world still explains the lines up to
    /// `explained`; the next decision goes on from there), or lost for good.
    fn fail(&mut self) -> bool {
        if self.timed_out {
            return false;
        }
        self.give_up()
    }

    fn give_up(&mut self) -> bool {
        self.lost = true;
        if std::env::var_os("CROUPIER_PIMC_DEBUG").is_some() {
            let at = self.observed.get(self.explained);
            eprintln!(
                "pimc seat {}: lost at line {} of {}: {:?}; world to move {:?}, legal {:?}",
                self.me,
                self.explained,
                self.observed.len(),
                at,
                self.world.game.to_move(),
                self.world.game.legal_actions()
            );
            for (i, l) in self.observed.iter().enumerate().skip(self.deal_start) {
                eprintln!("  {i}: {l:?}");
            }
        }
        false
    }

    /// The lines of the current deal replayed on `layout` from its base; the world at
    /// `upto` lines, or why not. With `stop_at_deal`, an action that the lines show and that
    /// makes the next deal ends the replay there (the lines from it are the next deal's). With
    /// `weigh`, the weight of the world (how well the others' actions fit `simple`) is worked out;
    /// otherwise it is 1.
    fn replay(
        &self,
        layout: &Layout,
        upto: usize,
        stop_at_deal: bool,
        weigh: bool,
        rng: &mut Rng,
    ) -> Result<(World, usize, f64), Box<Mismatch>> {
        let no_fit = |lines| Mismatch::of_deal(self.deal_start, lines);
        let opening = |(at, d): (usize, (Line, Line))| {
            let mut m = no_fit(Some(d));
            m.line_at = Some(at);
            m.seen_at = Some(at);
            m
        };
        let (mut world, mut pos) = match &self.base {
            None => {
                let (w, got) =
                    World::start(&self.spec, &self.info, layout.specs(), self.seed).map_err(|_| no_fit(None))?;
                if let Some(d) = self.differ_at(&got, 0) {
                    return Err(opening(d));
                }
                (w, got.len())
            }
            Some((base, token)) => {
                let mut w = base.clone();
                for d in layout.specs() {
                    w.game.give_deal(d);
                }
                let got = w.apply(token, self.me).map_err(|_| no_fit(None))?;
                if let Some(d) = self.differ_at(&got, self.deal_start) {
                    return Err(opening(d));
                }
                (w, self.deal_start + got.len())
            }
        };
        let mut weight = 1.0;
        let deals = world.deals();
        while pos < upto {
            if world.game.to_move().is_none() {
                return Err(no_fit(None));
            }
            // How likely the others' actions are if they play like `simple`.
            let seat = world.game.to_move().expect("a seat to move");
            let expected = (weigh && seat != self.me).then(|| {
                let i = self
                    .spec
                    .policy_index(world.game.as_mut(), world.views[seat].as_ref(), false);
                world.game.legal_token(i)
            });
            // A sample's replay follows the world itself; a refit's keeps the world before a
            // failed action, to ask whether that action made the next deal.
            match self.step(&mut world, pos, rng, !stop_at_deal) {
                Ok((t, used)) => {
                    if expected.is_some_and(|e| e != t) {
                        weight *= self.infer;
                    }
                    pos += used;
                }
                // The lines from here are the next deal's: this one fits up to them.
                Err(m) if stop_at_deal && makes_deal(&world, &m, deals) => break,
                Err(m) => return Err(m),
            }
        }
        Ok((world, pos, weight))
    }

    /// The deal of `world` (just made, or the current one) changed until the lines so far fit.
    fn refit(&mut self, world: World, stop_at_deal: bool, rng: &mut Rng) -> Result<World, Box<Mismatch>> {
        let no_deal = || Mismatch::of_deal(self.deal_start, None);
        let deal = world.game.chance().deals().last().ok_or_else(no_deal)?.clone();
        let key = (self.deal_start, world.deals());
        // Cards a line put in place: random deals leave them there.
        let (mut layout, mut pinned, first) = match self.unfinished.take() {
            // A refit of this deal that ran out of time at the last decision goes on.
            Some(u) if u.key == key => (u.layout, u.pinned, u.tries),
            _ => (Layout::of(&deal), Vec::new(), 0),
        };
        let upto = self.observed.len();
        let mut last = no_deal();
        for tries in first..REFITS {
            // Out of time, having tried a few fits (most fit at once): the next decision goes
            // on from this layout; so that a short cap still makes progress.
            if tries >= first + MIN_REFITS && self.deadline.is_some_and(|d| Instant::now() >= d) {
                self.timed_out = true;
                self.unfinished = Some(Unfinished {
                    key,
                    layout,
                    pinned,
                    tries,
                });
                return Err(last);
            }
            match self.replay(&layout, upto, stop_at_deal, false, rng) {
                Ok((w, pos, _)) => {
                    self.explained = pos;
                    self.rejected = layout.rejected;
                    return Ok(w);
                }
                Err(m) => {
                    if std::env::var_os("CROUPIER_PIMC_DEBUG").is_some() {
                        eprintln!(
                            "refit: at {} (deal from {}, base {}) seat {:?} token {:?} legal {:?} lines {:?}",
                            m.pos,
                            self.deal_start,
                            self.base.is_some(),
                            m.seat,
                            m.token,
                            m.legal,
                            m.lines
                        );
                    }
                    let mut fixed = self.fixed_cards(&layout, m.pos);
                    fixed.extend(pinned.iter().copied());
                    if self.fix_rejected(&mut layout, &m, &fixed, rng) {
                        last = m;
                        continue;
                    }
                    if let Some(lines) = &m.lines {
                        let moved = repair_lines(&mut layout, lines, &self.trace(m.upto()));
                        let again = moved.iter().all(|c| pinned.contains(c));
                        if again && m.pos == self.deal_start && self.base.is_some() {
                            // The same line of the action that made this deal again: a line of
                            // the deal before, which this one cannot make.
                            return Err(m);
                        }
                        if !moved.is_empty() {
                            pinned.extend(moved);
                            last = m;
                            continue;
                        }
                    }
                    if repair(&mut layout, &m, &fixed, &self.trace(m.upto()), rng) {
                        continue;
                    }
                    // The first deal's lines differ in something other than cards: its dealer.
                    if self.base.is_none() && m.lines.is_some() && m.seat.is_none() {
                        layout.dealer = (layout.dealer + 1) % self.info.players;
                        continue;
                    }
                    // Nothing known to change (a bid that tells what a hand holds): deal the
                    // cards the seat has not seen anew.
                    shuffle_free(&mut layout, &fixed, rng);
                    last = m;
                }
            }
        }
        Err(last)
    }

    /// Cards whose place at the deal the seat knows from its lines of this deal before `upto`:
    /// its own hand, and the card each seat played (the first card a `move` of decision
    /// `play` names; a card named by a call is not its caller's).
    fn fixed_cards(&self, layout: &Layout, upto: usize) -> Vec<Card> {
        let from = self.deal_lines_from();
        let mut fixed: Vec<Card> = self.observed[from.min(upto)..upto.max(from)]
            .iter()
            .filter(|(k, a)| k == "move" && a.get(2).is_some_and(|d| d == "play"))
            .filter_map(|(_, a)| {
                a.get(1)
                    .and_then(|t| cards_in(std::slice::from_ref(t)).first().copied())
            })
            .collect();
        fixed.extend(
            layout
                .cards
                .iter()
                .filter(|(p, _)| *p == Place::Hand(self.me))
                .map(|&(_, c)| c),
        );
        fixed.sort();
        fixed.dedup();
        fixed
    }

    /// Another world the seat cannot tell from this one: the cards it has not seen dealt anew
    /// (keeping every place's size), the deal's lines replayed and repaired. `None` when no
    /// repair made it fit.
    fn sample(&self, rng: &mut Rng) -> Option<(World, f64)> {
        let deal = self.world.game.chance().deals().last()?.clone();
        let mut layout = Layout::of(&deal);
        layout.rejected = self.rejected.clone();
        let fixed = self.fixed_cards(&layout, self.explained);
        shuffle_free(&mut layout, &fixed, rng);
        for _ in 0..REPAIRS {
            match self.replay(&layout, self.explained, false, true, rng) {
                Ok((mut w, _, weight)) => {
                    w.game.reseed(rng.next_u64());
                    return Some((w, weight));
                }
                Err(m) => {
                    if self.fix_rejected(&mut layout, &m, &fixed, rng) {
                        continue;
                    }
                    if !repair(&mut layout, &m, &fixed, &self.trace(m.upto()), rng) {
                        shuffle_free(&mut layout, &fixed, rng);
                    }
                }
            }
        }
        None
    }
}

/// A line that names other cards than the seat's (the world's, the seat's): puts the seat's
/// cards where the world's were; or, for a line `<kind> <seat> <cards…>` (a hand shown, a card
/// played), deals its cards to that seat. Cards the line shows where exchanges (`trace`) put
/// them are moved in the deal where they were dealt. Returns the cards moved in the deal (none:
/// nothing changed).
fn repair_lines(layout: &mut Layout, (got, want): &(Line, Line), trace: &Trace) -> Vec<Card> {
    let wanted = cards_in(&want.1);
    let mut moved = Vec::new();
    if got.0 == want.0 {
        let got = cards_in(&got.1);
        let out: Vec<Card> = got.iter().copied().filter(|c| !wanted.contains(c)).collect();
        let into: Vec<Card> = wanted.iter().copied().filter(|c| !got.contains(c)).collect();
        for (u, w) in out.iter().zip(&into) {
            if let (Some(i), Some(j)) = (trace.position(layout, *u), trace.position(layout, *w)) {
                if i != j {
                    layout.swap(i, j);
                    moved.push(layout.cards[i].1);
                }
            }
        }
        if !moved.is_empty() {
            return moved;
        }
        // The same cards in another order: the seat's order, in the places the world dealt them
        // (the cards dealt where the line's cards are now: the same cards, exchanged alike).
        if got.len() == wanted.len() && got != wanted {
            let places: Option<Vec<usize>> = got.iter().map(|&c| trace.position(layout, c)).collect();
            if let Some(places) = places {
                let dealt: Vec<Card> = wanted.iter().map(|&c| trace.origin(c)).collect();
                for (&i, &c) in places.iter().zip(&dealt) {
                    layout.cards[i].1 = c;
                }
                return dealt;
            }
        }
    }
    // (Not a `move`: the cards an action names need not be the seat's, a card taken from the
    // table say; played cards are placed by `repair`.)
    let seat = want
        .1
        .first()
        .and_then(|a| a.parse::<Seat>().ok())
        .filter(|&s| s < layout.hands && want.0 != "move");
    if let Some(s) = seat {
        let hand = Place::Hand(s);
        for &c in &wanted {
            let Some(i) = layout.position(c) else { continue };
            if layout.cards[i].0 == hand {
                continue;
            }
            let j =
                (0..layout.cards.len()).find(|&j| layout.cards[j].0 == hand && !wanted.contains(&layout.cards[j].1));
            if let Some(j) = j {
                layout.swap(i, j);
                moved.push(c);
            }
        }
    }
    moved
}

/// Whether the action `m` names makes the next deal in `world` (which has made `deals`).
fn makes_deal(world: &World, m: &Mismatch, deals: usize) -> bool {
    let Some(t) = m.token.as_ref().filter(|t| m.legal.contains(t)) else {
        return false;
    };
    let mut w = world.clone();
    w.game.apply(t).is_ok() && w.deals() > deals
}

/// Changes `layout` so that the world may not fail as `m` says; false when it knows no
/// change. Cards in `fixed` keep their places, except to be put where the seat saw them.
fn repair(layout: &mut Layout, m: &Mismatch, fixed: &[Card], trace: &Trace, rng: &mut Rng) -> bool {
    if let Some(lines) = &m.lines {
        if !repair_lines(layout, lines, trace).is_empty() {
            return true;
        }
    }
    if m.seat.is_none() {
        return false;
    }
    // The cards the seat holds in the world now (its view's `hand`) came to it from their
    // places in the deal: a card put in such a place comes to it the same way.
    let held = &m.held;
    let pick = |v: Vec<usize>, rng: &mut Rng| (!v.is_empty()).then(|| v[rng.below(v.len() as u64) as usize]);
    let played = m
        .token
        .as_deref()
        .and_then(|t| cards_in(&[Arg::Text(t.to_string())]).first().copied());
    if let Some(c) = played.filter(|c| !held.contains(c)) {
        // The card the seat really played: give it the place of one the world gave it instead.
        let Some(i) = trace.position(layout, c) else {
            return false;
        };
        let instead: Vec<usize> = held
            .iter()
            .map(|&x| trace.origin(x))
            .filter(|x| !fixed.contains(x))
            .filter_map(|x| layout.position(x))
            .collect();
        return match pick(instead, rng) {
            Some(j) => {
                layout.swap(i, j);
                true
            }
            None => false,
        };
    }
    // It holds the card, but the world made it play others: deal those elsewhere.
    let forced: Vec<Card> = m
        .legal
        .iter()
        .filter_map(|t| cards_in(&[Arg::Text(t.clone())]).first().copied())
        .filter(|&c| Some(c) != played && held.contains(&c) && !fixed.contains(&c))
        .collect();
    let mut changed = false;
    for c in forced {
        let elsewhere: Vec<usize> = (0..layout.cards.len())
            .filter(|&j| !held.contains(&layout.cards[j].1) && !fixed.contains(&layout.cards[j].1))
            .collect();
        if let (Some(i), Some(j)) = (layout.position(c), pick(elsewhere, rng)) {
            layout.swap(i, j);
            changed = true;
        }
    }
    changed
}

/// The action a search picks from its playouts: `values[w][i]` is world `w`'s value of action
/// `i`, `weights[w]` the world's weight. With `sure` = 0 (or no `base`), the best weighted
/// mean; otherwise `base` (the playout policy's choice) unless another action gains on it,
/// world by world, by more than `sure` standard errors: then the one with the highest such
/// lower bound. Ties go to the earlier action.
pub fn choose(values: &[Vec<f64>], weights: &[f64], base: Option<usize>, sure: f64) -> usize {
    let actions = values.first().map_or(0, Vec::len);
    let total: f64 = weights.iter().sum();
    let mean =
        |f: &dyn Fn(&[f64]) -> f64| -> f64 { values.iter().zip(weights).map(|(v, w)| w * f(v)).sum::<f64>() / total };
    let best_mean = || {
        (0..actions)
            .map(|i| (i, mean(&|v| v[i])))
            .fold((0, f64::NEG_INFINITY), |b, (i, m)| if m > b.1 { (i, m) } else { b })
            .0
    };
    let Some(b) = base.filter(|_| sure > 0.0 && values.len() >= 2) else {
        return best_mean();
    };
    // Effective number of worlds of the weighted means.
    let n_eff = total * total / weights.iter().map(|w| w * w).sum::<f64>();
    let mut pick = (b, 0.0);
    for i in (0..actions).filter(|&i| i != b) {
        let d = mean(&|v| v[i] - v[b]);
        if !d.is_finite() {
            continue;
        }
        let var = mean(&|v| (v[i] - v[b] - d).powi(2)) * n_eff / (n_eff - 1.0).max(1.0);
        let lower = d - sure * (var / n_eff).sqrt();
        if lower > pick.1 {
            pick = (i, lower);
        }
    }
    pick.0
}

/// The `pimc` bot.
pub struct Pimc {
    name: String,
    budget: Budget,
    seed: u64,
    rng: Rng,
    setup: SetupLines,
    tracker: Option<Tracker>,
    /// Lines that came before the tracker could be made (over the protocol).
    early: Vec<Line>,
    /// What the searches did: decisions searched, decisions left to `simple`, worlds played,
    /// worlds that could not be made to fit.
    pub stats: SearchStats,
}

/// Counts of what a `pimc` bot did (`CROUPIER_PIMC_STATS=1` prints them when it ends).
#[derive(Clone, Copy, Debug, Default)]
pub struct SearchStats {
    pub searched: u64,
    pub fell_back: u64,
    pub worlds: u64,
    pub misfits: u64,
}

impl Drop for Pimc {
    fn drop(&mut self) {
        if std::env::var_os("CROUPIER_PIMC_STATS").is_some() && self.stats.searched + self.stats.fell_back > 0 {
            eprintln!("pimc: {:?}", self.stats);
        }
    }
}

impl Pimc {
    pub fn new(name: &str, budget: Budget, seed: u64) -> Pimc {
        Pimc {
            name: name.to_string(),
            budget,
            seed,
            rng: Rng::new(seed, Purpose::Bot, 0),
            setup: SetupLines::default(),
            tracker: None,
            early: Vec::new(),
            stats: SearchStats::default(),
        }
    }

    fn begin(&mut self, info: &GameInfo) {
        let infer = self.budget.infer;
        self.tracker = crate::games::find(&info.game)
            .and_then(|spec| Tracker::new(spec, info.clone(), self.rng.next_u64(), infer).ok());
    }

    /// Makes the tracker from protocol setup lines once they are all in.
    fn ensure_tracker(&mut self) {
        if self.tracker.is_some() {
            return;
        }
        let Some((_, info)) = self.setup.info() else { return };
        self.begin(&info);
        if let Some(t) = &mut self.tracker {
            for (k, a) in &self.early {
                t.own.observe(k, a);
            }
            t.observed.append(&mut self.early);
        }
    }

    /// The decision by search: each legal action played out in each sampled world.
    fn search(&mut self, legal: &[String], time_ms: u64) -> Option<String> {
        if self.tracker.is_none() && std::env::var_os("CROUPIER_PIMC_DEBUG").is_some() {
            eprintln!("pimc: no world for this game");
        }
        let start = Instant::now();
        // Half the referee's limit at most, so that an answer is never late: following the
        // game (catch-up) and the search share it.
        let cap = self
            .budget
            .ms
            .map(Duration::from_millis)
            .into_iter()
            .chain((time_ms > 0).then(|| Duration::from_millis(time_ms / 2)))
            .min();
        let t = self.tracker.as_mut()?;
        t.deadline = cap.map(|c| start + c);
        t.timed_out = false;
        let caught_up = t.catch_up(&mut self.rng);
        t.deadline = None;
        if !caught_up {
            return None;
        }
        let t = self.tracker.as_ref()?;
        // The same actions (a world may list them in another order: a hand's order is its own).
        let mut offered = t.world.game.legal_actions();
        offered.sort();
        let mut asked = legal.to_vec();
        asked.sort();
        if offered != asked {
            if std::env::var_os("CROUPIER_PIMC_DEBUG").is_some() {
                eprintln!(
                    "pimc: the world offers {:?} (seat {:?} to move), the referee {legal:?}",
                    t.world.game.legal_actions(),
                    t.world.game.to_move()
                );
            }
            return None;
        }
        if legal.len() == 1 {
            return Some(legal[0].clone());
        }
        // Each world's playout value of each action, and the world's weight.
        let mut values: Vec<Vec<f64>> = Vec::new();
        let mut weights: Vec<f64> = Vec::new();
        let mut worlds = 0usize;
        let samples = self.budget.samples.min((self.budget.playouts / legal.len()).max(2));
        for k in 0..samples {
            if cap.is_some_and(|c| start.elapsed() >= c) && worlds > 0 {
                break;
            }
            // The world the bot follows only when no other could be made.
            let world = match t.sample(&mut self.rng) {
                Some(w) => Some(w),
                None if k + 1 == samples && worlds == 0 => Some((t.world.clone(), 1.0)),
                None => None,
            };
            let Some((world, weight)) = world else {
                self.stats.misfits += 1;
                continue;
            };
            worlds += 1;
            self.stats.worlds += 1;
            let row = legal
                .iter()
                .map(|a| {
                    let mut w = world.clone();
                    match w.apply(a, t.me) {
                        Ok(_) => w.play_out(&t.spec, t.me),
                        Err(_) => f64::NEG_INFINITY,
                    }
                })
                .collect();
            values.push(row);
            weights.push(weight);
        }
        self.stats.searched += 1;
        // The playout policy's own choice on the seat's view: what the search must beat.
        let model = (t.spec.playout_policy)(t.own.as_ref(), t.world.game.decision(), legal);
        let base = legal.iter().position(|a| *a == model);
        let sure = self.budget.sure.unwrap_or(t.spec.search_sure);
        Some(legal[choose(&values, &weights, base, sure)].clone())
    }

    /// What the bot would search on now: up to `k` worlds (the one it follows first), each as
    /// the JSON views of every seat in it; `None` when it follows no world. For tests and tools:
    /// every world's view of the bot's own seat is the seat's real view.
    pub fn sampled_views(&mut self, k: usize) -> Option<Vec<Vec<serde_json::Value>>> {
        self.ensure_tracker();
        let t = self.tracker.as_mut()?;
        if !t.catch_up(&mut self.rng) {
            return None;
        }
        let mut out = Vec::new();
        for i in 0..k {
            let w = if i == 0 {
                Some(t.world.clone())
            } else {
                t.sample(&mut self.rng).map(|(w, _)| w)
            };
            if let Some(w) = w {
                out.push(w.views.iter().map(|v| v.to_json()).collect());
            }
        }
        Some(out)
    }

    /// `simple` on the seat's own view (when no world fits the lines).
    fn fallback(&self, decision: &str, legal: &[String]) -> String {
        let Some(t) = &self.tracker else {
            return legal[0].clone();
        };
        let choice = (t.spec.simple_policy)(t.own.as_ref(), decision, legal);
        if legal.contains(&choice) {
            choice
        } else {
            legal[0].clone()
        }
    }
}

impl Bot for Pimc {
    fn name(&self) -> &str {
        &self.name
    }

    fn version(&self) -> &str {
        env!("CARGO_PKG_VERSION")
    }

    fn start(&mut self, info: &GameInfo, rngseed: u64) {
        self.rng = Rng::new(rngseed ^ self.seed, Purpose::Bot, 0);
        self.early.clear();
        self.begin(info);
    }

    fn notify(&mut self, kind: &str, args: &[Arg]) {
        if kind == "game" {
            self.tracker = None;
            self.early.clear();
        }
        if self.setup.take(kind, args) {
            return;
        }
        match kind {
            "rngseed" => {
                if let Some(s) = args.first().and_then(|a| a.parse::<u64>().ok()) {
                    self.rng = Rng::new(s ^ self.seed, Purpose::Bot, 0);
                }
            }
            _ if NOT_EVENTS.contains(&kind) => {}
            _ => {
                self.ensure_tracker();
                let line = (kind.to_string(), Args::from(args));
                match &mut self.tracker {
                    Some(t) => {
                        t.own.observe(&line.0, &line.1);
                        t.observed.push(line);
                    }
                    None => self.early.push(line),
                }
            }
        }
    }

    fn act(&mut self, decision: &str, time_ms: u64, legal: &[String]) -> String {
        if legal.is_empty() {
            return String::new();
        }
        self.ensure_tracker();
        match self.search(legal, time_ms) {
            Some(a) if legal.contains(&a) => a,
            other => {
                if std::env::var_os("CROUPIER_PIMC_DEBUG").is_some() {
                    eprintln!("pimc: {decision} by simple (search gave {other:?} for {legal:?})");
                }
                self.stats.fell_back += 1;
                self.fallback(decision, legal)
            }
        }
    }
}
