//! Network seats: a bot on another machine plays at a croupier table over TCP, with the same
//! line protocol as over pipes.
//!
//! * [`keys`]: a seat's secret in a token file (mode 0600), and the referee's self-signed
//!   certificate, made once and kept.
//! * [`tls`]: TLS 1.3 configurations; a client accepts only the certificate whose SHA-256
//!   fingerprint it pinned.
//! * [`knock`]: before TLS, the connecting end proves in the clear that it holds a seat's
//!   secret (an HMAC of a fresh challenge): strangers are turned away before a TLS handshake,
//!   and the listener learns which seat the connection is for.
//! * [`auth`]: after the TLS handshake, each side proves it holds the seat's secret without
//!   sending it: an HMAC of a value both ends derive from their TLS session (an exporter), so
//!   a proof is worth nothing on another connection.
//! * [`bridge`]: copies lines between a TLS link and a pair of plain descriptors (a bot's pipes,
//!   a local socket) until either side ends, and says which.
//! * [`hub`]: the referee's listener: remote bots connect and knock, and each connection is
//!   handed ([`fdpass`]) to the local process that stands for its seat at the table, which
//!   does the TLS and carries the lines.
//! * [`limiter`]: failed attempts per address, so that guessing costs time.

pub mod auth;
pub mod bridge;
pub mod dial;
pub mod fdpass;
pub mod hub;
pub mod keys;
pub mod knock;
pub mod limiter;
pub mod listener;
pub mod relay;
pub mod socket;
pub mod tls;
