//! The swinger's choice (svangknack.md Sec. 2.2): redeal vote, swing or hand-over.

use super::action::SvangknackAction;
use super::state::{Phase, Svangknack};
use crate::args;
use crate::cards::CardSet;
use crate::engine::Events;

impl Svangknack {
    pub(super) fn swing_actions(&self, out: &mut Vec<SvangknackAction>) {
        out.push(SvangknackAction::Swing);
        if !self.forced_round {
            out.push(SvangknackAction::Handover);
            if self.r.last_man {
                out.push(SvangknackAction::HandoverLast);
            }
        }
        if self.redeal_available {
            out.push(SvangknackAction::Redeal);
        }
    }

    pub(super) fn swing_refusal(&self, token: &str) -> String {
        match token {
            "redeal" => "a redeal was already proposed this round (only once)".into(),
            "handover" | "handover_last" if self.forced_round => {
                "every player takes part in this round (forced participation): the swing cannot be handed over".into()
            }
            "handover_last" => "'sista man' needs the option last_man=true".into(),
            _ => {
                let mut v = Vec::new();
                self.swing_actions(&mut v);
                let tokens: Vec<String> = v.iter().map(|a| a.to_string()).collect();
                format!("'{token}' is not a swinger's choice: {}", tokens.join(", "))
            }
        }
    }

    pub(super) fn apply_swing(&mut self, action: SvangknackAction, ev: &mut impl Events) -> Result<(), String> {
        let f = self.swinger;
        ev.emit(self.all(), "move", || args![f, action.arg(), "swing"]);
        match action {
            SvangknackAction::Redeal => {
                self.redeal_available = false;
                self.voters.clear();
                for k in 1..self.n {
                    let s = (f + k) % self.n;
                    if s != self.dealer {
                        self.voters.push(s);
                    }
                }
                self.phase = Phase::Consent;
                self.turn = self.voters.remove_first();
                Ok(())
            }
            SvangknackAction::Swing => self.turn_up(ev),
            _ => {
                // Sec. 2.2b: the swing passes left; the new swinger must swing.
                self.handed_over = true;
                self.last_man_called = action == SvangknackAction::HandoverLast;
                self.swinger = self.left(f);
                ev.emit(self.all(), "swinger", || args![self.swinger]);
                self.turn_up(ev)
            }
        }
    }

    pub(super) fn apply_consent(&mut self, agree: bool, ev: &mut impl Events) -> Result<(), String> {
        let p = self.turn;
        if agree {
            ev.emit(self.all(), "move", || args![p, "agree", "consent"]);
            if !self.voters.is_empty() {
                self.turn = self.voters.remove_first();
                return Ok(());
            }
            self.redeal(ev)?;
        } else {
            ev.emit(self.all(), "move", || args![p, "refuse", "consent"]);
            self.voters.clear();
            ev.emit(self.all(), "redeal", || args!["refused"]);
        }
        self.phase = Phase::Swing;
        self.turn = self.swinger;
        Ok(())
    }

    /// Sec. 2.2a: with at most 7 players the new hands come from the stock without shuffling
    /// (the old ones are set aside unseen); with 8 or more, or when the stock is too short
    /// (deck=36), all cards are gathered, shuffled and dealt again.
    fn redeal(&mut self, ev: &mut impl Events) -> Result<(), String> {
        let need = 3 * self.n + 2;
        if self.n <= 7 && self.stock_len - self.stock_pos >= need {
            ev.emit(self.all(), "redeal", || args!["stock"]);
            let mut pos = self.stock_pos;
            for k in 1..=self.n {
                let s = (self.dealer + k) % self.n;
                self.hands[s] = CardSet::from_cards(&self.stock[pos..pos + 3]);
                pos += 3;
            }
            self.stock_pos = pos;
            self.send_hands(ev);
            Ok(())
        } else {
            ev.emit(self.all(), "redeal", || args!["shuffle"]);
            self.deal_cards(ev)
        }
    }
}
