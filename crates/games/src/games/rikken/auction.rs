//! The Rikken auction (Sec. 4): which bids, joins and passes are legal and why one is refused,
//! recording a bid, and the end of the auction or an all-pass.

use super::action::RikkenAction;
use super::bids::Contract;
use super::state::{left, Phase, Rikken, N};
use crate::args;
use crate::cards::{Card, Rank, Suit};
use crate::game::Seat;

/// The bidder's side of the bid checks ([`Rikken::bidder`]).
pub(super) struct Bidder {
    standing_slot: Option<usize>,
    aces: usize,
    obliged: bool,
}

/// Why a bid is refused now ([`Rikken::bid_refusal`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum BidRefusal {
    NotABid,
    RikBeterOpens,
    AloneOpens,
    NoOverbid(Contract),
    RikBeterOverRikOnly,
    AloneNeedsRik,
    MalheurNeedsAces,
    MalheurObligatory { strict: bool },
}

impl BidRefusal {
    /// The reason in words, for a refusal of the bid `c`.
    fn message(self, c: Contract) -> String {
        let tok = c.token();
        match self {
            BidRefusal::NotABid => format!("{tok} is not a bid under the rules in force"),
            BidRefusal::RikBeterOpens => "rik_beter cannot open the auction (A5)".into(),
            BidRefusal::AloneOpens => format!("{tok} cannot open the auction (Sec. 4.3)"),
            BidRefusal::NoOverbid(s) => format!("{tok} does not overbid the standing bid {}", s.token()),
            BidRefusal::RikBeterOverRikOnly => "rik_beter is only possible over rik".into(),
            BidRefusal::AloneNeedsRik => format!("{tok} needs a prior rik (alone_requires_rikken)"),
            BidRefusal::MalheurNeedsAces => "malheur needs 3 or 4 aces".into(),
            BidRefusal::MalheurObligatory { strict: true } => "with 3 or 4 aces you must bid malheur".into(),
            BidRefusal::MalheurObligatory { strict: false } => "with 3 or 4 aces you must bid malheur or higher".into(),
        }
    }
}

impl Rikken {
    fn ace_count(&self, s: Seat) -> usize {
        Suit::ALL
            .iter()
            .filter(|&&suit| self.hands[s].contains(Card::new(Rank::ACE, suit)))
            .count()
    }

    fn aces(&self, s: Seat) -> Vec<Card> {
        self.hands[s]
            .cards()
            .into_iter()
            .filter(|c| c.rank == Rank::ACE)
            .collect()
    }

    /// The slot of the standing bid, if any.
    fn standing_slot(&self) -> Option<usize> {
        self.standing.and_then(|c| self.setup.ladder.slot(c))
    }

    fn malheur_obliged(&self, p: Seat) -> bool {
        let malheur = self.setup.ladder.malheur_slot();
        self.rules.malheur_obligatory
            && self.ace_count(p) >= 3
            && match (self.standing_slot(), malheur) {
                (Some(s), Some(m)) => s < m,
                (None, _) => true,
                _ => false,
            }
    }

    /// Why `c` may not be bid by `p` now, or `None` if it may (before the malheur obligation
    /// and the fourth-must-bid rule, which restrict passing). Legality is tested for every
    /// rung of the ladder at every bid, so the reason is a value; its words are made only
    /// when a refusal is shown ([`BidRefusal::message`]).
    fn bid_refusal(&self, p: Seat, c: Contract) -> Option<BidRefusal> {
        let Some(slot) = self.setup.ladder.slot(c) else {
            return Some(BidRefusal::NotABid);
        };
        self.bid_refusal_at(&self.bidder(p), c, slot)
    }

    /// What the bid checks need to know of the bidder `p` and the auction, worked out once
    /// per decision rather than once per rung of the ladder.
    pub(super) fn bidder(&self, p: Seat) -> Bidder {
        Bidder {
            standing_slot: self.standing_slot(),
            aces: self.ace_count(p),
            obliged: self.malheur_obliged(p),
        }
    }

    /// [`bid_refusal`](Rikken::bid_refusal) of `c`, whose slot on the ladder is `slot`.
    pub(super) fn bid_refusal_at(&self, b: &Bidder, c: Contract, slot: usize) -> Option<BidRefusal> {
        match self.standing {
            None => match c {
                Contract::Rik { beter: true } => return Some(BidRefusal::RikBeterOpens),
                Contract::Alone { .. } => return Some(BidRefusal::AloneOpens),
                _ => {}
            },
            Some(s) => {
                if slot <= b.standing_slot.unwrap_or(0) {
                    return Some(BidRefusal::NoOverbid(s));
                }
                if c == (Contract::Rik { beter: true }) && s != (Contract::Rik { beter: false }) {
                    return Some(BidRefusal::RikBeterOverRikOnly);
                }
            }
        }
        if matches!(c, Contract::Alone { .. }) && self.rules.alone_requires_rikken && !self.rik_bid {
            return Some(BidRefusal::AloneNeedsRik);
        }
        if c == Contract::Malheur && b.aces < 3 {
            return Some(BidRefusal::MalheurNeedsAces);
        }
        if b.obliged && c != Contract::Malheur {
            let m = self.setup.ladder.malheur_slot().unwrap_or(0);
            let strict = self.rules.malheur_strict;
            if strict || slot < m {
                return Some(BidRefusal::MalheurObligatory { strict });
            }
        }
        None
    }

    /// The contract `p` may join now (`misere_join`), if any.
    pub(super) fn joinable(&self, p: Seat) -> Option<Contract> {
        let s = self.standing?;
        let allowed = match s {
            Contract::Misere { open: 0 } => true,
            Contract::Misere { .. } | Contract::Piek { .. } => self.rules.allow_join_piek_open,
            _ => false,
        };
        if !allowed || self.declarers.iter().any(|&d| d == p) || self.malheur_obliged(p) {
            return None;
        }
        Some(s)
    }

    /// Whether `p` may pass now, or why not (a text made only when shown).
    pub(super) fn may_pass(&self, p: Seat) -> Result<(), &'static str> {
        if self.malheur_obliged(p) {
            return Err("with 3 or 4 aces you may not pass: malheur is obligatory (Sec. 4.5)");
        }
        if self.rules.fourth_must_bid && self.standing.is_none() && self.passes_without_bid == 3 {
            return Err("the fourth player may not pass after three passes (all_pass=fourth_must_bid)");
        }
        Ok(())
    }

    /// Why a bid token is refused, if it is (the checks of Sec. 4).
    pub(super) fn check_bid(&self, token: &str) -> Result<(), String> {
        let p = self.turn;
        if token == "pass" {
            self.may_pass(p)?;
        } else if let Some(c) = Contract::parse_join(token) {
            if self.joinable(p) != Some(c) {
                return Err(match self.standing {
                    Some(s) if s == c && self.declarers.iter().any(|&d| d == p) => {
                        format!("you already play {}", s.token())
                    }
                    Some(s) if s == c => format!("joining {} is not allowed by the rules in force", s.token()),
                    _ => format!("{token}: {} is not the standing bid", c.token()),
                });
            }
        } else if let Some(c) = Contract::parse(token).filter(|c| self.setup.ladder.slot(*c).is_some()) {
            if let Some(why) = self.bid_refusal(p, c) {
                return Err(why.message(c));
            }
        } else {
            return Err(format!("'{token}' is not a bid (legal now: {})", self.legal_tokens()));
        }
        Ok(())
    }

    pub(super) fn record_bid(&mut self, p: Seat, bid: RikkenAction) {
        self.ev.emit(Self::all(), "move", || args![p, bid, "bid"]);
        match bid {
            RikkenAction::Pass => {
                self.consecutive += 1;
                if !self.passed[p] && self.standing.is_none() {
                    self.passes_without_bid += 1;
                }
                self.passed[p] = true;
            }
            RikkenAction::Join(_) => {
                self.declarers.push(p);
                self.consecutive = 0;
            }
            RikkenAction::Bid(c) => {
                if c == (Contract::Rik { beter: false }) {
                    self.rik_bid = true;
                }
                self.standing = Some(c);
                self.declarers.clear();
                self.declarers.push(p);
                self.consecutive = 0;
            }
            _ => unreachable!("{bid} is not a bid"),
        }
    }

    /// Moves the auction on: automatic re-passes, the end of the auction or an all-pass.
    pub(super) fn after_bid(&mut self) {
        loop {
            if self.standing.is_none() && self.passes_without_bid == N {
                self.all_pass();
                return;
            }
            if self.standing.is_some() && self.consecutive >= N - 1 {
                self.end_auction();
                return;
            }
            self.turn = left(self.turn);
            if self.passed[self.turn] {
                self.record_bid(self.turn, RikkenAction::Pass);
                continue;
            }
            break;
        }
        self.prompt();
    }

    fn all_pass(&mut self) {
        self.ev.emit(Self::all(), "allpass", || args![]);
        if self.rules.schoppen_mieen {
            self.contract = Some(Contract::SchoppenMieen);
            self.declarers.clear();
            self.ev.emit(Self::all(), "contract", || args!["schoppen_mieen", "-"]);
            self.ev.emit(Self::all(), "trump", || args!["none"]);
            self.start_play();
        } else if let Err(e) = self.start_deal() {
            // Only a deal file can make a redeal fail; it is reported when the move is applied.
            self.deal_error = Some(e);
        }
    }

    fn end_auction(&mut self) {
        let c = self.standing.expect("a standing bid");
        self.contract = Some(c);
        let ds = self.declarers;
        self.ev.emit(Self::all(), "contract", || {
            let ds: Vec<String> = ds.iter().map(|d| d.to_string()).collect();
            args![c.token(), ds.join(",")]
        });
        let d = self.declarers[0];
        match c {
            Contract::Malheur => {
                let aces = self.aces(d);
                self.ev.emit(Self::all(), "aces", || {
                    aces.iter().map(|&c| crate::game::Arg::Card(c)).collect()
                });
                if aces.len() == 3 {
                    let fourth = Suit::ALL
                        .into_iter()
                        .map(|s| Card::new(Rank::ACE, s))
                        .find(|a| !aces.contains(a))
                        .expect("a fourth ace");
                    // The rules make the call: announced like a call the rikker made.
                    self.ev.emit(Self::all(), "move", || args![d, fourth, "call"]);
                    self.set_called(fourth);
                    self.malheur_partner();
                } else {
                    self.phase = Phase::Call;
                    self.turn = d;
                    self.prompt();
                }
            }
            _ if c.no_trump() => {
                self.ev.emit(Self::all(), "trump", || args!["none"]);
                self.start_play();
            }
            _ if c.beter() => {
                self.trump = Some(Suit::Hearts);
                self.ev.emit(Self::all(), "trump", || args!["H"]);
                self.after_trump();
            }
            _ => {
                self.phase = Phase::Trump;
                self.turn = d;
                self.prompt();
            }
        }
    }
}
