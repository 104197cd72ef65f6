"""Small builders for engine tests: positions from plain data, typed orders."""

from __future__ import annotations

from typing import Any

from pbmref.rules.dice import Dice
from pbmref.rules.tweedekker.engine import adjudicate
from pbmref.rules.tweedekker.events import Event
from pbmref.rules.tweedekker.orders import (
    FireDir,
    Manoeuvre,
    Move,
    PlaneOrders,
    TurnOrders,
    ZeppelinFire,
    ZeppelinVote,
)
from pbmref.rules.tweedekker.position import position_from_dict
from pbmref.rules.tweedekker.state import GameState, Runway


def position(**data: Any) -> GameState:
    return position_from_dict(data)


def move(text: str) -> Move:
    """``"LS f-A f-R"`` as a typed move (enum look-ups only, no grammar)."""
    word, *fire = text.split()
    return Move(Manoeuvre(word), tuple(FireDir(f) for f in fire))


def plane(*moves: str, takeoff: str | None = None, land: str | None = None) -> PlaneOrders:
    return PlaneOrders(
        tuple(move(m) for m in moves),
        Runway(takeoff) if takeoff else None,
        Runway(land) if land else None,
    )


def vote(text: str) -> ZeppelinVote | None:
    if not text:
        return None
    m: Manoeuvre | None = None
    f: ZeppelinFire | None = None
    for word in text.split():
        if word.startswith(("f-", "d-")):
            f = ZeppelinFire(word)
        else:
            m = Manoeuvre(word)
    return ZeppelinVote(m, f)


def orders(planes: dict[str, PlaneOrders] | None = None,
           votes: dict[str, list[str]] | None = None) -> TurnOrders:
    return TurnOrders(
        plane=planes or {},
        zeppelin={p: tuple(vote(v) for v in vs) for p, vs in (votes or {}).items()},
    )


def run(state: GameState, turn_orders: TurnOrders, seed: int = 1,
        replay: list[int] | None = None) -> tuple[GameState, tuple[Event, ...]]:
    return adjudicate(state, turn_orders, Dice(seed, replay=replay))


def kinds(events: tuple[Event, ...], kind: str) -> list[Event]:
    return [e for e in events if e.kind == kind]


def name(state: GameState, *hexes: Any) -> list[str]:
    return [state.board.name(h) for h in hexes]
