"""A player's orders cross the Ruleset's seam typed (issue 41, item 1): every
stored orders entry decodes (``decode_orders``) and encodes back
(``encode_orders``) to the very entry, so the store writes the files it wrote
before (the store's side: tests/store/test_orders_decoded_once.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from pbmref.orders.errors import OrderMailError
from pbmref.rulesets import get_ruleset
from pbmref.rulesets.air.ruleset import SCENARIO_ONLY

from .humankit import MAILS, POSITIONS

REPO = Path(__file__).resolve().parents[2]
SCENARIOS = REPO / "tests" / "scenarios"


def _scenario_entries() -> list[Any]:
    """(ruleset, file, player, entry) of every scenario file's orders: an air
    game's entry as it is, a Diplomacy power's lines as the entry its mail
    gives (``orders: [...]``)."""
    out = []
    for path in sorted(SCENARIOS.glob("*/*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        for player, entry in (data.get("orders") or {}).items():
            if path.parent.name in ("diplomacy", "dirigible"):
                entry = {"orders": entry}
            out.append(pytest.param(path.parent.name, path, str(player), entry or {},
                                    id=f"{path.parent.name}/{path.stem}/{player}"))
    return out


SCENARIO_ENTRIES = _scenario_entries()


def test_the_scenarios_hold_entries_of_every_game_kind() -> None:
    kinds = {p.values[0] for p in SCENARIO_ENTRIES}
    assert kinds == {"tweedekker", "fastplay", "dirigible"}, kinds
    assert len(SCENARIO_ENTRIES) >= 300


@pytest.mark.parametrize(("kind", "path", "player", "entry"), SCENARIO_ENTRIES)
def test_a_scenario_entry_round_trips(kind: str, path: Path, player: str,
                                      entry: dict[str, Any]) -> None:
    """An entry the rules accept encodes back to itself; one they refuse is a
    scenario of a refused order (its ``expect: {error: RULE}``), or a Diplomacy
    order the rules adjudicate as not given (DD2)."""
    rules = get_ruleset(kind)
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    state = rules.decode({k: v for k, v in data.items() if k not in SCENARIO_ONLY})
    try:
        orders = rules.decode_orders(state, player, entry)
    except OrderMailError:
        refused = isinstance(data.get("expect"), dict) and "error" in data["expect"]
        assert refused or kind == "dirigible", f"{path.name}: {player}'s orders refused"
        return
    assert rules.encode_orders(orders) == entry
    assert rules.encode_orders(rules.decode_orders(state, player, rules.encode_orders(orders))) \
        == entry


# the accepted mails that give orders (not commands alone)
ACCEPTED = [pytest.param(c, id=c["name"]) for c in MAILS
            if "ok" in c and "todo" not in c and c["ok"]["entry"] is not None]


@pytest.mark.parametrize("case", ACCEPTED)
def test_an_accepted_mail_of_the_human_table_round_trips(case: dict[str, Any]) -> None:
    """The entry a hand-written mail gives (``read_orders``, canonical) decodes
    and encodes back to itself."""
    position = POSITIONS[case.get("game", "zep1")]
    rules = get_ruleset(position["ruleset"])
    state = rules.decode(position)
    entry = case["ok"]["entry"]
    orders = rules.decode_orders(state, case.get("player", "baron"), entry)
    assert rules.encode_orders(orders) == entry


def test_the_human_table_has_accepted_entries_of_every_game_kind() -> None:
    kinds = {POSITIONS[p.values[0].get("game", "zep1")]["ruleset"] for p in ACCEPTED}
    assert kinds == {"tweedekker", "fastplay", "dirigible"}



def _merge_pairs() -> list[Any]:
    """Every two accepted mails of the table for one player of one game: the
    second mail coming on the orders of the first."""
    by_player: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for p in ACCEPTED:
        case = p.values[0]
        key = (case.get("game", "zep1"), case.get("player", "baron"))
        by_player.setdefault(key, []).append(case["ok"]["entry"])
    return [pytest.param(game, player, old, new, id=f"{game}-{player}-{i}-{j}")
            for (game, player), entries in sorted(by_player.items())
            for i, old in enumerate(entries) for j, new in enumerate(entries) if i != j]


MERGE_PAIRS = _merge_pairs()


def test_the_table_has_pairs_to_merge_of_every_game_kind() -> None:
    assert {POSITIONS[p.values[0]]["ruleset"] for p in MERGE_PAIRS} == {
        "tweedekker", "fastplay", "dirigible"}


@pytest.mark.parametrize(("game", "player", "old", "new"), MERGE_PAIRS)
def test_merged_orders_are_the_merged_entry_decoded(game: str, player: str,
                                                    old: dict[str, Any],
                                                    new: dict[str, Any]) -> None:
    """A mail's orders merged into the orders in force (``merge_orders``, section
    by section, no decoding) are what decoding the merged entry gives."""
    position = POSITIONS[game]
    rules = get_ruleset(position["ruleset"])
    state = rules.decode(position)
    merged = rules.merge_orders(rules.decode_orders(state, player, old),
                                rules.decode_orders(state, player, new))
    entry = rules.encode_orders(merged)
    assert entry == (rules.merged_entry(old, new)[0] if rules.sections else new)
    assert merged == rules.decode_orders(state, player, entry)
