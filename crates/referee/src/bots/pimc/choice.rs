//! The action a search picks from its playouts' values, world by world ([`choose`]), and
//! what it found there, for people ([`Searched::analysis`]): both read the values through
//! [`Paired`], so what `croupier ask` shows is what the bot decided on.

use crate::bots::analysis::{ActionValue, Analysis};

/// The values of a decision's playouts: `values[w][i]` is world `w`'s value of action `i` for
/// the seat, `weights[w]` the world's weight.
struct Paired<'a> {
    values: &'a [Vec<f64>],
    weights: &'a [f64],
    total: f64,
}

impl<'a> Paired<'a> {
    fn new(values: &'a [Vec<f64>], weights: &'a [f64]) -> Paired<'a> {
        Paired {
            values,
            weights,
            total: weights.iter().sum(),
        }
    }

    fn actions(&self) -> usize {
        self.values.first().map_or(0, Vec::len)
    }

    /// The weighted mean over the worlds of `f` of each world's values.
    fn mean(&self, f: &dyn Fn(&[f64]) -> f64) -> f64 {
        self.values.iter().zip(self.weights).map(|(v, w)| w * f(v)).sum::<f64>() / self.total
    }

    /// The effective number of worlds of the weighted means.
    fn n_eff(&self) -> f64 {
        self.total * self.total / self.weights.iter().map(|w| w * w).sum::<f64>()
    }

    /// The action with the best weighted mean, the earlier of equals.
    fn best_mean(&self) -> usize {
        (0..self.actions())
            .map(|i| (i, self.mean(&|v| v[i])))
            .fold((0, f64::NEG_INFINITY), |b, (i, m)| if m > b.1 { (i, m) } else { b })
            .0
    }

    /// Action `i`'s mean gain on action `b`, world by world, and its standard error; `None`
    /// where the gain is not finite (a world refused one of them).
    fn gain(&self, i: usize, b: usize, n_eff: f64) -> Option<(f64, f64)> {
        let d = self.mean(&|v| v[i] - v[b]);
        if !d.is_finite() {
            return None;
        }
        let var = self.mean(&|v| (v[i] - v[b] - d).powi(2)) * n_eff / (n_eff - 1.0).max(1.0);
        Some((d, (var / n_eff).sqrt()))
    }
}

/// The action a search picks from its playouts: `values[w][i]` is world `w`'s value of action
/// `i`, `weights[w]` the world's weight. With `sure` = 0 (or no `base`), the best weighted
/// mean; otherwise `base` (the playout policy's choice) unless another action gains on it,
/// world by world, by more than `sure` standard errors: then the one with the highest such
/// lower bound. Ties go to the earlier action.
pub fn choose(values: &[Vec<f64>], weights: &[f64], base: Option<usize>, sure: f64) -> usize {
    let paired = Paired::new(values, weights);
    let Some(b) = base.filter(|_| sure > 0.0 && values.len() >= 2) else {
        return paired.best_mean();
    };
    let n_eff = paired.n_eff();
    let mut pick = (b, 0.0);
    for i in (0..paired.actions()).filter(|&i| i != b) {
        let Some((d, se)) = paired.gain(i, b, n_eff) else {
            continue;
        };
        let lower = d - sure * se;
        if lower > pick.1 {
            pick = (i, lower);
        }
    }
    pick.0
}

/// A decision searched: the legal actions, the playouts' values and the worlds' weights, the
/// playout policy's choice, `sure`, and the action chosen (an index into `legal`).
pub(super) struct Searched {
    pub(super) legal: Vec<String>,
    pub(super) values: Vec<Vec<f64>>,
    pub(super) weights: Vec<f64>,
    pub(super) base: Option<usize>,
    pub(super) sure: f64,
    pub(super) choice: usize,
}

impl Searched {
    /// What the search found, as [`choose`] read it: each action's weighted mean, and its gain
    /// on the playout policy's choice with the standard error `choose` weighed it by.
    pub(super) fn analysis(&self) -> Analysis {
        let paired = Paired::new(&self.values, &self.weights);
        let n_eff = paired.n_eff();
        let finite = |x: f64| x.is_finite().then_some(x);
        let actions = self
            .legal
            .iter()
            .enumerate()
            .map(|(i, action)| {
                let gain = self
                    .base
                    .filter(|&b| b != i && self.values.len() >= 2)
                    .and_then(|b| paired.gain(i, b, n_eff));
                ActionValue {
                    action: action.clone(),
                    mean: finite(paired.mean(&|v| v[i])),
                    gain: gain.map(|(d, _)| d),
                    se: gain.map(|(_, se)| se).and_then(finite),
                }
            })
            .collect();
        Analysis {
            worlds: self.values.len(),
            effective_worlds: n_eff,
            policy: self.base.map(|b| self.legal[b].clone()),
            sure: self.sure,
            chosen: self.legal[self.choice].clone(),
            actions,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn searched(values: Vec<Vec<f64>>, weights: Vec<f64>, base: Option<usize>, sure: f64) -> Searched {
        let choice = choose(&values, &weights, base, sure);
        Searched {
            legal: vec!["a".into(), "b".into(), "c".into()],
            values,
            weights,
            base,
            sure,
            choice,
        }
    }

    #[test]
    fn the_analysis_shows_the_means_and_gains_the_choice_was_made_on() {
        // b gains on a by 1 in every world but one: a clear gain; c loses.
        let values = vec![
            vec![0.0, 1.0, -1.0],
            vec![1.0, 2.0, 0.0],
            vec![2.0, 3.0, 1.0],
            vec![0.0, 0.5, -2.0],
        ];
        let s = searched(values, vec![1.0; 4], Some(0), 1.0);
        let a = s.analysis();
        assert_eq!(a.chosen, "b");
        assert_eq!(a.policy.as_deref(), Some("a"));
        assert_eq!(a.worlds, 4);
        assert!((a.effective_worlds - 4.0).abs() < 1e-12);
        let [x, y, z] = &a.actions[..] else {
            panic!("three actions")
        };
        assert_eq!((x.action.as_str(), x.mean, x.gain, x.se), ("a", Some(0.75), None, None));
        assert_eq!(y.mean, Some(1.625));
        assert_eq!(y.gain, Some(0.875));
        // The gains 1, 1, 1, 0.5: mean square deviation 0.046875, times 4/3: a variance of
        // 0.0625; the standard error of the mean of four, 0.125.
        let se = 0.125;
        assert!((y.se.unwrap() - se).abs() < 1e-12, "{:?}", y.se);
        assert!(
            y.gain.unwrap() - a.sure * y.se.unwrap() > 0.0,
            "b is chosen for a gain above sure"
        );
        assert_eq!(z.gain, Some(-1.25));
    }

    #[test]
    fn a_gain_within_sure_keeps_the_policys_choice_and_shows_why() {
        // b gains on a on average, but not by a standard error.
        let values = vec![vec![0.0, 3.0], vec![0.0, -2.0], vec![0.0, 0.5]];
        let s = Searched {
            legal: vec!["a".into(), "b".into()],
            choice: choose(&values, &[1.0; 3], Some(0), 1.0),
            values,
            weights: vec![1.0; 3],
            base: Some(0),
            sure: 1.0,
        };
        let a = s.analysis();
        assert_eq!(a.chosen, "a");
        let b = &a.actions[1];
        assert!(b.gain.unwrap() > 0.0 && b.gain.unwrap() < a.sure * b.se.unwrap());
    }

    #[test]
    fn an_action_a_world_refused_has_no_mean() {
        let values = vec![vec![1.0, f64::NEG_INFINITY], vec![2.0, 0.0]];
        let s = Searched {
            legal: vec!["a".into(), "b".into()],
            choice: choose(&values, &[1.0, 1.0], None, 0.0),
            values,
            weights: vec![1.0, 1.0],
            base: None,
            sure: 0.0,
        };
        let a = s.analysis();
        assert_eq!(a.chosen, "a");
        assert_eq!(a.actions[1].mean, None);
        assert_eq!(a.policy, None);
        assert_eq!(a.actions[0].gain, None);
    }
}
