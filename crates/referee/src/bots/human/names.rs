//! How seats, cards, suits, hands and actions are written for the person at a seat, or for an
//! onlooker who sees every seat ([`Names`]).

use super::text::words;
use super::words::TOKENS;
use crate::cards::{Card, Suit};
use crate::game::Seat;
use crate::games::rikken::view::contract_words;
use serde_json::Value;

/// How seats, cards and events are written for the person at one seat, or for an onlooker
/// who sees every seat (`show --html`).
pub struct Names {
    pub(super) game: String,
    pub(super) players: usize,
    /// The person's seat (`(you)` after its name), or `None`: an onlooker.
    pub(super) seat: Option<Seat>,
    pub(super) colour: bool,
}

/// A seat's name for people: North, East, South, West in a 4-player game (as `show --seat`
/// and deal files name them), else `Seat k`.
pub fn seat_name(players: usize, s: Seat) -> String {
    if players == 4 && s < 4 {
        ["North", "East", "South", "West"][s].to_string()
    } else {
        format!("Seat {s}")
    }
}

impl Names {
    /// The words of `game` for an onlooker (`show --html`), without colour.
    pub fn onlooker(game: &str, players: usize) -> Names {
        Names {
            game: game.to_string(),
            players,
            seat: None,
            colour: false,
        }
    }

    /// A seat's name ([`seat_name`]); `(you)` after the person's own.
    pub fn seat(&self, s: usize) -> String {
        let base = seat_name(self.players, s);
        if Some(s) == self.seat {
            format!("{base} (you)")
        } else {
            base
        }
    }

    /// A seat given as a number in a view's JSON, by name.
    pub(super) fn seat_of(&self, v: &Value) -> Option<String> {
        v.as_u64().map(|s| self.seat(s as usize))
    }

    /// A seat argument (a number; `pot`, `none`, `-` as words).
    pub(super) fn seat_arg(&self, a: &str) -> String {
        match a.parse::<usize>() {
            Ok(s) if s < self.players => self.seat(s),
            _ => match a {
                "pot" => "the pot".into(),
                "none" | "-" => "nobody".into(),
                _ => a.into(),
            },
        }
    }

    pub(super) fn seats_arg(&self, a: &str) -> String {
        if a == "-" || a.is_empty() {
            return "nobody".into();
        }
        a.split(',').map(|s| self.seat_arg(s)).collect::<Vec<_>>().join(", ")
    }

    /// `A♥`, `10♠` ([`Card::pretty`]); hearts and diamonds red when colour is on.
    pub(super) fn card(&self, c: Card) -> String {
        self.red_if(c.suit, c.pretty())
    }

    fn red_if(&self, suit: Suit, text: String) -> String {
        if self.colour && matches!(suit, Suit::Hearts | Suit::Diamonds) {
            format!("\x1b[31m{text}\x1b[0m")
        } else {
            text
        }
    }

    /// A token that may be a card: the card in symbols, else the token.
    pub(super) fn card_tok(&self, t: &str) -> String {
        Card::from_token(t).map_or_else(|| t.to_string(), |c| self.card(c))
    }

    pub(super) fn cards(&self, tokens: &[String]) -> String {
        if tokens.is_empty() || tokens == ["-"] {
            return "nothing".into();
        }
        tokens.iter().map(|t| self.card_tok(t)).collect::<Vec<_>>().join(" ")
    }

    pub(super) fn suit(&self, t: &str) -> String {
        let mut chars = t.chars();
        match (chars.next().and_then(Suit::from_letter), chars.next()) {
            (Some(s), None) => self.red_if(s, s.pretty()),
            _ => words(t),
        }
    }

    /// A hand grouped by suit: `A♠ K♠  9♥ 5♥  Q♦`.
    pub(super) fn hand(&self, tokens: &[String]) -> String {
        let cards: Vec<Card> = tokens.iter().filter_map(|t| Card::from_token(t)).collect();
        if cards.is_empty() {
            return "(no cards)".into();
        }
        Suit::ALL
            .iter()
            .map(|&s| {
                cards
                    .iter()
                    .filter(|c| c.suit == s)
                    .map(|&c| self.card(c))
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .filter(|g| !g.is_empty())
            .collect::<Vec<_>>()
            .join("   ")
    }

    /// An action token as the menu shows it.
    pub fn action(&self, decision: &str, token: &str) -> String {
        if self.game == "rikken" && decision == "bid" {
            return contract_words(token);
        }
        if let Some((_, _, label)) = TOKENS
            .iter()
            .find(|(g, t, _)| (*g == self.game || *g == "*") && *t == token)
        {
            return label.to_string();
        }
        if let Some(c) = Card::from_token(token) {
            return if self.game == "skwitz" {
                format!("{} (trail)", self.card(c))
            } else {
                self.card(c)
            };
        }
        if decision == "trump" {
            return self.suit(token);
        }
        if let Some((card, taken)) = token.split_once(':') {
            let taken: Vec<String> = taken.split(',').map(str::to_string).collect();
            return format!("{} taking {}", self.card_tok(card), self.cards(&taken));
        }
        let parts: Vec<&str> = token.split('_').collect();
        match parts[..] {
            ["swap", laid, taken] => return format!("swap {}", self.swap(laid, taken)),
            ["exchange", taken] => return format!("take {} for your ten", self.card_tok(taken)),
            ["exchange", taken, played] => {
                return format!(
                    "take {} for your ten, then play {}",
                    self.card_tok(taken),
                    self.card_tok(played)
                )
            }
            _ => {}
        }
        parts
            .iter()
            .map(|p| match p.find(|c: char| c.is_ascii_digit()) {
                // `alone9` reads "alone 9".
                Some(i) if i > 1 && Card::from_token(p).is_none() => format!("{} {}", &p[..i], &p[i..]),
                _ => self.card_tok(p),
            })
            .collect::<Vec<_>>()
            .join(" ")
    }

    pub(super) fn swap(&self, laid: &str, taken: &str) -> String {
        format!("{} for {}", self.card_tok(laid), self.card_tok(taken))
    }

    /// One value per seat: `Seat 0 3, Seat 1 (you) -1, …`.
    pub(super) fn per_seat(&self, values: &[String]) -> String {
        values
            .iter()
            .enumerate()
            .map(|(s, v)| format!("{} {v}", self.seat(s)))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// An action of `game` for people, with its token after it where the two differ (`J♠ (JS)`,
/// `swap 7♥ for A♠ (swap_7H_AS)`, `pass`): for text that bot authors read (`ask`).
pub fn action_with_token(game: &str, decision: &str, token: &str) -> String {
    let words = Names::onlooker(game, 0).action(decision, token);
    if words == token {
        words
    } else {
        format!("{words} ({token})")
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::bots::human::text::visible_len;

    pub(in crate::bots::human) fn names(game: &str, players: usize, seat: usize) -> Names {
        Names {
            game: game.into(),
            players,
            seat: Some(seat),
            colour: false,
        }
    }

    pub(in crate::bots::human) fn s(v: &[&str]) -> Vec<String> {
        v.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn action_labels_and_colour() {
        let z = names("zwikken", 3, 0);
        assert_eq!(z.action("play", "exchange_JH_AH"), "take J♥ for your ten, then play A♥");
        assert_eq!(z.action("exchange", "exchange_JH"), "take J♥ for your ten");
        assert_eq!(names("schwimmen", 3, 0).action("turn", "swap_7H_AS"), "swap 7♥ for A♠");
        assert_eq!(names("skwitz", 3, 0).action("play", "5D"), "5♦ (trail)");
        assert_eq!(names("rikken", 4, 0).action("bid", "rik_beter"), "rik beter");
        assert_eq!(names("rikken", 4, 0).action("bid", "alone10_beter"), "alone 10 beter");
        let red = Names {
            colour: true,
            ..names("kul", 3, 0)
        };
        assert_eq!(red.card("AH".parse().unwrap()), "\x1b[31mA♥\x1b[0m");
        assert_eq!(red.card("AS".parse().unwrap()), "A♠");
        assert_eq!(visible_len(&red.card("TD".parse().unwrap())), 3);
    }
}
