//! [`Few`]: a list of at most `N` small `Copy` values in an array, for game states that search
//! clones by the million (no heap, `Copy` itself).

/// A list of at most `N` `Copy` values, stored inline. Pushing past `N` panics.
#[derive(Clone, Copy, Debug)]
pub struct Few<T: Copy, const N: usize> {
    items: [T; N],
    len: usize,
}

impl<T: Copy, const N: usize> Few<T, N> {
    /// An empty list; `fill` only initialises the unused slots.
    pub fn new(fill: T) -> Self {
        Few {
            items: [fill; N],
            len: 0,
        }
    }
    pub fn push(&mut self, x: T) {
        self.items[self.len] = x;
        self.len += 1;
    }
    /// Pushes unless the list is full, dropping `x` then (a seat view fed lines no engine
    /// writes: dropped, not a panic).
    pub fn push_unless_full(&mut self, x: T) {
        if self.len < N {
            self.push(x);
        }
    }
    pub fn clear(&mut self) {
        self.len = 0;
    }
    pub fn len(&self) -> usize {
        self.len
    }
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    pub fn as_slice(&self) -> &[T] {
        &self.items[..self.len]
    }
    pub fn as_mut_slice(&mut self) -> &mut [T] {
        &mut self.items[..self.len]
    }
    pub fn iter(&self) -> std::slice::Iter<'_, T> {
        self.as_slice().iter()
    }
    pub fn first(&self) -> Option<&T> {
        self.as_slice().first()
    }
    pub fn last(&self) -> Option<&T> {
        self.as_slice().last()
    }
    /// Keeps the elements for which `keep` is true, in order.
    pub fn retain(&mut self, mut keep: impl FnMut(T) -> bool) {
        let mut k = 0;
        for i in 0..self.len {
            if keep(self.items[i]) {
                self.items[k] = self.items[i];
                k += 1;
            }
        }
        self.len = k;
    }
    /// Removes the first element, shifting the rest.
    pub fn remove_first(&mut self) -> T {
        assert!(self.len > 0, "remove_first of an empty Few");
        let x = self.items[0];
        self.items.copy_within(1..self.len, 0);
        self.len -= 1;
        x
    }
}

impl<T: Copy, const N: usize> std::ops::Deref for Few<T, N> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        self.as_slice()
    }
}

impl<T: Copy, const N: usize> std::ops::Index<usize> for Few<T, N> {
    type Output = T;
    fn index(&self, i: usize) -> &T {
        &self.as_slice()[i]
    }
}

#[cfg(test)]
mod tests {
    use super::Few;

    #[test]
    fn a_few_is_a_small_list() {
        let mut f: Few<u8, 3> = Few::new(0);
        assert!(f.is_empty());
        f.push(1);
        f.push(2);
        f.push(3);
        assert_eq!(
            (f.as_slice(), f.len(), f.first(), f.last()),
            (&[1, 2, 3][..], 3, Some(&1), Some(&3))
        );
        let g = f; // Copy
        assert_eq!(f.remove_first(), 1);
        assert_eq!(f.as_slice(), &[2, 3]);
        assert_eq!(g.as_slice(), &[1, 2, 3]);
        f.as_mut_slice()[0] = 9;
        assert_eq!(f.iter().copied().collect::<Vec<_>>(), vec![9, 3]);
        f.push(4);
        f.retain(|x| x != 3);
        assert_eq!(f.as_slice(), &[9, 4]);
        f.clear();
        assert!(f.is_empty());
    }

    #[test]
    #[should_panic]
    fn pushing_past_its_size_panics() {
        let mut f: Few<u8, 1> = Few::new(0);
        f.push(1);
        f.push(2);
    }
}
