"""The flight plan of one player's tweedekker turn, as the acceptance shows it.

``preview(state, pilot, orders, votes)`` answers "where does this take me?"
from the public position at the start of the turn and this player's own
orders, nothing else: the signature holds no other player's orders, so none
can leak into a preview.

The path is the engine's own. The engine is run on a copy of the position
that holds this aircraft alone, with the board, clouds, airfields and
zeppelins as they stand and no zeppelin votes, so a steered zeppelin stays
where the turn starts it (its hexes take a burst, F5). Within a turn nothing
else moves: clouds and drifting zeppelins drift only after move 3 (W2) and
the wind never moves aircraft, so the path needs no die. The one die the
engine could roll for a lone aircraft, the wind change after the turn (W3),
is switched off in the copy; a die asked for anyway is a bug and raises.

Warnings are data (kind, rule, move, and what the fix text needs) for orders
that are legal but almost surely a mistake: leaving the board (M4), ending a
move in a storm (C2), a LAND never completed (L4), a burst into the cloud
next door or off the board (F4, F3), the last rounds fired far from home
(F1, L5), and a bomb vote in a move where the zeppelin cannot be over an
airfield whatever the others vote (Z14) or has no bomb ready (Z17). A warning
never changes an order.

>>> from pbmref.rules.tweedekker.position import position_from_dict
>>> state = position_from_dict({"aircraft": {"baron": {"hex": "K17", "heading": "N",
...     "state": "flying", "airfield": "N"}}})
>>> plan = preview(state, "baron", PlaneOrders((Move(Manoeuvre.A), Move(Manoeuvre.RS))))
>>> [(s.move, s.order, s.outcome) for s in plan.steps]
[(1, 'A', 'flew'), (2, 'RS', 'left')]
>>> [(w.kind.value, w.rule, w.move, w.choices) for w in plan.warnings]
[('off board', 'M4', 2, ('L', 'LS'))]
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from functools import lru_cache
from itertools import product

from pbmref.rules.dice import Dice
from pbmref.rules.hexgrid import Heading, Hex, HexBoard
from pbmref.rules.tweedekker.engine import adjudicate
from pbmref.rules.tweedekker.events import (
    AircraftLanded,
    Burst,
    Damaged,
    Event,
    Manoeuvred,
    ShotDown,
)
from pbmref.rules.tweedekker.fire import trace_line
from pbmref.rules.tweedekker.movement import manoeuvre
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
    CloudKind,
    GameState,
    Runway,
    Zeppelin,
    airfield_hexes,
    runway_heading,
    runway_hexes,
)
from pbmref.rules.tweedekker.zeppelin import move_zeppelin

__all__ = [
    "BurstLine",
    "FlightPlan",
    "PlanWarning",
    "Step",
    "WarningKind",
    "preview",
]

MOVES = (1, 2, 3)  # T1
# The manoeuvres a fix may suggest, in the order they are offered (M2).
_FLOWN = (Manoeuvre.A, Manoeuvre.L, Manoeuvre.R, Manoeuvre.LS, Manoeuvre.RS)
# Every zeppelin movement vote, and what a tie or no vote does (Z7, Z10).
_ZEPPELIN_MOVES = (Manoeuvre.A, Manoeuvre.L, Manoeuvre.LS, Manoeuvre.R, Manoeuvre.RS,
                   Manoeuvre.ZERO)
_OTHER_FIRE_VOTES = tuple(f.value for f in ZeppelinFire if f is not ZeppelinFire.BOMB)


class WarningKind(StrEnum):
    """What a warning is about; each kind has one rule."""

    OFF_BOARD = "off board"  # M4
    STORM = "storm"  # C2
    NO_LANDING = "no landing"  # L4
    BURST_INTO_CLOUD = "burst into cloud"  # F4
    BURST_OFF_BOARD = "burst off board"  # F3
    LAST_ROUNDS = "last rounds"  # F1, L5
    BOMB_OFF_AIRFIELD = "bomb off airfield"  # Z14
    BOMB_NOT_READY = "bomb not ready"  # Z17


@dataclass(frozen=True, slots=True)
class BurstLine:
    """One burst: the hexes its line reaches, nearest first (F3-F5).

    ``stopped_by`` is the engine's: ``range``, ``cloud`` (``stop`` is the cloud
    hex the line stops before), ``zeppelin`` (``stop`` is the zeppelin hex
    that takes the hit, the last of ``line``) or ``edge``.
    """

    direction: FireDir
    from_hex: Hex
    line: tuple[Hex, ...]
    stopped_by: str
    stop: Hex | None = None
    zeppelins: tuple[str, ...] = ()  # the zeppelins taking the hit (F5)


@dataclass(frozen=True, slots=True)
class Step:
    """One move of the path, read from the engine's events.

    ``outcome`` is the engine's: ``flew``, ``held`` (0), ``taxied`` (L3),
    ``landed`` (L4), ``skipped`` (after landing), ``stayed`` (landed all
    along) or ``left`` (M4). ``heading_before`` is the heading the move
    starts with.
    """

    move: int
    order: str  # the manoeuvre flown, "" for a landed aircraft
    outcome: str
    from_hex: Hex
    to_hex: Hex
    heading_before: Heading
    heading: Heading
    reason: str = ""  # the engine's words, e.g. "no order: flies A (N1)"
    bursts: tuple[BurstLine, ...] = ()
    damage: tuple[tuple[str, int], ...] = ()  # (cause, points): storm, explosion
    shot_down: str = ""  # the cause, when this move ends the aircraft


@dataclass(frozen=True, slots=True)
class PlanWarning:
    """An order that is legal but almost surely a mistake.

    ``move`` is 1-3 (0: the turn as a whole); ``order`` what the warning is
    about (``RS``, ``f-A``, ``LAND BETA``, ``d-B``); ``hex`` where (the hex
    left from, the storm, the cloud next door, where the path ends);
    ``choices`` the orders for that move that would avoid it; ``changes`` a
    set of ``(move, manoeuvre)`` that would (L4); ``goal`` and
    ``goal_heading`` where the aircraft must stand to land (L4) or its home
    corner (F1, L5); ``turn`` when the next bomb is ready (Z17).
    """

    kind: WarningKind
    rule: str
    move: int = 0
    order: str = ""
    hex: Hex | None = None
    heading: Heading | None = None
    choices: tuple[str, ...] = ()
    changes: tuple[tuple[int, str], ...] = ()
    goal: Hex | None = None
    goal_heading: Heading | None = None
    turn: int = 0


@dataclass(frozen=True)
class FlightPlan:
    """Everything the acceptance shows of one player's turn.

    ``steps`` has one entry per move flown (none for an aircraft out of the
    fight, fewer than three when it leaves the board or is shot down).
    ``votes`` are the player's zeppelin votes, ``()`` without a ZEPPELIN
    section; ``zeppelin`` the steered zeppelin's name, if there is one.
    ``nmr``: no PLANE orders, so the aircraft flies A and holds fire (N1).
    """

    pilot: str
    board: HexBoard
    turn: int
    state: AircraftState  # at the start of the turn
    start: Hex
    heading: Heading
    airfield: Heading
    takeoff: Runway | None
    land: Runway | None
    steps: tuple[Step, ...]
    ammo_before: int
    ammo_after: int
    state_after: AircraftState
    nmr: bool = False
    game_over: bool = False
    votes: tuple[ZeppelinVote | None, ...] = ()
    zeppelin: str | None = None
    warnings: tuple[PlanWarning, ...] = ()


class _NoDice(Dice):
    """The dice of a preview: a lone aircraft's path needs none (see the module)."""

    def __init__(self) -> None:
        super().__init__(0)

    def roll(self, purpose: str, who: str = "", sides: int = 6, *, move: int = 0) -> int:
        raise RuntimeError(f"a flight preview asked for a die ({purpose}, {who})")


# ---------------------------------------------------------------------------
# Flying the orders alone


def _alone(state: GameState, pilot: str) -> GameState:
    """The public position with this aircraft as the only one, and no wind change."""
    return replace(state, aircraft=(state.plane(pilot),),
                   wind=replace(state.wind, changes=False), game_over=False)


def _fly(alone: GameState, pilot: str,
         orders: PlaneOrders | None) -> tuple[tuple[Event, ...], Aircraft]:
    """Run the engine on the lone position: the events and the aircraft after the turn."""
    plane = {pilot: orders} if orders is not None else {}
    after, events = adjudicate(alone, TurnOrders(plane=plane), _NoDice())
    return events, after.plane(pilot)


def _steps(events: Sequence[Event], pilot: str, start_heading: Heading) -> tuple[Step, ...]:
    """The path as the engine's events tell it, one Step per move."""
    steps: list[Step] = []
    heading = start_heading
    for move in MOVES:
        manoeuvred = [e for e in events if isinstance(e, Manoeuvred) and e.move == move
                      and e.pilot == pilot]
        if not manoeuvred:
            break
        m = manoeuvred[0]
        steps.append(_step(events, pilot, m, heading))
        heading = m.heading
    return tuple(steps)


def _step(events: Sequence[Event], pilot: str, m: Manoeuvred, heading: Heading) -> Step:
    """One move of the path: the manoeuvre ``m`` (flown from ``heading``), the
    pilot's bursts, the damage taken, and a shooting down."""
    move = m.move
    bursts = tuple(_burst_line(e, m.heading) for e in events
                   if isinstance(e, Burst) and e.move == move and e.shooter == pilot)
    damage = tuple((e.cause, e.amount) for e in events
                   if isinstance(e, Damaged) and e.move == move and e.target == pilot)
    down = next((e.reason for e in events
                 if isinstance(e, ShotDown) and e.move == move and e.target == pilot), "")
    return Step(move, m.manoeuvre, m.outcome, m.from_hex, m.to_hex, heading, m.heading,
                m.reason, bursts, damage, down)


def _burst_line(e: Burst, heading: Heading) -> BurstLine:
    direction = FireDir(e.direction)
    stop: Hex | None = None
    if e.stopped_by == "cloud":
        stop = e.from_hex.step(heading.turned(direction.turn), len(e.line) + 1)
    elif e.stopped_by == "zeppelin" and e.line:
        stop = e.line[-1]
    return BurstLine(direction, e.from_hex, e.line, e.stopped_by, stop, e.targets)


def preview(
    state: GameState,
    pilot: str,
    orders: PlaneOrders | None,
    votes: Sequence[ZeppelinVote | None] = (),
) -> FlightPlan:
    """The flight plan of ``pilot``'s orders from the public ``state``.

    ``orders`` are the player's PLANE orders (None: none sent, N1) and
    ``votes`` its zeppelin votes (one per move, None for none; ``()`` for no
    ZEPPELIN section), as ``pbmref.rulesets.tweedekker.orders.entry_to_orders`` gives
    them.
    """
    plane = state.plane(pilot)
    votes = tuple(votes)
    zeppelin = state.controlled_zeppelin()
    steps: tuple[Step, ...] = ()
    after = plane
    warnings: tuple[PlanWarning, ...] = ()
    if not state.game_over and plane.in_fight:
        alone = _alone(state, pilot)
        events, after = _fly(alone, pilot, orders)
        steps = _steps(events, pilot, plane.heading)
        warnings = _plane_warnings(state, alone, plane, orders, steps, after)
    return FlightPlan(
        pilot=pilot, board=state.board, turn=state.turn, state=plane.state, start=plane.hex,
        heading=plane.heading, airfield=plane.airfield,
        takeoff=orders.takeoff if orders else None, land=orders.land if orders else None,
        steps=steps, ammo_before=plane.ammo, ammo_after=after.ammo,
        state_after=after.state, nmr=orders is None and plane.in_fight,
        game_over=state.game_over, votes=votes,
        zeppelin=zeppelin.name if zeppelin else None,
        warnings=warnings + _vote_warnings(state, votes))


# ---------------------------------------------------------------------------
# Warnings about the aircraft


def _plane_warnings(state: GameState, alone: GameState, plane: Aircraft,
                    orders: PlaneOrders | None, steps: Sequence[Step],
                    after: Aircraft) -> tuple[PlanWarning, ...]:
    out: list[PlanWarning] = []
    board = state.board
    storms = state.cloud_hexes(CloudKind.STORM)
    for step in steps:
        if step.outcome == "left":
            out.append(PlanWarning(
                WarningKind.OFF_BOARD, "M4", step.move, step.order, step.from_hex,
                step.heading_before,
                choices=_manoeuvres_to(plane, step, lambda h: board.contains(h))))
        if any(cause == "storm" for cause, _ in step.damage):
            out.append(_storm_warning(state, plane, orders, step, storms))
        for burst in step.bursts:
            if burst.line or burst.stopped_by not in ("cloud", "edge"):
                continue
            kind, rule = ((WarningKind.BURST_INTO_CLOUD, "F4") if burst.stopped_by == "cloud"
                          else (WarningKind.BURST_OFF_BOARD, "F3"))
            out.append(PlanWarning(kind, rule, step.move, burst.direction.value, burst.stop,
                                   step.heading,
                                   choices=_open_directions(state, plane, step)))
    if orders is not None and orders.land is not None and after.state is AircraftState.FLYING \
            and not any(s.outcome == "landed" for s in steps):
        out.append(_landing_warning(alone, plane, orders, steps))
    if _last_rounds(state, plane, after):
        corner = board.corner(plane.airfield)
        out.append(PlanWarning(WarningKind.LAST_ROUNDS, "F1, L5", 0, "",
                               after.hex, after.heading, goal=corner))
    return tuple(out)


def _allowed(plane: Aircraft, move: int) -> tuple[Manoeuvre, ...]:
    """Manoeuvres a fix may offer for one move (M2, V4; never 0 in move 1, M3)."""
    extra = (Manoeuvre.I,) if plane.ace else ()
    stall = (Manoeuvre.ZERO,) if move == 3 else ()
    return _FLOWN + extra + stall


def _manoeuvres_to(plane: Aircraft, step: Step,
                   good: Callable[[Hex], bool]) -> tuple[str, ...]:
    """The other manoeuvres for ``step``'s move whose end hex passes ``good``."""
    out: list[str] = []
    for m in _allowed(plane, step.move):
        if m.value == step.order:
            continue
        hex_, _ = manoeuvre(step.from_hex, step.heading_before, m)
        if good(hex_):
            out.append(m.value)
    return tuple(out)


def _storm_warning(state: GameState, plane: Aircraft, orders: PlaneOrders | None,
                   step: Step, storms: frozenset[Hex]) -> PlanWarning:
    board = state.board
    if step.outcome == "taxied" and orders is not None and orders.takeoff is not None:
        # C2 on the runway: the way out is another runway (L3).
        choices = tuple(
            f"TAKEOFF {r.value}" for r in Runway if r is not orders.takeoff
            and not set(runway_hexes(board, plane.airfield, r)) & storms)
        return PlanWarning(WarningKind.STORM, "C2", step.move, step.order or "A", step.to_hex,
                           step.heading, choices=choices)
    choices = _manoeuvres_to(plane, step, lambda h: board.contains(h) and h not in storms)
    return PlanWarning(WarningKind.STORM, "C2", step.move, step.order, step.to_hex,
                       step.heading, choices=choices)


def _open_directions(state: GameState, plane: Aircraft, step: Step) -> tuple[str, ...]:
    """Burst directions from the firing hex whose line reaches a hex (F3-F5)."""
    ordered = {b.direction for b in step.bursts}
    clouds = state.cloud_hexes()
    zeps = frozenset(h for z in state.zeppelins if not z.destroyed
                     for h in z.on_board(state.board))
    out: list[str] = []
    for d in FireDir:
        if d in ordered or (d is FireDir.B and not plane.rear_gun):
            continue
        line = trace_line(step.to_hex, step.heading.turned(d.turn), state.settings.range,
                          state.board, clouds, zeps)
        if line.hexes:
            out.append(d.value)
    return tuple(out)


def _landing_warning(alone: GameState, plane: Aircraft, orders: PlaneOrders,
                     steps: Sequence[Step]) -> PlanWarning:
    """L4: a LAND this path never completes, with the fewest changes that would."""
    assert orders.land is not None
    board = alone.board
    _, far = runway_hexes(board, plane.airfield, orders.land)
    inbound = runway_heading(plane.airfield, orders.land).opposite()
    end = steps[-1] if steps else None
    return PlanWarning(
        WarningKind.NO_LANDING, "L4", 0, f"LAND {orders.land.value}",
        end.to_hex if end else plane.hex, end.heading if end else plane.heading,
        changes=_landing_changes(alone, plane, orders), goal=far, goal_heading=inbound)


def _lands_in(alone: GameState, plane: Aircraft, seq: tuple[Manoeuvre, ...],
              orders: PlaneOrders) -> int:
    """The move in which the manoeuvres ``seq`` land the aircraft (0: they do not)."""
    trial = PlaneOrders(tuple(Move(m) for m in seq), None, orders.land)
    events, _ = _fly(alone, plane.pilot, trial)
    return next((e.move for e in events
                 if isinstance(e, AircraftLanded) and e.pilot == plane.pilot), 0)


def _landing_changes(alone: GameState, plane: Aircraft,
                     orders: PlaneOrders) -> tuple[tuple[int, str], ...]:
    """The fewest manoeuvre changes that land this turn, by running the engine
    on every sequence (M3 kept: no 0 in move 1, 0 in move 2 only before 0)."""
    ordered = [m.manoeuvre for m in orders.moves[:3]]
    ordered += [Manoeuvre.A] * (3 - len(ordered))  # N1: a move left out is A
    options = _FLOWN + ((Manoeuvre.I,) if plane.ace else ())
    best: tuple[tuple[int, str], ...] | None = None
    for seq in product(options, options + (Manoeuvre.ZERO,), options + (Manoeuvre.ZERO,)):
        if seq[1] is Manoeuvre.ZERO and seq[2] is not Manoeuvre.ZERO:
            continue
        landed = _lands_in(alone, plane, seq, orders)
        if not landed:
            continue
        changes = tuple((n, seq[n - 1].value) for n in range(1, landed + 1)
                        if seq[n - 1] is not ordered[n - 1])
        if best is None or len(changes) < len(best):
            best = changes
    return best or ()


def _last_rounds(state: GameState, plane: Aircraft, after: Aircraft) -> bool:
    """F1, L5: the turn fires the last rounds, turns are left, and the aircraft
    cannot land (and refill) in the next turn from where it ends."""
    if plane.ammo == 0 or after.ammo > 0 or after.state is not AircraftState.FLYING:
        return False
    limit = state.settings.turns
    if limit and state.turn >= limit:
        return False
    return not _can_land_next_turn(state.board, after)


def _can_land_next_turn(board: HexBoard, plane: Aircraft) -> bool:
    """Can some LAND with three moves land next turn (L4)? Landing is an A from
    a runway's far hex heading for the corner, so that spot must be reached
    in at most two moves, none of them 0 (M3: not in move 1, and after a 0
    in move 2 move 3 is 0 too)."""
    goals = set()
    for runway in Runway:
        _, far = runway_hexes(board, plane.airfield, runway)
        goals.add((far, runway_heading(plane.airfield, runway).opposite()))
    options = _FLOWN + ((Manoeuvre.I,) if plane.ace else ())
    spots = {(plane.hex, plane.heading)}
    for _ in range(3):
        if spots & goals:
            return True
        spots = {manoeuvre(h, d, m) for h, d in spots for m in options}
        spots = {(h, d) for h, d in spots if board.contains(h)}
    return False


# ---------------------------------------------------------------------------
# Warnings about the zeppelin votes


def _vote_warnings(state: GameState,
                   votes: Sequence[ZeppelinVote | None]) -> tuple[PlanWarning, ...]:
    zeppelin = state.controlled_zeppelin()
    if zeppelin is None:
        return ()
    bombs = [(move, vote) for move, vote in enumerate(votes, 1)
             if vote is not None and vote.fire is ZeppelinFire.BOMB]
    if not bombs:
        return ()
    out: list[PlanWarning] = []
    board = state.board
    fields = frozenset().union(*(airfield_hexes(board, c) for c in Heading))
    reach = _zeppelin_reach(zeppelin, board)
    for move, _vote in bombs:
        if not any(board.contains(h) and h in fields for hexes in reach[move - 1]
                   for h in hexes):
            out.append(PlanWarning(WarningKind.BOMB_OFF_AIRFIELD, "Z14", move, "d-B",
                                   choices=_OTHER_FIRE_VOTES))
        elif state.turn < zeppelin.bomb_ready_turn:
            out.append(PlanWarning(WarningKind.BOMB_NOT_READY, "Z17", move, "d-B",
                                   choices=_OTHER_FIRE_VOTES, turn=zeppelin.bomb_ready_turn))
    return tuple(out)


@lru_cache(maxsize=64)
def _zeppelin_reach(zeppelin: Zeppelin, board: HexBoard
                    ) -> tuple[frozenset[tuple[Hex, ...]], ...]:
    """The hexes the zeppelin may stand on after the movement of each move,
    whatever the votes (Z7, Z10; a tie or no vote holds it, Z4 at the edge).
    The same for every player's mail in a turn: worked out once."""
    spots: set[tuple[tuple[Hex, ...], Heading]] = {(zeppelin.hexes, zeppelin.heading)}
    out: list[frozenset[tuple[Hex, ...]]] = []
    for _ in MOVES:
        spots = {
            _moved(replace(zeppelin, hexes=hexes, heading=heading), m, board)
            for hexes, heading in spots for m in _ZEPPELIN_MOVES
        }
        out.append(frozenset(hexes for hexes, _ in spots))
    return tuple(out)


def _moved(zeppelin: Zeppelin, order: Manoeuvre,
           board: HexBoard) -> tuple[tuple[Hex, ...], Heading]:
    hexes, heading, _ = move_zeppelin(zeppelin, order, board)
    return hexes, heading
