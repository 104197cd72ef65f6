"""The map as a PNG for a mail's HTML part: our SVG rendered by resvg, then
made light for a phone.

Many phone mail apps do not show an SVG, so a mail shows its maps as PNG
(``cid:``). resvg (through its Python binding ``resvg-py``, one wheel from
PyPI with no system library) renders the SVG as drawn, ``paint-order``
halos under the labels included; its text uses the machine's fonts
(Debian's DejaVu, which ``scripts/system-packages`` installs), named here so
the result is the same on every machine that has them.

Light (issue 43): a picture is drawn at the width the mail shows it
(``MAIL_WIDTH`` at most: the report's column on a desktop, twice a phone's),
never wider than the SVG is drawn, and written as a palette PNG (8 bits a
pixel, 64 colours for a map (40 for tweedekker's) and 32 for a small
panel, no alpha channel)
by Pillow: its quantizer (``FASTOCTREE``, no dithering: flat map colours
and sharp text; 8 ms for a map, where ``MAXCOVERAGE`` and ``MEDIANCUT``
take 25-45 ms and shift the hues) and its zlib. A document whose ground is marked off (``GROUND_OPEN`` ..
``GROUND_CLOSE`` of ``pbmref.reports.model``) is drawn in two
layers: the ground (the board and its names, most of the drawing's cost),
kept for the next pictures on the same ground, and the turn over it.

A reader's own picture (issue 43, item 2) is a part of a drawing
(``drawn``), cut and ringed by ``crop_png``: no drawing of its own when the
board the mail shows is drawn at its scale (``pbmref.referee.pictures``).
"""

from __future__ import annotations

import functools
import io
import re
import struct
from collections.abc import Sequence

import resvg_py
from PIL import Image, ImageDraw

from pbmref.reports.model import GROUND_CLOSE, GROUND_OPEN

__all__ = ["MAIL_WIDTH", "MAX_ZOOM", "ZOOM", "crop_png", "drawn", "forget_grounds", "mail_png",
           "mail_zoom", "palette_image", "palette_png", "png_bytes", "png_of_svg", "png_size"]

# The board at one and a half times the map's size (the archive's pictures
# and the screenshots; a mail's are drawn by mail_png).
ZOOM = 1.5
#: The widest a mail's picture is drawn, in pixels: the report's column on a
#: desktop (760 px less its padding), about twice a phone's (366 px).
MAIL_WIDTH = 736
#: The most a mail's picture is enlarged: not at all (as wide as drawn).
MAX_ZOOM = 1.0
#: The ring around the reader's own pieces in their picture.
RING = "#1a1a1a"
# Pillow's zlib level for the palette PNGs: 6 is within 5 % of 9's size at a
# tenth of its time (measured on the maps, bench/report_mail.py).
_COMPRESS = 6
_SVG_WIDTH = re.compile(r'<svg\b[^>]*?\swidth="([0-9.]+)"')
# the ground's layers kept: a few boards (a process mails many games)
_GROUNDS_KEPT = 16


def png_of_svg(svg: str, zoom: float = ZOOM) -> bytes:
    """The PNG (RGBA, as resvg writes it) of an SVG document, ``zoom`` times its
    own size."""
    return bytes(resvg_py.svg_to_bytes(
        svg_string=svg, zoom=zoom, serif_family="DejaVu Serif",
        sans_serif_family="DejaVu Sans", monospace_family="DejaVu Sans Mono"))


def svg_width(svg: str) -> float:
    """The width an SVG document is shown at, from its root element.

    >>> svg_width('<svg xmlns="http://www.w3.org/2000/svg" width="666" height="9">')
    666.0
    """
    found = _SVG_WIDTH.search(svg)
    if found is None:
        raise ValueError("the SVG document names no width")
    return float(found.group(1))


def _image(svg: str, zoom: float) -> Image.Image:
    image = Image.open(io.BytesIO(png_of_svg(svg, zoom)))
    image.load()
    return image


@functools.lru_cache(maxsize=_GROUNDS_KEPT)
def _ground(svg: str, zoom: float) -> Image.Image:
    """The ground's layer, drawn once for all the pictures on it."""
    return _image(svg, zoom)


def forget_grounds() -> None:
    """Forget the grounds kept (``bench/report_mail.py``: a turn's grounds drawn
    anew, as in play)."""
    _ground.cache_clear()


def _layers(svg: str) -> tuple[str, str] | None:
    """The ground alone and the rest alone, each a document of the same size
    (the rest without a background: transparent where the ground shows). The
    ground's document is its root element and the ground, no more: the same
    for every turn drawn on it (the document's title names the turn)."""
    start, end = svg.find(GROUND_OPEN), svg.find(GROUND_CLOSE)
    if start < 0 or end < start:
        return None
    root = svg[:svg.index(">") + 1]
    return (f"{root}\n{svg[start:end]}</svg>",
            svg[:start] + svg[end + len(GROUND_CLOSE):])


def drawn(svg: str, zoom: float) -> Image.Image:
    """The SVG document drawn ``zoom`` times its size (RGBA); a marked-off
    ground is drawn once for every picture on it."""
    layers = _layers(svg)
    if layers is None:
        return _image(svg, zoom)
    ground, turn = layers
    return Image.alpha_composite(_ground(ground, zoom), _image(turn, zoom))


def mail_zoom(svg: str, width: int = MAIL_WIDTH) -> float:
    """The scale a mail draws a picture at: ``width`` pixels wide at most, and
    at most ``MAX_ZOOM`` times the document's own size."""
    return min(MAX_ZOOM, width / svg_width(svg))


def palette_image(image: Image.Image, colours: int = 64) -> Image.Image:
    """A drawn picture reduced to a palette of ``colours`` colours, no alpha."""
    return image.convert("RGB").quantize(colours, method=Image.Quantize.FASTOCTREE,
                                         dither=Image.Dither.NONE)


def png_bytes(image: Image.Image) -> bytes:
    """A picture (a palette image: ``palette_image``) as PNG bytes."""
    out = io.BytesIO()
    image.save(out, "PNG", compress_level=_COMPRESS)
    return out.getvalue()


def palette_png(image: Image.Image, colours: int = 64) -> bytes:
    """A drawn picture as a palette PNG of ``colours`` colours, without alpha."""
    return png_bytes(palette_image(image, colours))


def mail_png(svg: str, width: int = MAIL_WIDTH, colours: int = 64) -> bytes:
    """The picture of an SVG document as a mail shows it (``mail_zoom``), a
    palette PNG of ``colours`` colours without alpha."""
    return palette_png(drawn(svg, mail_zoom(svg, width)), colours)


def crop_png(image: Image.Image, box: tuple[int, int, int, int],
             rings: Sequence[tuple[float, float, float]], colours: int = 64) -> bytes:
    """A part of a drawn picture (``box``, in its pixels) as a palette PNG, with
    a dark ring on a white one around each of ``rings`` (x, y, radius, in the
    part's pixels): the reader's own pieces. A part of a palette image keeps
    its palette (rings in its darkest and lightest colours): no second
    quantizing."""
    if image.mode == "P":
        part = image.crop(box)
        shades = part.getpalette() or []
        sums = [sum(shades[i:i + 3]) for i in range(0, len(shades), 3)]
        ink: int | str = min(range(len(sums)), key=sums.__getitem__)
        paper: int | str = max(range(len(sums)), key=sums.__getitem__)
    else:
        part, ink, paper = image.crop(box).convert("RGB"), RING, "#ffffff"
    pen = ImageDraw.Draw(part)
    for x, y, r in rings:
        pen.ellipse((x - r - 2, y - r - 2, x + r + 2, y + r + 2), outline=paper, width=6)
        pen.ellipse((x - r, y - r, x + r, y + r), outline=ink, width=3)
    return png_bytes(part) if part.mode == "P" else palette_png(part, colours)


def png_size(png: bytes) -> tuple[int, int]:
    """Width and height of a PNG, from its header.

    >>> png_size(png_of_svg('<svg xmlns="http://www.w3.org/2000/svg" width="30" height="20"/>'))
    (45, 30)
    """
    if png[:8] != b"\x89PNG\r\n\x1a\n" or png[12:16] != b"IHDR":
        raise ValueError("not a PNG")
    width, height = struct.unpack(">II", png[16:24])
    return int(width), int(height)
