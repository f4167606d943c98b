"""Each game's observation tensor layout as its rules document states it (docs/rules/<game>.md,
"Python tensor"): block name -> (offset, size), the sizes written in P, the number of players."""

import pathlib
import re

import numpy as np

import croupier_games as cg

ROOT = pathlib.Path(__file__).resolve().parents[3]
ROW = re.compile(r"^\| ([0-9P+]+) \| ([0-9P+]+) \| `(\w+)` \| (.*) \|$", re.M)
TOKENS = cg.State.card_tokens()


def evaluate(expr, players):
    """`3P+52` at P = players."""
    total = 0
    for term in expr.split("+"):
        if term.endswith("P"):
            total += int(term[:-1] or 1) * players
        else:
            total += int(term)
    return total


def layout(game, players):
    text = (ROOT / "docs" / "rules" / f"{game}.md").read_text()
    section = text[text.index("## Python tensor"):]
    end = section.find("\n## ", 5)
    section = section if end < 0 else section[:end]
    return {
        m.group(3): (evaluate(m.group(1), players), evaluate(m.group(2), players))
        for m in ROW.finditer(section)
    }


def block(t, lay, name):
    at, size = lay[name]
    return t[at:at + size]


def cards(values):
    """The card tokens a block of 52 marks."""
    assert len(values) == 52
    return {TOKENS[i] for i in np.flatnonzero(values)}


def per_seat_cards(t, lay, name, players):
    """A block of P × 52 as P sets of card tokens, by relative seat."""
    b = block(t, lay, name)
    assert len(b) == 52 * players
    return [cards(b[52 * r:52 * r + 52]) for r in range(players)]


def all_cards(t, lay, players):
    """Every card any card block of the tensor marks."""
    out = set()
    for name, (at, size) in lay.items():
        if size == 52:
            out |= cards(t[at:at + 52])
        elif size == 52 * players and name not in ("seat",):
            for s in per_seat_cards(t, lay, name, players):
                out |= s
    return out
