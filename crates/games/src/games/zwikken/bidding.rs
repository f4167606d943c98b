//! The Zwikken bidding (zwikken.md §2): two rounds of ask or pass, "ik ken hem", "ik verwacht
//! een betere", and the dealer's seeks after an all-pass.

use super::action::ZwikkenAction;
use super::state::{ten_of, Phase, Zwikken, MAX_PLAYERS};
use crate::args;
use crate::cards::{Card, CardSet, Rank};
use crate::engine::Events;
use crate::game::{Args, Seat};

impl Zwikken {
    pub(super) fn start_bidding(&mut self) {
        self.phase = Phase::Bid;
        self.round = 1;
        self.speakers = self.order();
        self.spk = 0;
        self.asked = [false; MAX_PLAYERS];
        self.passed1 = [false; MAX_PLAYERS];
        self.asks = 0;
        self.turn = self.speakers.as_slice()[0];
    }

    /// The holder of the trump ten, if a player holds it.
    fn tth(&self) -> Option<Seat> {
        (0..self.n).find(|&s| self.hands[s].contains(ten_of(self.trump)))
    }

    /// The rank of the pair beside the trump ten ("op zwik zitten"), if `p` is on zwik.
    fn on_zwik(&self, p: Seat) -> Option<Rank> {
        let mut h = self.hands[p];
        if !h.remove(ten_of(self.trump)) || h.len() != 2 {
            return None;
        }
        let mut rest = CardSet::iter(h);
        let (a, b) = (rest.next()?, rest.next()?);
        (a.rank == b.rank && a.rank != Rank::TEN).then_some(a.rank)
    }

    /// The waiting player whose card has just come (he must ask).
    fn forced_asker(&self) -> Option<Seat> {
        let last = *self.turned.last()?;
        if !self.repeat || self.round != 1 {
            return None;
        }
        self.waits
            .iter()
            .find(|&&(_, suit, rank)| suit == last.suit && rank == last.rank)
            .map(|&(s, _, _)| s)
    }

    fn may_ask(&self, p: Seat) -> bool {
        !self.bankroll() || self.balance[p] >= self.pot
    }

    pub(super) fn legal_bids(&self, p: Seat, out: &mut Vec<ZwikkenAction>) {
        use ZwikkenAction::*;
        let tth = self.tth() == Some(p);
        if self.repeat {
            if self.forced_asker() == Some(p) {
                out.push(KenAsk);
            } else {
                out.push(if tth { KenPass } else { Pass });
            }
        } else if tth {
            out.push(KenPass);
            if self.may_ask(p) {
                out.push(KenAsk);
            }
            if self.round == 1 && self.on_zwik(p).is_some() {
                out.push(WaitBetter);
            }
        } else {
            out.push(Pass);
            if self.may_ask(p) {
                out.push(Ask);
            }
        }
    }

    pub(super) fn bid_refusal(&self, p: Seat, token: &str) -> String {
        let tth = self.tth() == Some(p);
        match token {
            "pass" | "ask" if tth => format!(
                "seat {p} holds the trump ten {} and must say 'ik ken hem': use ken_pass or ken_ask",
                ten_of(self.trump)
            ),
            "ken_pass" | "ken_ask" | "wait_better" if !tth => {
                format!("seat {p} does not hold the trump ten {}", ten_of(self.trump))
            }
            "wait_better" if self.round == 2 => "'ik verwacht een betere' is said in the first round only".into(),
            "wait_better" if self.repeat => "in a repeated trump suit everyone must pass".into(),
            "wait_better" => format!("seat {p} is not on zwik (the trump ten and a pair of J, Q, K or A)"),
            "ask" | "ken_ask" if self.repeat => {
                "this trump suit was turned before: everyone must pass (only a waiting player whose card came must ask)"
                    .into()
            }
            "ask" | "ken_ask" if !self.may_ask(p) => format!(
                "seat {p} has {} chips and may not ask for a pot of {}",
                self.balance[p], self.pot
            ),
            "pass" | "ken_pass" if self.forced_asker() == Some(p) => {
                format!("the card seat {p} waited for has come: 'ik verwacht een betere' obliges it to ask (ken_ask)")
            }
            _ => format!("'{token}' is not a bid here; legal: {}", self.legal_tokens()),
        }
    }

    /// What the bidder says ("pas", "ik vraag", …), as the `say` event's word.
    fn wording(&self, bid: ZwikkenAction) -> &'static str {
        let i = self.asks.min(2);
        match bid {
            ZwikkenAction::Pass => "pas",
            ZwikkenAction::Ask => ["ik_vraag", "ik_vraag_beter", "ik_vraag_nog_beter"][i],
            ZwikkenAction::KenPass => "ik_ken_hem_en_ik_pas",
            ZwikkenAction::KenAsk => [
                "ik_ken_hem_en_ik_vraag",
                "ik_ken_hem_en_ik_vraag_beter",
                "ik_ken_hem_en_ik_vraag_nog_beter",
            ][i],
            _ => "ik_verwacht_een_betere",
        }
    }

    pub(super) fn apply_bid(&mut self, bid: ZwikkenAction, ev: &mut impl Events) {
        let p = self.turn;
        ev.emit(self.all(), "move", || args![p, bid.arg(), "bid"]);
        let said = self.wording(bid);
        ev.emit(self.all(), "say", || args![p, said]);
        match bid {
            ZwikkenAction::Ask | ZwikkenAction::KenAsk => {
                self.asked[p] = true;
                self.asks += 1;
            }
            ZwikkenAction::WaitBetter => {
                let r = self.on_zwik(p).expect("on zwik");
                self.waits.push((p, self.trump, r));
                if self.round == 1 {
                    self.passed1[p] = true;
                }
            }
            _ => {
                if self.round == 1 {
                    self.passed1[p] = true;
                }
            }
        }
        self.spk += 1;
        if self.spk < self.speakers.len() {
            self.turn = self.speakers.as_slice()[self.spk];
            return;
        }
        if self.asks == 0 {
            ev.emit(self.all(), "allpass", || args![]);
            self.all_passed(ev);
        } else if self.round == 1 {
            self.round = 2;
            let mut speakers = self.order();
            speakers.retain(|s| self.passed1[s]);
            self.speakers = speakers;
            self.spk = 0;
            match self.speakers.first() {
                Some(&s) => self.turn = s,
                None => self.end_bidding(ev),
            }
        } else {
            self.end_bidding(ev);
        }
    }

    fn seek_available(&self) -> bool {
        self.seeks < self.rules.max_seeks && self.stock_lo < self.stock_hi
    }

    fn all_passed(&mut self, ev: &mut impl Events) {
        if self.seek_available() {
            self.phase = Phase::Seek;
            self.turn = self.dealer;
        } else {
            self.end("no_play", None, ev);
            self.end_deal(ev);
        }
    }

    pub(super) fn seek(&mut self, ev: &mut impl Events) {
        let d = self.dealer;
        ev.emit(self.all(), "move", || args![d, "seek", "seek"]);
        ev.emit(self.all(), "say", || args![d, "zoeken"]);
        let fee = self.rules.seek_fee.get(self.seeks).copied().unwrap_or(0);
        self.everyone_pays(fee, "seek", ev);
        self.seeks += 1;
        let card = self.stock[self.stock_lo];
        self.stock_lo += 1;
        self.repeat = self.turned.iter().any(|c| c.suit == card.suit);
        self.turned.push(card);
        self.trump = card.suit;
        self.period += 1;
        ev.emit(self.all(), "turn", || args![card]);
        self.start_bidding();
    }
}

/// What a bid tells of the trump ten ([`DealLines::tells`](crate::game::DealLines::tells)):
/// the bids of [`Zwikken::legal_bids`] are `ken_pass`, `ken_ask` and `wait_better` for the seat
/// that holds the ten of the turned card's suit, `pass` and `ask` for every other seat. Nothing
/// where the turned card is that ten (nobody holds it).
pub(super) fn tells(lines: &[(String, Args)], at: usize) -> Option<(Seat, Card, bool)> {
    let (kind, args) = lines.get(at)?;
    if kind != "move" || *args.get(2)? != "bid" {
        return None;
    }
    let seat: Seat = args.first()?.parse().ok()?;
    let turned = lines[..at]
        .iter()
        .rev()
        .find(|(k, _)| k == "turn")
        .and_then(|(_, a)| a.first()?.card())?;
    let ten = ten_of(turned.suit);
    if turned == ten {
        return None;
    }
    let holds = match args.get(1)?.text().as_ref() {
        "ken_pass" | "ken_ask" | "wait_better" => true,
        "pass" | "ask" => false,
        _ => return None,
    };
    Some((seat, ten, holds))
}
