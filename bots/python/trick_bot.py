#!/usr/bin/env python3
"""trick_bot.py - the short croupier_kit example of bots/README.md, for every game.

Trick games (Rikken, Zwikken, Svängknack, Kul): win the trick as cheaply as possible, else
throw the lowest card. Skwitz: go out when allowed, else the capture that takes the most cards.
Schwimmen: the swap that makes the best hand. Anything else: the first legal action.
"""
from croupier_kit import (Bot, beats, cards, lowest, parse_capture, parse_swap, schwimmen_value,
                          trick_from_view, trump_of)


class TrickBot(Bot):
    name = "trickbot"
    version = "1.0"

    def choose(self, decision, legal):
        if self.game == "skwitz":
            return "out" if "out" in legal else max(legal, key=lambda t: len(parse_capture(t)[1]))
        if self.game == "schwimmen" and decision == "turn":
            hand = self.view["hand"]
            swap = {t: parse_swap(t) for t in legal}
            after = {t: [c for c in hand if c != s[0]] + [s[1]] for t, s in swap.items() if s}
            return max(after, key=lambda t: schwimmen_value(after[t]), default=legal[0])
        playable, trump = cards(legal), trump_of(self.view)
        if not playable:
            return legal[0]  # a bid, a vote, …: the first legal action
        trick = trick_from_view(self.view)
        if trick and trick.plays:  # following: the cheapest card that wins the trick
            winners = [c for c in playable if beats(c, trick.winner(trump)[1], trump)]
            if winners:
                return lowest(winners, trump)
        return lowest(playable, trump)


if __name__ == "__main__":
    TrickBot().run()
