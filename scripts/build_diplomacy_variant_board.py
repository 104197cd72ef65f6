#!/usr/bin/env python3
"""Build a variant's map and board from its geography (``map.json``, ``board.json``).

For a variant drawn on a map of its own (``docs/variants.md``), the folder
holds ``geography.yaml``: the projection and frame, and one entry a province
(its abbreviation, name, land or sea, the longitude and latitude of its seed:
a city for a land province, a point at sea for a sea, and whether it is a
supply centre). This script makes from it:

1. the board's shapes: the coastline is Natural Earth's 1:50m admin-0
   countries (public domain), as packed in the world-atlas npm package (ISC
   licence; the version of ``scripts/build_diplomacy_board.py``), projected
   (Lambert conformal conic) and clipped to the frame; every province is the
   Voronoi cell of its seed among all seeds, cut to the land (a land
   province) or to the water (a sea). Pieces that fall to the wrong kind (a
   cape in a sea's cell, a bay in a land's cell) join the neighbour of the
   right kind they share most boundary with; an island without a seed joins
   the land province within ``ISLAND_JOIN`` px, or is drawn as impassable. The shapes are simplified together, so neighbours
   keep one boundary;
2. the map: two provinces border each other where their shapes share a
   boundary of at least ``MIN_SHARED`` px; by land when both are land, by
   sea when one is a sea, by land and sea (a coast) when both are land and
   the water touches the end of their border; a land province touching a
   sea is a coastal one. ``geography.yaml`` may add borders (``extra``, a
   strait) or take some away (``cut``), each with the kind of the border;
3. where each name, unit, supply centre, dirigible and dislodged unit goes,
   by the standard board's layout (``scripts/build_diplomacy_board.py``).

    .venv/bin/python scripts/build_diplomacy_variant_board.py NAME [--atlas DIR]
    .venv/bin/python -m pytest tests/diplomacy/test_board_shapes.py tests/diplomacy/test_variants.py -q

Without ``--atlas`` the script runs ``npm pack`` in a temporary folder (needs
npm). Run it again after changing ``geography.yaml``.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
from pathlib import Path
from typing import Any

import shapely
import yaml
from shapely.geometry import MultiPoint, Point, Polygon, box
from shapely.ops import nearest_points, unary_union

ROOT = Path(__file__).resolve().parent.parent
VARIANTS = ROOT / "src" / "pbmref" / "data" / "diplomacy" / "variants"
MIN_SHARED = 2.5  # px: the shortest boundary that makes two provinces neighbours
POINT = 1.0  # px: two provinces that share less touch at a point only
GROW = 1.6  # px: a shorter contact is parted, a longer one made a border
ISLAND_MIN = 40.0  # px^2: smaller islands without a seed are left out
ISLAND_JOIN = 10.0  # px: an island without a seed this near a land province is part of it
LAKE_MAX = 2500.0  # px^2: water enclosed by land and smaller than this is filled
SIMPLIFY = 1.2  # px
ISLAND_ROOM = 16.0  # px: how far from a small island (``island: true``) its name and units go


def _standard_builder() -> Any:
    spec = importlib.util.spec_from_file_location("build_diplomacy_board",
                                                  ROOT / "scripts" / "build_diplomacy_board.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


STD = _standard_builder()


class Projection:
    """Lambert conformal conic of the geography's ``projection`` onto a board
    ``width`` px wide covering the ``frame`` (lon/lat of the corners)."""

    def __init__(self, geo: dict[str, Any]) -> None:
        p = geo["projection"]
        self.project = STD.lcc_projector(p["parallels"][0], p["parallels"][1], p["centre"][1],
                                         p["centre"][0])
        west, south, east, north = geo["frame"]
        steps = [i / 20 for i in range(21)]  # the frame's edges, which the projection bends
        edge = [(west + (east - west) * t, lat) for t in steps for lat in (south, north)]
        edge += [(lon, south + (north - south) * t) for t in steps for lon in (west, east)]
        corners = [self.project(lon, lat) for lon, lat in edge]
        xs, ys = [c[0] for c in corners], [c[1] for c in corners]
        self.x0, self.y1 = min(xs), max(ys)
        self.scale = float(geo["width"]) / (max(xs) - min(xs))
        self.size = (float(geo["width"]), round((max(ys) - min(ys)) * self.scale))

    def px(self, lon: float, lat: float) -> tuple[float, float]:
        x, y = self.project(lon, lat)
        return (x - self.x0) * self.scale, (self.y1 - y) * self.scale

    def geom(self, g: Any) -> Any:
        import numpy as np

        def f(coords: Any) -> Any:
            out = np.empty_like(coords)
            for i, (lon, lat) in enumerate(coords):
                out[i] = self.px(lon, lat)
            return out

        return shapely.transform(g, f)


def land_of(atlas: Any, proj: Projection, geo: dict[str, Any]) -> Any:
    """The land inside the frame, in board pixels, lakes filled."""
    west, south, east, north = geo["frame"]
    area = box(west - 5, south - 5, east + 5, north + 5)
    parts = [g.intersection(area) for g in atlas.geometries.values() if g.intersects(area)]
    land = proj.geom(unary_union([p for p in parts if not p.is_empty]).buffer(0))
    frame = box(0, 0, *proj.size)
    land = land.intersection(frame)
    water = frame.difference(land)
    lakes = [w for w in STD.polygons(water) if w.area < LAKE_MAX and not w.touches(frame.exterior)
             and w.exterior.distance(frame.exterior) > 1]
    return unary_union([land, *lakes]).buffer(0)


def _longest_neighbour(piece: Any, shapes: dict[str, Any], allowed: set[str]) -> str | None:
    best, length = None, 0.0
    for name in allowed:
        shared = piece.boundary.intersection(shapes[name].buffer(0.3)).length
        if shared > length:
            best, length = name, shared
    return best if length > 0.5 else None


def shapes_of(geo: dict[str, Any], land: Any, proj: Projection
              ) -> tuple[dict[str, Any], list[Any]]:
    """Each province's shape, and the impassable islands."""
    frame = box(0, 0, *proj.size)
    sea = frame.difference(land)
    entries = geo["provinces"]
    seeds = {e["abbr"]: Point(*proj.px(*e["at"])) for e in entries}
    is_sea = {e["abbr"]: e["kind"] == "sea" for e in entries}
    for name, pt in seeds.items():
        inside = sea.contains(pt) if is_sea[name] else land.contains(pt)
        if not inside:
            raise SystemExit(f"{name}: its seed is not on {'water' if is_sea[name] else 'land'}")
    cells = shapely.voronoi_polygons(MultiPoint(list(seeds.values())), extend_to=frame)
    shapes: dict[str, Any] = {}
    loose: list[Any] = []
    for cell in cells.geoms:
        name = next(n for n, pt in seeds.items() if cell.contains(pt))
        cell = cell.intersection(frame)
        mine = cell.intersection(sea if is_sea[name] else land)
        other = cell.difference(mine)
        keep = []
        for piece in STD.polygons(mine):
            (keep if piece.contains(seeds[name]) else loose).append(piece)
        shapes[name] = unary_union(keep)
        loose += [p for p in STD.polygons(other) if p.area > 0.01]
    islands: list[Any] = []
    for _ in range(4):  # pieces join a neighbour of their kind, biggest boundary first
        left = []
        for piece in sorted(loose, key=lambda p: -p.area):
            water = sea.buffer(0.01).contains(piece.representative_point())
            kind = {n for n, s in is_sea.items() if s == water}
            near = _longest_neighbour(piece, shapes, kind)
            if near is None:
                left.append(piece)
                continue
            shapes[near] = unary_union([shapes[near], piece]).buffer(0)
        loose = left
    for piece in loose:
        water = sea.buffer(0.01).contains(piece.representative_point())
        if water:
            near = _longest_neighbour(piece, shapes, set(shapes))
            if near is not None:
                shapes[near] = unary_union([shapes[near], piece]).buffer(0)
        else:
            land_names = [n for n, sea_ in is_sea.items() if not sea_]
            near_land = min(land_names, key=lambda n: shapes[n].distance(piece))
            if shapes[near_land].distance(piece) <= ISLAND_JOIN:
                shapes[near_land] = unary_union([shapes[near_land], piece]).buffer(0)
            elif piece.area >= ISLAND_MIN:
                islands.append(piece)
    names = sorted(shapes)
    coverage = shapely.coverage_simplify([shapes[n] for n in names] + islands, SIMPLIFY)
    out = {n: shapely.make_valid(g).buffer(0) for n, g in zip(names, coverage, strict=False)}
    return out, [shapely.make_valid(g).buffer(0) for g in coverage[len(names):]]


def shared(shapes: dict[str, Any], a: str, b: str) -> float:
    return float(shapes[a].boundary.intersection(shapes[b].buffer(0.2)).length)


def _touching(shapes: dict[str, Any]) -> dict[frozenset[str], float]:
    names = sorted(shapes)
    out: dict[frozenset[str], float] = {}
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            if shapes[a].buffer(0.3).intersects(shapes[b]):
                length = shared(shapes, a, b)
                if length > POINT:
                    out[frozenset((a, b))] = length
    return out


def mend_small_touches(shapes: dict[str, Any]) -> None:
    """Two provinces that touch along more than a point but less than
    ``MIN_SHARED`` px (where four cells meet near a coast, or at a strait)
    would be neither plainly neighbours nor plainly not. A contact of at least
    ``GROW`` px becomes a border: the first province takes a small disc
    around it from the others, wrapping the second's edge there. A shorter
    one is parted: the disc goes to the third province that has most of it,
    so the two meet at a point only. Repeated until none is left."""
    for _ in range(8):
        bad = sorted((sorted(p), n) for p, n in _touching(shapes).items() if n < MIN_SHARED)
        if not bad:
            return
        for (a, b), length in bad:
            if shared(shapes, a, b) >= MIN_SHARED or shared(shapes, a, b) <= POINT:
                continue  # mended on the way
            contact = shapes[a].boundary.intersection(shapes[b].buffer(0.2))
            if contact.is_empty:
                continue
            parts = getattr(contact, "geoms", [contact])
            centre = max(parts, key=lambda g: g.length).centroid  # one contact at a time
            third = max(((shapes[n].intersection(centre.buffer(length / 2 + 1.5)).area, n)
                         for n in shapes if n not in (a, b)), default=(0.0, ""))
            if length >= GROW or third[0] < 0.5:
                disc = centre.buffer(4.0)
                region = disc.intersection(_everything(shapes)).difference(shapes[b])
                for n in shapes:
                    if n not in (a, b):
                        shapes[n] = shapes[n].difference(disc).buffer(0)
                shapes[a] = unary_union([shapes[a], region]).buffer(0)
            else:
                disc = centre.buffer(length / 2 + 1.5)
                taken = disc.intersection(unary_union([shapes[a], shapes[b]]))
                shapes[a] = shapes[a].difference(disc).buffer(0)
                shapes[b] = shapes[b].difference(disc).buffer(0)
                shapes[third[1]] = unary_union([shapes[third[1]], taken]).buffer(0)
    for (a, b), length in sorted((sorted(p), n) for p, n in _touching(shapes).items()
                                 if n < MIN_SHARED):
        print(f"warning: {a}-{b} still touch along {length:.1f} px", file=sys.stderr)


def clean(shape: Any) -> Any:
    """A shape as the board file keeps it: on the tenth-of-a-pixel grid, without
    the slivers and spikes that cutting leaves."""
    parts = [p for p in STD.polygons(shapely.make_valid(shape)) if p.area > 1.0]
    grid = shapely.set_precision(unary_union(parts), 0.1)
    kept = [_despiked(p) for p in STD.polygons(shapely.make_valid(grid)) if p.area > 1.0]
    return unary_union([p for p in kept if p.is_valid and p.area > 1.0])


def _despiked(poly: Any) -> Any:
    """The polygon without spikes: ring points where the outline turns back on
    itself (less than 4 degrees between the edges in and out) are dropped."""
    import math

    def ring(coords: list[tuple[float, float]]) -> list[tuple[float, float]]:
        pts = coords[:-1]
        changed = True
        while changed and len(pts) > 3:
            changed = False
            for i in range(len(pts)):
                a, b, c = pts[i - 1], pts[i], pts[(i + 1) % len(pts)]
                u, v = (a[0] - b[0], a[1] - b[1]), (c[0] - b[0], c[1] - b[1])
                nu, nv = math.hypot(*u), math.hypot(*v)
                if nu == 0 or nv == 0 or abs(math.atan2(u[0] * v[1] - u[1] * v[0],
                                                        u[0] * v[0] + u[1] * v[1])) < 0.07:
                    del pts[i]
                    changed = True
                    break
        return pts

    outer = ring(list(poly.exterior.coords))
    holes = [h for h in (ring(list(r.coords)) for r in poly.interiors) if len(h) >= 3]
    return Polygon(outer, holes).buffer(0) if len(outer) >= 3 else Polygon()


def inside(point: list[float], shape: Any, margin: float = 3.0) -> list[float]:
    """``point``, or the nearest place ``margin`` px inside ``shape``."""
    if shape.buffer(-1.0).contains(Point(*point)):
        return point
    inner = shape.buffer(-margin)
    if inner.is_empty:
        inner = shape
    near = nearest_points(inner, Point(*point))[0]
    return [round(near.x, 1), round(near.y, 1)]


def part_overlaps(shapes: dict[str, Any], seeds: dict[str, Point]) -> None:
    """Where two shapes overlap (a spike left by the cutting), the overlap
    stays with the province whose seed is nearer."""
    names = sorted(shapes)
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            both = shapes[a].intersection(shapes[b])
            if both.area < 0.05:
                continue
            c = both.centroid
            loser = a if seeds[a].distance(c) > seeds[b].distance(c) else b
            shapes[loser] = clean(shapes[loser].difference(both.buffer(0.01)))


def as_written(shape: Any) -> Any:
    """The shape as its SVG path in board.json reads back (each ring in turn,
    even-odd, one decimal), the way the board's tests read it."""
    import re

    out: Any = Polygon()
    for ring in re.findall(r"M([^Z]*)Z", STD.svg_path(shape)):
        pts = [tuple(map(float, p.split())) for p in ring.split("L")]
        out = out.symmetric_difference(Polygon(pts).buffer(0))
    return out


def node_shared_edges(shapes: dict[str, Any]) -> None:
    """Each shape takes its neighbours' corners onto its own edges where they
    lie on them (within a rounding), so that two neighbours describe their
    boundary with the same points and the file's rounding cannot make them
    overlap."""
    names = sorted(shapes)
    for n in names:
        near = [shapes[m].boundary for m in names
                if m != n and shapes[m].intersects(shapes[n].buffer(1.0))]
        if near:
            shapes[n] = clean(shapely.snap(shapes[n], unary_union(near), 0.15))


def _everything(shapes: dict[str, Any]) -> Any:
    return unary_union(list(shapes.values()))


def borders_of(geo: dict[str, Any], shapes: dict[str, Any]) -> tuple[list[list[str]], set[str]]:
    """The borders ([a, b, land|sea|coast]) and the coastal land provinces."""
    is_sea = {e["abbr"]: e["kind"] == "sea" for e in geo["provinces"]}
    names = sorted(shapes)
    touching = _touching(shapes)
    near_sea = {n: {s for s in names if is_sea[s] and touching.get(frozenset((n, s)), 0)
                    >= MIN_SHARED} for n in names}
    coastal = {n for n in names if not is_sea[n] and near_sea[n]}
    out: dict[frozenset[str], str] = {}
    for pair, length in touching.items():
        a, b = sorted(pair)
        if length < MIN_SHARED:
            print(f"warning: {a}-{b} touch along {length:.1f} px only: no border",
                  file=sys.stderr)
            continue
        if is_sea[a] or is_sea[b]:
            out[pair] = "sea"
            continue
        line = shapes[a].boundary.intersection(shapes[b].buffer(0.3))
        both = near_sea[a] & near_sea[b]
        wet = any(line.distance(shapes[s]) < 1.5 for s in both)
        out[pair] = "coast" if wet else "land"
    for a, b, kind in geo.get("extra") or []:
        out[frozenset((a, b))] = kind
    for a, b in geo.get("cut") or []:
        out.pop(frozenset((a, b)), None)
    rows = sorted([*sorted(p), k] for p, k in out.items())
    return rows, coastal


def build(name: str, atlas_dir: Path | None) -> None:
    folder = VARIANTS / name
    geo = yaml.safe_load((folder / "geography.yaml").read_text(encoding="utf-8"))
    proj = Projection(geo)
    atlas = STD.load_atlas(atlas_dir)
    land = land_of(atlas, proj, geo)
    shapes, islands = shapes_of(geo, land, proj)
    for _ in range(2):
        mend_small_touches(shapes)
        shapes = {n: clean(g) for n, g in shapes.items()}  # as board.json will hold them
    islands = [g for g in (clean(g.difference(_everything(shapes))) for g in islands)
               if not g.is_empty]
    seeds = {e["abbr"]: Point(*proj.px(*e["at"])) for e in geo["provinces"]}
    for i, g in enumerate(islands):  # settled with the provinces, under names of their own
        shapes[f"~island{i + 1}"] = g
        seeds[f"~island{i + 1}"] = g.representative_point()
    part_overlaps(shapes, seeds)
    node_shared_edges(shapes)
    for _ in range(3):  # the shapes as the file gives them back, overlaps settled there
        shapes = {n: as_written(g) for n, g in shapes.items()}
        part_overlaps(shapes, seeds)
    islands = [g for n, g in sorted(shapes.items()) if n.startswith("~") and not g.is_empty]
    shapes = {n: g for n, g in shapes.items() if not n.startswith("~")}
    borders, coastal = borders_of(geo, shapes)
    source = (f"Built by scripts/build_diplomacy_variant_board.py from {name}/geography.yaml "
              "(pbmref's own) and Natural Earth 1:50m admin-0 countries (public domain), as "
              f"packed in the {STD.ATLAS_PACKAGE} npm package (ISC licence). See NOTICE in "
              "data/diplomacy.")
    provinces: dict[str, Any] = {}
    entries: dict[str, dict[str, Any]] = {}
    for e in geo["provinces"]:
        n = e["abbr"]
        terrain = "sea" if e["kind"] == "sea" else ("coast" if n in coastal else "land")
        provinces[n] = {"name": e["name"], "terrain": terrain, "supply_center": bool(e.get("sc")),
                        "home": None, "coasts": []}
        seed = proj.px(*e["at"])
        inner = shapes[n].buffer(-6)
        spot = inner.representative_point() if not inner.is_empty else \
            shapes[n].representative_point()
        entry: dict[str, Any] = {"label": [round(spot.x, 1), round(spot.y + 14, 1)]}
        if e.get("sc"):
            entry["sc"] = inside([round(seed[0], 1), round(seed[1], 1)], shapes[n], 5.0)
            entry["unit"] = [round(entry["sc"][0] + 4, 1), round(entry["sc"][1] - 14, 1)]
        else:
            entry["unit"] = [round(spot.x, 1), round(spot.y, 1)]
        if e["kind"] == "sea":
            entry["label"] = [round(spot.x, 1), round(spot.y + 16, 1)]
        entries[n] = entry
    islands_named = {e["abbr"] for e in geo["provinces"] if e.get("island")}
    room = {n: g.buffer(ISLAND_ROOM) if n in islands_named else g for n, g in shapes.items()}
    STD.layout(room, entries)
    STD.layout_air(room, entries)
    for n, entry in entries.items():
        for key in ("label", "unit"):
            entry[key] = inside(entry[key], room[n])
        if n in islands_named:
            entry["island"] = True  # its name and units may stand in the sea beside it
    board_provinces: dict[str, Any] = {}
    for e in geo["provinces"]:
        n = e["abbr"]
        board_provinces[n] = {"name": e["name"], "kind": provinces[n]["terrain"],
                              "path": STD.svg_path(shapes[n]), **entries[n]}
    board = {"_source": source, "size": [proj.size[0], proj.size[1]],
             "provinces": board_provinces,
             "impassable": {f"island{i + 1}": STD.svg_path(g) for i, g in enumerate(islands)},
             "lakes": []}
    data = {"_source": source, "provinces": provinces, "borders": borders}
    (folder / "map.json").write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    (folder / "board.json").write_text(json.dumps(board, indent=1, sort_keys=True) + "\n")
    print(f"{name}: {len(provinces)} provinces, {len(borders)} borders, "
          f"{len(islands)} impassable islands; board {proj.size[0]:.0f}x{proj.size[1]} px")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("name", help="the variant's folder (with a geography.yaml)")
    ap.add_argument("--atlas", type=Path, help="a folder with the atlas's countries-50m.json")
    args = ap.parse_args(argv)
    sys.path.insert(0, str(ROOT / "src"))
    build(args.name, args.atlas)
    return 0


if __name__ == "__main__":
    sys.exit(main())

