//! `croupier link`: the local process that plays a network seat at the table (not for people:
//! the referee starts it from the seat's spec). To the table it is a bot like any other, so
//! the seat's clocks, faults, restarts and transcripts are a local seat's; its stderr, which
//! the table shows when it ends, says why the link ended.
//!
//! * `link remote NAME`: a `remote:NAME` seat; takes its bot's connection from the referee's
//!   hub (its parent), does the TLS, and carries the lines between the table and the link.
//! * `link dial HOST:PORT --token-file F`: a `tcp://` seat; connects to a bot host
//!   (`croupier serve-bot`) and carries the lines.

use crate::cli::exit::{self, Outcome};
use clap::Subcommand;
use croupier_net::bridge::{bridge, Ended};
use croupier_net::keys::Token;
use std::path::PathBuf;
use std::time::{Duration, Instant};

#[derive(Subcommand, Debug)]
pub enum LinkCmd {
    /// Stand for seat remote:NAME at the table of the referee that started this process.
    Remote { name: String },
    /// Stand for a tcp:// seat: connect to a bot host.
    Dial {
        address: String,
        #[arg(long)]
        token_file: PathBuf,
    },
}

pub fn run(cmd: LinkCmd) -> Outcome {
    match cmd {
        LinkCmd::Remote { name } => remote(&name),
        LinkCmd::Dial { address, token_file } => dial(&address, &token_file),
    }
}

fn remote(name: &str) -> Outcome {
    // SAFETY: getppid has no preconditions.
    let referee = unsafe { libc::getppid() } as u32;
    eprintln!("seat remote:{name}: waiting for its bot to connect");
    let say = |m: &str| eprintln!("seat remote:{name}: {m}");
    let seat = croupier_net::hub::take_seat(referee, name, &say).map_err(|e| (1, e))?;
    let ended = bridge(seat.link, 0, 1);
    drop(seat.hub);
    ended_as(ended, &format!("seat remote:{name}"), "the remote bot")
}

/// The exit of a link that ended: 0 when the table closed it (this process's stdin ended),
/// else 1 with the reason on stderr, which the table reports with the seat's crash.
fn ended_as(ended: Ended, seat: &str, other: &str) -> Outcome {
    match ended {
        Ended::LocalClosed => Ok(exit::OK),
        Ended::PeerClosed => Err((1, format!("{seat}: {other} closed the link"))),
        Ended::Lost(e) => Err((1, format!("{seat}: the link was lost: {e}"))),
    }
}

fn dial(address: &str, token_file: &std::path::Path) -> Outcome {
    let token = Token::read(token_file).map_err(|e| (1, e))?;
    let link = croupier_net::dial::dial(address, &token, Instant::now() + Duration::from_secs(10))
        .map_err(|e| (1, format!("tcp://{address}: {e}")))?;
    ended_as(bridge(link, 0, 1), &format!("tcp://{address}"), "the bot host")
}
