"""The position codec: plain data <-> GameState (scenario schema)."""

from __future__ import annotations

import pytest

from pbmref.rules.tweedekker.position import (
    PositionError,
    position_from_dict,
    position_to_dict,
)

from .helpers import orders, plane, position, run


def test_round_trip_after_a_turn_is_unchanged() -> None:
    s = position(
        wind={"to": "SW", "strength": 2, "changes": True},
        clouds=[{"kind": "storm", "hexes": ["J10", "J11"]}],
        settings={"bomb_damage_cap": 2},
        aircraft={"a": {"hex": "J12", "heading": "N", "state": "flying", "airfield": "N"},
                  "b": {"state": "landed", "airfield": "S"}},
        zeppelins={"Z": {"hexes": ["J19", "0,-10"], "heading": "S", "damage": 7}},
    )
    new, _ = run(s, orders({"a": plane("A", "A", "A")}))
    data = position_to_dict(new)
    assert position_to_dict(position_from_dict(data)) == data
    assert position_from_dict(data) == new


def test_zeppelin_damage_points_per_length_or_one_number() -> None:
    s = position(settings={"zeppelin_damage_points": {2: 30}})
    assert (s.settings.zeppelin_damage_points_1, s.settings.zeppelin_damage_points_2) == (12, 30)
    s = position(settings={"zeppelin_damage_points": 25})
    assert (s.settings.zeppelin_damage_points_1, s.settings.zeppelin_damage_points_2) == (25, 25)


@pytest.mark.parametrize(("data", "path", "rule"), [
    ({"settings": {"board_side": 20}}, ("settings", "board_side"), "B1"),
    ({"aircraft": {"a": {"state": "landed", "airfield": "N", "hex": "J10"}}},
     ("aircraft", "a", "hex"), "L2"),
    ({"zeppelins": {"Z": {"hexes": ["J10", "J12"], "heading": "N"}}},
     ("zeppelins", "Z", "hexes"), "Z1"),
    ({"zeppelins": {"Z": {"hexes": ["0,-12"], "heading": "N"}}},
     ("zeppelins", "Z", "hexes"), "Z4"),
    ({"wind": {"strength": 3}}, ("wind", "strength"), "W1"),
])
def test_bad_positions_name_the_path_and_rule(
    data: dict[str, object], path: tuple[str, ...], rule: str
) -> None:
    with pytest.raises(PositionError) as info:
        position_from_dict(data)
    assert info.value.path == path and info.value.rule == rule


def test_winners_are_a_list_of_pilots() -> None:
    """Read as plain data (Mapping[str, object]), a ``winners`` that is no list is
    refused with its key: a string was read letter by letter (('a', 'n', 'n', 'a'))."""
    assert position_from_dict({"winners": ["anna"]}).winners == ("anna",)
    with pytest.raises(PositionError) as info:
        position_from_dict({"winners": "anna"})
    assert info.value.path == ("winners",)
