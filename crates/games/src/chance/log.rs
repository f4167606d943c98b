//! [`DealLog`]: the deals a game made, shared by every copy of the game, a deal added to one
//! copy in constant time.

use super::deal::Deal;
use std::sync::Arc;

/// The deals a game made, in order. A search copies a game state by the million and a copy of
/// a session game that plays on makes a deal of its own: the log is a list linked from the
/// newest deal back, so a copy shares every deal before its own, and adding one neither copies
/// nor touches the others (a shared `Vec` had to copy every pointer, and count each one up and
/// down again, for each such copy).
#[derive(Clone, Default)]
pub struct DealLog {
    newest: Option<Arc<Entry>>,
}

struct Entry {
    deal: Arc<Deal>,
    before: Option<Arc<Entry>>,
    /// How many deals the log holds up to this one.
    len: usize,
}

impl DealLog {
    /// How many deals were made.
    pub fn len(&self) -> usize {
        self.newest.as_ref().map_or(0, |e| e.len)
    }

    pub fn is_empty(&self) -> bool {
        self.newest.is_none()
    }

    /// The last deal made.
    pub fn last(&self) -> Option<&Arc<Deal>> {
        self.newest.as_ref().map(|e| &e.deal)
    }

    /// Deal `k` (0: the first), found from the newest back: cheap for the last few.
    pub fn get(&self, k: usize) -> Option<&Arc<Deal>> {
        let mut e = self.newest.as_ref()?;
        if k >= e.len {
            return None;
        }
        while e.len > k + 1 {
            e = e.before.as_ref()?;
        }
        Some(&e.deal)
    }

    /// Every deal, first to last.
    pub fn iter(&self) -> std::iter::Rev<std::vec::IntoIter<&Arc<Deal>>> {
        let mut newest_first = Vec::with_capacity(self.len());
        let mut e = self.newest.as_ref();
        while let Some(entry) = e {
            newest_first.push(&entry.deal);
            e = entry.before.as_ref();
        }
        newest_first.into_iter().rev()
    }

    /// Adds `deal` after the others; returns it as the log keeps it.
    pub fn push(&mut self, deal: Deal) -> &Arc<Deal> {
        let len = self.len() + 1;
        let before = self.newest.take();
        let entry = self.newest.insert(Arc::new(Entry {
            deal: Arc::new(deal),
            before,
            len,
        }));
        &entry.deal
    }

    /// The deals, first to last, taken out of the log where no other copy shares them and
    /// copied where one does (a finished game's record).
    pub fn into_deals(self) -> Vec<Deal> {
        let deals: Vec<Arc<Deal>> = self.iter().cloned().collect();
        drop(self);
        deals
            .into_iter()
            .map(|d| Arc::try_unwrap(d).unwrap_or_else(|d| d.as_ref().clone()))
            .collect()
    }

    /// Whether two logs are the same list (a copy that has made no deal of its own).
    pub fn shares(&self, other: &DealLog) -> bool {
        match (&self.newest, &other.newest) {
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            (None, None) => true,
            _ => false,
        }
    }
}

impl<'a> IntoIterator for &'a DealLog {
    type Item = &'a Arc<Deal>;
    type IntoIter = std::iter::Rev<std::vec::IntoIter<&'a Arc<Deal>>>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

/// Deal `k`, as [`get`](DealLog::get); panics past the last, as a slice does.
impl std::ops::Index<usize> for DealLog {
    type Output = Arc<Deal>;
    fn index(&self, k: usize) -> &Arc<Deal> {
        let len = self.len();
        self.get(k)
            .unwrap_or_else(|| panic!("deal {k} asked of a log of {len} deal(s)"))
    }
}

/// Dropped from the newest deal back, one entry at a time: a long session's log would
/// otherwise be dropped by a recursion as deep as its deals.
impl Drop for DealLog {
    fn drop(&mut self) {
        let mut next = self.newest.take();
        while let Some(entry) = next {
            match Arc::try_unwrap(entry) {
                Ok(mut e) => next = e.before.take(),
                Err(_) => break,
            }
        }
    }
}

/// Logs are equal when they hold equal deals in the same order.
impl PartialEq for DealLog {
    fn eq(&self, other: &DealLog) -> bool {
        self.len() == other.len() && (self.shares(other) || self.iter().eq(other.iter()))
    }
}

impl std::fmt::Debug for DealLog {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter().map(|d| &**d)).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn deal(dealer: usize) -> Deal {
        Deal {
            dealer,
            hands: Vec::new(),
            piles: Default::default(),
            undealt: Vec::new(),
        }
    }

    #[test]
    fn a_copy_shares_the_deals_before_its_own_and_the_original_keeps_its_own() {
        let mut a = DealLog::default();
        assert!(a.is_empty() && a.last().is_none() && a.get(0).is_none());
        for d in 0..3 {
            a.push(deal(d));
        }
        let mut b = a.clone();
        assert!(a.shares(&b));
        b.push(deal(7));
        assert!(!a.shares(&b));
        assert_eq!((a.len(), b.len()), (3, 4));
        assert_eq!(a.iter().map(|d| d.dealer).collect::<Vec<_>>(), [0, 1, 2]);
        assert_eq!(b.iter().map(|d| d.dealer).collect::<Vec<_>>(), [0, 1, 2, 7]);
        assert_eq!(b.get(1).map(|d| d.dealer), Some(1));
        assert_eq!(b.get(3).map(|d| d.dealer), Some(7));
        assert!(b.get(4).is_none());
        assert_eq!(b.last().map(|d| d.dealer), Some(7));
        // The deals before b's own are the same objects, not copies.
        assert!(Arc::ptr_eq(a.get(2).unwrap(), b.get(2).unwrap()));
        let b_deals = b.into_deals();
        assert_eq!(b_deals.iter().map(|d| d.dealer).collect::<Vec<_>>(), [0, 1, 2, 7]);
        assert_eq!(a.into_deals().len(), 3);
    }

    #[test]
    fn a_long_log_drops_without_a_deep_recursion() {
        let mut log = DealLog::default();
        for _ in 0..200_000 {
            log.push(deal(0));
        }
        let copy = log.clone();
        drop(log);
        assert_eq!(copy.len(), 200_000);
    }
}
