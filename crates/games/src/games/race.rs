//! Races to a number of marks or points: the chances behind the estimated standings of
//! [`Game::standing`](crate::game::Game::standing) in Kul (the pot goes to the first with three
//! marks) and Skwitz (a Skwitz game goes to the first who reaches the target).

/// The chance of each player to be the first to get its `needs[i]` marks (each ≥ 1) when
/// every mark goes to any player alike. Exact through the Poisson embedding (marks arriving at
/// each player at rate 1, independently: the order of arrivals is then uniform), integrated
/// numerically (Simpson's rule, within about 1e-5 of the exact odds); remembered per `needs`
/// up to order (a session sees few of them; search asks at the end of every playout).
pub fn race_odds(needs: &[u32]) -> Vec<f64> {
    use std::cell::RefCell;
    use std::collections::HashMap;
    thread_local! {
        static MEMO: RefCell<HashMap<Vec<u32>, Vec<f64>>> = RefCell::new(HashMap::new());
    }
    // The odds follow the players: work them out for the needs in order, then hand them back.
    let mut order: Vec<usize> = (0..needs.len()).collect();
    order.sort_by_key(|&i| needs[i]);
    let sorted: Vec<u32> = order.iter().map(|&i| needs[i]).collect();
    let odds = match MEMO.with(|m| m.borrow().get(&sorted).cloned()) {
        Some(p) => p,
        None => {
            let p = integrate(&sorted);
            MEMO.with(|m| {
                let mut m = m.borrow_mut();
                if m.len() >= 50_000 {
                    m.clear();
                }
                m.insert(sorted, p.clone());
            });
            p
        }
    };
    let mut p = vec![0.0; needs.len()];
    for (k, &i) in order.iter().enumerate() {
        p[i] = odds[k];
    }
    p
}

/// [`race_odds`] worked out.
fn integrate(needs: &[u32]) -> Vec<f64> {
    let n = needs.len();
    let top = needs.iter().copied().max().unwrap_or(1) as f64;
    let end = 4.0 * top + 24.0;
    let steps = 400; // even, for Simpson's rule
    let h = end / steps as f64;
    // density(a, t) of the a-th arrival, and survival(a, t) = P(fewer than a arrivals by t).
    let terms = |a: u32, t: f64| {
        let (mut term, mut sum) = (1.0f64, 0.0f64);
        for m in 0..a {
            if m > 0 {
                term *= t / m as f64;
            }
            sum += term;
        }
        // term = t^(a-1)/(a-1)!
        (term * (-t).exp(), sum * (-t).exp())
    };
    let mut p = vec![0.0; n];
    let mut at = vec![(0.0, 0.0); n];
    for k in 0..=steps {
        let t = k as f64 * h;
        let w = match k {
            0 => 1.0,
            _ if k == steps => 1.0,
            _ if k % 2 == 1 => 4.0,
            _ => 2.0,
        } / 3.0;
        for (x, &a) in at.iter_mut().zip(needs) {
            *x = terms(a, t);
        }
        for i in 0..n {
            let others: f64 = (0..n).filter(|&j| j != i).map(|j| at[j].1).product();
            p[i] += w * h * at[i].0 * others;
        }
    }
    let total: f64 = p.iter().sum();
    for x in &mut p {
        *x /= total;
    }
    p
}
