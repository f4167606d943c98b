//! The sequential test of `croupier compare`: testing by betting on the per-deal paired
//! differences, with two wealth processes (e-processes), one for each verdict.
//!
//! # Why not the GSPRT
//! croupier ran fishtest's normal-approximation GSPRT until 2026-11. On the games' real paired
//! differences it did not keep its error rates: most deals give a difference of 0 and a few a
//! large one (Rikken: 62 % zeros, skewness −3, kurtosis 16 for a candidate one point worse),
//! so the plug-in variance of the first deals is tiny, and the test passed a candidate sitting
//! at LOWER 38 % of the time where it promised 5 %. A variance floor or a minimum sample made
//! from the data (Cochran's n > 25 γ²) helped in Rikken but not in the pot games, whose rare
//! huge losses (Zwikken: kurtosis 30–500) let the LLR drift up between them: 16–30 % false
//! passes at several hundred deals. The figures are in BENCHMARKS.md ("The CI gate").
//!
//! # The test
//! Testing by betting (Shafer 2021; Waudby-Smith & Ramdas 2024) needs no normality. To pass,
//! the test bets against "difference ≤ LOWER": before each deal it stakes a fraction `λ` of
//! its wealth on the deal's difference `x` exceeding LOWER, and its wealth is multiplied by
//! `1 + λ (x − LOWER)`. If the mean is at most LOWER, the expected factor is at most 1 whatever
//! `λ` was (chosen before the deal), so the wealth is a nonnegative supermartingale and by
//! Ville's inequality it ever reaches `1/α` with probability at most α: **pass** when it does.
//! **Fail** mirrors it: bets on `UPPER − x`, fails at `1/β`. The errors hold at every deal, not
//! only at a planned end, so the test may stop whenever either wealth crosses.
//!
//! The bet is the plug-in Kelly fraction `(m − LOWER) / (s² + (m − LOWER)²)` (aGRAPA), from the
//! mean `m` and spread `s²` of the deals before (with two pseudo-deals at the midpoint of the
//! bounds and a spread of a quarter of the range, so that a run of zeros cannot make it
//! reckless), and it is capped so that a loss can take at most [`CAP`] of the wealth at the
//! range's end.
//!
//! # The range, and what the guarantee assumes
//! The supermartingale needs the factor to stay nonnegative, so the bet needs a bound on how
//! far below LOWER a difference can fall (and above UPPER for the fail side). The rules bound
//! every game's score, but in the pot games only at 2⁴⁰ chips, far too loose to bet with. The
//! test therefore takes its range from the run: the widest of (a) [`FLOOR_WIDTHS`] times the
//! width of the bounds on each side of them, (b) the differences seen, and (c) [`SCALE_SHARE`]
//! (a half) of the largest score of a seat seen in any game of the run, on each side of 0
//! (`scale`: a difference is a mean over seats of two scores; in the calibration the
//! differences stayed within 0.4–0.75 of the largest score). Everything is from deals before
//! the one it bets on. A difference beyond the assumed range (a *surprise*) would make the
//! factor negative; the wealth is then cut to at most `1/(n+2)²` of its start, as if that
//! side's test started again, later and with less weight. A surprise never raises a wealth,
//! but the guarantee itself holds only for differences within the range: that is why the
//! calibration (`bench/calibrate.sh`) measures the error rates on every game's real
//! differences.
//!
//! Two identical bots give a difference of 0 every deal. The pass side then wins `λ |LOWER|`
//! a deal at every deal, and the test passes after a few dozen deals (Rikken's default: 46):
//! sound, since a candidate at LOWER would have had to tie the baseline on every one of them.
//! With UPPER = 0 the fail side stakes nothing on zeros, so identical bots never fail.

use crate::stats::{Decision, Summary};
use serde::{Deserialize, Serialize};

/// The largest fraction of its wealth a bet may lose on a difference at the end of the range.
pub const CAP: f64 = 0.3;
/// The range's least extent beyond each bound, in widths of the bounds (UPPER − LOWER).
pub const FLOOR_WIDTHS: f64 = 4.0;
/// The share of the largest score seen that the range reaches on each side of 0 (see the
/// module).
pub const SCALE_SHARE: f64 = 0.5;
/// Pseudo-deals at the midpoint of the bounds in the bet's mean and spread.
const PRIOR_DEALS: f64 = 2.0;

/// The sequential test by betting (see the module): H0 "mean ≤ `lower`" (fail) against H1
/// "mean ≥ `upper`" (pass), error rates `alpha` (a false pass) and `beta` (a false fail).
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct BettingTest {
    lower: f64,
    upper: f64,
    alpha: f64,
    beta: f64,
    data: Summary,
    /// The range assumed for the next difference (from deals before it).
    lo: f64,
    hi: f64,
    /// The natural logarithms of the two wealths.
    log_pass: f64,
    log_fail: f64,
    surprises: u64,
    decided: Option<(u64, Decision)>,
}

impl BettingTest {
    /// A test of mean ≤ `lower` (fail) against mean ≥ `upper` (pass) with error rates `alpha`
    /// (false pass) and `beta` (false fail): bounds finite with `lower < upper`, `alpha` and
    /// `beta` in (0, 1) with `alpha + beta < 1`.
    pub fn try_new(lower: f64, upper: f64, alpha: f64, beta: f64) -> Result<Self, String> {
        if !(lower.is_finite() && upper.is_finite() && lower < upper) {
            return Err(format!(
                "the bounds must be finite with LOWER < UPPER (got {lower}, {upper})"
            ));
        }
        let in_unit = |p: f64| p > 0.0 && p < 1.0;
        if !(in_unit(alpha) && in_unit(beta) && alpha + beta < 1.0) {
            return Err(format!(
                "the error rates must be in (0, 1) with alpha + beta < 1 (got alpha {alpha}, beta {beta})"
            ));
        }
        let w = upper - lower;
        Ok(BettingTest {
            lower,
            upper,
            alpha,
            beta,
            data: Summary::new(),
            lo: lower - FLOOR_WIDTHS * w,
            hi: upper + FLOOR_WIDTHS * w,
            log_pass: 0.0,
            log_fail: 0.0,
            surprises: 0,
            decided: None,
        })
    }

    /// As [`BettingTest::try_new`].
    ///
    /// # Panics
    /// If the parameters are invalid.
    pub fn new(lower: f64, upper: f64, alpha: f64, beta: f64) -> Self {
        Self::try_new(lower, upper, alpha, beta).unwrap_or_else(|e| panic!("{e}"))
    }

    /// The mean under H0 (at or below it the candidate fails).
    pub fn lower(&self) -> f64 {
        self.lower
    }

    /// The mean under H1 (at or above it the candidate passes).
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

    /// The two bets for the next deal, `(pass, fail)`, from the deals so far.
    fn bets(&self) -> (f64, f64) {
        let n = self.data.n() as f64;
        let mid = 0.5 * (self.lower + self.upper);
        let mean = if n > 0.0 { self.data.mean() } else { mid };
        let t = n + PRIOR_DEALS;
        let m = (n * mean + PRIOR_DEALS * mid) / t;
        // Σ(x − m)² = Σ(x − mean)² + n (mean − m)², and the pseudo-deals' spread.
        let m2 = if n >= 2.0 {
            self.data.variance() * (n - 1.0)
        } else {
            0.0
        };
        let prior_var = ((self.hi - self.lo) / 4.0).powi(2);
        let var = (m2 + n * (mean - m).powi(2) + PRIOR_DEALS * prior_var) / t;
        let kelly = |edge: f64| {
            if edge > 0.0 {
                edge / (var + edge * edge)
            } else {
                0.0
            }
        };
        let pass = kelly(m - self.lower).min(CAP / (self.lower - self.lo));
        let fail = kelly(self.upper - m).min(CAP / (self.hi - self.upper));
        (pass, fail)
    }

    /// Adds one deal: its difference `x`, and `scale`, the largest absolute score of a seat in
    /// its games (0 if unknown). Returns the decision so far; once decided it stays.
    pub fn push(&mut self, x: f64, scale: f64) -> Decision {
        let (bet_pass, bet_fail) = self.bets();
        // A surprise cuts the wealth as a restart of that side's test with weight 1/(n+2)².
        let restart = -2.0 * (self.data.n() as f64 + 2.0).ln();
        let grow = |log: &mut f64, factor: f64, surprises: &mut u64| {
            if factor > 0.0 {
                *log += factor.ln();
            } else {
                *log = log.min(0.0) + restart;
                *surprises += 1;
            }
        };
        grow(
            &mut self.log_pass,
            1.0 + bet_pass * (x - self.lower),
            &mut self.surprises,
        );
        grow(
            &mut self.log_fail,
            1.0 + bet_fail * (self.upper - x),
            &mut self.surprises,
        );
        self.data.push(x);
        let scale = if scale.is_finite() { scale.abs() } else { 0.0 };
        self.lo = self.lo.min(x).min(-SCALE_SHARE * scale);
        self.hi = self.hi.max(x).max(SCALE_SHARE * scale);
        if self.decided.is_none() {
            let d = self.status();
            if d != Decision::Continue {
                self.decided = Some((self.data.n(), d));
            }
        }
        self.decision()
    }

    /// What the wealths say now, before any earlier decision is taken into account.
    fn status(&self) -> Decision {
        let (a, b) = self.thresholds();
        let (over_pass, over_fail) = (self.log_pass - b, self.log_fail - a);
        if over_pass >= 0.0 && over_pass >= over_fail {
            Decision::AcceptUpper
        } else if over_fail >= 0.0 {
            Decision::AcceptLower
        } else {
            Decision::Continue
        }
    }

    /// The first decision reached (the test stops there), or `Continue`.
    pub fn decision(&self) -> Decision {
        self.decided.map_or(Decision::Continue, |d| d.1)
    }

    /// The deal at which the test decided, and how.
    pub fn decided(&self) -> Option<(u64, Decision)> {
        self.decided
    }

    /// `(ln(1/β), ln(1/α))`: the log-wealth the fail side and the pass side must reach.
    pub fn thresholds(&self) -> (f64, f64) {
        ((1.0 / self.beta).ln(), (1.0 / self.alpha).ln())
    }

    /// The evidence as one signed number, for display: the pass side's log-wealth where it is
    /// nearer its threshold, else minus the fail side's. It reaches the upper bound of
    /// [`BettingTest::bounds`] exactly when the test passes, the lower one when it fails.
    pub fn evidence(&self) -> f64 {
        let (a, b) = self.thresholds();
        if self.log_pass - b >= self.log_fail - a {
            self.log_pass
        } else {
            -self.log_fail
        }
    }

    /// `(−ln(1/β), ln(1/α))`: the bounds of [`BettingTest::evidence`].
    pub fn bounds(&self) -> (f64, f64) {
        let (a, b) = self.thresholds();
        (-a, b)
    }

    /// The natural logarithms of the pass side's and the fail side's wealth.
    pub fn log_wealth(&self) -> (f64, f64) {
        (self.log_pass, self.log_fail)
    }

    /// Differences that fell outside the range the test assumed (see the module).
    pub fn surprises(&self) -> u64 {
        self.surprises
    }

    /// The range assumed for the next difference.
    pub fn range(&self) -> (f64, f64) {
        (self.lo, self.hi)
    }

    /// The differences so far.
    pub fn summary(&self) -> &Summary {
        &self.data
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn validation_and_thresholds() {
        assert!(BettingTest::try_new(0.0, 0.0, 0.05, 0.05).is_err());
        assert!(BettingTest::try_new(f64::NAN, 0.0, 0.05, 0.05).is_err());
        assert!(BettingTest::try_new(-1.0, 0.0, 0.0, 0.05).is_err());
        assert!(BettingTest::try_new(-1.0, 0.0, 0.6, 0.5).is_err());
        let t = BettingTest::new(-1.0, 0.0, 0.05, 0.1);
        assert!((t.bounds().1 - 20f64.ln()).abs() < 1e-12);
        assert!((t.bounds().0 + 10f64.ln()).abs() < 1e-12);
        assert_eq!(t.range(), (-5.0, 4.0));
        assert_eq!(t.decision(), Decision::Continue);
        assert_eq!(t.evidence(), 0.0);
    }

    #[test]
    fn identical_bots_pass_after_a_few_dozen_deals_and_never_fail() {
        let mut t = BettingTest::new(-1.0, 0.0, 0.05, 0.05);
        let mut n = 0;
        while t.push(0.0, 10.0) == Decision::Continue {
            n += 1;
            assert!(n < 200, "identical bots undecided after 200 deals");
        }
        assert_eq!(t.decision(), Decision::AcceptUpper);
        assert!((20..120).contains(&t.summary().n()), "{}", t.summary().n());
        assert_eq!(t.log_wealth().1, 0.0, "zeros stake nothing on failing");
        // Zeros exactly at LOWER stake nothing on passing: they never pass.
        let mut at_lower = BettingTest::new(0.0, 1.0, 0.05, 0.05);
        for _ in 0..5000 {
            at_lower.push(0.0, 10.0);
        }
        assert_ne!(at_lower.decision(), Decision::AcceptUpper);
    }

    #[test]
    fn the_evidence_crosses_its_bounds_exactly_at_the_decision() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        for mean in [-1.5, -1.0, -0.5, 0.0, 0.5] {
            let mut t = BettingTest::new(-1.0, 0.0, 0.05, 0.1);
            let (a, b) = t.bounds();
            for _ in 0..20_000 {
                let x = mean
                    + if rng.random_bool(0.3) {
                        rng.random_range(-8.0..8.0)
                    } else {
                        0.0
                    };
                let d = t.push(x, 8.0);
                let e = t.evidence();
                match d {
                    Decision::AcceptUpper => assert!(e >= b),
                    Decision::AcceptLower => assert!(e <= a),
                    Decision::Continue => assert!(a < e && e < b),
                }
                if d != Decision::Continue {
                    break;
                }
            }
            assert_ne!(t.decision(), Decision::Continue, "mean {mean}");
        }
    }

    /// A zero-heavy, skewed difference like Rikken's (mostly 0, now and then a large loss, more
    /// often a small gain), with mean `mean`.
    fn zero_heavy(rng: &mut ChaCha8Rng, mean: f64) -> f64 {
        // 70 % zeros, 25 % gains of +2, 5 % losses of −L: mean = 0.5 − 0.05 L.
        let base_mean = 0.5 - 0.05 * 20.0;
        let u: f64 = rng.random();
        let x = if u < 0.7 {
            0.0
        } else if u < 0.95 {
            2.0
        } else {
            -20.0
        };
        x - base_mean + mean
    }

    fn rate(seed: u64, mean: f64, runs: usize, verdict: Decision) -> f64 {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut hits = 0;
        for _ in 0..runs {
            let mut t = BettingTest::new(-1.0, 0.0, 0.05, 0.05);
            for _ in 0..5000 {
                if t.push(zero_heavy(&mut rng, mean), 20.0) != Decision::Continue {
                    break;
                }
            }
            hits += usize::from(t.decision() == verdict);
        }
        hits as f64 / runs as f64
    }

    #[test]
    fn keeps_its_error_rates_on_zero_heavy_skewed_differences() {
        // At LOWER the old GSPRT passed such data about a third of the time.
        let false_pass = rate(11, -1.0, 400, Decision::AcceptUpper);
        assert!(false_pass <= 0.05, "false pass rate {false_pass}");
        let false_fail = rate(12, 0.0, 400, Decision::AcceptLower);
        assert!(false_fail <= 0.05, "false fail rate {false_fail}");
        // And it decides: a clearly better or worse candidate is judged right nearly always.
        assert!(rate(13, 0.5, 200, Decision::AcceptUpper) >= 0.95);
        assert!(rate(14, -1.5, 200, Decision::AcceptLower) >= 0.95);
    }

    #[test]
    fn a_surprise_cuts_the_wealth_it_would_have_gained() {
        let mut t = BettingTest::new(-1.0, 0.0, 0.05, 0.05);
        for _ in 0..10 {
            t.push(0.5, 1.0);
        }
        let (before, _) = t.log_wealth();
        assert!(before > 0.0);
        // Far below the range: the pass side's factor would be negative.
        let (lo, _) = t.range();
        t.push(lo * 100.0, 1.0);
        assert_eq!(t.surprises(), 1);
        assert!(t.log_wealth().0 <= -2.0 * 12f64.ln() + 1e-12);
        assert!(t.range().0 <= lo * 100.0, "the range takes the surprise in");
    }
}
