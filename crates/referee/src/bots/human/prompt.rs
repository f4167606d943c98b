//! The person's answer at a decision: a number, an action token or a label, read as one of the
//! legal actions, or why it is not one; and the prompt that asks for it until it is one.

use super::names::Names;
use super::terminal::{Input, Terminal};

/// What a person typed, as one of the legal actions, or why it is not one: its number (from
/// 1), its token (`AH`, any case) or its label as the menu shows it (`A♥`).
pub fn parse_choice(input: &str, legal: &[String], labels: &[String]) -> Result<usize, String> {
    let t = input.trim();
    let n = legal.len();
    if t.is_empty() {
        return Err(format!("Type a number from 1 to {n}, or an action as listed."));
    }
    if let Ok(k) = t.parse::<i64>() {
        return if k >= 1 && (k as usize) <= n {
            Ok(k as usize - 1)
        } else {
            Err(format!("There is no action {k}: type a number from 1 to {n}."))
        };
    }
    if let Some(i) = legal.iter().position(|a| a == t) {
        return Ok(i);
    }
    let folded: Vec<usize> = (0..n).filter(|&i| legal[i].eq_ignore_ascii_case(t)).collect();
    if let [i] = folded[..] {
        return Ok(i);
    }
    let lower = t.to_lowercase();
    let by_label: Vec<usize> = (0..labels.len().min(n))
        .filter(|&i| labels[i].to_lowercase() == lower)
        .collect();
    if let [i] = by_label[..] {
        return Ok(i);
    }
    Err(format!(
        "'{}' is not one of the actions: type a number from 1 to {n}, or an action token.",
        t.chars().take(40).collect::<String>()
    ))
}

/// Asks the person at `t` for one of `legal` until the answer is one (`plain`: the actions'
/// labels without colour, as a person may type them): its index, or why the person left (end of
/// input or Ctrl-C at the prompt).
pub(super) fn ask(
    t: &mut Terminal,
    names: &Names,
    decision: &str,
    legal: &[String],
    plain: &[String],
) -> Result<usize, String> {
    loop {
        let range = match legal.len() {
            1 => "1".to_string(),
            n => format!("1-{n}"),
        };
        t.write(&format!("Your choice ({range}, Ctrl-D quits): "));
        match t.read_line() {
            Input::Line(line) => match parse_choice(&line, legal, plain) {
                Ok(i) => {
                    let label = names.action(decision, &legal[i]);
                    t.write(&format!("You chose {}: {label} ({})\n", i + 1, legal[i]));
                    return Ok(i);
                }
                Err(why) => t.write(&format!("{why}\n")),
            },
            Input::End => {
                t.write("\nEnd of input: you left the game.\n");
                return Err("end of input (Ctrl-D) at the human seat's prompt".to_string());
            }
            Input::Interrupted => {
                t.write("\nStopped.\n");
                return Err("interrupted at the human seat's prompt".to_string());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bots::human::names::tests::s;

    #[test]
    fn choices_by_number_or_token_and_bad_input_explained() {
        let legal = s(&["AH", "KH", "swap_7H_AS"]);
        let labels = s(&["A♥", "K♥", "swap 7♥ for A♠"]);
        assert_eq!(parse_choice("K♥", &legal, &labels), Ok(1));
        assert_eq!(parse_choice("Swap 7♥ for A♠", &legal, &labels), Ok(2));
        assert_eq!(parse_choice("2", &legal, &labels), Ok(1));
        assert_eq!(parse_choice(" 3 ", &legal, &labels), Ok(2));
        assert_eq!(parse_choice("AH", &legal, &labels), Ok(0));
        assert_eq!(parse_choice("kh", &legal, &labels), Ok(1));
        assert_eq!(parse_choice("SWAP_7h_as", &legal, &labels), Ok(2));
        assert!(parse_choice("0", &legal, &labels).unwrap_err().contains("no action 0"));
        assert!(parse_choice("999", &legal, &labels).unwrap_err().contains("1 to 3"));
        assert!(parse_choice("-1", &legal, &labels).unwrap_err().contains("1 to 3"));
        assert!(parse_choice("", &legal, &labels).unwrap_err().contains("Type a number"));
        assert!(parse_choice("x", &legal, &labels)
            .unwrap_err()
            .contains("'x' is not one of the actions"));
        assert!(parse_choice("QS", &legal, &labels).is_err());
    }
}
