//! A Zwikken action, its protocol token and its word in the events.

use crate::cards::Card;
use crate::game::Arg;
use std::fmt;

/// A Zwikken action. `Display` writes its protocol token; [`Zwikken::parse`](crate::engine::Engine::parse)
/// reads one back.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ZwikkenAction {
    /// `pass` ("pas").
    Pass,
    /// `ask` ("ik vraag", "… beter", "… nog beter").
    Ask,
    /// `ken_pass`: the trump-ten holder says "ik ken hem" and passes.
    KenPass,
    /// `ken_ask`: the trump-ten holder says "ik ken hem" and asks.
    KenAsk,
    /// `wait_better`: "ik verwacht een betere" (on zwik, first round).
    WaitBetter,
    /// `seek`: the dealer re-turns after an all-pass ("zoeken").
    Seek,
    /// `no_seek`: the deal is not played.
    NoSeek,
    /// `no_exchange`.
    NoExchange,
    /// `exchange_<card>`: take this turned card for one's ten.
    Exchange(Card),
    /// A card to the trick.
    Play(Card),
    /// `exchange_<take>_<card>`: the exchange at one's first card, then the card.
    ExchangePlay(Card, Card),
}

impl fmt::Display for ZwikkenAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ZwikkenAction::Exchange(c) => write!(f, "exchange_{c}"),
            ZwikkenAction::ExchangePlay(take, c) => write!(f, "exchange_{take}_{c}"),
            other => f.write_str(other.fixed_token().unwrap_or_default()),
        }
    }
}

crate::action_arg!(ZwikkenAction, ZwikkenAction::Play);

impl ZwikkenAction {
    /// The token where it is a fixed word (neither a card nor an exchange).
    fn word(self) -> Option<&'static str> {
        use ZwikkenAction::*;
        Some(match self {
            Pass => "pass",
            Ask => "ask",
            KenPass => "ken_pass",
            KenAsk => "ken_ask",
            WaitBetter => "wait_better",
            Seek => "seek",
            NoSeek => "no_seek",
            NoExchange => "no_exchange",
            Play(_) | Exchange(_) | ExchangePlay(..) => return None,
        })
    }

    /// The token where it is a string of the program's: a word or a card.
    pub(super) fn fixed_token(self) -> Option<&'static str> {
        match self {
            ZwikkenAction::Play(c) => Some(c.token()),
            other => other.word(),
        }
    }

    /// The action as an event argument: a card, a fixed word, or (an exchange) its token.
    pub(super) fn arg(self) -> Arg {
        match self.word() {
            Some(w) => Arg::Word(w),
            None => Arg::from(self),
        }
    }
}
