"""The Fast Play board as a picture: an SVG map for the mail and the archive.

The rectangle of flat-topped hexes of rule FP1, north up, files A, C, E...
half a hex lower than B, D, F...; each hex carries its name, in small print
and as a hover ``<title>``. File letters run along the top and bottom, hex
numbers down both sides, and the two sides' edges are named (Germans north,
Allies south). Every plane on the board is one ``<g id="aircraft-PILOT">``:
a small biplane pointing along its heading, in its side's colour, with its
letter (upper case Germans, lower case Allies, as on the character map).
With the turn's events the paths flown this turn are drawn (dashed, in the
plane's colour, an arrow off the board for a plane that left, FP13) and the
fire of every move (a dotted line from shooter to target, its hits in the
hover title). A key under the board lists every pilot. Self-contained: no
fonts, images or scripts from outside.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any
from xml.sax.saxutils import escape

from pbmref.reports.fastplay_text import (
    DECK_SIZE,
    fastplay_board,
    fastplay_letters,
    fastplay_planes,
)
from pbmref.reports.svg import ANGLES, _num, _plane_shape, _safe_id
from pbmref.rules.fastplay.board import FastBoard
from pbmref.rules.hexgrid import Heading, Hex, HexNameError

__all__ = ["SIDE_COLOURS", "render_fastplay_svg"]

SIZE = 24.0  # hex circumradius in px
SQRT3 = math.sqrt(3)
SIDE_COLOURS = {"Germans": ("#5b5b5b", "#8a8a8a", "#444"),  # fill, light, text
                "Allies": ("#b03a2e", "#d98880", "#7b241c")}
PATH_COLOURS = {"Germans": ("#1f1f1f", "#4a4a4a", "#6e6e6e", "#2e4053"),
                "Allies": ("#922b21", "#b9770e", "#1f618d", "#6c3483")}
SKY = "#dbeaf5"
EDGE = "#c9dcea"


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
        return " ".join(f"{_num(cx + SIZE * math.cos(math.radians(60 * i)))},"
                        f"{_num(cy + SIZE * math.sin(math.radians(60 * i)))}"
                        for i in range(6))


def _hex(board: FastBoard, name: Any) -> Hex | None:
    if name is None:
        return None
    try:
        return board.parse(str(name))
    except HexNameError:
        return None


def _heading(value: Any) -> Heading:
    try:
        return Heading.parse(str(value))
    except (HexNameError, AttributeError):
        return Heading.N


def _tracks(board: FastBoard, events: list[dict[str, Any]], before: Mapping[str, Any]
            ) -> tuple[dict[str, list[Hex]], dict[str, Hex], list[tuple[dict[str, Any],
                                                                       Hex, Hex]]]:
    """Paths flown, where planes flew off, and each fire event with both hexes."""
    where: dict[str, Hex] = {}
    for pilot, a in fastplay_planes(before).items():
        h = _hex(board, a.get("hex")) if a.get("state") == "flying" else None
        if h is not None:
            where[pilot] = h
    paths: dict[str, list[Hex]] = {}
    off: dict[str, Hex] = {}
    fire: list[tuple[dict[str, Any], Hex, Hex]] = []
    for e in events:
        kind = e.get("kind")
        if kind == "entered":
            h = _hex(board, e.get("hex"))
            if h is not None:
                where[str(e.get("pilot"))] = h
                paths[str(e.get("pilot"))] = [h]
        elif kind == "manoeuvre":
            pilot = str(e.get("pilot"))
            src = _hex(board, e.get("from_hex"))
            dst = _hex(board, e.get("to_hex"))
            if src is None:
                continue
            track = paths.setdefault(pilot, [src])
            if track[-1] != src:
                track.append(src)
            if dst is None:
                off[pilot] = src.step(_heading(e.get("heading")))
                where.pop(pilot, None)
            else:
                if dst != src:
                    track.append(dst)
                where[pilot] = dst
        elif kind == "fire":
            src = where.get(str(e.get("shooter")))
            dst = where.get(str(e.get("target")))
            if src is not None and dst is not None:
                fire.append((e, src, dst))
        elif kind == "shot_down":
            where.pop(str(e.get("target")), None)
    return paths, off, fire


def render_fastplay_svg(position: Mapping[str, Any],
                        events: list[dict[str, Any]] | None = None, *,
                        names: Mapping[str, str] | None = None,
                        title: str | None = None,
                        before: Mapping[str, Any] | None = None) -> str:
    """The position (scenario schema) as an SVG document; ``events`` (with
    ``before``, the position the turn started from) adds this turn's paths and fire."""
    names = dict(names or {})
    events = list(events or [])
    board = fastplay_board(position)
    planes = fastplay_planes(position)
    letters = fastplay_letters(*([before] if before else []), position)
    colours: dict[str, str] = {}
    count = {"Germans": 0, "Allies": 0}
    for pilot, a in planes.items():
        side = "Allies" if a["team"] == "Allies" else "Germans"
        colours[pilot] = PATH_COLOURS[side][count[side] % len(PATH_COLOURS[side])]
        count[side] += 1
    top = (44.0 if title else 18.0) + 16
    geo = _Geometry(board, top, 30.0)
    legend_rows = len(planes) + 2
    height = geo.bottom + 40 + 18 * legend_rows
    w = geo.width
    out: list[str] = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_num(w)}" height="{_num(height)}" '
        f'viewBox="0 0 {_num(w)} {_num(height)}" font-family="Georgia, serif" '
        'class="pbmref-map fastplay-map">',
        "<title>" + escape(title or "pbmref Fast Play map") + "</title>",
        f'<rect x="0" y="0" width="{_num(w)}" height="{_num(height)}" fill="#f7f3e8"/>',
    ]
    if title:
        out.append(f'<text x="{_num(w / 2)}" y="26" text-anchor="middle" font-size="18" '
                   f'fill="#333">{escape(title)}</text>')
    out.append(f'<text class="edge" x="{_num(w / 2)}" y="{_num(top - 22)}" '
               'text-anchor="middle" font-size="11" fill="#444">'
               "north: the Germans' edge (FP1)</text>")
    out.append(f'<text class="edge" x="{_num(w / 2)}" y="{_num(geo.bottom + 30)}" '
               'text-anchor="middle" font-size="11" fill="#7b241c">'
               "south: the Allies' edge (FP1)</text>")

    # --- the board ---
    out.append('<g class="board">')
    for h in board.hexes():
        name = board.name(h)
        edge = board.on_edge(h)
        tip = name + (" (edge hex, FP1)" if edge else "")
        out.append(f'<polygon class="hex{" edge" if edge else ""}" id="hex-{name}" '
                   f'points="{geo.corners(h)}" fill="{EDGE if edge else SKY}" '
                   f'stroke="#9db4c8" stroke-width="0.8"><title>{tip}</title></polygon>')
    for h in board.hexes():
        cx, cy = geo.centre(h)
        out.append(f'<text class="hexname" x="{_num(cx)}" y="{_num(cy + SIZE * 0.72)}" '
                   f'text-anchor="middle" font-size="7" fill="#7f96ab">{board.name(h)}</text>')
    out.append("</g>")
    for f in range(board.files):
        letter = chr(ord("A") + f)
        x, y_top = geo.centre(board.hex_at(f, board.ranks))
        _, y_bottom = geo.centre(board.hex_at(f, 1))
        for y in (y_top - SIZE - 2, y_bottom + SIZE + 11):
            out.append(f'<text class="file" x="{_num(x)}" y="{_num(y)}" text-anchor="middle" '
                       f'font-size="11" fill="#555">{letter}</text>')
    for n in range(1, board.ranks + 1):
        _, y = geo.centre(board.hex_at(0, n))
        _, y_last = geo.centre(board.hex_at(board.files - 1, n))
        x_last = geo.centre(board.hex_at(board.files - 1, n))[0]
        out.append(f'<text class="rank" x="{_num(geo.x0 - SIZE - 4)}" y="{_num(y + 4)}" '
                   f'text-anchor="end" font-size="10" fill="#555">{n}</text>')
        out.append(f'<text class="rank" x="{_num(x_last + SIZE + 4)}" y="{_num(y_last + 4)}" '
                   f'font-size="10" fill="#555">{n}</text>')

    # --- this turn: paths flown and fire ---
    paths, off, fire = _tracks(board, events, before or {})
    if paths or fire:
        out.append('<g class="turn">')
    for pilot, track in paths.items():
        colour = colours.get(pilot, "#333")
        pts = [geo.centre(h) for h in track]
        if pilot in off:
            x, y = geo.centre(off[pilot])
            pts.append((x, y))
        if len(pts) < 2:
            continue
        who = escape(names.get(pilot) or pilot)
        flown = " ".join(board.name(h) for h in track) + (" and off the board"
                                                             if pilot in off else "")
        out.append(f'<polyline class="path path-{_safe_id(pilot)}" points="'
                   + " ".join(f"{_num(x)},{_num(y)}" for x, y in pts)
                   + f'" fill="none" stroke="{colour}" stroke-width="2.2" '
                   f'stroke-dasharray="5,3" opacity="0.85"><title>{who}: flew {flown}'
                   "</title></polyline>")
        for x, y in pts[:-1]:
            out.append(f'<circle cx="{_num(x)}" cy="{_num(y)}" r="2.4" fill="{colour}"/>')
    for e, from_hex, to_hex in fire:
        (x1, y1), (x2, y2) = geo.centre(from_hex), geo.centre(to_hex)
        hits = int(e.get("hits", 0))
        rolls = " ".join(str(r) for r in e.get("rolls") or [])
        shooter = escape(names.get(str(e.get("shooter"))) or str(e.get("shooter")))
        target = escape(names.get(str(e.get("target"))) or str(e.get("target")))
        out.append(f'<line class="fire" x1="{_num(x1)}" y1="{_num(y1)}" x2="{_num(x2)}" '
                   f'y2="{_num(y2)}" stroke="{"#e74c3c" if hits else "#e67e22"}" '
                   'stroke-width="1.6" stroke-dasharray="1.5,2.5" opacity="0.9">'
                   f"<title>move {e.get('move')}: {shooter} fires at {target}: "
                   f"{rolls} - {hits} hit{'s' if hits != 1 else ''} (FP8)</title></line>")
    if paths or fire:
        out.append("</g>")

    # --- planes on the board ---
    count_at: dict[Hex, int] = {}
    at: dict[Hex, int] = {}
    for a in planes.values():
        spot = _hex(board, a.get("hex")) if a["state"] == "flying" else None
        if spot is not None:
            at[spot] = at.get(spot, 0) + 1
    hits_down = int((position.get("settings") or {}).get("hits_to_down", 6))
    for pilot, a in planes.items():
        spot = _hex(board, a.get("hex")) if a["state"] == "flying" else None
        if spot is None or not board.contains(spot):
            continue
        h = spot
        n = count_at.get(h, 0)
        count_at[h] = n + 1
        x, y = geo.centre(h)
        if at[h] > 1:  # planes in one hex fly at different heights (FP2)
            x += -7 + 14 * (n % 2)
            y += -6 * (n // 2)
        heading = _heading(a["heading"])
        side = "Allies" if a["team"] == "Allies" else "Germans"
        fill, _, ink = SIDE_COLOURS[side]
        deck = a.get("deck")
        cards = len(deck) if isinstance(deck, list) else DECK_SIZE
        tip = (f"{names.get(pilot) or pilot} ({letters[pilot]}, {side}) at {a.get('hex')}, "
               f"heading {heading.value}, {a['hits']} of {hits_down} hits, "
               f"{a['kills']} victories{', ace' if a.get('ace') else ''}, {cards} cards")
        out.append(
            f'<g class="aircraft aircraft-{side.lower()}" id="aircraft-{_safe_id(pilot)}">'
            f"<title>{escape(tip)}</title>"
            f'<g transform="translate({_num(x)},{_num(y)}) rotate({ANGLES[heading]}) '
            f'scale(0.85)">{_plane_shape(fill)}</g>'
            f'<circle cx="{_num(x + 12)}" cy="{_num(y - 12)}" r="6.5" fill="#fff" '
            f'stroke="{ink}" stroke-width="0.8"/>'
            f'<text x="{_num(x + 12)}" y="{_num(y - 8.5)}" text-anchor="middle" font-size="10" '
            f'font-weight="bold" fill="{ink}">{escape(letters[pilot])}</text></g>')

    # --- key ---
    y = geo.bottom + 56
    score = position.get("score") or {}
    out.append(f'<text class="score" x="14" y="{_num(y)}" font-size="12" fill="#333">'
               f"Score: Germans {escape(str(score.get('Germans', 0)))}, Allies "
               f"{escape(str(score.get('Allies', 0)))}</text>")
    for i, (pilot, a) in enumerate(planes.items()):
        x = 14.0
        yy = y + 18 * (i + 1)
        side = "Allies" if a["team"] == "Allies" else "Germans"
        state = "" if a["state"] == "flying" else f", {a['state']}"
        out.append(f'<rect x="{_num(x)}" y="{_num(yy - 9)}" width="10" height="10" '
                   f'fill="{SIDE_COLOURS[side][0]}" stroke="#222" stroke-width="0.6"/>'
                   f'<text x="{_num(x + 15)}" y="{_num(yy)}" font-size="11" fill="#333">'
                   f"{escape(letters[pilot])}  {escape(names.get(pilot) or pilot)} ({side}"
                   f"{escape(state)}, {a['hits']}/{hits_down} hits, {a['kills']} kills)"
                   "</text>")
    out.append("</svg>")
    return "\n".join(out) + "\n"
