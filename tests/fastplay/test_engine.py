"""The Fast Play engine on its own: board geometry, rulings and edge cases
the scenario files do not pin down, with scripted dice where the values matter."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pbmref.rules.dice import Dice
from pbmref.rules.fastplay import (
    FULL_DECK,
    Burn,
    Card,
    CardPlay,
    Entry,
    FastBoard,
    GameOverError,
    GameState,
    PlaneOrders,
    PlaneState,
    Team,
    TurnOrders,
    adjudicate_turn,
    fly,
    position_from_dict,
    position_to_dict,
)
from pbmref.rules.fastplay.events import DieRolled, Event, Fired
from pbmref.rules.fastplay.legality import check_plane_orders, default_entry
from pbmref.rules.fastplay.position import PositionError
from pbmref.rules.hexgrid import Heading, Hex
from pbmref.rulesets import get_ruleset

RULESET = get_ruleset("fastplay")


class Scripted:
    """Dice that give the listed values in order (then 1s), recording purposes."""

    def __init__(self, values: Iterable[int]) -> None:
        self.values = list(values)
        self.asked: list[tuple[str, str, int]] = []

    def roll(self, purpose: str, who: str = "", sides: int = 6, *, move: int = 0) -> int:
        self.asked.append((purpose, who, sides))
        return self.values.pop(0) if self.values else 1


def pos(planes: dict[str, dict[str, Any]], **top: Any) -> GameState:
    return position_from_dict({"turn": top.pop("turn", 3), "aircraft": planes, **top})


def cards(*names: str, hold: bool = False) -> PlaneOrders:
    return PlaneOrders(tuple(CardPlay(Card(n), hold) for n in names))


def held(*names: str) -> PlaneOrders:
    return cards(*names, hold=True)


def kinds(events: Iterable[Event], kind: str) -> list[Event]:
    return [e for e in events if e.kind == kind]


# --------------------------------------------------------------------- board (FP1)


def test_fp1_names_and_corners() -> None:
    b = FastBoard(10, 10)
    assert b.parse("A1") == Hex(0, 0)
    assert b.name(Hex(0, 0).step(Heading.NE)) == "B1"
    assert b.name(b.parse("J10")) == "J10"
    assert len(list(b.hexes())) == 100
    assert len(b.edge_hexes()) == 36
    assert [b.name(h) for h in b.edge_row(north=True)][:3] == ["A10", "B10", "C10"]


@given(st.integers(0, 9), st.integers(1, 10))
def test_fp1_every_hex_round_trips(f: int, n: int) -> None:
    b = FastBoard()
    hex_ = b.hex_at(f, n)
    assert b.contains(hex_) and b.parse(b.name(hex_)) == hex_
    # north is one number up in the same file
    assert b.file_number(hex_.step(Heading.N)) == (f, n + 1)


def test_fp1_off_board_names_are_refused() -> None:
    b = FastBoard(10, 10)
    for text in ("K1", "A11", "A0", "11"):
        with pytest.raises(ValueError):
            b.parse(text)


@given(st.sampled_from(list(Card)), st.sampled_from(list(Heading)))
def test_fp5_every_card_moves_at_most_two_hexes(card: Card, heading: Heading) -> None:
    start = Hex(4, -6)
    path, new = fly(card, start, heading)
    end = path[-1] if path else start
    assert start.distance(end) == {Card.AF: 2, Card.ST: 0, Card.STL: 0, Card.STR: 0}.get(card, 1)
    if card in (Card.A, Card.AF, Card.LS, Card.RS, Card.ST):
        assert new is heading
    if card is Card.I:
        assert new is heading.opposite()


# --------------------------------------------------------------------- position codec


def test_position_round_trip_keeps_everything() -> None:
    data = {
        "ruleset": "fastplay", "turn": 5, "board": {"files": 12, "ranks": 8},
        "settings": {"critical_hits": True, "turns": 9},
        "aircraft": {
            "anna": {"team": "Germans", "state": "flying", "hex": "L8", "heading": "SW",
                     "hits": 2, "kills": 6, "score": 2, "ace": True, "nmr": 1,
                     "deck": ["A", "I"], "gun_hits": 1, "burning": True},
            "bert": {"team": "Allies", "state": "out", "heading": "N", "hits": 6, "kills": 0,
                     "score": 1, "ace": False, "nmr": 0},
            "carl": {"team": "Allies", "state": "flying", "hex": "A1", "heading": "N",
                     "hits": 0, "kills": 1, "score": 0, "ace": False, "nmr": 0,
                     "withdrawing": True},
        },
        "score": {"Germans": 2, "Allies": 1},
    }
    assert position_to_dict(position_from_dict(data)) == data


def test_fp19_side_scores_are_the_planes_scores_unless_given() -> None:
    planes = {"anna": {"team": "Germans", "hex": "A10", "score": 2},
              "gus": {"team": "Germans", "hex": "B10", "score": 1},
              "bert": {"team": "Allies", "hex": "J1", "score": 1}}
    state = position_from_dict({"aircraft": planes})
    assert dict(state.score) == {Team.GERMANS: 3, Team.ALLIES: 1}
    assert position_to_dict(state)["aircraft"]["gus"]["score"] == 1
    # A board keeps its own total when a pilot has moved to another board.
    state = position_from_dict({"aircraft": planes, "score": {"Germans": 4, "Allies": 1}})
    assert dict(state.score) == {Team.GERMANS: 4, Team.ALLIES: 1}


@pytest.mark.parametrize("planes, where", [
    ({"a": {"hex": "A1"}}, ("aircraft", "a")),
    ({"a": {"team": "Huns", "hex": "A1"}}, ("aircraft", "a", "team")),
    ({"a": {"team": "Allies", "hex": "K1"}}, ("aircraft", "a", "hex")),
    ({"a": {"team": "Allies", "hex": "A1", "hits": 6}}, ("aircraft", "a", "hits")),
    ({"a": {"team": "Allies", "hex": "A1", "deck": ["AF", "AF"]}}, ("aircraft", "a", "deck")),
    ({"a": {"team": "Allies", "hex": "A1", "duel": "b"},
      "b": {"team": "Germans", "hex": "A2"}}, ("aircraft", "a", "duel")),
    ({"a": {"team": "Allies", "hex": "A1", "wings": 2}}, ("aircraft", "a", "wings")),
    ({"a": {"team": "Allies", "hex": "A1", "score": -1}}, ("aircraft", "a", "score")),
    ({"a": {"team": "Allies", "state": "left", "burning": True}}, ("aircraft", "a", "burning")),
    ({"a": {"team": "Allies", "state": "down", "withdrawing": True}},
     ("aircraft", "a", "withdrawing")),
    ({"a": {"team": "Allies", "hex": "A1", "duel": "b", "withdrawing": True},
      "b": {"team": "Germans", "hex": "A2", "duel": "a"}}, ("aircraft", "a", "withdrawing")),
])
def test_bad_positions_name_the_key(planes: dict[str, Any], where: tuple[str, ...]) -> None:
    with pytest.raises(PositionError) as info:
        position_from_dict({"aircraft": planes})
    assert info.value.path == where


# --------------------------------------------------------------------- moves and fire


def test_fp3_a_plane_shot_down_in_move_1_flies_no_more() -> None:
    state = pos({"anna": {"team": "Germans", "hex": "E8", "heading": "S"},
                 "bert": {"team": "Allies", "hex": "E7", "heading": "N", "hits": 5}})
    dice = Scripted([6, 1, 1, 1, 1, 2])  # anna's five dice, then bert's crash roll
    new, events = adjudicate_turn(state, TurnOrders({"anna": cards("ST", "STL", "STR"),
                                                     "bert": held("ST", "STL", "STR")}), dice)
    assert new.plane("bert").state is PlaneState.DOWN and new.plane("bert").hex is None
    assert [e.pilot for e in kinds(events, "manoeuvre") if e.move > 1] == ["anna", "anna"]


def test_fp7_duellists_and_others_ignore_each_other() -> None:
    state = pos({"anna": {"team": "Germans", "hex": "E8", "heading": "S", "duel": "bert"},
                 "bert": {"team": "Allies", "hex": "A1", "heading": "N", "duel": "anna"},
                 "carl": {"team": "Allies", "hex": "E6", "heading": "N"}})
    orders = TurnOrders({"anna": cards("ST", "STL", "STR"), "bert": cards("ST", "STL", "STR"),
                         "carl": cards("ST", "STL", "STR")})
    new, events = adjudicate_turn(state, orders, Scripted([6] * 40))
    assert kinds(events, "fire") == []
    assert new.plane("carl").hits == 0 and new.plane("anna").hits == 0


def test_fp8_gun_hits_take_dice_away_but_never_below_zero() -> None:
    state = pos({"anna": {"team": "Germans", "hex": "E8", "heading": "S", "gun_hits": 9},
                 "bert": {"team": "Allies", "hex": "E7", "heading": "N"}})
    new, events = adjudicate_turn(state, TurnOrders({"anna": cards("ST", "STL", "STR"),
                                                     "bert": held("ST", "STL", "STR")}),
                                  Scripted([]))
    fired = kinds(events, "fire")
    assert fired and all(f.dice == 0 and f.rolls == () for f in fired)
    assert new.plane("bert").hits == 0


def test_fp10_three_way_roll_off() -> None:
    state = pos({"a1": {"team": "Germans", "hex": "E8", "heading": "S"},
                 "a2": {"team": "Germans", "hex": "E2", "heading": "N"},
                 "a3": {"team": "Germans", "hex": "A5", "heading": "SE"},
                 "vic": {"team": "Allies", "hex": "E5", "heading": "NE", "hits": 3}})
    # a1: 3 dice at 3 hexes, a2: 3 dice, a3 (A5 SE -> B4 C4 D3 E3?) misses the line
    state = state.but(planes=tuple(p if p.pilot != "a3" else p.but(hex=Hex(3, -6),
                                                                    heading=Heading.SE)
                                   for p in state.planes))
    line = [h for h in state.board.line(Hex(3, -6), Heading.SE, 5)]
    assert state.plane("vic").hex in line
    d = line.index(state.plane("vic").hex) + 1
    n3 = state.settings.dice_at(d)
    rolls = [4, 1, 1] + [4, 1, 1] + [4] + [1] * (n3 - 1) + [5, 5, 3, 6, 2, 6, 1]
    dice = Scripted(rolls)
    new, events = adjudicate_turn(state, TurnOrders({
        "a1": cards("ST", "STL", "STR"), "a2": cards("ST", "STL", "STR"),
        "a3": cards("ST", "STL", "STR"), "vic": held("ST", "STL", "STR")}), dice)
    offs = [(who, v) for (p, who, _), v in zip(dice.asked, rolls, strict=False)
            if p == "roll-off"]
    # first round 5 5 3: a1 and a2 tie; second round 6 2: a1
    assert offs == [("a1", 5), ("a2", 5), ("a3", 3), ("a1", 6), ("a2", 2)]
    assert new.plane("a1").kills == 1


def test_fp13_default_card_never_leaves_and_respects_lost_cards() -> None:
    state = pos({"anna": {"team": "Germans", "hex": "E10", "heading": "N",
                          "deck": ["R", "ST", "STL", "STR"]},
                 "bert": {"team": "Allies", "hex": "J1", "heading": "N"}},
                settings={"critical_hits": True})
    new, events = adjudicate_turn(state, TurnOrders({"bert": cards("ST", "STL", "STR")}),
                                  Scripted([]))
    played = [e.card for e in kinds(events, "manoeuvre") if e.pilot == "anna"]
    assert played == ["R", "ST", "STL"]  # A and L are gone; R once, then ST, then STL
    assert new.plane("anna").state is PlaneState.FLYING


@pytest.mark.parametrize("missing, lost, die", [
    ((Card.AF,), [("I", "engine hit"), ("A", "engine hit")], [18]),
    ((Card.I,), [("AF", "engine hit"), ("A", "engine hit")], [18]),
    ((Card.AF, Card.I), [("A", "engine hit"), ("A", "engine hit")], [18, 17]),
])
def test_fp12_engine_hit_takes_the_power_cards_left_then_random_ones(
        missing: tuple[Card, ...], lost: list[tuple[str, str]], die: list[int]) -> None:
    deck = [c.value for c in FULL_DECK if c not in missing]
    state = pos({"anna": {"team": "Germans", "hex": "E8", "heading": "S"},
                 "bert": {"team": "Allies", "hex": "E7", "heading": "N", "deck": deck}},
                settings={"critical_hits": True})
    # one hit die 6 (others 1), critical 4 = engine: AF and I if there, then for
    # each one missing a random card of the deck left (each die 1: an A)
    dice = Scripted([6, 1, 1, 1, 1, 4, 1, 1])
    new, events = adjudicate_turn(state, TurnOrders({"anna": cards("ST", "STL", "STR"),
                                                     "bert": held("ST", "STL", "STR")}), dice)
    assert [(e.card, e.cause) for e in kinds(events, "card_lost")] == lost
    assert [s for p, w, s in dice.asked if p == "card"] == die
    assert len(new.plane("bert").deck) == 20 - len(missing) - 2


@pytest.mark.parametrize("burn, hits, cards_left, outcome", [
    (None, 6, 20, "burns, damage"),  # no choice: the damage point, even the last
    (Burn.DAMAGE, 6, 20, "burns, damage"),
    (Burn.CARD, 5, 19, "burns, card"),
])
def test_fp12_burning_plane_at_five_gives_up_what_the_pilot_chose(
        burn: Burn | None, hits: int, cards_left: int, outcome: str) -> None:
    state = pos({"anna": {"team": "Germans", "hex": "A10", "heading": "S", "hits": 5,
                          "burning": True},
                 "bert": {"team": "Allies", "hex": "J1", "heading": "N"}},
                settings={"critical_hits": True})
    anna = PlaneOrders(held("ST", "STL", "STR").moves, burn=burn)
    new, events = adjudicate_turn(state, TurnOrders({
        "anna": anna, "bert": held("ST", "STL", "STR")}), Scripted([6, 3, 3]))
    assert new.plane("anna").hits == hits and len(new.plane("anna").deck) == cards_left
    assert kinds(events, "burn")[0].outcome == outcome
    if hits == 6:  # shot down by the fire: nobody's victory, back next turn
        assert new.plane("anna").state is PlaneState.DOWN
        assert kinds(events, "shot_down")[0].credited_to is None
        assert kinds(events, "entered") == [] and new.score == state.score


def test_fp12_burning_plane_without_orders_takes_the_damage_point() -> None:
    state = pos({"anna": {"team": "Germans", "hex": "A10", "heading": "S", "hits": 1,
                          "burning": True},
                 "bert": {"team": "Allies", "hex": "J1", "heading": "N"}},
                settings={"critical_hits": True})
    new, _ = adjudicate_turn(state, TurnOrders({"bert": held("ST", "STL", "STR")}),
                             Scripted([5]))
    assert new.plane("anna").hits == 2 and len(new.plane("anna").deck) == 20


def test_fp14_default_entry_ties_go_west_and_face_the_enemy() -> None:
    state = pos({"anna": {"team": "Allies", "state": "left", "heading": "N"}})
    hex_, heading, d = default_entry(state, state.plane("anna"))
    assert state.board.name(hex_) == "A1" and heading is Heading.N and d == 0


def test_fp14_entering_planes_do_not_block_each_other() -> None:
    state = pos({"anna": {"team": "Germans", "state": "left", "heading": "S"},
                 "bert": {"team": "Allies", "state": "down", "heading": "N"}})
    orders = TurnOrders({"anna": PlaneOrders((), Entry(Hex(0, -9), Heading.S)),
                         "bert": PlaneOrders((), Entry(Hex(0, -5), Heading.N))})
    for p in ("anna", "bert"):
        assert check_plane_orders(state, p, orders.plane[p]) == []
    new, _ = adjudicate_turn(state, orders, Scripted([1] * 50))
    assert all(p.state is PlaneState.FLYING for p in new.planes)


def test_fp15_one_sided_challenge_has_no_effect() -> None:
    state = pos({"anna": {"team": "Germans", "state": "left", "heading": "S"},
                 "bert": {"team": "Allies", "state": "left", "heading": "N"}}, turn=4)
    orders = TurnOrders({"anna": PlaneOrders((), None, "bert"), "bert": PlaneOrders()})
    new, events = adjudicate_turn(state, orders, Scripted([1] * 50))
    assert kinds(events, "duel") == [] and new.plane("anna").duel is None


def test_fp15_duel_ends_when_one_flies_off() -> None:
    state = pos({"anna": {"team": "Germans", "hex": "E10", "heading": "N", "hits": 4,
                          "duel": "bert"},
                 "bert": {"team": "Allies", "hex": "A1", "heading": "N", "duel": "anna"}})
    new, events = adjudicate_turn(state, TurnOrders({"anna": cards("A", "A", "A"),
                                                     "bert": held("ST", "STL", "STR")}),
                                  Scripted([]))
    (over,) = kinds(events, "duel_over")
    assert over.winner is None and over.reason == "left the board"
    assert new.plane("bert").duel is None and not new.plane("bert").withdrawing


def test_fp19_game_over_cannot_be_adjudicated_again() -> None:
    state = pos({"anna": {"team": "Germans", "hex": "E10", "heading": "S"}}, game_over=True)
    with pytest.raises(GameOverError):
        adjudicate_turn(state, TurnOrders(), Scripted([]))


# --------------------------------------------------------------------- ruleset


def typed(position: dict[str, Any], orders: dict[str, Any]) -> dict[str, Any]:
    """The orders entries decoded against ``position``, as adjudicate takes them."""
    return RULESET.decode_turn(RULESET.decode(position), orders)


def test_replayed_dice_give_the_same_turn() -> None:
    position = {"turn": 2, "aircraft": {
        "anna": {"team": "Germans", "hex": "E8", "heading": "S"},
        "bert": {"team": "Allies", "hex": "E3", "heading": "N"}}}
    orders = {"anna": {"plane": ["A", "A", "A"]}, "bert": {"plane": ["A", "A", "L"]}}
    first = RULESET.adjudicate(position, typed(position, orders), seed=99)
    again = RULESET.adjudicate(position, typed(position, orders), seed=12345,
                               replay=first.dice)
    assert again.events == first.events and again.position == first.position
    assert first.dice == [e.value for e in first.events if isinstance(e, DieRolled)]


def test_a_pilot_made_to_hold_fire_leaves_every_other_die_where_it_was() -> None:
    """Issue 46: anna holds fire in move 1 on a re-run; bert's dice are still
    bert's (matched by move, purpose and pilot), anna's are handed to nobody."""
    position = {"turn": 2, "aircraft": {
        "anna": {"team": "Germans", "hex": "E8", "heading": "S"},
        "bert": {"team": "Allies", "hex": "E3", "heading": "N"},
        "carl": {"team": "Allies", "hex": "D3", "heading": "N"}}}
    orders = {"anna": {"plane": ["A", "A", "A"]}, "bert": {"plane": ["A", "A", "L"]},
              "carl": {"plane": ["A", "A", "A"]}}
    first = RULESET.adjudicate(position, typed(position, orders), seed=99)
    assert {e.shooter for e in first.events if isinstance(e, Fired) and e.move == 1} \
        >= {"anna", "bert"}
    edited = {**orders, "anna": {"plane": ["A f-0", "A", "A"]}}
    again = RULESET.adjudicate(position, typed(position, edited), seed=99, replay=first.rolls)

    def dice(outcome: Any, who: str) -> list[tuple[int, str, int]]:
        return [(e.move, e.purpose, e.value) for e in outcome.events
                if isinstance(e, DieRolled) and e.who == who]

    assert dice(again, "bert") == dice(first, "bert") and dice(first, "bert")
    assert [(m, p) for m, p, _ in dice(again, "anna")] == [
        (m, p) for m, p, _ in dice(first, "anna") if m != 1 or p != "fire"]
    assert [r.key for r in again.unused] == [
        r.key for r in first.rolls if r.key == (1, "fire", "anna")]


def test_engine_dice_are_only_from_the_dice_object() -> None:
    position = {"turn": 2, "aircraft": {
        "anna": {"team": "Germans", "hex": "E8", "heading": "S"},
        "bert": {"team": "Allies", "hex": "E3", "heading": "N"}}}
    state = position_from_dict(position)
    orders = TurnOrders({"anna": cards("A", "A", "A"), "bert": cards("A", "A", "L")})
    a = adjudicate_turn(state, orders, Dice(5))
    b = adjudicate_turn(state, orders, Dice(5))
    assert a == b
