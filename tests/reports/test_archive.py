"""The HTML archive and ``pbmref render GAME`` (a three-turn game via the store)."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import yaml

from pbmref.cli import main
from pbmref.reports.html import render_turn_page
from pbmref.rulesets import get_ruleset

from .archive_game import make_game
from .engine_run import run_scenario

HERE = Path(__file__).parent


def test_turn_page_has_map_report_and_links() -> None:
    report = run_scenario(yaml.safe_load(
        (HERE / "scenarios" / "dogfight.yaml").read_text(encoding="utf-8")))
    tweedekker = get_ruleset("tweedekker")
    page = render_turn_page(report, tweedekker.render_report(report), label="turn 7",
                            pictures=tweedekker.render_pictures(report),
                            prev_href="turn-006.html", next_href=None)
    assert page.startswith("<!DOCTYPE html>")
    assert '<a rel="prev" id="prev" href="turn-006.html">' in page
    assert 'id="next"' not in page
    svg = page[page.index("<svg"):page.index("</svg>") + 6]
    ET.fromstring(svg)
    assert "<pre>" in page and "Carl is shot down: a kill for Manfred" in page
    # nothing fetched from outside: no scripts, images, links or fonts
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", page)
    assert "<script" not in page and "@import" not in page


def test_render_command_writes_the_archive(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    make_game(tmp_path / "games")
    code = main(["render", "arch3", "--games", str(tmp_path / "games"),
                 "--out", str(tmp_path / "archive"), "--svg", str(tmp_path / "now.svg")])
    assert code == 0, capsys.readouterr().err
    out = tmp_path / "archive" / "arch3"
    assert sorted(p.name for p in out.iterdir()) == [
        "index.html", "turn-001.html", "turn-002.html", "turn-003.html"]
    index = (out / "index.html").read_text(encoding="utf-8")
    for n in (1, 2, 3):
        assert f'href="turn-00{n}.html"' in index
    second = (out / "turn-002.html").read_text(encoding="utf-8")
    assert 'href="turn-001.html"' in second and 'href="turn-003.html"' in second
    # the page shows the report players were mailed
    game_report = (tmp_path / "games" / "arch3" / "turns" / "002" / "report.txt").read_text(
        encoding="utf-8")
    assert game_report.splitlines()[1].strip().split()[0] in second
    ET.fromstring((tmp_path / "now.svg").read_text(encoding="utf-8"))


def test_render_command_unknown_game(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    code = main(["render", "nope", "--games", str(tmp_path)])
    assert code == 1
    err = capsys.readouterr().err
    assert "error:" in err and "nope" in err and "Traceback" not in err
