//! The Skwitz rules as read from the options once for every game under them.

use crate::options::Options;
use std::collections::BTreeMap;

/// A game that has lasted this many deals ends at the next deal end at which someone has
/// reached the target, as if `out_timing=auto_at_deal_end` (a guard against bots that never
/// declare; it does not change play between bots that declare).
pub const FORCE_OUT_AFTER_DEALS: usize = 30;

/// Which cards may be trailed (`trail_rule`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum TrailRule {
    /// Only when no card of the hand can capture.
    OnlyWhenUnable,
    Free,
    /// Any card that cannot capture.
    CardLevel,
}

/// The options the rules consult, read once for every game under them (no string lookups on
/// the decision path).
#[derive(Clone, Copy, Debug)]
pub(super) struct Rules {
    pub(super) stake: i64,
    pub(super) target: i64,
    pub(super) teams: bool,
    pub(super) games: usize,
    pub(super) extra_games_cap: usize,
    pub(super) ante_per_deal: bool,
    pub(super) trail: TrailRule,
    /// `matador_source=table_only`: the capturing card scores no matador.
    pub(super) matador_table_only: bool,
    /// `last_play_skwitz=counts`.
    pub(super) last_play_skwitz: bool,
    pub(super) leftover_to_last_captor: bool,
    /// `tie_rule=all_tied`.
    pub(super) tie_all_tied: bool,
    /// `out_timing=on_turn` (else Out! is automatic at the deal end).
    pub(super) out_on_turn: bool,
    /// `collect_rule=second_win_total`.
    pub(super) collect_second_win: bool,
    pub(super) breach_penalty: bool,
}

impl Rules {
    pub(super) fn new(o: &Options) -> Rules {
        Rules {
            stake: o.int("stake"),
            target: o.int("target"),
            teams: o.flag("teams"),
            games: o.int("games") as usize,
            extra_games_cap: o.int("extra_games_cap") as usize,
            ante_per_deal: o.get("ante_per") == "deal",
            trail: match o.get("trail_rule") {
                "free" => TrailRule::Free,
                "card_level" => TrailRule::CardLevel,
                _ => TrailRule::OnlyWhenUnable,
            },
            matador_table_only: o.get("matador_source") == "table_only",
            last_play_skwitz: o.get("last_play_skwitz") != "no",
            leftover_to_last_captor: o.flag("leftover_to_last_captor"),
            tie_all_tied: o.get("tie_rule") == "all_tied",
            out_on_turn: o.get("out_timing") == "on_turn",
            collect_second_win: o.get("collect_rule") == "second_win_total",
            breach_penalty: o.flag("breach_penalty"),
        }
    }
}

/// What the rules need of the options, read once for every game under them.
pub(super) struct Setup {
    pub(super) rules: Rules,
    /// The `deal_table` overrides by player count, or why they do not parse.
    pub(super) deal_table: Result<BTreeMap<usize, (usize, usize, usize)>, String>,
}
