//! `croupier play`.

use super::arena::split_name;
use super::bot_args::{bot_key, bot_seed_note};
use super::exit::{self, usage, Outcome};
use super::games::{find_game, player_range};
use super::io;
use super::output::stdout_is_data;
use crate::chance::{derive, parse_deal_file, parse_seed, Chance, DealGame, Purpose};
use crate::game::GameSpec;
use crate::options::Options;
use crate::record::{fmt_score, GameRecord};
use crate::referee::{identity, Config, SeatSpec, Table};
use clap::Args;
use std::path::{Path, PathBuf};

#[derive(Args, Debug)]
pub struct PlayArgs {
    /// The game (see `croupier games`).
    game: String,
    /// Who plays a seat, once per seat in seat order (the first --bot is seat 0): a built-in
    /// bot (random, simple, pimc, ismcts, or one with parameters like pimc:samples=N,ms=N), `human`
    /// (you, at the terminal: your hand, the table and what happened are shown, you answer with
    /// the number of an action or its token, with no time limit; Ctrl-D or Ctrl-C at the
    /// prompt stops the run unrecorded, exit 130), or a command line, split as a shell splits
    /// words (no shell is run). `NAME=SPEC` names the bot's log file, as in `match`. Default:
    /// simple everywhere. `--seat` is its old name (elsewhere --seat is a seat number).
    #[arg(long = "bot", visible_alias = "seat", value_name = "SPEC")]
    seats: Vec<String>,
    /// Number of players (default: the number of --bot, else the game's default).
    #[arg(long, allow_hyphen_values = true, value_parser = super::args::at_least_one_usize)]
    players: Option<usize>,
    /// Number of games (default 1, or the number of games in --deal).
    #[arg(long, allow_hyphen_values = true, value_parser = super::args::at_least_one)]
    games: Option<u64>,
    /// Run seed: fixes every deal (decimal or 0x-hex). `@FILE` reads it from FILE; the
    /// environment variable CROUPIER_SEED also sets it (bots do not inherit it): both keep it
    /// off the command line, which other local users can read. Default: drawn from the OS and
    /// recorded.
    #[arg(long, env = "CROUPIER_SEED", allow_hyphen_values = true, value_parser = super::args::seed_arg)]
    seed: Option<String>,
    #[command(flatten)]
    bots: super::bot_args::BotArgs,
    /// A rule option, name=value (see `croupier rules GAME`); repeatable.
    #[arg(long = "rule", value_name = "NAME=VALUE")]
    rules: Vec<String>,
    /// Write one JSON line per game to FILE (`-` = standard output; the summary then goes to stderr).
    #[arg(long, value_name = "FILE|-")]
    record: Option<String>,
    /// Add to an existing record file instead of refusing to touch it.
    #[arg(long)]
    append: bool,
    /// Play the hands in FILE (JSON; see protocol.md, "Deal files"); `-` reads standard input.
    #[arg(long, value_name = "FILE|-")]
    deal: Option<String>,
    /// Exit with code 4 if any bot faulted.
    #[arg(long)]
    strict: bool,
    /// Directory for the bots' stderr logs: each run writes DIR/<UTC time>-<pid>/<bot>.log.
    #[arg(long, default_value = "croupier-logs")]
    log_dir: PathBuf,
    /// Print only the totals, not a line per game.
    #[arg(long, short)]
    quiet: bool,
}

pub fn run(a: PlayArgs) -> Outcome {
    let spec = find_game(&a.game)?;
    let players = player_count(&a, &spec)?;
    let (seat_specs, log_names) = seats(&a, players)?;
    let options = Options::resolve(&(spec.options)(), spec.name, &a.rules).map_err(usage)?;
    let log_dir = io::run_log_dir(&a.log_dir)?;
    let seed = match &a.seed {
        Some(s) => parse_seed(s).map_err(usage)?,
        None => rand::random::<u64>(),
    };
    let deals = GivenDeals::read(a.deal.as_deref(), players)?;
    let games = a.games.unwrap_or(if deals.games.is_empty() {
        1
    } else {
        deals.games.len() as u64
    });
    if !deals.games.is_empty() && games as usize > deals.games.len() {
        return Err(usage(format!(
            "{} holds {} game(s) but --games asks for {games}",
            deals.file,
            deals.games.len()
        )));
    }
    deals.check(&spec, players, &options, seed, games)?;
    let mut sink = open_record(&a)?;
    let bot_key = bot_key(a.bots.bot_seed.as_deref(), None, &seat_specs).map_err(usage)?;
    crate::cli::listen::start_sandbox(
        &a.bots,
        &log_dir,
        a.record.as_deref().map(std::path::Path::new),
        a.quiet,
    )?;
    crate::cli::listen::start_hub(&a.bots, &seat_specs, 1, &log_dir, a.quiet)?;
    let cfg = config(&a, &seat_specs, log_dir.clone(), seed, bot_key, log_names)?;
    let mut table = Table::new(&seat_specs, cfg).map_err(usage)?;
    let session = Session {
        a: &a,
        spec: &spec,
        options: &options,
        seed,
        deals: &deals,
        games,
        players,
    };
    let (totals, faults) = session.play(&mut table, &mut sink)?;
    table.shutdown();
    let names: Vec<String> = table.players.iter().map(|p| p.name()).collect();
    outln!(
        "seed {seed}{}: {games} game(s) of {}",
        bot_seed_note(bot_key),
        spec.name
    );
    for (s, t) in totals.iter().enumerate() {
        outln!(
            "  seat {s} {:<16} total {:>8}  mean {:>8.3}",
            names[s],
            fmt_score(*t),
            t / games.max(1) as f64
        );
    }
    if faults > 0 {
        match io::logs_note(&log_dir) {
            Some(note) => outln!("  {faults} fault(s); {note}"),
            None => outln!("  {faults} fault(s)"),
        }
        if a.strict {
            return Err((exit::BOT_FAULT, format!("{faults} bot fault(s) under --strict")));
        }
    }
    Ok(exit::OK)
}

/// The number of players: `--players`, else one per `--bot`, else the game's default; the
/// game must be played by that many, and the `--bot`s (if any) must be one per seat.
fn player_count(a: &PlayArgs, spec: &GameSpec) -> Result<usize, (u8, String)> {
    let players = a.players.unwrap_or(if a.seats.is_empty() {
        spec.default_players
    } else {
        a.seats.len()
    });
    if players < spec.min_players || players > spec.max_players {
        return Err(usage(format!(
            "{} is played by {} players, not {players}",
            spec.name,
            player_range(spec)
        )));
    }
    if !a.seats.is_empty() && a.seats.len() != players {
        return Err(usage(format!(
            "{} --bot given for {players} players: give one per seat",
            a.seats.len()
        )));
    }
    Ok(players)
}

/// Who plays each seat (default: simple everywhere), and the name of each seat's logs.
fn seats(a: &PlayArgs, players: usize) -> Result<(Vec<SeatSpec>, Vec<String>), (u8, String)> {
    let seat_strings: Vec<String> = if a.seats.is_empty() {
        vec!["simple".to_string(); players]
    } else {
        a.seats.clone()
    };
    // `NAME=SPEC`: NAME names the bot's log (and transcript) files, as in `match`.
    let seat_specs: Vec<SeatSpec> = seat_strings
        .iter()
        .map(|s| SeatSpec::parse(split_name(s).1))
        .collect::<Result<_, _>>()
        .map_err(usage)?;
    let log_names: Vec<String> = seat_strings
        .iter()
        .zip(&seat_specs)
        .map(|(s, spec)| split_name(s).0.map_or_else(|| spec.display(), str::to_string))
        .collect();
    Ok((seat_specs, log_names))
}

/// The games of `--deal FILE`, with the file's name for messages (none without it).
struct GivenDeals {
    file: String,
    games: Vec<DealGame>,
}

impl GivenDeals {
    /// Reads `--deal FILE` (`-`: standard input) for `players` players.
    fn read(path: Option<&str>, players: usize) -> Result<GivenDeals, (u8, String)> {
        let file = path.map(io::input_name).unwrap_or_default();
        let games = match path {
            Some(path) => {
                let text = io::read_input_text(path)?;
                parse_deal_file(&text, players, &file).map_err(usage)?
            }
            None => vec![],
        };
        Ok(GivenDeals { file, games })
    }

    /// The error of game `g` (from 0) whose given deals are wrong, naming the file and line.
    fn error(&self, g: u64, e: String) -> (u8, String) {
        let line = self.games[g as usize].line;
        usage(format!("{}:{line}: game {}: {e}", self.file, g + 1))
    }

    /// Where a game's given deals are wrong, say so now, naming the file and line: the first
    /// deal of every game is made when the game is set up, before any bot starts.
    fn check(
        &self,
        spec: &GameSpec,
        players: usize,
        options: &Options,
        seed: u64,
        games: u64,
    ) -> Result<(), (u8, String)> {
        for (g, d) in self.games.iter().enumerate().take(games as usize) {
            let chance = Chance::given(derive(seed, Purpose::Game, g as u64), d.deals.clone()).titled(spec.title);
            if let Err(e) = (spec.new_game)(players, options, chance, false) {
                return Err(self.error(g as u64, e));
            }
        }
        Ok(())
    }
}

/// `--record FILE`, opened before the first game: `-` is standard output (the summaries then go
/// to stderr); a file that is not empty is refused without `--append`, and with it must hold
/// croupier records, the new ones added after its last line.
fn open_record(a: &PlayArgs) -> Result<Option<io::Output>, (u8, String)> {
    let Some(name) = a.record.as_deref() else {
        return Ok(None);
    };
    let path = Path::new(name);
    let mut unended = false;
    if io::is_dash(path) {
        // The records are the data on stdout; the summaries go to stderr.
        stdout_is_data();
    } else {
        let existing = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
        if existing > 0 && !a.append {
            return Err(usage(format!(
                "{} already exists and is not empty: use --append to add to it, or another file",
                path.display()
            )));
        }
        if existing > 0 {
            // Add only to a file of croupier records, and after its last line.
            let not_records = |(c, e): (u8, String)| (c, format!("--append: {e}: add records only to a record file"));
            for r in io::records(name, false).map_err(not_records)? {
                r.map_err(not_records)?;
            }
            unended = !io::ends_with_newline(path);
        }
    }
    let mut out = io::open_output(path, "--record", true)?;
    if unended {
        out.write(b"\n").map_err(|e| usage(format!("{name}: {e}")))?;
    }
    Ok(Some(out))
}

/// The referee's settings of the run (`log_dir`: this run's directory of bot logs).
fn config(
    a: &PlayArgs,
    seat_specs: &[SeatSpec],
    log_dir: PathBuf,
    seed: u64,
    bot_key: Option<u64>,
    log_names: Vec<String>,
) -> Result<Config, (u8, String)> {
    let human = seat_specs
        .iter()
        .any(|s| matches!(s, SeatSpec::Builtin(b) if b == "human"));
    Ok(Config {
        move_time: a.bots.move_time,
        startup_time: a.bots.startup_time,
        log_dir,
        bot_seed: derive(seed, Purpose::Bot, u64::MAX),
        bot_key,
        limits: a.bots.limits(),
        trusted: a.bots.trusted(&log_names)?,
        on_fault: a.bots.on_fault,
        clock: a.bots.time,
        max_faults: a.bots.max_faults,
        transcript: a.bots.transcript_dir()?,
        log_names,
        // The summary line of each game, and the record, show the outcome's detail.
        detail: !a.quiet || a.record.is_some(),
        // Nothing reads the actions' tokens and times unless they are recorded, or kept for a
        // person who leaves a human seat mid-game (what was played is saved then).
        tokens: a.record.is_some() || human,
        timing: a.record.is_some() || human,
        ..Config::default()
    })
}

/// The games of a run, played one after the other at one table.
struct Session<'a> {
    a: &'a PlayArgs,
    spec: &'a GameSpec,
    options: &'a Options,
    seed: u64,
    deals: &'a GivenDeals,
    games: u64,
    players: usize,
}

impl Session<'_> {
    /// Plays every game at `table`, each written to `sink` and summed; prints a line per game
    /// (unless `--quiet`). Returns each seat's total and the faults. Ctrl-C or SIGTERM between
    /// games, or a person leaving a human seat, ends the run with what was kept.
    fn play(&self, table: &mut Table, sink: &mut Option<io::Output>) -> Result<(Vec<f64>, usize), (u8, String)> {
        let (a, games) = (self.a, self.games);
        let seat_of = identity(self.players);
        let mut totals = vec![0.0f64; self.players];
        let mut faults = 0usize;
        for g in 0..games {
            if let Some(sig) = crate::interrupt::requested() {
                table.shutdown();
                let kept = match &a.record {
                    Some(r) if r != "-" => format!(", recorded in {r}"),
                    _ => String::new(),
                };
                return Err((
                    crate::interrupt::exit_code(sig),
                    format!("interrupted: {g} of {games} games played{kept}"),
                ));
            }
            let game_seed = derive(self.seed, Purpose::Game, g);
            let deals = self
                .deals
                .games
                .get(g as usize)
                .map(|d| d.deals.clone())
                .unwrap_or_default();
            let given = !deals.is_empty();
            let mut rec: GameRecord = table
                .play(self.spec, self.options, game_seed, deals, &seat_of)
                .map_err(|e| self.game_error(g, given, e))?;
            rec.tags.insert("game".into(), (g + 1).into());
            rec.tags.insert("run_games".into(), games.into());
            if let Some(out) = sink {
                out.write(format!("{}\n", rec.to_line()).as_bytes())
                    .map_err(|e| usage(format!("writing the record: {e}")))?;
            }
            for (t, s) in totals.iter_mut().zip(&rec.result.scores) {
                *t += s;
            }
            faults += rec.faults.len();
            if !a.quiet {
                outln!("{}", summary_line(g + 1, games, &rec));
                for f in &rec.faults {
                    outln!("  fault ({}): {}", f.kind, f.message);
                }
            }
            if let Some(why) = table.take_left() {
                table.shutdown();
                return Err(self.left(g, &why, &rec));
            }
        }
        Ok((totals, faults))
    }

    /// The error of game `g` (from 0) that could not be played to its end (`given`: with
    /// deals of `--deal`).
    fn game_error(&self, g: u64, given: bool, e: String) -> (u8, String) {
        // A later deal of the game that the file gets wrong.
        if given && e.starts_with("deal ") {
            self.deals.error(g, e)
        } else if e.starts_with(crate::referee::ABORTED) {
            (4, format!("game {}: {e}", g + 1))
        } else if let Some(why) = e.strip_prefix(crate::referee::STOPPED) {
            // A person left a human seat: Ctrl-D or Ctrl-C at the prompt.
            let kept = match &self.a.record {
                Some(r) if r != "-" && g > 0 => format!(", recorded in {r}"),
                _ => String::new(),
            };
            let code = crate::interrupt::requested().map_or(130, crate::interrupt::exit_code);
            (
                code,
                format!(
                    "{why}: game {} of {} stopped and not recorded; {g} game(s) played{kept}",
                    g + 1,
                    self.games
                ),
            )
        } else {
            usage(format!("game {}: {e}", g + 1))
        }
    }

    /// A person left a human seat after choosing in game `g` (from 0), for `why`: the game
    /// ended there as their forfeit, and what was played is kept (without --record, in a file
    /// of its own).
    fn left(&self, g: u64, why: &str, rec: &GameRecord) -> (u8, String) {
        let kept = match self.a.record.as_deref() {
            Some("-") => "its record is on standard output".to_string(),
            Some(r) => format!("what was played is recorded in {r} (its last game)"),
            None => match crate::bots::human::keep_left_game(rec) {
                Ok(p) => format!("what was played is saved in {} (croupier show {0})", p.display()),
                Err(e) => format!("what was played could not be saved: {e}"),
            },
        };
        let code = crate::interrupt::requested().map_or(130, crate::interrupt::exit_code);
        (
            code,
            format!(
                "{why}: game {} of {} ends there, forfeited by the human seat; {kept}",
                g + 1,
                self.games
            ),
        )
    }
}

fn summary_line(g: u64, games: u64, rec: &GameRecord) -> String {
    let what = rec
        .result
        .detail
        .get("summary")
        .and_then(|s| s.as_str())
        .unwrap_or("")
        .to_string();
    let scores: Vec<String> = rec
        .result
        .scores
        .iter()
        .map(|s| format!("{:>4}", fmt_score(*s)))
        .collect();
    format!("game {g}/{games}: {what}  scores [{}]", scores.join(" "))
}
