//! Fitting a deal to the seat's lines: the world the bot follows, dealt anew and repaired until
//! its replay routes the seat's lines (a refit, which the clock may stop and the next decision
//! go on with), and the other worlds the search samples.

use super::layout::{cards_in, shuffle_free, Layout, Learned, Place, Trace};
use super::repair::{repair, repair_lines, with_own_hand};
use super::replay::Mismatch;
use super::told::{agree_told, deal_told};
use super::tracker::{Tracker, Unfinished};
use super::world::{Line, World};
use crate::cards::{Card, CardSet};
use crate::chance::Rng;
use std::time::Instant;

/// How many repairs a sampled world may take before it is dropped.
const REPAIRS: usize = 40;
/// How many the world the bot follows may take (it must fit, or the bot plays `simple`).
const REFITS: usize = 150;
/// The fits a refit makes before it looks at the clock.
const MIN_REFITS: usize = 10;

impl Tracker {
    /// The deal of `world` (just made, or the current one) changed until the lines so far fit,
    /// up to the next deal the lines show (its `deal` line; the lines before it, of the action
    /// that made it, are this deal's).
    pub(super) fn refit(&mut self, world: World, rng: &mut Rng) -> Result<World, Box<Mismatch>> {
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
        let mut climb = Climb::default();
        let told = self.told(upto);
        let known = CardSet::from_cards(&self.fixed_cards(&layout, upto));
        for tries in first..REFITS {
            if !told.is_empty() {
                agree_told(&mut layout, &told, known.union(CardSet::from_cards(&pinned)), rng);
            }
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
            match self.replay(&layout, upto, true, false, rng) {
                Ok((w, pos, _)) => {
                    self.explained = pos;
                    self.rejected = layout.rejected;
                    return Ok(w);
                }
                Err(m) => {
                    if std::env::var_os("CROUPIER_PIMC_DEBUG").is_some() {
                        eprintln!(
                            "[{}] refit: at {} (deal from {}, base {}) seat {:?} token {:?} legal {:?} lines {:?}",
                            self.me,
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
                        // (Not where the world shows the line's very cards in another order: a
                        // pile shown in order, Skwitz's table, whose cards an earlier repair put
                        // there in the order of the places they took.)
                        let again = moved.iter().all(|c| pinned.contains(c)) && !same_cards(lines);
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
                    let shown = self.repair_shown(&mut layout, &m, upto);
                    if !shown.is_empty() {
                        pinned.extend(shown);
                        last = m;
                        continue;
                    }
                    if repair(&mut layout, &m, &fixed, &self.trace(m.upto()), rng) {
                        continue;
                    }
                    // The first deal's lines differ in something other than cards: its dealer.
                    if self.base.is_none() && m.lines.is_some() && m.seat.is_none() {
                        layout.dealer = (layout.dealer + 1) % self.info.players;
                        continue;
                    }
                    // Nothing known to change (a bid that tells what a hand holds): move a card
                    // of the seat that failed, keeping what fitted so far.
                    climb.step(&mut layout, &m, &fixed, &self.trace(m.upto()), rng);
                    last = m;
                }
            }
        }
        Err(last)
    }

    /// Another world the seat cannot tell from this one: the cards it has not seen dealt anew
    /// (keeping every place's size), the deal's lines replayed and repaired. `None` when no
    /// repair made it fit.
    /// Each replay tried is counted in `replays`. What its repairs learn of the deal
    /// ([`Learned`]), the next samples of the deal keep to.
    pub(super) fn sample(&mut self, rng: &mut Rng, replays: &mut usize) -> Option<(World, f64)> {
        let deal = self.world.game.chance().deals().last()?.clone();
        let mut layout = Layout::of(&deal);
        layout.rejected = self.rejected.clone();
        let key = (self.deal_start, self.world.deals());
        if self.learned_for != key {
            self.learned_for = key;
            self.learned = Learned::default();
        }
        layout.learned = std::mem::take(&mut self.learned);
        layout.learn = true;
        if self.told_for != (key, self.explained) {
            self.told_for = (key, self.explained);
            self.told = self.told(self.explained);
            self.seen = (
                CardSet::from_cards(&self.played_cards(self.explained)),
                self.shown_at_deal(),
            );
        }
        let sampled = self.sample_on(&mut layout, rng, replays);
        self.learned = layout.learned;
        sampled
    }

    /// [`sample`](Self::sample) from `layout` (the fitted deal).
    fn sample_on(&self, layout: &mut Layout, rng: &mut Rng, replays: &mut usize) -> Option<(World, f64)> {
        // The cards shown at the deal stay where the fitted deal has them too: dealt anew, each
        // sample's first replay failed at the deal's first lines, to be repaired there (Skwitz's
        // and Zwikken's open cards: most of their failed replays).
        let (played, shown) = &self.seen;
        let mut fixed = with_own_hand(*played, layout, self.me);
        fixed.extend(shown);
        deal_told(layout, &self.told, &fixed, rng);
        shuffle_free(layout, &fixed, rng);
        for _ in 0..REPAIRS {
            *replays += 1;
            match self.replay(layout, self.explained, false, true, rng) {
                Ok((mut w, _, weight)) => {
                    w.game.reseed(rng.next_u64());
                    return Some((w, weight));
                }
                Err(m) => {
                    if self.fix_rejected(layout, &m, &fixed, rng) {
                        continue;
                    }
                    if !self.repair_shown(layout, &m, self.explained).is_empty() {
                        continue;
                    }
                    if !repair(layout, &m, &fixed, &self.trace(m.upto()), rng) {
                        shuffle_free(layout, &fixed, rng);
                    }
                }
            }
        }
        None
    }
}

/// Whether two lines name the same cards (in any order).
fn same_cards((got, want): &(Line, Line)) -> bool {
    let (mut a, mut b) = (cards_in(&got.1), cards_in(&want.1));
    a.sort();
    b.sort();
    a == b
}

/// Moves without progress after which a local search deals the free cards anew.
const STALL: usize = 40;

/// A local search on a deal that an action no card explains refuses (a bid that tells what the
/// bidder holds, or does not): it swaps a card of the refusing seat with a free card elsewhere,
/// keeps the swap while the replay gets at least as far, and goes back to the farthest layout
/// when it gets less far. Dealing every free card anew instead undoes what earlier actions fitted.
#[derive(Default)]
pub(super) struct Climb {
    /// The farthest layout so far and where its replay failed.
    best: Option<(usize, Layout)>,
    stalled: usize,
}

impl Climb {
    pub(super) fn step(&mut self, layout: &mut Layout, m: &Mismatch, fixed: &[Card], trace: &Trace, rng: &mut Rng) {
        match &self.best {
            Some((pos, _)) if m.pos > *pos => {
                self.best = Some((m.pos, layout.clone()));
                self.stalled = 0;
            }
            Some((pos, best)) if m.pos < *pos => {
                *layout = best.clone();
                self.stalled += 1;
            }
            Some(_) => self.stalled += 1,
            None => self.best = Some((m.pos, layout.clone())),
        }
        if self.stalled >= STALL {
            self.best = None;
            self.stalled = 0;
            shuffle_free(layout, fixed, rng);
            return;
        }
        let Some(seat) = m.seat.filter(|&s| s < layout.hands) else {
            shuffle_free(layout, fixed, rng);
            return;
        };
        // The cards that made the world differ: those a line of the world's names that the
        // seat's does not (a hand that made the world announce something the seat did not
        // see), else the refusing seat's (its hand now); as dealt (each exchange undone).
        let named: Vec<Card> = match &m.lines {
            Some((got, want)) => {
                let wanted = cards_in(&want.1);
                cards_in(&got.1).into_iter().filter(|c| !wanted.contains(c)).collect()
            }
            None => Vec::new(),
        };
        let named: Vec<Card> = named
            .into_iter()
            .filter(|c| !fixed.contains(&trace.origin(*c)))
            .collect();
        let cause = if named.is_empty() { &m.held } else { &named };
        let mine: Vec<usize> = cause
            .iter()
            .map(|&c| trace.origin(c))
            .filter(|c| !fixed.contains(c))
            .filter_map(|c| layout.position(c))
            .collect();
        let others: Vec<usize> = (0..layout.cards.len())
            .filter(|&j| {
                (!named.is_empty() || layout.cards[j].0 != Place::Hand(seat)) && !fixed.contains(&layout.cards[j].1)
            })
            .filter(|&j| !mine.contains(&j))
            .collect();
        if mine.is_empty() || others.is_empty() {
            shuffle_free(layout, fixed, rng);
            return;
        }
        let i = mine[rng.below(mine.len() as u64) as usize];
        let j = others[rng.below(others.len() as u64) as usize];
        layout.swap(i, j);
    }
}
