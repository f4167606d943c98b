//! A pair of network namespaces joined by a veth pair: two "machines" with a real link between
//! them, for the network tests that want more than loopback. Needs root and the `ip` binary
//! (package `iproute2`); where either is missing, [`NetnsPair::create`] says why and the test
//! skips.

use std::ffi::OsStr;
use std::net::Ipv4Addr;
use std::os::fd::AsRawFd;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};

/// Numbers the pairs a process makes, for unique names.
static NEXT: AtomicU32 = AtomicU32::new(0);

/// Two network namespaces, `a` and `b`, joined by a veth pair (the interface is called `veth0`
/// in each), with `addr_a` on `a`'s end and `addr_b` on `b`'s (10.200.X.1/24 and
/// 10.200.X.2/24). Loopback and the link are up in both. Dropping it deletes both namespaces.
pub struct NetnsPair {
    /// The name of the first namespace (for `ip netns exec`).
    pub a: String,
    /// The name of the second namespace.
    pub b: String,
    /// The first namespace's address on the link.
    pub addr_a: Ipv4Addr,
    /// The second namespace's address on the link.
    pub addr_b: Ipv4Addr,
}

impl NetnsPair {
    /// Makes two namespaces (unique names from the pid and a counter) with a veth pair,
    /// 10.200.X.1/24 and 10.200.X.2/24, links up, loopback up. Err(reason) where it cannot (not
    /// root, no `ip` binary, the kernel refuses): the caller prints "skipped: {reason}" and
    /// returns.
    pub fn create() -> Result<NetnsPair, String> {
        if unsafe { libc::geteuid() } != 0 {
            return Err("network namespaces need root".into());
        }
        match Command::new("ip")
            .arg("-V")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
        {
            Ok(s) if s.success() => {}
            _ => return Err("no working `ip` binary (install iproute2)".into()),
        }
        let n = NEXT.fetch_add(1, Ordering::SeqCst);
        let pid = std::process::id();
        // The namespaces are apart from the host's and from each other pair's, so the subnet
        // need not be unique; it only varies for readability.
        let x = (n % 250 + 1) as u8;
        let pair = NetnsPair {
            a: format!("croupier-{pid}-{n}-a"),
            b: format!("croupier-{pid}-{n}-b"),
            addr_a: Ipv4Addr::new(10, 200, x, 1),
            addr_b: Ipv4Addr::new(10, 200, x, 2),
        };
        // On an error below, dropping `pair` deletes what was made.
        ip(&["netns", "add", &pair.a])?;
        ip(&["netns", "add", &pair.b])?;
        let (a, b) = (pair.a.as_str(), pair.b.as_str());
        let (cidr_a, cidr_b) = (format!("{}/24", pair.addr_a), format!("{}/24", pair.addr_b));
        ip(&[
            "link", "add", "veth0", "netns", a, "type", "veth", "peer", "name", "veth0", "netns", b,
        ])?;
        ip(&["-n", a, "addr", "add", &cidr_a, "dev", "veth0"])?;
        ip(&["-n", b, "addr", "add", &cidr_b, "dev", "veth0"])?;
        for ns in [a, b] {
            ip(&["-n", ns, "link", "set", "lo", "up"])?;
            ip(&["-n", ns, "link", "set", "veth0", "up"])?;
        }
        Ok(pair)
    }

    /// A std::process::Command that runs `program` inside namespace `ns` (`ip netns exec NS
    /// program …`); add the program's arguments with `.arg`/`.args`.
    pub fn command(&self, ns: &str, program: impl AsRef<OsStr>) -> Command {
        let mut c = Command::new("ip");
        c.args(["netns", "exec", ns]).arg(program);
        c
    }

    /// Runs `f` on a new thread that has entered namespace `ns` (only that thread: the rest of
    /// the process stays where it is) and returns what it returns. Sockets made in `f` belong
    /// to `ns` for their whole life, wherever they are used later: bind a listener in `b` here,
    /// then serve it from any thread. Err when the namespace cannot be entered.
    pub fn run_in<T: Send>(&self, ns: &str, f: impl FnOnce() -> T + Send) -> Result<T, String> {
        let path = format!("/run/netns/{ns}");
        let file = std::fs::File::open(&path).map_err(|e| format!("{path}: {e}"))?;
        std::thread::scope(|s| {
            s.spawn(|| {
                // SAFETY: setns on a descriptor we own; it changes this thread's network
                // namespace only, and the thread ends when `f` returns.
                if unsafe { libc::setns(file.as_raw_fd(), libc::CLONE_NEWNET) } != 0 {
                    return Err(format!("setns {path}: {}", std::io::Error::last_os_error()));
                }
                Ok(f())
            })
            .join()
            .unwrap_or_else(|p| std::panic::resume_unwind(p))
        })
    }
}

impl Drop for NetnsPair {
    /// Deletes both namespaces (the veth pair goes with them); errors are ignored.
    fn drop(&mut self) {
        let _ = ip(&["netns", "del", &self.a]);
        let _ = ip(&["netns", "del", &self.b]);
    }
}

/// Runs `ip ARGS…`; Err names the command and says what `ip` said.
fn ip(args: &[&str]) -> Result<(), String> {
    let out = Command::new("ip")
        .args(args)
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("ip {}: {e}", args.join(" ")))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "ip {}: {}",
            args.join(" "),
            String::from_utf8_lossy(&out.stderr).trim()
        ))
    }
}
