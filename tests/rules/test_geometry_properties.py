"""Property tests of the hex geometry (rules B1-B4, M2)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from pbmref.rules.hexgrid import Heading, Hex, HexBoard
from pbmref.rules.tweedekker.movement import manoeuvre
from pbmref.rules.tweedekker.orders import Manoeuvre

sides = st.integers(min_value=2, max_value=13)
coords = st.integers(min_value=-15, max_value=15)
hexes = st.builds(Hex, coords, coords)
headings = st.sampled_from(list(Heading))


def test_b1_board_sizes() -> None:
    assert len(list(HexBoard(10).hexes())) == 271
    assert len(list(HexBoard(9).hexes())) == 217


def test_b3_named_corners_and_centre() -> None:
    b = HexBoard(10)
    corners = {h.value: b.name(b.corner(h)) for h in Heading}
    assert corners == {"N": "J19", "NE": "S10", "SE": "S1", "S": "J1", "SW": "A1", "NW": "A10"}
    assert b.name(b.centre) == "J10"


@given(sides)
def test_b3_every_board_hex_name_round_trips(side: int) -> None:
    board = HexBoard(side)
    names = set()
    for h in board.hexes():
        text = board.name(h)
        assert board.parse(text) == h
        names.add(text)
    assert len(names) == 3 * side * (side - 1) + 1


@given(hexes, hexes)
def test_b4_distance_is_symmetric(a: Hex, b: Hex) -> None:
    assert a.distance(b) == b.distance(a) >= 0
    assert (a.distance(b) == 0) == (a == b)


@given(hexes, hexes, hexes)
def test_b4_triangle_inequality(a: Hex, b: Hex, c: Hex) -> None:
    assert a.distance(c) <= a.distance(b) + b.distance(c)


@given(headings)
def test_b2_six_left_turns_return_the_heading(h: Heading) -> None:
    turned = h
    for _ in range(6):
        turned = turned.left()
    assert turned is h
    assert h.left().right() is h and h.opposite().opposite() is h


@given(hexes, headings)
def test_m2_a_slip_and_a_turn_end_in_the_same_hex(start: Hex, h: Heading) -> None:
    left_turn, left_slip = manoeuvre(start, h, Manoeuvre.L), manoeuvre(start, h, Manoeuvre.LS)
    right_turn, right_slip = manoeuvre(start, h, Manoeuvre.R), manoeuvre(start, h, Manoeuvre.RS)
    assert left_turn[0] == left_slip[0] and right_turn[0] == right_slip[0]
    assert (left_turn[1], left_slip[1]) == (h.left(), h)
    assert (right_turn[1], right_slip[1]) == (h.right(), h)
    assert start.distance(left_turn[0]) == 1


@given(hexes, headings)
def test_m2_every_manoeuvre_moves_at_most_one_hex(start: Hex, h: Heading) -> None:
    for m in Manoeuvre:
        end, _ = manoeuvre(start, h, m)
        assert start.distance(end) == (0 if m is Manoeuvre.ZERO else 1)
