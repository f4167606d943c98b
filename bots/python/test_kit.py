#!/usr/bin/env python3
"""Unit tests of croupier_kit: the parsing helpers and the protocol loop (no process started).

Run:  cd bots/python && python3 -m unittest        (or: python3 bots/python/test_kit.py)
"""

import io
import json
import os
import random
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import croupier_kit as kit  # noqa: E402
from croupier_kit import Bot, Card  # noqa: E402


class CardTest(unittest.TestCase):
    def test_card_parses_rank_and_suit(self):
        self.assertEqual(kit.card("TS"), Card("T", "S"))
        self.assertEqual(kit.card("AH").value, 14)
        self.assertEqual(kit.card("2C").value, 2)
        self.assertEqual(kit.card("JD").value, 11)
        self.assertEqual(str(kit.card("9D")), "9D")
        for bad in ["", "T", "1S", "TX", "ts", "TSS", "10S"]:
            with self.assertRaises(ValueError, msg=bad):
                kit.card(bad)

    def test_is_card_and_cards(self):
        self.assertTrue(kit.is_card("QC"))
        for token in ["pass", "9H:4S,5C", "swap_7H_AS", "S", None, 3, ["AS"]]:
            self.assertFalse(kit.is_card(token), token)
        self.assertEqual(kit.cards(["pass", "AS", 7, "9H:4S", "2D"]), ["AS", "2D"])

    def test_order_within_a_suit(self):
        order = [kit.value(r + "S") for r in "23456789TJQKA"]
        self.assertEqual(order, sorted(order))
        self.assertEqual(len(set(order)), 13)

    def test_by_suit_and_follow_suit(self):
        hand = ["AS", "7S", "KH", "2C", "pass"]
        self.assertEqual(kit.by_suit(hand), {"S": ["AS", "7S"], "H": ["KH"], "C": ["2C"]})
        self.assertEqual(kit.follow_suit(hand, "S"), ["AS", "7S"])
        self.assertEqual(kit.follow_suit(hand, "D"), ["AS", "7S", "KH", "2C"])  # void
        self.assertEqual(kit.follow_suit(hand, None), ["AS", "7S", "KH", "2C"])

    def test_highest_and_lowest(self):
        self.assertEqual(kit.highest(["9S", "KD", "TS"]), "KD")
        self.assertEqual(kit.lowest(["9S", "2D", "TS"]), "2D")
        self.assertEqual(kit.lowest(["9S", "2D", "TS"], trump="D"), "9S")  # a non-trump first
        self.assertEqual(kit.lowest(["QD", "2D"], trump="D"), "2D")
        self.assertEqual(kit.highest(["9S", "9H"]), "9S")  # the first among equals

    def test_beats_and_winning_index(self):
        self.assertTrue(kit.beats("KS", "QS", None))
        self.assertFalse(kit.beats("AH", "QS", None))  # another suit, no trump
        self.assertTrue(kit.beats("2H", "AS", "H"))  # a trump
        self.assertFalse(kit.beats("AS", "2H", "H"))
        self.assertEqual(kit.winning_index(["5H", "8H", "AS", "2H"], None), 1)
        self.assertEqual(kit.winning_index(["5H", "8H", "3D", "4D"], "D"), 3)
        self.assertEqual(kit.winning_index(["5H"], "D"), 0)


class TrickTest(unittest.TestCase):
    def test_rikken_and_kul_seats_follow_the_leader(self):
        view = {"players": 4, "trump": "S", "trick": {"leader": 3, "cards": ["5H", "KH", "2S"]}}
        t = kit.trick_from_view(view)
        self.assertEqual(t.plays, [(3, "5H"), (0, "KH"), (1, "2S")])
        self.assertEqual(t.led, "H")
        self.assertEqual(t.winner(kit.trump_of(view)), (1, "2S"))
        self.assertEqual(t.winner(None), (0, "KH"))
        kul = {"players": 3, "trick": {"leader": 2, "cards": ["9S", "QS"]}}
        self.assertEqual(kit.trick_from_view(kul).plays, [(2, "9S"), (0, "QS")])

    def test_zwikken_lists_the_seats(self):
        view = {"players": 4, "trick": {"leader": 1, "seats": [1, 3], "cards": ["JH", "AH"]}}
        self.assertEqual(kit.trick_from_view(view).plays, [(1, "JH"), (3, "AH")])

    def test_svangknack_pairs(self):
        view = {"players": 4, "trump": "H",
                "trick": {"leader": 0, "cards": [[0, "9D"], [2, "4H"]], "farg": [1]}}
        t = kit.trick_from_view(view)
        self.assertEqual(t.plays, [(0, "9D"), (2, "4H")])
        self.assertEqual(t.winner("H"), (2, "4H"))

    def test_no_trick(self):
        self.assertIsNone(kit.trick_from_view(None))
        self.assertIsNone(kit.trick_from_view({"trick": None}))
        self.assertIsNone(kit.trick_from_view({"trick": {"leader": "x", "cards": []}}))
        empty = kit.trick_from_view({"trick": {"leader": 2, "cards": []}})
        self.assertEqual((empty.led, empty.winner("S")), (None, None))

    def test_trump_of(self):
        self.assertEqual(kit.trump_of({"trump": "C"}), "C")
        for v in [{"trump": "none"}, {"trump": None}, {}, None]:
            self.assertIsNone(kit.trump_of(v))


class TokenTest(unittest.TestCase):
    def test_skwitz(self):
        self.assertEqual(kit.parse_capture("9H:3S,2D,7C,4C"), ("9H", ["3S", "2D", "7C", "4C"]))
        self.assertEqual(kit.parse_capture("5D:5C"), ("5D", ["5C"]))
        self.assertEqual(kit.parse_capture("KS"), ("KS", []))
        self.assertEqual([kit.skwitz_value(c) for c in ["AS", "2S", "TS", "KS"]], [1, 2, 10, 13])

    def test_schwimmen(self):
        self.assertEqual(kit.parse_swap("swap_7H_AS"), ("7H", "AS"))
        for t in ["swap_all", "knock", "pass", "swap_7H", "swap_XX_AS"]:
            self.assertIsNone(kit.parse_swap(t), t)
        self.assertEqual(kit.schwimmen_value(["AS", "KS", "TS"]), 31)
        self.assertEqual(kit.schwimmen_value(["7C", "7H", "7D"]), 30.5)
        self.assertEqual(kit.schwimmen_value(["7C", "9H", "QD"]), 10)
        self.assertEqual(kit.schwimmen_value(["TH", "QD", "KD"]), 20)
        self.assertEqual(kit.schwimmen_value(["8S", "9S", "AH"]), 17)

    def test_zwikken_exchange(self):
        self.assertEqual(kit.parse_exchange("exchange_JH"), ("JH", None))
        self.assertEqual(kit.parse_exchange("exchange_JH_AH"), ("JH", "AH"))
        for t in ["no_exchange", "exchange", "exchange_X", "AH", "exchange_JH_AH_KH"]:
            self.assertIsNone(kit.parse_exchange(t), t)


class Recorder(Bot):
    """Records what the loop hands it; plays the last legal action (the default: the first)."""

    name = "rec"

    def __init__(self):
        super().__init__()
        self.calls = []
        self.seen = []
        self.gameovers = []
        self.logged = []

    def log(self, message):
        self.logged.append(message)

    def choose(self, decision, legal):
        self.calls.append((self.game, self.seat, self.players, dict(self.options), self.view,
                           decision, list(legal), self.time_ms, self.time_left()))
        if decision == "boom":
            raise RuntimeError("a bug in the strategy")
        if decision == "bogus":
            return "not_a_legal_token"
        return legal[-1]

    def on_event(self, kind, args):
        self.seen.append(kind)

    def on_gameover(self, scores):
        self.gameovers.append((self.game, scores, self.moves()))


def session(bot, *lines):
    """Runs the loop on the lines; returns the answer lines."""
    out = io.StringIO()
    bot.run(io.StringIO("".join(line + "\n" for line in lines)), out)
    return out.getvalue().splitlines()


class LoopTest(unittest.TestCase):
    def test_hello_and_features(self):
        self.assertEqual(session(Recorder(), "1 hello 1"), ["=1 rec 1.0 view"])
        quiet = Recorder()
        quiet.want_view = False
        self.assertEqual(session(quiet, "1 hello 1"), ["=1 rec 1.0"])
        self.assertEqual(session(Recorder(), "1 hello 2")[0][:3], "?1 ")

    def test_setup_view_and_act(self):
        bot = Recorder()
        view = {"game": "kul", "seat": 1, "hand": ["KS", "5H"], "trick": None}
        out = session(bot, "1 hello 1", "game kul", "option games 3", "option mode a b",
                      "players 3", "seat 1", "rngseed 42", "deal 1 0", "hand KS 5H",
                      "move 0 9S play", "view " + json.dumps(view), "2 act play 250 KS 5H",
                      "3 act play 250 KS", "4 quit")
        self.assertEqual(out, ["=1 rec 1.0 view", "=2 5H", "=3 KS", "=4"])
        game, seat, players, options, got_view, decision, legal, ms, left = bot.calls[0]
        self.assertEqual((game, seat, players), ("kul", 1, 3))
        self.assertEqual(options, {"games": "3", "mode": "a b"})
        self.assertEqual(got_view, view)
        self.assertEqual((decision, legal, ms), ("play", ["KS", "5H"], 250))
        self.assertTrue(0 < left <= 0.25, left)
        self.assertIsNone(bot.calls[1][4], "a view belongs to one decision")
        self.assertEqual(bot.rngseed, 42)
        self.assertEqual(bot.random.random(), random.Random(42).random())
        self.assertEqual(bot.events, [("deal", ["1", "0"]), ("hand", ["KS", "5H"]),
                                      ("move", ["0", "9S", "play"])])
        self.assertEqual(bot.moves(), [(0, "9S", "play")])
        self.assertIn("view", bot.seen)
        self.assertFalse(bot.running)

    def test_errors_are_answered_as_protocol_errors(self):
        bot = Recorder()
        out = session(bot, "game x", "2 act boom 10 a b", "3 act bogus 10 c d",
                      "4 act bid 10 e f", "game y", "5 act bogus 10 g h")
        self.assertEqual(out, ["?2 decision error (boom): RuntimeError('a bug in the strategy')",
                               "?3 decision error (bogus): ValueError(\"'not_a_legal_token' is not legal\")",
                               "=4 f",
                               "?5 decision error (bogus): ValueError(\"'not_a_legal_token' is not legal\")"])
        self.assertEqual(bot.errors, 1)  # in game y
        self.assertEqual(len(bot.logged), 2, bot.logged)  # the first error of each game
        self.assertIn("answering an error", bot.logged[0])

    def test_forgiving_errors_falls_back_to_the_first_legal_action(self):
        bot = Recorder()
        bot.forgive_errors = True
        out = session(bot, "game x", "2 act boom 10 a b", "3 act bogus 10 c d",
                      "4 act bid 10 e f", "game y", "5 act bogus 10 g h")
        self.assertEqual(out, ["=2 a", "=3 c", "=4 f", "=5 g"])
        self.assertEqual(bot.errors, 1)  # in game y
        self.assertEqual(len(bot.logged), 2, bot.logged)  # the first error of each game
        self.assertIn("a bug in the strategy", bot.logged[0])
        self.assertIn("'not_a_legal_token' is not legal", bot.logged[1])

    def test_requests_it_does_not_know_and_odd_lines(self):
        bot = Recorder()
        out = session(bot, "", "# comment", "5 frobnicate x", "6", "7 act play", "8 act play 10",
                      "view {not json", "view [1, 2]", "9 act play 10 AS\r", "élan 1 2",
                      "10 quit", "11 act play 10 AS")
        self.assertEqual(out, ["?5 unknown command", "?6 unknown command",
                               "?7 no legal actions given", "?8 no legal actions given",
                               "=9 AS", "=10"])  # nothing after quit is read
        self.assertIsNone(bot.calls[0][4])  # a broken view is no view

    def test_a_new_game_forgets_the_last(self):
        bot = Recorder()
        out = session(bot, "game rikken", "seat 2", "option a 1", "move 2 pass bid",
                      "gameover 1 -1.5 0.5 0", "game kul", "players 3")
        self.assertEqual(out, [])  # notifications are never answered
        self.assertEqual(bot.gameovers, [("rikken", [1, -1.5, 0.5, 0], [(2, "pass", "bid")])])
        self.assertEqual((bot.game, bot.seat, bot.players, bot.options, bot.events),
                         ("kul", None, 3, {}, []))


if __name__ == "__main__":
    unittest.main()
