#!/usr/bin/env python3
"""A bot that tries to get out of its sandbox, then plays.

Usage: escape_bot.py PORT CROUPIER_PID RECORD LOG_DIR MARKER FORKS BOT...

Before it plays it tries, one by one, what a bot must not do, and says on stderr (its log)
`escape NAME: blocked (WHY)` or `escape NAME: OPEN (WHAT)` for each: connect to 127.0.0.1:PORT
(where the test listens), see other processes, read croupier's environment and memory, signal croupier, read the
record and list the log directory, write into croupier's working directory and into /usr, and
leave a child running (a Python sleeping with MARKER on its command line, in its own session),
and, when FORKS is not 0, start FORKS processes (a fork bomb).
Then it becomes BOT (exec).
"""
import os
import socket
import sys

port, croupier, record, log_dir, marker, forks = sys.argv[1:7]
bot = sys.argv[7:]


def attempt(name, action):
    try:
        what = action()
        print(f"escape {name}: OPEN ({what})", file=sys.stderr, flush=True)
    except Exception as e:  # every failure is the sandbox working
        print(f"escape {name}: blocked ({type(e).__name__}: {e})", file=sys.stderr, flush=True)


def connect():
    s = socket.create_connection(("127.0.0.1", int(port)), timeout=2)
    s.close()
    return "connected"


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


attempt("network", connect)
attempt("processes", processes)
attempt("environ", lambda: read(f"/proc/{croupier}/environ"))
attempt("memory", lambda: read(f"/proc/{croupier}/mem"))
attempt("signal", signal)
attempt("record", lambda: read(record))
attempt("logs", lambda: logs(log_dir))
attempt("write-cwd", lambda: write(os.path.join(os.getcwd(), marker)))
attempt("write-usr", lambda: write(f"/usr/{marker}"))
attempt("children", child)
if int(forks):
    attempt("fork-bomb", fork_bomb)
os.execvp(bot[0], bot)
