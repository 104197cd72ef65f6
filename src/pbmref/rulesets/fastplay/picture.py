"""The Fast Play board as a picture: an SVG map for the mail and the archive.

The rectangle of flat-topped hexes of rule FP1, north up, files A, C, E...
half a hex lower than B, D, F...; each hex carries its name, legible on a
phone, and a hover ``<title>``. File letters run along the top and bottom,
hex numbers down both sides, and the two sides' edges are named (Germans
north, Allies south). Every plane on the board is one ``<g
id="aircraft-PILOT">``: a small biplane pointing along its heading in the
pilot's own colour (a colour-blind-safe set), with its letter (upper case
Germans, lower case Allies, as on the character map). With the turn's events
the paths flown are drawn (dashed, an arrow off the board for a plane that
left, FP13) and the fire of every move: solid red from shooter to target
with the hits scored marked on the target ("−2"), dotted grey for a shot
that missed. The legend gives each plane's hits of six, victories and cards
in words, and what each line means. ``render_fastplay_move_panels`` draws
the board after each of the three moves. Self-contained: no fonts, images
or scripts from outside.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from xml.sax.saxutils import escape

from pbmref.reports.model import FOCUS_LABEL, PANEL_WIDTH, Focus, focus_box
from pbmref.rules.eventdata import Event
from pbmref.rules.fastplay import events as ev
from pbmref.rules.fastplay.board import FastBoard
from pbmref.rules.fastplay.state import GameState, Plane
from pbmref.rules.hexgrid import Heading, Hex
from pbmref.rulesets.air.svgkit import (
    MAP,
    PANEL,
    PILOT_COLOURS,
    SANS,
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
from pbmref.rulesets.fastplay.turn import DECK_SIZE, letters_of

__all__ = ["fastplay_focus", "render_fastplay_move_panels", "render_fastplay_svg"]

SIZE = 24.0  # hex circumradius in px
SQRT3 = math.sqrt(3)
SKY = "#dbeaf5"
EDGE = "#c9dcea"
ANGLES = {h: i * 60 for i, h in enumerate(Heading)}


class _Geometry:
    def __init__(self, board: FastBoard, top: float, side: float) -> None:
        self.board = board
        self.x0 = side + SIZE
        self.y0 = top + SQRT3 * SIZE / 2
        self.width = 2 * side + 1.5 * SIZE * (board.files - 1) + 2 * SIZE
        self.bottom = self.y0 + SQRT3 * SIZE * (board.ranks - 1) + SQRT3 * SIZE

    def centre(self, h: Hex) -> tuple[float, float]:
        f, n = self.board.file_number(h)
        stagger = 0.5 if f % 2 == 0 else 0.0  # A, C, E... lower (FP1)
        return (self.x0 + 1.5 * SIZE * f,
                self.y0 + SQRT3 * SIZE * (self.board.ranks - n + stagger))

    def corners(self, h: Hex) -> str:
        cx, cy = self.centre(h)
        return " ".join(f"{num(cx + SIZE * math.cos(math.radians(60 * i)))},"
                        f"{num(cy + SIZE * math.sin(math.radians(60 * i)))}"
                        for i in range(6))


# ---------------------------------------------------------------- what is drawn


@dataclass
class _Shot:
    event: ev.Fired
    start: Hex
    end: Hex


@dataclass
class _Scene:
    """One moment of the board: planes (hex, heading), the paths, the fire."""

    board: FastBoard
    planes: dict[str, tuple[Hex, Heading]]
    paths: dict[str, list[Hex]] = field(default_factory=dict)
    off: dict[str, Hex] = field(default_factory=dict)
    shots: list[_Shot] = field(default_factory=list)


def _start(state: GameState | None) -> dict[str, tuple[Hex, Heading]]:
    if state is None:
        return {}
    board = state.board
    return {p.pilot: (p.hex, p.heading) for p in state.planes
            if p.state.value == "flying" and p.hex is not None and board.contains(p.hex)}


def _manoeuvre(scene: _Scene, e: ev.Manoeuvred, track: bool) -> None:
    pilot, src, dst = e.pilot, e.from_hex, e.to_hex
    path = scene.paths.setdefault(pilot, [src]) if track else []
    if track and path[-1] != src:
        path.append(src)
    if dst is None:  # off the board (FP13)
        if track:
            scene.off[pilot] = src.step(e.heading)
        scene.planes.pop(pilot, None)
        return
    if track and dst != src:
        path.append(dst)
    scene.planes[pilot] = (dst, e.heading)


def _play(scene: _Scene, events: Sequence[Event], moves: set[int] | None) -> None:
    """The events applied in order; paths and fire kept for ``moves`` (None: all)."""
    for e in events:
        keep = moves is None or e.move in moves
        if isinstance(e, ev.Entered):
            scene.planes[e.pilot] = (e.hex, e.heading)
            if keep:
                scene.paths[e.pilot] = [e.hex]
        elif isinstance(e, ev.Manoeuvred):
            _manoeuvre(scene, e, keep)
        elif isinstance(e, ev.Fired) and keep:
            src = scene.planes.get(e.shooter)
            dst = scene.planes.get(e.target)
            if src is not None and dst is not None:
                scene.shots.append(_Shot(e, src[0], dst[0]))
        elif isinstance(e, ev.ShotDown):
            scene.planes.pop(e.target, None)


def _after_scene(state: GameState, events: Sequence[Event],
                 before: GameState | None) -> _Scene:
    scene = _Scene(state.board, _start(before))
    _play(scene, events, None)
    scene.planes = _start(state)  # the board after the turn, as recorded
    return scene


def _move_scene(before: GameState, events: Sequence[Event], move: int) -> _Scene:
    scene = _Scene(before.board, _start(before))
    upto = [e for e in events if e.move <= move
            and not (e.move == 0 and _after_moves(events, e))]
    _play(scene, upto, {move})
    return scene


def _after_moves(events: Sequence[Event], e: Event) -> bool:
    """Whether a move-0 event comes after the moves (the end of the turn)."""
    index = next(i for i, x in enumerate(events) if x is e)
    return any(x.move > 0 for x in events[:index])


# ---------------------------------------------------------------- drawing


def _board(board: FastBoard, geo: _Geometry, labels: bool) -> list[str]:
    out = ['<g class="board">']
    for h in board.hexes():
        name = board.name(h)
        edge = board.on_edge(h)
        tip = name + (" (edge hex, FP1)" if edge else "")
        out.append(f'<polygon class="hex{" edge" if edge else ""}" id="hex-{name}" '
                   f'points="{geo.corners(h)}" fill="{EDGE if edge else SKY}" '
                   f'stroke="#9db4c8" stroke-width="0.8"><title>{tip}</title></polygon>')
    out.append("</g>")
    if labels:
        out.append('<g class="hexnames">')
        for h in board.hexes():
            cx, cy = geo.centre(h)
            out.append(text(cx, cy + SIZE * 0.74, board.name(h), 9.5, "#34495e",
                            anchor="middle", halo=True, cls="hexname", family=SANS))
        out.append("</g>")
    return out


def _margins(board: FastBoard, geo: _Geometry, top: float) -> list[str]:
    w = geo.width
    out = [text(w / 2, top - 24, "north: the Germans' edge (FP1)", 12, "#333",
                anchor="middle", bold=True, cls="edge", family=SANS),
           text(w / 2, geo.bottom + 32, "south: the Allies' edge (FP1)", 12, "#7b241c",
                anchor="middle", bold=True, cls="edge", family=SANS)]
    for f in range(board.files):
        x, y_top = geo.centre(board.hex_at(f, board.ranks))
        _, y_bottom = geo.centre(board.hex_at(f, 1))
        for y in (y_top - SIZE - 2, y_bottom + SIZE + 12):
            out.append(text(x, y, chr(ord("A") + f), 12, "#444", anchor="middle", bold=True,
                            cls="file"))
    for n in range(1, board.ranks + 1):
        _, y = geo.centre(board.hex_at(0, n))
        x_last, y_last = geo.centre(board.hex_at(board.files - 1, n))
        out.append(text(geo.x0 - SIZE - 4, y + 4, str(n), 11, "#444", anchor="end",
                        cls="rank"))
        out.append(text(x_last + SIZE + 4, y_last + 4, str(n), 11, "#444", cls="rank"))
    return out


def _turn(scene: _Scene, geo: _Geometry, colours: Mapping[str, str],
          names: Mapping[str, str], style: Style) -> list[str]:
    out: list[str] = []
    for pilot, track in scene.paths.items():
        pts = [geo.centre(h) for h in track]
        if pilot in scene.off:
            pts.append(geo.centre(scene.off[pilot]))
        if len(pts) < 2:
            continue
        flown = " ".join(scene.board.name(h) for h in track) + (
            " and off the board" if pilot in scene.off else "")
        out += path_line(pts, colours.get(pilot, "#333"), style, f"path-{safe_id(pilot)}",
                         f"{names.get(pilot) or pilot}: flew {flown}")
    for shot in scene.shots:
        e = shot.event
        hits = e.hits
        rolls = " ".join(str(r) for r in e.rolls)
        who, at = (names.get(k) or k for k in (e.shooter, e.target))
        out += burst_line(geo.centre(shot.start), geo.centre(shot.end), hits > 0, style, "fire",
                          f"move {e.move}: {who} fires at {at}: {rolls} - {hits} "
                          f"hit{'s' if hits != 1 else ''} (FP8)")
    return ['<g class="turn">', *out, "</g>"] if out else []


def _planes(scene: _Scene, geo: _Geometry, colours: Mapping[str, str],
            letters: Mapping[str, str], tips: Mapping[str, str], style: Style) -> list[str]:
    out = []
    sharing: dict[Hex, list[str]] = {}
    for pilot, (h, _) in scene.planes.items():
        sharing.setdefault(h, []).append(pilot)
    for pilot, (h, heading) in scene.planes.items():
        x, y = geo.centre(h)
        mates = sharing[h]
        if len(mates) > 1:  # planes in one hex fly at different heights (FP2)
            n = mates.index(pilot)
            x += -8 + 16 * (n % 2)
            y += -7 * (n // 2)
        colour = colours.get(pilot, "#333")
        lift = style.letter_size * 0.9
        label = (text(x + lift, y - lift * 0.7, letters.get(pilot, "?"), style.letter_size,
                      colour, bold=True, halo=True, family=SANS) if style.letter_size else "")
        out.append(f'<g class="aircraft" id="aircraft-{safe_id(pilot)}">'
                   f"<title>{escape(tips.get(pilot, pilot))}</title>"
                   f"{plane(x, y, ANGLES[heading], colour, style.plane_scale)}{label}</g>")
    return out


def _marks(scene: _Scene, geo: _Geometry, names: Mapping[str, str], style: Style,
           *, named: bool) -> list[str]:
    """A star for each hex hit, with the hits' damage, kept off one another and
    (``named``: the board shows the hexes' names) off the names."""
    landed: dict[Hex, list[tuple[int, str]]] = {}
    for shot in scene.shots:
        hits = shot.event.hits
        if hits:
            target = shot.event.target
            landed.setdefault(shot.end, []).append(
                (hits, f"move {shot.event.move}: {names.get(target) or target} "
                       f"takes {hits}"))
    spots = [(*geo.centre(h), SIZE, [n for n, _ in hits], "; ".join(t for _, t in hits))
             for h, hits in landed.items()]
    avoid = [text_box(x, y + SIZE * 0.74, geo.board.name(h), 9.5, anchor="middle")
             for h in geo.board.hexes() for x, y in [geo.centre(h)]] if named else []
    return hit_marks(spots, style, avoid)


# ---------------------------------------------------------------- words


def _at(state: GameState, a: Plane) -> str:
    return "None" if a.hex is None else state.board.name(a.hex)


def _state_words(state: GameState, a: Plane) -> str:
    side, down = a.team.value, state.settings.hits_to_down
    if a.state.value == "flying":
        return (f"{side}, {_at(state, a)} {a.heading}: {a.hits}/{down} hits, "
                f"{_victories(a)}, {len(a.deck)} cards")
    gone = {"left": "off the board, back next turn", "down": "shot down, back next turn",
            "out": "put out of action", "removed": "removed"}
    return f"{side}, {gone.get(a.state.value, a.state.value)}, {_victories(a)}"


def _victories(a: Plane) -> str:
    return f"{a.kills} {'victory' if a.kills == 1 else 'victories'}"


def _colours(*states: GameState) -> dict[str, str]:
    pilots = sorted({p.pilot for state in states for p in state.planes})
    return {p: PILOT_COLOURS[i % len(PILOT_COLOURS)] for i, p in enumerate(pilots)}


def _tips(state: GameState, names: Mapping[str, str],
          letters: Mapping[str, str]) -> dict[str, str]:
    down = state.settings.hits_to_down
    return {a.pilot: (f"{names.get(a.pilot) or a.pilot} ({letters.get(a.pilot)}, "
                      f"{a.team.value}) at {_at(state, a)}, heading {a.heading}, {a.hits} of "
                      f"{down} hits, {a.kills} victories{', ace' if a.ace else ''}, "
                      f"{len(a.deck)} cards")
            for a in state.planes}


def _legend(state: GameState, names: Mapping[str, str],
            letters: Mapping[str, str], colours: Mapping[str, str], width: float,
            y: float) -> tuple[list[str], float]:
    score = {team.value: n for team, n in state.score}
    out = [text(14, y, f"Score: Germans {score.get('Germans', 0)}, Allies "
                f"{score.get('Allies', 0)}", 15, "#222", bold=True, cls="score", family=SANS)]
    rows = [(colours[a.pilot], letters[a.pilot],
             f"{names.get(a.pilot) or a.pilot} \u2013 {_state_words(state, a)}")
            for a in state.planes]
    legend, used = legend_rows(14, y + 26, width - 28, rows)
    edge = (f'<polygon points="{_mini_hex(13)}" fill="{EDGE}" stroke="#9db4c8"/>',
            f"edge hex; a full deck is {DECK_SIZE} cards")
    keys, key_used = key_rows(14, y + 26 + used + 8, width - 28, [edge])
    return out + legend + keys, 26 + used + 8 + key_used


def _mini_hex(cx: float, r: float = 8) -> str:
    return " ".join(f"{num(cx + r * math.cos(math.radians(60 * i)))},"
                    f"{num(r * math.sin(math.radians(60 * i)))}" for i in range(6))


# ---------------------------------------------------------------- the pictures


def render_fastplay_svg(state: GameState, events: Sequence[Event] | None = None, *,
                        names: Mapping[str, str] | None = None,
                        title: str | None = None,
                        before: GameState | None = None) -> str:
    """The position as an SVG document; ``events`` (with ``before``, the
    position the turn started from) adds this turn's paths and fire."""
    names = dict(names or {})
    board = state.board
    letters = letters_of(*([before] if before else []), state)
    colours = _colours(*([before] if before else []), state)
    top = (46.0 if title else 20.0) + 24
    geo = _Geometry(board, top, 30.0)
    scene = _after_scene(state, events or (), before)
    tips = _tips(state, names, letters)
    body = [*_board(board, geo, True), *_margins(board, geo, top),
            *_turn(scene, geo, colours, names, MAP),
            *_planes(scene, geo, colours, letters, tips, MAP), *_marks(scene, geo, names, MAP, named=True)]
    if title:
        body.insert(0, text(geo.width / 2, 28, title, 19, "#333", anchor="middle", bold=True))
    legend, used = _legend(state, names, letters, colours, geo.width, geo.bottom + 60)
    return document(geo.width, geo.bottom + 66 + used, title or "pbmref Fast Play map",
                    body + legend, "pbmref-map fastplay-map")


def render_fastplay_move_panels(before: GameState, events: Sequence[Event], *,
                                names: Mapping[str, str] | None = None,
                                after: GameState | None = None) -> list[str]:
    """Three small SVGs: the board at the end of moves 1, 2 and 3, with that
    move's paths and fire."""
    names = dict(names or {})
    board = before.board
    letters = letters_of(before, *([after] if after else []))
    colours = _colours(before, *([after] if after else []))
    tips = _tips(before, names, letters)
    geo = _Geometry(board, 70.0, 6.0)
    panels = []
    for move in (1, 2, 3):
        scene = _move_scene(before, events, move)
        body = [text(geo.width / 2, 50, f"Move {move}", 44, "#333", anchor="middle",
                     bold=True), *_board(board, geo, False),
                *_turn(scene, geo, colours, names, PANEL),
                *_planes(scene, geo, colours, letters, tips, PANEL),
                *_marks(scene, geo, names, PANEL, named=False)]
        height = geo.bottom + 8
        # drawn at full size, shown small: the viewBox keeps the drawing
        panels.append(document(geo.width, height, f"Move {move}", body,
                               "pbmref-map move-panel", shown=PANEL_WIDTH / geo.width))
    return panels


def fastplay_focus(state: GameState, events: Sequence[Event] | None,
                   readers: Sequence[str], *, names: Mapping[str, str] | None = None,
                   title: str | None = None, before: GameState | None = None
                   ) -> Focus | None:
    """The part of ``render_fastplay_svg``'s board (drawn with the same
    arguments) around the readers' own planes, ringed, where the hexes' names
    read at 11 px (issue 43, item 2); None for an observer or a pilot not on
    the board."""
    names = dict(names or {})
    board = state.board
    top = (46.0 if title else 20.0) + 24
    geo = _Geometry(board, top, 30.0)
    scene = _after_scene(state, events or (), before)
    own = [(p, scene.planes[p][0]) for p in readers if p in scene.planes]
    if not own:
        return None
    zoom = FOCUS_LABEL / 9.5  # the hexes' names (_board)
    box = focus_box(*geo.centre(own[0][1]), zoom, (0, top - 30, geo.width, geo.bottom + 30))
    rings = tuple((*geo.centre(h), SIZE * 1.05) for _, h in own)
    planes = {a.pilot: a for a in state.planes}
    down = state.settings.hits_to_down

    def where(pilot: str, h: Hex) -> str:
        a = planes[pilot]
        return f"{board.name(h)} heading {a.heading}, {a.hits} of {down} hits"

    mine = {p for p, _ in own}
    others = [f"{names.get(p) or p} {where(p, h)}" for p, (h, _) in scene.planes.items()
              if p not in mine and box[0] <= geo.centre(h)[0] <= box[2]
              and box[1] <= geo.centre(h)[1] <= box[3]]
    alt = "; ".join(f"you{'' if len(own) == 1 else f' ({names.get(p) or p})'}: {where(p, h)}"
                    for p, h in own)
    return Focus(box, rings, alt + "".join(f"; {o}" for o in others), zoom)

