//! The built-in `simple` Svängknack bot: deterministic rules of thumb on the seat view.
//!
//! * **swing**: swings with an ace, a king or two cards from the jack up in one suit;
//!   otherwise asks for a redeal when it may, else hands the swing over.
//! * **consent**: agrees to a redeal unless it holds an ace or a king.
//! * **trump**: the turned suit in which it holds the most (then the highest) cards.
//! * **knock**: knocks with a hand worth about one trick: a trump from the queen up, two
//!   trumps, or a trump and a side ace; a little more is needed when many have knocked.
//! * **play**: calls Färg whenever it may (it cannot win the trick, and it keeps its cards);
//!   leads its strongest card (trumps count above side cards); follows with the cheapest card
//!   that takes the trick, else with its lowest card.
//!
//! The answer is always one of `legal` (the first one when nothing better is found).

use super::engine::SvangknackAction;
use super::state::{Phase, Svangknack};
use super::view::SvangView;
use crate::cards::{Card, CardSet, Rank, Suit};
use crate::game::{Seat, SeatView};

/// What the policy reads of a seat's knowledge, as fixed-size values: built from the seat's
/// view ([`Ctx::from_view`], the `simple` bot) or from the engine ([`Ctx::from_engine`], a
/// search's playouts), which reads only the seat's own hand and public state. Every decision
/// below is made on it alone.
#[derive(Clone, Copy, Debug)]
pub(super) struct Ctx {
    /// The seat's cards now.
    hand: CardSet,
    /// The trump suit, once it is chosen.
    trump: Option<Suit>,
    /// How many players have knocked this round (with "sista man").
    knocked: usize,
    /// The suit led in the trick in progress, if a card is in it.
    led: Option<Suit>,
    /// The strongest [`power`] among the trick's cards (0 with no card).
    best: u32,
}

impl Ctx {
    /// From the trick so far (its cards in order), the led suit and the best power in it.
    fn with_trick(hand: CardSet, trump: Option<Suit>, knocked: usize, trick: impl Iterator<Item = Card>) -> Ctx {
        let mut led = None;
        let mut best = 0;
        for c in trick {
            let l = *led.get_or_insert(c.suit);
            best = best.max(power(c, Some(l), trump));
        }
        Ctx {
            hand,
            trump,
            knocked,
            led,
            best,
        }
    }

    pub(super) fn from_view(view: &SvangView) -> Ctx {
        let r = &view.round;
        let trick = r.trick.as_ref().map_or(&[][..], |t| t.cards.as_slice());
        Ctx::with_trick(
            CardSet::from_cards(&r.hand),
            view.trump(),
            r.knocked.len(),
            trick.iter().map(|&(_, c)| c),
        )
    }

    /// The knowledge of `seat` in `g`: its hand, the trump, the knocks (public moves: the
    /// swinger's bit and one per knock in the participants while knocking) and the trick on
    /// the table.
    pub(super) fn from_engine(g: &Svangknack, seat: Seat) -> Ctx {
        let knocked = match g.phase {
            Phase::Knock => g.participants.count_ones().saturating_sub(1) as usize,
            _ => 0,
        };
        let trick = match g.phase {
            Phase::Play => g.trick.cards(),
            _ => &[],
        };
        Ctx::with_trick(g.hands[seat], g.trump, knocked, trick.iter().map(|&(_, c)| c))
    }
}

/// The `simple` bot's choice for a Svängknack decision (the `simple_policy` of the game's
/// spec), read from the seat's typed view.
pub fn simple_policy(view: &dyn SeatView, decision: &str, legal: &[String]) -> String {
    let Some(first) = legal.first() else {
        return String::new();
    };
    let Some(view) = view.as_any().downcast_ref::<SvangView>() else {
        return first.clone();
    };
    let ctx = Ctx::from_view(view);
    let has = |t: &str| legal.iter().any(|l| l == t);
    let choice = match decision {
        "swing" => Some(swing(&ctx, has("redeal"), has("handover")).to_string()),
        "consent" => Some(consent(&ctx).to_string()),
        "trump" => choose_trump(&ctx, legal),
        "knock" => Some(knock(&ctx).to_string()),
        "play" => play(&ctx, legal),
        _ => None,
    };
    match choice {
        Some(c) if legal.contains(&c) => c,
        _ => first.clone(),
    }
}

/// Swings with a high card or a pair from the jack up, else redeals when it may, else hands
/// over (`redeal`, `handover`: whether those are legal).
fn swing(ctx: &Ctx, redeal: bool, handover: bool) -> SvangknackAction {
    let hand = ctx.hand;
    let high = hand.iter().any(|c| c.rank.value() >= 13);
    let pair = Suit::ALL
        .iter()
        .any(|&s| hand.of_suit(s).iter().filter(|c| c.rank.value() >= 11).count() >= 2);
    if high || pair || !(redeal || handover) {
        SvangknackAction::Swing
    } else if redeal {
        SvangknackAction::Redeal
    } else {
        SvangknackAction::Handover
    }
}

/// Agrees to a redeal unless it holds an ace or a king.
fn consent(ctx: &Ctx) -> SvangknackAction {
    if ctx.hand.iter().any(|c| c.rank.value() >= 13) {
        SvangknackAction::Refuse
    } else {
        SvangknackAction::Agree
    }
}

/// How much the policy wants suit `s` as trump: the cards it holds of it, then the highest.
fn trump_key(ctx: &Ctx, s: Suit) -> (usize, Option<Rank>) {
    let mine = ctx.hand.of_suit(s);
    (mine.len(), mine.iter().map(|c| c.rank).max())
}

fn choose_trump(ctx: &Ctx, legal: &[String]) -> Option<String> {
    legal
        .iter()
        .filter_map(|t| t.parse::<Suit>().ok().map(|s| (t, s)))
        .max_by_key(|&(_, s)| trump_key(ctx, s))
        .map(|(t, _)| t.clone())
}

fn knock(ctx: &Ctx) -> SvangknackAction {
    let Some(t) = ctx.trump else {
        return SvangknackAction::Fold;
    };
    let side_aces = ctx.hand.iter().filter(|c| c.suit != t && c.rank.value() == 14).count();
    let mut worth = 0.0;
    let mut trumps = 0;
    for c in ctx.hand.of_suit(t).iter() {
        worth += if c.rank.value() >= 12 { 1.0 } else { 0.5 };
        trumps += 1;
    }
    if trumps > 0 {
        worth += 0.5 * side_aces as f64;
    }
    let need = if ctx.knocked >= 3 { 1.25 } else { 1.0 };
    if worth >= need {
        SvangknackAction::Knock
    } else {
        SvangknackAction::Fold
    }
}

/// A card's strength in a trick led in `led` with trump `t`.
fn power(c: Card, led: Option<Suit>, t: Option<Suit>) -> u32 {
    let r = c.rank.value() as u32;
    if Some(c.suit) == t {
        200 + r
    } else if Some(c.suit) == led || led.is_none() {
        100 + r
    } else {
        r
    }
}

/// The policy's choice among the typed legal actions of `decision` (Färg and the cards of a
/// play last): the index in `legal` of what [`simple_policy`] chooses among their tokens (its
/// choice where it is legal, else the first action); `None` where `legal` is not of the
/// decision's kind.
fn decide(ctx: &Ctx, decision: Phase, legal: &[SvangknackAction]) -> Option<usize> {
    let has = |a: SvangknackAction| legal.contains(&a);
    let choice = match decision {
        Phase::Swing => swing(ctx, has(SvangknackAction::Redeal), has(SvangknackAction::Handover)),
        Phase::Consent => consent(ctx),
        Phase::Trump => {
            // The last of the suits it wants most, as `max_by_key` on the tokens.
            let best = legal
                .iter()
                .filter_map(|&a| match a {
                    SvangknackAction::Trump(s) => Some((a, s)),
                    _ => None,
                })
                .max_by_key(|&(_, s)| trump_key(ctx, s));
            match best {
                Some((a, _)) => a,
                None => return Some(0),
            }
        }
        Phase::Knock => knock(ctx),
        Phase::Play => {
            // Färg whenever it may, as `play`.
            if has(SvangknackAction::Farg) {
                SvangknackAction::Farg
            } else {
                if legal.iter().any(|a| !matches!(a, SvangknackAction::Play(_))) {
                    return None;
                }
                let cards = legal.iter().map(|&a| match a {
                    SvangknackAction::Play(c) => c,
                    _ => unreachable!("only cards"),
                });
                return Some(play_index(ctx, cards).unwrap_or(0));
            }
        }
        Phase::Over => return None,
    };
    Some(legal.iter().position(|&a| a == choice).unwrap_or(0))
}

/// The phase a decision's word names.
fn phase_of(decision: &str) -> Option<Phase> {
    Some(match decision {
        "swing" => Phase::Swing,
        "consent" => Phase::Consent,
        "trump" => Phase::Trump,
        "knock" => Phase::Knock,
        "play" => Phase::Play,
        _ => return None,
    })
}

/// [`simple_policy`] on the typed legal actions (the spec's `typed_policy`): every decision,
/// as `simple_policy` chooses among their tokens (its choice where it is legal, else the
/// first action).
pub fn typed_policy(view: &dyn SeatView, decision: &str, legal: &dyn std::any::Any) -> Option<usize> {
    let actions = legal.downcast_ref::<Vec<SvangknackAction>>()?;
    let v = view.as_any().downcast_ref::<SvangView>()?;
    if actions.is_empty() {
        return None;
    }
    decide(&Ctx::from_view(v), phase_of(decision)?, actions)
}

/// The playout policy ([`simple_policy`]) on the engine, for the seat to move
/// ([`EnginePolicy`](crate::engine::EnginePolicy)): the same decision
/// functions on the seat's knowledge read from the engine.
pub(super) fn engine_policy(g: &Svangknack, legal: &[SvangknackAction]) -> usize {
    decide(&Ctx::from_engine(g, g.turn), g.phase, legal).unwrap_or(0)
}

fn play(ctx: &Ctx, legal: &[String]) -> Option<String> {
    if legal.iter().any(|l| l == "farg") {
        return Some("farg".into());
    }
    let cards: Vec<Card> = legal.iter().filter_map(|t| t.parse().ok()).collect();
    play_index(ctx, cards.iter().copied()).map(|i| cards[i].to_string())
}

/// The card to play among `legal` (in their order), as its index: leads its strongest card
/// (the last of equals); follows with the cheapest card that takes the trick, else with the
/// lowest (the first of equals). `None` without a card.
fn play_index(ctx: &Ctx, legal: impl Iterator<Item = Card> + Clone) -> Option<usize> {
    let t = ctx.trump;
    let Some(led) = ctx.led else {
        // Lead the strongest card.
        return legal
            .enumerate()
            .max_by_key(|&(_, c)| power(c, None, t))
            .map(|(i, _)| i);
    };
    let best = ctx.best;
    let p = |c: Card| power(c, Some(led), t);
    let winning = legal
        .clone()
        .enumerate()
        .filter(|&(_, c)| p(c) > best)
        .min_by_key(|&(_, c)| p(c));
    match winning {
        Some((i, _)) => Some(i),
        None => legal.enumerate().min_by_key(|&(_, c)| p(c)).map(|(i, _)| i),
    }
}

#[cfg(test)]
mod tests {
    use super::super::view::{Tok, Trick};
    use super::*;
    use crate::game::GameInfo;
    use crate::games::svangknack::options;
    use crate::options::Options;

    /// Seat 1 of four (default options) holding `hand`, trump `trump` once it is chosen.
    fn view(hand: &str, trump: Option<&str>) -> SvangView {
        let o = Options::resolve(&options(), "svangknack", &[] as &[&str]).unwrap();
        let mut v = SvangView::new(&GameInfo {
            game: "svangknack".into(),
            options: o,
            players: 4,
            seat: 1,
        });
        v.round.hand = hand.split(' ').map(|c| c.parse().unwrap()).collect();
        v.round.trump = trump.map(|t| Tok::Text(t.to_string()));
        v
    }

    fn legal(v: &str) -> Vec<String> {
        v.split(' ').map(String::from).collect()
    }

    #[test]
    fn swings_with_high_cards_else_redeals_or_hands_over() {
        let all = legal("swing handover redeal");
        assert_eq!(simple_policy(&view("KH 2S 3D", None), "swing", &all), "swing");
        assert_eq!(
            simple_policy(&view("JH QH 3D", None), "swing", &all),
            "swing",
            "a pair from J up"
        );
        assert_eq!(simple_policy(&view("9H 2S 3D", None), "swing", &all), "redeal");
        assert_eq!(
            simple_policy(&view("9H 2S 3D", None), "swing", &legal("swing handover")),
            "handover"
        );
        assert_eq!(
            simple_policy(&view("AH 2S 3D", None), "consent", &legal("agree refuse")),
            "refuse"
        );
        assert_eq!(
            simple_policy(&view("9H 2S 3D", None), "consent", &legal("agree refuse")),
            "agree"
        );
        assert_eq!(simple_policy(&view("9H 2H 3D", None), "trump", &legal("D H")), "H");
    }

    #[test]
    fn knocks_with_about_a_trick_and_more_when_many_knocked() {
        assert_eq!(
            simple_policy(&view("QS 2H 3D", Some("S")), "knock", &legal("knock fold")),
            "knock"
        );
        assert_eq!(
            simple_policy(&view("9S 2H 3D", Some("S")), "knock", &legal("knock fold")),
            "fold"
        );
        let mut v = view("9S AH 3D", Some("S"));
        assert_eq!(
            simple_policy(&v, "knock", &legal("knock fold")),
            "knock",
            "a trump and a side ace"
        );
        v.round.knocked = vec![0, 2, 3];
        assert_eq!(
            simple_policy(&v, "knock", &legal("knock fold")),
            "fold",
            "three knocked before"
        );
    }

    #[test]
    fn plays_farg_leads_strong_and_takes_tricks_cheaply() {
        let mut v = view("9S KH 3H", Some("S"));
        assert_eq!(
            simple_policy(&v, "play", &legal("9S KH 3H")),
            "9S",
            "lead the strongest"
        );
        let mut t = Trick::new(0);
        t.cards.push((0, "TH".parse().unwrap()));
        v.round.trick = Some(t);
        assert_eq!(simple_policy(&v, "play", &legal("KH")), "KH");
        assert_eq!(simple_policy(&v, "play", &legal("KH 3H")), "KH", "the cheapest winner");
        v.round.trick.as_mut().unwrap().cards.push((3, "AH".parse().unwrap()));
        assert_eq!(simple_policy(&v, "play", &legal("KH 3H")), "3H", "beaten: the lowest");
        assert_eq!(simple_policy(&v, "play", &legal("KH 3H farg")), "farg");
    }
}
