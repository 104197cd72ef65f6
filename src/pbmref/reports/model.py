"""The data a turn report is rendered from (exactly what the store keeps), and
the pictures drawn of it.

``renamed(data, ids)`` gives plain data (a position, orders) with the
player ids of ``ids`` replaced by the ids players are shown, ``renamed_event``
a typed event, and ``TurnReport.with_players`` a whole report: in an
anonymous game every renderer then draws and names the players' stand-ins
(issue 40).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any, Generic, TypeVar

__all__ = ["FOCUS_HIGHEST", "FOCUS_SIZE", "GROUND_CLOSE", "GROUND_OPEN", "PANEL_WIDTH", "Focus",
           "Picture", "TurnReport", "focus_box", "renamed", "renamed_event"]

E = TypeVar("E")

#: The comments around a picture's ground: what a turn's picture draws under
#: everything else and that changes seldom (the board, its names), which the
#: mail's picture renderer (``pbmref.mail.picture``) draws once and keeps.
GROUND_OPEN = "<!--ground-->"
GROUND_CLOSE = "<!--/ground-->"
#: How wide a move panel is shown in a mail, in px.
PANEL_WIDTH = 260.0


def renamed(data: Any, ids: Mapping[str, str]) -> Any:
    """``data`` (plain YAML data) with each player id of ``ids`` replaced: every
    string that is one, and the keys of a mapping whose keys all are player ids
    (``aircraft``, a Diplomacy position's ``players``, a turn's orders). An
    event's ``kind`` is left as it is, and so are the keys of any other mapping
    (a position's own keys stay what they are, whatever the players are called).

    >>> renamed({"aircraft": {"anna": {"hex": "J19", "state": "anna"}},
    ...          "events": [{"kind": "anna", "votes": [["anna", "A"]]}]}, {"anna": "n"})
    {'aircraft': {'n': {'hex': 'J19', 'state': 'n'}}, 'events': [{'kind': 'anna', 'votes': [['n', 'A']]}]}
    """
    if isinstance(data, str):
        return ids.get(data, data)
    if isinstance(data, Mapping):
        players = bool(data) and all(k in ids for k in data)
        return {(ids[k] if players else k): (v if k == "kind" else renamed(v, ids))
                for k, v in data.items()}
    if isinstance(data, (list, tuple)):
        return [renamed(v, ids) for v in data]
    return data


def renamed_event(event: E, ids: Mapping[str, str]) -> E:
    """A typed event (a frozen dataclass) with each player id of ``ids``
    replaced, as ``renamed`` replaces them in its plain data: every text field
    (but its ``kind``) that is one, and those in a tuple of them.

    >>> from pbmref.rules.diplomacy.events import Event
    >>> renamed_event(Event("draw", power="anna", powers=("anna", "bert")), {"anna": "n"})
    Event(kind='draw', power='n', unit=None, order=None, outcome=None, reason=None, \
province=None, to=None, rule=None, powers=('n', 'bert'), votes=())
    """
    if not dataclasses.is_dataclass(event) or isinstance(event, type):
        return event
    changed = {f.name: _renamed_field(getattr(event, f.name), ids)
               for f in dataclasses.fields(event) if f.init and f.name != "kind"}
    return replace(event, **changed)


def _renamed_field(value: object, ids: Mapping[str, str]) -> object:
    if isinstance(value, str):
        return ids.get(value, value)
    if isinstance(value, tuple):
        return tuple(_renamed_field(v, ids) for v in value)
    return value


@dataclass(frozen=True)
class TurnReport(Generic[E]):
    """One adjudicated turn of one game: the positions and orders as plain
    data, the events as the game's typed events (``E``).

    ``position_before`` is the position at the start of ``turn`` and
    ``position_after`` the one at the start of the next turn (scenario schema);
    ``events`` are the engine's events, in order, decoded once a report
    (``Ruleset.decode_events``) when read from the store;
    ``orders`` maps player id to the orders entry they gave this turn
    (secret until now, shown in the report); ``names`` maps player id to the
    pilot's display name.
    """

    game_id: str
    title: str
    ruleset: str
    turn: int
    position_before: dict[str, object]
    position_after: dict[str, object]
    events: tuple[E, ...]
    orders: dict[str, dict[str, object]] = field(default_factory=dict)
    names: dict[str, str] = field(default_factory=dict)
    next_deadline: datetime | None = None  # aware; shown in the game's time zone
    timezone: str = "UTC"
    game_over: bool = False
    winners: list[str] = field(default_factory=list)
    dice: list[int] = field(default_factory=list)
    # the position that opened the turn's game year (Diplomacy: its Spring),
    # for what changed this year; None: the game kind has no years
    year_start: dict[str, object] | None = None

    def with_players(self, ids: Mapping[str, str], names: Mapping[str, str]) -> TurnReport[E]:
        """The report with each player id of ``ids`` replaced (``renamed``) and
        ``names`` the names shown, by the ids shown."""
        return replace(
            self, position_before=renamed(self.position_before, ids),
            position_after=renamed(self.position_after, ids), events=tuple(renamed_event(e, ids) for e in self.events),
            orders=renamed(self.orders, ids), winners=renamed(self.winners, ids),
            year_start=renamed(self.year_start, ids), names=dict(names))


@dataclass(frozen=True)
class Picture:
    """One picture of a turn: the SVG document, what it shows in words (the
    archive's caption), and the part of its file name that tells it from the
    turn's other pictures (``orders`` in ``dip1-S1901M-orders.svg``; empty when
    the turn has one picture)."""

    svg: str
    caption: str
    name: str = ""

    def filename(self, game_id: str, label: str) -> str:
        """The attachment's name: ``dip1-S1901M-orders.svg``, ``zep1-turn-007.svg``.

        >>> Picture("<svg/>", "the board", "after").filename("dip1", "S1901M")
        'dip1-S1901M-after.svg'
        """
        return f"{game_id}-{label}{'-' + self.name if self.name else ''}.svg"


@dataclass(frozen=True)
class Focus:
    """What a reader looks at first: the part of one of the turn's pictures
    around their own aircraft or power (issue 43, item 2).

    ``picture`` is its index in ``Ruleset.render_pictures``; ``box`` the part
    shown (left, top, right, bottom, in the drawing's own units); ``rings``
    the reader's own pieces, ringed (x, y, radius, in the same units);
    ``zoom`` the scale at which the drawing's labels are 11 px; ``alt`` what
    the picture shows, in words, for a reader who cannot see it."""

    box: tuple[float, float, float, float]
    rings: tuple[tuple[float, float, float], ...]
    alt: str
    zoom: float
    picture: int = 0


#: The reader's own picture as a mail shows it, in pixels: as wide as a
#: 390-px phone's column leaves inside the picture's card, a little wider than
#: high. At ``Focus.zoom`` its labels are 11 px there.
FOCUS_SIZE = (350, 250)
#: The highest a reader's own picture may grow to show all their pieces.
FOCUS_HIGHEST = 450
#: The size of a label the reader's picture shows at 11 px.
FOCUS_LABEL = 11.0


def focus_box(x: float, y: float, zoom: float, bounds: tuple[float, float, float, float],
              height: float = FOCUS_SIZE[1]) -> tuple[float, float, float, float]:
    """The part of a drawing ``FOCUS_SIZE`` shows at ``zoom`` (``height``
    pixels high: a phone scrolls down, not across), centred on (``x``, ``y``)
    as far as ``bounds`` (the part worth showing) allow.

    >>> focus_box(10, 10, 1.0, (0, 0, 1000, 1000))
    (0, 0, 350.0, 250.0)
    >>> focus_box(500, 500, 2.0, (0, 0, 1000, 1000))
    (412.5, 437.5, 587.5, 562.5)
    """
    width, height = FOCUS_SIZE[0] / zoom, height / zoom
    left = min(max(x - width / 2, bounds[0]), bounds[2] - width)
    top = min(max(y - height / 2, bounds[1]), bounds[3] - height)
    return (max(left, 0), max(top, 0), max(left, 0) + width, max(top, 0) + height)

