"""The tweedekker orders preview in words: the path and warnings an acceptance shows.

``preview_lines(plan)`` words a ``FlightPlan`` of ``pbmref.rules.tweedekker.plan``
for a phone (``pbmref.reports.plan`` holds the wording every game kind shares).

>>> from pbmref.rules.tweedekker.position import position_from_dict
>>> from pbmref.rules.tweedekker.orders import Manoeuvre, Move, PlaneOrders
>>> from pbmref.rules.tweedekker.plan import preview
>>> state = position_from_dict({"aircraft": {"baron": {"hex": "K17", "heading": "N",
...     "state": "flying", "airfield": "N"}}})
>>> for line in preview_lines(preview(state, "baron", PlaneOrders((Move(Manoeuvre.A),
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

from pbmref.reports.plan import HEADER, either, hex_list, item, plural
from pbmref.rules.tweedekker import plan as tw
from pbmref.rules.tweedekker.state import AircraftState

__all__ = ["preview_lines"]

_OUT = {
    AircraftState.LEFT: "it left the board (M4)",
    AircraftState.DOWN: "it was shot down (V2)",
    AircraftState.REMOVED: "it was removed for missed turns (N2)",
}


def preview_lines(plan: tw.FlightPlan) -> list[str]:
    """The preview of one pilot's orders as text lines (each at most WIDTH columns)."""
    name = plan.board.name
    out: list[str] = []
    if plan.game_over:
        out.append("The game is over: there is no turn to fly.")
    elif not plan.state.in_fight:
        out.append(f"Your aircraft is out of the fight: {_OUT[plan.state]}.")
    else:
        out.append(HEADER)
        if plan.nmr:
            out += item("No PLANE orders: your aircraft flies A in every move and holds "
                         "fire (N1)." if plan.state is not AircraftState.LANDED else
                         "No PLANE orders: your aircraft stays landed (N1).")
        if all(s.outcome == "stayed" for s in plan.steps):
            out.append(f"Stays landed at {name(plan.start)} all turn.")
        else:
            for step in plan.steps:
                out += item(_tw_step(plan, step))
        out.append(f"Rounds left after the turn: {plan.ammo_after}")
    if any(v is not None and not v.empty for v in plan.votes):
        votes = [f"{n}: {v.format() if v is not None and not v.empty else 'no vote'}"
                 for n, v in enumerate(plan.votes, 1)]
        out += item(f"Your zeppelin votes: {', '.join(votes)}")
    for warning in plan.warnings:
        out += item(_tw_warning(plan, warning))
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


def _tw_burst(plan: tw.FlightPlan, burst: tw.BurstLine) -> str:
    name = plan.board.name
    d = burst.direction.value
    if not burst.line:
        if burst.stopped_by == "cloud" and burst.stop is not None:
            return f"burst {d} stops at once (cloud at {name(burst.stop)})"
        return f"burst {d} goes off the board"
    text = f"burst {d} reaches {hex_list(name, burst.line)}"
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
    fly = f"Fix: fly {either(w.choices)} in move {w.move}." if w.choices else ""
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
        fix = (f"Fix: fire {either(w.choices)} instead." if w.choices
               else "Fix: keep the round for another move.")
        return head + f"move {w.move} burst {w.order} is wasted: {why}. {fix}"
    if w.kind is K.LAST_ROUNDS:
        return head + _tw_last_rounds(plan, w, where)
    votes = either(w.choices)
    if w.kind is K.BOMB_OFF_AIRFIELD:
        return (head + f"your d-B vote in move {w.move} cannot bomb: whatever the votes, "
                f"no zeppelin hex can be over an airfield then. Fix: vote {votes}.")
    return (head + f"no bomb is ready until turn {w.turn}, so your d-B vote in move "
            f"{w.move} does nothing. Fix: vote {votes}.")


def _tw_storm(w: tw.PlanWarning, where: str, fly: str) -> str:
    text = f"move {w.move} ({w.order}) ends in the storm at {where}: 1 damage point. "
    if w.choices and w.choices[0].startswith("TAKEOFF"):
        return text + f"Fix: write {either(w.choices)}."
    return text + (fly or "Every way out of this move ends in a storm or off the board.")


def _tw_no_landing(plan: tw.FlightPlan, w: tw.PlanWarning, where: str) -> str:
    goal = plan.board.name(w.goal) if w.goal is not None else "?"
    text = (f"{w.order} does not happen on this path: landing takes an A "
            f"from {goal} heading {w.goal_heading}, and you end at {where} heading "
            f"{w.heading}. ")
    if w.changes:
        fixes = [f"{m} in move {n}" for n, m in w.changes]
        return text + f"Fix: fly {either(fixes, 'and')}."
    return text + "You cannot land this turn, whatever you fly."


def _tw_last_rounds(plan: tw.FlightPlan, w: tw.PlanWarning, where: str) -> str:
    home = plan.board.name(w.goal) if w.goal is not None else "?"
    far = w.hex.distance(w.goal) if w.hex is not None and w.goal is not None else 0
    return (f"this turn fires your last rounds, and from {where} you cannot "
            f"land next turn to refill (your airfield {plan.airfield} at {home} is "
            f"{plural(far, 'hex')} away). Fix: keep a round back, or fly home and LAND.")


