"""Small helpers the report renderers share: reading a position dict leniently.

Positions are the plain dicts of ``shared/spec/scenario.md``; anything left
out takes its default. Nothing here recomputes a rule: it only reads.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Iterable, Mapping
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pbmref.reports.model import TurnReport
from pbmref.rules.hexgrid import Heading, Hex, HexBoard, HexNameError

__all__ = [
    "WIDTH",
    "and_list",
    "changes_line",
    "count_word",
    "deadline_words",
    "Namer",
    "aircraft_of",
    "board_of",
    "clouds_of",
    "display",
    "format_deadline",
    "setting",
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
    """Word-wrapped lines no longer than ``width`` (long words are broken).

    >>> wrap("Baron fires at Kiekendief.", "  ")
    ['  Baron fires at Kiekendief.']
    >>> wrap("one two three", "  ", "    ", width=10)
    ['  one two', '    three']
    """
    if (text and len(indent) + len(text) <= width and text.isprintable()
            and text[0] != " " and text[-1] != " "):
        return [indent + text]  # one line already: what textwrap makes of it, at once
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


def setting(position: Mapping[str, Any], key: str, default: int) -> int:
    """A whole-number rule setting of the position, or its default."""
    try:
        return int((position.get("settings") or {}).get(key, default))
    except (TypeError, ValueError, AttributeError):
        return default


def _zone(timezone: str) -> tuple[ZoneInfo, str]:
    """The zone called ``timezone`` and its name; UTC for a name that is none."""
    try:
        return ZoneInfo(timezone), timezone
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC"), "UTC"


def format_deadline(deadline: datetime | None, timezone: str = "UTC", *,
                    seconds: bool = False) -> str:
    """``Tue 1 Dec 2026 18:00 CET (Europe/Amsterdam)``, in the game's zone;
    ``seconds`` adds them (``18:00:07``), to tell two moments of one minute apart."""
    if deadline is None:
        return "none set"
    zone, timezone = _zone(timezone)
    if deadline.tzinfo is None:
        deadline = deadline.replace(tzinfo=ZoneInfo("UTC"))
    local = deadline.astimezone(zone)
    clock = f"{local:%H:%M:%S}" if seconds else f"{local:%H:%M}"
    text = f"{local:%a} {local.day} {local:%b %Y} {clock} {local.tzname()}"
    if timezone not in ("UTC", local.tzname()):
        text += f" ({timezone})"
    return text


def deadline_words(deadline: datetime | None, now: datetime, timezone: str = "UTC") -> str:
    """A deadline as a phone reader takes it in: how long from ``now``, then the
    day and time in ``timezone`` (the date too when it is a week or more away).

    >>> from datetime import UTC
    >>> now = datetime(2026, 12, 9, 17, 0, tzinfo=UTC)
    >>> deadline_words(datetime(2026, 12, 11, 18, 0, tzinfo=UTC), now, "Europe/Paris")
    'in 2 days 1 h (Fri 19:00 CET)'
    >>> deadline_words(datetime(2026, 12, 9, 17, 40, tzinfo=UTC), now, "UTC")
    'in 40 min (Wed 17:40 UTC)'
    >>> deadline_words(datetime(2026, 12, 24, 17, 0, tzinfo=UTC), now, "UTC")
    'in 15 days (Thu 24 Dec 17:00 UTC)'
    """
    if deadline is None:
        return "none set"
    zone, _ = _zone(timezone)
    local = deadline.astimezone(zone)
    minutes = int((deadline - now).total_seconds() // 60)
    days, rest = divmod(max(minutes, 0), 24 * 60)
    hours, mins = divmod(rest, 60)
    if minutes <= 0:
        ahead = "now"
    elif days:
        ahead = "in " + count_word(days, "day") + (f" {hours} h" if hours and days < 7 else "")
    elif hours:
        ahead = f"in {hours} h" + (f" {mins} min" if mins and hours < 3 else "")
    else:
        ahead = f"in {mins} min"
    day = f"{local:%a} {local.day} {local:%b}" if days >= 7 else f"{local:%a}"
    return f"{ahead} ({day} {local:%H:%M} {local.tzname()})"


def count_word(n: int, word: str, plural: str = "") -> str:
    """``1 hit``, ``3 hits`` (``plural`` when it is not word + s).

    >>> count_word(1, "hex", "hexes"), count_word(2, "hex", "hexes")
    ('1 hex', '2 hexes')
    """
    return f"{n} {word if n == 1 else (plural or word + 's')}"


def and_list(items: Iterable[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``.

    >>> and_list(["Anna", "Bert", "Carl"])
    'Anna, Bert and Carl'
    """
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


class Namer:
    """Display names and map letters for the pilots and zeppelins of a tweedekker turn."""

    def __init__(self, report: TurnReport) -> None:
        before, after = report.position_before, report.position_after
        self.pilots = sorted(set(aircraft_of(before)) | set(aircraft_of(after)))
        self.zeppelins = sorted(set(zeppelins_of(before)) | set(zeppelins_of(after)))
        self.letters = pilot_letters(self.pilots, self.zeppelins)
        self.names = dict(report.names)

    def __call__(self, who: Any) -> str:
        if who is None or who == "":
            return "nobody"
        who = str(who)
        if who in self.zeppelins:
            return f"zeppelin {who}"
        return self.names.get(who) or who

    def tagged(self, who: str) -> str:
        """``B baron``: the map letter and the name."""
        return f"{self.letters.get(who, '?')} {self(who)}"


Facts = Mapping[str, Mapping[str, str]]  # pilot -> what the turn came to, in words


def changes_line(before: Facts, after: Facts, readers: Iterable[str],
                 name: Callable[[str], str], craft: str) -> str:
    """One line: what a corrected turn changed for ``readers`` (each pilot's for
    an observer), from each pilot's facts before and after the correction.

    >>> changes_line({"a": {"hits": "1"}}, {"a": {"hits": "2"}}, ["a"], str, "plane")
    'For you: hits 2 (was 1).'
    """
    def diffs(pilot: str) -> list[str]:
        old, new = before.get(pilot, {}), after.get(pilot, {})
        return [f"{k} {new.get(k, '-')} (was {old.get(k, '-')})" for k in new
                if old.get(k) != new.get(k)]

    readers = list(readers)
    if readers:
        found = [d for p in readers for d in diffs(p)]
        return ("For you: " + "; ".join(found) + ".") if found else \
            f"For your {craft} nothing changed; other pilots' turns may have."
    found = [f"{name(p)} " + ", ".join(d) for p in after if (d := diffs(p))]
    return ("What changed: " + "; ".join(found) + ".") if found else \
        f"No {craft} ends the turn differently; the account of it changed."
