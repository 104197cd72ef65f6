"""Date-times and lengths of time as game files, spools and the command line write them.

>>> parse_duration("1d12h")
datetime.timedelta(days=1, seconds=43200)
>>> format_duration(parse_duration("48h"))
'48h'
>>> moment("2026-03-01T12:00:00")
datetime.datetime(2026, 3, 1, 12, 0, tzinfo=datetime.timezone.utc)
>>> moment("not a time") is None
True
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta, tzinfo

__all__ = ["format_duration", "iso", "moment", "on_the_hour", "parse_datetime", "parse_duration",
           "parse_early_delay"]

_DURATION_RE = re.compile(r"(?:(\d+)w)?(?:(\d+)d)?(?:(\d+)h)?(?:(\d+)m)?")


def parse_duration(value: object) -> timedelta:
    """``"48h"``, ``"2d"``, ``"1d12h"``, ``"90m"``, ``"1w"``; a bare number means hours."""
    if isinstance(value, bool):
        raise ValueError(f"{value!r} is not a length of time like 48h, 2d or 90m")
    if isinstance(value, (int, float)):
        if value <= 0:
            raise ValueError("a length of time must be more than zero")
        return timedelta(hours=value)
    text = str(value).strip().lower().replace(" ", "")
    m = _DURATION_RE.fullmatch(text)
    if not text or not m or not any(m.groups()):
        raise ValueError(f"{value!r} is not a length of time like 48h, 2d, 1d12h or 90m")
    w, d, h, mi = (int(g or 0) for g in m.groups())
    delta = timedelta(weeks=w, days=d, hours=h, minutes=mi)
    if delta <= timedelta(0):
        raise ValueError("a length of time must be more than zero")
    return delta


def parse_early_delay(value: object) -> timedelta:
    """game.yaml's ``early_delay``: a length of time, or ``0`` (also ``0m``,
    ``0h``) for a turn played at once when all orders are in, as the judges do.

    >>> parse_early_delay("90m"), parse_early_delay("0")
    (datetime.timedelta(seconds=5400), datetime.timedelta(0))
    """
    if str(value).strip().lower() in ("0", "0m", "0h"):
        return timedelta(0)
    return parse_duration(value)


def format_duration(delta: timedelta) -> str:
    """The shortest way ``parse_duration`` reads back: ``48h``, ``5d``, ``1d2h30m``."""
    minutes = int(delta.total_seconds() // 60)
    days, rest = divmod(minutes, 24 * 60)
    hours, mins = divmod(rest, 60)
    if not rest and days:
        return f"{days * 24}h" if days <= 3 else f"{days}d"
    out = (f"{days}d" if days else "") + (f"{hours}h" if hours else "") + (
        f"{mins}m" if mins else "")
    return out or "0m"


def on_the_hour(when: datetime) -> datetime:
    """The first whole hour at or after ``when``, on its own clock (a deadline the
    referee sets itself reads 20:00, not 19:13:07.52).

    >>> on_the_hour(datetime(2026, 12, 8, 19, 13, 7, 520000, tzinfo=UTC)).isoformat()
    '2026-12-08T20:00:00+00:00'
    >>> on_the_hour(datetime(2026, 12, 8, 20, 0, tzinfo=UTC)).isoformat()
    '2026-12-08T20:00:00+00:00'
    """
    whole = when.replace(minute=0, second=0, microsecond=0)
    return whole if whole == when else whole + timedelta(hours=1)


def parse_datetime(value: object, zone: tzinfo) -> datetime:
    """An ISO date-time; one without an offset is read in ``zone`` (the game's)."""
    if isinstance(value, datetime):
        when = value
    else:
        try:
            when = datetime.fromisoformat(str(value).strip().replace("Z", "+00:00"))
        except ValueError:
            raise ValueError(
                f"{value!r} is not a date and time like 2026-12-02T20:00:00+01:00") from None
    if when.tzinfo is None:
        when = when.replace(tzinfo=zone)
    return when


def moment(value: object) -> datetime | None:
    """A recorded date-time read back (UTC when it has no offset); None when it is
    missing or not a date-time (bookkeeping the referee wrote, read leniently)."""
    if value is None:
        return None
    try:
        return parse_datetime(value, UTC)
    except ValueError:
        return None


def iso(when: datetime | None) -> str | None:
    """A date-time as recorded in the files (ISO 8601 with its offset)."""
    return when.isoformat() if when is not None else None
