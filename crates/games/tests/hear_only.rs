//! A game told to keep only one seat's events ([`Game::hear_only`], a search's replay, which
//! compares only its own seat's lines) makes exactly the events that seat receives from the
//! full game, in the same order, and plays the same: in every game, over whole sessions.

use croupier_games::chance::{Chance, Purpose, Rng};
use croupier_games::game::{Event, Game};
use croupier_games::options::Options;

/// The events of `game` since the last call, as comparable text.
fn taken(game: &mut dyn Game) -> Vec<String> {
    game.take_events()
        .into_iter()
        .map(|Event { to, kind, args }| format!("{:b} {kind} {args:?}", to.0))
        .collect()
}

#[test]
fn a_game_that_hears_one_seat_makes_that_seats_events_and_plays_the_same() {
    for spec in croupier_games::games::all() {
        let options = Options::resolve(&(spec.options)(), spec.name, &[] as &[&str]).unwrap();
        let players = if spec.name == "rikken" { 4 } else { 3 };
        for seed in 1..=3u64 {
            let seat = (seed as usize) % players;
            let mut full = (spec.new_game)(players, &options, Chance::seeded(seed), true).unwrap();
            let mut heard = full.clone();
            heard.hear_only(seat);
            let mut rng = Rng::new(seed, Purpose::Bot, 7);
            let (mut steps, mut kept, mut dropped) = (0, 0, 0);
            loop {
                let all: Vec<Event> = full.take_events();
                let want: Vec<String> = all
                    .iter()
                    .filter(|e| e.to.contains(seat))
                    .map(|e| format!("{:b} {} {:?}", e.to.0, e.kind, e.args))
                    .collect();
                dropped += all.len() - want.len();
                kept += want.len();
                assert_eq!(
                    taken(heard.as_mut()),
                    want,
                    "{}, seed {seed}, seat {seat}, step {steps}: the events kept are not the seat's",
                    spec.name
                );
                let Some(_) = full.to_move() else { break };
                assert_eq!(full.to_move(), heard.to_move());
                let count = full.legal_count();
                assert_eq!(heard.legal_count(), count, "{}: the legal actions differ", spec.name);
                let i = rng.below(count as u64) as usize;
                full.apply_legal(i).unwrap();
                heard.apply_legal(i).unwrap();
                steps += 1;
                assert!(steps < 50_000, "{}: the session does not end", spec.name);
            }
            assert_eq!(full.scores(), heard.scores(), "{}, seed {seed}", spec.name);
            assert!(
                kept > 0 && dropped > 0,
                "{}: no event of another seat was dropped",
                spec.name
            );
        }
    }
}
