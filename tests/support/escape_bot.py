#!/usr/bin/env python3
"""A bot that tries to get out of its sandbox, then plays.

Usage: escape_bot.py [--connect HOST:PORT,...] [--croupier PID] [--record FILE] [--logs DIR]
                     [--marker WORD] [--forks N] [--hog BYTES] [--only NAME,...] -- BOT...

Before it plays it tries, one by one, what a bot must not do, and says on stderr (its log)
`escape NAME: blocked (WHY)` or `escape NAME: OPEN (WHAT)` for each: connect to each address
of --connect (where the test listens: `network HOST:PORT`), see other processes, read croupier's
environment and memory, ptrace and signal croupier, read the record and list the log directory,
write into croupier's working directory and into /usr, and leave a child running (a Python
sleeping with MARKER on its command line, in its own session); when --forks is given, start
that many processes (a fork bomb); when --hog is given, hold that many bytes in each of three
children at once (`memory-tree`: more than --bot-memory allows the bot's tree together).
--only keeps the attempts named. Then it becomes BOT (exec).
"""
import argparse
import ctypes
import os
import socket
import sys

ap = argparse.ArgumentParser()
ap.add_argument("--connect", default="")
ap.add_argument("--croupier", type=int, default=0)
ap.add_argument("--record", default="/nonexistent")
ap.add_argument("--logs", default="/nonexistent")
ap.add_argument("--marker", default="escape-marker")
ap.add_argument("--forks", type=int, default=0)
ap.add_argument("--hog", type=int, default=0)
ap.add_argument("--only", default="")
ap.add_argument("bot", nargs="+")
args = ap.parse_args()
croupier, record, log_dir, marker, forks = args.croupier, args.record, args.logs, args.marker, args.forks
only = set(filter(None, args.only.split(",")))
bot = args.bot


def attempt(name, action):
    if only and name.split(" ")[0] not in only:
        return
    try:
        what = action()
        print(f"escape {name}: OPEN ({what})", file=sys.stderr, flush=True)
    except Exception as e:  # every failure is the sandbox working
        print(f"escape {name}: blocked ({type(e).__name__}: {e})", file=sys.stderr, flush=True)


def connect(addr):
    host, port = addr.rsplit(":", 1)
    s = socket.create_connection((host, int(port)), timeout=2)
    s.close()
    return "connected"


def ptrace():
    libc = ctypes.CDLL(None, use_errno=True)
    libc.ptrace.argtypes = [ctypes.c_long, ctypes.c_long, ctypes.c_void_p, ctypes.c_void_p]
    if libc.ptrace(16, croupier, None, None) == -1:  # PTRACE_ATTACH
        e = ctypes.get_errno()
        raise OSError(e, os.strerror(e))
    return "attached to croupier"


def memory_tree():
    held, ready_r, ready_w = os.pipe(), *os.pipe()
    kids = []
    for _ in range(3):
        pid = os.fork()
        if pid == 0:
            os.close(held[1])
            os.close(ready_r)
            x = bytearray(args.hog)
            for i in range(0, len(x), 4096):
                x[i] = 1
            os.write(ready_w, b"x")
            os.close(ready_w)
            os.read(held[0], 1)  # holds it until the parent lets go
            os._exit(0)
        kids.append(pid)
    os.close(ready_w)
    os.close(held[0])
    got = b""
    while True:  # EOF once every child has said it holds its bytes, or died
        b = os.read(ready_r, 16)
        if not b:
            break
        got += b
    os.close(held[1])
    ends = [os.waitstatus_to_exitcode(os.waitpid(k, 0)[1]) for k in kids]
    # A child may say it holds its bytes and be ended later, when another one's take the tree
    # past its limit: only three children that all lived held them at once.
    if len(got) == 3 and all(e == 0 for e in ends):
        return f"three children held {args.hog} bytes each at once"
    raise MemoryError(f"{ends.count(-9)} of 3 children were killed ({len(got)} said they held their bytes): {ends}")


def read(path):
    with open(path, "rb") as f:
        return f"read {len(f.read(64))} bytes"


def logs(path):
    for root, _dirs, files in os.walk(path):
        for f in files:
            return read(os.path.join(root, f)) + f" of {f}"
    raise FileNotFoundError("no log file to be seen")


def write(path):
    with open(path, "w") as f:
        f.write("escaped\n")
    return f"wrote {path}"


def signal():
    os.kill(int(croupier), 0)
    return "croupier can be signalled"


def child():
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            os.execvp("python3", ["python3", "-c", "import time; time.sleep(1000)", marker])
        os._exit(0)
    os.wait()
    raise ChildProcessError("started (it must end with the sandbox)")


def processes():
    # Itself, bubblewrap's init, and nothing else: no other bot, no croupier.
    mine = {os.getpid(), os.getppid(), 1}
    others = [p for p in os.listdir("/proc") if p.isdigit() and int(p) not in mine]
    if others:
        return f"sees {len(others)} other processes"
    raise ProcessLookupError("no other process in sight")


def fork_bomb():
    kids = []
    try:
        for _ in range(int(forks)):
            pid = os.fork()
            if pid == 0:
                import time
                time.sleep(30)
                os._exit(0)
            kids.append(pid)
        return f"{len(kids)} processes"
    finally:
        for k in kids:
            os.kill(k, 9)
            os.waitpid(k, 0)


for addr in filter(None, args.connect.split(",")):
    attempt(f"network {addr}", lambda: connect(addr))
attempt("processes", processes)
attempt("environ", lambda: read(f"/proc/{croupier}/environ"))
attempt("memory", lambda: read(f"/proc/{croupier}/mem"))
attempt("ptrace", ptrace)
attempt("signal", signal)
attempt("record", lambda: read(record))
attempt("logs", lambda: logs(log_dir))
attempt("write-cwd", lambda: write(os.path.join(os.getcwd(), marker)))
attempt("write-usr", lambda: write(f"/usr/{marker}"))
attempt("children", child)
if forks:
    attempt("fork-bomb", fork_bomb)
if args.hog:
    attempt("memory-tree", memory_tree)
os.execvp(bot[0], bot)
