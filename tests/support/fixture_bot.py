#!/usr/bin/env python3
"""A scripted bot for the Rikken fixtures: plays one seat of a fixture file exactly.

Usage: fixture_bot.py FIXTURE.json SEAT   (SEAT = N, E, S or W)

Answers each `act` with its seat's next action from the fixture: its bids (without the
automatic re-passes, which croupier makes itself), its declarations, then its cards in trick
order. If the scripted action is not among the legal ones it answers it anyway, so croupier
records the refusal as a fault (the test runs with --strict).
"""
import json
import sys

fixture = json.load(open(sys.argv[1]))
me = sys.argv[2]
seats = "NESW"

script = []
acts = (fixture.get("auction") or {}).get("actions")
if acts:
    passed = set()
    for seat, token in acts:
        if token == "pass" and seat in passed:
            continue
        if token == "pass":
            passed.add(seat)
        if seat == me:
            script.append(token)
else:
    declarer = fixture["contract"]["declarer"]
    if me == declarer:
        script.append(fixture["contract"]["bid"])
    else:
        script.append("pass")
for seat, _what, value in (fixture.get("auction") or {}).get("declarations") or []:
    if seat == me:
        script.append(value)
for trick in fixture["tricks"]:
    lead = seats.index(trick["lead"])
    for k, card in enumerate(trick["cards"]):
        if seats[(lead + k) % 4] == me:
            script.append(card)

for line in sys.stdin:
    w = line.split()
    if not w or not w[0].isdigit():
        continue
    rid, cmd = w[0], w[1]
    if cmd == "hello":
        print(f"={rid} fixture-{me} 1", flush=True)
    elif cmd == "act":
        answer = script.pop(0) if script else w[4]
        print(f"={rid} {answer}", flush=True)
    elif cmd == "quit":
        print(f"={rid}", flush=True)
        break
    else:
        print(f"?{rid} unknown command", flush=True)
