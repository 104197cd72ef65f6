"""Hex geometry shared by the air rulesets: headings, hexes, the hexagonal board.

Rule B1-B4 of the tweedekker rulebook. Hexes are flat-topped with north up;
coordinates are axial ``(q, r)`` with the board's centre at ``(0, 0)``.
A hex prints as its name on a given board and parses back from it:

>>> board = HexBoard(10)
>>> board.name(Hex(0, 0))
'J10'
>>> board.parse("J19")
Hex(q=0, r=-9)
>>> board.name(board.parse("S1"))
'S1'
>>> Heading.N.left(), Heading.N.right(), Heading.SE.opposite()
(<Heading.NW: 'NW'>, <Heading.NE: 'NE'>, <Heading.NW: 'NW'>)
>>> Hex(0, 0).distance(Hex(2, -1))
2
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from enum import Enum

__all__ = ["Heading", "Hex", "HexBoard", "HexNameError"]


class HexNameError(ValueError):
    """A hex or heading name that does not exist (rule B2/B3)."""


class Heading(Enum):
    """The six headings, clockwise from north (rule B2)."""

    N = "N"
    NE = "NE"
    SE = "SE"
    S = "S"
    SW = "SW"
    NW = "NW"

    @property
    def index(self) -> int:
        return _INDEX[self]

    @property
    def delta(self) -> tuple[int, int]:
        """The axial step ``(dq, dr)`` to the neighbour in this heading."""
        return _DELTA_OF[self]

    def turned(self, sixths: int) -> Heading:
        """Turned clockwise by ``sixths`` times 60 degrees (negative: left)."""
        return _HEADINGS[(_INDEX[self] + sixths) % 6]

    def left(self) -> Heading:
        return self.turned(-1)

    def right(self) -> Heading:
        return self.turned(1)

    def opposite(self) -> Heading:
        return self.turned(3)

    @classmethod
    def parse(cls, text: str) -> Heading:
        """Parse a heading name, case-insensitively.

        >>> Heading.parse("sw")
        <Heading.SW: 'SW'>
        """
        try:
            return cls(text.strip().upper())
        except ValueError:
            raise HexNameError(
                f"{text!r} is not a heading; the six headings are N NE SE S SW NW"
            ) from None

    def __str__(self) -> str:
        return self.value


_HEADINGS: tuple[Heading, ...] = tuple(Heading)
# N, NE, SE, S, SW, NW in axial coordinates (rule B3).
_DELTAS: tuple[tuple[int, int], ...] = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))
_INDEX: dict[Heading, int] = {h: i for i, h in enumerate(_HEADINGS)}
_DELTA_OF: dict[Heading, tuple[int, int]] = dict(zip(_HEADINGS, _DELTAS, strict=True))


@dataclass(frozen=True, order=True, slots=True)
class Hex:
    """One hex in axial coordinates; it may lie off the board."""

    q: int
    r: int

    def step(self, heading: Heading, steps: int = 1) -> Hex:
        dq, dr = heading.delta
        return Hex(self.q + dq * steps, self.r + dr * steps)

    def distance(self, other: Hex) -> int:
        """Hex distance, the number of steps between two hexes (rule B4)."""
        dq = self.q - other.q
        dr = self.r - other.r
        return max(abs(dq), abs(dr), abs(dq + dr))

    def ring(self) -> int:
        """Distance from the centre of the board."""
        return max(abs(self.q), abs(self.r), abs(self.q + self.r))

    def direction_to(self, other: Hex) -> Heading | None:
        """The heading of a straight line from here to ``other``, if any."""
        d = self.distance(other)
        if d == 0:
            return None
        for heading in Heading:
            if self.step(heading, d) == other:
                return heading
        return None

    def axial(self) -> str:
        """The ``"q,r"`` spelling used for hexes off the board."""
        return f"{self.q},{self.r}"


_NAME = re.compile(r"^\s*([A-Za-z])\s*(\d{1,2})\s*$")
_NAMES: dict[int, list[list[str]]] = {}  # board side -> HexBoard._name_rows
_AXIAL = re.compile(r"^\s*(-?\d+)\s*,\s*(-?\d+)\s*$")


@dataclass(frozen=True, slots=True)
class HexBoard:
    """The hexagonal board of ``side`` hexes on a side (rule B1)."""

    side: int = 10

    def __post_init__(self) -> None:
        if not 2 <= self.side <= 13:
            raise ValueError(f"board side {self.side} is out of range 2-13")

    @property
    def radius(self) -> int:
        return self.side - 1

    @property
    def centre(self) -> Hex:
        return Hex(0, 0)

    def contains(self, hex_: Hex) -> bool:
        return hex_.ring() <= self.radius

    def hexes(self) -> Iterator[Hex]:
        """Every hex of the board, file by file, from the south end up."""
        r_max = self.radius
        for q in range(-r_max, r_max + 1):
            for r in range(min(r_max, r_max - q), max(-r_max, -r_max - q) - 1, -1):
                yield Hex(q, r)

    def corner(self, heading: Heading) -> Hex:
        """The corner hex in the given direction from the centre (rule B5)."""
        return self.centre.step(heading, self.radius)

    def name(self, hex_: Hex) -> str:
        """The hex's name (rule B3), or ``"q,r"`` when it is off the board."""
        q, r = hex_.q, hex_.r
        reach = 2 * self.side
        if -reach <= q <= reach and -reach <= r <= reach:
            return (_NAMES.get(self.side) or self._rows())[q][r]
        return f"{q},{r}"

    def names(self, hexes: Iterable[Hex]) -> list[str]:
        """The names of a line of hexes, as ``name`` gives each (at one call: the
        events of a turn name a thousand hexes).

        >>> HexBoard(10).names((Hex(0, 0), Hex(0, -1), Hex(30, 0)))
        ['J10', 'J11', '30,0']
        """
        reach = 2 * self.side
        rows = self._rows()
        return [rows[h.q][h.r] if -reach <= h.q <= reach and -reach <= h.r <= reach
                else f"{h.q},{h.r}" for h in hexes]

    def _rows(self) -> list[list[str]]:
        """This board size's names by ``rows[q][r]`` (``_name_rows``), made once."""
        rows = _NAMES.get(self.side)
        if rows is None:
            rows = _NAMES[self.side] = self._name_rows(2 * self.side)
        return rows

    def _name_rows(self, reach: int) -> list[list[str]]:
        """Every name within ``reach`` of the centre, by ``rows[q][r]`` (a negative
        coordinate counts from the end of its list): maps and events name many
        hexes, made once a board size."""
        r_max = self.side - 1
        size = 2 * reach + 1
        rows = [[""] * size for _ in range(size)]
        for q in range(-reach, reach + 1):
            for r in range(-reach, reach + 1):
                rows[q][r] = (f"{q},{r}" if max(abs(q), abs(r), abs(q + r)) > r_max else
                              f"{chr(65 + q + r_max)}{min(r_max, r_max - q) - r + 1}")
        return rows

    def parse(self, text: str) -> Hex:
        """Parse a hex name (or an off-board ``"q,r"``); raise HexNameError."""
        m = _AXIAL.match(text)
        if m:
            hex_ = Hex(int(m.group(1)), int(m.group(2)))
            return hex_
        m = _NAME.match(text)
        if not m:
            raise HexNameError(
                f"{text!r} is not a hex name; a hex is a file letter and a number, like J10"
            )
        r_max = self.radius
        q = ord(m.group(1).upper()) - ord("A") - r_max
        number = int(m.group(2))
        if abs(q) > r_max:
            last = chr(ord("A") + 2 * r_max)
            raise HexNameError(f"{text!r} is not on the board: files run from A to {last}")
        r = min(r_max, r_max - q) + 1 - number
        hex_ = Hex(q, r)
        if not self.contains(hex_):
            file = m.group(1).upper()
            top = self.file_length(q)
            raise HexNameError(f"{text!r} is not on the board: file {file} runs from 1 to {top}")
        return hex_

    def file_length(self, q: int) -> int:
        """How many hexes the file at column ``q`` holds."""
        return 2 * self.radius + 1 - abs(q)

    def on_edge(self, hex_: Hex) -> bool:
        return hex_.ring() == self.radius
