"""How much the computer player wants each place, and its chances of getting it.

One :class:`Valuation` per power and phase: what each supply centre is worth
to the power (a centre it does not own is a target, one it owns and an enemy
can reach must be defended), how much standing in a province is worth now
(``occupy``), how promising a place is for later (``outlook``: the targets
within a few steps, nearer ones counting more), and rough chances that a move
or a hold with a given strength (the unit plus its supports) works against
what the other powers have next to the place. The numbers are judgements, not
rules; they are kept here in one place so they can be tuned together.
"""

from __future__ import annotations

from functools import cache

from .bot_tables import Tables, tables
from .map import GameMap, Loc
from .state import Position, Unit, UnitType
from .variant import load_variant, opening, variant_of

GAMMA = 0.55  # how much a target one step further counts
OUTLOOK = 0.5  # weight of a place's outlook against what it is worth now
SPRING = 0.7  # a centre entered in Spring is kept in Fall this often
HORIZON = 6  # targets further than this are not counted
SPREAD = 0.25  # weight of all the targets within reach against the nearest one
P2 = 0.7  # chance that an attack with one support dislodges a unit that may be supported
P1 = 0.04  # chance that an unsupported attack on a unit gets in (it may move away)
STAY_OUT = 0.2  # chance that a unit standing on its own centre leaves it for a neighbour
ROAM = 0.6  # chance that any other enemy unit next to an empty own centre walks in


@cache
def _start_units(name: str) -> frozenset[Unit]:
    return frozenset(opening(load_variant(name)).units)


def idle_powers(pos: Position, power: str) -> frozenset[str]:
    """Other powers that look absent: after the first year of a plain game, every
    unit they have still stands where it started (a player in civil disorder,
    DD3). Their units are taken to hold without support: no threat to anyone."""
    if pos.dirigible or pos.phase.year <= 1901:
        return frozenset()
    start = _start_units(variant_of(pos).name)
    out = set()
    for other in pos.powers:
        mine = pos.units_of(other)
        if other != power and mine and all(u in start for u in mine):
            out.add(other)
    return frozenset(out)


class Valuation:
    """Values of places for ``power`` in the position ``pos``."""

    def __init__(self, pos: Position, m: GameMap, power: str) -> None:
        self.pos = pos
        self.m = m
        self.t: Tables = tables(m)
        self.power = power
        self.fall = pos.phase.season == "F"
        self.surface: dict[str, Unit] = {}
        self.air: dict[str, Unit] = {}
        for u in pos.units:
            (self.air if u.airborne else self.surface)[u.prov] = u
        self.owner: dict[str, str] = dict(pos.centers)
        self.homes = frozenset(m.home_centers(power))
        self.idle = idle_powers(pos, power)
        # province -> power -> how many of its armies and fleets could move in
        self.reach_by: dict[str, dict[str, int]] = {}
        self.calm: dict[str, float] = {}  # province -> chance no enemy walks in if it is empty
        for u in sorted(self.surface.values()):
            if u.power in self.idle:
                continue
            settled = self.owner.get(u.prov) == u.power  # it has its own centre to keep
            for q in self.t.next_provinces(u):
                by = self.reach_by.setdefault(q, {})
                by[u.power] = by.get(u.power, 0) + 1
                if u.power != power:
                    self.calm[q] = self.calm.get(q, 1.0) * (1 - (STAY_OUT if settled else ROAM))
        self.targets: dict[str, float] = {}  # centre -> weight for the outlook
        self.air_targets: dict[str, float] = {}
        self.worth: dict[str, float] = {}  # centre -> worth of standing there after this phase
        for c in self.t.centres:
            self._value_centre(c)
        # enemy-held centres (an enemy army or fleet on a centre the power does not
        # own, or on one of its own) -> how many units an attack there needs
        self.siege: dict[str, int] = {}
        for c in self.t.centres:
            occ = self.surface.get(c)
            if occ is not None and occ.power != power:
                self.siege[c] = 2 + (self.help_for(occ.power, c) + 1) // 2
        self._outlook: dict[tuple[UnitType, Loc, bool], float] = {}

    # -- the board around a place ---------------------------------------------
    def threat(self, prov: str) -> int:
        """Most armies and fleets one other power could move into ``prov``."""
        by = self.reach_by.get(prov, {})
        return max((n for p, n in by.items() if p != self.power), default=0)

    def mine_near(self, prov: str) -> int:
        return self.reach_by.get(prov, {}).get(self.power, 0)

    def help_for(self, power: str, prov: str) -> int:
        """Supports ``power`` could give a unit of its own standing in ``prov``."""
        n = self.reach_by.get(prov, {}).get(power, 0)
        d = self.air.get(prov)
        if d is not None and d.power == power:
            n += 1
        return n

    def _value_centre(self, c: str) -> None:
        owner = self.owner.get(c)
        season = 1.0 if self.fall else SPRING
        if owner != self.power:
            v = 1.0
            if owner is not None and c in self.m.home_centers(owner):
                v += 0.1
            if c in self.homes:
                v += 0.3
            self.targets[c] = v
            self.worth[c] = v * season
            air = 0.5 if owner is None else 1.0
            if c in self.pos.devastated:
                air *= 0.3
            self.air_targets[c] = air
            return
        if self.threat(c) > 0:
            v = (1.1 if c in self.homes else 0.9) * (1 - self.calm.get(c, 1.0))
            self.targets[c] = 0.5 * v
            self.worth[c] = v * season
            self.air_targets[c] = 0.4
        else:
            self.worth[c] = 0.03

    # -- values ---------------------------------------------------------------
    def occupy(self, prov: str) -> float:
        """Worth of one of the power's armies or fleets standing in ``prov`` after the phase."""
        return self.worth.get(prov, 0.0)

    def outlook(self, kind: UnitType, loc: Loc, *, land: bool = False) -> float:
        """Targets within reach of a unit of ``kind`` at ``loc``, nearer ones counting
        more (``land``: an army that will not be convoyed)."""
        key = (kind, loc, land)
        got = self._outlook.get(key)
        if got is not None:
            return got
        t = self.t
        if kind is UnitType.ARMY:
            dist = (t.land_dist if land else t.army_dist).get(loc.prov, {})
        elif kind is UnitType.FLEET:
            dist = t.fleet_dist.get(loc, {})
        else:
            dist = t.air_dist.get(loc.prov, {})
        weights = self.air_targets if kind is UnitType.DIRIGIBLE else self.targets
        total = top = 0.0
        for c, w in weights.items():
            d = dist.get(c)
            if d is None or d > HORIZON or c == loc.prov:
                continue
            x = w * GAMMA ** d
            total += x
            top = max(top, x)
        total = top + SPREAD * total
        self._outlook[key] = total
        return total

    # -- chances --------------------------------------------------------------
    def p_move(self, prov: str, strength: int) -> float:
        """Chance that a move of ``strength`` into ``prov`` ends there (for one of
        the power's own empty centres: that nobody else takes it)."""
        occ = self.surface.get(prov)
        if occ is not None and occ.power != self.power:
            others = (self.help_for(occ.power, prov) + 1) // 2  # not all of them will support
            if strength >= 2 + others:
                return 0.9
            if strength >= 2:
                return P2
            return P1
        c = self.threat(prov)
        if self.owner.get(prov) == self.power and c > 0:
            return 0.95 if strength >= c else 0.5  # a bounce keeps the centre too
        if c == 0:
            return 1.0
        if strength > c:
            return 0.95
        if strength == c:
            return 0.6
        return 0.4

    def p_keep(self, prov: str, strength: int) -> float:
        """Chance that a unit holding in ``prov`` with ``strength`` is not dislodged."""
        a = self.threat(prov)
        if a == 0:
            return 1.0
        if strength >= a:
            return 0.95
        if strength == a - 1:
            return 0.6
        return 0.35
