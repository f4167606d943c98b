//! Chance: seeds, the explicit ChaCha random generator, and deals (random, given or recorded).
//!
//! Every random choice of a game goes through a [`Chance`], so a seed fixes every deal and a
//! record can re-create them. Seeds are derived with ChaCha20 keyed by (seed, purpose, index);
//! the shuffle and bounded draws are implemented here on raw 64-bit outputs, so the deals of a
//! seed do not depend on the version of the `rand` crate.

use crate::cards::Card;
use crate::seat::Seat;
use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha20Rng;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, VecDeque};
use std::sync::Arc;

/// What a derived seed is for; part of the ChaCha key, so streams never overlap.
#[derive(Clone, Copy, Debug)]
#[repr(u64)]
pub enum Purpose {
    /// Run seed → the seed of game `index`.
    Game = 1,
    /// Game seed → its deals and other chance events.
    Deal = 2,
    /// Game seed → the substitute action for a fault at action `index`.
    Substitute = 3,
    /// Game seed → the `rngseed` told to seat `index` (bots' own randomness).
    Bot = 4,
    /// Run seed → the seed of duplicate set / table `index` (used by matches).
    Table = 5,
}

/// A ChaCha20 stream keyed by (seed, purpose, index). A clone goes on from the same point.
///
/// Two ways to make the same stream: [`Rng::new`], for many draws (a deal's shuffle, a
/// search's samples), makes four 64-byte blocks at a time (with SIMD); [`Rng::few`], for a few
/// (a bot's choices in one game), makes its first block alone and goes on four at a time after
/// it. A draw is 8 bytes, a block 8 draws: a random Rikken seat draws about 3 times a game,
/// and made four blocks at a time its stream threw away 29 draws of 32.
#[derive(Clone)]
pub struct Rng(Gen);

/// How many blocks [`Rng::few`] makes one at a time before it makes four at a time. One: a
/// block alone costs about 0.6 of four made at once (rand_chacha with AVX2), so a stream of up
/// to 8 draws costs 0.6 of what it would from [`Rng::new`], and a longer one at most that block
/// more.
const FEW_BLOCKS: u8 = 1;

// Not boxed: a search clones a game's chance by the million, and a box would be an allocation
// per clone.
#[derive(Clone)]
#[allow(clippy::large_enum_variant)]
enum Gen {
    /// Blocks made one at a time: `block` is block `made - 1` of the stream, `next` the index
    /// of its next unread draw (8: none left).
    Few {
        key: [u32; 8],
        block: [u64; 8],
        next: u8,
        made: u8,
    },
    Wide(ChaCha20Rng),
}

impl Rng {
    /// A stream for many draws (four blocks at a time).
    pub fn new(seed: u64, purpose: Purpose, index: u64) -> Rng {
        Rng(Gen::Wide(ChaCha20Rng::from_seed(key_bytes(seed, purpose, index))))
    }

    /// The same stream as [`Rng::new`], for a few draws: nothing is made until the first
    /// draw, then one block (8 draws) at a time for the first `FEW_BLOCKS` blocks, then four
    /// at a time.
    pub fn few(seed: u64, purpose: Purpose, index: u64) -> Rng {
        Rng(Gen::Few {
            key: key_words(seed, purpose, index),
            block: [0; 8],
            next: 8,
            made: 0,
        })
    }

    pub fn next_u64(&mut self) -> u64 {
        match &mut self.0 {
            Gen::Wide(r) => r.next_u64(),
            Gen::Few { block, next, .. } if *next < 8 => {
                let x = block[*next as usize];
                *next += 1;
                x
            }
            Gen::Few { .. } => self.next_block(),
        }
    }

    /// The first draw of the next block (out of line: once per 8 draws at most).
    #[cold]
    #[inline(never)]
    fn next_block(&mut self) -> u64 {
        let Gen::Few { key, block, next, made } = &mut self.0 else {
            unreachable!("only a stream made one block at a time runs out of its block")
        };
        if *made < FEW_BLOCKS {
            *block = chacha20_block(key, u64::from(*made));
            *made += 1;
            *next = 1;
            return block[0];
        }
        // From block `made` on, four blocks at a time.
        let mut bytes = [0u8; 32];
        for (b, w) in bytes.chunks_exact_mut(4).zip(key.iter()) {
            b.copy_from_slice(&w.to_le_bytes());
        }
        let mut wide = ChaCha20Rng::from_seed(bytes);
        wide.set_word_pos(16 * u128::from(*made));
        self.0 = Gen::Wide(wide);
        self.next_u64()
    }

    /// A uniform integer in `0..n` (`n > 0`), by rejection sampling: outputs below
    /// `2^64 mod n` are drawn again, so every residue is equally likely.
    pub fn below(&mut self, n: u64) -> u64 {
        assert!(n > 0);
        let threshold = n.wrapping_neg() % n;
        loop {
            let x = self.next_u64();
            if x >= threshold {
                return x % n;
            }
        }
    }

    /// Fisher–Yates shuffle.
    pub fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            let j = self.below(i as u64 + 1) as usize;
            v.swap(i, j);
        }
    }
}

/// The ChaCha key of the stream (seed, purpose, index).
fn key_bytes(seed: u64, purpose: Purpose, index: u64) -> [u8; 32] {
    let mut key = [0u8; 32];
    key[0..8].copy_from_slice(&seed.to_le_bytes());
    key[8..16].copy_from_slice(&(purpose as u64).to_le_bytes());
    key[16..24].copy_from_slice(&index.to_le_bytes());
    key[24..32].copy_from_slice(b"croupier");
    key
}

/// [`key_bytes`] as the eight little-endian words of the ChaCha state.
fn key_words(seed: u64, purpose: Purpose, index: u64) -> [u32; 8] {
    let bytes = key_bytes(seed, purpose, index);
    std::array::from_fn(|i| u32::from_le_bytes([bytes[4 * i], bytes[4 * i + 1], bytes[4 * i + 2], bytes[4 * i + 3]]))
}

/// Block `counter` of the ChaCha20 keystream of `key` (stream 0) as eight 64-bit draws, as
/// `rand_chacha` makes it (the tests compare them): one block, in scalar code, for a stream
/// drawn a few times.
fn chacha20_block(key: &[u32; 8], counter: u64) -> [u64; 8] {
    macro_rules! quarter {
        ($a:ident, $b:ident, $c:ident, $d:ident) => {
            $a = $a.wrapping_add($b);
            $d = ($d ^ $a).rotate_left(16);
            $c = $c.wrapping_add($d);
            $b = ($b ^ $c).rotate_left(12);
            $a = $a.wrapping_add($b);
            $d = ($d ^ $a).rotate_left(8);
            $c = $c.wrapping_add($d);
            $b = ($b ^ $c).rotate_left(7);
        };
    }
    let start: [u32; 16] = [
        0x6170_7865,
        0x3320_646e,
        0x7962_2d32,
        0x6b20_6574,
        key[0],
        key[1],
        key[2],
        key[3],
        key[4],
        key[5],
        key[6],
        key[7],
        counter as u32,
        (counter >> 32) as u32,
        0,
        0,
    ];
    let [mut x0, mut x1, mut x2, mut x3, mut x4, mut x5, mut x6, mut x7, mut x8, mut x9, mut x10, mut x11, mut x12, mut x13, mut x14, mut x15] =
        start;
    for _ in 0..10 {
        quarter!(x0, x4, x8, x12);
        quarter!(x1, x5, x9, x13);
        quarter!(x2, x6, x10, x14);
        quarter!(x3, x7, x11, x15);
        quarter!(x0, x5, x10, x15);
        quarter!(x1, x6, x11, x12);
        quarter!(x2, x7, x8, x13);
        quarter!(x3, x4, x9, x14);
    }
    let x = [x0, x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11, x12, x13, x14, x15];
    std::array::from_fn(|i| {
        let lo = x[2 * i].wrapping_add(start[2 * i]);
        let hi = x[2 * i + 1].wrapping_add(start[2 * i + 1]);
        u64::from(lo) | (u64::from(hi) << 32)
    })
}

/// A seed derived from another: the first output of the (seed, purpose, index) stream.
/// Knowing a derived seed tells nothing about the seed it came from.
pub fn derive(seed: u64, purpose: Purpose, index: u64) -> u64 {
    // One block of the stream, not the four that a stream for many draws makes at once.
    chacha20_block(&key_words(seed, purpose, index), 0)[0]
}

/// Seeds are written in records as decimal strings (JSON numbers lose precision above 2^53).
pub fn format_seed(seed: u64) -> String {
    seed.to_string()
}

/// Parses a seed: decimal, or `0x`-prefixed hex.
pub fn parse_seed(s: &str) -> Result<u64, String> {
    let t = s.trim();
    let r = match t.strip_prefix("0x") {
        Some(h) => u64::from_str_radix(h, 16),
        None => t.parse::<u64>(),
    };
    r.map_err(|_| format!("bad seed '{s}': expected a whole number from 0 to 2^64-1 (decimal or 0x-hex)"))
}

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

    fn pile_size(&self, size: usize, remaining: usize) -> usize {
        if size == usize::MAX {
            remaining
        } else {
            size
        }
    }

    /// Deals the cards of `order` (a permutation of the deck) as this request describes.
    fn deal_order(&self, order: &[Card]) -> Deal {
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

/// The source of every chance event of one game, and the log of the deals it made. A clone
/// (a game state copied for search) makes the same deals as the original from then on.
///
/// Cloning is cheap: the log and the given deals are shared (reference-counted) and copied
/// only when a clone makes a deal of its own.
#[derive(Clone)]
pub struct Chance {
    rng: Rng,
    given: Arc<VecDeque<DealSpec>>,
    /// Where the deals came from: `"seed"` or `"file"`.
    source: &'static str,
    log: Arc<Vec<Deal>>,
    /// The game's name for messages about given deals ("Rikken deals 13").
    title: &'static str,
    /// A buffer for the order of the cards of a deal (empty between deals).
    order: Vec<Card>,
}

impl Chance {
    /// Deals at random from a game seed.
    pub fn seeded(game_seed: u64) -> Chance {
        Chance {
            rng: Rng::new(game_seed, Purpose::Deal, 0),
            given: Arc::default(),
            source: "seed",
            log: Arc::default(),
            title: "this game",
            order: Vec::new(),
        }
    }

    /// Deals the given deals first (filling anything left out from the seed), then at random.
    pub fn given(game_seed: u64, deals: Vec<DealSpec>) -> Chance {
        let source = if deals.is_empty() { "seed" } else { "file" };
        Chance {
            rng: Rng::new(game_seed, Purpose::Deal, 0),
            given: Arc::new(deals.into()),
            source,
            log: Arc::default(),
            title: "this game",
            order: Vec::new(),
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

    /// Names the game in messages about given deals.
    pub fn titled(mut self, title: &'static str) -> Chance {
        self.title = title;
        self
    }

    pub fn source(&self) -> &'static str {
        self.source
    }

    /// Every deal made so far, in order.
    /// The deals made so far, shared: a game that is over hands them on without copying.
    pub fn shared_deals(&self) -> Arc<Vec<Deal>> {
        Arc::clone(&self.log)
    }

    pub fn deals(&self) -> &[Deal] {
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
                        let cut = if o.len() > 1 { 1 + self.below(o.len() - 1) } else { 0 };
                        o.rotate_left(cut);
                    }
                    None => {
                        o.extend_from_slice(&req.deck);
                        self.rng.shuffle(&mut o);
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
        let log = Arc::make_mut(&mut self.log);
        log.push(deal);
        Ok(log.last().expect("the deal just made"))
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
        let mut used: BTreeMap<Card, String> = BTreeMap::new();
        let mut claim = |c: Card, place: String| -> Result<(), String> {
            if !req.deck.contains(&c) {
                return Err(err(format!("{place}: {c} is not in {title}'s deck")));
            }
            if let Some(prev) = used.insert(c, place.clone()) {
                return Err(err(format!("{c} is given twice ({prev} and {place})")));
            }
            Ok(())
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
                    claim(c, format!("seat {s}"))?;
                }
            }
        }
        for (name, cards) in &spec.piles {
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
                claim(c, format!("pile {name}"))?;
            }
        }
        // Deal what was left out, at random, from the remaining cards.
        let mut rest: Vec<Card> = req.deck.iter().copied().filter(|c| !used.contains_key(c)).collect();
        self.rng.shuffle(&mut rest);
        let mut rest = rest.into_iter();
        let mut hands = Vec::with_capacity(n);
        for s in 0..n {
            match spec.hands.get(s).cloned().flatten() {
                Some(h) => hands.push(h),
                None => hands.push(rest.by_ref().take(req.hand_sizes[s]).collect()),
            }
        }
        let mut piles = BTreeMap::new();
        for &(name, size) in &req.piles {
            let cards = match spec.piles.get(name) {
                Some(c) => c.clone(),
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

/// One game of a deal file: the line its JSON value starts on, and its deals.
#[derive(Clone, Debug)]
pub struct DealGame {
    pub line: usize,
    pub deals: Vec<DealSpec>,
}

/// Parses a deal file: a stream of JSON values, one per game. Each is a deal object
/// `{"dealer": …, "hands": …, "piles": {…}}` or `{"deals": [deal, …]}` for a game of several
/// deals. Seats are numbers, or `N E S W` in a 4-player game; hands are an array (index = seat)
/// or an object keyed by seat; a missing or null hand is dealt at random. Errors start with
/// `file:line: game G`.
pub fn parse_deal_file(text: &str, players: usize, file: &str) -> Result<Vec<DealGame>, String> {
    let mut games = Vec::new();
    let mut stream = serde_json::Deserializer::from_str(text).into_iter::<serde_json::Value>();
    let mut end = 0;
    while let Some(v) = stream.next() {
        let g = games.len() + 1;
        let v = v.map_err(|e| {
            let msg = e.to_string();
            let msg = msg.rsplit_once(" at line ").map(|(m, _)| m.to_string()).unwrap_or(msg);
            format!(
                "{file}:{}: game {g}: not valid JSON: {msg} at column {}",
                e.line(),
                e.column()
            )
        })?;
        // The value starts at the first non-blank character after the previous one.
        let start = end + text[end..].len() - text[end..].trim_start().len();
        let line = text[..start].matches('\n').count() + 1;
        end = stream.byte_offset();
        let at = format!("{file}:{line}: game {g}");
        let deals = match v.get("deals") {
            Some(serde_json::Value::Array(a)) => a.clone(),
            Some(_) => return Err(format!("{at}: 'deals' must be an array of deals")),
            None => vec![v],
        };
        let mut specs = Vec::new();
        for (j, d) in deals.iter().enumerate() {
            specs.push(parse_deal_spec(d, players).map_err(|e| format!("{at}, deal {}: {e}", j + 1))?);
        }
        games.push(DealGame { line, deals: specs });
    }
    if games.is_empty() {
        return Err(format!("{file}: holds no deal"));
    }
    Ok(games)
}

/// Reads a seat as a number or, with 4 players, a compass letter.
pub fn parse_seat(v: &serde_json::Value, players: usize) -> Result<Seat, String> {
    let s = match v {
        serde_json::Value::Number(n) => n.as_u64().map(|n| n as usize),
        serde_json::Value::String(s) => match (s.as_str(), players) {
            ("N", 4) => Some(0),
            ("E", 4) | ("O", 4) => Some(1),
            ("S", 4) | ("Z", 4) => Some(2),
            ("W", 4) => Some(3),
            (s, _) => s.parse::<usize>().ok(),
        },
        _ => None,
    };
    match s {
        Some(s) if s < players => Ok(s),
        _ => Err(format!(
            "{v} is not a seat of a {players}-player game (0..{}{})",
            players - 1,
            if players == 4 { " or N E S W" } else { "" }
        )),
    }
}

fn parse_card_list(v: &serde_json::Value, what: &str) -> Result<Vec<Card>, String> {
    let arr = v
        .as_array()
        .ok_or_else(|| format!("{what}: expected an array of cards"))?;
    arr.iter()
        .map(|c| {
            c.as_str()
                .ok_or_else(|| format!("{what}: {c} is not a card string"))
                .and_then(|s| s.parse::<Card>().map_err(|e| format!("{what}: {e}")))
        })
        .collect()
}

fn parse_deal_spec(v: &serde_json::Value, players: usize) -> Result<DealSpec, String> {
    let obj = v.as_object().ok_or("a deal must be a JSON object")?;
    let dealer = match obj.get("dealer") {
        None | Some(serde_json::Value::Null) => None,
        Some(d) => Some(parse_seat(d, players).map_err(|e| format!("dealer: {e}"))?),
    };
    let mut hands: Vec<Option<Vec<Card>>> = vec![None; players];
    match obj.get("hands") {
        None | Some(serde_json::Value::Null) => {}
        Some(serde_json::Value::Array(a)) => {
            if a.len() > players {
                return Err(format!("{} hands for {players} players", a.len()));
            }
            for (s, h) in a.iter().enumerate() {
                if !h.is_null() {
                    hands[s] = Some(parse_card_list(h, &format!("hands[{s}]"))?);
                }
            }
        }
        Some(serde_json::Value::Object(m)) => {
            for (k, h) in m {
                let s =
                    parse_seat(&serde_json::Value::String(k.clone()), players).map_err(|e| format!("hands: {e}"))?;
                if !h.is_null() {
                    hands[s] = Some(parse_card_list(h, &format!("hands.{k}"))?);
                }
            }
        }
        Some(_) => return Err("'hands' must be an array or an object keyed by seat".into()),
    }
    let mut piles = BTreeMap::new();
    if let Some(p) = obj.get("piles") {
        let m = p.as_object().ok_or("'piles' must be an object of card arrays")?;
        for (k, cards) in m {
            piles.insert(k.clone(), parse_card_list(cards, &format!("piles.{k}"))?);
        }
    }
    Ok(DealSpec { dealer, hands, piles })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::full_deck;

    #[test]
    fn rng_is_a_fixed_function_of_its_key() {
        // Pinned outputs: a change here changes every seeded deal, so it must be deliberate.
        let mut a = Rng::new(7, Purpose::Deal, 0);
        let mut b = Rng::new(7, Purpose::Deal, 0);
        let xs: Vec<u64> = (0..4).map(|_| a.next_u64()).collect();
        let ys: Vec<u64> = (0..4).map(|_| b.next_u64()).collect();
        assert_eq!(xs, ys);
        assert_ne!(derive(7, Purpose::Deal, 0), derive(7, Purpose::Deal, 1));
        assert_ne!(derive(7, Purpose::Deal, 0), derive(7, Purpose::Game, 0));
    }

    #[test]
    fn streams_and_derived_seeds_are_pinned() {
        // Literal outputs of rand_chacha's ChaCha20 on our keys: a change here changes every
        // seeded deal and every bot's rngseed.
        assert_eq!(derive(7, Purpose::Deal, 0), 11826899238715599073);
        assert_eq!(derive(7, Purpose::Game, 3), 17663436827232031377);
        for mut r in [Rng::new(42, Purpose::Bot, 1), Rng::few(42, Purpose::Bot, 1)] {
            let v: Vec<u64> = (0..40).map(|_| r.next_u64()).collect();
            assert_eq!(
                [v[0], v[8], v[16], v[39]],
                [
                    15037055570665124357,
                    12568858089233179572,
                    6574056004069274274,
                    6061422806006367773
                ]
            );
        }
    }

    /// `few` makes the stream `new` makes, block by block at first: the same draws whatever
    /// the point a clone is taken at, across the blocks made one at a time and the wide ones
    /// after them; `derive` is the stream's first draw.
    #[test]
    fn a_stream_made_one_block_at_a_time_is_the_stream_made_four_at_a_time() {
        for seed in [0, 1, 7, 1 << 40, u64::MAX] {
            for (purpose, index) in [(Purpose::Game, 0), (Purpose::Bot, 3), (Purpose::Substitute, 1 << 33)] {
                let mut wide = Rng::new(seed, purpose, index);
                let mut few = Rng::few(seed, purpose, index);
                assert_eq!(derive(seed, purpose, index), Rng::new(seed, purpose, index).next_u64());
                for k in 0..150 {
                    if k % 7 == 3 {
                        let mut c = few.clone();
                        let mut w = wide.clone();
                        assert_eq!(c.next_u64(), w.next_u64());
                    }
                    assert_eq!(few.next_u64(), wide.next_u64(), "seed {seed}, draw {k}");
                }
                let (mut a, mut b) = (Rng::few(seed, purpose, index), Rng::new(seed, purpose, index));
                assert_eq!(a.below(1000), b.below(1000));
                let (mut x, mut y) = ((0..52).collect::<Vec<u32>>(), (0..52).collect::<Vec<u32>>());
                a.shuffle(&mut x);
                b.shuffle(&mut y);
                assert_eq!(x, y);
            }
        }
    }

    #[test]
    fn below_is_in_range_and_roughly_uniform() {
        let mut r = Rng::new(1, Purpose::Deal, 0);
        let mut counts = [0usize; 6];
        for _ in 0..60_000 {
            counts[r.below(6) as usize] += 1;
        }
        for c in counts {
            assert!((9_000..11_000).contains(&c), "{counts:?}");
        }
        assert_eq!(r.below(1), 0);
    }

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

    /// A clone shares the log until it deals itself (search clones states by the million),
    /// and deals what the original deals; the original's log is never touched by a clone.
    #[test]
    fn a_clone_shares_the_log_until_it_deals_and_deals_the_same() {
        let req = DealRequest::hands(0, full_deck(), 4, 13);
        let mut a = Chance::given(9, vec![DealSpec::default()]);
        a.deal(&req).unwrap();
        let mut b = a.clone();
        assert!(Arc::ptr_eq(&a.log, &b.log) && Arc::ptr_eq(&a.given, &b.given));
        let from_b = b.deal(&req).cloned().unwrap();
        assert!(!Arc::ptr_eq(&a.log, &b.log));
        assert_eq!((a.deals().len(), b.deals().len()), (1, 2));
        assert_eq!(*a.deal(&req).unwrap(), from_b);
        // What a deal returns is the deal its log keeps.
        assert_eq!(b.deals().last(), Some(&from_b));
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

    #[test]
    fn deal_file_accepts_compass_seats_and_several_games() {
        let text = r#"{"dealer":"N","hands":{"N":["AS"],"W":null},"title":"ignored"}
{"deals":[{"dealer":1},{"dealer":2}]}"#;
        let games = parse_deal_file(text, 4, "d.json").unwrap();
        assert_eq!(games.len(), 2);
        assert_eq!((games[0].line, games[1].line), (1, 2));
        assert_eq!(games[0].deals[0].dealer, Some(0));
        assert_eq!(games[0].deals[0].hands[0].as_ref().unwrap().len(), 1);
        assert_eq!(games[1].deals.len(), 2);
        let e = parse_deal_file(r#"{"hands":{"N":["XX"]}}"#, 4, "d.json").unwrap_err();
        assert!(
            e.starts_with("d.json:1: game 1, deal 1: hands.N") && e.contains("'XX'"),
            "{e}"
        );
        let e = parse_deal_file("{}\n\n  {\"dealer\":\"Q\"}", 4, "d.json").unwrap_err();
        assert!(e.starts_with("d.json:3: game 2, deal 1: dealer"), "{e}");
        let e = parse_deal_file("{}\n{\"hands\": [", 4, "d.json").unwrap_err();
        assert!(e.starts_with("d.json:2: game 2: not valid JSON"), "{e}");
    }

    #[test]
    fn seeds_parse_in_every_form() {
        assert_eq!(parse_seed("7").unwrap(), 7);
        assert_eq!(parse_seed("0x10").unwrap(), 16);
        assert_eq!(parse_seed(&format_seed(123456789)).unwrap(), 123456789);
        assert_eq!(parse_seed(&format_seed(u64::MAX)).unwrap(), u64::MAX);
        assert!(parse_seed("seven").is_err());
    }
}
