//! The rules engines alone: random playouts through the `Game` trait, per game.
//!
//! One iteration plays a fixed batch of [`BATCH`] games (game seeds as `match --seed 1` draws
//! them), each seat choosing uniformly among the legal actions with a cheap seeded generator.
//! The batch is the same every iteration, so its number of decisions is fixed: criterion
//! reports it as the throughput (decisions/s), and the bench prints decisions per game once,
//! so that games/s = decisions/s ÷ decisions per game (BENCHMARKS.md).
//!
//! `cargo bench --bench engine` measures (quick by default; criterion's own options such as
//! `--measurement-time 10` override); `cargo bench --bench engine -- --test` runs every
//! benchmark once as a smoke test; a name filter picks games: `-- rikken`.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, SamplingMode, Throughput};
use croupier::arena::game_seed;
use croupier::chance::Chance;
use croupier::game::GameSpec;
use croupier::options::Options;
use std::hint::black_box;
use std::time::Duration;

/// Games per iteration.
const BATCH: u64 = 32;
/// The run seed the batch's game seeds are derived from.
const RUN_SEED: u64 = 1;

/// SplitMix64: a few instructions per draw, so the playout measures the engine, not the picker.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// An integer in `0..n` (multiply-shift; the bias is irrelevant here).
    fn below(&mut self, n: usize) -> usize {
        ((self.next() as u128 * n as u128) >> 64) as usize
    }
}

/// Plays one game to the end with random choices; returns the number of decisions.
fn playout(spec: &GameSpec, players: usize, options: &Options, seed: u64) -> u64 {
    let mut game = (spec.new_game)(players, options, Chance::seeded(seed), true).expect("the game starts");
    let mut rng = SplitMix(seed);
    let mut decisions = 0;
    black_box(game.take_events());
    while game.to_move().is_some() {
        let legal = game.legal_actions();
        let pick = &legal[rng.below(legal.len())];
        game.apply(pick).expect("a legal action is accepted");
        black_box(game.take_events());
        decisions += 1;
    }
    black_box(game.outcome().expect("a finished game has an outcome"));
    decisions
}

/// Plays the batch; returns its number of decisions.
fn batch(spec: &GameSpec, players: usize, options: &Options) -> u64 {
    (0..BATCH)
        .map(|i| playout(spec, players, options, game_seed(RUN_SEED, i)))
        .sum()
}

fn engine(c: &mut Criterion) {
    let mut group = c.benchmark_group("engine");
    // Iterations take milliseconds: the same number per sample, not a linear ramp.
    group.sampling_mode(SamplingMode::Flat);
    for spec in croupier::games::all() {
        let players = spec.default_players;
        let options = Options::resolve::<&str>(&(spec.options)(), spec.name, &[]).expect("default options");
        let decisions = batch(&spec, players, &options);
        eprintln!(
            "engine/{}-{players}p: {BATCH} games = {decisions} decisions ({:.1} per game)",
            spec.name,
            decisions as f64 / BATCH as f64
        );
        group.throughput(Throughput::Elements(decisions));
        group.bench_with_input(
            BenchmarkId::from_parameter(format!("{}-{players}p", spec.name)),
            &spec,
            |b, spec| b.iter(|| batch(spec, players, &options)),
        );
    }
    group.finish();
}

fn quick() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .sample_size(10)
}

criterion_group! {
    name = benches;
    config = quick();
    targets = engine
}
criterion_main!(benches);
