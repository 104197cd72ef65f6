"""Every DATC case of the shared JSON that is not marked ``ignore`` (DD2).

One test per case, named after its number: ``-k test_6_f_14``.
"""

from __future__ import annotations

import pytest

from pbmref.rules.diplomacy import GameMap, adjudicate_full, standard_map
from pbmref.rules.diplomacy.map import published_map

from .datc import (
    DATC_PATH,
    build_position,
    case_id,
    load_cases,
    mismatches,
    parse_order,
    parse_unit,
    retreat_run,
    run_main,
)

if not DATC_PATH.exists():  # the shared data folder is not part of the repository
    pytest.skip(f"no DATC cases at {DATC_PATH}", allow_module_level=True)

CASES = load_cases()
PUBLISHED = published_map()
BOARD = standard_map()

# The JSON was checked against its source's map, which lacks nine borders of the
# published board (scripts/build_diplomacy_map.py, CORRECTIONS). One case
# depends on a missing one: on the real board Skagerrak is two moves from
# St Petersburg (Norway, north coast), nearer than Albania is to Sevastopol, so
# civil disorder removes A Alb, not F Ska.
REAL_BOARD_DIFFERS = {
    "test_6_j_9_b_2023": "needs the Norway - St Petersburg border the source map lacks",
}


def _marks(c: dict[str, object], real_board: bool) -> list[pytest.MarkDecorator]:
    if c.get("ignore"):
        return [pytest.mark.skip(reason=str(c["ignore"]))]
    if real_board and case_id(c) in REAL_BOARD_DIFFERS:
        return [pytest.mark.xfail(reason=REAL_BOARD_DIFFERS[case_id(c)], strict=True)]
    return []


PARAMS = [
    pytest.param(c, PUBLISHED, id=case_id(c), marks=_marks(c, False)) for c in CASES
] + [
    pytest.param(c, BOARD, id=case_id(c) + "_real_board", marks=_marks(c, True)) for c in CASES
]


def _removed_by_disorder(events: tuple[object, ...]) -> set[str]:
    return {
        f"{e.power}: {e.unit}"  # type: ignore[attr-defined]
        for e in events
        if e.kind == "removed" and e.reason == "civil disorder"  # type: ignore[attr-defined]
    }


@pytest.mark.parametrize(("case", "game_map"), PARAMS)
def test_datc(case: dict[str, object], game_map: GameMap) -> None:
    phase = case["phase"]
    if phase == "Main":
        _, orders, expected, adj = run_main(case, case.get("edition"), game_map)  # type: ignore[arg-type]
        assert mismatches(orders, expected, adj.results) == []  # type: ignore[attr-defined]
    elif phase == "Retreat":
        problems, _, orders, expected, adj = retreat_run(case, game_map)
        assert problems == []
        assert mismatches(orders, expected, adj.results) == []  # type: ignore[attr-defined]
    else:
        pos = build_position(case)
        orders_map: dict[str, object] = case["orders"]  # type: ignore[assignment]
        orders = [parse_order(k, "Build") for k in orders_map]
        adj = adjudicate_full(pos, orders, game_map=game_map)
        assert mismatches(orders, list(orders_map.values()), adj.results) == []  # type: ignore[arg-type]
        wanted = {
            str(parse_unit(t).power) + ": " + str(parse_unit(t))
            for t in case.get("civil_disorder") or []
        }  # type: ignore[union-attr]
        assert wanted <= _removed_by_disorder(adj.events)
