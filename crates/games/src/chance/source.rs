//! The [`Chance`] of one game: its deals (random from a seed, given, or recorded) and its
//! random draws.

use super::deal::{Deal, DealRequest, DealSpec};
use super::log::DealLog;
use super::rng::{Purpose, Rng};
use crate::cards::{Card, CardSet};
use crate::seat::Seat;
use std::collections::{BTreeMap, VecDeque};
use std::sync::Arc;

/// The source of every chance event of one game, and the log of the deals it made. A clone
/// (a game state copied for search) makes the same deals as the original from then on.
///
/// Cloning is cheap: the log and the given deals are shared (reference-counted). A clone that
/// makes a deal of its own adds it to its log without copying the deals before
/// ([`DealLog`]); the given deals are copied only when a clone takes one.
#[derive(Clone)]
pub struct Chance {
    rng: Rng,
    given: Arc<VecDeque<DealSpec>>,
    /// Where the deals came from: `"seed"` or `"file"`.
    source: &'static str,
    log: DealLog,
    /// The game's name for messages about given deals ("Rikken deals 13").
    title: &'static str,
    /// A buffer for the order of the cards of a deal (empty between deals).
    order: Vec<Card>,
    /// `Some`: deals are made by a cheap generator with this state, not by `rng`
    /// ([`sketch`](Chance::sketch)).
    sketch: Option<u64>,
}

impl Chance {
    /// Deals at random from a game seed.
    pub fn seeded(game_seed: u64) -> Chance {
        Chance {
            rng: Rng::new(game_seed, Purpose::Deal, 0),
            given: Arc::default(),
            source: "seed",
            log: DealLog::default(),
            title: "this game",
            order: Vec::new(),
            sketch: None,
        }
    }

    /// Deals the given deals first (filling anything left out from the seed), then at random.
    pub fn given(game_seed: u64, deals: Vec<DealSpec>) -> Chance {
        let source = if deals.is_empty() { "seed" } else { "file" };
        Chance {
            rng: Rng::new(game_seed, Purpose::Deal, 0),
            given: Arc::new(deals.into()),
            source,
            log: DealLog::default(),
            title: "this game",
            order: Vec::new(),
            sketch: None,
        }
    }

    /// Queues `spec` to be dealt after the deals already given (for a world a search bot
    /// samples: the game deals it the next time it deals).
    pub fn give(&mut self, spec: DealSpec) {
        Arc::make_mut(&mut self.given).push_back(spec);
    }

    /// Makes every chance event from now on from `seed` (a sampled world's own future).
    pub fn reseed(&mut self, seed: u64) {
        self.rng = Rng::new(seed, Purpose::Deal, 0);
    }

    /// Makes the deals from now on (those not given) with a cheap generator, leaving the seeded
    /// one as it is: for a search's own copy of a game that stops where a deal has been made and
    /// looks at none of its cards ([`play_out_sketched`](crate::engine::play_out_sketched)). A
    /// ChaCha shuffle of the deck was a sixth of a Svängknack search, spent on deals no playout
    /// played.
    pub fn sketch(&mut self) {
        self.sketch = Some(0x9E37_79B9_7F4A_7C15);
    }

    /// Whether deals are made by [`sketch`](Chance::sketch)'s generator.
    pub fn sketching(&self) -> bool {
        self.sketch.is_some()
    }

    /// A uniform integer in `0..n` for a deal: the seeded generator's, or the sketch's.
    fn below_for_deal(&mut self, n: usize) -> usize {
        match &mut self.sketch {
            // SplitMix64, bounded by a multiply: uniform enough for cards nobody plays.
            Some(state) => {
                *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
                let mut z = *state;
                z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
                z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
                z ^= z >> 31;
                ((u128::from(z) * n as u128) >> 64) as usize
            }
            None => self.below(n),
        }
    }

    /// Shuffles `cards` for a deal: with the seeded generator, or the sketch's.
    fn shuffle_for_deal(&mut self, cards: &mut [Card]) {
        if self.sketch.is_none() {
            self.rng.shuffle(cards);
            return;
        }
        for i in (1..cards.len()).rev() {
            let j = self.below_for_deal(i + 1);
            cards.swap(i, j);
        }
    }

    /// Names the game in messages about given deals.
    pub fn titled(mut self, title: &'static str) -> Chance {
        self.title = title;
        self
    }

    pub fn source(&self) -> &'static str {
        self.source
    }

    /// The deals made so far, shared: a game that is over hands them on without copying.
    pub fn shared_deals(&self) -> DealLog {
        self.log.clone()
    }

    /// Every deal made so far, in order.
    pub fn deals(&self) -> &DealLog {
        &self.log
    }

    /// A uniform integer in `0..n`, for chance events that are not deals (e.g. a cut).
    pub fn below(&mut self, n: usize) -> usize {
        self.rng.below(n as u64) as usize
    }

    /// The first dealer of a game: given by the next fixed deal if it names one, else random.
    pub fn first_dealer(&mut self, players: usize) -> Seat {
        if let Some(d) = self.given.front().and_then(|s| s.dealer) {
            if d < players {
                return d;
            }
        }
        self.below(players)
    }

    /// Makes the next deal.
    pub fn deal(&mut self, req: &DealRequest) -> Result<&Deal, String> {
        let next = if self.given.is_empty() {
            None
        } else {
            Arc::make_mut(&mut self.given).pop_front()
        };
        let deal = match next {
            Some(spec) => self.complete(req, spec)?,
            None => {
                // The order is made in a buffer kept from deal to deal (empty in between, so
                // that a clone of the chance copies nothing).
                let mut o = std::mem::take(&mut self.order);
                match &req.cut_from {
                    Some(order) => {
                        o.extend_from_slice(order);
                        let cut = if o.len() > 1 {
                            1 + self.below_for_deal(o.len() - 1)
                        } else {
                            0
                        };
                        o.rotate_left(cut);
                    }
                    None => {
                        o.extend_from_slice(&req.deck);
                        self.shuffle_for_deal(&mut o);
                    }
                }
                let deal = req.deal_order(&o);
                o.clear();
                self.order = o;
                deal
            }
        };
        // The deal is kept in the log, and lent from there: an engine copies what it plays
        // with into buffers of its own (a deal returned by value was a second copy of it).
        Ok(self.log.push(deal))
    }

    /// Checks a given deal against the request and deals what it leaves out.
    fn complete(&mut self, req: &DealRequest, spec: DealSpec) -> Result<Deal, String> {
        let n = req.hand_sizes.len();
        let deal_no = self.log.len() + 1;
        let title = self.title;
        let err = |m: String| format!("deal {deal_no}: {m}");
        if let Some(d) = spec.dealer {
            if d != req.dealer {
                return Err(err(format!(
                    "the deal names seat {d} as dealer, but the rules make seat {} the dealer",
                    req.dealer
                )));
            }
        }
        if spec.hands.len() > n {
            return Err(err(format!("{} hands given for {n} players", spec.hands.len())));
        }
        // Where each card was given (by card index), named in text only for a message: a
        // search gives deals by the thousand.
        let mut used: [Option<Place>; 52] = [None; 52];
        let pile_names: Vec<&String> = spec.piles.keys().collect();
        let named = |p: Place| match p {
            Place::Seat(s) => format!("seat {s}"),
            Place::Pile(i) => format!("pile {}", pile_names[i]),
        };
        let deck = CardSet::from_cards(&req.deck);
        let mut claim = |c: Card, place: Place| -> Result<(), String> {
            if !deck.contains(c) {
                return Err(err(format!("{}: {c} is not in {title}'s deck", named(place))));
            }
            match used[c.index()].replace(place) {
                Some(prev) => Err(err(format!(
                    "{c} is given twice ({} and {})",
                    named(prev),
                    named(place)
                ))),
                None => Ok(()),
            }
        };
        for (s, h) in spec.hands.iter().enumerate() {
            if let Some(h) = h {
                if h.len() != req.hand_sizes[s] {
                    return Err(err(format!(
                        "seat {s} has {} cards, {title} deals {}",
                        h.len(),
                        req.hand_sizes[s]
                    )));
                }
                for &c in h {
                    claim(c, Place::Seat(s))?;
                }
            }
        }
        for (i, (name, cards)) in spec.piles.iter().enumerate() {
            let Some(&(_, size)) = req.piles.iter().find(|(p, _)| p == name) else {
                let names: Vec<&str> = req.piles.iter().map(|(p, _)| *p).collect();
                return Err(err(format!(
                    "unknown pile '{name}' ({title} deals: {})",
                    if names.is_empty() {
                        "no piles".to_string()
                    } else {
                        names.join(", ")
                    }
                )));
            };
            if size != usize::MAX && cards.len() != size {
                return Err(err(format!(
                    "pile '{name}' has {} cards, {title} deals {size}",
                    cards.len()
                )));
            }
            for &c in cards {
                claim(c, Place::Pile(i))?;
            }
        }
        // Deal what was left out, at random, from the remaining cards.
        let mut rest: Vec<Card> = req.deck.iter().copied().filter(|c| used[c.index()].is_none()).collect();
        self.shuffle_for_deal(&mut rest);
        let mut rest = rest.into_iter();
        // (The given hands and piles are moved into the deal, not copied.)
        let mut given = spec.hands.into_iter();
        let mut hands = Vec::with_capacity(n);
        for s in 0..n {
            match given.next().flatten() {
                Some(h) => hands.push(h),
                None => hands.push(rest.by_ref().take(req.hand_sizes[s]).collect()),
            }
        }
        let mut given_piles = spec.piles;
        let mut piles = BTreeMap::new();
        for &(name, size) in &req.piles {
            let cards = match given_piles.remove(name) {
                Some(c) => c,
                None => {
                    let remaining: Vec<Card> = rest.clone().collect();
                    let k = req.pile_size(size, remaining.len());
                    rest.by_ref().take(k).collect()
                }
            };
            piles.insert(name.to_string(), cards);
        }
        // With a "rest" pile given explicitly, nothing can be left over; otherwise everything
        // must have found a place only if the request accounts for the whole deck.
        Ok(Deal {
            dealer: req.dealer,
            hands,
            piles,
            undealt: rest.collect(),
        })
    }
}

/// Where a given deal puts a card: a seat's hand, or a pile (by its place among the deal's).
#[derive(Clone, Copy)]
enum Place {
    Seat(usize),
    Pile(usize),
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::cards::full_deck;

    #[test]
    fn seeded_deals_partition_the_deck_and_repeat() {
        let req = DealRequest::hands(3, full_deck(), 4, 13);
        let d1 = Chance::seeded(42).deal(&req).cloned().unwrap();
        let d2 = Chance::seeded(42).deal(&req).cloned().unwrap();
        let d3 = Chance::seeded(43).deal(&req).cloned().unwrap();
        assert_eq!(d1, d2);
        assert_ne!(d1, d3);
        let mut all: Vec<Card> = d1.hands.concat();
        all.sort_by_key(|c| c.index());
        assert_eq!(all, full_deck());
    }

    /// A sketching chance deals whole decks, in other orders than the seed's, logs its deals,
    /// and leaves the seeded generator where it was (what a playout stopped at such a deal
    /// discards, and what a game played on would use).
    #[test]
    fn a_sketch_deals_without_the_seeded_generator() {
        let req = DealRequest::hands(3, full_deck(), 4, 13);
        let mut seeded = Chance::seeded(42);
        let mut sketch = seeded.clone();
        sketch.sketch();
        assert!(sketch.sketching() && !seeded.sketching());
        let a = sketch.deal(&req).cloned().unwrap();
        let b = sketch.deal(&req).cloned().unwrap();
        assert_ne!(a, b, "each sketched deal is another");
        assert_ne!(a, seeded.clone().deal(&req).cloned().unwrap());
        for d in [&a, &b] {
            let mut all: Vec<Card> = d.hands.concat();
            all.sort_by_key(|c| c.index());
            assert_eq!(all, full_deck());
        }
        assert_eq!(sketch.deals().len(), 2);
        // The seeded generator has not moved: its next number is the untouched copy's.
        assert_eq!(sketch.below(1 << 30), seeded.below(1 << 30));
        // A cut (a deal from a given order) is sketched too.
        let mut cut = req.clone();
        cut.cut_from = Some(full_deck());
        let mut c = Chance::seeded(7);
        let untouched = c.clone();
        c.sketch();
        c.deal(&cut).unwrap();
        assert_eq!(c.below(1 << 30), untouched.clone().below(1 << 30));
    }

    /// A clone shares the log until it deals itself (search clones states by the million),
    /// and deals what the original deals; the original's log is never touched by a clone.
    #[test]
    fn a_clone_shares_the_log_until_it_deals_and_deals_the_same() {
        let req = DealRequest::hands(0, full_deck(), 4, 13);
        let mut a = Chance::given(9, vec![DealSpec::default()]);
        a.deal(&req).unwrap();
        let mut b = a.clone();
        assert!(a.log.shares(&b.log) && Arc::ptr_eq(&a.given, &b.given));
        let from_b = b.deal(&req).cloned().unwrap();
        assert!(!a.log.shares(&b.log));
        assert_eq!((a.deals().len(), b.deals().len()), (1, 2));
        assert_eq!(*a.deal(&req).unwrap(), from_b);
        // What a deal returns is the deal its log keeps.
        assert_eq!(b.deals().last().map(|d| &**d), Some(&from_b));
    }

    #[test]
    fn given_deals_are_checked_and_completed() {
        let deck = full_deck();
        let req = DealRequest::hands(0, deck.clone(), 4, 13);
        let spec = DealSpec {
            dealer: Some(0),
            hands: vec![Some(deck[..13].to_vec()), None, None, None],
            piles: BTreeMap::new(),
        };
        let mut ch = Chance::given(1, vec![spec.clone()]);
        let d = ch.deal(&req).unwrap();
        assert_eq!(d.hands[0], deck[..13].to_vec());
        let mut all: Vec<Card> = d.hands.concat();
        all.sort_by_key(|c| c.index());
        assert_eq!(all, deck);
        // Wrong dealer, wrong size, duplicates are refused with a message that says where.
        let e = Chance::given(1, vec![spec.clone()])
            .deal(&DealRequest::hands(2, deck.clone(), 4, 13))
            .unwrap_err();
        assert!(e.contains("dealer"), "{e}");
        let mut short = spec.clone();
        short.hands[1] = Some(deck[13..25].to_vec());
        let e = Chance::given(1, vec![short]).deal(&req).unwrap_err();
        assert!(e.contains("seat 1 has 12 cards"), "{e}");
        let mut dup = spec;
        dup.hands[1] = Some(deck[12..25].to_vec());
        let e = Chance::given(1, vec![dup]).deal(&req).unwrap_err();
        assert!(e.contains("AH is given twice") || e.contains("given twice"), "{e}");
    }
}
