"""The geographic board picture (``pbmref.rulesets.diplomacy.board.render_board``).

Each phase below (and a few of the scenario files) is adjudicated by the
engine, then drawn in both modes: the orders on the position before, and the
position after. The SVG must parse, have one shape per province, one order
element per order (with its result), one unit element per unit, and escape
text. ``scripts/build_diplomacy_board_pictures.py`` draws the first two of
these phases for docs/diplomacy-board-*.png.
"""

from __future__ import annotations

import colorsys
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
import yaml

from pbmref.rules.diplomacy import standard_map
from pbmref.rules.diplomacy.codec import position_from_dict, position_to_dict
from pbmref.rules.diplomacy.events import Event
from pbmref.rules.diplomacy.orders import parse_order
from pbmref.rules.diplomacy.variant import map_of
from pbmref.rulesets import get_ruleset
from pbmref.rulesets.diplomacy.board import BOARD_COLOURS, Mode, render_board

SVG = "{http://www.w3.org/2000/svg}"
HERE = Path(__file__).resolve().parent

# A movement phase with supports (to move and to hold), a convoy, bounces and
# a dislodgement (A Nwy, by the convoyed and supported A Yor).
MOVEMENT = """
ruleset: diplomacy
phase: S1902M
units:
  AUS: [A Vie, A Bud, A Ser, F Tri]
  ENG: [F Nth, F Nwg, A Yor, F Lon]
  FRA: [A Par, A Mar, F Bre, F Mao]
  GER: [A Mun, A Kie, F Hel]
  ITA: [A Ven, A Rom, F Nap]
  RUS: [A Nwy, A War, F Sev, F Bot]
  TUR: [F Ank, A Bul, A Con]
centers:
  AUS: [Bud, Tri, Vie, Ser]
  ENG: [Edi, Lon, Lvp]
  FRA: [Bre, Mar, Par, Por]
  GER: [Ber, Kie, Mun, Den]
  ITA: [Nap, Rom, Ven]
  RUS: [Mos, Sev, StP, War, Nwy]
  TUR: [Ank, Con, Smy, Bul]
orders:
  AUS: [A Vie - Gal, A Bud S A Ser, A Ser H, F Tri - Adr]
  ENG: [F Nth C A Yor - Nwy, A Yor - Nwy via convoy, F Nwg S A Yor - Nwy, F Lon - Eng]
  FRA: [A Par - Bur, A Mar S A Par - Bur, F Bre - Eng, F Mao - Spa/nc]
  GER: [A Mun - Bur, A Kie - Hol, F Hel S A Kie - Hol]
  ITA: [A Ven H, A Rom - Apu, F Nap - Ion]
  RUS: [A Nwy H, A War - Gal, F Sev - Bla, F Bot - Swe]
  TUR: [F Ank - Bla, A Bul - Ser, A Con H]
"""

# Dirigible Diplomacy: dirigibles over armies and fleets (Mun, Ven, War, Nth),
# support from above (DD8), a bounce in the air, a devastation (DD10).
DIRIGIBLE = """
ruleset: dirigible
phase: F1901M
units:
  FRA: [A Bur, A Par, F Mao, D Mun, D Bel]
  GER: [A Mun, A Kie, D Kie, D Ruh]
  ENG: [D Nth, F Nth]
  ITA: [A Ven, D Ven, F Ion]
  AUS: [A Tri, A Vie, D Bud]
  RUS: [A War, D War, F Sev]
  TUR: [A Bul, F Bla, D Con]
centers:
  FRA: [Bre, Mar, Par]
  GER: [Ber, Kie, Mun]
  ENG: [Edi, Lon, Lvp]
  ITA: [Nap, Rom, Ven]
  AUS: [Bud, Tri, Vie]
  RUS: [Mos, Sev, StP, War]
  TUR: [Ank, Con, Smy]
orders:
  FRA: [A Bur - Mun, D Mun S A Bur - Mun, D Bel devastate, A Par - Pic, F Mao - Por]
  GER: [A Mun H, A Kie - Hol, D Kie - Hol, D Ruh S D Kie - Hol]
  ENG: [D Nth - Bel, F Nth - Hol]
  ITA: [A Ven H, D Ven S A Ven, F Ion - Tun]
  AUS: [A Tri - Ven, A Vie - Tyr, D Bud - Ser]
  RUS: [A War H, D War - Sil, F Sev - Rum]
  TUR: [A Bul - Gre, F Bla - Ank, D Con - Bul]
"""

# Retreats: one dislodged unit retreats, one is disbanded.
RETREATS = """
ruleset: diplomacy
phase: S1902R
units:
  ENG: [A Nwy, F Nth, F Nwg]
  FRA: [A Mun, A Bur]
  RUS: [F Swe, A War]
dislodged:
  RUS: [{unit: A Nwy, attacker_from: Yor, attacker_via_convoy: true}]
  GER: [{unit: A Mun, attacker_from: Bur}]
orders:
  RUS: [A Nwy - Fin]
  GER: [Disband A Mun]
"""

# Adjustments: builds (one on a split coast) and a removal.
ADJUSTMENTS = """
ruleset: diplomacy
phase: W1901A
units:
  ENG: [F Nwy, F Nth, A Yor]
  RUS: [A Ukr, A War, F Bot, F Sev]
  TUR: [A Bul, A Arm, F Bla]
centers:
  ENG: [Edi, Lon, Lvp, Nwy]
  RUS: [Mos, Sev, StP, War, Swe, Rum]
  TUR: [Ank, Con]
orders:
  ENG: [Build F Edi]
  RUS: [Build A Mos, Build F StP/nc]
  TUR: [Disband A Arm]
"""

PHASES: dict[str, str] = {
    "movement": MOVEMENT,
    "dirigible": DIRIGIBLE,
    "retreats": RETREATS,
    "adjustments": ADJUSTMENTS,
}

SCENARIO_FILES = [
    HERE / "scenarios" / "01_opening_spring_1901.yaml",
    HERE.parent / "scenarios" / "dirigible" / "10_devastation.yaml",
    HERE.parent / "scenarios" / "dirigible" / "23_dirigible_built_over_army.yaml",
    HERE.parent / "scenarios" / "dirigible" / "26_build_season_1900_russia.yaml",
    HERE.parent / "scenarios" / "dirigible" / "35_retreat_after_air_bounce.yaml",
]


def phase(name: str) -> tuple[dict[str, Any], list[dict[str, Any]], dict[str, Any]]:
    """(position before, events, position after) of a phase of PHASES."""
    return adjudicate(yaml.safe_load(PHASES[name]))


def adjudicate(data: dict[str, Any]) -> tuple[dict[str, Any], list[dict[str, Any]],
                                              dict[str, Any]]:
    before = position_to_dict(position_from_dict(data))
    if "dislodged" in data:  # position_to_dict lists them with their retreats
        before["dislodged"] = data["dislodged"]
    result = get_ruleset(str(data.get("ruleset", "diplomacy"))).run_scenario(data)
    return before, list(result.events), dict(result.position)


def all_phases() -> list[tuple[str, dict[str, Any]]]:
    out = [(name, yaml.safe_load(text)) for name, text in PHASES.items()]
    out += [(p.stem, yaml.safe_load(p.read_text(encoding="utf-8"))) for p in SCENARIO_FILES]
    return out


def draw(position: dict[str, Any], events: list[dict[str, Any]] | None = None,
         orders: dict[str, list[str]] | None = None, *, mode: Mode, title: str = "") -> str:
    """The board of a position, events and order lines kept as plain data: each
    read into its typed value first, as the ruleset does once per turn."""
    pos = position_from_dict(position)
    typed = None if orders is None else {
        power: [parse_order(map_of(pos), power, line, retreat=pos.phase.kind == "R")
                for line in lines] for power, lines in orders.items()}
    return render_board(pos, [Event.from_dict(e) for e in events or ()], typed,
                        mode=mode, title=title)


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def with_class(root: ET.Element, tag: str, cls: str) -> list[ET.Element]:
    return [e for e in root.iter(SVG + tag) if cls in (e.get("class") or "").split()]


def unit_count(position: dict[str, Any]) -> int:
    """Units on the board, and dislodged units waiting to retreat."""
    return sum(len(v) for key in ("units", "dislodged")
               for v in (position.get(key) or {}).values())


@pytest.mark.parametrize(("name", "data"), all_phases(), ids=[n for n, _ in all_phases()])
def test_orders_picture(name: str, data: dict[str, Any]) -> None:
    before, events, _ = adjudicate(data)
    root = parse(draw(before, events, mode="orders"))
    provinces = with_class(root, "path", "province")
    assert sorted(p.get("data-province") for p in provinces) == sorted(standard_map().provinces)
    orders = [e for e in events if e["kind"] == "order" and e["order"].split()[-1] != "Waive"]
    drawn = with_class(root, "g", "order")
    assert sorted(g.get("data-order") for g in drawn) == sorted(e["order"] for e in orders)
    outcomes = {e["order"]: e["outcome"] for e in orders}
    for g in drawn:
        assert g.get("data-outcome") == outcomes[g.get("data-order")]
    assert len(with_class(root, "g", "unit")) == unit_count(before)


@pytest.mark.parametrize(("name", "data"), all_phases(), ids=[n for n, _ in all_phases()])
def test_after_picture(name: str, data: dict[str, Any]) -> None:
    _, events, after = adjudicate(data)
    root = parse(draw(after, events, mode="after"))
    assert len(with_class(root, "path", "province")) == len(standard_map().provinces)
    assert with_class(root, "g", "order") == []
    assert len(with_class(root, "g", "unit")) == unit_count(after)


def test_order_lines_without_results_are_drawn() -> None:
    data = yaml.safe_load(MOVEMENT)
    before = position_to_dict(position_from_dict(data))
    root = parse(draw(before, orders=data["orders"], mode="orders"))
    drawn = with_class(root, "g", "order")
    assert len(drawn) == sum(len(v) for v in data["orders"].values())
    assert all(g.get("data-outcome") is None for g in drawn)


def test_the_movement_phase_shows_every_kind_of_mark() -> None:
    before, events, _ = phase("movement")
    root = parse(draw(before, events, mode="orders"))
    kinds = {g.get("class") for g in with_class(root, "g", "order")}
    assert {"order move", "order support", "order convoy", "order hold"} <= kinds
    assert with_class(root, "g", "bounce")
    assert with_class(root, "circle", "dislodged")
    convoyed = next(g for g in with_class(root, "g", "order")
                    if g.get("data-order") == "ENG A Yor - Nwy via convoy")
    route = convoyed.find(f"{SVG}g/{SVG}path")
    assert route is not None and "C" in (route.get("d") or "")  # it bends through Nth


def test_the_retreat_phase_after_shows_dislodged_units_and_their_way_out() -> None:
    _, events, after = phase("movement")
    root = parse(draw(after, events, mode="after"))
    dislodged = with_class(root, "g", "dislodged")
    assert [g.get("data-unit") for g in dislodged] == ["A Nwy"]
    assert [g.get("data-from") for g in with_class(root, "g", "attack")] == ["yor"]
    assert {g.get("data-to") for g in with_class(root, "g", "option")} == {"fin", "stp"}


def test_dirigibles_fly_apart_from_the_army_below() -> None:
    before, events, after = phase("dirigible")
    root = parse(draw(before, events, mode="orders"))
    units = {(g.get("data-province"), g.get("data-kind")): g for g in with_class(root, "g", "unit")}
    army, airship = units[("mun", "A")], units[("mun", "D")]
    assert army.find(f"{SVG}circle") is not None and airship.find(f"{SVG}ellipse") is not None
    ax = float(army.find(f"{SVG}circle").get("cx"))  # type: ignore[union-attr]
    ay = float(army.find(f"{SVG}circle").get("cy"))  # type: ignore[union-attr]
    dx = float(airship.find(f"{SVG}ellipse").get("cx"))  # type: ignore[union-attr]
    dy = float(airship.find(f"{SVG}ellipse").get("cy"))  # type: ignore[union-attr]
    assert (ax - dx) ** 2 + (ay - dy) ** 2 >= 14 ** 2
    after_root = parse(draw(after, events, mode="after"))
    assert [p.get("data-province") for p in with_class(after_root, "path", "devastated")] == [
        "bel"]


def test_builds_and_removals() -> None:
    before, events, _ = phase("adjustments")
    root = parse(draw(before, events, mode="orders"))
    builds = [g.get("data-order") for g in with_class(root, "g", "build")
              if g.tag == SVG + "g" and "order" in (g.get("class") or "")]
    assert sorted(builds) == ["ENG Build F Edi", "RUS Build A Mos", "RUS Build F StP/nc"]
    assert with_class(root, "g", "disband")


def test_text_is_escaped() -> None:
    before, events, _ = phase("movement")
    title = 'Game <"Brest & Co"> 1902'
    root = parse(draw(before, events, mode="orders", title=title))
    assert root.find(f"{SVG}title").text == title  # type: ignore[union-attr]


def test_the_picture_is_the_same_every_time() -> None:
    before, events, after = phase("dirigible")
    assert draw(before, events, mode="orders") == draw(before, events,
                                                                       mode="orders")
    assert draw(after, events, mode="after") == draw(after, events, mode="after")


def test_a_bad_mode_or_order_is_an_error() -> None:
    before, _, _ = phase("movement")
    with pytest.raises(ValueError, match="mode"):
        draw(before, mode="before")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="Xyz"):
        draw(before, orders={"FRA": ["A Par - Xyz"]}, mode="orders")
    with pytest.raises(ValueError, match="cannot read"):
        draw(before, orders={"FRA": ["A Par jumps"]}, mode="orders")


def test_the_seven_colours_are_distinct_and_england_is_not_france() -> None:
    assert len(set(BOARD_COLOURS.values())) == 7

    def hue(colour: str) -> float:
        r, g, b = (int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5))
        return colorsys.rgb_to_hsv(r, g, b)[0] * 360

    gap = abs(hue(BOARD_COLOURS["ENG"]) - hue(BOARD_COLOURS["FRA"]))
    assert min(gap, 360 - gap) > 60


def _dashes(g: ET.Element) -> set[str | None]:
    return {p.get("stroke-dasharray") for p in g.iter(SVG + "path")}


def test_a_retreat_is_drawn_unlike_a_convoy_or_a_support_and_is_in_the_legend() -> None:
    before, events, _ = phase("retreats")
    root = parse(draw(before, events, mode="orders"))
    retreat = next(g for g in with_class(root, "g", "retreat") if g.get("data-order"))
    assert retreat.get("data-order") == "RUS A Nwy - Fin"
    assert _dashes(retreat) == {None}  # a solid line: no dashes, no dots
    hollow = [p for p in retreat.iter(SVG + "path") if p.get("stroke") == "#FFFFFF"]
    assert len(hollow) == 2  # a white core along the line and in the head
    moved, _, _ = phase("movement")
    drawn = parse(draw(moved, phase("movement")[1], mode="orders"))
    for kind in ("convoy", "support"):
        for g in with_class(drawn, "g", kind):
            assert not [p for p in g.iter(SVG + "path") if p.get("stroke") == "#FFFFFF"]
            assert _dashes(g) - {None}, kind  # dashed or dotted
    words = [t.text for t in with_class(root, "g", "legend")[0].iter(SVG + "text")]
    assert "retreat" in words


def test_the_legend_counts_in_words_that_agree() -> None:
    _, events, after = phase("retreats")  # Germany ends with no unit, Russia with two
    words = [t.text for t in with_class(parse(draw(after, events, mode="after")),
                                        "g", "power")[0].iter(SVG + "text")]
    assert words[-1] == "3 centres · 0 units"
    one = parse(draw({"ruleset": "diplomacy", "phase": "S1902M",
                              "units": {"FRA": ["A Par"]}, "centers": {"FRA": ["Par"]}},
                             mode="after"))
    france = next(g for g in with_class(one, "g", "power") if g.get("data-power") == "FRA")
    assert [t.text for t in france.iter(SVG + "text")][-1] == "1 centre · 1 unit"


# A support cut by an attack on the supporter (A Bud, attacked from Rum), a
# bounce (Gal) and a dislodgement (A Ser): issue 43, item 5.
CUT = """
ruleset: diplomacy
phase: S1902M
units:
  AUS: [A Bud, A Ser, A Vie]
  RUS: [A Rum, A War]
  TUR: [A Bul, A Gre, A Alb]
orders:
  AUS: [A Bud S A Ser, A Ser H, A Vie - Gal]
  RUS: [A Rum - Bud, A War - Gal]
  TUR: [A Bul - Ser, A Gre S A Bul - Ser, A Alb S A Bul - Ser]
"""


def _shape(glyph: ET.Element) -> list[tuple[str, int]]:
    """A key glyph's shape, colour left out: its elements and their path commands."""
    return [(e.tag, len(re.findall(r"[MLHVQCZ]", e.get("d") or ""))) for e in glyph.iter()]


def test_bounce_cut_support_and_dislodgement_have_shapes_of_their_own() -> None:
    before, events, _ = adjudicate(yaml.safe_load(CUT))
    outcomes = {e["order"]: (e["outcome"], e.get("reason")) for e in events
                if e["kind"] == "order"}
    assert outcomes["AUS A Bud S A Ser"][1] == "cut"
    root = parse(draw(before, events, mode="orders"))
    layer = next(g for g in root.iter(SVG + "g") if g.get("class") == "marks")
    marks = with_class(layer, "g", "mark")
    assert len([g for g in marks if "cut" in (g.get("class") or "")]) == 1  # not a cross
    assert with_class(root, "g", "bounce") and with_class(root, "circle", "dislodged")
    assert [g for g in marks if "failed" in (g.get("class") or "")] == []  # none else failed
    # the legend names each, and no two of their glyphs are the same shape
    legend = next(g for g in root.iter(SVG + "g") if g.get("class") == "legend")
    words = [t.text for t in legend.iter(SVG + "text")]
    assert {"bounced", "support cut", "dislodged", "failed"} <= set(words)
    glyphs = {w: g for g, w in zip(
        [g for g in legend if g.tag == SVG + "g" and g.get("transform")],
        [t.text for t in legend if t.tag == SVG + "text" and t.get("font-size") == "15"],
        strict=True)}
    shapes = [_shape(glyphs[w]) for w in ("bounced", "support cut", "dislodged", "failed")]
    assert len({repr(s) for s in shapes}) == 4
