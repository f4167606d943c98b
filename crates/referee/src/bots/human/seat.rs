//! The human seat ([`Human`]): the lines it is given kept until the person's turn, the screen of
//! a decision (what happened, the table, the hand, the numbered actions), the prompt, and the
//! end of a game.

use super::hints::session_hint;
use super::names::{seat_name, Names};
use super::prompt::ask;
use super::rules_moves::RulesMoves;
use super::terminal::with_terminal;
use super::text::{hand_worth, visible_len};
use crate::bots::bot::Bot;
use crate::cards::Card;
use crate::game::{Arg, GameInfo, Seat, SeatView};
use serde_json::Value;

/// Said once per process: the hint of [`session_hint`] at the first game.
static HINTED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// A person at the terminal.
pub struct Human {
    info: Option<GameInfo>,
    title: String,
    view: Option<Box<dyn SeatView>>,
    /// The lines received since the person's last turn.
    log: Vec<(String, Vec<String>)>,
    /// Marks the moves the rules took ([`RulesMoves`]).
    rules_moves: RulesMoves,
    /// How the game was announced to the person (said before the first turn).
    intro: Option<String>,
    stopped: Option<String>,
}

impl Human {
    pub fn new() -> Human {
        Human {
            info: None,
            title: String::new(),
            view: None,
            log: Vec::new(),
            rules_moves: RulesMoves::default(),
            intro: None,
            stopped: None,
        }
    }

    fn names(&self, colour: bool) -> Names {
        let (game, players, seat) = match &self.info {
            Some(i) => (i.game.clone(), i.players, i.seat),
            None => (String::new(), 1, 0),
        };
        Names {
            game,
            players,
            seat: Some(seat),
            colour,
        }
    }

    fn my_seat(&self) -> Seat {
        self.info.as_ref().map_or(0, |i| i.seat)
    }

    /// What happened since the person's last turn, in words (the game's announcement first).
    fn happened(&self, names: &Names) -> Vec<String> {
        self.intro
            .iter()
            .cloned()
            .chain(self.log.iter().filter_map(|(k, a)| names.event(k, a)))
            .collect()
    }

    /// The screen of a decision: what happened, the table, the hand, the numbered actions.
    fn screen(&self, names: &Names, decision: &str, legal: &[String]) -> String {
        let mut s = String::new();
        let rule = "─".repeat(60);
        s.push_str(&format!("\n{rule}\n"));
        let happened = self.happened(names);
        if !happened.is_empty() {
            s.push_str("Since your last turn:\n");
            for l in happened {
                s.push_str(&format!("  {l}\n"));
            }
        }
        if let Some(view) = &self.view {
            let json = view.to_json();
            let table = names.table(&json);
            if !table.is_empty() {
                s.push_str(&format!("{} table:\n", self.title));
                for l in table {
                    s.push_str(&format!("  {l}\n"));
                }
            }
            let hand: Vec<String> = json
                .get("hand")
                .and_then(Value::as_array)
                .map(|a| a.iter().filter_map(|c| c.as_str().map(str::to_string)).collect())
                .unwrap_or_default();
            let cards: Vec<Card> = hand.iter().filter_map(|t| Card::from_token(t)).collect();
            match hand_worth(&names.game, &cards) {
                Some(w) => s.push_str(&format!("Your hand: {}   ({w})\n", names.hand(&hand))),
                None => s.push_str(&format!("Your hand: {}\n", names.hand(&hand))),
            }
        }
        s.push_str(&format!("{}, your turn ({decision}):\n", names.seat(self.my_seat())));
        let labels: Vec<String> = legal
            .iter()
            .enumerate()
            .map(|(i, t)| format!("{:>2}) {}", i + 1, names.action(decision, t)))
            .collect();
        // Several short labels to a line, long ones one each.
        let width = labels.iter().map(|l| visible_len(l)).max().unwrap_or(0) + 3;
        let per_line = (76 / width.max(1)).clamp(1, 6);
        for row in labels.chunks(per_line) {
            let cells: Vec<String> = row
                .iter()
                .map(|l| format!("{l}{}", " ".repeat(width - visible_len(l))))
                .collect();
            s.push_str(&format!("  {}\n", cells.concat().trim_end()));
        }
        s
    }
}

impl Default for Human {
    fn default() -> Self {
        Human::new()
    }
}

impl Bot for Human {
    fn name(&self) -> &str {
        "human"
    }
    fn version(&self) -> &str {
        env!("CARGO_PKG_VERSION")
    }

    fn start(&mut self, info: &GameInfo, _rngseed: u64) {
        let spec = crate::games::find(&info.game);
        self.title = spec.as_ref().map_or_else(|| info.game.clone(), |s| s.title.to_string());
        self.view = spec.map(|s| (s.new_view)(info));
        self.info = Some(info.clone());
        self.log.clear();
        self.rules_moves = RulesMoves::default();
        let mut intro = format!(
            "A new game of {} for {} players: you are {}.",
            self.title,
            info.players,
            seat_name(info.players, info.seat)
        );
        if let Some(hint) = session_hint(&info.game, info.players, &info.options) {
            if !HINTED.swap(true, std::sync::atomic::Ordering::Relaxed) {
                intro.push_str(&format!("\n  {hint}"));
            }
        }
        self.intro = Some(intro);
    }

    fn notify(&mut self, kind: &str, args: &[Arg]) {
        if let Some(v) = &mut self.view {
            v.observe(kind, args);
        }
        if kind != "gameover" {
            let mut texts = crate::game::texts(args);
            let game = self.info.as_ref().map_or("", |i| i.game.as_str());
            self.rules_moves.mark(game, kind, &mut texts);
            self.log.push((kind.to_string(), texts));
            return;
        }
        with_terminal(|t| {
            let names = self.names(t.colour);
            let mut s = format!("\n{}\n", "─".repeat(60));
            for l in self.happened(&names) {
                s.push_str(&format!("  {l}\n"));
            }
            if self.stopped.is_some() {
                s.push_str("You left: the game ends here, forfeited by you (the game's forfeit scores).\n");
            }
            s.push_str(&format!(
                "Game over. Final scores: {}\n",
                names.per_seat(&crate::game::texts(args))
            ));
            if let Some(mine) = args.get(self.my_seat()) {
                s.push_str(&format!("You score {mine}.\n"));
            }
            t.write(&s);
        });
        self.log.clear();
        self.intro = None;
    }

    fn act(&mut self, decision: &str, _time_ms: u64, legal: &[String]) -> String {
        let Some(first) = legal.first() else {
            return String::new();
        };
        if self.stopped.is_some() {
            return first.clone();
        }
        let answer = with_terminal(|t| {
            let names = self.names(t.colour);
            let screen = self.screen(&names, decision, legal);
            let plain_names = Names {
                colour: false,
                ..self.names(false)
            };
            let plain: Vec<String> = legal.iter().map(|t| plain_names.action(decision, t)).collect();
            t.write(&screen);
            ask(t, &names, decision, legal, &plain)
        });
        self.log.clear();
        self.intro = None;
        match answer {
            Ok(i) => legal[i].clone(),
            Err(why) => {
                self.stopped = Some(why);
                first.clone()
            }
        }
    }

    fn stopped(&self) -> Option<String> {
        self.stopped.clone()
    }
}
