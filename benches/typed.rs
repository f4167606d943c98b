//! Random playouts of each typed engine: the engine API with `NoEvents` (what search uses),
//! with its events collected (what `Typed` does under the string interface), and through the
//! string interface `Game` (what the referee uses), side by side in one run, over the same
//! sessions and the same choices.
//!
//! `cargo bench --bench typed` (release); the throughput is in decisions per second. One game:
//! `cargo bench --bench typed -- kul`. A short smoke run: `cargo bench --bench typed -- --test`.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use croupier::chance::Chance;
use croupier::engine::{Engine, NoEvents};
use croupier::game::{Event, GameSpec};
use croupier::options::Options;
use std::hint::black_box;

/// Sessions per iteration (seeds 1..=SESSIONS), default options.
const SESSIONS: u64 = 16;

/// A cheap choice generator (xorshift64*), the same for every interface, so the measurement
/// is the engine's and not the random source's.
struct Pick(u64);

impl Pick {
    fn new(seed: u64) -> Pick {
        Pick(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 32) as usize % n
    }
}

/// Plays a built engine to its end with `pick`; `between` runs before each decision (to look
/// at or drop the events so far). Returns the decisions made.
fn play_out<G: Engine, E: croupier::engine::Events>(
    mut g: G,
    events: &mut E,
    seed: u64,
    legal: &mut Vec<G::Action>,
    mut between: impl FnMut(&mut E),
) -> u64 {
    let mut pick = Pick::new(seed);
    let mut decisions = 0;
    while g.to_move().is_some() {
        between(events);
        g.legal(legal);
        let a = legal[pick.below(legal.len())];
        g.apply(a, events).unwrap();
        decisions += 1;
    }
    black_box(g.outcome());
    decisions
}

/// One session through the string interface, as the referee drives a game.
fn string(spec: &GameSpec, players: usize, o: &Options, seed: u64) -> u64 {
    let mut g = (spec.new_game)(players, o, Chance::seeded(seed), true).unwrap();
    let mut pick = Pick::new(seed);
    let mut decisions = 0;
    loop {
        black_box(g.take_events());
        if g.to_move().is_none() {
            break;
        }
        let legal = g.legal_actions();
        let a = &legal[pick.below(legal.len())];
        g.apply(a).unwrap();
        decisions += 1;
    }
    black_box(g.outcome());
    decisions
}

/// The three measurements of one game. `$engine::new(players, &options, chance, &mut events)`
/// builds a session; `$module::spec()` is the game's string interface.
macro_rules! bench_engine {
    ($c:expr, $module:ident, $engine:ty, $players:expr) => {{
        use croupier::games::$module as module;
        let spec = module::spec();
        let players: usize = $players;
        let o = Options::resolve(&(spec.options)(), spec.name, &[] as &[&str]).unwrap();
        let mut legal = Vec::new();
        let typed = |legal: &mut Vec<<$engine as Engine>::Action>, s: u64| {
            let g = <$engine>::new(players, &o, Chance::seeded(s), &mut NoEvents).unwrap();
            play_out(g, &mut NoEvents, s, legal, |_| {})
        };
        let typed_events = |legal: &mut Vec<<$engine as Engine>::Action>, s: u64| {
            let mut events: Vec<Event> = Vec::new();
            let g = <$engine>::new(players, &o, Chance::seeded(s), &mut events).unwrap();
            play_out(g, &mut events, s, legal, |e| {
                black_box(&*e);
                e.clear()
            })
        };
        let decisions: u64 = (1..=SESSIONS).map(|s| typed(&mut legal, s)).sum();
        let same: u64 = (1..=SESSIONS).map(|s| string(&spec, players, &o, s)).sum();
        assert_eq!(decisions, same, "both interfaces must play the same sessions");
        let mut group = $c.benchmark_group(format!("{}-{players} random playouts", spec.name));
        group.throughput(Throughput::Elements(decisions));
        group.bench_function("typed, NoEvents", |b| {
            b.iter(|| (1..=SESSIONS).map(|s| typed(&mut legal, s)).sum::<u64>())
        });
        group.bench_function("typed, events collected", |b| {
            b.iter(|| (1..=SESSIONS).map(|s| typed_events(&mut legal, s)).sum::<u64>())
        });
        group.bench_function("string Game", |b| {
            b.iter(|| (1..=SESSIONS).map(|s| string(&spec, players, &o, s)).sum::<u64>())
        });
        group.finish();
    }};
}

fn playouts(c: &mut Criterion) {
    // One line per typed engine.
    bench_engine!(c, kul, croupier::games::kul::engine::Kul, 5);
    bench_engine!(c, zwikken, croupier::games::zwikken::engine::Zwikken, 4);
    bench_engine!(c, svangknack, croupier::games::svangknack::engine::Svangknack, 6);
    bench_engine!(c, schwimmen, croupier::games::schwimmen::engine::Schwimmen, 4);
    bench_engine!(c, skwitz, croupier::games::skwitz::engine::Skwitz, 4);
    bench_engine!(c, rikken, croupier::games::rikken::engine::Rikken, 4);
}

criterion_group!(benches, playouts);
criterion_main!(benches);
