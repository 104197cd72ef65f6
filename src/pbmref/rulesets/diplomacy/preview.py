"""The Diplomacy orders preview in words: how each order reads, and the warnings.

``preview_lines(plan)`` words an ``OrdersPlan`` of ``pbmref.rules.diplomacy.plan``
for a phone (``pbmref.reports.plan`` holds the wording every game kind shares).
"""

from __future__ import annotations

from pbmref.reports.plan import either, item, plural
from pbmref.rules.diplomacy import orders as typed
from pbmref.rules.diplomacy import plan as dip
from pbmref.rules.diplomacy.legal import is_from_above
from pbmref.rules.diplomacy.map import GameMap, Loc, standard_map
from pbmref.rules.diplomacy.state import Unit, UnitType

__all__ = ["preview_lines"]

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
    o: typed.Order = line.order
    if isinstance(o, typed.Waive):
        return "one build is left unused"
    if isinstance(o, typed.Build):
        article = "an" if o.kind is UnitType.ARMY else "a"
        return f"builds {article} {_KIND[o.kind]} in {_place(m, o.loc)}"
    me = _unit(m, o.kind, o.loc)
    if isinstance(o, typed.Hold):
        return f"{me} holds"
    if isinstance(o, typed.Move):
        return f"{me} moves to {_place(m, o.dest)}" + (" by convoy" if o.via_convoy else "")
    if isinstance(o, typed.Retreat):
        return f"{me} retreats to {_place(m, o.dest)}"
    if isinstance(o, typed.Disband):
        return f"{me} is disbanded"
    if isinstance(o, typed.Devastate):
        return f"{me} holds and devastates the centre below (DD10)"
    if isinstance(o, (typed.SupportHold, typed.SupportMove)):
        above = is_from_above(o)
        who = _target(m, line, o.target_kind, o.target, power)
        if above and o.target.prov == o.loc.prov:
            below = line.target
            who = f"the {_KIND[below.kind]} below it" if below is not None else "the unit below"
        rule = " (DD8)" if above else ""
        if isinstance(o, typed.SupportHold):
            return f"{me} supports {who} to hold{rule}"
        return f"{me} supports {who} moving to {_place(m, o.dest)}{rule}"
    assert isinstance(o, typed.Convoy)
    return f"{me} convoys {_target(m, line, UnitType.ARMY, o.target, power)} to {_place(m, o.dest)}"


def _phase(plan: dip.OrdersPlan) -> str:
    season = {"S": "Spring", "F": "Fall", "W": "Winter"}[plan.phase.season]
    kind = {"M": "moves", "R": "retreats", "A": "adjustments"}[plan.phase.kind]
    return f"{season} {plan.phase.year} {kind}"


def preview_lines(plan: dip.OrdersPlan) -> list[str]:
    """The preview of one power's orders as text lines (each at most WIDTH columns)."""
    m = plan.game_map or standard_map()
    out = [f"Your orders for {_phase(plan)} read:"]
    for line in plan.lines:
        out += item(f"{line.order}: {_reading(m, line, plan.power)}")
    for unit in plan.idle:
        fate = "holds" if plan.phase.kind == "M" else "is disbanded (DD3)"
        out += item(f"{unit}: no order, {fate}")
    if not plan.lines and not plan.idle:
        out.append("(no orders)")
    for warning in plan.warnings:
        out += item(_dip_warning(plan, warning))
    return out


def _dip_warning(plan: dip.OrdersPlan, w: dip.OrderWarning) -> str:
    K = dip.WarningKind
    m = plan.game_map or standard_map()
    head = f"Warning ({w.rule}): "
    o = w.order
    fix = f" Fix: order {either(w.choices)}." if w.choices else ""
    doing = f"it is ordered {w.its_order}" if w.its_order is not None else \
        "it has no order, so it holds"
    if w.kind is K.SUPPORT_OF_NOTHING and isinstance(o, (typed.SupportHold, typed.SupportMove)):
        what = _KIND[o.target_kind] if o.target_kind is not None else "unit"
        return head + (f"{o}: there is no {what} in {_place(m, o.target)} to support, so the "
                       "support is void. Fix: support a unit that is there.")
    if w.kind is K.SUPPORT_NOT_MATCHED and isinstance(o, (typed.SupportHold, typed.SupportMove)):
        return head + _dip_support_not_matched(m, w, o, doing, fix)
    if w.kind is K.CONVOY_NOT_USED and isinstance(o, typed.Convoy):
        if w.unit is None:
            return head + (f"{o}: there is no army in {_place(m, o.target)} to convoy. Fix: "
                           "convoy an army that is there.")
        return head + (f"{o}: your {w.unit} is not ordered to {_place(m, o.dest)} ({doing}), "
                       f"so nothing is convoyed.{fix}")
    if w.kind is K.MOVE_INTO_OWN and o is not None:
        mover = o.unit_text() if isinstance(o, typed.Move) else "it"
        return head + (f"{o}: your own {w.unit} stays there ({doing}), and a unit never "
                       "dislodges one of its own power: the move fails. Fix: move "
                       f"{w.unit} away, or send {mover} elsewhere.")
    return head + _dip_adjustment(plan, w)


def _dip_support_not_matched(m: GameMap, w: dip.OrderWarning,
                             o: typed.SupportHold | typed.SupportMove, doing: str,
                             fix: str) -> str:
    if isinstance(o, typed.SupportHold):
        return (f"{o} supports your {w.unit} to hold, but {doing}: the support "
                "is void." + (fix or f" Fix: let {w.unit} hold, or support another unit."))
    return (f"{o} supports a move to {_place(m, o.dest)} that your {w.unit} is "
            f"not ordered to make ({doing}): the support is void."
            + (fix or f" Fix: order {w.unit} - {o.dest}."))


def _dip_adjustment(plan: dip.OrdersPlan, w: dip.OrderWarning) -> str:
    """Builds left unused, or removals still owed (a Winter phase)."""
    if w.kind is dip.WarningKind.BUILDS_UNUSED:
        left = plural(w.count, "supply point") if plan.dirigible else plural(w.count, "build")
        return (f"{left} left unused. Fix: add {either(w.choices[:3])}, or "
                "write Waive to leave it so.")
    due = (plural(w.count, "point") + " of upkeep" if plan.dirigible
           else plural(w.count, "more unit"))
    first = "dirigibles first, then " if plan.dirigible else ""
    return (f"you must still remove {due}. Fix: add Disband orders; without "
            f"them the referee removes {first}the units farthest from your "
            "centres.")
