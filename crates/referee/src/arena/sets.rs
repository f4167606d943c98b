//! Sets and their seatings: a set is one deal seed played as one or more games (jobs) with
//! different seatings; the seed of a set's cards, the rotations of a lineup, a match's
//! fingerprint and `--shard K/N`.

use crate::chance::{derive, Purpose};

/// One game of a set: who sits where.
#[derive(Clone, Debug)]
pub struct Job {
    /// Identifies the game within its set (`r0`, `r1`, … or `cand@2`, `base`, …).
    pub key: String,
    /// The table player in each seat.
    pub seat_of: Vec<usize>,
    /// The name of the bot in each seat (for statistics).
    pub bots: Vec<String>,
}

/// The games of one deal seed.
#[derive(Clone, Debug)]
pub struct Set {
    pub index: u64,
    pub jobs: Vec<Job>,
}

/// The seed of the cards of set `i`.
pub fn game_seed(seed: u64, i: u64) -> u64 {
    derive(seed, Purpose::Game, i)
}

/// A stable 64-bit FNV-1a hash, printed as 16 hex digits (identifies a match's arguments).
pub fn fingerprint(canonical: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in canonical.bytes() {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("{h:016x}")
}

/// The distinct rotations of a lineup over the seats: rotation `r` puts lineup position
/// `(s + r) % n` in seat `s`. Rotations that seat the same bots in the same seats as an
/// earlier one (a lineup like A,B,A,B) are left out.
pub fn rotations(lineup: &[String]) -> Vec<Vec<usize>> {
    let n = lineup.len();
    let mut seen: Vec<Vec<&String>> = Vec::new();
    let mut out = Vec::new();
    for r in 0..n {
        let seat_of: Vec<usize> = (0..n).map(|s| (s + r) % n).collect();
        let names: Vec<&String> = seat_of.iter().map(|&p| &lineup[p]).collect();
        if !seen.contains(&names) {
            seen.push(names);
            out.push(seat_of);
        }
    }
    out
}

/// Parses `K/N` (0 <= K < N).
pub fn parse_shard(s: &str) -> Result<(u64, u64), String> {
    let bad = || format!("bad shard '{s}': write K/N with 0 <= K < N, like 0/4");
    let (k, n) = s.split_once('/').ok_or_else(bad)?;
    let (k, n): (u64, u64) = (
        k.trim().parse().map_err(|_| bad())?,
        n.trim().parse().map_err(|_| bad())?,
    );
    if n == 0 || k >= n {
        return Err(bad());
    }
    Ok((k, n))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rotations_skip_repeated_seatings() {
        let l = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(rotations(&l(&["a", "b", "c", "d"])).len(), 4);
        let r = rotations(&l(&["a", "b", "a", "b"]));
        assert_eq!(r, vec![vec![0, 1, 2, 3], vec![1, 2, 3, 0]]);
        assert_eq!(rotations(&l(&["a", "a", "a"])).len(), 1);
        // Every bot sits in every seat exactly once over the rotations of a distinct lineup.
        let r = rotations(&l(&["a", "b", "c"]));
        for s in 0..3 {
            let mut seen: Vec<usize> = r.iter().map(|so| so[s]).collect();
            seen.sort();
            assert_eq!(seen, vec![0, 1, 2]);
        }
    }

    #[test]
    fn shards_and_fingerprints() {
        assert_eq!(parse_shard("1/4"), Ok((1, 4)));
        assert!(parse_shard("4/4").unwrap_err().contains("0 <= K < N"));
        assert!(parse_shard("x").is_err());
        assert_eq!(fingerprint("abc"), fingerprint("abc"));
        assert_ne!(fingerprint("abc"), fingerprint("abd"));
        assert_eq!(fingerprint("").len(), 16);
    }
}
