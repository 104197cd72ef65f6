"""Engine unit tests, one rule each, worked by hand on a side-10 board.

Hex names (B3): J10 is the centre (0,0); going north along file J: J11, J12 ...
J19 (the N corner); south: J9 ... J1.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, cast

from pbmref.rules.dice import Dice
from pbmref.rules.hexgrid import Heading
from pbmref.rules.tweedekker.engine import adjudicate, place_controlled_zeppelin
from pbmref.rules.tweedekker.events import (
    BombDropped,
    DieRolled,
    Exploded,
    PointsScored,
    ShotDown,
    VoteTally,
    ZeppelinMoved,
)
from pbmref.rules.tweedekker.orders import TurnOrders
from pbmref.rules.tweedekker.state import AircraftState, GameState, Wind

from .helpers import kinds, name, orders, plane, position, run

FLY: dict[str, Any] = {"state": "flying"}


def fly(hex_: str, heading: str, airfield: str = "S", **kw: Any) -> dict[str, Any]:
    return {"hex": hex_, "heading": heading, "state": "flying", "airfield": airfield, **kw}


def points(events: tuple[Any, ...]) -> list[tuple[str, int, str]]:
    return [(e.pilot, e.points, e.reason) for e in events if isinstance(e, PointsScored)]


# ---------------------------------------------------------------- T2, F, V


def test_f3_v1_v2_kill_goes_to_the_gunner_with_points_for_damage() -> None:
    s = position(aircraft={
        "a": fly("J9", "N"),
        "c": fly("J12", "N", "N", damage=2),
    })
    new, events = run(s, orders({"a": plane("A f-A", "A", "A"), "c": plane("A", "A", "A")}))
    a, c = new.plane("a"), new.plane("c")
    # move 1: a J9->J10, c J12->J13 (all movement first, T2); distance 3: 2 damage.
    assert c.state is AircraftState.DOWN and c.damage == 0
    assert (a.vp, a.kills, a.dealt, a.ammo) == (2 + 5, 1, 2, 15)
    assert points(events) == [("a", 2, "damage"), ("a", 5, "kill")]
    assert [e.credited_to for e in events if isinstance(e, ShotDown)] == ["a"]


def test_f6_same_hex_is_not_hit_but_f4_everyone_on_the_line_is() -> None:
    s = position(aircraft={
        "a": fly("J9", "N"), "same": fly("J9", "N"),
        "one": fly("J11", "N", "N"), "two": fly("J12", "N", "N"),
    })
    go = plane("A", "A", "A")
    new, _ = run(s, orders({"a": plane("A f-A", "A", "A"), "same": go, "one": go, "two": go}))
    # after move 1: a and same in J10; one J12 (distance 2: 3), two J13 (distance 3: 2).
    assert new.plane("same").damage == 12
    assert new.plane("one").damage == 9 and new.plane("two").damage == 10
    assert new.plane("a").vp == 5


def test_f7_an_aircraft_destroyed_in_a_move_still_fires() -> None:
    s = position(aircraft={
        "a": fly("J9", "N", damage=1), "b": fly("J14", "S", "N", damage=1),
    })
    fire = plane("A f-A", "A", "A")
    new, events = run(s, orders({"a": fire, "b": fire}))
    # J10 and J13 after move 1: distance 3 both ways, 2 damage each.
    assert new.plane("a").state is AircraftState.DOWN
    assert new.plane("b").state is AircraftState.DOWN
    assert {e.target: e.credited_to for e in events if isinstance(e, ShotDown)} == {
        "a": "b", "b": "a"}
    assert new.game_over and new.winners == ("a", "b")  # V6: none left, most points


def test_f1_engine_skips_bursts_beyond_three_and_beyond_ammo() -> None:
    s = position(aircraft={"a": fly("J9", "N", ammo=2), "x": fly("A1", "N")})
    new, events = run(s, orders({"a": plane("A f-A f-L f-R", "A f-A", "A"),
                                 "x": plane("A", "A", "A")}))
    assert new.plane("a").ammo == 0
    assert len(kinds(events, "burst")) == 2


# ---------------------------------------------------------------- Z5, Z12, V2, V5


def _zeppelin_between_two() -> GameState:
    return position(
        aircraft={"a": fly("J9", "N"), "b": fly("J15", "S", "N")},
        zeppelins={"D": {"hexes": ["J12"], "heading": "N", "damage": 5}},
    )


def test_z5_first_hit_to_all_gunners_destroyer_by_roll_off_5_not_7() -> None:
    fire = plane("A f-A", "A", "A")
    # Both hit the zeppelin for 3 (distance 2) in move 1: tied destroyers, a
    # rolls 1 and b rolls 6 (replayed dice, V5): b destroys it.
    new, events = run(_zeppelin_between_two(), orders({"a": fire, "b": fire}), replay=[1, 6])
    assert [(e.who, e.value) for e in events if isinstance(e, DieRolled)] == [("a", 1), ("b", 6)]
    assert sorted(points(events)) == [("a", 2, "zeppelin first hit"),
                                     ("b", 5, "zeppelin destroyed")]
    z = new.zeppelins[0]
    assert z.destroyed and z.first_hit and z.damage == -1
    # Z12: explosion at J12; a at J10 and b at J14 are 2 away: 3 each.
    ex = [e for e in events if isinstance(e, Exploded)]
    assert len(ex) == 1 and ex[0].damage == (("a", 2, 3), ("b", 2, 3))
    assert new.plane("a").damage == 9 and new.plane("b").damage == 9
    assert new.plane("a").dealt == 3 and new.plane("a").vp == 2


def test_v5_a_roll_off_no_longer_needed_leaves_the_wind_its_own_die() -> None:
    """Issue 46: on a re-run where a holds fire there is no roll-off; the wind's
    die (W3) is still the wind's, and the roll-off dice go to nobody."""
    state = replace(_zeppelin_between_two(), wind=Wind(Heading.N, 1, changes=True))
    fire = plane("A f-A", "A", "A")
    dice = Dice(5)
    adjudicate(state, orders({"a": fire, "b": fire}), dice)
    wind = [r for r in dice.rolls if r.purpose == "wind change"]
    roll_off = [r for r in dice.rolls if r.purpose.startswith("kill roll-off")]
    assert len(wind) == 1 and roll_off and roll_off[0].purpose == "kill roll-off (D)"
    again = Dice(5, replay=dice.rolls)
    adjudicate(state, orders({"a": plane("A", "A", "A"), "b": fire}), again)
    assert [(r.purpose, r.value) for r in again.rolls] == [("wind change", wind[0].value)]
    assert again.unused() == roll_off


def test_v5_same_seed_same_turn_and_other_replay_other_winner() -> None:
    fire = plane("A f-A", "A", "A")
    o = orders({"a": fire, "b": fire})
    first = run(_zeppelin_between_two(), o, seed=77)
    assert run(_zeppelin_between_two(), o, seed=77) == first
    flipped, _ = run(_zeppelin_between_two(), o, replay=[6, 1])
    assert flipped.plane("a").vp == 5 and flipped.plane("b").vp == 2


def test_z5_single_gunner_first_and_destroying_hit_earns_5() -> None:
    s = position(aircraft={"a": fly("J9", "N"), "x": fly("A1", "N")},
                 zeppelins={"D": {"hexes": ["J12"], "heading": "N", "damage": 3}})
    new, events = run(s, orders({"a": plane("A f-A", "A", "A"), "x": plane("A", "A", "A")}))
    assert points(events) == [("a", 5, "zeppelin destroyed")]
    assert new.plane("a").vp == 5


def test_z5_later_hits_earn_nothing() -> None:
    s = position(aircraft={"a": fly("J9", "N"), "x": fly("A1", "N")},
                 zeppelins={"D": {"hexes": ["J12"], "heading": "N", "damage": 9,
                                  "first_hit": True}})
    new, events = run(s, orders({"a": plane("A f-A", "A", "A"), "x": plane("A", "A", "A")}))
    assert points(events) == [] and new.zeppelins[0].damage == 6
    assert new.plane("a").dealt == 3  # V4 still counts it


def test_z18_storm_loss_earns_nobody_and_z12_spares_landed_aircraft() -> None:
    s = position(
        clouds=[{"kind": "storm", "hexes": ["J18"]}],
        aircraft={"x": fly("J15", "N", "S"), "home": {"state": "landed", "airfield": "N"}},
        zeppelins={"D": {"hexes": ["J18"], "heading": "N", "damage": 1}},
    )
    new, events = run(s, orders({"x": plane("A", "A", "A"), "home": plane()}))
    down = [e for e in events if isinstance(e, ShotDown)]
    assert [(e.target, e.credited_to, e.reason) for e in down] == [("D", None, "storm")]
    assert points(events) == []
    # Explosion after move 1: x at J16, 2 from J18: 3; home (J19, landed) spared.
    # Move 3 ends x in the storm hex J18: 1 more (C2).
    assert new.plane("x").damage == 12 - 3 - 1
    assert new.plane("home").damage == 12


def test_z12_explosion_kill_is_nobodys() -> None:
    s = position(aircraft={"a": fly("J9", "N"), "near": fly("J11", "N", "N", damage=4)},
                 zeppelins={"D": {"hexes": ["J13"], "heading": "N", "damage": 1}})
    new, events = run(s, orders({"a": plane("A", "A f-A", "A"),
                                 "near": plane("A", "0", "0")}))
    # move 2: a at J11 fires, near at J12 is hit (4) and the zeppelin at J13 (3).
    # near: 4 - 4 = 0 -> shot down by a (gunfire) before the explosion.
    assert new.plane("near").state is AircraftState.DOWN
    assert [(e.target, e.credited_to) for e in events if isinstance(e, ShotDown)] == [
        ("near", "a"), ("D", "a")]
    # a at J11 is 2 from J13: 3 explosion damage, nobody's points.
    assert new.plane("a").damage == 9


def test_v2_kill_by_a_zeppelin_is_nobodys() -> None:
    s = position(
        aircraft={"v": {"state": "landed", "airfield": "S"},
                  "t": fly("J12", "S", "N", damage=2)},
        zeppelins={"Z": {"hexes": ["J10"], "heading": "N", "damage": 12, "controlled": True}},
    )
    new, events = run(s, orders({"v": plane(), "t": plane("A", "A", "A")},
                                {"v": ["0 f-A", "", ""]}))
    # t moves J12 -> J11; the zeppelin fires f-A from J10: distance 1, 4 damage.
    assert new.plane("t").state is AircraftState.DOWN
    assert [(e.target, e.credited_to) for e in events if isinstance(e, ShotDown)] == [("t", None)]


# ---------------------------------------------------------------- Z7-Z11, Z14-Z17


def _controlled(zhexes: list[str], heading: str, **extra: Any) -> dict[str, Any]:
    return {"Z": {"hexes": zhexes, "heading": heading, "controlled": True, **extra}}


def test_z7_tally_events_for_every_move_and_half_and_tie_holds() -> None:
    s = position(aircraft={"p": {"state": "landed", "airfield": "N"},
                           "q": {"state": "landed", "airfield": "S"}},
                 zeppelins=_controlled(["J10", "J9"], "N"))
    new, events = run(s, orders({"p": plane(), "q": plane()},
                                {"p": ["L", "A f-0", ""], "q": ["A", "A", ""]}))
    tallies = [(e.move, e.half, e.winner, e.tie) for e in events if isinstance(e, VoteTally)]
    assert tallies == [(1, "move", None, True), (1, "fire", None, False),
                       (2, "move", "A", False), (2, "fire", "f-0", False),
                       (3, "move", None, False), (3, "fire", None, False)]
    assert name(new, *new.zeppelins[0].hexes) == ["J11", "J10"]


def test_z10_left_turn_moves_the_nose_and_the_tail_follows() -> None:
    s = position(aircraft={"p": {"state": "landed", "airfield": "N"}},
                 zeppelins=_controlled(["J9", "J8"], "N"))
    new, _ = run(s, orders({"p": plane()}, {"p": ["L", "A", ""]}))
    z = new.zeppelins[0]
    assert name(new, *z.hexes) == ["H9", "I9"] and z.heading.value == "NW"


def test_z9_removed_player_may_not_vote() -> None:
    s = position(aircraft={"p": {"state": "removed", "airfield": "N", "hex": "J19"},
                           "q": {"state": "landed", "airfield": "S"}},
                 zeppelins=_controlled(["J10"], "N"))
    new, events = run(s, orders({"q": plane()}, {"p": ["A", "A", "A"]}))
    assert name(new, *new.zeppelins[0].hexes) == ["J10"]
    assert all(e.votes == () for e in events if isinstance(e, VoteTally))


def test_z11_f_b_fires_from_the_tail() -> None:
    s = position(aircraft={"p": {"state": "landed", "airfield": "N"},
                           "t": fly("J7", "S", "S")},
                 zeppelins=_controlled(["J10", "J9"], "N"))
    new, events = run(s, orders({"p": plane(), "t": plane("0", "0", "0")},
                                {"p": ["f-B", "", ""]}))
    burst = kinds(events, "burst")[0]
    assert name(new, burst.from_hex) == ["J9"]  # type: ignore[attr-defined]
    assert new.plane("t").damage == 12 - 3  # J7 is 2 behind the tail


def test_z15_bomb_hits_landed_aircraft_by_votes_and_z17_reload() -> None:
    s = position(turn=5,
                 aircraft={"p": {"state": "landed", "airfield": "N"},
                           "q": {"state": "landed", "airfield": "S"}},
                 zeppelins=_controlled(["J17"], "N"))
    new, events = run(s, orders({"p": plane(), "q": plane()},
                                {"p": ["A d-B", "d-B", ""], "q": ["A d-B", "", ""]}))
    bombs = [(e.move, e.outcome, e.votes) for e in events if isinstance(e, BombDropped)]
    assert bombs == [(1, "aircraft hit", 2), (2, "not ready", 1)]
    assert new.zeppelins[0].bomb_ready_turn == 9  # dropped in turn 5: ready in turn 9
    # 2 damage from the bomb, then a whole turn landed repairs 2 (L6).
    damage = [(e.target, e.amount, e.cause) for e in kinds(events, "damage")]  # type: ignore[attr-defined]
    assert damage == [("p", 2, "bomb")]
    assert new.plane("p").damage == 12


def test_z16_bombed_empty_airfield_reads_2_and_stops_repair_l7() -> None:
    s = position(turn=3,
                 aircraft={"p": {"state": "landed", "airfield": "N"},
                           "q": fly("J5", "N", "S", damage=5)},
                 zeppelins=_controlled(["J2"], "S"))
    # Move 1: zeppelin J2 -> J1 (S corner) and bombs: nobody landed there.
    new, events = run(s, orders({"p": plane(), "q": plane("A", "A", "A")},
                                {"p": ["A d-B", "", ""]}))
    assert new.airfield(Heading.S).disabled_turns == 2
    assert [e.outcome for e in events if isinstance(e, BombDropped)] == ["airfield disabled"]


def test_l7_disabled_airfield_neither_repairs_nor_refills() -> None:
    s = position(airfields={"N": {"disabled_turns": 2}},
                 aircraft={"p": {"state": "landed", "airfield": "N", "damage": 6, "ammo": 3},
                           "q": {"state": "landed", "airfield": "S", "damage": 6, "ammo": 3}})
    new, _ = run(s, orders({"p": plane(), "q": plane()}))
    assert (new.plane("p").damage, new.plane("p").ammo) == (6, 3)
    assert (new.plane("q").damage, new.plane("q").ammo) == (8, 16)
    assert new.airfield(Heading.N).disabled_turns == 1


def test_z14_bomb_off_an_airfield_does_nothing_and_keeps_the_bomb() -> None:
    s = position(aircraft={"p": {"state": "landed", "airfield": "N"}},
                 zeppelins=_controlled(["J10"], "N"))
    new, events = run(s, orders({"p": plane()}, {"p": ["d-B", "", ""]}))
    assert [e.outcome for e in events if isinstance(e, BombDropped)] == ["no airfield"]
    assert new.zeppelins[0].bomb_ready_turn == 1


def test_z6_controlled_zeppelin_heading_is_rolled() -> None:
    s = position(aircraft={"p": {"state": "landed", "airfield": "N"}})
    dice = Dice(5, replay=[3])
    placed = place_controlled_zeppelin(s, dice, 2)
    z = placed.zeppelins[0]
    assert z.heading.value == "SE" and name(placed, *z.hexes) == ["J10", "I10"]
    assert z.damage == 20 and z.controlled and dice.rolls[0].purpose == "zeppelin heading"


# ---------------------------------------------------------------- Z4, W2, W3


def _drift(zhexes: list[str], heading: str, to: str, strength: int) -> GameState:
    s = position(wind={"to": to, "strength": strength},
                 aircraft={"p": {"state": "landed", "airfield": "SW"},
                           "q": {"state": "landed", "airfield": "SE"}},
                 zeppelins={"D": {"hexes": zhexes, "heading": heading}})
    new, _ = run(s, orders({"p": plane(), "q": plane()}))
    return new


def test_z4_hex_off_the_board_stays_off() -> None:
    new = _drift(["J18", "J17"], "N", "N", 2)
    assert name(new, *new.zeppelins[0].hexes) == ["0,-10", "J19"]


def test_z4_last_hex_leaving_reenters_on_the_far_side_keeping_heading() -> None:
    new = _drift(["0,-10", "J19"], "N", "N", 1)
    z = new.zeppelins[0]
    assert name(new, *z.hexes) == ["J2", "J1"] and z.heading.value == "N"


def test_z4_tail_first_reenters_with_the_nose_at_the_edge() -> None:
    new = _drift(["J1", "0,10"], "N", "S", 1)
    assert name(new, *new.zeppelins[0].hexes) == ["J19", "J18"]


def test_z4_ruling_no_whole_shift_near_a_corner() -> None:
    # Nose on file S, tail one file further east (off the board), drifting N:
    # no shift along the file puts both on; the nose comes back at S1.
    new = _drift(["S10", "10,-9"], "NW", "N", 1)
    assert name(new, *new.zeppelins[0].hexes) == ["S1", "10,0"]


def test_w2_cloud_wraps_to_the_far_end_of_its_line() -> None:
    s = position(wind={"to": "N", "strength": 2},
                 clouds=[{"kind": "cloud", "hexes": ["J19", "K10"]}],
                 aircraft={"p": {"state": "landed", "airfield": "SW"},
                           "q": {"state": "landed", "airfield": "SE"}})
    new, _ = run(s, orders({"p": plane(), "q": plane()}))
    assert name(new, *new.clouds[0].hexes) == ["J2", "K12"]


def test_w3_wind_backs_on_1_veers_on_6() -> None:
    def after(roll: int) -> str:
        s = position(wind={"to": "N", "strength": 1, "changes": True},
                     aircraft={"p": {"state": "landed", "airfield": "SW"},
                               "q": {"state": "landed", "airfield": "SE"}})
        new, _ = run(s, orders({"p": plane(), "q": plane()}), replay=[roll])
        return new.wind.to.value
    assert [after(r) for r in (1, 2, 5, 6)] == ["NW", "N", "N", "NE"]


# ---------------------------------------------------------------- L, M, N, V


def test_l3_take_off_taxis_two_runway_hexes_then_flies() -> None:
    s = position(aircraft={"p": {"state": "landed", "airfield": "N"},
                           "x": fly("A1", "N")})
    new, _ = run(s, orders({"p": plane("A", "A", "R f-A", takeoff="BETA"),
                            "x": plane("A", "A", "A")}))
    p = new.plane("p")
    assert name(new, p.hex) == ["I16"] and p.heading.value == "SW"
    assert p.state is AircraftState.FLYING and p.ammo == 15 and p.landed_turns == 0


def test_l4_landing_from_the_far_hex_refills_and_skips_moves() -> None:
    s = position(aircraft={"p": fly("J17", "N", "N", ammo=5), "x": fly("A1", "N")})
    new, events = run(s, orders({"p": plane("A", "A", "A", land="BETA"),
                                 "x": plane("A", "A", "A")}))
    p = new.plane("p")
    assert p.state is AircraftState.LANDED and name(new, p.hex) == ["J19"]
    assert p.ammo == 16 and p.landed_turns == 0
    assert [e.outcome for e in kinds(events, "manoeuvre")  # type: ignore[attr-defined]
            if cast(Any, e).pilot == "p"] == ["landed", "skipped", "skipped"]


def test_m4_leaving_the_board_keeps_points() -> None:
    s = position(aircraft={"p": fly("J19", "N", "N", vp=7), "x": fly("A1", "N"),
                           "y": fly("S1", "N")})
    new, _ = run(s, orders({"p": plane("A", "A", "A"), "x": plane("A", "A", "A"),
                            "y": plane("A", "A", "A")}))
    assert new.plane("p").state is AircraftState.LEFT and new.plane("p").vp == 7


def test_n1_n2_nmr_counts_and_removal_after_three() -> None:
    s = position(aircraft={"p": fly("J10", "N", "N", nmr=2), "x": fly("A1", "N"),
                           "y": fly("S1", "N")},
                 zeppelins=_controlled(["J5"], "N"))
    new, events = run(s, orders({"x": plane("A"), "y": plane("A", "A", "A")},
                                {"p": ["A", "A", "A"]}))
    p = new.plane("p")
    assert p.state is AircraftState.REMOVED and p.nmr == 3
    assert name(new, p.hex) == ["J13"]  # flew A three times (N1)
    # N2: the votes of the third NMR turn still count.
    assert name(new, *new.zeppelins[0].hexes) == ["J8"]
    assert new.plane("x").nmr == 0


def test_v4_ace_at_the_end_of_the_turn() -> None:
    s = position(aircraft={"a": fly("J9", "N", dealt=13), "t": fly("J12", "N", "N")})
    new, events = run(s, orders({"a": plane("A f-A", "A", "A"), "t": plane("A", "A", "A")}))
    assert new.plane("a").ace and new.plane("a").dealt == 15
    assert [e.kind for e in events][-1] == "ace"


def test_v6_turn_limit_most_points_win() -> None:
    s = position(turn=4, settings={"turns": 4},
                 aircraft={"a": fly("A1", "N", vp=3), "b": fly("S1", "N", vp=3),
                           "c": fly("J1", "N", vp=1)})
    go = plane("A", "A", "A")
    new, _ = run(s, orders({"a": go, "b": go, "c": go}))
    assert new.game_over and new.winners == ("a", "b") and new.turn == 5


def test_game_already_over_is_left_alone() -> None:
    s = position(game_over=True, winners=["a"], aircraft={"a": fly("A1", "N")})
    assert adjudicate(s, TurnOrders(), Dice(1)) == (s, ())


def test_zeppelin_moved_events_name_the_order() -> None:
    s = position(aircraft={"p": {"state": "landed", "airfield": "N"}},
                 zeppelins=_controlled(["J10"], "N"))
    _, events = run(s, orders({"p": plane()}, {"p": ["RS", "", ""]}))
    moved = [e for e in events if isinstance(e, ZeppelinMoved)]
    assert [(e.order, e.reentered) for e in moved] == [("RS", False)]
