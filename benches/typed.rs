//! Kul random playouts: the typed engine API with `NoEvents` (what search will use) against
//! the string interface `Game` derived from it (what the referee uses today), side by side in
//! one run, over the same sessions and the same choices.
//!
//! `cargo bench --bench typed` (release); the throughput is in decisions per second. A short
//! smoke run: `cargo bench --bench typed -- --test`.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use croupier::chance::Chance;
use croupier::game::{Engine, Event, NoEvents};
use croupier::games::kul::{self, engine::Kul};
use croupier::options::Options;
use std::hint::black_box;

const PLAYERS: usize = 5;
/// Sessions per iteration (seeds 1..=SESSIONS), default options: 3 Kul games each.
const SESSIONS: u64 = 16;

/// A cheap choice generator (xorshift64*), the same for both interfaces, so the measurement
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

/// One session through the typed API; returns the decisions made.
fn typed(o: &Options, seed: u64, legal: &mut Vec<<Kul as Engine>::Action>) -> u64 {
    let mut g = Kul::new(PLAYERS, o, Chance::seeded(seed), &mut NoEvents).unwrap();
    let mut pick = Pick::new(seed);
    let mut decisions = 0;
    while g.to_move().is_some() {
        g.legal(legal);
        let a = legal[pick.below(legal.len())];
        g.apply(a, &mut NoEvents).unwrap();
        decisions += 1;
    }
    black_box(g.outcome());
    decisions
}

/// The same, with the events collected (what `Typed` does under the string interface).
fn typed_events(o: &Options, seed: u64, legal: &mut Vec<<Kul as Engine>::Action>) -> u64 {
    let mut events: Vec<Event> = Vec::new();
    let mut g = Kul::new(PLAYERS, o, Chance::seeded(seed), &mut events).unwrap();
    let mut pick = Pick::new(seed);
    let mut decisions = 0;
    while g.to_move().is_some() {
        black_box(&events);
        events.clear();
        g.legal(legal);
        let a = legal[pick.below(legal.len())];
        g.apply(a, &mut events).unwrap();
        decisions += 1;
    }
    black_box(g.outcome());
    decisions
}

/// One session through the string interface, as the referee drives a game.
fn string(o: &Options, seed: u64) -> u64 {
    let mut g = (kul::spec().new_game)(PLAYERS, o, Chance::seeded(seed)).unwrap();
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

fn playouts(c: &mut Criterion) {
    let o = Options::resolve(&kul::options(), "kul", &[] as &[&str]).unwrap();
    let mut legal = Vec::new();
    let decisions: u64 = (1..=SESSIONS).map(|s| typed(&o, s, &mut legal)).sum();
    let same: u64 = (1..=SESSIONS).map(|s| string(&o, s)).sum();
    assert_eq!(decisions, same, "both interfaces must play the same sessions");
    let mut group = c.benchmark_group(format!("kul-{PLAYERS} random playouts"));
    group.throughput(Throughput::Elements(decisions));
    group.bench_function("typed, NoEvents", |b| {
        b.iter(|| (1..=SESSIONS).map(|s| typed(&o, s, &mut legal)).sum::<u64>())
    });
    group.bench_function("typed, events collected", |b| {
        b.iter(|| (1..=SESSIONS).map(|s| typed_events(&o, s, &mut legal)).sum::<u64>())
    });
    group.bench_function("string Game", |b| {
        b.iter(|| (1..=SESSIONS).map(|s| string(&o, s)).sum::<u64>())
    });
    group.finish();
}

criterion_group!(benches, playouts);
criterion_main!(benches);
