//! Replaying the seat's lines on a world: one action at a time, each checked against the lines
//! the seat received, and why a replay stopped ([`Mismatch`]) when the world refused or
//! contradicted them.

use super::layout::{cards_in, Layout};
use super::tracker::Tracker;
use super::world::{Line, Routed, World};
use crate::cards::Card;
use crate::chance::Rng;
use crate::game::{Arg, Args, Seat};
use std::borrow::Cow;

/// Why a replay stopped: the world refused or contradicted what the seat saw.
pub(super) struct Mismatch {
    /// The seat whose action failed, the token it really played (if the lines name it), and
    /// the world's legal tokens for it.
    pub(super) seat: Option<Seat>,
    pub(super) token: Option<String>,
    pub(super) legal: Vec<String>,
    /// Where in the seat's lines it failed.
    pub(super) pos: usize,
    /// What the failing seat holds in the world at that point (its view's `hand`).
    pub(super) held: Vec<Card>,
    /// The first line that differs: (the world's, the seat's).
    pub(super) lines: Option<(Line, Line)>,
    /// Where the seat's differing line is among its lines, when a deal's opening lines differ.
    pub(super) line_at: Option<usize>,
    /// Where the seat's differing line is among its lines (any differing line).
    pub(super) seen_at: Option<usize>,
    /// What every seat holds in the world (their views' `hand`) when the seat's lines have come
    /// to `hands_at`; only for a game whose lines show hands ([`DealLines::shows`](crate::game::DealLines::shows)).
    pub(super) hands: Vec<Vec<Card>>,
    pub(super) hands_at: usize,
}

impl Mismatch {
    /// A deal that does not fit the lines from `pos` (no seat's action to blame).
    pub(super) fn of_deal(pos: usize, lines: Option<(Line, Line)>) -> Box<Mismatch> {
        Box::new(Mismatch {
            seat: None,
            token: None,
            legal: Vec::new(),
            pos,
            held: Vec::new(),
            lines,
            line_at: None,
            seen_at: None,
            hands: Vec::new(),
            hands_at: pos,
        })
    }

    /// How far the lines before it go: the cards in them are where they are at this line.
    pub(super) fn upto(&self) -> usize {
        self.seen_at.unwrap_or(self.pos)
    }
}

impl Tracker {
    /// Compares lines the world routed with the seat's from `pos`: the first difference, with
    /// the index of the seat's line that differs.
    fn differ_at(&self, got: &[Routed], pos: usize) -> Option<(usize, (Line, Line))> {
        for (k, (kind, args)) in got.iter().enumerate() {
            let g = || (kind.to_string(), args.clone());
            match self.observed.get(pos + k) {
                Some(o) if o.0 == *kind && o.1 == *args => {}
                Some(o) => return Some((pos + k, (g(), o.clone()))),
                None => return Some((pos + k, (g(), (String::new(), Args::new())))),
            }
        }
        None
    }

    /// Whether the seat's lines show a deal made by the action at `m`, and `m`'s differing
    /// line (if any) is of that deal, not of the action's lines before it.
    fn differs_in_next_deal(&self, m: &Mismatch) -> bool {
        match self.next_deal_at(m.pos) {
            Some(at) => m.seen_at.is_none_or(|seen| seen >= at),
            None => false,
        }
    }

    /// The token the seat's lines from `pos` show `seat` playing (`move <seat> <token> …`):
    /// borrowed from the line (read from text, as the seat's lines are), written otherwise.
    fn shown_token(&self, pos: usize, seat: Seat) -> Option<Cow<'_, str>> {
        self.observed[pos..]
            .iter()
            .find(|(k, a)| k == "move" && a.first().and_then(|s| s.parse::<Seat>().ok()) == Some(seat))
            .and_then(|(_, a)| match a.get(1)? {
                Arg::Text(t) => Some(Cow::Borrowed(t.as_str())),
                other => Some(Cow::Owned(other.to_string())),
            })
    }

    /// One action of `world` that routes to the seat the lines from `pos`: the shown token
    /// first, else (a hidden action) any legal one whose lines agree. Returns its index among
    /// the legal actions and the lines consumed. `count`: the legal actions' count, where the
    /// caller has just made the list (`legal_count`); `None` makes it here.
    ///
    /// With `in_place`, a shown token is applied to `world` itself, not to a copy: faster (a
    /// copy of the game and every view per action was a tenth of a Skwitz search), but on a
    /// mismatch `world` is left after the action (the caller drops it) and the seat's cards
    /// the mismatch names are those it held after the action, with the card the token plays.
    ///
    /// The legal actions' tokens are written only where they are needed (a hidden action, a
    /// mismatch to describe): a shown token is looked up among the typed legal actions. They are
    /// those of the state before the action even when `world` is past it: the list the last
    /// `legal_count` made stays until the next ([`Game::legal_index`]).
    pub(super) fn step(
        &self,
        world: &mut World,
        pos: usize,
        rng: &mut Rng,
        in_place: bool,
        count: Option<usize>,
    ) -> Result<(usize, usize), Box<Mismatch>> {
        let seat = world.game.to_move().expect("a seat to move");
        let count = count.unwrap_or_else(|| world.game.legal_count());
        // A game without typed legal actions makes its tokens from its state: before the action.
        let eager = (!world.game.indexed()).then(|| world.game.legal_actions());
        let tokens = |world: &World| -> Vec<String> {
            match &eager {
                Some(l) => l.clone(),
                None => (0..count).map(|i| world.game.legal_token(i)).collect(),
            }
        };
        let shown = self.shown_token(pos, seat);
        // The shown token's place among the legal actions: applied by it, not read again.
        let offered = shown.as_deref().and_then(|t| world.game.legal_index(t));
        // `hands_at`: how far the seat's lines go at the state of `world`.
        let mismatch = |world: &World, lines: Option<(usize, (Line, Line))>, played: Option<Card>, hands_at: usize| {
            let mut held = hand(world, seat);
            held.extend(played.filter(|c| !held.contains(c)));
            let hands = if self.spec.deal_lines.shows.is_empty() {
                Vec::new()
            } else {
                hands(world)
            };
            Box::new(Mismatch {
                seat: Some(seat),
                token: shown.as_deref().map(str::to_owned),
                legal: tokens(world),
                pos,
                held,
                seen_at: lines.as_ref().map(|(at, _)| *at),
                lines: lines.map(|(_, d)| d),
                line_at: None,
                hands,
                hands_at,
            })
        };
        if let (Some(t), Some(i), true) = (shown.as_ref(), offered, in_place) {
            let got = world
                .apply_legal(i, self.me)
                .map_err(|_| mismatch(world, None, None, pos))?;
            return match self.differ_at(&got, pos) {
                None => Ok((i, got.len())),
                Some(d) => {
                    let played = cards_in(&[Arg::Text(t.to_string())]).first().copied();
                    Err(mismatch(world, Some(d), played, pos + got.len()))
                }
            };
        }
        if let (Some(_), Some(i)) = (shown.as_ref(), offered) {
            let mut w = world.clone();
            let got = w
                .apply_legal(i, self.me)
                .map_err(|_| mismatch(world, None, None, pos))?;
            return match self.differ_at(&got, pos) {
                None => {
                    *world = w;
                    Ok((i, got.len()))
                }
                Some(d) => Err(mismatch(world, Some(d), None, pos)),
            };
        }
        // Not a token the world offers: a hidden action, or a card this world did not deal there.
        let mut fits = Vec::new();
        let mut first_difference = None;
        for (i, t) in tokens(world).into_iter().enumerate() {
            let mut w = world.clone();
            if let Ok(got) = w.apply(&t, self.me) {
                match self.differ_at(&got, pos) {
                    None if !got.is_empty() => fits.push((i, w, got.len())),
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
                pos,
            ));
        }
        let (i, w, used) = fits.swap_remove(rng.below(fits.len() as u64) as usize);
        *world = w;
        Ok((i, used))
    }

    /// The lines of the current deal replayed on `layout` from its base; the world at
    /// `upto` lines, or why not. With `stop_at_deal`, an action that the lines show and that
    /// makes the next deal ends the replay there (the lines from it are the next deal's). With
    /// `weigh`, the weight of the world (how well the others' actions fit `simple`) is worked out;
    /// otherwise it is 1.
    pub(super) fn replay(
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
                let (w, got) = World::start(&self.spec, &self.info, layout.specs(), self.seed, self.views)
                    .map_err(|_| no_fit(None))?;
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
            // How likely the others' actions are if they play like the playout policy (the
            // search's model of them: `simple` in every game).
            let seat = world.game.to_move().expect("a seat to move");
            // The legal actions listed once for the policy and the step: the policy's choice
            // and the action applied are indices into the same list.
            let count = world.game.legal_count();
            let expected = (weigh && seat != self.me).then(|| world.policy_counted(&self.spec, seat));
            // A sample's replay follows the world itself; a refit's keeps the world before a
            // failed action, to ask whether that action made the next deal.
            match self.step(&mut world, pos, rng, !stop_at_deal, Some(count)) {
                Ok((applied, used)) => {
                    if expected.is_some_and(|i| i != applied) {
                        weight *= self.infer;
                    }
                    pos += used;
                }
                // The lines from here are the next deal's: this one fits up to them.
                // (Only where the seat's lines show a deal after it: otherwise the world's
                // deal ended where the seat's goes on, and this one does not fit. And only
                // where the lines differ from the next deal's on: the action's lines before
                // it, a hand shown at this deal's end, a Zwikken `zwik`, are this deal's to fit.)
                Err(m) if stop_at_deal && self.differs_in_next_deal(&m) && makes_deal(&world, &m, deals) => break,
                Err(m) => return Err(m),
            }
        }
        Ok((world, pos, weight))
    }
}

/// Whether the action `m` names makes the next deal in `world` (which has made `deals`).
fn makes_deal(world: &World, m: &Mismatch, deals: usize) -> bool {
    let Some(t) = m.token.as_ref().filter(|t| m.legal.contains(t)) else {
        return false;
    };
    let mut w = world.clone();
    w.game.apply(t).is_ok() && w.deals() > deals
}

/// What `seat` holds in `world`, in card order: as the game tells it
/// ([`Game::seat_cards`](crate::game::Game::seat_cards); with or without views, so that both decide
/// alike), else as its view does.
fn hand(world: &World, seat: Seat) -> Vec<Card> {
    if let Some(mut cards) = world.game.seat_cards(seat) {
        cards.sort_unstable_by_key(|c| c.index());
        return cards;
    }
    if let Some(held) = world.views[seat].held() {
        return held.to_vec();
    }
    world.views[seat].to_json()["hand"]
        .as_array()
        .map(|a| a.iter().filter_map(|c| c.as_str().and_then(Card::from_token)).collect())
        .unwrap_or_default()
}

/// What every seat holds in `world`.
pub(super) fn hands(world: &World) -> Vec<Vec<Card>> {
    (0..world.game.players()).map(|s| hand(world, s)).collect()
}
