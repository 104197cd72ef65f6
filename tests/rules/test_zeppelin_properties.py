"""Property tests: zeppelins under drift (W2, Z3, Z4) and votes (Z7, Z10)."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from hypo import examples
from pbmref.rules.hexgrid import Heading, Hex, HexBoard
from pbmref.rules.tweedekker.orders import Manoeuvre, TurnOrders, ZeppelinVote
from pbmref.rules.tweedekker.state import (
    Cloud,
    CloudKind,
    GameState,
    Settings,
    Wind,
    Zeppelin,
)

from .helpers import run

headings = st.sampled_from(list(Heading))


@st.composite
def zeppelin_positions(draw: st.DrawFn, controlled: bool = False) -> GameState:
    side = draw(st.integers(min_value=3, max_value=10))
    board = HexBoard(side)
    length = draw(st.sampled_from([1, 2]))
    heading = draw(headings)
    q = draw(st.integers(min_value=-side, max_value=side))
    r = draw(st.integers(min_value=-side, max_value=side))
    nose = Hex(q, r)
    hexes = (nose,) if length == 1 else (nose, nose.step(heading.opposite()))
    assume(any(board.contains(h) for h in hexes))
    storms = draw(st.lists(st.sampled_from(list(board.hexes())), max_size=6))
    wind = Wind(draw(headings), draw(st.integers(min_value=0, max_value=2)), draw(st.booleans()))
    zeppelin = Zeppelin("Z", hexes, heading, damage=draw(st.integers(1, 20)),
                        controlled=controlled)
    return GameState(
        settings=Settings(board_side=side),
        wind=wind,
        clouds=(Cloud(CloudKind.STORM, tuple(storms)),),
        zeppelins=(zeppelin,),
    )


def assert_whole(before: Zeppelin, after: Zeppelin, board: HexBoard, same_heading: bool) -> None:
    assert len(after.hexes) == len(before.hexes)
    if len(after.hexes) == 2:
        assert after.hexes[1] == after.hexes[0].step(after.heading.opposite())  # Z1
    if same_heading:
        assert after.heading is before.heading  # Z3: keeps its heading for ever
    assert any(board.contains(h) for h in after.hexes)  # Z4
    assert after.damage <= before.damage  # damage never grows


@settings(max_examples=examples(300), deadline=None)
@given(zeppelin_positions(), st.integers(min_value=0, max_value=10_000))
def test_w2_z4_drifting_zeppelin_keeps_shape_heading_and_a_hex_on_board(
    state: GameState, seed: int
) -> None:
    for _ in range(4):
        before = state.zeppelins[0]
        state, _events = run(replace(state, game_over=False), TurnOrders(), seed)
        after = state.zeppelins[0]
        assert_whole(before, after, state.board, same_heading=True)
        if after.destroyed:
            break


@settings(max_examples=examples(200), deadline=None)
@given(
    zeppelin_positions(controlled=True),
    st.lists(st.sampled_from([m for m in Manoeuvre if m is not Manoeuvre.I]),
             min_size=3, max_size=3),
)
def test_z10_z4_voted_zeppelin_keeps_shape_and_a_hex_on_board(
    state: GameState, votes: list[Manoeuvre]
) -> None:
    from pbmref.rules.tweedekker.state import Aircraft

    voter = Aircraft("voter", Hex(0, 0), Heading.N, Heading.N, landed_turns=0)
    state = replace(state, aircraft=(replace(voter, hex=state.board.corner(Heading.N)),))
    orders = TurnOrders(zeppelin={"voter": tuple(ZeppelinVote(m) for m in votes)})
    for _ in range(3):
        before = state.zeppelins[0]
        state, _events = run(replace(state, game_over=False), orders)
        assert_whole(before, state.zeppelins[0], state.board, same_heading=False)
