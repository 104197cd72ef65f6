"""The character map (rules B1-B5 drawn), the SVG map, and the MAP/STATUS replies."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from datetime import UTC, datetime
from pathlib import Path

import pytest
import yaml

from pbmref.reports.status import render_status
from pbmref.rules.hexgrid import HexBoard
from pbmref.rules.tweedekker.position import position_from_dict
from pbmref.rulesets.tweedekker.asciimap import render_map
from pbmref.rulesets.tweedekker.picture import render_svg
from pbmref.rulesets.tweedekker.report import render_map_reply
from pbmref.rulesets.tweedekker.turn import Turn

from .engine_run import plain_events, run_scenario

HERE = Path(__file__).parent
SVG = "{http://www.w3.org/2000/svg}"


def position(**aircraft: dict[str, str]) -> dict[str, object]:
    return {"turn": 3, "board": {"side": 10}, "aircraft": aircraft}


def cell(lines: list[str], board: HexBoard, name: str) -> str:
    """The two characters drawn inside hex ``name`` (layout of asciimap)."""
    h = board.parse(name)
    R = board.radius
    row = lines[1 + 2 * h.r + h.q + 2 * R]
    step = (lines[0].index("B") - lines[0].index("A"))
    x = 3 + step * (h.q + R)
    return row[x:x + 2]


@pytest.mark.parametrize("side", [2, 9, 10, 11, 12, 13])
def test_b1_whole_board_fits_seventy_columns(side: int) -> None:
    lines = render_map(position_from_dict({"board": {"side": side}}))
    assert len(lines) == 4 * (side - 1) + 3  # file letters above and below
    assert max(len(line) for line in lines) <= 70
    board = HexBoard(side)
    for h in board.hexes():  # every empty hex shows its number (B3)
        name = board.name(h)
        assert cell(lines, board, name).strip() == name[1:].lstrip("0")


def test_b3_file_letters_line_up_with_the_hexes() -> None:
    lines = render_map(position_from_dict({"board": {"side": 10}}))
    assert lines[0].split() == [chr(c) for c in range(ord("A"), ord("S") + 1)]
    assert lines[0] == lines[-1]
    assert lines[0].index("J") == 3 + 3 * 9


@pytest.mark.parametrize("heading, drawn", [
    ("N", "B^"), ("NE", "B/"), ("SE", "B\\"), ("S", "Bv"), ("SW", "/B"), ("NW", "\\B"),
])
def test_b2_heading_marks(heading: str, drawn: str) -> None:
    lines = render_map(position_from_dict(
        position(baron={"hex": "K12", "heading": heading, "state": "flying"})))
    assert cell(lines, HexBoard(10), "K12") == drawn


def test_pieces_clouds_and_airfields() -> None:
    pos = {
        "board": {"side": 10},
        "clouds": [{"kind": "storm", "hexes": ["J10"]}, {"kind": "cloud", "hexes": ["C4"]}],
        "aircraft": {
            "baron": {"hex": "J19", "heading": "S", "state": "landed"},
            "carl": {"hex": "F7", "heading": "N", "state": "flying"},
            "dora": {"hex": "F7", "heading": "N", "state": "flying"},
            "erich": {"hex": "A1", "heading": "N", "state": "down"},
        },
        "zeppelins": {"Z": {"hexes": ["H9", "H8"], "heading": "N"}},
    }
    lines = render_map(position_from_dict(pos))
    board = HexBoard(10)
    assert cell(lines, board, "J19") == "B_"
    assert cell(lines, board, "F7") == "CD"  # two aircraft share a hex (M1)
    assert cell(lines, board, "A1") == " 1"  # shot down: no longer drawn
    assert cell(lines, board, "H9") == "Z^" and cell(lines, board, "H8") == "zz"
    # marks either side of the hex: storm, cloud, airfield corner, runway (B5, C1)
    h = board.parse("J10")
    row = lines[1 + 2 * h.r + h.q + 18]
    assert row[3 + 27 - 1] == "#" and row[3 + 27 + 2] == "#"
    assert "[B_]" in lines[1]
    assert "=18=" in lines[2]  # N airfield runways Alpha K18, Gamma I18


def test_svg_is_xml_with_an_element_per_aircraft_and_zeppelin_hex() -> None:
    report = run_scenario(yaml.safe_load(
        (HERE / "scenarios" / "zeppelin_raid.yaml").read_text(encoding="utf-8")))
    turn = Turn.read(report)
    svg = render_svg(turn.after, turn.events, names=report.names, title="Raid & <test>")
    root = ET.fromstring(svg)
    ids = {el.get("id") for el in root.iter() if el.get("id")}
    for pilot, a in report.position_after["aircraft"].items():
        if a["state"] in ("flying", "landed", "taxiing"):
            assert f"aircraft-{pilot}" in ids
        else:
            assert f"aircraft-{pilot}" not in ids
    zep_hexes = [el for el in root.iter(f"{SVG}g")
                 if "zeppelin-hex" in (el.get("class") or "").split()]
    assert len(zep_hexes) == 2
    assert any(el.tag == f"{SVG}polygon" for el in zep_hexes[0])  # the nose triangle
    board = next(g for g in root.iter(f"{SVG}g") if g.get("class") == "board")
    hexes = [el for el in board.iter(f"{SVG}polygon")
             if "hex" in (el.get("class") or "").split()]
    assert len(hexes) == 271  # every hex in clear sky, under the weather
    weather = next(g for g in root.iter(f"{SVG}g") if g.get("class") == "weather")
    over = [el.find(f"{SVG}title").text for el in weather.iter(f"{SVG}polygon")  # type: ignore[union-attr]
            if "hex" in (el.get("class") or "").split()]
    assert over and all(t.endswith(("(cloud)", "(storm)")) for t in over)  # type: ignore[union-attr]
    names = {el.find(f"{SVG}title").text.split()[0] for el in hexes}  # type: ignore[union-attr]
    assert {"J10", "J19", "A1", "S10"} <= names
    paths = [el for el in root.iter(f"{SVG}polyline")
             if "path" in (el.get("class") or "").split()]
    assert {p.get("class").split()[1] for p in paths} >= {"path-baron", "path-biggles"}
    assert any("burst" in (el.get("class") or "") for el in root.iter(f"{SVG}line"))


def test_svg_without_events_and_with_a_zeppelin_half_off_the_board() -> None:
    pos = {"board": {"side": 10},
           "aircraft": {"a b": {"hex": "J10", "heading": "SE", "state": "flying"}},
           "zeppelins": {"Z": {"hexes": ["J19", "0,-10"], "heading": "S"}}}
    root = ET.fromstring(render_svg(position_from_dict(pos)))
    assert root.find(".//*[@id='aircraft-a_b']") is not None
    zep = [el for el in root.iter() if "zeppelin-hex" in (el.get("class") or "")]
    assert len(zep) == 1  # only the hex on the board is drawn (Z4)


def test_map_reply_fits_and_shows_the_state() -> None:
    report = run_scenario(yaml.safe_load(
        (HERE / "scenarios" / "dogfight.yaml").read_text(encoding="utf-8")))
    text = render_map_reply(position_from_dict(report.position_after), report.names,
                            "Bloody April")
    assert max(len(line) for line in text.splitlines()) <= 70
    assert "the sky at the start of turn 8" in text
    assert "AIRCRAFT" in text and "Manfred" in text


def test_status_reply_tells_who_without_what() -> None:
    text = render_status(
        game_id="zep1", title="The Zeppelin Raid", turn="Turn 5",
        deadline=datetime(2026, 12, 3, 20, 0, tzinfo=UTC), timezone="Europe/London",
        players={"baron": "Manfred", "carl": "Carl", "dora": "Dora"},
        sent=["baron"], inactive=["dora"])
    assert max(len(line) for line in text.splitlines()) <= 70
    assert "Turn 5 is open. Deadline: Thu 3 Dec 2026 20:00 GMT (Europe/London)" in text
    lines = {line.split()[0]: line.split()[-1] for line in text.splitlines()
             if line.startswith("  ") and len(line.split()) >= 2}
    assert lines["Manfred"] == "received"
    assert lines["Carl"] == "waiting"
    assert "out of the game" in text and "Waiting for Carl." in text


# ------------------------------------------------------------------ issue 17: the picture


def _svg_of(name: str) -> tuple[object, ET.Element]:
    report = run_scenario(yaml.safe_load((HERE / "scenarios" / f"{name}.yaml")
                                         .read_text(encoding="utf-8")))
    turn = Turn.read(report)
    svg = render_svg(turn.after, turn.events, names=report.names, title="After",
                     before=turn.before)
    return report, ET.fromstring(svg)


def _texts(root: ET.Element) -> list[str]:
    return ["".join(el.itertext()) for el in root.iter(f"{SVG}text")]


def test_svg_marks_hits_where_they_land_and_misses_differently() -> None:
    report, root = _svg_of("dogfight")
    marks = [g for g in root.iter(f"{SVG}g") if g.get("class") == "hit-mark"]
    hits = [e for e in plain_events(report) if e["kind"] == "hit"]
    storm = [e for e in plain_events(report)
             if e["kind"] == "damage" and e["cause"] != "gunfire"]
    shown = sorted(m.findtext(f"{SVG}text", "") for m in marks)
    assert shown == sorted(f"\u2212{e.get('damage', e.get('amount'))}" for e in hits + storm)
    bursts = [el for el in root.iter(f"{SVG}line") if "burst" in (el.get("class") or "")]
    assert {b.get("class") for b in bursts} == {"burst hit", "burst miss"}
    hit = next(b for b in bursts if b.get("class") == "burst hit")
    miss = next(b for b in bursts if b.get("class") == "burst miss")
    assert hit.get("stroke") != miss.get("stroke") and miss.get("stroke-dasharray")
    # the legend says what each line means, and each aircraft's state in words
    words = " ".join(_texts(root))
    for key in ("path flown", "burst that hit", "burst that missed", "damage dealt there"):
        assert key in words
    assert "Manfred \u2013 K11 NE: 10/12 DP, 10 rounds, 16 VP" in words
    assert "Carl \u2013 shot down" in words


def test_svg_wind_clouds_colours_and_labels() -> None:
    _, root = _svg_of("dogfight")
    words = _texts(root)
    assert "wind to SW" in words and "1 hex a turn" in words
    wind = next(g for g in root.iter(f"{SVG}g") if g.get("class") == "wind")
    assert wind.find(f".//{SVG}polygon") is not None  # the arrow
    clouds = [p for p in root.iter(f"{SVG}polygon") if "cloud" in (p.get("class") or "")]
    assert clouds and all(p.get("stroke") == "#7d8ea3" for p in clouds)  # outlined
    assert [g for g in root.iter(f"{SVG}g") if g.get("class") == "cloud-icon"]
    assert [p for p in root.iter(f"{SVG}path") if p.get("class") == "storm-icon"]
    # hex names legible at phone size, drawn after (over) the zeppelin's hull
    names = [t for t in root.iter(f"{SVG}text") if t.get("class") == "hexname"]
    assert names and all(float(t.get("font-size", 0)) >= 9 for t in names)
    from pbmref.rulesets.air.svgkit import PILOT_COLOURS
    assert len(set(PILOT_COLOURS)) == len(PILOT_COLOURS)


def test_zeppelin_hull_lets_hex_names_show() -> None:
    """The names lie on the ground (drawn once for many mails, issue 43), under
    the turn: the hull over them is seen through."""
    _, root = _svg_of("zeppelin_raid")
    children = list(root)
    first_name = next(i for i, el in enumerate(children)
                      if el.get("class") == "hexnames")
    first_hull = min(i for i, el in enumerate(children)
                     if "zeppelin-hex" in (el.get("class") or ""))
    assert first_name < first_hull
    hull = next(el for el in root.iter(f"{SVG}path") if el.get("fill-opacity"))
    assert float(hull.get("fill-opacity", "1")) <= 0.6


def test_three_move_panels() -> None:
    from pbmref.rulesets.tweedekker.picture import render_move_panels

    report = run_scenario(yaml.safe_load((HERE / "scenarios" / "dogfight.yaml")
                                         .read_text(encoding="utf-8")))
    turn = Turn.read(report)
    panels = render_move_panels(turn.before, turn.events, names=report.names)
    assert len(panels) == 3
    for move, svg in enumerate(panels, 1):
        root = ET.fromstring(svg)
        assert f"Move {move}" in _texts(root)
        assert float(root.get("width", 0)) <= 300  # small, beside the big board
    # move 1: Carl goes down (a cross, no aircraft); he is gone in the panels after it
    one = ET.fromstring(panels[0])
    assert one.find(".//*[@id='fallen-carl']") is not None
    assert ET.fromstring(panels[1]).find(".//*[@id='aircraft-carl']") is None
    # Manfred's burst of move 2 missed; of move 1 hit
    assert [b.get("class") for b in ET.fromstring(panels[1]).iter(f"{SVG}line")
            if "burst" in (b.get("class") or "")] == ["burst miss"]
