"""The pictures a mail carries: the SVG map attached, and its PNG shown inline.

The turn report, and the answers to ``MAP`` and ``HISTORY n``, carry the
board: the SVG as an attachment (what a desktop client or the archive
shows), and the same picture as a PNG (with the three move panels of a turn)
that the mail's HTML part shows inline, for the phone mail apps that show
no SVG.
"""

from __future__ import annotations

from collections.abc import Sequence

from pbmref.mail.compose import Attachment
from pbmref.mail.picture import ZOOM, png_of_svg, png_size
from pbmref.reports.html import MailPicture

__all__ = ["map_pictures"]


def map_pictures(boards: Sequence[tuple[str, str, str]],
                 moves: Sequence[str] = ()) -> tuple[list[Attachment], list[MailPicture]]:
    """The attachments of a mail's pictures and how its HTML part shows them:
    each board ``(name, caption, svg)`` attached as ``name.svg`` and shown as
    ``name.png``; the move panels (``moves``) shown small, as ``name-move-N.png``
    after the first board's name. A tweedekker report mail with its pictures
    comes to about 0.9 MB."""
    attachments: list[Attachment] = []
    shown: list[MailPicture] = []
    for name, caption, svg in boards:
        attachments.append(Attachment(f"{name}.svg", svg.encode(), "image/svg+xml"))
        attachments.append(_inline(f"{name}.png", svg, ZOOM, caption, shown, small=False))
    first = boards[0][0] if boards else "map"
    for i, svg in enumerate(moves, 1):
        # a move panel is drawn at the size it is shown: no zoom
        attachments.append(_inline(f"{first}-move-{i}.png", svg, 1.0, f"move {i}", shown,
                                   small=True))
    return attachments, shown


def _inline(filename: str, svg: str, zoom: float, caption: str, shown: list[MailPicture],
            small: bool) -> Attachment:
    png = png_of_svg(svg, zoom)
    width, height = (round(n / zoom) for n in png_size(png))
    cid = f"{filename}@pbmref"
    shown.append(MailPicture(cid, width, height, caption, small=small))
    return Attachment(filename, png, "image/png", cid=cid)
