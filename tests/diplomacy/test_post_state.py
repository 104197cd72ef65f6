"""Where units end up after the DATC's 6.E, 6.F and 6.G cases.

The JSON gives each order's result, not the board after it; the board follows
from those results by the rules: a unit whose move succeeds stands in its
target; a unit that does not move (or whose move fails) is dislodged exactly
when some move into its province succeeds, and otherwise stays. Each unit
whose fate the JSON settles is checked against the engine's resulting
position (units on the board, and the dislodged list), and no unit may be lost
or duplicated.
"""

from __future__ import annotations

import pytest

from pbmref.rules.diplomacy import Hold, Move, Unit

from .datc import case_id, load_cases, run_main

CASES = [
    c for c in load_cases()
    if str(c["name"])[:3] in ("t6e", "t6f", "t6g") and not c.get("ignore")
]


def expected_fates(orders: list[object], expected: list[str | None]) -> dict[Unit, tuple[str, str]]:
    """unit -> ("at", province) or ("dislodged", province), where the results settle it."""
    fates: dict[Unit, tuple[str, str]] = {}
    moves_into: dict[str, list[str | None]] = {}
    for o, e in zip(orders, expected, strict=True):
        if isinstance(o, Move):
            moves_into.setdefault(o.dest.prov, []).append(e)
    for o, e in zip(orders, expected, strict=True):
        unit = Unit(o.power, o.kind, o.loc)  # type: ignore[attr-defined]
        prov = o.loc.prov  # type: ignore[attr-defined]
        if isinstance(o, Move):
            if e == "Succeeds":
                fates[unit] = ("at", o.dest.prov)
                continue
            if e is None:
                continue
        if isinstance(o, Hold) and e is not None:
            fates[unit] = ("at", prov) if e == "Succeeds" else ("dislodged", prov)
            continue
        attacks = moves_into.get(prov, [])
        if "Succeeds" in attacks:
            fates[unit] = ("dislodged", prov)
        elif all(a == "Fails" for a in attacks):
            fates[unit] = ("at", prov)
    return fates


@pytest.mark.parametrize("case", CASES, ids=[case_id(c) for c in CASES])
def test_post_state(case: dict[str, object]) -> None:
    pos, orders, expected, adj = run_main(case, case.get("edition"))  # type: ignore[arg-type]
    after = adj.state  # type: ignore[attr-defined]
    dislodged = {d.unit for d in adj.dislodged}  # type: ignore[attr-defined]
    on_board = {(u.power, u.kind, u.prov) for u in after.units}
    fates = expected_fates(orders, expected)
    assert fates, "the results settle no unit's fate"
    for unit, (fate, prov) in fates.items():
        if fate == "at":
            assert (unit.power, unit.kind, prov) in on_board, f"{unit.power} {unit} should be in {prov}"
            assert unit not in dislodged or prov != unit.prov
        else:
            assert unit in dislodged, f"{unit.power} {unit} should be dislodged"
            assert (unit.power, unit.kind, unit.prov) not in on_board or any(
                u.prov == unit.prov and u.power != unit.power for u in after.units
            )
    # nothing lost, nothing doubled
    assert len(after.units) + len(dislodged) == len(pos.units)
    assert len({u.prov for u in after.units}) == len(after.units)
