//! `croupier completions SHELL`: the shell completion scripts, made from the command line with
//! the games and the built-in bots as hints.

use super::exit::Outcome;
use super::output::write_stdout;

/// Writes the completion script of `shell` for `cmd`, the command line, to stdout.
pub(super) fn run(shell: clap_complete::Shell, mut cmd: clap::Command) -> Outcome {
    let mut out = Vec::new();
    // Built first: the subcommands' arguments are deferred (`Command`'s `defer`, for start-up)
    // and exist only once built.
    cmd.build();
    clap_complete::generate(shell, &mut with_names(cmd), "croupier", &mut out);
    write_stdout(&out)
}

/// The command line as the completion scripts see it: a game's argument offers the games, a
/// bot's (`--bot`, `--candidate`, `--baseline`, `--field`, `check SPEC`, `bot NAME`) the
/// built-in bots, with their lines as help where a shell shows it. Only the scripts see these
/// names, as static hints: the parser that runs is `Cli`'s, untouched, so a bot stays any spec
/// (`mix:p=0.9`, `NAME=SPEC`, a command line) and an unknown game keeps croupier's own message.
/// (Static rather than clap_complete's dynamic engine: the script stays self-contained and the
/// same in all five shells, needs no unstable feature and does not run croupier at each Tab.)
fn with_names(cmd: clap::Command) -> clap::Command {
    use clap::builder::{PossibleValue, PossibleValuesParser};
    let games: Vec<PossibleValue> = crate::games::all()
        .iter()
        .map(|g| PossibleValue::new(g.name).help(g.summary))
        .collect();
    // `mix` needs its p: offered with one, as the help's example gives it.
    let bots = |human: bool| -> Vec<PossibleValue> {
        crate::bots::BUILTIN
            .iter()
            .filter(|(name, _)| human || *name != "human")
            .map(|&(name, help)| PossibleValue::new(if name == "mix" { "mix:p=0.7" } else { name }).help(help))
            .collect()
    };
    let name = cmd.get_name().to_string();
    let hinted: Vec<(clap::Id, Vec<PossibleValue>)> = cmd
        .get_arguments()
        .filter_map(|a| {
            let id = a.get_id().as_str();
            let bot = matches!(a.get_long(), Some("bot" | "candidate" | "baseline" | "field"))
                || (name == "check" && id == "spec")
                || (name == "bot" && id == "name");
            if id == "game" {
                Some((a.get_id().clone(), games.clone()))
            } else if bot {
                Some((a.get_id().clone(), bots(name == "play")))
            } else {
                None
            }
        })
        .collect();
    let mut cmd = cmd;
    let any = !hinted.is_empty();
    for (id, names) in hinted {
        cmd = cmd.mut_arg(id, |a| a.value_parser(PossibleValuesParser::new(names)));
    }
    // The command is built, so its `--help` is already there, made before the hints: made again
    // as clap makes it for a command whose values have help lines, and kept last, after the
    // hinted arguments (`mut_arg` moves an argument to the end), as in the scripts before `defer`.
    if any && cmd.get_arguments().any(|a| a.get_id() == "help") {
        cmd = cmd.mut_arg("help", |a| {
            a.help("Print help (see more with '--help')")
                .long_help("Print help (see a summary with '-h')")
        });
    }
    let subcommands: Vec<String> = cmd.get_subcommands().map(|c| c.get_name().to_string()).collect();
    for sub in subcommands {
        cmd = cmd.mut_subcommand(sub, with_names);
    }
    cmd
}
