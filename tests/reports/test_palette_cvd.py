"""Colour is never the only cue, and where it is a cue it survives a colour
vision deficiency (issue 43, item 5): the powers' colours, their lands'
tints, land and sea, and the pilots' colours on the sky, seen as a person
with protanopia, deuteranopia or tritanopia would see them (Machado, Oliveira
and Fernandes 2009, severity 1, as colour-science implements it), stay apart
by a clear perceptual distance (CIEDE2000). The smallest distances found are
the figures below; the test fails when a change of colours brings any pair
closer."""

from __future__ import annotations

import itertools
import warnings

import numpy as np
import pytest

with warnings.catch_warnings():  # its optional plotting and SciPy parts are not needed
    warnings.simplefilter("ignore")
    import colour

from pbmref.rulesets.air.svgkit import PILOT_COLOURS
from pbmref.rulesets.diplomacy import board
from pbmref.rulesets.tweedekker import picture as sky

DEFICIENCIES = ("Protanomaly", "Deuteranomaly", "Tritanomaly")
PILOTS = PILOT_COLOURS[:6]  # a game's six pilots


def _rgb(hex_colour: str) -> np.ndarray:
    return np.array([int(hex_colour[i:i + 2], 16) / 255 for i in (1, 3, 5)])


def seen(hex_colour: str, deficiency: str | None) -> np.ndarray:
    """The colour in CIELAB as seen with ``deficiency`` (None: typical vision)."""
    linear = colour.cctf_decoding(_rgb(hex_colour), function="sRGB")
    if deficiency is not None:
        matrix = colour.blindness.matrix_cvd_Machado2009(deficiency, 1.0)
        linear = np.clip(matrix @ linear, 0, 1)
    xyz = colour.RGB_to_XYZ(linear, colour.RGB_COLOURSPACES["sRGB"])
    return colour.XYZ_to_Lab(xyz)


def distance(a: str, b: str, deficiency: str | None) -> float:
    return float(colour.delta_E(seen(a, deficiency), seen(b, deficiency), method="CIE 2000"))


def closest(colours: dict[str, str], deficiency: str | None) -> tuple[float, str, str]:
    return min((distance(colours[a], colours[b], deficiency), a, b)
               for a, b in itertools.combinations(colours, 2))


POWERS = dict(board.BOARD_COLOURS)
LANDS = {p: board._tint(c, 0.42) for p, c in POWERS.items()} | {
    "neutral land": board._LAND, "sea": board._SEA}
SKY = {f"pilot {i + 1}": c for i, c in enumerate(PILOTS)} | {"sky": sky.SKY}

# (what, colours, the least CIEDE2000 distance any pair keeps under each simulation)
CHECKS = [
    ("the powers' unit badges", POWERS, 10.0),
    ("the powers' lands, the neutral land and the sea", LANDS, 4.5),
    ("the pilots' colours and the sky", SKY, 10.0),
]


@pytest.mark.parametrize("deficiency", [None, *DEFICIENCIES])
@pytest.mark.parametrize(("what", "colours", "least"), CHECKS, ids=[c[0] for c in CHECKS])
def test_colours_stay_apart(what: str, colours: dict[str, str], least: float,
                            deficiency: str | None) -> None:
    d, a, b = closest(colours, deficiency)
    assert d >= least, f"{what}: {a} and {b} only {d:.1f} apart with {deficiency}"


@pytest.mark.parametrize("deficiency", [None, *DEFICIENCIES])
def test_land_and_sea_are_told_apart(deficiency: str | None) -> None:
    """France's land (sky blue, tinted) against the sea, and land against sea."""
    assert distance(LANDS["FRA"], board._SEA, deficiency) >= 8.0
    assert distance(board._LAND, board._SEA, deficiency) >= 15.0


@pytest.mark.parametrize("kind", ["A", "F", "D"])
def test_a_units_badge_carries_its_powers_initial(kind: str) -> None:
    """The unit's kind is its shape (disc, hull, cigar); the letter on it says
    whose it is, so no one needs its colour to tell."""
    icon = board._unit_icon(POWERS["FRA"], "FRA", kind, (10.0, 10.0))
    assert icon.count("</text>") == 1 and ">F</text>" in icon
