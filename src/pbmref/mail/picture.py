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
pixel, 64 colours for a map and 32 for a small panel, no alpha channel)
by Pillow: its quantizer (``FASTOCTREE``, no dithering: flat map colours
and sharp text; 8 ms for a map, where ``MAXCOVERAGE`` and ``MEDIANCUT``
take 25-45 ms and shift the hues) and its zlib. A document whose ground is marked off (``GROUND_OPEN`` ..
``GROUND_CLOSE``, see ``pbmref.reports.svgkit.document``) is drawn in two
layers: the ground (the board and its names, most of the drawing's cost),
kept for the next pictures on the same ground, and the turn over it.
"""

from __future__ import annotations

import functools
import io
import re
import struct

import resvg_py
from PIL import Image

from pbmref.reports.svgkit import GROUND_CLOSE, GROUND_OPEN

__all__ = ["MAIL_WIDTH", "ZOOM", "mail_png", "png_of_svg", "png_size"]

# The board at one and a half times the map's size (the archive's pictures
# and the screenshots; a mail's are drawn by mail_png).
ZOOM = 1.5
#: The widest a mail's picture is drawn, in pixels: the report's column on a
#: desktop (760 px less its padding), about twice a phone's (366 px).
MAIL_WIDTH = 736
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


def _layers(svg: str) -> tuple[str, str] | None:
    """The ground alone and the rest alone, each a document of the same size
    (the rest without a background: transparent where the ground shows)."""
    start, end = svg.find(GROUND_OPEN), svg.find(GROUND_CLOSE)
    if start < 0 or end < start:
        return None
    closing = svg.rindex("</svg>")
    return (svg[:end] + svg[closing:],
            svg[:start] + svg[end + len(GROUND_CLOSE):])


def mail_png(svg: str, width: int = MAIL_WIDTH, colours: int = 64) -> bytes:
    """The picture of an SVG document as a mail shows it: ``width`` pixels wide
    at most (never wider than the document is drawn), a palette PNG of
    ``colours`` colours without alpha. A marked-off ground is drawn once for
    every picture on it."""
    zoom = min(1.0, width / svg_width(svg))
    layers = _layers(svg)
    if layers is None:
        image = _image(svg, zoom)
    else:
        ground, turn = layers
        image = Image.alpha_composite(_ground(ground, zoom), _image(turn, zoom))
    palette = image.convert("RGB").quantize(colours, method=Image.Quantize.FASTOCTREE,
                                            dither=Image.Dither.NONE)
    out = io.BytesIO()
    palette.save(out, "PNG", compress_level=_COMPRESS)
    return out.getvalue()


def png_size(png: bytes) -> tuple[int, int]:
    """Width and height of a PNG, from its header.

    >>> png_size(png_of_svg('<svg xmlns="http://www.w3.org/2000/svg" width="30" height="20"/>'))
    (45, 30)
    """
    if png[:8] != b"\x89PNG\r\n\x1a\n" or png[12:16] != b"IHDR":
        raise ValueError("not a PNG")
    width, height = struct.unpack(">II", png[16:24])
    return int(width), int(height)
