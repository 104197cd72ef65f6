"""The sky as a picture: an SVG map of the board, for the mail and the archive.

Flat-topped hexes with north up (rules B1-B3), each named in print legible on
a phone and as a hover ``<title>``; clouds (white, outlined, with a cloud
drawn in) and storms (dark, with a bolt, C1); the six airfields with their
runways (B5); the wind as an arrow with its strength (W1); every aircraft in
the fight as a small biplane in its colour pointing along its heading, its
letter beside it (one ``<g id="aircraft-PILOT">`` each); the zeppelin's hull,
light enough that the hex names show through it, with a triangle at its nose
(one ``<g class="zeppelin-hex">`` per hex on the board). With the turn's
events: the paths flown, the bursts fired (hit or missed, drawn differently)
and a mark in each hex hit with the damage dealt there, kept off the
other marks and the hex names. The legend gives
each aircraft's state in words and what each line means.

``render_svg`` draws the board after the turn; ``render_move_panels`` draws
three small panels, the board after each move, for following the turn move
by move. Self-contained: no fonts, images or scripts from outside.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any
from xml.sax.saxutils import escape

from pbmref.reports.common import (
    ON_MAP,
    aircraft_of,
    board_of,
    clouds_of,
    heading_of,
    hex_of,
    pilot_letters,
    zeppelins_of,
)
from pbmref.reports.model import FOCUS_LABEL, PANEL_WIDTH, Focus, focus_box
from pbmref.rules.hexgrid import Heading, Hex, HexBoard
from pbmref.rules.tweedekker.state import Runway, runway_hexes
from pbmref.rulesets.air.svgkit import (
    MAP,
    PANEL,
    PILOT_COLOURS,
    SANS,
    Box,
    Style,
    burst_line,
    document,
    hit_marks,
    key_rows,
    legend_rows,
    num,
    path_line,
    plane,
    safe_id,
    text,
    text_box,
)

__all__ = ["PILOT_COLOURS", "reader_focus", "render_move_panels", "render_svg"]

SIZE = 22.0  # hex circumradius in px
SQRT3 = math.sqrt(3)
SKY = "#dbeaf5"
CLOUD = "#ffffff"
STORM = "#4f5468"
FIELD = "#bcd88f"
RUNWAY = "#8f8f7a"
HULL = "#f4ecd0"
ANGLES = {h: i * 60 for i, h in enumerate(Heading)}
Event = dict[str, Any]


class _Geometry:
    def __init__(self, board: HexBoard, margin_top: float, margin_side: float) -> None:
        self.board = board
        R = board.radius
        self.ox = margin_side + 1.5 * SIZE * R + SIZE
        self.oy = margin_top + SQRT3 * SIZE * R + SQRT3 * SIZE / 2
        self.width = 2 * self.ox
        self.board_bottom = self.oy + SQRT3 * SIZE * R + SQRT3 * SIZE / 2

    def centre(self, h: Hex) -> tuple[float, float]:
        return (self.ox + 1.5 * SIZE * h.q, self.oy + SQRT3 * SIZE * (h.r + h.q / 2))

    def corners(self, h: Hex) -> str:
        return _corners(*self.centre(h))


@functools.lru_cache(maxsize=4096)
def _corners(cx: float, cy: float) -> str:
    """A hex's corners as ``points``: the same for every turn drawn on a board
    (a map has 331 hexes, each drawn on the map and its three move panels)."""
    return " ".join(f"{num(cx + SIZE * math.cos(math.radians(60 * i)))},"
                    f"{num(cy + SIZE * math.sin(math.radians(60 * i)))}" for i in range(6))


# ---------------------------------------------------------------- what is drawn


@dataclass
class _Plane:
    hex: Hex
    heading: Heading
    state: str


@dataclass
class _Burst:
    shooter: str
    start: Hex
    end: Hex
    hit: bool
    move: int
    direction: str


@dataclass
class _Mark:
    hex: Hex
    amount: int
    target: str
    cause: str
    move: int


@dataclass
class _Scene:
    """One moment of the sky: what the map or a move panel shows."""

    board: HexBoard
    clouds: dict[Hex, str]
    zeppelins: dict[str, tuple[list[Hex], Heading]]
    planes: dict[str, _Plane]
    paths: dict[str, list[Hex]] = field(default_factory=dict)
    bursts: list[_Burst] = field(default_factory=list)
    marks: list[_Mark] = field(default_factory=list)
    fallen: dict[str, Hex] = field(default_factory=dict)


def _clouds(board: HexBoard, position: Mapping[str, Any]) -> dict[Hex, str]:
    kind_at: dict[Hex, str] = {}
    for c in clouds_of(position):
        for name in c.get("hexes") or []:
            h = hex_of(board, name)
            if h is not None:
                kind_at[h] = "storm" if c.get("kind") == "storm" else "cloud"
    return kind_at


def _zeppelins(board: HexBoard, position: Mapping[str, Any]
               ) -> dict[str, tuple[list[Hex], Heading]]:
    out = {}
    for name, z in zeppelins_of(position).items():
        if z["destroyed"]:
            continue
        hexes = [h for h in (hex_of(board, n) for n in z["hexes"]) if h is not None]
        out[name] = (hexes, heading_of(z["heading"]) or Heading.N)
    return out


def _planes(board: HexBoard, position: Mapping[str, Any]) -> dict[str, _Plane]:
    out = {}
    for pilot, a in aircraft_of(position).items():
        h = hex_of(board, a.get("hex"))
        if a["state"] in ON_MAP and h is not None and board.contains(h):
            out[pilot] = _Plane(h, heading_of(a["heading"]) or Heading.N, str(a["state"]))
    return out


def _add_path(scene: _Scene, e: Event) -> None:
    src, dst = hex_of(scene.board, e.get("from_hex")), hex_of(scene.board, e.get("to_hex"))
    if src is None or dst is None or e.get("outcome") in ("stayed", "skipped"):
        return
    track = scene.paths.setdefault(str(e.get("pilot")), [src])
    if track[-1] != src:
        track.append(src)
    track.append(dst)


def _add_fire(scene: _Scene, events: Sequence[Event]) -> None:
    """Bursts, and a mark for each hit where it landed (its line's hex at its distance)."""
    for e in (e for e in events if e.get("kind") == "burst"):
        start = hex_of(scene.board, e.get("from_hex"))
        line = [h for h in (hex_of(scene.board, n) for n in e.get("line") or []) if h]
        if start is not None and line:
            scene.bursts.append(_Burst(str(e.get("shooter")), start, line[-1],
                                       bool(e.get("targets")), int(e.get("move", 0)),
                                       str(e.get("direction"))))
    for hit in (e for e in events if e.get("kind") == "hit"):
        h = _hit_hex(scene.board, events, hit)
        if h is not None:
            scene.marks.append(_Mark(h, int(hit.get("damage", 0)), str(hit.get("target")),
                                     "gunfire", int(hit.get("move", 0))))


def _hit_hex(board: HexBoard, events: Sequence[Event], hit: Event) -> Hex | None:
    """Where a hit landed: the hex of its burst's line at the hit's distance."""
    burst = next((b for b in events if b.get("kind") == "burst"
                  and b.get("move") == hit.get("move") and b.get("shooter") == hit.get("shooter")
                  and hit.get("target") in (b.get("targets") or [])), None)
    line = list((burst or {}).get("line") or [])
    distance = int(hit.get("distance", 0))
    return hex_of(board, line[distance - 1]) if 0 < distance <= len(line) else None


def _where_at(events: Sequence[Event], pilot: str, move: int,
              planes: Mapping[str, _Plane], board: HexBoard) -> Hex | None:
    """Where an aircraft was at the end of ``move`` (its last manoeuvre so far)."""
    spot = planes[pilot].hex if pilot in planes else None
    for e in events:
        if e.get("kind") == "manoeuvre" and str(e.get("pilot")) == pilot and (
                move == 0 or int(e.get("move", 0)) <= move):
            spot = hex_of(board, e.get("to_hex")) or spot
    return spot


def _add_other_damage(scene: _Scene, events: Sequence[Event],
                      start: Mapping[str, _Plane]) -> None:
    """Marks for damage not from gunfire (storm C2, bomb Z15, explosion Z12)."""
    for e in (e for e in events if e.get("kind") == "damage"
              and e.get("cause", "gunfire") != "gunfire"):
        target, move = str(e.get("target")), int(e.get("move", 0))
        h = _where_at(events, target, move, start, scene.board)
        if h is not None:
            scene.marks.append(_Mark(h, int(e.get("amount", 0)), target, str(e.get("cause")),
                                     move))


def _after_scene(position: Mapping[str, Any], events: Sequence[Event],
                 before: Mapping[str, Any] | None) -> _Scene:
    board = board_of(position)
    scene = _Scene(board, _clouds(board, position), _zeppelins(board, position),
                   _planes(board, position))
    for e in (e for e in events if e.get("kind") == "manoeuvre"):
        _add_path(scene, e)
    _add_fire(scene, events)
    _add_other_damage(scene, events, _planes(board, before or position))
    fallen = {str(e.get("target")) for e in events if e.get("kind") == "destroyed"}
    for pilot, a in aircraft_of(position).items():
        h = hex_of(board, a.get("hex"))
        if pilot in fallen and a["state"] not in ON_MAP and h is not None and board.contains(h):
            scene.fallen[pilot] = h
    return scene


def _fly(scene: _Scene, e: Event) -> None:
    """An aircraft's manoeuvre applied to the scene of a move panel."""
    pilot = str(e.get("pilot"))
    dst = hex_of(scene.board, e.get("to_hex"))
    if e.get("outcome") == "left" or dst is None or not scene.board.contains(dst):
        scene.planes.pop(pilot, None)
        return
    state = "landed" if e.get("outcome") in ("landed", "stayed", "skipped") else "flying"
    scene.planes[pilot] = _Plane(dst, heading_of(e.get("heading")) or Heading.N, state)


def _move_scene(before: Mapping[str, Any], events: Sequence[Event], move: int) -> _Scene:
    """The sky at the end of ``move``, with that move's paths, bursts and hits."""
    board = board_of(before)
    start = _planes(board, before)
    scene = _Scene(board, _clouds(board, before), _zeppelins(board, before), dict(start))
    upto = [e for e in events if 0 < int(e.get("move", 0)) <= move]
    now = [e for e in upto if int(e.get("move", 0)) == move]
    for e in upto:
        if e.get("kind") == "manoeuvre":
            _fly(scene, e)
        elif e.get("kind") == "zeppelin_move" and str(e.get("zeppelin")) in scene.zeppelins:
            hexes = [h for h in (hex_of(board, n) for n in e.get("to_hexes") or []) if h]
            scene.zeppelins[str(e.get("zeppelin"))] = (hexes, heading_of(e.get("heading"))
                                                       or Heading.N)
        elif e.get("kind") == "destroyed":
            target = str(e.get("target"))
            if target in scene.planes:
                scene.fallen[target] = scene.planes.pop(target).hex
            scene.zeppelins.pop(target, None)
    for e in (e for e in now if e.get("kind") == "manoeuvre"):
        _add_path(scene, e)
    _add_fire(scene, now)
    _add_other_damage(scene, now, start)
    return scene


# ---------------------------------------------------------------- drawing


def _airfield_hexes(board: HexBoard) -> dict[Hex, str]:
    field_at: dict[Hex, str] = {}
    for corner in Heading:
        field_at[board.corner(corner)] = f"airfield {corner.value}"
        for runway in Runway:
            for h in runway_hexes(board, corner, runway):
                field_at[h] = f"airfield {corner.value}, runway {runway.value.title()}"
    return field_at


def _board(scene: _Scene, geo: _Geometry) -> list[str]:
    """Every hex in clear sky (or airfield): the ground under the weather."""
    field_at = _airfield_hexes(scene.board)
    return ['<g class="board">',
            *(_hex(scene, geo, h, field_at, None) for h in scene.board.hexes()), "</g>"]


def _hex(scene: _Scene, geo: _Geometry, h: Hex, field_at: Mapping[Hex, str],
         kind: str | None) -> str:
    """One hex, in clear sky or (``kind``) under a cloud or a storm."""
    fill = {"storm": STORM, "cloud": CLOUD}.get(kind or "", FIELD if h in field_at else SKY)
    cls = " ".join(["hex", *(["airfield"] if h in field_at else []), *([kind] if kind else [])])
    tip = scene.board.name(h) + (f" ({field_at[h]})" if h in field_at else "") + (
        f" ({kind})" if kind else "")
    stroke = ('stroke="#7d8ea3" stroke-width="1.6"' if kind == "cloud"
              else 'stroke="#9db4c8" stroke-width="0.8"')
    return (f'<polygon class="{cls}" points="{geo.corners(h)}" fill="{fill}" {stroke}>'
            f"<title>{escape(tip)}</title></polygon>")


def _runways(board: HexBoard, geo: _Geometry, disabled: set[str]) -> list[str]:
    return [line for corner in Heading for line in _airfield(board, geo, corner, disabled)]


def _airfield(board: HexBoard, geo: _Geometry, corner: Heading, disabled: set[str]) -> list[str]:
    """One corner's airfield: its runways (B5), and a disc with its letter."""
    out = []
    x1, y1 = geo.centre(board.corner(corner))
    for runway in Runway:
        _, far = runway_hexes(board, corner, runway)
        x2, y2 = geo.centre(far)
        out.append(f'<line class="runway" x1="{num(x1)}" y1="{num(y1)}" x2="{num(x2)}" '
                   f'y2="{num(y2)}" stroke="{RUNWAY}" stroke-width="5" '
                   'stroke-linecap="round" opacity="0.55"/>')
    fill = "#a93226" if corner.value in disabled else "#e8e2c0"
    out.append(f'<circle cx="{num(x1)}" cy="{num(y1)}" r="10" fill="{fill}" stroke="#555" '
               'stroke-width="1"/>')
    out.append(text(x1, y1 + 3.5, corner.value, 9, "#222", anchor="middle", bold=True))
    return out


def _airfield_hexes_of(board: HexBoard, corner: Heading) -> set[Hex]:
    return {board.corner(corner), *(h for runway in Runway
                                    for h in runway_hexes(board, corner, runway))}


def _weather(scene: _Scene, geo: _Geometry, disabled: set[str], *,
             labels: bool) -> list[str]:
    """The weather over the ground (C1), the first of the turn's layer (the
    clouds move with the wind, W3: the ground under them stays the same from
    turn to turn): each cloud or storm hex drawn over its clear one, a small
    cloud or a bolt in it, the runways that cross it and (``labels``) its
    name, as they lie over it."""
    hexes = {h: kind for h, kind in scene.clouds.items() if scene.board.contains(h)}
    if not hexes:
        return []
    field_at = _airfield_hexes(scene.board)
    out = ['<g class="weather">', *(_hex(scene, geo, h, field_at, k) for h, k in hexes.items())]
    for corner in Heading:  # an airfield's runways lie over the weather (within its hexes)
        under = [h for h in hexes if h in _airfield_hexes_of(scene.board, corner)]
        if under:
            out += [f'<clipPath id="weather-{corner.value}">',
                    *(f'<polygon points="{geo.corners(h)}"/>' for h in under),
                    f'</clipPath><g clip-path="url(#weather-{corner.value})">',
                    *_airfield(scene.board, geo, corner, disabled), "</g>"]
    for h, kind in hexes.items():
        cx, cy = geo.centre(h)
        if kind == "storm":
            out.append(f'<path class="storm-icon" d="M{num(cx + 2)},{num(cy - 13)} l-6,9 h5 '
                       'l-4,9 l9,-11 h-5 l5,-7 z" fill="#f7dc6f"/>')
        else:
            out.append(f'<g class="cloud-icon" fill="#b9c6d4" transform="translate({num(cx)},'
                       f'{num(cy - 4)})"><circle cx="-5" cy="1" r="4.5"/><circle cx="1" '
                       'cy="-2" r="5.5"/><circle cx="6" cy="1.5" r="4"/>'
                       '<rect x="-9" y="1" width="19" height="4.5" rx="2"/></g>')
    corners = {scene.board.corner(c) for c in Heading}
    if labels:
        out += [_hex_label(scene, geo, h, storm=kind == "storm")
                for h, kind in hexes.items() if h not in corners]
    return [*out, "</g>"]


def _hex_labels(scene: _Scene, geo: _Geometry) -> list[str]:
    """Every hex's name on a white halo (B3), under the turn: the zeppelin's hull
    lets it show through."""
    corners = {scene.board.corner(c) for c in Heading}
    return ['<g class="hexnames">',
            *(_hex_label(scene, geo, h, storm=False)
              for h in scene.board.hexes() if h not in corners), "</g>"]


def _hex_label(scene: _Scene, geo: _Geometry, h: Hex, *, storm: bool) -> str:
    """A hex's name (light, without a halo, on a storm's dark hex)."""
    cx, cy = geo.centre(h)
    return text(cx, cy + SIZE * 0.76, scene.board.name(h), 10,
                "#f2f2f2" if storm else "#34495e", anchor="middle",
                halo=not storm, cls="hexname", family=SANS)


def _file_letters(board: HexBoard, geo: _Geometry) -> list[str]:
    R = board.radius
    out = []
    for q in range(-R, R + 1):
        x = geo.ox + 1.5 * SIZE * q
        yt = geo.centre(Hex(q, max(-R, -R - q)))[1] - SIZE - 3
        yb = geo.centre(Hex(q, min(R, R - q)))[1] + SIZE + 12
        for y in (yt, yb):
            out.append(text(x, y, chr(ord("A") + q + R), 12, "#444", anchor="middle",
                            bold=True, cls="file"))
    return out


def _turn(scene: _Scene, geo: _Geometry, colours: Mapping[str, str],
          names: Mapping[str, str], style: Style) -> list[str]:
    out: list[str] = []
    for pilot, track in scene.paths.items():
        who = names.get(pilot) or pilot
        out += path_line([geo.centre(h) for h in track], colours.get(pilot, "#333"), style,
                         f"path-{safe_id(pilot)}", f"{who}: path flown this turn")
    for b in scene.bursts:
        who = names.get(b.shooter) or b.shooter
        out += burst_line(geo.centre(b.start), geo.centre(b.end), b.hit, style, "burst",
                          f"move {b.move}: {who} fires {b.direction}, "
                          + ("hit" if b.hit else "missed"))
    return ['<g class="turn">', *out, "</g>"] if out else []


HULLS = {
    "nose": "M-10,19.5 L-10,-4 Q-10,-19 0,-21 Q10,-19 10,-4 L10,19.5 Z",
    "one": "M-9,12 L-9,-4 Q-9,-19 0,-21 Q9,-19 9,-4 L9,12 Q9,20 0,21 Q-9,20 -9,12 Z",
    "tail": "M-10,-19.5 L10,-19.5 L10,2 Q10,16 0,20 Q-10,16 -10,2 Z",
}


def _zeppelin_hex(name: str, i: int, count: int, angle: int, letter: str) -> str:
    hull = HULLS["tail"] if i else (HULLS["nose"] if count > 1 else HULLS["one"])
    body = (f'<path d="{hull}" fill="{HULL}" fill-opacity="0.55" stroke="#6e5a2b" '
            'stroke-width="1.4"/>')
    if i == 0:
        body += '<polygon points="0,-27 -6,-17 6,-17" fill="#8b1e1e"/>'
        body += (f'<text x="0" y="2" text-anchor="middle" font-size="11" font-weight="bold" '
                 f'fill="#6e5a2b" transform="rotate({-angle})">{escape(letter)}</text>')
    if i == count - 1:
        body += ('<polygon points="-9,10 -16,20 -7,17" fill="#6e5a2b"/>'
                 '<polygon points="9,10 16,20 7,17" fill="#6e5a2b"/>')
    return body


def _zeppelins_drawn(scene: _Scene, geo: _Geometry, letters: Mapping[str, str],
                     tips: Mapping[str, str]) -> list[str]:
    out = []
    for name, (hexes, heading) in scene.zeppelins.items():
        angle = ANGLES[heading]
        for i, h in enumerate(hexes):
            if not scene.board.contains(h):
                continue
            x, y = geo.centre(h)
            part = "nose" if i == 0 else "tail"
            tip = f"zeppelin {name} {part} at {scene.board.name(h)}, {tips.get(name, '')}"
            out.append(f'<g class="zeppelin-hex zeppelin-{part}" id="zeppelin-{safe_id(name)}-'
                       f'{part}" transform="translate({num(x)},{num(y)}) rotate({angle})">'
                       f"<title>{escape(tip)}</title>"
                       f"{_zeppelin_hex(name, i, len(hexes), angle, letters.get(name, 'Z'))}</g>")
    return out


def _fallen(scene: _Scene, geo: _Geometry, colours: Mapping[str, str],
            names: Mapping[str, str]) -> list[str]:
    out = []
    for pilot, h in scene.fallen.items():
        x, y = geo.centre(h)
        out.append(f'<g class="fallen" id="fallen-{safe_id(pilot)}"><title>'
                   f"{escape(names.get(pilot) or pilot)} went down here</title>"
                   f'<path d="M{num(x - 8)},{num(y - 8)} l16,16 m0,-16 l-16,16" '
                   f'stroke="{colours.get(pilot, "#333")}" stroke-width="4" '
                   'stroke-linecap="round"/></g>')
    return out


def _aircraft(scene: _Scene, geo: _Geometry, colours: Mapping[str, str],
              letters: Mapping[str, str], tips: Mapping[str, str], style: Style) -> list[str]:
    out = []
    sharing: dict[Hex, list[str]] = {}
    for pilot, p in scene.planes.items():
        sharing.setdefault(p.hex, []).append(pilot)
    for pilot, p in scene.planes.items():
        x, y = geo.centre(p.hex)
        mates = sharing[p.hex]
        if len(mates) > 1:  # aircraft in one hex fly at different heights (M1)
            n = mates.index(pilot)
            x += -7 + 14 * (n % 2)
            y += -6 * (n // 2)
        colour = colours.get(pilot, "#333")
        scale = style.plane_scale * (0.8 if p.state == "landed" else 1.0)
        lift = style.letter_size * 0.9
        label = (text(x + lift, y - lift * 0.7, letters.get(pilot, "?"), style.letter_size,
                      colour, bold=True, halo=True, family=SANS) if style.letter_size else "")
        out.append(f'<g class="aircraft aircraft-{safe_id(pilot)}" id="aircraft-{safe_id(pilot)}">'
                   f"<title>{escape(tips.get(pilot, pilot))}</title>"
                   f"{plane(x, y, ANGLES[p.heading], colour, scale)}{label}</g>")
    return out


def _name_boxes(board: HexBoard, geo: _Geometry) -> list[Box]:
    """Where the hexes' names are written (``_hex_labels``), and the airfields' discs."""
    corners = {board.corner(c) for c in Heading}
    out = []
    for h in board.hexes():
        cx, cy = geo.centre(h)
        out.append((cx - 11, cy - 11, cx + 11, cy + 11) if h in corners else
                   text_box(cx, cy + SIZE * 0.76, board.name(h), 10, anchor="middle"))
    return out


def _marks(scene: _Scene, geo: _Geometry, names: Mapping[str, str], style: Style,
           *, named: bool) -> list[str]:
    """A star for each hex hit, the damage of each hit beside it, kept off one
    another and (``named``: the board shows the hexes' names) off the names."""
    landed: dict[Hex, list[_Mark]] = {}
    for m in scene.marks:
        landed.setdefault(m.hex, []).append(m)
    hits = []
    for h, marks in landed.items():
        tip = "; ".join(f"move {m.move}: "
                        + (names.get(m.target) or (f"zeppelin {m.target}" if m.target else ""))
                        + f" takes {m.amount} ({m.cause})" for m in marks)
        hits.append((*geo.centre(h), SIZE, [m.amount for m in marks], tip))
    return hit_marks(hits, style, _name_boxes(scene.board, geo) if named else ())


def _wind(position: Mapping[str, Any], x: float, y: float) -> list[str]:
    """An arrow pointing where the wind blows to, with its strength (W1)."""
    wind = position.get("wind") or {}
    strength = int(wind.get("strength", 0) or 0)
    heading = heading_of(wind.get("to")) or Heading.N
    out = [f'<g class="wind"><title>wind to {heading.value}, strength {strength}</title>',
           f'<circle cx="{num(x)}" cy="{num(y)}" r="22" fill="#fff" stroke="#7f8c8d" '
           'stroke-width="1.2"/>']
    if strength:
        out.append(f'<g transform="translate({num(x)},{num(y)}) rotate({ANGLES[heading]})">'
                   '<line x1="0" y1="15" x2="0" y2="-9" stroke="#2c3e50" stroke-width="3.5"/>'
                   '<polygon points="0,-19 -8,-6 8,-6" fill="#2c3e50"/></g>')
        words = [f"wind to {heading.value}", f"{strength} hex{'es' if strength != 1 else ''} a turn"]
    else:
        words = ["no wind"]
    if wind.get("changes"):
        words.append("may change (W3)")
    for i, line in enumerate(words):
        out.append(text(x, y + 37 + 13 * i, line, 11, "#2c3e50", anchor="middle",
                        bold=i == 0, family=SANS))
    return out + ["</g>"]


# ---------------------------------------------------------------- words


def _state_words(a: Mapping[str, Any], full_dp: int) -> str:
    if a["state"] in ON_MAP:
        where = "" if a["state"] == "flying" else f", {a['state']}"
        return (f"{a.get('hex')} {a.get('heading')}: {a['damage']}/{full_dp} DP, "
                f"{a['ammo']} rounds, {a['vp']} VP{where}")
    gone = {"down": "shot down", "left": "off the board", "removed": "removed"}
    return f"{gone.get(str(a['state']), a['state'])}, {a['vp']} VP"


def _tips(position: Mapping[str, Any], names: Mapping[str, str],
          letters: Mapping[str, str]) -> dict[str, str]:
    tips = {}
    for pilot, a in aircraft_of(position).items():
        tips[pilot] = (f"{names.get(pilot) or pilot} ({letters.get(pilot)}) at {a.get('hex')}, "
                       f"heading {a.get('heading')}, {a['state']}, {a['damage']} damage points, "
                       f"{a['ammo']} rounds, {a['vp']} VP")
    for name, z in zeppelins_of(position).items():
        tips[name] = f"heading {z['heading']}, {z.get('damage', '?')} damage points"
    return tips


def _legend(position: Mapping[str, Any], names: Mapping[str, str],
            letters: Mapping[str, str], colours: Mapping[str, str], width: float,
            y: float) -> tuple[list[str], list[str], float]:
    """The aircraft's rows (the turn's) and the key of the lines and marks
    below them (the same every turn: drawn with the ground), and the height
    they use."""
    settings = position.get("settings") or {}
    full_dp = int(settings.get("damage_points", 12))
    rows = [(colours[p], letters[p], f"{names.get(p) or p} \u2013 {_state_words(a, full_dp)}")
            for p, a in aircraft_of(position).items()]
    for name, z in zeppelins_of(position).items():
        pool = int(settings.get("zeppelin_damage_points_2" if len(z["hexes"]) > 1 else
                                "zeppelin_damage_points_1", 20 if len(z["hexes"]) > 1 else 12))
        state = "destroyed" if z["destroyed"] else f"{z.get('damage', pool)}/{pool} DP"
        rows.append((HULL, letters[name], f"zeppelin {name} \u2013 {state}"))
    out, used = legend_rows(14, y, width - 28, rows)
    extra = [(f'<polygon points="{_mini_hex(13)}" fill="{CLOUD}" stroke="#7d8ea3" '
              'stroke-width="1.4"/>', "cloud: blocks fire (F4)"),
             (f'<polygon points="{_mini_hex(13)}" fill="{STORM}"/><path d="M14,-6 l-4,6 h3 '
              'l-3,6 l6,-7 h-3 l3,-5 z" fill="#f7dc6f"/>', "storm: 1 damage (C2)"),
             (f'<polygon points="{_mini_hex(13)}" fill="{FIELD}"/>',
              "airfield (grey strips: runways)")]
    keys, key_used = key_rows(14, y + used + 10, width - 28, extra)
    return out, keys, used + 10 + key_used


def _mini_hex(cx: float, r: float = 8) -> str:
    return " ".join(f"{num(cx + r * math.cos(math.radians(60 * i)))},"
                    f"{num(r * math.sin(math.radians(60 * i)))}" for i in range(6))


def _colours(position: Mapping[str, Any], before: Mapping[str, Any] | None) -> dict[str, str]:
    pilots = sorted(set(aircraft_of(position)) | set(aircraft_of(before or {})))
    return {p: PILOT_COLOURS[i % len(PILOT_COLOURS)] for i, p in enumerate(pilots)}


# ---------------------------------------------------------------- the pictures


def _ground(scene: _Scene, geo: _Geometry, disabled: set[str], *, labels: bool) -> list[str]:
    """What lies under the turn and its weather: the board in clear sky with
    its airfields, and (``labels``) every hex's name and the files' letters.
    The same from turn to turn (drawn once for many turns,
    ``pbmref.mail.picture``), unless an airfield is put out of use."""
    out = [*_board(scene, geo), *_runways(scene.board, geo, disabled)]
    if labels:
        out += _hex_labels(scene, geo) + _file_letters(scene.board, geo)
    return out


def _disabled(position: Mapping[str, Any]) -> set[str]:
    """The airfields out of use (drawn red)."""
    return {k for k, v in (position.get("airfields") or {}).items()
            if (v or {}).get("disabled_turns")}


def _sky(scene: _Scene, geo: _Geometry, position: Mapping[str, Any], *, style: Style,
         colours: Mapping[str, str], letters: Mapping[str, str],
         names: Mapping[str, str]) -> list[str]:
    """The turn over the ground: paths and bursts, the zeppelin (its hull lets the
    hex names under it show), the fallen, the aircraft, the hits."""
    tips = _tips(position, names, letters)
    return [*_turn(scene, geo, colours, names, style),
            *_zeppelins_drawn(scene, geo, letters, tips),
            *_fallen(scene, geo, colours, names),
            *_aircraft(scene, geo, colours, letters, tips, style),
            *_marks(scene, geo, names, style, named=style is MAP)]


def render_svg(position: Mapping[str, Any], events: list[dict[str, Any]] | None = None,
               *, names: Mapping[str, str] | None = None, title: str | None = None,
               before: Mapping[str, Any] | None = None) -> str:
    """A tweedekker position (scenario schema) as an SVG document; ``events``
    (with ``before``, the position the turn started from) adds the paths flown,
    the bursts fired and the hits of the turn. (Fast Play boards are drawn by
    ``pbmref.rulesets.fastplay.picture``.)"""
    names = dict(names or {})
    board = board_of(position)
    letters = pilot_letters(aircraft_of(position), zeppelins_of(position))
    colours = _colours(position, before)
    geo = _Geometry(board, 44.0 if title else 18.0, 14.0)
    scene = _after_scene(position, list(events or []), before)
    disabled = _disabled(position)
    body = _sky(scene, geo, position, style=MAP, colours=colours, letters=letters,
                names=names)
    body += _wind(position, 52, (44.0 if title else 18.0) + 28)
    if title:
        body.insert(0, text(geo.width / 2, 28, title, 19, "#333", anchor="middle", bold=True))
    legend, keys, used = _legend(position, names, letters, colours, geo.width,
                                 geo.board_bottom + 34)
    return document(geo.width, geo.board_bottom + 40 + used, title or "pbmref map",
                    [*_weather(scene, geo, disabled, labels=True), *body, *legend],
                    ground=[*_ground(scene, geo, disabled, labels=True), *keys])


def render_move_panels(before: Mapping[str, Any], events: Sequence[Event], *,
                       names: Mapping[str, str] | None = None,
                       after: Mapping[str, Any] | None = None) -> list[str]:
    """Three small SVGs, the sky at the end of moves 1, 2 and 3 with that move's
    paths, bursts and hits, for following the turn move by move."""
    names = dict(names or {})
    board = board_of(before)
    letters = pilot_letters(aircraft_of(before), zeppelins_of(before))
    colours = _colours(after or before, before)
    geo = _Geometry(board, 70.0, 6.0)
    disabled = _disabled(before)
    panels = []
    for move in (1, 2, 3):
        scene = _move_scene(before, events, move)
        body = [*_weather(scene, geo, disabled, labels=False),
                *_sky(scene, geo, before, style=PANEL, colours=colours, letters=letters,
                      names=names)]
        height = geo.board_bottom + 8
        # drawn at full size, shown small: the viewBox keeps the drawing; the
        # panel's title is the same every turn, drawn with the ground
        heading = text(geo.width / 2, 50, f"Move {move}", 44, "#333", anchor="middle",
                       bold=True)
        panels.append(document(geo.width, height, f"Move {move}", body,
                               "pbmref-map move-panel", shown=PANEL_WIDTH / geo.width,
                               ground=[*_ground(scene, geo, disabled, labels=False), heading]))
    return panels


def reader_focus(position: Mapping[str, Any], events: Sequence[Event] | None,
                 readers: Sequence[str], *, names: Mapping[str, str] | None = None,
                 title: str | None = None, before: Mapping[str, Any] | None = None
                 ) -> Focus | None:
    """The part of ``render_svg``'s map (drawn with the same arguments) around
    the readers' own aircraft, each ringed, where the hexes' names read at 11
    px; or, for a pilot gone down this turn, around where they fell. None
    for an observer, or a pilot no longer in the sky."""
    names = dict(names or {})
    board = board_of(position)
    geo = _Geometry(board, 44.0 if title else 18.0, 14.0)
    scene = _after_scene(position, list(events or []), before)
    own = [(p, scene.planes[p].hex if p in scene.planes else scene.fallen[p])
           for p in readers if p in scene.planes or p in scene.fallen]
    if not own:
        return None
    zoom = FOCUS_LABEL / 10  # the hexes' names (_hex_labels)
    top = geo.oy - SQRT3 * SIZE * (board.radius + 0.5)
    box = focus_box(*geo.centre(own[0][1]), zoom, (0, top, geo.width, geo.board_bottom))
    rings = tuple((*geo.centre(h), SIZE * 1.05) for _, h in own)
    return Focus(box, rings, _focus_alt(position, scene, own, names, geo, box), zoom)


def _focus_alt(position: Mapping[str, Any], scene: _Scene, own: Sequence[tuple[str, Hex]],
               names: Mapping[str, str], geo: _Geometry,
               box: tuple[float, float, float, float]) -> str:
    """The alt text of a reader's part: where the reader is, then every other
    aircraft the part shows."""
    board = board_of(position)
    aircraft = aircraft_of(position)
    full = int((position.get("settings") or {}).get("damage_points", 12))

    def where(pilot: str, h: Hex) -> str:
        return _where_words(board, aircraft.get(pilot) or {}, h, full,
                            fallen=pilot in scene.fallen)

    def inside(h: Hex) -> bool:
        x, y = geo.centre(h)
        return box[0] <= x <= box[2] and box[1] <= y <= box[3]

    mine = {p for p, _ in own}
    others = [f"{names.get(p) or p} {where(p, h)}"
              for p, h in [*((p, q.hex) for p, q in scene.planes.items()),
                           *scene.fallen.items()] if p not in mine and inside(h)]
    alt = "; ".join(f"you{'' if len(own) == 1 else f' ({names.get(p) or p})'}: {where(p, h)}"
                    for p, h in own)
    return alt + "".join(f"; {o}" for o in others)


def _where_words(board: HexBoard, a: Mapping[str, Any], h: Hex, full: int, *,
                 fallen: bool) -> str:
    """'F10 heading NW, 8 of 12 damage points' (or 'shot down at E9')."""
    if fallen:
        return f"shot down at {board.name(h)}"
    landed = "" if a.get("state") == "flying" else f", {a.get('state')}"
    return (f"{board.name(h)} heading {a.get('heading')}, {a.get('damage')} of {full} "
            f"damage points{landed}")

