//! Rikken events for people (`croupier show`): the deal, the hands, the auction, the
//! declarations, trick by trick, and the result. Works on the whole event stream of a game as
//! well as on the events one seat saw.

use super::view::{contract_words, MoveKind};
use crate::cards::{prettify_tokens, Card, Suit};
use crate::game::{Audience, Event, Seat};

/// A seat's name: N E S W in a four-player game, else its number.
fn name(seat: Seat, players: usize) -> String {
    if players == 4 {
        ["N", "E", "S", "W"][seat].to_string()
    } else {
        seat.to_string()
    }
}

fn seat_name(arg: Option<&String>, players: usize) -> String {
    match arg.and_then(|a| a.parse::<Seat>().ok()) {
        Some(s) if s < players => name(s, players),
        _ => arg.cloned().unwrap_or_default(),
    }
}

/// Cards grouped by suit: `A♠ K♠ 5♠  9♥ 4♥  Q♣`.
fn hand_text(args: &[String]) -> String {
    let cards: Vec<Card> = args.iter().filter_map(|a| a.parse().ok()).collect();
    Suit::ALL
        .iter()
        .map(|&s| {
            cards
                .iter()
                .filter(|c| c.suit == s)
                .map(|c| c.pretty())
                .collect::<Vec<_>>()
                .join(" ")
        })
        .filter(|g| !g.is_empty())
        .collect::<Vec<_>>()
        .join("  ")
}

fn suit_text(s: &str) -> String {
    match s.parse::<Suit>() {
        Ok(suit) => suit.pretty(),
        Err(_) => s.to_string(),
    }
}

struct Renderer {
    players: usize,
    out: Vec<String>,
    auction: Vec<String>,
    trick: Vec<(Seat, Card)>,
    tricks_won: Vec<u32>,
}

impl Renderer {
    fn flush_auction(&mut self) {
        if self.auction.is_empty() {
            return;
        }
        let bids = std::mem::take(&mut self.auction);
        for (i, chunk) in bids.chunks(8).enumerate() {
            let head = if i == 0 { "  auction: " } else { "           " };
            self.out.push(format!("{head}{}", chunk.join(", ")));
        }
    }

    fn flush_trick(&mut self, label: &str, winner: Option<Seat>) {
        if self.trick.is_empty() && winner.is_none() {
            return;
        }
        let cards: Vec<String> = self
            .trick
            .iter()
            .map(|&(s, c)| format!("{} {}", name(s, self.players), c.pretty()))
            .collect();
        let tail = match winner {
            Some(w) => format!("  → {}", name(w, self.players)),
            None => String::new(),
        };
        self.out.push(format!("  {label}: {}{tail}", cards.join("  ")));
        self.trick.clear();
    }

    fn tricks_won_text(&self) -> String {
        (0..self.players)
            .map(|s| format!("{} {}", name(s, self.players), self.tricks_won[s]))
            .collect::<Vec<_>>()
            .join(", ")
    }

    fn event(&mut self, ev: &Event) {
        let p = self.players;
        let args = &crate::game::texts(&ev.args);
        if !matches!(ev.kind, "move" | "hint" | "partner") {
            self.flush_auction();
        }
        match ev.kind {
            "deal" => {
                self.flush_trick("trick (unfinished)", None);
                if !self.out.is_empty() {
                    self.out.push(String::new());
                }
                self.tricks_won = vec![0; p];
                let k = args.first().cloned().unwrap_or_default();
                self.out.push(format!("deal {k}, dealer {}", seat_name(args.get(1), p)));
            }
            "hand" => {
                let who = ev.to.only(p).map_or("?".to_string(), |s| name(s, p));
                self.out.push(format!("  hand {who}: {}", hand_text(args)));
            }
            "move" => {
                let (Some(seat), Some(token)) = (args.first(), args.get(1)) else {
                    return;
                };
                let who = seat_name(Some(seat), p);
                match MoveKind::of(&ev.args) {
                    MoveKind::Bid => self.auction.push(format!("{who} {}", contract_words(token))),
                    MoveKind::Trump | MoveKind::Call => {}
                    MoveKind::Play => {
                        if let (Ok(s), Ok(c)) = (seat.parse::<Seat>(), token.parse::<Card>()) {
                            self.trick.push((s, c));
                        }
                    }
                    MoveKind::Other => self.out.push(format!("  {who}: {}", prettify_tokens(token))),
                }
            }
            "allpass" => self.out.push("  all pass".into()),
            "contract" => {
                let bid = contract_words(args.first().map_or("", String::as_str));
                let decl = args.get(1).map(String::as_str).unwrap_or("-");
                if decl == "-" {
                    self.out.push(format!("  contract: {bid}"));
                } else {
                    let names: Vec<String> = decl.split(',').map(|s| seat_name(Some(&s.to_string()), p)).collect();
                    self.out.push(format!("  contract: {bid} by {}", names.join(", ")));
                }
            }
            "trump" => {
                let t = args.first().map(|s| suit_text(s)).unwrap_or_default();
                self.out.push(format!("  trump: {t}"));
            }
            "called" => {
                self.out.push(format!("  called: {}", prettify_tokens(&args.join(" "))));
            }
            "aces" => self.out.push(format!("  aces: {}", prettify_tokens(&args.join(" ")))),
            "partner" => {
                let who = seat_name(args.first(), p);
                let note = if ev.to == Audience::all(p) {
                    String::new()
                } else {
                    let to: Vec<String> = ev.to.members(p).map(|s| name(s, p)).collect();
                    format!(" (known to {} only)", to.join(", "))
                };
                self.out.push(format!("  partner: {who}{note}"));
            }
            "exposed" => {
                let who = seat_name(args.first(), p);
                let cards = if args.len() > 1 {
                    hand_text(&args[1..])
                } else {
                    String::new()
                };
                self.out.push(format!("  exposed {who}: {cards}"));
            }
            "hint" => {
                let to: Vec<String> = ev.to.members(p).map(|s| name(s, p)).collect();
                let words: Vec<&str> = args.iter().map(|a| hint_words(a)).collect();
                self.out
                    .push(format!("  hint to {}: {}", to.join(", "), words.join(" ")));
            }
            "trick" => {
                let n = args.first().cloned().unwrap_or_default();
                let w = args.get(1).and_then(|a| a.parse::<Seat>().ok()).filter(|&w| w < p);
                if let Some(w) = w {
                    self.tricks_won[w] += 1;
                }
                self.flush_trick(&format!("trick {n}"), w);
            }
            "end" => {
                self.flush_trick("trick (unfinished)", None);
                let tw = self.tricks_won_text();
                let why: Vec<&str> = args.iter().map(|a| end_words(a)).collect();
                self.out.push(format!("  end: {} (tricks won: {tw})", why.join(" ")));
            }
            "gameover" => {
                self.flush_trick("trick (unfinished)", None);
                let scores: Vec<String> = args
                    .iter()
                    .enumerate()
                    .map(|(s, v)| {
                        let v = if v.starts_with('-') || v == "0" {
                            v.clone()
                        } else {
                            format!("+{v}")
                        };
                        format!("{} {v}", name(s, p))
                    })
                    .collect();
                self.out.push(format!("scores: {}", scores.join(", ")));
            }
            "fault" => self.out.push(format!("  fault: {}", args.join(" "))),
            _ => self.out.push(format!("  {}", prettify_tokens(&ev.line()))),
        }
    }
}

/// Human-readable lines for a sequence of Rikken events (the `render` of the game's spec).
pub fn render(events: &[Event], players: usize) -> Vec<String> {
    let mut r = Renderer {
        players,
        out: Vec::new(),
        auction: Vec::new(),
        trick: Vec::new(),
        tricks_won: vec![0; players],
    };
    for ev in events {
        r.event(ev);
    }
    r.flush_auction();
    r.flush_trick("trick (unfinished)", None);
    r.out
}

/// A `hint` notification's reason in words (the token itself if it is not known).
fn hint_words(token: &str) -> &str {
    match token {
        "must_lead_called" => "leads the called suit only with the called card",
        "must_play_called" => "must play the called card",
        "protect_called" => "may not throw the called card away",
        other => other,
    }
}

/// Why play stopped, in words (the token itself if it is not known).
fn end_words(token: &str) -> &str {
    match token {
        "tricks_done" => "all 13 tricks played",
        "misere_lost" => "the misère player took a trick",
        "piek_lost" => "the piek player took a second trick",
        "solo_lost" => "the solo player lost a trick",
        "mie_taken" => "the queen of spades was taken",
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::rikken::view::tests::rik_deal;

    fn events(lines: &[(Option<Seat>, String)]) -> Vec<Event> {
        lines
            .iter()
            .map(|(to, line)| {
                let w: Vec<String> = line.split(' ').map(String::from).collect();
                let kind: &'static str = Box::leak(w[0].clone().into_boxed_str());
                let to = match to {
                    Some(s) => Audience::seat(*s),
                    None => Audience::all(4),
                };
                Event::new(to, kind, crate::game::text_args(w[1..].iter().map(String::as_str)))
            })
            .collect()
    }

    #[test]
    fn the_whole_game_shows_hands_auction_declarations_and_tricks() {
        let mut lines = rik_deal();
        for l in [
            "move 2 JD play",
            "move 3 TD play",
            "move 0 KD play",
            "trick 5 0",
            "end tricks_done",
        ] {
            lines.push((None, l.to_string()));
        }
        lines.push((None, "gameover 1 1 -1 -1".into()));
        let out = render(&events(&lines), 4);
        let text = out.join("\n");
        assert_eq!(out[0], "deal 1, dealer W");
        assert!(
            text.contains("  hand N: A♠ K♠ Q♠ 5♠  A♥ 9♥ 4♥  K♦ 7♦  Q♣ J♣ 8♣ 3♣"),
            "{text}"
        );
        assert!(text.contains("  hand W: "), "{text}");
        assert!(text.contains("  auction: N rik, E pass, S pass, W pass"), "{text}");
        assert!(text.contains("  contract: rik by N"), "{text}");
        assert!(text.contains("  trump: ♠ spades"), "{text}");
        assert!(text.contains("  called: A♦"), "{text}");
        assert!(text.contains("  partner: E (known to E only)"), "{text}");
        assert!(text.contains("  trick 1: N A♠  E 2♠  S 4♠  W 3♠  → N"), "{text}");
        assert!(text.contains("  trick 3: N 7♦  E A♦  S 4♦  W 2♦  → E"), "{text}");
        assert!(text.contains("  trick 5: E Q♦  S J♦  W 10♦  N K♦  → N"), "{text}");
        assert!(
            text.contains("  end: all 13 tricks played (tricks won: N 3, E 2, S 0, W 0)"),
            "{text}"
        );
        assert_eq!(out.last().unwrap(), "scores: N +1, E +1, S -1, W -1");
        // The call A♦ and the trump declaration are not shown as plays.
        assert_eq!(text.matches("A♦").count(), 3, "{text}"); // E's hand, called, trick 3
    }

    #[test]
    fn one_seat_sees_only_its_own_hand() {
        let lines = rik_deal();
        let evs: Vec<Event> = events(&lines).into_iter().filter(|e| e.to.contains(2)).collect();
        let out = render(&evs, 4);
        let text = out.join("\n");
        assert_eq!(text.matches("  hand ").count(), 1, "{text}");
        assert!(text.contains("  hand S: "), "{text}");
        assert!(!text.contains("must_lead_called"), "{text}");
        assert!(text.contains("  trick 4: E K♥  S 2♥  W 5♥  N 4♥  → E"), "{text}");
        assert!(text.contains("  partner: E\n"), "{text}");
        assert_eq!(out.last().unwrap(), "  trick (unfinished): E Q♦");
    }

    #[test]
    fn other_player_counts_use_numbers() {
        let evs = events(&[(None, "deal 1 2".into()), (None, "move 0 pass bid".into())]);
        let out = render(&evs, 3);
        assert_eq!(out, ["deal 1, dealer 2", "  auction: 0 pass"]);
    }
}
