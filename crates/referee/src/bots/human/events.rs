//! Event lines in words: the entry of [`WORDS`] (or [`ONLOOKER`]) that matches a line, its
//! placeholders filled from the line's arguments.

use super::names::Names;
use super::text::words;
use super::words::{ONLOOKER, WORDS};
use crate::cards::Card;
use crate::game::Seat;
use crate::games::rikken::view::contract_words;

impl Names {
    /// An event line in words (see [`WORDS`]), or `None` when its wording is empty.
    pub(super) fn event(&self, kind: &str, args: &[String]) -> Option<String> {
        self.event_to(kind, args, &[])
    }

    /// An event line that went to the seats `to`, in words: for an onlooker the lines that
    /// speak to their seat are worded from [`ONLOOKER`] first.
    pub fn event_to(&self, kind: &str, args: &[String], to: &[Seat]) -> Option<String> {
        let matches = |key: &str| {
            let mut words = key.split(' ');
            words.next() == Some(kind)
                && words
                    .enumerate()
                    .all(|(i, w)| w == "_" || args.get(i).map(String::as_str) == Some(w))
        };
        let onlooker: &[(&str, &str, &str)] = if self.seat.is_none() { ONLOOKER } else { &[] };
        let found = onlooker
            .iter()
            .filter(|(g, _, _)| *g == self.game)
            .chain(onlooker.iter().filter(|(g, _, _)| *g == "*"))
            .chain(WORDS.iter().filter(|(g, _, _)| *g == self.game))
            .chain(WORDS.iter().filter(|(g, _, _)| *g == "*"))
            .find(|(_, key, _)| matches(key));
        let Some((_, _, template)) = found else {
            let mut line = vec![kind.to_string()];
            line.extend(args.iter().map(|a| self.card_tok(a)));
            return Some(line.join(" "));
        };
        if template.is_empty() {
            return None;
        }
        Some(self.fill(template, args, to))
    }

    /// Fills a template's placeholders from `args` (`{to}` from `to`).
    fn fill(&self, template: &str, args: &[String], to: &[Seat]) -> String {
        let mut out = String::new();
        let mut rest = template;
        while let Some(open) = rest.find('{') {
            out.push_str(&rest[..open]);
            let Some(close) = rest[open..].find('}') else { break };
            let spec = &rest[open + 1..open + close];
            rest = &rest[open + close + 1..];
            if spec == "to" {
                let seats: Vec<String> = to.iter().map(|&s| self.seat(s)).collect();
                out.push_str(&if seats.is_empty() {
                    "nobody".to_string()
                } else {
                    seats.join(", ")
                });
                continue;
            }
            let (index, how) = spec.split_once(':').unwrap_or((spec, ""));
            let i: usize = index.parse().unwrap_or(0);
            let arg = args.get(i).map(String::as_str).unwrap_or("");
            let from = args.get(i..).unwrap_or(&[]);
            out.push_str(&match how {
                "seat" => self.seat_arg(arg),
                "seats" => self.seats_arg(arg),
                "card" => self.card_tok(arg),
                "cards" => {
                    let cards: Vec<String> = from
                        .iter()
                        .take_while(|t| Card::from_token(t).is_some() || *t == "-")
                        .cloned()
                        .collect();
                    self.cards(&cards)
                }
                "suit" => self.suit(arg),
                "act" => self.action(args.get(i + 1).map(String::as_str).unwrap_or(""), arg),
                "swap" => match arg.split('_').collect::<Vec<_>>()[..] {
                    ["swap", laid, taken] => self.swap(laid, taken),
                    _ => words(arg),
                },
                "lastcard" => self.card_tok(arg.rsplit('_').next().unwrap_or(arg)),
                "word" => words(arg),
                "contract" => contract_words(arg),
                "list" => self.per_seat(&arg.split(',').map(str::to_string).collect::<Vec<_>>()),
                "nums" => self.per_seat(from),
                "rest" => from.join(" "),
                _ => arg.to_string(),
            });
        }
        out.push_str(rest);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bots::human::names::tests::{names, s};

    #[test]
    fn events_in_words_per_game() {
        let r = names("rikken", 4, 2);
        assert_eq!(r.event("move", &s(&["3", "AH", "play"])).unwrap(), "West plays A♥.");
        assert_eq!(
            r.event("move", &s(&["0", "alone9", "bid"])).unwrap(),
            "North bids alone 9."
        );
        assert_eq!(r.event("move", &s(&["1", "pass", "bid"])).unwrap(), "East passes.");
        assert_eq!(
            r.event("move", &s(&["2", "C", "trump"])).unwrap(),
            "South (you) names trump: ♣ clubs."
        );
        assert_eq!(
            r.event("contract", &s(&["misere", "1,3"])).unwrap(),
            "Contract: misère by East, West."
        );
        assert_eq!(
            r.event("trick", &s(&["7", "2"])).unwrap(),
            "Trick 7 goes to South (you)."
        );
        assert_eq!(r.event("hand", &s(&["AS", "TD"])).unwrap(), "Your cards: A♠ 10♦");
        let z = names("zwikken", 3, 0);
        assert_eq!(z.event("move", &s(&["1", "ken_pass", "bid"])), None);
        assert_eq!(
            z.event("say", &s(&["1", "ik_ken_hem_en_ik_pas"])).unwrap(),
            "Seat 1 says “ik ken hem en ik pas”."
        );
        assert_eq!(
            z.event("move", &s(&["1", "exchange_JH_AH", "play"])).unwrap(),
            "Seat 1 plays A♥."
        );
        assert_eq!(
            z.event("end", &s(&["passer", "1"])).unwrap(),
            "Seat 1, a passer, took the most points: every asker loses."
        );
        let sw = names("schwimmen", 3, 1);
        assert_eq!(
            sw.event("move", &s(&["0", "swap_7H_AS", "turn"])).unwrap(),
            "Seat 0 swaps 7♥ for A♠."
        );
        assert_eq!(
            sw.event("show", &s(&["2", "TH", "QH", "AS", "20"])).unwrap(),
            "Seat 2 shows 10♥ Q♥ A♠: 20."
        );
        let sk = names("skwitz", 4, 0);
        assert_eq!(
            sk.event("pay", &s(&["1", "pot", "2", "ante"])).unwrap(),
            "East pays 2 to the pot (ante)."
        );
        assert_eq!(
            sk.event("move", &s(&["3", "9H:4S,5C", "play"])).unwrap(),
            "West plays 9♥ taking 4♠ 5♣."
        );
        let sv = names("svangknack", 4, 0);
        assert_eq!(
            sv.event("ante", &s(&["3", "all"])).unwrap(),
            "Everyone pays 3 into the pot."
        );
        assert_eq!(sv.event("ante", &s(&["3", "2"])).unwrap(), "South pays 3 into the pot.");
        let k = names("kul", 3, 0);
        assert_eq!(
            k.event("mark", &s(&["2", "1"])).unwrap(),
            "Seat 2 takes the last trick: 1 mark(s)."
        );
        // A kind no table entry knows: the raw line, its cards in symbols.
        assert_eq!(k.event("novel", &s(&["1", "QS"])).unwrap(), "novel 1 Q♠");
    }

    #[test]
    fn an_onlooker_is_told_who_was_told() {
        let o = Names::onlooker("rikken", 4);
        assert_eq!(
            o.event_to("hand", &s(&["AS", "TD"]), &[1]).unwrap(),
            "East holds A♠ 10♦."
        );
        assert_eq!(
            o.event_to("hint", &s(&["must_play_called"]), &[3]).unwrap(),
            "West must play the called card now."
        );
        assert_eq!(
            o.event_to("move", &s(&["1", "solo_beter", "bid"]), &[0, 1, 2, 3])
                .unwrap(),
            "East bids solo beter."
        );
        let o = Names::onlooker("schwimmen", 3);
        assert_eq!(
            o.event_to("packet", &s(&["7H", "8H", "9H"]), &[2]).unwrap(),
            "Seat 2 sees the packet 7♥ 8♥ 9♥."
        );
    }
}
