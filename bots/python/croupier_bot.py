#!/usr/bin/env python3
"""croupier_bot.py - the example croupier bot `pybot`, written with croupier_kit.

The kit (croupier_kit.py, next to this file) speaks the protocol: this file is only the
strategy. We ask for the `view` feature (the kit's default), so `self.view` holds the seat's whole
view when `choose` is called.

How it plays Rikken (rikken.md in the rules folder):

  * bid:   `pass`, unless the hand is strong (many high cards): then `rik` (or `rik_beter` when
           hearts is our long suit and `rik` is no longer allowed). If `pass` is not allowed we
           take the first legal bid.
  * trump: our longest suit among the allowed ones (ties: the one with more high cards).
  * call:  the first card we may call.
  * play:  leading: the highest card of our longest suit. Following: if our partner is known and
           already winning, throw our lowest card; otherwise win with the cheapest card that beats
           the trick (trumps included), and if we cannot win, throw our lowest card.

For any other game, or without a view, it plays the first legal action. Whatever happens inside
`choose`, the kit answers one of the listed legal tokens.

Run it with croupier, for example:

  croupier play rikken --seat "python3 bots/python/croupier_bot.py" --seat simple \\
                       --seat simple --seat random

Its standard error goes to croupier's log directory: we log one line per game there.
"""

from typing import List, Set

from croupier_kit import (SUITS, Bot, beats, by_suit, cards, highest, lowest, suit,
                          trick_from_view, trump_of, value)

# High-card points used to judge the strength of a hand.
HCP = {"A": 4, "K": 3, "Q": 2, "J": 1}


def points(hand: List[str]) -> int:
    return sum(HCP.get(c[0], 0) for c in hand)


def strong_hand(hand: List[str]) -> bool:
    """A rough test for 'rik': enough high cards, or a long suit with good support."""
    longest = max((len(g) for g in by_suit(hand).values()), default=0)
    hcp = points(hand)
    return hcp >= 19 or (hcp >= 15 and longest >= 5)


def my_team(view: dict) -> Set[int]:
    """The seats known to be on our side (always including ourselves)."""
    me = view.get("seat")
    contract = view.get("contract") or {}
    declarers = {d for d in contract.get("declarers") or [] if isinstance(d, int)}
    bid = contract.get("bid") or ""
    partner = view.get("partner")
    if not declarers:
        return {me}
    if bid.startswith("rik") or bid in ("malheur", "op_voorhand"):
        # Two against two: the declarer and the partner (the holder of the called card).
        side = declarers | ({partner} if isinstance(partner, int) else set())
        if me in side:
            return side
        if isinstance(partner, int):
            return set(range(4)) - side
        return {me}  # the partner is still secret: we do not know our teammate yet
    if len(declarers) == 1 and me not in declarers:
        return set(range(4)) - declarers  # one declarer alone against the three of us
    return {me}  # alone, or every seat for itself


class PyBot(Bot):
    name = "pybot"
    # An example of robustness by choice: a broken view or a bug plays the first legal action
    # (logged) instead of answering an error, which croupier would record as a fault.
    forgive_errors = True
    version = "1.0"

    def choose(self, decision: str, legal: List[str]) -> str:
        if self.game != "rikken" or self.view is None:
            return legal[0]
        hand = cards(self.view.get("hand") or [])
        if decision == "bid":
            return self.bid(hand, legal)
        if decision == "trump":
            return self.trump(hand, legal)
        if decision == "play":
            return self.play(hand, legal)
        return legal[0]  # call: the first card we may call; anything new: the first action

    def bid(self, hand: List[str], legal: List[str]) -> str:
        if "pass" not in legal:
            return legal[0]  # we must bid: take the first legal bid
        if hand and strong_hand(hand):
            if "rik" in legal:
                return "rik"
            hearts = len([c for c in hand if suit(c) == "H"])
            if "rik_beter" in legal and hearts >= max(len(g) for g in by_suit(hand).values()):
                return "rik_beter"
        return "pass"

    def trump(self, hand: List[str], legal: List[str]) -> str:
        """Our longest suit among the allowed ones; ties go to the suit with more high cards."""
        groups = by_suit(hand)
        suits = [s for s in legal if s in SUITS]
        if not suits:
            return legal[0]
        return max(suits, key=lambda s: (len(groups.get(s, [])), points(groups.get(s, []))))

    def play(self, hand: List[str], legal: List[str]) -> str:
        playable = cards(legal)
        if not playable:
            return legal[0]
        trump = trump_of(self.view)
        trick = trick_from_view(self.view)
        if trick is None or not trick.plays:
            # Leading: the highest card of our longest suit (among the suits we may lead).
            groups = by_suit(hand)
            suits = list(dict.fromkeys(suit(c) for c in playable))  # in the order listed
            lead = max(suits, key=lambda s: (len(groups.get(s, [])), points(groups.get(s, []))))
            return highest(c for c in playable if suit(c) == lead)
        # Following. Who is winning so far?
        seat, best = trick.winner(trump)
        if seat != self.view.get("seat") and seat in my_team(self.view):
            return lowest(playable, trump)  # partner wins: do not waste a good card
        winners = [c for c in playable if beats(c, best, trump)]
        if winners:
            # The cheapest winner: a card of the suit led before a trump, then the lowest rank.
            return min(winners, key=lambda c: (suit(c) == trump, value(c)))
        return lowest(playable, trump)

    def on_gameover(self, scores: List[float]) -> None:
        bids = [t for s, t, d in self.moves() if s == self.seat and d == "bid"]
        self.log(f"game {self.game} seat {self.seat}: my bids {' '.join(bids) or '-'}, "
                 f"scores {' '.join(f'{x:g}' for x in scores)}, decision errors {self.errors}")


if __name__ == "__main__":
    PyBot().run()
