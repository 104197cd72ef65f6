"""The sky as a picture: an SVG map of the board, for the archive and the GM.

Flat-topped hexes with north up (rules B1-B3), each with its name as a
hover ``<title>``; clouds and storms (C1), the six airfields with their
runways (B5), every aircraft in the fight as a small biplane pointing along
its heading (one ``<g id="aircraft-PILOT">`` each), the zeppelin's cream hull
with a triangle at its nose (one ``<g class="zeppelin-hex">`` per hex on the
board), and, when the turn's events are given, the paths flown this turn and
the bursts fired. Self-contained: no fonts, images or scripts from outside.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
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
from pbmref.rules.hexgrid import Heading, Hex, HexBoard
from pbmref.rules.tweedekker.state import Runway, runway_hexes

__all__ = ["PILOT_COLOURS", "render_svg"]

SIZE = 22.0  # hex circumradius in px
SQRT3 = math.sqrt(3)
PILOT_COLOURS = ("#c0392b", "#2161a8", "#1e8449", "#8e44ad", "#d35400", "#117a8b",
                 "#7b4f2a", "#b7950b", "#c2185b", "#34495e")
SKY = "#dbeaf5"
CLOUD = "#ffffff"
STORM = "#5d6275"
FIELD = "#bcd88f"
RUNWAY = "#8f8f7a"
HULL = "#f4ecd0"
ANGLES = {h: i * 60 for i, h in enumerate(Heading)}


def _safe_id(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]", "_", text)


def _num(x: float) -> str:
    return f"{x:.1f}".rstrip("0").rstrip(".")


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

    def corners(self, h: Hex, scale: float = 1.0) -> str:
        cx, cy = self.centre(h)
        pts = []
        for i in range(6):
            a = math.radians(60 * i)
            pts.append(f"{_num(cx + SIZE * scale * math.cos(a))},"
                       f"{_num(cy + SIZE * scale * math.sin(a))}")
        return " ".join(pts)


def _plane_shape(colour: str) -> str:
    """A little biplane seen from above, nose up (rotated into its heading)."""
    return (
        f'<rect x="-11" y="-5" width="22" height="5" rx="2" fill="{colour}" '
        f'stroke="#222" stroke-width="0.8"/>'
        f'<rect x="-2.2" y="-12" width="4.4" height="22" rx="2" fill="{colour}" '
        f'stroke="#222" stroke-width="0.8"/>'
        f'<rect x="-6" y="6" width="12" height="3.2" rx="1.2" fill="{colour}" '
        f'stroke="#222" stroke-width="0.8"/>'
        '<circle cx="0" cy="-12" r="1.6" fill="#222"/>'
    )


def render_svg(position: Mapping[str, Any], events: list[dict[str, Any]] | None = None,
               *, names: Mapping[str, str] | None = None, title: str | None = None) -> str:
    """A tweedekker position (scenario schema) as an SVG document; ``events``
    adds the paths flown and the bursts fired this turn. (Fast Play boards are
    drawn by ``fastplay_svg``.)"""
    names = dict(names or {})
    events = list(events or [])
    board = board_of(position)
    planes = aircraft_of(position)
    zeps = zeppelins_of(position)
    letters = pilot_letters(planes, zeps)
    colours = {p: PILOT_COLOURS[i % len(PILOT_COLOURS)] for i, p in enumerate(planes)}
    top = 40.0 if title else 14.0
    geo = _Geometry(board, top, 14.0)
    shown = [p for p, a in planes.items() if a["state"] in ON_MAP]
    legend_rows = (len(planes) + len(zeps) + 2) // 3 + 1
    height = geo.board_bottom + 20 + 18 * legend_rows
    out: list[str] = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_num(geo.width)}" '
        f'height="{_num(height)}" viewBox="0 0 {_num(geo.width)} {_num(height)}" '
        'font-family="Georgia, serif" class="pbmref-map">',
        "<title>" + escape(title or "pbmref map") + "</title>",
        f'<rect x="0" y="0" width="{_num(geo.width)}" height="{_num(height)}" fill="#f7f3e8"/>',
    ]
    if title:
        out.append(f'<text x="{_num(geo.width / 2)}" y="26" text-anchor="middle" '
                   f'font-size="18" fill="#333">{escape(title)}</text>')

    # --- the board: sky, clouds, storms, airfields ---
    kind_at: dict[Hex, str] = {}
    for c in clouds_of(position):
        for name in c.get("hexes") or []:
            h = hex_of(board, name)
            if h is not None:
                kind_at[h] = "storm" if c.get("kind") == "storm" else "cloud"
    field_at: dict[Hex, str] = {}
    for corner in Heading:
        field_at[board.corner(corner)] = f"airfield {corner.value}"
        for runway in Runway:
            for h in runway_hexes(board, corner, runway):
                field_at[h] = f"airfield {corner.value}, runway {runway.value.title()}"
    disabled = {k for k, v in (position.get("airfields") or {}).items()
                if (v or {}).get("disabled_turns")}
    out.append('<g class="board">')
    for h in board.hexes():
        name = board.name(h)
        kind = kind_at.get(h)
        fill = {"storm": STORM, "cloud": CLOUD}.get(kind or "", SKY)
        cls = ["hex"]
        tip = name
        if h in field_at:
            cls.append("airfield")
            tip += f" ({field_at[h]})"
            if kind is None:
                fill = FIELD
        if kind:
            cls.append(kind)
            tip += f" ({kind})"
        out.append(f'<polygon class="{" ".join(cls)}" points="{geo.corners(h)}" '
                   f'fill="{fill}" stroke="#9db4c8" stroke-width="0.8">'
                   f"<title>{escape(tip)}</title></polygon>")
    for corner in Heading:
        for runway in Runway:
            near, far = runway_hexes(board, corner, runway)
            x1, y1 = geo.centre(board.corner(corner))
            x2, y2 = geo.centre(far)
            out.append(f'<line class="runway" x1="{_num(x1)}" y1="{_num(y1)}" '
                       f'x2="{_num(x2)}" y2="{_num(y2)}" stroke="{RUNWAY}" '
                       'stroke-width="5" stroke-linecap="round" opacity="0.55"/>')
        cx, cy = geo.centre(board.corner(corner))
        bombed = corner.value in disabled
        out.append(f'<circle cx="{_num(cx)}" cy="{_num(cy)}" r="9" '
                   f'fill="{"#a93226" if bombed else "#e8e2c0"}" stroke="#555" '
                   'stroke-width="1"/>')
        out.append(f'<text x="{_num(cx)}" y="{_num(cy + 3.5)}" text-anchor="middle" '
                   f'font-size="9" font-weight="bold" fill="#333">{corner.value}</text>')
    for h in board.hexes():
        cx, cy = geo.centre(h)
        if kind_at.get(h) == "storm":
            out.append(f'<path d="M{_num(cx + 2)},{_num(cy - 11)} l-6,9 h5 l-4,9 l9,-11 h-5 '
                       'l5,-7 z" fill="#f7dc6f" opacity="0.9"/>')
        if h not in {board.corner(c) for c in Heading}:
            out.append(f'<text class="hexname" x="{_num(cx)}" y="{_num(cy + SIZE * 0.78)}" '
                       'text-anchor="middle" font-size="6.5" '
                       f'fill="{"#ddd" if kind_at.get(h) == "storm" else "#7f96ab"}">'
                       f"{board.name(h)}</text>")
    out.append("</g>")
    # file letters along the top and bottom
    R = board.radius
    for q in range(-R, R + 1):
        x = geo.ox + 1.5 * SIZE * q
        top_hex = Hex(q, max(-R, -R - q))
        bottom_hex = Hex(q, min(R, R - q))
        yt = geo.centre(top_hex)[1] - SIZE
        yb = geo.centre(bottom_hex)[1] + SIZE + 10
        letter = chr(ord("A") + q + R)
        for y in (yt - 3, yb):
            out.append(f'<text class="file" x="{_num(x)}" y="{_num(y)}" text-anchor="middle" '
                       f'font-size="11" fill="#555">{letter}</text>')

    # --- this turn: paths flown and bursts fired ---
    paths: dict[str, list[Hex]] = {}
    for e in events:
        if e.get("kind") == "manoeuvre" and e.get("outcome") not in ("stayed", "skipped"):
            pilot = str(e.get("pilot"))
            src = hex_of(board, e.get("from_hex"))
            dst = hex_of(board, e.get("to_hex"))
            if src is None or dst is None:
                continue
            track = paths.setdefault(pilot, [src])
            if track[-1] != src:
                track.append(src)
            track.append(dst)
    if paths or any(e.get("kind") == "burst" for e in events):
        out.append('<g class="turn">')
    for pilot, track in paths.items():
        pts = " ".join(f"{_num(x)},{_num(y)}" for x, y in map(geo.centre, track))
        colour = colours.get(pilot, "#333")
        out.append(f'<polyline class="path path-{_safe_id(pilot)}" points="{pts}" fill="none" '
                   f'stroke="{colour}" stroke-width="2.2" stroke-dasharray="5,3" '
                   f'opacity="0.85"><title>{escape(names.get(pilot) or pilot)}: '
                   f"path flown this turn</title></polyline>")
        for h in track[:-1]:
            x, y = geo.centre(h)
            out.append(f'<circle cx="{_num(x)}" cy="{_num(y)}" r="2.4" fill="{colour}"/>')
    for e in events:
        if e.get("kind") != "burst":
            continue
        start = hex_of(board, e.get("from_hex"))
        line = [hex_of(board, n) for n in e.get("line") or []]
        line_hexes = [h for h in line if h is not None]
        if start is None or not line_hexes:
            continue
        (x1, y1), (x2, y2) = geo.centre(start), geo.centre(line_hexes[-1])
        hit = bool(e.get("targets"))
        shooter = str(e.get("shooter"))
        out.append(f'<line class="burst" x1="{_num(x1)}" y1="{_num(y1)}" x2="{_num(x2)}" '
                   f'y2="{_num(y2)}" stroke="{"#e74c3c" if hit else "#e67e22"}" '
                   'stroke-width="1.6" stroke-dasharray="1.5,2.5" opacity="0.9">'
                   f"<title>move {e.get('move')}: {escape(names.get(shooter) or shooter)} "
                   f"fires {escape(str(e.get('direction')))}</title></line>")
    if paths or any(e.get("kind") == "burst" for e in events):
        out.append("</g>")

    # --- zeppelins ---
    for name, z in zeps.items():
        if z["destroyed"]:
            continue
        heading = heading_of(z["heading"]) or Heading.N
        angle = ANGLES[heading]
        for i, hname in enumerate(z["hexes"]):
            h = hex_of(board, hname)
            if h is None or not board.contains(h):
                continue
            x, y = geo.centre(h)
            part = "nose" if i == 0 else "tail"
            two = len(z["hexes"]) > 1
            if i == 0 and two:  # nose: rounded front, open back joining the tail
                hull = "M-10,19.5 L-10,-4 Q-10,-19 0,-21 Q10,-19 10,-4 L10,19.5 Z"
            elif i == 0:  # a one-hex zeppelin
                hull = "M-9,12 L-9,-4 Q-9,-19 0,-21 Q9,-19 9,-4 L9,12 Q9,20 0,21 Q-9,20 -9,12 Z"
            else:  # tail: open front, tapering back
                hull = "M-10,-19.5 L10,-19.5 L10,2 Q10,16 0,20 Q-10,16 -10,2 Z"
            body = (f'<path d="{hull}" fill="{HULL}" stroke="#6e5a2b" stroke-width="1.2"/>'
                    '<line x1="-10" y1="0" x2="10" y2="0" stroke="#d9cca0" stroke-width="0.8"/>')
            if i == 0:
                body += '<polygon points="0,-27 -6,-17 6,-17" fill="#8b1e1e"/>'
            if i == len(z["hexes"]) - 1:
                body += ('<polygon points="-9,10 -16,20 -7,17" fill="#6e5a2b"/>'
                         '<polygon points="9,10 16,20 7,17" fill="#6e5a2b"/>')
            body += (f'<text x="0" y="4" text-anchor="middle" font-size="9" '
                     f'font-weight="bold" fill="#6e5a2b" transform="rotate({-angle})">'
                     f'{escape(letters[name] if i == 0 else "")}</text>')
            tip = (f"zeppelin {name} {part} at {board.name(h)}, heading {heading.value}, "
                   f"{z.get('damage', '?')} damage points")
            out.append(f'<g class="zeppelin-hex zeppelin-{part}" id="zeppelin-{_safe_id(name)}-'
                       f'{part}" transform="translate({_num(x)},{_num(y)}) rotate({angle})">'
                       f"<title>{escape(tip)}</title>{body}</g>")

    # --- aircraft destroyed or gone this turn: a cross where they were last ---
    fallen = {str(e.get("target")) for e in events if e.get("kind") == "destroyed"}
    for pilot, a in planes.items():
        h = hex_of(board, a.get("hex"))
        if pilot not in fallen or a["state"] in ON_MAP or h is None or not board.contains(h):
            continue
        x, y = geo.centre(h)
        out.append(f'<g class="fallen" id="fallen-{_safe_id(pilot)}"><title>'
                   f"{escape(names.get(pilot) or pilot)} went down here</title>"
                   f'<path d="M{_num(x - 7)},{_num(y - 7)} l14,14 m0,-14 l-14,14" '
                   f'stroke="{colours[pilot]}" stroke-width="3.5" stroke-linecap="round"/></g>')

    # --- aircraft ---
    count_at: dict[Hex, int] = {}
    for pilot in shown:
        a = planes[pilot]
        h = hex_of(board, a.get("hex"))
        if h is None or not board.contains(h):
            continue
        n = count_at.get(h, 0)
        count_at[h] = n + 1
        x, y = geo.centre(h)
        x += (-6 + 12 * (n % 2)) if n or any(
            hex_of(board, planes[o].get("hex")) == h for o in shown if o != pilot) else 0
        y += -5 * (n // 2)
        heading = heading_of(a["heading"]) or Heading.N
        colour = colours[pilot]
        landed = a["state"] == "landed"
        scale = 0.7 if landed else 0.85
        shown_name = names.get(pilot) or pilot
        tip = (f"{shown_name} ({letters[pilot]}) at {a.get('hex')}, heading {heading.value}, "
               f"{a['state']}, {a['damage']} damage points, {a['ammo']} rounds, {a['vp']} VP")
        out.append(
            f'<g class="aircraft aircraft-{_safe_id(pilot)}" id="aircraft-{_safe_id(pilot)}">'
            f"<title>{escape(tip)}</title>"
            f'<g transform="translate({_num(x)},{_num(y)}) rotate({ANGLES[heading]}) '
            f'scale({scale})">{_plane_shape(colour)}</g>'
            f'<text x="{_num(x + 9)}" y="{_num(y - 8)}" font-size="10" font-weight="bold" '
            f'fill="{colour}" stroke="#fff" stroke-width="2.5" paint-order="stroke">'
            f"{escape(letters[pilot])}</text></g>")

    # --- legend ---
    y = geo.board_bottom + 28
    entries: list[tuple[str, str]] = []
    for pilot, a in planes.items():
        state = "" if a["state"] in ON_MAP else f" ({a['state']})"
        entries.append((colours[pilot], f"{letters[pilot]}  {names.get(pilot) or pilot}{state}"))
    for name, z in zeps.items():
        entries.append((HULL, f"{letters[name]}  zeppelin {name}"
                        + (" (destroyed)" if z["destroyed"] else "")))
    col_w = (geo.width - 28) / 3
    for i, (colour, text) in enumerate(entries):
        x = 14 + col_w * (i % 3)
        yy = y + 18 * (i // 3)
        out.append(f'<rect x="{_num(x)}" y="{_num(yy - 9)}" width="12" height="10" '
                   f'fill="{colour}" stroke="#333" stroke-width="0.6"/>')
        out.append(f'<text x="{_num(x + 17)}" y="{_num(yy)}" font-size="11" '
                   f'fill="#333">{escape(text)}</text>')
    yy = y + 18 * ((len(entries) + 2) // 3)
    key = ("white: cloud   dark: storm   green: airfield (grey strips: runways)   "
           "dashed: paths flown   dotted: bursts")
    out.append(f'<text x="14" y="{_num(yy)}" font-size="9.5" fill="#555">{escape(key)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"
