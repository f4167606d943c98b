//! Cards and their notation.
//!
//! A card is written as two characters, rank then suit: `AS KH QD JC TS 9H … 2C`
//! (ranks `A K Q J T 9 8 7 6 5 4 3 2`, suits `S H D C`). The same tokens are used in the
//! protocol, the records and error messages. Text for people (`show`, the human seat, `show
//! --html`, `ask`) writes a card one way, rank then suit symbol (`A♠`, `10♥`: [`Card::pretty`]),
//! and a suit as its symbol and name (`♥ hearts`: [`Suit::pretty`]).

use std::fmt;
use std::str::FromStr;

/// A suit. The order `S H D C` is the notation's order, not a ranking.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Suit {
    Spades,
    Hearts,
    Diamonds,
    Clubs,
}

impl Suit {
    pub const ALL: [Suit; 4] = [Suit::Spades, Suit::Hearts, Suit::Diamonds, Suit::Clubs];

    /// The notation letter: `S`, `H`, `D` or `C`.
    pub fn letter(self) -> char {
        match self {
            Suit::Spades => 'S',
            Suit::Hearts => 'H',
            Suit::Diamonds => 'D',
            Suit::Clubs => 'C',
        }
    }

    /// The notation letter as a token.
    pub fn token(self) -> &'static str {
        match self {
            Suit::Spades => "S",
            Suit::Hearts => "H",
            Suit::Diamonds => "D",
            Suit::Clubs => "C",
        }
    }

    /// The symbol used in text for people.
    pub fn symbol(self) -> char {
        match self {
            Suit::Spades => '♠',
            Suit::Hearts => '♥',
            Suit::Diamonds => '♦',
            Suit::Clubs => '♣',
        }
    }

    /// The suit's English name: `spades`, `hearts`, `diamonds`, `clubs`.
    pub fn name(self) -> &'static str {
        ["spades", "hearts", "diamonds", "clubs"][self.index()]
    }

    /// The suit for people: its symbol and name, `♥ hearts`.
    pub fn pretty(self) -> String {
        format!("{} {}", self.symbol(), self.name())
    }

    pub fn from_letter(c: char) -> Option<Suit> {
        match c {
            'S' => Some(Suit::Spades),
            'H' => Some(Suit::Hearts),
            'D' => Some(Suit::Diamonds),
            'C' => Some(Suit::Clubs),
            _ => None,
        }
    }

    pub fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Suit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

impl FromStr for Suit {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let mut chars = s.chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) => Suit::from_letter(c).ok_or_else(|| format!("'{s}' is not a suit (S, H, D or C)")),
            _ => Err(format!("'{s}' is not a suit (S, H, D or C)")),
        }
    }
}

/// A rank, stored as its natural number: 2..=10, J = 11, Q = 12, K = 13, A = 14.
/// Games that rank cards differently (aces low, no value for courts) map this themselves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Rank(u8);

impl Rank {
    pub const TWO: Rank = Rank(2);
    pub const TEN: Rank = Rank(10);
    pub const JACK: Rank = Rank(11);
    pub const QUEEN: Rank = Rank(12);
    pub const KING: Rank = Rank(13);
    pub const ACE: Rank = Rank(14);

    /// `n` in 2..=14.
    pub fn new(n: u8) -> Rank {
        assert!((2..=14).contains(&n), "rank {n} out of range");
        Rank(n)
    }

    /// 2..=14 (A = 14).
    pub fn value(self) -> u8 {
        self.0
    }

    pub fn letter(self) -> char {
        match self.0 {
            14 => 'A',
            13 => 'K',
            12 => 'Q',
            11 => 'J',
            10 => 'T',
            n => (b'0' + n) as char,
        }
    }

    pub fn from_letter(c: char) -> Option<Rank> {
        Some(Rank(match c {
            'A' => 14,
            'K' => 13,
            'Q' => 12,
            'J' => 11,
            'T' => 10,
            '2'..='9' => c as u8 - b'0',
            _ => return None,
        }))
    }

    /// All ranks from ace down to two.
    pub fn descending() -> impl Iterator<Item = Rank> {
        (2..=14u8).rev().map(Rank)
    }
}

impl fmt::Display for Rank {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// A playing card.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Card {
    pub rank: Rank,
    pub suit: Suit,
}

impl Card {
    pub fn new(rank: Rank, suit: Suit) -> Card {
        Card { rank, suit }
    }

    /// A dense index 0..52 (suit-major, ace first), for bit sets and tables.
    pub fn index(self) -> usize {
        self.suit.index() * 13 + (14 - self.rank.value() as usize)
    }

    pub fn from_index(i: usize) -> Card {
        assert!(i < 52);
        Card::new(Rank((14 - i % 13) as u8), Suit::ALL[i / 13])
    }

    /// The card for people, rank then suit symbol: `A♠`, `10♥` (the ten as `10`). Every text
    /// for people writes cards this way; tokens (`AS`, `TH`) are for bots and records.
    pub fn pretty(self) -> String {
        let mut s = String::with_capacity(6);
        if self.rank == Rank::TEN {
            s.push_str("10");
        } else {
            s.push(self.rank.letter());
        }
        s.push(self.suit.symbol());
        s
    }
}

/// Cards order by [`Card::index`]: suit by suit (S H D C), high to low within a suit.
impl Ord for Card {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.index().cmp(&other.index())
    }
}

impl PartialOrd for Card {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.token())
    }
}

/// The letters of the card with index `i` (suit-major, ace first, as [`Card::index`]).
pub const fn index_letters(i: usize) -> [u8; 2] {
    let rank = match i % 13 {
        0 => b'A',
        1 => b'K',
        2 => b'Q',
        3 => b'J',
        4 => b'T',
        r => b'0' + 14 - r as u8,
    };
    [rank, [b'S', b'H', b'D', b'C'][i / 13]]
}

/// Every card's token, two letters each, in index order, made at compile time.
const CARD_TOKENS: &str = {
    const BYTES: [u8; 104] = {
        let mut b = [0u8; 104];
        let mut i = 0;
        while i < 52 {
            let l = index_letters(i);
            b[2 * i] = l[0];
            b[2 * i + 1] = l[1];
            i += 1;
        }
        b
    };
    match std::str::from_utf8(&BYTES) {
        Ok(s) => s,
        Err(_) => panic!("card tokens are ASCII"),
    }
};

impl Card {
    /// The card's token (`AS`, `TD`, `2C`), a string of the program's: cards are the commonest
    /// token of every record, written without formatting.
    pub fn token(self) -> &'static str {
        let i = 2 * self.index();
        &CARD_TOKENS[i..i + 2]
    }

    /// A card token (`AS`, `TD`, `2C`), or `None`: what `parse` does, without making an error
    /// message (views and policies read tokens that may be other actions).
    pub fn from_token(s: &str) -> Option<Card> {
        match s.as_bytes() {
            &[r, su] => Some(Card {
                rank: Rank::from_letter(r as char)?,
                suit: Suit::from_letter(su as char)?,
            }),
            _ => None,
        }
    }
}

impl FromStr for Card {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Card::from_token(s).ok_or_else(|| format!("'{s}' is not a card (write rank then suit: AS KH QD JC TS 9H … 2C)"))
    }
}

impl serde::Serialize for Card {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for Card {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// The full 52-card deck in a fixed order (spades A..2, hearts, diamonds, clubs).
pub fn full_deck() -> Vec<Card> {
    (0..52).map(Card::from_index).collect()
}

/// The cards of `full_deck()` whose rank is at least `lowest` (e.g. `Rank::TEN` for a 20-card deck).
pub fn deck_from(lowest: Rank) -> Vec<Card> {
    full_deck().into_iter().filter(|c| c.rank >= lowest).collect()
}

/// Parses a whitespace-separated list of cards.
pub fn parse_cards(s: &str) -> Result<Vec<Card>, String> {
    s.split_whitespace().map(str::parse).collect()
}

/// Formats cards in notation, separated by spaces.
pub fn format_cards(cards: &[Card]) -> String {
    cards.iter().map(|c| c.to_string()).collect::<Vec<_>>().join(" ")
}

/// Formats cards for people ([`Card::pretty`]), separated by spaces.
pub fn pretty_cards(cards: &[Card]) -> String {
    cards.iter().map(|c| c.pretty()).collect::<Vec<_>>().join(" ")
}

/// Replaces every card token in `text` with its pretty form (for human output of protocol lines).
pub fn prettify_tokens(text: &str) -> String {
    text.split(' ')
        .map(|t| match t.parse::<Card>() {
            Ok(c) => c.pretty(),
            Err(_) => t.to_string(),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// A set of cards as a 64-bit mask over `Card::index`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct CardSet(pub u64);

impl CardSet {
    pub const EMPTY: CardSet = CardSet(0);
    /// Every card of the 52-card deck (`full_deck()`).
    pub const DECK: CardSet = CardSet((1 << 52) - 1);

    pub fn from_cards(cards: &[Card]) -> CardSet {
        let mut s = CardSet::EMPTY;
        for &c in cards {
            s.insert(c);
        }
        s
    }
    pub fn contains(self, c: Card) -> bool {
        self.0 & (1u64 << c.index()) != 0
    }
    pub fn insert(&mut self, c: Card) -> bool {
        let had = self.contains(c);
        self.0 |= 1u64 << c.index();
        !had
    }
    pub fn remove(&mut self, c: Card) -> bool {
        let had = self.contains(c);
        self.0 &= !(1u64 << c.index());
        had
    }
    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
    /// Cards in index order (suit by suit, high to low).
    /// The cards of the set, in index order, without allocating.
    pub fn iter(self) -> impl Iterator<Item = Card> {
        let mut m = self.0;
        std::iter::from_fn(move || {
            (m != 0).then(|| {
                let i = m.trailing_zeros() as usize;
                m &= m - 1;
                Card::from_index(i)
            })
        })
    }

    pub fn cards(self) -> Vec<Card> {
        let mut v = Vec::with_capacity(self.len());
        let mut m = self.0;
        while m != 0 {
            let i = m.trailing_zeros() as usize;
            v.push(Card::from_index(i));
            m &= m - 1;
        }
        v
    }
    pub fn of_suit(self, s: Suit) -> CardSet {
        CardSet(self.0 & (0x1fffu64 << (s.index() * 13)))
    }
    pub fn has_suit(self, s: Suit) -> bool {
        !self.of_suit(s).is_empty()
    }
    pub fn union(self, o: CardSet) -> CardSet {
        CardSet(self.0 | o.0)
    }
    pub fn minus(self, o: CardSet) -> CardSet {
        CardSet(self.0 & !o.0)
    }
    pub fn intersect(self, o: CardSet) -> CardSet {
        CardSet(self.0 & o.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn card_tokens_are_two_ascii_letters() {
        assert_eq!(Card::from_token("TS").map(|c| c.to_string()), Some("TS".to_string()));
        assert_eq!(Card::from_token("2C").map(|c| c.to_string()), Some("2C".to_string()));
        for bad in ["", "A", "10S", "AS ", "SA", "ÄS", "A\u{301}", "keep", "1S"] {
            assert_eq!(Card::from_token(bad), None, "{bad:?}");
            assert!(bad.parse::<Card>().unwrap_err().contains("is not a card"));
        }
    }

    #[test]
    fn notation_round_trips_for_every_card() {
        let deck = full_deck();
        assert_eq!(deck.len(), 52);
        for (i, c) in deck.iter().enumerate() {
            assert_eq!(c.index(), i);
            assert_eq!(c.to_string().parse::<Card>().unwrap(), *c);
            // The table of tokens spells every card as its rank and suit letters.
            assert_eq!(c.token(), format!("{}{}", c.rank.letter(), c.suit.letter()));
            assert_eq!(c.suit.token(), c.suit.letter().to_string());
        }
        assert_eq!(format_cards(&deck[..3]), "AS KS QS");
        assert_eq!(deck[8].to_string(), "6S");
        assert_eq!(deck[4].to_string(), "TS");
    }

    #[test]
    fn bad_tokens_are_rejected_with_the_token_named() {
        for bad in ["", "A", "1S", "10S", "AX", "as", "ASX"] {
            let err = bad.parse::<Card>().unwrap_err();
            assert!(err.contains(&format!("'{bad}'")), "{err}");
        }
    }

    #[test]
    fn pretty_uses_symbols() {
        assert_eq!("TH".parse::<Card>().unwrap().pretty(), "10♥");
        assert_eq!("QS".parse::<Card>().unwrap().pretty(), "Q♠");
        assert_eq!(prettify_tokens("move 2 AS pass"), "move 2 A♠ pass");
        assert_eq!(Suit::Diamonds.pretty(), "♦ diamonds");
    }

    #[test]
    fn card_set_operations() {
        let cards = parse_cards("AS 2C KH 9H").unwrap();
        let set = CardSet::from_cards(&cards);
        assert_eq!(set.len(), 4);
        assert!(set.contains("KH".parse().unwrap()));
        assert_eq!(format_cards(&set.of_suit(Suit::Hearts).cards()), "KH 9H");
        assert!(!set.has_suit(Suit::Diamonds));
        assert_eq!(deck_from(Rank::TEN).len(), 20);
    }
}
