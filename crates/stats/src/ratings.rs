//! Ratings of many bots from duplicate deals at different tables: one number per bot on one
//! scale (points per deal and seat relative to a reference bot) with a 95 % interval.
//!
//! The model. A *deal* is one deal seed played by one table (a lineup of bots) under every
//! rotation of the lineup over the seats; a bot's value on the deal, `x[d][b]`, is its mean
//! score per seat over the deal's games, as in `match`. The model is linear:
//!
//! ```text
//! x[d][b] = θ[b] + c[d] + e[d][b]
//! ```
//!
//! `θ[b]` is the bot's strength, `c[d]` what the deal gives every bot at its table (the cards,
//! the table's level, the game's total), `e` the rest. It is fitted by least squares with
//! `θ[reference] = 0`. Eliminating `c[d]` leaves, deal by deal, each bot's value minus the mean
//! of its table's bots on that deal: only differences within a deal count, so the card luck
//! that duplicate rotations cancel stays cancelled, and two bots that never sat together are
//! compared through the bots they both met (the normal equations are the Laplacian of the graph
//! of who sat with whom). The intervals come from cluster-robust standard errors, the deal
//! being the cluster (the games of a deal share its cards and are not independent; deals are):
//! the sandwich `L⁻¹ (Σ_d g_d g_dᵀ) L⁻¹ · G/(G−1)` (CR1, `G` deals) with the t quantile on
//! degrees of freedom that shrink with the kurtosis of the bots' values as `match`'s do
//! ([`crate::stats::dof`]: `G − 1` for normal-looking values, fewer for the zero-heavy,
//! heavy-tailed scores of card games). With two bots this is exactly `match`'s paired
//! difference: the mean of `x[d][a] − x[d][b]` over the deals, with its interval.
//!
//! Memory does not grow with the number of deals: each table keeps the count, the mean and
//! the co-moment matrix of its bots' per-deal values ([`TableMoments`], Welford's update), from
//! which the fit and the sandwich are exact.

use crate::stats::{dof, t_quantile, Summary};

/// The running moments of one table's per-deal values (the same bots on every deal).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TableMoments {
    /// The table's bots (indices into the caller's list), distinct.
    pub bots: Vec<usize>,
    n: u64,
    mean: Vec<f64>,
    /// Σ (x − mean)(x − mean)ᵀ, row-major k × k.
    comoment: Vec<f64>,
    /// Per bot, its values less the table's mean on each deal: their kurtosis sets the degrees
    /// of freedom of the bot's interval (with two bots, the paired difference's halves).
    centred: Vec<Summary>,
}

impl TableMoments {
    pub fn new(bots: Vec<usize>) -> TableMoments {
        let k = bots.len();
        TableMoments {
            bots,
            n: 0,
            mean: vec![0.0; k],
            comoment: vec![0.0; k * k],
            centred: vec![Summary::new(); k],
        }
    }

    /// Adds one deal: `x[j]` is the value of `bots[j]`.
    pub fn push(&mut self, x: &[f64]) {
        let k = self.bots.len();
        debug_assert_eq!(x.len(), k);
        self.n += 1;
        let n = self.n as f64;
        let centre = x.iter().sum::<f64>() / k as f64;
        for (c, xi) in self.centred.iter_mut().zip(x) {
            c.push(xi - centre);
        }
        // x − the mean before this deal (on the stack at the tables of any card game).
        let (mut stack, mut heap) = ([0.0; 16], Vec::new());
        let before: &mut [f64] = if k <= stack.len() {
            &mut stack[..k]
        } else {
            heap.resize(k, 0.0);
            &mut heap
        };
        for ((b, x), m) in before.iter_mut().zip(x).zip(&self.mean) {
            *b = x - m;
        }
        for (m, d) in self.mean.iter_mut().zip(before.iter()) {
            *m += d / n;
        }
        for (i, (xi, mi)) in x.iter().zip(&self.mean).enumerate() {
            let after_i = xi - mi;
            for (c, b) in self.comoment[i * k..(i + 1) * k].iter_mut().zip(before.iter()) {
                *c += after_i * b;
            }
        }
    }

    /// The same moments with each bot `b` renamed `to(b)`, the bots in increasing order (so
    /// that a fit sums in an order that does not depend on how the bots were numbered).
    pub fn renamed(&self, to: impl Fn(usize) -> usize) -> TableMoments {
        let k = self.bots.len();
        let mut idx: Vec<usize> = (0..k).collect();
        idx.sort_by_key(|&i| to(self.bots[i]));
        TableMoments {
            bots: idx.iter().map(|&i| to(self.bots[i])).collect(),
            n: self.n,
            mean: idx.iter().map(|&i| self.mean[i]).collect(),
            comoment: (0..k * k)
                .map(|ij| self.comoment[idx[ij / k] * k + idx[ij % k]])
                .collect(),
            centred: idx.iter().map(|&i| self.centred[i].clone()).collect(),
        }
    }

    /// The number of deals.
    pub fn deals(&self) -> u64 {
        self.n
    }
}

/// A fitted model: ratings relative to the reference and their covariance.
#[derive(Clone, Debug)]
pub struct Fit {
    /// Per bot: θ (0 for the reference), NaN for a bot not connected to the reference by any
    /// chain of tables with deals.
    pub rating: Vec<f64>,
    /// Cluster-robust covariance of the ratings, row-major (0 in the reference's row).
    cov: Vec<f64>,
    /// The number of deals (clusters).
    pub deals: u64,
    pub reference: usize,
    /// Per bot, the kurtosis of its centred values over all its tables (NaN: unknown).
    kurtosis: Vec<f64>,
}

impl Fit {
    /// The standard error of `rating[a] − rating[b]`.
    pub fn stderr_diff(&self, a: usize, b: usize) -> f64 {
        let n = self.rating.len();
        let v = self.cov[a * n + a] + self.cov[b * n + b] - 2.0 * self.cov[a * n + b];
        v.max(0.0).sqrt()
    }

    /// The degrees of freedom of the interval of `rating[a] − rating[b]`: deals − 1, fewer when
    /// either bot's values are heavy-tailed ([`crate::stats::dof`]).
    pub fn dof(&self, a: usize, b: usize) -> f64 {
        let k = [a, b].map(|x| self.kurtosis[x]).into_iter().filter(|k| k.is_finite());
        dof(self.deals, k.fold(f64::NAN, f64::max))
    }

    /// `rating[a] − rating[b]` with its two-sided interval at `level` (t on [`Fit::dof`]
    /// degrees of freedom; unbounded with fewer than two deals, NaN for a bot not compared).
    pub fn diff(&self, a: usize, b: usize, level: f64) -> (f64, f64, f64) {
        let m = self.rating[a] - self.rating[b];
        if !m.is_finite() {
            return (f64::NAN, f64::NAN, f64::NAN);
        }
        if a == b {
            return (0.0, 0.0, 0.0);
        }
        if self.deals < 2 {
            return (m, f64::NEG_INFINITY, f64::INFINITY);
        }
        let se = self.stderr_diff(a, b);
        if se == 0.0 {
            return (m, m, m);
        }
        let h = -t_quantile(0.5 * (1.0 - level), self.dof(a, b)) * se;
        (m, m - h, m + h)
    }

    /// The rating of `b` with its interval at `level` (the reference's is exactly 0).
    pub fn interval(&self, b: usize, level: f64) -> (f64, f64, f64) {
        self.diff(b, self.reference, level)
    }
}

/// Fits the model to the tables' moments: `bots` ratings, `reference` fixed at 0.
pub fn fit(bots: usize, tables: &[TableMoments], reference: usize) -> Fit {
    let free = compared(bots, tables, reference);
    let pos = |b: usize| free.iter().position(|&x| x == b);
    let p = free.len();
    let deals: u64 = tables
        .iter()
        .filter(|t| t.bots.iter().any(|&b| b == reference || pos(b).is_some()))
        .map(|t| t.n)
        .sum();
    let (l, r) = normal_equations(tables, &free);
    let linv = invert_spd(&l, p);
    let theta_free: Vec<f64> = (0..p).map(|i| (0..p).map(|j| linv[i * p + j] * r[j]).sum()).collect();
    let mut rating = vec![f64::NAN; bots];
    rating[reference] = 0.0;
    for (i, &b) in free.iter().enumerate() {
        rating[b] = theta_free[i];
    }
    let meat = meat(tables, &free, &rating);
    let g = deals as f64;
    let small = if deals > 1 { g / (g - 1.0) } else { f64::INFINITY };
    let lm = matmul(&linv, &meat, p);
    let sandwich = matmul(&lm, &linv, p);
    let mut cov = vec![0.0; bots * bots];
    for (i, &a) in free.iter().enumerate() {
        for (j, &b) in free.iter().enumerate() {
            cov[a * bots + b] = sandwich[i * p + j] * small;
        }
    }
    for b in (0..bots).filter(|&b| rating[b].is_nan()) {
        for j in 0..bots {
            cov[b * bots + j] = f64::NAN;
            cov[j * bots + b] = f64::NAN;
        }
    }
    let mut centred = vec![Summary::new(); bots];
    for t in tables {
        for (&b, c) in t.bots.iter().zip(&t.centred) {
            centred[b].merge(c);
        }
    }
    Fit {
        rating,
        cov,
        deals,
        reference,
        kurtosis: centred.iter().map(Summary::kurtosis).collect(),
    }
}

/// The bots other than the reference that are compared with it: connected to it through
/// tables with deals. Their ratings are the model's free parameters, in this order.
fn compared(bots: usize, tables: &[TableMoments], reference: usize) -> Vec<usize> {
    let mut parent: Vec<usize> = (0..bots).collect();
    fn root(p: &mut [usize], mut i: usize) -> usize {
        while p[i] != i {
            p[i] = p[p[i]];
            i = p[i];
        }
        i
    }
    for t in tables.iter().filter(|t| t.n > 0) {
        for w in t.bots.windows(2) {
            let (a, b) = (root(&mut parent, w[0]), root(&mut parent, w[1]));
            parent[a] = b;
        }
    }
    let r0 = root(&mut parent, reference);
    (0..bots)
        .filter(|&b| b != reference && root(&mut parent, b) == r0)
        .collect()
}

/// The normal equations `L θ = r` on the free bots: Σ_t n_t P_t and Σ_t n_t P_t x̄_t, P_t the
/// centring over the table's bots.
fn normal_equations(tables: &[TableMoments], free: &[usize]) -> (Vec<f64>, Vec<f64>) {
    let pos = |b: usize| free.iter().position(|&x| x == b);
    let p = free.len();
    let mut l = vec![0.0; p * p];
    let mut r = vec![0.0; p];
    for t in tables.iter().filter(|t| t.n > 0) {
        let k = t.bots.len();
        let n = t.n as f64;
        let centre = t.mean.iter().sum::<f64>() / k as f64;
        for (i, &bi) in t.bots.iter().enumerate() {
            let Some(pi) = pos(bi) else { continue };
            r[pi] += n * (t.mean[i] - centre);
            for &bj in &t.bots {
                if let Some(pj) = pos(bj) {
                    l[pi * p + pj] += n * (f64::from(u8::from(bi == bj)) - 1.0 / k as f64);
                }
            }
        }
    }
    (l, r)
}

/// The meat of the sandwich: Σ_d g_d g_dᵀ with g_d = P (x_d − θ) on the table's bots, summed
/// per table from its moments: P (C + n (x̄ − θ)(x̄ − θ)ᵀ) P.
fn meat(tables: &[TableMoments], free: &[usize], rating: &[f64]) -> Vec<f64> {
    let pos = |b: usize| free.iter().position(|&x| x == b);
    let p = free.len();
    let mut meat = vec![0.0; p * p];
    for t in tables.iter().filter(|t| t.n > 0) {
        let k = t.bots.len();
        if !t.bots.iter().any(|&b| pos(b).is_some()) {
            continue;
        }
        let n = t.n as f64;
        let d: Vec<f64> = t.bots.iter().zip(&t.mean).map(|(&b, m)| m - rating[b]).collect();
        let mut s: Vec<f64> = (0..k * k)
            .map(|ij| t.comoment[ij] + n * d[ij / k] * d[ij % k])
            .collect();
        centre_both(&mut s, k);
        for (i, &bi) in t.bots.iter().enumerate() {
            let Some(pi) = pos(bi) else { continue };
            for (j, &bj) in t.bots.iter().enumerate() {
                if let Some(pj) = pos(bj) {
                    meat[pi * p + pj] += s[i * k + j];
                }
            }
        }
    }
    meat
}

/// `P S P` in place, P = I − J/k: rows and columns centred.
fn centre_both(s: &mut [f64], k: usize) {
    for i in 0..k {
        let m = s[i * k..(i + 1) * k].iter().sum::<f64>() / k as f64;
        s[i * k..(i + 1) * k].iter_mut().for_each(|x| *x -= m);
    }
    for j in 0..k {
        let m = (0..k).map(|i| s[i * k + j]).sum::<f64>() / k as f64;
        (0..k).for_each(|i| s[i * k + j] -= m);
    }
}

fn matmul(a: &[f64], b: &[f64], p: usize) -> Vec<f64> {
    let mut c = vec![0.0; p * p];
    for i in 0..p {
        for k in 0..p {
            let x = a[i * p + k];
            for j in 0..p {
                c[i * p + j] += x * b[k * p + j];
            }
        }
    }
    c
}

/// The inverse of a symmetric positive definite `p × p` matrix (Gauss–Jordan with partial
/// pivoting; the Laplacian of a connected graph with one node removed is positive definite).
fn invert_spd(a: &[f64], p: usize) -> Vec<f64> {
    let mut m = a.to_vec();
    let mut inv: Vec<f64> = (0..p * p).map(|ij| f64::from(u8::from(ij / p == ij % p))).collect();
    for c in 0..p {
        let piv = (c..p)
            .max_by(|&x, &y| m[x * p + c].abs().total_cmp(&m[y * p + c].abs()))
            .expect("a row");
        for j in 0..p {
            m.swap(c * p + j, piv * p + j);
            inv.swap(c * p + j, piv * p + j);
        }
        let d = m[c * p + c];
        for j in 0..p {
            m[c * p + j] /= d;
            inv[c * p + j] /= d;
        }
        for i in (0..p).filter(|&i| i != c) {
            let f = m[i * p + c];
            if f != 0.0 {
                for j in 0..p {
                    m[i * p + j] -= f * m[c * p + j];
                    inv[i * p + j] -= f * inv[c * p + j];
                }
            }
        }
    }
    inv
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::Summary;

    fn table(bots: &[usize], deals: &[Vec<f64>]) -> TableMoments {
        let mut t = TableMoments::new(bots.to_vec());
        for d in deals {
            t.push(d);
        }
        t
    }

    #[test]
    fn two_bots_give_the_paired_difference_and_its_t_interval() {
        let smooth: Vec<Vec<f64>> = (0..25)
            .map(|i| {
                let x = (i as f64 * 0.7).sin() * 4.0;
                vec![x + 1.0 + (i as f64 * 1.3).cos(), -x]
            })
            .collect();
        // Zero-heavy with rare large losses, as card games score: the kurtosis lowers the
        // degrees of freedom, the same way in both.
        let heavy: Vec<Vec<f64>> = (0..40)
            .map(|i| match i % 13 {
                0 => vec![-15.0, 3.0],
                5 => vec![1.0, 0.0],
                _ => vec![2.0, 2.0],
            })
            .collect();
        for deals in [smooth, heavy] {
            let f = fit(2, &[table(&[0, 1], &deals)], 0);
            let diffs: Summary = deals.iter().map(|d| d[1] - d[0]).collect();
            let (lo, hi) = diffs.ci(0.95);
            let (m, a, b) = f.interval(1, 0.95);
            assert!((m - diffs.mean()).abs() < 1e-12, "{m} {}", diffs.mean());
            assert!(
                (a - lo).abs() < 1e-9 && (b - hi).abs() < 1e-9,
                "[{a}, {b}] vs [{lo}, {hi}]"
            );
            assert!(
                (f.dof(1, 0) - diffs.dof()).abs() < 1e-9,
                "{} vs {}",
                f.dof(1, 0),
                diffs.dof()
            );
            assert_eq!(f.interval(0, 0.95), (0.0, 0.0, 0.0));
        }
    }

    #[test]
    fn bots_that_never_met_are_compared_through_the_others() {
        // True strengths 0, 1, 2, 3; tables {0,1,2}, {1,2,3}: 0 and 3 never meet. Per-deal
        // noise is a deal effect (cancels) plus a small bot-level wobble.
        let theta = [0.0, 1.0, 2.0, 3.0];
        let mk = |bots: &[usize], salt: f64| {
            let deals: Vec<Vec<f64>> = (0..200)
                .map(|i| {
                    let c = (i as f64 * salt).sin() * 10.0;
                    bots.iter()
                        .enumerate()
                        .map(|(j, &b)| theta[b] + c + 0.3 * ((i * 7 + j * 3) as f64).sin())
                        .collect()
                })
                .collect();
            table(bots, &deals)
        };
        let f = fit(4, &[mk(&[0, 1, 2], 0.9), mk(&[1, 2, 3], 1.7)], 0);
        for (b, truth) in theta.iter().enumerate() {
            let (m, lo, hi) = f.interval(b, 0.95);
            assert!((m - truth).abs() < 0.1, "bot {b}: {m}");
            assert!(b == 0 || (lo < m && m < hi && hi - lo < 0.3), "bot {b}: [{lo}, {hi}]");
        }
        let (d, lo, hi) = f.diff(3, 0, 0.95);
        assert!((d - 3.0).abs() < 0.1 && lo < d && d < hi);
        assert_eq!(f.deals, 400);
    }

    #[test]
    fn a_bot_at_no_table_with_deals_is_not_rated() {
        let t = table(&[0, 1], &[vec![1.0, 0.0], vec![2.0, 0.0], vec![1.5, 0.5]]);
        let f = fit(3, &[t, TableMoments::new(vec![1, 2])], 0);
        assert!(f.rating[1].is_finite());
        assert!(f.rating[2].is_nan());
        assert!(f.interval(2, 0.95).0.is_nan());
    }

    #[test]
    fn renamed_moments_are_the_moments_of_the_renamed_deals() {
        let deals = [vec![1.0, 2.0, 0.5], vec![3.0, 0.0, 1.0], vec![2.0, 4.0, -1.0]];
        let t = table(&[7, 3, 5], &deals);
        // 7 → 0, 3 → 2, 5 → 1: the bots in order 0 (was 7), 1 (was 5), 2 (was 3).
        let r = t.renamed(|b| [0, 0, 0, 2, 0, 1, 0, 0][b]);
        let by_hand = table(
            &[0, 1, 2],
            &deals.iter().map(|d| vec![d[0], d[2], d[1]]).collect::<Vec<_>>(),
        );
        assert_eq!(r, by_hand);
    }

    #[test]
    fn moments_are_those_of_the_deals() {
        let t = table(&[3, 5], &[vec![1.0, 2.0], vec![3.0, 0.0], vec![2.0, 4.0]]);
        assert_eq!(t.deals(), 3);
        assert!((t.mean[0] - 2.0).abs() < 1e-12 && (t.mean[1] - 2.0).abs() < 1e-12);
        // Σ (x0 − 2)(x1 − 2) = (−1)(0) + (1)(−2) + 0·2 = −2.
        assert!((t.comoment[1] + 2.0).abs() < 1e-12 && (t.comoment[2] + 2.0).abs() < 1e-12);
        assert!((t.comoment[0] - 2.0).abs() < 1e-12 && (t.comoment[3] - 8.0).abs() < 1e-12);
    }
}
