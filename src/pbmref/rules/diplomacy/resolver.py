"""Kruijswijk's guess-and-backup resolver for one layer of a movement phase (DD2).

Every unit of the layer has one decision, keyed by its province:

* a move: does the unit arrive (``move.py``);
* a support: is it given, i.e. not cut (``support.py``);
* a convoy, hold or other standing order: is the unit *not* dislodged
  (``convoy.py``, ``hold.py``).

``resolve`` follows the DATC's partial-information algorithm: a decision met
again while being decided is answered with a guess, the guess is recorded,
and when a decision turns out to depend on its own guess both guesses are
tried. Two consistent answers mean a genuine dependency cycle and the backup
rule decides: a cycle containing a convoy order is a convoy paradox settled
by the Szykman rule (the convoyed armies of the paradox are treated as having
no convoy route), any other cycle is circular movement and all its moves
succeed.

The dirigible layer (DD6, DD7) runs through the same class with
``air=True``: adjacency ignores terrain and coasts, nothing convoys.
Supports from above (DD8) enter the surface layer as ``ExternalSupport``
whose cut status was settled in the air layer.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import convoy as convoy_rules
from . import hold as hold_rules
from . import move as move_rules
from . import support as support_rules
from .map import GameMap
from .orders import Convoy, Move, Order, SupportHold, SupportMove
from .state import Unit, UnitType

UNRESOLVED, GUESSING, RESOLVED = 0, 1, 2
_NONE_READ = 1 << 30


@dataclass(frozen=True)
class ExternalSupport:
    """A support counted in this layer but decided elsewhere (DD8)."""

    power: str
    target: str  # province of the supported unit
    dest: str | None  # None: support to hold
    given: bool
    key: str  # identifies the supporter in events


@dataclass(frozen=True)
class SupportRef:
    power: str
    prov: str | None  # decision key of an internal supporter
    external: ExternalSupport | None = None


class Resolver:
    def __init__(
        self,
        gmap: GameMap,
        units: dict[str, Unit],
        orders: dict[str, Order],
        *,
        air: bool = False,
        edition: str = "2023",
        external: tuple[ExternalSupport, ...] = (),
    ) -> None:
        self.map = gmap
        self.units = units
        self.orders = orders
        self.air = air
        self.edition = edition
        self.state: dict[str, int] = {p: UNRESOLVED for p in units}
        self.res: dict[str, bool] = {p: False for p in units}
        self.deps: list[str] = []
        self.guess_reads = 0
        self.low = _NONE_READ  # lowest dependency-list index read since the last fresh start
        self.szykman: set[str] = set()
        self.moves_into: dict[str, list[str]] = {}
        self.move_supports: dict[str, list[SupportRef]] = {}  # key: mover province
        self.hold_supports: dict[str, list[SupportRef]] = {}
        self.void: set[str] = set()
        self.convoys: dict[str, list[str]] = {}  # army province -> convoying fleets
        self._index(external)

    # -- set-up ------------------------------------------------------------------
    def _index(self, external: tuple[ExternalSupport, ...]) -> None:
        """Who moves where, which supports and convoys match an order (the rest
        are void), and where the supports settled in another layer count (DD8)."""
        for p, o in self.orders.items():
            if isinstance(o, Move):
                self.moves_into.setdefault(o.dest.prov, []).append(p)
        for p, o in self.orders.items():
            if isinstance(o, SupportMove):
                self._index_support_move(p, o)
            elif isinstance(o, SupportHold):
                self._index_support_hold(p, o)
            elif isinstance(o, Convoy):
                self._index_convoy(p, o)
        for ext in external:
            self._index_external(ext)

    def _index_support_move(self, p: str, o: SupportMove) -> None:
        """A support of a move counts when the supported unit makes that very move."""
        mover = self.orders.get(o.target.prov)
        if (
            isinstance(mover, Move)
            and mover.dest.prov == o.dest.prov
            and (not o.dest.coast or o.dest.coast == mover.dest.coast)
            and (o.target_kind is None or o.target_kind is mover.kind)
        ):
            self.move_supports.setdefault(o.target.prov, []).append(
                SupportRef(self.units[p].power, p)
            )
        else:
            self.void.add(p)

    def _index_support_hold(self, p: str, o: SupportHold) -> None:
        """A support to hold counts for a unit there that does not move."""
        held = self.orders.get(o.target.prov)
        unit = self.units.get(o.target.prov)
        if (
            unit is not None
            and not isinstance(held, Move)
            and (o.target_kind is None or o.target_kind is unit.kind)
        ):
            self.hold_supports.setdefault(o.target.prov, []).append(
                SupportRef(self.units[p].power, p)
            )
        else:
            self.void.add(p)

    def _index_convoy(self, p: str, o: Convoy) -> None:
        """A convoy counts from a fleet at sea for an army making that very move."""
        army = self.orders.get(o.target.prov)
        if (
            isinstance(army, Move)
            and army.kind is UnitType.ARMY
            and army.dest.prov == o.dest.prov
            and self.map.is_sea(p)
        ):
            self.convoys.setdefault(o.target.prov, []).append(p)
        else:
            self.void.add(p)

    def _index_external(self, ext: ExternalSupport) -> None:
        """A support from above (DD8) is listed with the hold or move it names."""
        ref = SupportRef(ext.power, None, ext)
        if ext.dest is None:
            if ext.target in self.units and not isinstance(self.orders.get(ext.target), Move):
                self.hold_supports.setdefault(ext.target, []).append(ref)
        else:
            mover = self.orders.get(ext.target)
            if isinstance(mover, Move) and mover.dest.prov == ext.dest:
                self.move_supports.setdefault(ext.target, []).append(ref)

    # -- the algorithm -----------------------------------------------------------
    def resolve(self, p: str) -> bool:
        st = self.state[p]
        if st == RESOLVED:
            return self.res[p]
        if st == GUESSING:
            self.guess_reads += 1
            if p not in self.deps:
                self.deps.append(p)
            self.low = min(self.low, self.deps.index(p))
            return self.res[p]
        outer_low = self.low
        try:
            return self._resolve_fresh(p)
        finally:
            self.low = min(outer_low, self.low)

    def _resolve_fresh(self, p: str) -> bool:
        old = len(self.deps)
        reads = self.guess_reads
        self.low = _NONE_READ
        self.res[p] = False
        self.state[p] = GUESSING
        first = self._adjudicate(p)
        if self.state[p] == RESOLVED:
            return self.res[p]
        if self.guess_reads == reads:
            # no guess was looked at: the answer is final
            self.res[p] = first
            self.state[p] = RESOLVED
            return first
        if self.low < old or len(self.deps) == old or self.deps[old] != p:
            # depends on somebody else's guess: keep ours as a guess
            if p not in self.deps:
                self.deps.append(p)
            self.res[p] = first
            return first
        # depends on its own guess only: try the other guess
        for q in self.deps[old:]:
            self.state[q] = UNRESOLVED
        del self.deps[old:]
        self.low = _NONE_READ
        self.res[p] = True
        self.state[p] = GUESSING
        second = self._adjudicate(p)
        if self.state[p] == RESOLVED:
            return self.res[p]
        if self.low < old:
            # the second guess leans on an outer guess: stay a guess
            if p not in self.deps:
                self.deps.append(p)
            self.res[p] = second
            return second
        self.low = _NONE_READ
        if first == second:
            for q in self.deps[old:]:
                self.state[q] = UNRESOLVED
            del self.deps[old:]
            self.res[p] = first
            self.state[p] = RESOLVED
            return first
        self._backup(old)
        return self.resolve(p)

    def _backup(self, old: int) -> None:
        cycle = self.deps[old:]
        del self.deps[old:]
        armies = set()
        for q in cycle:
            o = self.orders.get(q)
            if isinstance(o, Convoy) and o.target.prov not in self.szykman:
                armies.add(o.target.prov)
        if armies:
            # Szykman rule: the armies convoyed in the paradox get no convoy route.
            self.szykman |= armies
            for q in cycle:
                self.state[q] = UNRESOLVED
        else:
            # circular movement: every move of the cycle succeeds
            for q in cycle:
                if isinstance(self.orders.get(q), Move):
                    self.res[q] = True
                    self.state[q] = RESOLVED
                else:
                    self.state[q] = UNRESOLVED

    def _adjudicate(self, p: str) -> bool:
        o = self.orders[p]
        if isinstance(o, Move):
            return move_rules.adjudicate(self, p)
        if isinstance(o, (SupportHold, SupportMove)):
            return support_rules.given(self, p)
        if isinstance(o, Convoy):
            return convoy_rules.fleet_stays(self, p)
        return hold_rules.stays(self, p)

    def run(self) -> None:
        for p in self.units:
            self.resolve(p)

    # -- shared helpers ----------------------------------------------------------
    def support_given(self, ref: SupportRef) -> bool:
        if ref.external is not None:
            return ref.external.given
        assert ref.prov is not None
        return self.resolve(ref.prov)

    def dislodger(self, p: str) -> str | None:
        """The province of the unit that dislodges the unit at ``p``, if any."""
        o = self.orders.get(p)
        if isinstance(o, Move) and self.resolve(p):
            return None
        for q in self.moves_into.get(p, []):
            if self.resolve(q):
                return q
        return None
