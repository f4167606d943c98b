//! Whole games through the referee (`referee::Table`) with in-process built-in seats: every
//! seat `random`, and every seat `simple`, per game.
//!
//! One iteration plays a fixed batch of [`BATCH`] games (game seeds as `match --seed 1` draws
//! them) on one table, the way `croupier play` and `match` do: setup lines, routed events,
//! decisions, a record per game (not serialized). Criterion's throughput is games/s; the bench
//! prints decisions per game once, so that decisions/s = games/s × decisions per game.
//!
//! `cargo bench --bench referee` measures (quick by default; criterion's own options override);
//! `cargo bench --bench referee -- --test` runs every benchmark once; filters: `-- simple`,
//! `-- random/rikken`.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, SamplingMode, Throughput};
use croupier::arena::game_seed;
use croupier::game::GameSpec;
use croupier::options::Options;
use croupier::referee::{identity, Config, SeatSpec, Table};
use std::hint::black_box;
use std::time::Duration;

/// Games per iteration.
const BATCH: u64 = 16;
/// The run seed the batch's game seeds are derived from.
const RUN_SEED: u64 = 1;

/// Plays the batch on `table`; returns its number of decisions.
fn batch(table: &mut Table, spec: &GameSpec, options: &Options, seat_of: &[usize]) -> u64 {
    let mut decisions = 0;
    for i in 0..BATCH {
        let record = table
            .play(spec, options, game_seed(RUN_SEED, i), vec![], seat_of)
            .expect("the game is played");
        decisions += record.actions.len() as u64;
        black_box(record);
    }
    decisions
}

fn referee(c: &mut Criterion) {
    for bot in ["random", "simple"] {
        let mut group = c.benchmark_group(format!("referee-{bot}"));
        // Iterations take milliseconds: the same number per sample, not a linear ramp.
        group.sampling_mode(SamplingMode::Flat);
        group.throughput(Throughput::Elements(BATCH));
        for spec in croupier::games::all() {
            let players = spec.default_players;
            let options = Options::resolve::<&str>(&(spec.options)(), spec.name, &[]).expect("default options");
            let seats = vec![SeatSpec::Builtin(bot.to_string()); players];
            let mut table = Table::new(&seats, Config::default()).expect("built-in seats start");
            let seat_of = identity(players);
            let decisions = batch(&mut table, &spec, &options, &seat_of);
            eprintln!(
                "referee-{bot}/{}-{players}p: {BATCH} games = {decisions} decisions ({:.1} per game)",
                spec.name,
                decisions as f64 / BATCH as f64
            );
            group.bench_with_input(
                BenchmarkId::from_parameter(format!("{}-{players}p", spec.name)),
                &spec,
                |b, spec| b.iter(|| batch(&mut table, spec, &options, &seat_of)),
            );
        }
        group.finish();
    }
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
    targets = referee
}
criterion_main!(benches);
