//! A TCP relay for the network tests: it sits between a client and a server on loopback and
//! forwards every connection, and on the way it can delay traffic, "lose" some of it and cut
//! connections. It stands in for `tc netem`, which the kernel of the test machines lacks.
//!
//! How it works: one thread accepts connections on 127.0.0.1; each accepted connection is
//! joined to a new connection to the target. Each direction of a connection (client to server,
//! "up", and server to client, "down") has a reader thread and a writer thread joined by a
//! queue. The reader stamps each chunk it reads with the time it is due (the time it was read,
//! plus the delay, plus the loss penalty if the chunk is "lost") and queues it; the writer sends
//! the chunks in order, each no sooner than it is due. So the delays of chunks overlap instead
//! of adding up, and the order of the bytes is kept (a chunk that is late holds back the ones
//! behind it, as TCP's retransmission does). A queue holds at most [`QUEUE_CAP`] bytes; past
//! that the reader waits, and TCP's flow control slows the sender down.
//!
//! Only std (and `libc`, which this module does not need) is used; no thread is left blocked
//! when the [`Relay`] is dropped.

use std::collections::VecDeque;
use std::io::{ErrorKind, Read, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// The most bytes one direction of one connection holds in its queue before its reader waits.
pub const QUEUE_CAP: usize = 4 << 20;

/// The most bytes a reader takes from its socket at once (one "chunk").
const CHUNK: usize = 64 << 10;

/// How long the accept thread sleeps when no connection is waiting, before it looks again
/// (and sees whether the relay is being dropped).
const ACCEPT_POLL: Duration = Duration::from_millis(20);

/// How long the relay waits for the target to accept a connection before it gives up on it
/// (and closes the client's connection).
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// What the relay does to the traffic it forwards.
#[derive(Clone, Debug)]
pub struct RelayOptions {
    /// Added to every chunk in each direction (so the round trip grows by 2×).
    pub one_way_delay: Duration,
    /// Chance (0.0–1.0) that a chunk is "lost": TCP would retransmit it, so it arrives late by
    /// `loss_penalty` (default 200 ms, a typical retransmission timeout) instead of vanishing.
    /// Chunks behind a lost one wait for it, as they would in TCP.
    pub loss: f64,
    /// How much later than the others a "lost" chunk arrives.
    pub loss_penalty: Duration,
    /// Seed of the loss draws, so a test is repeatable. Each direction of each connection draws
    /// from its own generator, made from this seed, the connection's number and the direction.
    /// (What counts as one chunk depends on how the bytes come in, so the same seed loses the
    /// same chunks only when the traffic is chunked the same way.)
    pub seed: u64,
}

impl Default for RelayOptions {
    /// No delay, no loss, a loss penalty of 200 ms and seed 1.
    fn default() -> Self {
        RelayOptions {
            one_way_delay: Duration::ZERO,
            loss: 0.0,
            loss_penalty: Duration::from_millis(200),
            seed: 1,
        }
    }
}

/// A running relay. It listens on 127.0.0.1 (see [`Relay::addr`]) and forwards every
/// connection it accepts to the target given to [`Relay::start`]. Dropping it stops it: it no
/// longer accepts, cuts every connection and waits for all its threads to end.
pub struct Relay {
    addr: SocketAddr,
    shared: Arc<Shared>,
    accept_thread: Option<JoinHandle<()>>,
}

/// What the relay's threads share.
struct Shared {
    target: SocketAddr,
    opts: RelayOptions,
    /// Set when the relay is dropped: the accept thread ends.
    stop: AtomicBool,
    /// Connections accepted so far.
    connections: AtomicUsize,
    /// Bytes forwarded to the target (up) and to the clients (down), over the relay's life.
    bytes_up: AtomicU64,
    bytes_down: AtomicU64,
    /// The trigger of [`Relay::cut_after_bytes_down`].
    down: Mutex<DownTrigger>,
    /// The connections that may still be open.
    conns: Mutex<Vec<Arc<Conn>>>,
    /// The threads of the connections (pruned of the ended ones as new ones start).
    threads: Mutex<Vec<JoinHandle<()>>>,
}

/// Counts the bytes sent down for [`Relay::cut_after_bytes_down`].
struct DownTrigger {
    /// Bytes handed to the writers of the down directions over the relay's life.
    total: u64,
    /// Cut the connection whose bytes make `total` reach this; 0 = never.
    cut_at: u64,
}

/// One relayed connection: the client's socket, the target's socket and the two queues.
struct Conn {
    client: TcpStream,
    server: TcpStream,
    /// Set when the connection is cut (every thread of it ends) or when all its threads ended.
    dead: AtomicBool,
    /// How many of its four threads are still running.
    live: AtomicUsize,
    up: Queue,
    down: Queue,
}

/// The chunks of one direction that were read and wait for their due time.
struct Queue {
    state: Mutex<QueueState>,
    /// Signalled when a chunk is queued, when one is taken (there is room again) and when the
    /// connection is cut.
    changed: Condvar,
}

#[derive(Default)]
struct QueueState {
    items: VecDeque<Item>,
    /// The bytes in `items`.
    bytes: usize,
}

enum Item {
    /// Bytes to write no sooner than `due`.
    Data { due: Instant, bytes: Vec<u8> },
    /// The sender closed its side (at this time plus the delay): half-close the other socket.
    Eof { due: Instant },
}

impl Item {
    fn due(&self) -> Instant {
        match self {
            Item::Data { due, .. } | Item::Eof { due } => *due,
        }
    }
}

/// Which way a pump carries bytes.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Dir {
    /// Client to server.
    Up,
    /// Server to client.
    Down,
}

impl Relay {
    /// Listens on 127.0.0.1:0 and forwards every accepted connection to `target`.
    ///
    /// Panics if it cannot listen (a test cannot go on without it). A connection whose target
    /// refuses or does not answer within 10 s is closed at once.
    pub fn start(target: SocketAddr, opts: RelayOptions) -> Relay {
        assert!(
            (0.0..=1.0).contains(&opts.loss),
            "RelayOptions::loss must be within 0.0..=1.0, not {}",
            opts.loss
        );
        let listener = TcpListener::bind("127.0.0.1:0").expect("relay: listen on 127.0.0.1:0");
        listener.set_nonblocking(true).expect("relay: non-blocking listener");
        let addr = listener.local_addr().expect("relay: listening address");
        let shared = Arc::new(Shared {
            target,
            opts,
            stop: AtomicBool::new(false),
            connections: AtomicUsize::new(0),
            bytes_up: AtomicU64::new(0),
            bytes_down: AtomicU64::new(0),
            down: Mutex::new(DownTrigger { total: 0, cut_at: 0 }),
            conns: Mutex::new(Vec::new()),
            threads: Mutex::new(Vec::new()),
        });
        let s = shared.clone();
        let accept_thread = std::thread::Builder::new()
            .name("relay-accept".into())
            .spawn(move || accept_loop(listener, s))
            .expect("relay: spawn the accept thread");
        Relay {
            addr,
            shared,
            accept_thread: Some(accept_thread),
        }
    }

    /// The address clients connect to.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Cuts every connection open now (both sockets shut down, as a link that goes dead): the
    /// client and the server each see the end of the stream or an error, and bytes still
    /// queued are thrown away. New connections are still accepted and forwarded.
    pub fn cut(&self) {
        let conns = std::mem::take(&mut *lock(&self.shared.conns));
        for c in conns {
            c.kill();
        }
    }

    /// Cuts a connection after it has carried this many bytes from server to client in total
    /// (counted over the relay's life, every connection); 0 = never. Lets a test cut
    /// "mid-game".
    ///
    /// The connection that carries the byte that makes the total reach `n` delivers the bytes
    /// up to that one (so the clients get exactly `n` bytes in all) and is then cut, as by
    /// [`Relay::cut`]. The trigger fires once: later connections are left alone until this is
    /// called again. If the total is already `n` or more, the next connection to send anything
    /// down is cut before it delivers it.
    pub fn cut_after_bytes_down(&self, n: u64) {
        lock(&self.shared.down).cut_at = n;
    }

    /// How many connections were accepted so far (over the relay's life).
    pub fn connections(&self) -> usize {
        self.shared.connections.load(Ordering::SeqCst)
    }

    /// How many bytes went from the clients to the server so far. A chunk counts as the relay
    /// starts writing it to the server, so bytes the server has received are always counted
    /// (and a chunk whose write fails as its connection dies is counted too).
    pub fn bytes_up(&self) -> u64 {
        self.shared.bytes_up.load(Ordering::SeqCst)
    }

    /// How many bytes went from the server to the clients so far, counted as for
    /// [`Relay::bytes_up`]: bytes a client has received are always counted.
    pub fn bytes_down(&self) -> u64 {
        self.shared.bytes_down.load(Ordering::SeqCst)
    }
}

impl Drop for Relay {
    /// Stops accepting, cuts every connection and joins every thread of the relay (each of them
    /// ends once its sockets are shut down, so this does not wait for long).
    fn drop(&mut self) {
        self.shared.stop.store(true, Ordering::SeqCst);
        if let Some(t) = self.accept_thread.take() {
            let _ = t.join();
        }
        // The accept thread is gone, so no connection is added after this.
        self.cut();
        let threads = std::mem::take(&mut *lock(&self.shared.threads));
        for t in threads {
            let _ = t.join();
        }
    }
}

/// Locks a mutex, going on if a thread panicked while holding it (the data stays usable).
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// Accepts connections until the relay is dropped, polling the non-blocking listener.
fn accept_loop(listener: TcpListener, shared: Arc<Shared>) {
    while !shared.stop.load(Ordering::SeqCst) {
        match listener.accept() {
            Ok((client, _)) => {
                let n = shared.connections.fetch_add(1, Ordering::SeqCst);
                open(&shared, client, n as u64);
            }
            Err(e) if e.kind() == ErrorKind::WouldBlock => std::thread::sleep(ACCEPT_POLL),
            Err(e) if e.kind() == ErrorKind::Interrupted => {}
            // Out of descriptors or the like: wait a little, as for no connection.
            Err(_) => std::thread::sleep(ACCEPT_POLL),
        }
    }
}

/// Joins a newly accepted client to a new connection to the target and starts its four pumps;
/// closes the client when the target cannot be reached.
fn open(shared: &Arc<Shared>, client: TcpStream, index: u64) {
    let Ok(server) = TcpStream::connect_timeout(&shared.target, CONNECT_TIMEOUT) else {
        let _ = client.shutdown(Shutdown::Both);
        return;
    };
    let setup = || -> std::io::Result<Arc<Conn>> {
        client.set_nonblocking(false)?;
        client.set_nodelay(true)?;
        server.set_nodelay(true)?;
        Ok(Arc::new(Conn {
            client: client.try_clone()?,
            server: server.try_clone()?,
            dead: AtomicBool::new(false),
            live: AtomicUsize::new(4),
            up: Queue::new(),
            down: Queue::new(),
        }))
    };
    let Ok(conn) = setup() else {
        let _ = client.shutdown(Shutdown::Both);
        let _ = server.shutdown(Shutdown::Both);
        return;
    };
    {
        let mut conns = lock(&shared.conns);
        conns.retain(|c| !c.dead.load(Ordering::SeqCst));
        conns.push(conn.clone());
    }
    let mut threads = lock(&shared.threads);
    threads.retain(|t| !t.is_finished());
    for dir in [Dir::Up, Dir::Down] {
        let (c, s) = (conn.clone(), shared.clone());
        let seed = mix(shared.opts.seed ^ mix(index.wrapping_mul(2) + (dir == Dir::Down) as u64));
        threads.push(spawn(&format!("relay-{dir:?}-read"), move || {
            read_pump(&c, &s, dir, seed);
            c.thread_ended();
        }));
        let (c, s) = (conn.clone(), shared.clone());
        threads.push(spawn(&format!("relay-{dir:?}-write"), move || {
            write_pump(&c, &s, dir);
            c.thread_ended();
        }));
    }
}

/// Starts a named thread.
fn spawn(name: &str, f: impl FnOnce() + Send + 'static) -> JoinHandle<()> {
    std::thread::Builder::new()
        .name(name.to_string())
        .spawn(f)
        .expect("relay: spawn a pump thread")
}

impl Queue {
    fn new() -> Queue {
        Queue {
            state: Mutex::new(QueueState::default()),
            changed: Condvar::new(),
        }
    }
}

impl Conn {
    /// The socket a direction reads from, the socket it writes to, and its queue.
    fn ends(&self, dir: Dir) -> (&TcpStream, &TcpStream, &Queue) {
        match dir {
            Dir::Up => (&self.client, &self.server, &self.up),
            Dir::Down => (&self.server, &self.client, &self.down),
        }
    }

    /// Cuts the connection: shuts both sockets down (the blocked reads and writes return) and
    /// wakes the threads waiting on a queue, which then see `dead` and end.
    fn kill(&self) {
        self.dead.store(true, Ordering::SeqCst);
        let _ = self.client.shutdown(Shutdown::Both);
        let _ = self.server.shutdown(Shutdown::Both);
        for q in [&self.up, &self.down] {
            // Taking the lock orders this after any waiter's check of `dead`: no lost wake-up.
            let mut st = lock(&q.state);
            st.items.clear();
            st.bytes = 0;
            drop(st);
            q.changed.notify_all();
        }
    }

    /// Called by each thread of the connection as it ends: the last one marks the connection
    /// dead, so that it is dropped from the list (and its sockets closed).
    fn thread_ended(&self) {
        if self.live.fetch_sub(1, Ordering::SeqCst) == 1 {
            self.dead.store(true, Ordering::SeqCst);
        }
    }

    fn is_dead(&self) -> bool {
        self.dead.load(Ordering::SeqCst)
    }
}

/// Reads chunks from one side and queues them with their due time, until the end of the
/// stream (then queues an end marker), an error (then cuts the connection) or a cut.
fn read_pump(conn: &Conn, shared: &Shared, dir: Dir, seed: u64) {
    let (from, _, queue) = conn.ends(dir);
    let opts = &shared.opts;
    let mut rng = XorShift::new(seed);
    let mut buf = vec![0u8; CHUNK];
    loop {
        let n = match (&*from).read(&mut buf) {
            Ok(n) => n,
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(_) => {
                conn.kill();
                return;
            }
        };
        let mut due = Instant::now() + opts.one_way_delay;
        if n > 0 && opts.loss > 0.0 && rng.unit() < opts.loss {
            due += opts.loss_penalty;
        }
        let mut st = lock(&queue.state);
        // Wait for room, but always take a chunk into an empty queue.
        while !conn.is_dead() && st.bytes > 0 && st.bytes + n > QUEUE_CAP {
            st = queue.changed.wait(st).unwrap_or_else(|e| e.into_inner());
        }
        if conn.is_dead() {
            return;
        }
        if n == 0 {
            st.items.push_back(Item::Eof { due });
        } else {
            st.bytes += n;
            st.items.push_back(Item::Data {
                due,
                bytes: buf[..n].to_vec(),
            });
        }
        drop(st);
        queue.changed.notify_all();
        if n == 0 {
            return;
        }
    }
}

/// Takes the chunks of one direction in order and writes each once it is due, until the end
/// marker (then half-closes the socket it writes to), an error (then cuts the connection) or a
/// cut.
fn write_pump(conn: &Conn, shared: &Shared, dir: Dir) {
    let (_, to, queue) = conn.ends(dir);
    loop {
        let item = {
            let mut st = lock(&queue.state);
            loop {
                if conn.is_dead() {
                    return;
                }
                let now = Instant::now();
                match st.items.front().map(Item::due) {
                    Some(due) if due <= now => break,
                    Some(due) => {
                        st = queue
                            .changed
                            .wait_timeout(st, due - now)
                            .unwrap_or_else(|e| e.into_inner())
                            .0;
                    }
                    None => st = queue.changed.wait(st).unwrap_or_else(|e| e.into_inner()),
                }
            }
            let item = st.items.pop_front().expect("a due item");
            if let Item::Data { bytes, .. } = &item {
                st.bytes -= bytes.len();
            }
            item
        };
        queue.changed.notify_all();
        let bytes = match item {
            Item::Eof { .. } => {
                let _ = to.shutdown(Shutdown::Write);
                return;
            }
            Item::Data { bytes, .. } => bytes,
        };
        // How much of the chunk to deliver, and whether to cut after it.
        let (len, cut) = match dir {
            Dir::Up => (bytes.len(), false),
            Dir::Down => {
                let mut t = lock(&shared.down);
                if t.cut_at == 0 {
                    t.total += bytes.len() as u64;
                    (bytes.len(), false)
                } else {
                    let room = t.cut_at.saturating_sub(t.total);
                    let len = (bytes.len() as u64).min(room) as usize;
                    t.total += len as u64;
                    let cut = t.total >= t.cut_at;
                    if cut {
                        t.cut_at = 0;
                    }
                    (len, cut)
                }
            }
        };
        if len > 0 {
            // Counted before the write, so that whoever has received bytes sees them counted.
            let counter = match dir {
                Dir::Up => &shared.bytes_up,
                Dir::Down => &shared.bytes_down,
            };
            counter.fetch_add(len as u64, Ordering::SeqCst);
            if (&*to).write_all(&bytes[..len]).is_err() {
                conn.kill();
                return;
            }
        }
        if cut {
            conn.kill();
            return;
        }
    }
}

/// SplitMix64's finaliser: spreads a seed's bits (so that nearby seeds give unrelated draws).
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A tiny xorshift64* generator for the loss draws.
struct XorShift(u64);

impl XorShift {
    fn new(seed: u64) -> XorShift {
        // The state must not be 0 (xorshift would stay there).
        XorShift(if seed == 0 { 0x2545_F491_4F6C_DD1D } else { seed })
    }

    /// A draw in [0, 1).
    fn unit(&mut self) -> f64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        (x.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 11) as f64 / (1u64 << 53) as f64
    }
}
