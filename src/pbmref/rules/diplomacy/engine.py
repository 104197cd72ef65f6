"""The Diplomacy / Dirigible Diplomacy engine: one phase in, the next position out.

``adjudicate(state, orders, rng=None) -> (new_state, events)``. Events include
one ``order`` event per order given (DD2a result and reason); the typed
results are also available through :func:`adjudicate_full`. No randomness is
used (``rng`` is accepted for the common engine signature).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace

from .adjust import may_adjust, run_adjustments
from .dirigible import scoring_centers
from .events import Event
from .map import GameMap, display
from .movement import run_movement
from .orders import Order, OrderResult
from .retreat import disband_stranded, run_retreats
from .state import DislodgedUnit, Phase, Position
from .variant import map_of, variant_of


@dataclass(frozen=True)
class Adjudication:
    state: Position
    results: tuple[OrderResult, ...]
    events: tuple[Event, ...]
    dislodged: tuple[DislodgedUnit, ...] = ()  # every unit dislodged this phase (surface)


def adjudicate(
    state: Position,
    orders: Sequence[Order],
    rng: random.Random | None = None,
    *,
    game_map: GameMap | None = None,
) -> tuple[Position, tuple[Event, ...]]:
    out = adjudicate_full(state, orders, rng, game_map=game_map)
    return out.state, out.events


def adjudicate_full(
    state: Position,
    orders: Sequence[Order],
    rng: random.Random | None = None,
    *,
    game_map: GameMap | None = None,
) -> Adjudication:
    m = game_map or map_of(state)
    kind = state.phase.kind
    if kind == "M":
        mv = run_movement(state, m, list(orders))
        pos, _gone, ev = disband_stranded(mv.position, m)
        events = mv.events + ev
        if pos.dislodged:
            pos = replace(pos, phase=replace(state.phase, kind="R"))
            return Adjudication(pos, mv.results, events, mv.dislodged)
        pos = replace(pos, standoffs=frozenset())
        pos, more = _end_of_season(pos, m)
        return Adjudication(pos, mv.results, events + more, mv.dislodged)
    if kind == "R":
        pos, results, events = run_retreats(state, m, list(orders))
        pos, more = _end_of_season(pos, m)
        return Adjudication(pos, results, events + more)
    pos, results, events = run_adjustments(state, m, list(orders))
    pos = replace(pos, phase=Phase(state.phase.year + 1, "S", "M"), devastated=frozenset())
    return Adjudication(pos, results, events)


def _end_of_season(pos: Position, m: GameMap) -> tuple[Position, tuple[Event, ...]]:
    """After the last movement/retreat of a season: next phase; in Fall,
    ownership changes (armies and fleets only, DD10), victory (DD4, DD14: the
    variant's number of centres) and
    whether a Winter phase is held (DD1)."""
    if pos.phase.season == "S":
        return replace(pos, phase=Phase(pos.phase.year, "F", "M")), ()
    events: list[Event] = []
    owners = dict(pos.centers)
    for u in pos.units:
        if u.airborne or not m.is_supply_center(u.prov):
            continue
        if owners.get(u.prov) != u.power:
            events.append(
                Event(
                    "captured",
                    power=u.power,
                    province=display(u.prov),
                    reason=f"from {owners[u.prov]}" if u.prov in owners else None,
                )
            )
            owners[u.prov] = u.power
    pos = pos.with_centers(owners)
    if pos.winner is None:
        need = variant_of(pos).victory
        for power in pos.powers:
            count = scoring_centers(pos, power) if pos.dirigible else len(pos.centers_of(power))
            if count >= need:
                pos = replace(pos, winner=power)
                events.append(Event("winner", power=power, rule="DD14" if pos.dirigible else "DD4"))
                break
    if any(may_adjust(pos, m, p) for p in pos.powers):
        return replace(pos, phase=Phase(pos.phase.year, "W", "A")), tuple(events)
    return (
        replace(pos, phase=Phase(pos.phase.year + 1, "S", "M"), devastated=frozenset()),
        tuple(events),
    )
