//! Repairs of a deal that does not fit the seat's lines: generic moves of cards (a card the seat
//! saw put where it saw it, a card a seat played dealt to it, the cards the world forced it to
//! play instead dealt away), the deals the rules threw away, and the cards whose places the
//! seat knows (which stay).

use super::layout::{cards_in, shuffle_free, Layout, Place, Trace};
use super::replay::Mismatch;
use super::tracker::Tracker;
use super::world::Line;
use crate::cards::{Card, CardSet};
use crate::chance::Rng;
use crate::game::{Arg, Seat};

impl Tracker {
    /// A deal's opening lines differ in how many deals the rules threw away
    /// ([`DealLines::rejected`](crate::game::DealLines::rejected): Skwitz's reshuffles): changes the deals `layout` has thrown away before it. False for any other
    /// difference.
    pub(super) fn fix_rejected(&self, layout: &mut Layout, m: &Mismatch, fixed: &[Card], rng: &mut Rng) -> bool {
        let (Some((got, seen)), Some(at)) = (&m.lines, m.line_at) else {
            return false;
        };
        // Lines that tell the seat a deal was thrown away unplayed: the world must make as many.
        let tells_rejected_deal = |l: &Line| self.spec.deal_lines.rejected.contains(&l.0.as_str());
        if !tells_rejected_deal(got) && !tells_rejected_deal(seen) {
            return false;
        }
        // The world threw away as many deals as the seat saw before this line.
        let made = self.observed[self.deal_start.min(at)..at]
            .iter()
            .filter(|l| tells_rejected_deal(l))
            .count();
        if tells_rejected_deal(seen) && layout.rejected.len() <= made {
            layout.rejected.push(rng.next_u64());
        } else if tells_rejected_deal(seen) {
            // A deal meant to be thrown away was played: another one.
            layout.rejected[made] = rng.next_u64();
        } else if layout.rejected.len() > made {
            layout.rejected.truncate(made);
        } else {
            // This deal itself is one the rules throw away: deal anew what no line has placed.
            shuffle_free(layout, fixed, rng);
        }
        true
    }

    /// The hands the seat's lines show later ([`DealLines::shows`](crate::game::DealLines::shows),
    /// before `upto`), each seat's first after the mismatch: what the seat held at the mismatch
    /// (each exchange since undone) is dealt to where the world's hand of it was dealt. A world
    /// that cannot make a line fit (a round ended on 31 that the world's hands do not make) often
    /// lacks a card such a line shows. Returns the cards of the shown hands, as dealt, when the
    /// layout changed (none: nothing changed).
    pub(super) fn repair_shown(&self, layout: &mut Layout, m: &Mismatch, upto: usize) -> Vec<Card> {
        self.deal_shown(layout, &m.hands, m.hands_at, upto)
    }

    /// [`repair_shown`](Self::repair_shown) for a world whose seats held `hands` when the seat's
    /// lines had come to `at`.
    pub(super) fn deal_shown(&self, layout: &mut Layout, hands: &[Vec<Card>], at: usize, upto: usize) -> Vec<Card> {
        let shows = self.spec.deal_lines.shows;
        if shows.is_empty() || hands.is_empty() || at >= upto {
            return Vec::new();
        }
        let trace = self.trace(upto);
        let dealt = trace.before(at);
        let mut done = vec![false; hands.len()];
        let mut hands = hands.to_vec();
        let (mut changed, mut shown) = (false, Vec::new());
        for k in at..upto.min(self.observed.len()) {
            let (kind, args) = &self.observed[k];
            if !shows.contains(&kind.as_str()) {
                continue;
            }
            let Some(s) = args
                .first()
                .and_then(|a| a.parse::<Seat>().ok())
                .filter(|&s| s < hands.len())
            else {
                continue;
            };
            if std::mem::replace(&mut done[s], true) {
                continue;
            }
            // The cards whose places the shown ones are in, at the mismatch.
            let since = trace.since(at).before(k);
            let then: Vec<Card> = cards_in(&args[1..]).iter().map(|&c| since.origin(c)).collect();
            let held = &hands[s];
            let out: Vec<Card> = held.iter().copied().filter(|c| !then.contains(c)).collect();
            let into: Vec<Card> = then.iter().copied().filter(|c| !held.contains(c)).collect();
            if out.len() != into.len() {
                continue;
            }
            for (&u, &w) in out.iter().zip(&into) {
                if let (Some(i), Some(j)) = (dealt.position(layout, u), dealt.position(layout, w)) {
                    if i != j {
                        layout.swap(i, j);
                        changed = true;
                        // The seats' hands as the world will deal them now.
                        for c in hands.iter_mut().flatten() {
                            if *c == u {
                                *c = w;
                            } else if *c == w {
                                *c = u;
                            }
                        }
                    }
                }
            }
            shown.extend(then.iter().map(|&c| dealt.origin(c)));
        }
        if changed {
            shown
        } else {
            Vec::new()
        }
    }

    /// The cards the seat's lines show at the deal itself, before the first action of this
    /// deal (a turned trump card, the table's or the middle's open cards; its own hand): they
    /// lie where the deal put them, as in every world that fits. (A deal the rules throw away,
    /// Skwitz's `reshuffle`, shows no cards: every card shown is the kept deal's.)
    pub(super) fn shown_at_deal(&self) -> Vec<Card> {
        let from = self.deal_lines_from();
        self.observed[from.min(self.explained)..self.explained]
            .iter()
            .take_while(|(k, _)| k != "move")
            .flat_map(|(_, a)| cards_in(a))
            .collect()
    }

    /// Cards whose place at the deal the seat knows from its lines of this deal before `upto`:
    /// its own hand, and the card each seat played (the first card a `move` of decision
    /// `play` names; a card named by a call is not its caller's). A card the action that made
    /// the deal played (before `deal_lines_from`) is the last deal's: the new deal has it
    /// anywhere. (Fixing it once kept a Skwitz world's refit reshuffling for good: the card was a
    /// matador at the bottom of the stock, which no shuffle moved.)
    pub(super) fn fixed_cards(&self, layout: &Layout, upto: usize) -> Vec<Card> {
        with_own_hand(CardSet::from_cards(&self.played_cards(upto)), layout, self.me)
    }

    /// The cards each seat played in this deal's lines before `upto` (the first card a `move`
    /// of decision `play` names), in the order of the lines: [`fixed_cards`](Self::fixed_cards)
    /// without the seat's hand.
    pub(super) fn played_cards(&self, upto: usize) -> Vec<Card> {
        let from = self.deal_lines_from();
        self.observed[from..upto.max(from)]
            .iter()
            .filter(|(k, a)| k == "move" && a.get(2).is_some_and(|d| d == "play"))
            .filter_map(|(_, a)| {
                a.get(1)
                    .and_then(|t| cards_in(std::slice::from_ref(t)).first().copied())
            })
            .collect()
    }
}

/// `played` and the cards `layout` deals to hand `me`, sorted, each once.
pub(super) fn with_own_hand(played: CardSet, layout: &Layout, me: Seat) -> Vec<Card> {
    let mut fixed = played;
    for &(_, c) in layout.cards.iter().filter(|(p, _)| *p == Place::Hand(me)) {
        fixed.insert(c);
    }
    fixed.cards()
}

/// A line that names other cards than the seat's (the world's, the seat's): puts the seat's
/// cards where the world's were; or, for a line `<kind> <seat> <cards…>` (a hand shown, a card
/// played), deals its cards to that seat. Cards the line shows where exchanges (`trace`) put
/// them are moved in the deal where they were dealt. Returns the cards moved in the deal (none:
/// nothing changed).
pub(super) fn repair_lines(layout: &mut Layout, (got, want): &(Line, Line), trace: &Trace) -> Vec<Card> {
    let wanted = cards_in(&want.1);
    let mut moved = Vec::new();
    // Lines of one kind about two seats (the world showed another seat's zwik first) are not
    // the same cards in other places. (A number read, not matched as `Arg::Int`: the seat's
    // lines are text when the bot runs over the protocol.)
    let seat_of = |l: &Line| l.1.first().and_then(|a| a.parse::<i64>().ok());
    if got.0 == want.0 && seat_of(got) == seat_of(want) {
        let got = cards_in(&got.1);
        let out: Vec<Card> = got.iter().copied().filter(|c| !wanted.contains(c)).collect();
        let into: Vec<Card> = wanted.iter().copied().filter(|c| !got.contains(c)).collect();
        for (u, w) in out.iter().zip(&into) {
            if let (Some(i), Some(j)) = (trace.position(layout, *u), trace.position(layout, *w)) {
                if i != j {
                    layout.swap(i, j);
                    moved.push(layout.cards[i].1);
                }
            }
        }
        if !moved.is_empty() {
            moved.iter().for_each(|&c| layout.pin(c));
            return moved;
        }
        // The same cards in another order: the seat's order, in the places the world dealt them
        // (the cards dealt where the line's cards are now: the same cards, exchanged alike).
        if got.len() == wanted.len() && got != wanted {
            let places: Option<Vec<usize>> = got.iter().map(|&c| trace.position(layout, c)).collect();
            if let Some(places) = places {
                let dealt: Vec<Card> = wanted.iter().map(|&c| trace.origin(c)).collect();
                for (&i, &c) in places.iter().zip(&dealt) {
                    layout.cards[i].1 = c;
                    layout.pin(c);
                }
                return dealt;
            }
        }
    }
    // (Not a `move`: the cards an action names need not be the seat's, a card taken from the
    // table say; played cards are placed by `repair`.)
    let seat = seat_of(want)
        .and_then(|s| Seat::try_from(s).ok())
        .filter(|&s| s < layout.hands && want.0 != "move");
    if let Some(s) = seat {
        // The cards dealt to the places where the line's cards are now (a card the seat took
        // in an exchange is where the card it gave was dealt).
        let hand = Place::Hand(s);
        let dealt: Vec<Card> = wanted.iter().map(|&c| trace.origin(c)).collect();
        for &c in &dealt {
            let Some(i) = layout.position(c) else { continue };
            if layout.cards[i].0 == hand {
                continue;
            }
            let j = (0..layout.cards.len()).find(|&j| layout.cards[j].0 == hand && !dealt.contains(&layout.cards[j].1));
            if let Some(j) = j {
                layout.swap(i, j);
                layout.pin(c);
                moved.push(c);
            }
        }
    }
    moved
}

/// Changes `layout` so that the world may not fail as `m` says; false when it knows no
/// change. Cards in `fixed` keep their places, except to be put where the seat saw them.
pub(super) fn repair(layout: &mut Layout, m: &Mismatch, fixed: &[Card], trace: &Trace, rng: &mut Rng) -> bool {
    if let Some(lines) = &m.lines {
        if !repair_lines(layout, lines, trace).is_empty() {
            return true;
        }
    }
    if m.seat.is_none() {
        return false;
    }
    // The cards the seat holds in the world now (its view's `hand`) came to it from their
    // places in the deal: a card put in such a place comes to it the same way.
    let held = &m.held;
    let pick = |v: Vec<usize>, rng: &mut Rng| (!v.is_empty()).then(|| v[rng.below(v.len() as u64) as usize]);
    // The card the token plays: the first it names, unless that one lies on the world's table
    // (a legal token names it, and the seat does not hold it): then it is taken, and the card
    // played is the first named that no legal token names. Zwikken's `exchange_JC_KC` in
    // trick 1 takes the turned JC and plays KC from the hand. (Only a token naming several
    // cards can name one it takes, so only then are the legal tokens read.)
    let played = m.token.as_deref().and_then(|t| {
        let named = cards_in(&[Arg::Text(t.to_string())]);
        let first = *named.first()?;
        if named.len() == 1 || held.contains(&first) {
            return Some(first);
        }
        let offered: Vec<Card> = m.legal.iter().flat_map(|t| cards_in(&[Arg::Text(t.clone())])).collect();
        if !offered.contains(&first) {
            return Some(first);
        }
        named.iter().copied().find(|c| !offered.contains(c)).or(Some(first))
    });
    // The card the seat really played, which the world did not let it play (a token the world
    // offers names a card the seat may take: Zwikken's `exchange_KS` takes a turned card).
    let offered = m.token.as_ref().is_some_and(|t| m.legal.contains(t));
    if let Some(c) = played.filter(|c| !held.contains(c) && !offered) {
        // Give it the place of one the world gave it instead.
        let Some(i) = trace.position(layout, c) else {
            return false;
        };
        let instead: Vec<usize> = held
            .iter()
            .map(|&x| trace.origin(x))
            .filter(|x| !fixed.contains(x))
            .filter_map(|x| layout.position(x))
            .collect();
        return match pick(instead, rng) {
            Some(j) => {
                layout.swap(i, j);
                layout.pin(c);
                true
            }
            None => false,
        };
    }
    // It holds the card, but the world made it play others: deal those elsewhere. Where the
    // world refused the card (it did not offer the token), its hand was not dealt them: a suit
    // it did not follow, a card it would have had to beat with (learned, for later samples).
    // Not so where the world offered the token (its lines differed after), or where the token
    // plays no card (a call the world did not offer: Svängknack's `farg`).
    let seat = m.seat.expect("a seat's mismatch");
    let refused = played.is_some_and(|c| held.contains(&c)) && !offered;
    let forced: Vec<Card> = m
        .legal
        .iter()
        .filter_map(|t| cards_in(&[Arg::Text(t.clone())]).first().copied())
        .filter(|&c| Some(c) != played && held.contains(&c) && !fixed.contains(&c))
        .collect();
    let mut changed = false;
    let (held, kept) = (CardSet::from_cards(held), layout.kept(fixed));
    let hand = Place::Hand(seat);
    for c in forced {
        let Some(i) = layout.position(c) else { continue };
        if refused && layout.cards[i].0 == hand {
            layout.bar(c, seat);
        }
        let elsewhere: Vec<usize> = (0..layout.cards.len())
            .filter(|&j| {
                let (q, d) = (&layout.cards[j].0, layout.cards[j].1);
                !held.contains(d) && !kept.contains(d) && !layout.bars(c, q) && !layout.bars(d, &layout.cards[i].0)
            })
            .collect();
        if let Some(j) = pick(elsewhere, rng) {
            layout.swap(i, j);
            changed = true;
        }
    }
    changed
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chance::Purpose;

    #[test]
    fn a_card_the_world_forced_a_hand_to_play_instead_of_one_it_refused_is_dealt_elsewhere_and_barred_from_it() {
        let card = |t| Card::from_token(t).unwrap();
        // Hand 1 holds JS AH KH; it played KH where the world made it follow spades with JS.
        let fixed: Vec<Card> = ["AS", "KS", "QS"].map(card).to_vec();
        let mismatch = |token: &str, legal: &[&str]| Mismatch {
            seat: Some(1),
            token: Some(token.into()),
            legal: legal.iter().map(|t| t.to_string()).collect(),
            pos: 0,
            held: ["JS", "AH", "KH"].map(card).to_vec(),
            lines: None,
            line_at: None,
            seen_at: None,
            hands: Vec::new(),
            hands_at: 0,
        };
        let m = mismatch("KH", &["JS"]);
        for seed in 0..50 {
            let mut l = super::super::layout::tests::layout();
            // Hand 2 (QH JH AD) is known not to hold spades either.
            l.bar(card("JS"), 2);
            let mut rng = Rng::new(seed, Purpose::Bot, 0);
            assert!(repair(&mut l, &m, &fixed, &Trace::default(), &mut rng));
            assert_eq!(l.learned.barred, vec![(card("JS"), 2), (card("JS"), 1)]);
            let js = l.cards[l.position(card("JS")).unwrap()].0;
            // Not back in hand 1, nor in hand 2, which may not have it; hand 0 kept its cards.
            assert!(matches!(js, Place::Hand(3) | Place::Undealt), "{js:?}");
            let h1: Vec<Card> = l
                .cards
                .iter()
                .filter(|(p, _)| *p == Place::Hand(1))
                .map(|&(_, c)| c)
                .collect();
            assert!(
                h1.contains(&card("AH")) && h1.contains(&card("KH")) && h1.len() == 3,
                "{h1:?}"
            );
        }
        // Where the world offered the card (its lines differed after), or the token plays no
        // card (a call the world did not offer), nothing is learned of the hand.
        for (token, legal) in [("KH", &["JS", "KH"][..]), ("farg", &["JS"][..])] {
            let mut l = super::super::layout::tests::layout();
            let mut rng = Rng::new(1, Purpose::Bot, 0);
            repair(&mut l, &mismatch(token, legal), &fixed, &Trace::default(), &mut rng);
            assert!(l.learned.barred.is_empty(), "{token}: {:?}", l.learned.barred);
        }
    }

    #[test]
    fn a_card_played_by_the_action_that_made_the_deal_is_not_fixed_in_the_new_deal() {
        use super::super::tracker::tests::{line, tracker};
        let card = |t| Card::from_token(t).unwrap();
        let mut t = tracker("skwitz", 3);
        // Seat 3's capture of the last deal (with JS), its end, the new deal and seat 3's hand,
        // then seat 1's first card.
        t.observed = vec![
            line("move", "3 JS:3C play"),
            line("dealend", "3"),
            line("deal", "4 2"),
            line("hand", "QS 6H 3D 9C"),
            line("move", "1 4C play"),
        ];
        t.base = Some((t.world.clone(), "JS:3C".into()));
        t.deal_start = 0;
        let mut layout = super::super::layout::tests::layout();
        layout.cards.retain(|&(p, _)| p != Place::Hand(3));
        layout
            .cards
            .extend(["QS", "6H", "3D", "9C"].map(|c| (Place::Hand(3), card(c))));
        // At the action that made the deal (a refit failing there), and after the next card.
        for (upto, want) in [
            (0, &["QS", "6H", "3D", "9C"][..]),
            (5, &["QS", "6H", "3D", "9C", "4C"][..]),
        ] {
            let mut want: Vec<Card> = want.iter().map(|&c| card(c)).collect();
            want.sort();
            assert_eq!(t.fixed_cards(&layout, upto), want, "upto {upto}");
        }
    }
}
