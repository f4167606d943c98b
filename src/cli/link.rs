//! `croupier link`: the local process that plays a network seat at the table (not for people:
//! the referee starts it from the seat's spec). To the table it is a bot like any other, so
//! the seat's clocks, faults, restarts and transcripts are a local seat's; its stderr, which
//! the table shows when it ends, says why the link ended.
//!
//! * `link remote NAME`: a `remote:NAME` seat; waits at the referee's hub (its parent) for the
//!   remote bot and carries the lines between the table and it.
//! * `link dial HOST:PORT --token-file F`: a `tcp://` seat; connects to a bot host
//!   (`croupier serve-bot`) and carries the lines.

use crate::cli::exit::{self, Outcome};
use clap::Subcommand;
use croupier_net::bridge::{bridge, Ended};
use croupier_net::keys::Token;
use croupier_net::plain::{copy_both_ways, First};
use std::os::fd::AsRawFd;
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

/// The exit of a link that ended: 0 when the table closed it (its stdin ended), else 1 with
/// the reason on stderr, which the table reports with the seat's crash.
fn ended_by(table_closed: bool, why: String) -> Outcome {
    if table_closed {
        return Ok(exit::OK);
    }
    Err((1, why))
}

fn remote(name: &str) -> Outcome {
    // SAFETY: getppid has no preconditions.
    let referee = unsafe { libc::getppid() } as u32;
    let hub = croupier_net::hub::wait_for_remote(referee, name).map_err(|e| (1, e))?;
    eprintln!("seat remote:{name}: waiting for its bot to connect");
    let fd = hub.as_raw_fd();
    let first = copy_both_ways(0, 1, fd, fd);
    let why = croupier_net::hub::why(referee, name).unwrap_or_else(|| "the link ended".to_string());
    ended_by(first == First::A, format!("seat remote:{name}: {why}"))
}

fn dial(address: &str, token_file: &std::path::Path) -> Outcome {
    let token = Token::read(token_file).map_err(|e| (1, e))?;
    let link = croupier_net::dial::dial(address, &token, Instant::now() + Duration::from_secs(10))
        .map_err(|e| (1, format!("tcp://{address}: {e}")))?;
    match bridge(link, 0, 1) {
        Ended::LocalClosed => ended_by(true, String::new()),
        Ended::PeerClosed => ended_by(false, format!("tcp://{address}: the bot host closed the link")),
        Ended::Lost(e) => ended_by(false, format!("tcp://{address}: the link was lost: {e}")),
    }
}
