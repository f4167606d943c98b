//! `croupier serve-bot`: on a bot's machine, serves a bot program to referees that connect
//! (`--seat tcp://HOST:PORT?token=FILE`), a fresh process per connection, run unchanged
//! (croupier_net::relay::serve).

use crate::cli::args::at_least_one_usize;
use crate::cli::exit::{usage, Outcome};
use clap::Args;
use croupier_net::relay::{serve, Serve};
use std::path::PathBuf;
use std::sync::Arc;

#[derive(Args, Debug)]
pub struct ServeBotArgs {
    /// Where to listen, HOST:PORT (0.0.0.0:7001 for every interface; port 0 picks one).
    #[arg(long, value_name = "ADDR")]
    pub listen: String,
    /// Where the certificate and the token (serve-bot.token, mode 0600) are kept; the referee's
    /// machine needs a copy of the token.
    #[arg(long, default_value = "croupier-keys", value_name = "DIR")]
    pub keys: PathBuf,
    /// Bots running at once at most; a referee beyond them is refused (busy).
    #[arg(long, default_value = "8", value_parser = at_least_one_usize)]
    pub max_bots: usize,
    /// Append a line per connection (and per refusal) to FILE.
    #[arg(long, value_name = "FILE")]
    pub log: Option<PathBuf>,
    /// Say nothing on stderr about connections.
    #[arg(long, short)]
    pub quiet: bool,
    /// The bot's command line, after `--`.
    #[arg(last = true, required = true, value_name = "BOT")]
    pub bot: Vec<String>,
}

pub fn run(a: ServeBotArgs) -> Outcome {
    let quiet = a.quiet;
    let say: Arc<dyn Fn(&str) + Send + Sync> = Arc::new(move |m: &str| {
        if !quiet {
            eprintln!("croupier serve-bot: {m}");
        }
    });
    let ready = |addr: std::net::SocketAddr, fingerprint: &str, token: &std::path::Path| {
        // On stdout, one fact a line, for people and scripts.
        println!("listening {addr}");
        println!("certificate sha256 {fingerprint}");
        println!("token {}", token.display());
        println!("seat tcp://{addr}?token=<a copy of the token on the referee's machine>");
        use std::io::Write;
        let _ = std::io::stdout().flush();
    };
    serve(
        Serve {
            listen: a.listen,
            keys: a.keys,
            argv: a.bot,
            max_bots: a.max_bots,
            log: a.log,
        },
        &ready,
        say,
    )
    .map_err(usage)?;
    Ok(0)
}
