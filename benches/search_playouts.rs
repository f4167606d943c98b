//! A search's playouts with the playout policy (`simple`) at every seat, from positions of real
//! sessions, played both ways a search can: on the typed engine without events
//! (`playout::play_out`, what `pimc` and `ismcts` use where the game's engine has a playout
//! policy) and on the seat views fed by events (`playout::play_out_on_views`, the loop before,
//! and what `CROUPIER_SEARCH_VIEWS=1` asks for), side by side in one run. Each playout starts
//! from a copy of its position as a search makes one (the game alone, made quiet, or the game
//! with every view), and both loops must score every position alike.
//!
//! `cargo bench --bench search_playouts` (release); the throughput is in playouts per second.
//! One game: `cargo bench --bench search_playouts -- rikken`. A smoke run: `-- --test`.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use croupier::chance::Chance;
use croupier::game::{Game, GameInfo, GameSpec, SeatView};
use croupier::options::Options;
use croupier::playout::{play_out_on_views, route};
use std::hint::black_box;

/// A position a search plays out from: the game, every seat's view, and where the session
/// stood (`since`).
struct Position {
    game: Box<dyn Game>,
    views: Vec<Box<dyn SeatView>>,
    since: Option<u64>,
}

/// Every `every`-th decision of `sessions` sessions played by the playout policy.
fn positions(spec: &GameSpec, players: usize, sessions: u64, every: usize) -> Vec<Position> {
    let o = Options::resolve(&(spec.options)(), spec.name, &[] as &[&str]).unwrap();
    let mut out = Vec::new();
    for seed in 1..=sessions {
        let mut game = (spec.new_game)(players, &o, Chance::seeded(seed), true).unwrap();
        let mut views: Vec<Box<dyn SeatView>> = (0..players)
            .map(|seat| {
                (spec.new_view)(&GameInfo {
                    game: spec.name.into(),
                    options: o.clone(),
                    players,
                    seat,
                })
            })
            .collect();
        let mut step = 0;
        route(game.as_mut(), &mut views);
        while let Some(seat) = game.to_move() {
            if step % every == 0 {
                out.push(Position {
                    game: game.clone(),
                    views: views.clone(),
                    since: game.standing().map(|(k, _)| k),
                });
            }
            let i = spec.policy_index(game.as_mut(), views[seat].as_ref(), true);
            game.apply_legal(i).unwrap();
            route(game.as_mut(), &mut views);
            step += 1;
        }
    }
    out
}

fn typed(p: &Position) -> Vec<f64> {
    let mut g = p.game.clone();
    g.quiet();
    g.play_out(p.since, None).expect("a playout policy on the engine")
}

fn on_views(spec: &GameSpec, p: &Position) -> Vec<f64> {
    let mut g = p.game.clone();
    let mut views = p.views.clone();
    play_out_on_views(g.as_mut(), &mut views, spec, p.since, None)
}

fn bench_game(c: &mut Criterion, game: &str, players: usize, sessions: u64, every: usize) {
    let spec = croupier::games::find(game).unwrap();
    let ps = positions(&spec, players, sessions, every);
    if !ps[0].game.has_playout_policy() {
        eprintln!("{game}: no playout policy on its engine yet; skipped");
        return;
    }
    for p in &ps {
        assert_eq!(
            typed(p),
            on_views(&spec, p),
            "{game}: the two loops score a position differently"
        );
    }
    let mut group = c.benchmark_group(format!("{game}-{players} playouts"));
    group.throughput(Throughput::Elements(ps.len() as u64));
    group.bench_function("typed engine", |b| {
        b.iter(|| ps.iter().map(|p| black_box(typed(p)).len()).sum::<usize>())
    });
    group.bench_function("views", |b| {
        b.iter(|| ps.iter().map(|p| black_box(on_views(&spec, p)).len()).sum::<usize>())
    });
    group.finish();
}

fn playouts(c: &mut Criterion) {
    bench_game(c, "rikken", 4, 8, 4);
    bench_game(c, "zwikken", 4, 4, 4);
    bench_game(c, "svangknack", 6, 4, 4);
    bench_game(c, "kul", 5, 4, 4);
    bench_game(c, "skwitz", 4, 2, 8);
    bench_game(c, "schwimmen", 4, 4, 4);
}

criterion_group!(benches, playouts);
criterion_main!(benches);
