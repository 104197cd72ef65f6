"""pbmref's Diplomacy adjudication against MILA's, on seeded random movement positions.

    .venv/bin/python bench/mila_compare.py [--positions N] [--seed S] [--fresh] [--show N]

MILA's ``diplomacy`` package (PyPI, AGPL) is the outside reference. It never
enters the project: the script makes a throwaway virtual environment in
``bench/.cache/mila-venv`` (git-ignored; ``--fresh`` makes it anew), installs
the pinned release there with pip, and runs it as a separate program that
reads positions as JSON on its standard input and writes its results as JSON.
Nothing of ours imports it, and nothing of it is copied here.

Each position is a Fall 1901 movement phase: 10 to 22 armies and fleets of
three to five powers placed around a few random provinces (so they meet),
every centre owned by its home power, and random orders that pbmref finds
legal (moves, supports of holds and of moves, with a coast now and then,
convoys over one or two seas, some to adjacent places). Both programs then
play the phase out with no more orders: the movement, the retreats nobody
ordered (each dislodged unit disbands) and the Winter adjustment nobody
ordered (civil disorder). What is compared, unit by unit:

1. the board after the movement (who stands where);
2. the dislodged units, and where each may retreat;
3. the board after the Winter adjustment.

Every disagreement must be one the rules explain, and the script says which.
Documented conventions of pbmref:

- ``DD3``: civil disorder follows the 2023 rule, removing the units farthest
  from the power's *owned* centres. MILA counts from its *home* centres (and a
  fleet's distance over fleet moves only). Recognised when the boards agree
  up to the Winter, and MILA's board after it is exactly the one MILA's rule
  gives (``mila_civil_disorder``, a model of that rule written here).
- ``DD1``: a retreat phase is held only when some dislodged unit has a place
  to go; a unit with none is disbanded at once. Recognised when the only
  difference is a retreat phase one side holds with nowhere to retreat to.
  (MILA 1.1.2 disbands such units at once too, so this has not been seen.)

Errors of MILA, each against a DATC case or the rule it tests:

- ``MILA 6.B.9``: it ignores the coast a support names, where DATC 6.B.9
  wants the support of a move to the other coast to fail. Recognised when
  pbmref, played again with the coasts of its supports left out, agrees.
- ``MILA 6.D.12``: it counts a power's support for an attack on its own unit
  (which may never help dislodge that unit, DATC 6.D.12) when the attack is
  an adjacent move by convoy, and when it judges whether an attacked
  convoying fleet is disrupted. Recognised when MILA, played again with those
  supports turned into holds, agrees.
- ``MILA 6.H.11``: after an attack by convoy it lets the dislodged unit
  retreat anywhere next to it, occupied or contested provinces included
  (DATC 6.H.11 opens only the attacker's own province). Recognised when the
  retreat options MILA adds are all occupied or contested after the movement
  and the attacker came by convoy.

The default seed (3) is one whose 400 positions show every cause above at
work but DD1; seeds 1 to 7 and 2024 (3,200 positions) found these causes
and no other.

Any other disagreement is unexplained: it is printed in full and the script
exits with status 1. Status 2: MILA could not be installed or run.

The timing line compares the time each program spends adjudicating the same
movement phases (MILA's measured inside its own process around
``Game.process``, setting up the games excluded). The two are timed in turn,
ROUNDS times: MILA's process, kept running, plays every phase once when it
is asked to, then pbmref does, then MILA again, so that the shared machine's
change of pace during the run weighs on both alike; each program's median is
taken, and their ratio is the figure bench/report.py records.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import time
import venv
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from itertools import product
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from pbmref.rules.diplomacy import (  # noqa: E402
    POWERS,
    Convoy,
    Hold,
    Loc,
    Move,
    Order,
    Phase,
    Position,
    SupportHold,
    SupportMove,
    Unit,
    UnitType,
    Waive,
    adjudicate_full,
    standard_map,
)
from pbmref.rules.diplomacy.legal import movement_problem  # noqa: E402
from pbmref.rules.diplomacy.movement import run_movement  # noqa: E402
from pbmref.rules.diplomacy.retreat import options_for  # noqa: E402

MILA_RELEASE = "diplomacy==1.1.2"
ROUNDS = 5  # timing: runs over all positions, each program in turn; the medians
CACHE = ROOT / "bench" / ".cache"
VENV = CACHE / "mila-venv"
NAMES = {
    "AUS": "AUSTRIA", "ENG": "ENGLAND", "FRA": "FRANCE", "GER": "GERMANY",
    "ITA": "ITALY", "RUS": "RUSSIA", "TUR": "TURKEY",
}
CODES = {v: k for k, v in NAMES.items()}

# The program run inside MILA's virtual environment: JSON positions on the first
# line of its stdin, JSON snapshots on the first line of its stdout; then, for
# each further line it reads, one timed run over all the positions (the seconds
# on a line). It only drives MILA's public Game API.
DRIVER = r"""
import json, sys, time
from diplomacy import Game

def board(game):
    out = {}
    for power, units in game.get_units().items():
        out[power] = [u for u in units if not u.startswith('*')]
    return out

def start(job):
    game = Game()
    game.clear_units()
    game.clear_centers()
    game.set_current_phase(job['phase'])
    for power, centers in job['centers'].items():
        game.set_centers(power, centers)
    for power, units in job['units'].items():
        game.set_units(power, units)
    for power, orders in job['orders'].items():
        game.set_orders(power, orders)
    return game

jobs = json.loads(sys.stdin.readline())['jobs']
results = []
for job in jobs:
    game = start(job)
    game.process()
    moved = board(game)
    dislodged = {}
    for power, units in game.get_units().items():
        for u in units:
            if u.startswith('*'):
                dislodged[power + ' ' + u[1:]] = sorted(game.powers[power].retreats.get(u[1:], []))
    owner = {u: power for power, units in job['units'].items() for u in units}
    popped = [owner[u] + ' ' + u for u in game.popped]
    after_move_phase = game.get_current_phase()
    while game.get_current_phase() != 'S1902M':
        game.process()
    results.append({'phase': after_move_phase, 'moved': moved, 'dislodged': dislodged,
                    'popped': popped, 'final': board(game)})
print(json.dumps({'results': results}), flush=True)
for _ in sys.stdin:
    games = [start(job) for job in jobs]
    begin = time.perf_counter()
    for game in games:
        game.process()
    print(json.dumps({'seconds': time.perf_counter() - begin}), flush=True)
"""


# -- the outside program ----------------------------------------------------------


class MilaUnavailable(RuntimeError):
    """MILA could not be installed or run (exit status 2)."""


def mila_python(fresh: bool) -> Path:
    """The interpreter of the throwaway environment, made (and MILA installed) when needed."""
    python = VENV / "bin" / "python"
    if fresh or not python.exists() or _run([str(python), "-c", "import diplomacy"]) != 0:
        CACHE.mkdir(parents=True, exist_ok=True)
        venv.EnvBuilder(clear=True, with_pip=True).create(VENV)
        proc = subprocess.run(
            [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
             MILA_RELEASE],
            capture_output=True, text=True, stdin=subprocess.DEVNULL)
        if proc.returncode != 0:
            raise MilaUnavailable(f"pip install {MILA_RELEASE} failed (exit {proc.returncode}):\n"
                                  f"{proc.stdout[-2000:]}{proc.stderr[-2000:]}")
        if _run([str(python), "-c", "import diplomacy"]) != 0:
            raise MilaUnavailable(f"{MILA_RELEASE} installed but does not import")
    return python


def _run(cmd: list[str]) -> int:
    return subprocess.run(cmd, capture_output=True, stdin=subprocess.DEVNULL).returncode


class Mila:
    """MILA's driver in a process of its own, kept running: its snapshot of each
    job (``results``), then one timed run over them all each time it is asked
    (``timed_run``)."""

    def __init__(self, python: Path, jobs: list[dict[str, object]]) -> None:
        self._proc = subprocess.Popen([str(python), "-c", DRIVER], cwd=CACHE, text=True,
                                      stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                      stderr=subprocess.PIPE)
        self.results: list[dict[str, object]] = self._ask(json.dumps({"jobs": jobs}))["results"]

    def _ask(self, line: str) -> dict[str, Any]:
        proc = self._proc
        assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
        try:
            proc.stdin.write(line + "\n")
            proc.stdin.flush()
            answer = proc.stdout.readline()
        except BrokenPipeError:
            answer = ""
        if not answer:
            proc.wait()
            raise MilaUnavailable(f"MILA's driver failed (exit {proc.returncode}):\n"
                                  f"{proc.stderr.read()[-3000:]}")
        data: dict[str, Any] = json.loads(answer)
        return data

    def timed_run(self) -> float:
        """The seconds MILA takes to process every job's phase once."""
        return float(self._ask("time")["seconds"])

    def close(self) -> None:
        if self._proc.stdin is not None:
            self._proc.stdin.close()
        self._proc.wait()


def run_mila(python: Path, jobs: list[dict[str, object]]) -> list[dict[str, object]]:
    """MILA's snapshot of each job (its process ended after)."""
    mila = Mila(python, jobs)
    mila.close()
    return mila.results


# -- random positions and orders ------------------------------------------------------


def random_position(rng: random.Random) -> Position:
    m = standard_map()
    provs = sorted(p for p in m.provinces if p != "swi")
    near: set[str] = set()
    for hot in rng.sample(provs, rng.randint(1, 3)):
        ring = {hot}
        for _ in range(2):
            ring |= {q for p in ring for q in m.any_adj[p] if q != "swi"}
        near |= ring
    spots = sorted(near)
    rng.shuffle(spots)
    powers = rng.sample(POWERS, rng.randint(3, 5))
    units: list[Unit] = []
    for p in spots[: rng.randint(10, 22)]:
        power = rng.choice(powers)
        if m.is_sea(p):
            units.append(Unit(power, UnitType.FLEET, Loc(p)))
        elif m.is_coastal(p) and rng.random() < 0.4:
            coasts = m.coasts(p)
            units.append(Unit(power, UnitType.FLEET, Loc(p, rng.choice(coasts) if coasts else "")))
        else:
            units.append(Unit(power, UnitType.ARMY, Loc(p)))
    centers = tuple(sorted((c, power) for power in POWERS for c in m.home_centers(power)))
    return Position(Phase(1901, "F", "M"), tuple(sorted(units)), centers)


def _sea_route(army: str, fleets: dict[str, Unit], rng: random.Random) -> list[str]:
    """One or two fleets at sea next to each other, the first next to the army."""
    gm = standard_map()
    first = [f for f in sorted(fleets) if f in gm.any_adj[army]]
    if not first:
        return []
    route = [rng.choice(first)]
    nxt = [f for f in sorted(fleets) if f in gm.any_adj[route[0]] and f not in route]
    if nxt and rng.random() < 0.4:
        route.append(rng.choice(nxt))
    return route


def random_orders(rng: random.Random, pos: Position) -> list[Order]:
    m = standard_map()
    by_prov = {u.prov: u for u in pos.units}
    sea_fleets = {p: u for p, u in by_prov.items() if u.kind is UnitType.FLEET and m.is_sea(p)}
    orders: dict[str, Order] = {}
    for u in pos.units:
        if u.prov in orders:
            continue
        r = rng.random()
        if u.kind is UnitType.ARMY and m.is_coastal(u.prov) and r < 0.15:
            free = {p: f for p, f in sea_fleets.items() if p not in orders}
            route = _sea_route(u.prov, free, rng)
            ends = sorted(p for p in m.any_adj[route[-1]] if m.is_coastal(p)
                          and p != u.prov) if route else []
            if ends:
                dest = rng.choice(ends)
                via = m.army_move(u.prov, dest) and rng.random() < 0.5
                orders[u.prov] = Move(u.power, u.kind, u.loc, Loc(dest), via)
                for f in route:
                    fleet = sea_fleets[f]
                    orders[f] = Convoy(fleet.power, fleet.kind, fleet.loc, u.loc, Loc(dest))
                continue
        if r < 0.6:
            if u.kind is UnitType.ARMY:
                options = [Loc(p) for p in sorted(m.army_adj[u.prov])]
            else:
                options = sorted(m.fleet_adj[u.loc])
            if options:
                orders[u.prov] = Move(u.power, u.kind, u.loc, rng.choice(options))
    moves = [o for o in orders.values() if isinstance(o, Move)]
    for u in pos.units:
        if u.prov in orders or rng.random() < 0.2:
            continue
        reach = [mv for mv in moves if mv.loc.prov != u.prov and _reaches(u, mv.dest.prov)]
        holders = [v for v in pos.units if v.prov != u.prov and _reaches(u, v.prov)]
        if reach and (rng.random() < 0.7 or not holders):
            mv = rng.choice(reach)
            aim = Loc(mv.dest.prov)
            if mv.kind is UnitType.FLEET and m.coasts(mv.dest.prov) and rng.random() < 0.5:
                aim = Loc(mv.dest.prov, rng.choice(m.coasts(mv.dest.prov)))  # maybe the wrong one
            orders[u.prov] = SupportMove(u.power, u.kind, u.loc, mv.kind, mv.loc, aim)
        elif holders:
            v = rng.choice(holders)
            orders[u.prov] = SupportHold(u.power, u.kind, u.loc, v.kind, v.loc)
    out: list[Order] = []
    for u in pos.units:
        o = orders.get(u.prov, Hold(u.power, u.kind, u.loc))
        if movement_problem(pos, m, o) is not None:
            o = Hold(u.power, u.kind, u.loc)
        out.append(o)
    return out


def _reaches(u: Unit, prov: str) -> bool:
    m = standard_map()
    if u.kind is UnitType.ARMY:
        return m.army_move(u.prov, prov)
    return m.fleet_reaches(u.loc, prov)


# -- both programs' results in one form ---------------------------------------------------


def _where(loc: Loc) -> str:
    return f"{loc.prov}/{loc.coast}" if loc.coast else loc.prov


def unit_key(u: Unit) -> str:
    return f"{u.power} {u.kind.value} {_where(u.loc)}"


def mila_unit(u: Unit) -> str:
    return f"{u.kind.value} {_where(u.loc).upper()}"


def mila_order(o: Order) -> str:
    assert not isinstance(o, Waive)
    unit = f"{o.kind.value} {_where(o.loc).upper()}"
    if isinstance(o, Move):
        return f"{unit} - {_where(o.dest).upper()}" + (" VIA" if o.via_convoy else "")
    if isinstance(o, SupportMove):
        return (f"{unit} S {o.target_kind.value if o.target_kind else ''} "
                f"{_where(o.target).upper()} - {_where(o.dest).upper()}")
    if isinstance(o, SupportHold):
        return f"{unit} S {o.target_kind.value if o.target_kind else ''} {_where(o.target).upper()}"
    if isinstance(o, Convoy):
        return f"{unit} C A {_where(o.target).upper()} - {_where(o.dest).upper()}"
    return f"{unit} H"


SUPPORT_COAST = "MILA 6.B.9: it ignores the coast a support names"
OWN_SUPPORT = ("MILA 6.D.12: it counts a power's support for an attack on its own unit "
               "when the attack goes by convoy to an adjacent place or falls on a convoying fleet")
CONVOY_RETREAT = ("MILA 6.H.11: after an attack by convoy it lets the dislodged unit retreat "
                  "into occupied or contested provinces too")
DD1 = "DD1: a retreat phase is held only when a dislodged unit has a place to go"
DD3 = ("DD3: civil disorder removes the units farthest from owned centres (2023 rule); "
       "MILA counts from home centres, and a fleet's distance over fleet moves only")


@dataclass(frozen=True)
class Snapshot:
    phase: str  # the phase after the movement: a retreat phase or not (DD1)
    moved: frozenset[str]  # units standing after the movement
    dislodged: tuple[tuple[str, tuple[str, ...]], ...]  # unit -> retreat options (may be none)
    final: frozenset[str]  # units after the Winter adjustment
    # pbmref's own view, for explaining (not compared):
    standoffs: frozenset[str] = field(default=frozenset(), compare=False)
    by_convoy: frozenset[str] = field(default=frozenset(), compare=False)
    final_by_mila_rule: frozenset[str] = field(default=frozenset(), compare=False)

    def retreats(self) -> dict[str, tuple[str, ...]]:
        return dict(self.dislodged)


def ours(pos: Position, orders: list[Order]) -> Snapshot:
    m = standard_map()
    adj = adjudicate_full(pos, orders)
    after = adj.state
    options = {unit_key(u): tuple(sorted(_where(x) for x in where))
               for u, where in options_for(after, m).items()}
    dislodged = {unit_key(d.unit): options.get(unit_key(d.unit), ()) for d in adj.dislodged}
    state, by_mila_rule = after, None
    while state.phase != Phase(1902, "S", "M"):
        if state.phase.kind == "A":
            by_mila_rule = mila_civil_disorder(state)
        state = adjudicate_full(state, []).state
    return Snapshot(
        str(after.phase), frozenset(unit_key(u) for u in after.units),
        tuple(sorted(dislodged.items())), frozenset(unit_key(u) for u in state.units),
        final_by_mila_rule=by_mila_rule or frozenset(unit_key(u) for u in state.units),
        standoffs=run_movement(pos, m, orders).position.standoffs,  # gone once no one retreats
        by_convoy=frozenset(unit_key(d.unit) for d in adj.dislodged if d.via_convoy))


def mila_job(pos: Position, orders: list[Order]) -> dict[str, object]:
    def per_power(items: Iterable[tuple[str, str]]) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {}
        for power, text in items:
            out.setdefault(NAMES[power], []).append(text)
        return out

    return {
        "phase": str(pos.phase),
        "centers": per_power((power, c.upper()) for c, power in pos.centers),
        "units": per_power((u.power, mila_unit(u)) for u in pos.units),
        "orders": per_power((o.power, mila_order(o)) for o in orders),
    }


def _from_mila(text: str) -> str:
    power, unit = text.split(" ", 1)
    return f"{CODES[power]} {unit[0]} {unit[2:].lower()}"


def theirs(result: dict[str, object]) -> Snapshot:
    dislodged = {_from_mila(k): tuple(sorted(w.lower() for w in where))
                 for k, where in result["dislodged"].items()}  # type: ignore[attr-defined]
    for key in result["popped"]:  # type: ignore[attr-defined]
        dislodged.setdefault(_from_mila(key), ())

    def board(name: str) -> frozenset[str]:
        units: dict[str, list[str]] = result[name]  # type: ignore[assignment]
        return frozenset(_from_mila(f"{p} {u}") for p, us in units.items() for u in us)

    return Snapshot(str(result["phase"]), board("moved"), tuple(sorted(dislodged.items())),
                    board("final"))


def mila_civil_disorder(winter: Position) -> frozenset[str]:
    """The board after a Winter with no orders under MILA's removal rule (DD3 says
    otherwise): each power short of centres loses the units farthest from its
    *home* centres; an army's distance counts every border, a fleet's only the
    moves a fleet can make; on a tie fleets go first, then by name."""
    m = standard_map()
    board = set(winter.units)
    for power in winter.powers:
        mine = [u for u in winter.units if u.power == power]
        excess = len(mine) - len(winter.centers_of(power))
        homes = set(m.home_centers(power))
        order = sorted(mine, key=lambda u: (-_distance_home(u, homes),
                                            u.kind is not UnitType.FLEET, mila_unit(u)))
        board -= set(order[:max(excess, 0)])
    return frozenset(unit_key(u) for u in board)


def _distance_home(u: Unit, homes: set[str]) -> int:
    """Steps to the nearest of ``homes``: any border for an army, fleet moves for a fleet."""
    m = standard_map()
    seen, frontier, steps = {u.loc}, [u.loc], 0
    while frontier:
        if any(x.prov in homes for x in frontier):
            return steps
        steps += 1
        nxt: list[Loc] = []
        for x in frontier:
            near = (m.fleet_adj.get(x, frozenset()) if u.kind is UnitType.FLEET
                    else frozenset(Loc(p) for p in m.any_adj[x.prov]))
            nxt += [y for y in sorted(near) if y not in seen]
            seen |= near
        frontier = nxt
    return 99999


# -- explaining a disagreement ------------------------------------------------------------


def without_coasts(orders: list[Order]) -> list[Order]:
    """The supports of moves with the coast they name left out (MILA's reading, 6.B.9)."""
    return [replace(o, dest=Loc(o.dest.prov)) if isinstance(o, SupportMove) else o
            for o in orders]


def without_own_support(pos: Position, orders: list[Order]) -> list[Order]:
    """The orders with a hold for each support a power gives to an attack on its own
    unit where MILA counts it: the attack is an adjacent move by convoy, or the unit
    attacked is a fleet ordered to convoy. Such a support never helps to dislodge
    the power's own unit (DATC 6.D.12); played without it, MILA should agree."""
    m = standard_map()
    at = {u.prov: u for u in pos.units}
    given = {o.loc.prov: o for o in orders if not isinstance(o, Waive)}
    convoyed = {o.target.prov for o in orders if isinstance(o, Convoy)}
    out: list[Order] = []
    for o in orders:
        mv = given.get(o.target.prov) if isinstance(o, SupportMove) else None
        if isinstance(o, SupportMove) and isinstance(mv, Move) and mv.power != o.power:
            held = at.get(mv.dest.prov)
            by_convoy = (mv.kind is UnitType.ARMY and m.army_move(mv.loc.prov, mv.dest.prov)
                         and (mv.via_convoy or mv.loc.prov in convoyed))
            if held is not None and held.power == o.power and (
                    by_convoy or isinstance(given.get(held.prov), Convoy)):
                out.append(Hold(o.power, o.kind, o.loc))
                continue
        out.append(o)
    return out


def explain(pos: Position, orders: list[Order], a: Snapshot, b: Snapshot,
            b_own: Snapshot | None) -> list[str] | None:
    """The conventions and known MILA errors behind a disagreement, or None.

    The movement must agree once the known MILA errors of the movement itself
    are taken out (pbmref played again reading supports as MILA does, or MILA
    played again without the supports it should not count); what is left must
    then be explained stage by stage."""
    ours_ways: list[tuple[Snapshot, list[str]]] = [(a, [])]
    if without_coasts(orders) != orders:
        ours_ways.append((ours(pos, without_coasts(orders)), [SUPPORT_COAST]))
    mila_ways: list[tuple[Snapshot, list[str]]] = [(b, [])]
    if b_own is not None:
        mila_ways.append((b_own, [OWN_SUPPORT]))
    ways = sorted(product(ours_ways, mila_ways), key=lambda w: len(w[0][1]) + len(w[1][1]))
    for (x, why_x), (y, why_y) in ways:
        if x.moved == y.moved and set(x.retreats()) == set(y.retreats()):
            rest = _after_movement(x, y)
            return None if rest is None else why_x + why_y + rest
    return None


def _after_movement(x: Snapshot, y: Snapshot) -> list[str] | None:
    """Retreat options, the phase after the movement, the Winter: pbmref's x, MILA's y."""
    why: list[str] = []
    rx, ry = x.retreats(), y.retreats()
    if rx != ry:
        taken = {u.split()[2].split("/")[0] for u in x.moved} | set(x.standoffs)
        for unit, where in rx.items():
            extra = set(ry[unit]) - set(where)
            if set(where) - set(ry[unit]) or (extra and unit not in x.by_convoy) or any(
                    w.split("/")[0] not in taken for w in extra):
                return None
        why.append(CONVOY_RETREAT)
    if x.phase != y.phase:
        held = {s.phase: s for s in (x, y) if s.phase.endswith("R")}
        if len(held) != 1:
            return None
        if x.phase.endswith("R"):
            return None  # pbmref holds a retreat phase MILA does not
        if not (CONVOY_RETREAT in why and not any(rx.values())):
            if any(ry.values()):
                return None
            why.append(DD1)
    if x.final != y.final:
        if y.final != x.final_by_mila_rule:
            return None
        why.append(DD3)
    return why


def describe(orders: list[Order], a: Snapshot, b: Snapshot) -> list[str]:
    lines = ["  orders: " + "; ".join(f"{o.power} {o}" for o in orders)]
    if a.phase != b.phase:
        lines.append(f"  after the movement: pbmref {a.phase}, MILA {b.phase}")
    for name, x, y in (("moved", a.moved, b.moved), ("final", a.final, b.final)):
        if x != y:
            lines.append(f"  {name}: pbmref only {sorted(x - y)}, MILA only {sorted(y - x)}")
    if a.dislodged != b.dislodged:
        lines.append(f"  dislodged: pbmref {dict(a.dislodged)}, MILA {dict(b.dislodged)}")
    return lines


# -- the run ---------------------------------------------------------------------------


def border_check(python: Path) -> list[str]:
    """Every army and fleet move of the standard map on which the two disagree."""
    m = standard_map()
    locs = sorted({_where(x).upper() for x in m.fleet_adj} | {p.upper() for p in m.provinces})
    script = ("import json,sys\nfrom diplomacy import Map\nm=Map('standard')\nlocs=json.load("
              "sys.stdin)\nprint(json.dumps([[a,b,k] for k in 'AF' for a in locs for b in locs "
              "if a!=b and m.abuts(k,a,'-',b)]))")
    proc = subprocess.run([str(python), "-c", script], input=json.dumps(locs),
                          capture_output=True, text=True, cwd=CACHE)
    if proc.returncode != 0:
        raise MilaUnavailable(f"MILA's map could not be read:\n{proc.stderr[-2000:]}")
    theirs_moves = {(a.lower(), b.lower(), k) for a, b, k in json.loads(proc.stdout)}
    our_moves: set[tuple[str, str, str]] = set()
    for a in m.provinces:
        if m.army_can_stand(Loc(a)):
            our_moves |= {(a, b, "A") for b in m.army_adj[a]}
    for x, ys in m.fleet_adj.items():
        our_moves |= {(_where(x), _where(y), "F") for y in ys}
    # MILA also answers for names pbmref never uses (an army "at" a coast, a fleet
    # move into a split-coast province named without its coast): compare only
    # moves named as a unit stands, armies by province, fleets by coast.
    def named(where: str, kind: str) -> bool:
        return ("/" in where) == (kind == "F" and bool(m.coasts(where.split("/")[0])))

    theirs_moves = {t for t in theirs_moves if named(t[0], t[2]) and named(t[1], t[2])}
    diff = [f"pbmref only: {k} {a} - {b}" for a, b, k in sorted(our_moves - theirs_moves)]
    diff += [f"MILA only: {k} {a} - {b}" for a, b, k in sorted(theirs_moves - our_moves)]
    return diff


def _time_ours(cases: list[tuple[Position, list[Order]]]) -> float:
    begin = time.perf_counter()
    for pos, orders in cases:
        adjudicate_full(pos, orders)
    return time.perf_counter() - begin


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--positions", type=int, default=400)
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--fresh", action="store_true", help="make MILA's environment anew")
    ap.add_argument("--show", type=int, default=3, help="explained disagreements to print")
    args = ap.parse_args(argv[1:])
    try:
        python = mila_python(args.fresh)
        borders = border_check(python)
        rng = random.Random(args.seed)
        cases = []
        for _ in range(args.positions):
            pos = random_position(rng)
            cases.append((pos, random_orders(rng, pos)))
        mila = Mila(python, [mila_job(p, o) for p, o in cases])
        results = mila.results
        mila_times: list[float] = []
        our_times: list[float] = []
        try:
            for _ in range(ROUNDS):  # in turn: a change of the machine's pace hits both
                mila_times.append(mila.timed_run())
                our_times.append(_time_ours(cases))
        finally:
            mila.close()
        # MILA once more, without the supports it should not count (OWN_SUPPORT)
        variants = {i: without_own_support(p, o) for i, (p, o) in enumerate(cases)}
        variants = {i: v for i, v in variants.items() if v != cases[i][1]}
        again = run_mila(python, [mila_job(cases[i][0], v) for i, v in variants.items()])
        mila_own = dict(zip(variants, again, strict=True))
    except MilaUnavailable as exc:
        print(f"MILA unavailable: {exc}")
        return 2
    our_seconds, mila_seconds = statistics.median(our_times), statistics.median(mila_times)

    print(f"MILA {MILA_RELEASE.split('==')[1]} in {VENV.relative_to(ROOT)}; "
          f"{args.positions} positions, seed {args.seed}")
    print(f"map: {len(borders)} army or fleet moves differ" + "".join(f"\n  {d}" for d in borders))
    kinds: Counter[str] = Counter()
    unexplained: list[list[str]] = []
    shown: Counter[str] = Counter()
    units = sum(len(p.units) for p, _ in cases)
    for i, ((pos, orders), result) in enumerate(zip(cases, results, strict=True)):
        a, b = ours(pos, orders), theirs(result)
        if a == b:
            kinds["agree"] += 1
            continue
        own = theirs(mila_own[i]) if i in mila_own else None
        why = explain(pos, orders, a, b, own)
        if why is None:
            unexplained.append([f"position {i}: UNEXPLAINED"] + describe(orders, a, b))
            continue
        for w in why:
            kinds[w] += 1
        key = " + ".join(why)
        if shown[key] < args.show:
            shown[key] += 1
            print(f"position {i}: {key}")
            print("\n".join(describe(orders, a, b)))
    print(f"positions: {args.positions} ({units / args.positions:.1f} units on average); "
          f"the same result in {kinds['agree']}; explained disagreements, by cause "
          f"(a position may have more than one):")
    for cause in (DD1, DD3, SUPPORT_COAST, OWN_SUPPORT, CONVOY_RETREAT):
        print(f"  {kinds[cause]:4}  {cause}")
    print(f"  unexplained: {len(unexplained)}")
    for block in unexplained:
        print("\n".join(block))
    print(f"adjudication time for the {args.positions} movement phases, medians of {ROUNDS} "
          "runs each, the two in turn: "
          f"pbmref {our_seconds:.3f} s, MILA {mila_seconds:.3f} s; "
          f"MILA / pbmref {mila_seconds / our_seconds:.2f}x")
    return 1 if unexplained or borders else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
