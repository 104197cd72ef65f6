"""The pictures a mail carries: the map as a light PNG its HTML part shows.

The turn report, and the answers to ``MAP`` and ``HISTORY n``, show the
board (and a turn's three move panels) inline as palette PNGs drawn at the
width the mail shows them (``pbmref.mail.picture.mail_png``). A report,
which goes to every reader every turn, carries no SVG: the archive keeps
every turn's SVG. A player who wants the SVG file asks for the board: the
answer to ``MAP`` or ``HISTORY n`` attaches it beside the PNG (``svg=True``).
The pictures of a turn are made once, and the same parts go into every
reader's report (``Attachment.part``).
"""

from __future__ import annotations

from collections.abc import Sequence

from pbmref.mail.compose import Attachment
from pbmref.mail.picture import mail_png, png_size
from pbmref.reports.html import MailPicture
from pbmref.reports.svgkit import PANEL_WIDTH

__all__ = ["map_pictures"]


def map_pictures(boards: Sequence[tuple[str, str, str]], moves: Sequence[str] = (), *,
                 svg: bool = False) -> tuple[list[Attachment], list[MailPicture]]:
    """The attachments of a mail's pictures and how its HTML part shows them:
    each board ``(name, caption, svg)`` shown as ``name.png`` (and, ``svg``,
    attached as ``name.svg``); the move panels (``moves``) shown small, as
    ``name-move-N.png`` after the first board's name. A tweedekker report
    mail with its pictures comes to about 100 KB (``bench/report_mail.py``)."""
    attachments: list[Attachment] = []
    shown: list[MailPicture] = []
    for name, caption, drawing in boards:
        attachments.append(_inline(f"{name}.png", drawing, caption, shown, small=False))
        if svg:
            attachments.append(Attachment(f"{name}.svg", drawing.encode(), "image/svg+xml"))
    first = boards[0][0] if boards else "map"
    for i, drawing in enumerate(moves, 1):
        attachments.append(_inline(f"{first}-move-{i}.png", drawing, f"move {i}", shown,
                                   small=True))
    return attachments, shown


def _inline(filename: str, drawing: str, caption: str, shown: list[MailPicture],
            small: bool) -> Attachment:
    # a panel: few colours (its board has no names), shown a third of the column wide
    png = mail_png(drawing, round(PANEL_WIDTH), 32) if small else mail_png(drawing)
    cid = f"{filename}@pbmref"
    shown.append(MailPicture(cid, *png_size(png), caption, small=small))  # as drawn
    return Attachment(filename, png, "image/png", cid=cid)
