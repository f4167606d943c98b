//! Statistics for comparing bots over many games.
//!
//! The distributions come from libraries: statrs's normal and Student t distributions, and
//! `libm`'s erfc for the normal cdf. [`normal_cdf`], [`normal_quantile`], [`t_cdf`] and
//! [`t_quantile`] wrap them with croupier's conventions (below) and guard the regimes where
//! statrs is measurably inexact (see [`t_quantile`]). croupier's own logic is the rest: a running
//! [`Summary`] (Welford, mergeable with Chan's formula) with t confidence intervals, paired
//! (duplicate-deal) differences ([`paired`]), and the [`Decision`] of a sequential test (compare's
//! is in [`crate::sequential`]).
//!
//! Conventions:
//! * Comparisons are made on per-deal paired differences `a - b`: the same deal played by
//!   bot A and by bot B (seats swapped), so most of the luck of the deal cancels.
//! * Functions never panic on odd numeric input; they return NaN for NaN input or an
//!   invalid parameter (e.g. `df <= 0`), and ±∞ at the ends of the range (quantile of 0 or 1).
//! * Formatting uses two decimals and always shows the sign of the mean (`+0.42`).

use serde::{Deserialize, Serialize};
use statrs::distribution::{Continuous, ContinuousCDF, Normal, StudentsT};

// ---------------------------------------------------------------------------------------------
// Normal distribution
// ---------------------------------------------------------------------------------------------

/// Standard normal cumulative distribution function Φ(x); NaN for NaN.
///
/// Φ(x) = erfc(-x / √2) / 2 with `libm`'s erfc (correct to an ulp; statrs's erfc is off by up
/// to ~5e-11 relative, which the reference values below would notice).
pub fn normal_cdf(x: f64) -> f64 {
    0.5 * libm::erfc(-x / std::f64::consts::SQRT_2)
}

/// Standard normal density φ(x).
pub fn normal_pdf(x: f64) -> f64 {
    Normal::standard().pdf(x)
}

/// Standard normal quantile Φ⁻¹(p). Returns -∞ for p = 0, +∞ for p = 1, NaN outside [0, 1].
pub fn normal_quantile(p: f64) -> f64 {
    if p.is_nan() || !(0.0..=1.0).contains(&p) {
        return f64::NAN;
    }
    if p > 0.5 {
        // 1 - p is exact for p in [0.5, 1]: work in the lower tail.
        return -normal_quantile(1.0 - p);
    }
    Normal::standard().inverse_cdf(p)
}

// ---------------------------------------------------------------------------------------------
// Student t distribution
// ---------------------------------------------------------------------------------------------

/// Degrees of freedom above which the t distribution is replaced by the normal.
const T_NORMAL_DF: f64 = 1e6;
/// Degrees of freedom from which [`t_quantile`] uses the Cornish–Fisher expansion (exact to
/// rounding there; statrs's inverse loses up to 1e-5 relative for df ≥ 1e4).
const T_EXPANSION_DF: f64 = 1e3;

/// The t distribution with `df` degrees of freedom, `None` for NaN or `df` ≤ 0.
fn students_t(df: f64) -> Option<StudentsT> {
    StudentsT::new(0.0, 1.0, df).ok()
}

/// Student t density with `df` degrees of freedom (NaN for NaN input or `df` ≤ 0).
pub fn t_pdf(t: f64, df: f64) -> f64 {
    if t.is_nan() {
        return f64::NAN;
    }
    if df > T_NORMAL_DF {
        return normal_pdf(t);
    }
    students_t(df).map_or(f64::NAN, |d| d.pdf(t))
}

/// Student t cumulative distribution function P(T ≤ t) with `df` > 0 degrees of freedom
/// (real `df` allowed). For `df` > 1e6 (or ∞) the normal distribution is used. NaN for NaN
/// input or `df` ≤ 0.
pub fn t_cdf(t: f64, df: f64) -> f64 {
    let Some(d) = students_t(df) else { return f64::NAN };
    if t.is_nan() {
        return f64::NAN;
    }
    if df > T_NORMAL_DF {
        return normal_cdf(t);
    }
    // The lower tail directly, the upper one by symmetry: full relative accuracy in the lower
    // tail, and F(t) + F(-t) = 1 to rounding.
    if t > 0.0 {
        1.0 - d.cdf(-t)
    } else {
        d.cdf(t)
    }
}

/// Student t quantile: the `t` with `t_cdf(t, df) = p`. For `df` > 1e6 the normal quantile
/// is used. Returns ∓∞ for p = 0 / 1, NaN for p outside [0, 1], NaN input or `df` ≤ 0.
///
/// statrs's inverse is the starting point; it is polished by Newton steps on ln F(t) in
/// ln |t| (a power-law tail is linear there), which repairs its far tails for df ≤ 1. From
/// df = 1000 on, the Cornish–Fisher expansion around the normal quantile is used instead.
pub fn t_quantile(p: f64, df: f64) -> f64 {
    let Some(d) = students_t(df) else { return f64::NAN };
    if p.is_nan() || !(0.0..=1.0).contains(&p) {
        return f64::NAN;
    }
    if df > T_NORMAL_DF {
        return normal_quantile(p);
    }
    if p == 0.0 {
        return f64::NEG_INFINITY;
    }
    if p == 1.0 {
        return f64::INFINITY;
    }
    if p == 0.5 {
        return 0.0;
    }
    if p > 0.5 {
        return -t_quantile(1.0 - p, df);
    }
    // Lower tail from here: the answer is negative.
    if df >= T_EXPANSION_DF {
        let z = normal_quantile(p);
        let (z3, z5, z7, z9) = (z.powi(3), z.powi(5), z.powi(7), z.powi(9));
        let g1 = (z3 + z) / 4.0;
        let g2 = (5.0 * z5 + 16.0 * z3 + 3.0 * z) / 96.0;
        let g3 = (3.0 * z7 + 19.0 * z5 + 17.0 * z3 - 15.0 * z) / 384.0;
        let g4 = (79.0 * z9 + 776.0 * z7 + 1482.0 * z5 - 1920.0 * z3 - 945.0 * z) / 92160.0;
        return z + g1 / df + g2 / df.powi(2) + g3 / df.powi(3) + g4 / df.powi(4);
    }
    let mut t = d.inverse_cdf(p);
    if !(t.is_finite() && t < 0.0) {
        return t;
    }
    let ln_p = p.ln();
    for _ in 0..100 {
        let f = d.cdf(t);
        let dens = d.pdf(t);
        if !(f > 0.0 && dens > 0.0) {
            break;
        }
        // u = ln(-t); d ln F / du = f(t) t / F(t).
        let step = (f.ln() - ln_p) * f / (dens * t);
        let next = t * (-step).exp();
        if !next.is_finite() || next >= 0.0 {
            break;
        }
        let done = (next - t).abs() <= 1e-15 * t.abs();
        t = next;
        if done {
            break;
        }
    }
    t
}

// ---------------------------------------------------------------------------------------------
// Summary
// ---------------------------------------------------------------------------------------------

/// The degrees of freedom of a t interval over `n` values of sample kurtosis `kurtosis`
/// (NaN: unknown, taken as normal): see [`Summary::dof`], which this computes.
pub fn dof(n: u64, kurtosis: f64) -> f64 {
    let n1 = n.saturating_sub(1) as f64;
    if !kurtosis.is_finite() {
        return n1;
    }
    let k = 3.0 + 3.0 * (kurtosis - 3.0).max(0.0);
    (2.0 * n1 / (k - 1.0)).clamp(1.0_f64.min(n1), n1)
}

/// Running summary of a sample: count, mean and the sums of the 2nd, 3rd and 4th powers of
/// the deviations (Welford's update, extended by Terriberry), min and max. Mergeable
/// ([`Summary::merge`], Chan et al. and Pébay), so per-thread or per-file summaries can be
/// combined exactly. Serializes to plain finite numbers (min/max are 0 while empty).
///
/// Its interval ([`Summary::ci`]) is Student's t with degrees of freedom that shrink with the
/// sample's kurtosis ([`Summary::dof`]): the per-deal scores of card games are zero-heavy and
/// heavy-tailed, and a plain t interval then covers far less than it says (84 % for a nominal
/// 95 % over 20 Rikken deals). See [`Summary::dof`] for the measurements.
///
/// Undefined statistics: [`mean`](Summary::mean) is NaN when empty;
/// [`variance`](Summary::variance) and [`sd`](Summary::sd) are NaN for n < 2;
/// [`stderr`](Summary::stderr) is +∞ and [`ci`](Summary::ci) is (-∞, +∞) for n < 2
/// (one observation says nothing about the spread, so the interval is unbounded).
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
pub struct Summary {
    count: u64,
    mean: f64,
    m2: f64,
    /// Sums of the 3rd and 4th powers of the deviations (absent in summaries written before
    /// they were kept: then the kurtosis reads as a normal sample's).
    #[serde(default)]
    m3: f64,
    #[serde(default)]
    m4: f64,
    min: f64,
    max: f64,
}

impl Summary {
    /// An empty summary.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds one observation (Welford's update, with Terriberry's for the 3rd and 4th moments).
    pub fn push(&mut self, x: f64) {
        if self.count == 0 {
            self.min = x;
            self.max = x;
        } else {
            self.min = self.min.min(x);
            self.max = self.max.max(x);
        }
        let n1 = self.count as f64;
        self.count += 1;
        let n = self.count as f64;
        let delta = x - self.mean;
        let dn = delta / n;
        let term = delta * dn * n1;
        self.mean += dn;
        self.m4 += term * dn * dn * (n * n - 3.0 * n + 3.0) + 6.0 * dn * dn * self.m2 - 4.0 * dn * self.m3;
        self.m3 += term * dn * (n - 2.0) - 3.0 * dn * self.m2;
        self.m2 += term;
    }

    /// Adds all observations of `other` (Chan's parallel formula); the result equals pushing
    /// them one by one, up to rounding.
    pub fn merge(&mut self, other: &Summary) {
        if other.count == 0 {
            return;
        }
        if self.count == 0 {
            *self = other.clone();
            return;
        }
        let na = self.count as f64;
        let nb = other.count as f64;
        let n = na + nb;
        let delta = other.mean - self.mean;
        let (d2, ab) = (delta * delta, na * nb);
        self.mean += delta * nb / n;
        self.m4 += other.m4
            + d2 * d2 * ab * (na * na - ab + nb * nb) / (n * n * n)
            + 6.0 * d2 * (na * na * other.m2 + nb * nb * self.m2) / (n * n)
            + 4.0 * delta * (na * other.m3 - nb * self.m3) / n;
        self.m3 += other.m3 + d2 * delta * ab * (na - nb) / (n * n) + 3.0 * delta * (na * other.m2 - nb * self.m2) / n;
        self.m2 += other.m2 + d2 * ab / n;
        self.count += other.count;
        self.min = self.min.min(other.min);
        self.max = self.max.max(other.max);
    }

    /// Number of observations.
    pub fn n(&self) -> u64 {
        self.count
    }

    /// Sample mean (NaN when empty).
    pub fn mean(&self) -> f64 {
        if self.count == 0 {
            f64::NAN
        } else {
            self.mean
        }
    }

    /// Sample variance with divisor n - 1 (NaN for n < 2).
    pub fn variance(&self) -> f64 {
        if self.count < 2 {
            f64::NAN
        } else {
            self.m2.max(0.0) / (self.count - 1) as f64
        }
    }

    /// Sample standard deviation (NaN for n < 2).
    pub fn sd(&self) -> f64 {
        self.variance().sqrt()
    }

    /// Standard error of the mean, sd / √n (+∞ for n < 2).
    pub fn stderr(&self) -> f64 {
        if self.count < 2 {
            f64::INFINITY
        } else {
            (self.variance() / self.count as f64).sqrt()
        }
    }

    /// Smallest observation (`None` when empty).
    pub fn min(&self) -> Option<f64> {
        (self.count > 0).then_some(self.min)
    }

    /// Largest observation (`None` when empty).
    pub fn max(&self) -> Option<f64> {
        (self.count > 0).then_some(self.max)
    }

    /// The sample kurtosis m4 / m2² (3 for normal data; NaN for n < 2 or equal observations).
    pub fn kurtosis(&self) -> f64 {
        if self.count < 2 || self.m2 <= 0.0 {
            return f64::NAN;
        }
        self.count as f64 * self.m4.max(0.0) / (self.m2 * self.m2)
    }

    /// The degrees of freedom of the interval's t quantile: n − 1 for a sample that looks
    /// normal, fewer the heavier its tails.
    ///
    /// The sample variance of data with kurtosis κ varies as if it had 2(n − 1)/(κ − 1)
    /// degrees of freedom instead of n − 1 (Var s² ≈ (κ − 1)σ⁴/n; the normal κ = 3 gives
    /// n − 1 back). The sample's own kurtosis κ̂ is biased low in heavy-tailed samples (in
    /// 20 values it cannot exceed about 20 however rare the large ones are), so the excess
    /// is counted three times: κ′ = 3 + 3·max(κ̂ − 3, 0), df = 2(n − 1)/(κ′ − 1), between 1 and
    /// n − 1.
    ///
    /// Measured (bench/calibrate.sh, BENCHMARKS.md "The intervals"): per-deal differences of
    /// every game resampled 4,000 times, nominal 95 %. Rikken at 20 / 100 / 1,000 deals:
    /// plain t 84 / 93 / 94 %, this 93 / 97 / 95 %; Zwikken 91 / 94 / 93 % → 93 / 96 / 95 %;
    /// Kul and Schwimmen (near normal) unchanged at 95 %. The factor 3 was chosen among 1–4 on
    /// those resamplings (deals of seed 900001): 1 left Rikken at 88 % over 20 deals, 4 over-
    /// covered at 100 (98 %).
    pub fn dof(&self) -> f64 {
        dof(self.count, self.kurtosis())
    }

    /// Half-width of the two-sided t confidence interval at `level` (e.g. 0.95):
    /// t_{(1+level)/2, df} · stderr with df from [`Summary::dof`]. +∞ for n < 2; 0 when all
    /// observations are equal.
    pub fn half_width(&self, level: f64) -> f64 {
        if self.count < 2 {
            return f64::INFINITY;
        }
        let se = self.stderr();
        if se == 0.0 {
            return 0.0;
        }
        // Lower-tail quantile of (1 - level) / 2, negated: no cancellation near level = 1.
        -t_quantile(0.5 * (1.0 - level), self.dof()) * se
    }

    /// Two-sided t confidence interval for the mean at `level` (e.g. 0.95).
    /// (-∞, +∞) for n < 2 (documented choice: no NaN, just no information). `level` should be
    /// in (0, 1): 0 gives the point (mean, mean), 1 gives (-∞, +∞), anything else NaN.
    pub fn ci(&self, level: f64) -> (f64, f64) {
        if self.count < 2 {
            return (f64::NEG_INFINITY, f64::INFINITY);
        }
        let h = self.half_width(level);
        (self.mean - h, self.mean + h)
    }

    /// `"+1.23 ± 0.45"`: the mean and the half-width of the `level` t interval, two decimals
    /// (`"+1.00 ± inf"` for a single observation, `"n/a"` when empty).
    pub fn fmt_ci(&self, level: f64) -> String {
        if self.count == 0 {
            return "n/a".to_string();
        }
        format!("{:+.2} ± {:.2}", self.mean, self.half_width(level))
    }
}

impl Extend<f64> for Summary {
    fn extend<I: IntoIterator<Item = f64>>(&mut self, iter: I) {
        for x in iter {
            self.push(x);
        }
    }
}

impl FromIterator<f64> for Summary {
    fn from_iter<I: IntoIterator<Item = f64>>(iter: I) -> Self {
        let mut s = Summary::new();
        s.extend(iter);
        s
    }
}

/// Summary of the paired differences `a[i] - b[i]` (duplicate deals: `a[i]` and `b[i]` are
/// the two bots' scores on the same deal).
///
/// # Panics
/// If the slices have different lengths (the pairing would be meaningless).
pub fn paired(a: &[f64], b: &[f64]) -> Summary {
    assert_eq!(a.len(), b.len(), "paired: samples of different lengths");
    a.iter().zip(b).map(|(x, y)| x - y).collect()
}

/// `"+0.42 [+0.10, +0.74]"`: a point estimate and an interval, two decimals, signs shown.
pub fn fmt_interval(mean: f64, lo: f64, hi: f64) -> String {
    format!("{mean:+.2} [{lo:+.2}, {hi:+.2}]")
}

// ---------------------------------------------------------------------------------------------
// Decisions
// ---------------------------------------------------------------------------------------------

/// Outcome of a sequential test so far.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// H1 accepted: the mean is plausibly ≥ `upper`, the test passes.
    AcceptUpper,
    /// H0 accepted: the mean is plausibly ≤ `lower`, the test fails.
    AcceptLower,
    /// Not enough evidence yet: play more deals.
    Continue,
}

// ---------------------------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------------------------

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{RngCore, SeedableRng};
    use rand_chacha::ChaCha8Rng;
    // The special functions the distributions rest on, checked against reference values.
    use libm::erfc;
    use statrs::function::{beta::ln_beta, gamma::ln_gamma};
    use std::f64::consts::PI;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol * b.abs().max(1.0)
    }

    macro_rules! assert_close {
        ($a:expr, $b:expr, $tol:expr) => {{
            let (a, b) = ($a, $b);
            assert!(close(a, b, $tol), "{} = {a:e}, expected {b:e}", stringify!($a));
        }};
    }

    /// Standard normals by Box–Muller from raw 64-bit outputs (independent of `rand`'s
    /// distribution code).
    struct Normals {
        rng: ChaCha8Rng,
        spare: Option<f64>,
    }

    impl Normals {
        fn new(seed: u64) -> Self {
            Normals {
                rng: ChaCha8Rng::seed_from_u64(seed),
                spare: None,
            }
        }

        fn uniform(&mut self) -> f64 {
            // In (0, 1]: 53 random bits.
            ((self.rng.next_u64() >> 11) + 1) as f64 * (1.0 / (1u64 << 53) as f64)
        }

        fn next(&mut self) -> f64 {
            if let Some(z) = self.spare.take() {
                return z;
            }
            let r = (-2.0 * self.uniform().ln()).sqrt();
            let th = 2.0 * PI * self.uniform();
            self.spare = Some(r * th.sin());
            r * th.cos()
        }
    }

    #[test]
    fn special_functions() {
        assert_close!(ln_gamma(1.0), 0.0, 1e-15);
        assert_close!(ln_gamma(0.5), 0.5 * PI.ln(), 1e-15);
        assert_close!(ln_gamma(10.0), (362_880.0f64).ln(), 1e-14);
        assert_close!(ln_gamma(100.0), 359.134_205_369_575_4, 1e-14);
        // ln B agrees with ln Γ where an implementation might switch formulas.
        for &(a, b) in &[(10.0, 0.5), (12.5, 0.5), (30.0, 2.0), (0.5, 15.0)] {
            let direct = ln_gamma(a) + ln_gamma(b) - ln_gamma(a + b);
            assert_close!(ln_beta(a, b), direct, 1e-13);
        }
        // erfc: reference values.
        assert_close!(erfc(0.5), 0.479_500_122_186_953_5, 1e-15);
        assert_close!(erfc(1.5), 0.033_894_853_524_689_27, 1e-15);
        assert!((erfc(5.0) / 1.537_459_794_428_034_8e-12 - 1.0).abs() < 1e-13);
        assert_close!(erfc(-1.0), 1.842_700_792_949_715, 1e-15);
    }

    #[test]
    fn normal_reference_values() {
        assert_close!(normal_cdf(0.0), 0.5, 1e-15);
        assert_close!(normal_cdf(1.96), 0.975_002_104_851_780, 1e-12);
        assert_close!(normal_cdf(-1.96), 0.024_997_895_148_220_4, 1e-12);
        assert_close!(normal_cdf(1.0), 0.841_344_746_068_542_9, 1e-12);
        // Tail: relative accuracy. Φ(-10) = 7.619853024160527e-24.
        let tail = normal_cdf(-10.0);
        assert!((tail / 7.619_853_024_160_527e-24 - 1.0).abs() < 1e-10, "{tail:e}");
        assert_close!(normal_quantile(0.975), 1.959_963_984_540_054, 1e-12);
        assert_close!(normal_quantile(0.5), 0.0, 1e-15);
        assert_close!(normal_quantile(0.995), 2.575_829_303_548_901, 1e-12);
        assert_close!(normal_quantile(0.001), -3.090_232_306_167_813_5, 1e-12);
        assert_close!(normal_quantile(1e-10), -6.361_340_902_404_056, 1e-11);
        assert_eq!(normal_quantile(0.0), f64::NEG_INFINITY);
        assert_eq!(normal_quantile(1.0), f64::INFINITY);
        assert!(normal_quantile(1.5).is_nan());
        assert!(normal_quantile(f64::NAN).is_nan());
        assert!(normal_cdf(f64::NAN).is_nan());
    }

    #[test]
    fn normal_roundtrip() {
        for &p in &[
            1e-300, 1e-12, 1e-5, 0.01, 0.02425, 0.1, 0.3, 0.5, 0.7, 0.9, 0.99, 0.999_9,
        ] {
            let x = normal_quantile(p);
            let back = normal_cdf(x);
            assert!((back / p - 1.0).abs() < 1e-9, "p {p:e}: x {x} back {back:e}");
        }
        // Lower half (Φ has full relative accuracy there); the upper half by symmetry.
        for i in -370..=0 {
            let x = i as f64 * 0.1;
            let p = normal_cdf(x);
            assert_close!(normal_quantile(p), x, 1e-12);
            assert_close!(normal_cdf(-x), 1.0 - p, 1e-15);
        }
    }

    #[test]
    fn t_reference_values() {
        assert_close!(t_quantile(0.975, 10.0), 2.228_138_851_986_274, 1e-10);
        assert_close!(t_quantile(0.975, 1.0), 12.706_204_736_174_7, 1e-10);
        assert_close!(t_quantile(0.975, 2.0), 4.302_652_729_749_464, 1e-10);
        assert_close!(t_quantile(0.995, 5.0), 4.032_142_983_557_536, 1e-10);
        assert_close!(t_quantile(0.975, 19.0), 2.093_024_054_408_263, 1e-10);
        assert_close!(t_quantile(0.025, 30.0), -2.042_272_456_301_238, 1e-10);
        assert_close!(t_cdf(2.228_138_851_986_274, 10.0), 0.975, 1e-12);
        assert_eq!(t_quantile(0.5, 7.0), 0.0);
        assert_eq!(t_cdf(0.0, 7.0), 0.5);
        // Closed forms: df = 1 (Cauchy) and df = 2.
        for &t in &[-50.0, -3.0, -0.5, 0.1, 1.0, 4.0, 200.0] {
            assert_close!(t_cdf(t, 1.0), 0.5 + f64::atan(t) / PI, 1e-12);
            assert_close!(t_cdf(t, 2.0), 0.5 + t / (2.0 * (2.0 + t * t).sqrt()), 1e-12);
        }
        for &p in &[1e-6, 0.01, 0.2, 0.45] {
            assert_close!(t_quantile(p, 1.0), -1.0 / (PI * p).tan(), 1e-10);
        }
        // Large df: close to the normal; beyond 1e6, exactly the normal.
        // Cornish–Fisher: t ≈ z + (z³ + z) / 4v + (5z⁵ + 16z³ + 3z) / 96v² + O(v⁻³).
        let (z, v) = (normal_quantile(0.975), 1e5);
        let cf = z + (z.powi(3) + z) / (4.0 * v) + (5.0 * z.powi(5) + 16.0 * z.powi(3) + 3.0 * z) / (96.0 * v * v);
        assert_close!(t_quantile(0.975, v), cf, 1e-12);
        assert_eq!(t_quantile(0.975, 1e7), normal_quantile(0.975));
        assert_eq!(t_quantile(0.975, f64::INFINITY), normal_quantile(0.975));
        assert!(t_cdf(1.0, 0.0).is_nan());
        assert!(t_quantile(0.3, -1.0).is_nan());
        assert_eq!(t_cdf(f64::INFINITY, 3.0), 1.0);
        assert_eq!(t_cdf(f64::NEG_INFINITY, 3.0), 0.0);
    }

    #[test]
    fn t_symmetry_and_roundtrip() {
        for &df in &[0.5, 1.0, 1.5, 2.0, 3.0, 7.5, 19.0, 100.0, 12_345.0] {
            for &t in &[0.01, 0.3, 1.0, 2.5, 10.0, 1e3] {
                let s = t_cdf(t, df) + t_cdf(-t, df);
                assert!((s - 1.0).abs() < 1e-14, "df {df} t {t}: {s}");
            }
            let mut prev = f64::NEG_INFINITY;
            for &p in &[1e-9, 1e-4, 0.01, 0.025, 0.1, 0.3, 0.49, 0.5, 0.51, 0.9, 0.975, 0.999] {
                let t = t_quantile(p, df);
                assert!(t > prev, "quantile not increasing at df {df} p {p}");
                prev = t;
                let back = t_cdf(t, df);
                let err = if p < 0.5 {
                    back / p - 1.0
                } else {
                    (1.0 - back) / (1.0 - p) - 1.0
                };
                assert!(err.abs() < 1e-9, "df {df} p {p}: t {t} back {back}");
                // Symmetry (1 - q is exact for q in [0.5, 1]).
                let q = 1.0 - p;
                if q >= 0.5 {
                    assert_close!(t_quantile(q, df), -t_quantile(1.0 - q, df), 1e-12);
                }
            }
        }
    }

    #[test]
    fn summary_basic() {
        let s: Summary = [2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0].into_iter().collect();
        assert_eq!(s.n(), 8);
        assert_close!(s.mean(), 5.0, 1e-15);
        assert_close!(s.variance(), 32.0 / 7.0, 1e-14);
        assert_close!(s.sd(), (32.0f64 / 7.0).sqrt(), 1e-14);
        assert_close!(s.stderr(), (32.0f64 / 7.0 / 8.0).sqrt(), 1e-14);
        assert_eq!(s.min(), Some(2.0));
        assert_eq!(s.max(), Some(9.0));
        let (lo, hi) = s.ci(0.95);
        let h = t_quantile(0.975, 7.0) * s.stderr();
        assert_close!(lo, 5.0 - h, 1e-12);
        assert_close!(hi, 5.0 + h, 1e-12);
        assert_eq!(s.fmt_ci(0.95), format!("+5.00 ± {h:.2}"));
        assert_eq!(s.fmt_ci(0.95), "+5.00 ± 1.79");

        let empty = Summary::new();
        assert!(empty.mean().is_nan());
        assert_eq!(empty.min(), None);
        assert_eq!(empty.ci(0.95), (f64::NEG_INFINITY, f64::INFINITY));
        assert_eq!(empty.fmt_ci(0.95), "n/a");
        let mut one = Summary::new();
        one.push(-1.5);
        assert_eq!(one.mean(), -1.5);
        assert!(one.variance().is_nan());
        assert_eq!(one.stderr(), f64::INFINITY);
        assert_eq!(one.ci(0.9), (f64::NEG_INFINITY, f64::INFINITY));
        assert_eq!(one.fmt_ci(0.95), "-1.50 ± inf");
        let flat: Summary = [3.0, 3.0, 3.0].into_iter().collect();
        assert_eq!(flat.ci(0.99), (3.0, 3.0));
    }

    #[test]
    fn summary_merge_equals_pushing_all() {
        let mut g = Normals::new(7);
        let xs: Vec<f64> = (0..101).map(|_| 3.0 + 2.0 * g.next()).collect();
        let all: Summary = xs.iter().copied().collect();
        for split in [0, 1, 2, 50, 100, 101] {
            let mut a: Summary = xs[..split].iter().copied().collect();
            let b: Summary = xs[split..].iter().copied().collect();
            a.merge(&b);
            assert_eq!(a.n(), all.n());
            assert_close!(a.mean(), all.mean(), 1e-13);
            assert_close!(a.variance(), all.variance(), 1e-12);
            assert_eq!(a.min(), all.min());
            assert_eq!(a.max(), all.max());
        }
        // Serialization round trip (all fields finite, even when empty).
        for s in [all, Summary::new()] {
            let json = serde_json::to_string(&s).unwrap();
            let back: Summary = serde_json::from_str(&json).unwrap();
            assert_eq!(back, s);
        }
    }

    /// The 3rd and 4th moments, kept by pushing and by merging, equal the direct sums; the
    /// degrees of freedom are n − 1 for normal data and shrink for a zero-heavy sample.
    #[test]
    fn kurtosis_and_degrees_of_freedom() {
        let direct = |xs: &[f64]| {
            let n = xs.len() as f64;
            let m = xs.iter().sum::<f64>() / n;
            let p = |k: i32| xs.iter().map(|x| (x - m).powi(k)).sum::<f64>();
            n * p(4) / (p(2) * p(2))
        };
        // Zero-heavy with a rare large loss, as Rikken's paired differences are.
        let heavy: Vec<f64> = (0..200)
            .map(|i| match i % 20 {
                0 => -15.0,
                1 | 2 => -1.0,
                3 => 2.0,
                _ => 0.0,
            })
            .collect();
        let all: Summary = heavy.iter().copied().collect();
        assert_close!(all.kurtosis(), direct(&heavy), 1e-9);
        for split in [1, 7, 100, 199] {
            let mut a: Summary = heavy[..split].iter().copied().collect();
            a.merge(&heavy[split..].iter().copied().collect());
            assert_close!(a.kurtosis(), all.kurtosis(), 1e-9);
            assert_close!(a.m3, all.m3, 1e-9);
        }
        assert!(all.kurtosis() > 10.0);
        // κ̂ ≈ 13.7 → κ′ ≈ 35 → df = 2·199/34 ≈ 11.7, far below 199; wider than plain t.
        assert!(all.dof() < 15.0, "{}", all.dof());
        assert!(all.half_width(0.95) > -t_quantile(0.025, 199.0) * all.stderr() * 1.05);
        let mut g = Normals::new(11);
        let normal: Summary = (0..400).map(|_| g.next()).collect();
        // (Its κ̂ is 3.13 by chance: df 336, a t quantile 0.1 % above plain t's.)
        assert!(normal.dof() > 300.0, "kurtosis {}", normal.kurtosis());
        assert_close!(
            normal.half_width(0.95),
            -t_quantile(0.025, 399.0) * normal.stderr(),
            2e-3
        );
        // One large value among twenty: the spread is barely known, df is 1.
        let one: Summary = (0..20).map(|i| if i == 0 { -15.0 } else { 0.0 }).collect();
        assert_eq!(one.dof(), 1.0);
        // Summaries written before the 3rd and 4th moments were kept read as normal.
        let old: Summary = serde_json::from_str(r#"{"count":5,"mean":1.0,"m2":4.0,"min":0.0,"max":2.0}"#).unwrap();
        assert_eq!(old.dof(), 4.0);
    }

    #[test]
    fn paired_and_formatting() {
        let s = paired(&[3.0, 5.0, 10.0], &[1.0, 5.0, 4.0]);
        assert_eq!(s.n(), 3);
        assert_close!(s.mean(), 8.0 / 3.0, 1e-15);
        assert_eq!(fmt_interval(0.42, 0.1, 0.74), "+0.42 [+0.10, +0.74]");
        assert_eq!(fmt_interval(-1.0, -2.5, 0.5), "-1.00 [-2.50, +0.50]");
    }

    #[test]
    #[should_panic(expected = "different lengths")]
    fn paired_length_mismatch_panics() {
        paired(&[1.0], &[]);
    }

    #[test]
    fn t_interval_coverage() {
        // 4000 samples of size 20 from N(1, 2²): the 95% interval covers 1 in 95% ± 1.5%.
        let mut g = Normals::new(20_240_601);
        let mut covered = 0;
        let runs = 4000;
        for _ in 0..runs {
            let s: Summary = (0..20).map(|_| 1.0 + 2.0 * g.next()).collect();
            let (lo, hi) = s.ci(0.95);
            if lo <= 1.0 && 1.0 <= hi {
                covered += 1;
            }
        }
        let rate = covered as f64 / runs as f64;
        assert!((rate - 0.95).abs() <= 0.015, "coverage {rate}");
    }
}
