"""Every variant shipped (``data/diplomacy/variants/``): its sanity cases in the
manner of the DATC, and a game of computer powers played to its end.

Sanity: every border is symmetric and joins provinces of the right kind,
every coast can be reached by a fleet and every province by some unit,
names are unique, home centres are supply centres, the starting position is
legal (one unit a province, each where its kind may stand, each power on its
own home centres) and reads back from the scenario form, the victory number
can be reached by one power only, and a phase of holds changes nothing. The
game: the computer plays every power from the opening (``rules.diplomacy.bot``)
until a power wins (DD4), every order it gives legal and read back from its
mail line; the seed is one with which the variant's game reaches a winner.
"""

from __future__ import annotations

import json
import random
from collections import deque
from typing import Any

import pytest

from pbmref.rules.diplomacy import Hold, Position, adjudicate_full
from pbmref.rules.diplomacy.bot import choose_orders, order_lines
from pbmref.rules.diplomacy.bot_play import Player, play, seeded_rngs
from pbmref.rules.diplomacy.codec import position_from_dict, position_to_dict
from pbmref.rules.diplomacy.map import GameMap, Loc, map_text
from pbmref.rules.diplomacy.variant import VariantError, load_variant, opening, variant_names
from pbmref.rulesets.diplomacy.orders import parse_body

# A seed a variant: the computer game of that seed ends with a winner.
WINNING_SEEDS = {"standard": 3, "dirigible": 3, "fleet_rome": 4, "build_anywhere": 4,
                 "chaos": 6, "mare_nostrum": 7, "viking_age": 4}
NAMES = variant_names()


def test_seven_variants_or_more_are_shipped_each_with_a_winning_seed() -> None:
    assert {"standard", "dirigible"} <= set(NAMES) and len(NAMES) >= 7
    assert sorted(WINNING_SEEDS) == sorted(NAMES)
    own_maps = {load_variant(n).map_folder for n in NAMES} - {"standard"}
    assert len(own_maps) >= 2  # at least two on maps other than the standard board


def raw_borders(folder: str) -> list[list[str]]:
    data: dict[str, Any] = json.loads(map_text(folder, "map.json"))
    return list(data["borders"])


@pytest.mark.parametrize("name", NAMES)
def test_every_border_is_symmetric_and_of_the_right_kind(name: str) -> None:
    spec = load_variant(name)
    m = spec.map
    seen: dict[frozenset[str], str] = {}
    for a, b, terrain in raw_borders(spec.map_folder):
        pa, pb = Loc.parse(a), Loc.parse(b)
        assert pa.prov in m.provinces and pb.prov in m.provinces, (a, b)
        assert pa.prov != pb.prov, a
        key = frozenset((a, b))
        assert seen.setdefault(key, terrain) == terrain, f"{a}-{b} given twice, unlike"
        kinds = {m.terrain(pa.prov), m.terrain(pb.prov)}
        if terrain == "land":
            assert "sea" not in kinds, (a, b)
        elif terrain == "coast":
            assert kinds <= {"coast"} or all(m.coasts(p.prov) or m.terrain(p.prov) == "coast"
                                            for p in (pa, pb)), (a, b)
        else:
            assert terrain == "sea", (a, b, terrain)
    for table in (m.army_adj, m.any_adj):
        for a, near in table.items():
            for b in near:
                assert a in table[b], f"{a}-{b} one way only"
    for here, near_locs in m.fleet_adj.items():
        for there in near_locs:
            assert here in m.fleet_adj[there], f"{here}-{there} one way only"


def board_of(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(map_text(load_variant(name).map_folder, "board.json"))
    return data


def _reached(start: Any, step: Any) -> set[Any]:
    seen = {start}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        for there in step(here):
            if there not in seen:
                seen.add(there)
                queue.append(there)
    return seen


@pytest.mark.parametrize("name", NAMES)
def test_every_coast_and_every_province_can_be_reached(name: str) -> None:
    m = load_variant(name).map
    fleet_places = set(m.fleet_adj)
    sea = next(Loc(p) for p in m.provinces if m.is_sea(p))
    assert _reached(sea, lambda loc: m.fleet_adj[loc]) == fleet_places  # one water for fleets
    for prov, p in m.provinces.items():
        if p.terrain == "coast" or p.coasts:
            places = [Loc(prov, c) for c in p.coasts] or [Loc(prov)]
            for loc in places:
                assert any(m.is_sea(x.prov) for x in m.fleet_adj[loc]), f"{loc} faces no sea"
        if p.terrain == "land" and not p.coasts:
            assert not any(m.is_sea(q) for q in m.any_adj[prov]), f"{prov} is inland"
    void = {p for p in m.provinces if not m.any_adj[p]}  # impassable (Switzerland)
    assert all(board_of(name)["provinces"][p].get("impassable") for p in void), void
    land = [p for p in m.provinces if not m.is_sea(p) and p not in void]
    by_land_or_sea = _reached(land[0], lambda p: m.any_adj[p])
    assert by_land_or_sea == set(m.provinces) - void


@pytest.mark.parametrize("name", NAMES)
def test_names_are_unique_and_read_back(name: str) -> None:
    m = load_variant(name).map
    for abbr, p in m.provinces.items():
        assert m.lookup(abbr) == abbr and m.lookup(p.name) == abbr, (abbr, p.name)


def _home_and_start(spec_name: str) -> tuple[GameMap, Position]:
    spec = load_variant(spec_name)
    return spec.map, opening(spec)


@pytest.mark.parametrize("name", NAMES)
def test_the_starting_position_is_legal(name: str) -> None:
    spec = load_variant(name)
    m, start = _home_and_start(name)
    assert start.phase == spec.start and start.powers == spec.powers
    centres = m.supply_centers()
    assert 2 * spec.victory > len(centres) >= spec.victory  # one winner at most
    for power in spec.powers:
        homes = m.home_centers(power)
        assert homes, power
        assert all(h in centres for h in homes)  # home centres are supply centres
        assert set(start.centers_of(power)) == set(homes)
    provinces = [u.prov for u in start.units]
    assert len(provinces) == len(set(provinces))  # one unit a province
    for u in start.units:
        assert (m.army_can_stand(u.loc) if u.kind.value == "A" else m.fleet_can_stand(u.loc))
        assert u.prov in m.home_centers(u.power)
    data = position_to_dict(start)
    assert ("variant" in data) == (name not in ("standard", "dirigible"))
    again = position_from_dict(data)
    assert position_to_dict(again) == data and again.variant_name == start.variant_name
    if start.phase.kind == "M":  # a phase of holds changes nothing but the season
        holds = [Hold(u.power, u.kind, u.loc) for u in start.units]
        after = adjudicate_full(start, holds).state
        assert after.units == start.units and after.centers == start.centers
        assert str(after.phase) == f"F{start.phase.year}M"
    else:  # an opening build phase: every power may build (DD12; Chaos)
        from pbmref.rules.diplomacy.adjust import may_adjust

        assert all(may_adjust(start, m, p) for p in spec.powers)


def test_a_broken_variant_name_is_refused_with_the_names_there_are() -> None:
    with pytest.raises(VariantError, match="unknown variant 'atlantis'.*chaos"):
        load_variant("atlantis")
    with pytest.raises(Exception, match="variant"):
        position_from_dict({"ruleset": "diplomacy", "variant": "atlantis"})
    with pytest.raises(Exception, match="dirigible rules"):
        position_from_dict({"ruleset": "diplomacy", "variant": "dirigible"})


@pytest.mark.parametrize("name", NAMES)
def test_the_computer_plays_a_game_to_its_end(name: str) -> None:
    spec = load_variant(name)
    players: dict[str, Player] = {p: choose_orders for p in spec.powers}
    pos = opening(spec)
    phases = 0
    for played in play(pos, players, seeded_rngs(WINNING_SEEDS[name], spec.powers), 1940):
        phases += 1
        for power, orders in played.orders.items():
            lines = order_lines(orders)
            assert parse_body(lines, power, played.before) == orders, (played.before.phase,
                                                                        power)
        pos = played.after
    assert pos.winner in spec.powers, f"{name}: no winner by 1940 ({phases} phases)"
    assert len(pos.centers_of(pos.winner)) >= spec.victory


def test_build_anywhere_builds_in_a_centre_owned_that_is_not_home() -> None:
    m, start = _home_and_start("build_anywhere")
    from dataclasses import replace

    from pbmref.rules.diplomacy import Build, Phase, UnitType

    pos = replace(start, phase=Phase(1901, "W", "A"),
                  centers=tuple(sorted((*start.centers, ("bel", "FRA")))))
    adj = adjudicate_full(pos, [Build("FRA", UnitType.ARMY, Loc("bel"))])
    assert adj.results[0].succeeded, adj.results[0].reason
    std = replace(pos, variant_name="")  # the standard game refuses it (DD1)
    refused = adjudicate_full(std, [Build("FRA", UnitType.ARMY, Loc("bel"))])
    assert "not a home centre" in refused.results[0].reason
    del m


def test_fleet_rome_starts_with_a_fleet_in_rome() -> None:
    _, start = _home_and_start("fleet_rome")
    assert {str(u) for u in start.units_of("ITA")} == {"F Nap", "F Rom", "A Ven"}


def test_chaos_has_34_powers_each_building_its_first_unit() -> None:
    spec = load_variant("chaos")
    assert len(spec.powers) == 34 and spec.start.kind == "A" and not spec.units
    start = opening(spec)
    orders = [o for p in spec.powers for o in choose_orders(start, p, random.Random(1))]
    after = adjudicate_full(start, orders).state
    assert len(after.units) == 34 and str(after.phase) == "S1901M"
