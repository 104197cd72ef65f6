"""Small helpers the report renderers share: the width of a text report,
wrapping, deadlines in the game's zone, counted words and lists. (How the air
games name their pieces is ``rulesets.air.names``; each game reads its
positions typed, through its ruleset.)
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterable, Mapping
from datetime import datetime
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

__all__ = [
    "WIDTH",
    "and_list",
    "count_word",
    "deadline_words",
    "display",
    "fit_width",
    "format_deadline",
    "wrap",
]

WIDTH = 70  # every line of every text report fits a phone client


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
