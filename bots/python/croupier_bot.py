#!/usr/bin/env python3
"""croupier_bot.py - an example croupier bot in plain Python 3 (standard library only).

Copy this file to start your own bot. It speaks croupier protocol v1 (see protocol.md):

  * croupier writes lines to our standard input. A line that starts with a decimal number is a
    *request* ("<id> <command> <args...>") and gets exactly one answer line: "=<id> <result>"
    on success or "?<id> <message>" on error. Any other line is a *notification* and must never
    be answered.
  * We ask for the `view` feature in our hello answer, so croupier sends us our whole seat view as
    one JSON line ("view {...}") right before every `act` request. We keep the last one and base
    our decisions on it; all other notifications are ignored (the view already holds everything).
  * Every `act` request lists all legal actions, so we can always fall back to the first one.

How it plays Rikken (rikken.md in the rules folder):

  * bid:   `pass`, unless the hand is strong (many high cards): then `rik` (or `rik_beter` when
           hearts is our long suit and `rik` is no longer allowed). If `pass` is not allowed we
           take the first legal bid.
  * trump: our longest suit among the allowed ones (ties: the one with more high cards).
  * call:  the first card we may call.
  * play:  leading: the highest card of our longest suit. Following: if our partner is known and
           already winning, throw our lowest card; otherwise win with the cheapest card that beats
           the trick (trumps included), and if we cannot win, throw our lowest card.

For any other game, or when the view is missing or odd, it plays the first legal action. Whatever
happens inside the decision code, the answer is always one of the listed legal tokens.

Run it with croupier, for example:

  croupier play rikken --seat "python3 bots/python/croupier_bot.py" --seat simple \
                       --seat simple --seat random

Its standard error goes to croupier's log directory: we log one line per game there.
"""

import json
import sys

NAME = "pybot"
VERSION = "1.0"

# Card notation: two characters, rank then suit ("TS" = ten of spades).
RANKS = "23456789TJQKA"  # low to high
SUITS = ("S", "H", "D", "C")  # a tuple, not a string: "" and "SH" are not suits
# High-card points used to judge the strength of a hand.
HCP = {"A": 4, "K": 3, "Q": 2, "J": 1}


def log(msg):
    """One line to standard error (croupier writes it to our log file)."""
    try:
        print(f"{NAME}: {msg}", file=sys.stderr, flush=True)
    except Exception:
        pass


# ---------------------------------------------------------------------------------------------
# Card helpers
# ---------------------------------------------------------------------------------------------

def is_card(token):
    return isinstance(token, str) and len(token) == 2 and token[0] in RANKS and token[1] in SUITS


def rank(card):
    """0 for a two ... 12 for an ace."""
    return RANKS.index(card[0])


def suit(card):
    return card[1]


def by_suit(cards):
    """{suit: [cards of that suit]} for every suit that has at least one card."""
    groups = {}
    for c in cards:
        groups.setdefault(suit(c), []).append(c)
    return groups


def points(cards):
    return sum(HCP.get(c[0], 0) for c in cards)


def beats(card, best, trump):
    """Does `card` beat `best`, the card currently winning the trick?

    `best` is always of the suit led or a trump. A card of the same suit wins if it is higher;
    a card of another suit wins only if it is a trump (then `best` is not a trump)."""
    if suit(card) == suit(best):
        return rank(card) > rank(best)
    return trump is not None and suit(card) == trump


def winning_index(cards, trump):
    """Index (in play order) of the card that currently wins a trick."""
    best = 0
    for i in range(1, len(cards)):
        if beats(cards[i], cards[best], trump):
            best = i
    return best


def lowest(cards, trump):
    """Our cheapest card: the lowest non-trump if we have one, else the lowest trump."""
    return min(cards, key=lambda c: (suit(c) == trump, rank(c)))


# ---------------------------------------------------------------------------------------------
# Rikken decisions. Each gets the last view (a dict) and the legal tokens of the act request.
# ---------------------------------------------------------------------------------------------

def strong_hand(hand):
    """A rough test for 'rik': enough high cards, or a long suit with good support."""
    longest = max((len(g) for g in by_suit(hand).values()), default=0)
    hcp = points(hand)
    return hcp >= 19 or (hcp >= 15 and longest >= 5)


def choose_bid(view, legal):
    hand = [c for c in view.get("hand") or [] if is_card(c)]
    if "pass" not in legal:
        return legal[0]  # we must bid: take the first legal bid
    if hand and strong_hand(hand):
        if "rik" in legal:
            return "rik"
        hearts = len([c for c in hand if suit(c) == "H"])
        if "rik_beter" in legal and hearts >= max(len(g) for g in by_suit(hand).values()):
            return "rik_beter"
    return "pass"


def choose_trump(view, legal):
    """Our longest suit among the allowed ones; ties go to the suit with more high cards."""
    hand = [c for c in view.get("hand") or [] if is_card(c)]
    groups = by_suit(hand)
    suits = [s for s in legal if s in SUITS]
    if not suits:
        return legal[0]
    return max(suits, key=lambda s: (len(groups.get(s, [])), points(groups.get(s, []))))


def choose_call(view, legal):
    return legal[0]


def my_team(view):
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


def choose_play(view, legal):
    cards = [c for c in legal if is_card(c)]
    if not cards:
        return legal[0]
    trump = view.get("trump")
    if trump not in SUITS:
        trump = None  # "none" or null (not fixed yet, or no trump in this contract)
    trick = view.get("trick") or {}
    played = [c for c in trick.get("cards") or [] if is_card(c)]

    if not played:
        # Leading: the highest card of our longest suit (among the suits we may lead).
        hand = [c for c in view.get("hand") or [] if is_card(c)]
        groups = by_suit(hand)
        suits = list(dict.fromkeys(suit(c) for c in cards))  # in the order listed: no luck
        lead_suit = max(suits, key=lambda s: (len(groups.get(s, [])), points(groups.get(s, []))))
        return max((c for c in cards if suit(c) == lead_suit), key=rank)

    # Following. Who is winning so far?
    win = winning_index(played, trump)
    leader = trick.get("leader")
    if isinstance(leader, int):
        winner_seat = (leader + win) % 4
        if winner_seat != view.get("seat") and winner_seat in my_team(view):
            return lowest(cards, trump)  # partner wins: do not waste a good card
    best = played[win]
    winners = [c for c in cards if beats(c, best, trump)]
    if winners:
        # The cheapest winner: a card of the suit led before a trump, then the lowest rank.
        return min(winners, key=lambda c: (suit(c) == trump, rank(c)))
    return lowest(cards, trump)


RIKKEN = {"bid": choose_bid, "trump": choose_trump, "call": choose_call, "play": choose_play}


# ---------------------------------------------------------------------------------------------
# The bot: game state and the protocol loop
# ---------------------------------------------------------------------------------------------

class Bot:
    def __init__(self):
        self.new_game(None)

    def new_game(self, name):
        """A `game` line: forget everything about the previous game."""
        self.game = name
        self.seat = None
        self.view = None
        self.my_bids = []
        self.errors = 0  # decision errors in this game (only the first is logged)

    # --- notifications (never answered) ---

    def notify(self, kind, rest):
        if kind == "game":
            self.new_game(rest.strip())
        elif kind == "seat":
            self.seat = rest.strip()
        elif kind == "view":
            try:
                view = json.loads(rest)
                self.view = view if isinstance(view, dict) else None
            except ValueError:
                self.view = None  # a broken view: play the first legal action
        elif kind == "gameover":
            log(f"game {self.game} seat {self.seat}: my bids {' '.join(self.my_bids) or '-'}, "
                f"scores {rest.strip()}, decision errors {self.errors}")
        # Everything else (option, players, hand, move, trick, ...) is already in the view.

    # --- requests (each gets exactly one answer) ---

    def act(self, decision, legal):
        """Pick one of the legal tokens. Never raises; falls back to the first legal action."""
        choice = legal[0]
        try:
            view = self.view
            if self.game == "rikken" and view is not None and decision in RIKKEN:
                picked = RIKKEN[decision](view, legal)
                if picked in legal:
                    choice = picked
        except Exception as e:  # a bug in the strategy must never cost us the answer
            self.errors += 1
            if self.errors == 1:  # log sparingly: the first error of each game
                log(f"decision error ({decision}): {e!r}; playing the first legal action")
        if decision == "bid":
            self.my_bids.append(choice)
        self.view = None  # a view belongs to one request
        return choice

    def request(self, rid, cmd, args):
        """Returns (answer_line, keep_running)."""
        if cmd == "hello":
            if args and args[0] != "1":
                return f"?{rid} protocol version {args[0]} not supported", True
            return f"={rid} {NAME} {VERSION} view", True
        if cmd == "act":
            # act <decision> <time_ms> <legal action> <legal action> ...
            if len(args) < 3:
                return f"?{rid} no legal actions given", True
            return f"={rid} {self.act(args[0], args[2:])}", True
        if cmd == "quit":
            return f"={rid}", False
        return f"?{rid} unknown command", True

    def handle(self, line):
        """One input line. Returns (answer or None, keep_running)."""
        line = line.rstrip("\r\n")
        if not line.strip():
            return None, True
        head, _, rest = line.partition(" ")
        if head.isdigit() and head.isascii():
            words = rest.split()
            if not words:
                return f"?{head} unknown command", True
            return self.request(head, words[0], words[1:])
        self.notify(head, rest)
        return None, True


def main():
    # Be tolerant of bad bytes rather than dying on a decode error.
    try:
        sys.stdin.reconfigure(encoding="utf-8", errors="replace")
        sys.stdout.reconfigure(encoding="utf-8")
    except AttributeError:
        pass
    bot = Bot()
    while True:
        line = sys.stdin.readline()
        if not line:
            return  # end of input: croupier is gone, so are we
        try:
            answer, running = bot.handle(line)
        except Exception as e:  # should not happen; keep the protocol alive anyway
            log(f"error on line {line.strip()[:80]!r}: {e!r}")
            head = line.split(" ", 1)[0].strip()
            answer = f"?{head} internal error" if head.isdigit() else None
            running = True
        if answer is not None:
            sys.stdout.write(answer + "\n")  # one write, then flush: croupier reads what we flush
            sys.stdout.flush()
        if not running:
            return


if __name__ == "__main__":
    try:
        main()
    except (BrokenPipeError, KeyboardInterrupt):
        pass
