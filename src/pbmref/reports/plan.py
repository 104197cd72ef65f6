"""What every game kind's orders preview is worded with: short items for a phone.

Each game kind words its own preview (``rulesets/<game>/preview.py``: the
tweedekker or Fast Play ``FlightPlan``, the Diplomacy ``OrdersPlan``) as short
lines, none longer than ``WIDTH`` (70) columns: a line that would be longer
goes on, indented by two spaces, on the next (``item``). Each warning starts a
line of its own with its rule and ends with a fix. Nothing here computes a
rule; it only words the data.

>>> item("Warning (M4): move 2 (RS) takes you off the board from K18: you are out of the fight for good.")
['Warning (M4): move 2 (RS) takes you off the board from K18: you are', '  out of the fight for good.']
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from pbmref.reports.common import WIDTH, wrap
from pbmref.rules.hexgrid import Hex

__all__ = ["HEADER", "either", "hex_list", "item", "plural"]

HEADER = "Your path if nothing else happens:"
_NBSP = "\u00a0"  # textwrap breaks at ASCII whitespace only
_UNIT = re.compile(r"\b([AFD]) (?=[A-Z][a-zA-Z]{2}\b)")


def item(text: str) -> list[str]:
    """One item (a move, a warning): wrapped, later lines indented by two.

    A unit such as ``A Par`` or ``F StP/sc`` is never broken over two lines.
    """
    kept = _UNIT.sub(lambda m: m.group(1) + _NBSP, text)
    return [line.replace(_NBSP, " ") for line in wrap(kept, subsequent="  ", width=WIDTH)]


def either(words: Sequence[str], last: str = "or") -> str:
    """``A``, ``A or L``, ``A, L or R``."""
    words = list(words)
    if len(words) <= 1:
        return "".join(words)
    return f"{', '.join(words[:-1])} {last} {words[-1]}"


def plural(n: int, word: str) -> str:
    """``1 hex``, ``2 hexes``, ``3 builds``."""
    if n == 1:
        return f"{n} {word}"
    return f"{n} {word}es" if word.endswith(("x", "s")) else f"{n} {word}s"


def hex_list(namer: Callable[[Hex], str], hexes: Sequence[Hex]) -> str:
    """Hexes by name, one space apart."""
    return " ".join(namer(h) for h in hexes)
