#!/usr/bin/env python3
"""Build the geographic Diplomacy board (``src/pbmref/data/diplomacy/board.json``).

The shapes of the 75 provinces of the standard board are cut from Natural
Earth's 1:50m admin-0 countries (public domain), as packed in the
``world-atlas`` TopoJSON files of the npm registry (version pinned below,
ISC licence). Nothing is traced from any Diplomacy map.

How the board is made (everything after the projection is in board pixels):

1. The countries are joined into one land mass (lakes filled), three bridges
   are added where the board joins land that real geography keeps apart by a
   narrow strait (Jutland-Funen, Funen-Zealand, and Zealand-Scania, so that
   Denmark touches Sweden and the Skagerrak does not touch the Baltic), and
   the Sea of Marmara is closed off by gates at the Bosphorus and the
   Dardanelles and filled (Constantinople then spans the straits; the filled
   water is kept as a lake drawn on top).
2. Land and sea are projected (Lambert conformal conic, standard parallels
   38N and 62N, centred on 15E 50N), the crowded middle of Europe stretched
   a little at the expense of the Atlantic, Russia and Africa (``WARP_X``,
   ``WARP_Y``, as on the printed board), clipped to the board's frame, and
   islands smaller than ``ISLAND_MIN`` dropped.
3. Land is cut into provinces by dividing lines: real country borders where
   they match the board (Spain-Portugal, Norway-Sweden, Switzerland ...) and
   hand-placed lines (``LAND_LINES``, longitude/latitude) elsewhere; the sea is
   cut by ``SEA_LINES``. Each piece goes to the province whose seed point lies
   in it; a piece without a seed (an island, a sliver) goes to the province of
   the nearest coast (an island), or to the neighbour it shares most boundary
   with (a sliver). The finished shapes are simplified together (coverage
   simplification), so neighbours keep exactly the same boundary.
4. Each province gets one SVG path, its supply-centre dot (at the city),
   its unit's place (one per coast for the split coasts, with the coasts'
   labels), its name's place, a place for a dirigible above the unit (DD6)
   and one aside for a dislodged unit: hand-placed, then moved the least
   needed to keep names clear of every unit, dot and coast (``layout``).

Run it again after changing the lines or seeds, then run the shape test:

    .venv/bin/python scripts/build_diplomacy_board.py [--atlas DIR] [--debug OUT.svg]
    .venv/bin/python -m pytest tests/diplomacy/test_board_shapes.py -q

Without ``--atlas`` the script runs ``npm pack world-atlas@2.0.2`` in a
temporary folder (needs npm). ``--debug`` also writes a picture with the
pieces, lines and seeds, for adjusting the data.
"""

from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import shapely
from shapely import affinity
from shapely.geometry import (
    GeometryCollection,
    LineString,
    MultiLineString,
    MultiPolygon,
    Point,
    Polygon,
    box,
)
from shapely.ops import linemerge, nearest_points, polygonize, unary_union
from shapely.validation import make_valid

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "src" / "pbmref" / "data" / "diplomacy" / "variants" / "standard" / "board.json"
ATLAS_PACKAGE = "world-atlas@2.0.2"
ATLAS_FILE = "countries-50m.json"

LonLat = tuple[float, float]

# --------------------------------------------------------------------------- frame

# Lambert conformal conic: standard parallels, origin latitude, central meridian.
LCC = (38.0, 62.0, 50.0, 15.0)
# The frame in projected units (earth radius 1), and the board's width in pixels.
FRAME = (-0.37, -0.29, 0.37, 0.415)
WIDTH = 1000.0

ISLAND_MIN = 30.0  # px^2: smaller islands are left out (about 650 km^2)
LAKE_MAX = 3000.0  # px^2: water enclosed by land and smaller than this is filled
SIMPLIFY = 1.0  # px: tolerance of the simplification of the finished shapes
SNAP = 18.0  # px: how far a line's end may be from the line it is meant to meet
OVERSHOOT = 1.5  # px: lines are drawn this far past the line they meet
SLIVER = 40.0  # px^2: seedless pieces smaller than this join their neighbour

# --------------------------------------------------------------------------- changes to geography

# Land added where the board joins what a strait separates (lon/lat polygons).
BRIDGES: dict[str, list[LonLat]] = {
    "little belt": [(9.50, 55.45), (9.88, 55.45), (9.88, 55.56), (9.50, 55.56)],
    "great belt": [(10.70, 55.25), (11.25, 55.25), (11.25, 55.38), (10.70, 55.38)],
    "oresund": [(12.50, 56.06), (12.50, 55.95), (12.52, 55.72), (13.05, 55.72), (12.95, 55.85),
                (12.85, 55.95), (12.72, 56.08), (12.62, 56.14)],
}

# Water closed off by gate lines and filled: name -> (a point in it, gates).
FILLS: dict[str, tuple[LonLat, list[list[LonLat]]]] = {
    "marmara": (
        (28.0, 40.75),
        [
            [(26.33, 40.22), (26.52, 40.15)],  # the Dardanelles at Chanak
            [(28.95, 41.10), (29.16, 41.10)],  # the Bosphorus
        ],
    ),
}

# --------------------------------------------------------------------------- dividing lines

# Real borders used as province borders, as pairs of world-atlas country names.
COUNTRY_BORDERS: list[tuple[str, str]] = [
    ("Spain", "Portugal"),
    ("Spain", "France"),
    ("Andorra", "France"),
    ("France", "Belgium"),
    ("Belgium", "Luxembourg"),
    ("Luxembourg", "Germany"),
    ("Belgium", "Germany"),
    ("Belgium", "Netherlands"),
    ("Netherlands", "Germany"),
    ("France", "Germany"),
    ("Switzerland", "France"),
    ("Switzerland", "Germany"),
    ("Switzerland", "Austria"),
    ("Switzerland", "Liechtenstein"),
    ("Switzerland", "Italy"),
    ("France", "Italy"),
    ("Denmark", "Germany"),
    ("Norway", "Sweden"),
    ("Sweden", "Finland"),
    ("Norway", "Finland"),
    ("Norway", "Russia"),
    ("Finland", "Russia"),
    ("Estonia", "Russia"),
    ("Latvia", "Russia"),
    ("Latvia", "Belarus"),
    ("Germany", "Czechia"),
    ("Czechia", "Poland"),
    ("Austria", "Czechia"),
    ("Czechia", "Slovakia"),
    ("Slovakia", "Poland"),
    ("Austria", "Germany"),
    ("Austria", "Slovenia"),
    ("Austria", "Hungary"),
    ("Hungary", "Slovenia"),
    ("Hungary", "Croatia"),
    ("Croatia", "Serbia"),
    ("Bosnia and Herz.", "Serbia"),
    ("Montenegro", "Serbia"),
    ("Montenegro", "Kosovo"),
    ("Albania", "Montenegro"),
    ("Albania", "Kosovo"),
    ("Albania", "Macedonia"),
    ("Albania", "Greece"),
    ("Macedonia", "Greece"),
    ("Serbia", "Bulgaria"),
    ("Macedonia", "Bulgaria"),
    ("Romania", "Serbia"),
    ("Romania", "Bulgaria"),
    ("Bulgaria", "Turkey"),
    ("Greece", "Turkey"),
    ("Algeria", "Tunisia"),
    ("Libya", "Tunisia"),
    ("Algeria", "Libya"),
]

# Junctions shared by several hand-placed land lines (lon, lat).
J: dict[str, LonLat] = {
    # Britain
    "cly-edi-lvp": (-3.60, 55.45),
    "edi-lvp-yor": (-2.70, 55.15),
    "lvp-wal-yor": (-2.20, 53.05),
    "lon-wal-yor": (-1.30, 52.40),
    # France
    "bur-gas-mar": (3.20, 45.50),
    "bur-gas-par": (2.20, 46.75),
    "bre-gas-par": (0.10, 47.40),
    "bur-par-pic": (3.45, 49.20),
    "bre-par-pic": (0.75, 49.05),
    # Germany and Poland
    "kie-mun-ruh": (8.70, 51.10),
    "ber-kie-mun": (11.50, 52.10),
    "ber-mun-sil": (14.95, 51.45),
    "ber-pru-sil": (16.40, 52.85),
    "pru-sil-war": (18.00, 52.55),
    "gal-sil-war": (19.40, 50.30),
    "lvn-pru-war": (23.20, 54.70),
    # Russia
    "lvn-mos-war": (26.63, 55.67),
    "mos-ukr-war": (28.80, 51.80),
    "gal-ukr-war": (24.30, 50.70),
    "gal-rum-ukr": (26.60, 48.30),
    "mos-sev-ukr": (37.50, 49.80),
    "rum-sev-ukr": (29.00, 47.50),
    "bud-gal-rum": (25.30, 47.75),
    # Italy and the Alps
    "pie-tyr-ven": (10.55, 45.95),
    "pie-tus-ven": (10.35, 44.65),
    "rom-tus-ven": (12.10, 43.75),
    "apu-rom-ven": (13.70, 42.25),
    "apu-nap-rom": (14.70, 41.35),
    "tri-tyr-ven": (13.25, 46.45),
    # Turkey
    "ank-con-smy": (30.20, 40.70),
    "ank-arm-smy": (35.50, 39.00),
    "arm-smy-syr": (37.00, 37.60),
}

# Hand-placed land lines: (what it divides, points). A point in the sea lets
# the line cross the coast; an end on land is snapped onto the line it meets.
LAND_LINES: list[tuple[str, list[LonLat]]] = [
    # Britain
    ("cly/edi", [(-4.00, 58.75), (-4.30, 57.60), (-4.00, 56.70), (-3.85, 56.00), J["cly-edi-lvp"]]),
    ("cly/lvp", [J["cly-edi-lvp"], (-4.50, 55.20), (-5.20, 55.15)]),
    ("edi/lvp", [J["cly-edi-lvp"], J["edi-lvp-yor"]]),
    ("edi/yor", [J["edi-lvp-yor"], (-2.10, 55.55), (-1.60, 55.80)]),
    ("lvp/yor", [J["edi-lvp-yor"], (-2.40, 54.40), (-2.10, 53.60), J["lvp-wal-yor"]]),
    ("lvp/wal", [J["lvp-wal-yor"], (-3.00, 53.15), (-3.35, 53.45)]),
    ("wal/yor", [J["lvp-wal-yor"], J["lon-wal-yor"]]),
    ("lon/yor", [J["lon-wal-yor"], (-0.20, 52.65), (0.35, 52.95)]),
    ("lon/wal", [J["lon-wal-yor"], (-1.60, 51.60), (-1.45, 50.55)]),
    # France
    ("bur/mar", [(6.10, 46.25), (5.30, 45.60), (4.30, 45.50), J["bur-gas-mar"]]),
    ("gas/mar", [(2.20, 42.45), (2.20, 43.30), (2.80, 44.50), J["bur-gas-mar"]]),
    ("bur/gas", [J["bur-gas-mar"], (2.60, 46.10), J["bur-gas-par"]]),
    ("gas/par", [J["bur-gas-par"], (1.00, 47.10), J["bre-gas-par"]]),
    ("bre/gas", [J["bre-gas-par"], (-1.20, 47.30), (-2.50, 47.05)]),
    ("bur/par", [J["bur-gas-par"], (3.10, 47.60), (3.50, 48.50), J["bur-par-pic"]]),
    ("par/pic", [J["bur-par-pic"], (2.30, 49.15), (1.30, 49.15), J["bre-par-pic"]]),
    ("bre/par", [J["bre-par-pic"], (0.40, 48.20), J["bre-gas-par"]]),
    ("bre/pic", [J["bre-par-pic"], (0.40, 49.35), (0.00, 49.60)]),
    ("bur/pic", [J["bur-par-pic"], (3.90, 49.70), (4.15, 49.98)]),
    # Germany
    ("kie/ruh", [(7.05, 52.30), (7.90, 51.85), J["kie-mun-ruh"]]),
    ("kie/mun", [J["kie-mun-ruh"], (10.00, 51.60), J["ber-kie-mun"]]),
    ("ber/kie", [J["ber-kie-mun"], (11.30, 53.10), (11.10, 54.15)]),
    ("mun/ruh", [J["kie-mun-ruh"], (8.60, 50.10), (8.20, 48.97)]),
    ("mun/sil", [(14.82, 50.87), J["ber-mun-sil"]]),
    ("ber/mun", [J["ber-mun-sil"], (13.20, 51.70), J["ber-kie-mun"]]),
    ("ber/sil", [J["ber-mun-sil"], (15.60, 52.20), J["ber-pru-sil"]]),
    ("pru/sil", [J["ber-pru-sil"], J["pru-sil-war"]]),
    ("ber/pru", [J["ber-pru-sil"], (16.70, 53.60), (16.90, 54.80)]),
    ("sil/war", [J["pru-sil-war"], (18.70, 51.50), J["gal-sil-war"]]),
    ("gal/sil", [J["gal-sil-war"], (18.80, 50.05), (18.35, 49.95)]),
    ("pru/war", [J["pru-sil-war"], (19.50, 53.00), (21.50, 53.35), (22.60, 54.00), J["lvn-pru-war"]]),
    ("lvn/pru", [J["lvn-pru-war"], (22.30, 55.10), (21.30, 55.45), (20.90, 55.50)]),
    # Russia, Galicia and Rumania
    ("lvn/war", [J["lvn-pru-war"], (24.50, 55.20), J["lvn-mos-war"]]),
    ("mos/stp", [(27.35, 57.52), (30.00, 57.80), (34.00, 58.50), (40.00, 59.50), (50.00, 61.00),
                 (70.00, 62.00)]),
    ("mos/war", [J["lvn-mos-war"], (27.20, 54.50), (27.80, 53.20), J["mos-ukr-war"]]),
    ("ukr/war", [J["mos-ukr-war"], (26.50, 51.10), J["gal-ukr-war"]]),
    ("gal/war", [J["gal-ukr-war"], (22.80, 50.65), (21.00, 50.40), J["gal-sil-war"]]),
    ("gal/ukr", [J["gal-ukr-war"], (25.30, 49.60), J["gal-rum-ukr"]]),
    ("mos/ukr", [J["mos-ukr-war"], (31.50, 52.10), (34.00, 51.30), J["mos-sev-ukr"]]),
    ("sev/ukr", [J["mos-sev-ukr"], (35.00, 48.50), (32.00, 47.80), J["rum-sev-ukr"]]),
    ("mos/sev", [J["mos-sev-ukr"], (40.50, 50.20), (46.00, 51.00), (70.00, 53.00)]),
    ("rum/ukr", [J["rum-sev-ukr"], (27.80, 48.10), J["gal-rum-ukr"]]),
    ("rum/sev", [J["rum-sev-ukr"], (29.80, 46.60), (30.60, 45.85)]),
    ("gal/rum", [J["gal-rum-ukr"], J["bud-gal-rum"]]),
    ("bud/gal", [J["bud-gal-rum"], (24.40, 47.95), (23.40, 48.30), (22.60, 48.95)]),
    ("bud/rum", [J["bud-gal-rum"], (25.90, 47.10), (26.20, 46.20), (25.90, 45.50), (25.00, 45.40),
                 (23.50, 45.35), (22.55, 44.65)]),
    ("bud/ser", [(19.10, 44.90), (20.40, 44.85), (21.36, 44.77)]),
    ("arm/sev", [(41.40, 41.70), (41.55, 41.52), (42.80, 41.45), (43.50, 41.10), (44.50, 40.00),
                 (45.50, 39.50), (60.00, 39.00)]),
    # Austria-Hungary
    ("tyr/vie", [(14.60, 48.62), (14.40, 47.80), (14.30, 47.10), (14.60, 46.58)]),
    ("bud/vie", [(17.16, 48.01), (18.20, 48.40), (19.40, 48.90), (20.30, 49.30)]),
    ("tri/ven", [J["tri-tyr-ven"], (13.45, 46.00), (13.45, 45.78), (13.40, 45.55)]),
    ("tri/tyr", [J["tri-tyr-ven"], (13.71, 46.52)]),
    ("tyr/ven", [J["pie-tyr-ven"], (11.20, 45.85), (11.80, 46.05), (12.60, 46.45), J["tri-tyr-ven"]]),
    # Italy
    ("pie/tyr", [J["pie-tyr-ven"], (10.30, 46.25), (10.15, 46.35)]),
    ("pie/ven", [J["pie-tyr-ven"], (10.45, 45.30), J["pie-tus-ven"]]),
    ("pie/tus", [J["pie-tus-ven"], (9.95, 44.30), (9.75, 44.00)]),
    ("tus/ven", [J["pie-tus-ven"], (11.40, 44.15), J["rom-tus-ven"]]),
    ("rom/ven", [J["rom-tus-ven"], (13.00, 43.10), J["apu-rom-ven"]]),
    ("apu/ven", [J["apu-rom-ven"], (14.20, 42.45), (14.40, 42.60)]),
    ("apu/rom", [J["apu-rom-ven"], (14.30, 41.75), J["apu-nap-rom"]]),
    ("nap/rom", [J["apu-nap-rom"], (14.10, 41.25), (13.75, 41.10)]),
    ("apu/nap", [J["apu-nap-rom"], (15.50, 40.95), (16.20, 40.45), (16.75, 40.00)]),
    ("rom/tus", [J["rom-tus-ven"], (11.70, 42.90), (11.05, 42.30)]),
    # Balkans
    ("bul/gre", [(22.95, 41.34), (23.50, 41.00), (23.72, 40.76), (23.85, 40.60)]),
    # Turkey and Syria
    ("con/smy", [J["ank-con-smy"], (29.50, 40.72), (29.00, 40.75), (28.00, 40.70), (27.20, 40.60),
                 (26.80, 40.47), (26.60, 40.33), (26.45, 40.22), (26.30, 40.05)]),
    ("ank/con", [J["ank-con-smy"], (30.50, 41.30)]),
    ("ank/smy", [J["ank-con-smy"], (31.50, 40.00), (33.50, 39.30), J["ank-arm-smy"]]),
    ("ank/arm", [J["ank-arm-smy"], (36.50, 40.30), (37.20, 41.05), (37.30, 41.45)]),
    ("arm/smy", [J["ank-arm-smy"], (36.80, 38.30), J["arm-smy-syr"]]),
    ("smy/syr", [J["arm-smy-syr"], (36.50, 37.00), (35.60, 36.45)]),
    ("arm/syr", [J["arm-smy-syr"], (38.50, 37.30), (41.00, 37.20), (60.00, 37.00)]),
    # Denmark-Sweden across the Oresund bridge
    ("den/swe", [(12.50, 56.16), (12.62, 56.05), (12.70, 55.93), (12.76, 55.80), (12.80, 55.65)]),
]

# Junctions of the sea lines.
SJ: dict[str, LonLat] = {
    "eng-iri-mao": (-6.20, 49.60),
    "iri-mao-nao": (-10.50, 50.80),
}

# Hand-placed sea lines; ends on land cross the coast, ends at sea are snapped.
SEA_LINES: list[tuple[str, list[LonLat]]] = [
    ("nao/nwg", [(-4.90, 58.45), (-8.50, 61.00), (-12.00, 63.80), (-12.00, 67.00), (-11.00, 80.00)]),
    ("nth/nwg", [(-3.30, 58.45), (-1.00, 60.80), (4.80, 61.60), (5.60, 61.60)]),
    ("bar/nwg", [(25.00, 70.50), (24.00, 72.50), (22.00, 80.00)]),
    ("nth/ska", [(7.30, 58.30), (8.00, 57.60), (8.90, 57.00)]),
    ("hel/nth", [(6.30, 53.30), (6.30, 54.00), (7.40, 55.00), (8.70, 55.60)]),
    ("eng/nth", [(1.20, 51.30), (3.05, 51.20)]),
    ("eng/mao", [(-4.60, 48.40), (-5.50, 49.20), SJ["eng-iri-mao"]]),
    ("eng/iri", [SJ["eng-iri-mao"], (-5.60, 50.10)]),
    ("iri/mao", [SJ["eng-iri-mao"], (-8.00, 50.50), SJ["iri-mao-nao"]]),
    ("mao/nao", [SJ["iri-mao-nao"], (-20.00, 50.00), (-40.00, 48.00)]),
    ("iri/nao (south)", [SJ["iri-mao-nao"], (-9.30, 52.10)]),
    ("iri/nao (north)", [(-6.00, 54.80), (-5.30, 54.75), (-5.05, 54.80)]),
    ("mao/wes", [(-4.90, 36.65), (-5.00, 35.20)]),
    ("lyo/wes", [(0.60, 40.95), (4.00, 40.80), (8.40, 40.70)]),
    ("lyo/tys (Bonifacio)", [(9.15, 41.50), (9.20, 41.15)]),
    ("lyo/tys", [(9.40, 42.80), (10.70, 43.10)]),
    ("tys/wes", [(9.30, 39.30), (9.55, 37.00)]),
    ("ion/tys", [(10.90, 36.90), (12.60, 37.70)]),
    ("ion/tys (Messina)", [(15.45, 38.18), (15.75, 38.15)]),
    ("adr/ion", [(18.20, 40.10), (19.60, 40.35)]),
    ("aeg/ion", [(22.95, 36.60), (23.65, 35.45)]),
    ("eas/ion", [(23.65, 35.45), (23.30, 33.50), (23.00, 31.80)]),
    ("aeg/eas", [(26.00, 35.20), (27.30, 35.80), (27.70, 36.55), (28.70, 37.00)]),
    ("bal/bot", [(18.50, 60.05), (19.50, 59.90), (21.00, 59.35), (23.60, 58.95)]),
]

# --------------------------------------------------------------------------- provinces

# Per province: seed (a point inside it, also where its name goes), the unit's
# place, the supply centre (the city), and extra seeds for islands. Split
# coasts have a unit place and a label place per coast.
PROVINCES: dict[str, dict[str, Any]] = {
    # seas
    "nao": {"seed": (-22.0, 57.0), "unit": (-18.0, 54.0)},
    "nwg": {"seed": (2.0, 68.0), "unit": (4.0, 65.5)},
    "bar": {"seed": (38.0, 71.5), "unit": (42.0, 70.0)},
    "nth": {"seed": (2.5, 56.8), "unit": (3.5, 55.3)},
    "hel": {"seed": (7.25, 54.35), "unit": (8.0, 54.05)},
    "ska": {"seed": (9.0, 58.0), "unit": (10.5, 57.9)},
    "bal": {"seed": (17.5, 55.9), "unit": (18.5, 55.0)},
    "bot": {"seed": (20.3, 62.2), "unit": (21.0, 61.0)},
    "eng": {"seed": (-3.5, 49.9), "unit": (-1.5, 50.1)},
    "iri": {"seed": (-6.8, 51.5), "unit": (-5.5, 52.3)},
    "mao": {"seed": (-12.5, 44.5), "unit": (-9.5, 45.6)},
    "wes": {"seed": (3.5, 38.5), "unit": (5.5, 38.0)},
    "lyo": {"seed": (5.0, 42.4), "unit": (6.0, 41.7)},
    "tys": {"seed": (11.5, 40.3), "unit": (12.5, 39.3)},
    "ion": {"seed": (19.0, 36.6), "unit": (18.0, 38.0)},
    "adr": {"seed": (15.2, 43.2), "unit": (16.2, 42.6)},
    "aeg": {"seed": (25.0, 38.8), "unit": (25.3, 37.5)},
    "eas": {"seed": (30.5, 34.2), "unit": (32.0, 33.8)},
    "bla": {"seed": (34.0, 43.7), "unit": (35.5, 42.8)},
    # Britain
    "cly": {"seed": (-5.0, 57.2), "unit": (-4.5, 56.3)},
    "edi": {"seed": (-3.4, 57.45), "unit": (-3.0, 56.55), "sc": (-3.19, 55.95)},
    "lvp": {"seed": (-2.75, 54.45), "unit": (-2.9, 53.9), "sc": (-2.98, 53.41)},
    "yor": {"seed": (-1.0, 54.3), "unit": (-1.3, 53.4)},
    "wal": {"seed": (-3.8, 51.95), "unit": (-3.3, 52.5), "islands": [(-4.3, 53.27)]},
    "lon": {"seed": (-1.1, 52.0), "unit": (0.55, 51.8), "sc": (-0.13, 51.51)},
    # France, Iberia, Low Countries
    "bre": {"seed": (-3.1, 48.25), "unit": (-1.2, 48.1), "sc": (-4.49, 48.39)},
    "pic": {"seed": (2.9, 49.9), "unit": (1.6, 49.7)},
    "par": {"seed": (1.6, 48.2), "unit": (2.4, 47.8), "sc": (2.35, 48.86)},
    "bur": {"seed": (4.8, 47.2), "unit": (4.5, 46.4)},
    "gas": {"seed": (0.0, 44.6), "unit": (0.5, 45.5)},
    "mar": {"seed": (5.3, 44.6), "unit": (4.3, 43.9), "sc": (5.37, 43.30)},
    "spa": {"seed": (-4.0, 40.6), "unit": (-3.0, 39.6), "sc": (-3.70, 40.42),
            "coasts": {"nc": {"unit": (-6.0, 42.85), "label": (-4.6, 43.25)},
                       "sc": {"unit": (-3.8, 37.45), "label": (-2.3, 36.95)}}},
    "por": {"seed": (-7.9, 40.3), "unit": (-8.0, 39.2), "sc": (-9.0, 38.80)},
    "bel": {"seed": (4.6, 50.4), "unit": (5.3, 50.2), "sc": (4.35, 50.85)},
    "hol": {"seed": (5.7, 52.35), "unit": (6.1, 52.75), "sc": (4.90, 52.37)},
    # Germany, Scandinavia, Russia
    "ruh": {"seed": (7.3, 50.7), "unit": (7.4, 51.3)},
    "kie": {"seed": (9.3, 52.6), "unit": (9.6, 53.4), "sc": (10.13, 54.32)},
    "ber": {"seed": (13.2, 53.3), "unit": (12.7, 52.5), "sc": (13.40, 52.52),
            "islands": [(13.4, 54.45)]},
    "mun": {"seed": (10.9, 49.6), "unit": (10.8, 48.6), "sc": (11.58, 48.14)},
    "sil": {"seed": (16.6, 51.6), "unit": (17.5, 51.0)},
    "pru": {"seed": (20.5, 54.15), "unit": (21.8, 54.4)},
    "den": {"seed": (9.2, 56.3), "unit": (9.3, 55.85), "sc": (12.57, 55.68),
            "islands": [(14.9, 55.1)]},
    "swe": {"seed": (15.0, 62.8), "unit": (15.0, 60.0), "sc": (18.07, 59.33),
            "islands": [(18.5, 57.5), (16.6, 56.7)]},
    "nwy": {"seed": (9.0, 61.6), "unit": (10.5, 62.8), "sc": (10.75, 59.91)},
    "fin": {"seed": (26.0, 63.0), "unit": (26.5, 61.7), "sc": None,
            "islands": [(20.0, 60.2)]},
    "stp": {"seed": (35.0, 63.8), "unit": (36.0, 62.0), "sc": (30.30, 59.94),
            "coasts": {"nc": {"unit": (35.0, 67.8), "label": (37.5, 68.6)},
                       "sc": {"unit": (29.9, 60.45), "label": (28.4, 59.75)}}},
    "mos": {"seed": (38.0, 54.3), "unit": (40.5, 56.0), "sc": (37.62, 55.76)},
    "lvn": {"seed": (25.8, 57.0), "unit": (25.0, 58.4), "sc": None,
            "islands": [(22.5, 58.4), (22.7, 58.9)]},
    "war": {"seed": (21.8, 52.0), "unit": (23.5, 52.7), "sc": (21.01, 52.23)},
    "ukr": {"seed": (31.0, 49.6), "unit": (33.0, 50.1)},
    "sev": {"seed": (40.0, 47.2), "unit": (38.5, 45.8), "sc": (33.52, 44.60)},
    "fin_": {},
    # Austria-Hungary and the Balkans
    "boh": {"seed": (14.2, 49.9), "unit": (15.8, 49.5)},
    "tyr": {"seed": (11.8, 47.35), "unit": (12.8, 46.8)},
    "vie": {"seed": (15.4, 47.8), "unit": (15.5, 47.1), "sc": (16.37, 48.21)},
    "gal": {"seed": (22.6, 49.9), "unit": (24.5, 49.4)},
    "bud": {"seed": (20.5, 47.5), "unit": (22.5, 46.8), "sc": (19.04, 47.50)},
    "tri": {"seed": (16.3, 44.9), "unit": (17.8, 44.0), "sc": (13.77, 45.65)},
    "ser": {"seed": (21.0, 43.3), "unit": (21.8, 43.75), "sc": (20.46, 44.82)},
    "alb": {"seed": (20.0, 41.3), "unit": (20.1, 40.5)},
    "gre": {"seed": (21.8, 39.5), "unit": (22.3, 38.5), "sc": (23.73, 37.98)},
    "bul": {"seed": (24.8, 42.8), "unit": (25.2, 42.2), "sc": (23.32, 42.70),
            "coasts": {"ec": {"unit": (27.3, 42.9), "label": (28.2, 43.0)},
                       "sc": {"unit": (25.2, 41.25), "label": (24.9, 40.85)}}},
    "rum": {"seed": (26.0, 44.75), "unit": (27.2, 46.5), "sc": (26.10, 44.43)},
    "con": {"seed": (26.6, 41.95), "unit": (28.5, 41.25), "sc": (28.90, 41.12)},
    "ank": {"seed": (33.0, 40.6), "unit": (35.0, 41.0), "sc": (32.86, 39.93)},
    "smy": {"seed": (29.8, 38.7), "unit": (31.8, 37.9), "sc": (27.14, 38.42),
            "islands": [(28.0, 36.2), (26.3, 39.2)]},
    "arm": {"seed": (40.6, 39.3), "unit": (39.4, 40.1)},
    "syr": {"seed": (37.6, 34.5), "unit": (38.3, 35.6)},
    # Italy and the Alps
    "swi": {"seed": (8.2, 46.75)},
    "pie": {"seed": (8.3, 45.5), "unit": (8.0, 44.8)},
    "ven": {"seed": (11.0, 45.6), "unit": (11.8, 45.0), "sc": (12.20, 45.50)},
    "tus": {"seed": (10.9, 43.55), "unit": (11.45, 42.85)},
    "rom": {"seed": (12.7, 42.35), "unit": (13.1, 41.8), "sc": (12.50, 41.90)},
    "apu": {"seed": (16.2, 41.05), "unit": (17.0, 40.6)},
    "nap": {"seed": (16.0, 39.4), "unit": (15.2, 40.5), "sc": (14.27, 40.85)},
    # North Africa
    "naf": {"seed": (1.0, 34.5), "unit": (-2.5, 34.0)},
    "tun": {"seed": (9.0, 34.3), "unit": (9.6, 35.4), "sc": (10.10, 36.75)},
}
PROVINCES.pop("fin_")

# Land that belongs to no province: drawn, never entered.
IMPASSABLE: dict[str, list[LonLat]] = {
    "ireland": [(-8.0, 53.3)],
    "iceland": [(-19.0, 64.8)],
    "corsica": [(9.1, 42.1)],
    "sardinia": [(9.0, 40.0)],
    "sicily": [(14.2, 37.5)],
    "crete": [(24.9, 35.2)],
    "cyprus": [(33.2, 35.0)],
    "mallorca": [(2.95, 39.6)],
}

# --------------------------------------------------------------------------- projection


def lcc_projector(lat1: float, lat2: float, lat0: float, lon0: float):  # type: ignore[no-untyped-def]
    """Lambert conformal conic on the unit sphere: (lon, lat) degrees -> (x, y)."""
    p1, p2, p0, l0 = (math.radians(v) for v in (lat1, lat2, lat0, lon0))
    n = math.log(math.cos(p1) / math.cos(p2)) / math.log(
        math.tan(math.pi / 4 + p2 / 2) / math.tan(math.pi / 4 + p1 / 2)
    )
    f = math.cos(p1) * math.tan(math.pi / 4 + p1 / 2) ** n / n
    rho0 = f / math.tan(math.pi / 4 + p0 / 2) ** n

    def project(lon: float, lat: float) -> tuple[float, float]:
        lat = max(min(lat, 89.0), -89.0)
        rho = f / math.tan(math.pi / 4 + math.radians(lat) / 2) ** n
        theta = n * (math.radians(lon) - l0)
        return rho * math.sin(theta), rho0 - rho * math.cos(theta)

    return project


_PROJECT = lcc_projector(*LCC)
SCALE = WIDTH / (FRAME[2] - FRAME[0])
HEIGHT = round((FRAME[3] - FRAME[1]) * SCALE)



# Like the printed board, the crowded middle of Europe is drawn larger than the
# Atlantic, Russia and Africa: each axis is stretched by a smooth bell-shaped
# factor (centre in frame pixels, spread, extra magnification), the frame's
# edges staying where they are.
WARP_X = (410.0, 250.0, 1.0)
WARP_Y = (590.0, 250.0, 0.6)


def _warp_axis(v: float, size: float, centre: float, spread: float, extra: float) -> float:
    def integral(t: float) -> float:
        return t + extra * spread * math.sqrt(math.pi) / 2 * math.erf((t - centre) / spread)

    return (integral(v) - integral(0.0)) / (integral(size) - integral(0.0)) * size


def px(lon: float, lat: float) -> tuple[float, float]:
    """Board pixels (x east, y south) of a longitude/latitude."""
    x, y = _PROJECT(lon, lat)
    x, y = (x - FRAME[0]) * SCALE, (FRAME[3] - y) * SCALE
    return _warp_axis(x, WIDTH, *WARP_X), _warp_axis(y, HEIGHT, *WARP_Y)


def px_line(points: Sequence[LonLat]) -> LineString:
    """A lon/lat line in board pixels, bent by the projection and the warp."""
    dense = LineString(points).segmentize(0.2)
    return LineString([px(*p) for p in dense.coords])


def project_geom(geom: Any) -> Any:
    """Project a lon/lat shapely geometry to board pixels."""
    import shapely

    return shapely.transform(geom, lambda c: _project_array(c))


def _project_array(coords: Any) -> Any:
    import numpy as np

    out = np.empty_like(coords)
    for i, (lon, lat) in enumerate(coords):
        out[i] = px(lon, lat)
    return out


# --------------------------------------------------------------------------- topology


class Atlas:
    """The countries of a world-atlas TopoJSON file, as lon/lat geometries."""

    def __init__(self, topo: dict[str, Any]) -> None:
        (sx, sy), (tx, ty) = topo["transform"]["scale"], topo["transform"]["translate"]
        self.arcs: list[list[LonLat]] = []
        for arc in topo["arcs"]:
            x = y = 0
            pts = []
            for dx, dy in arc:
                x += dx
                y += dy
                pts.append((x * sx + tx, y * sy + ty))
            self.arcs.append(pts)
        self.geometries: dict[str, Any] = {}
        self.arc_sets: dict[str, set[int]] = {}
        for g in topo["objects"]["countries"]["geometries"]:
            name = g.get("properties", {}).get("name")
            if not name or g["type"] not in ("Polygon", "MultiPolygon"):
                continue
            polys = [g["arcs"]] if g["type"] == "Polygon" else g["arcs"]
            shapes = [Polygon(self._ring(p[0]), [self._ring(r) for r in p[1:]]) for p in polys]
            self.geometries[name] = make_valid(MultiPolygon(shapes))
            self.arc_sets[name] = {
                i if i >= 0 else ~i for p in polys for r in p for i in r
            }

    def _ring(self, indexes: Iterable[int]) -> list[LonLat]:
        pts: list[LonLat] = []
        for i in indexes:
            arc = self.arcs[i] if i >= 0 else self.arcs[~i][::-1]
            pts.extend(arc if not pts else arc[1:])
        # The rings are spherical: an edge never spans more than 180 degrees of
        # longitude (Russia's rings cross the antimeridian). Unwrap them so the
        # planar polygon is the same region; see Board.land_and_sea for the copies.
        out = [pts[0]]
        for lon, lat in pts[1:]:
            prev = out[-1][0]
            while lon - prev > 180:
                lon -= 360
            while lon - prev < -180:
                lon += 360
            out.append((lon, lat))
        return out

    def border(self, a: str, b: str) -> Any:
        """The shared border of two countries as lon/lat lines."""
        if a not in self.arc_sets or b not in self.arc_sets:
            raise SystemExit(f"no country named {a if a not in self.arc_sets else b!r}")
        shared = sorted(self.arc_sets[a] & self.arc_sets[b])
        if not shared:
            raise SystemExit(f"{a} and {b} share no border in the atlas")
        return linemerge(MultiLineString([self.arcs[i] for i in shared]))


def load_atlas(folder: Path | None) -> Atlas:
    if folder is not None:
        return Atlas(json.loads((folder / ATLAS_FILE).read_text(encoding="utf-8")))
    with tempfile.TemporaryDirectory(prefix="world-atlas-") as name:
        tmp = Path(name)
        subprocess.run(["npm", "pack", ATLAS_PACKAGE, "--silent"], cwd=tmp, check=True,
                       stdout=subprocess.DEVNULL)
        with tarfile.open(next(tmp.glob("world-atlas-*.tgz"))) as tar:
            tar.extractall(tmp, filter="data")
        return Atlas(json.loads((tmp / "package" / ATLAS_FILE).read_text(encoding="utf-8")))


# --------------------------------------------------------------------------- geometry helpers


def polygons(geom: Any) -> list[Polygon]:
    if geom.is_empty:
        return []
    if isinstance(geom, Polygon):
        return [geom]
    if isinstance(geom, (MultiPolygon, GeometryCollection)):
        out: list[Polygon] = []
        for g in geom.geoms:
            out.extend(polygons(g))
        return out
    return []


def lines_of(geom: Any) -> list[LineString]:
    if geom.is_empty:
        return []
    if isinstance(geom, LineString):
        return [geom]
    if hasattr(geom, "geoms"):
        out: list[LineString] = []
        for g in geom.geoms:
            out.extend(lines_of(g))
        return out
    return []


def extend(line: LineString, start: bool, by: float) -> LineString:
    """The line lengthened by ``by`` pixels at its start or end."""
    c = list(line.coords)
    (x0, y0), (x1, y1) = (c[0], c[1]) if start else (c[-1], c[-2])
    d = math.hypot(x0 - x1, y0 - y1) or 1.0
    p = (x0 + (x0 - x1) / d * by, y0 + (y0 - y1) / d * by)
    return LineString([p, *c] if start else [*c, p])


def snap_ends(name: str, line: LineString, inside: Any, others: list[LineString]) -> LineString:
    """Move each end of ``line`` that lies inside ``inside`` onto the nearest
    other line (within SNAP) and overshoot it a little, so the cut is closed."""
    target = unary_union(others) if others else GeometryCollection()
    for start in (True, False):
        c = list(line.coords)
        end = Point(c[0] if start else c[-1])
        if not inside.contains(end):
            continue  # the line runs out to sea (or off the board): nothing to meet
        if target.is_empty:
            raise SystemExit(f"line {name}: an end on land meets no other line")
        near = nearest_points(target, end)[0]
        if near.distance(end) > SNAP:
            raise SystemExit(
                f"line {name}: its {'first' if start else 'last'} point is on land (or at sea)"
                f" {near.distance(end):.0f} px from the nearest line"
            )
        if near.distance(end) > 1e-9:
            c = [(near.x, near.y), *c[1:]] if start else [*c[:-1], (near.x, near.y)]
            line = LineString(c)
        line = extend(line, start, OVERSHOOT)
    return line


def pieces(area: Any, cuts: list[LineString]) -> list[Polygon]:
    """``area`` cut by ``cuts``: the faces of the noded linework inside it."""
    work = unary_union([area.boundary, *cuts])
    out = []
    for face in polygonize(work):
        if area.contains(face.representative_point()):
            out.append(face)
    return out


# --------------------------------------------------------------------------- the build


class Board:
    def __init__(self, atlas: Atlas) -> None:
        self.atlas = atlas
        self.frame = box(0, 0, WIDTH, HEIGHT)
        self.lakes: list[Polygon] = []

    # -- land and sea ---------------------------------------------------------
    def land_and_sea(self) -> tuple[Any, Any]:
        window = box(-50, 22, 80, 84)
        shapes = []
        for name, g in self.atlas.geometries.items():
            if name in ("Greenland", "Canada"):
                continue
            for shift in (-360, 0, 360):
                part = affinity.translate(g, xoff=shift).intersection(window)
                if not part.is_empty:
                    shapes.append(part)
        lonlat = unary_union(shapes)
        lonlat = unary_union([Polygon(p.exterior) for p in polygons(lonlat)])
        lonlat = unary_union([lonlat, *(Polygon(b) for b in BRIDGES.values())])
        lonlat = lonlat.intersection(window).segmentize(0.25)
        land = make_valid(project_geom(lonlat)).intersection(self.frame)
        land = unary_union([p for p in polygons(land) if p.area >= ISLAND_MIN])
        # close off and fill the water named in FILLS
        sea = self.frame.difference(land)
        for name, (inside, gates) in FILLS.items():
            faces = pieces(sea, [px_line(g) for g in gates])
            point = Point(px(*inside))
            face = next((f for f in faces if f.contains(point)), None)
            if face is None or face.area > 2 * LAKE_MAX:
                raise SystemExit(f"fill {name}: its gates do not close it off")
            self.lakes.append(face)
            land = unary_union([land, face])
        # water enclosed by land (lagoons cut off by the simplification, lakes)
        sea = self.frame.difference(land)
        small = [p for p in polygons(sea) if p.area < LAKE_MAX]
        land = unary_union([land, *small])
        sea = make_valid(self.frame.difference(land))
        land = make_valid(land)
        return land, sea

    # -- cutting --------------------------------------------------------------
    def land_cuts(self, land: Any) -> list[LineString]:
        cuts: list[LineString] = []
        for a, b in COUNTRY_BORDERS:
            border = project_geom(self.atlas.border(a, b))
            for line in lines_of(border):
                cuts.append(extend(extend(line, True, OVERSHOOT), False, OVERSHOOT))
        for name, points in LAND_LINES:
            line = px_line(points)
            cuts.append(snap_ends(name, line, land, cuts + self._hand(LAND_LINES, name)))
        return cuts

    def sea_cuts(self, sea: Any) -> list[LineString]:
        cuts: list[LineString] = [self.frame.exterior]
        for name, points in SEA_LINES:
            line = px_line(points)
            cuts.append(snap_ends(name, line, sea, cuts + self._hand(SEA_LINES, name)))
        return cuts[1:]

    @staticmethod
    def _hand(lines: list[tuple[str, list[LonLat]]], name: str) -> list[LineString]:
        return [px_line(p) for n, p in lines if n != name]

    # -- assigning pieces ------------------------------------------------------
    def assign(self, faces: list[Polygon], seeds: dict[str, list[Point]],
               what: str) -> dict[str, list[Polygon]]:
        owner: dict[int, str] = {}
        for i, face in enumerate(faces):
            found = {name for name, pts in seeds.items() for p in pts if face.contains(p)}
            if len(found) > 1:
                raise SystemExit(f"{what}: one piece holds the seeds of {sorted(found)}: "
                                 "a dividing line is missing")
            if found:
                owner[i] = found.pop()
        for name, pts in seeds.items():
            if not any(owner.get(i) == name for i in range(len(faces))):
                raise SystemExit(f"{what}: the seed of {name} lies in no piece "
                                 f"({[f'{p.x:.0f},{p.y:.0f}' for p in pts]})")
        pending = [i for i in range(len(faces)) if i not in owner]
        seeded: dict[str, Any] = {}
        for i, name in owner.items():
            seeded.setdefault(name, []).append(faces[i])
        mainland = {n: unary_union(f) for n, f in seeded.items()}
        while pending:
            progress = False
            for i in list(pending):
                face = faces[i]
                shared: dict[str, float] = {}
                for j, name in owner.items():
                    length = face.boundary.intersection(faces[j].boundary).length
                    if length > 0:
                        shared[name] = shared.get(name, 0.0) + length
                if shared:
                    # a piece between others: a sliver, or a seed is missing
                    if face.area >= SLIVER:
                        c = face.representative_point()
                        print(f"{what}: seedless piece of {face.area:.0f} px^2 at "
                              f"{c.x:.0f},{c.y:.0f} touches {sorted(shared)}", file=sys.stderr)
                    owner[i] = max(shared, key=lambda n: shared[n])
                elif not any(faces[j].touches(face) for j in pending if j != i):
                    # an island: it goes with the nearest coast
                    owner[i] = min(mainland, key=lambda n: mainland[n].distance(face))
                else:
                    continue
                pending.remove(i)
                progress = True
            if not progress:
                raise SystemExit(f"{what}: pieces that cannot be assigned")
        out: dict[str, list[Polygon]] = {}
        for i, name in owner.items():
            out.setdefault(name, []).append(faces[i])
        return out

    # -- everything ------------------------------------------------------------
    def build(self) -> dict[str, Any]:
        land, sea = self.land_and_sea()
        self.land, self.sea = land, sea
        self.cuts_land = self.land_cuts(land)
        self.cuts_sea = self.sea_cuts(sea)
        land_faces = pieces(land, self.cuts_land)
        sea_faces = pieces(sea, self.cuts_sea)
        self.faces = land_faces + sea_faces
        sea_names = [n for n in PROVINCES if _is_sea(n)]
        land_names = [n for n in PROVINCES if not _is_sea(n)]
        seeds_land = {n: self._seeds(n) for n in land_names}
        seeds_land.update({f"_{n}": [Point(px(*p)) for p in pts] for n, pts in IMPASSABLE.items()})
        seeds_sea = {n: self._seeds(n) for n in sea_names}
        got = self.assign(land_faces, seeds_land, "land")
        got.update(self.assign(sea_faces, seeds_sea, "sea"))
        names = sorted(got)
        merged = [make_valid(unary_union(got[n])) for n in names]
        simple = shapely.coverage_simplify(merged, SIMPLIFY, simplify_boundary=False)
        self.shapes = dict(zip(names, simple, strict=True))
        self.lakes = [lake.simplify(SIMPLIFY) for lake in self.lakes]
        return self.to_data()

    def _seeds(self, name: str) -> list[Point]:
        p = PROVINCES[name]
        return [Point(px(*p["seed"]))] + [Point(px(*q)) for q in p.get("islands", [])]

    def to_data(self) -> dict[str, Any]:
        from pbmref.rules.diplomacy import standard_map

        m = standard_map()
        provinces: dict[str, Any] = {}
        for name in sorted(m.provinces):
            spec = PROVINCES[name]
            prov = m.provinces[name]
            entry: dict[str, Any] = {
                "name": prov.name,
                "kind": prov.terrain,
                "path": svg_path(self.shapes[name]),
                "label": _pt(spec["seed"]),
            }
            if name == "swi":
                entry["impassable"] = True
            else:
                entry["unit"] = _pt(spec["unit"])
            if prov.supply_center:
                if not spec.get("sc"):
                    raise SystemExit(f"{name} is a supply centre: give its city")
                entry["sc"] = _pt(spec["sc"])
            if prov.coasts:
                coasts = spec.get("coasts", {})
                if sorted(coasts) != sorted(prov.coasts):
                    raise SystemExit(f"{name}: give a place for each of its coasts {prov.coasts}")
                entry["coasts"] = {c: {k: _pt(v) for k, v in coasts[c].items()} for c in coasts}
            provinces[name] = entry
        layout(self.shapes, provinces)
        layout_air(self.shapes, provinces)
        impassable = {n[1:]: svg_path(g) for n, g in sorted(self.shapes.items())
                      if n.startswith("_")}
        return {
            "_source": SOURCE,
            "size": [WIDTH, HEIGHT],
            "provinces": provinces,
            "impassable": impassable,
            "lakes": [svg_path(g) for g in self.lakes],
        }


# The renderer (pbmref.rulesets.diplomacy.board) writes province names in this
# size; the boxes below keep dirigibles and dislodged units off the names.
LABEL_SIZE = 10.5
_UP = [-55, -125, -90, -20, -160, 20, 160, 55, 125, 90]
_DOWN = [35, 145, 0, 180, 70, 110, -35, -145, -90, 90]


def _box(x: float, y: float, hw: float, hh: float) -> Any:
    return box(x - hw, y - hh, x + hw, y + hh)


def _label_box(name: str, x: float, y: float) -> Any:
    from pbmref.rules.diplomacy.map import display

    width = 0.64 * LABEL_SIZE * len(display(name)) + 4
    return box(x - width / 2, y - LABEL_SIZE * 0.85, x + width / 2, y + LABEL_SIZE * 0.4)


def _nearest_free(start: tuple[float, float], make: Any, shape: Any,
                  taken: list[tuple[Any, float]], reach: int = 24) -> list[float]:
    """The point near ``start`` whose box (``make(x, y)``) lies in ``shape``
    and over as little of ``taken`` (boxes with weights) as can be."""
    best: tuple[float, list[float]] | None = None
    for dx in range(-reach, reach + 1, 3):
        for dy in range(-reach, reach + 1, 3):
            x, y = start[0] + dx, start[1] + dy
            b = make(x, y)
            cost = (sum(b.intersection(t).area * w for t, w in taken if b.intersects(t))
                    + b.difference(shape).area * 20 + math.hypot(dx, dy))
            if best is None or cost < best[0]:
                best = (cost, [round(x, 1), round(y, 1)])
    assert best is not None
    return best[1]


def layout(shapes: dict[str, Any], entries: dict[str, dict[str, Any]]) -> None:
    """Place each unit clear of its supply centre and coasts, then each name
    clear of every unit (and of the room above it, for a dirigible), supply
    centre, coast and name placed before it."""
    fixed: list[tuple[Any, float]] = []
    for e in entries.values():
        if "sc" in e:
            fixed.append((_box(*e["sc"], 6.5, 6.5), 40.0))
        for c in e.get("coasts", {}).values():
            fixed.append((_box(*c["unit"], 11, 8), 10.0))
            fixed.append((_box(*c["label"], 8, 6), 10.0))
    for n, e in sorted(entries.items()):
        if "unit" in e:
            e["unit"] = _nearest_free(e["unit"], lambda x, y: _box(x, y, 11, 8),
                                      shapes[n].buffer(-2), fixed, reach=15)
            fixed.append((_box(*e["unit"], 11, 8), 40.0))
            ux, uy = e["unit"]
            fixed.append((_box(ux + 4, uy - 16, 15, 9), 12.0))  # room for a dirigible
    for n, e in sorted(entries.items()):
        e["label"] = _nearest_free(e["label"], lambda x, y, n=n: _label_box(n, x, y),
                                   shapes[n].buffer(-2), fixed, reach=30)
        fixed.append((_label_box(n, *e["label"]), 40.0))


def layout_air(shapes: dict[str, Any], entries: dict[str, dict[str, Any]]) -> None:
    """The dirigible's place (above the unit, DD6) and the place where a
    dislodged unit waits, in each province: clear of every name, supply
    centre and coast on the board, and of other units. Warns of a unit on
    another's name."""
    names = {n: _label_box(n, *e["label"]) for n, e in entries.items()}
    taken: list[tuple[Any, float, str]] = [(b, 40.0, "") for b in names.values()]
    for n, e in entries.items():
        if "sc" in e:
            taken.append((_box(*e["sc"], 6.5, 6.5), 6.0, ""))
        for c in e.get("coasts", {}).values():
            taken.append((_box(*c["unit"], 11, 8), 4.0, ""))
            taken.append((_box(*c["label"], 8, 6), 6.0, ""))
        if "unit" in e:
            unit = _box(*e["unit"], 11, 8)
            for other, label in names.items():
                if unit.intersection(label).area > 20:
                    print(f"{n}: its unit is on the name of {other}", file=sys.stderr)
        if "sc" in e:
            for other, label in names.items():
                if _box(*e["sc"], 5, 5).intersection(label).area > 4:
                    print(f"{n}: its supply centre is under the name of {other}",
                          file=sys.stderr)
            taken.append((unit, 4.0, n))
    for n, e in sorted(entries.items()):
        if "unit" not in e:
            continue
        inner = shapes[n].buffer(-3)
        e["air"] = _spot(shapes[n], inner, taken, n, e["unit"], _UP, 14, 8.5,
                         (17.0, 20.0, 24.0, 29.0, 35.0))
        taken.append((_box(*e["air"], 14, 8.5), 4.0, ""))
        e["aside"] = _spot(shapes[n], inner, taken, n, e["unit"], _DOWN, 12.5, 12.5,
                           (21.0, 25.0, 30.0, 36.0))
        taken.append((_box(*e["aside"], 12.5, 12.5), 3.0, ""))


def _spot(shape: Any, inner: Any, taken: list[tuple[Any, float, str]], name: str,
          origin: tuple[float, float], angles: list[int], hw: float, hh: float,
          radii: Sequence[float]) -> list[float]:
    """The best place near ``origin`` for an icon of half-size ``hw``x``hh``:
    inside the province, over as little as possible (its own unit counts
    little: a dirigible may overlap the army below it), near the preferred
    directions."""
    best: tuple[float, list[float]] | None = None
    for rank, radius in enumerate(radii):
        for turn, angle in enumerate(angles):
            a = math.radians(angle)
            x, y = origin[0] + radius * math.cos(a), origin[1] + radius * math.sin(a)
            icon = _box(x, y, hw, hh)
            clash = sum(icon.intersection(b).area * (0.6 if who == name else weight)
                        for b, weight, who in taken if icon.intersects(b))
            outside = icon.difference(shape).area
            inside = inner.contains(Point(x, y))
            cost = clash + outside * 4 + (0 if inside else 3000) + rank * 25 + turn * 12
            if best is None or cost < best[0]:
                best = (cost, [round(x, 1), round(y, 1)])
    assert best is not None
    return best[1]


SOURCE = (
    "Built by scripts/build_diplomacy_board.py from Natural Earth 1:50m admin-0 countries "
    f"(public domain), as packed in the {ATLAS_PACKAGE} npm package (ISC licence). "
    "See NOTICE in this folder."
)


def _pt(lonlat: LonLat) -> list[float]:
    x, y = px(*lonlat)
    return [round(x, 1), round(y, 1)]


def svg_path(geom: Any) -> str:
    """An SVG path (absolute M/L/Z, one decimal) of a polygon or multipolygon:
    outer rings clockwise on screen, holes counter-clockwise (draw evenodd)."""
    from shapely.geometry.polygon import orient

    parts = []
    for poly in sorted(polygons(geom), key=lambda p: -p.area):
        poly = orient(poly, sign=-1.0)  # y runs down: -1 is clockwise on screen
        for ring in [poly.exterior, *poly.interiors]:
            pts = []
            for x, y in ring.coords[:-1]:
                pt = f"{x:.1f} {y:.1f}"
                if not pts or pts[-1] != pt:
                    pts.append(pt)
            if len(pts) >= 3:
                parts.append("M" + "L".join(pts) + "Z")
    return "".join(parts)


def _is_sea(name: str) -> bool:
    return name in SEAS


SEAS = {"nao", "nwg", "bar", "nth", "hel", "ska", "bal", "bot", "eng", "iri", "mao", "wes",
        "lyo", "tys", "ion", "adr", "aeg", "eas", "bla"}


def debug_picture(board: Board, out: Path) -> None:
    """Pieces in their province's colour with its name, lines and seeds."""
    import colorsys

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH:.0f} {HEIGHT}" '
             f'width="{WIDTH * 1.6:.0f}" height="{HEIGHT * 1.6:.0f}" font-family="sans-serif">',
             '<rect width="100%" height="100%" fill="#fff"/>']
    shapes = getattr(board, "shapes", None) or {
        "_land": getattr(board, "land", GeometryCollection()),
        "sea": getattr(board, "sea", GeometryCollection()),
    }
    for i, (name, geom) in enumerate(sorted(shapes.items())):
        if name.startswith("_"):
            fill = "#bbb"
        elif name == "sea":
            fill = "#9bd"
        else:
            h = (i * 0.618) % 1.0
            r, g, b = colorsys.hls_to_rgb(h, 0.55 if name in SEAS else 0.78,
                                          0.45 if name in SEAS else 0.6)
            fill = f"#{int(r * 255):02x}{int(g * 255):02x}{int(b * 255):02x}"
        parts.append(f'<path d="{svg_path(geom)}" fill="{fill}" fill-rule="evenodd" '
                     'stroke="#333" stroke-width="0.4"/>')
    for line in getattr(board, "cuts_land", []):
        parts.append(f'<polyline points="{_pts(line)}" fill="none" stroke="#c00" '
                     'stroke-width="0.3" opacity="0.6"/>')
    for line in getattr(board, "cuts_sea", []):
        parts.append(f'<polyline points="{_pts(line)}" fill="none" stroke="#00c" '
                     'stroke-width="0.3" opacity="0.6"/>')
    for name, spec in PROVINCES.items():
        x, y = px(*spec["seed"])
        parts.append(f'<text x="{x:.1f}" y="{y:.1f}" font-size="9" text-anchor="middle">'
                     f'{name}</text>')
        for key in ("unit", "sc"):
            if spec.get(key):
                ux, uy = px(*spec[key])
                colour = "#000" if key == "unit" else "#d00"
                parts.append(f'<circle cx="{ux:.1f}" cy="{uy:.1f}" r="1.5" fill="{colour}"/>')
        for c, where in spec.get("coasts", {}).items():
            ux, uy = px(*where["unit"])
            parts.append(f'<circle cx="{ux:.1f}" cy="{uy:.1f}" r="2" fill="#06c"/>'
                         f'<text x="{ux + 3:.1f}" y="{uy:.1f}" font-size="6">{c}</text>')
    lon = -40
    while lon <= 70:
        pts = " ".join("{:.1f},{:.1f}".format(*px(lon, lat / 2)) for lat in range(56, 170))
        parts.append(f'<polyline points="{pts}" fill="none" stroke="#999" stroke-width="0.2"/>')
        lon += 5
    for lat in range(30, 80, 5):
        pts = " ".join("{:.1f},{:.1f}".format(*px(lon / 2, lat)) for lon in range(-90, 150))
        parts.append(f'<polyline points="{pts}" fill="none" stroke="#999" stroke-width="0.2"/>')
    parts.append("</svg>")
    out.write_text("\n".join(parts), encoding="utf-8")


def _pts(line: LineString) -> str:
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in line.coords)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--atlas", type=Path, help="folder of the unpacked world-atlas package")
    ap.add_argument("--debug", type=Path, help="also write a picture of pieces and lines")
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args(argv)
    board = Board(load_atlas(args.atlas))
    try:
        data = board.build()
    finally:
        if args.debug:
            debug_picture(board, args.debug)
    args.out.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
