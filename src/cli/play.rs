//! `croupier play`.

use super::exit::{self, usage, Outcome};
use super::games::find_game;
use super::io;
use crate::chance::{derive, parse_deal_file, parse_seed, Chance, Purpose};
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
    /// bot (random, simple, pimc, or pimc:samples=N,playouts=N,ms=N,sure=Z,infer=W), `human`
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
    let players = a.players.unwrap_or(if a.seats.is_empty() {
        spec.default_players
    } else {
        a.seats.len()
    });
    if players < spec.min_players || players > spec.max_players {
        return Err(usage(format!(
            "{} is played by {} players, not {players}",
            spec.name,
            super::games::player_range(&spec)
        )));
    }
    if !a.seats.is_empty() && a.seats.len() != players {
        return Err(usage(format!(
            "{} --bot given for {players} players: give one per seat",
            a.seats.len()
        )));
    }
    let seat_strings: Vec<String> = if a.seats.is_empty() {
        vec!["simple".to_string(); players]
    } else {
        a.seats.clone()
    };
    // `NAME=SPEC`: NAME names the bot's log (and transcript) files, as in `match`.
    let seat_specs: Vec<SeatSpec> = seat_strings
        .iter()
        .map(|s| SeatSpec::parse(super::arena::split_name(s).1))
        .collect::<Result<_, _>>()
        .map_err(usage)?;
    let log_names: Vec<String> = seat_strings
        .iter()
        .zip(&seat_specs)
        .map(|(s, spec)| {
            super::arena::split_name(s)
                .0
                .map_or_else(|| spec.display(), str::to_string)
        })
        .collect();
    let options = Options::resolve(&(spec.options)(), spec.name, &a.rules).map_err(usage)?;
    let log_dir = io::run_log_dir(&a.log_dir)?;
    let seed = match &a.seed {
        Some(s) => parse_seed(s).map_err(usage)?,
        None => rand::random::<u64>(),
    };
    let deal_file = a.deal.as_deref().map(io::input_name).unwrap_or_default();
    let deal_games = match &a.deal {
        Some(path) => {
            let text = io::read_input_text(path)?;
            parse_deal_file(&text, players, &deal_file).map_err(usage)?
        }
        None => vec![],
    };
    let games = a.games.unwrap_or(if deal_games.is_empty() {
        1
    } else {
        deal_games.len() as u64
    });
    if !deal_games.is_empty() && games as usize > deal_games.len() {
        return Err(usage(format!(
            "{deal_file} holds {} game(s) but --games asks for {games}",
            deal_games.len()
        )));
    }
    // Where a game's given deals are wrong, say so now, naming the file and line: the first
    // deal of every game is made when the game is set up, before any bot starts.
    let deal_error = |g: u64, e: String| {
        let line = deal_games[g as usize].line;
        usage(format!("{deal_file}:{line}: game {}: {e}", g + 1))
    };
    for (g, d) in deal_games.iter().enumerate().take(games as usize) {
        let chance = Chance::given(derive(seed, Purpose::Game, g as u64), d.deals.clone()).titled(spec.title);
        if let Err(e) = (spec.new_game)(players, &options, chance, false) {
            return Err(deal_error(g as u64, e));
        }
    }
    let mut sink = match a.record.as_deref() {
        None => None,
        Some(name) => {
            let path = Path::new(name);
            let mut unended = false;
            if io::is_dash(path) {
                // The records are the data on stdout; the summaries go to stderr.
                super::output::stdout_is_data();
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
                    let not_records =
                        |(c, e): (u8, String)| (c, format!("--append: {e}: add records only to a record file"));
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
            Some(out)
        }
    };
    let bot_key = super::bot_args::bot_key(a.bots.bot_seed.as_deref(), None, &seat_specs).map_err(usage)?;
    let human = seat_specs
        .iter()
        .any(|s| matches!(s, SeatSpec::Builtin(b) if b == "human"));
    let cfg = Config {
        move_time: a.bots.move_time,
        startup_time: a.bots.startup_time,
        log_dir: log_dir.clone(),
        bot_seed: derive(seed, Purpose::Bot, u64::MAX),
        bot_key,
        limits: a.bots.limits(),
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
    };
    let mut table = Table::new(&seat_specs, cfg).map_err(usage)?;
    let seat_of = identity(players);
    let mut totals = vec![0.0f64; players];
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
        let game_seed = derive(seed, Purpose::Game, g);
        let deals = deal_games.get(g as usize).map(|d| d.deals.clone()).unwrap_or_default();
        let given = !deals.is_empty();
        let mut rec: GameRecord = table.play(&spec, &options, game_seed, deals, &seat_of).map_err(|e| {
            // A later deal of the game that the file gets wrong.
            if given && e.starts_with("deal ") {
                deal_error(g, e)
            } else if e.starts_with(crate::referee::ABORTED) {
                (4, format!("game {}: {e}", g + 1))
            } else if let Some(why) = e.strip_prefix(crate::referee::STOPPED) {
                // A person left a human seat: Ctrl-D or Ctrl-C at the prompt.
                let kept = match &a.record {
                    Some(r) if r != "-" && g > 0 => format!(", recorded in {r}"),
                    _ => String::new(),
                };
                let code = crate::interrupt::requested().map_or(130, crate::interrupt::exit_code);
                (
                    code,
                    format!(
                        "{why}: game {} of {games} stopped and not recorded; {g} game(s) played{kept}",
                        g + 1
                    ),
                )
            } else {
                usage(format!("game {}: {e}", g + 1))
            }
        })?;
        rec.tags.insert("game".into(), (g + 1).into());
        rec.tags.insert("run_games".into(), games.into());
        if let Some(out) = &mut sink {
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
            // A person left a human seat after choosing: the game ended there as their
            // forfeit, and what was played is kept (without --record, in a file of its own).
            table.shutdown();
            let kept = match a.record.as_deref() {
                Some("-") => "its record is on standard output".to_string(),
                Some(r) => format!("what was played is recorded in {r} (its last game)"),
                None => match crate::bots::human::keep_left_game(&rec) {
                    Ok(p) => format!("what was played is saved in {} (croupier show {0})", p.display()),
                    Err(e) => format!("what was played could not be saved: {e}"),
                },
            };
            let code = crate::interrupt::requested().map_or(130, crate::interrupt::exit_code);
            return Err((
                code,
                format!(
                    "{why}: game {} of {games} ends there, forfeited by the human seat; {kept}",
                    g + 1
                ),
            ));
        }
    }
    table.shutdown();
    let names: Vec<String> = table.players.iter().map(|p| p.name()).collect();
    outln!(
        "seed {seed}{}: {games} game(s) of {}",
        super::bot_args::bot_seed_note(bot_key),
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
