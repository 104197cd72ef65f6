"""Fast Play reports (issue 9): the text report with the board map, the SVG
board, the archive page and the MAP reply.

The two turns in ``fastplay/`` run through the real Fast Play engine; their
reports are golden files (``golden/fastplay_*.txt``), rewritten only on
purpose with ``PBMREF_UPDATE_GOLDEN=1``.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
import yaml

from pbmref.reports.html import render_index, render_turn_page
from pbmref.reports.model import TurnReport
from pbmref.rules.fastplay.board import FastBoard
from pbmref.rules.fastplay.position import position_from_dict, position_to_dict
from pbmref.rulesets import get_ruleset
from pbmref.rulesets.fastplay.picture import render_fastplay_svg
from pbmref.rulesets.fastplay.report import render_fastplay_map
from pbmref.rulesets.fastplay.turn import FastTurn, letters_of

from .engine_run import plain_events
from .test_text_report import assert_fits, check_golden

RULESET = get_ruleset("fastplay")

HERE = Path(__file__).parent
TURNS = sorted((HERE / "fastplay").glob("*.yaml"))
SVG = "{http://www.w3.org/2000/svg}"
NAMES = {"anna": "Anna", "bert": "Bert", "carl": "Carl", "dora": "Dora", "gus": "Gus",
         "hanna": "Hanna"}


def fastplay_report(path: Path) -> TurnReport:
    data: dict[str, Any] = yaml.safe_load(path.read_text(encoding="utf-8"))
    position = {k: v for k, v in data.items()
                if k not in ("orders", "expect", "seed", "description", "title")}
    orders = data.get("orders") or {}
    outcome = RULESET.adjudicate(position, RULESET.decode_turn(RULESET.decode(position), orders),
                               int(data.get("seed", 0)))
    before = position_to_dict(position_from_dict(position))
    return TurnReport(
        game_id=path.stem.replace("_", "-"), title=str(data.get("title", "")),
        ruleset="fastplay", turn=int(position.get("turn", 1)), position_before=before,
        position_after=outcome.position, events=outcome.events, orders=orders,
        names=NAMES, next_deadline=datetime(2026, 12, 1, 17, 0, tzinfo=UTC),
        timezone="Europe/Amsterdam", game_over=outcome.game_over,
        winners=list(outcome.winners), dice=list(outcome.dice))


def test_two_fastplay_turns_at_least() -> None:
    assert len(TURNS) >= 2


@pytest.mark.parametrize("path", TURNS, ids=[p.stem for p in TURNS])
def test_fastplay_report_matches_golden(path: Path) -> None:
    text = RULESET.render_report(fastplay_report(path))
    assert_fits(text)
    check_golden(f"fastplay_{path.stem}", text)


def test_fp_report_reads_what_happened() -> None:
    report = fastplay_report(HERE / "fastplay" / "fp_dogfight.yaml")
    text = RULESET.render_report(report)
    assert "THE BOARD AT THE START OF TURN 5" in text
    assert "Next deadline (turn 5): Tue 1 Dec 2026 18:00 CET (Europe/Amsterdam)" in text
    # move by move in the ruleset's own words, every die shown (FP8)
    assert "Carl fires at Gus (2 hexes, 4 dice): 3 2 4 6 -> 2 hits" in text
    assert "Dora enters at B1 facing N, as ordered" in text  # FP14
    assert "Hanna: AF from J6, flies off the board" in text  # FP13
    # the planes table: hex, heading, side, hits of 6, kills, ace, cards, NMR
    row = next(line for line in text.splitlines() if line.startswith("  H Hanna"))
    assert row.split() == ["H", "Hanna", "Germans", "-", "-", "left", "4/6", "0", "-",
                           "10", "0"]
    row = next(line for line in text.splitlines() if line.startswith("  d Dora"))
    assert row.split()[2:5] == ["Allies", "C4", "NE"]
    assert "  Germans 2   Allies 1" in text  # the score by side (FP19)
    assert "ENTER B1 N" in text and "PLANE     1: LS   2: LS   3: A" in text
    assert "Dice rolled this turn: 3 2 4 6" in text


def test_fp_report_of_the_last_turn() -> None:
    text = RULESET.render_report(fastplay_report(HERE / "fastplay" / "fp_last_turn.yaml"))
    assert "GAME OVER. Winners: Germans (FP19)" in text
    assert "THE BOARD AT THE END OF THE GAME" in text
    assert "Duel: Dora and Gus fight it out alone" in text  # FP15
    assert "Anna is now an ace with 5 victories" in text  # FP11
    row = next(line for line in text.splitlines() if line.startswith("  A Anna"))
    assert "ACE" in row.split()
    assert "DUEL dora" in text


def test_fp1_map_letters_sides_and_hex_names() -> None:
    """Upper case Germans, lower case Allies; each hex at its column letter
    and the row numbered at both edges; the A/C/E files half a hex lower."""
    position = {"board": {"files": 10, "ranks": 10}, "aircraft": {
        "anna": {"team": "Germans", "hex": "E8", "heading": "S"},
        "bert": {"team": "Allies", "hex": "F3", "heading": "NW"},
        "carl": {"team": "Allies", "hex": "J10", "heading": "SW"}}}
    lines = render_fastplay_map(position_from_dict(position))
    assert max(len(line) for line in lines) <= 70
    assert lines[0].split() == list("ABCDEFGHIJ") and lines[0] == lines[-1]
    board = FastBoard()

    def drawn(name: str) -> tuple[str, str]:
        f, n = board.file_number(board.parse(name))
        col = lines[0].index(chr(ord("A") + f))
        # of the two rows numbered n, the one with something drawn in the column
        row = next(r for r in lines[1:-1] if r[:2].strip() == str(n) and r[col] != " ")
        return row[col:col + 2], row.split()[-1]

    assert drawn("E8") == ("Av", "8")
    assert drawn("F3") == ("\\b", "3")
    assert drawn("J10") == ("/c", "10")
    assert letters_of(position_from_dict(position)) == {"anna": "A", "bert": "b", "carl": "c"}
    # B1 is drawn half a hex above A1 (FP1): the row above A1's
    rows = [r for r in lines[1:-1] if r[:2] == " 1"]
    assert len(rows) == 2 and rows[0][4 + 5] == "." and rows[1][4] == "."


@pytest.mark.parametrize("files, ranks", [(10, 10), (12, 8), (13, 20), (26, 12), (2, 2)])
def test_fp1_every_board_fits_seventy_columns(files: int, ranks: int) -> None:
    lines = render_fastplay_map(position_from_dict({"board": {"files": files, "ranks": ranks}}))
    assert max(len(line) for line in lines) <= 70
    assert len(lines) == 2 * ranks + 2
    dots = sum(line[3:].count(".") for line in lines)
    assert dots == files * ranks  # one dot for every empty hex


@pytest.mark.parametrize("path", TURNS, ids=[p.stem for p in TURNS])
def test_fp_svg_one_element_per_plane_with_paths(path: Path) -> None:
    report = fastplay_report(path)
    svg = RULESET.render_map_svg(report)
    assert svg is not None
    root = ET.fromstring(svg)
    ids = [g.get("id") for g in root.iter(f"{SVG}g")
           if (g.get("id") or "").startswith("aircraft-")]
    flying = sorted(p for p, a in report.position_after["aircraft"].items()
                    if a["state"] == "flying")
    assert sorted(ids) == [f"aircraft-{p}" for p in flying]
    assert len(ids) == len(set(ids))
    hexes = [p for p in root.iter(f"{SVG}polygon") if "hex" in (p.get("class") or "")]
    assert len(hexes) == 100
    titles = {p.findtext(f"{SVG}title") for p in hexes}
    assert "E8" in titles and "A1 (edge hex, FP1)" in titles  # hex names on hover
    paths = [p for p in root.iter(f"{SVG}polyline") if "path" in (p.get("class") or "")]
    assert paths  # the paths flown this turn
    fire = [line for line in root.iter(f"{SVG}line")
            if "fire" in (line.get("class") or "").split()]
    shots = [e for e in plain_events(report) if e["kind"] == "fire"]
    assert len(fire) == len(shots)
    # a shot that hit is marked on its target with the hits scored; a miss looks different
    marks = [g for g in root.iter(f"{SVG}g") if g.get("class") == "hit-mark"]
    # one mark a hex hit, with the hits there (issue 43: marks never stacked)
    assert sum(int(m.findtext(f"{SVG}text", "").replace("\u2212", "")) for m in marks) == \
        sum(e["hits"] for e in shots if e["hits"])
    assert 0 < len(marks) <= len([e for e in shots if e["hits"]])
    assert {line.get("class") for line in fire} <= {"fire hit", "fire miss"}


def test_fp_svg_path_off_the_board_and_planes_in_one_hex() -> None:
    report = fastplay_report(HERE / "fastplay" / "fp_dogfight.yaml")
    turn = FastTurn.read(report)
    root = ET.fromstring(render_fastplay_svg(turn.after, turn.events))
    hanna = next(p for p in root.iter(f"{SVG}polyline") if "path-hanna" in p.get("class", ""))
    assert hanna.findtext(f"{SVG}title") == "hanna: flew H6 I6 J6 and off the board"
    anna = next(g for g in root.iter(f"{SVG}g") if g.get("id") == "aircraft-anna")
    gus = next(g for g in root.iter(f"{SVG}g") if g.get("id") == "aircraft-gus")
    assert "at F4" in anna.findtext(f"{SVG}title", "") and \
        "at F4" in gus.findtext(f"{SVG}title", "")
    assert anna[1].get("transform") != gus[1].get("transform")  # side by side (FP2)


def test_fp_archive_page_and_index_show_the_board() -> None:
    report = fastplay_report(HERE / "fastplay" / "fp_dogfight.yaml")
    page = render_turn_page(report, RULESET.render_report(report), label="turn 4",
                            pictures=RULESET.render_pictures(report))
    assert 'class="pbmref-map fastplay-map"' in page and 'id="aircraft-anna"' in page
    assert "THE BOARD AT THE START OF TURN 5" in page
    index = render_index("fp", "Class 7B", [], ruleset="fastplay",
                         map_svg=RULESET.render_position_svg(report.position_after, NAMES))
    assert 'id="aircraft-dora"' in index


def test_fp_map_reply() -> None:
    report = fastplay_report(HERE / "fastplay" / "fp_dogfight.yaml")
    text = RULESET.map_reply(report.position_after, NAMES, "Class 7B")
    assert_fits(text)
    assert text.startswith("Class 7B: the board at the start of turn 5")
    assert "PLANES" in text and "SCORE" in text and "THE SKY" not in text
    assert "Allies (lower case, south edge): b Bert, c Carl, d Dora" in text
