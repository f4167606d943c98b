//! The `pimc` search bot (issue 14): the worlds it samples agree with everything its seat was
//! told, it decides from what its seat was told only, and it keeps its time budget.

mod common;
use common::croupier;

use croupier::bots::pimc::{Budget, Counts, Pimc};
use croupier::bots::Bot;
use croupier::chance::{Chance, DealSpec, Purpose, Rng};
use croupier::game::{Arg, Game, GameInfo, SeatView};

use common::{default_info as info, game_spec as spec};

/// Routes a game's new events to the bot at `seat` and to a reference view of that seat.
fn route(g: &mut dyn Game, seat: usize, bot: &mut Pimc, view: &mut dyn SeatView) {
    for e in g.take_events() {
        if e.to.contains(seat) {
            bot.notify(e.kind, &e.args);
            view.observe(e.kind, &e.args);
        }
    }
}

/// Plays a game with random seats and a `pimc` bot watching `seat`; at the seat's decisions
/// the bot's worlds are compared with the seat's real view. Returns (decisions checked, worlds
/// whose hidden part differed from the truth, deals thrown away (`reshuffle`) before the last
/// check).
/// With `must_follow`, the bot must follow a world at every check; otherwise the checks end
/// where it loses track.
fn worlds_agree_with_the_seat(game: &str, players: usize, seed: u64, must_follow: bool) -> (usize, usize, usize) {
    let spec = spec(game);
    let seat = 0;
    let info = info(&spec, players, seat);
    let mut g = (spec.new_game)(players, &info.options, Chance::seeded(seed), true).unwrap();
    let mut bot = Pimc::new("pimc", Budget::default(), seed).with_views();
    bot.start(&info, seed);
    let mut view = (spec.new_view)(&info);
    // The true views of every seat, to tell whether a world differs from the truth.
    let mut truth: Vec<Box<dyn SeatView>> = (0..players)
        .map(|s| {
            (spec.new_view)(&GameInfo {
                seat: s,
                ..info.clone()
            })
        })
        .collect();
    let mut rng = Rng::new(seed, Purpose::Bot, 9);
    let (mut checked, mut differ, mut thrown, mut thrown_checked) = (0, 0, 0, 0);
    loop {
        let events = g.take_events();
        for e in &events {
            thrown += (e.kind == "reshuffle") as usize;
            for s in e.to.members(players) {
                truth[s].observe(e.kind, &e.args);
            }
            if e.to.contains(seat) {
                bot.notify(e.kind, &e.args);
                view.observe(e.kind, &e.args);
            }
        }
        let Some(s) = g.to_move() else { break };
        let legal = g.legal_actions();
        if s == seat && checked < 12 {
            let Some(worlds) = bot.sampled_views(6) else {
                assert!(!must_follow, "{game} seed {seed}: the bot follows no world");
                break;
            };
            assert!(!worlds.is_empty());
            let real = view.to_json();
            for w in &worlds {
                assert_eq!(
                    w[seat], real,
                    "{game} seed {seed}: a world the seat can tell from the truth"
                );
                let hidden_differs = (0..players).any(|o| o != seat && w[o]["hand"] != truth[o].to_json()["hand"]);
                differ += hidden_differs as usize;
            }
            checked += 1;
            thrown_checked = thrown;
        }
        let a = legal[rng.below(legal.len() as u64) as usize].clone();
        g.apply(&a).unwrap();
    }
    (checked, differ, thrown_checked)
}

#[test]
fn sampled_worlds_show_the_seat_exactly_what_it_saw() {
    // Games whose deals the bot follows through every line (Schwimmen's middle and shown hands
    // keep the order of exchanges: the cards are traced back to where they were dealt).
    for (game, players) in [
        ("rikken", 4),
        ("kul", 4),
        ("svangknack", 4),
        ("skwitz", 4),
        ("schwimmen", 4),
    ] {
        let mut checked = 0;
        let mut differ = 0;
        for seed in 1..=8 {
            let (c, d, _) = worlds_agree_with_the_seat(game, players, seed, true);
            checked += c;
            differ += d;
        }
        assert!(checked >= 8, "{game}: only {checked} decisions checked");
        assert!(
            differ > 0,
            "{game}: no sampled world hid anything different from the truth"
        );
    }
}

/// A Skwitz deal whose bottom card is a matador is thrown away (`reshuffle`): the bot's worlds
/// throw away as many before the deal they play.
#[test]
fn worlds_throw_away_the_deals_the_rules_threw_away() {
    let mut with_reshuffles = 0;
    for seed in 1..=30 {
        let (checked, _, thrown) = worlds_agree_with_the_seat("skwitz", 4, seed, false);
        if thrown > 0 && checked > 0 {
            with_reshuffles += 1;
        }
        if with_reshuffles >= 2 {
            return;
        }
    }
    panic!("only {with_reshuffles} sessions with a reshuffle before a checked decision");
}

/// The first decision of seat 0 in a Rikken deal where it bids first, with the other hands
/// given.
fn first_decision(others: [&str; 3], seed: u64) -> String {
    let spec = spec("rikken");
    let info = info(&spec, 4, 0);
    let hand = "AS KS QS JS TS 9S 8S AH KH QH JH TH 9H";
    let cards = |s: &str| s.split_whitespace().map(|c| c.parse().unwrap()).collect::<Vec<_>>();
    let deal = DealSpec {
        dealer: Some(3),
        hands: std::iter::once(hand).chain(others).map(|h| Some(cards(h))).collect(),
        piles: Default::default(),
    };
    let mut g = (spec.new_game)(4, &info.options, Chance::given(seed, vec![deal]), true).unwrap();
    let mut bot = Pimc::new("pimc", Budget::parse("samples=8,playouts=200").unwrap(), 5);
    bot.start(&info, 77);
    let mut view = (spec.new_view)(&info);
    route(g.as_mut(), 0, &mut bot, view.as_mut());
    assert_eq!(g.to_move(), Some(0));
    let legal = g.legal_actions();
    bot.act(g.decision(), 0, &legal)
}

#[test]
fn the_same_view_gives_the_same_decision_whatever_the_hidden_cards() {
    let a = first_decision(
        [
            "7S 6S 5S 4S 3S 2S 8H 7H 6H 5H 4H 3H 2H",
            "AD KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D",
            "AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C",
        ],
        1,
    );
    let b = first_decision(
        [
            "AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C",
            "7S 6S 5S 4S 3S 2S 8H 7H 6H 5H 4H 3H 2H",
            "AD KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D",
        ],
        2,
    );
    assert_eq!(a, b);
}

#[test]
fn a_time_budget_stops_the_search() {
    let spec = spec("kul");
    let info = info(&spec, 5, 0);
    let mut g = (spec.new_game)(5, &info.options, Chance::seeded(3), true).unwrap();
    // Far more samples than fit in 20 ms: the time cap ends each search.
    let mut bot = Pimc::new(
        "pimc",
        Budget::parse("samples=100000,playouts=100000000,ms=20").unwrap(),
        1,
    );
    bot.start(&info, 1);
    let mut view = (spec.new_view)(&info);
    let mut rng = Rng::new(3, Purpose::Bot, 0);
    let mut decisions = 0;
    loop {
        route(g.as_mut(), 0, &mut bot, view.as_mut());
        let Some(s) = g.to_move() else { break };
        let legal = g.legal_actions();
        let a = if s == 0 && legal.len() > 1 && decisions < 5 {
            let start = std::time::Instant::now();
            let a = bot.act(g.decision(), 0, &legal);
            // Generous: the cap is 20 ms; a loaded machine may run late, never by seconds.
            assert!(start.elapsed() < std::time::Duration::from_secs(5));
            decisions += 1;
            a
        } else {
            legal[rng.below(legal.len() as u64) as usize].clone()
        };
        assert!(legal.contains(&a));
        g.apply(&a).unwrap();
    }
    assert!(decisions >= 3, "only {decisions} decisions");
    // Each search stopped long before its 100,000 samples. (Not how many searched: on a loaded
    // machine the 20 ms can run out while a debug build catches up with the game, and the bot
    // then plays its policy, which is right but says nothing of the cap.)
    assert!(bot.stats.searched + bot.stats.fell_back >= 3);
    assert!(bot.stats.worlds < 100_000 * decisions / 10);
}

#[test]
fn pimc_plays_every_game_through_the_cli_and_the_protocol() {
    // In-process, with parameters in the seat spec.
    let seats = ["pimc:samples=4", "simple", "simple", "simple"]
        .map(|b| ["--seat", b])
        .concat();
    let out = croupier()
        .args(["play", "rikken", "--seed", "3", "--games", "2", "--quiet"])
        .args(seats)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    // Over the protocol: `croupier bot pimc` passes croupier's own compliance check.
    let out = croupier()
        .args(["check", "croupier bot pimc:samples=1,playouts=2"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("all checks passed"), "{text}");
    // A bad parameter is a usage error that names it.
    common::assert_usage_error(
        &["play", "kul", "--seat", "pimc:sample=4", "--seat", "simple"],
        &["sample", "pimc takes"],
    );
}

#[test]
fn a_default_budget_is_the_games_and_a_given_count_is_kept() {
    for game in ["rikken", "zwikken", "svangknack", "kul", "skwitz", "schwimmen"] {
        let spec = spec(game);
        let k = spec.search_scale;
        assert!(k >= 1, "{game}");
        let mut bot = Pimc::new("pimc", Budget::default(), 1);
        // Before it knows its game, the scale-1 defaults.
        assert_eq!(bot.counts().playouts, 1000, "{game}");
        bot.start(&info(&spec, spec.default_players, 0), 1);
        assert_eq!(
            bot.counts(),
            Counts {
                samples: 100 * k,
                playouts: 1000 * k,
                replays: 600 * k
            },
            "{game}"
        );
        let mut given = Pimc::new("pimc", Budget::parse("samples=7,playouts=70").unwrap(), 1);
        given.start(&info(&spec, spec.default_players, 0), 1);
        assert_eq!((given.counts().samples, given.counts().playouts), (7, 70), "{game}");
    }
    // Svängknack and Kul, whose searches are fast, search more worlds by default
    // (BENCHMARKS.md: stronger so on fresh seeds).
    assert!(spec("svangknack").search_scale > 1 && spec("kul").search_scale > 1);
    assert_eq!(spec("rikken").search_scale, 1);
}

#[test]
fn a_budget_reads_its_parameters() {
    assert_eq!(
        Budget::parse("samples=7,ms=30").unwrap(),
        Budget {
            samples: Some(7),
            playouts: None,
            replays: None,
            ms: Some(30),
            sure: None,
            infer: Budget::default().infer,
        }
    );
    assert_eq!(Budget::default().infer, 0.3);
    // Counts left out are the defaults times the game's scale; those given are kept.
    let counts = Budget::parse("samples=7,replays=50").unwrap().counts(3);
    assert_eq!(
        counts,
        Counts {
            samples: 7,
            playouts: 3000,
            replays: 50
        }
    );
    assert_eq!(Budget::default().counts(1).playouts, 1000);
    assert_eq!(Budget::parse("infer=0.5,sure=1").unwrap().infer, 0.5);
    assert_eq!(Budget::parse("infer=1").unwrap().infer, 1.0);
    assert!(Budget::parse("infer=0").unwrap_err().contains("above 0 and at most 1"));
    assert!(Budget::parse("infer=1.5")
        .unwrap_err()
        .contains("above 0 and at most 1"));
    assert_eq!(Budget::parse("sure=0").unwrap().sure, Some(0.0));
    assert_eq!(Budget::parse("sure=1.5,playouts=9").unwrap().sure, Some(1.5));
    assert!(Budget::parse("sure=-1").unwrap_err().contains("at least 0"));
    assert!(Budget::parse("samples=0").unwrap_err().contains("at least 1"));
    assert!(Budget::parse("fast").unwrap_err().contains("samples=N"));
    assert_eq!(Budget::parse("replays=9").unwrap().replays, Some(9));
    assert!(Budget::parse("replays=0").unwrap_err().contains("at least 1"));
}

/// `replays` caps the replays of the deal's lines a decision's sampling tries (a sample's
/// repairs may run past it once, and the world followed stands in when nothing fitted): the
/// capped bot searches every decision on fewer worlds than the same bot without the cap, on the
/// same lines.
#[test]
fn a_replay_cap_bounds_each_decisions_sampling_and_still_searches() {
    const CAP: u64 = 30;
    const REPAIRS: u64 = 40;
    let spec = spec("rikken");
    let info = info(&spec, 4, 0);
    let (mut decisions, mut bound) = (0, 0);
    for seed in 1..=20 {
        if decisions >= 6 {
            break;
        }
        let mut g = (spec.new_game)(4, &info.options, Chance::seeded(seed), true).unwrap();
        let mut capped = Pimc::new("pimc", Budget::parse(&format!("replays={CAP}")).unwrap(), 1);
        let mut free = Pimc::new("pimc", Budget::parse("replays=1000000").unwrap(), 1);
        capped.start(&info, seed);
        free.start(&info, seed);
        let mut rng = Rng::new(seed, Purpose::Bot, 0);
        loop {
            for e in g.take_events() {
                if e.to.contains(0) {
                    capped.notify(e.kind, &e.args);
                    free.notify(e.kind, &e.args);
                }
            }
            let Some(s) = g.to_move() else { break };
            let legal = g.legal_actions();
            if s == 0 && legal.len() > 1 && decisions < 6 {
                let before = (capped.stats.clone(), free.stats.worlds);
                capped.act(g.decision(), 0, &legal);
                free.act(g.decision(), 0, &legal);
                let replays = capped.stats.replays - before.0.replays;
                let worlds = capped.stats.worlds - before.0.worlds;
                assert!(replays <= CAP - 1 + 2 * REPAIRS, "{replays} replays");
                assert!(worlds >= 1, "a decision without a world");
                assert_eq!(capped.stats.fell_back, before.0.fell_back, "a decision left to simple");
                bound += (worlds < free.stats.worlds - before.1) as usize;
                decisions += 1;
            }
            let a = legal[rng.below(legal.len() as u64) as usize].clone();
            g.apply(&a).unwrap();
        }
    }
    assert!(decisions >= 6, "only {decisions} decisions");
    assert!(bound >= 1, "the cap never cut a decision's sampling short");
}

/// Following the game shares the time cap with the search: a bot that must explain hundreds of
/// lines in 1 ms answers with `simple` now and goes on following the game at its next decisions
/// (it is not lost), until it searches again.
#[test]
fn catching_up_keeps_the_time_cap_and_resumes_at_the_next_decision() {
    let spec = spec("skwitz");
    let info = info(&spec, 4, 0);
    let mut g = (spec.new_game)(4, &info.options, Chance::seeded(5), true).unwrap();
    let mut bot = Pimc::new("pimc", Budget::parse("samples=2,playouts=4,ms=1").unwrap(), 1);
    bot.start(&info, 1);
    let mut view = (spec.new_view)(&info);
    let mut rng = Rng::new(5, Purpose::Bot, 0);
    let mut seen = 0;
    let mut asked = 0;
    loop {
        let events = g.take_events();
        for e in &events {
            if e.to.contains(0) {
                bot.notify(e.kind, &e.args);
                view.observe(e.kind, &e.args);
                seen += 1;
            }
        }
        let Some(s) = g.to_move() else { break };
        let legal = g.legal_actions();
        // The bot is asked only once it has hundreds of lines to explain.
        let a = if s == 0 && seen > 400 && legal.len() > 1 {
            asked += 1;
            bot.act(g.decision(), 0, &legal)
        } else {
            legal[rng.below(legal.len() as u64) as usize].clone()
        };
        assert!(legal.contains(&a));
        g.apply(&a).unwrap();
        if asked == 1 {
            assert_eq!(
                bot.stats.searched, 0,
                "{:?}: the first catch-up cannot fit in 1 ms",
                bot.stats
            );
            assert_eq!(bot.stats.fell_back, 1);
        }
        if bot.stats.searched > 0 {
            return;
        }
    }
    panic!("the bot never searched again: {:?} after {asked} decisions", bot.stats);
}

/// The choice among the playouts: the best mean with `sure` = 0; otherwise the playout
/// policy's choice unless another action gains on it by more than `sure` standard errors,
/// world by world.
#[test]
fn the_search_leaves_the_policys_choice_only_for_a_gain_it_is_sure_of() {
    use croupier::bots::pimc::choose;
    let w = |n: usize| vec![1.0; n];
    // Action 1 is better by 1 in every world: chosen over the base 0 at any sureness.
    let clear: Vec<Vec<f64>> = (0..10)
        .map(|k| vec![k as f64, k as f64 + 1.0, k as f64 - 1.0])
        .collect();
    assert_eq!(choose(&clear, &w(10), Some(0), 1.0), 1);
    assert_eq!(choose(&clear, &w(10), Some(0), 5.0), 1);
    // Action 1 is better on average by 0.2, with noise of ±3 from world to world.
    let noisy: Vec<Vec<f64>> = (0..10)
        .map(|k| vec![0.0, if k % 2 == 0 { 3.2 } else { -2.8 }])
        .collect();
    assert_eq!(choose(&noisy, &w(10), None, 1.0), 1, "no base: the best mean");
    assert_eq!(choose(&noisy, &w(10), Some(0), 0.0), 1, "sure=0: the best mean");
    assert_eq!(choose(&noisy, &w(10), Some(0), 1.0), 0, "not sure: the base");
    // Of two sure gains the higher lower bound: action 2 gains 2 ± 2, action 1 gains 1.5 ± 0.
    let two: Vec<Vec<f64>> = (0..10)
        .map(|k| vec![0.0, 1.5, if k % 2 == 0 { 4.0 } else { 0.0 }])
        .collect();
    assert_eq!(choose(&two, &w(10), Some(0), 1.0), 1);
    assert_eq!(choose(&two, &w(10), Some(0), 0.0), 2);
    // Weights count: a world of weight 0.3 moves the means less.
    let weighted = vec![vec![0.0, 5.0], vec![0.0, -1.0], vec![0.0, -1.0]];
    assert_eq!(choose(&weighted, &[0.3, 1.0, 1.0], None, 0.0), 0);
    assert_eq!(choose(&weighted, &[1.0, 1.0, 1.0], None, 0.0), 1);
}

/// Plays a whole `game` session with `pimc` (a small budget) at seat 0 and `simple` at the other
/// seats; returns the bot's counts (decisions searched, decisions left to `simple`).
fn session_against_simple(game: &str, players: usize, seed: u64) -> (u64, u64) {
    let spec = spec(game);
    let info = info(&spec, players, 0);
    let mut bot = Pimc::new("pimc", Budget::parse("samples=2,playouts=8").unwrap(), seed);
    bot.start(&info, seed);
    common::play_bot_against_simple(&spec, &info, Chance::seeded(seed), &mut bot);
    (bot.stats.searched, bot.stats.fell_back)
}

/// Issue 33: a Zwikken bid tells what the bidder holds (a plain `pass`: not the trump ten;
/// `wait_better`: the ten and a pair), and once no deal it tried fitted the bids the bot used to
/// stop following the session and play `simple` to its end (on these seeds, more than half of
/// its decisions). Its refits now keep what fitted and try again when more lines have come:
/// at most 5 % of its decisions go unsearched.
#[test]
fn pimc_searches_almost_every_zwikken_decision() {
    let (mut searched, mut fell_back) = (0, 0);
    for seed in 7..=12 {
        let (s, f) = session_against_simple("zwikken", 4, seed);
        searched += s;
        fell_back += f;
    }
    assert!(searched >= 200, "only {searched} decisions searched");
    assert!(
        fell_back * 20 <= searched + fell_back,
        "{fell_back} of {} decisions left to simple",
        searched + fell_back
    );
}

/// Issue 33: Zwikken's `exchange` line (a turned card taken for the trump ten) is followed back
/// to where its cards were dealt; a line about another seat (the world showed another asker's
/// zwik first) is not read as the same cards elsewhere; an exchange token's card is not taken
/// for a card the seat must hold; and an action only starts a deal where the seat's lines show
/// one. Before, the bot lost track of this session at such an exchange and left 20 of its 60
/// decisions to `simple`.
#[test]
fn pimc_follows_zwikken_exchanges_and_showdowns() {
    let (searched, fell_back) = session_against_simple("zwikken", 4, 25);
    assert!(searched >= 30, "only {searched} decisions searched");
    assert!(
        fell_back <= 2,
        "{fell_back} of {} decisions left to simple",
        searched + fell_back
    );
}

/// Issue 33: a seat that exchanges in trick 1 plays `exchange_<taken>_<card>`: it takes the
/// turned card, which the bot saw on the table, and plays a card from its hand. A world whose
/// seat did not hold that card was repaired by putting the turned card in its hand (the first
/// card the token names), which never fits: with a `random` seat at the table, whose trick-1
/// exchanges are many, the bot lost track for the rest of the deal and left about a sixth of
/// its decisions to `simple`. Now the card moved is the one the token names that none of the
/// world's legal tokens names (the turned card is offered there too).
#[test]
fn pimc_follows_a_zwikken_table_with_a_random_seat() {
    let spec = spec("zwikken");
    let info = info(&spec, 4, 0);
    let (mut searched, mut fell_back) = (0, 0);
    for seed in 1..=3 {
        let mut bot = Pimc::new("pimc", Budget::parse("samples=2,playouts=8").unwrap(), seed);
        bot.start(&info, seed);
        common::play_bot_at_table(&spec, &info, Chance::seeded(seed), &mut bot, &[1], seed);
        searched += bot.stats.searched;
        fell_back += bot.stats.fell_back;
    }
    assert!(searched >= 100, "only {searched} decisions searched");
    assert!(
        fell_back * 20 <= searched + fell_back,
        "{fell_back} of {} decisions left to simple",
        searched + fell_back
    );
}

/// A bot that passes every line on as text, as a bot over the protocol reads it (`Arg::Text`,
/// not the engine's typed arguments).
struct AsText<'a>(&'a mut Pimc);

impl Bot for AsText<'_> {
    fn name(&self) -> &str {
        self.0.name()
    }
    fn version(&self) -> &str {
        self.0.version()
    }
    fn start(&mut self, info: &GameInfo, rngseed: u64) {
        self.0.start(info, rngseed)
    }
    fn notify(&mut self, kind: &str, args: &[Arg]) {
        let text: Vec<Arg> = args.iter().map(|a| Arg::Text(a.to_string())).collect();
        self.0.notify(kind, &text)
    }
    fn act(&mut self, decision: &str, time_ms: u64, legal: &[String]) -> String {
        self.0.act(decision, time_ms, legal)
    }
}

/// `pimc` decides the same whether its lines come typed (in process) or as text (over the
/// protocol, `croupier bot pimc`): every comparison reads an argument's value, not its variant.
/// The repair that tells lines about two seats apart matched the seat as a typed number only,
/// and over text every Schwimmen session of seeds 1 to 25 went otherwise.
#[test]
fn pimc_decides_the_same_over_text_lines() {
    for (game, seed) in [("schwimmen", 1), ("schwimmen", 2), ("zwikken", 25)] {
        let spec = spec(game);
        let info = info(&spec, 4, 0);
        let play = |text: bool| {
            let mut bot = Pimc::new("pimc", Budget::parse("samples=2,playouts=8").unwrap(), seed);
            bot.start(&info, seed);
            let chance = Chance::seeded(seed);
            if text {
                common::play_bot_against_simple(&spec, &info, chance, &mut AsText(&mut bot))
            } else {
                common::play_bot_against_simple(&spec, &info, chance, &mut bot)
            }
        };
        let typed = play(false);
        assert!(typed.len() >= 10, "{game} seed {seed}: only {} decisions", typed.len());
        assert_eq!(play(true), typed, "{game} seed {seed}: other actions over text lines");
    }
}

/// Issue 33: a Schwimmen round that ends on 31 (or at a showdown the world's hands do not make)
/// has no line that says whose cards made it; the hands shown at its end do, once each card is
/// followed back through the swaps (a `swap_all` too) to where it was dealt. Without them the
/// bot lost track of the first round of this seed and played `simple` to the session's end.
#[test]
fn pimc_searches_almost_every_schwimmen_decision() {
    let (searched, fell_back) = session_against_simple("schwimmen", 4, 6);
    assert!(searched >= 10, "only {searched} decisions searched");
    assert!(
        fell_back * 20 <= searched + fell_back,
        "{fell_back} of {} decisions left to simple",
        searched + fell_back
    );
}

/// Issue 33: a sampled deal keeps the cards the seat's lines showed at the deal (Skwitz's open
/// table, Zwikken's turned card) where the deal it follows has them. Dealt anew with the rest,
/// nearly every sample's first replays failed at the deal's first lines, each to be repaired
/// and replayed again: this session took 4.8 replays per world sampled before, 2.6 since.
#[test]
fn sampled_deals_keep_the_cards_shown_at_the_deal() {
    let spec = spec("skwitz");
    let info = info(&spec, 4, 0);
    let mut bot = Pimc::new("pimc", Budget::parse("samples=4,playouts=16").unwrap(), 3);
    bot.start(&info, 3);
    common::play_bot_against_simple(&spec, &info, Chance::seeded(3), &mut bot);
    let s = &bot.stats;
    assert!(s.worlds >= 100, "only {} worlds sampled", s.worlds);
    let per_world = s.replays as f64 / s.worlds as f64;
    assert!(
        per_world <= 3.5,
        "{} replays for {} worlds: {per_world:.2} per world",
        s.replays,
        s.worlds
    );
}

/// Every record's actions (seat and token), without their times.
fn actions_of(records: &[u8]) -> Vec<Vec<(u64, String)>> {
    String::from_utf8_lossy(records)
        .lines()
        .map(|line| {
            let r: serde_json::Value = serde_json::from_str(line).expect("a record line");
            r["actions"]
                .as_array()
                .expect("actions")
                .iter()
                .map(|a| (a["seat"].as_u64().unwrap(), a["action"].as_str().unwrap().to_string()))
                .collect()
        })
        .collect()
}

#[test]
fn the_searches_decide_alike_on_the_typed_engines_and_on_views() {
    // The replays, playouts, walks and weights on the typed engine without views (the default)
    // and on worlds with a view per seat fed by events (CROUPIER_SEARCH_VIEWS=1): the same
    // action at every decision of every game, so the engine's policies and hands read exactly
    // what the views hold.
    for (game, players, bot) in [
        ("rikken", "4", "pimc:samples=6,playouts=40"),
        ("zwikken", "4", "pimc:samples=6,playouts=40"),
        ("svangknack", "4", "ismcts:iterations=40,worlds=6"),
        ("kul", "3", "pimc:samples=6,playouts=40"),
        ("skwitz", "3", "ismcts:iterations=30,worlds=4"),
        ("schwimmen", "3", "pimc:samples=6,playouts=40"),
    ] {
        let run = |views: &str| {
            let out = croupier()
                .env("CROUPIER_SEARCH_VIEWS", views)
                .args(["match", game, "--players", players, "--games", "1", "--seed", "12"])
                .args(["--concurrency", "1", "--record", "-", "--bot", &format!("x={bot}")])
                .args(["--bot", "s=simple"])
                .output()
                .unwrap();
            assert!(out.status.success(), "{game}: {}", String::from_utf8_lossy(&out.stderr));
            actions_of(&out.stdout)
        };
        let typed = run("0");
        assert!(
            !typed.is_empty() && typed.iter().all(|a| !a.is_empty()),
            "{game}: no actions recorded"
        );
        assert_eq!(
            typed,
            run("1"),
            "{game}: {bot} decides otherwise on views than on the typed engine"
        );
    }
}

/// The table of the strength bench (`random`, `simple`, `pimc`, `ismcts`, every rotation of one
/// duplicate deal) with small budgets, through the CLI: the search bots' own counts
/// (`CROUPIER_PIMC_STATS`), summed per bot as (searched, left to `simple`).
fn table_counts(game: &str, seed: u64) -> Vec<(String, u64, u64)> {
    let dir = tempfile::tempdir().unwrap();
    let stats = dir.path().join("stats");
    let out = croupier()
        .args([
            "tournament",
            game,
            "--players",
            "4",
            "--bot",
            "random",
            "--bot",
            "simple",
        ])
        .args(["--bot", "pimc=pimc:samples=2,playouts=8"])
        .args(["--bot", "ismcts=ismcts:iterations=8,worlds=2"])
        .args(["--reference", "simple", "--deals", "1", "--seed", &seed.to_string()])
        .args(["--concurrency", "1", "--quiet", "--json"])
        .env("CROUPIER_PIMC_STATS", &stats)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let mut counts: Vec<(String, u64, u64)> = Vec::new();
    for r in common::records(&stats) {
        let bot = r["bot"].as_str().unwrap().to_string();
        let (s, f) = (r["searched"].as_u64().unwrap(), r["fell_back"].as_u64().unwrap());
        match counts.iter_mut().find(|c| c.0 == bot) {
            Some(c) => (c.1, c.2) = (c.1 + s, c.2 + f),
            None => counts.push((bot, s, f)),
        }
    }
    counts
}

/// Issue 33: three sessions in which the tracking once lost its deal and stayed lost (the
/// bots played `simple` for the rest of the session, or until the next deal):
/// - Skwitz, seed 7 (122 of 462 `pimc` decisions): the card the last deal's final action
///   played was held fixed in the new deal, where it was a matador at the bottom of the stock:
///   every refit was a deal the rules reshuffle;
/// - Zwikken, seed 11 (17 of 245): the deal ended on a `zwik` the world did not make, a line of
///   the action that made the next deal, which the refit took for the next deal's and never
///   fitted;
/// - Schwimmen, seed 3 (32 of 162): a round a world ended at the dealer's choice (on 31 or three
///   aces), where the seat's lines went on, was taken for a deal the seat had not seen yet;
/// - Zwikken, seed 8 (47 of 256): after two seeks, a refit did not find the hand that said it
///   held the trump ten; it now deals what the bids tell (`DealLines::tells`) before each replay.
///
/// Both search bots now search all but a few of their decisions in each.
#[test]
fn the_search_bots_follow_sessions_that_once_lost_them() {
    for (game, seed) in [("skwitz", 7), ("zwikken", 11), ("schwimmen", 3), ("zwikken", 8)] {
        let counts = table_counts(game, seed);
        assert_eq!(counts.len(), 2, "{game}: {counts:?}");
        for (bot, searched, fell_back) in counts {
            assert!(searched >= 100, "{game} {bot}: only {searched} decisions searched");
            assert!(
                fell_back * 50 <= searched + fell_back,
                "{game} seed {seed}, {bot}: {fell_back} of {} decisions left to simple",
                searched + fell_back
            );
        }
    }
}
