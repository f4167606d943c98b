//! A `pimc` bot's parameters: how long it thinks, how sure it must be to leave the playout
//! policy's choice, and how much it infers from the other seats' actions
//! (`pimc:samples=N,playouts=N,replays=N,ms=N,sure=Z,infer=W`).

/// How long a `pimc` bot thinks, and how sure it must be to leave the playout policy's choice.
/// Without `ms` it is deterministic for a given seed. A count left out is the game's default:
/// 100 worlds, 1,000 playouts and 600 replays (`SAMPLES`, `PLAYOUTS` and `REPLAYS`) times its
/// [`search_scale`](crate::game::GameSpec::search_scale) ([`Budget::counts`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Budget {
    /// At most this many worlds per decision (each legal action is played out once in each).
    pub samples: Option<usize>,
    /// At most this many playouts per decision: a decision with many legal actions plays out
    /// fewer worlds (but at least two).
    pub playouts: Option<usize>,
    /// At most this many replays of the deal's lines per decision, the repairs of sampled
    /// worlds included: where the seat's lines fit few deals (a revealing bid), the worlds found
    /// by then are searched, so that such a decision does not take ten times as long (a
    /// deterministic cap, unlike `ms`). At least one world is always searched.
    pub replays: Option<usize>,
    /// A cap on the time per decision in milliseconds.
    pub ms: Option<u64>,
    /// The search plays another action than the playout policy (its model of good play) would
    /// only when that action's mean gain over it, paired world by world, is more than `sure`
    /// standard errors above zero; of such actions, the one with the highest lower bound. `0`:
    /// the best mean, however small the gain and noisy its estimate. `None`: the game's
    /// [`search_sure`](crate::game::GameSpec::search_sure).
    pub sure: Option<f64>,
    /// The weight a sampled world keeps for each action of another seat that the playout
    /// policy would not have played there (inference from the others' actions): 1 infers
    /// nothing, smaller trusts the playout policy more as a model of the others.
    pub infer: f64,
}

/// A search's counts per decision in one game: worlds, playouts and replays at most.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Counts {
    pub samples: usize,
    pub playouts: usize,
    pub replays: usize,
}

impl Default for Budget {
    fn default() -> Budget {
        Budget {
            samples: None,
            playouts: None,
            replays: None,
            ms: None,
            sure: None,
            infer: UNLIKE_SIMPLE,
        }
    }
}

impl Budget {
    /// The counts in a game whose [`search_scale`](crate::game::GameSpec::search_scale) is
    /// `scale`: those the spec gave, else the defaults times `scale`.
    pub fn counts(&self, scale: usize) -> Counts {
        Counts {
            samples: self.samples.unwrap_or(SAMPLES * scale),
            playouts: self.playouts.unwrap_or(PLAYOUTS * scale),
            replays: self.replays.unwrap_or(REPLAYS * scale),
        }
    }

    /// Reads `samples=N,playouts=N,replays=N,ms=M,sure=Z,infer=W` (any may be left out).
    pub fn parse(params: &str) -> Result<Budget, String> {
        let mut b = Budget::default();
        for part in params.split(',').filter(|p| !p.is_empty()) {
            let (k, v) = part.split_once('=').ok_or_else(|| {
                format!("bad pimc parameter '{part}': write samples=N, playouts=N, replays=N, ms=N, sure=Z or infer=W")
            })?;
            if k == "sure" {
                b.sure = Some(
                    v.parse::<f64>()
                        .ok()
                        .filter(|z| z.is_finite() && *z >= 0.0)
                        .ok_or_else(|| format!("bad pimc parameter '{part}': {v} is not a number of at least 0"))?,
                );
                continue;
            }
            if k == "infer" {
                b.infer =
                    v.parse::<f64>().ok().filter(|w| *w > 0.0 && *w <= 1.0).ok_or_else(|| {
                        format!("bad pimc parameter '{part}': {v} is not a number above 0 and at most 1")
                    })?;
                continue;
            }
            let n: u64 = v
                .parse()
                .ok()
                .filter(|&n| n > 0)
                .ok_or_else(|| format!("bad pimc parameter '{part}': {v} is not a whole number of at least 1"))?;
            match k {
                "samples" => b.samples = Some(n as usize),
                "playouts" => b.playouts = Some(n as usize),
                "replays" => b.replays = Some(n as usize),
                "ms" => b.ms = Some(n),
                _ => {
                    return Err(format!(
                        "unknown pimc parameter '{k}' (pimc takes samples=N, playouts=N, replays=N, ms=N, sure=Z and infer=W)"
                    ))
                }
            }
        }
        Ok(b)
    }
}

/// The weight a sampled world keeps for each action of another seat that `simple` would not
/// have played there, by default (`infer`): the bot expects the others to play about as
/// `simple` does, so worlds in which their bids and plays make sense count more (inference
/// from the actions seen).
const UNLIKE_SIMPLE: f64 = 0.3;

/// The worlds of a decision at most, by default (`samples`), in a game of
/// [`search_scale`](crate::game::GameSpec::search_scale) 1.
const SAMPLES: usize = 100;

/// The playouts of a decision at most, by default (`playouts`), at scale 1.
const PLAYOUTS: usize = 1000;

/// The replays of a decision's deal lines, by default (`replays`), at scale 1: a decision takes about 200
/// on average (Rikken, `pimc` against `simple`), one in twenty-five more than 600, and those
/// took up to 2,400 and 180 ms.
const REPLAYS: usize = 600;
