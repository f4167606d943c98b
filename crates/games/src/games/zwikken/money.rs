//! The pot arithmetic of zwikken.md §4 and §5, as pure functions of the pot and the seats.

use crate::game::Seat;

/// The chip movements of one settlement (zwikken.md §4).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settlement {
    /// P: the pot before the settlement (this deal's ante and seek chips included).
    pub pot_before: i64,
    /// The winning asker and what he takes from the pot (the whole pot P).
    pub won: Option<(Seat, i64)>,
    /// Every losing asker and what he pays into the pot (P each, "hetzelfde bedrag").
    pub paid: Vec<(Seat, i64)>,
    /// The pot afterwards: k·P with a winner, P + k·P without one (k = losing askers).
    pub pot_after: i64,
}

/// Settles a deal that was played (zwik showdown or tricks): the winner (an asker, or `None`
/// when a passer won or the top was shared) takes the pot, then every other asker pays the
/// pot's value P as it was before the settlement. Passers neither pay nor receive.
pub fn settle(pot: i64, askers: &[Seat], winner: Option<Seat>) -> Settlement {
    let p = pot;
    let mut after = pot;
    let won = winner.map(|w| {
        after -= p;
        (w, p)
    });
    let paid: Vec<(Seat, i64)> = askers.iter().filter(|&&a| Some(a) != winner).map(|&a| (a, p)).collect();
    after += paid.iter().map(|(_, x)| x).sum::<i64>();
    Settlement {
        pot_before: p,
        won,
        paid,
        pot_after: after,
    }
}

/// Divides a pot equally at the end of a session (zwikken.md §5): `seats` in order clockwise
/// from the dealer's left; the remainder chips go one each to the first of them.
pub fn split(pot: i64, seats: &[Seat]) -> Vec<(Seat, i64)> {
    if seats.is_empty() || pot <= 0 {
        return vec![];
    }
    let k = seats.len() as i64;
    let (share, rem) = (pot / k, pot % k);
    seats
        .iter()
        .enumerate()
        .map(|(i, &s)| (s, share + i64::from((i as i64) < rem)))
        .filter(|&(_, x)| x > 0)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_winning_asker_takes_the_pot_and_losers_pay_its_value() {
        let s = settle(4, &[0, 2, 3], Some(2));
        assert_eq!(s.won, Some((2, 4)));
        assert_eq!(s.paid, vec![(0, 4), (3, 4)]);
        assert_eq!(s.pot_after, 8, "k·P with a winner");
    }

    #[test]
    fn without_a_winner_every_asker_pays() {
        let s = settle(5, &[1, 2], None);
        assert_eq!(s.won, None);
        assert_eq!(s.pot_after, 15, "P + k·P");
    }

    #[test]
    fn a_split_gives_the_remainder_from_the_dealers_left() {
        assert_eq!(split(7, &[2, 3, 0, 1]), vec![(2, 2), (3, 2), (0, 2), (1, 1)]);
        assert_eq!(split(2, &[1, 2, 0]), vec![(1, 1), (2, 1)]);
        assert!(split(0, &[1, 2]).is_empty());
    }
}
