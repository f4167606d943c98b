//! An `ismcts` bot's parameters
//! (`ismcts:iterations=N,worlds=N,walks=N,replays=N,ms=N,c=X,sure=Z,root=paired|ucb,widen=N,others=policy|tree,playout=simple|random`).

/// How the playouts of an `ismcts` search choose their actions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Playouts {
    /// The game's playout policy at every seat (`simple`, as `pimc`'s).
    Simple,
    /// Uniformly at random among the legal actions.
    Random,
}

/// How the other seats choose their actions in the tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Others {
    /// As the playout policy would in the world sampled: the bot's model of them (`simple`).
    Policy,
    /// By the tree, each maximizing its own mean score (classic ISMCTS: the others search too).
    Tree,
}

/// How the search treats the decision itself (the root of the tree).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Root {
    /// Every legal action walked in every sampled world, and the action chosen from the values
    /// compared world by world (as `pimc` does; the luck of a deal weighs on every action alike).
    Paired,
    /// One action per walk, by UCB1 like any node of the seat's; the most visited is chosen.
    Ucb,
}

/// How long an `ismcts` bot searches and how. Without `ms` it is deterministic for a seed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Params {
    /// Iterations per decision (each one a walk down the tree and a playout); `None`: `pimc`'s
    /// default playouts in the game ([`Budget::counts`](crate::bots::pimc::Budget::counts)).
    pub iterations: Option<usize>,
    /// At most this many worlds sampled per decision; the iterations take them in turn.
    /// `None`: `pimc`'s default samples in the game.
    pub worlds: Option<usize>,
    /// With `root=paired`: walks of each legal action in each sampled world (their mean is the
    /// action's value there). A world costs far more to sample than to walk, and the walks of
    /// one world differ where the seat's own later nodes are searched.
    pub walks: usize,
    /// At most this many replays of the deal's lines per decision to sample worlds, as
    /// `pimc`'s [`replays`](crate::bots::pimc::Budget::replays) (`None`: its default in the
    /// game).
    pub replays: Option<usize>,
    /// A cap on the time per decision in milliseconds.
    pub ms: Option<u64>,
    /// UCB1's exploration constant, on scores scaled to the range seen in the search.
    pub c: f64,
    /// The playout policy.
    pub playouts: Playouts,
    /// How the other seats choose in the tree.
    pub others: Others,
    /// How the root is searched.
    pub root: Root,
    /// Below the root, the seat's own node is searched by UCB1 once walks have passed it this
    /// often; before, the seat plays there as the playout policy would (a node met by few walks
    /// would only be tried at random).
    pub widen: u32,
    /// How sure the search must be to leave the playout policy's choice, in standard errors of
    /// the difference of the two actions' means at the root (as `pimc`'s `sure`); `None`: the
    /// game's [`search_sure`](crate::game::GameSpec::search_sure).
    pub sure: Option<f64>,
}

impl Default for Params {
    fn default() -> Params {
        Params {
            iterations: None,
            worlds: None,
            walks: 1,
            replays: None,
            ms: None,
            c: 0.7,
            playouts: Playouts::Simple,
            others: Others::Policy,
            root: Root::Paired,
            widen: 20,
            sure: None,
        }
    }
}

impl Params {
    /// Reads `iterations=N,worlds=N,walks=N,replays=N,ms=N,c=X,sure=Z,root=paired|ucb,widen=N,others=policy|tree,playout=simple|random` (any may be left out).
    pub fn parse(params: &str) -> Result<Params, String> {
        let mut p = Params::default();
        for part in params.split(',').filter(|p| !p.is_empty()) {
            let (k, v) = part.split_once('=').ok_or_else(|| {
                format!(
                    "bad ismcts parameter '{part}': write iterations=N, worlds=N, walks=N, replays=N, ms=N, c=X, sure=Z, root=paired|ucb, widen=N, others=policy|tree or playout=simple|random"
                )
            })?;
            let count = || -> Result<u64, String> {
                v.parse()
                    .ok()
                    .filter(|&n: &u64| n > 0)
                    .ok_or_else(|| format!("bad ismcts parameter '{part}': {v} is not a whole number of at least 1"))
            };
            match k {
                "iterations" => p.iterations = Some(count()? as usize),
                "worlds" => p.worlds = Some(count()? as usize),
                "walks" => p.walks = count()? as usize,
                "replays" => p.replays = Some(count()? as usize),
                "ms" => p.ms = Some(count()?),
                "sure" => {
                    p.sure = Some(
                        v.parse::<f64>()
                            .ok()
                            .filter(|z| z.is_finite() && *z >= 0.0)
                            .ok_or_else(|| format!("bad ismcts parameter '{part}': {v} is not a number of at least 0"))?,
                    )
                }
                "c" => {
                    p.c = v
                        .parse::<f64>()
                        .ok()
                        .filter(|c| c.is_finite() && *c >= 0.0)
                        .ok_or_else(|| format!("bad ismcts parameter '{part}': {v} is not a number of at least 0"))?
                }
                "root" => {
                    p.root = match v {
                        "paired" => Root::Paired,
                        "ucb" => Root::Ucb,
                        _ => return Err(format!("bad ismcts parameter '{part}': the root is paired or ucb")),
                    }
                }
                "widen" => p.widen = count()?.min(u32::MAX as u64) as u32,
                "others" => {
                    p.others = match v {
                        "policy" => Others::Policy,
                        "tree" => Others::Tree,
                        _ => return Err(format!("bad ismcts parameter '{part}': the others play by policy or tree")),
                    }
                }
                "playout" => {
                    p.playouts = match v {
                        "simple" => Playouts::Simple,
                        "random" => Playouts::Random,
                        _ => {
                            return Err(format!(
                                "bad ismcts parameter '{part}': the playout policy is simple or random"
                            ))
                        }
                    }
                }
                _ => {
                    return Err(format!(
                        "unknown ismcts parameter '{k}' (ismcts takes iterations=N, worlds=N, walks=N, replays=N, ms=N, c=X, sure=Z, root=paired|ucb, widen=N, others=policy|tree and playout=simple|random)"
                    ))
                }
            }
        }
        Ok(p)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_every_parameter_and_names_a_bad_one() {
        let p = Params::parse(
            "iterations=50,worlds=5,walks=2,replays=70,ms=20,c=1.5,sure=2,root=ucb,widen=3,others=tree,playout=random",
        )
        .unwrap();
        assert_eq!(
            p,
            Params {
                iterations: Some(50),
                worlds: Some(5),
                walks: 2,
                replays: Some(70),
                ms: Some(20),
                c: 1.5,
                playouts: Playouts::Random,
                others: Others::Tree,
                root: Root::Ucb,
                widen: 3,
                sure: Some(2.0),
            }
        );
        assert_eq!(Params::parse("").unwrap(), Params::default());
        assert!(Params::parse("iterations=0").unwrap_err().contains("'iterations=0'"));
        assert!(Params::parse("c=-1").unwrap_err().contains("at least 0"));
        assert!(Params::parse("playout=pimc").unwrap_err().contains("simple or random"));
        assert!(Params::parse("root=best").unwrap_err().contains("paired or ucb"));
        assert!(Params::parse("others=all").unwrap_err().contains("policy or tree"));
        assert!(Params::parse("depth=3")
            .unwrap_err()
            .contains("unknown ismcts parameter 'depth'"));
        assert!(Params::parse("worlds").unwrap_err().contains("write iterations=N"));
    }
}
