//! `croupier connect`: on a bot's machine, plays a referee's `remote:NAME` seat with a bot
//! program run unchanged (croupier_net::relay::connect): the bot's stdin and stdout are the
//! seat's lines, its stderr stays here.

use crate::cli::args::{at_least_one_usize, parse_duration};
use crate::cli::exit::{self, usage, Outcome};
use clap::Args;
use croupier_net::keys::Token;
use croupier_net::relay::{connect, Connect};
use std::io::Write;
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct ConnectArgs {
    /// Where the referee listens, HOST:PORT. Default: the address in the token.
    pub address: Option<String>,
    /// The seat's token file, as the referee made it (`--keys DIR/NAME.token`), mode 0600.
    #[arg(long, value_name = "FILE")]
    pub token_file: PathBuf,
    /// How long to keep trying to reach the referee, at the start and after a link ends,
    /// before ending (the match is over when its referee stops listening).
    #[arg(long, default_value = "30s", value_name = "DURATION", value_parser = parse_duration)]
    pub retry_for: std::time::Duration,
    /// End after the first link, instead of connecting again (a restart of the seat).
    #[arg(long)]
    pub once: bool,
    /// Links at once, each with its own bot process: as many as the referee runs the seat at
    /// once (a bot in two seats of a match, or at two tables).
    #[arg(long, default_value = "1", value_parser = at_least_one_usize)]
    pub sessions: usize,
    /// Say nothing on stderr (errors aside).
    #[arg(long, short)]
    pub quiet: bool,
    /// The bot's command line, after `--`.
    #[arg(last = true, required = true, value_name = "BOT")]
    pub bot: Vec<String>,
}

pub fn run(a: ConnectArgs) -> Outcome {
    let token = Token::read(&a.token_file).map_err(usage)?;
    let c = Connect {
        address: a.address.clone().unwrap_or_else(|| token.address.clone()),
        token,
        argv: a.bot.clone(),
        retry_for: a.retry_for,
        once: a.once,
    };
    let quiet = a.quiet;
    let results: Vec<Result<(), String>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..a.sessions)
            .map(|k| {
                let c = &c;
                s.spawn(move || {
                    let say = |m: &str| {
                        if !quiet {
                            // Not eprintln!: a closed stderr must not end the seat's link.
                            let _ = match a.sessions {
                                1 => writeln!(std::io::stderr(), "croupier connect: {m}"),
                                _ => writeln!(std::io::stderr(), "croupier connect [{k}]: {m}"),
                            };
                        }
                    };
                    connect(c, &say)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or(Err("a session panicked".into())))
            .collect()
    });
    match results.into_iter().find_map(Result::err) {
        None => Ok(exit::OK),
        Some(e) => Err((1, e)),
    }
}
