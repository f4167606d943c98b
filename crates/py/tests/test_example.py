"""The worked example end to end, in small: train a policy for a few seconds, export it, and
play it at a croupier table through the bot kit; every decision is the policy's own (no fault,
no substitute) and the policy's choices are the ones its weights give."""

import json
import pathlib
import subprocess
import sys

import numpy as np

EXAMPLES = pathlib.Path(__file__).resolve().parents[1] / "examples"


def test_train_export_and_play_at_a_table(tmp_path, croupier_bin):
    policy = tmp_path / "policy.npz"
    out = subprocess.run(
        [sys.executable, str(EXAMPLES / "train_policy.py"), "kul", "--rule", "games=1", "--players", "3", "--minutes", "0.02",
         "--batch", "4", "--out", str(policy)],
        check=True, capture_output=True, text=True, timeout=600)
    assert f"wrote {policy}" in out.stdout
    data = np.load(policy)
    assert str(data["game"]) == "kul" and data["games"] > 0
    bot = f"{sys.executable} {EXAMPLES / 'policy_bot.py'} {policy}"
    rec = subprocess.run(
        [croupier_bin, "play", "kul", "--rule", "games=1", "--players", "3", "--seat", bot, "--seat", "simple",
         "--seat", "random", "--games", "3", "--seed", "11", "--record", "-", "--quiet", "--log-dir", str(tmp_path / "logs")],
        check=True, capture_output=True, text=True, timeout=600)
    records = [json.loads(line) for line in rec.stdout.splitlines() if line.startswith("{")]
    assert len(records) == 3
    mine = [a for r in records for a in r["actions"] if a["seat"] == 0]
    assert mine, "the policy seat made no decision"
    assert not any(a.get("substitute") for a in mine)
    assert all(not r.get("faults") for r in records), [r.get("faults") for r in records]


def test_the_bot_refuses_a_policy_of_another_game(tmp_path, croupier_bin):
    policy = tmp_path / "policy.npz"
    subprocess.run(
        [sys.executable, str(EXAMPLES / "train_policy.py"), "kul", "--rule", "games=1", "--minutes", "0.01",
         "--batch", "2", "--out", str(policy)],
        check=True, capture_output=True, text=True, timeout=600)
    bot = f"{sys.executable} {EXAMPLES / 'policy_bot.py'} {policy}"
    rec = subprocess.run(
        [croupier_bin, "play", "svangknack", "--players", "3", "--seat", bot, "--seat", "simple", "--seat", "simple",
         "--games", "1", "--seed", "3", "--record", "-", "--quiet", "--log-dir", str(tmp_path / "logs")],
        capture_output=True, text=True, timeout=600)
    records = [json.loads(line) for line in rec.stdout.splitlines() if line.startswith("{")]
    assert records and records[0].get("faults"), rec.stderr
    assert "trained for kul, not svangknack" in json.dumps(records[0]["faults"])


def test_the_bot_refuses_a_table_it_was_not_trained_for(tmp_path, croupier_bin):
    policy = tmp_path / "policy.npz"
    subprocess.run(
        [sys.executable, str(EXAMPLES / "train_policy.py"), "kul", "--rule", "games=1", "--players", "3",
         "--minutes", "0.01", "--batch", "2", "--out", str(policy)],
        check=True, capture_output=True, text=True, timeout=600)
    bot = f"{sys.executable} {EXAMPLES / 'policy_bot.py'} {policy}"
    for table, message in [(["--players", "4", "--rule", "games=1"], "trained for 3 players, not 4"),
                           (["--players", "3", "--rule", "games=2"], "trained with option games=1, not games=2")]:
        seats = ["--seat", bot] + ["--seat", "simple"] * (int(table[1]) - 1)
        rec = subprocess.run(
            [croupier_bin, "play", "kul", *table, *seats, "--games", "1", "--seed", "3", "--record", "-", "--quiet", "--log-dir", str(tmp_path / "logs")],
            capture_output=True, text=True, timeout=600)
        records = [json.loads(line) for line in rec.stdout.splitlines() if line.startswith("{")]
        assert records and message in json.dumps(records[0].get("faults")), rec.stderr
