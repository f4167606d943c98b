//! How numbers and lines are written where they leave the engines: a score as a protocol token
//! or record number, a score token read back, and a notification line `kind arg arg …`. Shared
//! by the games (their events and views) and by the layers above (the protocol, the records),
//! so it lives below both.

use serde_json::{json, Value};

/// A score as text: an integer when it is whole (`3`, `-2`, `0`), else with a decimal point
/// (`-1.5`).
pub fn fmt_score(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 1e15 {
        format!("{}", x as i64)
    } else {
        format!("{x}")
    }
}

/// A score token read back as a JSON number (an integer where it is one), or kept as text
/// when it is not a number.
pub fn score_value(s: &str) -> Value {
    if let Ok(n) = s.parse::<i64>() {
        json!(n)
    } else if let Some(n) = s.parse::<f64>().ok().and_then(serde_json::Number::from_f64) {
        Value::Number(n)
    } else {
        json!(s)
    }
}

/// A notification line `kind arg arg …` (without the newline).
pub fn notification<A: std::fmt::Display>(kind: &str, args: &[A]) -> String {
    let mut line = String::with_capacity(kind.len() + 4 * args.len());
    write_notification(&mut line, kind, args);
    line
}

/// [`notification`], appended to `line`.
pub fn write_notification<A: std::fmt::Display>(line: &mut String, kind: &str, args: &[A]) {
    use std::fmt::Write;
    line.push_str(kind);
    for a in args {
        let _ = write!(line, " {a}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_and_lines() {
        assert_eq!(fmt_score(3.0), "3");
        assert_eq!(fmt_score(-1.5), "-1.5");
        assert_eq!(fmt_score(-0.0), "0");
        assert_eq!(score_value("3"), json!(3));
        assert_eq!(score_value("-1.5"), json!(-1.5));
        assert_eq!(score_value("x"), json!("x"));
        assert_eq!(notification("move", &[1, 2]), "move 1 2");
        assert_eq!(notification::<u8>("gameover", &[]), "gameover");
    }
}
