//! What proves who is who on a network seat: a seat's [`Token`] (its name, where to connect, its
//! secret and the certificate fingerprint to pin) and the referee's [`Identity`] (a
//! self-signed certificate and its key). Both are files that only their owner may read.

mod identity;
mod private;
mod token;

pub use identity::{fingerprint_of, Identity};
pub use private::{check_private, write_private};
pub use token::{Token, SECRET_BYTES};
