//! A seat at the table: the smallest shared type, below the deals ([`crate::chance`]) and the
//! games that both number seats.

/// A seat number, 0-based, clockwise.
pub type Seat = usize;
