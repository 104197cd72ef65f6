"""The reader's own picture first (issue 43, item 2).

A player's report shows, above the whole board, the part of it around their
own aircraft (tweedekker) or power (Diplomacy), at a scale where its labels
are at least 11 px on a 390-px phone, their pieces ringed, with words that
say what it shows; an observer gets the whole board only. Here: where the
part is (``reader_focus``, ``power_focus``), and the picture the mail
carries (``ReportPictures.for_reader``).
"""

from __future__ import annotations

import io
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
import yaml
from PIL import Image

from pbmref.mail.picture import mail_zoom, png_size
from pbmref.referee.pictures import ReportPictures
from pbmref.reports.model import FOCUS_HIGHEST, FOCUS_SIZE, Focus
from pbmref.rules.diplomacy.codec import position_from_dict, position_to_dict
from pbmref.rules.diplomacy.state import Position, initial_position
from pbmref.rules.fastplay.position import position_from_dict as fast_position_from_dict
from pbmref.rulesets.diplomacy.board import power_focus, render_board
from pbmref.rulesets.fastplay.picture import fastplay_focus, render_fastplay_svg
from pbmref.rulesets.tweedekker.picture import reader_focus, render_svg

from .engine_run import typed

HERE = Path(__file__).parent
SVG = "{http://www.w3.org/2000/svg}"
TITLE = "After turn 5"


def demo_turn5() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load(
        (HERE / "fixtures" / "demo_turn5.yaml").read_text(encoding="utf-8"))
    return data


def focus_of(data: dict[str, Any], readers: list[str]) -> Focus | None:
    after, events, before = typed(data["after"], data["events"], data["before"])
    return reader_focus(after, events, readers, title=TITLE, before=before)


def drawn_at(svg: str, pilot: str) -> tuple[float, float]:
    """Where the map draws a pilot's aircraft."""
    group = ET.fromstring(svg).find(f".//*[@id='aircraft-{pilot}']/{SVG}g")
    assert group is not None
    x, y = re.findall(r"translate\(([-0-9.]+),([-0-9.]+)\)", group.get("transform", ""))[0]
    return float(x), float(y)


def inside(point: tuple[float, float], box: tuple[float, float, float, float]) -> bool:
    return box[0] <= point[0] <= box[2] and box[1] <= point[1] <= box[3]


def test_a_pilots_part_of_the_map_holds_their_aircraft_ringed_and_says_so() -> None:
    data = demo_turn5()
    after, events, before = typed(data["after"], data["events"], data["before"])
    svg = render_svg(after, events, title=TITLE, before=before)
    focus = focus_of(data, ["downing_john"])
    assert focus is not None
    plane = drawn_at(svg, "downing_john")
    assert inside(plane, focus.box)
    (x, y, r), = focus.rings
    assert abs(x - plane[0]) < 10 and abs(y - plane[1]) < 10 and r >= 20
    # 11-px hex names (10 units) where the part fills its FOCUS_SIZE
    assert focus.zoom * 10 >= 11
    assert (focus.box[2] - focus.box[0]) * focus.zoom == pytest.approx(FOCUS_SIZE[0])
    after = data["after"]["aircraft"]["downing_john"]
    assert focus.alt.startswith(f"you: {after['hex']} heading {after['heading']}, "
                                f"{after['damage']} of 12 damage points")
    # the others in the picture, by name and place; the one shot down there
    assert "rode_baron shot down at E9" in focus.alt


def test_a_pilot_shot_down_this_turn_sees_where_they_fell() -> None:
    focus = focus_of(demo_turn5(), ["rode_baron"])
    assert focus is not None and focus.alt.startswith("you: shot down at E9")


def test_an_observer_gets_no_part_of_their_own() -> None:
    assert focus_of(demo_turn5(), []) is None


def opening() -> Position:
    return initial_position()


@pytest.mark.parametrize("power", ["AUS", "ENG", "FRA", "GER", "ITA", "RUS", "TUR"])
def test_a_powers_part_of_the_board_holds_its_units_ringed(power: str) -> None:
    position = opening()
    svg = render_board(position, mode="after")
    focus = power_focus(position, power)
    assert focus is not None and focus.picture == 1  # the board after the phase
    units = [g for g in ET.fromstring(svg).iter(f"{SVG}g")
             if "unit" in (g.get("class") or "").split() and g.get("data-power") == power]
    assert len(focus.rings) == len(units) >= 3
    assert focus.zoom * 10.5 >= 11  # the provinces' names at 11 px
    assert (focus.box[2] - focus.box[0]) * focus.zoom == pytest.approx(FOCUS_SIZE[0])
    # as high as it needs (a phone scrolls down, not across) to hold them all
    assert (focus.box[3] - focus.box[1]) * focus.zoom <= FOCUS_HIGHEST
    for x, y, _ in focus.rings:
        assert inside((x, y), focus.box)
    assert re.match(r"you: [A-Za-z]+, [34] units \(.*\), [34] centres \(", focus.alt)
    for g in units:
        assert str(g.get("data-unit")) in focus.alt


def test_a_power_out_of_the_game_has_no_part() -> None:
    data = position_to_dict(opening())
    data["units"]["AUS"] = []
    data["centers"]["AUS"] = []
    assert power_focus(position_from_dict(data), "AUS") is None
    assert power_focus(opening(), "XYZ") is None


def test_the_mail_shows_the_readers_part_first_and_the_observer_the_board() -> None:
    data = demo_turn5()
    after, events, before = typed(data["after"], data["events"], data["before"])
    svg = render_svg(after, events, title=TITLE, before=before)
    pictures = ReportPictures([("demo-turn-005", "The board after turn 5", svg)], colours=40)
    observer = pictures.for_reader(None)
    assert [a.filename for a in observer[0]] == ["demo-turn-005.png"]
    focus = focus_of(data, ["downing_john"])
    assert focus is not None
    files, shown = pictures.for_reader(focus)
    assert [a.filename for a in files] == ["demo-turn-005-you.png", "demo-turn-005.png"]
    assert files[1] is observer[0][0]  # the board's part is shared, made once
    own = shown[0]
    assert own.alt == focus.alt and own.width == FOCUS_SIZE[0]
    # drawn from the board as the mail draws it; shown FOCUS_SIZE wide, where
    # its 10-unit names come to 11 px
    width, height = png_size(files[0].content)
    assert own.width / width * mail_zoom(svg) * 10 >= 11 - 0.05
    # the ring: dark pixels on the circle around the aircraft
    image = Image.open(io.BytesIO(files[0].content)).convert("RGB")
    (x, y, r), = focus.rings
    zoom = mail_zoom(svg)
    cx, cy = (x - focus.box[0]) * zoom, (y - focus.box[1]) * zoom
    ring = r * zoom - 1.5  # the ring is 3 px wide inside its radius
    dark = [image.getpixel((round(cx + ring * dx), round(cy + ring * dy)))
            for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))]
    assert all(sum(p) < 150 for p in dark), dark


def test_a_fast_play_pilots_part_of_the_board_holds_their_plane() -> None:
    data = yaml.safe_load((HERE / "fastplay" / "fp_dogfight.yaml").read_text(encoding="utf-8"))
    position = fast_position_from_dict(
        {k: v for k, v in data.items() if k not in ("orders", "seed", "description")})
    svg = render_fastplay_svg(position, None, title="After turn 4")
    focus = fastplay_focus(position, None, ["anna"], title="After turn 4")
    assert focus is not None
    plane = drawn_at(svg, "anna")
    assert inside(plane, focus.box) and focus.zoom * 9.5 >= 11
    (x, y, _), = focus.rings
    assert abs(x - plane[0]) < 12 and abs(y - plane[1]) < 12
    assert focus.alt.startswith("you: D6 heading S, 2 of ")
    assert fastplay_focus(position, None, ["dora"], title="After turn 4") is None  # down
    assert fastplay_focus(position, None, [], title="After turn 4") is None
