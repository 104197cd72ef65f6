"""The Diplomacy board as players know it: a geographic SVG of one phase.

``render_board(position, events, orders, mode=..., title=...)`` draws the
board of the position's variant (the shapes of the ``board.json`` of its
folder: the standard one cut from Natural Earth by
``scripts/build_diplomacy_board.py``, the others by
``scripts/build_diplomacy_variant_board.py``), in the colours of its powers,
with the position of a phase and, in ``mode="orders"``, every order of that
phase:

- provinces: sea, coast and inland land, Switzerland and the islands that
  are no province hatched; each supply-centre province tinted in its owner's
  colour, its dot in the owner's colour (white when neutral) with a ring in
  the colour of the power whose home centre it is; devastated centres (DD10)
  hatched in red with a cross on the dot; split coasts labelled;
- units: an army is a disc, a fleet a hull, a dirigible (DD5) a cigar drawn
  above its province on a tether, so an army or fleet and a dirigible in one
  province are both seen; names are never covered;
- orders (``mode="orders"``, on the position before the phase): a move is a
  solid arrow, a support a dashed line to the move it supports (ending in a
  dot on the unit, for a support to hold), a convoy a dotted arc along the
  army's route, which runs through the convoying fleets; a hold is a ring; a
  devastation (DD10) a dotted arrow from the dirigible to the centre. A failed move that bounced
  stops short at a red bar, any other failed order gets a red cross; a unit
  dislodged this phase gets a red ring. Retreats are hollow arrows (a
  solid line with a white core, unlike the dashes of a support and the dots
  of a convoy) from the dislodged unit; builds are ghost units with a plus,
  disbands a cross;
- ``mode="after"``: the position after the phase: dislodged units stand aside
  in their province with a red arrow from where the attack came and faint
  arrows to where they may retreat; new units and captured centres are ringed;
- a title, and a legend with the powers (centres, units, and supply points
  in the dirigible game), four to a row, and the symbols.

Everything comes in as plain data (scenario-schema position dicts, the
engine's typed events, order lines as ``{power: [line, ...]}``); the only
file read is the package's own board data. The colours are the Okabe-Ito
colour-blind-safe set.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Literal
from xml.sax.saxutils import escape, quoteattr

from pbmref.reports.model import FOCUS_HIGHEST, FOCUS_LABEL, FOCUS_SIZE, Focus, focus_box
from pbmref.rules.diplomacy import orders as typed
from pbmref.rules.diplomacy.events import Event
from pbmref.rules.diplomacy.map import Loc, display, map_text
from pbmref.rules.diplomacy.orders import Order, parse_key, parse_loc, parse_unit
from pbmref.rules.diplomacy.retreat import options_for
from pbmref.rules.diplomacy.state import Position, Unit
from pbmref.rules.diplomacy.variant import VariantSpec, variant_of

__all__ = ["BOARD_COLOURS", "power_focus", "render_board"]

Mode = Literal["orders", "after"]
Point = tuple[float, float]

# Okabe-Ito colours: distinct for the common colour-vision deficiencies.
# England (reddish purple) and France (sky blue) are of different hues, and
# France is the only blue power, lighter than the sea.
BOARD_COLOURS: dict[str, str] = {
    "AUS": "#D55E00",  # vermillion
    "ENG": "#CC79A7",  # reddish purple
    "FRA": "#56B4E9",  # sky blue
    "GER": "#4D4D4D",  # dark grey
    "ITA": "#009E73",  # bluish green
    "RUS": "#E69F00",  # orange
    "TUR": "#F0E442",  # yellow
}
_INK = "#222222"
_RED = "#C0001A"
_GREEN = "#006B3C"
_SEA = "#8FB4D8"  # France's tinted land stays apart from it in every simulation (tests/reports/test_palette_cvd.py)
_SEA_LINE = "#C8DCEC"
_LAND = "#F2EBD9"
_LAND_LINE = "#8C7B5E"
_VOID = "#D9D3C6"
_HEAD = 48.0  # height of the title strip
_FONT = "DejaVu Sans, Verdana, Arial, sans-serif"


# --------------------------------------------------------------------------- board data


@lru_cache(maxsize=8)
def _board(folder: str) -> dict[str, Any]:
    """The board data of a variant's folder, its shapes written short (``_relative``)."""
    text = map_text(folder, "board.json")
    data: dict[str, Any] = json.loads(text)
    for p in data["provinces"].values():
        p["path"] = _relative(p["path"])
    data["impassable"] = {k: _relative(d) for k, d in data["impassable"].items()}
    data["lakes"] = [_relative(d) for d in data.get("lakes", [])]
    return data


def _tenths(t: int) -> str:
    """A whole number of tenths as the SVG number: 12 -> ``1.2``, -5 -> ``-.5``, 30 -> ``3``."""
    whole, tenth = divmod(abs(t), 10)
    digits = (str(whole) if whole else "") + (f".{tenth}" if tenth else "") or "0"
    return f"-{digits}" if t < 0 else digits


def _relative(path: str) -> str:
    """A shape of the board data (``M x y L x y ... Z``, one decimal) in relative
    steps, which say the same in about 60% of the bytes: a picture goes out in
    every report mail. Steps are counted in tenths, so nothing drifts.

    >>> _relative("M10.0 20.5L11.5 20.0L10.0 22.0Z")
    'M10 20.5l1.5-.5-1.5 2z'
    """
    out = []
    for part in re.findall(r"M[^M]*", path):
        nums = [round(float(v) * 10) for v in re.findall(r"-?\d+(?:\.\d*)?", part)]
        points = list(zip(nums[::2], nums[1::2], strict=True))
        x, y = points[0]
        text = f"M{_tenths(x)} {_tenths(y)}"
        steps = ""
        for a, b in points[1:]:
            for step in (_tenths(a - x), _tenths(b - y)):
                steps += step if not steps or step.startswith("-") else " " + step
            x, y = a, b
        out.append(text + (f"l{steps}" if steps else "") + ("z" if "Z" in part else ""))
    return "".join(out)


def _tint(colour: str, amount: float) -> str:
    """``colour`` mixed with the land colour: ``amount`` of the colour."""
    c = [int(colour[i:i + 2], 16) for i in (1, 3, 5)]
    base = [int(_LAND[i:i + 2], 16) for i in (1, 3, 5)]
    mixed = [round(b + (x - b) * amount) for x, b in zip(c, base, strict=True)]
    return "#" + "".join(f"{v:02X}" for v in mixed)


def _text_on(colour: str) -> str:
    """Black or white, whichever reads better on ``colour``."""
    r, g, b = (int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5))
    return "#111111" if 0.299 * r + 0.587 * g + 0.114 * b > 0.55 else "#FFFFFF"


def _f(v: float) -> str:
    return f"{v:.1f}".rstrip("0").rstrip(".")


def _pt(p: Point) -> str:
    return f"{_f(p[0])},{_f(p[1])}"


# --------------------------------------------------------------------------- reading

@dataclass
class _Order:
    """An order as the board draws it: its kind, places and result."""

    power: str
    kind: str  # hold move retreat support convoy devastate build disband waive
    text: str
    unit: str = ""  # A, F or D
    at: Loc | None = None
    target_kind: str = ""
    target: Loc | None = None
    dest: Loc | None = None
    via_convoy: bool = False
    outcome: str = ""  # "", succeeds, fails
    reason: str = ""

    @property
    def failed(self) -> bool:
        return self.outcome == "fails"


def _drawn(order: Order, text: str, outcome: str = "", reason: str = "") -> _Order:
    """The board's view of a typed order (``text``: as the order was written)."""
    kind = type(order).__name__.lower()  # hold move retreat convoy ... supporthold
    o = _Order(order.power, "support" if kind.startswith("support") else kind, text,
               outcome=outcome, reason=reason)
    if isinstance(order, typed.Waive):
        return o
    o.unit, o.at = order.kind.value, order.loc
    if isinstance(order, typed.Move | typed.Retreat):
        o.dest = order.dest
        o.via_convoy = isinstance(order, typed.Move) and order.via_convoy
    elif isinstance(order, typed.SupportHold | typed.SupportMove):
        o.target_kind = order.target_kind.value if order.target_kind else ""
        o.target = order.target
        o.dest = order.dest if isinstance(order, typed.SupportMove) else None
    elif isinstance(order, typed.Convoy):
        o.target, o.dest = order.target, order.dest
    return o


def _orders_of(spec: VariantSpec, events: Sequence[Event],
               orders: Mapping[str, Sequence[Order]] | None, phase_kind: str) -> list[_Order]:
    """The orders of a phase: from the events of their results, else as given."""
    retreat = phase_kind == "R"
    results = [e for e in events if e.kind == "order" and e.order]
    if results:
        return [_drawn(parse_key(spec.map, spec.powers, (e.power or "").upper(), e.order or "",
                                 retreat=retreat), " ".join((e.order or "").split()),
                       e.outcome or "", e.reason or "")
                for e in results]
    return [_drawn(o, str(o)) for typed in (orders or {}).values() for o in typed]


@dataclass(frozen=True)
class _Unit:
    power: str
    kind: str
    loc: Loc

    @property
    def air(self) -> bool:
        return self.kind == "D"

    def text(self) -> str:
        name = display(self.loc.prov)
        return f"{self.kind} {name}/{self.loc.coast}" if self.loc.coast else f"{self.kind} {name}"


def _unit(u: Unit) -> _Unit:
    return _Unit(u.power, u.kind.value, u.loc)


# --------------------------------------------------------------------------- layout


class _Layout:
    """Where things go: the unit's place (per coast), the dirigible's place
    above the province (DD6), the place aside for a dislodged unit; all kept
    clear of the names by ``scripts/build_diplomacy_board.py``."""

    def __init__(self, board: Mapping[str, Any]) -> None:
        self.provinces: dict[str, Any] = board["provinces"]

    def ground(self, loc: Loc) -> Point:
        p = self.provinces[loc.prov]
        if loc.coast and loc.coast in p.get("coasts", {}):
            x, y = p["coasts"][loc.coast]["unit"]
        else:
            x, y = p.get("unit", p["label"])
        return float(x), float(y)

    def place(self, unit: _Unit) -> Point:
        return self.air(unit.loc.prov) if unit.air else self.ground(unit.loc)

    def air(self, prov: str) -> Point:
        x, y = self.provinces[prov].get("air", self.provinces[prov]["label"])
        return float(x), float(y)

    def aside(self, prov: str) -> Point:
        x, y = self.provinces[prov].get("aside", self.provinces[prov]["label"])
        return float(x), float(y)


_LABEL_SIZE = 10.5  # as scripts/build_diplomacy_board.py expects


# --------------------------------------------------------------------------- drawing helpers


def _towards(a: Point, b: Point, dist: float) -> Point:
    d = math.dist(a, b) or 1.0
    return a[0] + (b[0] - a[0]) * dist / d, a[1] + (b[1] - a[1]) * dist / d


def _along(a: Point, b: Point, t: float) -> Point:
    return a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t


def _head(tip: Point, back: Point, size: float) -> str:
    """An arrowhead's triangle at ``tip``, pointing away from ``back``."""
    d = math.dist(tip, back) or 1.0
    ux, uy = (tip[0] - back[0]) / d, (tip[1] - back[1]) / d
    bx, by = tip[0] - ux * size, tip[1] - uy * size
    w = size * 0.55
    return (f"M{_pt(tip)}L{_pt((bx - uy * w, by + ux * w))}"
            f"L{_pt((bx + uy * w, by - ux * w))}Z")


def _smooth(points: Sequence[Point]) -> str:
    """A path through ``points`` (Catmull-Rom turned into cubic Beziers)."""
    if len(points) == 2:
        return f"M{_pt(points[0])}L{_pt(points[1])}"
    out = [f"M{_pt(points[0])}"]
    pts = [points[0], *points, points[-1]]
    for i in range(1, len(pts) - 2):
        p0, p1, p2, p3 = pts[i - 1], pts[i], pts[i + 1], pts[i + 2]
        c1 = (p1[0] + (p2[0] - p0[0]) / 6, p1[1] + (p2[1] - p0[1]) / 6)
        c2 = (p2[0] - (p3[0] - p1[0]) / 6, p2[1] - (p3[1] - p1[1]) / 6)
        out.append(f"C{_pt(c1)} {_pt(c2)} {_pt(p2)}")
    return "".join(out)


def _cross(at: Point, size: float = 5.0, cls: str = "mark failed") -> str:
    x, y = at
    d = (f"M{_f(x - size)},{_f(y - size)}L{_f(x + size)},{_f(y + size)}"
         f"M{_f(x + size)},{_f(y - size)}L{_f(x - size)},{_f(y + size)}")
    return (f'<g class="{cls}"><path d="{d}" stroke="#FFFFFF" stroke-width="5" '
            f'stroke-linecap="round"/><path d="{d}" stroke="{_RED}" stroke-width="2.6" '
            'stroke-linecap="round"/></g>')


def _bar(tip: Point, back: Point, size: float = 7.0) -> str:
    """The bounce mark: a red bar across the end of a move that stopped short."""
    d = math.dist(tip, back) or 1.0
    ux, uy = (tip[0] - back[0]) / d, (tip[1] - back[1]) / d
    a = (tip[0] - uy * size, tip[1] + ux * size)
    b = (tip[0] + uy * size, tip[1] - ux * size)
    path = f"M{_pt(a)}L{_pt(b)}"
    return (f'<g class="mark bounce"><path d="{path}" stroke="#FFFFFF" stroke-width="6" '
            f'stroke-linecap="round"/><path d="{path}" stroke="{_RED}" stroke-width="3.2" '
            'stroke-linecap="round"/></g>')


def _snip(at: Point, along: Point, size: float = 6.0, cls: str = "mark cut") -> str:
    """The mark of a cut support (a support order cut by an attack on the
    supporter): two short parallel strokes across its line, as a line cut
    through, a shape of its own beside the bounce's bar and the failure's
    cross (colour is never the only cue)."""
    d = math.dist(at, along) or 1.0
    ux, uy = (along[0] - at[0]) / d, (along[1] - at[1]) / d  # along the line
    nx, ny = -uy, ux  # across it
    paths = []
    for shift in (-2.6, 2.6):
        cx, cy = at[0] + ux * shift, at[1] + uy * shift
        # each stroke leans a little along the line, like a cut
        a = (cx - nx * size - ux * 2.0, cy - ny * size - uy * 2.0)
        b = (cx + nx * size + ux * 2.0, cy + ny * size + uy * 2.0)
        paths.append(f"M{_pt(a)}L{_pt(b)}")
    d_attr = "".join(paths)
    return (f'<g class="{cls}"><path d="{d_attr}" stroke="#FFFFFF" stroke-width="5.2" '
            f'stroke-linecap="round"/><path d="{d_attr}" stroke="{_RED}" stroke-width="2.4" '
            'stroke-linecap="round"/></g>')


def _unit_icon(colour: str, power: str, kind: str, at: Point, *, css: str = "unit",
               extra: str = "", title: str = "") -> str:
    """One unit in the power's colour: a disc (army), a hull (fleet) or a cigar
    (dirigible), with the power's initial on it (colour is never the only cue)."""
    ink = _text_on(colour)
    x, y = at
    if kind == "F":
        shape = (f'<path d="M{_f(x - 11)},{_f(y - 4.5)}L{_f(x + 11)},{_f(y - 4.5)}'
                 f'L{_f(x + 7)},{_f(y + 6)}L{_f(x - 7)},{_f(y + 6)}Z" fill="{colour}" '
                 f'stroke="{_INK}" stroke-width="1.3" stroke-linejoin="round"/>')
        letter_y = y + 4
    elif kind == "D":
        shape = (f'<path d="M{_f(x + 9)},{_f(y)}L{_f(x + 14)},{_f(y - 5)}L{_f(x + 14)},'
                 f'{_f(y + 5)}Z" fill="{colour}" stroke="{_INK}" stroke-width="1"/>'
                 f'<ellipse cx="{_f(x)}" cy="{_f(y)}" rx="11" ry="6" fill="{colour}" '
                 f'stroke="{_INK}" stroke-width="1.3"/>'
                 f'<rect x="{_f(x - 3)}" y="{_f(y + 5.5)}" width="6" height="3" '
                 f'fill="{_INK}"/>')
        letter_y = y + 3.6
    else:
        shape = (f'<circle cx="{_f(x)}" cy="{_f(y)}" r="7.5" fill="{colour}" '
                 f'stroke="{_INK}" stroke-width="1.3"/>')
        letter_y = y + 3.7
    letter = (f'<text x="{_f(x)}" y="{_f(letter_y)}" text-anchor="middle" font-size="10" '
              f'font-weight="bold" fill="{ink}">{escape(power[:1].upper())}</text>')
    tip = f"<title>{escape(title)}</title>" if title else ""
    return (f'<g class={quoteattr(css)} data-power="{power}" data-kind="{kind}"{extra}>'
            f"{tip}{shape}{letter}</g>")


# --------------------------------------------------------------------------- the picture


class _Picture:
    def __init__(self, position: Position, events: Sequence[Event],
                 orders: Mapping[str, Sequence[Order]] | None, mode: Mode, title: str) -> None:
        if mode not in ("orders", "after"):
            raise ValueError(f"mode is 'orders' or 'after', not {mode!r}")
        self.position = position
        self.events = list(events)
        self.mode = mode
        self.title = title
        self.phase = str(position.phase)
        self.phase_kind = position.phase.kind
        self.dirigible = position.dirigible
        self.spec = variant_of(position)
        self.board = _board(self.spec.map_folder)
        self.layout = _Layout(self.board)
        self.units = [_unit(u) for u in sorted(position.units, key=lambda u: (u.power, str(u)))]
        self.owners: dict[str, str] = {prov: power for prov, power in position.centers}
        devastated = set(position.devastated)
        self.waiting = self._waiting()  # dislodged units standing aside
        self.orders = _orders_of(self.spec, self.events, orders, self.phase_kind) if mode == "orders" else []
        if mode == "orders":
            devastated |= {self.loc(e.province) for e in self.events
                           if e.kind == "devastated" and e.province}
        self.devastated = devastated
        self.places: dict[tuple[str, bool], Point] = {}
        for u in self.units:
            self.places[(u.loc.prov, u.air)] = self.layout.place(u)
        self.aside_places: dict[str, Point] = {}
        for u, _ in self.waiting:
            self.aside_places[u.loc.prov] = self.layout.aside(u.loc.prov)
        self.marks: list[str] = []  # drawn above the units: crosses, bars, rings

    def _waiting(self) -> list[tuple[_Unit, str]]:
        """Dislodged units standing aside, with the province of the attack."""
        if self.mode != "after" and self.phase_kind != "R":
            return []
        return [(_unit(d.unit), d.attacker_from or "")
                for d in sorted(self.position.dislodged, key=lambda d: d.unit.power)]

    def loc(self, text: str) -> str:
        """The province of a place an event names (``Par``, ``StP/sc``)."""
        return parse_loc(self.spec.map, text).prov

    def unit(self, power: str | None, text: str) -> _Unit:
        """A unit an event names (``A Par``)."""
        return _unit(parse_unit(self.spec.map, power or "", text))

    def colour(self, power: str) -> str:
        return self.spec.colours.get(power, "#999999")

    # -- places ---------------------------------------------------------------
    def unit_at(self, loc: Loc, kind: str = "") -> Point:
        """Where the unit ordered at ``loc`` is drawn."""
        air = kind == "D"
        if self.phase_kind == "R" and loc.prov in self.aside_places and not air:
            return self.aside_places[loc.prov]
        if (loc.prov, air) in self.places:
            return self.places[(loc.prov, air)]
        if air:
            return self.layout.air(loc.prov)
        return self.layout.ground(loc)

    def dest_at(self, loc: Loc, air: bool) -> Point:
        return self.layout.air(loc.prov) if air else self.layout.ground(loc)

    def occupied(self, loc: Loc, air: bool) -> bool:
        return (loc.prov, air) in self.places

    # -- everything -----------------------------------------------------------
    def render(self) -> str:
        data = self.board
        width, height = data["size"]
        legend = self._legend(width)
        total = _HEAD + height + legend[0]
        out = [
            f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {_f(width)} {_f(total)}" '
            f'width="{_f(width)}" height="{_f(total)}" font-family="{_FONT}" '
            f'role="img" aria-label={quoteattr(self.heading())}>',
            f"<title>{escape(self.heading())}</title>",
            _DEFS,
            f'<rect width="{_f(width)}" height="{_f(total)}" fill="#FFFFFF"/>',
            self._head(width),
            f'<g class="board" transform="translate(0,{_f(_HEAD)})">',
            f'<rect class="sea-ground" width="{_f(width)}" height="{height}" fill="{_SEA}"/>',
            self._provinces(),
            self._centres(),
            self._coasts(),
            f'<g class="orders">{self._orders()}</g>',
            f'<g class="units">{self._units()}</g>',
            f'<g class="marks">{"".join(self.marks)}</g>',
            self._labels(),
            f'<rect width="{_f(width)}" height="{height}" fill="none" stroke="{_INK}" '
            'stroke-width="1.5"/>',
            "</g>",
            f'<g class="legend" transform="translate(0,{_f(_HEAD + height)})">{legend[1]}</g>',
            "</svg>",
        ]
        return "\n".join(out) + "\n"

    def heading(self) -> str:
        if self.title:
            return self.title
        from pbmref.rulesets.diplomacy.report import phase_words

        words = phase_words(self.phase)
        if self.mode == "orders":
            return f"{words}: orders"
        winner = self.position.winner or ""
        if winner:  # DD4, DD14: the game is over
            return f"{words}: {self.spec.power_names.get(winner, winner)} wins"
        return f"{words}: the board"

    def _head(self, width: float) -> str:
        from pbmref.rulesets.diplomacy.report import phase_words

        variant = self.spec.title
        if self.mode == "orders":
            sub = f"{variant} · {self.phase} · orders and results"
        else:
            sub = f"{variant} · the position at the start of {self.phase} ({phase_words(self.phase)})"
        return (f'<g class="title"><text x="12" y="22" font-size="19" font-weight="bold" '
                f'fill="{_INK}">{escape(self.heading())}</text>'
                f'<text x="12" y="41" font-size="13" fill="#555555">{escape(sub)}</text></g>')

    # -- the map --------------------------------------------------------------
    def _provinces(self) -> str:
        data = self.board
        sea, land, shore, over = [], [], [], []
        for name, p in sorted(data["provinces"].items()):
            d = p["path"]
            kind = p["kind"]
            title = f"<title>{escape(p['name'])}</title>"
            if kind == "sea":
                sea.append(f'<path class="province sea" id="p-{name}" data-province="{name}" '
                           f'd="{d}">{title}</path>')
                continue
            shore.append(f'<use href="#p-{name}"/>')  # the shape once, drawn twice
            if p.get("impassable"):
                land.append(f'<path class="province land impassable" id="p-{name}" '
                            f'data-province="{name}" d="{d}" fill="url(#void)">{title}</path>')
                continue
            owner = self.owners.get(name)
            fill = _tint(self.colour(owner), 0.42) if owner else _LAND
            land.append(f'<path class="province {kind}" id="p-{name}" data-province="{name}" '
                        f'd="{d}" fill="{fill}">{title}</path>')
            if name in self.devastated:
                over.append(f'<path class="devastated" data-province="{name}" d="{d}" '
                            'fill="url(#ruin)"/>')
        for d in data["impassable"].values():
            shore.append(f'<path d="{d}"/>')
            land.append(f'<path class="void" d="{d}" fill="url(#void)"/>')
        lakes = "".join(f'<path d="{d}"/>' for d in data.get("lakes", []))
        return (f'<g class="seas" fill="{_SEA}" stroke="{_SEA_LINE}" stroke-width="0.9" '
                f'fill-rule="evenodd">{"".join(sea)}</g>'
                f'<g class="shore" fill="none" stroke="#9CBEDC" stroke-width="4" '
                f'stroke-linejoin="round">{"".join(shore)}</g>'
                f'<g class="lands" stroke="{_LAND_LINE}" stroke-width="0.8" '
                f'stroke-linejoin="round" fill-rule="evenodd">{"".join(land)}</g>'
                f'<g class="lakes" fill="{_SEA}" stroke="#7C9DBB" stroke-width="0.6">{lakes}</g>'
                f'<g class="ruins">{"".join(over)}</g>')

    def _centres(self) -> str:
        out = []
        homes = {n: p.home for n, p in self.spec.map.provinces.items() if p.home}
        for name, p in sorted(self.board["provinces"].items()):
            if "sc" not in p:
                continue
            x, y = p["sc"]
            owner = self.owners.get(name)
            fill = self.colour(owner) if owner else "#FFFFFF"
            home = homes.get(name)
            ring = (f'<circle cx="{_f(x)}" cy="{_f(y)}" r="6.2" fill="none" '
                    f'stroke="{self.colour(home)}" stroke-width="1.8"/>') if home else ""
            ruin = _cross((x, y), 4.0, "mark ruin") if name in self.devastated else ""
            who = self.spec.power_names.get(owner, owner) if owner else "neutral"
            out.append(
                f'<g class="sc" data-province="{name}" data-owner="{owner or ""}">'
                f"<title>{escape(p['name'])}: supply centre ({escape(who)})</title>{ring}"
                f'<circle cx="{_f(x)}" cy="{_f(y)}" r="4" fill="{fill}" stroke="{_INK}" '
                f'stroke-width="1.2"/>{ruin}</g>')
        return f'<g class="centres">{"".join(out)}</g>'

    def _coasts(self) -> str:
        out = []
        for name, p in sorted(self.board["provinces"].items()):
            for coast, c in sorted(p.get("coasts", {}).items()):
                x, y = c["label"]
                out.append(f'<text class="coast" data-coast="{name}/{coast}" x="{_f(x)}" '
                           f'y="{_f(y)}" text-anchor="middle">{coast}</text>')
        return (f'<g class="coasts" font-size="9" font-style="italic" fill="#1F4E79" '
                f'stroke="{_SEA}" stroke-width="2.5" paint-order="stroke">{"".join(out)}</g>')

    def _labels(self) -> str:
        out = []
        for name, p in sorted(self.board["provinces"].items()):
            x, y = p["label"]
            sea = p["kind"] == "sea"
            cls = "label sea" if sea else "label"
            style = (' font-style="italic" fill="#1F4E79"' if sea else "")
            halo = _SEA if sea else "#FFFFFF"
            out.append(f'<text class="{cls}" x="{_f(x)}" y="{_f(y)}" text-anchor="middle" '
                       f'stroke="{halo}"{style}>{escape(display(name))}</text>')
        return (f'<g class="labels" font-size="{_f(_LABEL_SIZE)}" font-weight="bold" '
                f'fill="{_INK}" stroke-width="2.6" stroke-linejoin="round" '
                f'paint-order="stroke">{"".join(out)}</g>')

    # -- units ----------------------------------------------------------------
    def _units(self) -> str:
        out: list[str] = []
        for u in sorted(self.units, key=lambda u: u.air):
            at = self.places[(u.loc.prov, u.air)]
            if u.air:
                ground = self.layout.ground(Loc(u.loc.prov))
                out.append(f'<path class="tether" d="M{_pt(at)}L{_pt(ground)}" '
                           f'stroke="{_INK}" stroke-width="1" stroke-dasharray="2 2"/>')
                if not self.occupied(u.loc, False):
                    out.append(f'<ellipse cx="{_f(ground[0])}" cy="{_f(ground[1])}" rx="5" '
                               'ry="2" fill="#000000" opacity="0.25"/>')
            out.append(_unit_icon(self.colour(u.power), u.power, u.kind, at,
                                  title=f"{u.power} {u.text()}",
                                  extra=f' data-unit={quoteattr(u.text())} '
                                        f'data-province="{u.loc.prov}"'))
        for u, _ in self.waiting:
            at = self.aside_places[u.loc.prov]
            out.append(f'<circle class="mark dislodged" cx="{_f(at[0])}" cy="{_f(at[1])}" '
                       f'r="11.5" fill="#FFFFFF" fill-opacity="0.6" stroke="{_RED}" '
                       'stroke-width="2" stroke-dasharray="3 2"/>')
            out.append(_unit_icon(self.colour(u.power), u.power, u.kind, at,
                                  css="unit dislodged",
                                  title=f"{u.power} {u.text()} (dislodged)",
                                  extra=f' data-unit={quoteattr(u.text())} '
                                        f'data-province="{u.loc.prov}"'))
        return "".join(out)

    # -- orders ---------------------------------------------------------------
    def _orders(self) -> str:
        out: list[str] = []
        if self.mode == "after":
            out.extend(self._after_marks())
            return "".join(out)
        moves = {(o.at.prov, o.unit == "D"): o for o in self.orders
                 if o.kind in ("move", "retreat") and o.at and o.dest}
        drawn: dict[tuple[str, bool], tuple[Point, Point, Point]] = {}
        order = sorted(self.orders, key=lambda o: ["move", "retreat", "hold", "devastate",
                                                   "support", "convoy", "build", "disband",
                                                   "waive"].index(o.kind))
        for o in order:
            if o.kind in ("move", "retreat"):
                out.append(self._move(o, moves, drawn))
            elif o.kind == "hold":
                out.append(self._hold(o))
            elif o.kind == "devastate":
                out.append(self._devastate(o))
            elif o.kind == "support":
                out.append(self._support(o, drawn))
            elif o.kind == "convoy":
                out.append(self._convoy(o))
            elif o.kind == "build":
                out.append(self._build(o))
            elif o.kind == "disband":
                out.append(self._disband(o))
        for e in self.events:
            if e.kind == "dislodged" and e.unit:
                u = self.unit(e.power, e.unit)
                at = self.unit_at(u.loc, u.kind)
                self.marks.append(f'<circle class="mark dislodged" cx="{_f(at[0])}" '
                                  f'cy="{_f(at[1])}" r="12" fill="none" stroke="{_RED}" '
                                  'stroke-width="2.4" stroke-dasharray="4 2.5"/>')
        return "".join(out)

    def _g(self, o: _Order, body: str, extra: str = "") -> str:
        outcome = f' data-outcome="{o.outcome}"' if o.outcome else ""
        why = f": {o.outcome}" + (f" ({o.reason})" if o.reason else "") if o.outcome else ""
        return (f'<g class="order {o.kind}" data-power="{o.power}" '
                f'data-order={quoteattr(o.text)}{outcome}{extra}>'
                f"<title>{escape(o.text + why)}</title>{body}</g>")

    def _stroke(self, o: _Order, d: str, width: float, dash: str = "") -> str:
        colour = self.colour(o.power)
        dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
        fade = ' opacity="0.62"' if o.failed else ""
        return (f'<g{fade}><path d="{d}" fill="none" stroke="{_INK}" '
                f'stroke-width="{_f(width + 2.2)}" stroke-linecap="round" '
                f'stroke-linejoin="round" opacity="0.75"{dash_attr}/>'
                f'<path d="{d}" fill="none" stroke="{colour}" stroke-width="{_f(width)}" '
                f'stroke-linecap="round" stroke-linejoin="round"{dash_attr}/></g>')

    def _arrowhead(self, o: _Order, tip: Point, back: Point, size: float = 9.0) -> str:
        colour = self.colour(o.power)
        fade = ' opacity="0.62"' if o.failed else ""
        return (f'<path d="{_head(tip, back, size)}" fill="{colour}" stroke="{_INK}" '
                f'stroke-width="1.1" stroke-linejoin="round"{fade}/>')

    def _move(self, o: _Order, moves: Mapping[tuple[str, bool], _Order],
              drawn: dict[tuple[str, bool], tuple[Point, Point, Point]]) -> str:
        assert o.at and o.dest
        air = o.unit == "D"
        route = self._route(o, moves, air)
        first = _towards(route[0], route[1], 9.5)
        last_from = route[-2]
        stop = 11.0 if self.occupied(o.dest, air) or o.kind == "retreat" else 6.0
        tip = _towards(route[-1], last_from, stop)
        bounced = o.failed and o.reason == "bounced"
        if bounced:  # it stops short, inside the province it could not enter
            tip = _along(last_from, route[-1], 0.8) if len(route) == 2 else tip
        pts = [first, *route[1:-1], tip]
        if o.kind == "retreat":  # hollow: a solid line with a white core, and a hollow head
            body = self._stroke(o, _smooth(pts), 3.6) + _core(_smooth(pts))
            body += self._arrowhead(o, tip, last_from) + _core(_head(tip, last_from, 9.0), 1.0)
            if o.failed:
                self.marks.append(_cross(_along(route[-2], tip, 0.5)))
            drawn[(o.at.prov, air)] = (_along(first, tip, 0.55), tip, pts[-2])
            return self._g(o, body, f' data-from="{o.at.prov}" data-to="{o.dest.prov}"')
        body = self._stroke(o, _smooth(pts), 3.4)
        if bounced:
            body += self._arrowhead(o, tip, last_from, 8.0)
            self.marks.append(_bar(_towards(tip, last_from, -1.5), last_from))
        else:
            body += self._arrowhead(o, tip, last_from)
            if o.failed:
                self.marks.append(_cross(_along(route[-2], tip, 0.5)))
        drawn[(o.at.prov, air)] = (_along(pts[-2], tip, 0.45) if len(pts) > 2 else
                                   _along(first, tip, 0.55), tip, pts[-2])
        return self._g(o, body, f' data-from="{o.at.prov}" data-to="{o.dest.prov}"')

    def _route(self, o: _Order, moves: Mapping[tuple[str, bool], _Order],
               air: bool) -> list[Point]:
        """The points a move's arrow goes through: its unit, the convoying fleets
        (an army by convoy), its destination; a move that meets one coming the
        other way is drawn a little aside."""
        assert o.at and o.dest
        start = self.unit_at(o.at, o.unit)
        end = self.dest_at(o.dest, air)
        route = [start]
        if o.kind == "move" and o.unit == "A" and (
                o.via_convoy or not self.spec.map.army_move(o.at.prov, o.dest.prov)):
            route += [self.unit_at(f.at, "F") for f in self._convoy_chain(o) if f.at]
        route.append(end)
        back = moves.get((o.dest.prov, air))
        if back and back.dest and back.dest.prov == o.at.prov and len(route) == 2:
            d = math.dist(start, end) or 1.0
            nx, ny = -(end[1] - start[1]) / d * 4.5, (end[0] - start[0]) / d * 4.5
            route = [(start[0] + nx, start[1] + ny), (end[0] + nx, end[1] + ny)]
        return route

    def _convoy_chain(self, move: _Order) -> list[_Order]:
        """The fleets convoying ``move``, in order from its start to its end."""
        assert move.at and move.dest
        fleets = [o for o in self.orders if o.kind == "convoy" and o.target and o.dest
                  and o.target.prov == move.at.prov and o.dest.prov == move.dest.prov]
        m = self.spec.map
        chain: list[_Order] = []
        here = move.at.prov
        left = list(fleets)
        while left:
            nxt = next((f for f in left if f.at and m.adjacent(here, f.at.prov)), None)
            if nxt is None:
                break
            chain.append(nxt)
            left.remove(nxt)
            assert nxt.at
            here = nxt.at.prov
        return chain

    def _hold(self, o: _Order) -> str:
        assert o.at
        at = self.unit_at(o.at, o.unit)
        colour = self.colour(o.power)
        body = (f'<circle cx="{_f(at[0])}" cy="{_f(at[1])}" r="11" fill="none" '
                f'stroke="{_INK}" stroke-width="3.4" opacity="0.7"/>'
                f'<circle cx="{_f(at[0])}" cy="{_f(at[1])}" r="11" fill="none" '
                f'stroke="{colour}" stroke-width="2"/>')
        if o.failed and o.reason not in ("dislodged", ""):
            self.marks.append(_cross((at[0] + 9, at[1] - 9), 4))
        return self._g(o, body)

    def _devastate(self, o: _Order) -> str:
        assert o.at
        at = self.unit_at(o.at, "D")
        sc = self.board["provinces"][o.at.prov].get("sc") or self.layout.ground(o.at)
        target = (float(sc[0]), float(sc[1]))
        tip = _towards(target, at, 6.5)
        start = _towards(at, target, 7)
        body = self._stroke(o, f"M{_pt(start)}L{_pt(tip)}", 2.6, "2 2.5")
        body += self._arrowhead(o, tip, start, 7.5)
        if o.failed:
            self.marks.append(_cross(_along(start, tip, 0.5), 4))
        return self._g(o, body)

    def _support(self, o: _Order,
                 drawn: Mapping[tuple[str, bool], tuple[Point, Point, Point]]) -> str:
        assert o.at and o.target
        start = self.unit_at(o.at, o.unit)
        air_target = o.target_kind == "D"
        supported = drawn.get((o.target.prov, air_target)) if o.dest else None
        if o.dest:
            end = supported[0] if supported is not None else self.dest_at(o.dest, air_target)
            finish = "head"
        else:
            end = self.unit_at(o.target, o.target_kind)
            finish = "ring"
        first = _towards(start, end, 9.5)
        tip = _towards(end, first, 10.5 if finish == "ring" else 2.0)
        mid = _along(first, tip, 0.5)
        # a bend keeps the dashed line apart from the move it supports: away
        # from that move's line, and more so the closer the supporter is to it
        d = math.dist(first, tip) or 1.0
        nx, ny = -(tip[1] - first[1]) / d, (tip[0] - first[0]) / d
        bend = min(22.0, max(8.0, d * 0.22))
        if o.dest and supported is not None:
            a, b = supported[2], supported[1]
            side = (b[0] - a[0]) * (start[1] - a[1]) - (b[1] - a[1]) * (start[0] - a[0])
            toward = (b[0] - a[0]) * ny - (b[1] - a[1]) * nx
            if side * toward > 0:
                nx, ny = -nx, -ny
        ctrl = (mid[0] + nx * bend, mid[1] + ny * bend)
        path = f"M{_pt(first)}Q{_pt(ctrl)} {_pt(tip)}"
        body = self._stroke(o, path, 2.3, "5 3.5")
        if finish == "ring":  # a support to hold ends in a dot at the unit
            colour = self.colour(o.power)
            body += (f'<circle cx="{_f(tip[0])}" cy="{_f(tip[1])}" r="3.6" fill="{colour}" '
                     f'stroke="{_INK}" stroke-width="1.1"/>')
        else:
            body += self._arrowhead(o, tip, ctrl, 7.0)
        if o.failed and o.reason == "cut":
            self.marks.append(_snip(_quad(first, ctrl, tip, 0.5), _quad(first, ctrl, tip, 0.6)))
        elif o.failed:
            self.marks.append(_cross(_quad(first, ctrl, tip, 0.5), 4.5))
        return self._g(o, body, f' data-from="{o.at.prov}" data-to="{o.target.prov}"')

    def _convoy(self, o: _Order) -> str:
        assert o.at and o.target and o.dest
        at = self.unit_at(o.at, "F")
        army = self.unit_at(o.target, "A")
        dest = self.layout.ground(o.dest)
        # a dotted arc under the fleet, along the army's way from its start to its end
        d_in = _towards(at, army, 19)
        d_out = _towards(at, dest, 19)
        mid = ((d_in[0] + d_out[0]) / 2, (d_in[1] + d_out[1]) / 2)
        dist = math.dist(mid, at) or 1.0
        ctrl = (at[0] + (at[0] - mid[0]) / dist * 22, at[1] + (at[1] - mid[1]) / dist * 22)
        if dist < 2:
            ctrl = (at[0], at[1] + 22)
        path = f"M{_pt(d_in)}Q{_pt(ctrl)} {_pt(d_out)}"
        body = self._stroke(o, path, 2.6, "1.5 3.2")
        body += self._arrowhead(o, d_out, ctrl, 7.5)
        if o.failed:
            self.marks.append(_cross(ctrl, 4))
        return self._g(o, body, f' data-from="{o.target.prov}" data-to="{o.dest.prov}"')

    def _build(self, o: _Order) -> str:
        assert o.at
        at = self.layout.air(o.at.prov) if o.unit == "D" else self.layout.ground(o.at)
        ghost = _unit_icon(self.colour(o.power), o.power, o.unit, at, css="ghost")
        x, y = at
        ring = (f'<circle cx="{_f(x)}" cy="{_f(y)}" r="13" fill="#FFFFFF" fill-opacity="0.55" '
                f'stroke="{_GREEN}" stroke-width="2.4"/>')
        plus = (f'<g class="mark build"><circle cx="{_f(x + 11)}" cy="{_f(y - 10)}" r="6" '
                f'fill="#FFFFFF" stroke="{_GREEN}" stroke-width="1.4"/>'
                f'<path d="M{_f(x + 7.5)},{_f(y - 10)}h7M{_f(x + 11)},{_f(y - 13.5)}v7" '
                f'stroke="{_GREEN}" stroke-width="2.2"/></g>')
        if o.failed:
            self.marks.append(_cross(at, 6))
        return self._g(o, f'{ring}<g opacity="0.8">{ghost}</g>{plus}')

    def _disband(self, o: _Order) -> str:
        assert o.at
        at = self.unit_at(o.at, o.unit)
        if self.phase_kind == "R" and o.unit != "D" and o.at.prov in self.aside_places:
            at = self.aside_places[o.at.prov]
        self.marks.append(_cross(at, 7, "mark disband"))
        colour = self.colour(o.power)
        return self._g(o, f'<circle cx="{_f(at[0])}" cy="{_f(at[1])}" r="11" fill="none" '
                          f'stroke="{colour}" stroke-width="1.5" stroke-dasharray="2 2"/>')

    def _after_marks(self) -> list[str]:
        """The picture after a phase: dislodgements, retreat options, news."""
        out: list[str] = []
        options: dict[str, list[Loc]] = {}
        if self.position.dislodged:
            for unit, places in options_for(self.position, self.spec.map).items():
                options[unit.prov] = list(places)
        for u, frm in self.waiting:
            at = self.aside_places[u.loc.prov]
            colour = self.colour(u.power)
            for opt in options.get(u.loc.prov, []):
                dest = self.layout.ground(opt)
                a = _towards(at, dest, 12)
                b = _towards(at, dest, min(math.dist(at, dest) - 8, 46.0))
                out.append(f'<g class="option" data-from="{u.loc.prov}" '
                           f'data-to="{opt.prov}"><path d="M{_pt(a)}L{_pt(b)}" '
                           f'stroke="{colour}" stroke-width="1.6" stroke-dasharray="1.5 2.5" '
                           f'opacity="0.9"/><path d="{_head(b, a, 6)}" fill="none" '
                           f'stroke="{colour}" stroke-width="1.3"/></g>')
            if frm:
                src = self.layout.ground(Loc(frm))
                b = _towards(at, src, 12.5)
                a = _towards(at, src, min(math.dist(at, src) - 6, 38.0))
                out.append(f'<g class="attack" data-from="{frm}" data-to="{u.loc.prov}">'
                           f'<path d="M{_pt(a)}L{_pt(b)}" stroke="{_RED}" stroke-width="2.2"/>'
                           f'<path d="{_head(b, a, 7)}" fill="{_RED}"/></g>')
        for e in self.events:
            kind = e.kind
            if kind == "built" and e.unit:
                u = self.unit(e.power, e.unit)
                at = self.layout.place(u)
                self.marks.append(f'<circle class="mark built" cx="{_f(at[0])}" '
                                  f'cy="{_f(at[1])}" r="11.5" fill="none" stroke="{_GREEN}" '
                                  'stroke-width="2.4"/>')
            elif kind in ("removed", "disbanded") and e.unit:
                u = self.unit(e.power, e.unit)
                at = self.layout.place(u)
                if (u.loc.prov, u.air) in self.places:
                    at = self.layout.aside(u.loc.prov)
                ghost = _unit_icon(self.colour(u.power), u.power, u.kind, at, css="ghost")
                out.append(f'<g opacity="0.45">{ghost}</g>')
                self.marks.append(_cross(at, 6, "mark disband"))
            elif kind == "captured" and e.province:
                prov = self.loc(e.province)
                sc = self.board["provinces"][prov].get("sc")
                if sc:
                    self.marks.append(f'<circle class="mark captured" cx="{_f(sc[0])}" '
                                      f'cy="{_f(sc[1])}" r="8.5" fill="none" stroke="{_INK}" '
                                      'stroke-width="1.6" stroke-dasharray="2 1.5"/>')
        return out

    # -- the legend -------------------------------------------------------------
    def _legend(self, width: float) -> tuple[float, str]:
        """The powers with their centres and units (and supply points, DD11),
        then a key to the symbols; returns its height and its SVG."""
        counts = self._counts()
        out: list[str] = []
        col_w = (width - 24) / 4
        y = 34.0
        for i, power in enumerate(self.spec.powers):
            row, col = divmod(i, 4)
            x = 12 + col * col_w
            py = y + row * 50
            centres, units, points = counts[power]
            colour = self.colour(power)
            detail = f"{_count(centres, 'centre')} · {_count(units, 'unit')}"
            if self.dirigible:
                detail += f" · {_count(points, 'point')}"
            out.append(f'<g class="power" data-power="{power}">'
                       f'<rect x="{_f(x)}" y="{_f(py - 18)}" width="26" height="24" rx="5" '
                       f'fill="{colour}" stroke="{_INK}" stroke-width="1.2"/>'
                       f'<text x="{_f(x + 13)}" y="{_f(py)}" font-size="14" font-weight="bold" '
                       f'text-anchor="middle" fill="{_text_on(colour)}">{power[0]}</text>'
                       f'<text x="{_f(x + 34)}" y="{_f(py - 1)}" font-size="19" '
                       f'font-weight="bold" fill="{_INK}">{escape(self.spec.power_names[power])}</text>'
                       f'<text x="{_f(x + 34)}" y="{_f(py + 17)}" '
                       f'font-size="{13 if self.dirigible else 14.5}" '
                       f'fill="#444444">{detail}</text></g>')
        y += -(-len(self.spec.powers) // 4) * 50 - 8  # rows of four powers
        out.append(f'<path d="M12,{_f(y)}H{_f(width - 12)}" stroke="#CCCCCC"/>')
        x, y = 12.0, y + 26
        for glyph, gw, words in self._key_items():
            tw = 8.0 * len(words)
            if x + gw + 8 + tw > width - 12:
                x, y = 12.0, y + 30
            out.append(f'<g transform="translate({_f(x)},{_f(y - 5)})">{glyph}</g>'
                       f'<text x="{_f(x + gw + 7)}" y="{_f(y)}" font-size="15" '
                       f'fill="{_INK}">{escape(words)}</text>')
            x += gw + 7 + tw + 20
        height = y + 20
        return height, (f'<rect width="{_f(width)}" height="{_f(height)}" fill="#FFFFFF"/>'
                        + "".join(out))

    def _key_items(self) -> list[tuple[str, float, str]]:
        """(glyph drawn around 0,0 to the right, its width, the words)."""
        grey = "#666666"

        def line(dash: str, head: bool = True) -> str:
            attr = f' stroke-dasharray="{dash}"' if dash else ""
            d = f'<path d="M0,0H26" stroke="{grey}" stroke-width="2.8"{attr}/>'
            return d + (f'<path d="{_head((34, 0), (0, 0), 9)}" fill="{grey}"/>' if head else "")

        items: list[tuple[str, float, str]] = [
            (_unit_icon("#4D4D4D", "GER", "A", (9, 0), css="key"), 18, "army"),
            (_unit_icon("#4D4D4D", "GER", "F", (11, 0), css="key"), 22, "fleet"),
        ]
        if self.dirigible:
            items.append((_unit_icon("#4D4D4D", "GER", "D", (12, 0), css="key"), 26, "dirigible"))
        items += [
            (f'<circle cx="7" cy="0" r="6.2" fill="none" stroke="{grey}" stroke-width="1.8"/>'
             f'<circle cx="7" cy="0" r="4" fill="#FFFFFF" stroke="{_INK}" stroke-width="1.2"/>',
             14, "supply centre (ring: whose home)"),
            (line(""), 34, "move"),
            (line("") + _core("M0,0H26") + _core(_head((34, 0), (0, 0), 9), 1.0), 34,
             "retreat"),
            (line("5 3.5"), 34, "support"),
            (line("1.5 3.2"), 34, "convoy"),
            (f'<circle cx="10" cy="0" r="9" fill="none" stroke="{_INK}" stroke-width="2.2"/>',
             20, "hold"),
            (line("", False) + f'<path d="M28,-8V8" stroke="{_RED}" stroke-width="3.4" '
                               'stroke-linecap="round"/>', 30, "bounced"),
            (line("5 3.5", False) + _snip((13, 0), (26, 0), 5.5, "key cut"), 30, "support cut"),
            (_cross((7, 0), 5.5), 14, "failed"),
            (f'<circle cx="11" cy="0" r="10" fill="none" stroke="{_RED}" stroke-width="2.4" '
             'stroke-dasharray="4 2.5"/>', 22, "dislodged"),
            (f'<circle cx="7" cy="0" r="6.5" fill="#FFFFFF" stroke="{_INK}"/>'
             f'<path d="M3,0h8M7,-4v8" stroke="{_GREEN}" stroke-width="2"/>', 14, "build"),
        ]
        if self.dirigible:
            items.append((f'<rect x="0" y="-9" width="24" height="18" fill="url(#ruin)" '
                          f'stroke="{_INK}" stroke-width="0.8"/>', 24, "devastated"))
        return items

    def _counts(self) -> dict[str, tuple[int, int, int]]:
        """power -> (centres, units, supply points (DD11))."""
        from pbmref.rules.diplomacy.dirigible import POINTS_PER_CENTER

        out = {}
        for power in self.spec.powers:
            mine = [p for p, o in self.owners.items() if o == power]
            points = POINTS_PER_CENTER * sum(1 for p in mine if p not in self.devastated)
            units = sum(1 for u in self.units if u.power == power)
            out[power] = (len(mine), units, points)
        return out


def _count(n: int, word: str) -> str:
    """``1 centre``, ``3 centres``."""
    return f"{n} {word}" + ("" if n == 1 else "s")


def _core(d: str, width: float = 1.2) -> str:
    """The white core that makes a retreat's line (and head) hollow."""
    return (f'<path d="{d}" fill="none" stroke="#FFFFFF" stroke-width="{_f(width)}" '
            'stroke-linecap="round" stroke-linejoin="round"/>')


def _quad(a: Point, c: Point, b: Point, t: float) -> Point:
    u = 1 - t
    return (u * u * a[0] + 2 * u * t * c[0] + t * t * b[0],
            u * u * a[1] + 2 * u * t * c[1] + t * t * b[1])


_DEFS = (
    "<defs>"
    '<pattern id="void" width="6" height="6" patternUnits="userSpaceOnUse" '
    'patternTransform="rotate(45)">'
    f'<rect width="6" height="6" fill="{_VOID}"/>'
    '<path d="M0,0V6" stroke="#BDB5A4" stroke-width="1.6"/></pattern>'
    '<pattern id="ruin" width="7" height="7" patternUnits="userSpaceOnUse" '
    'patternTransform="rotate(-45)">'
    f'<path d="M0,0V7" stroke="{_RED}" stroke-width="1.8" opacity="0.55"/></pattern>'
    "</defs>"
)


def render_board(position: Position, events: Sequence[Event] = (),
                 orders: Mapping[str, Sequence[Order]] | None = None, *, mode: Mode,
                 title: str = "") -> str:
    """The board of one phase as a standalone SVG document.

    ``mode="orders"``: ``position`` is the position the orders were given on;
    every order is drawn, with its result when ``events`` (the engine's events,
    ``kind: order`` ...) are given, else the typed ``orders`` of each power.
    ``mode="after"``: ``position`` is the position after the phase; ``events``
    mark builds, removals and captures.
    """
    return _Picture(position, events, orders, mode, title).render()


def power_focus(position: Position, power: str, picture: int = 1) -> Focus | None:
    """The part of the board after a phase (``render_board(position,
    mode="after")``, the ``picture``-th of the phase's pictures) around
    ``power``'s units and centres, at a scale where the provinces' names are
    11 px, its units ringed (issue 43, item 2). None for a power with
    neither (or not in the game)."""
    pic = _Picture(position, (), None, "after", "")
    power = power.upper()
    if power not in pic.spec.powers:
        return None
    units = [(u, pic.places[(u.loc.prov, u.air)]) for u in pic.units if u.power == power]
    units += [(u, pic.aside_places[u.loc.prov]) for u, _ in pic.waiting if u.power == power]
    centres = sorted(prov for prov, owner in pic.owners.items() if owner == power)
    spots = [at for _, at in units] + [
        (float(pic.board["provinces"][c]["sc"][0]), float(pic.board["provinces"][c]["sc"][1]))
        for c in centres if "sc" in pic.board["provinces"][c]]
    if not spots:
        return None
    zoom = FOCUS_LABEL / _LABEL_SIZE
    x, y, high = _focus_middle(spots, [at for _, at in units], zoom)
    width, height = pic.board["size"]
    box = focus_box(x, y + _HEAD, zoom, (0, _HEAD, float(width), _HEAD + float(height)), high)
    rings = tuple((ux, uy + _HEAD, 12.5) for _, (ux, uy) in units)
    return Focus(box, rings, _power_alt(pic, power, [u for u, _ in units], centres), zoom,
                 picture)


def _focus_middle(spots: Sequence[Point], units: Sequence[Point],
                  zoom: float) -> tuple[float, float, float]:
    """Where a power's part is centred, and how high it is: around all its
    pieces, as high as they need (room for a ring and a name); around its
    units when they are too spread to show whole."""
    xs, ys = [x for x, _ in spots], [y for _, y in spots]
    x, y = (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
    high = min(float(FOCUS_HIGHEST), max(FOCUS_SIZE[1], (max(ys) - min(ys) + 80) * zoom))
    if (max(xs) - min(xs) + 40) * zoom > FOCUS_SIZE[0] or (max(ys) - min(ys)) * zoom > high:
        mine = units or spots
        x, y = sum(p[0] for p in mine) / len(mine), sum(p[1] for p in mine) / len(mine)
    return x, y, high


def _power_alt(pic: _Picture, power: str, units: Sequence[_Unit], centres: Sequence[str]) -> str:
    """'you: France, 3 units (A Paris, ...), 3 centres (Brest, ...)'."""
    waiting = {id(u) for u, _ in pic.waiting}
    pieces = ", ".join(u.text() + (" (dislodged)" if id(u) in waiting else "")
                       for u in units) or "no units"
    names = ", ".join(display(c) for c in centres)
    return (f"you: {pic.spec.power_names.get(power, power)}, {_count(len(units), 'unit')} "
            f"({pieces}), {_count(len(centres), 'centre')}" + (f" ({names})" if names else ""))

