//! The compact keys `stats` keeps per deal and per game: a deal seed ([`Seed`]), which deal a
//! game belongs to ([`SetKey`]) and a game seen, for finding duplicates ([`Seen`]).

// Strings many records share (run seeds, deal seeds that are not plain numbers, job keys) are
// kept once in `Strings`: a set or a game refers to them by number.
use crate::arena::facts::Names as Strings;
use std::cmp::Ordering;

/// A deal seed as written in a record: a plain decimal number, or other text (by number).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum Seed {
    Num(u64),
    Text(u32),
}

impl Seed {
    pub(super) fn of(s: &str, strings: &mut Strings) -> Seed {
        match s.parse::<u64>() {
            Ok(n) if n.to_string() == s => Seed::Num(n),
            _ => Seed::Text(strings.id(s)),
        }
    }

    /// Its text as the record has it, as bytes (`buf` holds a number's digits).
    pub(super) fn text<'a>(&self, strings: &'a Strings, buf: &'a mut [u8; 20]) -> &'a [u8] {
        match *self {
            Seed::Num(mut n) => {
                let mut k = buf.len();
                loop {
                    k -= 1;
                    buf[k] = b'0' + (n % 10) as u8;
                    n /= 10;
                    if n == 0 {
                        break;
                    }
                }
                &buf[k..]
            }
            Seed::Text(id) => strings.get(id).as_bytes(),
        }
    }
}

/// The bits of a seed and, for the top bit of a `u32` number beside it, whether it is a text's
/// number: the keys below take 24 bytes instead of 40 (group and string numbers stay below
/// 2^31).
fn pack(seed: Seed) -> (u64, u32) {
    match seed {
        Seed::Num(n) => (n, 0),
        Seed::Text(id) => (u64::from(id), TEXT),
    }
}

/// The flag of [`pack`].
const TEXT: u32 = 1 << 31;

/// A number (a group's, a string's) with the flag of a text seed beside it in its top bit.
fn flagged(n: u32, flag: u32) -> u32 {
    assert!(n < TEXT, "fewer than 2^31 groups and strings");
    n | flag
}

/// Which deal a game belongs to: its set index, run seed and deal seed, with `k`, the index of
/// its facts (not part of the key: hashed and compared without it). Sets are summed in the
/// order of (index, run seed, deal seed), the seeds compared as text: a run's sets in the order
/// `match` sums them. A set of these rather than a `HashMap<SetKey, u32>`: 24 bytes a deal
/// instead of 40, the table that doubles as it grows.
#[derive(Clone, Copy, Debug)]
pub(super) struct SetKey {
    set: u64,
    seed: u64,
    /// The run seed's string number; its top bit: the deal seed is a text's number.
    run: u32,
    pub(super) k: u32,
}

impl SetKey {
    pub(super) fn new(set: u64, run: u32, seed: Seed) -> SetKey {
        let (seed, flag) = pack(seed);
        SetKey {
            set,
            seed,
            run: flagged(run, flag),
            k: 0,
        }
    }

    /// The same key with `k`, the index of its deal's facts.
    pub(super) fn with_facts(self, k: u32) -> SetKey {
        SetKey { k, ..self }
    }

    pub(super) fn run(&self) -> u32 {
        self.run & !TEXT
    }

    pub(super) fn seed(&self) -> Seed {
        if self.run & TEXT == 0 {
            Seed::Num(self.seed)
        } else {
            Seed::Text(self.seed as u32)
        }
    }
}

impl PartialEq for SetKey {
    fn eq(&self, o: &SetKey) -> bool {
        (self.set, self.seed, self.run) == (o.set, o.seed, o.run)
    }
}

impl Eq for SetKey {}

impl std::hash::Hash for SetKey {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        (self.set, self.seed, self.run).hash(h);
    }
}

/// A game seen, for finding duplicates: its group, deal seed and job (the key), and where it
/// was first, file and line packed in `at` (file << 40 | line). 24 bytes a game; the
/// `HashMap<(u32, Seed, u32), (u32, usize)>` before took 40.
#[derive(Clone, Copy, Debug)]
pub(super) struct Seen {
    seed: u64,
    /// The group's number; its top bit: the deal seed is a text's number.
    group: u32,
    job: u32,
    at: u64,
}

impl Seen {
    const LINE_BITS: u32 = 40;

    pub(super) fn new(group: usize, seed: Seed, job: u32, file: usize, line: usize) -> Seen {
        let (seed, flag) = pack(seed);
        let (file, line) = (file as u64, line as u64);
        assert!(file < 1 << (64 - Self::LINE_BITS) && line < 1 << Self::LINE_BITS);
        Seen {
            seed,
            group: flagged(u32::try_from(group).expect("fewer than 2^31 groups"), flag),
            job,
            at: file << Self::LINE_BITS | line,
        }
    }

    /// The file (its index) and line where the game was first seen.
    pub(super) fn at(&self) -> (usize, usize) {
        (
            (self.at >> Self::LINE_BITS) as usize,
            (self.at & ((1 << Self::LINE_BITS) - 1)) as usize,
        )
    }
}

impl PartialEq for Seen {
    fn eq(&self, o: &Seen) -> bool {
        (self.seed, self.group, self.job) == (o.seed, o.group, o.job)
    }
}

impl Eq for Seen {}

impl std::hash::Hash for Seen {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        (self.seed, self.group, self.job).hash(h);
    }
}

pub(super) fn cmp_keys(a: &SetKey, b: &SetKey, strings: &Strings) -> Ordering {
    a.set
        .cmp(&b.set)
        .then_with(|| strings.get(a.run()).cmp(strings.get(b.run())))
        .then_with(|| {
            let (mut x, mut y) = ([0u8; 20], [0u8; 20]);
            a.seed().text(strings, &mut x).cmp(b.seed().text(strings, &mut y))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deals_sort_by_their_seeds_as_text_whether_kept_as_numbers_or_not() {
        let mut strings = Strings::default();
        let seeds = ["9", "10", "007", "18446744073709551615", "0x1f", "1", "", "100"];
        let run = strings.id("5");
        let mut keys: Vec<(SetKey, &str)> = seeds
            .iter()
            .map(|s| {
                let seed = Seed::of(s, &mut strings);
                (SetKey::new(1, run, seed), *s)
            })
            .collect();
        assert!(matches!(keys[0].0.seed(), Seed::Num(9)));
        assert!(matches!(keys[2].0.seed(), Seed::Text(_)), "007 is kept as written");
        assert_eq!(keys[2].0.run(), run);
        keys.sort_by(|a, b| cmp_keys(&a.0, &b.0, &strings));
        let mut as_text = seeds.to_vec();
        as_text.sort();
        assert_eq!(keys.iter().map(|k| k.1).collect::<Vec<_>>(), as_text);
    }
}
