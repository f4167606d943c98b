//! Statistics for comparing bots over many games.
//!
//! Self-contained (no numeric crates): the normal and Student t distributions
//! ([`normal_cdf`], [`normal_quantile`], [`t_cdf`], [`t_quantile`]), a running [`Summary`]
//! (Welford, mergeable with Chan's formula) with t confidence intervals, paired
//! (duplicate-deal) differences ([`paired`]), and the sequential test fishtest uses in its
//! generalized normal-approximation form ([`Gsprt`]).
//!
//! Conventions:
//! * Comparisons are made on per-deal paired differences `a - b`: the same deal played by
//!   bot A and by bot B (seats swapped), so most of the luck of the deal cancels.
//! * Functions never panic on odd numeric input; they return NaN for NaN input or an
//!   invalid parameter (e.g. `df <= 0`), and ±∞ at the ends of the range (quantile of 0 or 1).
//! * Formatting uses two decimals and always shows the sign of the mean (`+0.42`).

use serde::{Deserialize, Serialize};
use std::f64::consts::PI;

/// Relative tolerance of the series and continued fractions.
const EPS: f64 = 1e-16;
/// Smallest magnitude kept in Lentz's algorithm (avoids division by zero).
const FPMIN: f64 = 1e-300;
/// 1 / sqrt(pi).
const FRAC_1_SQRT_PI: f64 = 0.564_189_583_547_756_3;

// ---------------------------------------------------------------------------------------------
// Special functions
// ---------------------------------------------------------------------------------------------

/// ln Γ(x) for x > 0 (Lanczos, g = 7, n = 9; relative error ~1e-15).
fn ln_gamma(x: f64) -> f64 {
    const G: f64 = 7.0;
    const COEF: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    if x < 0.5 {
        // Reflection: Γ(x) Γ(1 - x) = π / sin(πx).
        return (PI / (PI * x).sin()).ln() - ln_gamma(1.0 - x);
    }
    let x = x - 1.0;
    let mut a = COEF[0];
    let t = x + G + 0.5;
    for (i, c) in COEF.iter().enumerate().skip(1) {
        a += c / (x + i as f64);
    }
    0.5 * (2.0 * PI).ln() + (x + 0.5) * t.ln() - t + a.ln()
}

/// ln Γ(x) - Stirling's approximation (x - 1/2) ln x - x + ln √(2π), for x ≥ 10
/// (asymptotic series; error < 1e-17 there).
fn stirling_err(x: f64) -> f64 {
    const S: [f64; 7] = [
        1.0 / 12.0,
        -1.0 / 360.0,
        1.0 / 1260.0,
        -1.0 / 1680.0,
        1.0 / 1188.0,
        -691.0 / 360_360.0,
        1.0 / 156.0,
    ];
    let r = 1.0 / (x * x);
    let mut sum = 0.0;
    for c in S.iter().rev() {
        sum = sum * r + c;
    }
    sum / x
}

/// ln B(a, b) = ln Γ(a) + ln Γ(b) - ln Γ(a + b). When the larger argument is ≥ 10 the
/// difference ln Γ(a + b) - ln Γ(a) is computed without cancellation (Stirling with explicit
/// corrections), which keeps the t distribution accurate for large degrees of freedom.
fn ln_beta(a: f64, b: f64) -> f64 {
    let (big, small) = if a >= b { (a, b) } else { (b, a) };
    if big < 10.0 {
        return ln_gamma(a) + ln_gamma(b) - ln_gamma(a + b);
    }
    // ln Γ(big + small) - ln Γ(big).
    let diff = (big - 0.5) * (small / big).ln_1p() + small * (big + small).ln() - small + stirling_err(big + small)
        - stirling_err(big);
    ln_gamma(small) - diff
}

/// erfc(x) with full relative accuracy in the upper tail, via the regularized incomplete
/// gamma function: erfc(x) = Q(1/2, x²) for x ≥ 0 (series for small x², Lentz's continued
/// fraction otherwise).
fn erfc(x: f64) -> f64 {
    if x.is_nan() {
        return f64::NAN;
    }
    if x < 0.0 {
        return 2.0 - erfc(-x);
    }
    let x2 = x * x;
    // exp(-x²) x^(2a) / Γ(a) with a = 1/2.
    let front = (-x2).exp() * x * FRAC_1_SQRT_PI;
    if x2 < 1.5 {
        // P(1/2, x²) = front * Σ x^(2n) / (a (a+1) ... (a+n)).
        let mut ap = 0.5;
        let mut del = 1.0 / ap;
        let mut sum = del;
        for _ in 0..200 {
            ap += 1.0;
            del *= x2 / ap;
            sum += del;
            if del.abs() < sum.abs() * EPS {
                break;
            }
        }
        1.0 - front * sum
    } else {
        if front == 0.0 {
            return 0.0;
        }
        // Q(1/2, x²) = front * 1/(x²+1-a- 1·(1-a)/(x²+3-a- 2·(2-a)/(x²+5-a- ...))).
        let a = 0.5;
        let mut b = x2 + 1.0 - a;
        let mut c = 1.0 / FPMIN;
        let mut d = 1.0 / b;
        let mut h = d;
        for i in 1..500 {
            let an = -(i as f64) * (i as f64 - a);
            b += 2.0;
            d = an * d + b;
            if d.abs() < FPMIN {
                d = FPMIN;
            }
            c = b + an / c;
            if c.abs() < FPMIN {
                c = FPMIN;
            }
            d = 1.0 / d;
            let del = d * c;
            h *= del;
            if (del - 1.0).abs() < EPS {
                break;
            }
        }
        front * h
    }
}

/// Continued fraction of the incomplete beta function (modified Lentz).
fn beta_cf(a: f64, b: f64, x: f64) -> f64 {
    let qab = a + b;
    let qap = a + 1.0;
    let qam = a - 1.0;
    let mut c = 1.0;
    let mut d = 1.0 - qab * x / qap;
    if d.abs() < FPMIN {
        d = FPMIN;
    }
    d = 1.0 / d;
    let mut h = d;
    for m in 1..100_000 {
        let m = m as f64;
        let m2 = 2.0 * m;
        let aa = m * (b - m) * x / ((qam + m2) * (a + m2));
        d = 1.0 + aa * d;
        if d.abs() < FPMIN {
            d = FPMIN;
        }
        c = 1.0 + aa / c;
        if c.abs() < FPMIN {
            c = FPMIN;
        }
        d = 1.0 / d;
        h *= d * c;
        let aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
        d = 1.0 + aa * d;
        if d.abs() < FPMIN {
            d = FPMIN;
        }
        c = 1.0 + aa / c;
        if c.abs() < FPMIN {
            c = FPMIN;
        }
        d = 1.0 / d;
        let del = d * c;
        h *= del;
        if (del - 1.0).abs() < 1e-15 {
            break;
        }
    }
    h
}

/// Regularized incomplete beta I_x(a, b); `y` must be `1 - x`, passed separately so callers
/// can compute it without cancellation.
fn reg_inc_beta(a: f64, b: f64, x: f64, y: f64) -> f64 {
    if x <= 0.0 {
        return 0.0;
    }
    if y <= 0.0 {
        return 1.0;
    }
    // ln x and ln y from whichever of x, y is small (the other is 1 minus it, exactly).
    let ln_x = if x > 0.5 { (-y).ln_1p() } else { x.ln() };
    let ln_y = if y > 0.5 { (-x).ln_1p() } else { y.ln() };
    let ln_front = a * ln_x + b * ln_y - ln_beta(a, b);
    if x < (a + 1.0) / (a + b + 2.0) {
        ln_front.exp() * beta_cf(a, b, x) / a
    } else {
        1.0 - ln_front.exp() * beta_cf(b, a, y) / b
    }
}

// ---------------------------------------------------------------------------------------------
// Normal distribution
// ---------------------------------------------------------------------------------------------

/// Standard normal cumulative distribution function Φ(x).
///
/// Accurate to ~1e-15 relative in the lower tail (and absolute near 1); NaN for NaN.
pub fn normal_cdf(x: f64) -> f64 {
    0.5 * erfc(-x / std::f64::consts::SQRT_2)
}

/// Standard normal density φ(x).
pub fn normal_pdf(x: f64) -> f64 {
    (-0.5 * x * x).exp() / (2.0 * PI).sqrt()
}

/// Standard normal quantile Φ⁻¹(p): Acklam's rational approximation refined by one Halley
/// step (relative error ~1e-15). Returns -∞ for p = 0, +∞ for p = 1, NaN outside [0, 1].
pub fn normal_quantile(p: f64) -> f64 {
    if p.is_nan() || !(0.0..=1.0).contains(&p) {
        return f64::NAN;
    }
    if p == 0.0 {
        return f64::NEG_INFINITY;
    }
    if p == 1.0 {
        return f64::INFINITY;
    }
    if p > 0.5 {
        // 1 - p is exact for p in [0.5, 1]; work in the lower tail, where Φ is accurate.
        return -normal_quantile(1.0 - p);
    }
    const A: [f64; 6] = [
        -3.969_683_028_665_376e1,
        2.209_460_984_245_205e2,
        -2.759_285_104_469_687e2,
        1.383_577_518_672_69e2,
        -3.066_479_806_614_716e1,
        2.506_628_277_459_239,
    ];
    const B: [f64; 5] = [
        -5.447_609_879_822_406e1,
        1.615_858_368_580_409e2,
        -1.556_989_798_598_866e2,
        6.680_131_188_771_972e1,
        -1.328_068_155_288_572e1,
    ];
    const C: [f64; 6] = [
        -7.784_894_002_430_293e-3,
        -3.223_964_580_411_365e-1,
        -2.400_758_277_161_838,
        -2.549_732_539_343_734,
        4.374_664_141_464_968,
        2.938_163_982_698_783,
    ];
    const D: [f64; 4] = [
        7.784_695_709_041_462e-3,
        3.224_671_290_700_398e-1,
        2.445_134_137_142_996,
        3.754_408_661_907_416,
    ];
    const P_LOW: f64 = 0.02425;
    let x = if p < P_LOW {
        let q = (-2.0 * p.ln()).sqrt();
        (((((C[0] * q + C[1]) * q + C[2]) * q + C[3]) * q + C[4]) * q + C[5])
            / ((((D[0] * q + D[1]) * q + D[2]) * q + D[3]) * q + 1.0)
    } else {
        let q = p - 0.5;
        let r = q * q;
        (((((A[0] * r + A[1]) * r + A[2]) * r + A[3]) * r + A[4]) * r + A[5]) * q
            / (((((B[0] * r + B[1]) * r + B[2]) * r + B[3]) * r + B[4]) * r + 1.0)
    };
    // One Halley step on Φ(x) - p.
    let e = normal_cdf(x) - p;
    let u = e * (2.0 * PI).sqrt() * (0.5 * x * x).exp();
    let refined = x - u / (1.0 + 0.5 * x * u);
    if refined.is_finite() {
        refined
    } else {
        x
    }
}

// ---------------------------------------------------------------------------------------------
// Student t distribution
// ---------------------------------------------------------------------------------------------

/// Degrees of freedom above which the t distribution is replaced by the normal.
const T_NORMAL_DF: f64 = 1e6;

/// Student t density with `df` degrees of freedom.
pub fn t_pdf(t: f64, df: f64) -> f64 {
    if t.is_nan() || df.is_nan() || df <= 0.0 {
        return f64::NAN;
    }
    if df > T_NORMAL_DF {
        return normal_pdf(t);
    }
    let ln = ln_gamma(0.5 * (df + 1.0))
        - ln_gamma(0.5 * df)
        - 0.5 * (df * PI).ln()
        - 0.5 * (df + 1.0) * (t * t / df).ln_1p();
    ln.exp()
}

/// Student t cumulative distribution function P(T ≤ t) with `df` > 0 degrees of freedom
/// (real `df` allowed), via the regularized incomplete beta function. For `df` > 1e6 (or ∞)
/// the normal distribution is used. NaN for NaN input or `df` ≤ 0.
pub fn t_cdf(t: f64, df: f64) -> f64 {
    if t.is_nan() || df.is_nan() || df <= 0.0 {
        return f64::NAN;
    }
    if df > T_NORMAL_DF {
        return normal_cdf(t);
    }
    if t.is_infinite() {
        return if t > 0.0 { 1.0 } else { 0.0 };
    }
    let t2 = t * t;
    let x = df / (df + t2);
    let y = t2 / (df + t2);
    let tail = 0.5 * reg_inc_beta(0.5 * df, 0.5, x, y);
    if t > 0.0 {
        1.0 - tail
    } else {
        tail
    }
}

/// Student t quantile: the `t` with `t_cdf(t, df) = p`. Safeguarded Newton iteration (on
/// ln F, with bisection inside a bracket) from a Cornish–Fisher starting point; relative
/// accuracy ~1e-12. For `df` > 1e6 the normal quantile is used. Returns ∓∞ for p = 0 / 1,
/// NaN for p outside [0, 1], NaN input or `df` ≤ 0.
pub fn t_quantile(p: f64, df: f64) -> f64 {
    if p.is_nan() || df.is_nan() || df <= 0.0 || !(0.0..=1.0).contains(&p) {
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
    // Lower tail: the answer is negative.
    let z = normal_quantile(p);
    let (z3, z5, z7, z9) = (z.powi(3), z.powi(5), z.powi(7), z.powi(9));
    let g1 = (z3 + z) / 4.0;
    let g2 = (5.0 * z5 + 16.0 * z3 + 3.0 * z) / 96.0;
    let g3 = (3.0 * z7 + 19.0 * z5 + 17.0 * z3 - 15.0 * z) / 384.0;
    let g4 = (79.0 * z9 + 776.0 * z7 + 1482.0 * z5 - 1920.0 * z3 - 945.0 * z) / 92160.0;
    let mut t = z + g1 / df + g2 / df.powi(2) + g3 / df.powi(3) + g4 / df.powi(4);
    if !(t.is_finite() && t < 0.0) {
        t = if z < 0.0 { z } else { -1e-300 };
    }
    // Bracket lo < root ≤ hi < 0 with F(lo) ≤ p < F(hi) (ratio 2 between the ends).
    let (mut lo, mut hi);
    if t_cdf(t, df) > p {
        hi = t;
        lo = 2.0 * t;
        let mut k = 0;
        while t_cdf(lo, df) > p {
            hi = lo;
            lo *= 2.0;
            k += 1;
            if k > 2100 || lo.is_infinite() {
                return f64::NEG_INFINITY;
            }
        }
    } else {
        lo = t;
        hi = 0.5 * t;
        let mut k = 0;
        while t_cdf(hi, df) <= p {
            lo = hi;
            hi *= 0.5;
            k += 1;
            if k > 2100 || hi == 0.0 {
                return lo;
            }
        }
    }
    t = 0.5 * (lo + hi);
    let ln_p = p.ln();
    for _ in 0..200 {
        let f = t_cdf(t, df);
        if f > p {
            hi = t;
        } else {
            lo = t;
        }
        let dens = t_pdf(t, df);
        let mut next = if f > 0.0 && dens > 0.0 {
            // Newton on g(t) = ln F(t) - ln p: step -g F / f.
            t - (f.ln() - ln_p) * f / dens
        } else {
            f64::NAN
        };
        if !(next > lo && next < hi) {
            next = 0.5 * (lo + hi);
        }
        let done = (next - t).abs() <= 1e-14 * t.abs() || (hi - lo) <= 1e-15 * lo.abs();
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

/// Running summary of a sample: count, mean and sum of squared deviations (Welford), min and
/// max. Mergeable ([`Summary::merge`], Chan et al.), so per-thread or per-file summaries can
/// be combined exactly. Serializes to plain finite numbers (min/max are 0 while empty).
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
    min: f64,
    max: f64,
}

impl Summary {
    /// An empty summary.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds one observation (Welford's update).
    pub fn push(&mut self, x: f64) {
        if self.count == 0 {
            self.min = x;
            self.max = x;
        } else {
            self.min = self.min.min(x);
            self.max = self.max.max(x);
        }
        self.count += 1;
        let delta = x - self.mean;
        self.mean += delta / self.count as f64;
        self.m2 += delta * (x - self.mean);
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
        self.mean += delta * nb / n;
        self.m2 += other.m2 + delta * delta * na * nb / n;
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

    /// Half-width of the two-sided t confidence interval at `level` (e.g. 0.95):
    /// t_{(1+level)/2, n-1} · stderr. +∞ for n < 2; 0 when all observations are equal.
    pub fn half_width(&self, level: f64) -> f64 {
        if self.count < 2 {
            return f64::INFINITY;
        }
        let se = self.stderr();
        if se == 0.0 {
            return 0.0;
        }
        // Lower-tail quantile of (1 - level) / 2, negated: no cancellation near level = 1.
        -t_quantile(0.5 * (1.0 - level), (self.count - 1) as f64) * se
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
// GSPRT
// ---------------------------------------------------------------------------------------------

/// Outcome of a sequential test so far.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// H1 accepted (LLR ≥ upper bound B): the mean is plausibly ≥ `upper` — the test passes.
    AcceptUpper,
    /// H0 accepted (LLR ≤ lower bound A): the mean is plausibly ≤ `lower` — the test fails.
    AcceptLower,
    /// Not enough evidence yet: play more deals.
    Continue,
}

/// Generalized sequential probability ratio test on the mean of i.i.d. observations (here:
/// per-deal paired score differences), in the normal approximation fishtest uses.
///
/// Hypotheses: H0: mean = `lower` against H1: mean = `upper` (`lower < upper`, in the units
/// of the observations). After n observations with sample mean m and sample variance s²,
///
/// ```text
/// LLR = n (upper - lower) (2 m - lower - upper) / (2 s²)
/// ```
///
/// (the log-likelihood ratio of two normal means with the variance estimated; s² is floored
/// at `(1e-3 (upper - lower))²` so identical observations still give a finite LLR). The
/// test stops at the Wald bounds `A = ln(β / (1 - α)) < 0` (accept H0, [`Decision::AcceptLower`])
/// and `B = ln((1 - β) / α) > 0` (accept H1, [`Decision::AcceptUpper`]); no decision is
/// made before [`min_samples`](Gsprt::min_samples) observations (default 10) since the
/// variance estimate is poor before.
///
/// Error rates (approximately, for large samples): if the true mean is ≤ `lower` the test
/// passes with probability ≤ α; if it is ≥ `upper` it fails with probability ≤ β. Between
/// the bounds either outcome is acceptable. The caller chooses the bounds:
/// * gain test "B is better than A by about δ": `lower = 0`, `upper = δ`;
/// * non-regression test "B is not worse than A by δ": `lower = -δ`, `upper = 0`
///   (fishtest-style; a pass means no regression of δ or more, at level α).
///
/// With the variance estimated from the sample, the actual error rates run somewhat above
/// nominal when the test stops after few observations (simulated with α = β = 0.05 on normal
/// data: about 0.06 when runs stop after ~25–100 observations, 0.054 after ~600); a larger
/// [`min_samples`](Gsprt::with_min_samples) or smaller α, β compensate if that matters.
///
/// The expected number of observations grows like s² / (upper - lower)², and is largest
/// when the true mean lies midway between the bounds, where the LLR drifts by zero: callers
/// should also cap the number of games.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct Gsprt {
    lower: f64,
    upper: f64,
    alpha: f64,
    beta: f64,
    min_samples: u64,
    data: Summary,
}

impl Gsprt {
    /// Default minimum number of observations before deciding.
    pub const DEFAULT_MIN_SAMPLES: u64 = 10;

    /// A test of mean = `lower` (H0) against mean = `upper` (H1) with error rates `alpha`
    /// (false pass) and `beta` (false fail).
    ///
    /// # Panics
    /// If the parameters are invalid (see [`Gsprt::try_new`]).
    pub fn new(lower: f64, upper: f64, alpha: f64, beta: f64) -> Self {
        Self::try_new(lower, upper, alpha, beta).unwrap_or_else(|e| panic!("{e}"))
    }

    /// As [`Gsprt::new`], but reports invalid parameters: bounds must be finite with
    /// `lower < upper`, and `alpha`, `beta` in (0, 1) with `alpha + beta < 1`.
    pub fn try_new(lower: f64, upper: f64, alpha: f64, beta: f64) -> Result<Self, String> {
        if !(lower.is_finite() && upper.is_finite() && lower < upper) {
            return Err(format!(
                "GSPRT bounds must be finite with lower < upper (got {lower}, {upper})"
            ));
        }
        let in_unit = |p: f64| p > 0.0 && p < 1.0;
        if !(in_unit(alpha) && in_unit(beta) && alpha + beta < 1.0) {
            return Err(format!(
                "GSPRT error rates must be in (0, 1) with alpha + beta < 1 \
                 (got alpha {alpha}, beta {beta})"
            ));
        }
        Ok(Gsprt {
            lower,
            upper,
            alpha,
            beta,
            min_samples: Self::DEFAULT_MIN_SAMPLES,
            data: Summary::new(),
        })
    }

    /// Sets the minimum number of observations before any decision (at least 2).
    pub fn with_min_samples(mut self, n: u64) -> Self {
        self.min_samples = n.max(2);
        self
    }

    /// The mean under H0.
    pub fn lower(&self) -> f64 {
        self.lower
    }

    /// The mean under H1.
    pub fn upper(&self) -> f64 {
        self.upper
    }

    /// Probability of a false pass.
    pub fn alpha(&self) -> f64 {
        self.alpha
    }

    /// Probability of a false fail.
    pub fn beta(&self) -> f64 {
        self.beta
    }

    /// Minimum number of observations before deciding.
    pub fn min_samples(&self) -> u64 {
        self.min_samples
    }

    /// Lower stopping bound A = ln(β / (1 - α)) (negative): LLR ≤ A accepts H0.
    pub fn lower_bound(&self) -> f64 {
        (self.beta / (1.0 - self.alpha)).ln()
    }

    /// Upper stopping bound B = ln((1 - β) / α) (positive): LLR ≥ B accepts H1.
    pub fn upper_bound(&self) -> f64 {
        ((1.0 - self.beta) / self.alpha).ln()
    }

    /// `(A, B)`, for display.
    pub fn bounds(&self) -> (f64, f64) {
        (self.lower_bound(), self.upper_bound())
    }

    /// The log-likelihood ratio of the observations summarized by `s` (0 for n < 2).
    pub fn llr_of(&self, s: &Summary) -> f64 {
        if s.n() < 2 {
            return 0.0;
        }
        let width = self.upper - self.lower;
        let floor = (1e-3 * width).powi(2);
        let var = s.variance().max(floor);
        s.n() as f64 * width * (2.0 * s.mean() - self.lower - self.upper) / (2.0 * var)
    }

    /// The decision for the observations summarized by `s` (ignores the internal sample).
    pub fn status(&self, s: &Summary) -> Decision {
        if s.n() < self.min_samples {
            return Decision::Continue;
        }
        let llr = self.llr_of(s);
        if llr >= self.upper_bound() {
            Decision::AcceptUpper
        } else if llr <= self.lower_bound() {
            Decision::AcceptLower
        } else {
            Decision::Continue
        }
    }

    /// Adds one observation to the internal sample and returns the decision so far. (Once a
    /// decision is reached the caller should stop; further pushes keep testing the whole
    /// sample.)
    pub fn push(&mut self, x: f64) -> Decision {
        self.data.push(x);
        self.decision()
    }

    /// The decision on the internal sample.
    pub fn decision(&self) -> Decision {
        self.status(&self.data)
    }

    /// The LLR of the internal sample.
    pub fn llr(&self) -> f64 {
        self.llr_of(&self.data)
    }

    /// The internal sample.
    pub fn summary(&self) -> &Summary {
        &self.data
    }
}

// ---------------------------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------------------------

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{RngCore, SeedableRng};
    use rand_chacha::ChaCha8Rng;

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
        // Both branches of ln_beta agree where they meet.
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

    #[test]
    fn gsprt_bounds_and_validation() {
        let t = Gsprt::new(0.0, 1.0, 0.05, 0.05);
        assert_close!(t.lower_bound(), -(19.0f64).ln(), 1e-15);
        assert_close!(t.upper_bound(), (19.0f64).ln(), 1e-15);
        assert_eq!(t.bounds(), (t.lower_bound(), t.upper_bound()));
        assert!(Gsprt::try_new(1.0, 1.0, 0.05, 0.05).is_err());
        assert!(Gsprt::try_new(0.0, 1.0, 0.0, 0.05).is_err());
        assert!(Gsprt::try_new(0.0, 1.0, 0.6, 0.5).is_err());
        assert!(Gsprt::try_new(f64::NAN, 1.0, 0.05, 0.05).is_err());
        // Hand-computed LLR: 0.25, 0.75, 0.75, 1.25 has n 4, mean 0.75, variance 0.5/3:
        // 4 * 1 * (1.5 - 1) / (2/6) = 6.
        let s: Summary = [0.25, 0.75, 0.75, 1.25].into_iter().collect();
        assert_close!(t.llr_of(&s), 6.0, 1e-12);
        // Below the minimum sample: no decision even though LLR ≥ B.
        assert_eq!(t.status(&s), Decision::Continue);
        assert_eq!(t.clone().with_min_samples(4).status(&s), Decision::AcceptUpper);
        // Zero variance: the floor keeps the LLR finite and decisive.
        let mut z = Gsprt::new(-1.0, 1.0, 0.05, 0.05);
        let mut d = Decision::Continue;
        for _ in 0..10 {
            d = z.push(0.5);
        }
        assert!(z.llr().is_finite() && z.llr() > 0.0);
        assert_eq!(d, Decision::AcceptUpper);
        assert_eq!(z.summary().n(), 10);
    }

    /// Runs the GSPRT (0 against 0.5, α = β = 0.05, default minimum sample) to a decision on
    /// N(mean, 1) data; `Continue` if capped.
    fn run_gsprt(g: &mut Normals, mean: f64) -> Decision {
        let mut t = Gsprt::new(0.0, 0.5, 0.05, 0.05);
        for _ in 0..5000 {
            match t.push(mean + g.next()) {
                Decision::Continue => {}
                d => return d,
            }
        }
        Decision::Continue
    }

    /// (false-pass rate at mean = lower, pass rate at mean = upper) over `runs` runs each.
    fn gsprt_rates(seed: u64, runs: usize) -> (f64, f64) {
        let mut g = Normals::new(seed);
        let false_pass = (0..runs)
            .filter(|_| run_gsprt(&mut g, 0.0) == Decision::AcceptUpper)
            .count();
        let pass = (0..runs)
            .filter(|_| run_gsprt(&mut g, 0.5) == Decision::AcceptUpper)
            .count();
        (false_pass as f64 / runs as f64, pass as f64 / runs as f64)
    }

    #[test]
    fn gsprt_error_rates() {
        // True rates for this setting (about 25 observations per run, variance estimated):
        // ~0.061 false pass and ~0.942 pass (see the ignored test below); 1000 runs give a
        // standard error of ~0.0075, so the limits are ~2.5 standard errors away.
        let (fp, p) = gsprt_rates(99, 1000);
        assert!(fp <= 0.08, "false pass rate {fp}");
        assert!(p >= 0.92, "pass rate {p}");
    }

    /// Not run by default (`cargo test --release --lib stats -- --ignored --nocapture`): the
    /// rates over 30 × 1000 runs, to check the fixed-seed test above is not a lucky draw.
    #[test]
    #[ignore]
    fn gsprt_error_rates_many_seeds() {
        let (mut fp, mut p) = (0.0, 0.0);
        let seeds = 30;
        for seed in 0..seeds {
            let (a, b) = gsprt_rates(1000 + seed, 1000);
            println!("seed {seed}: false pass {a:.4}, pass {b:.4}");
            fp += a / seeds as f64;
            p += b / seeds as f64;
        }
        println!("mean: false pass {fp:.4}, pass {p:.4}");
        assert!(fp <= 0.07 && p >= 0.93);
    }
}
