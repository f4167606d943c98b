//! The tracker: what the seat knows (its lines, its own view) and a world that routed exactly
//! those lines to the seat, with the state of the fits that keep it so. Its methods are in the
//! files of what they do: `follow.rs` (the new lines), `replay.rs`, `repair.rs`, `refit.rs`.

use super::layout::{Layout, Learned, Trace};
use super::world::{Line, World};
use crate::cards::{Card, CardSet};
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
    /// What the lines tell of cards they do not name ([`told`](Tracker::told)), for which deal
    /// and how many lines: worked out once for a decision's samples.
    pub(super) told: Vec<(Seat, Card, bool)>,
    pub(super) told_for: ((usize, usize), usize),
    /// The cards played in this deal's lines so far and those shown at the deal, for the same
    /// deal and lines as `told`: where the lines put them, in every sample.
    pub(super) seen: (CardSet, Vec<Card>),
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
            told: Vec::new(),
            told_for: ((usize::MAX, 0), 0),
            seen: (CardSet::EMPTY, Vec::new()),
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
    /// after it, before the next action's `move`.
    pub(super) fn deal_follows(&self, pos: usize) -> bool {
        self.next_deal_at(pos).is_some()
    }

    /// Where the seat's lines show the deal that the action at `pos` made: its `deal` line
    /// (before the next action's `move`, or the end of the lines). `None` when there is none:
    /// the action made no deal. (The lines of every action before a decision have all come when
    /// the bot decides, and a deal starts with a `deal` line in every game; a world whose deal
    /// ended where the lines end without one, a Schwimmen round ended on 31 at the dealer's
    /// choice, does not fit: before, its deal was taken for one the seat saw nothing of yet, and
    /// the seat's own deal was lost until the next.)
    pub(super) fn next_deal_at(&self, pos: usize) -> Option<usize> {
        let lines = self.observed.get(pos..).unwrap_or_default();
        let skip = usize::from(lines.first().is_some_and(|(k, _)| k == "move"));
        for (i, (k, _)) in lines.iter().enumerate().skip(skip) {
            match k.as_str() {
                "deal" => return Some(pos + i),
                "move" => return None,
                _ => {}
            }
        }
        None
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

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::game::Arg;
    use crate::options::Options;

    /// A tracker of `seat` at a table of four of `game`, under its default options.
    pub(in crate::bots::pimc) fn tracker(game: &str, seat: Seat) -> Tracker {
        let spec = crate::games::find(game).unwrap();
        let options = Options::from_pairs(&(spec.options)(), game, &[]).unwrap();
        let info = GameInfo {
            game: game.into(),
            options,
            players: 4,
            seat,
        };
        Tracker::new(spec, info, 1, 0.0, false).unwrap()
    }

    /// A line of `kind` with `args`, each a card, a number or a word as it reads.
    pub(in crate::bots::pimc) fn line(kind: &str, args: &str) -> Line {
        let arg = |a: &str| match (Card::from_token(a), a.parse::<i64>()) {
            (Some(c), _) => Arg::Card(c),
            (None, Ok(n)) => Arg::Int(n),
            (None, Err(_)) => Arg::Text(a.into()),
        };
        (kind.to_string(), args.split_whitespace().map(arg).collect())
    }

    #[test]
    fn a_deal_follows_an_action_only_where_the_lines_show_its_deal_line() {
        let mut t = tracker("zwikken", 2);
        t.observed = vec![
            line("move", "0 exchange_KH exchange"),
            line("exchange", "0 KH TH"),
            line("zwik", "1 QS QH QD"),
            line("end", "zwik 1"),
            line("deal", "8 2"),
            line("hand", "KD AC KC"),
            line("move", "3 ken_ask bid"),
            line("say", "3 ik_ken_hem_en_ik_vraag"),
            line("move", "0 pass bid"),
            line("say", "0 pas"),
        ];
        // The exchange ended the deal on a zwik: the next deal's line is the fifth.
        assert_eq!(t.next_deal_at(0), Some(4));
        assert!(t.deal_follows(0));
        // A bid, with the next bid after it.
        assert_eq!(t.next_deal_at(6), None);
        // The last action, whose lines have all come (the seat decides next): no deal.
        assert_eq!(t.next_deal_at(8), None);
        assert!(!t.deal_follows(8));
    }
}
