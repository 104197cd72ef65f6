"""A game's deadline rules (``deadlines:`` in ``game.yaml``) and where deadlines fall.

The house rules J8 to J11 (``docs/rules/judge.md``) as values and pure
functions::

    deadlines:
      grace: 24h               # J10: wait this long after the deadline for late orders
      days: [mon, tue, wed, thu, fri]   # J8: the days a deadline may fall on
      min_gap: 12h             # J9: the shortest time between two adjudications
      retreats: 24h            # J8: the clock of retreat phases (default: turn_length)
      adjustments: 24h         # J8: the clock of adjustment phases (default: turn_length)
      absence_longest: 7d      # J11: the longest one absence may be (0: none allowed)
      absence_total: 21d       # J11: the days of absence a player may take in the game

Every key may be left out (the defaults are those above but for the first
five: no grace, every day, no minimum, the turn length). ``next_deadline``
is the one rule for where the next deadline falls; ``pushed_past`` moves a
deadline out of the players' absences.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta, tzinfo
from typing import Any

from pbmref.base.times import format_duration, on_the_hour, parse_duration
from pbmref.store.errors import DataError, KeyPath

__all__ = [
    "CLOCKS",
    "WEEKDAYS",
    "DeadlineRules",
    "Span",
    "deadline_rules",
    "next_deadline",
    "pushed_past",
]

WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")  # date.weekday() order
# The kinds of turn that may have a clock of their own (J8); "moves" is the turn length.
CLOCKS = ("moves", "retreats", "adjustments")
_KEYS = ("grace", "days", "min_gap", "retreats", "adjustments", "absence_longest",
         "absence_total")
_NONE = timedelta(0)

Span = tuple[datetime, datetime]  # an absence: from (included) to (excluded)


@dataclass(frozen=True)
class DeadlineRules:
    """The ``deadlines:`` of a game (J8-J11); the defaults change nothing."""

    grace: timedelta = _NONE
    days: frozenset[int] = frozenset(range(7))  # date.weekday() numbers
    min_gap: timedelta = _NONE
    retreats: timedelta | None = None
    adjustments: timedelta | None = None
    absence_longest: timedelta = timedelta(days=7)
    absence_total: timedelta = timedelta(days=21)

    def clock(self, kind: str, turn_length: timedelta) -> timedelta:
        """The length of a turn of ``kind`` (one of ``CLOCKS``).

        >>> DeadlineRules(retreats=timedelta(hours=24)).clock("retreats", timedelta(hours=48))
        datetime.timedelta(days=1)
        """
        own = {"retreats": self.retreats, "adjustments": self.adjustments}.get(kind)
        return own if own is not None else turn_length

    def day_names(self) -> list[str]:
        return [WEEKDAYS[d] for d in sorted(self.days)]

    def to_dict(self) -> dict[str, object]:
        """The keys that differ from the defaults, as ``game.yaml`` writes them."""
        out: dict[str, object] = {}
        default = DeadlineRules()
        for key in _KEYS:
            value = getattr(self, key)
            if value == getattr(default, key):
                continue
            if key == "days":
                out[key] = self.day_names()
            else:
                out[key] = format_duration(value) if value else 0
        return out


def _length(data: Mapping[str, object], key: str, path: KeyPath) -> timedelta | None:
    """A length of time (``48h``, ``2d``), 0 for none; None when not given."""
    if key not in data or data[key] is None:
        return None
    value = data[key]
    if value in (0, "0", "0h", "0d", "0m"):
        return _NONE
    try:
        return parse_duration(value)
    except ValueError as exc:
        raise DataError((*path, key), f"{key}: {exc} (0 for none)") from None


def _days(value: Any, path: KeyPath) -> frozenset[int]:
    names = [value] if isinstance(value, str) else value
    if not isinstance(names, list) or not names:
        raise DataError(path, "days must list the days a deadline may fall on, e.g. "
                              "[mon, tue, wed, thu, fri]")
    days = set()
    for n, name in enumerate(names):
        word = str(name).strip().lower()[:3]
        if word not in WEEKDAYS:
            raise DataError((*path, n), f"{name!r} is not a day of the week "
                                        f"({', '.join(WEEKDAYS)})")
        days.add(WEEKDAYS.index(word))
    return frozenset(days)


def deadline_rules(value: Any, path: KeyPath = ("deadlines",)) -> DeadlineRules:
    """The ``deadlines:`` mapping of game.yaml, checked (DataError with the key path)."""
    if value is None:
        return DeadlineRules()
    if not isinstance(value, Mapping):
        raise DataError(path, "expected the deadline rules: grace, days, min_gap, retreats, "
                              "adjustments, absence_longest, absence_total")
    for key in value:
        if key not in _KEYS:
            raise DataError((*path, key), f"unknown key {key!r}; known keys: "
                                          f"{', '.join(_KEYS)}")
    default = DeadlineRules()
    lengths = {k: _length(value, k, path) for k in _KEYS if k != "days"}
    for key in ("retreats", "adjustments"):
        if lengths[key] == _NONE:
            raise DataError((*path, key), f"{key} must be a length of time like 24h")
    return DeadlineRules(
        grace=lengths["grace"] or _NONE,
        days=_days(value["days"], (*path, "days")) if value.get("days") is not None
        else default.days,
        min_gap=lengths["min_gap"] or _NONE,
        retreats=lengths["retreats"], adjustments=lengths["adjustments"],
        absence_longest=default.absence_longest if lengths["absence_longest"] is None
        else lengths["absence_longest"],
        absence_total=default.absence_total if lengths["absence_total"] is None
        else lengths["absence_total"])


# ------------------------------------------------------------------ where deadlines fall


def _at_time_on(day: date, of_day: time, zone: tzinfo) -> datetime:
    return datetime.combine(day, of_day, tzinfo=zone)


def on_allowed_day(moment: datetime, days: frozenset[int], zone: tzinfo) -> datetime:
    """``moment``, or the same time of day on the first allowed day after it (J8).

    >>> from zoneinfo import ZoneInfo
    >>> sat = datetime(2026, 7, 4, 20, 0, tzinfo=ZoneInfo("Europe/Paris"))
    >>> on_allowed_day(sat, frozenset(range(5)), ZoneInfo("Europe/Paris")).isoformat()
    '2026-07-06T20:00:00+02:00'
    """
    if not days or len(days) == 7:
        return moment
    local = moment.astimezone(zone)
    day, of_day = local.date(), local.timetz().replace(tzinfo=None)
    for _ in range(7):
        if day.weekday() in days:
            return _at_time_on(day, of_day, zone)
        day += timedelta(days=1)
    return moment  # pragma: no cover - days is never empty


def pushed_past(moment: datetime, spans: Iterable[Span], zone: tzinfo) -> datetime:
    """``moment``, or when it falls within one of the absences ``spans``, the same
    time of day (in ``zone``) on the first day after that absence (J11); again
    until it falls in none.

    >>> from datetime import UTC
    >>> away = (datetime(2026, 7, 1, tzinfo=UTC), datetime(2026, 7, 15, tzinfo=UTC))
    >>> pushed_past(datetime(2026, 7, 3, 20, tzinfo=UTC), [away], UTC).isoformat()
    '2026-07-15T20:00:00+00:00'
    """
    spans = sorted(spans)
    local_time = moment.astimezone(zone).timetz().replace(tzinfo=None)
    for _ in range(len(spans) + 1):
        inside = [end for start, end in spans if start <= moment < end]
        if not inside:
            return moment
        end = max(inside)
        candidate = _at_time_on(end.astimezone(zone).date(), local_time, zone)
        moment = candidate if candidate >= end else candidate + timedelta(days=1)
    return moment


def next_deadline(rules: DeadlineRules, old: datetime | None, length: timedelta,
                  now: datetime, zone: tzinfo, absences: Sequence[Span] = ()) -> datetime:
    """The deadline of the turn that follows an adjudication at ``now`` (J8, J9,
    J11): the old deadline plus ``length`` (the clock of the coming turn's kind,
    on the game's local clock), or ``now`` plus it when that has passed; no
    closer to ``now`` than the game's minimum gap; out of the ``absences``; on
    an allowed day.

    >>> from datetime import UTC
    >>> old = datetime(2026, 7, 3, 20, tzinfo=UTC)  # a Friday
    >>> rules = DeadlineRules(days=frozenset(range(5)))
    >>> next_deadline(rules, old, timedelta(hours=24), old, UTC).isoformat()
    '2026-07-06T20:00:00+00:00'
    """
    now_local = now.astimezone(zone)
    candidate = old.astimezone(zone) + length if old is not None else now_local + length
    if candidate <= now:  # a missed deadline: counted from now, on a whole hour
        candidate = on_the_hour(now_local + length)
    if rules.min_gap and candidate < now + rules.min_gap:
        candidate = on_the_hour(now_local + rules.min_gap)
    for _ in range(8):  # an absence may end on a day not allowed, and so on
        moved = on_allowed_day(pushed_past(candidate, absences, zone), rules.days, zone)
        if moved == candidate:
            break
        candidate = moved
    return candidate
