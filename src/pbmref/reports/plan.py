"""The text of an orders preview: the path and warnings an acceptance shows.

``plan_lines(plan)`` renders the preview of any ruleset (a tweedekker or
Fast Play ``FlightPlan``, a Diplomacy ``OrdersPlan``) as short lines for a
phone, none longer than ``WIDTH`` (70) columns: a line that would be longer
goes on, indented by two spaces, on the next. Each warning starts a line of
its own with its rule and ends with a fix. Nothing here computes a rule; it
only words the data.

>>> from pbmref.rules.tweedekker.position import position_from_dict
>>> from pbmref.rules.tweedekker.orders import Manoeuvre, Move, PlaneOrders
>>> from pbmref.rules.tweedekker.plan import preview
>>> state = position_from_dict({"aircraft": {"baron": {"hex": "K17", "heading": "N",
...     "state": "flying", "airfield": "N"}}})
>>> for line in plan_lines(preview(state, "baron", PlaneOrders((Move(Manoeuvre.A),
...         Move(Manoeuvre.RS))))):
...     print(line)
Your path if nothing else happens:
Move 1: A from K17 to K18, heading N
Move 2: RS from K18 off the board
Rounds left after the turn: 16
Warning (M4): move 2 (RS) takes you off the board from K18: you are
  out of the fight for good. Fix: fly L or LS in move 2.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import singledispatch

from pbmref.reports.common import WIDTH, wrap
from pbmref.rules.diplomacy import plan as dip
from pbmref.rules.diplomacy.legal import is_from_above
from pbmref.rules.diplomacy.map import GameMap, Loc, standard_map
from pbmref.rules.diplomacy.orders import (
    Build,
    Convoy,
    Devastate,
    Disband,
    Hold,
    Move,
    Order,
    Retreat,
    SupportHold,
    SupportMove,
    Waive,
)
from pbmref.rules.diplomacy.state import Unit, UnitType
from pbmref.rules.fastplay import plan as fp
from pbmref.rules.hexgrid import Hex
from pbmref.rules.tweedekker import plan as tw
from pbmref.rules.tweedekker.state import AircraftState

__all__ = ["plan_lines"]

HEADER = "Your path if nothing else happens:"
_NBSP = "\u00a0"  # textwrap breaks at ASCII whitespace only
_UNIT = re.compile(r"\b([AFD]) (?=[A-Z][a-zA-Z]{2}\b)")


@singledispatch
def plan_lines(plan: object) -> list[str]:
    """The preview as text lines (each at most WIDTH columns)."""
    raise TypeError(f"no text for a preview of type {type(plan).__name__}")


def _item(text: str) -> list[str]:
    """One item (a move, a warning): wrapped, later lines indented by two.

    A unit such as ``A Par`` or ``F StP/sc`` is never broken over two lines.
    """
    kept = _UNIT.sub(lambda m: m.group(1) + _NBSP, text)
    return [line.replace(_NBSP, " ") for line in wrap(kept, subsequent="  ", width=WIDTH)]


def _either(words: Sequence[str], last: str = "or") -> str:
    """``A``, ``A or L``, ``A, L or R``."""
    words = list(words)
    if len(words) <= 1:
        return "".join(words)
    return f"{', '.join(words[:-1])} {last} {words[-1]}"


def _s(n: int, word: str) -> str:
    """``1 hex``, ``2 hexes``, ``3 builds``."""
    if n == 1:
        return f"{n} {word}"
    return f"{n} {word}es" if word.endswith(("x", "s")) else f"{n} {word}s"


# ---------------------------------------------------------------------------
# Tweedekker


_OUT = {
    AircraftState.LEFT: "it left the board (M4)",
    AircraftState.DOWN: "it was shot down (V2)",
    AircraftState.REMOVED: "it was removed for missed turns (N2)",
}


@plan_lines.register
def _tweedekker(plan: tw.FlightPlan) -> list[str]:
    name = plan.board.name
    out: list[str] = []
    if plan.game_over:
        out.append("The game is over: there is no turn to fly.")
    elif not plan.state.in_fight:
        out.append(f"Your aircraft is out of the fight: {_OUT[plan.state]}.")
    else:
        out.append(HEADER)
        if plan.nmr:
            out += _item("No PLANE orders: your aircraft flies A in every move and holds "
                         "fire (N1)." if plan.state is not AircraftState.LANDED else
                         "No PLANE orders: your aircraft stays landed (N1).")
        if all(s.outcome == "stayed" for s in plan.steps):
            out.append(f"Stays landed at {name(plan.start)} all turn.")
        else:
            for step in plan.steps:
                out += _item(_tw_step(plan, step))
        out.append(f"Rounds left after the turn: {plan.ammo_after}")
    if any(v is not None and not v.empty for v in plan.votes):
        votes = [f"{n}: {v.format() if v is not None and not v.empty else 'no vote'}"
                 for n, v in enumerate(plan.votes, 1)]
        out += _item(f"Your zeppelin votes: {', '.join(votes)}")
    for warning in plan.warnings:
        out += _item(_tw_warning(plan, warning))
    return out


def _tw_step(plan: tw.FlightPlan, step: tw.Step) -> str:
    name = plan.board.name
    n, order = step.move, step.order
    if step.reason.startswith(("no order", "NMR")):
        order = f"{order} (left out, N1)" if not plan.nmr else order
    if step.outcome == "taxied" and n == 1 and plan.takeoff is not None:
        text = (f"Move 1: TAKEOFF {plan.takeoff.value}, taxi to {name(step.to_hex)}, "
                f"heading {step.heading}")
    elif step.outcome == "taxied":
        text = f"Move {n}: taxi to {name(step.to_hex)}; airborne after this move"
    elif step.outcome == "landed":
        runway = plan.land.value if plan.land else ""
        text = (f"Move {n}: A from {name(step.from_hex)}, lands on runway {runway} "
                f"at {name(step.to_hex)}")
    elif step.outcome == "skipped":
        text = f"Move {n}: landed, not flown (L4)"
    elif step.outcome == "stayed":
        text = f"Move {n}: stays landed at {name(step.to_hex)}"
    elif step.outcome == "left":
        text = f"Move {n}: {order} from {name(step.from_hex)} off the board"
    elif step.outcome == "held":
        text = f"Move {n}: 0, stays in {name(step.to_hex)}, heading {step.heading}"
    else:
        text = (f"Move {n}: {order} from {name(step.from_hex)} to {name(step.to_hex)}, "
                f"heading {step.heading}")
    if step.reason and not step.reason.startswith(("no order", "NMR", "take-off", "landed")):
        text += f" ({step.reason})"
    parts = [text] + [_tw_burst(plan, b) for b in step.bursts]
    if step.shot_down:
        parts.append(f"shot down ({step.shot_down})")
    return "; ".join(parts)


def _hexes(namer: Callable[[Hex], str], hexes: Sequence[Hex]) -> str:
    return " ".join(namer(h) for h in hexes)


def _tw_burst(plan: tw.FlightPlan, burst: tw.BurstLine) -> str:
    name = plan.board.name
    d = burst.direction.value
    if not burst.line:
        if burst.stopped_by == "cloud" and burst.stop is not None:
            return f"burst {d} stops at once (cloud at {name(burst.stop)})"
        return f"burst {d} goes off the board"
    text = f"burst {d} reaches {_hexes(name, burst.line)}"
    if burst.stopped_by == "cloud" and burst.stop is not None:
        text += f" (cloud at {name(burst.stop)})"
    elif burst.stopped_by == "zeppelin" and burst.stop is not None:
        who = " and ".join(burst.zeppelins) or "the zeppelin"
        text += f" ({who} takes the hit at {name(burst.stop)})"
    elif burst.stopped_by == "edge":
        text += " (board edge)"
    return text


def _tw_warning(plan: tw.FlightPlan, w: tw.PlanWarning) -> str:
    name = plan.board.name
    K = tw.WarningKind
    head = f"Warning ({w.rule}): "
    where = name(w.hex) if w.hex is not None else "?"
    fly = f"Fix: fly {_either(w.choices)} in move {w.move}." if w.choices else ""
    if w.kind is K.OFF_BOARD:
        stuck = ("Every manoeuvre allowed in move 1 leaves the board there." if w.move == 1
                 else f"Only 0 keeps you on the board there (and 0 in move 3 after it, M3), "
                      f"or change move {w.move - 1}.")
        return (head + f"move {w.move} ({w.order}) takes you off the board from {where}: "
                "you are out of the fight for good. " + (fly or stuck))
    if w.kind is K.STORM:
        return head + _tw_storm(w, where, fly)
    if w.kind is K.NO_LANDING:
        return head + _tw_no_landing(plan, w, where)
    if w.kind in (K.BURST_INTO_CLOUD, K.BURST_OFF_BOARD):
        why = (f"the cloud at {where} is next to you" if w.kind is K.BURST_INTO_CLOUD
               else "it fires off the board")
        fix = (f"Fix: fire {_either(w.choices)} instead." if w.choices
               else "Fix: keep the round for another move.")
        return head + f"move {w.move} burst {w.order} is wasted: {why}. {fix}"
    if w.kind is K.LAST_ROUNDS:
        return head + _tw_last_rounds(plan, w, where)
    votes = _either(w.choices)
    if w.kind is K.BOMB_OFF_AIRFIELD:
        return (head + f"your d-B vote in move {w.move} cannot bomb: whatever the votes, "
                f"no zeppelin hex can be over an airfield then. Fix: vote {votes}.")
    return (head + f"no bomb is ready until turn {w.turn}, so your d-B vote in move "
            f"{w.move} does nothing. Fix: vote {votes}.")


def _tw_storm(w: tw.PlanWarning, where: str, fly: str) -> str:
    text = f"move {w.move} ({w.order}) ends in the storm at {where}: 1 damage point. "
    if w.choices and w.choices[0].startswith("TAKEOFF"):
        return text + f"Fix: write {_either(w.choices)}."
    return text + (fly or "Every way out of this move ends in a storm or off the board.")


def _tw_no_landing(plan: tw.FlightPlan, w: tw.PlanWarning, where: str) -> str:
    goal = plan.board.name(w.goal) if w.goal is not None else "?"
    text = (f"{w.order} does not happen on this path: landing takes an A "
            f"from {goal} heading {w.goal_heading}, and you end at {where} heading "
            f"{w.heading}. ")
    if w.changes:
        fixes = [f"{m} in move {n}" for n, m in w.changes]
        return text + f"Fix: fly {_either(fixes, 'and')}."
    return text + "You cannot land this turn, whatever you fly."


def _tw_last_rounds(plan: tw.FlightPlan, w: tw.PlanWarning, where: str) -> str:
    home = plan.board.name(w.goal) if w.goal is not None else "?"
    far = w.hex.distance(w.goal) if w.hex is not None and w.goal is not None else 0
    return (f"this turn fires your last rounds, and from {where} you cannot "
            f"land next turn to refill (your airfield {plan.airfield} at {home} is "
            f"{_s(far, 'hex')} away). Fix: keep a round back, or fly home and LAND.")


# ---------------------------------------------------------------------------
# Fast Play


@plan_lines.register
def _fastplay(plan: fp.FlightPlan) -> list[str]:
    name = plan.board.name
    if plan.game_over:
        return ["The game is over: there is no turn to fly."]
    if not plan.steps and plan.entry is None:
        return ["You were removed from the game for missed orders (FP17)."]
    out = [HEADER]
    if plan.entry is not None:
        hex_, heading = plan.entry
        by = " (the referee's choice, FP14)" if plan.entry_chosen == "referee" else ""
        out += _item(f"Enters at {name(hex_)}, heading {heading}{by}")
    if plan.burning:
        out += _item("Burning (FP12): the die at the start of the turn may cost you a "
                     "card or a damage point first.")
    for step in plan.steps:
        out += _item(_fp_step(plan, step))
    if plan.duel is not None:
        out += _item(f"DUEL {plan.duel}: the duel begins only if {plan.duel} names you "
                     "too (FP15).")
    for note in plan.notes:
        stay = (f" To stay on, play {_either(note.choices)} in move {note.move}."
                if note.choices else "")
        out += _item(f"Note ({note.rule}): move {note.move} ({note.card}) flies you off "
                     f"the board from {name(note.hex)}; you come back next turn (FP14)."
                     + stay)
    return out


def _fp_step(plan: fp.FlightPlan, step: fp.CardStep) -> str:
    name = plan.board.name
    n = step.move
    card = f"{step.card} (no card given, FP17)" if step.chosen else step.card
    if not step.card:
        return f"Move {n}: no card keeps you on the board: stays in {name(step.from_hex)}"
    if step.outcome == "left" or step.to_hex is None:
        return f"Move {n}: {card} from {name(step.from_hex)} off the board"
    if step.to_hex == step.from_hex:
        text = f"Move {n}: {card}, stays in {name(step.to_hex)}, heading {step.heading}"
    else:
        text = (f"Move {n}: {card} from {name(step.from_hex)} to {name(step.to_hex)}, "
                f"heading {step.heading}")
    if step.reason and not step.chosen:
        text += f" ({step.reason})"
    if step.held == "f-0":
        return text + "; holds fire (f-0)"
    if step.held:
        return text + f"; holds fire ({step.held})"
    if not step.fire:
        return text + "; no hex ahead to fire at"
    return text + f"; fires along {_hexes(name, step.fire)}"


# ---------------------------------------------------------------------------
# Diplomacy


_ADJECTIVE = {"AUS": "Austrian", "ENG": "English", "FRA": "French", "GER": "German",
              "ITA": "Italian", "RUS": "Russian", "TUR": "Turkish"}
_KIND = {UnitType.ARMY: "army", UnitType.FLEET: "fleet", UnitType.DIRIGIBLE: "dirigible"}
_COAST = {"nc": "north coast", "sc": "south coast", "ec": "east coast"}


def _place(m: GameMap, loc: Loc) -> str:
    text = m.name_of(loc.prov)
    return f"{text} ({_COAST.get(loc.coast, loc.coast)})" if loc.coast else text


def _unit(m: GameMap, kind: UnitType, loc: Loc, power: str = "", own: str = "") -> str:
    """``the army in Paris``, ``the German fleet in Kiel``, ``the dirigible over Ruhr``."""
    whose = f"{_ADJECTIVE.get(power, power)} " if power and power != own else ""
    at = "over" if kind is UnitType.DIRIGIBLE else "in"
    return f"the {whose}{_KIND[kind]} {at} {_place(m, loc)}"


def _target(m: GameMap, line: dip.OrderLine, kind: UnitType | None, loc: Loc, own: str
            ) -> str:
    unit: Unit | None = line.target
    if unit is not None:
        return _unit(m, unit.kind, unit.loc, unit.power, own)
    what = _KIND[kind] if kind is not None else "unit"
    return f"the {what} in {_place(m, loc)} (none there now)"


def _reading(m: GameMap, line: dip.OrderLine, power: str) -> str:
    o: Order = line.order
    if isinstance(o, Waive):
        return "one build is left unused"
    if isinstance(o, Build):
        article = "an" if o.kind is UnitType.ARMY else "a"
        return f"builds {article} {_KIND[o.kind]} in {_place(m, o.loc)}"
    me = _unit(m, o.kind, o.loc)
    if isinstance(o, Hold):
        return f"{me} holds"
    if isinstance(o, Move):
        return f"{me} moves to {_place(m, o.dest)}" + (" by convoy" if o.via_convoy else "")
    if isinstance(o, Retreat):
        return f"{me} retreats to {_place(m, o.dest)}"
    if isinstance(o, Disband):
        return f"{me} is disbanded"
    if isinstance(o, Devastate):
        return f"{me} holds and devastates the centre below (DD10)"
    if isinstance(o, (SupportHold, SupportMove)):
        above = is_from_above(o)
        who = _target(m, line, o.target_kind, o.target, power)
        if above and o.target.prov == o.loc.prov:
            below = line.target
            who = f"the {_KIND[below.kind]} below it" if below is not None else "the unit below"
        rule = " (DD8)" if above else ""
        if isinstance(o, SupportHold):
            return f"{me} supports {who} to hold{rule}"
        return f"{me} supports {who} moving to {_place(m, o.dest)}{rule}"
    assert isinstance(o, Convoy)
    return f"{me} convoys {_target(m, line, UnitType.ARMY, o.target, power)} to {_place(m, o.dest)}"


def _phase(plan: dip.OrdersPlan) -> str:
    season = {"S": "Spring", "F": "Fall", "W": "Winter"}[plan.phase.season]
    kind = {"M": "moves", "R": "retreats", "A": "adjustments"}[plan.phase.kind]
    return f"{season} {plan.phase.year} {kind}"


@plan_lines.register
def _diplomacy(plan: dip.OrdersPlan) -> list[str]:
    m = plan.game_map or standard_map()
    out = [f"Your orders for {_phase(plan)} read:"]
    for line in plan.lines:
        out += _item(f"{line.order}: {_reading(m, line, plan.power)}")
    for unit in plan.idle:
        fate = "holds" if plan.phase.kind == "M" else "is disbanded (DD3)"
        out += _item(f"{unit}: no order, {fate}")
    if not plan.lines and not plan.idle:
        out.append("(no orders)")
    for warning in plan.warnings:
        out += _item(_dip_warning(plan, warning))
    return out


def _dip_warning(plan: dip.OrdersPlan, w: dip.OrderWarning) -> str:
    K = dip.WarningKind
    m = plan.game_map or standard_map()
    head = f"Warning ({w.rule}): "
    o = w.order
    fix = f" Fix: order {_either(w.choices)}." if w.choices else ""
    doing = f"it is ordered {w.its_order}" if w.its_order is not None else \
        "it has no order, so it holds"
    if w.kind is K.SUPPORT_OF_NOTHING and isinstance(o, (SupportHold, SupportMove)):
        what = _KIND[o.target_kind] if o.target_kind is not None else "unit"
        return head + (f"{o}: there is no {what} in {_place(m, o.target)} to support, so the "
                       "support is void. Fix: support a unit that is there.")
    if w.kind is K.SUPPORT_NOT_MATCHED and isinstance(o, (SupportHold, SupportMove)):
        return head + _dip_support_not_matched(m, w, o, doing, fix)
    if w.kind is K.CONVOY_NOT_USED and isinstance(o, Convoy):
        if w.unit is None:
            return head + (f"{o}: there is no army in {_place(m, o.target)} to convoy. Fix: "
                           "convoy an army that is there.")
        return head + (f"{o}: your {w.unit} is not ordered to {_place(m, o.dest)} ({doing}), "
                       f"so nothing is convoyed.{fix}")
    if w.kind is K.MOVE_INTO_OWN and o is not None:
        mover = o.unit_text() if isinstance(o, Move) else "it"
        return head + (f"{o}: your own {w.unit} stays there ({doing}), and a unit never "
                       "dislodges one of its own power: the move fails. Fix: move "
                       f"{w.unit} away, or send {mover} elsewhere.")
    return head + _dip_adjustment(plan, w)


def _dip_support_not_matched(m: GameMap, w: dip.OrderWarning, o: SupportHold | SupportMove,
                             doing: str, fix: str) -> str:
    if isinstance(o, SupportHold):
        return (f"{o} supports your {w.unit} to hold, but {doing}: the support "
                "is void." + (fix or f" Fix: let {w.unit} hold, or support another unit."))
    return (f"{o} supports a move to {_place(m, o.dest)} that your {w.unit} is "
            f"not ordered to make ({doing}): the support is void."
            + (fix or f" Fix: order {w.unit} - {o.dest}."))


def _dip_adjustment(plan: dip.OrdersPlan, w: dip.OrderWarning) -> str:
    """Builds left unused, or removals still owed (a Winter phase)."""
    if w.kind is dip.WarningKind.BUILDS_UNUSED:
        left = _s(w.count, "supply point") if plan.dirigible else _s(w.count, "build")
        return (f"{left} left unused. Fix: add {_either(w.choices[:3])}, or "
                "write Waive to leave it so.")
    due = (_s(w.count, "point") + " of upkeep" if plan.dirigible
           else _s(w.count, "more unit"))
    first = "dirigibles first, then " if plan.dirigible else ""
    return (f"you must still remove {due}. Fix: add Disband orders; without "
            f"them the referee removes {first}the units farthest from your "
            "centres.")
