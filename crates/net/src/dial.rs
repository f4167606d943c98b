//! The connecting end of a link: TCP, the knock, TLS with the token's pinned certificate, the
//! proof of the token's secret inside it. `croupier connect` (a relay to a referee) and a `tcp://` seat (a referee to a
//! bot host) both start here.

use crate::auth::{client_hello, Link};
use crate::keys::Token;
use crate::knock::knock;
use crate::socket;
use crate::tls;
use std::time::Instant;

/// Connects to `address` and opens a link as `token`'s seat, by `deadline`. The error says
/// which step failed and what the other end said.
pub fn dial(address: &str, token: &Token, deadline: Instant) -> Result<Link, String> {
    let left = deadline.saturating_duration_since(Instant::now());
    let mut sock = socket::connect(address, left.max(std::time::Duration::from_millis(1)))?;
    knock(&mut sock, &token.name, &token.secret(), deadline).map_err(|e| format!("{address}: {e}"))?;
    let cfg = tls::client_config(&token.fingerprint)?;
    let conn = rustls::ClientConnection::new(cfg, tls::server_name()).map_err(|e| format!("TLS: {e}"))?;
    let mut link = Link::new(conn, sock);
    link.handshake(deadline).map_err(|e| format!("{address}: {e}"))?;
    client_hello(&mut link, &token.name, &token.secret(), deadline).map_err(|e| format!("{address}: {e}"))?;
    Ok(link)
}
