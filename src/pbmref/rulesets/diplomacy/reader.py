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

from collections.abc import Sequence

from pbmref.reports.common import and_list, count_word, format_deadline
from pbmref.reports.document import Block, Para, Section
from pbmref.reports.model import TurnReport
from pbmref.rules.diplomacy.events import Event
from pbmref.rulesets.diplomacy.view import PositionView

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


def order_words(event: Event) -> str:
    """One order's fate: ``A Par - Bur: succeeds.``, ``F Bre - Eng: fails,
    bounced: an attack as strong or stronger met it (DD2a).``

    >>> order_words(Event("order", power="FRA", order="FRA F Bre - Eng", outcome="fails",
    ...                   reason="bounced"))
    'F Bre - Eng: fails, bounced: an attack as strong or stronger met it (DD2a).'
    """
    power = event.power or ""
    order = event.order or ""
    if power and order.upper().startswith(power.upper() + " "):
        order = order[len(power) + 1:]
    outcome = event.outcome or "?"
    reason = event.reason or ""
    why = REASONS.get(reason, reason)
    return f"{order}: {outcome}{', ' + why if why else ''}."


def _ordered_units(events: Sequence[Event]) -> set[str]:
    """The units (``A Par``) that had an order, from the order lines."""
    out = set()
    for e in events:
        words = (e.order or "").split()
        if len(words) >= 3 and words[1].upper() in ("A", "F", "D"):
            out.add(f"{words[1].upper()} {words[2].split('/')[0].lower()}")
        elif len(words) >= 4 and words[1].lower() in ("disband", "remove"):
            out.add(f"{words[2].upper()} {words[3].split('/')[0].lower()}")
    return out


def _unit_key(unit: str) -> str:
    words = unit.split()
    return f"{words[0].upper()} {words[1].split('/')[0].lower()}" if len(words) >= 2 else unit


def _orders_blocks(report: TurnReport[Event], before: PositionView, power: str) -> list[Block]:
    mine = [e for e in report.events if e.kind == "order"
            and (e.power or "").upper() == power]
    kind = (before.phase or "M")[-1:]
    if kind != "M" and not mine:
        return _nothing_ordered(report, power, kind)
    blocks: list[Block] = []
    if mine:
        blocks.append(Para("Your orders:", 2, 2))
        blocks += [Para(order_words(e), 4, 6) for e in mine]
    if kind == "M":
        idle = _idle_units(before, power, mine)
        if idle:
            indent = 4 if mine else 2
            blocks.append(Para(f"No order, so held (DD3): {', '.join(idle)}.", indent,
                               indent + 2))
        if not mine and not idle:
            return []
    return blocks


def _idle_units(before: PositionView, power: str,
                mine: Sequence[Event]) -> list[str]:
    """The power's units that had no order in a movement phase."""
    ordered = _ordered_units(mine)
    return [u for u in before.units.get(power, ()) if _unit_key(u) not in ordered]


def _nothing_ordered(report: TurnReport[Event], power: str, kind: str) -> list[Block]:
    """A retreat or adjustment phase in which the power sent no orders: what
    became of its units, or that it had nothing to order."""
    due = {"R": "You had no retreats to order.", "A": "You had nothing to build or remove."}
    gone = [e for e in report.events if e.kind in ("disbanded", "removed")
            and (e.power or "").upper() == power]
    if gone:
        return [Para("You sent no orders: " + "; ".join(
            f"{e.unit} {e.kind} ({e.reason or ''})" for e in gone)
            + " (DD3).", 2, 4)]
    return [Para(due.get(kind, "You had nothing to order."), 2, 4)]


def _due_blocks(report: TurnReport[Event], after: PositionView, power: str) -> list[Block]:
    """Retreats or adjustments the power owes in the next phase, and by when."""
    if report.game_over or after.winner:
        return []
    by = format_deadline(report.next_deadline, report.timezone)
    blocks: list[Block] = []
    for entry in after.retreats.get(power, ()):
        frm = f" by the attack from {entry.attacker_from}" if entry.attacker_from else ""
        blocks.append(Para(f"DISLODGED: {entry.unit}{frm}. Retreat to "
                           f"{entry.options_text()}, by {by}; without an order it is "
                           "disbanded (DD3).", 2, 4, strong=True))
    if after.phase.endswith("A"):
        change = _adjustment(after, power)
        if change > 0:
            blocks.append(Para(f"Winter: you may build {count_word(change, 'unit')} in your "
                               f"free home centres, by {by} (DD1).", 2, 4, strong=True))
        elif change < 0:
            blocks.append(Para(f"Winter: you must remove {count_word(-change, 'unit')}, by "
                               f"{by}; without orders the referee removes them (DD3).", 2, 4,
                               strong=True))
    return blocks


def _adjustment(position: PositionView, power: str) -> int:
    """Units the power builds (+) or removes (-) in a Winter phase, by the engine."""
    from pbmref.rulesets.diplomacy.report import adjustment

    return adjustment(position.typed, power) or 0


def _owners(position: PositionView) -> dict[str, str]:
    """Each supply centre (lower case) and its owner."""
    return {c.lower(): p for p, cs in position.centers.items() for c in cs}


def _centre_names(after: PositionView, year_start: PositionView) -> dict[str, str]:
    """Each supply centre named in the year (lower case) and its name as shown."""
    return {c.lower(): c for position in (after, year_start)
            for cs in position.centers.values() for c in cs}


def _no_change(before: PositionView, after: PositionView) -> str:
    """That no centre of the power changed hands this year, and when centres do (DD1)."""
    phase, following = before.phase, after.phase
    when = (" Centres change hands after the Fall phases (DD1)." if phase.startswith("S")
            else " Centres change hands after the Fall retreats (DD1)."
            if phase.startswith("F") and following.startswith("F") else "")
    return f"No centre of yours changed hands this year.{when}"


def _centre_changes(report: TurnReport[Event], before: PositionView, after: PositionView,
                    power: str) -> str:
    """The centres the power took and lost this year (from its Spring to now:
    centres change hands at the end of the Fall, DD1, so a Winter report
    still tells them, ``TurnReport.year_start``; the phase's own start when
    the report does not know it), from whom and to whom."""
    year_start = before if report.year_start is None else PositionView.read(report.year_start)
    was, now = _owners(year_start), _owners(after)
    names = _centre_names(after, year_start)
    took = [f"{names[c]} (from {was[c]})" if c in was else f"{names[c]} (neutral)"
            for c, p in now.items() if p == power and was.get(c) != power]
    lost = [f"{names[c]} (to {now[c]})" if c in now else names[c]
            for c, p in was.items() if p == power and now.get(c) != power]
    if not took and not lost:
        return _no_change(before, after)
    parts = ([f"took {and_list(took)}"] if took else []) + (
        [f"lost {and_list(lost)}"] if lost else [])
    return f"This year you {' and '.join(parts)}."


def _holdings(report: TurnReport[Event], before: PositionView, after: PositionView,
              power: str) -> list[str]:
    units = after.units.get(power, ())
    centres = after.centers.get(power, ())
    out = [f"Your units now ({len(units)}): {', '.join(units) or 'none'}.",
           f"Your supply centres ({len(centres)}): {', '.join(centres) or 'none'}.",
           _centre_changes(report, before, after, power)]
    from pbmref.rulesets.diplomacy.report import points_and_upkeep

    if after.dirigible:
        points, upkeep = points_and_upkeep(after).get(power, (0, 0))
        out.append(f"Supply points: {points}, upkeep of your units {upkeep} (DD11).")
    return out


def power_section(report: TurnReport[Event], power: str, before: PositionView | None = None,
                  after: PositionView | None = None) -> Section:
    """The personal block of the player of ``power``: the first part of their copy.
    ``before``, ``after``: the report's positions, when the caller has read them."""
    before = before or PositionView.read(report.position_before)
    after = after or PositionView.read(report.position_after)
    blocks = [*_due_blocks(report, after, power), *_orders_blocks(report, before, power),
              *(Para(t, 2, 4) for t in _holdings(report, before, after, power))]
    label = before.spec.power_names.get(power, power)
    return Section(f"FOR {label.upper()} ({power})", blocks, "personal")
