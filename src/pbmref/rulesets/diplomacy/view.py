"""A stored Diplomacy position as the reports show it: a small typed view.

The reports (``report``, ``reader``) print a position's units, centres and
retreats as the store wrote them (``A Par``, ``F Stp/sc``, centre names in
their stored order), so they read them from the stored data, not from the
engine's ``Position`` (which keeps provinces, not their display strings).
``PositionView.read(data)`` reads those keys once into typed fields; the rules
the reports ask of the engine (what a power builds, DD1, DD11) go through
``typed``, the engine's own reading, decoded at most once a view.

>>> view = PositionView.read({"phase": "F1901R", "players": {"fleur": "fra"},
...     "units": {"FRA": ["A Par", "F Bre"]}, "centers": {"FRA": ["Par", "Bre"]},
...     "retreats": {"GER": [{"unit": "A Mun", "options": ["Boh", "Tyr"],
...                           "attacker_from": "Bur"}]}})
>>> view.phase, view.players, view.units["FRA"], view.centers["FRA"]
('F1901R', {'FRA': 'fleur'}, ('A Par', 'F Bre'), ('Par', 'Bre'))
>>> retreat = view.retreats["GER"][0]
>>> retreat.unit, retreat.attacker_from, retreat.options_text()
('A Mun', 'Bur', 'Boh, Tyr, or disband')
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property

from pbmref.rules.diplomacy.state import Position, Variant
from pbmref.rules.diplomacy.variant import VariantSpec, variant_in

__all__ = ["PositionView", "Retreat"]


def _texts(value: object) -> tuple[str, ...]:
    """A stored list as its display strings, in stored order (else empty)."""
    return tuple(str(v) for v in value) if isinstance(value, list | tuple) else ()


def _by_power(value: object) -> dict[str, tuple[str, ...]]:
    """A stored ``power -> list`` map, each list as display strings."""
    if not isinstance(value, Mapping):
        return {}
    return {str(k): _texts(v) for k, v in value.items()}


@dataclass(frozen=True)
class Retreat:
    """One dislodged unit waiting to retreat: ``unit`` as written (``A Mun``;
    ``None`` when the entry names none), where it may go, and the province it
    was attacked from ("" when not known)."""

    unit: str
    options: tuple[str, ...] = ()
    attacker_from: str = ""

    @classmethod
    def read(cls, entry: object) -> Retreat:
        data: Mapping[object, object] = entry if isinstance(entry, Mapping) else {}
        frm = data.get("attacker_from")
        return cls(str(data.get("unit")), _texts(data.get("options")), str(frm) if frm else "")

    def options_text(self) -> str:
        """Where it may go: ``Boh, Tyr, or disband``; ``disband only``.

        >>> Retreat("A Mun").options_text()
        'disband only'
        """
        return (", ".join(self.options) + ", or disband") if self.options else "disband only"


@dataclass(frozen=True)
class PositionView:
    """The keys of a stored position the reports print, typed. ``retreats``:
    the retreat phase's dislodged units per power (the ``retreats`` key, else
    ``dislodged``); ``dislodged``: the ``dislodged`` key alone."""

    data: Mapping[str, object] = field(repr=False)
    phase: str
    players: dict[str, str]  # power -> player id
    units: dict[str, tuple[str, ...]]
    centers: dict[str, tuple[str, ...]]
    devastated: tuple[str, ...]
    retreats: dict[str, tuple[Retreat, ...]]
    dislodged: dict[str, tuple[Retreat, ...]]
    winner: str

    @classmethod
    def read(cls, data: Mapping[str, object]) -> PositionView:
        players = data.get("players") or {}
        stored = {key: {str(p): tuple(Retreat.read(e) for e in (v or []))
                        for p, v in value.items()}
                  if isinstance(value := data.get(key), Mapping) else {}
                  for key in ("retreats", "dislodged")}
        return cls(
            data=data,
            phase=str(data.get("phase") or ""),
            players={str(power).upper(): str(pid) for pid, power in players.items()}
            if isinstance(players, Mapping) else {},
            units=_by_power(data.get("units")),
            centers=_by_power(data.get("centers")),
            devastated=_texts(data.get("devastated")),
            retreats=stored["retreats"] or stored["dislodged"],
            dislodged=stored["dislodged"],
            winner=str(data.get("winner") or ""),
        )

    @cached_property
    def spec(self) -> VariantSpec:
        """The variant: its powers, their names, its map."""
        return variant_in(self.data)

    @property
    def dirigible(self) -> bool:
        """A Dirigible Diplomacy position (its own variant of the rules, DD5-DD14)."""
        return Variant(str(self.data.get("ruleset") or Variant.STANDARD)) is Variant.DIRIGIBLE

    @cached_property
    def typed(self) -> Position | None:
        """The position as the engine reads it (once a view); None: it cannot."""
        from pbmref.rules.diplomacy.codec import position_from_dict
        from pbmref.rules.plaindata import PositionError

        try:
            return position_from_dict(self.data)
        except PositionError:
            return None
