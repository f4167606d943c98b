//! Which `move` lines are actions the rules took for a seat, not its choice ([`RulesMoves`]).

/// Which `move` lines are actions the rules took for a seat, not its choice (protocol.md §4:
/// a Rikken automatic re-pass, the fourth ace the rules call in three-ace malheur): such a line
/// gets a last argument `auto`, which [`WORDS`](super::words::WORDS) words apart. Fed every
/// line of a game in order.
#[derive(Default)]
pub struct RulesMoves {
    /// Rikken: who has passed in this auction (a seat that passed may not bid again).
    passed: Vec<bool>,
    /// Rikken: the declarer showed three aces; the next call is the rules'.
    fourth_ace: bool,
}

impl RulesMoves {
    /// Adds `auto` to the arguments of `kind args` if the rules took the action.
    pub fn mark(&mut self, game: &str, kind: &str, args: &mut Vec<String>) {
        if game != "rikken" {
            return;
        }
        match kind {
            "deal" => *self = RulesMoves::default(),
            "aces" => self.fourth_ace = args.len() == 3,
            "move" => {
                let seat = args.first().and_then(|a| a.parse::<usize>().ok()).filter(|&s| s < 64);
                match (seat, args.get(1).map(String::as_str), args.get(2).map(String::as_str)) {
                    (Some(s), Some("pass"), Some("bid")) => {
                        if self.passed.len() <= s {
                            self.passed.resize(s + 1, false);
                        }
                        if std::mem::replace(&mut self.passed[s], true) {
                            args.push("auto".into());
                        }
                    }
                    (Some(_), Some(_), Some("call")) if std::mem::take(&mut self.fourth_ace) => {
                        args.push("auto".into());
                    }
                    _ => {}
                }
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bots::human::names::tests::{names, s};

    #[test]
    fn moves_the_rules_take_are_said_to_be_automatic() {
        let r = names("rikken", 4, 0);
        let mut marks = RulesMoves::default();
        let mut said = Vec::new();
        for line in [
            "deal 1 3",
            "move 0 pass bid",
            "move 1 rik bid",
            "move 2 pass bid",
            "move 3 pass bid",
            "move 0 pass bid",
            "move 2 pass bid",
        ] {
            let mut parts = line.split(' ');
            let kind = parts.next().unwrap();
            let mut args: Vec<String> = parts.map(str::to_string).collect();
            marks.mark("rikken", kind, &mut args);
            said.extend(r.event(kind, &args));
        }
        assert_eq!(said[1], "North (you) passes.");
        assert_eq!(
            said[5],
            "North (you) passes again, automatically: a player who has passed may not bid again."
        );
        assert!(said[6].starts_with("South passes again, automatically"), "{}", said[6]);
        // A new deal (after an all-pass) starts a new auction.
        let mut args = s(&["0", "pass", "bid"]);
        marks.mark("rikken", "deal", &mut s(&["2", "3"]));
        marks.mark("rikken", "move", &mut args);
        assert_eq!(r.event("move", &args).unwrap(), "North (you) passes.");
        // Three-ace malheur: the rules call the fourth ace.
        marks.mark("rikken", "aces", &mut s(&["AS", "AH", "AC"]));
        let mut call = s(&["2", "AD", "call"]);
        marks.mark("rikken", "move", &mut call);
        assert_eq!(
            r.event("move", &call).unwrap(),
            "The rules call A♦ for South: the fourth ace, in malheur with three aces."
        );
        let mut call = s(&["2", "KD", "call"]);
        marks.mark("rikken", "move", &mut call);
        assert_eq!(r.event("move", &call).unwrap(), "South calls K♦.");
    }
}
