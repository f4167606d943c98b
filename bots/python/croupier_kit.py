"""croupier_kit: write a croupier bot in Python by writing one method.

Standard library only, Python 3.9+, one file: copy it next to your bot or import it from here.
It speaks croupier protocol v1 (../../protocol.md) for you:

    from croupier_kit import Bot, cards, lowest

    class LowBot(Bot):
        name = "lowbot"

        def choose(self, decision, legal):
            playable = cards(legal)  # the legal tokens that are cards
            return lowest(playable) if playable else legal[0]

    if __name__ == "__main__":
        LowBot().run()

`Bot.run` reads standard input line by line: it answers `hello` (asking for the `view` feature
unless `want_view = False`), keeps the setup (`game`, `option`, `players`, `seat`, `rngseed`),
collects the game's notifications as events, answers every `act` with what `choose` returns,
answers `quit` and unknown requests as the protocol says, never answers a notification, and
exits at `quit` or at the end of input. If `choose` raises or returns a token that is not legal,
the bot logs it (standard error, croupier's log file) and answers with a protocol error
(`?<id> decision error …`): croupier records an `error` fault with that message and plays a
substitute move, so the bug shows in the record, in `croupier check` and in the run's fault
count. A bot that would rather play on quietly sets `forgive_errors = True`: it then answers
the first legal action instead (and still logs the error).

While `choose` runs, `self` holds what the seat knows:

    self.game, self.options, self.players, self.seat    the setup of the game in progress
    self.random     a random.Random seeded by the game's `rngseed`
    self.view       the seat's view for this decision (JSON as a dict), or None
    self.events     the game's other notifications in order, as (kind, args):
                    ("move", ["1", "AD", "play"]), ("trick", ["3", "1"]), …
    self.time_ms    the time budget of this decision; self.time_left() in seconds

The helpers below parse cards ("TS" -> Card("T", "S"), ten of spades) and the tokens of each
game, and follow a trick from the view (Rikken, Zwikken, Svängknack, Kul).
"""

from __future__ import annotations

import json
import random
import sys
import time
from typing import IO, Dict, Iterable, List, NamedTuple, Optional, Sequence, Tuple

PROTOCOL = "1"
RANKS = "23456789TJQKA"  # low to high, the order of every game's suits
SUITS = ("S", "H", "D", "C")  # the order of a sorted hand


# ---------------------------------------------------------------------------------------------
# Cards
# ---------------------------------------------------------------------------------------------


class Card(NamedTuple):
    """A card token parsed: `Card("T", "S")` is "TS", the ten of spades."""

    rank: str
    suit: str

    @property
    def value(self) -> int:
        """2 for a two ... 10 for a ten, 11 J, 12 Q, 13 K, 14 A: the order within a suit."""
        return RANKS.index(self.rank) + 2

    def __str__(self) -> str:
        return self.rank + self.suit


def is_card(token: object) -> bool:
    """Is `token` a card ("AS", "TD", "2C")? Other tokens ("pass", "9H:4S,5C") are not."""
    return (isinstance(token, str) and len(token) == 2 and token[0] in RANKS
            and token[1] in SUITS)


def card(token: str) -> Card:
    """Parses a card token; ValueError if it is not one."""
    if not is_card(token):
        raise ValueError(f"not a card: {token!r}")
    return Card(token[0], token[1])


def cards(tokens: Iterable[object]) -> List[str]:
    """The tokens that are cards, in their order (drops everything else)."""
    return [t for t in tokens if is_card(t)]  # type: ignore[misc]


def suit(token: str) -> str:
    """The suit letter of a card token."""
    return token[1]


def value(token: str) -> int:
    """The rank of a card token as a number, 2 ... 14 (ace high)."""
    return RANKS.index(token[0]) + 2


def by_suit(tokens: Iterable[str]) -> Dict[str, List[str]]:
    """{suit: [its cards, in the given order]} for each suit present."""
    groups: Dict[str, List[str]] = {}
    for t in cards(tokens):
        groups.setdefault(suit(t), []).append(t)
    return groups


def follow_suit(hand: Sequence[str], led: Optional[str]) -> List[str]:
    """The cards of `hand` that follow the suit `led`, or the whole hand when void (or when
    nothing was led). croupier's legal list already applies each game's own rules; this is the
    plain follow-suit filter, for looking ahead."""
    same = [c for c in cards(hand) if led is not None and suit(c) == led]
    return same or cards(hand)


def highest(tokens: Iterable[str]) -> str:
    """The highest-ranked card (the first listed among equals)."""
    return max(cards(tokens), key=value)


def lowest(tokens: Iterable[str], trump: Optional[str] = None) -> str:
    """The cheapest card: the lowest non-trump if there is one, else the lowest trump."""
    return min(cards(tokens), key=lambda c: (suit(c) == trump, value(c)))


def beats(challenger: str, best: str, trump: Optional[str]) -> bool:
    """Does `challenger` beat `best`, the card winning a trick so far? A higher card of the same
    suit wins; a card of another suit wins only if it is a trump."""
    if suit(challenger) == suit(best):
        return value(challenger) > value(best)
    return trump is not None and suit(challenger) == trump


def winning_index(played: Sequence[str], trump: Optional[str]) -> int:
    """The index (in play order) of the card that wins the trick `played` so far."""
    best = 0
    for i in range(1, len(played)):
        if beats(played[i], played[best], trump):
            best = i
    return best


# ---------------------------------------------------------------------------------------------
# Tricks (Rikken, Zwikken, Svängknack, Kul)
# ---------------------------------------------------------------------------------------------


class Trick(NamedTuple):
    """A trick in progress: who led, and the (seat, card) plays in order."""

    leader: int
    plays: List[Tuple[int, str]]

    @property
    def led(self) -> Optional[str]:
        """The suit led, None before the first card."""
        return suit(self.plays[0][1]) if self.plays else None

    def winner(self, trump: Optional[str]) -> Optional[Tuple[int, str]]:
        """(seat, card) winning so far with this trump suit (None: no trump); None if empty."""
        if not self.plays:
            return None
        return self.plays[winning_index([c for _, c in self.plays], trump)]


def trick_from_view(view: Optional[dict]) -> Optional[Trick]:
    """The trick in progress from a view, or None between tricks (or without a view).

    Understands each game's shape: `{"leader", "cards": [card…]}` where card i is seat
    leader + i (Rikken, Kul), with `"seats"` (Zwikken), or `"cards": [[seat, card]…]`
    (Svängknack; a Färg call plays no card and is not in the list)."""
    t = (view or {}).get("trick")
    if not isinstance(t, dict) or not isinstance(t.get("leader"), int):
        return None
    leader, raw = t["leader"], t.get("cards") or []
    seats = t.get("seats")
    n = (view or {}).get("players") or 4
    plays: List[Tuple[int, str]] = []
    for i, c in enumerate(raw):
        if isinstance(c, list) and len(c) == 2:  # Svängknack: [seat, card]
            seat, c = c
        elif isinstance(seats, list) and i < len(seats):  # Zwikken: seats listed
            seat = seats[i]
        else:
            seat = (leader + i) % n
        if is_card(c) and isinstance(seat, int):
            plays.append((seat, c))
    return Trick(leader, plays)


def trump_of(view: Optional[dict]) -> Optional[str]:
    """The trump suit of a view, None when there is none (yet): "none", null or absent."""
    t = (view or {}).get("trump")
    return t if t in SUITS else None


# ---------------------------------------------------------------------------------------------
# The other games' tokens
# ---------------------------------------------------------------------------------------------


def parse_capture(token: str) -> Tuple[str, List[str]]:
    """Skwitz: "9H:4S,5C" -> ("9H", ["4S", "5C"]); a trail "9H" -> ("9H", [])."""
    c, _, taken = token.partition(":")
    return c, (taken.split(",") if taken else [])


def skwitz_value(token: str) -> int:
    """Skwitz: a card's value in sums, A = 1, 2 ... 10; J 11, Q 12, K 13 (they only match)."""
    return 1 if token[0] == "A" else value(token)


def parse_swap(token: str) -> Optional[Tuple[str, str]]:
    """Schwimmen: "swap_7H_AS" -> ("7H", "AS") (lay down, take); None for other tokens."""
    parts = token.split("_")
    if len(parts) == 3 and parts[0] == "swap" and is_card(parts[1]) and is_card(parts[2]):
        return parts[1], parts[2]
    return None


def schwimmen_value(hand: Sequence[str]) -> float:
    """Schwimmen: a hand's value: its best suit (A 11, K Q J T 10, others their number), or
    30.5 for three cards of one rank (31 is an ace with two ten-value cards of one suit)."""
    hand = cards(hand)
    if len(hand) == 3 and len({c[0] for c in hand}) == 1:
        return 30.5
    worth = {s: 0 for s in SUITS}
    for c in hand:
        worth[suit(c)] += 11 if c[0] == "A" else min(value(c), 10)
    return max(worth.values())


def parse_exchange(token: str) -> Optional[Tuple[str, Optional[str]]]:
    """Zwikken: "exchange_JH" -> ("JH", None); at the first trick "exchange_JH_AH" -> ("JH",
    "AH"): take JH, then play AH. None for other tokens ("no_exchange" included)."""
    parts = token.split("_")
    if parts[0] != "exchange" or not 2 <= len(parts) <= 3 or not all(map(is_card, parts[1:])):
        return None
    return parts[1], (parts[2] if len(parts) == 3 else None)


# ---------------------------------------------------------------------------------------------
# The bot: setup, events and the protocol loop
# ---------------------------------------------------------------------------------------------


class DecisionError(Exception):
    """`choose` failed (raised, or gave a token that is not legal): answered as a protocol error."""


class Bot:
    """Subclass it, set `name` and `version`, write `choose`, call `run()`."""

    name: str = "kitbot"
    version: str = "1.0"
    want_view: bool = True  # ask for the `view` feature: self.view before every decision
    # On a bug in `choose`: False (the default) answers a protocol error, which croupier records
    # as a fault; True answers the first legal action, hiding the bug from the record.
    forgive_errors: bool = False

    def __init__(self) -> None:
        self.running = True
        self.time_ms = 0
        self.deadline = 0.0
        self.new_game(None)

    # --- what a bot author overrides ---

    def choose(self, decision: str, legal: List[str]) -> str:
        """Return one of `legal` for `decision` ("bid", "play", …; see protocol.md for each
        game's decisions and tokens). The default plays the first legal action."""
        return legal[0]

    def on_event(self, kind: str, args: List[str]) -> None:
        """Called for every notification (setup, view and gameover too), after the state is
        updated. Override to follow the game line by line instead of (or besides) the view."""

    def on_gameover(self, scores: List[float]) -> None:
        """Called at `gameover` with the scores, index = seat."""

    # --- state ---

    def new_game(self, game: Optional[str]) -> None:
        """A `game` line: forget everything about the previous game."""
        self.game: Optional[str] = game
        self.options: Dict[str, str] = {}
        self.players: Optional[int] = None
        self.seat: Optional[int] = None
        self.rngseed: Optional[int] = None
        self.random = random.Random(0)
        self.view: Optional[dict] = None
        self.events: List[Tuple[str, List[str]]] = []
        self.scores: Optional[List[float]] = None
        self.errors = 0  # decisions in this game where `choose` failed

    def moves(self) -> List[Tuple[int, str, str]]:
        """Every `move` of this game so far as (seat, token, decision)."""
        return [(int(a[0]), a[1], a[2] if len(a) > 2 else "") for k, a in self.events
                if k == "move" and len(a) >= 2 and a[0].isdigit()]

    def time_left(self) -> float:
        """Seconds left for the decision being made (croupier counts from before it sent
        `act`: keep a margin)."""
        return self.deadline - time.monotonic()

    def log(self, message: str) -> None:
        """One line to standard error, which croupier writes to the bot's log file."""
        try:
            print(f"{self.name}: {message}", file=sys.stderr, flush=True)
        except (OSError, ValueError):
            pass

    # --- the protocol ---

    def notify(self, kind: str, rest: str) -> None:
        """A notification (never answered): keep the setup, the view and the events."""
        args = rest.split()
        if kind == "game":
            self.new_game(rest.strip())
        elif kind == "option" and len(args) >= 2:
            self.options[args[0]] = " ".join(args[1:])
        elif kind == "players" and args and args[0].isdigit():
            self.players = int(args[0])
        elif kind == "seat" and args and args[0].isdigit():
            self.seat = int(args[0])
        elif kind == "rngseed" and args and args[0].isdigit():
            self.rngseed = int(args[0])
            self.random = random.Random(self.rngseed)
        elif kind == "view":
            try:
                view = json.loads(rest)
            except ValueError:
                view = None
            self.view = view if isinstance(view, dict) else None
        else:
            self.events.append((kind, args))
            if kind == "gameover":
                try:
                    self.scores = [float(s) for s in args]
                except ValueError:
                    self.scores = None
        self.on_event(kind, args)
        if kind == "gameover" and self.scores is not None:
            self.on_gameover(self.scores)

    def act(self, decision: str, time_ms: int, legal: List[str]) -> str:
        """Asks `choose`. On an exception or a token that is not legal: raises DecisionError,
        or with `forgive_errors` returns the first legal action."""
        self.time_ms = time_ms
        self.deadline = time.monotonic() + time_ms / 1000
        answer = legal[0]
        try:
            picked = self.choose(decision, legal)
            if picked in legal:
                answer = picked
            else:
                raise ValueError(f"{picked!r} is not legal")
        except Exception as e:  # a bug in a strategy: said, never a crash of the bot
            self.errors += 1
            what = f"decision error ({decision}): {e!r}"
            if self.errors == 1:  # the first of each game: a log can flood
                fallback = "playing the first legal action" if self.forgive_errors else "answering an error"
                self.log(f"{what}; {fallback}")
            if not self.forgive_errors:
                self.view = None
                raise DecisionError(what) from e
        self.view = None  # a view belongs to one decision
        return answer

    def request(self, rid: str, command: str, args: List[str]) -> str:
        """The answer line to request `rid`."""
        if command == "hello":
            if args[:1] != [PROTOCOL]:
                return f"?{rid} protocol version {' '.join(args) or '(none)'} not supported"
            features = " view" if self.want_view else ""
            return f"={rid} {self.name} {self.version}{features}"
        if command == "act":  # act <decision> <time_ms> <legal action> …
            if len(args) < 3:
                return f"?{rid} no legal actions given"
            ms = int(args[1]) if args[1].isdigit() else 0
            try:
                return f"={rid} {self.act(args[0], ms, args[2:])}"
            except DecisionError as e:
                return f"?{rid} {e}"
        if command == "quit":
            self.running = False
            return f"={rid}"
        return f"?{rid} unknown command"

    def handle(self, line: str) -> Optional[str]:
        """One input line; returns the answer line, or None for a notification."""
        line = line.rstrip("\r\n")
        head, _, rest = line.partition(" ")
        if head.isdigit() and head.isascii():  # a request: "<id> <command> <args…>"
            words = rest.split()
            return self.request(head, words[0], words[1:]) if words else f"?{head} unknown command"
        if head and not head.startswith("#"):
            self.notify(head, rest)
        return None

    def run(self, stdin: Optional[IO[str]] = None, stdout: Optional[IO[str]] = None) -> None:
        """The protocol loop, until `quit` or the end of input."""
        if stdin is None:
            try:  # bad bytes become U+FFFD rather than an exception
                sys.stdin.reconfigure(errors="replace")  # type: ignore[union-attr]
            except AttributeError:
                pass
        inp, out = stdin or sys.stdin, stdout or sys.stdout
        try:
            for line in inp:
                try:
                    answer = self.handle(line)
                except Exception as e:  # should not happen; keep the protocol alive
                    self.log(f"error on line {line.strip()[:80]!r}: {e!r}")
                    head = line.split(" ", 1)[0].strip()
                    answer = f"?{head} internal error" if head.isdigit() else None
                if answer is not None:
                    out.write(answer + "\n")  # one write, then flush: croupier reads what
                    out.flush()  # we flush
                if not self.running:
                    break
        except (BrokenPipeError, KeyboardInterrupt):
            pass
