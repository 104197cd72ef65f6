"""The Fast Play board: a rectangle of flat-topped hexes (rule FP1).

Hexes use the shared axial geometry of ``pbmref.rules.hexgrid``. Hex number
``n`` of file index ``f`` (A = 0) is ``Hex(f, -(n - 1) - ceil(f / 2))``, so
A1 is ``(0, 0)`` and B1 lies north-east of it; north is ``(0, -1)``.

>>> board = FastBoard(10, 10)
>>> board.name(Hex(0, 0)), board.name(Hex(1, -1))
('A1', 'B1')
>>> board.parse("b1") == Hex(0, 0).step(Heading.NE)
True
>>> board.contains(board.parse("J10")), board.on_edge(board.parse("E5"))
(True, False)
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from pbmref.rules.hexgrid import Heading, Hex, HexNameError

__all__ = ["FastBoard"]

_NAME = re.compile(r"^\s*([A-Za-z])\s*(\d{1,2})\s*$")
_AXIAL = re.compile(r"^\s*(-?\d+)\s*,\s*(-?\d+)\s*$")


def _half_up(f: int) -> int:
    return (f + 1) // 2  # ceil(f / 2), also for negative f


@dataclass(frozen=True, slots=True)
class FastBoard:
    """``files`` files (A...) of ``ranks`` hexes each (FP1)."""

    files: int = 10
    ranks: int = 10

    def __post_init__(self) -> None:
        if not 2 <= self.files <= 26:
            raise ValueError(f"{self.files} files is out of range 2-26")
        if not 2 <= self.ranks <= 99:
            raise ValueError(f"{self.ranks} ranks is out of range 2-99")

    def hex_at(self, file: int, number: int) -> Hex:
        """The hex ``number`` (1 = south) of file index ``file`` (A = 0)."""
        return Hex(file, -(number - 1) - _half_up(file))

    def file_number(self, hex_: Hex) -> tuple[int, int]:
        """``(file index, number)`` of a hex (also for hexes off the board)."""
        return hex_.q, -hex_.r - _half_up(hex_.q) + 1

    def contains(self, hex_: Hex) -> bool:
        f, n = self.file_number(hex_)
        return 0 <= f < self.files and 1 <= n <= self.ranks

    def on_edge(self, hex_: Hex) -> bool:
        """An edge hex: first or last file, or number 1 or the last number (FP1)."""
        if not self.contains(hex_):
            return False
        f, n = self.file_number(hex_)
        return f in (0, self.files - 1) or n in (1, self.ranks)

    def edge_row(self, north: bool) -> tuple[Hex, ...]:
        """The hexes of the north (last number) or south (number 1) edge, west to east."""
        n = self.ranks if north else 1
        return tuple(self.hex_at(f, n) for f in range(self.files))

    def hexes(self) -> Iterator[Hex]:
        """Every hex, file by file from the west, each from the south."""
        for f in range(self.files):
            for n in range(1, self.ranks + 1):
                yield self.hex_at(f, n)

    def edge_hexes(self) -> tuple[Hex, ...]:
        return tuple(h for h in self.hexes() if self.on_edge(h))

    def name(self, hex_: Hex) -> str:
        """The hex's name (``A1``), or ``"q,r"`` when it is off the board."""
        if not self.contains(hex_):
            return hex_.axial()
        f, n = self.file_number(hex_)
        return f"{chr(ord('A') + f)}{n}"

    def names(self, hexes: Iterable[Hex]) -> list[str]:
        """The names of a line of hexes, as ``name`` gives each."""
        return [self.name(h) for h in hexes]

    def parse(self, text: str) -> Hex:
        """Parse a hex name on this board (or an axial ``"q,r"``); raise HexNameError."""
        m = _AXIAL.match(text)
        if m:
            return Hex(int(m.group(1)), int(m.group(2)))
        m = _NAME.match(text)
        last = chr(ord("A") + self.files - 1)
        if not m:
            raise HexNameError(
                f"{text!r} is not a hex name; a hex is a file letter A-{last} and a "
                f"number 1-{self.ranks}, like C4"
            )
        f = ord(m.group(1).upper()) - ord("A")
        n = int(m.group(2))
        if not 0 <= f < self.files:
            raise HexNameError(f"{text!r} is not on the board: files run from A to {last}")
        if not 1 <= n <= self.ranks:
            raise HexNameError(f"{text!r} is not on the board: numbers run from 1 to {self.ranks}")
        return self.hex_at(f, n)

    def line(self, start: Hex, heading: Heading, length: int) -> tuple[Hex, ...]:
        """The hexes straight ahead of ``start`` up to ``length``, stopping at the edge."""
        out: list[Hex] = []
        h = start
        for _ in range(length):
            h = h.step(heading)
            if not self.contains(h):
                break
            out.append(h)
        return tuple(out)
