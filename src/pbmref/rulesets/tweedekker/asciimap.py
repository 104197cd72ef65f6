"""The whole tweedekker board drawn in characters, for a 70-column screen.

Layout (rules B1-B3): one column of text per file, three characters apart,
files lettered along the top and bottom. Flat-topped hexes sit half a hex
higher or lower than their neighbours in the next file, so each text row
holds every other file. An empty hex shows its number, so every hex name can
be read off: the column letter plus the number in the hex.

Each hex is four characters, ``|xx|``: two inside, one mark either side.

- `` 12 `` open sky (the hex's number); ``~12~`` cloud; ``#12#`` storm;
  ``=12=`` runway and ``[12]`` the corner hex of an airfield (B5).
- ``B^`` the aircraft lettered B heading N; ``B/`` NE, ``B\\`` SE, ``Bv`` S,
  ``/B`` SW, ``\\B`` NW (the mark sits on the side of the nose);
  ``B_`` landed. ``BC`` two aircraft, ``B+`` three or more.
- ``Z^`` the zeppelin's nose with its heading, ``zz`` its tail; ``ZB`` or
  ``zB`` an aircraft in a zeppelin hex.

A side-10 board is 61 characters wide and 39 lines high with its file rows.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping

from pbmref.rules.hexgrid import Heading, Hex, HexBoard
from pbmref.rules.tweedekker.state import (
    AircraftState,
    CloudKind,
    GameState,
    Runway,
    runway_hexes,
)
from pbmref.rulesets.air.names import pilot_letters
from pbmref.rulesets.air.report import piece_mark

__all__ = ["letters_of", "map_legend", "render_map"]

MARGIN = 3


@functools.cache
def _airfield_cells(board: HexBoard) -> dict[Hex, str]:
    """The airfields' marks (the same on every map of a board: copy before adding)."""
    cells: dict[Hex, str] = {}
    for corner in Heading:
        cells[board.corner(corner)] = "[]"
        for runway in Runway:
            for h in runway_hexes(board, corner, runway):
                cells[h] = "=="
    return cells


def letters_of(state: GameState) -> dict[str, str]:
    """The map letter of each pilot and zeppelin of ``state`` (``pilot_letters``)."""
    return pilot_letters(state.pilots(), [z.name for z in state.zeppelins])


def _cloud_marks(board: HexBoard, state: GameState) -> dict[Hex, str]:
    """The airfields' and the clouds' marks around a hex (C1, L3)."""
    marks: dict[Hex, str] = dict(_airfield_cells(board))
    for cloud in state.clouds:
        mark = "##" if cloud.kind is CloudKind.STORM else "~~"
        for h in cloud.hexes:
            marks[h] = mark
    return marks


def _plane_pieces(board: HexBoard, state: GameState,
                  letters: Mapping[str, str]) -> dict[Hex, list[str]]:
    """The aircraft on the map, by hex: each one's letter and heading mark."""
    pieces: dict[Hex, list[str]] = {}
    for a in state.aircraft:
        if not a.in_fight or not board.contains(a.hex):
            continue
        pieces.setdefault(a.hex, []).append(
            piece_mark(letters.get(a.pilot, "?"), a.heading, a.state is AircraftState.LANDED))
    return pieces


def _zeppelin_cells(board: HexBoard, state: GameState,
                    letters: Mapping[str, str]) -> dict[Hex, tuple[str, str]]:
    """The zeppelins' hexes: (the cell's two characters, the letter alone); the
    nose shows the heading, the tail the letter twice in lower case (Z1)."""
    cells: dict[Hex, tuple[str, str]] = {}
    for z in sorted(state.zeppelins, key=lambda z: z.name):
        if z.destroyed:
            continue
        letter = letters.get(z.name, "Z")
        for i, h in enumerate(z.hexes):
            if not board.contains(h):
                continue
            cells[h] = ((piece_mark(letter, z.heading), letter) if i == 0
                        else (letter.lower() * 2, letter.lower()))
    return cells


def _inside(name: str, here: list[str], zep: tuple[str, str] | None) -> str:
    """The two characters inside a hex: its number, or what stands in it."""
    if zep is not None:
        return zep[0] if not here else zep[1] + (here[0].strip("^/\\v_") or "?")
    if len(here) == 1:
        return here[0]
    if len(here) == 2:
        return "".join(p.strip("^/\\v_") for p in here)
    if len(here) > 2:
        return here[0].strip("^/\\v_") + "+"
    return f"{int(name[1:]):2d}"


def _step(radius: int) -> int:
    """Characters between files: 3, or 2 for sides 12 and 13 (closer files)."""
    return 3 if MARGIN + 3 * 2 * radius + 3 <= 70 else 2


@functools.cache
def _open_sky(side: int) -> tuple[tuple[str, ...], ...]:
    """The rows of an empty board of ``side``: every hex showing its number."""
    board = HexBoard(side)
    R = board.radius
    step = _step(R)
    rows = [[" "] * (MARGIN + step * 2 * R + 3) for _ in range(4 * R + 1)]
    for h in board.hexes():
        x = MARGIN + step * (h.q + R)
        rows[2 * h.r + h.q + 2 * R][x:x + 2] = _inside(board.name(h), [], None)
    return tuple(tuple(row) for row in rows)


def render_map(state: GameState, letters: Mapping[str, str] | None = None) -> list[str]:
    """The map's lines (file letters above and below), each at most 61 wide."""
    board = state.board
    R = board.radius
    if letters is None:
        letters = letters_of(state)
    marks = _cloud_marks(board, state)
    pieces = _plane_pieces(board, state, letters)
    zep_cells = _zeppelin_cells(board, state, letters)
    step = _step(R)
    rows = [list(row) for row in _open_sky(board.side)]
    # the cells of different hexes never overlap: only hexes with something in them
    # are drawn over the open sky
    for h in {*pieces, *zep_cells, *marks}:
        if not board.contains(h):
            continue
        x = MARGIN + step * (h.q + R)
        y = 2 * h.r + h.q + 2 * R
        inside = _inside(board.name(h), pieces.get(h, []), zep_cells.get(h))
        cell_mark = marks.get(h)
        left = right = " " if cell_mark is None else cell_mark[0]
        if cell_mark == "[]":
            left, right = "[", "]"
        rows[y][x - 1:x + 3] = [left, inside[0], inside[1], right]
    files = " " * MARGIN + (" " * (step - 1)).join(chr(ord("A") + c) for c in range(2 * R + 1))
    return [files] + ["".join(row).rstrip() for row in rows] + [files]


def map_legend(state: GameState, letters: Mapping[str, str],
               names: Mapping[str, str] | None = None) -> list[str]:
    """Which letter is whom, and what the marks mean (short lines)."""
    names = names or {}
    entries: list[str] = []
    for a in state.aircraft:
        if a.in_fight:
            entries.append(f"{letters.get(a.pilot, '?')} {names.get(a.pilot) or a.pilot}")
    for z in sorted(state.zeppelins, key=lambda z: z.name):
        if not z.destroyed:
            entries.append(f"{letters.get(z.name, 'Z')} zeppelin {z.name}")
    lines: list[str] = []
    line = "Key:"
    for entry in entries:
        piece = f"  {entry}"
        if len(line) + len(piece) > 68:
            lines.append(line)
            line = "    "
        line += piece
    lines.append(line)
    lines.append("    ^ / \\ v on the nose side = heading N NE SE S; /B = SW,")
    lines.append("    \\B = NW, B_ landed, BC two aircraft, Z^ zeppelin nose, zz tail")
    lines.append("    ~12~ cloud  #12# storm  [19] airfield corner  =18= runway")
    return lines
