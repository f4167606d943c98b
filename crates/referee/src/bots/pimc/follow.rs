//! Following the seat's lines as they come: the world replays each new line; a deal the seat
//! saw differently is dealt anew until it fits, or the bot is lost and plays `simple` until
//! more lines have come, when it tries again.

use super::layout::Layout;
use super::repair::repair_lines;
use super::replay::hands;
use super::tracker::Tracker;
use super::world::World;
use crate::chance::Rng;
use std::time::Instant;

/// How many cards of the last deal a new deal's first lines may fix (`start_deal`).
const LAST_DEAL_FIXES: usize = 24;
/// How often in a row the lines may fail at one place in one catch-up before the bot gives up.
const STUCK: usize = 8;

impl Tracker {
    /// Follows the seat's new lines with the world; on a contradiction, deals the current deal
    /// anew until it fits. False when nothing fits.
    pub(super) fn catch_up(&mut self, rng: &mut Rng) -> bool {
        // Lost at a line that no fit explained: try again once more lines have come (the cards
        // played since, or a new deal, fix more of the deal; another fit may be found).
        if self.lost_at == Some(self.observed.len()) {
            return false;
        }
        self.lost_at = None;
        if self.explained == 0 && self.base.is_none() && !self.observed.is_empty() {
            // The first deal: make the world's agree with the seat's lines.
            let w = self.world.clone();
            match self.refit(w, rng) {
                Ok(w) => self.world = w,
                Err(_) => return self.fail(),
            }
        }
        let from = self.explained;
        // The last line a fit failed at and how often in a row: a fit that stops where it
        // failed again and again makes no progress (never expected; a guard against a hang).
        let mut stuck = (usize::MAX, 0);
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
            match self.step(&mut w, self.explained, rng, true, None) {
                Ok((_, used)) if w.deals() == deals => {
                    self.world = w;
                    self.explained += used;
                }
                Ok((i, used)) => {
                    // The action made a deal whose lines agree with the world's (a deal the seat sees nothing of).
                    let mut before = before;
                    before.game.legal_count();
                    let token = before.game.legal_token(i);
                    self.base = Some((before, token));
                    self.deal_start = self.explained;
                    self.rejected.clear();
                    self.world = w;
                    self.explained += used;
                }
                Err(m) => {
                    stuck = if stuck.0 == self.explained {
                        (stuck.0, stuck.1 + 1)
                    } else {
                        (self.explained, 1)
                    };
                    if stuck.1 > STUCK {
                        return self.give_up();
                    }
                    if std::env::var_os("CROUPIER_PIMC_DEBUG").is_some() {
                        eprintln!(
                            "[{}] catch_up: at {} token {:?} lines {:?}",
                            self.me, self.explained, m.token, m.lines
                        );
                    }
                    // A deal the seat saw differently: was it this very action's? Then it starts the deal.
                    let token = m.token.clone().filter(|t| m.legal.contains(t));
                    if let Some(token) = token.filter(|_| self.deal_follows(self.explained)) {
                        let mut w = before.clone();
                        if w.apply(&token, self.me).is_ok() && w.deals() > deals && self.start_deal(before, token, rng)
                        {
                            continue 'lines;
                        }
                    }
                    if self.timed_out {
                        return false;
                    }
                    // Otherwise the current deal is wrong, or its lines after the action that
                    // ended it (a hand shown at its end, a Zwikken `zwik`) are not the world's:
                    // deal it anew and replay, up to the next deal's `deal` line. (Fitted through
                    // that action and into the next deal, which a refit of this one deals at
                    // random, it never fitted: a Zwikken session was lost from such a `zwik` to
                    // its end.)
                    let current = self.world.clone();
                    match self.refit(current, rng) {
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
            let m = match self.refit(w, rng) {
                Ok(fitted) => {
                    self.world = fitted;
                    return true;
                }
                Err(m) => m,
            };
            if std::env::var_os("CROUPIER_PIMC_DEBUG").is_some() {
                eprintln!(
                    "[{}] start_deal: refit failed at {} lines {:?}",
                    self.me, m.pos, m.lines
                );
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
            // Or the hands shown after the action (a round's end) tell what the last deal dealt.
            if repair_lines(&mut old, lines, &self.trace(m.upto())).is_empty()
                && self
                    .deal_shown(&mut old, &hands(&before), trigger, self.observed.len())
                    .is_empty()
            {
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
        self.lost_at = Some(self.observed.len());
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
}
