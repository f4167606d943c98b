//! `croupier bot NAME`: runs a built-in bot as a protocol-speaking process on stdin/stdout.

use super::bot::Bot;
use crate::protocol::{parse_incoming, Incoming, VERSION};
use std::io::{BufRead, Write};

/// Serves the protocol until `quit` or end of input.
pub fn run(bot: &mut dyn Bot, input: impl BufRead, mut output: impl Write) -> std::io::Result<()> {
    if bot.name() == "human" {
        // Its standard input and output would be the referee's pipes, not a person.
        return Err(std::io::Error::other(
            "the built-in bot 'human' is a person at a terminal and plays only inside croupier: \
             croupier play GAME --seat human --seat simple …",
        ));
    }
    for line in input.lines() {
        let line = line?;
        match parse_incoming(&line) {
            Incoming::Blank => {}
            Incoming::Notification { kind, args } => {
                bot.notify(&kind, &crate::game::text_args(args.iter().map(String::as_str)))
            }
            Incoming::Request { id, command, args } => {
                let reply = match command.as_str() {
                    "hello" => match args.first().map(|v| v.parse::<u32>()) {
                        Some(Ok(v)) if v == VERSION => format!("={id} {} {}", bot.name(), bot.version()),
                        _ => format!("?{id} unsupported protocol version (this bot speaks {VERSION})"),
                    },
                    "act" => {
                        let decision = args.first().cloned().unwrap_or_default();
                        let time = args.get(1).and_then(|t| t.parse().ok()).unwrap_or(0);
                        let legal: Vec<String> = args.iter().skip(2).cloned().collect();
                        if legal.is_empty() {
                            format!("?{id} no legal actions were listed")
                        } else {
                            format!("={id} {}", bot.act(&decision, time, &legal))
                        }
                    }
                    "quit" => {
                        writeln!(output, "={id}")?;
                        output.flush()?;
                        return Ok(());
                    }
                    _ => format!("?{id} unknown command"),
                };
                writeln!(output, "{reply}")?;
                output.flush()?;
            }
        }
    }
    Ok(())
}
