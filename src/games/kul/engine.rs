//! The Kul state machine: ante per game, deals of 5 cards, 5 tricks with forced overtaking,
//! a mark for the last trick, the pot to the first with `marks_to_win` marks (kul.md Sec. 2-5).
//!
//! Every event goes to every seat except a `hand`, which goes to its owner only; the undealt
//! cards are never shown (kul.md Sec. 7).

use crate::args;
use crate::cards::{full_deck, Card, CardSet};
use crate::chance::{Chance, DealRequest};
use crate::game::{Audience, Event, Game, Outcome, Seat};
use crate::options::Options;
use serde_json::json;

/// Builds a Kul session (the [`crate::game::NewGame`] of the spec).
pub fn new_game(players: usize, options: &Options, chance: Chance) -> Result<Box<dyn Game>, String> {
    Ok(Box::new(Kul::new(players, options.clone(), chance)?))
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// Forehand may ask for a redeal (`redeal_request=true`).
    Redeal,
    /// The other players answer a redeal proposal in turn.
    Consent,
    Play,
    Over,
}

/// The legal cards of a hand for a trick so far (kul.md Sec. 3): any card to lead; otherwise
/// follow suit, and beat the highest card of the led suit if possible; void: any card.
pub fn legal_cards(hand: CardSet, trick: &[Card]) -> CardSet {
    let Some(led) = trick.first() else {
        return hand;
    };
    let follow = hand.of_suit(led.suit);
    if follow.is_empty() {
        return hand;
    }
    let hi = trick
        .iter()
        .filter(|c| c.suit == led.suit)
        .map(|c| c.rank)
        .max()
        .expect("the led card");
    let higher = CardSet::from_cards(&follow.cards().into_iter().filter(|c| c.rank > hi).collect::<Vec<_>>());
    if higher.is_empty() {
        follow
    } else {
        higher
    }
}

/// One session of Kul: `games` games, each ending when someone reaches the marks to win.
pub struct Kul {
    n: usize,
    chance: Chance,
    events: Vec<Event>,
    phase: Phase,
    turn: Seat,
    dealer: Seat,
    stake: i64,
    marks_to_win: u32,
    games_total: usize,
    max_deals: usize,
    redeal_request: bool,
    /// Deals made in this session (`deal` lines are numbered by it), and in the current game.
    deal_no: usize,
    deals_in_game: usize,
    game_no: usize,
    redeal_used: bool,
    voters: Vec<Seat>,
    hands: Vec<CardSet>,
    marks: Vec<u32>,
    pot: i64,
    chips: Vec<i64>,
    leader: Seat,
    trick: Vec<(Seat, Card)>,
    trick_no: usize,
    /// Per finished game: the seat that took the pot (`None`: split at the cap).
    winners: Vec<Option<Seat>>,
    outcome: Option<Outcome>,
}

impl Kul {
    pub fn new(players: usize, o: Options, mut chance: Chance) -> Result<Kul, String> {
        if !(2..=10).contains(&players) {
            return Err(format!("kul is played by 2-10 players, not {players}"));
        }
        let dealer = chance.first_dealer(players);
        let mut g = Kul {
            n: players,
            chance,
            events: Vec::new(),
            phase: Phase::Play,
            turn: 0,
            dealer,
            stake: o.int("stake"),
            marks_to_win: o.get("marks_to_win").parse().unwrap_or(3),
            games_total: o.int("games") as usize,
            max_deals: o.int("max_deals_per_game") as usize,
            redeal_request: o.flag("redeal_request"),
            deal_no: 0,
            deals_in_game: 0,
            game_no: 0,
            redeal_used: false,
            voters: Vec::new(),
            hands: vec![CardSet::EMPTY; players],
            marks: vec![0; players],
            pot: 0,
            chips: vec![0; players],
            leader: 0,
            trick: Vec::new(),
            trick_no: 0,
            winners: Vec::new(),
            outcome: None,
        };
        g.start_game()?;
        Ok(g)
    }

    fn all(&self) -> Audience {
        Audience::all(self.n)
    }

    fn emit_all(&mut self, kind: &'static str, args: Vec<String>) {
        self.events.push(Event::new(self.all(), kind, args));
    }

    fn left(&self, s: Seat) -> Seat {
        (s + 1) % self.n
    }

    /// The chips of every seat, comma-separated (one token).
    fn chips_token(&self) -> String {
        self.chips.iter().map(|c| c.to_string()).collect::<Vec<_>>().join(",")
    }

    /// Kul.md Sec. 2.0: every player pays the stake into a fresh pot.
    fn start_game(&mut self) -> Result<(), String> {
        self.game_no += 1;
        self.deals_in_game = 0;
        self.marks = vec![0; self.n];
        for c in &mut self.chips {
            *c -= self.stake;
        }
        self.pot = self.stake * self.n as i64;
        self.emit_all("ante", args![self.game_no, self.stake, self.pot]);
        self.start_deal(false)
    }

    /// Kul.md Sec. 2.1: 5 cards each, clockwise from the dealer's left; the rest set aside.
    fn start_deal(&mut self, redeal: bool) -> Result<(), String> {
        self.deal_no += 1;
        if !redeal {
            self.deals_in_game += 1;
            self.redeal_used = false;
        }
        let mut req = DealRequest::hands(self.dealer, full_deck(), self.n, 5);
        req.piles = vec![("undealt", usize::MAX)];
        let deal = self.chance.deal(&req)?;
        for s in 0..self.n {
            self.hands[s] = CardSet::from_cards(&deal.hands[s]);
        }
        self.emit_all("deal", args![self.deal_no, self.dealer]);
        for s in 0..self.n {
            let cards = self.hands[s].cards().iter().map(|c| c.to_string()).collect();
            self.events.push(Event::new(Audience::seat(s), "hand", cards));
        }
        self.trick.clear();
        self.trick_no = 1;
        self.leader = self.left(self.dealer);
        self.turn = self.leader;
        self.phase = if self.redeal_request && !self.redeal_used {
            Phase::Redeal
        } else {
            Phase::Play
        };
        Ok(())
    }

    fn legal_now(&self) -> CardSet {
        let trick: Vec<Card> = self.trick.iter().map(|&(_, c)| c).collect();
        legal_cards(self.hands[self.turn], &trick)
    }

    fn apply_redeal(&mut self, token: &str) -> Result<(), String> {
        match token {
            "redeal" => {
                self.emit_all("move", args![self.turn, "redeal", "redeal"]);
                self.redeal_used = true;
                self.voters = (1..self.n).map(|k| (self.turn + k) % self.n).collect();
                self.phase = Phase::Consent;
                self.turn = self.voters.remove(0);
                Ok(())
            }
            "keep" => {
                self.emit_all("move", args![self.turn, "keep", "redeal"]);
                self.redeal_used = true;
                self.phase = Phase::Play;
                Ok(())
            }
            _ => Err(format!("'{token}' is not a redeal decision: answer redeal or keep")),
        }
    }

    fn apply_consent(&mut self, token: &str) -> Result<(), String> {
        match token {
            "agree" => {
                self.emit_all("move", args![self.turn, "agree", "consent"]);
                if self.voters.is_empty() {
                    self.emit_all("redeal", args!["agreed"]);
                    self.start_deal(true)?;
                    self.phase = Phase::Play;
                } else {
                    self.turn = self.voters.remove(0);
                }
                Ok(())
            }
            "refuse" => {
                self.emit_all("move", args![self.turn, "refuse", "consent"]);
                self.emit_all("redeal", args!["refused"]);
                self.voters.clear();
                self.phase = Phase::Play;
                self.turn = self.leader;
                Ok(())
            }
            _ => Err(format!(
                "'{token}' is not an answer to a redeal proposal: agree or refuse"
            )),
        }
    }

    fn apply_card(&mut self, token: &str) -> Result<(), String> {
        let p = self.turn;
        let card: Card = token.parse()?;
        if !self.hands[p].contains(card) {
            return Err(format!("{card} is not in seat {p}'s hand"));
        }
        let legal = self.legal_now();
        if !legal.contains(card) {
            let led = self.trick[0].1;
            let msg = if self.hands[p].has_suit(led.suit) && card.suit != led.suit {
                format!(
                    "{card} does not follow the led suit {} (you hold it)",
                    led.suit.letter()
                )
            } else {
                format!(
                    "{card} does not overtake: forced overtaking, you must play one of {}",
                    crate::cards::format_cards(&legal.cards())
                )
            };
            return Err(msg);
        }
        self.hands[p].remove(card);
        self.trick.push((p, card));
        self.emit_all("move", args![p, card, "play"]);
        if self.trick.len() < self.n {
            self.turn = self.left(p);
            return Ok(());
        }
        let led = self.trick[0].1.suit;
        let (winner, _) = *self
            .trick
            .iter()
            .filter(|(_, c)| c.suit == led)
            .max_by_key(|(_, c)| c.rank)
            .expect("the led card");
        self.emit_all("trick", args![self.trick_no, winner]);
        self.trick.clear();
        if self.trick_no < 5 {
            self.trick_no += 1;
            self.leader = winner;
            self.turn = winner;
            return Ok(());
        }
        self.end_deal(winner)
    }

    /// Kul.md Sec. 2.3-2.4: the mark, the pot, the next deal or game.
    fn end_deal(&mut self, winner: Seat) -> Result<(), String> {
        self.marks[winner] += 1;
        self.emit_all("mark", args![winner, self.marks[winner]]);
        let next_dealer;
        if self.marks[winner] >= self.marks_to_win {
            self.chips[winner] += self.pot;
            self.emit_all("kul", args![winner, self.pot, self.chips_token()]);
            self.pot = 0;
            self.winners.push(Some(winner));
            next_dealer = winner;
        } else if self.deals_in_game >= self.max_deals {
            // Kul.md Sec. 5: the safety cap splits the pot equally (it is n·K).
            let each = self.pot / self.n as i64;
            for c in &mut self.chips {
                *c += each;
            }
            self.pot = 0;
            self.emit_all("split", args![each, self.chips_token()]);
            self.winners.push(None);
            next_dealer = self.left(self.dealer);
        } else {
            self.dealer = self.left(self.dealer);
            return self.start_deal(false);
        }
        self.dealer = next_dealer;
        if self.game_no >= self.games_total {
            self.finish();
            Ok(())
        } else {
            self.start_game()
        }
    }

    fn finish(&mut self) {
        self.phase = Phase::Over;
        self.emit_all("end", args!["games_done"]);
        let names: Vec<String> = self
            .winners
            .iter()
            .map(|w| w.map(|s| s.to_string()).unwrap_or_else(|| "split".into()))
            .collect();
        let summary = format!(
            "{} Kul game(s) in {} deal(s), pots won by seat(s) {}; chips {}",
            self.winners.len(),
            self.deal_no,
            names.join(" "),
            self.chips_token()
        );
        self.outcome = Some(Outcome {
            scores: self.chips.iter().map(|&c| c as f64).collect(),
            detail: json!({
                "games": self.winners.len(),
                "deals": self.deal_no,
                "pot_winners": self.winners,
                "chips": self.chips,
                "summary": summary,
            }),
        });
    }
}

impl Game for Kul {
    fn players(&self) -> usize {
        self.n
    }

    fn to_move(&self) -> Option<Seat> {
        (self.phase != Phase::Over).then_some(self.turn)
    }

    fn decision(&self) -> &'static str {
        match self.phase {
            Phase::Redeal => "redeal",
            Phase::Consent => "consent",
            Phase::Play | Phase::Over => "play",
        }
    }

    fn legal_actions(&self) -> Vec<String> {
        match self.phase {
            Phase::Redeal => vec!["keep".into(), "redeal".into()],
            Phase::Consent => vec!["agree".into(), "refuse".into()],
            Phase::Play => self.legal_now().cards().iter().map(|c| c.to_string()).collect(),
            Phase::Over => vec![],
        }
    }

    fn apply(&mut self, action: &str) -> Result<(), String> {
        match self.phase {
            Phase::Redeal => self.apply_redeal(action),
            Phase::Consent => self.apply_consent(action),
            Phase::Play => self.apply_card(action),
            Phase::Over => Err("the game is over".into()),
        }
    }

    fn take_events(&mut self) -> Vec<Event> {
        std::mem::take(&mut self.events)
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome.clone()
    }

    fn chance(&self) -> &Chance {
        &self.chance
    }
}
