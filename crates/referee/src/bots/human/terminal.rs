//! The person's terminal: `/dev/tty` (or standard input and standard error without one), one per
//! process, read line by line while looking for Ctrl-C.

use std::fs::File;
use std::io::Write;
use std::os::fd::{AsRawFd, RawFd};
use std::sync::Mutex;

/// What reading the person's answer gave.
pub(super) enum Input {
    Line(String),
    /// End of input (Ctrl-D).
    End,
    /// Ctrl-C or SIGTERM (croupier's handler took it: [`crate::interrupt`]).
    Interrupted,
}

/// The person's terminal: `/dev/tty`, or standard input and standard error without one.
/// One per process, shared by every human seat (two people at one keyboard take turns).
pub(super) struct Terminal {
    /// The open `/dev/tty` (read from and written to), if there is one.
    tty: Option<File>,
    /// Bytes read that are not a whole line yet.
    pending: Vec<u8>,
    ended: bool,
    pub(super) colour: bool,
    /// The input is no terminal (a pipe or a file): it is not echoed, so we write each line.
    echo: bool,
}

static TERMINAL: Mutex<Option<Terminal>> = Mutex::new(None);

impl Terminal {
    fn open() -> Terminal {
        use std::io::IsTerminal;
        let tty = std::fs::OpenOptions::new().read(true).write(true).open("/dev/tty").ok();
        let interactive = tty.is_some() || std::io::stderr().is_terminal();
        let no_colour = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty())
            || std::env::var("TERM").is_ok_and(|t| t == "dumb");
        let echo = tty.is_none() && !std::io::stdin().is_terminal();
        Terminal {
            tty,
            pending: Vec::new(),
            ended: false,
            colour: interactive && !no_colour,
            echo,
        }
    }

    fn fd(&self) -> RawFd {
        self.tty.as_ref().map_or(0, |f| f.as_raw_fd())
    }

    pub(super) fn write(&mut self, text: &str) {
        // A terminal that went away (a closed window) leaves nobody to tell.
        let _ = match &mut self.tty {
            Some(f) => f.write_all(text.as_bytes()).and_then(|_| f.flush()),
            None => {
                let mut e = std::io::stderr().lock();
                e.write_all(text.as_bytes()).and_then(|_| e.flush())
            }
        };
    }

    /// The next line the person typed. Waits as long as it takes (a person has no deadline),
    /// looking every 200 ms whether Ctrl-C asked croupier to stop.
    pub(super) fn read_line(&mut self) -> Input {
        loop {
            if let Some(i) = self.pending.iter().position(|&b| b == b'\n') {
                let line: Vec<u8> = self.pending.drain(..=i).collect();
                let line = String::from_utf8_lossy(&line).trim().to_string();
                if self.echo {
                    self.write(&format!("{line}\n"));
                }
                return Input::Line(line);
            }
            if self.ended {
                return Input::End;
            }
            if crate::interrupt::requested().is_some() {
                return Input::Interrupted;
            }
            let mut pfd = libc::pollfd {
                fd: self.fd(),
                events: libc::POLLIN,
                revents: 0,
            };
            // SAFETY: one valid pollfd.
            let ready = unsafe { libc::poll(&mut pfd, 1, 200) };
            if ready <= 0 {
                continue; // a timeout, or a signal (EINTR): look again
            }
            let mut buf = [0u8; 4096];
            // SAFETY: reads into a buffer of the length given.
            let n = unsafe { libc::read(self.fd(), buf.as_mut_ptr().cast(), buf.len()) };
            match n {
                n if n > 0 => self.pending.extend_from_slice(&buf[..n as usize]),
                0 => self.ended = true,
                _ if std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted => {}
                _ => self.ended = true,
            }
        }
    }
}

/// Runs `f` with the process's one terminal, opening it the first time.
pub(super) fn with_terminal<R>(f: impl FnOnce(&mut Terminal) -> R) -> R {
    let mut guard = TERMINAL.lock().unwrap_or_else(|e| e.into_inner());
    f(guard.get_or_insert_with(Terminal::open))
}
