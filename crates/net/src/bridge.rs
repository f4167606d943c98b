//! The bridge: copies bytes between a TLS link and a pair of plain descriptors (a bot's pipes,
//! or a local socket), both ways, as they come, until one side ends. One thread, one `poll(2)`,
//! no busy loop; each direction holds at most about a megabyte before it stops reading.

use crate::auth::Link;
use std::io::{ErrorKind, Read, Write};
use std::os::fd::{AsRawFd, RawFd};

/// How a bridge ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ended {
    /// The plain side ended (EOF on its input, or its output is gone): the link was closed
    /// with a TLS goodbye (`close_notify`).
    LocalClosed,
    /// The other end said goodbye (`close_notify`); what it sent before was delivered.
    PeerClosed,
    /// The link failed: reset, closed without a goodbye, a TLS error, or keepalive found it dead.
    Lost(String),
}

/// The most bytes a direction holds before it stops reading.
const HOLD: usize = 1 << 20;

fn set_nonblocking(fd: RawFd) {
    // SAFETY: fcntl on a descriptor the caller owns.
    unsafe {
        let flags = libc::fcntl(fd, libc::F_GETFL);
        if flags >= 0 {
            libc::fcntl(fd, libc::F_SETFL, flags | libc::O_NONBLOCK);
        }
    }
}

/// A raw `read` or `write` as an io::Result.
fn sys(n: isize) -> std::io::Result<usize> {
    if n < 0 {
        Err(std::io::Error::last_os_error())
    } else {
        Ok(n as usize)
    }
}

/// Copies between `link` and the plain descriptors `plain_in` (read) and `plain_out` (write),
/// which may be one socket, until one side ends. The descriptors are made non-blocking.
pub fn bridge(mut link: Link, plain_in: RawFd, plain_out: RawFd) -> Ended {
    link.untimed();
    let sock = link.sock.as_raw_fd();
    for fd in [sock, plain_in, plain_out] {
        set_nonblocking(fd);
    }
    // Bytes for the plain side: what came with the handshake's last line first.
    let mut down = std::mem::take(&mut link.early);
    let mut down_pos = 0;
    let mut peer_closed = false;
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        // Plain bytes the TLS layer holds, into `down`.
        while !peer_closed && down.len() - down_pos < HOLD {
            match link.conn.reader().read(&mut buf) {
                Ok(0) => peer_closed = true,
                Ok(n) => down.extend_from_slice(&buf[..n]),
                Err(e) if e.kind() == ErrorKind::WouldBlock => break,
                Err(e) => return Ended::Lost(format!("TLS: {e}")),
            }
        }
        // `down` to the plain side.
        while down_pos < down.len() {
            // SAFETY: writing from a live buffer to a descriptor the caller owns.
            match sys(unsafe { libc::write(plain_out, down[down_pos..].as_ptr().cast(), down.len() - down_pos) }) {
                Ok(n) => down_pos += n,
                Err(e) if e.kind() == ErrorKind::WouldBlock => break,
                Err(e) if e.kind() == ErrorKind::Interrupted => continue,
                Err(_) => return goodbye(&mut link),
            }
        }
        if down_pos == down.len() {
            down.clear();
            down_pos = 0;
            if peer_closed {
                return Ended::PeerClosed;
            }
        }
        // Records for the other end.
        while link.conn.wants_write() {
            match link.conn.write_tls(&mut link.sock) {
                Ok(_) => {}
                Err(e) if e.kind() == ErrorKind::WouldBlock => break,
                Err(e) if e.kind() == ErrorKind::Interrupted => continue,
                Err(e) => return Ended::Lost(format!("sending: {e}")),
            }
        }
        let mut fds = [
            libc::pollfd {
                fd: sock,
                events: 0,
                revents: 0,
            },
            libc::pollfd {
                fd: plain_in,
                events: 0,
                revents: 0,
            },
            libc::pollfd {
                fd: plain_out,
                events: 0,
                revents: 0,
            },
        ];
        if !peer_closed && down.len() < HOLD {
            fds[0].events |= libc::POLLIN;
        }
        if link.conn.wants_write() {
            fds[0].events |= libc::POLLOUT;
        } else {
            // Read the plain side only when what it gave last is out.
            fds[1].events |= libc::POLLIN;
        }
        if down_pos < down.len() {
            fds[2].events |= libc::POLLOUT;
        }
        // SAFETY: poll over an array that lives across the call.
        let n = unsafe { libc::poll(fds.as_mut_ptr(), fds.len() as libc::nfds_t, -1) };
        if n < 0 {
            let e = std::io::Error::last_os_error();
            if e.kind() == ErrorKind::Interrupted {
                continue;
            }
            return Ended::Lost(format!("poll: {e}"));
        }
        if fds[0].revents != 0 && fds[0].events & libc::POLLIN != 0 {
            match link.conn.read_tls(&mut link.sock) {
                Ok(0) => {
                    // EOF without a goodbye: deliver what came, then say the link was lost.
                    let _ = link.conn.process_new_packets();
                    return Ended::Lost("the connection was closed without a goodbye".to_string());
                }
                Ok(_) => {
                    if let Err(e) = link.conn.process_new_packets() {
                        return Ended::Lost(format!("TLS: {e}"));
                    }
                }
                Err(e) if e.kind() == ErrorKind::WouldBlock || e.kind() == ErrorKind::Interrupted => {}
                Err(e) => return Ended::Lost(format!("{e}")),
            }
        }
        if fds[1].revents != 0 {
            // SAFETY: reading into a live buffer from a descriptor the caller owns.
            match sys(unsafe { libc::read(plain_in, buf.as_mut_ptr().cast(), buf.len()) }) {
                Ok(0) => return goodbye(&mut link),
                Ok(n) => {
                    if let Err(e) = link.conn.writer().write_all(&buf[..n]) {
                        return Ended::Lost(format!("TLS: {e}"));
                    }
                }
                Err(e) if e.kind() == ErrorKind::WouldBlock || e.kind() == ErrorKind::Interrupted => {}
                Err(_) => return goodbye(&mut link),
            }
        }
    }
}

/// The plain side ended: a TLS goodbye, sent as far as the socket takes it at once.
fn goodbye(link: &mut Link) -> Ended {
    link.conn.send_close_notify();
    let _ = link.sock.set_nonblocking(false);
    let _ = link.sock.set_write_timeout(Some(std::time::Duration::from_secs(2)));
    while link.conn.wants_write() {
        if link.conn.write_tls(&mut link.sock).is_err() {
            break;
        }
    }
    let _ = link.sock.flush();
    Ended::LocalClosed
}
