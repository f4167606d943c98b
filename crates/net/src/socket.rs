//! TCP settings of a link: no Nagle delay (a protocol line goes out at once), and keepalive
//! probes so that a link whose other end vanished (a cable pulled, a machine gone) is found dead
//! within about 25 s even when no line is due.

use std::net::{SocketAddr, TcpStream, ToSocketAddrs};
use std::os::fd::AsRawFd;
use std::time::Duration;

/// Sets `TCP_NODELAY` and keepalive (first probe after 10 s idle, then every 5 s, dead after 3
/// unanswered).
pub fn tune(sock: &TcpStream) {
    let _ = sock.set_nodelay(true);
    let fd = sock.as_raw_fd();
    let set = |level: libc::c_int, name: libc::c_int, value: libc::c_int| {
        // SAFETY: setsockopt on a socket we own, with a pointer to an int that outlives the call.
        unsafe {
            libc::setsockopt(
                fd,
                level,
                name,
                (&value as *const libc::c_int).cast(),
                std::mem::size_of::<libc::c_int>() as libc::socklen_t,
            );
        }
    };
    set(libc::SOL_SOCKET, libc::SO_KEEPALIVE, 1);
    set(libc::IPPROTO_TCP, libc::TCP_KEEPIDLE, 10);
    set(libc::IPPROTO_TCP, libc::TCP_KEEPINTVL, 5);
    set(libc::IPPROTO_TCP, libc::TCP_KEEPCNT, 3);
}

/// Connects to `address` (`HOST:PORT`, each of its addresses in turn), giving up on one after
/// `timeout`.
pub fn connect(address: &str, timeout: Duration) -> Result<TcpStream, String> {
    let addrs: Vec<SocketAddr> = address
        .to_socket_addrs()
        .map_err(|e| format!("{address}: {e}"))?
        .collect();
    let mut last = format!("{address}: no address");
    for a in addrs {
        match TcpStream::connect_timeout(&a, timeout) {
            Ok(s) => {
                tune(&s);
                return Ok(s);
            }
            Err(e) => last = format!("{address}: {e}"),
        }
    }
    Err(last)
}
