"""Computer pilots for tweedekker: they write the orders a sensible player would.

A computer pilot sees only what a player sees (the position in the last
report) and sends only orders a player could mail: every plan obeys the
stall rule (M3, it never orders ``0``), the burst limits (F1), take-off
(L3) and landing (L4) as written. What it does:

- on the ground it waits for repairs when badly hurt and otherwise takes
  off along the runway that points toward the nearest enemy (L3);
- in the air it tries every three-move plan, scores the shots each plan
  offers against where the enemies are likely to be, and keeps its rounds
  for good shots (close ones; long shots only with plenty of ammunition);
- it steers clear of storms (C2) and the board edge (M4);
- it goes home to land when damaged or out of rounds (L4, L5, L6);
- it votes for the zeppelin by its own preference: a *raider* wants the
  zeppelin over an enemy airfield and votes ``d-B`` there (Z14); a *hunter*
  wants it to shoot at the leader (Z11).

Plans are chosen with the game's seeded generator, so a seeded demo is
reproducible.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from dataclasses import dataclass

from pbmref.rules.hexgrid import Heading, Hex, HexBoard
from pbmref.rules.tweedekker.movement import manoeuvre as fly
from pbmref.rules.tweedekker.orders import FireDir, Manoeuvre, Move
from pbmref.rules.tweedekker.state import (
    Aircraft,
    AircraftState,
    CloudKind,
    GameState,
    Runway,
    Zeppelin,
    airfield_hexes,
    runway_hexes,
)

__all__ = ["Personality", "PERSONALITIES", "choose_orders", "fly"]

Entry = dict[str, object]


@dataclass(frozen=True)
class Personality:
    """How a computer pilot plays: its zeppelin preference and its nerve."""

    zeppelin: str = "hunter"  # "hunter": shoot the leader; "raider": bomb an enemy airfield
    long_shots: bool = False  # fire at distance 3 with fewer rounds left
    home_at_damage: int = 4  # go home to land at or below this many damage points


# The six pilots of the original demonstration game.
PERSONALITIES: dict[str, Personality] = {
    "rode_baron": Personality("hunter", long_shots=True, home_at_damage=3),
    "zwarte_valk": Personality("raider"),
    "lone_wolf": Personality("hunter", home_at_damage=3),
    "kiekendief": Personality("raider", long_shots=True),
    "staartschot": Personality("hunter"),
    "downing_john": Personality("raider", home_at_damage=5),
}

_FLYING_MOVES = (Manoeuvre.A, Manoeuvre.L, Manoeuvre.R, Manoeuvre.LS, Manoeuvre.RS)
_ENEMY_GUESS = ((Manoeuvre.A, 0.32), (Manoeuvre.L, 0.17), (Manoeuvre.R, 0.17),
                (Manoeuvre.LS, 0.17), (Manoeuvre.RS, 0.17))




@dataclass(frozen=True)
class _Plan:
    moves: tuple[Move, ...]
    score: float
    land: Runway | None = None


class _View:
    """What the pilot reads off the report: enemies, clouds, storms, zeppelins."""

    def __init__(self, state: GameState, pilot: str) -> None:
        self.state = state
        self.board: HexBoard = state.board
        self.me = state.plane(pilot)
        self.enemies = [
            a for a in state.aircraft
            if a.pilot != pilot and a.state in (AircraftState.FLYING, AircraftState.TAXIING)
        ]
        self.clouds = state.cloud_hexes()
        self.storms = state.cloud_hexes(CloudKind.STORM)
        self.zeppelin_hexes = frozenset(
            h for z in state.zeppelins if not z.destroyed for h in z.on_board(self.board)
        )
        # Where each enemy may be after each move: every manoeuvre equally likely,
        # straight on a little more likely than the rest.
        self.spread: list[dict[str, dict[Hex, float]]] = [{}, {}, {}]
        for e in self.enemies:
            frontier: dict[tuple[Hex, Heading], float] = {(e.hex, e.heading): 1.0}
            for k in range(3):
                nxt: dict[tuple[Hex, Heading], float] = {}
                for (h, d), p in frontier.items():
                    for m, w in _ENEMY_GUESS:
                        key = fly(h, d, m)
                        nxt[key] = nxt.get(key, 0.0) + p * w
                frontier = nxt
                cells: dict[Hex, float] = {}
                for (h, _d), p in frontier.items():
                    cells[h] = cells.get(h, 0.0) + p
                self.spread[k][e.pilot] = cells

    def line(self, origin: Hex, heading: Heading) -> list[tuple[int, Hex]]:
        """The hexes a burst reaches, stopping before clouds and at zeppelins (F3-F5)."""
        out = []
        for d in range(1, self.state.settings.range + 1):
            h = origin.step(heading, d)
            if h in self.clouds or not self.board.contains(h):
                break
            out.append((d, h))
            if h in self.zeppelin_hexes:
                break
        return out

    def shot_value(self, move_no: int, origin: Hex, heading: Heading, fire: FireDir) -> float:
        """Expected damage of a burst against where the enemies may be (F3)."""
        direction = heading.turned(fire.turn)
        value = 0.0
        for d, h in self.line(origin, direction):
            for e in self.enemies:
                value += (5 - d) * self.spread[move_no - 1][e.pilot].get(h, 0.0)
        return value


def _fire_choices(me: Aircraft) -> tuple[FireDir, ...]:
    return (FireDir.A, FireDir.L, FireDir.R, FireDir.B) if me.rear_gun else (
        FireDir.A, FireDir.L, FireDir.R)


def _plan_fire(view: _View, path: Sequence[tuple[Hex, Heading]], personality: Personality,
               first_free_move: int = 1) -> tuple[tuple[tuple[FireDir, ...], ...], float]:
    """Pick the bursts worth their rounds along a path (F1: at most 3, never
    more than the rounds left)."""
    me = view.me
    budget = min(view.state.settings.bursts_per_turn, me.ammo)
    threshold = 0.9 if personality.long_shots else 1.1  # expected damage worth a round
    if me.ammo <= 6:
        threshold *= 1.6  # keep the last rounds for good shots
    options: list[tuple[float, int, FireDir]] = []
    for k, (hex_, heading) in enumerate(path, 1):
        if k < first_free_move:
            continue
        for fire in _fire_choices(me):
            value = view.shot_value(k, hex_, heading, fire)
            if value >= threshold:
                options.append((value, k, fire))
    options.sort(key=lambda o: (-o[0], o[1], o[2].value))
    chosen: list[list[FireDir]] = [[], [], []]
    total = 0.0
    for value, k, fire in options[:budget]:
        chosen[k - 1].append(fire)
        total += value
    ordered = tuple(tuple(sorted(c, key=lambda f: f.value)) for c in chosen)
    return ordered, total


def _position_score(view: _View, hex_: Hex, heading: Heading, hunting: bool) -> float:
    board = view.board
    if not board.contains(hex_):
        return -1000.0  # leaving the board ends the fight (M4)
    score = 0.0
    if hex_.ring() >= board.radius - 1:
        score -= 3.0
    if hunting and view.enemies:
        target = min(view.enemies, key=lambda e: e.hex.distance(hex_))
        ahead = hex_.step(heading, 2)
        score -= 0.6 * ahead.distance(target.hex.step(target.heading))
        # Do not sit in front of an enemy's guns.
        for e in view.enemies:
            d = e.hex.distance(hex_)
            if 0 < d <= 2 and e.hex.direction_to(hex_) == e.heading:
                score -= 2.5
    return score


def _flying_plans(view: _View, personality: Personality, rng: random.Random) -> _Plan:
    """The best three moves of a flying aircraft: every combination of
    manoeuvres flown and scored (going home: landing or nearing a runway;
    otherwise fire and position), a seeded tie-break between equals."""
    me = view.me
    manoeuvres = _FLYING_MOVES + ((Manoeuvre.I,) if me.ace else ())
    going_home = (
        me.damage <= personality.home_at_damage or me.ammo == 0
        or (me.ammo <= 2 and me.damage <= 8)
    )
    best: _Plan | None = None
    for combo in itertools.product(manoeuvres, repeat=3):
        path, score, landed_on = _fly_combo(view, combo, going_home)
        fire, score = _score_combo(view, personality, path, score, landed_on, going_home)
        score += rng.random() * 0.01  # seeded tie-break
        moves = tuple(
            Move(m, fire[i] if i < len(fire) else ())
            for i, m in enumerate(combo[: len(path)])
        )
        if len(moves) < 3:  # landed: the remaining moves are ignored (L4)
            moves = moves + tuple(Move(Manoeuvre.A) for _ in range(3 - len(moves)))
        plan = _Plan(moves, score, landed_on)
        if best is None or plan.score > best.score:
            best = plan
    assert best is not None
    if going_home and best.land is None:
        # Declare the nearest runway anyway: if the approach lines up it lands (L4).
        board = view.board
        end = fly(*fly(*fly(me.hex, me.heading, best.moves[0].manoeuvre),
                         best.moves[1].manoeuvre), best.moves[2].manoeuvre)[0]
        nearest = min(Runway, key=lambda r: end.distance(runway_hexes(board, me.airfield, r)[1]))
        best = _Plan(best.moves, best.score, nearest)
    return best


def _fly_combo(view: _View, combo: tuple[Manoeuvre, ...],
               going_home: bool) -> tuple[list[tuple[Hex, Heading]], float, Runway | None]:
    """The places of a combination flown until it leaves the board or lands
    (going home, along a runway: L4), with what storms and leaving cost."""
    me = view.me
    board = view.board
    hex_, heading = me.hex, me.heading
    path: list[tuple[Hex, Heading]] = []
    score = 0.0
    landed_on: Runway | None = None
    for m in combo:
        before = hex_
        hex_, heading = fly(hex_, heading, m)
        path.append((hex_, heading))
        if hex_ in view.storms:
            score -= 4.0
        if not board.contains(hex_):
            score -= 1000.0
            break
        if going_home and landed_on is None and m is Manoeuvre.A:
            for runway in Runway:
                near, far = runway_hexes(board, me.airfield, runway)
                if before == far and hex_ == near:
                    landed_on = runway
        if landed_on is not None:
            break
    return path, score, landed_on


def _score_combo(view: _View, personality: Personality, path: list[tuple[Hex, Heading]],
                 score: float, landed_on: Runway | None,
                 going_home: bool) -> tuple[tuple[tuple[FireDir, ...], ...], float]:
    """The fire along a flown combination and its score: going home, a landing
    or the way left to a runway and home, and half the fire; else the fire and
    the position reached."""
    hex_, heading = path[-1]
    if going_home:
        me = view.me
        board = view.board
        if landed_on is not None:
            score += 100.0 - len(path)
        else:
            approach = min(
                hex_.distance(runway_hexes(board, me.airfield, r)[1]) for r in Runway)
            score -= 2.0 * approach + 0.5 * hex_.distance(board.corner(me.airfield))
        fire, value = _plan_fire(view, path, personality)
        score += 0.5 * value
    else:
        fire, value = _plan_fire(view, path, personality)
        score += value + _position_score(view, hex_, heading, hunting=True)
    return fire, score


def _takeoff_plan(view: _View, personality: Personality) -> tuple[Runway, tuple[Move, ...]]:
    """Take off along the runway pointing most toward the enemies (L3)."""
    me = view.me
    board = view.board
    best: tuple[float, Runway, tuple[Move, ...]] | None = None
    for runway in Runway:
        near, far = runway_hexes(board, me.airfield, runway)
        heading = near.direction_to(far) or me.heading  # along the runway (L3)
        for m3 in _FLYING_MOVES:
            hex3, heading3 = fly(far, heading, m3)
            path = [(near, heading), (far, heading), (hex3, heading3)]
            if not board.contains(hex3) or hex3 in view.storms:
                continue
            fire, value = _plan_fire(view, path, personality, first_free_move=3)
            score = value + _position_score(view, hex3, heading3, hunting=True)
            moves = (Move(Manoeuvre.A), Move(Manoeuvre.A), Move(m3, fire[2]))
            if best is None or score > best[0]:
                best = (score, runway, moves)
    if best is None:
        return Runway.BETA, (Move(Manoeuvre.A), Move(Manoeuvre.A), Move(Manoeuvre.A))
    return best[1], best[2]


def _plane_entry(view: _View, personality: Personality, rng: random.Random) -> Entry | None:
    me = view.me
    if not me.in_fight:
        return None
    if me.state is AircraftState.LANDED:
        max_damage = view.state.settings.damage_points
        disabled = view.state.airfield(me.airfield).disabled_turns > 0
        wants_repair = me.damage < max_damage - 2 and not disabled
        bombed_soon = _zeppelin_threat(view)
        if (wants_repair and not bombed_soon) or me.landed_turns < 1 or me.ammo == 0:
            return {"plane": []}  # stay landed (L2a)
        runway, moves = _takeoff_plan(view, personality)
        return {"plane": [m.format() for m in moves], "takeoff": runway.value}
    plan = _flying_plans(view, personality, rng)
    entry: Entry = {"plane": [m.format() for m in plan.moves]}
    if plan.land is not None:
        entry["land"] = plan.land.value
    return entry


def _zeppelin_threat(view: _View) -> bool:
    """Is a zeppelin within two hexes of my airfield with a bomb ready (Z14)?"""
    field = airfield_hexes(view.board, view.me.airfield)
    for z in view.state.zeppelins:
        if z.destroyed or z.bomb_ready_turn > view.state.turn:
            continue
        if any(h.distance(f) <= 2 for h in z.on_board(view.board) for f in field):
            return True
    return False


def _zeppelin_fly(z: Zeppelin, nose: Hex, heading: Heading, m: Manoeuvre) -> tuple[Hex, Heading]:
    """The nose moves as an aircraft would (Z10)."""
    return fly(nose, heading, m)


def _zeppelin_votes(view: _View, pilot: str, personality: Personality) -> list[str]:
    state = view.state
    z = state.controlled_zeppelin()
    if z is None or pilot not in state.voters():
        return []
    others = [a for a in state.aircraft if a.pilot != pilot and a.state is not AircraftState.REMOVED]
    if not others:
        return []
    raider = personality.zeppelin == "raider"
    goal, target_field = _zeppelin_goal(view.board, others, raider=raider)
    bomb_ready = z.bomb_ready_turn <= state.turn
    nose, heading = z.nose, z.heading
    lines: list[str] = []
    for _k in range(3):
        step = _zeppelin_step(view.board, z, nose, heading, goal)
        if step is None:
            lines.append("0")
            continue
        m, nose, heading, hexes = step
        if raider:
            fire = "d-B" if bomb_ready and any(h in target_field for h in hexes) else "f-0"
        else:
            fire = _zeppelin_fire_at(goal, nose, heading, hexes[-1])
        lines.append(f"{m.value} {fire}")
    return lines


def _zeppelin_goal(board: HexBoard, others: list[Aircraft], *,
                   raider: bool) -> tuple[Hex, frozenset[Hex]]:
    """Where the zeppelin heads, and the airfield it would bomb: a raider goes
    for the airfield of the enemy with the most victory points; otherwise it
    hunts the leader."""
    if raider:
        target_pilot = max(others, key=lambda a: (a.vp, a.pilot))
        return board.corner(target_pilot.airfield), airfield_hexes(board, target_pilot.airfield)
    leader = max(others, key=lambda a: (a.vp, a.damage, a.pilot))
    return leader.hex, frozenset()


def _zeppelin_step(board: HexBoard, z: Zeppelin, nose: Hex, heading: Heading,
                   goal: Hex) -> tuple[Manoeuvre, Hex, Heading, tuple[Hex, ...]] | None:
    """The manoeuvre that brings the zeppelin nearest ``goal`` while it stays on
    the board (flying straight on preferred over staying); None if none does."""
    scored = []
    for m in (Manoeuvre.A, Manoeuvre.L, Manoeuvre.R, Manoeuvre.LS, Manoeuvre.RS,
              Manoeuvre.ZERO):
        n2, h2 = _zeppelin_fly(z, nose, heading, m)
        hexes = (n2, n2.step(h2.opposite())) if len(z.hexes) == 2 else (n2,)
        on = [h for h in hexes if board.contains(h)]
        if not on:
            continue
        scored.append((min(h.distance(goal) for h in on), m.value, m, n2, h2, hexes))
    if not scored:
        return None
    scored.sort(key=lambda s: (s[0], s[2] is Manoeuvre.ZERO, s[1]))
    _, _, m, nose, heading, hexes = scored[0]
    return m, nose, heading, hexes


def _zeppelin_fire_at(goal: Hex, nose: Hex, heading: Heading, tail: Hex) -> str:
    """The first gun (ahead, left, right, back) whose line reaches ``goal``
    within four hexes; ``f-0`` if none."""
    for direction, origin, turn in (("f-A", nose, 0), ("f-L", nose, -1),
                                    ("f-R", nose, 1), ("f-B", tail, 3)):
        line_heading = heading.turned(turn)
        if any(origin.step(line_heading, d) == goal for d in range(1, 5)):
            return direction
    return "f-0"


def choose_orders(state: GameState, pilot: str, rng: random.Random,
                  personality: Personality | None = None) -> Entry:
    """The orders entry a computer pilot sends this turn (scenario schema)."""
    personality = personality or PERSONALITIES.get(pilot, Personality())
    view = _View(state, pilot)
    entry: Entry = {}
    plane = _plane_entry(view, personality, rng)
    if plane is not None:
        entry.update(plane)
    votes = _zeppelin_votes(view, pilot, personality)
    if votes:
        entry["zeppelin"] = votes
    return entry
