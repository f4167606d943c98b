//! The Svängknack rules as read from the options once per session, and the limits of the
//! fixed arrays.

use crate::options::Options;

/// The most players Svängknack seats (svangknack.md Sec. 1).
pub(super) const MAX_PLAYERS: usize = 16;

/// The largest deck.
pub(super) const DECK: usize = 52;

/// When everyone must take part ('tvingad medgång', option `forced_participation`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ForcedParticipation {
    Off,
    SessionFirstRound,
    EveryNewPot,
}

/// The rule options in force, read once.
#[derive(Clone, Copy, Debug)]
pub struct Rules {
    pub deck36: bool,
    pub stake: i64,
    pub last_man: bool,
    pub same_suit_forces_all: bool,
    pub force_pot_limit: i64,
    pub forced_participation: ForcedParticipation,
    pub first_round_dealer_only: bool,
    pub relaxed_after_trump: bool,
    pub literal_c: bool,
    pub farg_led_card_only: bool,
    pub farg_trick3: bool,
    pub rounds: usize,
    pub extra_cap: usize,
    /// The most a bet pays (PROPOSAL: the seed's bet is the whole pot, which grows without
    /// bound when several players go bet round after round).
    pub bet_cap: i64,
}

impl Rules {
    pub fn from_options(o: &Options, n: usize) -> Result<Rules, String> {
        let stake = o.int("base_stake");
        if stake % 3 != 0 {
            return Err(format!(
                "bad value '{stake}' for option 'base_stake': the stake must be divisible by 3"
            ));
        }
        let bet_cap = match o.int("bet_cap") {
            0 => 1000 * stake,
            c if c % 3 != 0 => {
                return Err(format!(
                    "bad value '{c}' for option 'bet_cap': it must be divisible by 3 (the pot stays divisible by 3)"
                ))
            }
            c => c,
        };
        let deck36 = o.get("deck") == "36";
        if deck36 && n > 11 {
            return Err(format!("with deck=36 at most 11 play svangknack, not {n}"));
        }
        let rounds = match o.int("rounds") {
            0 => 3 * n,
            r => r as usize,
        };
        let extra_cap = match o.int("extra_rounds_cap") {
            -1 => n,
            c => c as usize,
        };
        Ok(Rules {
            deck36,
            stake,
            last_man: o.flag("last_man"),
            same_suit_forces_all: o.flag("same_suit_forces_all"),
            force_pot_limit: o.int("force_pot_limit"),
            forced_participation: match o.get("forced_participation") {
                "session_first_round" => ForcedParticipation::SessionFirstRound,
                "every_new_pot" => ForcedParticipation::EveryNewPot,
                _ => ForcedParticipation::Off,
            },
            first_round_dealer_only: o.flag("first_round_dealer_only"),
            relaxed_after_trump: o.get("overtake_after_trump") == "relaxed",
            literal_c: o.flag("literal_C"),
            farg_led_card_only: o.get("farg_reference") == "led_card_only",
            farg_trick3: o.get("farg_tricks") == "1,2,3",
            rounds,
            extra_cap,
            bet_cap,
        })
    }
}
