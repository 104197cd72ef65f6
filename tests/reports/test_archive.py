"""The HTML archive and ``pbmref render GAME`` (a three-turn game via the store)."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
import yaml

from pbmref import archive, gm
from pbmref.archive import drawn, write_archive
from pbmref.cli import main
from pbmref.reports.html import render_turn_page
from pbmref.reports.model import TurnReport
from pbmref.rulesets import get_ruleset
from pbmref.store import GameStore

from .archive_game import START, make_game
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
    assert sorted(p.name for p in out.iterdir()) == [  # and the record of what each was drawn from
        ".pbmref-pages.json", "index.html", "turn-001.html", "turn-002.html", "turn-003.html"]
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


# ---------------------------------------------------------------- drawing what changed only (issue 41, item 7)

def _pages(folder: Path) -> dict[str, str]:
    return {p.name: p.read_text(encoding="utf-8") for p in sorted(folder.glob("*.html"))}


def _drawn(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The turns whose pages the archive draws from now on."""
    drawn: list[int] = []
    draw = archive.render_turn_page

    def counted(report: TurnReport, *args: Any, **kwargs: Any) -> str:
        drawn.append(report.turn)
        return draw(report, *args, **kwargs)

    monkeypatch.setattr(archive, "render_turn_page", counted)
    return drawn


def _render(games: Path, out: Path, capsys: pytest.CaptureFixture[str]) -> str:
    code = main(["render", "arch3", "--games", str(games), "--out", str(out)])
    said = capsys.readouterr()
    assert code == 0, said.err
    return said.out


def test_a_render_after_one_more_turn_draws_only_what_changed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """One more turn: its page, the page before it (its link to the new turn)
    and the index are drawn and written; the rest is left as it is, and the
    archive is what a render from nothing writes."""
    store = make_game(tmp_path / "games")
    _render(store.dir, tmp_path / "archive", capsys)
    gm.adjudicate(store, "arch3", START + timedelta(hours=6 * 48), force=True)
    drawn = _drawn(monkeypatch)
    said = _render(store.dir, tmp_path / "archive", capsys)
    assert drawn == [3, 4]
    assert "drew 2 turn pages (2 up to date) and index.html" in said
    out = tmp_path / "archive" / "arch3"
    assert 'href="turn-004.html"' in (out / "turn-003.html").read_text(encoding="utf-8")
    fresh = write_archive(store.open("arch3"), tmp_path / "fresh")
    assert len(fresh) == 5 and drawn == [3, 4, 1, 2, 3, 4]
    assert _pages(out) == _pages(tmp_path / "fresh")
    drawn.clear()
    said = _render(store.dir, tmp_path / "archive", capsys)
    assert drawn == [] and "nothing changed, 4 turn pages and index.html up to date" in said  # nothing changed: nothing drawn


def _edit_text(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, (old, path)
    path.write_text(text.replace(old, new), encoding="utf-8")


def _rename_player(games: Path, out: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _edit_text(games / "arch3" / "game.yaml", "name: Biggles", "name: Bigglesworth")


def _edit_report(games: Path, out: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _edit_text(games / "arch3" / "turns" / "002" / "report.txt", "\n", "\n\n")


def _delete_page(games: Path, out: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (out / "turn-001.html").unlink()


def _edit_page(games: Path, out: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _edit_text(out / "turn-001.html", "</body>", "<p>defaced</p></body>")


def _lose_record(games: Path, out: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (out / ".pbmref-pages.json").unlink()


def _spoil_record(games: Path, out: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (out / ".pbmref-pages.json").write_text('{"version": 1, "turns": {"1": {}}}')


def _new_code(games: Path, out: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(drawn, "code_digest", lambda: "another version of pbmref")


def _extend_deadline(games: Path, out: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    gm.extend(GameStore(games), "arch3", timedelta(hours=24), now=START)


CHANGES = [  # (what changed, the turn pages drawn again)
    (_rename_player, [1, 2, 3]),
    (_edit_report, [2]),
    (_delete_page, [1]),
    (_edit_page, [1]),
    (_lose_record, [1, 2, 3]),
    (_spoil_record, [1, 2, 3]),
    (_new_code, [1, 2, 3]),
    (_extend_deadline, []),  # the open turn's deadline is on the index only
]


@pytest.mark.parametrize(("change", "pages"), CHANGES, ids=[c.__name__[1:] for c, _ in CHANGES])
def test_a_page_is_drawn_again_when_what_it_is_drawn_from_changed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        change: Callable[[Path, Path, pytest.MonkeyPatch], None], pages: list[int]) -> None:
    store = make_game(tmp_path / "games")
    out = tmp_path / "archive" / "arch3"
    _render(store.dir, tmp_path / "archive", capsys)
    change(store.dir, out, monkeypatch)
    turns = _drawn(monkeypatch)
    _render(store.dir, tmp_path / "archive", capsys)
    assert turns == pages
    monkeypatch.undo()
    write_archive(store.open("arch3"), tmp_path / "fresh")
    assert _pages(out) == _pages(tmp_path / "fresh")
