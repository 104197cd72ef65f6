"""What ``LIST`` shows of a game being played (J1), kept with its state index.

The referee answers ``LIST`` from the store's index alone, never opening a
game: each game's state index (``state.yaml``) holds its ``Listing``,
written with its schedule whenever the referee changes the game, and the
index keeps it beside the schedule. When the game master changed
``game.yaml`` since, what the settings say (title, press, clock, who gave
a place up) is taken from them, the rest (the game kind, the open turn)
from the listing last written.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from pbmref.base.times import format_duration
from pbmref.store.deadlines import DeadlineRules

if TYPE_CHECKING:
    from pbmref.store.settings import GameSettings

__all__ = ["Listing", "clock_words", "clock_words_of"]


@dataclass(frozen=True)
class Listing:
    """One running game as the list of games shows it (J1)."""

    title: str = ""
    kind: str = ""  # the game kind and its variant: "Diplomacy (Chaos)"
    press: str = "none"
    clock: str = ""  # "48h; retreats 24h; grace 24h" (``clock_words``)
    places: int = 0  # places played by people (given up ones too)
    open: tuple[str, ...] = ()  # the player ids whose places are open (J7)
    turn: str = ""  # the open turn as players name it
    anonymous: bool = False
    takeover: str = "anyone"  # J7: anyone, or only the standby list
    status: str = "open"

    def to_dict(self) -> dict[str, object]:
        data = asdict(self)
        data["open"] = list(self.open)
        return data

    @classmethod
    def from_dict(cls, data: object) -> Listing | None:
        """A listing read back from a state index (None: missing or not one).

        >>> Listing.from_dict(Listing("Dip", places=7, open=("anna",)).to_dict()).open
        ('anna',)
        >>> Listing.from_dict({"title": 3}) is None
        True
        """
        if not isinstance(data, Mapping):
            return None
        values: dict[str, Any] = {}
        for f in fields(cls):
            if f.name not in data:
                continue
            value = data[f.name]
            if f.name == "open":
                if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                    return None
                value = tuple(value)
            elif type(value) is not type(getattr(cls(), f.name)):
                return None
            values[f.name] = value
        return cls(**values)

    @classmethod
    def of(cls, settings: GameSettings, *, kind: str, turn: str, press: str) -> Listing:
        """The listing of a game from its settings, its kind (with the variant),
        the open turn's name and its press level."""
        people = [p for p in settings.players.values() if not p.computer]
        return cls(title=settings.title, kind=kind, press=press, clock=clock_words(settings),
                   places=len(people), open=tuple(p.id for p in people if p.open_place),
                   turn=turn, anonymous=settings.anonymous, takeover=settings.takeover,
                   status=settings.status)

    def updated(self, settings: GameSettings) -> Listing:
        """This listing with what ``settings`` (game.yaml, changed since) say."""
        return Listing.of(settings, kind=self.kind or settings.ruleset, turn=self.turn,
                          press=settings.press or self.press)


def clock_words(settings: GameSettings) -> str:
    """The clocks of a game in a few words (J8-J10).

    >>> from pbmref.store.settings import settings_from_dict
    >>> s = settings_from_dict({"ruleset": "diplomacy", "turn_length": "48h",
    ...     "deadlines": {"retreats": "24h", "grace": "12h", "days": ["mon", "wed"]},
    ...     "players": {"a": {"addresses": ["a@x.org"]}}}, "g")
    >>> clock_words(s)
    '48h a turn; retreats 24h; grace 12h; deadlines on mon, wed'
    """
    return clock_words_of(settings.turn_length, settings.deadlines)


def clock_words_of(turn_length: timedelta, rules: DeadlineRules) -> str:
    """``clock_words`` of a turn length and deadline rules (a forming game's)."""
    words = [f"{format_duration(turn_length)} a turn"]
    for kind in ("retreats", "adjustments"):
        own = getattr(rules, kind)
        if own is not None:
            words.append(f"{kind} {format_duration(own)}")
    if rules.grace:
        words.append(f"grace {format_duration(rules.grace)}")
    if rules.min_gap:
        words.append(f"at least {format_duration(rules.min_gap)} between turns")
    if len(rules.days) < 7:
        words.append("deadlines on " + ", ".join(rules.day_names()))
    return "; ".join(words)
