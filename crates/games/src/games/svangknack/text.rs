//! The text of a round's summary and of seat lists, written without the formatter.

use super::state::{RoundSummary, Svangknack};

impl RoundSummary {
    /// `round 3: seat 2 alone takes 21`, `round 1: pot 18, tricks 1:2 5:1, bet -`.
    pub(super) fn text(&self, n: usize) -> String {
        let mut t = String::with_capacity(48);
        t.push_str("round ");
        match *self {
            RoundSummary::Lone { round, seat, pot } => {
                push_int(&mut t, round as i64);
                t.push_str(": seat ");
                push_int(&mut t, seat as i64);
                t.push_str(" alone takes ");
                push_int(&mut t, pot);
            }
            RoundSummary::Played { round, pot, won, bets } => {
                push_int(&mut t, round as i64);
                t.push_str(": pot ");
                push_int(&mut t, pot);
                t.push_str(", tricks ");
                for (k, s) in (0..n).filter(|&s| won[s] > 0).enumerate() {
                    if k > 0 {
                        t.push(' ');
                    }
                    push_int(&mut t, s as i64);
                    t.push(':');
                    push_int(&mut t, won[s] as i64);
                }
                t.push_str(", bet ");
                write_seats(&mut t, bets, n);
            }
        }
        t
    }
}

/// Seats of a bit set as one token: `0,2,5`, or `-` for none.
pub(super) fn seats_token(seats: u32, n: usize) -> String {
    let mut t = String::with_capacity(3 * seats.count_ones().max(1) as usize);
    write_seats(&mut t, seats, n);
    t
}

/// Writes [`seats_token`] at the end of `out`.
fn write_seats(out: &mut String, seats: u32, n: usize) {
    if seats == 0 {
        out.push('-');
        return;
    }
    for (k, s) in (0..n).filter(|&s| seats & (1 << s) != 0).enumerate() {
        if k > 0 {
            out.push(',');
        }
        push_int(out, s as i64);
    }
}

/// Writes `v` in decimal at the end of `out` (as `Display` does, without the formatter).
fn push_int(out: &mut String, v: i64) {
    let mut buf = [0u8; 20];
    let mut i = buf.len();
    let mut u = v.unsigned_abs();
    loop {
        i -= 1;
        buf[i] = b'0' + (u % 10) as u8;
        u /= 10;
        if u == 0 {
            break;
        }
    }
    if v < 0 {
        out.push('-');
    }
    out.extend(buf[i..].iter().map(|&d| d as char));
}

impl Svangknack {
    /// Every seat's chips as one token: `3,-2,5`.
    pub(super) fn chips_token(&self) -> String {
        let mut t = String::with_capacity(4 * self.n);
        for (i, &c) in self.chips[..self.n].iter().enumerate() {
            if i > 0 {
                t.push(',');
            }
            push_int(&mut t, c);
        }
        t
    }
}

#[cfg(test)]
mod tests {
    use super::push_int;

    #[test]
    fn numbers_are_written_as_display_writes_them() {
        for v in [0, 7, -3, 10, -10, 1234567, i64::MAX, i64::MIN] {
            let mut t = String::from("x");
            push_int(&mut t, v);
            assert_eq!(t, format!("x{v}"));
        }
    }
}
