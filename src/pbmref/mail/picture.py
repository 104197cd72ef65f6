"""The map as a PNG for a mail's HTML part: our SVG rendered by resvg.

Many phone mail apps do not show an SVG, so the report mail carries the map
a second time as a PNG shown inline (``cid:``), the SVG still attached.
resvg (through its Python binding ``resvg-py``, one wheel from PyPI with no
system library) renders the SVG as drawn, ``paint-order`` halos under the
labels included; its text uses the machine's fonts (Debian's DejaVu, which
``scripts/system-packages`` installs), named here so the result is the same
on every machine that has them.
"""

from __future__ import annotations

import struct

import resvg_py

__all__ = ["ZOOM", "png_of_svg", "png_size"]

# The board at one and a half times the map's size: sharp on a phone's screen
# and when zoomed into, at half the bytes of twice the size.
ZOOM = 1.5


def png_of_svg(svg: str, zoom: float = ZOOM) -> bytes:
    """The PNG of an SVG document, ``zoom`` times its own size."""
    return bytes(resvg_py.svg_to_bytes(
        svg_string=svg, zoom=zoom, serif_family="DejaVu Serif",
        sans_serif_family="DejaVu Sans", monospace_family="DejaVu Sans Mono"))


def png_size(png: bytes) -> tuple[int, int]:
    """Width and height of a PNG, from its header.

    >>> png_size(png_of_svg('<svg xmlns="http://www.w3.org/2000/svg" width="30" height="20"/>'))
    (45, 30)
    """
    if png[:8] != b"\x89PNG\r\n\x1a\n" or png[12:16] != b"IHDR":
        raise ValueError("not a PNG")
    width, height = struct.unpack(">II", png[16:24])
    return int(width), int(height)
