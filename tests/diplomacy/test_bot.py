"""The Diplomacy computer player (issue 19): every order legal and mailable,
the same seed the same orders, better than civil disorder on a small sample,
and the play of a few positions where a player knows the right orders."""

from __future__ import annotations

import os
import random
import re
import statistics
import subprocess
import sys
from pathlib import Path

import pytest

from pbmref.rules.diplomacy import (
    POWERS,
    Build,
    Loc,
    Move,
    Phase,
    Position,
    Unit,
    UnitType,
    Variant,
)
from pbmref.rules.diplomacy.bot import choose_orders, order_lines
from pbmref.rules.diplomacy.bot_play import Played, Player, play, seeded_rngs
from pbmref.rules.diplomacy.bot_random import random_orders
from pbmref.rules.diplomacy.dirigible import UPKEEP
from pbmref.rules.diplomacy.state import initial_position
from pbmref.rulesets.diplomacy.orders import parse_body

ROOT = Path(__file__).resolve().parents[2]
VARIANTS = [Variant.STANDARD, Variant.DIRIGIBLE]


def _check(played: Played) -> None:
    """Every power's orders read back, line by line, as the same orders by the
    order-mail parser (strict), and the adjudicator found none illegal."""
    before = played.before
    for power, orders in played.orders.items():
        lines = order_lines(orders)
        assert parse_body(lines, power, before) == orders, (str(before.phase), power, lines)
        if before.phase.kind == "M":
            assert sorted((o.kind, o.loc) for o in orders if not isinstance(o, Build)) == \
                sorted((u.kind, u.loc) for u in before.units_of(power)), "one order a unit"
    illegal = [f"{r.order.power} {r.order}: {r.reason}" for r in played.results
               if r.reason.startswith("illegal")]
    assert not illegal, (str(before.phase), illegal)


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.value)
def test_every_order_is_legal_and_reads_back_from_its_mail_lines(variant: Variant) -> None:
    players: dict[str, Player] = {p: choose_orders for p in POWERS}
    phases = list(play(initial_position(variant), players, seeded_rngs(5, POWERS), 1904))
    assert {p.before.phase.kind for p in phases} == {"M", "R", "A"}
    for played in phases:
        _check(played)


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.value)
def test_random_player_gives_legal_orders(variant: Variant) -> None:
    players: dict[str, Player] = {p: random_orders for p in POWERS}
    for played in play(initial_position(variant), players, seeded_rngs(9, POWERS), 1903):
        _check(played)


def _lines_of_game(seed: int, variant: Variant, last_year: int) -> list[str]:
    players: dict[str, Player] = {p: choose_orders for p in POWERS}
    out = []
    for played in play(initial_position(variant), players, seeded_rngs(seed, POWERS), last_year):
        for power, orders in played.orders.items():
            out += [f"{played.before.phase} {power} {line}" for line in order_lines(orders)]
    return out


def test_same_seed_gives_the_same_orders() -> None:
    for variant in VARIANTS:
        assert _lines_of_game(3, variant, 1903) == _lines_of_game(3, variant, 1903)


def test_same_orders_whatever_the_string_hashing() -> None:
    """Sets of province names iterate in another order under another
    PYTHONHASHSEED; the computer's orders must not depend on it (the demo
    compares runs byte for byte)."""
    code = ("import sys; sys.path.insert(0, sys.argv[1]); "
            "from tests.diplomacy.test_bot import _lines_of_game; "
            "from pbmref.rules.diplomacy import Variant; "
            "print('\\n'.join(_lines_of_game(4, Variant.DIRIGIBLE, 1902) "
            "+ _lines_of_game(4, Variant.STANDARD, 1902)))")
    outs = []
    for hash_seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed,
               "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), str(ROOT)])}
        proc = subprocess.run([sys.executable, "-c", code, str(ROOT)], capture_output=True,
                              text=True, env=env, timeout=120, check=True)
        outs.append(proc.stdout)
    assert outs[0] == outs[1]
    assert outs[0].count("\n") > 50


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.value)
def test_computers_beat_a_power_in_civil_disorder(variant: Variant) -> None:
    """Issue 19 (a) on a small sample: one game per silent power, 1901-1905;
    bench/diplomacy_bot.py plays the full measure."""
    computers: list[float] = []
    silent: list[int] = []
    for n, idle in enumerate(POWERS):
        players: dict[str, Player] = {p: choose_orders for p in POWERS if p != idle}
        end = initial_position(variant)
        for played in play(end, players, seeded_rngs(n, POWERS), 1905):
            end = played.after
        computers.append(statistics.mean(len(end.centers_of(p)) for p in POWERS if p != idle))
        silent.append(len(end.centers_of(idle)))
    assert statistics.mean(computers) >= 2 * statistics.mean(silent), (computers, silent)


# -- positions where a player knows what to do ------------------------------------------

def _position(phase: str, units: dict[str, list[str]], owners: dict[str, str] | None = None,
              variant: Variant = Variant.STANDARD) -> Position:
    centers = dict(initial_position().centers)
    centers.update(owners or {})
    placed = []
    for power, texts in units.items():
        for text in texts:
            kind, where = text.split()
            placed.append(Unit(power, UnitType(kind), Loc.parse(where)))
    return Position(Phase.parse(phase), tuple(sorted(placed)), tuple(sorted(centers.items())),
                    variant=variant)


PLAYS = [
    pytest.param("F1902M", {"FRA": ["A Pic", "A Bur", "A Par"], "ENG": ["A Bel", "F Lon"],
                            "GER": ["A Mun"]}, {"bel": "ENG"}, Variant.STANDARD, "FRA",
                 {"A Pic - Bel", "A Bur S A Pic - Bel"}, id="supports-its-attack"),
    pytest.param("F1902M", {"GER": ["A Mun", "A Kie", "F Den"], "FRA": ["A Bur", "A Ruh"]},
                 {"hol": "GER", "den": "GER"}, Variant.STANDARD, "GER",
                 {"A Mun H", "A Kie S A Mun"}, id="defends-a-home-centre"),
    pytest.param("S1901M", {"ENG": ["A Lon", "F Nth"]}, {}, Variant.STANDARD, "ENG",
                 {r"F Nth C A Lon - (\w+)", r"A Lon - (\w+) via convoy"},
                 id="convoys-off-the-island"),
    pytest.param("F1902M", {"FRA": ["A Pic", "D Bel", "A Par"], "ENG": ["A Bel", "F Lon"]},
                 {"bel": "ENG"}, Variant.DIRIGIBLE, "FRA",
                 {"A Pic - Bel", "D Bel S A Pic - Bel"}, id="supports-from-above-DD8"),
    pytest.param("F1902M", {"FRA": ["D Lon", "A Par"], "ENG": ["F Nth", "A Yor"]}, {},
                 Variant.DIRIGIBLE, "FRA", {"D Lon devastate"}, id="devastates-DD10"),
]


@pytest.mark.parametrize("phase,units,owners,variant,power,expected", PLAYS)
def test_plays_what_a_player_would(phase: str, units: dict[str, list[str]],
                                   owners: dict[str, str], variant: Variant, power: str,
                                   expected: set[str]) -> None:
    pos = _position(phase, units, owners, variant)
    for seed in range(3):
        lines = order_lines(choose_orders(pos, power, random.Random(seed)))
        found = [[m for line in lines if (m := re.fullmatch(pattern, line))]
                 for pattern in sorted(expected)]
        assert all(found), lines
        assert len({m.groups() for hits in found for m in hits if m.groups()}) <= 1, lines
        parse_body(lines, power, pos)


def test_retreats_onto_a_centre_it_can_take() -> None:
    from pbmref.rules.diplomacy import DislodgedUnit
    pos = _position("F1902R", {"GER": ["A Mun"], "FRA": ["A Bur"]}, {"hol": "ENG", "bel": "GER"})
    pos = Position(pos.phase, pos.units, pos.centers, dislodged=(DislodgedUnit(
        Unit("GER", UnitType.ARMY, Loc("ruh")), "bur"),))
    assert order_lines(choose_orders(pos, "GER", random.Random(1))) == ["A Ruh - Hol"]


def test_dirigible_first_builds_spend_the_points() -> None:
    """DD12: Winter 1900, 15 points (Russia 20): three armies or fleets and a
    dirigible (Russia four and one), all within the points (DD11)."""
    pos = initial_position(Variant.DIRIGIBLE)
    for power in POWERS:
        orders = choose_orders(pos, power, random.Random(0))
        assert all(isinstance(o, Build) for o in orders)
        cost = sum(UPKEEP[o.kind] for o in orders if isinstance(o, Build))
        assert cost == (19 if power == "RUS" else 15), (power, order_lines(orders))
        assert sum(o.kind is UnitType.DIRIGIBLE for o in orders if isinstance(o, Build)) == 1


def test_no_two_own_units_bounce_in_one_province() -> None:
    players: dict[str, Player] = {p: choose_orders for p in POWERS}
    for played in play(initial_position(), players, seeded_rngs(2, POWERS), 1903):
        if played.before.phase.kind != "M":
            continue
        for power, orders in played.orders.items():
            dests = [o.dest.prov for o in orders if isinstance(o, Move)]
            assert len(dests) == len(set(dests)), (str(played.before.phase), power, dests)
