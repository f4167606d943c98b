//! The `ismcts` bot: `pimc`'s tracking of the seat's lines (its worlds), and a tree search on
//! them for each decision; `simple` where no world follows the lines.

use super::params::Params;
use super::search::search;
use crate::bots::bot::Bot;
use crate::bots::pimc::{Budget, Pimc, SearchStats};
use crate::game::{Arg, GameInfo};

/// The `ismcts` bot.
pub struct Ismcts {
    name: String,
    params: Params,
    /// What the seat knows and the worlds that fit it (only its tracking is used).
    tracking: Pimc,
    /// What the searches did (`CROUPIER_PIMC_STATS=1` prints it when the bot ends).
    pub stats: SearchStats,
}

impl Ismcts {
    pub fn new(name: &str, params: Params, seed: u64) -> Ismcts {
        let budget = Budget {
            ms: params.ms,
            replays: params.replays,
            ..Budget::default()
        };
        Ismcts {
            name: name.to_string(),
            params,
            tracking: Pimc::new(name, budget, seed),
            stats: SearchStats::default(),
        }
    }
}

impl Drop for Ismcts {
    fn drop(&mut self) {
        self.stats.print("ismcts");
    }
}

impl Bot for Ismcts {
    /// With `root=paired`, what `pimc`'s rule chose on (each action's walks, world by world);
    /// `root=ucb` gives none.
    fn analysis(&self) -> Option<crate::bots::analysis::Analysis> {
        self.tracking.analysis()
    }

    fn name(&self) -> &str {
        &self.name
    }

    fn version(&self) -> &str {
        env!("CARGO_PKG_VERSION")
    }

    fn start(&mut self, info: &GameInfo, rngseed: u64) {
        self.tracking.start(info, rngseed);
    }

    fn notify(&mut self, kind: &str, args: &[Arg]) {
        self.tracking.notify(kind, args);
    }

    fn act(&mut self, decision: &str, time_ms: u64, legal: &[String]) -> String {
        if legal.is_empty() {
            return String::new();
        }
        let start = std::time::Instant::now();
        self.tracking.ensure_tracker();
        let choice = search(
            &mut self.tracking,
            &self.params,
            decision,
            legal,
            time_ms,
            &mut self.stats,
        );
        self.stats.decided(start);
        match choice {
            Some(a) if legal.contains(&a) => a,
            other => {
                if std::env::var_os("CROUPIER_PIMC_DEBUG").is_some() {
                    eprintln!("ismcts: {decision} by simple (search gave {other:?} for {legal:?})");
                }
                self.stats.fell_back += 1;
                self.tracking.fallback(decision, legal)
            }
        }
    }
}
