"""The Diplomacy computer player: a position and a power in, the orders out.

``choose_orders(pos, power, rng)`` plays any phase of plain or Dirigible
Diplomacy for one power, looking only at the position (as a player does);
the ``rng`` only breaks near-ties, so a seed gives the same orders every time.
``order_lines(orders)`` is the text a player would mail for them.

Movement, in five steps (values from :mod:`.bot_values`):

1. *Coordinated plans*: for each centre worth taking or defending, the best
   mover (by land, or by convoy through the power's own fleets) and the
   supports it needs, own dirigibles above the centre counting as supports
   (DD8); plans that gain over what their units would do alone are taken,
   best first.
2. *Gathering*: for an enemy-held centre not attacked now, enough units move
   next to it (each to a place nobody can contest) to attack it with
   support in the next phase, when that is worth more than their own orders.
3. *Single units*: every other army and fleet takes its best free place,
   one unit at a time, its own target (the most valuable one near it, each
   target taking the units it needs) pulling it along; no two own units into
   one province, no swaps, never into a province whose own unit stays.
4. *Extra supports*: a unit that gains more by supporting an own move or an
   own threatened hold than by its own order supports instead.
5. *Dirigibles* (DD7-DD10): each has its own goal (an enemy centre nobody
   stands on, an enemy-held centre the power's units can attack, a
   threatened own centre); it supports from above a move into its province
   or the unit below, devastates, or flies towards its goal.

Retreats and Winter adjustments are in :mod:`.bot_winter`.

>>> import random
>>> from pbmref.rules.diplomacy.state import initial_position
>>> orders = choose_orders(initial_position(), "FRA", random.Random(1))
>>> len(orders)
3
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from .bot_tables import FAR, Tables, convoy_routes, move_orders, tables
from .bot_values import GAMMA, HORIZON, OUTLOOK, Valuation
from .bot_winter import adjustment_orders, retreat_orders
from .legal import movement_problem
from .map import GameMap, Loc
from .orders import (
    Convoy,
    Devastate,
    Hold,
    Move,
    Order,
    SupportHold,
    SupportMove,
)
from .state import Position, Unit, UnitType
from .variant import map_of

__all__ = ["choose_orders", "order_lines"]

NOISE = 0.1  # the largest random nudge to a value (breaks ties)
WORTHWHILE = 0.05  # the least gain a joint plan or a change of order must bring
MAX_SUPPORTS = 3
GATHER = 0.6  # worth of an attack made ready for the next phase, against taking it now
AIM = 1.0  # worth of the unit's own target, discounted by the steps still to go
DEVASTATE = 0.8  # worth of denying an enemy five supply points (DD10, DD11)
AIR_RANGE = 4  # a dirigible's goal is at most this many steps away

# a change into a support: its score, the unit supported, where that unit moves
# (None: it holds), the province the support adds strength to
_SupportChoice = tuple[float, Unit, str | None, str]


def choose_orders(pos: Position, power: str, rng: random.Random, *,
                  game_map: GameMap | None = None) -> list[Order]:
    """The computer's orders for ``power`` in the phase of ``pos`` (every one
    legal; an empty list when the power has nothing to order)."""
    m = game_map or map_of(pos)
    if pos.phase.kind == "R":
        return retreat_orders(pos, m, power, rng)
    if pos.phase.kind == "A":
        return adjustment_orders(pos, m, power, rng)
    if not pos.units_of(power):
        return []
    return _Planner(pos, m, power, rng).plan()


def order_lines(orders: Sequence[Order]) -> list[str]:
    """The lines a player mails for ``orders``, one order a line
    (``A Par - Bur``, ``F Nth C A Lon - Nwy``, ``Build D Ber``, ``Waive``).

    >>> from pbmref.rules.diplomacy.orders import Move
    >>> order_lines([Move("FRA", UnitType.ARMY, Loc("par"), Loc("bur"))])
    ['A Par - Bur']
    """
    return [str(o) for o in orders]


@dataclass
class _Intent:
    """What one unit was given to do while planning."""

    unit: Unit
    kind: str  # hold | move | support | convoy | devastate
    value: float
    dest: Loc | None = None  # move
    via: bool = False
    target: Unit | None = None  # the unit supported or convoyed
    target_dest: str | None = None  # province the supported or convoyed unit moves to
    seas: tuple[str, ...] = ()  # a convoyed move: the own fleets' seas it crosses
    plan: bool = False  # part of a coordinated plan (step 1)


@dataclass
class _Plan:
    gain: float
    target: str
    lead: _Intent  # the mover or the holder
    helpers: list[_Intent] = field(default_factory=list)


class _Planner:
    def __init__(self, pos: Position, m: GameMap, power: str, rng: random.Random) -> None:
        self.pos = pos
        self.m = m
        self.t: Tables = tables(m)
        self.power = power
        self.rng = rng
        self.v = Valuation(pos, m, power)
        self.army_fleet = [u for u in pos.units_of(power) if not u.airborne]
        self.dirigibles = [u for u in pos.units_of(power) if u.airborne]
        self.noise = {u: rng.random() * NOISE for u in pos.units_of(power)}
        self.at_sea = {u.prov: u for u in self.army_fleet
                       if u.kind is UnitType.FLEET and u.prov in self.t.seas}
        self.routes = {u: convoy_routes(self.t, u, self.at_sea) for u in self.army_fleet
                       if u.kind is UnitType.ARMY}
        self.intent: dict[Unit, _Intent] = {}
        self.taken: set[str] = set()  # provinces an own army or fleet ends in
        self.strength: dict[str, int] = {}  # province -> own strength of the move or hold there
        self.aim: dict[Unit, str] = {}  # army or fleet -> the target it works towards
        self._moves: dict[tuple[Unit, Loc, int], float] = {}
        self._steps = {u: move_orders(self.t, u) for u in self.army_fleet}
        self.alone = {u: self._alone(u) for u in self.army_fleet}

    # -- values of one unit's orders ---------------------------------------------
    def hold_value(self, u: Unit, strength: int = 1) -> float:
        v = self.v
        return v.occupy(u.prov) * v.p_keep(u.prov, strength) + OUTLOOK * v.outlook(u.kind, u.loc)

    def move_value(self, u: Unit, dest: Loc, strength: int = 1) -> float:
        key = (u, dest, strength)
        got = self._moves.get(key)
        if got is None:
            got = self._moves[key] = self._move_value(u, dest, strength)
        return got

    def _move_value(self, u: Unit, dest: Loc, strength: int) -> float:
        v = self.v
        p = v.p_move(dest.prov, strength)
        there = v.occupy(dest.prov) + OUTLOOK * v.outlook(u.kind, dest)
        back = 0.9 * v.occupy(u.prov) * v.p_keep(u.prov, 1) + OUTLOOK * v.outlook(u.kind, u.loc)
        return p * there + (1 - p) * back

    def _alone(self, u: Unit) -> float:
        """The best this unit could do on its own (no convoy: that takes fleets too),
        with nobody else's plans in the way."""
        best = self.hold_value(u)
        for mv in self._steps[u]:
            best = max(best, self.move_value(u, mv.dest))
        return best

    def _dest_for(self, u: Unit, prov: str) -> Loc:
        if u.kind is not UnitType.FLEET:
            return Loc(prov)
        locs = [x for x in self.t.fleet_next.get(u.loc, ()) if x.prov == prov]
        return max(locs, key=lambda x: (self.v.outlook(u.kind, x), x.coast))

    def _reaches(self, u: Unit, prov: str) -> bool:
        return prov in self.t.next_provinces(u)

    # -- the plan -----------------------------------------------------------------
    def plan(self) -> list[Order]:
        self._plans()
        self._gatherings()
        self._singles()
        self._extra_supports()
        self._air()
        return self._orders()

    def _free(self, u: Unit) -> bool:
        return u not in self.intent

    def _helpers_for(self, prov: str, skip: set[Unit]) -> list[tuple[float, _Intent]]:
        """Own units that could support a move into or a hold in ``prov``, with
        what it costs them (cheapest first)."""
        out: list[tuple[float, _Intent]] = []
        for u in self.army_fleet:
            if u in skip or not self._free(u) or u.prov == prov or not self._reaches(u, prov):
                continue
            stay = self.hold_value(u)
            out.append((self.alone[u] - stay, _Intent(u, "support", stay, plan=True)))
        above = self.v.air.get(prov)
        if above is not None and above.power == self.power and self._free(above):
            out.append((0.05, _Intent(above, "support", 0.0, plan=True)))
        out.sort(key=lambda x: (x[0], x[1].unit))
        return out

    def _best_plan(self, prov: str) -> _Plan | None:
        """The best plan for ``prov``: supports for the own unit holding it, or a
        move into it with supports (and the fleets convoying it)."""
        here = self.v.surface.get(prov)
        own = here if here is not None and here.power == self.power else None
        if own is not None:
            return self._hold_plan(prov, own)
        if prov in self.taken:
            return None
        return self._move_plan(prov)

    def _hold_plan(self, prov: str, own: Unit) -> _Plan | None:
        """Supports for an own threatened unit that is worth keeping where it is."""
        v = self.v
        best: _Plan | None = None
        if not self._free(own) or v.threat(prov) == 0 or v.occupy(prov) < 0.1:
            return None
        helpers = self._helpers_for(prov, {own})
        for k in range(1, min(len(helpers), MAX_SUPPORTS) + 1):
            chosen = helpers[:k]
            gain = (self.hold_value(own, 1 + k) - self.alone[own]
                    - sum(cost for cost, _ in chosen))
            if best is None or gain > best.gain:
                lead = _Intent(own, "hold", self.hold_value(own, 1 + k), plan=True)
                best = _Plan(gain, prov, lead, [h for _, h in chosen])
        return best

    def _movers(self, prov: str) -> list[tuple[Unit, bool, tuple[str, ...]]]:
        """Free own units that could move into ``prov``: by land or sea, or by
        convoy through free own fleets (with the seas of the convoy)."""
        movers: list[tuple[Unit, bool, tuple[str, ...]]] = []
        for u in self.army_fleet:
            if not self._free(u):
                continue
            if self._reaches(u, prov):
                movers.append((u, False, ()))
            elif prov in self.routes.get(u, {}):
                chain = self.routes[u][prov]
                if all(self._free(self.at_sea[s]) for s in chain):
                    movers.append((u, True, chain))
        return movers

    def _move_plan(self, prov: str) -> _Plan | None:
        """The best mover into ``prov`` with the supports worth adding to it."""
        best: _Plan | None = None
        for u, via, chain in self._movers(prov):
            dest = self._dest_for(u, prov)
            fleets = [self.at_sea[s] for s in chain]
            cost = sum(self.alone[f] - self.hold_value(f) for f in fleets)
            helpers = self._helpers_for(prov, {u, *fleets})
            for k in range(0, min(len(helpers), MAX_SUPPORTS) + 1):
                chosen = helpers[:k]
                value = self.move_value(u, dest, 1 + k)
                gain = value - self.alone[u] - cost - sum(c for c, _ in chosen)
                if best is None or gain > best.gain:
                    lead = _Intent(u, "move", value, dest, via, plan=True)
                    helpers_out = [h for _, h in chosen]
                    helpers_out += [_Intent(f, "convoy", self.hold_value(f), target=u,
                                            target_dest=prov, plan=True) for f in fleets]
                    best = _Plan(gain, prov, lead, helpers_out)
        return best

    def _candidates(self) -> list[str]:
        """Provinces worth a coordinated plan: centres the power's units can reach or stand on."""
        out: set[str] = set()
        for u in self.army_fleet:
            for q in self.t.next_provinces(u):
                if q in self.v.worth:
                    out.add(q)
            out.update(q for q in self.routes.get(u, {}) if q in self.v.worth)
            if u.prov in self.v.worth:
                out.add(u.prov)
        return sorted(out)

    def _plans(self) -> None:
        """Step 1: coordinated plans, the best one first, while one gains enough."""
        candidates = self._candidates()
        while True:
            best: _Plan | None = None
            for prov in candidates:
                p = self._best_plan(prov)
                if p is None:
                    continue
                p.gain += self.rng.random() * NOISE
                if best is None or p.gain > best.gain:
                    best = p
            if best is None or best.gain <= WORTHWHILE:
                return
            self._commit(best)
            candidates.remove(best.target)

    def _commit(self, p: _Plan) -> None:
        lead = p.lead
        self.intent[lead.unit] = lead
        self.taken.add(p.target)
        self.strength[p.target] = 1 + sum(1 for h in p.helpers if h.kind == "support")
        for h in p.helpers:
            if h.kind == "support":
                h.target = lead.unit
                h.target_dest = p.target if lead.kind == "move" else None
            self.intent[h.unit] = h
            if not h.unit.airborne:
                self.taken.add(h.unit.prov)

    def _gatherings(self) -> None:
        """Step 2: for an enemy-held centre the power cannot take this phase, bring
        enough units next to it (distinct places, one move each) to attack it
        with support in the next phase."""
        v = self.v
        while True:
            ends = self._endings()
            best: tuple[float, str, list[_Intent]] | None = None
            for c in sorted(v.siege):
                if c in self.taken:
                    continue
                got = self._gathering(c, ends)
                if got is not None and (best is None or got[0] > best[0]):
                    best = (got[0], c, got[1])
            if best is None or best[0] <= WORTHWHILE:
                return
            for it in best[2]:
                self._take(it)
            self.taken.add(best[1])  # nobody else of ours walks into it meanwhile

    def _next_from(self, kind: UnitType, loc: Loc) -> tuple[str, ...]:
        """Provinces an army or fleet standing at ``loc`` could move into."""
        return self.t.next_provinces(Unit(self.power, kind, loc))

    def _endings(self) -> list[tuple[Unit, list[tuple[_Intent, str, tuple[str, ...]]]]]:
        """For each free army and fleet: where it could safely end this phase (hold
        or a move nobody else can contest), best first, with where it could go next."""
        out = []
        for u in self.army_fleet:
            if not self._free(u):
                continue
            mine = []
            if u.prov not in self.taken:
                mine.append((_Intent(u, "hold", self.hold_value(u)), u.prov,
                             self._next_from(u.kind, u.loc)))
            for mv in self._steps[u]:
                it = _Intent(u, "move", self.move_value(u, mv.dest), mv.dest)
                if self.v.p_move(mv.dest.prov, 1) >= 0.9 and self._feasible(it):
                    mine.append((it, mv.dest.prov, self._next_from(u.kind, mv.dest)))
            mine.sort(key=lambda x: -x[0].value)
            out.append((u, mine))
        return out

    def _gathering(self, c: str, ends: list[tuple[Unit, list[tuple[_Intent, str,
                   tuple[str, ...]]]]]) -> tuple[float, list[_Intent]] | None:
        v = self.v
        need = v.siege[c]
        choices: list[tuple[float, Unit, list[tuple[_Intent, str]]]] = []
        for u, mine in ends:
            near = [(it, end) for it, end, nxt in mine if end != c and c in nxt]
            if near:
                choices.append((self.alone[u] - near[0][0].value, u, near))
        if len(choices) < 2:
            return None
        choices.sort(key=lambda x: (x[0], x[1]))
        picked: list[_Intent] = []
        used: set[str] = set()
        for _, _u, near in choices:
            for it, end in near:
                if end not in used:
                    picked.append(it)
                    used.add(end)
                    break
            if len(picked) >= need:
                break
        if len(picked) < 2:
            return None
        ready = v.p_move(c, len(picked)) * v.targets.get(c, 0.0) * GATHER
        gain = ready - sum(self.alone[it.unit] - it.value for it in picked)
        return gain, picked

    def _singles(self) -> None:
        """Step 3: the other armies and fleets one at a time, best value first; a
        step towards the unit's target (:meth:`_aims`) counts extra."""
        self._aims()
        options = {u: self._options(u) for u in self.army_fleet if self._free(u)}
        while options:
            it = self._best_option(options)
            if it is None:
                break
            self._take(it)
            options = {u: mine for u, mine in options.items() if self._free(u)}
        for u in options:  # boxed in: hold
            self._take(_Intent(u, "hold", self.hold_value(u)))

    def _options(self, u: Unit) -> list[_Intent]:
        """What the unit may do: hold, a step, or a convoyed move (which costs the
        convoying fleets what they would have done alone)."""
        mine = [_Intent(u, "hold", self.hold_value(u))]
        for mv in self._steps[u]:
            mine.append(_Intent(u, "move", self.move_value(u, mv.dest), mv.dest))
        for dest, chain in self.routes.get(u, {}).items():
            fleets = [self.at_sea[s] for s in chain]
            cost = sum(self.alone[f] - self.hold_value(f) for f in fleets)
            mine.append(_Intent(u, "move", self.move_value(u, Loc(dest)) - cost, Loc(dest),
                                True, seas=chain))
        return mine

    def _best_option(self, options: dict[Unit, list[_Intent]]) -> _Intent | None:
        """The feasible option of highest score (its value, its aim, the unit's
        noise); the first of equals."""
        best: tuple[float, _Intent] | None = None
        for u, mine in options.items():
            for it in mine:
                if not self._feasible(it):
                    continue
                score = it.value + self._aim_value(it) + self.noise[u]
                if best is None or score > best[0]:
                    best = (score, it)
        return None if best is None else best[1]

    def _feasible(self, it: _Intent) -> bool:
        u = it.unit
        if it.kind == "hold":
            return u.prov not in self.taken
        assert it.dest is not None
        d = it.dest.prov
        if d in self.taken or not self._may_enter(u, d):
            return False
        occ = self.v.surface.get(d)
        if occ is not None and occ.power == self.power:
            ahead = self.intent[occ].dest
            assert ahead is not None
            if self.v.p_move(ahead.prov, self.strength.get(ahead.prov, 1)) < 0.7:
                return False  # the unit in the way would likely stay
        return all(self._free(self.at_sea[s]) and s not in self.taken for s in it.seas)

    def _take(self, it: _Intent) -> None:
        u = it.unit
        end = it.dest.prov if it.dest is not None else u.prov
        for s in it.seas:
            f = self.at_sea[s]
            self.intent[f] = _Intent(f, "convoy", self.hold_value(f), target=u, target_dest=end)
            self.taken.add(s)
        self.intent[u] = it
        self.taken.add(end)
        self.strength[end] = 1

    def _aims(self) -> None:
        """Give every army and fleet left a target to work towards: the most
        valuable, nearest one, each target taking as many units as taking it
        needs (an enemy-held centre several, an open one one or two)."""
        v = self.v
        room: dict[str, int] = {}
        for c in v.targets:
            if c in self.taken and v.surface.get(c) is None:
                continue  # being taken by a plan
            room[c] = v.siege.get(c, 2 if v.threat(c) > 0 else 1)
        pairs: list[tuple[float, int, Unit, str]] = []
        for n, u in enumerate(self.army_fleet):
            if not self._free(u):
                continue
            for c in room:
                d = self.t.dist(u.kind, u.loc, c)
                if d <= HORIZON:
                    pairs.append((v.targets[c] * GAMMA ** d, n, u, c))
        pairs.sort(key=lambda x: (-x[0], x[1], x[3]))
        for _, _, u, c in pairs:
            if u in self.aim or room[c] <= 0:
                continue
            self.aim[u] = c
            room[c] -= 1

    def _aim_value(self, it: _Intent) -> float:
        """Progress towards the unit's target (where a bounced move leaves it counted too)."""
        u = it.unit
        c = self.aim.get(u)
        if c is None:
            return 0.0
        w = AIM * self.v.targets[c]
        here = w * GAMMA ** self.t.dist(u.kind, u.loc, c)
        if it.dest is None:
            return here
        p = self.v.p_move(it.dest.prov, 1)
        return p * w * GAMMA ** self.t.dist(u.kind, it.dest, c) + (1 - p) * here

    def _may_enter(self, u: Unit, prov: str) -> bool:
        """No move into a province whose own unit stays (or has not moved yet), no swaps."""
        occ = self.v.surface.get(prov)
        if occ is None or occ.power != self.power:
            return True
        it = self.intent.get(occ)
        if it is None or it.kind != "move" or it.dest is None:
            return False
        return it.dest.prov != u.prov

    def _extra_supports(self) -> None:
        """Step 4: turn holds and lone moves into supports where that gains more."""
        while True:
            best = self._best_extra_support()
            if best is None:
                return
            _, u, new, d = best
            old = self.intent[u]
            if old.kind == "move" and old.dest is not None:
                self.taken.discard(old.dest.prov)
                self.strength.pop(old.dest.prov, None)
            self.intent[u] = new
            self.taken.add(u.prov)
            self.strength[d] = self.strength.get(d, 1) + 1

    def _best_extra_support(self) -> tuple[float, Unit, _Intent, str] | None:
        """The support that gains most over its unit's own order (by at least
        ``WORTHWHILE``): of an own move, or of an own threatened hold."""
        v = self.v
        best: tuple[float, Unit, _Intent, str] | None = None
        movers = [it for it in self.intent.values() if it.kind == "move"]
        holders = [it for it in self.intent.values()
                   if it.kind in ("hold", "support", "convoy") and not it.unit.airborne
                   and v.occupy(it.unit.prov) >= 0.1 and v.threat(it.unit.prov) > 0]
        entered = {it.dest.prov for it in movers if it.dest is not None}
        for u in self.army_fleet:
            it = self.intent[u]
            if not self._may_support_instead(u, it, entered):
                continue
            stay = self.hold_value(u)
            choices = itertools.chain(self._supports_of_moves(u, it, stay, movers),
                                      self._supports_of_holds(u, it, stay, holders))
            for score, target, target_dest, d in choices:
                if score > WORTHWHILE and (best is None or score > best[0]):
                    best = (score, u, _Intent(u, "support", stay, target=target,
                                              target_dest=target_dest), d)
        return best

    def _may_support_instead(self, u: Unit, it: _Intent, entered: set[str]) -> bool:
        """A hold or a lone move outside a plan, by a unit nobody moves in on and
        nobody supports or convoys, may become a support."""
        if it.plan or it.kind not in ("hold", "move") or u.prov in entered:
            return False
        return not (it.kind == "move" and any(c.kind in ("convoy", "support") and c.target is u
                                              for c in self.intent.values()))

    def _supports_of_moves(self, u: Unit, it: _Intent, stay: float,
                           movers: list[_Intent]) -> Iterator[_SupportChoice]:
        """Each own move ``u`` could support: the score of the change, the unit
        supported, where it moves, the province the support adds strength to."""
        for mv in movers:
            assert mv.dest is not None
            d = mv.dest.prov
            if mv.unit is u or d == u.prov or not self._reaches(u, d):
                continue
            s = self.strength.get(d, 1)
            gain = self._support_gain(mv, s)
            score = stay + gain - it.value
            yield score, mv.unit, d, d

    def _supports_of_holds(self, u: Unit, it: _Intent, stay: float,
                           holders: list[_Intent]) -> Iterator[_SupportChoice]:
        """Each own threatened hold ``u`` could support, as ``_supports_of_moves``."""
        v = self.v
        for h in holders:
            d = h.unit.prov
            if h.unit is u or not self._reaches(u, d):
                continue
            s = self.strength.get(d, 1)
            gain = (v.p_keep(d, s + 1) - v.p_keep(d, s)) * v.occupy(d)
            score = stay + gain - it.value
            yield score, h.unit, None, d

    def _support_gain(self, mv: _Intent, strength: int) -> float:
        """What one more support adds to an own move now ``strength`` strong."""
        assert mv.dest is not None
        return (self.move_value(mv.unit, mv.dest, strength + 1)
                - self.move_value(mv.unit, mv.dest, strength))

    # -- dirigibles ------------------------------------------------------------------
    def _air(self) -> None:
        """Step 5: each dirigible supports from above, devastates, or flies towards
        its own goal (:meth:`_air_goals`), never two into one province."""
        options: list[tuple[float, int, _Intent]] = []
        moving_in = {it.dest.prov: it for it in self.intent.values()
                     if it.kind == "move" and it.dest is not None}
        staying = {it.unit.prov: it for it in self.intent.values()
                   if it.kind != "move" and not it.unit.airborne}
        goals = self._air_goals(moving_in, staying)
        rivals = self._rivals()
        for n, d in enumerate(self.dirigibles):
            if not self._free(d):
                continue
            options.extend(self._air_options(n, d, goals, moving_in, staying, rivals))
        options.sort(key=lambda x: (-x[0], x[1]))
        self._take_air(options)
        for d in self.dirigibles:  # nothing free left: stay
            if self._free(d):
                self.intent[d] = _Intent(d, "hold", 0.0)

    def _rivals(self) -> dict[str, int]:
        """Province -> how many foreign dirigibles could fly into it."""
        rivals: dict[str, int] = {}
        for u in self.v.air.values():
            if u.power != self.power:
                for q in self.t.air_next[u.prov]:
                    rivals[q] = rivals.get(q, 0) + 1
        return rivals

    def _air_options(self, n: int, d: Unit, goals: dict[Unit, tuple[str, float]],
                     moving_in: dict[str, _Intent], staying: dict[str, _Intent],
                     rivals: dict[str, int]) -> list[tuple[float, int, _Intent]]:
        """Every order of dirigible number ``n`` with its score: stay, support the
        move in or the unit below from above (DD8), devastate (DD10), fly on."""
        v = self.v
        options: list[tuple[float, int, _Intent]] = []
        bump = self.noise[d]
        here = d.prov
        rest = self._air_progress(d, here, goals)
        options.append((rest + bump, n, _Intent(d, "hold", rest)))
        mv = moving_in.get(here)
        if mv is not None:
            gain = self._support_gain(mv, self.strength.get(here, 1))
            options.append((rest + gain + bump, n,
                            _Intent(d, "support", rest + gain, target=mv.unit,
                                    target_dest=here)))
        st = staying.get(here)
        if st is not None and v.threat(here) > 0:
            s = self.strength.get(here, 1)
            gain = (v.p_keep(here, s + 1) - v.p_keep(here, s)) * v.occupy(here)
            options.append((rest + gain + bump, n,
                            _Intent(d, "support", rest + gain, target=st.unit)))
        if self._may_devastate(d, moving_in, staying):
            chance = 1.0 if v.threat(here) == 0 else 0.6
            value = rest + DEVASTATE * chance
            options.append((value + bump, n, _Intent(d, "devastate", value)))
        for q in self.t.air_next[here]:
            other = v.air.get(q)
            if other is not None and other.power != self.power:
                continue
            p = 1.0 if rivals.get(q, 0) == 0 else 0.5
            value = p * self._air_progress(d, q, goals) + (1 - p) * rest
            options.append((value + bump, n, _Intent(d, "move", value, Loc(q))))
        return options

    def _take_air(self, options: list[tuple[float, int, _Intent]]) -> None:
        """The dirigibles' orders, best score first: one dirigible a province, no
        move into a province whose own dirigible stays or swaps with it."""
        above: set[str] = set()
        for _, _, it in options:
            d = it.unit
            if not self._free(d):
                continue
            where = it.dest.prov if it.dest is not None else d.prov
            if where in above:
                continue
            if it.dest is not None:
                own = self.v.air.get(where)
                if own is not None:
                    mate = self.intent.get(own)
                    if mate is None or mate.kind != "move" or \
                            (mate.dest is not None and mate.dest.prov == d.prov):
                        continue
            self.intent[d] = it
            above.add(where)
            if it.kind == "support" and it.target_dest is not None:
                self.strength[where] = self.strength.get(where, 1) + 1

    def _air_goals(self, moving_in: dict[str, _Intent],
                   staying: dict[str, _Intent]) -> dict[Unit, tuple[str, float]]:
        """A goal for each dirigible, one dirigible a goal: an enemy centre nobody
        stands on (to devastate, DD10), an enemy-held centre next to the power's
        armies and fleets (to support the attack from above, DD8), a threatened own
        centre (to support its hold)."""
        worth = {c: w for c in self.t.centres
                 if (w := self._air_worth(c, moving_in, staying)) is not None}
        pairs: list[tuple[float, int, Unit, str]] = []
        for n, d in enumerate(self.dirigibles):
            if not self._free(d):
                continue
            for c, w in worth.items():
                steps = self.t.air_dist[d.prov].get(c, FAR)
                if steps <= AIR_RANGE:
                    pairs.append((w * GAMMA ** steps, n, d, c))
        pairs.sort(key=lambda x: (-x[0], x[1], x[3]))
        goals: dict[Unit, tuple[str, float]] = {}
        used: set[str] = set()
        for _, _, d, c in pairs:
            if d in goals or c in used:
                continue
            goals[d] = (c, worth[c])
            used.add(c)
        return goals

    def _air_worth(self, c: str, moving_in: dict[str, _Intent],
                   staying: dict[str, _Intent]) -> float | None:
        """What the centre ``c`` is worth as a dirigible's goal (None: nothing)."""
        v = self.v
        owner = v.owner.get(c)
        occ = v.surface.get(c)
        if owner == self.power:
            return 0.4 if c in staying and v.threat(c) > 0 else None
        if occ is None:
            if owner is not None and c not in self.pos.devastated and c not in moving_in:
                return DEVASTATE
            if owner is None and v.threat(c) > 0 and v.mine_near(c) > 0:
                return 0.3
            return None
        return 0.7 if occ.power != self.power and v.mine_near(c) > 0 else None

    def _air_progress(self, d: Unit, prov: str, goals: dict[Unit, tuple[str, float]]) -> float:
        """Worth of the dirigible being at ``prov`` after this phase, given its goal."""
        ahead = 0.3 * OUTLOOK * self.v.outlook(d.kind, Loc(prov))
        goal = goals.get(d)
        if goal is None:
            return ahead
        c, w = goal
        return ahead + AIM * w * GAMMA ** self.t.air_dist[prov].get(c, FAR)

    def _may_devastate(self, d: Unit, moving_in: dict[str, _Intent],
                       staying: dict[str, _Intent]) -> bool:
        here = d.prov
        owner = self.v.owner.get(here)
        if owner is None or owner == self.power or here in self.pos.devastated:
            return False
        if here in moving_in or here in staying:
            return False
        occ = self.v.surface.get(here)
        if occ is not None and occ.power != self.power:
            return False
        return movement_problem(self.pos, self.m, Devastate(d.power, d.kind, d.loc)) is None

    # -- orders ---------------------------------------------------------------------
    def _orders(self) -> list[Order]:
        out: list[Order] = []
        for u in self.pos.units_of(self.power):
            it = self.intent.get(u)
            out.append(self._order(u, it))
        return out

    def _order(self, u: Unit, it: _Intent | None) -> Order:
        p = self.power
        if it is None or it.kind == "hold":
            return Hold(p, u.kind, u.loc)
        if it.kind == "move":
            assert it.dest is not None
            return Move(p, u.kind, u.loc, it.dest, it.via)
        if it.kind == "devastate":
            return Devastate(p, u.kind, u.loc)
        target = it.target
        assert target is not None
        if it.kind == "convoy":
            assert it.target_dest is not None
            return Convoy(p, u.kind, u.loc, target.loc, Loc(it.target_dest))
        mover = self.intent.get(target)
        moving = mover is not None and mover.kind == "move"
        if it.target_dest is not None and moving:
            return SupportMove(p, u.kind, u.loc, target.kind, target.loc, Loc(it.target_dest))
        assert it.target_dest is None and not moving, f"{u} supports a changed order"
        return SupportHold(p, u.kind, u.loc, target.kind, target.loc)
