"""Diplomacy and Dirigible Diplomacy: the turn report and the board in text.

A Diplomacy game in the store plays one phase per turn folder (DD1); players
know a turn by its phase (``S1901M``), so everything here names phases.

- ``diplomacy_document(report, readers)``: the report of one phase as one
  recipient reads it (a player's own power's block first, ``diplomacy_reader``);
  ``render_diplomacy_report(report)``: the whole text report of one phase
  (every order with its result in the words of rule DD2a, dislodgements and
  retreat options, captures, devastation (DD10), builds and removals, supply
  centres per power, supply points (DD11, dirigible game), the winner (DD4,
  DD14) and the next deadline), at most 70 columns a line.
- ``render_position_text(position, names)``: the board as text (the MAP reply).

The pictures of the board are drawn by ``pbmref.rulesets.diplomacy.board``.

Map data: the standard board of the TedDriggs/diplomacy project (MIT); see
``pbmref/data/diplomacy/NOTICE``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from pbmref.reports.common import fit_width, wrap
from pbmref.reports.document import Block, Document, Gap, Para, Rule, Section, Sub, Table, Title
from pbmref.reports.model import TurnReport
from pbmref.rules.diplomacy.events import Event
from pbmref.rules.diplomacy.state import Position
from pbmref.rules.diplomacy.variant import map_of
from pbmref.rulesets.diplomacy.view import PositionView

__all__ = [
    "ending_sentence",
    "adjustment",
    "diplomacy_document",
    "points_and_upkeep",
    "phase_words",
    "render_diplomacy_report",
    "render_events",
    "render_position_text",
]

_SEASONS = {"S": "Spring", "F": "Fall", "W": "Winter"}
_KINDS = {"M": "movement", "R": "retreats", "A": "adjustments"}


def phase_words(phase: object) -> str:
    """``S1901M`` -> ``Spring 1901 movement`` (DD1); anything else as it is."""
    text = str(phase or "").strip().upper()
    if len(text) == 6 and text[0] in _SEASONS and text[5] in _KINDS and text[1:5].isdigit():
        return f"{_SEASONS[text[0]]} {text[1:5]} {_KINDS[text[5]]}"
    return text or "?"


def _power_label(power: str, position: PositionView, names: Mapping[str, str]) -> str:
    """``France (FRA, Fleur)``; ``France (FRA)`` where the player is shown by the
    power's name (an anonymous game).

    >>> _power_label("FRA", PositionView.read({"players": {"fleur": "FRA"}}), {"fleur": "Fleur"})
    'France (FRA, Fleur)'
    >>> _power_label("FRA", PositionView.read({"players": {"fra": "FRA"}}), {"fra": "France"})
    'France (FRA)'
    """
    full = position.spec.power_names.get(power, power)
    pid = position.players.get(power)
    if pid is None:
        return f"{full} ({power}, nobody: civil disorder)"
    name = names.get(pid) or pid
    return f"{full} ({power})" if name == full else f"{full} ({power}, {name})"


def _counts(position: PositionView) -> dict[str, tuple[int, int, int]]:
    """power -> (centres owned, centres that are not devastated, units)."""
    devastated = {d.lower() for d in position.devastated}
    out = {}
    for power in position.spec.powers:
        mine = position.centers.get(power, ())
        scoring = [c for c in mine if c.lower() not in devastated]
        out[power] = (len(mine), len(scoring), len(position.units.get(power, ())))
    return out


def points_and_upkeep(position: PositionView) -> dict[str, tuple[int, int]]:
    """DD11: power -> (supply points, upkeep of its units), dirigible game only."""
    from pbmref.rules.diplomacy.dirigible import POINTS_PER_CENTER, UPKEEP
    from pbmref.rules.diplomacy.state import UnitType

    devastated = {d.lower() for d in position.devastated}
    out = {}
    for power in position.spec.powers:
        points = POINTS_PER_CENTER * sum(
            1 for c in position.centers.get(power, ()) if c.lower() not in devastated)
        upkeep = 0
        for u in position.units.get(power, ()):
            try:
                upkeep += UPKEEP[UnitType(u.split()[0].upper())]
            except (ValueError, IndexError):
                continue
        out[power] = (points, upkeep)
    return out


# ---------------------------------------------------------------- text


def _result_text(e: Event) -> str:
    outcome = e.outcome or "?"
    return f"{outcome}: {e.reason}" if e.reason else outcome


def _strip_power(order: str, power: str) -> str:
    return order[len(power) + 1:] if order.upper().startswith(power + " ") else order


def _no_orders(before: PositionView, kind: str, power: str) -> str | None:
    """What became of a power that gave no orders in the phase (DD3); None: it
    had nothing to order. In a Winter phase the engine's own reading of the
    position (``before.typed``) says."""
    if kind == "M":
        has_units = bool(before.units.get(power))
        return "no orders: every unit holds (DD3)" if has_units else None
    if kind == "R":
        must_retreat = bool(before.dislodged.get(power) or before.retreats.get(power))
        return "no orders: its dislodged units are disbanded (DD3)" if must_retreat else None
    change = _adjusts(before.typed, power) if kind == "A" else 0
    if change == 0:
        return None
    return ("no orders: nothing built (DD3)" if change > 0 else
            "no orders: units removed in civil disorder (DD3"
            + (", DD11)" if before.dirigible else ")"))


def _orders_section(before: PositionView, events: Sequence[Event],
                    names: Mapping[str, str]) -> Section:
    phase = before.phase
    kind = phase[-1:] if phase else "M"
    by_power: dict[str, list[Event]] = {}
    for e in events:
        if e.kind == "order":
            power = (e.power or (e.order or "").split(" ")[0]).upper()
            by_power.setdefault(power, []).append(e)
    blocks: list[Block] = []
    for power in before.spec.powers:
        given = by_power.get(power, [])
        if not given:
            why = _no_orders(before, kind, power)
            if why is not None:
                blocks.append(Para(f"{_power_label(power, before, names)}: {why}", 2, 4))
            continue
        blocks.append(Para(f"{_power_label(power, before, names)}:", 2, 4))
        for e in given:
            order = _strip_power(e.order or "", power)
            blocks.append(Para(f"{order} - {_result_text(e)}", 4, 8))
    if not blocks:
        blocks.append(Para("No orders were given in this phase.", 2, 4))
    return Section(f"ORDERS AND RESULTS OF {phase} (secret until now)", blocks, "orders")


def _adjusts(position: Position | None, power: str) -> int:
    """+1 when the power may build, -1 when it must remove, 0 when it has nothing
    to order in a Winter adjustment (DD1, DD11), by the engine's own rules."""
    change = adjustment(position, power)
    return 0 if change is None else -1 if change < 0 else 1


def adjustment(position: Position | None, power: str) -> int | None:
    """Units the power may build (+) or must remove (-) in a Winter phase, by
    the engine's own rules (DD1, DD11); None: it has nothing to order (or the
    position is none the engine reads)."""
    from pbmref.rules.diplomacy.adjust import balance, may_adjust

    if position is None or not may_adjust(position, map_of(position), power):
        return None
    return balance(position, power)


def _events_section(after: PositionView, events: Sequence[Event]) -> Section | None:
    out: list[str] = []
    for e in events:
        kind = e.kind
        power = e.power or ""
        rule = f" ({e.rule})" if e.rule else ""
        if kind == "dislodged":
            frm = f" by the attack from {e.province}" if e.province else ""
            out.append(f"{power} {e.unit} is dislodged{frm}.")
        elif kind == "disbanded":
            out.append(f"{power} {e.unit} is disbanded: {e.reason or ''}{rule}.")
        elif kind == "devastated":
            out.append(f"{power} devastates {e.province}: it counts for nobody "
                       f"in the next Winter{rule}.")
        elif kind == "captured":
            frm = f" {e.reason}" if e.reason else ""
            out.append(f"{power} takes {e.province}{frm}.")
        elif kind == "built":
            out.append(f"{power} builds {e.unit}.")
        elif kind == "removed":
            out.append(f"{power} removes {e.unit}: {e.reason or ''}{rule}.")
        elif kind == "winner":
            pass  # in the header and the centre table
        elif kind in ("draw", "conceded"):
            out.append(_vote_text(e, after))
        elif kind != "order":
            out.append(" ".join(f"{k}={v}" for k, v in e.to_dict().items()))
    if not out:
        return None
    return Section("WHAT ELSE HAPPENED", [Para(t, 2, 4) for t in out], "events")


def _retreat_section(after: PositionView) -> Section | None:
    if not after.retreats:
        return None
    blocks: list[Block] = []
    for power in sorted(after.retreats):
        for entry in after.retreats[power]:
            frm = f" (attacked from {entry.attacker_from})" if entry.attacker_from else ""
            blocks.append(Para(f"{power} {entry.unit}{frm}: retreat to "
                               f"{entry.options_text()}.", 2, 4))
    blocks.append(Para("A dislodged unit without a retreat order is disbanded (DD3).", 2, 2))
    return Section(f"RETREATS TO ORDER IN {after.phase}", blocks, "retreats")


def _centre_blocks(position: PositionView) -> list[Block]:
    spec = position.spec
    airships = position.dirigible
    need = spec.victory
    counts = _counts(position)
    points = points_and_upkeep(position) if airships else {}
    centers, units = position.centers, position.units
    rows: list[tuple[str, ...]] = []
    for power in spec.powers:
        owned, scoring, n_units = counts[power]
        if airships:
            pts, upkeep = points[power]
            rows.append((power, str(owned), str(scoring), str(pts), str(upkeep), str(n_units)))
        else:
            rows.append((power, str(owned), str(n_units)))
    head = (("Power", "Centres", "Count", "Points", "Upkeep", "Units") if airships
            else ("Power", "Centres", "Units"))
    blocks: list[Block] = [Table(head, rows), Gap()]
    if airships:
        blocks.append(Para("Count: centres not devastated, which score for victory (DD14, "
                           f"{need} win). Points: 5 a counted centre; upkeep 4 an army or "
                           "fleet, 3 a dirigible (DD11).", 2, 2))
    else:
        blocks.append(Para(f"{need} centres win (DD4).", 2, 2))
    devastated = position.devastated
    if devastated:
        blocks.append(Para(f"Devastated this year (DD10): {', '.join(devastated)}.", 2, 4))
    blocks += [Sub("Units")]
    blocks += [Para(f"{power}: {', '.join(units[power])}", 2, 9)
               for power in spec.powers if units.get(power)]
    blocks += [Sub("Centres")]
    blocks += [Para(f"{power}: {', '.join(centers[power])}", 2, 9)
               for power in spec.powers if centers.get(power)]
    from pbmref.rules.diplomacy.map import display

    taken = {x.lower() for v in centers.values() for x in v}
    neutral = sorted(display(p) for p in spec.map.supply_centers() if p not in taken)
    if neutral:
        blocks.append(Para(f"Neutral centres: {', '.join(neutral)}", 2, 4))
    return blocks


def _centre_section(position: PositionView, when: str = "AFTER THIS PHASE") -> Section:
    head = "SUPPLY CENTRES" + (" AND SUPPLY POINTS (DD11)" if position.dirigible else "")
    return Section(f"{head} {when}".rstrip(), _centre_blocks(position), "centres")


def _deadline(report: TurnReport[Event]) -> str:
    from pbmref.reports.common import format_deadline

    return format_deadline(report.next_deadline, report.timezone)


def _vote_text(e: Event, position: PositionView) -> str:
    """A draw or a concession decided at the adjudication; who votes for which
    draw only in a game whose votes are open (J13: the event then says)."""
    names = position.spec.power_names
    if e.kind == "conceded":
        return (f"Every other surviving power conceded the game to "
                f"{names.get(str(e.power), e.power)}.")
    if e.outcome == "passed":
        shared = ", ".join(names.get(p, p) for p in e.powers)
        return f"The draw passed: the game ends in a draw shared by {shared}."
    if not e.votes:
        return "A draw was proposed; it did not pass."
    by_draw: dict[tuple[str, ...], list[str]] = {}
    for power, draw in e.votes:
        by_draw.setdefault(draw, []).append(names.get(power, power))
    parts = [f"{', '.join(sorted(voters))} for a draw of "
             f"{', '.join(names.get(str(p), str(p)) for p in draw)}"
             for draw, voters in sorted(by_draw.items())]
    return f"No draw passed (J13; the votes are open): {'; '.join(parts)}."


def _ending(after: PositionView, events: Sequence[Event],
            names: Mapping[str, str]) -> tuple[str, str] | None:
    """The header and closing lines of a game ended by a draw or a concession."""
    for e in events:
        if e.kind == "draw" and e.outcome == "passed":
            shared = ", ".join(after.spec.power_names.get(p, p) for p in e.powers)
            return (f"GAME OVER. The draw passed: shared by {shared}.",
                    f"The game ends in a draw shared by {shared}. Thank you for playing.")
        if e.kind == "conceded":
            power = str(e.power)
            label = _power_label(power, after, names)
            return (f"GAME OVER. {label} wins: every other surviving power conceded.",
                    f"The game is over: {after.spec.power_names.get(power, power)}"
                    " wins by "
                    "concession. Thank you for playing.")
    return None


def ending_sentence(report: TurnReport[Event]) -> str | None:
    """How a game that ended with ``report``'s phase ended, in a sentence (the
    final report, J14): a draw, a concession or a victory; None when it goes on."""
    after = PositionView.read(report.position_after)
    found = _ending(after, report.events, report.names or {})
    if found is not None:
        return found[1].replace(" Thank you for playing.", "")
    winner = after.winner or (report.winners[0] if report.winners else "")
    if not (report.game_over or winner):
        return None
    held = _counts(after).get(winner, (0, 0, 0))[1]
    rule = "DD14" if PositionView.read(report.position_before).dirigible else "DD4"
    return (f"The game is over: {after.spec.power_names.get(winner, winner)} wins with {held} "
            f"supply centres ({rule}).")


def render_diplomacy_report(report: TurnReport[Event]) -> str:
    """The report of one adjudicated Diplomacy phase, every line at most 70 columns
    (as the store keeps it and observers read it)."""
    return diplomacy_document(report).text()


def diplomacy_document(report: TurnReport[Event], readers: Sequence[str] = ()) -> Document:
    """The report of one phase as one recipient reads it: for a player, the block
    of each power they play first (``diplomacy_reader``: units, centres, what
    became of each order, what is due next), then the board (the mail's
    pictures go after that block), then everyone's orders and the rest."""
    from pbmref.rulesets.diplomacy.reader import power_section

    names = dict(report.names)
    before = PositionView.read(report.position_before)
    after = PositionView.read(report.position_after)
    phase = before.phase if "phase" in report.position_before else str(report.turn)
    next_phase = after.phase
    variant = before.spec.title
    title = (report.title or report.game_id).upper()
    head: list[Block] = [Rule(), Title(title, f"game {report.game_id}"),
                         Para(f"{variant} - report of {phase} ({phase_words(phase)})", 2, 4)]
    winner = after.winner or (report.winners[0] if report.winners else "")
    events = report.events
    ending = _ending(after, events, names)
    if ending is not None:
        head.append(Para(ending[0], 2, 4))
    elif report.game_over or winner:
        head.append(Para(f"GAME OVER. {_power_label(winner, after, names)} wins "
                         f"({'DD14' if before.dirigible else 'DD4'}).", 2, 4))
    else:
        head.append(Para(f"Next: {next_phase} ({phase_words(next_phase)}), orders by "
                         f"{_deadline(report)}", 2, 4))
    head.append(Rule())
    sections = [Section(None, head, "head")]
    players = before.players | after.players
    mine = [power for power, pid in players.items() if pid in readers]
    sections += [power_section(report, power, before, after) for power in before.spec.powers
                 if power in mine]
    counts = _counts(after)
    sections.append(Section("POWERS", [
        Para(_power_label(power, after, names)
             + ("" if any(counts[power][i] for i in (0, 2)) else ": out of the game"), 2, 4)
        for power in after.spec.powers], "powers"))
    sections.append(_orders_section(before, events, names))
    sections += [s for s in (_events_section(after, events), _retreat_section(after)) if s]
    sections.append(_centre_section(after))
    foot = _foot(report, after, ending, winner, counts, mine)
    sections.append(Section(None, [Gap(), Rule(), Para(foot, 2, 2), Rule()], "foot"))
    return Document(sections)


def _foot(report: TurnReport[Event], after: PositionView, ending: tuple[str, str] | None,
          winner: str, counts: Mapping[str, tuple[int, int, int]],
          mine: Sequence[str] = ()) -> str:
    """The report's last words: how the game ended, or the next phase's deadline
    (for a reader whose powers, ``mine``, have nothing to order in it: that,
    and which phase their next orders are for)."""
    next_phase = after.phase
    if ending is not None:
        return ending[1]
    if report.game_over or winner:
        held = counts.get(winner, (0, 0, 0))[1]
        return (f"The game is over: {after.spec.power_names.get(winner, winner)} holds "
                f"{held} supply centres. Thank you for playing.")
    if mine and not any(_orders_due(after.typed, power) for power in mine):
        return (f"You have nothing to order in {next_phase} (played by {_deadline(report)} "
                f"at the latest); your next orders are for {_next_orders(next_phase)}. "
                "Send MAP or STATUS for a fresh look.")
    return (f"Orders for {next_phase} by {_deadline(report)}. Write PHASE "
            f"{next_phase} in your mail; send MAP or STATUS for a fresh look.")


def _orders_due(position: Position | None, power: str) -> bool:
    """Has the power anything to order in the position's phase (DD1)? By the
    engine's own rules; unsure (a position it cannot read, None): yes."""
    from pbmref.rules.diplomacy.adjust import orders_due

    return True if position is None else orders_due(position, power)


def _next_orders(phase: str) -> str:
    """The phase after ``phase`` in which a power with nothing to order in it
    orders again (DD1): a Winter's builds only if the Fall leaves it some.

    >>> _next_orders("W1901A"), _next_orders("S1902R")
    ('S1902M', 'F1902M')
    >>> _next_orders("F1902R")
    'W1902A if you build or remove units then, else S1903M'
    """
    season, year, kind = phase[:1], int(phase[1:-1]), phase[-1:]
    if kind == "A":
        return f"S{year + 1}M"
    if season == "S" and kind == "R":
        return f"F{year}M"
    return f"W{year}A if you build or remove units then, else S{year + 1}M"


def render_position_text(data: Mapping[str, object], names: Mapping[str, str] | None = None,
                         title: str = "") -> str:
    """The answer to MAP in a Diplomacy game: the board at the start of the open phase
    (``names``: the players' names, which the board does not show)."""
    del names
    position = PositionView.read(data)
    phase = position.phase if "phase" in data else "?"
    head = f"{title + ': ' if title else ''}the board at the start of {phase} " \
           f"({phase_words(phase)})"
    lines = wrap(head, "", "  ")
    sections = [s for s in (_retreat_section(position),
                            _centre_section(position, when="NOW")) if s]
    return "\n".join(fit_width(lines + Document(sections).text().rstrip("\n").split("\n"))) \
        + "\n"


def render_events(events: Sequence[Event]) -> list[str]:
    """A phase's events as plain text lines (English), in order.

    >>> render_events([Event("order", power="FRA", order="FRA A Bur - Bel", outcome="succeeds"),
    ...                Event("captured", power="FRA", province="Bel")])
    ['FRA A Bur - Bel: succeeds', 'FRA takes Bel']
    """
    out: list[str] = []
    for e in events:
        kind = e.kind
        rule = f" ({e.rule})" if e.rule else ""
        power = e.power or ""
        if kind == "order":
            reason = f" ({e.reason})" if e.reason else ""
            out.append(f"{e.order}: {e.outcome}{reason}")
        elif kind == "dislodged":
            by = f" from {e.province}" if e.province else ""
            out.append(f"{power} {e.unit} is dislodged{by}")
        elif kind == "disbanded":
            out.append(f"{power} {e.unit} is disbanded: {e.reason or ''}{rule}")
        elif kind == "devastated":
            out.append(f"{power} devastates {e.province}{rule}")
        elif kind == "captured":
            frm = f" ({e.reason})" if e.reason else ""
            out.append(f"{power} takes {e.province}{frm}")
        elif kind == "built":
            out.append(f"{power} builds {e.unit}")
        elif kind == "removed":
            out.append(f"{power} removes {e.unit}: {e.reason or ''}{rule}")
        elif kind == "winner":
            out.append(f"{power} wins the game{rule}")
        else:
            out.append(" ".join(f"{k}={v}" for k, v in e.to_dict().items()))
    return out
