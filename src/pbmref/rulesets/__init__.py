"""The rulesets pbmref referees: one ``Ruleset`` object per game kind.

``RULESETS`` maps the name a game's ``game.yaml`` gives (``ruleset:
tweedekker``) to its ruleset; ``get_ruleset(name)`` looks one up and raises
``UnknownRuleset`` with the known names. Everything that differs between
game kinds lives in these objects (``pbmref.rulesets.base.Ruleset`` says
what each must provide); the rest of the house asks them and never names a
game kind itself.

Each game kind is loaded the first time a game of that kind is asked for:
importing this package (or the store above it) loads only ``base``, never a
game's rules or its renderers; the referee of a house of Diplomacy games
never loads the air games' code.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any

from pbmref.rulesets.base import (
    PRESS_LEVELS,
    Alias,
    Correspondent,
    DemoGame,
    NewGameOptions,
    Opening,
    OrdersEntry,
    Outcome,
    PlayerSpec,
    Ruleset,
    ScenarioError,
    ScenarioResult,
    Votes,
    Words,
)

__all__ = [
    "PRESS_LEVELS",
    "RULESETS",
    "Alias",
    "DemoGame",
    "Correspondent",
    "NewGameOptions",
    "Opening",
    "OrdersEntry",
    "Outcome",
    "PlayerSpec",
    "Ruleset",
    "ScenarioError",
    "ScenarioResult",
    "UnknownRuleset",
    "Votes",
    "Words",
    "get_ruleset",
]

def _tweedekker() -> Ruleset[Any, Any, Any]:
    from pbmref.rulesets.tweedekker.ruleset import TweedekkerRuleset
    return TweedekkerRuleset()


def _fastplay() -> Ruleset[Any, Any, Any]:
    from pbmref.rulesets.fastplay.ruleset import FastPlayRuleset
    return FastPlayRuleset()


def _diplomacy() -> Ruleset[Any, Any, Any]:
    from pbmref.rulesets.diplomacy.ruleset import DiplomacyRuleset
    return DiplomacyRuleset()


def _dirigible() -> Ruleset[Any, Any, Any]:
    from pbmref.rulesets.diplomacy.ruleset import DirigibleRuleset
    return DirigibleRuleset()


class _Registry(Mapping[str, Ruleset[Any, Any, Any]]):
    """The rulesets by name, each made (its modules imported) when first asked
    for and kept: the names are known without loading any game kind."""

    def __init__(self, makers: Mapping[str, Callable[[], Ruleset[Any, Any, Any]]]) -> None:
        self._makers = dict(makers)
        self._made: dict[str, Ruleset[Any, Any, Any]] = {}

    def __getitem__(self, name: str) -> Ruleset[Any, Any, Any]:
        ruleset = self._made.get(name)
        if ruleset is None:
            ruleset = self._made[name] = self._makers[name]()
            assert ruleset.name == name, (ruleset.name, name)
        return ruleset

    def __iter__(self) -> Iterator[str]:
        return iter(self._makers)

    def __len__(self) -> int:
        return len(self._makers)


RULESETS: Mapping[str, Ruleset[Any, Any, Any]] = _Registry({
    "tweedekker": _tweedekker, "fastplay": _fastplay, "diplomacy": _diplomacy,
    "dirigible": _dirigible})


class UnknownRuleset(KeyError):
    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "unknown ruleset"


def get_ruleset(name: str) -> Ruleset[Any, Any, Any]:
    """The ruleset called ``name``; raises UnknownRuleset."""
    ruleset = RULESETS.get(str(name))
    if ruleset is None:
        known = ", ".join(sorted(RULESETS))
        raise UnknownRuleset(f"unknown ruleset {name!r}; known: {known}")
    return ruleset
