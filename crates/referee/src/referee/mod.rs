//! The referee: runs games between seats, routes every event to exactly its audience, asks
//! the seat to move for a decision with a deadline, and turns every bot failure into a
//! recorded fault with a deterministic legal substitute.
//!
//! [`config`] holds a table's settings, [`player`] the players and how a bot process is
//! started, [`table`] the table that keeps them across games, [`play`] one game at it step by
//! step, [`ask`] one decision asked of a player, [`faults`] what a fault leads to, [`clock`]
//! the time at the table, [`files`] where bots' logs and transcripts go.

pub mod ask;
pub mod clock;
pub mod config;
pub mod faults;
pub mod files;
pub mod play;
pub mod player;
pub mod table;

pub use clock::{parse_duration, Clock};
pub use config::{remote_link_argv, Config, FaultPolicy, SeatSpec};
pub use faults::{substitute_for, FaultTally, ABORTED, LEFT_FAULT, STOPPED};
pub use files::{log_file_name, transcript_path};
pub use player::Player;
pub use table::{identity, rngseed, Table};
