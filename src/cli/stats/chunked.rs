//! A list that grows in chunks, for the facts of every deal.

/// A list that grows in chunks of [`Chunked::CHUNK`]: no copy of everything when it grows,
/// and no room reserved for twice its length. Facts of every deal are most of what `stats`
/// keeps (128 bytes a deal); a `Vec` of them held up to 16.8 MiB for 97,000 deals, and twice
/// that for a moment each time it doubled.
pub(super) struct Chunked<T> {
    chunks: Vec<Vec<T>>,
}

impl<T> Default for Chunked<T> {
    fn default() -> Self {
        Chunked { chunks: Vec::new() }
    }
}

impl<T> Chunked<T> {
    const CHUNK: usize = 4096;

    /// Adds `x` and returns its index.
    pub(super) fn push(&mut self, x: T) -> u32 {
        if self.chunks.last().is_none_or(|c| c.len() == Self::CHUNK) {
            self.chunks.push(Vec::with_capacity(Self::CHUNK));
        }
        let last = self.chunks.len() - 1;
        self.chunks[last].push(x);
        u32::try_from(last * Self::CHUNK + self.chunks[last].len() - 1).expect("fewer than 2^32 deals")
    }

    pub(super) fn get_mut(&mut self, k: u32) -> &mut T {
        let k = k as usize;
        &mut self.chunks[k / Self::CHUNK][k % Self::CHUNK]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_chunked_list_gives_each_index_its_own_item_across_chunks() {
        let mut list = Chunked::default();
        let n = 2 * Chunked::<u64>::CHUNK + 5;
        for i in 0..n {
            assert_eq!(list.push(i as u64 * 3) as usize, i);
        }
        assert_eq!(list.chunks.len(), 3);
        assert!(list.chunks.iter().all(|c| c.capacity() == Chunked::<u64>::CHUNK));
        for i in [0, Chunked::<u64>::CHUNK - 1, Chunked::<u64>::CHUNK, n - 1] {
            assert_eq!(*list.get_mut(i as u32), i as u64 * 3);
        }
        *list.get_mut(4096) += 1;
        assert_eq!(*list.get_mut(4096), 4096 * 3 + 1);
        assert_eq!(*list.get_mut(4095), 4095 * 3);
    }
}
