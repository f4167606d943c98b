//! `croupier serve-bot`: on a bot's machine, serves a bot program to referees that connect
//! (`--seat tcp://HOST:PORT?token=FILE`), a fresh process per connection, run unchanged
//! (croupier_net::relay::serve).

use crate::cli::args::at_least_one_usize;
use crate::cli::exit::{usage, Outcome};
use clap::Args;
use croupier_net::relay::{serve, Serve};
use std::io::Write;
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
            // Not eprintln!: a closed stderr (the terminal gone) must not stop a connection.
            let _ = writeln!(std::io::stderr(), "croupier serve-bot: {m}");
        }
    });
    let ready = |addr: std::net::SocketAddr, fingerprint: &str, token: &std::path::Path| {
        // On stdout, one fact a line, for people and scripts. A reader that has gone (a script
        // that read what it needed) does not stop the host: write errors are ignored.
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, "listening {addr}");
        let _ = writeln!(out, "certificate sha256 {fingerprint}");
        let _ = writeln!(out, "token {}", token.display());
        let _ = writeln!(
            out,
            "seat tcp://{addr}?token=<a copy of the token on the referee's machine>"
        );
        let _ = out.flush();
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
