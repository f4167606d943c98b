//! Passing a socket to another process over a Unix socket (`SCM_RIGHTS`), with a few bytes
//! that go with it: the referee's hub hands a remote bot's connection to its seat's process.

use std::io::{Read, Write};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::net::UnixStream;

/// Sends `fd` and `payload` (length-prefixed) over `stream`.
pub fn send_fd(stream: &mut UnixStream, fd: RawFd, payload: &[u8]) -> Result<(), String> {
    let mut msg = (payload.len() as u32).to_be_bytes().to_vec();
    msg.extend_from_slice(payload);
    // The descriptor goes with the first byte; the rest follows as plain bytes.
    let mut iov = libc::iovec {
        iov_base: msg.as_mut_ptr().cast(),
        iov_len: 1,
    };
    // SAFETY: CMSG_SPACE is a pure size computation.
    let space = unsafe { libc::CMSG_SPACE(std::mem::size_of::<RawFd>() as u32) } as usize;
    let mut control = vec![0u8; space];
    // SAFETY: a msghdr of one iovec and a control buffer of the size CMSG_SPACE gave, both alive
    // across sendmsg; the header filled through CMSG_FIRSTHDR/CMSG_DATA of that buffer.
    let sent = unsafe {
        let mut hdr: libc::msghdr = std::mem::zeroed();
        hdr.msg_iov = &mut iov;
        hdr.msg_iovlen = 1;
        hdr.msg_control = control.as_mut_ptr().cast();
        hdr.msg_controllen = space as _;
        let cmsg = libc::CMSG_FIRSTHDR(&hdr);
        (*cmsg).cmsg_level = libc::SOL_SOCKET;
        (*cmsg).cmsg_type = libc::SCM_RIGHTS;
        (*cmsg).cmsg_len = libc::CMSG_LEN(std::mem::size_of::<RawFd>() as u32) as _;
        std::ptr::write_unaligned(libc::CMSG_DATA(cmsg).cast::<RawFd>(), fd);
        libc::sendmsg(stream.as_raw_fd(), &hdr, libc::MSG_NOSIGNAL)
    };
    if sent != 1 {
        return Err(format!("passing the connection: {}", std::io::Error::last_os_error()));
    }
    stream
        .write_all(&msg[1..])
        .map_err(|e| format!("passing the connection: {e}"))
}

/// Receives a descriptor and its payload sent by [`send_fd`] (blocking).
pub fn recv_fd(stream: &mut UnixStream) -> Result<(OwnedFd, Vec<u8>), String> {
    let mut first = [0u8; 1];
    let mut iov = libc::iovec {
        iov_base: first.as_mut_ptr().cast(),
        iov_len: 1,
    };
    // SAFETY: as in send_fd; the kernel fills the control buffer we own.
    let space = unsafe { libc::CMSG_SPACE(std::mem::size_of::<RawFd>() as u32) } as usize;
    let mut control = vec![0u8; space];
    let fd = unsafe {
        let mut hdr: libc::msghdr = std::mem::zeroed();
        hdr.msg_iov = &mut iov;
        hdr.msg_iovlen = 1;
        hdr.msg_control = control.as_mut_ptr().cast();
        hdr.msg_controllen = space as _;
        let n = libc::recvmsg(stream.as_raw_fd(), &mut hdr, libc::MSG_CMSG_CLOEXEC);
        if n != 1 {
            return Err(if n == 0 {
                "the hub closed the connection".to_string()
            } else {
                format!("the hub: {}", std::io::Error::last_os_error())
            });
        }
        let cmsg = libc::CMSG_FIRSTHDR(&hdr);
        if cmsg.is_null() || (*cmsg).cmsg_level != libc::SOL_SOCKET || (*cmsg).cmsg_type != libc::SCM_RIGHTS {
            return Err("the hub sent no connection".to_string());
        }
        OwnedFd::from_raw_fd(std::ptr::read_unaligned(libc::CMSG_DATA(cmsg).cast::<RawFd>()))
    };
    let mut len = [0u8; 4];
    len[0] = first[0];
    stream.read_exact(&mut len[1..]).map_err(|e| format!("the hub: {e}"))?;
    let n = u32::from_be_bytes(len) as usize;
    if n > 1 << 20 {
        return Err("the hub sent too much".to_string());
    }
    let mut payload = vec![0u8; n];
    stream.read_exact(&mut payload).map_err(|e| format!("the hub: {e}"))?;
    Ok((fd, payload))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_socket_and_its_payload_cross_to_the_other_end() {
        let (mut a, mut b) = UnixStream::pair().unwrap();
        let (mut x, y) = UnixStream::pair().unwrap();
        send_fd(&mut a, y.as_raw_fd(), b"hello there").unwrap();
        drop(y);
        let (fd, payload) = recv_fd(&mut b).unwrap();
        assert_eq!(payload, b"hello there");
        let mut got = UnixStream::from(fd);
        x.write_all(b"ping").unwrap();
        let mut buf = [0u8; 4];
        got.read_exact(&mut buf).unwrap();
        assert_eq!(&buf, b"ping");
    }
}
