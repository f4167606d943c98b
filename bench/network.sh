#!/usr/bin/env bash
# The cost of a network seat per decision, against a pipe seat. Rikken, seat 0 played by
# `croupier bot random` over pipes (pipe), by the same bot on a bot host over a loopback link
# (tcp: `tcp://` with `croupier serve-bot`), by the same bot through the referee's hub (remote:
# `remote:b` with `croupier connect`), or by the built-in random bot inside the referee (none:
# no process, no line). The other seats are built-in random bots. The modes run in turn, RUNS
# times; the figure is each run's median time of seat 0's decisions, from the records (each
# action's `ms`: from the referee's `act` to the answer, as its clock counts it, round trip
# included; start-up and connecting are left out), and the median over runs of its ratio to
# the pipe's in the same round. For scale, the round trip of plain TCP on loopback (Python, a
# 20-byte ping-pong, median of 2000).
# Usage: bench/network.sh [GAMES] [RUNS]   (defaults 300 and 11; CROUPIER=path as bench/lib.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
GAMES=${1:-300}
RUNS=${2:-11}
# bench/lib.sh's scratch directory; the trap also ends the relays started in the background.
work=$WORK
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$WORK"' EXIT
port=$((20000 + RANDOM % 20000))
common=(--seat random --seat random --seat random --seed 1 --bot-seed 1 --quiet --log-dir "$work/logs"
    --games "$GAMES")
"$C" serve-bot --listen 127.0.0.1:0 --keys "$work/host" -q -- "$C" bot random >"$work/host.out" &
until grep -q '^token' "$work/host.out" 2>/dev/null; do sleep 0.05; done
tcp="tcp://$(awk '/^listening/ {print $2}' "$work/host.out")?token=$work/host/serve-bot.token"
# The relay connects again for each run (the keys, hence its token, stay from run to run).
"$C" play rikken --seat remote:b "${common[@]}" --listen "127.0.0.1:$port" --keys "$work/keys" \
    --startup-time 1ms >/dev/null 2>&1 || true
"$C" connect --token-file "$work/keys/b.token" --retry-for 120s -q -- "$C" bot random &
for ((i = 0; i < RUNS; i++)); do
    "$C" play rikken --seat "$C bot random" "${common[@]}" --record "$work/pipe-$i.jsonl" >/dev/null
    "$C" play rikken --seat "$tcp" "${common[@]}" --record "$work/tcp-$i.jsonl" >/dev/null
    "$C" play rikken --seat remote:b "${common[@]}" --listen "127.0.0.1:$port" --keys "$work/keys" \
        --record "$work/remote-$i.jsonl" >/dev/null
    "$C" play rikken --seat random "${common[@]}" --record "$work/none-$i.jsonl" >/dev/null
done
python3 - "$work" "$RUNS" <<'PY'
import json, socket, statistics, sys, threading, time
w, runs = sys.argv[1], int(sys.argv[2])
med = statistics.median
def decisions(mode, i):
    return [a["ms"] for l in open(f"{w}/{mode}-{i}.jsonl") for a in json.loads(l)["actions"] if a.get("seat") == 0]
modes = ("pipe", "tcp", "remote", "none")
dec = {m: [1000 * med(decisions(m, i)) for i in range(runs)] for m in modes}
srv = socket.socket(); srv.bind(("127.0.0.1", 0)); srv.listen(1)
def echo():
    c, _ = srv.accept(); c.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    while (d := c.recv(64)):
        c.sendall(d)
threading.Thread(target=echo, daemon=True).start()
cl = socket.create_connection(srv.getsockname()); cl.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
rtts = []
for _ in range(2000):
    t = time.perf_counter(); cl.sendall(b"x" * 20); cl.recv(64); rtts.append(1e6 * (time.perf_counter() - t))
print(f"runs {runs}, {len(decisions('pipe', 0))} decisions of seat 0 per run; loopback TCP round trip {med(rtts):.1f} µs")
print(f"{'seat 0':8} {'decision µs (median of runs)':>30} {'/ pipe (median of rounds)':>27}")
for m in modes:
    r = [a / b for a, b in zip(dec[m], dec["pipe"])]
    print(f"{m:8} {med(dec[m]):30.1f} {med(r):27.2f}")
PY
