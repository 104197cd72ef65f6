"""Nothing about other players' orders enters a preview (issue 22).

A preview's signature takes the public position and one player's own orders
only. Over random positions, these tests make the stronger claim too: the one
preview made from a player's own orders is the path the real turn flies,
whatever the other players order (up to the move the player is shot down,
which others can cause), and every Diplomacy order it warns about fails in
the real adjudication whatever the other powers order.
"""

from __future__ import annotations

import inspect
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hypo import examples
from pbmref.rules.dice import Dice
from pbmref.rules.diplomacy import (
    POWERS,
    Loc,
    Order,
    Phase,
    Position,
    Unit,
    UnitType,
    Variant,
    adjudicate_full,
    standard_map,
)
from pbmref.rules.diplomacy import plan as dip_plan
from pbmref.rules.diplomacy.legal import movement_problem
from pbmref.rules.diplomacy.orders import Convoy, Hold, Move, SupportHold, SupportMove
from pbmref.rules.diplomacy.state import initial_position
from pbmref.rules.fastplay import adjudicate_turn, check_plane_orders
from pbmref.rules.fastplay import plan as fp_plan
from pbmref.rules.fastplay.autopilot import choose_orders
from pbmref.rules.fastplay.events import Entered
from pbmref.rules.fastplay.events import Manoeuvred as FpManoeuvred
from pbmref.rules.fastplay.events import ShotDown as FpShotDown
from pbmref.rules.fastplay.orders import PlaneOrders as FpOrders
from pbmref.rules.fastplay.orders import TurnOrders as FpTurn
from pbmref.rules.fastplay.position import position_from_dict as fp_position
from pbmref.rules.fastplay.state import PlaneState
from pbmref.rules.hexgrid import Heading, HexBoard
from pbmref.rules.tweedekker import plan as tw_plan
from pbmref.rules.tweedekker.engine import adjudicate
from pbmref.rules.tweedekker.events import Burst, Manoeuvred, ShotDown
from pbmref.rules.tweedekker.orders import (
    FireDir,
    Manoeuvre,
    PlaneOrders,
    TurnOrders,
    ZeppelinFire,
    ZeppelinVote,
)
from pbmref.rules.tweedekker.orders import (
    Move as PlaneMove,
)
from pbmref.rules.tweedekker.state import (
    Aircraft,
    AircraftState,
    Cloud,
    CloudKind,
    GameState,
    Runway,
    Zeppelin,
)
from pbmref.rulesets.tweedekker.preview import preview_lines


def test_previews_take_no_other_players_orders() -> None:
    """The signatures: the position, the player, its own orders."""
    assert list(inspect.signature(tw_plan.preview).parameters) == [
        "state", "pilot", "orders", "votes"]
    assert list(inspect.signature(fp_plan.preview).parameters) == ["state", "pilot", "orders"]
    assert list(inspect.signature(dip_plan.preview).parameters) == [
        "position", "power", "orders"]
    with pytest.raises(ValueError, match="GER's order"):
        dip_plan.preview(initial_position(), "FRA",
                         [Hold("GER", UnitType.ARMY, Loc("mun"))])


# --------------------------------------------------------------------- tweedekker

BOARD = HexBoard(10)
HEXES = list(BOARD.hexes())
headings = st.sampled_from(list(Heading))
board_hexes = st.sampled_from(HEXES)
moves = st.builds(PlaneMove, st.sampled_from([m for m in Manoeuvre if m is not Manoeuvre.I]),
                  st.lists(st.sampled_from([FireDir.A, FireDir.L, FireDir.R]), max_size=2,
                           unique=True).map(tuple))
plane_orders = st.one_of(st.none(), st.builds(
    PlaneOrders, st.lists(moves, max_size=3).map(tuple),
    st.one_of(st.none(), st.sampled_from(list(Runway))),
    st.one_of(st.none(), st.sampled_from(list(Runway)))))
votes = st.lists(st.one_of(st.none(), st.builds(
    ZeppelinVote, st.one_of(st.none(), st.sampled_from(list(Manoeuvre)[:6])),
    st.one_of(st.none(), st.sampled_from(list(ZeppelinFire))))), min_size=3,
    max_size=3).map(tuple)


@st.composite
def aircraft(draw: st.DrawFn, pilot: str) -> Aircraft:
    airfield = draw(headings)
    state = draw(st.sampled_from([AircraftState.FLYING] * 4 + [AircraftState.LANDED,
                                  AircraftState.LEFT]))
    hex_ = BOARD.corner(airfield) if state is AircraftState.LANDED else draw(board_hexes)
    return Aircraft(pilot, hex_, draw(headings), airfield, state,
                    damage=draw(st.integers(1, 12)), ammo=draw(st.integers(0, 16)),
                    landed_turns=draw(st.integers(0, 2)))


@st.composite
def air_games(draw: st.DrawFn) -> tuple[GameState, str]:
    pilots = [f"p{i}" for i in range(draw(st.integers(2, 5)))]
    planes = tuple(draw(aircraft(p)) for p in pilots)
    zeppelins: tuple[Zeppelin, ...] = ()
    if draw(st.booleans()):
        h = draw(headings)
        nose = draw(board_hexes)
        zeppelins = (Zeppelin("Z", (nose, nose.step(h.opposite())), h,
                              draw(st.integers(1, 20)), controlled=draw(st.booleans())),)
    clouds = tuple(Cloud(kind, tuple(draw(st.lists(board_hexes, max_size=6))))
                   for kind in CloudKind)
    state = GameState(turn=draw(st.integers(1, 5)), clouds=clouds, aircraft=planes,
                      zeppelins=zeppelins)
    return state, draw(st.sampled_from(pilots))


@st.composite
def others(draw: st.DrawFn, state: GameState,
           me: str) -> tuple[dict[str, PlaneOrders], dict[str, Any]]:
    """Random orders and votes of every player but ``me``."""
    plane: dict[str, PlaneOrders] = {}
    zeppelin: dict[str, Any] = {}
    for p in state.pilots():
        if p == me:
            continue
        theirs = draw(plane_orders)
        if theirs is not None:
            plane[p] = theirs
        zeppelin[p] = draw(votes)
    return plane, zeppelin


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(air_games(), plane_orders, votes, st.data())
def test_tweedekker_preview_is_the_path_whatever_the_others_order(
        game: tuple[GameState, str], mine: PlaneOrders | None,
        my_votes: tuple[ZeppelinVote | None, ...], data: st.DataObject) -> None:
    state, me = game
    plan = tw_plan.preview(state, me, mine, my_votes)
    text = preview_lines(plan)
    for seed in (1, 2):
        plane, zeppelin = data.draw(others(state, me))
        if mine is not None:
            plane[me] = mine
        zeppelin[me] = my_votes
        _, events = adjudicate(state, TurnOrders(plane=plane, zeppelin=zeppelin), Dice(seed))
        down = next((e.move for e in events if isinstance(e, ShotDown) and e.target == me), 4)
        flown = [(e.move, e.manoeuvre, e.outcome, e.from_hex, e.to_hex, e.heading)
                 for e in events if isinstance(e, Manoeuvred) and e.pilot == me
                 and e.move <= down]
        planned = [(s.move, s.order, s.outcome, s.from_hex, s.to_hex, s.heading)
                   for s in plan.steps]
        assert planned[:len(flown)] == flown
        # Lines of fire: others can move a steered zeppelin before anyone
        # fires, and destroy any zeppelin, which then no longer blocks.
        last = 0 if any(z.controlled for z in state.zeppelins) else (
            1 if state.zeppelins else 3)
        fired = [(e.move, e.direction, e.from_hex, e.line, e.stopped_by)
                 for e in events if isinstance(e, Burst) and e.shooter == me
                 and e.move <= min(down, last)]
        previewed = [(s.move, b.direction.value, b.from_hex, b.line, b.stopped_by)
                     for s in plan.steps for b in s.bursts if s.move <= min(down, last)]
        assert previewed == fired
        # The same preview, word for word, is what the player reads.
        assert preview_lines(tw_plan.preview(state, me, mine, my_votes)) == text


# --------------------------------------------------------------------- fast play

FILES = "ABCDEFGHIJ"


@st.composite
def fp_positions(draw: st.DrawFn) -> dict[str, Any]:
    aircraft: dict[str, Any] = {}
    for i in range(draw(st.integers(2, 6))):
        state = draw(st.sampled_from(["flying"] * 5 + ["left", "down"]))
        entry: dict[str, Any] = {"team": "Germans" if i % 2 == 0 else "Allies",
                                 "state": state, "heading": draw(headings).value}
        if state == "flying":
            entry["hex"] = f"{draw(st.sampled_from(FILES))}{draw(st.integers(1, 10))}"
            entry["hits"] = draw(st.integers(0, 5))
        aircraft[f"p{i}"] = entry
    return {"turn": draw(st.integers(1, 6)), "aircraft": aircraft}


@settings(max_examples=examples(80), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(fp_positions(), st.integers(0, 10**6))
def test_fastplay_preview_is_the_path_whatever_the_others_order(
        data: dict[str, Any], seed: int) -> None:
    state = fp_position(data)
    rng = random.Random(seed)
    me = rng.choice([p.pilot for p in state.planes])
    mine = choose_orders(state, me, rng)
    assert check_plane_orders(state, me, mine) == []
    plan = fp_plan.preview(state, me, mine)
    for round_ in range(2):
        orders: dict[str, FpOrders] = {me: mine}
        for p in state.planes:
            if p.pilot != me and p.state is not PlaneState.REMOVED and rng.random() < 0.9:
                orders[p.pilot] = choose_orders(state, p.pilot, rng)
        _, events = adjudicate_turn(state, FpTurn(orders), Dice(seed + round_))
        down = next((e.move for e in events if isinstance(e, FpShotDown)
                     and e.target == me), 4)
        flown = [(e.move, e.card, e.outcome, e.from_hex, e.to_hex, e.heading)
                 for e in events if isinstance(e, FpManoeuvred) and e.pilot == me
                 and e.move <= down]
        planned = [(s.move, s.card, s.outcome, s.from_hex, s.to_hex, s.heading)
                   for s in plan.steps]
        assert planned[:len(flown)] == flown
        entered = next(((e.hex, e.heading) for e in events
                        if isinstance(e, Entered) and e.pilot == me), None)
        assert plan.entry == entered


# --------------------------------------------------------------------- diplomacy


def _position(rng: random.Random) -> Position:
    """Crowded: about half the provinces hold a unit of a random power."""
    m = standard_map()
    units: list[Unit] = []
    for p in sorted(m.provinces):
        if p == "swi" or rng.random() < 0.5:
            continue
        power = rng.choice(POWERS)
        if m.is_sea(p):
            units.append(Unit(power, UnitType.FLEET, Loc(p)))
        elif m.is_coastal(p) and not m.coasts(p) and rng.random() < 0.4:
            units.append(Unit(power, UnitType.FLEET, Loc(p)))
        else:
            units.append(Unit(power, UnitType.ARMY, Loc(p)))
    return Position(Phase(1903, "S", "M"), tuple(sorted(units)), initial_position().centers,
                    variant=Variant.STANDARD)


def _orders(rng: random.Random, pos: Position, power: str) -> list[Order]:
    """Random legal orders of one power: holds, moves, supports of whatever
    stands (or nothing) near, convoys, so that warnings come up often."""
    m = standard_map()
    provs = sorted(m.provinces)
    coastal = [p for p in provs if m.is_coastal(p)]
    out: list[Order] = []
    for u in pos.units_of(power):
        near = [p for p in provs if m.adjacent(u.prov, p)]
        candidates: list[Order] = [Hold(power, u.kind, u.loc)]
        for d in near:
            candidates.append(Move(power, u.kind, u.loc, Loc(d)))
            candidates.append(SupportHold(power, u.kind, u.loc, None, Loc(d)))
            for t in rng.sample(provs, 6):
                candidates.append(SupportMove(power, u.kind, u.loc, None, Loc(t), Loc(d)))
        for _ in range(6):
            t, d = rng.sample(coastal, 2)
            candidates.append(Convoy(power, u.kind, u.loc, Loc(t), Loc(d)))
            candidates.append(Move(power, u.kind, u.loc, Loc(d), via_convoy=True))
        legal = [o for o in candidates if movement_problem(pos, m, o) is None]
        out.append(rng.choice(legal))
    return out


@pytest.mark.parametrize("seed", range(60))
def test_diplomacy_warned_orders_fail_whatever_the_others_order(seed: int) -> None:
    rng = random.Random(seed)
    pos = _position(rng)
    power = rng.choice([p for p in POWERS if pos.units_of(p)])
    mine = _orders(rng, pos, power)
    plan = dip_plan.preview(pos, power, mine)
    warned = [w.order for w in plan.warnings if w.order is not None]
    for _ in range(3):
        others = [o for p in POWERS if p != power for o in _orders(rng, pos, p)]
        results = {r.order: r for r in adjudicate_full(pos, mine + others).results}
        for order in warned:
            assert not results[order].succeeded, (order, results[order].reason)


def test_the_diplomacy_property_sees_warnings() -> None:
    """The random orders above do come with warnings (the test is not empty)."""
    kinds = set()
    for seed in range(60):
        rng = random.Random(seed)
        pos = _position(rng)
        power = rng.choice([p for p in POWERS if pos.units_of(p)])
        kinds |= {w.kind for w in dip_plan.preview(pos, power, _orders(rng, pos, power)).warnings}
    assert {dip_plan.WarningKind.SUPPORT_NOT_MATCHED, dip_plan.WarningKind.SUPPORT_OF_NOTHING,
            dip_plan.WarningKind.MOVE_INTO_OWN} <= kinds
