//! The hint said before the person's first turn when a session is long: how long it is, and the
//! rules that make a shorter one.

/// How long a session of `game` is under `options`, and how to play a shorter one (with the
/// real rule names), when it is long: said once, before the person's first turn.
pub fn session_hint(game: &str, players: usize, options: &crate::options::Options) -> Option<String> {
    let num = |name: &str| -> Option<i64> {
        options
            .iter()
            .find(|(k, _)| k.as_str() == name)
            .and_then(|(_, v)| v.parse().ok())
    };
    let n = players as i64;
    let (long, what, shorter) = match game {
        "skwitz" => {
            let (g, t) = (num("games")?, num("target")?);
            (
                g > 1 || t > 3,
                format!(
                    "{g} Skwitz game(s), each played until someone declares Out! at {t} points \
                     (with the default rules a few hundred turns)"
                ),
                "--rule games=1 --rule target=3 --rule extra_games_cap=0",
            )
        }
        "zwikken" => {
            let d = match num("deals")? {
                0 => 4 * n,
                d => d,
            };
            let x = match num("extra_deals_cap")? {
                -1 => 2 * n,
                x => x,
            };
            (
                d > 2 || x > 0,
                format!("{d} deals of Zwikken, and up to {x} more while the pot is not empty"),
                "--rule deals=2 --rule extra_deals_cap=0",
            )
        }
        "svangknack" => {
            let r = match num("rounds")? {
                0 => 3 * n,
                r => r,
            };
            let x = match num("extra_rounds_cap")? {
                -1 => n,
                x => x,
            };
            (
                r > 3 || x > 0,
                format!("{r} rounds of Svängknack, and up to {x} more while bets are owed"),
                "--rule rounds=3 --rule extra_rounds_cap=0",
            )
        }
        "kul" => {
            let (g, m) = (num("games")?, num("marks_to_win")?);
            (
                g > 1 || m > 1,
                format!("{g} Kul game(s), each won with {m} mark(s)"),
                "--rule games=1 --rule marks_to_win=1",
            )
        }
        "schwimmen" => {
            let s = num("strikes_to_drown")?;
            (
                s > 2,
                format!("a game of Schwimmen: rounds until one player is left, {s} strikes drown a player"),
                "--rule strikes_to_drown=2",
            )
        }
        _ => return None,
    };
    long.then(|| {
        format!(
            "This session is {what}. For a shorter one, play with {shorter}. \
             Ctrl-D at a prompt leaves the game (what was played is kept)."
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_sessions_say_how_to_play_a_shorter_one() {
        let opts = |game: &str, rules: &[&str]| {
            let spec = crate::games::find(game).unwrap();
            let rules: Vec<String> = rules.iter().map(|r| r.to_string()).collect();
            crate::options::Options::resolve(&(spec.options)(), spec.name, &rules).unwrap()
        };
        let hint = session_hint("skwitz", 4, &opts("skwitz", &[])).unwrap();
        assert!(hint.contains("5 Skwitz game(s)"), "{hint}");
        assert!(hint.contains("--rule games=1 --rule target=3"), "{hint}");
        assert_eq!(
            session_hint("skwitz", 4, &opts("skwitz", &["games=1", "target=3"])),
            None
        );
        let hint = session_hint("zwikken", 3, &opts("zwikken", &[])).unwrap();
        assert!(hint.contains("12 deals of Zwikken, and up to 6 more"), "{hint}");
        assert!(session_hint("svangknack", 3, &opts("svangknack", &[])).is_some());
        assert!(session_hint("kul", 3, &opts("kul", &[])).is_some());
        assert!(session_hint("schwimmen", 3, &opts("schwimmen", &[])).is_some());
        assert_eq!(session_hint("rikken", 4, &opts("rikken", &[])), None);
    }
}
