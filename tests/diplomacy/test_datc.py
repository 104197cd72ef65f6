"""Every DATC case of the project's copy (``data/datc.json``) (DD2).

A case marked ``ignore`` is skipped with its reason; today none is (the DATC
sets none aside that pbmref cannot run), and ``test_no_case_is_set_aside``
keeps it so.

One test per case, named after its number: ``-k test_6_f_14``. The cases run
on the one standard map the game uses (``standard_map()``).
"""

from __future__ import annotations

import pytest

from pbmref.rules.diplomacy import adjudicate_full

from .datc import (
    build_position,
    case_id,
    load_cases,
    mismatches,
    parse_order,
    parse_unit,
    retreat_run,
    run_main,
)

CASES = load_cases()


def _marks(c: dict[str, object]) -> list[pytest.MarkDecorator]:
    if c.get("ignore"):
        return [pytest.mark.skip(reason=str(c["ignore"]))]
    return []


PARAMS = [pytest.param(c, id=case_id(c), marks=_marks(c)) for c in CASES]


def _removed_by_disorder(events: tuple[object, ...]) -> set[str]:
    return {
        f"{e.power}: {e.unit}"  # type: ignore[attr-defined]
        for e in events
        if e.kind == "removed" and e.reason == "civil disorder"  # type: ignore[attr-defined]
    }


def test_no_case_is_set_aside() -> None:
    """6.B.7, 6.B.8, 6.B.15, 6.G.19 (2023) and 6.H.1-3, set aside upstream, run."""
    assert [case_id(c) for c in CASES if c.get("ignore")] == []
    assert len(CASES) == 171


@pytest.mark.parametrize("case", PARAMS)
def test_datc(case: dict[str, object]) -> None:
    phase = case["phase"]
    if phase == "Main":
        _, orders, expected, adj = run_main(case, case.get("edition"))  # type: ignore[arg-type]
        assert mismatches(orders, expected, adj.results) == []  # type: ignore[attr-defined]
    elif phase == "Retreat":
        problems, _, orders, expected, adj = retreat_run(case)
        assert problems == []
        assert mismatches(orders, expected, adj.results) == []  # type: ignore[attr-defined]
    else:
        pos = build_position(case)
        orders_map: dict[str, object] = case["orders"]  # type: ignore[assignment]
        orders = [parse_order(k, "Build") for k in orders_map]
        adj = adjudicate_full(pos, orders)
        assert mismatches(orders, list(orders_map.values()), adj.results) == []  # type: ignore[arg-type]
        wanted = {
            str(parse_unit(t).power) + ": " + str(parse_unit(t))
            for t in case.get("civil_disorder") or []
        }  # type: ignore[union-attr]
        assert wanted <= _removed_by_disorder(adj.events)
