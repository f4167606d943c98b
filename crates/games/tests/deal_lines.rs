//! What a game's lines tell of cards they do not name ([`DealLines::tells`]: a Zwikken bid
//! tells whether the bidder holds the trump ten) is true of the game's real hands, at every
//! such line of random sessions, as a seat receives the lines: a search deals its worlds by it.
//!
//! [`DealLines::tells`]: croupier_games::game::DealLines::tells

use croupier_games::chance::{Chance, Purpose, Rng};
use croupier_games::game::Args;
use croupier_games::options::Options;

#[test]
fn what_a_line_tells_of_a_hand_is_true() {
    let mut told = 0;
    for spec in croupier_games::games::all() {
        let Some(tells) = spec.deal_lines.tells else { continue };
        let (mut held, mut lacked) = (0, 0);
        for seed in 1..=30u64 {
            let players = [3, 4, 5][seed as usize % 3];
            // Zwikken's options that change who may bid what: a bankroll (only a seat with the pot
            // in chips may ask) and exchanges for any suit's ten.
            let variants: &[&[(&str, &str)]] = match spec.name {
                "zwikken" => &[&[], &[("bankroll", "12")], &[("exchange_targets", "suit_matched")]],
                _ => &[&[]],
            };
            let pairs: Vec<(String, String)> = variants[(seed as usize / 3) % variants.len()]
                .iter()
                .map(|&(k, v)| (k.to_string(), v.to_string()))
                .collect();
            let options = Options::from_pairs(&(spec.options)(), spec.name, &pairs).unwrap();
            let mut game = (spec.new_game)(players, &options, Chance::seeded(seed), true).unwrap();
            let mut rng = Rng::new(seed, Purpose::Bot, 0);
            // The current deal's lines as seat 0 receives them, from its `deal` line.
            let mut lines: Vec<(String, Args)> = Vec::new();
            // Every seat's cards before the action whose lines are read (what a bid is said on).
            let mut hands = Vec::new();
            loop {
                for e in game.take_events() {
                    if !e.to.contains(0) {
                        continue;
                    }
                    if e.kind == "deal" {
                        lines.clear();
                    }
                    lines.push((e.kind.to_string(), e.args.clone()));
                    let Some((seat, card, holds)) = tells(&lines, lines.len() - 1) else {
                        continue;
                    };
                    let hand: &Vec<_> = &hands[seat];
                    assert_eq!(
                        hand.contains(&card),
                        holds,
                        "{} seed {seed}: {:?} says seat {seat} {} {card}; it held {hand:?}",
                        spec.name,
                        lines.last(),
                        if holds { "holds" } else { "lacks" },
                    );
                    (held, lacked) = (held + holds as usize, lacked + !holds as usize);
                }
                if game.to_move().is_none() {
                    break;
                }
                hands = (0..players)
                    .map(|s| game.seat_cards(s).expect("the game tells a seat's cards"))
                    .collect();
                let legal = game.legal_actions();
                game.apply(&legal[rng.below(legal.len() as u64) as usize]).unwrap();
            }
        }
        assert!(held > 20 && lacked > 20, "{}: {held} held, {lacked} lacked", spec.name);
        told += 1;
    }
    assert!(told >= 1, "no game tells of cards its lines do not name");
}
