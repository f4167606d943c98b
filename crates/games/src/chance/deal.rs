//! A deal (hands and piles), the request that says how a game deals, and a deal as a game's
//! record keeps it.

use crate::cards::Card;
use crate::seat::Seat;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// One deal as dealt: the dealer, every seat's hand, and any other named piles the game deals
/// (turned cards, table, stock in order, …).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Deal {
    pub dealer: Seat,
    pub hands: Vec<Vec<Card>>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub piles: BTreeMap<String, Vec<Card>>,
    /// The cards of the deck the deal left out (not in records: a search bot's own worlds
    /// deal them anew). Not part of a deal's identity.
    #[serde(skip)]
    pub undealt: Vec<Card>,
}

/// Deals are equal when their dealer, hands and piles are.
impl PartialEq for Deal {
    fn eq(&self, other: &Deal) -> bool {
        (self.dealer, &self.hands, &self.piles) == (other.dealer, &other.hands, &other.piles)
    }
}

impl Eq for Deal {}

/// What a game asks to be dealt.
#[derive(Clone, Debug)]
pub struct DealRequest {
    pub dealer: Seat,
    /// The cards in play (the game's deck).
    pub deck: Vec<Card>,
    /// Cards per seat (index = seat); 0 for seats that get none.
    pub hand_sizes: Vec<usize>,
    /// Other piles, in dealing order after the hands; a size of `usize::MAX` means "the rest".
    pub piles: Vec<(&'static str, usize)>,
    /// The seat that receives the first packet; the others follow in `step` order.
    pub first: Seat,
    /// +1 for clockwise dealing, -1 (as `n-1`) for anticlockwise.
    pub clockwise: bool,
    /// Packet sizes per round of dealing (e.g. `[7, 6]`); empty = the whole hand at once.
    pub packets: Vec<usize>,
    /// `Some(order)`: do not shuffle, deal from this order after one random cut.
    pub cut_from: Option<Vec<Card>>,
}

impl DealRequest {
    /// A request for `n` hands of `size` cards each, dealt clockwise from the dealer's left,
    /// with no other piles.
    pub fn hands(dealer: Seat, deck: Vec<Card>, n: usize, size: usize) -> DealRequest {
        DealRequest {
            dealer,
            deck,
            hand_sizes: vec![size; n],
            piles: vec![],
            first: (dealer + 1) % n,
            clockwise: true,
            packets: vec![],
            cut_from: None,
        }
    }

    fn seat_order(&self) -> Vec<Seat> {
        let n = self.hand_sizes.len();
        (0..n)
            .map(|k| {
                if self.clockwise {
                    (self.first + k) % n
                } else {
                    (self.first + n * k - k) % n
                }
            })
            .collect()
    }

    pub(super) fn pile_size(&self, size: usize, remaining: usize) -> usize {
        if size == usize::MAX {
            remaining
        } else {
            size
        }
    }

    /// Deals the cards of `order` (a permutation of the deck) as this request describes.
    pub(super) fn deal_order(&self, order: &[Card]) -> Deal {
        let mut hands: Vec<Vec<Card>> = self.hand_sizes.iter().map(|&k| Vec::with_capacity(k)).collect();
        let mut it = order.iter().copied();
        let max = [self.hand_sizes.iter().copied().max().unwrap_or(0)];
        let packets = if self.packets.is_empty() {
            &max[..]
        } else {
            &self.packets[..]
        };
        for &p in packets {
            for s in self.seat_order() {
                let want = self.hand_sizes[s];
                let take = p.min(want - hands[s].len());
                for _ in 0..take {
                    hands[s].push(it.next().expect("deck too small for the deal"));
                }
            }
        }
        let mut rest: Vec<Card> = it.collect();
        let mut piles = BTreeMap::new();
        for &(name, size) in &self.piles {
            let k = self.pile_size(size, rest.len()).min(rest.len());
            piles.insert(name.to_string(), rest.drain(..k).collect());
        }
        Deal {
            dealer: self.dealer,
            hands,
            piles,
            undealt: rest,
        }
    }
}

/// A deal given by the user (`--deal FILE`): anything left out is dealt at random.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DealSpec {
    pub dealer: Option<Seat>,
    /// Per seat; `None` = deal this hand at random.
    pub hands: Vec<Option<Vec<Card>>>,
    pub piles: BTreeMap<String, Vec<Card>>,
}

impl DealSpec {
    pub fn from_deal(d: &Deal) -> DealSpec {
        DealSpec {
            dealer: Some(d.dealer),
            hands: d.hands.iter().cloned().map(Some).collect(),
            piles: d.piles.clone(),
        }
    }
}
