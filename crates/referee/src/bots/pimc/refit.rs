//! Fitting a deal to the seat's lines: the world the bot follows, dealt anew and repaired until
//! its replay routes the seat's lines (a refit, which the clock may stop and the next decision
//! go on with), and the other worlds the search samples.

use super::layout::{shuffle_free, Layout};
use super::repair::{repair, repair_lines};
use super::replay::Mismatch;
use super::tracker::{Tracker, Unfinished};
use super::world::World;
use crate::chance::Rng;
use std::time::Instant;

/// How many repairs a sampled world may take before it is dropped.
const REPAIRS: usize = 40;
/// How many the world the bot follows may take (it must fit, or the bot plays `simple`).
const REFITS: usize = 150;
/// The fits a refit makes before it looks at the clock.
const MIN_REFITS: usize = 10;

impl Tracker {
    /// The deal of `world` (just made, or the current one) changed until the lines so far fit.
    pub(super) fn refit(&mut self, world: World, stop_at_deal: bool, rng: &mut Rng) -> Result<World, Box<Mismatch>> {
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

    /// Another world the seat cannot tell from this one: the cards it has not seen dealt anew
    /// (keeping every place's size), the deal's lines replayed and repaired. `None` when no
    /// repair made it fit.
    pub(super) fn sample(&self, rng: &mut Rng) -> Option<(World, f64)> {
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
