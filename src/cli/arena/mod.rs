//! What `match`, `tournament` and `compare` share: their options, the setup of a run, playing
//! its sets with progress and a record, resuming it from that record, and its end. Each
//! command is in a file of its own (match.rs, tournament.rs, compare.rs).

mod args;
mod plan;
mod progress;
mod report;
mod resume;
mod setup;
mod stopped;
mod tags;

pub(crate) use args::{RunArgs, TableArgs};
pub(crate) use plan::{play_plan, Plan, Played, Sink};
pub(crate) use progress::Progress;
pub(crate) use report::{finish, report};
pub(crate) use resume::{jobs_held, previous_run, repeated_game, resumed_records};
pub(crate) use setup::{
    bots_run, common, limits_canon, parse_bots, parse_spec, run_bot_key, run_seed, split_name, Common,
};
pub use stopped::{resume_command, run_stopped};
pub(crate) use tags::{run_tags, tag_str};
