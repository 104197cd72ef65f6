"""Diplomacy and Dirigible Diplomacy: the turn report and the map picture.

A Diplomacy game in the store plays one phase per turn folder (DD1); players
know a turn by its phase (``S1901M``), so everything here names phases.

- ``render_diplomacy_report(report)``: the whole text report of one phase
  (every order with its result in the words of rule DD2a, dislodgements and
  retreat options, captures, devastation (DD10), builds and removals, supply
  centres per power, supply points (DD11, dirigible game), the winner (DD4,
  DD14) and the next deadline), at most 70 columns a line.
- ``render_position_text(position, names)``: the board as text (the MAP reply).
- ``render_diplomacy_svg(position)``: a schematic SVG map of the standard
  board: one marker per province at hand-placed coordinates
  (``pbmref/data/diplomacy/layout.json``), sea in blue, supply centres
  marked in their owner's colour, borders drawn as lines between neighbours,
  and one ``class="unit"`` element per unit in its province (or coast).

Map data: the standard board of the TedDriggs/diplomacy project (MIT); see
``pbmref/data/diplomacy/NOTICE``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import lru_cache
from importlib import resources
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from pbmref.reports.common import WIDTH, fit_width, wrap
from pbmref.reports.model import TurnReport
from pbmref.rules.diplomacy.state import Variant

__all__ = [
    "POWER_COLOURS",
    "phase_words",
    "render_diplomacy_report",
    "render_diplomacy_svg",
    "render_events",
    "render_position_text",
]

RULE = "=" * WIDTH

# The customary colours of the powers on the board.
POWER_COLOURS: dict[str, str] = {
    "AUS": "#d62728", "ENG": "#1f3a93", "FRA": "#4aa3df", "GER": "#4d4d4d",
    "ITA": "#2ca02c", "RUS": "#8e44ad", "TUR": "#e6b800",
}
_LIGHT: dict[str, str] = {
    "AUS": "#f2b8b8", "ENG": "#b8c2e6", "FRA": "#c4e3f7", "GER": "#cfcfcf",
    "ITA": "#bfe6bf", "RUS": "#dcc4e8", "TUR": "#f7e9a6",
}
_SEASONS = {"S": "Spring", "F": "Fall", "W": "Winter"}
_KINDS = {"M": "movement", "R": "retreats", "A": "adjustments"}


def _dirigible(data: Mapping[str, Any]) -> bool:
    """A Dirigible Diplomacy position (its own variant of the rules, DD5-DD14)."""
    return Variant(str(data.get("ruleset") or Variant.STANDARD)) is Variant.DIRIGIBLE


def phase_words(phase: Any) -> str:
    """``S1901M`` -> ``Spring 1901 movement`` (DD1); anything else as it is."""
    text = str(phase or "").strip().upper()
    if len(text) == 6 and text[0] in _SEASONS and text[5] in _KINDS and text[1:5].isdigit():
        return f"{_SEASONS[text[0]]} {text[1:5]} {_KINDS[text[5]]}"
    return text or "?"


def _power_names() -> dict[str, str]:
    from pbmref.rules.diplomacy.map import POWER_NAMES

    return dict(POWER_NAMES)


def _players_of(position: Mapping[str, Any]) -> dict[str, str]:
    """power -> player id (from the position's ``players`` map)."""
    players = position.get("players") or {}
    out: dict[str, str] = {}
    if isinstance(players, Mapping):
        for pid, power in players.items():
            out[str(power).upper()] = str(pid)
    return out


def _power_label(power: str, position: Mapping[str, Any], names: Mapping[str, str]) -> str:
    full = _power_names().get(power, power)
    pid = _players_of(position).get(power)
    if pid is None:
        return f"{full} ({power}, nobody: civil disorder)"
    return f"{full} ({power}, {names.get(pid) or pid})"


def _mapping(value: Any) -> dict[str, Any]:
    return dict(value) if isinstance(value, Mapping) else {}


def _list(value: Any) -> list[str]:
    return [str(v) for v in value] if isinstance(value, list | tuple) else []


def _counts(position: Mapping[str, Any]) -> dict[str, tuple[int, int, int]]:
    """power -> (centres owned, centres that are not devastated, units)."""
    from pbmref.rules.diplomacy import POWERS

    centers = _mapping(position.get("centers"))
    units = _mapping(position.get("units"))
    devastated = {d.lower() for d in _list(position.get("devastated"))}
    out = {}
    for power in POWERS:
        mine = _list(centers.get(power))
        scoring = [c for c in mine if c.lower() not in devastated]
        out[power] = (len(mine), len(scoring), len(_list(units.get(power))))
    return out


def _supply_points(position: Mapping[str, Any]) -> dict[str, tuple[int, int]]:
    """DD11: power -> (supply points, upkeep of its units), dirigible game only."""
    from pbmref.rules.diplomacy import POWERS
    from pbmref.rules.diplomacy.dirigible import POINTS_PER_CENTER, UPKEEP
    from pbmref.rules.diplomacy.state import UnitType

    centers = _mapping(position.get("centers"))
    units = _mapping(position.get("units"))
    devastated = {d.lower() for d in _list(position.get("devastated"))}
    out = {}
    for power in POWERS:
        points = POINTS_PER_CENTER * sum(
            1 for c in _list(centers.get(power)) if c.lower() not in devastated)
        upkeep = 0
        for u in _list(units.get(power)):
            try:
                upkeep += UPKEEP[UnitType(u.split()[0].upper())]
            except (ValueError, IndexError):
                continue
        out[power] = (points, upkeep)
    return out


# ---------------------------------------------------------------- text


def _result_text(e: Mapping[str, Any]) -> str:
    outcome = str(e.get("outcome") or e.get("result") or "?")
    reason = str(e.get("reason") or "")
    return f"{outcome}: {reason}" if reason else outcome


def _strip_power(order: str, power: str) -> str:
    return order[len(power) + 1:] if order.upper().startswith(power + " ") else order


def _orders_section(report: TurnReport, names: Mapping[str, str]) -> list[str]:
    from pbmref.rules.diplomacy import POWERS

    before = report.position_before
    phase = str(before.get("phase", ""))
    kind = phase[-1:] if phase else "M"
    by_power: dict[str, list[dict[str, Any]]] = {}
    for e in report.events:
        if e.get("kind") == "order":
            power = str(e.get("power") or str(e.get("order", "")).split(" ")[0]).upper()
            by_power.setdefault(power, []).append(e)
    units = _mapping(before.get("units"))
    dislodged = _mapping(before.get("dislodged"))
    retreats = _mapping(before.get("retreats"))
    lines = ["", f"ORDERS AND RESULTS OF {phase} (secret until now)", ""]
    for power in POWERS:
        given = by_power.get(power, [])
        has_units = bool(_list(units.get(power)))
        must_retreat = bool(dislodged.get(power) or retreats.get(power))
        if not given:
            if kind == "M" and has_units:
                why = "no orders: every unit holds (DD3)"
            elif kind == "R" and must_retreat:
                why = "no orders: its dislodged units are disbanded (DD3)"
            elif kind == "A" and _adjusts(before, power) != 0:
                why = ("no orders: nothing built (DD3)" if _adjusts(before, power) > 0 else
                       "no orders: units removed in civil disorder (DD3"
                       + (", DD11)" if _dirigible(report.position_before) else ")"))
            else:
                continue
            lines += wrap(f"{_power_label(power, before, names)}: {why}", "  ", "    ")
            continue
        lines += wrap(f"{_power_label(power, before, names)}:", "  ", "    ")
        for e in given:
            order = _strip_power(str(e.get("order", "")), power)
            lines += wrap(f"{order} - {_result_text(e)}", "    ", "        ")
    if len(lines) == 3:
        lines.append("  No orders were given in this phase.")
    return lines


def _adjusts(position: Mapping[str, Any], power: str) -> int:
    """+1 when the power may build, -1 when it must remove, 0 when it has nothing
    to order in a Winter adjustment (DD1, DD11), by the engine's own rules."""
    from pbmref.rules.diplomacy import standard_map
    from pbmref.rules.diplomacy.adjust import balance, may_adjust
    from pbmref.rules.diplomacy.codec import position_from_dict
    from pbmref.rules.plaindata import PositionError

    try:
        pos = position_from_dict(position)
    except PositionError:
        return 0
    if not may_adjust(pos, standard_map(), power):
        return 0
    return -1 if balance(pos, power) < 0 else 1


def _events_section(report: TurnReport, names: Mapping[str, str]) -> list[str]:
    out: list[str] = []
    for e in report.events:
        kind = e.get("kind")
        power = str(e.get("power", ""))
        rule = f" ({e['rule']})" if e.get("rule") else ""
        if kind == "dislodged":
            frm = f" by the attack from {e['province']}" if e.get("province") else ""
            out.append(f"{power} {e.get('unit')} is dislodged{frm}.")
        elif kind == "disbanded":
            out.append(f"{power} {e.get('unit')} is disbanded: {e.get('reason', '')}{rule}.")
        elif kind == "devastated":
            out.append(f"{power} devastates {e.get('province')}: it counts for nobody "
                       f"in the next Winter{rule}.")
        elif kind == "captured":
            frm = f" {e['reason']}" if e.get("reason") else ""
            out.append(f"{power} takes {e.get('province')}{frm}.")
        elif kind == "built":
            out.append(f"{power} builds {e.get('unit')}.")
        elif kind == "removed":
            out.append(f"{power} removes {e.get('unit')}: {e.get('reason', '')}{rule}.")
        elif kind == "winner":
            pass  # in the header and the centre table
        elif kind != "order":
            out.append(" ".join(f"{k}={v}" for k, v in e.items()))
    if not out:
        return []
    lines = ["", "WHAT ELSE HAPPENED", ""]
    for text in out:
        lines += wrap(text, "  ", "    ")
    return lines


def _retreat_section(after: Mapping[str, Any]) -> list[str]:
    retreats = _mapping(after.get("retreats")) or _mapping(after.get("dislodged"))
    if not retreats:
        return []
    lines = ["", f"RETREATS TO ORDER IN {after.get('phase', '')}", ""]
    for power in sorted(retreats):
        for entry in retreats[power] or []:
            entry = _mapping(entry)
            options = _list(entry.get("options"))
            where = (", ".join(options) + ", or disband") if options else "disband only"
            frm = f" (attacked from {entry['attacker_from']})" if entry.get(
                "attacker_from") else ""
            lines += wrap(f"{power} {entry.get('unit')}{frm}: retreat to {where}.",
                          "  ", "    ")
    lines += wrap("A dislodged unit without a retreat order is disbanded (DD3).", "  ", "  ")
    return lines


def _centre_table(position: Mapping[str, Any], names: Mapping[str, str],
                  when: str = "AFTER THIS PHASE") -> list[str]:
    from pbmref.rules.diplomacy import POWERS
    from pbmref.rules.diplomacy.dirigible import WIN_DIRIGIBLE, WIN_STANDARD

    dirigible = _dirigible(position)
    need = WIN_DIRIGIBLE if dirigible else WIN_STANDARD
    counts = _counts(position)
    points = _supply_points(position) if dirigible else {}
    centers = _mapping(position.get("centers"))
    units = _mapping(position.get("units"))
    head = "SUPPLY CENTRES" + (" AND SUPPLY POINTS (DD11)" if dirigible else "")
    lines = ["", f"{head} {when}".rstrip(), ""]
    if dirigible:
        lines.append("  Power  Centres  Count  Points  Upkeep  Units")
    else:
        lines.append("  Power  Centres  Units")
    for power in POWERS:
        owned, scoring, n_units = counts[power]
        if dirigible:
            pts, upkeep = points[power]
            lines.append(f"  {power:<6} {owned:>7}  {scoring:>5}  {pts:>6}  {upkeep:>6}  "
                         f"{n_units:>5}")
        else:
            lines.append(f"  {power:<6} {owned:>7}  {n_units:>5}")
    lines.append("")
    if dirigible:
        lines += wrap("Count: centres not devastated, which score for victory (DD14, "
                      f"{need} win). Points: 5 a counted centre; upkeep 4 an army or "
                      "fleet, 3 a dirigible (DD11).", "  ", "  ")
    else:
        lines += wrap(f"{need} centres win (DD4).", "  ", "  ")
    devastated = _list(position.get("devastated"))
    if devastated:
        lines += wrap(f"Devastated this year (DD10): {', '.join(devastated)}.", "  ", "    ")
    lines += ["", "UNITS", ""]
    for power in POWERS:
        u = _list(units.get(power))
        if u:
            lines += wrap(f"{power}: {', '.join(u)}", "  ", "         ")
    lines += ["", "CENTRES", ""]
    for power in POWERS:
        c = _list(centers.get(power))
        if c:
            lines += wrap(f"{power}: {', '.join(c)}", "  ", "         ")
    from pbmref.rules.diplomacy import standard_map
    from pbmref.rules.diplomacy.map import display

    taken = {x.lower() for v in centers.values() for x in _list(v)}
    neutral = sorted(display(p) for p in standard_map().supply_centers() if p not in taken)
    if neutral:
        lines += wrap(f"Neutral centres: {', '.join(neutral)}", "  ", "    ")
    return lines


def _deadline(report: TurnReport) -> str:
    from pbmref.reports.text import format_deadline

    return format_deadline(report.next_deadline, report.timezone)


def render_diplomacy_report(report: TurnReport) -> str:
    """The report of one adjudicated Diplomacy phase, every line at most 70 columns."""
    from pbmref.rules.diplomacy import POWERS

    names = dict(report.names)
    before, after = report.position_before, report.position_after
    phase = str(before.get("phase", report.turn))
    next_phase = str(after.get("phase", ""))
    variant = "Dirigible Diplomacy" if _dirigible(report.position_before) else "Diplomacy"
    title = (report.title or report.game_id).upper()
    tag = f"game {report.game_id}"
    lines = [RULE]
    if len(title) + len(tag) + 4 <= WIDTH:
        lines.append(f"  {title}{' ' * (WIDTH - 2 - len(title) - len(tag))}{tag}")
    else:
        lines += wrap(title, "  ") + [f"  {tag}"]
    lines += wrap(f"{variant} - report of {phase} ({phase_words(phase)})", "  ", "    ")
    winner = str(after.get("winner") or "") or (report.winners[0] if report.winners else "")
    if report.game_over or winner:
        lines += wrap(f"GAME OVER. {_power_label(winner, after, names)} wins "
                      f"({'DD14' if _dirigible(report.position_before) else 'DD4'}).", "  ", "    ")
    else:
        lines += wrap(f"Next: {next_phase} ({phase_words(next_phase)}), orders by "
                      f"{_deadline(report)}", "  ", "    ")
    lines.append(RULE)
    lines += ["", "POWERS", ""]
    counts = _counts(after)
    for power in POWERS:
        out = "" if any(counts[power][i] for i in (0, 2)) else ": out of the game"
        lines += wrap(_power_label(power, after, names) + out, "  ", "    ")
    lines += _orders_section(report, names)
    lines += _events_section(report, names)
    lines += _retreat_section(after)
    lines += _centre_table(after, names)
    lines += ["", RULE]
    if report.game_over or winner:
        held = counts.get(winner, (0, 0, 0))[1]
        lines += wrap(f"The game is over: {_power_names().get(winner, winner)} holds "
                      f"{held} supply centres. Thank you for playing.", "  ", "  ")
    else:
        lines += wrap(f"Orders for {next_phase} by {_deadline(report)}. Write PHASE "
                      f"{next_phase} in your mail; send MAP or STATUS for a fresh look.",
                      "  ", "  ")
    lines.append(RULE)
    return "\n".join(fit_width(lines)) + "\n"




def render_position_text(position: Mapping[str, Any], names: Mapping[str, str] | None = None,
                         title: str = "") -> str:
    """The answer to MAP in a Diplomacy game: the board at the start of the open phase."""
    names = dict(names or {})
    phase = str(position.get("phase", "?"))
    head = f"{title + ': ' if title else ''}the board at the start of {phase} " \
           f"({phase_words(phase)})"
    lines = wrap(head, "", "  ")
    lines += _retreat_section(position)
    lines += _centre_table(position, names, when="NOW")
    return "\n".join(fit_width(lines)) + "\n"


# ---------------------------------------------------------------- SVG


@lru_cache(maxsize=1)
def _layout() -> dict[str, Any]:
    path = resources.files("pbmref") / "data" / "diplomacy" / "layout.json"
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def _xy(prov: str, coast: str = "") -> tuple[float, float]:
    layout = _layout()
    if coast:
        point = layout["coasts"].get(f"{prov}/{coast}")
        if point:
            return float(point[0]), float(point[1])
    x, y = layout["provinces"][prov]
    return float(x), float(y)


def _parse_unit(text: str) -> tuple[str, str, str]:
    """``F StP/sc`` -> (``F``, ``stp``, ``sc``)."""
    kind, _, where = text.strip().partition(" ")
    where = where.strip().lower().replace("(", "/").replace(")", "")
    prov, _, coast = where.partition("/")
    return kind.upper(), prov.strip(), coast.strip()


def _unit_svg(power: str, text: str, *, css: str = "unit") -> str:
    kind, prov, coast = _parse_unit(text)
    x, y = _xy(prov, coast)
    colour = POWER_COLOURS.get(power, "#777777")
    dashed = ' stroke-dasharray="3 2"' if css != "unit" else ""
    if css != "unit":  # a dislodged unit: beside the one that took its place
        x, y = x + 14, y + 10
    if kind == "D":  # the air layer (DD6): above and to the right of the province
        x, y = x + 12, y - 14
        shape = (f'<ellipse cx="{x:.0f}" cy="{y:.0f}" rx="12" ry="7" fill="{colour}" '
                 f'stroke="#000" stroke-width="1"{dashed}/>')
    elif kind == "F":
        x, y = x - 8, y + 8
        shape = (f'<rect x="{x - 9:.0f}" y="{y - 7:.0f}" width="18" height="14" rx="2" '
                 f'fill="{colour}" stroke="#000" stroke-width="1"{dashed}/>')
    else:
        x, y = x - 8, y + 8
        shape = (f'<circle cx="{x:.0f}" cy="{y:.0f}" r="9" fill="{colour}" stroke="#000" '
                 f'stroke-width="1"{dashed}/>')
    label = (f'<text x="{x:.0f}" y="{y + 4:.0f}" text-anchor="middle" font-size="10" '
             f'font-weight="bold" fill="#fff">{escape(kind)}</text>')
    attrs = (f'class={quoteattr(css)} data-power={quoteattr(power)} '
             f'data-unit={quoteattr(text)} data-province={quoteattr(prov)} '
             f'data-coast={quoteattr(coast)} fill={quoteattr(colour)}')
    return f'<g {attrs}><title>{escape(power)} {escape(text)}</title>{shape}{label}</g>'


def render_diplomacy_svg(position: Mapping[str, Any], *, title: str = "") -> str:
    """The board of a Diplomacy position as a standalone SVG document."""
    from pbmref.rules.diplomacy import POWERS, standard_map
    from pbmref.rules.diplomacy.map import display

    m = standard_map()
    layout = _layout()
    width, height = layout["size"]
    owners: dict[str, str] = {}
    for power, items in _mapping(position.get("centers")).items():
        for c in _list(items):
            owners[c.lower()] = str(power).upper()
    devastated = {d.lower() for d in _list(position.get("devastated"))}
    phase = str(position.get("phase", ""))
    heading = title or f"{phase} ({phase_words(phase)})"
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height + 40}" '
        f'width="{width}" height="{height + 40}" font-family="sans-serif">',
        f"<title>{escape(heading)}</title>",
        f'<rect x="0" y="0" width="{width}" height="{height + 40}" fill="#dfeaf3"/>',
        '<g class="borders" stroke="#8a8a8a" stroke-width="1.2">',
    ]
    seen: set[tuple[str, str]] = set()
    for a, neighbours in sorted(m.any_adj.items()):
        for b in sorted(neighbours):
            if (b, a) in seen or a not in layout["provinces"] or b not in layout["provinces"]:
                continue
            seen.add((a, b))
            (x1, y1), (x2, y2) = _xy(a), _xy(b)
            out.append(f'<line class="border" x1="{x1:.0f}" y1="{y1:.0f}" '
                       f'x2="{x2:.0f}" y2="{y2:.0f}"/>')
    out.append("</g>")
    out.append('<g class="provinces">')
    for prov in sorted(m.provinces):
        if prov not in layout["provinces"]:
            continue
        x, y = _xy(prov)
        terrain = m.terrain(prov)
        owner = owners.get(prov)
        if terrain == "sea":
            shape = (f'<ellipse cx="{x:.0f}" cy="{y:.0f}" rx="30" ry="20" fill="#9cc3e4" '
                     f'stroke="#5b8db8"/>')
        else:
            fill = _LIGHT.get(owner, "#efe6cf") if owner else (
                "#d9d4c7" if prov == "swi" else "#efe6cf")
            shape = (f'<rect x="{x - 26:.0f}" y="{y - 18:.0f}" width="52" height="36" rx="9" '
                     f'fill="{fill}" stroke="#8f8468"/>')
        name = escape(display(prov))
        label = (f'<text x="{x:.0f}" y="{y - 6:.0f}" text-anchor="middle" font-size="9" '
                 f'fill="#333">{name}</text>')
        out.append(f'<g class="province {terrain}" id="prov-{prov}"><title>'
                   f"{escape(m.name_of(prov))}</title>{shape}{label}</g>")
        if m.is_supply_center(prov):
            colour = POWER_COLOURS.get(owner or "", "#ffffff")
            out.append(f'<circle class="sc" data-province="{prov}" '
                       f'data-owner="{owner or ""}" cx="{x + 18:.0f}" cy="{y + 10:.0f}" r="4.5" '
                       f'fill="{colour}" stroke="#000" stroke-width="1"/>')
        if prov in devastated:
            out.append(f'<path class="devastated" data-province="{prov}" '
                       f'd="M{x - 20:.0f},{y - 14:.0f} L{x + 20:.0f},{y + 14:.0f} '
                       f'M{x + 20:.0f},{y - 14:.0f} L{x - 20:.0f},{y + 14:.0f}" '
                       f'stroke="#b00000" stroke-width="3"/>')
    for key, (cx, cy) in sorted(layout["coasts"].items()):
        out.append(f'<circle class="coast" data-coast="{key}" cx="{cx}" cy="{cy}" r="3" '
                   f'fill="#5b8db8"/>')
    out.append("</g>")
    out.append('<g class="units">')
    for power, items in sorted(_mapping(position.get("units")).items()):
        for text in _list(items):
            out.append(_unit_svg(str(power).upper(), text))
    for power, items in sorted(_mapping(position.get("dislodged")).items()):
        for entry in items or []:
            text = str(_mapping(entry).get("unit", entry)) if isinstance(entry, Mapping) \
                else str(entry)
            out.append(_unit_svg(str(power).upper(), text, css="dislodged"))
    out.append("</g>")
    # legend: powers, colours and centre counts
    counts = _counts(position)
    y0 = height + 8
    out.append(f'<g class="legend"><text x="10" y="{y0 + 16}" font-size="13" '
               f'font-weight="bold">{escape(heading)}</text>')
    x = 260
    for power in POWERS:
        owned, scoring, n_units = counts[power]
        out.append(f'<rect x="{x}" y="{y0 + 4}" width="14" height="14" '
                   f'fill="{POWER_COLOURS[power]}" stroke="#000"/>'
                   f'<text x="{x + 18}" y="{y0 + 16}" font-size="12">{power} {scoring}</text>')
        x += 100
    out.append("</g>")
    winner = position.get("winner")
    if winner:
        out.append(f'<text class="winner" x="{width / 2:.0f}" y="30" text-anchor="middle" '
                   f'font-size="22" font-weight="bold">{escape(str(winner))} wins</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def render_events(events: list[dict[str, Any]]) -> list[str]:
    """A phase's events as plain text lines (English), in order."""
    out: list[str] = []
    for e in events:
        kind = e.get("kind")
        rule = f" ({e['rule']})" if e.get("rule") else ""
        power = e.get("power", "")
        if kind == "order":
            reason = f" ({e['reason']})" if e.get("reason") else ""
            out.append(f"{e.get('order')}: {e.get('outcome')}{reason}")
        elif kind == "dislodged":
            by = f" from {e['province']}" if e.get("province") else ""
            out.append(f"{power} {e.get('unit')} is dislodged{by}")
        elif kind == "disbanded":
            out.append(f"{power} {e.get('unit')} is disbanded: {e.get('reason', '')}{rule}")
        elif kind == "devastated":
            out.append(f"{power} devastates {e.get('province')}{rule}")
        elif kind == "captured":
            frm = f" ({e['reason']})" if e.get("reason") else ""
            out.append(f"{power} takes {e.get('province')}{frm}")
        elif kind == "built":
            out.append(f"{power} builds {e.get('unit')}")
        elif kind == "removed":
            out.append(f"{power} removes {e.get('unit')}: {e.get('reason', '')}{rule}")
        elif kind == "winner":
            out.append(f"{power} wins the game{rule}")
        else:
            out.append(" ".join(f"{k}={v}" for k, v in e.items()))
    return out
