//! The Kul state machine: ante per game, deals of 5 cards, 5 tricks with forced overtaking,
//! a mark for the last trick, the pot to the first with `marks_to_win` marks (kul.md Sec. 2-5).
//!
//! Every event goes to every seat except a `hand`, which goes to its owner only; the undealt
//! cards are never shown (kul.md Sec. 7).

use crate::args;
use crate::cards::{full_deck, Card, CardSet};
use crate::chance::{Chance, DealRequest};
use crate::engine::{Engine, Events};
use crate::game::{Audience, Outcome, Seat};
use crate::options::Options;
use serde_json::json;
use std::fmt;

/// The most players Kul seats (kul.md Sec. 1); the per-seat state lives in arrays of this
/// size, so a state clones without touching the heap for it.
const MAX_PLAYERS: usize = 10;

/// A Kul action. `Display` writes its protocol token (`keep`, `redeal`, `agree`, `refuse`, or
/// the card, e.g. `QS`); [`Kul::parse`](Engine::parse) reads one back.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum KulAction {
    /// Forehand keeps the cards (`redeal_request=true`).
    Keep,
    /// Forehand asks for a redeal.
    Redeal,
    /// Another player agrees to the redeal.
    Agree,
    /// Another player refuses it: the cards stand.
    Refuse,
    /// A card to the trick.
    Play(Card),
}

impl KulAction {
    /// The action's token (every one is a string of the program's).
    pub fn token(self) -> &'static str {
        match self {
            KulAction::Keep => "keep",
            KulAction::Redeal => "redeal",
            KulAction::Agree => "agree",
            KulAction::Refuse => "refuse",
            KulAction::Play(c) => c.token(),
        }
    }
}

impl fmt::Display for KulAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.token())
    }
}

crate::action_arg!(KulAction, KulAction::Play);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Phase {
    /// Forehand may ask for a redeal (`redeal_request=true`).
    Redeal,
    /// The other players answer a redeal proposal in turn, clockwise from forehand's left.
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
        .max_by_key(|c| c.rank)
        .expect("the led card");
    // Within a suit, a higher rank has a lower index: the cards above `hi` are the ones of
    // `follow` below its index.
    let higher = CardSet(follow.0 & ((1u64 << hi.index()) - 1));
    if higher.is_empty() {
        follow
    } else {
        higher
    }
}

/// One session of Kul: `games` games, each ending when someone reaches the marks to win.
#[derive(Clone)]
pub struct Kul {
    n: usize,
    chance: Chance,
    pub(super) phase: Phase,
    pub(super) turn: Seat,
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
    /// Per seat (the first `n` entries count).
    pub(super) hands: [CardSet; MAX_PLAYERS],
    marks: [u32; MAX_PLAYERS],
    chips: [i64; MAX_PLAYERS],
    pot: i64,
    /// The seat that led the current trick (forehand before trick 1, the proposer of a redeal).
    leader: Seat,
    /// The cards of the current trick in order; card `i` is the play of seat `leader + i`.
    pub(super) trick: [Card; MAX_PLAYERS],
    pub(super) trick_len: usize,
    pub(super) trick_no: usize,
    /// Per finished game: the seat that took the pot (`None`: split at the cap).
    winners: Vec<Option<Seat>>,
    /// Deals played to their last trick in this session (each gave a mark).
    deals_done: u64,
    outcome: Option<Outcome>,
}

impl Kul {
    /// A new session for `players` seats; the first ante and deal are reported to `events`.
    pub fn new(players: usize, o: &Options, mut chance: Chance, events: &mut impl Events) -> Result<Kul, String> {
        if !(2..=MAX_PLAYERS).contains(&players) {
            return Err(format!("kul is played by 2-10 players, not {players}"));
        }
        let dealer = chance.first_dealer(players);
        let mut g = Kul {
            n: players,
            chance,
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
            deals_done: 0,
            hands: [CardSet::EMPTY; MAX_PLAYERS],
            marks: [0; MAX_PLAYERS],
            chips: [0; MAX_PLAYERS],
            pot: 0,
            leader: 0,
            trick: [Card::from_index(0); MAX_PLAYERS],
            trick_len: 0,
            trick_no: 0,
            winners: Vec::new(),
            outcome: None,
        };
        g.start_game(events)?;
        Ok(g)
    }

    fn all(&self) -> Audience {
        Audience::all(self.n)
    }

    /// Each seat's chips now (a game in play has taken its ante into the pot).
    pub fn chips(&self) -> &[i64] {
        &self.chips[..self.n]
    }

    fn left(&self, s: Seat) -> Seat {
        (s + 1) % self.n
    }

    /// The chips of every seat, comma-separated (one token).
    fn chips_token(&self) -> String {
        self.chips[..self.n]
            .iter()
            .map(|c| c.to_string())
            .collect::<Vec<_>>()
            .join(",")
    }

    /// Kul.md Sec. 2.0: every player pays the stake into a fresh pot.
    fn start_game(&mut self, ev: &mut impl Events) -> Result<(), String> {
        self.game_no += 1;
        self.deals_in_game = 0;
        self.marks = [0; MAX_PLAYERS];
        for c in &mut self.chips[..self.n] {
            *c -= self.stake;
        }
        self.pot = self.stake * self.n as i64;
        ev.emit(self.all(), "ante", || args![self.game_no, self.stake, self.pot]);
        self.start_deal(false, ev)
    }

    /// Kul.md Sec. 2.1: 5 cards each, clockwise from the dealer's left; the rest set aside.
    fn start_deal(&mut self, redeal: bool, ev: &mut impl Events) -> Result<(), String> {
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
        ev.emit(self.all(), "deal", || args![self.deal_no, self.dealer]);
        for s in 0..self.n {
            let hand = self.hands[s];
            ev.emit(Audience::seat(s), "hand", || {
                CardSet::iter(hand).map(crate::game::Arg::Card).collect()
            });
        }
        self.trick_len = 0;
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
        legal_cards(self.hands[self.turn], &self.trick[..self.trick_len])
    }

    /// Why `token` is not a legal card of the seat to move, or the card.
    fn parse_card(&self, token: &str) -> Result<Card, String> {
        let p = self.turn;
        let card: Card = token.parse()?;
        if !self.hands[p].contains(card) {
            return Err(format!("{card} is not in seat {p}'s hand"));
        }
        let legal = self.legal_now();
        if legal.contains(card) {
            return Ok(card);
        }
        let led = self.trick[0];
        Err(if self.hands[p].has_suit(led.suit) && card.suit != led.suit {
            format!(
                "{card} does not follow the led suit {} (you hold it)",
                led.suit.letter()
            )
        } else {
            format!(
                "{card} does not overtake: forced overtaking, you must play one of {}",
                crate::cards::format_cards(&legal.cards())
            )
        })
    }

    fn play_card(&mut self, card: Card, ev: &mut impl Events) -> Result<(), String> {
        let p = self.turn;
        self.hands[p].remove(card);
        self.trick[self.trick_len] = card;
        self.trick_len += 1;
        ev.emit(self.all(), "move", || args![p, card, "play"]);
        if self.trick_len < self.n {
            self.turn = self.left(p);
            return Ok(());
        }
        let led = self.trick[0].suit;
        let (i, _) = self.trick[..self.n]
            .iter()
            .enumerate()
            .filter(|(_, c)| c.suit == led)
            .max_by_key(|(_, c)| c.rank)
            .expect("the led card");
        let winner = (self.leader + i) % self.n;
        ev.emit(self.all(), "trick", || args![self.trick_no, winner]);
        self.trick_len = 0;
        if self.trick_no < 5 {
            self.trick_no += 1;
            self.leader = winner;
            self.turn = winner;
            return Ok(());
        }
        self.end_deal(winner, ev)
    }

    /// Kul.md Sec. 2.3-2.4: the mark, the pot, the next deal or game.
    fn end_deal(&mut self, winner: Seat, ev: &mut impl Events) -> Result<(), String> {
        self.marks[winner] += 1;
        self.deals_done += 1;
        ev.emit(self.all(), "mark", || args![winner, self.marks[winner]]);
        let next_dealer;
        if self.marks[winner] >= self.marks_to_win {
            self.chips[winner] += self.pot;
            ev.emit(self.all(), "kul", || args![winner, self.pot, self.chips_token()]);
            self.pot = 0;
            self.winners.push(Some(winner));
            next_dealer = winner;
        } else if self.deals_in_game >= self.max_deals {
            // Kul.md Sec. 5: the safety cap splits the pot equally (it is n·K).
            let share = self.pot / self.n as i64;
            for c in &mut self.chips[..self.n] {
                *c += share;
            }
            self.pot = 0;
            ev.emit(self.all(), "split", || args![share, self.chips_token()]);
            self.winners.push(None);
            next_dealer = self.left(self.dealer);
        } else {
            self.dealer = self.left(self.dealer);
            return self.start_deal(false, ev);
        }
        self.dealer = next_dealer;
        if self.game_no >= self.games_total {
            self.finish(ev);
            Ok(())
        } else {
            self.start_game(ev)
        }
    }

    fn finish(&mut self, ev: &mut impl Events) {
        self.phase = Phase::Over;
        ev.emit(self.all(), "end", || args!["games_done"]);
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
        let chips = &self.chips[..self.n];
        self.outcome = Some(Outcome {
            scores: chips.iter().map(|&c| c as f64).collect(),
            detail: json!({
                "games": self.winners.len(),
                "deals": self.deal_no,
                "pot_winners": self.winners,
                "chips": chips,
                "summary": summary,
            }),
        });
    }
}

impl Engine for Kul {
    type Action = KulAction;

    fn token(action: &KulAction) -> Option<&'static str> {
        Some(action.token())
    }

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

    fn legal(&self, out: &mut Vec<KulAction>) {
        out.clear();
        match self.phase {
            Phase::Redeal => out.extend([KulAction::Keep, KulAction::Redeal]),
            Phase::Consent => out.extend([KulAction::Agree, KulAction::Refuse]),
            Phase::Play => out.extend(CardSet::iter(self.legal_now()).map(KulAction::Play)),
            Phase::Over => {}
        }
    }

    fn apply<E: Events>(&mut self, action: KulAction, ev: &mut E) -> Result<(), String> {
        let p = self.turn;
        match action {
            KulAction::Keep => {
                ev.emit(self.all(), "move", || args![p, "keep", "redeal"]);
                self.redeal_used = true;
                self.phase = Phase::Play;
            }
            KulAction::Redeal => {
                ev.emit(self.all(), "move", || args![p, "redeal", "redeal"]);
                self.redeal_used = true;
                self.phase = Phase::Consent;
                self.turn = self.left(p);
            }
            KulAction::Agree => {
                ev.emit(self.all(), "move", || args![p, "agree", "consent"]);
                if self.left(p) == self.leader {
                    // Everyone but the proposer (forehand, the leader) has agreed.
                    ev.emit(self.all(), "redeal", || args!["agreed"]);
                    self.start_deal(true, ev)?;
                    self.phase = Phase::Play;
                } else {
                    self.turn = self.left(p);
                }
            }
            KulAction::Refuse => {
                ev.emit(self.all(), "move", || args![p, "refuse", "consent"]);
                ev.emit(self.all(), "redeal", || args!["refused"]);
                self.phase = Phase::Play;
                self.turn = self.leader;
            }
            KulAction::Play(card) => return self.play_card(card, ev),
        }
        Ok(())
    }

    fn parse(&self, token: &str) -> Result<KulAction, String> {
        match self.phase {
            Phase::Redeal => match token {
                "redeal" => Ok(KulAction::Redeal),
                "keep" => Ok(KulAction::Keep),
                _ => Err(format!("'{token}' is not a redeal decision: answer redeal or keep")),
            },
            Phase::Consent => match token {
                "agree" => Ok(KulAction::Agree),
                "refuse" => Ok(KulAction::Refuse),
                _ => Err(format!(
                    "'{token}' is not an answer to a redeal proposal: agree or refuse"
                )),
            },
            Phase::Play => self.parse_card(token).map(KulAction::Play),
            Phase::Over => Err("the game is over".into()),
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome.clone()
    }

    /// After each deal: the deals finished so far, and each seat's chips with the pot in play
    /// shared by its chance of taking it (a race to `marks_to_win` in which each deal's mark
    /// goes to any seat alike: [`race_odds`](crate::games::race::race_odds)). Exact where a Kul game has just been settled (a
    /// new game's pot is the antes, shared alike) and at the end of the session.
    fn standing(&self) -> Option<(u64, Vec<f64>)> {
        let chips = &self.chips[..self.n];
        if self.phase == Phase::Over || self.pot == 0 {
            return Some((self.deals_done, chips.iter().map(|&c| c as f64).collect()));
        }
        let needs: Vec<u32> = self.marks[..self.n]
            .iter()
            .map(|&m| self.marks_to_win.saturating_sub(m).max(1))
            .collect();
        let odds = crate::games::race::race_odds(&needs);
        let est = chips
            .iter()
            .zip(&odds)
            .map(|(&c, p)| c as f64 + self.pot as f64 * p)
            .collect();
        Some((self.deals_done, est))
    }

    fn seat_cards(&self, seat: Seat) -> Option<Vec<Card>> {
        Some(self.hands[seat].iter().collect())
    }

    fn chance(&self) -> &Chance {
        &self.chance
    }

    fn chance_mut(&mut self) -> &mut Chance {
        &mut self.chance
    }
}
