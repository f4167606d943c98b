//! A plain copy both ways between two pairs of descriptors (a seat's local process: its stdin
//! and stdout on one side, the hub's socket on the other), until either side's input ends.

use std::io::ErrorKind;
use std::os::fd::RawFd;

/// Which side's input ended first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum First {
    A,
    B,
}

fn io(n: isize) -> std::io::Result<usize> {
    if n < 0 {
        Err(std::io::Error::last_os_error())
    } else {
        Ok(n as usize)
    }
}

/// Copies `a_in` to `b_out` and `b_in` to `a_out` (blocking writes, one `poll` for the
/// inputs) until an input ends or an output is gone; says which side ended.
pub fn copy_both_ways(a_in: RawFd, a_out: RawFd, b_in: RawFd, b_out: RawFd) -> First {
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        let mut fds = [
            libc::pollfd {
                fd: a_in,
                events: libc::POLLIN,
                revents: 0,
            },
            libc::pollfd {
                fd: b_in,
                events: libc::POLLIN,
                revents: 0,
            },
        ];
        // SAFETY: poll over an array that lives across the call.
        if unsafe { libc::poll(fds.as_mut_ptr(), 2, -1) } < 0 {
            if std::io::Error::last_os_error().kind() == ErrorKind::Interrupted {
                continue;
            }
            return First::A;
        }
        for (i, (from, to, side, other)) in [(a_in, b_out, First::A, First::B), (b_in, a_out, First::B, First::A)]
            .into_iter()
            .enumerate()
        {
            if fds[i].revents == 0 {
                continue;
            }
            // SAFETY: reading into a live buffer from a descriptor the caller owns.
            let n = match io(unsafe { libc::read(from, buf.as_mut_ptr().cast(), buf.len()) }) {
                Ok(0) => return side,
                Ok(n) => n,
                Err(e) if e.kind() == ErrorKind::Interrupted || e.kind() == ErrorKind::WouldBlock => continue,
                Err(_) => return side,
            };
            let mut done = 0;
            while done < n {
                // SAFETY: writing from a live buffer to a descriptor the caller owns.
                match io(unsafe { libc::write(to, buf[done..n].as_ptr().cast(), n - done) }) {
                    Ok(k) => done += k,
                    Err(e) if e.kind() == ErrorKind::Interrupted => {}
                    Err(_) => return other,
                }
            }
        }
    }
}
