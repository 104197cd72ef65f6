"""Any legal turn keeps the position sane (hypothesis): hexes on the board,
damage below the shoot-down count, score = victories, duels in pairs."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hypo import examples
from pbmref.rules.dice import Dice
from pbmref.rules.fastplay import (
    DECK_COUNTS,
    Card,
    CardPlay,
    PlaneOrders,
    PlaneState,
    TurnOrders,
    adjudicate_turn,
    check_plane_orders,
    position_from_dict,
    position_to_dict,
)
from pbmref.rules.fastplay.autopilot import choose_orders

FILES = "ABCDEFGHIJ"


@st.composite
def positions(draw: Any) -> dict[str, Any]:
    n = draw(st.integers(2, 8))
    aircraft: dict[str, Any] = {}
    for i in range(n):
        team = "Germans" if i % 2 == 0 else "Allies"
        state = draw(st.sampled_from(["flying"] * 6 + ["left", "down", "out", "removed"]))
        entry: dict[str, Any] = {"team": team, "state": state,
                                 "heading": draw(st.sampled_from(["N", "NE", "SE", "S", "SW",
                                                                  "NW"])),
                                 "kills": draw(st.integers(0, 11)),
                                 "nmr": draw(st.integers(0, 2))}
        entry["ace"] = entry["kills"] >= 5
        if state == "flying":
            entry["hex"] = f"{draw(st.sampled_from(FILES))}{draw(st.integers(1, 10))}"
            entry["hits"] = draw(st.integers(0, 5))
            entry["burning"] = draw(st.booleans())
            entry["gun_hits"] = draw(st.integers(0, 2))
        aircraft[f"p{i}"] = entry
    return {"turn": draw(st.integers(1, 9)), "aircraft": aircraft,
            "settings": {"critical_hits": draw(st.booleans())}}


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions(), st.integers(0, 10**6), st.integers(0, 100))
def test_any_legal_turn_keeps_the_position_sane(data: dict[str, Any], seed: int,
                                                chaos: int) -> None:
    state = position_from_dict(data)
    rng = random.Random(seed)
    orders: dict[str, PlaneOrders] = {}
    for plane in state.planes:
        if plane.state is PlaneState.REMOVED or rng.random() < 0.15:
            continue  # no mail: an NMR
        if rng.random() < 0.5:
            mine = choose_orders(state, plane.pilot, rng)
        else:  # random cards, kept only when legal
            hand = tuple(CardPlay(rng.choice(list(Card)), rng.random() < 0.2)
                         for _ in range(rng.randint(0, 3)))
            mine = PlaneOrders(hand)
            if check_plane_orders(state, plane.pilot, mine):
                mine = PlaneOrders()
        assert check_plane_orders(state, plane.pilot, mine) == []
        orders[plane.pilot] = mine
    new, events = adjudicate_turn(state, TurnOrders(orders), Dice(seed + chaos))
    board = new.board
    for p in new.planes:
        if p.state is PlaneState.FLYING:
            assert p.hex is not None and board.contains(p.hex)
            assert p.hits < new.settings.hits_to_down
        else:
            assert p.hex is None
        assert all(n <= DECK_COUNTS[c] for c, n in Counter(p.deck).items())
        if p.duel is not None:
            assert new.plane(p.duel).duel == p.pilot
    won = sum(1 for e in events if e.kind == "victory")
    assert sum(n for _, n in new.score) - sum(n for _, n in state.score) == won
    assert new.turn == state.turn + 1
    assert position_to_dict(position_from_dict(position_to_dict(new))) == position_to_dict(new)
