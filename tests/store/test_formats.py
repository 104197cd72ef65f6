"""Data-format versions of game folders (issue 44, item 4): a folder written
before the versions (0.1.0) is format 1 and gets its file at its first
opening, nothing else changed; a new game has it from the start; an older
format is brought up by its steps, once; a newer one is refused (the whole
referee's side of that: tests/hardening/test_gm_errors.py)."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from pbmref.base import formats
from pbmref.base.formats import FORMAT_FILE, DataFormat, FormatError
from pbmref.store import GameStore


def _files(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file() and p.name != ".lock"}


def test_a_game_of_0_1_0_gets_its_format_written_and_nothing_else(
        example_store: GameStore) -> None:
    folder = example_store.path("example")
    (folder / FORMAT_FILE).unlink()  # as 0.1.0 wrote it
    before = _files(folder)
    example_store.open("example")
    after = _files(folder)
    assert "format: 1" in (folder / FORMAT_FILE).read_text()
    assert {k: v for k, v in after.items() if k != FORMAT_FILE} == before


def test_a_new_game_has_its_format_from_the_start(fake_store: GameStore) -> None:
    assert formats.read_format(fake_store.path("fake1")) == 1


def test_a_newer_game_is_refused_and_left_alone(example_store: GameStore) -> None:
    folder = example_store.path("example")
    (folder / FORMAT_FILE).write_text("format: 9\n")
    before = _files(folder)
    with pytest.raises(FormatError, match=r"format.yaml: written by a newer pbmref"):
        example_store.open("example")
    assert _files(folder) == before


def test_an_older_format_is_brought_up_by_its_steps_once(tmp_path: Path) -> None:
    """A release that raises the format adds the step from the one before;
    the first opening runs it and writes the new number, later ones do not."""
    ran: list[Path] = []

    def one_to_two(folder: Path) -> None:
        ran.append(folder)
        (folder / "new-file").write_text("made by the step\n")

    kind = DataFormat("test folder", 2, {1: one_to_two})
    assert kind.open(tmp_path) == 1  # unversioned: format 1, brought to 2
    assert formats.read_format(tmp_path) == 2 and ran == [tmp_path]
    assert kind.open(tmp_path) == 2 and ran == [tmp_path]
    (tmp_path / FORMAT_FILE).write_text("format: 1\n")
    assert kind.open(tmp_path) == 1 and len(ran) == 2
    with pytest.raises(FormatError, match="cannot be brought to format 3"):
        DataFormat("test folder", 3, {1: one_to_two}).open(tmp_path)
