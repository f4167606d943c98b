//! Faults at the table: a fault as the referee sees it while asking, the run's tally of ruled
//! faults per player, the substitute action played for a faulting seat, and the messages a
//! stopped run's error starts with.

use crate::chance::{Purpose, Rng};
use crate::game::{FaultRuling, Game, Seat};
use std::sync::Mutex;

/// A fault seen while asking a bot for a decision.
pub(super) struct Fault {
    pub(super) kind: &'static str,
    pub(super) message: String,
    pub(super) restart: bool,
}

/// Ruled faults per player (index = player) over a run; tables playing at once share it, so
/// with `--concurrency` above 1 which game a disqualification first touches depends on timing.
#[derive(Debug, Default)]
pub struct FaultTally(Mutex<Vec<u64>>);

impl FaultTally {
    /// Counts one fault of player `p`; returns the player's count now.
    pub(super) fn add(&self, p: usize) -> u64 {
        let mut v = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if v.len() <= p {
            v.resize(p + 1, 0);
        }
        v[p] += 1;
        v[p]
    }
    pub(super) fn count(&self, p: usize) -> u64 {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(p)
            .copied()
            .unwrap_or(0)
    }
}

/// The error of a run stopped by `--on-fault abort` starts with this.
pub const ABORTED: &str = "aborted (--on-fault abort): ";
/// How the error of [`Table::play`](super::Table::play) starts when a person at a `human` seat stopped the run
/// ([`Bot::stopped`](crate::bots::Bot::stopped)) before choosing anything in the game: it is not finished and not
/// recorded. Once the person has chosen an action, the game ends there as forfeited by their
/// seat instead, so that nothing played is lost, and [`Table::take_left`](super::Table::take_left) says why.
pub const STOPPED: &str = "stopped: ";

/// The fault kind of a person who left a `human` seat (its forfeit's kind): no one is there.
pub const LEFT_FAULT: &str = "dead";

/// The action played for a seat that faulted: what the rules say ([`Game::on_fault`]), else a
/// legal action drawn from the game seed and the action's index (so `replay` draws the same).
/// `None` when the rules settled the turn without an action.
pub fn substitute_for(
    game: &mut dyn Game,
    seat: Seat,
    kind: &str,
    game_seed: u64,
    action_index: usize,
) -> Result<Option<String>, String> {
    let t = match game.on_fault(seat, kind) {
        FaultRuling::Handled => return Ok(None),
        FaultRuling::Play(t) => t,
        FaultRuling::Substitute => {
            let legal = game.legal_actions();
            if legal.is_empty() {
                return Err("internal error: no legal action for a substitute".into());
            }
            let i = Rng::few(game_seed, Purpose::Substitute, action_index as u64).below(legal.len() as u64) as usize;
            legal[i].clone()
        }
    };
    game.apply(&t)
        .map_err(|e| format!("internal error: substitute {t} refused: {e}"))?;
    Ok(Some(t))
}

/// A bot's text cut to `n` characters for a message, with `…` where it was cut.
pub(super) fn truncate(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        format!("{}…", s.chars().take(n).collect::<String>())
    }
}
