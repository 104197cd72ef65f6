"""Hit marks on the air maps keep off one another and off the hexes' names
(issue 43, item 8): on the demo's turn 5 four "−4" stars were stacked on
E8, E9 and D8, over each other and over the names.

The boxes are measured from the SVG as drawn: every hit mark's star (its
polygon's points) and words, every hex name, with DejaVu Sans's widths
(``svgkit.text_box``).
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest
import yaml

from pbmref.rules.hexgrid import Heading, HexBoard
from pbmref.rulesets.air.svgkit import MAP, Box, boxes_meet, hit_marks, text_box
from pbmref.rulesets.tweedekker.picture import render_move_panels, render_svg

from .engine_run import typed

HERE = Path(__file__).parent
SVG = "{http://www.w3.org/2000/svg}"


def demo_turn5() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load(
        (HERE / "fixtures" / "demo_turn5.yaml").read_text(encoding="utf-8"))
    return data


def _text_box(el: ET.Element) -> Box:
    return text_box(float(el.get("x", 0)), float(el.get("y", 0)), "".join(el.itertext()),
                    float(el.get("font-size", 0)), anchor=el.get("text-anchor", "start"),
                    bold=el.get("font-weight") == "bold")


def _points_box(el: ET.Element) -> Box:
    xy = [float(v) for v in re.split(r"[ ,]", el.get("points", ""))]
    xs, ys = xy[0::2], xy[1::2]
    return (min(xs), min(ys), max(xs), max(ys))


def marks_and_names(svg: str) -> tuple[list[tuple[Box, Box]], list[Box], list[str]]:
    """Each hit mark's (star, words) boxes, each hex name's box, the marks' words."""
    root = ET.fromstring(svg)
    marks, words = [], []
    for g in root.iter(f"{SVG}g"):
        if g.get("class") == "hit-mark":
            star, label = g.find(f"{SVG}polygon"), g.find(f"{SVG}text")
            assert star is not None and label is not None
            marks.append((_points_box(star), _text_box(label)))
            words.append("".join(label.itertext()))
    names = [_text_box(t) for t in root.iter(f"{SVG}text") if t.get("class") == "hexname"]
    return marks, names, words


def assert_apart(marks: list[tuple[Box, Box]], names: list[Box]) -> None:
    for (star_a, words_a), (star_b, words_b) in combinations(marks, 2):
        for a in (star_a, words_a):
            for b in (star_b, words_b):
                assert not boxes_meet(a, b), (a, b)
    for star, words in marks:
        for name in names:
            assert not boxes_meet(star, name) and not boxes_meet(words, name), (star, words,
                                                                                  name)


def test_the_demo_turn_5_hits_hide_neither_one_another_nor_the_hex_names() -> None:
    data = demo_turn5()
    after, events, before = typed(data["after"], data["events"], data["before"])
    svg = render_svg(after, events, before=before)
    marks, names, words = marks_and_names(svg)
    hits = [e for e in data["events"] if e["kind"] == "hit"]
    assert len(hits) >= 5 and len(names) > 200
    # one mark a hex hit, with the damage dealt there: every hit's counted
    assert sum(int(w.removeprefix("\u2212")) for w in words) == sum(e["damage"] for e in hits)
    assert len(marks) < len(hits)  # E9's two hits share one star
    assert_apart(marks, names)


def test_the_demo_turn_5_move_panels_keep_their_hits_apart() -> None:
    data = demo_turn5()
    after, events, before = typed(data["after"], data["events"], data["before"])
    assert before is not None
    for panel in render_move_panels(before, events, after=after):
        marks, _, _ = marks_and_names(panel)
        assert_apart(marks, [])


@pytest.mark.parametrize("hits_a_hex", [1, 2])
def test_a_crowded_dogfight_still_keeps_every_label_free(hits_a_hex: int) -> None:
    """Seven hexes side by side (one and its six neighbours), each hit once or
    twice (4 damage a hit). (Each hit for 12 and more there is no room left
    for every star in its own hex: then they cover as little as they can.)"""
    board = HexBoard(10)
    centre = board.parse("J10")
    hexes = [centre, *(centre.step(heading) for heading in Heading)]
    size = 22.0

    def at(h: Any) -> tuple[float, float]:
        return (400 + 1.5 * size * h.q, 400 + 3 ** 0.5 * size * (h.r + h.q / 2))

    around = [h for h in board.hexes() if h.distance(centre) <= 3]
    names = [text_box(at(h)[0], at(h)[1] + size * 0.76, board.name(h), 10, anchor="middle")
             for h in around]
    spots = [(*at(h), size, [4] * hits_a_hex, "hit") for h in hexes]
    svg = ('<svg xmlns="http://www.w3.org/2000/svg">'
           + "".join(hit_marks(spots, MAP, names)) + "</svg>")
    marks, _, _ = marks_and_names(svg)
    assert len(marks) == 7
    assert_apart(marks, names)
