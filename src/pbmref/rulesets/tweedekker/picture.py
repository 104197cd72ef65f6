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
from xml.sax.saxutils import escape

from pbmref.reports.model import FOCUS_LABEL, PANEL_WIDTH, Focus, focus_box
from pbmref.rules.eventdata import Event
from pbmref.rules.hexgrid import Heading, Hex, HexBoard
from pbmref.rules.tweedekker.events import Burst, Damaged, Hit, Manoeuvred, ShotDown, ZeppelinMoved
from pbmref.rules.tweedekker.state import (
    Aircraft,
    CloudKind,
    GameState,
    Runway,
    Zeppelin,
    runway_hexes,
)
from pbmref.rulesets.air.names import pilot_letters
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


def _clouds(state: GameState) -> dict[Hex, str]:
    kind_at: dict[Hex, str] = {}
    for c in state.clouds:
        for h in c.hexes:
            kind_at[h] = "storm" if c.kind is CloudKind.STORM else "cloud"
    return kind_at


def _by_name(state: GameState) -> list[Zeppelin]:
    return sorted(state.zeppelins, key=lambda z: z.name)


def _zeppelins(state: GameState) -> dict[str, tuple[list[Hex], Heading]]:
    return {z.name: (list(z.hexes), z.heading) for z in _by_name(state) if not z.destroyed}


def _planes(state: GameState) -> dict[str, _Plane]:
    board = state.board
    return {a.pilot: _Plane(a.hex, a.heading, a.state.value) for a in state.aircraft
            if a.in_fight and board.contains(a.hex)}


def _add_path(scene: _Scene, e: Manoeuvred) -> None:
    if e.outcome in ("stayed", "skipped"):
        return
    track = scene.paths.setdefault(e.pilot, [e.from_hex])
    if track[-1] != e.from_hex:
        track.append(e.from_hex)
    track.append(e.to_hex)


def _add_fire(scene: _Scene, events: Sequence[Event]) -> None:
    """Bursts, and a mark for each hit where it landed (its line's hex at its distance)."""
    bursts = [e for e in events if isinstance(e, Burst)]
    for e in bursts:
        if e.line:
            scene.bursts.append(_Burst(e.shooter, e.from_hex, e.line[-1], bool(e.targets),
                                       e.move, e.direction))
    for hit in (e for e in events if isinstance(e, Hit)):
        h = _hit_hex(bursts, hit)
        if h is not None:
            scene.marks.append(_Mark(h, hit.damage, hit.target, "gunfire", hit.move))


def _hit_hex(bursts: Sequence[Burst], hit: Hit) -> Hex | None:
    """Where a hit landed: the hex of its burst's line at the hit's distance."""
    burst = next((b for b in bursts if b.move == hit.move and b.shooter == hit.shooter
                  and hit.target in b.targets), None)
    line = burst.line if burst else ()
    return line[hit.distance - 1] if 0 < hit.distance <= len(line) else None


def _where_at(events: Sequence[Event], pilot: str, move: int,
              planes: Mapping[str, _Plane]) -> Hex | None:
    """Where an aircraft was at the end of ``move`` (its last manoeuvre so far)."""
    spot = planes[pilot].hex if pilot in planes else None
    for e in events:
        if isinstance(e, Manoeuvred) and e.pilot == pilot and (move == 0 or e.move <= move):
            spot = e.to_hex
    return spot


def _add_other_damage(scene: _Scene, events: Sequence[Event],
                      start: Mapping[str, _Plane]) -> None:
    """Marks for damage not from gunfire (storm C2, bomb Z15, explosion Z12)."""
    for e in events:
        if isinstance(e, Damaged) and e.cause != "gunfire":
            h = _where_at(events, e.target, e.move, start)
            if h is not None:
                scene.marks.append(_Mark(h, e.amount, e.target, e.cause, e.move))


def _after_scene(state: GameState, events: Sequence[Event],
                 before: GameState | None) -> _Scene:
    board = state.board
    scene = _Scene(board, _clouds(state), _zeppelins(state), _planes(state))
    for e in events:
        if isinstance(e, Manoeuvred):
            _add_path(scene, e)
    _add_fire(scene, events)
    _add_other_damage(scene, events, _planes(before or state))
    fallen = {e.target for e in events if isinstance(e, ShotDown)}
    for a in state.aircraft:
        if a.pilot in fallen and not a.in_fight and board.contains(a.hex):
            scene.fallen[a.pilot] = a.hex
    return scene


def _fly(scene: _Scene, e: Manoeuvred) -> None:
    """An aircraft's manoeuvre applied to the scene of a move panel."""
    if e.outcome == "left" or not scene.board.contains(e.to_hex):
        scene.planes.pop(e.pilot, None)
        return
    state = "landed" if e.outcome in ("landed", "stayed", "skipped") else "flying"
    scene.planes[e.pilot] = _Plane(e.to_hex, e.heading, state)


def _move_scene(before: GameState, events: Sequence[Event], move: int) -> _Scene:
    """The sky at the end of ``move``, with that move's paths, bursts and hits."""
    start = _planes(before)
    scene = _Scene(before.board, _clouds(before), _zeppelins(before), dict(start))
    upto = [e for e in events if 0 < e.move <= move]
    now = [e for e in upto if e.move == move]
    for e in upto:
        if isinstance(e, Manoeuvred):
            _fly(scene, e)
        elif isinstance(e, ZeppelinMoved) and e.zeppelin in scene.zeppelins:
            scene.zeppelins[e.zeppelin] = (list(e.to_hexes), e.heading)
        elif isinstance(e, ShotDown):
            if e.target in scene.planes:
                scene.fallen[e.target] = scene.planes.pop(e.target).hex
            scene.zeppelins.pop(e.target, None)
    for e in now:
        if isinstance(e, Manoeuvred):
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


def _wind(state: GameState, x: float, y: float) -> list[str]:
    """An arrow pointing where the wind blows to, with its strength (W1)."""
    strength, heading = state.wind.strength, state.wind.to
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
    if state.wind.changes:
        words.append("may change (W3)")
    for i, line in enumerate(words):
        out.append(text(x, y + 37 + 13 * i, line, 11, "#2c3e50", anchor="middle",
                        bold=i == 0, family=SANS))
    return out + ["</g>"]


# ---------------------------------------------------------------- words


def _state_words(a: Aircraft, board: HexBoard, full_dp: int) -> str:
    if a.in_fight:
        where = "" if a.state.value == "flying" else f", {a.state.value}"
        return (f"{board.name(a.hex)} {a.heading}: {a.damage}/{full_dp} DP, "
                f"{a.ammo} rounds, {a.vp} VP{where}")
    gone = {"down": "shot down", "left": "off the board", "removed": "removed"}
    return f"{gone.get(a.state.value, a.state.value)}, {a.vp} VP"


def _tips(state: GameState, names: Mapping[str, str],
          letters: Mapping[str, str]) -> dict[str, str]:
    tips = {}
    for a in state.aircraft:
        p = a.pilot
        tips[p] = (f"{names.get(p) or p} ({letters.get(p)}) at {state.board.name(a.hex)}, "
                   f"heading {a.heading}, {a.state.value}, {a.damage} damage points, "
                   f"{a.ammo} rounds, {a.vp} VP")
    for z in _by_name(state):
        tips[z.name] = f"heading {z.heading}, {z.damage} damage points"
    return tips


def _legend(state: GameState, names: Mapping[str, str],
            letters: Mapping[str, str], colours: Mapping[str, str], width: float,
            y: float) -> tuple[list[str], list[str], float]:
    """The aircraft's rows (the turn's) and the key of the lines and marks
    below them (the same every turn: drawn with the ground), and the height
    they use."""
    settings = state.settings
    rows = [(colours[a.pilot], letters[a.pilot], f"{names.get(a.pilot) or a.pilot} \u2013 "
             f"{_state_words(a, state.board, settings.damage_points)}") for a in state.aircraft]
    for z in _by_name(state):
        pool = (settings.zeppelin_damage_points_2 if len(z.hexes) > 1
                else settings.zeppelin_damage_points_1)
        words = "destroyed" if z.destroyed else f"{z.damage}/{pool} DP"
        rows.append((HULL, letters[z.name], f"zeppelin {z.name} \u2013 {words}"))
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


def _colours(state: GameState, before: GameState | None) -> dict[str, str]:
    pilots = sorted({*state.pilots(), *(before.pilots() if before else ())})
    return {p: PILOT_COLOURS[i % len(PILOT_COLOURS)] for i, p in enumerate(pilots)}


def _letters(state: GameState) -> dict[str, str]:
    return pilot_letters(state.pilots(), [z.name for z in state.zeppelins])


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


def _disabled(state: GameState) -> set[str]:
    """The airfields out of use (drawn red)."""
    return {f.corner.value for f in state.airfields if f.disabled_turns}


def _sky(scene: _Scene, geo: _Geometry, state: GameState, *, style: Style,
         colours: Mapping[str, str], letters: Mapping[str, str],
         names: Mapping[str, str]) -> list[str]:
    """The turn over the ground: paths and bursts, the zeppelin (its hull lets the
    hex names under it show), the fallen, the aircraft, the hits."""
    tips = _tips(state, names, letters)
    return [*_turn(scene, geo, colours, names, style),
            *_zeppelins_drawn(scene, geo, letters, tips),
            *_fallen(scene, geo, colours, names),
            *_aircraft(scene, geo, colours, letters, tips, style),
            *_marks(scene, geo, names, style, named=style is MAP)]


def render_svg(state: GameState, events: Sequence[Event] | None = None,
               *, names: Mapping[str, str] | None = None, title: str | None = None,
               before: GameState | None = None) -> str:
    """A tweedekker position as an SVG document; ``events`` (with ``before``,
    the position the turn started from) adds the paths flown, the bursts fired
    and the hits of the turn. (Fast Play boards are drawn by
    ``pbmref.rulesets.fastplay.picture``.)"""
    names = dict(names or {})
    letters = _letters(state)
    colours = _colours(state, before)
    geo = _Geometry(state.board, 44.0 if title else 18.0, 14.0)
    scene = _after_scene(state, events or (), before)
    disabled = _disabled(state)
    body = _sky(scene, geo, state, style=MAP, colours=colours, letters=letters,
                names=names)
    body += _wind(state, 52, (44.0 if title else 18.0) + 28)
    if title:
        body.insert(0, text(geo.width / 2, 28, title, 19, "#333", anchor="middle", bold=True))
    legend, keys, used = _legend(state, names, letters, colours, geo.width,
                                 geo.board_bottom + 34)
    return document(geo.width, geo.board_bottom + 40 + used, title or "pbmref map",
                    [*_weather(scene, geo, disabled, labels=True), *body, *legend],
                    ground=[*_ground(scene, geo, disabled, labels=True), *keys])


def render_move_panels(before: GameState, events: Sequence[Event], *,
                       names: Mapping[str, str] | None = None,
                       after: GameState | None = None) -> list[str]:
    """Three small SVGs, the sky at the end of moves 1, 2 and 3 with that move's
    paths, bursts and hits, for following the turn move by move."""
    names = dict(names or {})
    letters = _letters(before)
    colours = _colours(after or before, before)
    geo = _Geometry(before.board, 70.0, 6.0)
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


def reader_focus(state: GameState, events: Sequence[Event] | None,
                 readers: Sequence[str], *, names: Mapping[str, str] | None = None,
                 title: str | None = None, before: GameState | None = None
                 ) -> Focus | None:
    """The part of ``render_svg``'s map (drawn with the same arguments) around
    the readers' own aircraft, each ringed, where the hexes' names read at 11
    px; or, for a pilot gone down this turn, around where they fell. None
    for an observer, or a pilot no longer in the sky."""
    names = dict(names or {})
    board = state.board
    geo = _Geometry(board, 44.0 if title else 18.0, 14.0)
    scene = _after_scene(state, events or (), before)
    own = [(p, scene.planes[p].hex if p in scene.planes else scene.fallen[p])
           for p in readers if p in scene.planes or p in scene.fallen]
    if not own:
        return None
    zoom = FOCUS_LABEL / 10  # the hexes' names (_hex_labels)
    top = geo.oy - SQRT3 * SIZE * (board.radius + 0.5)
    box = focus_box(*geo.centre(own[0][1]), zoom, (0, top, geo.width, geo.board_bottom))
    rings = tuple((*geo.centre(h), SIZE * 1.05) for _, h in own)
    return Focus(box, rings, _focus_alt(state, scene, own, names, geo, box), zoom)


def _focus_alt(state: GameState, scene: _Scene, own: Sequence[tuple[str, Hex]],
               names: Mapping[str, str], geo: _Geometry,
               box: tuple[float, float, float, float]) -> str:
    """The alt text of a reader's part: where the reader is, then every other
    aircraft the part shows."""
    board = state.board
    aircraft = {a.pilot: a for a in state.aircraft}
    full = state.settings.damage_points

    def where(pilot: str, h: Hex) -> str:
        if pilot in scene.fallen:
            return f"shot down at {board.name(h)}"
        a = aircraft[pilot]
        landed = "" if a.state.value == "flying" else f", {a.state.value}"
        return (f"{board.name(h)} heading {a.heading}, {a.damage} of {full} "
                f"damage points{landed}")

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
