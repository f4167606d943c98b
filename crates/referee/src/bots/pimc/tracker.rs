//! The tracker: what the seat knows (its lines, its own view) and a world that routed exactly
//! those lines to the seat, with the state of the fits that keep it so. Its methods are in the
//! files of what they do: `follow.rs` (the new lines), `replay.rs`, `repair.rs`, `refit.rs`.

use super::layout::{Layout, Learned, Trace};
use super::world::{Line, World};
use crate::cards::Card;
use crate::game::{GameInfo, GameSpec, Seat, SeatView};
use std::time::Instant;

/// The seat's knowledge as a consistent world, and what is needed to sample others.
pub(super) struct Tracker {
    pub(super) spec: GameSpec,
    pub(super) info: GameInfo,
    pub(super) me: Seat,
    /// Every game line routed to the seat.
    pub(super) observed: Vec<Line>,
    /// A world that routed exactly `observed[..explained]` to the seat.
    pub(super) world: World,
    pub(super) explained: usize,
    /// The current deal: the world before the action that made it (`None`: the game's start),
    /// that action, and where its lines begin in `observed`.
    pub(super) base: Option<(World, String)>,
    pub(super) deal_start: usize,
    /// The deals the rules threw away before the current one, as the last fit made them.
    pub(super) rejected: Vec<u64>,
    /// Set when the lines could not be explained, to how many lines the seat had then: the bot
    /// plays `simple` on its view, and tries again when more lines have come.
    pub(super) lost_at: Option<usize>,
    /// The seat's own view, fed every line: what `simple` decides on when the bot follows no
    /// world (lost, or out of time this decision).
    pub(super) own: Box<dyn SeatView>,
    /// When the catch-up of this decision must stop (its share of the time); set when it did.
    pub(super) deadline: Option<Instant>,
    pub(super) timed_out: bool,
    /// A refit that ran out of time, to go on with.
    pub(super) unfinished: Option<Unfinished>,
    pub(super) seed: u64,
    /// The budget's `infer`: a sampled world's weight per action of another seat unlike the
    /// playout policy's.
    pub(super) infer: f64,
    /// Whether its worlds keep a view per seat ([`World::start`]; for tests and tools).
    pub(super) views: bool,
    /// What the repairs of sampled worlds learned of the current deal ([`Learned`]), which
    /// deal that is (where its lines begin, the world's deal count).
    pub(super) learned: Learned,
    pub(super) learned_for: (usize, usize),
}

/// A refit stopped by the clock: which deal (where its lines start, the world's deal count), the
/// layout and pinned cards it had reached, and the tries it made.
pub(super) struct Unfinished {
    pub(super) key: (usize, usize),
    pub(super) layout: Layout,
    pub(super) pinned: Vec<Card>,
    pub(super) tries: usize,
}

impl Tracker {
    pub(super) fn new(spec: GameSpec, info: GameInfo, seed: u64, infer: f64, views: bool) -> Result<Tracker, String> {
        let me = info.seat;
        let (world, _) = World::start(&spec, &info, Vec::new(), seed, views)?;
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
            lost_at: None,
            own,
            deadline: None,
            timed_out: false,
            unfinished: None,
            seed,
            infer,
            views,
            learned: Learned::default(),
            learned_for: (0, 0),
        })
    }

    /// Where this deal's own lines begin: at its `deal` line (every game starts a deal with
    /// one). The lines of the action that made it before that are the last deal's: a card
    /// played to its last trick, an exchange, the hands shown at its end.
    pub(super) fn deal_lines_from(&self) -> usize {
        if self.base.is_none() {
            return self.deal_start;
        }
        let lines = self.observed.get(self.deal_start..).unwrap_or_default();
        match lines.iter().position(|(k, _)| k == "deal") {
            Some(i) => self.deal_start + i,
            // Not come yet: at least the action's own line is the last deal's.
            None if lines.first().is_some_and(|(k, _)| k == "move") => self.deal_start + 1,
            None => self.deal_start,
        }
    }

    /// Whether the seat's lines show that the action at `pos` made a new deal: a `deal` line
    /// after it, before the next action's `move`. True when the lines end first (nothing tells).
    pub(super) fn deal_follows(&self, pos: usize) -> bool {
        let lines = self.observed.get(pos..).unwrap_or_default();
        let after = match lines.first() {
            Some((k, _)) if k == "move" => &lines[1..],
            _ => lines,
        };
        for (k, _) in after {
            match k.as_str() {
                "deal" => return true,
                "move" => return false,
                _ => {}
            }
        }
        true
    }

    /// The exchanges in this deal's lines before `upto`.
    pub(super) fn trace(&self, upto: usize) -> Trace {
        let from = self.deal_lines_from().min(upto);
        Trace::of(
            &self.observed[from..upto.max(from).min(self.observed.len())],
            &self.spec.deal_lines,
            from,
        )
    }
}
