"""The tweedekker referee: one whole turn, from a position and orders to events.

``adjudicate(state, orders, dice)`` resolves the three moves of a turn in the
order of rule T2 (movement, firing and bombing, damage, explosions) and then
the end of the turn in the order of rule T3 (drift, repair, counters, NMR,
aces, wind, game end). It is pure: the only source of chance is the ``Dice``
passed in, and every die is also written into the events (V5).

The orders layer checks what a player may order (M3 stalls, F1 burst limits,
L3 take-off moves ...); the engine still accepts anything and does the most
sensible thing with orders it could not have been sent, so a hand-edited
position or order never crashes a turn.

Rule numbers refer to ``shared/rules/tweedekker.md``; judgement calls are
marked ``Ruling:``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace

from pbmref.rules.dice import Dice
from pbmref.rules.hexgrid import Heading, Hex
from pbmref.rules.tweedekker.drift import drift_cloud
from pbmref.rules.tweedekker.events import (
    AcePromoted,
    AircraftLanded,
    AirfieldBombed,
    BombDropped,
    Burst,
    Damaged,
    DieRolled,
    Drifted,
    Event,
    Exploded,
    GameEnded,
    Hit,
    Manoeuvred,
    MissedOrders,
    PointsScored,
    Refilled,
    Removed,
    Repaired,
    ShotDown,
    TookOff,
    VoteTally,
    WindChanged,
    ZeppelinMoved,
)
from pbmref.rules.tweedekker.fire import burst_damage, trace_line
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
    Airfield,
    Cloud,
    CloudKind,
    GameState,
    Runway,
    Zeppelin,
    airfield_hexes,
    runway_heading,
    runway_hexes,
)
from pbmref.rules.tweedekker.votes import tally
from pbmref.rules.tweedekker.zeppelin import (
    drift_step,
    move_zeppelin,
    place_controlled_zeppelin,
)

__all__ = ["EXPLOSION_DAMAGE", "adjudicate", "place_controlled_zeppelin"]

FLYING = AircraftState.FLYING
LANDED = AircraftState.LANDED
TAXIING = AircraftState.TAXIING

# Z12: damage by distance from the nearest on-board zeppelin hex.
EXPLOSION_DAMAGE: dict[int, int] = {0: 5, 1: 4, 2: 3}

_MOVE_CHOICES = ("A", "L", "LS", "R", "RS", "0")
_FIRE_CHOICES = ("f-A", "f-L", "f-R", "f-B", "f-0", "d-B")
_PLANE = "a"
_ZEP = "z"
Key = tuple[str, str]  # ("a", pilot) or ("z", zeppelin name): gunners and targets


@dataclass(slots=True)
class _Plane:
    """A working, mutable copy of one aircraft during the turn."""

    pilot: str
    hex: Hex
    heading: Heading
    airfield: Heading
    state: AircraftState
    damage: int
    ammo: int
    vp: int
    dealt: int
    ace: bool
    kills: int
    nmr: int
    rear_gun: bool
    landed_turns: int
    # turn bookkeeping
    moves: list[Move | None] = field(default_factory=list)
    nmr_turn: bool = False
    takeoff: Runway | None = None
    land: Runway | None = None
    landed_this_turn: bool = False
    bursts: int = 0

    @classmethod
    def of(cls, a: Aircraft) -> _Plane:
        return cls(a.pilot, a.hex, a.heading, a.airfield, a.state, a.damage, a.ammo, a.vp,
                   a.dealt, a.ace, a.kills, a.nmr, a.rear_gun, a.landed_turns)

    def freeze(self) -> Aircraft:
        return Aircraft(self.pilot, self.hex, self.heading, self.airfield, self.state,
                        self.damage, self.ammo, self.vp, self.dealt, self.ace, self.kills,
                        self.nmr, self.rear_gun, self.landed_turns)

    @property
    def airborne(self) -> bool:
        return self.state is FLYING or self.state is TAXIING


@dataclass(slots=True)
class _Zep:
    name: str
    hexes: tuple[Hex, ...]
    heading: Heading
    damage: int
    controlled: bool
    first_hit: bool
    bomb_ready_turn: int
    destroyed: bool

    @property
    def nose(self) -> Hex:
        return self.hexes[0]

    @property
    def tail(self) -> Hex:
        return self.hexes[-1]

    @classmethod
    def of(cls, z: Zeppelin) -> _Zep:
        return cls(z.name, z.hexes, z.heading, z.damage, z.controlled, z.first_hit,
                   z.bomb_ready_turn, z.destroyed)

    def freeze(self) -> Zeppelin:
        return Zeppelin(self.name, self.hexes, self.heading, self.damage, self.controlled,
                        self.first_hit, self.bomb_ready_turn, self.destroyed)


@dataclass(slots=True)
class _MoveDamage:
    """What step 2 of a move produced, to be applied together in step 3 (T2)."""

    # target -> gunner -> gunfire damage, in the order the hits happened
    gunfire: dict[Key, dict[Key, int]] = field(default_factory=dict)
    bomb: dict[str, int] = field(default_factory=dict)  # pilot -> bomb damage (Z15)


def adjudicate(
    state: GameState, orders: TurnOrders, dice: Dice
) -> tuple[GameState, tuple[Event, ...]]:
    """Resolve one whole turn (T1-T3) and return the next position and the events."""
    if state.game_over:
        return state, ()
    turn = _Turn(state, orders, dice)
    turn.run()
    return turn.result(), tuple(turn.events)


class _Turn:
    def __init__(self, state: GameState, orders: TurnOrders, dice: Dice) -> None:
        self.state = state
        self.orders = orders
        self.dice = dice
        self.board = state.board
        self.settings = state.settings
        self.events: list[Event] = []
        self.planes: dict[str, _Plane] = {a.pilot: _Plane.of(a) for a in state.aircraft}
        self.zeps: list[_Zep] = [_Zep.of(z) for z in state.zeppelins]
        self.disabled: dict[Heading, int] = {f.corner: f.disabled_turns for f in state.airfields}
        self.clouds: list[tuple[Hex, ...]] = [c.hexes for c in state.clouds]
        self.cloud_hexes = state.cloud_hexes()
        self.storm_hexes = state.cloud_hexes(CloudKind.STORM)
        self.voters = frozenset(state.voters())  # Z9, N2: fixed at the start of the turn
        self.landed_at_start = {p for p, a in self.planes.items() if a.state is LANDED}
        self.in_fight_at_start = {p for p, a in self.planes.items() if a.state.in_fight}
        self.wind = state.wind
        self.game_over = False
        self.winners: tuple[str, ...] = ()
        self.airfield_at: dict[Hex, Heading] = {}
        for corner in Heading:
            for h in airfield_hexes(self.board, corner):
                self.airfield_at.setdefault(h, corner)

    # ------------------------------------------------------------------ setup

    def plan(self) -> None:
        """Turn each aircraft's orders into three moves (N1, L2a, L3, L4)."""
        for pilot, p in self.planes.items():
            if not p.state.in_fight:
                continue
            if p.state is TAXIING:
                # Ruling (L3): a take-off run ends within its turn, so an aircraft
                # that starts a turn taxiing (a hand-made position) is flying.
                p.state = FLYING
            po: PlaneOrders | None = self.orders.plane.get(pilot)
            if po is None:
                p.nmr_turn = True  # N1: flies A, no fire; a landed aircraft stays
                p.moves = [None, None, None]
                continue
            p.moves = [*po.moves[:3]] + [None] * (3 - min(3, len(po.moves)))
            if p.state is LANDED:
                # L2a/L3: only TAKEOFF makes a landed aircraft move; Ruling: one
                # that has not been landed a whole turn stays landed (the orders
                # layer refuses such orders). L1: in turn 1 every landed
                # aircraft may take off, whatever ``landed_turns`` says.
                if po.takeoff is not None and self.state.may_take_off(p.freeze()):
                    p.takeoff = po.takeoff
            else:
                p.land = po.land

    # ------------------------------------------------------------------ run

    def run(self) -> None:
        self.plan()
        for move in (1, 2, 3):
            if self.controlled() is not None:
                self.vote_and_move_zeppelin(move)
            self.move_aircraft(move)
            damage = _MoveDamage()
            self.fire_aircraft(move, damage)
            self.fire_zeppelin(move, damage)
            destroyed = self.apply_damage(move, damage)
            self.explode(move, destroyed, damage)
            for p in self.planes.values():
                if move == 2 and p.takeoff is not None and p.state is TAXIING:
                    p.state = FLYING  # L3: airborne after move 2
        self.end_of_turn()

    def controlled(self) -> _Zep | None:
        for z in self.zeps:
            if z.controlled and not z.destroyed:
                return z
        return None

    def roll(self, move: int, purpose: str, who: str, target: str = "") -> int:
        # The die is recorded for its move, purpose, whose, and the target it
        # decides (V5): a re-run deals it to the same roll-off again.
        value = self.dice.roll(f"{purpose} ({target})" if target else purpose, who, move=move)
        self.events.append(DieRolled(move, purpose, who, value, 6, target))
        return value

    # ------------------------------------------------------------------ votes

    def votes(self, move: int) -> list[tuple[str, ZeppelinVote]]:
        out: list[tuple[str, ZeppelinVote]] = []
        for player in sorted(self.orders.zeppelin):
            if player not in self.voters:
                # Z9: removed for NMR; Ruling: votes of someone who is not a
                # player of this game are not counted either.
                continue
            line: tuple[ZeppelinVote | None, ...] = tuple(self.orders.zeppelin[player])
            vote = line[move - 1] if len(line) >= move else None
            if vote is not None and not vote.empty:
                out.append((player, vote))
        return out

    def vote_and_move_zeppelin(self, move: int) -> None:
        """Z7 movement half, then Z10 movement with the edge rule Z4."""
        z = self.controlled()
        assert z is not None
        # Ruling (Z10): a zeppelin has no Immelman; an I vote is not counted.
        cast = [(p, v.move.value) for p, v in self.votes(move)
                if v.move is not None and v.move is not Manoeuvre.I]
        t = tally(cast, _MOVE_CHOICES)
        self.events.append(VoteTally(move, z.name, "move", t.votes, t.counts, t.winner, t.tie))
        if t.winner is None:
            return  # Z7: no votes, or a tie: the zeppelin does not move
        order = Manoeuvre(t.winner)
        before = z.hexes
        # Ruling (Z4, Z6): the edge rule applies to voted moves as well as to
        # drift; the seed gives the controlled zeppelin "the same rules for
        # reappearing".
        z.hexes, z.heading, reentered = move_zeppelin(z.freeze(), order, self.board)
        self.events.append(ZeppelinMoved(move, z.name, order.value, before, z.hexes,
                                         z.heading, reentered))

    # ------------------------------------------------------------------ movement

    def move_aircraft(self, move: int) -> None:
        """Step 1 of a move (T2): every aircraft moves at once (M2, L3, L4, M4)."""
        for p in self.planes.values():
            if not p.state.in_fight:
                continue
            if p.state is LANDED:
                self.move_landed(move, p)
                continue
            start = p.hex
            if p.state is TAXIING and move == 2:
                assert p.takeoff is not None
                _, far = runway_hexes(self.board, p.airfield, p.takeoff)
                p.hex = far
                self.events.append(Manoeuvred(move, p.pilot, "A", start, p.hex, p.heading,
                                              "taxied", "take-off run (L3)"))
                continue
            order, reason = self.flown(p, move)
            if self.lands(p, order):
                self.land(move, p, order)
                continue
            p.hex, p.heading = manoeuvre(start, p.heading, order)
            outcome = "held" if order is Manoeuvre.ZERO else "flew"
            if not self.board.contains(p.hex):
                p.state = AircraftState.LEFT  # M4: out of the fight, keeps its points
                outcome = "left"
            self.events.append(Manoeuvred(move, p.pilot, order.value, start, p.hex, p.heading,
                                          outcome, reason))

    def move_landed(self, move: int, p: _Plane) -> None:
        """A landed aircraft: it takes off in move 1 if ordered (L3), else it stays
        (one that landed this turn sits the rest of it out, L4)."""
        start = p.hex
        if p.landed_this_turn:
            self.events.append(Manoeuvred(move, p.pilot, "", start, start, p.heading,
                                          "skipped", "landed earlier this turn (L4)"))
        elif p.takeoff is not None and move == 1:
            near, _ = runway_hexes(self.board, p.airfield, p.takeoff)
            p.hex, p.heading = near, runway_heading(p.airfield, p.takeoff)
            p.state = TAXIING
            p.landed_turns = 0
            self.events.append(TookOff(move, p.pilot, p.takeoff.value))
            self.events.append(Manoeuvred(move, p.pilot, "A", start, p.hex, p.heading,
                                          "taxied", "take-off run (L3)"))
        else:
            reason = "NMR: stays landed (N1)" if p.nmr_turn else ""
            self.events.append(Manoeuvred(move, p.pilot, "", start, start, p.heading,
                                          "stayed", reason))

    def flown(self, p: _Plane, move: int) -> tuple[Manoeuvre, str]:
        """The manoeuvre the aircraft flies in ``move`` and why, if not as
        ordered: no order flies A (N1); an I of a pilot who is not an ace is
        flown as A (ruling, M2, V4)."""
        ordered = p.moves[move - 1] if p.moves else None
        if ordered is None:
            return Manoeuvre.A, "NMR: flies A (N1)" if p.nmr_turn else "no order: flies A (N1)"
        if ordered.manoeuvre is Manoeuvre.I and not p.ace:
            return Manoeuvre.A, "not an ace: flies A instead of I (V4)"
        return ordered.manoeuvre, ""

    def lands(self, p: _Plane, order: Manoeuvre) -> bool:
        """L4: an A move from the declared runway's far hex into its near hex."""
        if p.land is None or order is not Manoeuvre.A:
            return False
        _, far = runway_hexes(self.board, p.airfield, p.land)
        return p.hex == far and p.heading == runway_heading(p.airfield, p.land).opposite()

    def land(self, move: int, p: _Plane, order: Manoeuvre) -> None:
        assert p.land is not None
        start = p.hex
        # Ruling (L4): the landed aircraft keeps its heading (toward the corner);
        # a take-off sets the runway's heading anyway (L3).
        p.hex = self.board.corner(p.airfield)
        p.state = LANDED
        p.landed_this_turn = True
        p.landed_turns = 0
        self.events.append(Manoeuvred(move, p.pilot, order.value, start, p.hex, p.heading,
                                      "landed", f"landed on runway {p.land.value} (L4)"))
        self.events.append(AircraftLanded(move, p.pilot, p.land.value, p.airfield))
        if self.disabled.get(p.airfield, 0) == 0 and p.ammo < self.settings.ammo:
            p.ammo = self.settings.ammo  # L5 (not on a bombed airfield, L7)
            self.events.append(Refilled(move, p.pilot, p.ammo))

    # ------------------------------------------------------------------ firing

    def blocking(self, exclude: str = "") -> dict[Hex, list[str]]:
        """On-board hexes of zeppelins that block fire (F5, Z4)."""
        out: dict[Hex, list[str]] = {}
        for z in self.zeps:
            if z.destroyed or z.name == exclude:
                continue
            for h in z.hexes:
                if self.board.contains(h):
                    out.setdefault(h, []).append(z.name)
        return out

    def airborne_at(self) -> dict[Hex, list[_Plane]]:
        out: dict[Hex, list[_Plane]] = {}
        for p in self.planes.values():
            if p.airborne:
                out.setdefault(p.hex, []).append(p)
        return out

    def burst(
        self,
        move: int,
        shooter: Key,
        start: Hex,
        direction: Heading,
        label: str,
        bonus: int,
        damage: _MoveDamage,
        planes_at: dict[Hex, list[_Plane]],
        blockers: dict[Hex, list[str]],
    ) -> None:
        """One burst along its line (F3-F6), recording every hit for step 3."""
        reach = self.settings.range
        line = trace_line(start, direction, reach, self.board, self.cloud_hexes,
                          blockers.keys())
        hits: list[tuple[Key, int, int]] = []
        for k, h in enumerate(line.hexes, 1):
            amount = burst_damage(k, reach, bonus)
            if line.stopped_by == "zeppelin" and k == len(line.hexes):
                # Ruling (F5): should two zeppelins share the blocking hex, both
                # take the hit.
                hits.extend(((_ZEP, name), amount, k) for name in blockers.get(h, ()))
            hits.extend(((_PLANE, q.pilot), amount, k) for q in planes_at.get(h, ())
                        if (_PLANE, q.pilot) != shooter)
        self.events.append(Burst(move, shooter[1], label, start, line.hexes, line.stopped_by,
                                 tuple(t[1] for t, _, _ in hits)))
        for target, amount, k in hits:
            self.events.append(Hit(move, shooter[1], target[1], amount, k))
            by = damage.gunfire.setdefault(target, {})
            by[shooter] = by.get(shooter, 0) + amount
            if shooter[0] == _PLANE:
                # V4: damage dealt to aircraft and zeppelins, counted in full.
                self.planes[shooter[1]].dealt += amount

    def fire_aircraft(self, move: int, damage: _MoveDamage) -> None:
        """Step 2 (T2): every flying aircraft fires from where it ended the move."""
        planes_at = self.airborne_at()
        blockers = self.blocking()
        for p in self.planes.values():
            # L2, L3: landed and taxiing aircraft cannot fire; M4: one that left
            # takes no further part (Ruling: not even in the move it left).
            if p.state is not FLYING or p.takeoff is not None and move <= 2:
                continue
            ordered = p.moves[move - 1] if p.moves else None
            if ordered is None:
                continue  # N1: a missing move holds fire
            seen: set[FireDir] = set()
            for d in ordered.fire:
                # Ruling (F1, F2): bursts the orders layer would refuse (a
                # repeated direction, f-B without a rear gunner, a fourth burst,
                # an empty gun) are skipped, never guessed at.
                if d in seen or (d is FireDir.B and not p.rear_gun):
                    continue
                if p.bursts >= self.settings.bursts_per_turn or p.ammo <= 0:
                    break
                seen.add(d)
                p.bursts += 1
                p.ammo -= 1
                bonus = self.settings.ace_bonus if p.ace else 0
                self.burst(move, (_PLANE, p.pilot), p.hex, p.heading.turned(d.turn), d.value,
                           bonus, damage, planes_at, blockers)

    def fire_zeppelin(self, move: int, damage: _MoveDamage) -> None:
        """Z7 fire half, then Z11 fire or Z14-Z16 bomb."""
        z = self.controlled()
        if z is None:
            return
        votes = self.votes(move)
        cast = [(p, v.fire.value) for p, v in votes if v.fire is not None]
        t = tally(cast, _FIRE_CHOICES)
        self.events.append(VoteTally(move, z.name, "fire", t.votes, t.counts, t.winner, t.tie))
        if t.winner is None or t.winner == ZeppelinFire.HOLD.value:
            return  # Z7: a tie or no votes: no fire; f-0 holds fire
        choice = ZeppelinFire(t.winner)
        if choice is ZeppelinFire.BOMB:
            bombs = sum(1 for _, c in t.votes if c == ZeppelinFire.BOMB.value)
            self.bomb(move, z, bombs, damage)
            return
        direction = choice.direction
        assert direction is not None
        # Z11: f-A, f-L, f-R from the nose, f-B from the tail (one hex: its hex).
        start = z.tail if direction is FireDir.B else z.nose
        heading = z.heading.turned(direction.turn)
        if not self.board.contains(start):
            # Z4: only the hex on the board can fire. Ruling: the won vote is
            # recorded as a burst that reached nothing (stopped "off board").
            self.events.append(Burst(move, z.name, choice.value, start, (), "off board", ()))
            return
        self.burst(move, (_ZEP, z.name), start, heading, choice.value, 0, damage,
                   self.airborne_at(), self.blocking(exclude=z.name))

    def bomb(self, move: int, z: _Zep, votes: int, damage: _MoveDamage) -> None:
        """Z14-Z17: a winning d-B vote."""
        corner: Heading | None = None
        for h in z.hexes:
            if self.board.contains(h) and h in self.airfield_at:
                corner = self.airfield_at[h]
                break
        if corner is None:
            # Z14; when neither hex is on an airfield the readiness is moot.
            self.events.append(BombDropped(move, z.name, votes, "no airfield", None, (),
                                           z.bomb_ready_turn))
            return
        if self.state.turn < z.bomb_ready_turn:
            self.events.append(BombDropped(move, z.name, votes, "not ready", corner, (),
                                           z.bomb_ready_turn))
            return
        # Z17: dropped in turn t, the next bomb is ready in turn t+4.
        z.bomb_ready_turn = self.state.turn + self.settings.bomb_reload_turns + 1
        corner_hex = self.board.corner(corner)
        landed = [p for p in self.planes.values() if p.state is LANDED and p.hex == corner_hex]
        if landed:
            amount = min(votes, self.settings.bomb_damage_cap)  # Z15
            for p in landed:
                damage.bomb[p.pilot] = damage.bomb.get(p.pilot, 0) + amount
            self.events.append(BombDropped(move, z.name, votes, "aircraft hit", corner,
                                           tuple(p.pilot for p in landed), z.bomb_ready_turn))
            return
        # Z16: disabled from this move to the end of the turn and for the next
        # turns; the end-of-turn tick (T3) brings it to the setting.
        self.disabled[corner] = self.settings.airfield_disabled_turns + 1
        self.events.append(BombDropped(move, z.name, votes, "airfield disabled", corner, (),
                                       z.bomb_ready_turn))
        self.events.append(AirfieldBombed(move, corner, self.settings.airfield_disabled_turns))

    # ------------------------------------------------------------------ damage

    def kill_winner(self, move: int, target: str, by: dict[Key, int]) -> Key | None:
        """V2: the gunner with the most gunfire damage this move; a roll-off on a tie."""
        if not by:
            return None
        top = max(by.values())
        tied = sorted(k for k, v in by.items() if v == top)
        while len(tied) > 1:
            rolls = {k: self.roll(move, "kill roll-off", k[1], target) for k in tied}
            best = max(rolls.values())
            tied = [k for k in tied if rolls[k] == best]
        return tied[0]

    def credit_kill(self, move: int, p: _Plane, damage: _MoveDamage) -> str | None:
        """V2: the kill of an aircraft shot down this move, if gunfire hit it; 5 VP."""
        winner = self.kill_winner(move, p.pilot, damage.gunfire.get((_PLANE, p.pilot), {}))
        credited = winner[1] if winner is not None and winner[0] == _PLANE else None
        if credited is not None:
            killer = self.planes[credited]
            killer.vp += 5
            killer.kills += 1
            self.events.append(PointsScored(move, credited, 5, "kill", p.pilot))
        return credited

    def apply_damage(self, move: int, damage: _MoveDamage) -> list[_Zep]:
        """Step 3 (T2): gunfire, bombs and storms added up and applied together."""
        # C2: flying or taxiing aircraft and zeppelins ending the move in a storm.
        storm_planes = {p.pilot for p in self.planes.values()
                        if p.airborne and p.hex in self.storm_hexes}
        storm_zeps = {z.name for z in self.zeps if self.zeppelin_in_storm(z)}
        down: list[tuple[_Plane, str]] = []
        for p in self.planes.values():
            reason = self.damage_aircraft(move, p, damage, p.pilot in storm_planes)
            if reason is not None:
                down.append((p, reason))
        for p, reason in down:
            p.state = AircraftState.DOWN
            credited = self.credit_kill(move, p, damage)
            self.events.append(ShotDown(move, p.pilot, credited, reason))

        destroyed: list[_Zep] = []
        for z in self.zeps:
            if z.destroyed:
                continue
            gun = damage.gunfire.get((_ZEP, z.name), {})
            storm = 1 if z.name in storm_zeps else 0
            if not gun and not storm:
                continue
            if self.damage_zeppelin(move, z, gun, storm):
                destroyed.append(z)
        return destroyed

    def zeppelin_in_storm(self, z: _Zep) -> bool:
        """C2: a zeppelin (not destroyed) with a hex on the board in a storm."""
        return not z.destroyed and any(self.board.contains(h) and h in self.storm_hexes
                                       for h in z.hexes)

    def damage_aircraft(self, move: int, p: _Plane, damage: _MoveDamage,
                        in_storm: bool) -> str | None:
        """One aircraft's gunfire, storm and bomb damage, the gunners' points
        (V1); the reason it is shot down, or None while it flies on."""
        gun = damage.gunfire.get((_PLANE, p.pilot), {})
        causes = [("gunfire", sum(gun.values())),
                  ("storm", 1 if in_storm else 0),
                  ("bomb", damage.bomb.get(p.pilot, 0))]
        if not any(amount for _, amount in causes):
            return None
        for cause, amount in causes:
            if amount:
                p.damage -= amount
                self.events.append(Damaged(move, p.pilot, amount, cause, p.damage))
        for gunner, amount in gun.items():
            if gunner[0] == _PLANE:
                # V1: 1 point per damage point, also beyond what was left.
                self.planes[gunner[1]].vp += amount
                self.events.append(PointsScored(move, gunner[1], amount, "damage",
                                                p.pilot))
        if p.damage <= 0 and p.state.in_fight:
            # Ruling (V2): the reason given is gunfire when any gunfire hit
            # it, else the storm, else the bomb.
            return next(c for c, amount in causes if amount)
        return None

    def damage_zeppelin(self, move: int, z: _Zep, gun: dict[Key, int], storm: int) -> bool:
        """One zeppelin's gunfire and storm damage, the points for its first hit
        and its destruction (Z5); whether it was destroyed."""
        if gun:
            z.damage -= sum(gun.values())
            self.events.append(Damaged(move, z.name, sum(gun.values()), "gunfire",
                                       z.damage))
        if storm:
            z.damage -= storm  # C2, Z18: no points for storm damage
            self.events.append(Damaged(move, z.name, storm, "storm", z.damage))
        first_hitters: list[str] = []
        if gun and not z.first_hit:
            z.first_hit = True
            # Ruling (Z5): every aircraft gunner hitting it in the move of the
            # first hit earns the 2 points.
            first_hitters = [g[1] for g in gun if g[0] == _PLANE]
        destroyer: str | None = None
        if z.damage <= 0:
            z.destroyed = True
            # Ruling (Z5, Z18): the destroying gunner is found as for a kill
            # (V2) whenever gunfire hit it in that move; a zeppelin lost to
            # the storm alone earns nobody points.
            winner = self.kill_winner(move, z.name, gun)
            if winner is not None and winner[0] == _PLANE:
                destroyer = winner[1]
        self.zeppelin_points(move, z, first_hitters, destroyer)
        if z.destroyed:
            self.events.append(ShotDown(move, z.name, destroyer,
                                        "gunfire" if gun else "storm"))
        return z.destroyed

    def zeppelin_points(self, move: int, z: _Zep, first_hitters: list[str],
                        destroyer: str | None) -> None:
        """Z5: 2 points for each gunner of the first hit, 5 for the destroyer."""
        for pilot in first_hitters:
            if pilot != destroyer:  # Ruling (Z5): 5 for both, not 7
                self.planes[pilot].vp += 2
                self.events.append(PointsScored(move, pilot, 2, "zeppelin first hit",
                                                z.name))
        if destroyer is not None:
            # Ruling (Z5, V2): destroying a zeppelin earns its 5 points but
            # is not an aircraft kill, so ``kills`` is not counted up.
            self.planes[destroyer].vp += 5
            self.events.append(PointsScored(move, destroyer, 5, "zeppelin destroyed",
                                            z.name))

    def explode(self, move: int, destroyed: list[_Zep], damage: _MoveDamage) -> None:
        """Step 4 (T2, Z12): explosions, then destruction checked again."""
        if not destroyed:
            return
        hurt: list[_Plane] = []
        for z in destroyed:
            on_board = [h for h in z.hexes if self.board.contains(h)]
            table: list[tuple[str, int, int]] = []
            for p in self.planes.values():
                # Z12: landed aircraft are spared; Ruling: so are aircraft
                # already shot down in this move's damage step (out of the fight).
                if not p.airborne or not on_board:
                    continue
                distance = min(p.hex.distance(h) for h in on_board)
                if distance in EXPLOSION_DAMAGE:
                    table.append((p.pilot, distance, EXPLOSION_DAMAGE[distance]))
            self.events.append(Exploded(move, z.name, tuple(on_board), tuple(table)))
            for pilot, _, amount in table:
                p = self.planes[pilot]
                p.damage -= amount
                self.events.append(Damaged(move, pilot, amount, "explosion", p.damage))
                hurt.append(p)
        for p in hurt:
            if p.damage <= 0 and p.state.in_fight:
                p.state = AircraftState.DOWN
                # V2: the explosion is part of the move (T2 step 4), so an
                # aircraft gunfire hit in this move and finished by the blast is
                # the kill of its top gunner; one hit by the blast alone is
                # nobody's kill (Z12 earns no points itself).
                credited = self.credit_kill(move, p, damage)
                self.events.append(ShotDown(move, p.pilot, credited, "explosion"))

    # ------------------------------------------------------------------ end of turn

    def end_of_turn(self) -> None:
        """T3, in its order."""
        self.drift()
        self.repair()
        for corner, left in self.disabled.items():
            if left > 0:
                self.disabled[corner] = left - 1  # Z16; Z17 counts in turn numbers
        self.nmr()
        self.aces()
        self.wind_change()
        self.end_check()

    def drift(self) -> None:
        """W2: clouds and drifting zeppelins, one-hex steps downwind."""
        steps = self.wind.strength
        if steps <= 0:
            return
        to = self.wind.to
        for i, hexes in enumerate(self.clouds):
            after = drift_cloud(hexes, to, steps, self.board)
            self.clouds[i] = after
            self.events.append(Drifted(0, i, hexes, after))
        for z in self.zeps:
            if z.destroyed or z.controlled:
                continue  # Z6: the controlled zeppelin is steered, not drifted
            for _ in range(steps):
                before = z.hexes
                z.hexes, reentered = drift_step(z.freeze(), to, self.board)
                self.events.append(ZeppelinMoved(0, z.name, "drift", before, z.hexes,
                                                 z.heading, reentered))

    def repair(self) -> None:
        """L6 (and L5, L7): aircraft landed the whole turn repair on a usable airfield."""
        for pilot in sorted(self.landed_at_start):
            p = self.planes[pilot]
            if p.state is not LANDED or p.landed_this_turn:
                continue
            p.landed_turns += 1
            if self.disabled.get(p.airfield, 0) > 0:
                continue  # L7
            before = p.damage
            p.damage = min(self.settings.damage_points, p.damage + self.settings.repair_per_turn)
            if p.damage > before:
                self.events.append(Repaired(0, pilot, p.damage - before, p.damage))
            if p.ammo < self.settings.ammo:
                # Ruling (L5, L7): an aircraft that landed on a bombed airfield
                # is refilled once the airfield serves again.
                p.ammo = self.settings.ammo
                self.events.append(Refilled(0, pilot, p.ammo))

    def nmr(self) -> None:
        """N1, N2: NMR counts, removal after the limit."""
        for pilot in sorted(self.in_fight_at_start):
            p = self.planes[pilot]
            if not p.nmr_turn:
                p.nmr = 0
                continue
            p.nmr += 1
            self.events.append(MissedOrders(0, pilot, p.nmr))
            if p.nmr >= self.settings.nmr_limit:
                # Ruling (N2): the player is removed even when the aircraft went
                # down or left during that third turn: the vote is lost (Z9).
                p.state = AircraftState.REMOVED
                self.events.append(Removed(0, pilot, "NMR"))

    def aces(self) -> None:
        """V4. Ruling: the title follows the record, so an aircraft that went
        down in the turn it passed the mark is still named an ace."""
        for p in self.planes.values():
            if not p.ace and p.dealt >= self.settings.ace_threshold:
                p.ace = True
                self.events.append(AcePromoted(0, p.pilot, p.dealt))

    def wind_change(self) -> None:
        """W3: 1 backs the wind, 6 veers it."""
        if not self.wind.changes:
            return
        # Ruling (W3): the die is rolled whenever the game lets the wind
        # change, also in a calm (strength 0): the heading matters later.
        value = self.roll(0, "wind change", "wind")
        before = self.wind.to
        after = before.left() if value == 1 else before.right() if value == 6 else before
        if after is not before:
            self.wind = replace(self.wind, to=after)
            self.events.append(WindChanged(0, before, after, value))

    def end_check(self) -> None:
        """V6."""
        alive = [p for p in self.planes.values() if p.state.in_fight]
        limit = self.settings.turns
        if len(alive) == 1:
            self.finish((alive[0].pilot,), "last aircraft")
        elif not alive:
            self.finish(self.most_points(), "no aircraft left")
        elif limit and self.state.turn >= limit:
            self.finish(self.most_points(), "turn limit")

    def most_points(self) -> tuple[str, ...]:
        # Ruling (V6): a player removed for NMR (N2) is out of the game and
        # cannot win on points; those shot down or gone off the board can.
        eligible = [p for p in self.planes.values() if p.state is not AircraftState.REMOVED]
        if not eligible:
            return ()
        top = max(p.vp for p in eligible)
        return tuple(sorted(p.pilot for p in eligible if p.vp == top))

    def finish(self, winners: Iterable[str], reason: str) -> None:
        self.game_over = True
        self.winners = tuple(winners)
        self.events.append(GameEnded(0, self.winners, reason))

    # ------------------------------------------------------------------ result

    def result(self) -> GameState:
        kinds = [c.kind for c in self.state.clouds]
        return replace(
            self.state,
            turn=self.state.turn + 1,
            wind=self.wind,
            clouds=tuple(Cloud(k, h) for k, h in zip(kinds, self.clouds, strict=True)),
            aircraft=tuple(sorted((p.freeze() for p in self.planes.values()),
                                  key=lambda a: a.pilot)),
            airfields=tuple(Airfield(c, self.disabled.get(c, 0)) for c in Heading),
            zeppelins=tuple(z.freeze() for z in self.zeps),
            game_over=self.game_over,
            winners=self.winners,
        )
