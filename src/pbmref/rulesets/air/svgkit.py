"""Pieces both air games' maps are drawn with: planes, paths, bursts, hit marks, keys.

The tweedekker sky (``rulesets.tweedekker.picture``) and the Fast Play board
(``rulesets.fastplay.picture``)
differ in their boards and share everything drawn on them: a biplane seen
from above, its colour from a colour-blind-safe set (Okabe and Ito's, then
Tol's) with its letter beside it, the dashed path flown, a burst that hit
(solid red, a star where it landed with the damage dealt, "−3") and one
that missed (dotted grey, ending in a ring), and the legend: each
aircraft's state in words (a phone has no hover) and what each line means.
A ``Style`` says how thick to draw, so the small move panels stay legible.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from xml.sax.saxutils import escape

from pbmref.reports.model import GROUND_CLOSE, GROUND_OPEN

__all__ = ["HIT", "MAP", "MISS", "PANEL", "PILOT_COLOURS", "Box", "Style", "boxes_meet", "burst_line", "document", "hit_boxes",
           "hit_mark", "hit_marks", "hit_words", "key_rows", "legend_rows", "num", "path_line",
           "plane", "safe_id", "text", "text_box", "text_width"]

# Okabe & Ito's colour-blind-safe set (yellow left out: it vanishes on the sky),
# then Paul Tol's for more pilots; letters beside the planes never rely on colour.
PILOT_COLOURS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#1A1A1A",
                 "#882255", "#44AA99", "#999933", "#332288")
HIT = "#C4122F"  # bursts that hit, and the damage they dealt
MISS = "#6E6E6E"  # bursts that missed
FONT = "DejaVu Serif, Georgia, serif"
SANS = "DejaVu Sans, Verdana, sans-serif"


@dataclass(frozen=True)
class Style:
    """How boldly to draw: the full map, or a small panel of one move."""

    path_width: float = 2.4
    burst_width: float = 2.0
    mark_size: float = 11.0
    plane_scale: float = 0.85
    letter_size: float = 11.0
    dot: float = 2.4


MAP = Style()
PANEL = Style(path_width=5.5, burst_width=5.0, mark_size=30.0, plane_scale=1.9,
              letter_size=28.0, dot=5.0)


def num(x: float) -> str:
    """A coordinate in short form.

    >>> num(3.0), num(2.25), num(-0.04)
    ('3', '2.2', '-0')
    """
    return f"{x:.1f}".rstrip("0").rstrip(".")


def safe_id(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]", "_", text)


def text(x: float, y: float, words: str, size: float, fill: str = "#333", *,
         anchor: str = "start", bold: bool = False, halo: bool = False,
         cls: str = "", family: str = "") -> str:
    """One ``<text>``; ``halo`` draws a white outline under the letters."""
    extra = f' class="{cls}"' if cls else ""
    extra += ' font-weight="bold"' if bold else ""
    extra += f' font-family="{family}"' if family else ""
    extra += (' stroke="#fff" stroke-width="2.6" stroke-linejoin="round" paint-order="stroke"'
              if halo else "")
    anchor_attr = f' text-anchor="{anchor}"' if anchor != "start" else ""
    return (f'<text x="{num(x)}" y="{num(y)}"{anchor_attr} font-size="{num(size)}" '
            f'fill="{fill}"{extra}>{escape(words)}</text>')


def document(width: float, height: float, title: str, body: Sequence[str],
             cls: str = "pbmref-map", shown: float = 1.0, *,
             ground: Sequence[str] = ()) -> str:
    """A whole SVG document: self-contained, no fonts or images from outside;
    drawn ``width`` by ``height``, shown ``shown`` times that size. ``ground``,
    drawn first with the background, is marked off (``GROUND_OPEN``,
    ``GROUND_CLOSE``): the same for many turns, so drawn once for many mails
    (``pbmref.mail.picture``)."""
    background = f'<rect x="0" y="0" width="{num(width)}" height="{num(height)}" fill="#f7f3e8"/>'
    return "\n".join([
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{num(width * shown)}" '
        f'height="{num(height * shown)}" viewBox="0 0 {num(width)} {num(height)}" font-family="{FONT}" class="{cls}">',
        f"<title>{escape(title)}</title>",
        *([GROUND_OPEN, background, *ground, GROUND_CLOSE] if ground else [background]),
        *body, "</svg>"]) + "\n"


def plane(x: float, y: float, angle: float, colour: str, scale: float) -> str:
    """A little biplane seen from above, nose along ``angle`` (0: north)."""
    parts = (
        f'<rect x="-11" y="-5" width="22" height="5" rx="2" fill="{colour}"/>'
        f'<rect x="-2.2" y="-12" width="4.4" height="22" rx="2" fill="{colour}"/>'
        f'<rect x="-6" y="6" width="12" height="3.2" rx="1.2" fill="{colour}"/>'
        '<circle cx="0" cy="-12" r="1.6" fill="#111"/>')
    return (f'<g transform="translate({num(x)},{num(y)}) rotate({num(angle)}) '
            f'scale({num(scale)})" stroke="#fff" stroke-width="1.4" paint-order="stroke">'
            f"{parts}</g>")


def path_line(points: Sequence[tuple[float, float]], colour: str, style: Style,
              cls: str, tip: str) -> list[str]:
    """A path flown this turn: dashed, in the plane's colour, a dot at each step."""
    pts = " ".join(f"{num(x)},{num(y)}" for x, y in points)
    dash = f"{num(style.path_width * 2.2)},{num(style.path_width * 1.3)}"
    out = [f'<polyline class="path {cls}" points="{pts}" fill="none" stroke="{colour}" '
           f'stroke-width="{num(style.path_width)}" stroke-dasharray="{dash}" '
           f'stroke-linecap="round" opacity="0.9"><title>{escape(tip)}</title></polyline>']
    out += [f'<circle cx="{num(x)}" cy="{num(y)}" r="{num(style.dot)}" fill="{colour}"/>'
            for x, y in points[:-1]]
    return out


def burst_line(start: tuple[float, float], end: tuple[float, float], hit: bool,
               style: Style, cls: str, tip: str) -> list[str]:
    """A burst: solid red when it hit, dotted grey ending in a ring when it missed."""
    (x1, y1), (x2, y2) = start, end
    colour = HIT if hit else MISS
    dash = "" if hit else (f' stroke-dasharray="{num(style.burst_width * 0.6)},'
                           f'{num(style.burst_width * 1.6)}"')
    out = [f'<line class="{cls} {"hit" if hit else "miss"}" x1="{num(x1)}" y1="{num(y1)}" '
           f'x2="{num(x2)}" y2="{num(y2)}" stroke="{colour}" '
           f'stroke-width="{num(style.burst_width)}" stroke-linecap="round"{dash}>'
           f"<title>{escape(tip)}</title></line>"]
    if not hit:
        out.append(f'<circle class="miss-end" cx="{num(x2)}" cy="{num(y2)}" '
                   f'r="{num(style.burst_width * 2)}" fill="none" stroke="{MISS}" '
                   f'stroke-width="{num(style.burst_width * 0.7)}"/>')
    return out


def _star(x: float, y: float, r: float) -> str:
    pts = []
    for i in range(16):
        radius = r if i % 2 == 0 else r * 0.55
        a = math.radians(i * 22.5)
        pts.append(f"{num(x + radius * math.sin(a))},{num(y - radius * math.cos(a))}")
    return " ".join(pts)


def hit_mark(x: float, y: float, words: str, style: Style, tip: str, *,
             side: str = "right") -> str:
    """Where damage landed: a red star with the damage dealt ("−3"), its words
    on the ``side`` of the star (right, left, above or below it)."""
    r = style.mark_size * 0.75
    wx, wy, anchor = _words_at(x, y, r, style.mark_size, side)
    return (f'<g class="hit-mark"><title>{escape(tip)}</title>'
            f'<polygon points="{_star(x, y, r)}" fill="#ffd7d0" stroke="{HIT}" '
            f'stroke-width="{num(style.mark_size / 9)}" opacity="0.9"/>'
            + text(wx, wy, words, style.mark_size, HIT, anchor=anchor, bold=True, halo=True,
                   cls="hit-label", family=SANS) + "</g>")


def _words_at(x: float, y: float, r: float, size: float, side: str
              ) -> tuple[float, float, str]:
    """Where a star's words go: their anchor point and ``text-anchor``."""
    if side == "left":
        return x - r * 0.6, y - r * 0.55, "end"
    if side == "above":
        return x, y - r * 0.8, "middle"
    if side == "below":
        return x, y + r * 0.8 + size * 0.76, "middle"
    return x + r * 0.6, y - r * 0.55, "start"


# ---------------------------------------------------------------- labels apart

#: A box on the drawing: left, top, right, bottom.
Box = tuple[float, float, float, float]
# DejaVu Sans's advance widths in ems (bold a little wider): the digits, the
# minus sign, a space; any other letter is taken as wide as the widest capital.
_ADVANCE = {**dict.fromkeys("0123456789", 0.64), "\u2212": 0.84, " ": 0.32}


def text_width(words: str, size: float, *, bold: bool = False) -> float:
    """How wide ``words`` are drawn in DejaVu Sans at ``size``, rather more than less.

    >>> round(text_width("\u22124", 11, bold=True), 1)
    17.6
    """
    widen = 1.08 if bold else 1.0
    return sum(_ADVANCE.get(c, 0.78) for c in words) * size * widen


def text_box(x: float, y: float, words: str, size: float, *, anchor: str = "start",
             bold: bool = False, halo: float = 1.3) -> Box:
    """The box a ``text`` at (``x``, ``y``, its baseline) covers, its halo included."""
    width = text_width(words, size, bold=bold)
    left = {"start": x, "middle": x - width / 2, "end": x - width}[anchor]
    return (left - halo, y - 0.76 * size - halo, left + width + halo, y + 0.24 * size + halo)


def boxes_meet(a: Box, b: Box) -> bool:
    """Whether two boxes overlap (touching edges do not)."""
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def hit_boxes(x: float, y: float, words: str, style: Style, *,
              side: str = "right") -> tuple[Box, Box]:
    """The boxes a ``hit_mark`` covers: its star's and its words'."""
    r = style.mark_size * 0.75
    wx, wy, anchor = _words_at(x, y, r, style.mark_size, side)
    return ((x - r, y - r, x + r, y + r),
            text_box(wx, wy, words, style.mark_size, anchor=anchor, bold=True))


def hit_words(amounts: Sequence[int]) -> str:
    """The words of the hits that landed in one hex: the damage dealt there
    (the mark's title lists each hit).

    >>> hit_words([3]), hit_words([4, 4])
    ('\u22123', '\u22128')
    """
    return f"\u2212{sum(amounts)}"


# Where a hex's star may go, from its centre in the hex's own radii: the
# middle and upper part first (the hex's name is along its bottom), then
# nearer its edges; and where its words may go.
_SPOTS = tuple(sorted(((dx / 10, dy / 10) for dx in range(-7, 8) for dy in range(-8, 5)
                       if dx * dx + dy * dy <= 64), key=lambda p: (abs(p[0]) + abs(p[1] + 0.3))))
_SIDES = ("right", "left", "above", "below")
_GAP = 0.6  # px kept free around a mark (the drawing's coordinates are rounded to 0.1)


def hit_marks(hits: Sequence[tuple[float, float, float, Sequence[int], str]], style: Style,
              avoid: Sequence[Box] = ()) -> list[str]:
    """A star with its words for each hex that was hit, ``(x, y, radius,
    amounts, tip)`` (the hex's centre and radius, the damage of each hit that
    landed there), placed inside its hex where neither it nor its words cover
    another's or anything in ``avoid`` (the hexes' names); where nothing is
    free, where it covers least."""
    taken = list(avoid)
    out = []
    for cx, cy, radius, amounts, tip in hits:
        words = hit_words(amounts)
        reach = radius + style.mark_size * 4  # what a mark placed in this hex may meet
        near = [t for t in taken if t[0] < cx + reach and t[2] > cx - reach
                and t[1] < cy + reach and t[3] > cy - reach]
        best: tuple[float, float, float, str] | None = None
        for dx, dy in _SPOTS:
            x, y = cx + dx * radius, cy + dy * radius
            for side in _SIDES:
                boxes = hit_boxes(x, y, words, style, side=side)
                cover = sum(_overlap(_grown(box, _GAP), t) for box in boxes for t in near)
                if best is None or cover < best[0]:
                    best = (cover, x, y, side)
                if cover == 0:
                    break
            if best is not None and best[0] == 0:
                break
        assert best is not None
        _, x, y, side = best
        out.append(hit_mark(x, y, words, style, tip, side=side))
        taken += hit_boxes(x, y, words, style, side=side)
    return out


def _grown(box: Box, by: float) -> Box:
    return (box[0] - by, box[1] - by, box[2] + by, box[3] + by)


def _overlap(a: Box, b: Box) -> float:
    return (max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
            * max(0.0, min(a[3], b[3]) - max(a[1], b[1])))


def _split(words: str, room: int) -> list[str]:
    """``words`` in lines of at most ``room`` characters, broken after a comma or colon."""
    lines = [""]
    for part in re.split(r"(?<=[,:]) ", words):
        if lines[-1] and len(lines[-1]) + 1 + len(part) > room:
            lines.append("    " + part)
        else:
            lines[-1] = f"{lines[-1]} {part}".strip() if lines[-1] else part
    return lines


def legend_rows(x: float, y: float, width: float, rows: Sequence[tuple[str, str, str]],
                size: float = 15.0) -> tuple[list[str], float]:
    """The aircraft legend, large enough for a phone: a swatch in each one's
    colour, its letter, name and state in words (on a second line when it does
    not fit ``width``). Returns the elements and the height used."""
    out: list[str] = []
    step = size * 1.4
    room = int((width - size * 1.4) / (size * 0.58))
    cy = y
    for colour, letter, words in rows:
        out.append(f'<rect x="{num(x)}" y="{num(cy - size * 0.8)}" width="{num(size)}" '
                   f'height="{num(size)}" rx="2" fill="{colour}" stroke="#333" '
                   'stroke-width="0.6"/>')
        for line in _split(f"{letter}  {words}", room):
            out.append(text(x + size * 1.4, cy + 1, line, size, "#222", family=SANS))
            cy += step
        cy += size * 0.2
    return out, cy - y


def key_rows(x: float, y: float, width: float,
             extra: Sequence[tuple[str, str]] = ()) -> tuple[list[str], float]:
    """What the lines and marks mean (and ``extra`` samples: svg, words)."""
    samples: list[tuple[str, str]] = [
        ('<line x1="0" y1="0" x2="26" y2="0" stroke="#0072B2" stroke-width="2.4" '
         'stroke-dasharray="5,3"/>', "path flown"),
        (f'<line x1="0" y1="0" x2="26" y2="0" stroke="{HIT}" stroke-width="2"/>',
         "burst that hit"),
        (f'<polygon points="{_star(13, 0, 7)}" fill="#ffd7d0" stroke="{HIT}"/>',
         "\u22122: damage dealt there"),
        (f'<line x1="0" y1="0" x2="22" y2="0" stroke="{MISS}" stroke-width="2" '
         f'stroke-dasharray="1.2,3.2" stroke-linecap="round"/><circle cx="24" cy="0" r="4" '
         f'fill="none" stroke="{MISS}" stroke-width="1.4"/>', "burst that missed"),
        *extra,
    ]
    out: list[str] = []
    col_w = width / 2
    for i, (sample, words) in enumerate(samples):
        cx = x + col_w * (i % 2)
        cy = y + 21 * (i // 2)
        out.append(f'<g transform="translate({num(cx)},{num(cy - 4)})">{sample}</g>')
        out.append(text(cx + 34, cy, words, 13, "#444", family=SANS))
    return out, 21 * ((len(samples) + 1) // 2)
