//! The line protocol (v1), both directions. See `protocol.md` for the full description.
//!
//! Referee → bot: a line that starts with a number is a request (`<id> <command> args…`) and
//! gets exactly one response; any other line is a notification and gets none.
//! Bot → referee: `=<id> result` / `?<id> message` (the id may be left out), `#` comments and
//! blank lines (ignored).

/// The protocol version this referee speaks.
pub const VERSION: u32 = 1;

/// A notification as a bot reads it: `kind`, then the arguments, space-separated (the games'
/// notation: their events are such lines), and its appending form.
pub use crate::notation::{notification, write_notification};

/// The setup notifications that start a game for the bot in `seat` (protocol.md): `game`, an
/// `option` per rule option, `players`, `seat`, `rngseed`.
pub fn setup_notifications(
    game: &str,
    options: &crate::options::Options,
    players: usize,
    seat: usize,
    rngseed: u64,
) -> Vec<(&'static str, Vec<String>)> {
    let mut out = vec![("game", vec![game.to_string()])];
    out.extend(options.iter().map(|(k, v)| ("option", vec![k.clone(), v.clone()])));
    out.push(("players", vec![players.to_string()]));
    out.push(("seat", vec![seat.to_string()]));
    out.push(("rngseed", vec![rngseed.to_string()]));
    out
}

/// The arguments of `gameover`: every seat's score.
pub fn gameover_args(scores: &[f64]) -> Vec<String> {
    scores.iter().map(|s| crate::notation::fmt_score(*s)).collect()
}

/// [`gameover_args`] as typed arguments, for the referee: a whole score is a number (written
/// the same: [`crate::notation::fmt_score`] writes a whole score as an integer), any other its
/// text.
pub fn gameover_event_args(scores: &[f64]) -> crate::game::Args {
    scores
        .iter()
        .map(|&s| {
            if s.fract() == 0.0 && s.abs() < 1e15 {
                crate::game::Arg::Int(s as i64)
            } else {
                crate::game::Arg::Text(crate::notation::fmt_score(s))
            }
        })
        .collect()
}

/// A line the referee sent, as a bot reads it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Incoming {
    /// `<id> <command> args…`
    Request {
        id: u64,
        command: String,
        args: Vec<String>,
    },
    /// `<kind> args…`
    Notification { kind: String, args: Vec<String> },
    /// A blank line.
    Blank,
}

/// Splits a referee line (without its newline; a trailing `\r` is ignored).
pub fn parse_incoming(line: &str) -> Incoming {
    let line = line.trim_end_matches('\r');
    let mut words = line.split_whitespace().map(str::to_string);
    let Some(first) = words.next() else {
        return Incoming::Blank;
    };
    if let Ok(id) = first.parse::<u64>() {
        let command = words.next().unwrap_or_default();
        Incoming::Request {
            id,
            command,
            args: words.collect(),
        }
    } else {
        Incoming::Notification {
            kind: first,
            args: words.collect(),
        }
    }
}

/// A line a bot sent, as the referee reads it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// `=<id> text` (id optional).
    Success { id: Option<u64>, text: String },
    /// `?<id> text` (id optional).
    Failure { id: Option<u64>, text: String },
    /// `# …` or a blank line.
    Ignored,
    /// Anything else.
    Garbage(String),
}

/// Reads one bot line (without its newline; a trailing `\r` is ignored).
pub fn parse_reply(line: &str) -> Reply {
    let line = line.trim_end_matches('\r');
    let t = line.trim();
    if t.is_empty() || t.starts_with('#') {
        return Reply::Ignored;
    }
    let (ok, rest) = match t.as_bytes()[0] {
        b'=' => (true, &t[1..]),
        b'?' => (false, &t[1..]),
        _ => return Reply::Garbage(line.to_string()),
    };
    let digits: usize = rest.bytes().take_while(u8::is_ascii_digit).count();
    let id = if digits > 0 {
        match rest[..digits].parse::<u64>() {
            Ok(id) => Some(id),
            // An id too large for any request is not "no id": the line answers nothing.
            Err(_) => return Reply::Garbage(line.to_string()),
        }
    } else {
        None
    };
    let after = &rest[digits..];
    // "=12AS" is not a response: the id must be followed by a space or the end.
    if digits > 0 && !(after.is_empty() || after.starts_with(' ') || after.starts_with('\t')) {
        return Reply::Garbage(line.to_string());
    }
    let text = after.trim().to_string();
    if ok {
        Reply::Success { id, text }
    } else {
        Reply::Failure { id, text }
    }
}

/// A decision request, `<id> act <decision> <time_ms> <legal…>`, as a value that writes itself
/// (straight into a bot's queue: `BotProcess::send_display`).
pub struct ActLine<'a> {
    pub id: u64,
    pub decision: &'a str,
    pub time_ms: u64,
    pub legal: &'a [String],
}

impl std::fmt::Display for ActLine<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} act {} {}", self.id, self.decision, self.time_ms)?;
        self.legal.iter().try_for_each(|t| write!(f, " {t}"))
    }
}

/// The handshake answer of a bot: name, version and the features it asked for.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Hello {
    pub name: String,
    pub version: String,
    pub features: Vec<String>,
}

impl Hello {
    /// Reads the text of a `hello` success response: `<name> <version> [feature…]`.
    pub fn parse(text: &str) -> Result<Hello, String> {
        let mut w = text.split_whitespace();
        let name = w
            .next()
            .ok_or("the hello answer names no bot (expected '=<id> <name> <version>')")?;
        let version = w.next().unwrap_or("?");
        Ok(Hello {
            name: name.to_string(),
            version: version.to_string(),
            features: w.map(str::to_string).collect(),
        })
    }
    pub fn wants_view(&self) -> bool {
        self.features.iter().any(|f| f == "view")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typed_gameover_arguments_write_the_text_ones() {
        let scores = [3.0, -1.5, 0.0, -0.0, -1.5, 1e15, 2.25e16, 1.0 / 3.0];
        let typed = gameover_event_args(&scores);
        let written: Vec<String> = typed.iter().map(|a| a.to_string()).collect();
        assert_eq!(written, gameover_args(&scores));
        assert!(matches!(typed[0], crate::game::Arg::Int(3)));
        for (a, s) in typed.iter().zip(scores) {
            assert_eq!(a.parse::<f64>(), Ok(s), "{a}");
        }
    }

    #[test]
    fn requests_start_with_a_number() {
        assert_eq!(
            parse_incoming("12 act play 500 AS KS\r"),
            Incoming::Request {
                id: 12,
                command: "act".into(),
                args: vec!["play".into(), "500".into(), "AS".into(), "KS".into()]
            }
        );
        assert_eq!(
            parse_incoming("move 2 AS"),
            Incoming::Notification {
                kind: "move".into(),
                args: vec!["2".into(), "AS".into()]
            }
        );
        assert_eq!(parse_incoming("  "), Incoming::Blank);
    }

    #[test]
    fn replies_with_and_without_ids() {
        assert_eq!(
            parse_reply("=12 AS"),
            Reply::Success {
                id: Some(12),
                text: "AS".into()
            }
        );
        assert_eq!(
            parse_reply("= AS\r"),
            Reply::Success {
                id: None,
                text: "AS".into()
            }
        );
        assert_eq!(
            parse_reply("=3"),
            Reply::Success {
                id: Some(3),
                text: String::new()
            }
        );
        assert_eq!(
            parse_reply("?4 unknown command"),
            Reply::Failure {
                id: Some(4),
                text: "unknown command".into()
            }
        );
        assert_eq!(parse_reply("# thinking"), Reply::Ignored);
        assert_eq!(parse_reply(""), Reply::Ignored);
        assert_eq!(parse_reply("AS"), Reply::Garbage("AS".into()));
        assert_eq!(parse_reply("=12AS"), Reply::Garbage("=12AS".into()));
        let huge = "=123456789012345678901234567890 AS";
        assert_eq!(parse_reply(huge), Reply::Garbage(huge.into()));
    }

    #[test]
    fn hello_answers() {
        let h = Hello::parse("mybot 1.2 view").unwrap();
        assert_eq!((h.name.as_str(), h.version.as_str()), ("mybot", "1.2"));
        assert!(h.wants_view());
        assert!(Hello::parse("").is_err());
        assert!(!Hello::parse("x").unwrap().wants_view());
    }
}
