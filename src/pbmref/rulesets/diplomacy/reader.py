"""What one power's player reads first in a Diplomacy report (issue 43, item 3).

``power_section(report, power)`` is the block a player's copy opens with,
for the power they play: what became of each of their orders (and why, in a
few words), their units left without an order, their units dislodged and
where each may retreat, the builds or removals due in the coming Winter,
and by when; then their units and centres now, the centres they took and
lost this year (from its Spring: ``TurnReport.year_start``), and (Dirigible
Diplomacy) their supply points (DD11).
Sentences only, so a phone's proportional font shows it as well as a
fixed one. Read from the stored positions and events; the one rule asked
of the engine is how many units a power builds or removes (DD1, DD11).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pbmref.reports.common import and_list, count_word, format_deadline
from pbmref.reports.document import Block, Para, Section
from pbmref.reports.model import TurnReport
from pbmref.rules.diplomacy.variant import variant_in

__all__ = ["order_words", "power_section"]

# An order's outcome reason in a few plain words (the engine's own words first).
REASONS = {
    "bounced": "bounced: an attack as strong or stronger met it (DD2a)",
    "cut": "its support was cut by an attack on the supporting unit (DD2a)",
    "dislodged": "the unit was dislodged (DD2a)",
    "void": "void: it could not apply as written (DD2)",
    "illegal": "not allowed by the rules; the unit held (DD2)",
    "support not matched": "the unit supported did not do what the support said (DD2a)",
    "support of nothing": "there was nothing to support there (DD2a)",
    "no convoy route": "no chain of convoying fleets reached (DD2a)",
    "convoy not used": "the army did not move by this convoy (DD2a)",
    "retreats bounced": "another unit retreated to the same place: both are disbanded (DD3)",
}


def _list(value: Any) -> list[str]:
    return [str(v) for v in value] if isinstance(value, list | tuple) else []


def _mapping(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def order_words(event: Mapping[str, Any]) -> str:
    """One order's fate: ``A Par - Bur: succeeds.``, ``F Bre - Eng: fails,
    bounced: an attack as strong or stronger met it (DD2a).``

    >>> order_words({"order": "FRA F Bre - Eng", "power": "FRA", "outcome": "fails",
    ...              "reason": "bounced"})
    'F Bre - Eng: fails, bounced: an attack as strong or stronger met it (DD2a).'
    """
    power = str(event.get("power") or "")
    order = str(event.get("order") or "")
    if power and order.upper().startswith(power.upper() + " "):
        order = order[len(power) + 1:]
    outcome = str(event.get("outcome") or "?")
    reason = str(event.get("reason") or "")
    why = REASONS.get(reason, reason)
    return f"{order}: {outcome}{', ' + why if why else ''}."


def _ordered_units(events: Sequence[Mapping[str, Any]]) -> set[str]:
    """The units (``A Par``) that had an order, from the order lines."""
    out = set()
    for e in events:
        words = str(e.get("order") or "").split()
        if len(words) >= 3 and words[1].upper() in ("A", "F", "D"):
            out.add(f"{words[1].upper()} {words[2].split('/')[0].lower()}")
        elif len(words) >= 4 and words[1].lower() in ("disband", "remove"):
            out.add(f"{words[2].upper()} {words[3].split('/')[0].lower()}")
    return out


def _unit_key(unit: str) -> str:
    words = unit.split()
    return f"{words[0].upper()} {words[1].split('/')[0].lower()}" if len(words) >= 2 else unit


def _orders_blocks(report: TurnReport, power: str) -> list[Block]:
    mine = [e for e in report.events if e.get("kind") == "order"
            and str(e.get("power") or "").upper() == power]
    kind = str(report.position_before.get("phase") or "M")[-1:]
    if kind != "M" and not mine:
        return _nothing_ordered(report, power, kind)
    blocks: list[Block] = []
    if mine:
        blocks.append(Para("Your orders:", 2, 2))
        blocks += [Para(order_words(e), 4, 6) for e in mine]
    if kind == "M":
        idle = _idle_units(report, power, mine)
        if idle:
            indent = 4 if mine else 2
            blocks.append(Para(f"No order, so held (DD3): {', '.join(idle)}.", indent,
                               indent + 2))
        if not mine and not idle:
            return []
    return blocks


def _idle_units(report: TurnReport, power: str, mine: list[Any]) -> list[str]:
    """The power's units that had no order in a movement phase."""
    ordered = _ordered_units(mine)
    return [u for u in _list(_mapping(report.position_before.get("units")).get(power))
            if _unit_key(u) not in ordered]


def _nothing_ordered(report: TurnReport, power: str, kind: str) -> list[Block]:
    """A retreat or adjustment phase in which the power sent no orders: what
    became of its units, or that it had nothing to order."""
    due = {"R": "You had no retreats to order.", "A": "You had nothing to build or remove."}
    gone = [e for e in report.events if e.get("kind") in ("disbanded", "removed")
            and str(e.get("power") or "").upper() == power]
    if gone:
        return [Para("You sent no orders: " + "; ".join(
            f"{e.get('unit')} {e.get('kind')} ({e.get('reason', '')})" for e in gone)
            + " (DD3).", 2, 4)]
    return [Para(due.get(kind, "You had nothing to order."), 2, 4)]


def _due_blocks(report: TurnReport, power: str) -> list[Block]:
    """Retreats or adjustments the power owes in the next phase, and by when."""
    after = report.position_after
    if report.game_over or after.get("winner"):
        return []
    phase = str(after.get("phase") or "")
    by = format_deadline(report.next_deadline, report.timezone)
    blocks: list[Block] = []
    retreats = _mapping(after.get("retreats")) or _mapping(after.get("dislodged"))
    from pbmref.rulesets.diplomacy.report import retreat_options

    for entry in retreats.get(power) or []:
        entry = _mapping(entry)
        frm = f" by the attack from {entry['attacker_from']}" if entry.get(
            "attacker_from") else ""
        blocks.append(Para(f"DISLODGED: {entry.get('unit')}{frm}. Retreat to "
                           f"{retreat_options(entry)}, by {by}; without an order it is "
                           "disbanded (DD3).", 2, 4, strong=True))
    if phase.endswith("A"):
        change = _adjustment(after, power)
        if change > 0:
            blocks.append(Para(f"Winter: you may build {count_word(change, 'unit')} in your "
                               f"free home centres, by {by} (DD1).", 2, 4, strong=True))
        elif change < 0:
            blocks.append(Para(f"Winter: you must remove {count_word(-change, 'unit')}, by "
                               f"{by}; without orders the referee removes them (DD3).", 2, 4,
                               strong=True))
    return blocks


def _adjustment(position: Mapping[str, Any], power: str) -> int:
    """Units the power builds (+) or removes (-) in a Winter phase, by the engine."""
    from pbmref.rulesets.diplomacy.report import adjustment, decoded

    return adjustment(decoded(position), power) or 0


def _owners(position: Mapping[str, Any]) -> dict[str, str]:
    """Each supply centre (lower case) and its owner."""
    return {c.lower(): str(p) for p, cs in _mapping(position.get("centers")).items()
            for c in _list(cs)}


def _year_start(report: TurnReport) -> Mapping[str, Any]:
    """The position the game year began with (the phase's own start when the
    report does not know it)."""
    return report.year_start if report.year_start is not None else report.position_before


def _centre_names(report: TurnReport) -> dict[str, str]:
    """Each supply centre named in the year (lower case) and its name as shown."""
    return {c.lower(): c for position in (report.position_after, _year_start(report))
            for cs in _mapping(position.get("centers")).values() for c in _list(cs)}


def _no_change(report: TurnReport) -> str:
    """That no centre of the power changed hands this year, and when centres do (DD1)."""
    phase = str(report.position_before.get("phase") or "")
    following = str(report.position_after.get("phase") or "")
    when = (" Centres change hands after the Fall phases (DD1)." if phase.startswith("S")
            else " Centres change hands after the Fall retreats (DD1)."
            if phase.startswith("F") and following.startswith("F") else "")
    return f"No centre of yours changed hands this year.{when}"


def _centre_changes(report: TurnReport, power: str) -> str:
    """The centres the power took and lost this year (from its Spring to now:
    centres change hands at the end of the Fall, DD1, so a Winter report
    still tells them), from whom and to whom."""
    was, now = _owners(_year_start(report)), _owners(report.position_after)
    names = _centre_names(report)
    took = [f"{names[c]} (from {was[c]})" if c in was else f"{names[c]} (neutral)"
            for c, p in now.items() if p == power and was.get(c) != power]
    lost = [f"{names[c]} (to {now[c]})" if c in now else names[c]
            for c, p in was.items() if p == power and now.get(c) != power]
    if not took and not lost:
        return _no_change(report)
    parts = ([f"took {and_list(took)}"] if took else []) + (
        [f"lost {and_list(lost)}"] if lost else [])
    return f"This year you {' and '.join(parts)}."


def _holdings(report: TurnReport, power: str) -> list[str]:
    after = report.position_after
    units = _list(_mapping(after.get("units")).get(power))
    centres = _list(_mapping(after.get("centers")).get(power))
    out = [f"Your units now ({len(units)}): {', '.join(units) or 'none'}.",
           f"Your supply centres ({len(centres)}): {', '.join(centres) or 'none'}.",
           _centre_changes(report, power)]
    from pbmref.rulesets.diplomacy.report import dirigible, points_and_upkeep

    if dirigible(after):

        points, upkeep = points_and_upkeep(after).get(power, (0, 0))
        out.append(f"Supply points: {points}, upkeep of your units {upkeep} (DD11).")
    return out


def power_section(report: TurnReport, power: str) -> Section:
    """The personal block of the player of ``power``: the first part of their copy."""
    spec = variant_in(report.position_before)
    blocks = [*_due_blocks(report, power), *_orders_blocks(report, power),
              *(Para(t, 2, 4) for t in _holdings(report, power))]
    label = spec.power_names.get(power, power)
    return Section(f"FOR {label.upper()} ({power})", blocks, "personal")
