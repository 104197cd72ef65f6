"""The rulesets pbmref referees: one ``Ruleset`` object per game kind.

``RULESETS`` maps the name a game's ``game.yaml`` gives (``ruleset:
tweedekker``) to its ruleset; ``get_ruleset(name)`` looks one up and raises
``UnknownRuleset`` with the known names. Everything that differs between
game kinds lives in these objects (``pbmref.rulesets.base.Ruleset`` says
what each must provide); the rest of the house asks them and never names a
game kind itself.
"""

from __future__ import annotations

from collections.abc import Mapping
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
    Picture,
    PlayerSpec,
    Ruleset,
    ScenarioError,
    ScenarioResult,
    Votes,
    Words,
)
from pbmref.rulesets.diplomacy import DiplomacyRuleset, DirigibleRuleset
from pbmref.rulesets.fastplay import FastPlayRuleset
from pbmref.rulesets.tweedekker import TweedekkerRuleset

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
    "Picture",
    "PlayerSpec",
    "Ruleset",
    "ScenarioError",
    "ScenarioResult",
    "UnknownRuleset",
    "Votes",
    "Words",
    "get_ruleset",
]

RULESETS: Mapping[str, Ruleset[Any]] = {
    ruleset.name: ruleset
    for ruleset in (TweedekkerRuleset(), FastPlayRuleset(), DiplomacyRuleset(),
                    DirigibleRuleset())
}


class UnknownRuleset(KeyError):
    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "unknown ruleset"


def get_ruleset(name: str) -> Ruleset[Any]:
    """The ruleset called ``name``; raises UnknownRuleset."""
    ruleset = RULESETS.get(str(name))
    if ruleset is None:
        known = ", ".join(sorted(RULESETS))
        raise UnknownRuleset(f"unknown ruleset {name!r}; known: {known}")
    return ruleset
