//! The search tree of `ismcts`: a node per action sequence from the decision on, whatever the
//! world it was played in; each seat's summed score at every node; and the choice at a node by
//! UCB1 over the actions available there in the current world.

use crate::chance::Rng;

/// One node: the action that leads to it (by the key of its token) and the seat that chose it,
/// how often the walk passed it, and how often it was available at its parent.
struct Node {
    key: u64,
    seat: usize,
    visits: u32,
    available: u32,
    children: Vec<u32>,
}

/// What a walk does at a node: play the legal action at this index, which already has this
/// child, or which has none yet (to be added, and played out from).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Step {
    Descend(usize, u32),
    Expand(usize),
}

/// The tree of one decision. Node 0 is the decision itself.
pub(super) struct Tree {
    players: usize,
    nodes: Vec<Node>,
    /// Every seat's summed score at each node (`players` per node).
    sums: Vec<f64>,
    /// The summed squares of the choosing seat's score at each node (for the spread of a root
    /// action's mean).
    squares: Vec<f64>,
    /// The lowest and highest score seen, to scale the means to [0, 1] for UCB1.
    lo: f64,
    hi: f64,
}

impl Tree {
    pub(super) fn new(players: usize) -> Tree {
        Tree {
            players,
            nodes: vec![Node {
                key: 0,
                seat: 0,
                visits: 0,
                available: 0,
                children: Vec::new(),
            }],
            sums: vec![0.0; players],
            squares: vec![0.0],
            lo: f64::INFINITY,
            hi: f64::NEG_INFINITY,
        }
    }

    /// At `node`, where `seat` chooses among actions whose token keys are `keys`: every child
    /// among them is counted available, and the walk adds a node for an action without one
    /// (drawn at random among those), or else takes the child with the highest UCB1 value for
    /// `seat` (`c` its exploration constant).
    pub(super) fn step(&mut self, node: u32, seat: usize, keys: &[u64], c: f64, rng: &mut Rng) -> Step {
        let mut new = 0usize;
        let mut best: Option<(f64, usize, u32)> = None;
        let (lo, range) = if self.hi > self.lo {
            (self.lo, self.hi - self.lo)
        } else {
            (0.0, 1.0)
        };
        for (i, &key) in keys.iter().enumerate() {
            let Some(child) = self.child(node, key) else {
                new += 1;
                continue;
            };
            let n = &mut self.nodes[child as usize];
            n.available += 1;
            let visits = n.visits.max(1) as f64;
            let mean = (self.sums[child as usize * self.players + seat] / visits - lo) / range;
            let value = mean + c * ((n.available as f64).ln() / visits).sqrt();
            if best.is_none_or(|(b, _, _)| value > b) {
                best = Some((value, i, child));
            }
        }
        if new > 0 {
            let mut k = rng.below(new as u64) as usize;
            for (i, &key) in keys.iter().enumerate() {
                if self.child(node, key).is_none() {
                    if k == 0 {
                        return Step::Expand(i);
                    }
                    k -= 1;
                }
            }
        }
        let (_, i, child) = best.expect("a node's legal actions are never empty");
        Step::Descend(i, child)
    }

    /// Adds the child of `parent` reached by the action with token key `key`, chosen by `seat`.
    pub(super) fn add(&mut self, parent: u32, key: u64, seat: usize) -> u32 {
        let id = self.nodes.len() as u32;
        self.nodes.push(Node {
            key,
            seat,
            visits: 0,
            available: 1,
            children: Vec::new(),
        });
        self.sums.extend(std::iter::repeat_n(0.0, self.players));
        self.squares.push(0.0);
        self.nodes[parent as usize].children.push(id);
        id
    }

    /// Adds a playout's scores (every seat's) to the nodes of its walk.
    pub(super) fn back_up(&mut self, path: &[u32], scores: &[f64]) {
        for &s in scores {
            self.lo = self.lo.min(s);
            self.hi = self.hi.max(s);
        }
        for &node in path {
            let n = &mut self.nodes[node as usize];
            n.visits += 1;
            self.squares[node as usize] += scores[n.seat] * scores[n.seat];
            let at = node as usize * self.players;
            for (sum, s) in self.sums[at..at + self.players].iter_mut().zip(scores) {
                *sum += s;
            }
        }
    }

    /// The root's action the search settles on: the most visited (the most robust), a tie
    /// going to the higher mean. With a `base` action (the playout policy's choice, by key) and
    /// `sure` > 0, that action unless another one's mean is higher by more than `sure` standard
    /// errors of the difference (as `pimc`'s [`choose`](crate::bots::pimc::choose)): then the
    /// most visited of those. `None` before any iteration.
    pub(super) fn best(&self, base: Option<u64>, sure: f64) -> Option<u64> {
        let root = &self.nodes[0];
        let stats = |c: u32| {
            let n = &self.nodes[c as usize];
            let v = n.visits.max(1) as f64;
            let mean = self.sums[c as usize * self.players + n.seat] / v;
            let var = (self.squares[c as usize] / v - mean * mean).max(0.0) * v / (v - 1.0).max(1.0);
            (n.visits, mean, var / v, n.key)
        };
        let all: Vec<_> = root.children.iter().map(|&c| stats(c)).collect();
        let robust = |it: &mut dyn Iterator<Item = &(u32, f64, f64, u64)>| {
            it.max_by(|a, b| a.0.cmp(&b.0).then(a.1.total_cmp(&b.1))).map(|a| a.3)
        };
        let Some(b) = base
            .and_then(|k| all.iter().find(|a| a.3 == k))
            .filter(|b| sure > 0.0 && b.0 >= 2)
        else {
            return robust(&mut all.iter());
        };
        let better = |a: &&(u32, f64, f64, u64)| a.3 != b.3 && a.0 >= 2 && a.1 - b.1 > sure * (a.2 + b.2).sqrt();
        robust(&mut all.iter().filter(better)).or(Some(b.3))
    }

    /// How many nodes the tree holds.
    #[cfg(test)]
    fn len(&self) -> usize {
        self.nodes.len()
    }

    /// How often walks passed `node`.
    pub(super) fn visits(&self, node: u32) -> u32 {
        self.nodes[node as usize].visits
    }

    /// The child of `node` reached by the action with token key `key`, if it has one.
    pub(super) fn child(&self, node: u32, key: u64) -> Option<u32> {
        self.nodes[node as usize]
            .children
            .iter()
            .copied()
            .find(|&c| self.nodes[c as usize].key == key)
    }
}

/// The key of an action token (FNV-1a): an action is the same node in every world where its
/// token is the same.
pub(super) fn key(token: &str) -> u64 {
    token.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ b as u64).wrapping_mul(0x0100_0000_01b3)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chance::Purpose;

    #[test]
    fn every_action_is_tried_once_before_any_twice_then_the_better_one_most() {
        let mut rng = Rng::new(1, Purpose::Bot, 0);
        let mut tree = Tree::new(2);
        let keys = [key("a"), key("b"), key("c")];
        // Seat 0 chooses; action "b" scores 1 for it, the others 0.
        for _ in 0..300 {
            let (i, child) = match tree.step(0, 0, &keys, 0.7, &mut rng) {
                Step::Expand(i) => (i, tree.add(0, keys[i], 0)),
                Step::Descend(i, c) => (i, c),
            };
            let score = if i == 1 { 1.0 } else { 0.0 };
            tree.back_up(&[0, child], &[score, -score]);
            if tree.len() < 4 {
                // Still expanding: each new child is a new action.
                assert_eq!(tree.len() - 1, tree.nodes[0].visits as usize);
            }
        }
        assert_eq!(tree.best(None, 0.0), Some(key("b")));
        let b = tree.child(0, key("b")).unwrap();
        assert!(tree.nodes[b as usize].visits > 200, "{}", tree.nodes[b as usize].visits);
        // "b" is clearly better than "a", so it is kept over a base "a" however sure it must be
        // (its score never varies): but not when nothing is known of "a".
        assert_eq!(tree.best(Some(key("a")), 3.0), Some(key("b")));
        // Seat 1 at the same node would prefer the others: its means are the negatives.
        assert!(matches!(tree.step(0, 1, &keys, 0.0, &mut rng), Step::Descend(i, _) if i != 1));
    }

    #[test]
    fn the_base_action_stays_unless_another_is_surely_better() {
        let mut tree = Tree::new(1);
        let a = tree.add(0, key("a"), 0);
        let b = tree.add(0, key("b"), 0);
        // "b" gains 0.5 on average on "a", with a standard error of about 0.53.
        for i in 0..8 {
            tree.back_up(&[0, a], &[if i % 2 == 0 { 1.0 } else { -1.0 }]);
            tree.back_up(&[0, b], &[if i % 2 == 0 { 1.5 } else { -0.5 }]);
        }
        assert_eq!(tree.best(None, 0.0), Some(key("b")));
        assert_eq!(tree.best(Some(key("a")), 0.9), Some(key("b")));
        assert_eq!(tree.best(Some(key("a")), 1.0), Some(key("a")));
    }

    #[test]
    fn an_action_unavailable_in_a_world_is_not_counted_there() {
        let mut rng = Rng::new(2, Purpose::Bot, 0);
        let mut tree = Tree::new(1);
        let a = tree.add(0, key("a"), 0);
        let b = tree.add(0, key("b"), 0);
        tree.back_up(&[0, a], &[0.0]);
        tree.back_up(&[0, b], &[0.0]);
        tree.step(0, 0, &[key("a")], 0.7, &mut rng);
        assert_eq!(tree.nodes[a as usize].available, 2);
        assert_eq!(tree.nodes[b as usize].available, 1);
        assert_eq!(tree.step(0, 0, &[key("b"), key("c")], 0.7, &mut rng), Step::Expand(1));
    }
}
