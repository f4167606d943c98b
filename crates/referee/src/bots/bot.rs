//! The seat trait of the built-in bots: what a bot that lives in the referee's process is
//! given (the setup of a game as a value, then its notification lines) and asked (its actions).

use crate::game::{Arg, GameInfo};

/// A bot that lives in the referee's process. It receives what a process bot would receive:
/// the setup of each game (as a value, not as `option` lines to re-parse), then the game's
/// notification lines split into kind and arguments.
pub trait Bot: Send {
    fn name(&self) -> &str;
    fn version(&self) -> &str;
    /// A new game starts (what the setup lines `game`, `option`, `players`, `seat` and
    /// `rngseed` say, already validated by the referee): forget the last game.
    fn start(&mut self, info: &GameInfo, rngseed: u64);
    /// A notification (`game`, `option`, …, game events, `gameover`).
    fn notify(&mut self, kind: &str, args: &[Arg]);
    /// A notification after [`start`](Bot::start) gave the setup as a value: a game event,
    /// `clock`, `fault` or `gameover`, never a setup line (what the referee sends an
    /// in-process bot). The same as [`notify`](Bot::notify) unless a bot takes a shorter path.
    fn event(&mut self, kind: &str, args: &[Arg]) {
        self.notify(kind, args);
    }
    /// A decision: return one of `legal`.
    fn act(&mut self, decision: &str, time_ms: u64, legal: &[String]) -> String;
    /// Whether the bot reads the game's notifications. A table where no bot does plays
    /// without making them.
    fn listens(&self) -> bool {
        true
    }
    /// A decision among `count` legal actions by index alone (their order is `act`'s), for
    /// bots that need no tokens: `typed` is the game's [`typed_legal`](crate::game::Game::typed_legal)
    /// where it has them. `None`: ask [`act`](Bot::act) with the tokens.
    fn act_by_index(&mut self, _decision: &str, _count: usize, _typed: Option<&dyn std::any::Any>) -> Option<usize> {
        None
    }
    /// What the bot's search found at its last decision (each legal action's value), for
    /// `croupier ask`; `None` where it did not search there, or does not search.
    fn analysis(&self) -> Option<crate::bots::analysis::Analysis> {
        None
    }
    /// Why the run must stop after the last [`act`](Bot::act), if it must: a person at a
    /// `human` seat ended the input (Ctrl-D) or pressed Ctrl-C at the prompt. The referee then
    /// ends the game unrecorded. Bots never stop a run.
    fn stopped(&self) -> Option<String> {
        None
    }
}
