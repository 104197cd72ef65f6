"""Each variant's board (``board.json`` of its folder) against its map.

The standard board's shapes are built by ``scripts/build_diplomacy_board.py``,
the other maps' by ``scripts/build_diplomacy_variant_board.py``; here each is
checked against the borders of its map (``map.json``): every
two provinces that border each other share a boundary you can see, no two
others touch along more than a point, nothing overlaps, the board is covered,
and each province is drawn as the land, sea or coast the map says it is.
"""

from __future__ import annotations

import json
import re
from functools import cache
from importlib import resources
from itertools import combinations
from typing import Any

import pytest
from shapely.geometry import Point, Polygon, box
from shapely.ops import unary_union
from shapely.strtree import STRtree

from pbmref.rules.diplomacy.map import GameMap, map_text
from pbmref.rules.diplomacy.variant import load_variant, variant_names

# Every folder with a map of its own.
FOLDERS = sorted({load_variant(n).map_folder for n in variant_names()})

# Borders of the published board that the standard map file may still lack
# (they are being added on another branch); the board must show them.
EXTRA_BORDERS = [
    ("bot", "fin"), ("bot", "lvn"), ("bot", "stp"), ("bot", "swe"), ("nwy", "stp"),
    ("lvn", "war"), ("gal", "ukr"), ("mao", "spa"), ("tus", "tys"), ("con", "smy"),
]

MIN_SHARED = 4.0  # px: the shortest boundary two neighbours may share (standard board)
DRAWN_MIN_SHARED = 2.5  # px: the same on a board made from seeds (its builder's MIN_SHARED)
ISLAND_ROOM = 16.5  # px: how far from an island its name and unit may be (the same builder's)
MAX_POINT = 1.0  # px: two provinces that are not neighbours touch at most this much
NEAR = 0.2  # px: how close two boundaries must be to count as shared (rounding)


@cache
def board(folder: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(map_text(folder, "board.json"))
    return data


def the_map(folder: str) -> GameMap:
    return load_variant(folder).map


def path_shape(d: str) -> Any:
    """The area an SVG path of ``M x y L x y ... Z`` rings covers (evenodd)."""
    shape: Any = Polygon()
    for ring in re.findall(r"M([^Z]*)Z", d):
        pts = [tuple(map(float, p.split())) for p in ring.split("L")]
        shape = shape.symmetric_difference(Polygon(pts).buffer(0))
    return shape


@cache
def shapes(folder: str) -> dict[str, Any]:
    return {name: path_shape(p["path"]) for name, p in board(folder)["provinces"].items()}


@cache
def borders(folder: str) -> frozenset[frozenset[str]]:
    m = the_map(folder)
    pairs = {frozenset((a, b)) for a, near in m.any_adj.items() for b in near}
    if folder == "standard":
        pairs |= {frozenset(p) for p in EXTRA_BORDERS}
    return frozenset(pairs)


def least(folder: str) -> float:
    return MIN_SHARED if folder == "standard" else DRAWN_MIN_SHARED


def shared(folder: str, a: str, b: str) -> float:
    s = shapes(folder)
    return float(s[a].boundary.intersection(s[b].buffer(NEAR)).length)


def test_every_map_has_a_board() -> None:
    assert "standard" in FOLDERS and len(FOLDERS) >= 3
    for folder in FOLDERS:
        assert board(folder)["provinces"], folder


@pytest.mark.parametrize("folder", FOLDERS)
def test_one_shape_for_each_province_of_the_map(folder: str) -> None:
    m = the_map(folder)
    assert sorted(board(folder)["provinces"]) == sorted(m.provinces)
    for name, shape in shapes(folder).items():
        assert shape.is_valid and shape.area > 50, name


@pytest.mark.parametrize("pair", [(f, *sorted(p)) for f in FOLDERS for p in
                                  sorted(tuple(sorted(q)) for q in borders(f))],
                         ids=lambda p: "-".join(p))
def test_neighbours_touch(pair: tuple[str, str, str]) -> None:
    folder, a, b = pair
    assert shared(folder, a, b) >= least(folder), f"{a} and {b} border each other on the map"


@pytest.mark.parametrize("folder", FOLDERS)
def test_others_touch_at_most_at_a_point(folder: str) -> None:
    s = shapes(folder)
    names = sorted(n for n in s if not board(folder)["provinces"][n].get("impassable"))
    tree = STRtree([s[n] for n in names])
    wrong = []
    for a in names:
        for j in tree.query(s[a].buffer(NEAR)):
            b = names[int(j)]
            if b <= a or frozenset((a, b)) in borders(folder):
                continue
            if shared(folder, a, b) > MAX_POINT:
                wrong.append(f"{a}-{b} ({shared(folder, a, b):.1f} px)")
    assert wrong == []


def test_switzerland_is_impassable_land() -> None:
    swi = board("standard")["provinces"]["swi"]
    assert swi["impassable"] is True and swi["kind"] == "land"
    assert "unit" not in swi


@pytest.mark.parametrize("folder", FOLDERS)
def test_nothing_overlaps_and_the_frame_is_covered(folder: str) -> None:
    s = shapes(folder)
    drawn = list(s.values()) + [path_shape(p) for p in board(folder)["impassable"].values()]
    for x, y in combinations(range(len(drawn)), 2):
        if drawn[x].intersects(drawn[y]):
            assert drawn[x].intersection(drawn[y]).area < 0.5
    width, height = board(folder)["size"]
    frame = box(0, 0, width, height)
    covered = unary_union(drawn)
    assert frame.difference(covered).area < 0.001 * frame.area
    assert covered.difference(frame).area < 1.0


@pytest.mark.parametrize("folder", FOLDERS)
def test_kinds_are_the_maps(folder: str) -> None:
    m = the_map(folder)
    seas = {n for n in m.provinces if m.terrain(n) == "sea"}
    for name, p in board(folder)["provinces"].items():
        assert p["kind"] == m.terrain(name), name
        touches_sea = any(shared(folder, name, sea) >= least(folder)
                          for sea in seas if sea != name)
        if p["kind"] == "land" and not m.coasts(name):
            assert not touches_sea, f"{name} is inland"
        elif p["kind"] != "sea":
            assert touches_sea, f"{name} has a coast"


@pytest.mark.parametrize("folder", FOLDERS)
def test_places_lie_in_their_province(folder: str) -> None:
    s = shapes(folder)
    for name, p in board(folder)["provinces"].items():
        places = [p["label"]] + [p[k] for k in ("unit", "sc") if k in p]
        places += [v for c in p.get("coasts", {}).values() for v in c.values()]
        # a small island's name and unit may stand in the sea beside it
        room = s[name].buffer(ISLAND_ROOM if p.get("island") else 0.5)
        for x, y in places[:3]:
            assert room.contains(Point(x, y)), (name, x, y)
        if "sc" in p:
            assert s[name].buffer(0.5).contains(Point(*p["sc"])), name
        for c in p.get("coasts", {}).values():
            x, y = c["unit"]
            assert s[name].contains(Point(x, y)), name


def _name_box(name: str, x: float, y: float) -> Any:
    """Where a province's name is written (bold, 10.5 px, centred)."""
    from pbmref.rules.diplomacy.map import display

    width = 0.64 * 10.5 * len(display(name)) + 4
    return box(x - width / 2, y - 10.5 * 0.85, x + width / 2, y + 10.5 * 0.4)


@pytest.mark.parametrize("folder", FOLDERS)
def test_names_are_clear_of_units_and_centres(folder: str) -> None:
    """No unit's place (on the ground, in the air, aside) or supply-centre dot
    covers any province's name by more than a corner."""
    provinces = board(folder)["provinces"]
    names = {n: _name_box(n, *p["label"]) for n, p in provinces.items()}
    sizes = {"unit": (9, 6.5), "air": (12, 6.5), "aside": (8, 8), "sc": (4, 4)}
    covered = []
    for name, p in provinces.items():
        for key, (hw, hh) in sizes.items():
            if key not in p:
                continue
            x, y = p[key]
            icon = box(x - hw, y - hh, x + hw, y + hh)
            for other, label in names.items():
                if icon.intersection(label).area > 12:
                    covered.append(f"{name} {key} on {other}")
    assert covered == []


@pytest.mark.parametrize("folder", FOLDERS)
def test_each_coast_faces_its_own_seas(folder: str) -> None:
    """A fleet's place on a split coast is nearest to a sea of that coast."""
    m = the_map(folder)
    s = shapes(folder)
    seas = [n for n in m.provinces if m.terrain(n) == "sea"]
    for name, p in board(folder)["provinces"].items():
        for coast, place in p.get("coasts", {}).items():
            unit = Point(*place["unit"])
            nearest = min(seas, key=lambda sea: s[sea].distance(unit))
            own = {loc.prov for loc in m.fleet_adj[_loc(name, coast)]}
            assert nearest in own, f"{name}/{coast} is nearest {nearest}"


def _loc(prov: str, coast: str) -> Any:
    from pbmref.rules.diplomacy import Loc

    return Loc(prov, coast)


@pytest.mark.parametrize("folder", FOLDERS)
def test_supply_centres_have_a_dot(folder: str) -> None:
    m = the_map(folder)
    for name, p in board(folder)["provinces"].items():
        assert ("sc" in p) == m.is_supply_center(name), name


@pytest.mark.parametrize("folder", FOLDERS)
def test_the_source_is_credited(folder: str) -> None:
    assert "Natural Earth" in board(folder)["_source"]
    notice = resources.files("pbmref").joinpath("data", "diplomacy", "NOTICE").read_text(
        encoding="utf-8")
    assert "board.json" in notice and "Natural Earth" in notice
