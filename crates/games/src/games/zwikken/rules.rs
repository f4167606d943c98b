//! The Zwikken rules as read from the options once per session.

use crate::options::Options;

/// Which turned cards the holder of a ten may take (option `exchange_targets`, zwikken.md §2.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExchangeTargets {
    /// `any_turned`: the trump-ten holder takes any face-up turned card.
    AnyTurned,
    /// `current_suit_only`: only a turned card of the trump suit.
    CurrentSuitOnly,
    /// `suit_matched`: every ten holder one turned card of his ten's suit.
    SuitMatched,
}

impl ExchangeTargets {
    /// The option's value; anything else (or nothing) is the default, `any_turned`.
    pub fn from_value(v: Option<&str>) -> ExchangeTargets {
        match v {
            Some("current_suit_only") => ExchangeTargets::CurrentSuitOnly,
            Some("suit_matched") => ExchangeTargets::SuitMatched,
            _ => ExchangeTargets::AnyTurned,
        }
    }
}

/// The rule options, read once from the validated [`Options`].
#[derive(Clone, Copy, Debug)]
pub struct Rules {
    /// `ante_rule=every_deal` (else only when a deal starts with an empty pot).
    pub ante_every_deal: bool,
    /// `follow_rule=classic` (else `seed`).
    pub classic: bool,
    pub exchange_targets: ExchangeTargets,
    pub max_seeks: usize,
    /// What every player pays at the first and the second seek.
    pub seek_fee: [i64; 2],
    /// Deals before the session may end (`deals`, 0 = 4 × players).
    pub deals: usize,
    /// Extra deals while the pot is not empty (`extra_deals_cap`, -1 = 2 × players).
    pub cap: usize,
    /// `bankroll` (0 = off).
    pub bankroll: i64,
}

impl Rules {
    pub fn from_options(o: &Options, n: usize) -> Rules {
        let mut fee = o.get("seek_fee").split(',').map(|x| x.parse().unwrap_or(0));
        Rules {
            ante_every_deal: o.get("ante_rule") == "every_deal",
            classic: o.get("follow_rule") == "classic",
            exchange_targets: ExchangeTargets::from_value(Some(o.get("exchange_targets"))),
            max_seeks: o.int("max_seeks").max(0) as usize,
            seek_fee: [fee.next().unwrap_or(0), fee.next().unwrap_or(0)],
            deals: match o.int("deals") {
                0 => 4 * n,
                d => d as usize,
            },
            cap: match o.int("extra_deals_cap") {
                c if c < 0 => 2 * n,
                c => c as usize,
            },
            bankroll: o.int("bankroll"),
        }
    }
}
