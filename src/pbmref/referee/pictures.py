"""The pictures a mail carries: the map as a light PNG its HTML part shows.

The turn report, and the answers to ``MAP`` and ``HISTORY n``, show the
board (and a turn's three move panels) inline as palette PNGs drawn at the
width the mail shows them (``pbmref.mail.picture.mail_png``). A report,
which goes to every reader every turn, carries no SVG: the archive keeps
every turn's SVG. A player who wants the SVG file asks for the board: the
answer to ``MAP`` or ``HISTORY n`` attaches it beside the PNG (``svg=True``).
The pictures of a turn are made once, and the same parts go into every
reader's report (``Attachment.part``).

A player's report shows first their own picture (issue 43, item 2): the
part of the board around their aircraft or power (``Ruleset.reader_focus``)
at a scale where its labels read at 11 px on a phone, their pieces ringed,
with words saying what it shows. It is cut from the board already drawn
(``ReportPictures.for_reader``), so it costs a cut and a small PNG, no
drawing of its own; an observer gets the board only.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image

from pbmref.mail.compose import Attachment
from pbmref.mail.picture import (
    crop_png,
    drawn,
    mail_png,
    mail_zoom,
    palette_image,
    png_bytes,
    png_size,
)
from pbmref.reports.html import MailPicture
from pbmref.reports.model import FOCUS_SIZE, PANEL_WIDTH, Focus

__all__ = ["ReportPictures", "map_pictures"]

# A reader's own picture is cut from the board as drawn for the mail when
# that is at least this much of the scale it wants (shown a little enlarged).
CLOSE_ENOUGH = 0.9


def map_pictures(boards: Sequence[tuple[str, str, str]], moves: Sequence[str] = (), *,
                 svg: bool = False, colours: int = 64
                 ) -> tuple[list[Attachment], list[MailPicture]]:
    """The attachments of a mail's pictures and how its HTML part shows them:
    each board ``(name, caption, svg)`` shown as ``name.png`` of ``colours``
    colours (and, ``svg``,
    attached as ``name.svg``); the move panels (``moves``) shown small, as
    ``name-move-N.png`` after the first board's name."""
    pictures = ReportPictures(boards, moves, svg=svg, colours=colours)
    return pictures.attachments, pictures.shown


class ReportPictures:
    """The pictures of one turn's report, drawn once: the boards and move
    panels every reader's mail carries, and each reader's own picture cut
    from the boards as drawn. A tweedekker report mail with its pictures
    comes to about 150 KB (``bench/report_mail.py``)."""

    def __init__(self, boards: Sequence[tuple[str, str, str]], moves: Sequence[str] = (), *,
                 svg: bool = False, colours: int = 64) -> None:
        self.colours = colours  # of the boards and the reader's own picture
        self.attachments: list[Attachment] = []
        self.shown: list[MailPicture] = []
        self._boards = list(boards)
        self._drawn: dict[tuple[int, float], Image.Image] = {}
        self._palettes: dict[tuple[int, float], Image.Image] = {}
        for i, (name, caption, drawing) in enumerate(boards):
            zoom = mail_zoom(drawing)
            board = palette_image(self._drawing(i, zoom), colours)
            self._palettes[(i, round(zoom, 4))] = board  # the readers' parts are cut from it
            self._add(f"{name}.png", png_bytes(board), caption, small=False)
            if svg:
                self.attachments.append(Attachment(f"{name}.svg", drawing.encode(),
                                                   "image/svg+xml"))
        first = boards[0][0] if boards else "map"
        for i, drawing in enumerate(moves, 1):
            # a panel: few colours (its board has no names), a third of the column wide
            self._add(f"{first}-move-{i}.png", mail_png(drawing, round(PANEL_WIDTH), 32),
                      f"move {i}", small=True)

    def _drawing(self, index: int, zoom: float) -> Image.Image:
        key = (index, round(zoom, 4))
        if key not in self._drawn:
            self._drawn[key] = drawn(self._boards[index][2], zoom)
        return self._drawn[key]

    def _add(self, filename: str, png: bytes, caption: str, *, small: bool) -> None:
        cid = f"{filename}@pbmref"
        self.shown.append(MailPicture(cid, *png_size(png), caption, small=small))  # as drawn
        self.attachments.append(Attachment(filename, png, "image/png", cid=cid))

    def own(self, focus: Focus) -> tuple[Attachment, MailPicture]:
        """A reader's own picture: the part of a board ``focus`` says, shown
        ``FOCUS_SIZE`` (its labels 11 px), the reader's pieces ringed,
        ``focus.alt`` its words. It is cut from the board as the mail draws it
        when that is drawn nearly as large (``CLOSE_ENOUGH``: the tweedekker
        map), else from the board drawn at ``focus.zoom`` (a Diplomacy board,
        drawn small for the whole of Europe to fit)."""
        name, _, svg = self._boards[focus.picture]
        zoom = mail_zoom(svg)
        zoom = zoom if zoom >= focus.zoom * CLOSE_ENOUGH else focus.zoom
        image = (self._palettes.get((focus.picture, round(zoom, 4)))
                 or self._drawing(focus.picture, zoom))
        left, top, right, bottom = (round(v * zoom) for v in focus.box)
        box = (left, top, min(right, image.width), min(bottom, image.height))
        rings = [((x * zoom - left), (y * zoom - top), r * zoom) for x, y, r in focus.rings]
        png = crop_png(image, box, rings, self.colours)
        width, height = png_size(png)
        scale = FOCUS_SIZE[0] / width  # shown as wide as FOCUS_SIZE, whatever it was drawn at
        filename = f"{name}-you.png"
        cid = f"{filename}@pbmref"
        return (Attachment(filename, png, "image/png", cid=cid),
                MailPicture(cid, FOCUS_SIZE[0], round(height * scale), focus.alt))

    def for_reader(self, focus: Focus | None) -> tuple[list[Attachment], list[MailPicture]]:
        """The attachments and pictures of one reader's report: their own
        picture first (``focus``; None: an observer, who gets the boards only),
        then the boards and the move panels."""
        if focus is None:
            return self.attachments, self.shown
        part, shown = self.own(focus)
        return [part, *self.attachments], [shown, *self.shown]
