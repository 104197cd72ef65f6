"""Small helpers the report renderers share: reading a position dict leniently.

Positions are the plain dicts of ``shared/spec/scenario.md``; anything left
out takes its default. Nothing here recomputes a rule: it only reads.
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterable, Mapping
from typing import Any

from pbmref.rules.hexgrid import Heading, Hex, HexBoard, HexNameError

__all__ = [
    "WIDTH",
    "aircraft_of",
    "board_of",
    "clouds_of",
    "display",
    "hex_of",
    "pilot_letters",
    "wrap",
    "zeppelins_of",
]

WIDTH = 70  # every line of every text report fits a phone client

IN_FIGHT = ("flying", "landed", "taxiing")
ON_MAP = ("flying", "landed", "taxiing")


def board_of(position: Mapping[str, Any]) -> HexBoard:
    board = position.get("board") or {}
    side = board.get("side") if isinstance(board, Mapping) else None
    if side is None:
        side = (position.get("settings") or {}).get("board_side", 10)
    try:
        return HexBoard(int(side))
    except (TypeError, ValueError):
        return HexBoard(10)


def hex_of(board: HexBoard, name: Any) -> Hex | None:
    """The hex a name (or an off-board ``"q,r"``) stands for, or None."""
    if name is None:
        return None
    try:
        return board.parse(str(name))
    except HexNameError:
        return None


def heading_of(value: Any) -> Heading | None:
    try:
        return Heading.parse(str(value))
    except (HexNameError, AttributeError):
        return None


def aircraft_of(position: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """Every aircraft's entry, by pilot id, sorted, with defaults filled in."""
    out: dict[str, dict[str, Any]] = {}
    planes = position.get("aircraft") or {}
    for pilot in sorted(planes, key=str):
        entry = dict(planes[pilot] or {})
        entry.setdefault("state", "landed")
        entry.setdefault("damage", 12)
        entry.setdefault("ammo", 16)
        for key in ("vp", "dealt", "kills", "nmr"):
            entry.setdefault(key, 0)
        entry.setdefault("ace", False)
        entry.setdefault("heading", "N")
        out[str(pilot)] = entry
    return out


def zeppelins_of(position: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    zeps = position.get("zeppelins") or {}
    for name in sorted(zeps, key=str):
        entry = dict(zeps[name] or {})
        entry.setdefault("hexes", [])
        entry.setdefault("heading", "N")
        entry.setdefault("destroyed", False)
        entry.setdefault("bomb_ready_turn", 1)
        out[str(name)] = entry
    return out


def clouds_of(position: Mapping[str, Any]) -> list[dict[str, Any]]:
    return [dict(c or {}) for c in position.get("clouds") or []]


def pilot_letters(pilots: Iterable[str], zeppelins: Iterable[str] = ()) -> dict[str, str]:
    """One map letter per pilot (and per zeppelin), stable and unique.

    Zeppelins take ``Z`` (then ``Y``, ``X``...); each pilot takes the first
    letter of its id that is still free, else the first free letter.
    """
    letters: dict[str, str] = {}
    used: set[str] = set()
    for i, name in enumerate(sorted(zeppelins, key=str)):
        letter = chr(ord("Z") - i)
        letters[name] = letter
        used.add(letter)
    for pilot in sorted(pilots, key=str):
        candidates = [c.upper() for c in pilot if c.isalpha() and c.isascii()]
        candidates += [chr(c) for c in range(ord("A"), ord("Z") + 1)]
        for c in candidates:
            if c not in used:
                letters[pilot] = c
                used.add(c)
                break
        else:
            letters[pilot] = "?"
    return letters


def display(names: Mapping[str, str], who: str | None) -> str:
    """A pilot's display name, falling back to its id."""
    if who is None:
        return "nobody"
    return names.get(who) or who


def wrap(text: str, indent: str = "", subsequent: str | None = None,
         width: int = WIDTH) -> list[str]:
    """Word-wrapped lines no longer than ``width`` (long words are broken)."""
    return textwrap.wrap(
        text, width=width, initial_indent=indent,
        subsequent_indent=indent if subsequent is None else subsequent,
        break_long_words=True, break_on_hyphens=False,
    ) or [indent.rstrip()]


def fit_width(lines: Iterable[str]) -> list[str]:
    """Last guard of every text report: no line longer than WIDTH, whatever the
    data held (a longer line goes on, indented, on the next).

    >>> fit_width(["x" * 72])
    ['xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx', '  xx']
    """
    out: list[str] = []
    for line in lines:
        line = line.rstrip()
        while len(line) > WIDTH:
            out.append(line[:WIDTH])
            line = "  " + line[WIDTH:]
        out.append(line)
    return out
