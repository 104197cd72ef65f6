"""The character map (rules B1-B5 drawn), the SVG map, and the MAP/STATUS replies."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from datetime import UTC, datetime
from pathlib import Path

import pytest
import yaml

from pbmref.reports.asciimap import render_map
from pbmref.reports.status import render_map_reply, render_status
from pbmref.reports.svg import render_svg
from pbmref.rules.hexgrid import HexBoard

from .engine_run import run_scenario

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
    lines = render_map({"board": {"side": side}})
    assert len(lines) == 4 * (side - 1) + 3  # file letters above and below
    assert max(len(line) for line in lines) <= 70
    board = HexBoard(side)
    for h in board.hexes():  # every empty hex shows its number (B3)
        name = board.name(h)
        assert cell(lines, board, name).strip() == name[1:].lstrip("0")


def test_b3_file_letters_line_up_with_the_hexes() -> None:
    lines = render_map({"board": {"side": 10}})
    assert lines[0].split() == [chr(c) for c in range(ord("A"), ord("S") + 1)]
    assert lines[0] == lines[-1]
    assert lines[0].index("J") == 3 + 3 * 9


@pytest.mark.parametrize("heading, drawn", [
    ("N", "B^"), ("NE", "B/"), ("SE", "B\\"), ("S", "Bv"), ("SW", "/B"), ("NW", "\\B"),
])
def test_b2_heading_marks(heading: str, drawn: str) -> None:
    lines = render_map(position(baron={"hex": "K12", "heading": heading, "state": "flying"}))
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
    lines = render_map(pos)
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
    svg = render_svg(report.position_after, report.events, names=report.names,
                     title="Raid & <test>")
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
    hexes = [el for el in root.iter(f"{SVG}polygon")
             if "hex" in (el.get("class") or "").split()]
    assert len(hexes) == 271
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
    root = ET.fromstring(render_svg(pos))
    assert root.find(".//*[@id='aircraft-a_b']") is not None
    zep = [el for el in root.iter() if "zeppelin-hex" in (el.get("class") or "")]
    assert len(zep) == 1  # only the hex on the board is drawn (Z4)


def test_map_reply_fits_and_shows_the_state() -> None:
    report = run_scenario(yaml.safe_load(
        (HERE / "scenarios" / "dogfight.yaml").read_text(encoding="utf-8")))
    text = render_map_reply(report.position_after, report.names, "Bloody April")
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
    assert "out of the game" in text and "Waiting for 1 player." in text
