"""Property tests: the engine takes any orders without failing, and keeps its invariants.

Orders here include ones the orders layer would refuse (stalls, a fourth
burst, f-B without a gunner, I by a non-ace, take-off moves other than A A):
the engine must still finish the turn (T1) sensibly.
"""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from hypo import examples
from pbmref.rules.dice import Dice
from pbmref.rules.hexgrid import Heading, Hex, HexBoard
from pbmref.rules.tweedekker.engine import adjudicate
from pbmref.rules.tweedekker.orders import (
    FireDir,
    Manoeuvre,
    Move,
    PlaneOrders,
    TurnOrders,
    ZeppelinFire,
    ZeppelinVote,
)
from pbmref.rules.tweedekker.state import (
    Aircraft,
    AircraftState,
    Cloud,
    CloudKind,
    GameState,
    Runway,
    Wind,
    Zeppelin,
)

BOARD = HexBoard(10)
HEXES = list(BOARD.hexes())
headings = st.sampled_from(list(Heading))
board_hexes = st.sampled_from(HEXES)
moves = st.builds(Move, st.sampled_from(list(Manoeuvre)),
                  st.lists(st.sampled_from(list(FireDir)), max_size=4).map(tuple))
plane_orders = st.builds(
    PlaneOrders, st.lists(moves, max_size=4).map(tuple),
    st.one_of(st.none(), st.sampled_from(list(Runway))),
    st.one_of(st.none(), st.sampled_from(list(Runway))),
)
votes = st.lists(st.one_of(st.none(), st.builds(
    ZeppelinVote, st.one_of(st.none(), st.sampled_from(list(Manoeuvre))),
    st.one_of(st.none(), st.sampled_from(list(ZeppelinFire))))), max_size=3).map(tuple)


@st.composite
def aircraft(draw: st.DrawFn, pilot: str) -> Aircraft:
    airfield = draw(headings)
    state = draw(st.sampled_from([AircraftState.FLYING] * 3 + [AircraftState.LANDED,
                                  AircraftState.DOWN, AircraftState.TAXIING]))
    hex_ = BOARD.corner(airfield) if state is AircraftState.LANDED else draw(board_hexes)
    return Aircraft(pilot, hex_, draw(headings), airfield, state,
                    damage=draw(st.integers(1, 12)), ammo=draw(st.integers(0, 16)),
                    ace=draw(st.booleans()), rear_gun=draw(st.booleans()),
                    landed_turns=draw(st.integers(0, 2)), nmr=draw(st.integers(0, 2)))


@st.composite
def games(draw: st.DrawFn) -> tuple[GameState, TurnOrders]:
    n = draw(st.integers(1, 6))
    pilots = [f"p{i}" for i in range(n)]
    planes = tuple(draw(aircraft(p)) for p in pilots)
    zeppelins: list[Zeppelin] = []
    if draw(st.booleans()):
        h = draw(headings)
        nose = draw(board_hexes)
        length = draw(st.sampled_from([1, 2]))
        zhexes = (nose,) if length == 1 else (nose, nose.step(h.opposite()))
        zeppelins.append(Zeppelin("Z", zhexes, h, draw(st.integers(1, 20)),
                                  controlled=draw(st.booleans()),
                                  bomb_ready_turn=draw(st.integers(0, 4))))
    clouds = tuple(Cloud(kind, tuple(draw(st.lists(board_hexes, max_size=4))))
                   for kind in CloudKind)
    state = GameState(turn=draw(st.integers(1, 5)), wind=Wind(draw(headings),
                      draw(st.integers(0, 2)), draw(st.booleans())),
                      clouds=clouds, aircraft=planes, zeppelins=tuple(zeppelins))
    plane = {p: draw(plane_orders) for p in pilots if draw(st.booleans())}
    zep = {p: draw(votes) for p in [*pilots, "stranger"] if draw(st.booleans())}
    return state, TurnOrders(plane=plane, zeppelin=zep)


@settings(max_examples=examples(200), deadline=None)
@given(games(), st.integers(0, 1000))
def test_any_orders_give_a_sane_next_position(game: tuple[GameState, TurnOrders],
                                              seed: int) -> None:
    state, orders = game
    new, events = adjudicate(state, orders, Dice(seed))
    assert new.turn == state.turn + 1
    assert [a.pilot for a in new.aircraft] == [a.pilot for a in state.aircraft]
    for before, after in zip(state.aircraft, new.aircraft, strict=True):
        assert after.vp >= before.vp and after.dealt >= before.dealt
        assert 0 <= after.ammo <= 16
        assert after.damage <= 12
        if not before.state.in_fight:
            assert after.state is before.state and after.hex == before.hex
        if after.state is AircraftState.LANDED:
            assert after.hex == BOARD.corner(after.airfield)
        if after.state in (AircraftState.FLYING, AircraftState.TAXIING):
            assert BOARD.contains(after.hex)
        if after.state is AircraftState.FLYING and before.state is AircraftState.FLYING:
            assert before.ammo - after.ammo <= 3  # F1: at most three bursts a turn
    for z in new.zeppelins:
        assert any(BOARD.contains(h) for h in z.hexes)
    assert all(e.move in (0, 1, 2, 3) for e in events)
    # Same seed, same turn (V5).
    assert adjudicate(state, orders, Dice(seed)) == (new, events)


def test_landed_aircraft_out_of_fuel_is_just_landed() -> None:
    # A plain sanity case next to the properties: one landed aircraft, no orders.
    a = Aircraft("solo", BOARD.corner(Heading.N), Heading.S, Heading.N)
    new, _ = adjudicate(GameState(aircraft=(a,)), TurnOrders(), Dice(1))
    assert replace(new.plane("solo"), nmr=0) == replace(a, landed_turns=2)
    assert new.plane("solo").nmr == 1 and new.game_over and new.winners == ("solo",)
    assert Hex(0, -9) == new.plane("solo").hex
