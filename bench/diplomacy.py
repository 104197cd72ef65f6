"""Diplomacy movement-phase speed: phases adjudicated per second, as ratios to a baseline.

    .venv/bin/python bench/diplomacy.py [SECONDS]      (default 1.0 per measurement)

Positions:

- every DATC movement case of the project's copy of the DATC JSON
  (tests/diplomacy/data/datc.json: about 130 small positions of
  2 to 10 units, many with convoys and paradoxes), run one after another;
- a full board: the 34 units of a crowded mid-game (one unit on every supply
  centre), every unit ordered (moves, supports, bounces, a convoy);
- the same full board in the dirigible variant with 14 dirigibles added
  (supports from above, dirigible bounces, a devastation).

Baseline, measured in the same run on the same position: copying the position
once (``dataclasses.replace`` rebuilding every unit), the least any pure
``state -> state`` phase must cost. The ratio says how many such copies one
adjudicated phase is worth; phases per second are printed for reference.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "tests"))

from pbmref.rules.diplomacy import (  # noqa: E402
    Loc,
    Order,
    Phase,
    Position,
    Unit,
    UnitType,
    Variant,
    adjudicate_full,
)
from pbmref.rules.diplomacy.state import initial_position  # noqa: E402
from pbmref.rulesets.diplomacy.orders import parse_body  # noqa: E402

FULL_UNITS = {
    "AUS": ["A Vie", "A Bud", "F Tri", "A Ser", "A Rum"],
    "ENG": ["F Lon", "F Edi", "A Lvp", "F Nwy", "F Nth"],
    "FRA": ["A Par", "F Bre", "A Mar", "F Spa/sc", "F Por", "A Bel"],
    "GER": ["A Mun", "A Ber", "F Kie", "F Den", "A Hol"],
    "ITA": ["A Ven", "A Rom", "F Nap", "F Tun"],
    "RUS": ["A Mos", "A War", "F Sev", "F StP/sc", "F Swe"],
    "TUR": ["F Ank", "A Con", "A Smy", "A Bul"],
}
FULL_ORDERS = {
    "AUS": ["A Vie - Gal", "A Bud S A Vie - Gal", "F Tri - Adr", "A Ser S A Rum", "A Rum H"],
    "ENG": ["F Lon - Eng", "F Edi - Nwg", "A Lvp - Yor", "F Nwy S F Nth - Ska", "F Nth - Ska"],
    "FRA": ["A Par - Bur", "F Bre - Mao", "A Mar S A Par - Bur", "F Spa/sc - Wes",
            "F Por S F Bre - Mao", "A Bel - Hol"],
    "GER": ["A Mun - Bur", "A Ber - Sil", "F Kie - Hel", "F Den S F Swe - Ska", "A Hol - Ruh"],
    "ITA": ["A Ven - Tri", "A Rom - Apu", "F Nap - Ion", "F Tun S F Nap - Ion"],
    "RUS": ["A Mos - Ukr", "A War - Gal", "F Sev - Rum", "F StP/sc - Bot", "F Swe - Ska"],
    "TUR": ["F Ank - Bla", "A Con S A Bul", "A Smy - Arm", "A Bul - Rum"],
}
AIR_UNITS = {
    "FRA": ["D Bur", "D Pic", "D Gas"], "GER": ["D Ruh", "D Boh", "D Sil"],
    "RUS": ["D Ukr", "D Lvn"], "AUS": ["D Gal", "D Tyr"], "ENG": ["D Yor", "D Wal"],
    "ITA": ["D Pie"], "TUR": ["D Arm"],
}
AIR_ORDERS = {
    "FRA": ["D Bur S A Par - Bur", "D Pic - Bel", "D Gas S D Bur"],
    "GER": ["D Ruh - Bur", "D Boh - Mun", "D Sil S A Ber - Sil"],
    "RUS": ["D Ukr S A Mos - Ukr", "D Lvn - War"],
    "AUS": ["D Gal S A Vie - Gal", "D Tyr - Boh"],
    "ENG": ["D Yor S A Lvp - Yor", "D Wal - Lon"],
    "ITA": ["D Pie - Mar"],
    "TUR": ["D Arm S A Smy - Arm"],
}


def _unit(power: str, text: str) -> Unit:
    kind, where = text.split()
    return Unit(power, UnitType(kind), Loc.parse(where))


def full_position(air: bool) -> tuple[Position, list[Order]]:
    start = initial_position()
    units = [_unit(p, t) for p, ts in FULL_UNITS.items() for t in ts]
    owners = {u.prov: u.power for u in units}
    if air:
        units += [_unit(p, t) for p, ts in AIR_UNITS.items() for t in ts]
    pos = Position(
        Phase(1905, "S", "M"), tuple(sorted(units)), tuple(sorted(owners.items())),
        variant=Variant.DIRIGIBLE if air else Variant.STANDARD,
    )
    del start
    orders: list[Order] = []
    for power, lines in FULL_ORDERS.items():
        orders += parse_body(lines + (AIR_ORDERS.get(power, []) if air else []), power, pos,
                             strict=False)
    return pos, orders


def datc_positions() -> list[tuple[Position, list[Order]]]:
    from diplomacy.datc import load_cases, parse_order, parse_unit  # type: ignore[import-not-found]

    out = []
    for case in load_cases():
        if case["phase"] != "Main" or case.get("ignore"):
            continue
        orders = [parse_order(k, "Main") for k in case["orders"]]
        if case.get("starting_state"):
            units = [parse_unit(t) for t in case["starting_state"]]
        else:
            seen: dict[str, Unit] = {}
            for o in orders:
                seen.setdefault(o.loc.prov, Unit(o.power, o.kind, o.loc))  # type: ignore[union-attr]
            units = list(seen.values())
        pos = Position(Phase(1901, "S", "M"), tuple(sorted(units)), initial_position().centers,
                       edition=str(case.get("edition") or "2023"))
        out.append((pos, orders))
    return out


def rate(fn: Callable[[], object], seconds: float) -> float:
    n = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        fn()
        n += 1
        now = time.perf_counter()
        if now >= deadline:
            return n / (now - start)


def copy_position(pos: Position) -> Position:
    return replace(pos, units=tuple(replace(u) for u in pos.units))


def measure(name: str, cases: list[tuple[Position, list[Order]]], seconds: float) -> None:
    def run_all() -> None:
        for pos, orders in cases:
            adjudicate_full(pos, orders)

    def copy_all() -> None:
        for pos, _ in cases:
            copy_position(pos)

    base = rate(copy_all, seconds)
    work = rate(run_all, seconds)
    units = sum(len(p.units) for p, _ in cases) / len(cases)
    print(f"{name:<34} {len(cases):>4} positions, {units:5.1f} units avg: "
          f"{work * len(cases):10.0f} phases/s; one phase costs {base / work:7.1f} copies "
          f"of the position (baseline {base * len(cases):10.0f} copies/s)")


def main(argv: list[str]) -> int:
    seconds = float(argv[1]) if len(argv) > 1 else 1.0
    datc = datc_positions()
    if datc:
        measure("DATC movement cases", datc, seconds)
    measure("full board, 34 units", [full_position(False)], seconds)
    measure("dirigible board, 34 + 14 units", [full_position(True)], seconds)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
