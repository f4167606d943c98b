use super::writer::{card_of, header_size, with_text};
use super::*;
use croupier_games::cards::Card;
use croupier_games::game::Arg;

#[test]
fn sizes_are_fixed_and_known() {
    for (game, p) in [
        ("kul", 5),
        ("rikken", 4),
        ("zwikken", 4),
        ("svangknack", 6),
        ("skwitz", 4),
        ("schwimmen", 4),
    ] {
        assert!(size(game, p) > header_size(p), "{game}");
    }
    assert_eq!(size("nothing", 4), 0);
}

#[test]
fn tokens_are_read_without_a_heap_copy() {
    assert_eq!(card_of(Some(&Arg::Word("AS"))), Card::from_token("AS"));
    assert_eq!(seat_of(Some(&Arg::Int(3))), Some(3));
    assert_eq!(seat_of(Some(&Arg::Text("12".into()))), Some(12));
    assert_eq!(card_of(Some(&Arg::Int(3))), None);
}

use croupier_games::game::{Args, Audience, GameInfo};

fn ev(kind: &'static str, args: Vec<Arg>) -> Event {
    Event::new(Audience::all(3), kind, Args::from_vec(args))
}

#[test]
fn kul_blocks_are_by_relative_seat() {
    // Seat 1 of 3; seat 0 deals, seats 2 and 0 have played to the first trick.
    let info = GameInfo {
        game: "kul".into(),
        options: Default::default(),
        players: 3,
        seat: 1,
    };
    let mut view = croupier_games::games::kul::view::new_view(&info);
    let c = |t: &str| Arg::Card(Card::from_token(t).unwrap());
    let seen = vec![
        ev("ante", vec![Arg::Int(1), Arg::Int(1), Arg::Int(3)]),
        ev("deal", vec![Arg::Int(1), Arg::Int(0)]),
        ev("hand", vec![c("AS"), c("KS"), c("QS"), c("JS"), c("TS")]),
        ev("move", vec![Arg::Int(2), c("2H"), Arg::Word("play")]),
        ev("move", vec![Arg::Int(0), c("3H"), Arg::Word("play")]),
    ];
    for e in &seen {
        view.observe(e.kind, &e.args);
    }
    let p = 3;
    let mut out = vec![9.0; size("kul", p)];
    fill("kul", p, 1, Some(1), view.as_ref(), &seen, &mut out);
    assert_eq!(&out[0..3], &[0.0, 1.0, 0.0], "this seat");
    assert_eq!(&out[3..6], &[0.0, 1.0, 0.0], "to move");
    assert_eq!(&out[6..9], &[1.0, 0.0, 0.0], "to move, relative: this seat");
    assert_eq!(&out[9..12], &[0.0, 0.0, 1.0], "dealer 0 is place 2 from seat 1");
    let hand: Vec<usize> = (0..52).filter(|&i| out[12 + i] == 1.0).collect();
    assert_eq!(hand.len(), 5);
    let trick = 12 + 52;
    let at = |r: usize, card: &str| out[trick + 52 * r + Card::from_token(card).unwrap().index()];
    assert_eq!((at(1, "2H"), at(2, "3H"), at(0, "2H")), (1.0, 1.0, 0.0));
    let leader = trick + 2 * 52 * p;
    assert_eq!(&out[leader..leader + 3], &[0.0, 1.0, 0.0], "seat 2 led: place 1");
    assert!(out.iter().all(|&x| x != 9.0), "every element written");
}

/// Writes a capture of 40 cards (an action written at run time, as Skwitz's are).
fn long_capture(_: u64, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
    write!(f, "{}:", Card::from_index(0).token())?;
    for i in 1..41 {
        write!(f, "{}{}", if i > 1 { "," } else { "" }, Card::from_index(i).token())?;
    }
    Ok(())
}

#[test]
fn a_long_action_token_is_read_whole() {
    let action = Arg::Action {
        code: 0,
        write: long_capture,
    };
    let expected = action.to_string();
    assert_eq!(expected.len(), 2 + 1 + 40 * 3 - 1);
    assert!(with_text(&action, |t| t == expected));
    assert_eq!(with_text(&Arg::Int(123_456), |t| t.to_string()), "123456");
}
