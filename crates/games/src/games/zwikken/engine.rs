//! The Zwikken state machine (zwikken.md §2): a session of deals; per deal the ante, the deal
//! and the turned card, two bidding rounds, the dealer's seeks, the trump-ten exchange, the zwik
//! showdown, three tricks and the settlement.
//!
//! Audiences follow zwikken.md §7: a hand goes to its owner only; turned cards, every bid, the
//! seek decision, chips, exchanges, a showdown zwik, plays and results go to everybody; the
//! stock, other hands and the pair rank of "ik verwacht een betere" go to nobody.
//!
//! The state is a typed [`Engine`]: per-seat state, the turned cards, the stock, the speakers
//! and the trick live in fixed arrays (at most 6 players, 3 turned cards, 20 cards), so a state
//! clones without touching the heap for them and a decision allocates nothing; options are read
//! into [`Rules`] once.
//!
//! This file holds the [`Engine`] impl; the state is in `state.rs`, its rules in `rules.rs`, the
//! phases of a deal in `deal.rs`, `bidding.rs`, `exchange.rs`, `showdown.rs` and `play.rs` (with
//! the trick law in `tricks.rs`), the settlement and the outcome in `outcome.rs`.

pub use super::action::ZwikkenAction;
pub use super::outcome::POT_LIMIT;
pub use super::rules::{ExchangeTargets, Rules};
pub use super::showdown::zwik_rank;
pub use super::state::{Phase, Zwikken};
pub use super::tricks::{card_points, legal_plays, trick_winner};
use crate::args;
use crate::cards::Card;
use crate::chance::Chance;
use crate::engine::{Engine, Events};
use crate::game::{Outcome, Seat};

impl Zwikken {
    /// The legal actions of the seat to move, as protocol tokens (for refusal messages).
    pub(super) fn legal_tokens(&self) -> String {
        let mut v = Vec::new();
        self.legal(&mut v);
        v.iter().map(|a| a.to_string()).collect::<Vec<_>>().join(" ")
    }
}

impl Engine for Zwikken {
    type Action = ZwikkenAction;

    fn token(action: &ZwikkenAction) -> Option<&'static str> {
        action.fixed_token()
    }

    fn players(&self) -> usize {
        self.n
    }

    fn to_move(&self) -> Option<Seat> {
        (self.phase != Phase::Over).then_some(self.turn)
    }

    fn decision(&self) -> &'static str {
        match self.phase {
            Phase::Bid => "bid",
            Phase::Seek => "seek",
            Phase::Exchange => "exchange",
            Phase::Play | Phase::Over => "play",
        }
    }

    fn legal(&self, out: &mut Vec<ZwikkenAction>) {
        out.clear();
        match self.phase {
            Phase::Bid => self.legal_bids(self.turn, out),
            Phase::Seek => out.extend([ZwikkenAction::NoSeek, ZwikkenAction::Seek]),
            Phase::Exchange => {
                out.push(ZwikkenAction::NoExchange);
                out.extend(self.targets(self.turn).iter().map(|&(c, _)| ZwikkenAction::Exchange(c)));
            }
            Phase::Play => self.legal_play(out),
            Phase::Over => {}
        }
    }

    fn apply<E: Events>(&mut self, action: ZwikkenAction, ev: &mut E) -> Result<(), String> {
        use ZwikkenAction::*;
        let p = self.turn;
        match action {
            Pass | Ask | KenPass | KenAsk | WaitBetter => self.apply_bid(action, ev),
            Seek => self.seek(ev),
            NoSeek => {
                ev.emit(self.all(), "move", || args![p, "no_seek", "seek"]);
                self.end("no_play", None, ev);
                self.end_deal(ev);
            }
            NoExchange | Exchange(_) => {
                ev.emit(self.all(), "move", || args![p, action.arg(), "exchange"]);
                if let Exchange(take) = action {
                    let ten = self.ten_for(p, take);
                    self.do_exchange(p, take, ten, ev);
                }
                self.ex_queue.remove_first();
                self.next_exchange(ev);
            }
            Play(card) => {
                ev.emit(self.all(), "move", || args![p, action, "play"]);
                self.play(card, ev);
            }
            ExchangePlay(take, card) => {
                ev.emit(self.all(), "move", || args![p, action, "play"]);
                let ten = self.ten_for(p, take);
                self.do_exchange(p, take, ten, ev);
                self.play(card, ev);
            }
        }
        match self.deal_error.take() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    fn parse(&self, token: &str) -> Result<ZwikkenAction, String> {
        if self.phase == Phase::Over {
            return Err("the game is over".into());
        }
        let mut legal = Vec::new();
        self.legal(&mut legal);
        if let Some(&a) = legal.iter().find(|a| a.to_string() == token) {
            return Ok(a);
        }
        let p = self.turn;
        Err(match self.phase {
            Phase::Bid => self.bid_refusal(p, token),
            Phase::Seek => format!("'{token}' is not a seek decision: seek or no_seek"),
            Phase::Exchange => match token.strip_prefix("exchange_").and_then(|c| c.parse::<Card>().ok()) {
                Some(t) => self.exchange_refusal(p, t),
                None => format!("'{token}' is not an exchange decision: no_exchange or exchange_<card>"),
            },
            Phase::Play | Phase::Over => self.play_refusal(p, token),
        })
    }

    /// After each deal: the deals ended so far, and each seat's chips with the pot shared
    /// alike by the seats still in (what a seat pays into the pot comes back to it in part
    /// later). Exact at the end of the session, where the pot has been paid out.
    fn standing(&self) -> Option<(u64, Vec<f64>)> {
        let active = (0..self.n).filter(|&s| self.active[s]).count();
        let share = if active == 0 {
            0.0
        } else {
            self.pot as f64 / active as f64
        };
        let est = (0..self.n)
            .map(|s| (self.balance[s] - self.start) as f64 + if self.active[s] { share } else { 0.0 })
            .collect();
        Some((self.deals_done, est))
    }

    fn outcome(&self) -> Option<Outcome> {
        self.make_outcome()
    }

    /// The scores without the ledger of every deal.
    fn scores(&self) -> Option<Vec<f64>> {
        self.final_scores()
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
