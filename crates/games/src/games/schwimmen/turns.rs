//! Schwimmen turns (schwimmen.md Sec. 2.4): swap one, swap all, knock or pass; the legal turns,
//! reading one and why it is refused, and playing it.

use super::action::SchwimmenAction;
use super::scoring;
use super::state::{End, Schwimmen, Turn};
use crate::args;
use crate::cards::{format_cards, Card};
use crate::game::Audience;

impl Schwimmen {
    fn may_knock(&self) -> bool {
        self.knocker.is_none() && !(self.rules.no_knock_first_circuit && self.turns < self.active_count())
    }

    /// Why a knock is refused now (made only for a refused token).
    fn knock_refusal(&self) -> Option<String> {
        if let Some(k) = self.knocker {
            return Some(format!("seat {k} has knocked already: only one knock per round"));
        }
        if !self.may_knock() {
            return Some("no knock before every player has had a turn (no_knock_first_circuit)".into());
        }
        None
    }

    pub(super) fn legal_turns(&self, out: &mut Vec<SchwimmenAction>) {
        let hand = &self.hands[self.turn][..];
        if let (Ok(h), Ok(m)) = (<&[Card; 3]>::try_from(hand), <&[Card; 3]>::try_from(&self.middle[..])) {
            // Three cards each (always in play): the nine swaps at once.
            let swaps: [SchwimmenAction; 9] = std::array::from_fn(|i| SchwimmenAction::Swap(h[i / 3], m[i % 3]));
            out.extend_from_slice(&swaps);
        } else {
            for &h in hand {
                for &m in &self.middle {
                    out.push(SchwimmenAction::Swap(h, m));
                }
            }
        }
        out.push(SchwimmenAction::SwapAll);
        if self.may_knock() {
            out.push(SchwimmenAction::Knock);
        }
        if self.rules.allow_pass {
            out.push(SchwimmenAction::Pass);
        }
    }

    pub(super) fn parse_turn(&self, token: &str) -> Result<Turn, String> {
        let legal_now = || self.legal_tokens();
        match token {
            "swap_all" => return Ok(Turn::SwapAll),
            "knock" => {
                return match self.knock_refusal() {
                    Some(why) => Err(why),
                    None => Ok(Turn::Knock),
                }
            }
            "pass" => {
                return if self.rules.allow_pass {
                    Ok(Turn::Pass)
                } else {
                    Err("passing is not allowed (allow_pass=false): swap one, swap all or knock".into())
                }
            }
            _ => {}
        }
        let parts: Vec<&str> = token.split('_').collect();
        if parts.len() == 3 && parts[0] == "swap" {
            let h: Card = parts[1]
                .parse()
                .map_err(|e| format!("'{token}': the card to lay down: {e}"))?;
            let m: Card = parts[2]
                .parse()
                .map_err(|e| format!("'{token}': the card to take: {e}"))?;
            if !self.hands[self.turn].contains(&h) {
                return Err(format!("'{token}': {h} is not in your hand"));
            }
            if !self.middle.contains(&m) {
                return Err(format!(
                    "'{token}': {m} is not in the middle ({})",
                    format_cards(&self.middle)
                ));
            }
            return Ok(Turn::SwapOne(h, m));
        }
        Err(format!("'{token}' is not an action (legal now: {})", legal_now()))
    }

    pub(super) fn apply_turn(&mut self, action: SchwimmenAction) {
        let t = match action {
            SchwimmenAction::Swap(h, m) => Turn::SwapOne(h, m),
            SchwimmenAction::SwapAll => Turn::SwapAll,
            SchwimmenAction::Knock => Turn::Knock,
            _ => Turn::Pass,
        };
        let p = self.turn;
        let all = self.all();
        self.ev.emit(all, "move", || args![p, action, "turn"]);
        let before_knock = self.knocker.is_none();
        match t {
            Turn::SwapOne(h, m) => {
                let hi = self.hands[p].iter().position(|&c| c == h).expect("a checked card");
                let mi = self.middle.iter().position(|&c| c == m).expect("a checked card");
                self.hands[p][hi] = m;
                self.middle[mi] = h;
            }
            Turn::SwapAll => std::mem::swap(&mut self.hands[p], &mut self.middle),
            Turn::Knock => {
                self.knocker = Some(p);
                self.final_left = self.active_count() - 1;
            }
            Turn::Pass => {}
        }
        if matches!(t, Turn::SwapOne(..) | Turn::SwapAll) {
            self.passes = 0;
            self.ev.emit(all, "middle", || Self::card_args(&self.middle));
            self.ev
                .emit(Audience::seat(p), "hand", || Self::hand_args(&self.hands[p]));
            if scoring::is_three_aces(&self.hands[p]) {
                self.end_round(End::ThreeAces(p));
                return;
            }
            if scoring::is_31(&self.hands[p]) {
                self.end_round(End::ThirtyOne(p));
                return;
            }
        }
        if t == Turn::Pass && before_knock {
            self.passes += 1;
            if self.passes >= self.active_count() {
                self.passes = 0;
                self.refresh_middle();
            }
        }
        if before_knock {
            self.turns += 1;
            if t != Turn::Knock && self.turns >= self.rules.max_circuits * self.active_count() {
                self.end_round(End::Cap);
                return;
            }
        } else {
            self.final_left -= 1;
            if self.final_left == 0 {
                self.end_round(End::Showdown);
                return;
            }
        }
        self.turn = self.right_active(p);
    }

    /// A full circuit of passes under `all_pass_refresh`: the middle is removed and three fresh
    /// cards are turned from the unused pack (if it still holds three).
    fn refresh_middle(&mut self) {
        if !self.rules.all_pass_refresh || self.stock.len() < 3 {
            return;
        }
        self.discard.append(&mut self.middle);
        self.middle.extend(self.stock.drain(..3));
        let all = self.all();
        self.ev.emit(all, "refresh", || Self::card_args(&self.middle));
        self.ev.emit(all, "middle", || Self::card_args(&self.middle));
    }
}
