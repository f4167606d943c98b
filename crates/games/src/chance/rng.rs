//! The explicit ChaCha random generator and the seeds: a stream keyed by (seed, purpose,
//! index), the derived seeds, and a seed's text.

use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha20Rng;

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

#[cfg(test)]
mod tests {
    use super::*;

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
    fn seeds_parse_in_every_form() {
        assert_eq!(parse_seed("7").unwrap(), 7);
        assert_eq!(parse_seed("0x10").unwrap(), 16);
        assert_eq!(parse_seed(&format_seed(123456789)).unwrap(), 123456789);
        assert_eq!(parse_seed(&format_seed(u64::MAX)).unwrap(), u64::MAX);
        assert!(parse_seed("seven").is_err());
    }
}
