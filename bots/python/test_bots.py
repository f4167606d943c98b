#!/usr/bin/env python3
"""Scripted protocol sessions for the bundled example bots (standard library only).

Run from the repository root:   python3 bots/python/test_bots.py

Each bot runs as a real process. The tests write protocol lines to it one at a time and check
that every request gets exactly one answer, `=<id> <one of the legal tokens>` for `act`, that
notifications get none, that unknown commands get `?<id> ...`, and that the bots exit on `quit`
and at end of input. The Bash bot must repeat its choices for the same `rngseed`.
"""

import json
import os
import queue
import random
import shutil
import subprocess
import sys
import tempfile
import threading
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
BOTS = os.path.dirname(HERE)
PY_BOT = [sys.executable, os.path.join(BOTS, "python", "croupier_bot.py")]
BASH_BOT = ["bash", os.path.join(BOTS, "bash", "random_bot.sh")]

ANSWER_TIMEOUT = 5.0  # seconds to wait for an answer
SILENCE = 0.3  # seconds during which unasked-for output is looked for

SETUP = [
    "game rikken",
    "option all_pass redeal",
    "option malheur_mode obligatory",
    "players 4",
    "seat 2",
    "rngseed 8312290131418327551",
    "deal 1 3",
]
STRONG_HAND = ["AS", "KS", "QS", "JS", "TS", "AH", "KH", "AD", "2D", "3C", "4C", "5C", "6C"]
WEAK_HAND = ["9S", "5S", "2S", "8H", "6H", "3H", "JD", "7D", "4D", "9C", "7C", "3C", "2C"]


def view_line(**fields):
    """A `view` notification for seat 2 in Rikken; keyword arguments override the defaults."""
    view = {
        "game": "rikken", "players": 4, "seat": 2,
        "options": {"all_pass": "redeal"}, "deal": 1, "dealer": 3,
        "hand": STRONG_HAND, "auction": [], "contract": None, "trump": None,
        "called": None, "partner": None, "aces": [], "exposed": {}, "tricks": [],
        "trick": None, "tricks_won": [0, 0, 0, 0], "played": [], "hints": [],
        "ended": None, "scores": None,
    }
    view.update(fields)
    return "view " + json.dumps(view, separators=(",", ":"))


class Bot:
    """A bot process driven one line at a time; a reader thread collects its output lines."""

    def __init__(self, argv):
        # Without PYTHONUNBUFFERED, so that a bot that forgets to flush is caught.
        env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
        self.stderr = tempfile.TemporaryFile(mode="w+")
        self.proc = subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.stderr,
            text=True, bufsize=1, env=env)
        self.lines = queue.Queue()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\r\n"))
        self.lines.put(None)  # end of output

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def next_line(self, timeout):
        """The next response line (comments and blank lines skipped); None at end of output."""
        while True:
            line = self.lines.get(timeout=timeout)
            if line is None or (line.strip() and not line.startswith("#")):
                return line

    def request(self, line):
        """Send a request and return its answer line, which must carry the request's id.

        Bots answer in order, so a bot that answered a notification would show it here: the
        line read would not be the answer to this request."""
        self.send(line)
        try:
            answer = self.next_line(ANSWER_TIMEOUT)
        except queue.Empty:
            raise AssertionError(f"no answer to {line!r} within {ANSWER_TIMEOUT}s")
        if answer is None:
            raise AssertionError(f"the bot closed its output instead of answering {line!r}")
        rid = line.split()[0]
        if answer.split(" ", 1)[0] not in (f"={rid}", f"?{rid}"):
            raise AssertionError(f"{answer!r} is not an answer to {line!r} "
                                 "(was a notification answered?)")
        return answer

    def notify(self, line):
        """Send a notification. The next request checks that it got no answer."""
        self.send(line)

    def expect_silence(self):
        """Check that nothing was written since the last answer (waits a little)."""
        try:
            extra = self.next_line(SILENCE)
        except queue.Empty:
            return
        raise AssertionError(f"unexpected output {extra!r} (a notification was answered?)")

    def close_input(self):
        self.proc.stdin.close()

    def wait(self, timeout=ANSWER_TIMEOUT):
        return self.proc.wait(timeout=timeout)

    def log(self):
        """What the bot wrote to its standard error so far."""
        self.stderr.seek(0)
        return self.stderr.read()

    def kill(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        for f in (self.proc.stdin, self.proc.stdout, self.stderr):
            try:
                f.close()
            except (OSError, ValueError):
                pass


class BotTestCase(unittest.TestCase):
    argv = None

    def start(self):
        bot = Bot(self.argv)
        self.addCleanup(bot.kill)
        return bot

    def act(self, bot, rid, decision, legal, view=None):
        """Send an act request (after an optional view line) and check the answer is legal."""
        if view is not None:
            bot.notify(view)
        answer = bot.request(f"{rid} act {decision} 10000 {' '.join(legal)}")
        prefix = f"={rid} "
        self.assertTrue(answer.startswith(prefix), f"bad answer {answer!r} to act {rid}")
        token = answer[len(prefix):]
        self.assertIn(token, legal, f"act {rid}: {token!r} is not legal")
        return token

    def hello(self, bot, name):
        answer = bot.request("1 hello 1")
        self.assertTrue(answer.startswith(f"=1 {name} 1.0"), answer)
        return answer.split()[3:]  # the features

    def scripted_session(self, bot, with_views):
        """A whole Rikken-like session with every kind of line; returns the act choices."""
        choices = []
        for line in SETUP:
            bot.notify(line)
        bot.notify("hand " + " ".join(STRONG_HAND))
        bot.notify("move 0 pass")
        bot.notify("move 1 pass")
        bids = ["pass", "rik", "alone7", "misere", "piek", "malheur", "solo"]
        choices.append(self.act(bot, 2, "bid", bids,
                                view_line(decision="bid", legal=bids) if with_views else None))
        bot.notify("move 2 rik")
        bot.notify("move 3 pass")
        bot.notify("contract rik 2")
        choices.append(self.act(bot, 3, "trump", ["S", "H", "D", "C"],
                                view_line(contract={"bid": "rik", "declarers": [2]})
                                if with_views else None))
        bot.notify("move 2 S")
        bot.notify("trump S")
        choices.append(self.act(bot, 4, "call", ["AC"],
                                view_line(contract={"bid": "rik", "declarers": [2]}, trump="S")
                                if with_views else None))
        bot.notify("move 2 AC")
        bot.notify("called AC")
        self.assertEqual(bot.request("5 frobnicate 1 2"), "?5 unknown command")
        bot.notify("some_future_notification with args")
        bot.notify("move 0 3C")
        bot.notify("move 1 KC")
        play = ["3C", "4C", "5C", "6C"]
        choices.append(self.act(bot, 6, "play", play, view_line(
            contract={"bid": "rik", "declarers": [2]}, trump="S", called="AC",
            trick={"leader": 0, "cards": ["3C", "KC"]}, played=["3C", "KC"])
            if with_views else None))
        bot.notify("fault illegal not a legal action")
        bot.notify("trick 1 1")
        bot.notify("gameover 2 -2 2 -2")
        bot.expect_silence()
        return choices

    def finish(self, bot, rid=9):
        self.assertEqual(bot.request(f"{rid} quit"), f"={rid}")
        self.assertEqual(bot.wait(), 0)


class PythonBotTest(BotTestCase):
    argv = PY_BOT

    def test_session(self):
        bot = self.start()
        self.assertEqual(self.hello(bot, "pybot"), ["view"])
        bid, trump, call, play = self.scripted_session(bot, with_views=True)
        self.assertNotIn("decision error (", bot.log())
        self.assertEqual(bid, "rik")  # a strong hand
        self.assertEqual(trump, "S")  # the longest suit
        self.assertEqual(call, "AC")
        self.assertEqual(play, "3C")  # cannot beat the king: the lowest card
        self.finish(bot)

    def test_without_views_plays_first_legal(self):
        bot = self.start()
        self.hello(bot, "pybot")
        choices = self.scripted_session(bot, with_views=False)
        self.assertEqual(choices, ["pass", "S", "AC", "3C"])
        self.finish(bot)

    def test_weak_hand_passes_and_forced_bid(self):
        bot = self.start()
        self.hello(bot, "pybot")
        for line in SETUP:
            bot.notify(line)
        legal = ["pass", "rik", "misere"]
        self.assertEqual(self.act(bot, 2, "bid", legal, view_line(hand=WEAK_HAND)), "pass")
        legal = ["rik", "alone7", "misere"]  # pass not allowed: the first legal bid
        self.assertEqual(self.act(bot, 3, "bid", legal, view_line(hand=WEAK_HAND)), "rik")
        # rik is taken but hearts is our longest suit: rik_beter
        hearts = ["AH", "KH", "QH", "JH", "TH", "AS", "KS", "AD", "2D", "3C", "4C", "5C", "6S"]
        legal = ["pass", "rik_beter", "alone7"]
        self.assertEqual(self.act(bot, 4, "bid", legal, view_line(hand=hearts)), "rik_beter")
        self.finish(bot)

    def test_play_choices(self):
        bot = self.start()
        self.hello(bot, "pybot")
        for line in SETUP:
            bot.notify(line)
        hand = ["AS", "KS", "7S", "AH", "9H", "4H", "2H", "QD", "5D", "TC", "3C", "8D", "2D"]
        base = dict(hand=hand, trump="D", contract={"bid": "rik", "declarers": [0]})
        # Following hearts: the cheapest heart that beats the 8.
        legal = ["AH", "9H", "4H", "2H"]
        view = view_line(trick={"leader": 0, "cards": ["5H", "8H"]}, **base)
        self.assertEqual(self.act(bot, 2, "play", legal, view), "9H")
        # A trump in the trick: no heart wins, so the lowest heart.
        view = view_line(trick={"leader": 0, "cards": ["5H", "3D"]}, **base)
        self.assertEqual(self.act(bot, 3, "play", legal, view), "2H")
        # Void in the suit led: trump with the lowest trump.
        legal = ["AS", "KS", "7S", "AH", "QD", "5D", "2D", "TC", "3C"]
        view = view_line(trick={"leader": 0, "cards": ["JC", "KC"]}, **base)
        self.assertEqual(self.act(bot, 4, "play", legal, view), "2D")
        # Overtrump the 8 of trumps with the queen.
        view = view_line(trick={"leader": 0, "cards": ["JC", "8D"]}, **base)
        self.assertEqual(self.act(bot, 5, "play", legal, view), "QD")
        # No trump contract: cannot win when void, throw the lowest card.
        view = view_line(trick={"leader": 0, "cards": ["JC", "KC"]},
                         **dict(base, trump="none"))
        self.assertEqual(self.act(bot, 6, "play", ["AS", "7S", "5D"], view), "5D")
        # Our partner (seat 0, the declarer; we hold the called card) is winning: throw low.
        view = view_line(trick={"leader": 0, "cards": ["KH", "5H"]}, partner=2, **base)
        self.assertEqual(self.act(bot, 7, "play", ["AH", "9H", "4H", "2H"], view), "2H")
        # Leading: the highest card of the longest suit (hearts, 4 cards).
        view = view_line(trick=None, **base)
        self.assertEqual(self.act(bot, 8, "play", hand, view), "AH")
        self.finish(bot)
        self.assertNotIn("decision error (", bot.log())

    def test_robust_against_odd_input(self):
        bot = self.start()
        self.hello(bot, "pybot")
        for line in SETUP:
            bot.notify(line)
        bot.notify("view {this is not json")
        self.assertEqual(self.act(bot, 2, "play", ["7S", "AS"]), "7S")
        bot.notify('view {"hand": 17, "trick": "x", "trump": 5}')
        self.act(bot, 3, "play", ["7S", "AS"])
        bot.notify('view [1, 2, 3]')
        self.act(bot, 4, "bid", ["pass", "rik"])
        bot.notify(view_line(hand=["XX", 3, None], trick={"leader": "a", "cards": [1, "ZZ"]}))
        self.act(bot, 5, "play", ["7S", "AS"])
        self.act(bot, 6, "unknown_decision", ["foo", "bar"])
        self.assertTrue(bot.request("7 act").startswith("?7 "))
        self.assertEqual(bot.request("8"), "?8 unknown command")
        bot.notify("")
        bot.notify("# a comment")
        bot.notify("\u00e9\u00e8 unicode notification")
        bot.expect_silence()
        # Another game: always the first legal action, even with a view.
        bot.notify("game zwikken")
        bot.notify(view_line(game="zwikken"))
        self.assertEqual(self.act(bot, 10, "play", ["2C", "AS"]), "2C")
        self.finish(bot, 11)

    def test_random_positions_always_legal(self):
        """Seeded random Rikken positions (views that fit the legal list, and some that do not):
        every answer must be one of the legal tokens."""
        rng = random.Random(20240601)
        deck = [r + s for s in "SHDC" for r in "AKQJT98765432"]
        bot = self.start()
        self.hello(bot, "pybot")
        for line in SETUP:
            bot.notify(line)
        for rid in range(2, 302):
            rng.shuffle(deck)
            hand = sorted(deck[:rng.randint(1, 13)])
            table = deck[13:13 + rng.randint(0, 3)]
            decision = rng.choice(["bid", "trump", "call", "play", "play", "play"])
            if decision == "bid":
                bids = ["pass", "rik", "rik_beter", "alone7", "misere", "piek", "malheur", "solo"]
                legal = rng.sample(bids, rng.randint(1, len(bids)))
            elif decision == "trump":
                legal = rng.sample("SHDC", rng.randint(1, 4))
            elif decision == "call":
                legal = rng.sample(["AS", "AH", "AD", "AC", "KS", "QH"], rng.randint(1, 3))
            elif table and rng.random() < 0.8:
                led = [c for c in hand if c[1] == table[0][1]]
                legal = led or hand
            else:
                legal = hand if rng.random() < 0.9 else rng.sample(deck, 3)
            declarers = rng.sample(range(4), rng.choice([0, 1, 1, 2, 4]))
            view = view_line(
                hand=hand, decision=decision, legal=legal,
                trump=rng.choice(["S", "H", "D", "C", "none", None]),
                contract=rng.choice([None, {"bid": rng.choice(["rik", "malheur", "misere",
                                                               "alone8", "open_piek_totaal"]),
                                            "declarers": declarers}]),
                partner=rng.choice([None, 0, 1, 2, 3]),
                trick={"leader": rng.randint(0, 3), "cards": table} if table else None)
            self.act(bot, rid, decision, legal, view if rng.random() < 0.95 else None)
        self.finish(bot, 400)
        self.assertNotIn("decision error (", bot.log())  # well-formed views never need the fallback

    def test_hello_other_version(self):
        bot = self.start()
        self.assertTrue(bot.request("1 hello 2").startswith("?1 "))

    def test_exits_at_end_of_input(self):
        bot = self.start()
        self.hello(bot, "pybot")
        bot.notify("game rikken")
        bot.close_input()
        self.assertEqual(bot.wait(), 0)


@unittest.skipUnless(shutil.which("bash"), "bash not installed")
class BashBotTest(BotTestCase):
    argv = BASH_BOT

    def test_session(self):
        bot = self.start()
        self.assertEqual(self.hello(bot, "bashbot"), [])
        self.scripted_session(bot, with_views=False)
        self.assertEqual(bot.request("7"), "?7 unknown command")
        self.assertTrue(bot.request("8 act play 100").startswith("?8 "))
        self.finish(bot)

    def choices(self, seed, rounds=30):
        bot = self.start()
        self.hello(bot, "bashbot")
        bot.notify("game rikken")
        bot.notify(f"rngseed {seed}")
        legal = ["AS", "KS", "QS", "JS", "TS", "9S", "8S", "7S", "6S", "5S"]
        picks = [self.act(bot, 2 + i, "play", legal) for i in range(rounds)]
        self.finish(bot, 2 + rounds)
        return picks

    def test_reproducible_for_the_same_seed(self):
        for seed in ("42", "8312290131418327551", "18446744073709551615"):
            self.assertEqual(self.choices(seed), self.choices(seed), seed)
        self.assertNotEqual(self.choices("1"), self.choices("2"))

    def test_reseeds_each_game(self):
        bot = self.start()
        self.hello(bot, "bashbot")
        legal = [str(i) for i in range(20)]
        games = []
        for g in range(2):
            bot.notify("game rikken")
            bot.notify("rngseed 777")
            games.append([self.act(bot, 10 * g + 2 + i, "bid", legal) for i in range(8)])
        self.assertEqual(games[0], games[1])
        self.finish(bot, 99)

    def test_every_legal_action_can_be_picked(self):
        bot = self.start()
        self.hello(bot, "bashbot")
        bot.notify("rngseed 5")
        legal = ["pass", "rik", "misere", "piek"]
        seen = {self.act(bot, 2 + i, "bid", legal) for i in range(200)}
        self.assertEqual(seen, set(legal))
        self.finish(bot, 500)

    def test_exits_at_end_of_input(self):
        bot = self.start()
        self.hello(bot, "bashbot")
        bot.close_input()
        self.assertEqual(bot.wait(), 0)


if __name__ == "__main__":
    unittest.main()
