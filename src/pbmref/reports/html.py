"""HTML from reports: the report mail's HTML part, and the pages of the archive.

``render_report_mail`` lays a report ``Document`` out as the HTML
alternative of the report mail: simple, every style inline (mail apps drop
style sheets), one column that reads at 390 px, the map inline as pictures
the mail carries (``cid:``). In dark mode (``prefers-color-scheme: dark``,
which Apple Mail, iOS Mail and Outlook honour from the head's style
sheet; ``DARK``) the page turns dark and the pictures stay on a light card
of their own, so the map reads as drawn. ``document_html`` is the same document as an
HTML fragment, which the archive's turn pages show.

The archive: ``index.html`` lists every adjudicated turn (and shows the
board as it is now); ``turn-NNN.html`` shows one turn: its pictures (the map
after it; a Diplomacy phase's orders and the board after it), each with its
caption, and the report, with links to the previous and next turn. Press sent
to everyone (broadcasts) is shown with the turn it was sent in; private press
never reaches a page. Every page is a
single file with its style inline and no outside resources, so the folder
works from a USB stick. These renderers take plain data (the report, the
map already drawn by the game's ruleset); ``pbmref.archive`` reads a game
folder and writes the pages.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape
from typing import Any

from pbmref.reports.common import format_deadline
from pbmref.reports.document import (
    Block,
    Document,
    Fixed,
    Gap,
    Para,
    Rule,
    Section,
    Sub,
    Table,
    Title,
)
from pbmref.reports.model import Picture, TurnReport

__all__ = ["MailPicture", "TurnLink", "document_html", "page", "render_index",
           "render_report_mail", "render_turn_page", "turn_page_name"]

INK = "#2b2b2b"
PAPER = "#fffdf6"
MONO = "'DejaVu Sans Mono', Menlo, Consolas, monospace"
SERIF = "Georgia, 'DejaVu Serif', 'Times New Roman', serif"
PRE_STYLE = (f"font-family:{MONO};font-size:12px;line-height:1.25;background:{PAPER};"
             "border:1px solid #d8cfb5;padding:6px 8px;margin:0 0 8px;overflow-x:auto;"
             "white-space:pre")
BOX = {"personal": "background:#fff3cf;border:1px solid #d8b95a;border-radius:6px;"
                   "padding:8px 12px;margin:10px 0"}


# ---------------------------------------------------------------- a document


def _block_html(block: Block, pre_style: str) -> str:
    if isinstance(block, Para):
        indent = max(0, block.indent - 2) / 2
        text = _linked(escape(block.text))
        text = f"<strong>{text}</strong>" if block.strong else text
        return f'<p style="margin:0 0 5px {indent:g}em">{text}</p>'
    if isinstance(block, Fixed):
        style = f' style="{pre_style}"' if pre_style else ""
        return f"<pre{style}>" + escape("\n".join(block.rows)) + "</pre>"
    if isinstance(block, Sub):
        return f'<h3 style="font-size:1em;margin:12px 0 4px">{escape(block.title)}</h3>'
    if isinstance(block, Title):
        return (f'<h1 style="font-size:1.3em;margin:0">{escape(block.left)} '
                f'<span style="font-size:0.7em;font-weight:normal;color:#6b6455">'
                f"{escape(block.right)}</span></h1>")
    if isinstance(block, Gap):
        return '<div style="height:6px"></div>'
    if isinstance(block, Table):
        return _table_html(block)
    assert isinstance(block, Rule)
    return ""


def _linked(text: str) -> str:
    """Web addresses in a paragraph (escaped already) made links (the archive's page).

    >>> _linked("See https://example.org/a/turn-001.html.")
    'See <a href="https://example.org/a/turn-001.html">https://example.org/a/turn-001.html</a>.'
    """
    return re.sub(r"https?://[^\s<>\"]+[^\s<>\".,;:)]",
                  lambda m: f'<a href="{m.group(0)}">{m.group(0)}</a>', text)


CELL = "padding:2px 6px;border-bottom:1px solid #d8cfb5"


def _table_html(table: Table) -> str:
    """A table of short cells, as narrow as its content (it fits 390 px)."""
    def row(cells: Sequence[str], tag: str) -> str:
        return "<tr>" + "".join(
            f'<{tag} style="{CELL};text-align:{"left" if i == 0 else "right"}">'
            f"{escape(c)}</{tag}>" for i, c in enumerate(cells)) + "</tr>"
    return ('<table style="border-collapse:collapse;font-size:0.9em;margin:0 0 8px">'
            + row(table.head, "th") + "".join(row(r, "td") for r in table.rows) + "</table>")


def _section_html(section: Section, pre_style: str) -> str:
    inner = "".join(_block_html(b, pre_style) for b in section.blocks)
    title = (f'<h2 style="font-size:1.05em;letter-spacing:0.03em;margin:14px 0 6px">'
             f"{escape(section.title)}</h2>" if section.title else "")
    style = BOX.get(section.kind, "margin:0")
    kind = escape(section.kind or "part")
    return f'<section class="part-{kind}" style="{style}">{title}{inner}</section>'


def document_html(doc: Document, *, after: str = "", pre_style: str = PRE_STYLE) -> str:
    """The report as HTML, section by section; ``after`` (the pictures) goes after
    the reader's own block."""
    parts: list[str] = []
    placed = not after
    for section in doc.sections:
        parts.append(_section_html(section, pre_style))
        if not placed and section.kind == "personal":
            parts.append(after)
            placed = True
    if not placed:
        parts.insert(min(1, len(parts)), after)
    return "\n".join(parts)


@dataclass(frozen=True)
class MailPicture:
    """A picture the mail carries, shown by the HTML part (``<img src="cid:...">``)."""

    cid: str
    width: int
    height: int
    alt: str
    small: bool = False  # one of the three move panels


#: The report mail in dark mode: the page dark, the text light, the boxes
#: dimmed; each picture on its light card (``pbmref-card``), as drawn. The
#: ``!important`` beats the inline styles (those stay for the apps that drop
#: a head's style sheet, such as Gmail's, which darkens on its own).
DARK = """
:root { color-scheme: light dark; supported-color-schemes: light dark; }
@media (prefers-color-scheme: dark) {
  body, .pbmref-page { background: #1c1b19 !important; color: #ece6d6 !important; }
  .pbmref-page h1 span { color: #b9b09a !important; }
  .part-personal { background: #3a3220 !important; border-color: #8a7432 !important; }
  .pbmref-page pre { background: #262522 !important; color: #ece6d6 !important;
                     border-color: #4a463d !important; }
  .pbmref-card { background: #f7f3e8 !important; border-color: #f7f3e8 !important; }
}
"""
CARD = "background:#f7f3e8;border:1px solid #c9bf9f;border-radius:4px;padding:4px;margin:8px 0"


def _pictures_html(pictures: Sequence[MailPicture]) -> str:
    big = [p for p in pictures if not p.small]
    small = [p for p in pictures if p.small]
    out = [f'<div class="pbmref-card" style="{CARD}">'
           f'<img src="cid:{escape(p.cid)}" width="{p.width}" alt="{escape(p.alt)}" '
           f'style="display:block;width:100%;max-width:{p.width}px;height:auto;margin:0 auto">'
           "</div>" for p in big]
    if small:
        cells = "".join(
            f'<td style="width:{100 // len(small)}%;padding:2px;vertical-align:top">'
            f'<img src="cid:{escape(p.cid)}" width="{p.width}" alt="{escape(p.alt)}" '
            f'style="display:block;width:100%;height:auto;border:1px solid #c9bf9f"></td>'
            for p in small)
        out.append('<table class="pbmref-card" role="presentation" style="width:100%;'
                   f'border-collapse:collapse;{CARD}"><tr>{cells}</tr></table>')
    return "".join(out)


def render_report_mail(doc: Document, *, title: str,
                       pictures: Sequence[MailPicture] = ()) -> str:
    """The HTML part of a report mail: the document, inline-styled, with the map
    and the move panels (when the mail carries them) after the reader's block."""
    body = document_html(doc, after=_pictures_html(pictures))
    return (
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        "<meta name=\"color-scheme\" content=\"light dark\">\n"
        "<meta name=\"supported-color-schemes\" content=\"light dark\">\n"
        f"<title>{escape(title)}</title>\n<style>{DARK}</style>\n</head>\n"
        f'<body style="margin:0;padding:0;background:#efe9da;color:{INK}">\n'
        f'<div class="pbmref-page" style="max-width:760px;margin:0 auto;padding:10px 12px;'
        f'font-family:{SERIF};font-size:16px;line-height:1.4;background:#fbf7ec">\n{body}\n'
        "</div>\n</body>\n</html>\n")


# ---------------------------------------------------------------- the archive

STYLE = """
* { box-sizing: border-box; }
body { margin: 0; background: #efe9da; color: #2b2b2b;
       font-family: Georgia, 'DejaVu Serif', 'Times New Roman', serif; }
header { background: #3b4a3f; color: #f4ecd0; padding: 0.8em 1.2em; }
header h1 { margin: 0; font-size: 1.5em; letter-spacing: 0.04em; }
header p { margin: 0.2em 0 0; opacity: 0.85; }
nav { display: flex; justify-content: space-between; gap: 1em; padding: 0.6em 1.2em;
      background: #d9d0b8; font-size: 1.05em; }
nav a { color: #3b4a3f; font-weight: bold; text-decoration: none; }
nav span.off { color: #9a927f; }
main { display: grid; grid-template-columns: minmax(0, 1fr); gap: 0.8em; padding: 0.5em; }
@media (min-width: 900px) {
  main { grid-template-columns: minmax(0, 1fr) minmax(520px, 1fr); padding: 1em 1.2em; }
  main.boards { grid-template-columns: minmax(0, 1fr); }
}
.pictures { display: flex; flex-wrap: wrap; gap: 0.6em; align-items: flex-start;
            align-content: flex-start; }
.map { flex: 1 1 380px; min-width: 0; margin: 0; background: #fff8e6;
       border: 1px solid #c9bf9f; box-shadow: 0 2px 6px rgba(0,0,0,0.15); }
.boards .map { flex: 1 1 100%; max-width: 1000px; }
.map svg, .move-panels svg { width: 100%; height: auto; display: block; }
.map figcaption { padding: 0.4em 0.8em; font-size: 0.95em; color: #3b4a3f;
                  border-top: 1px solid #c9bf9f; }
.move-panels { flex: 0 1 170px; min-width: 0; display: flex; flex-direction: column; gap: 0.4em; }
.move-panels figure { margin: 0; background: #fff8e6; border: 1px solid #c9bf9f; }
@media (max-width: 899px) {
  .move-panels { flex: 1 1 100%; flex-direction: row; }
  .move-panels figure { flex: 1 1 0; }
}
.report { min-width: 0; background: #fbf7ec; border: 1px solid #c9bf9f; padding: 0.3em 0.6em;
          line-height: 1.35; }
.report p { margin: 0 0 0.25em; }
.report pre { background: #fffdf6; border: 1px solid #d8cfb5; padding: 0.4em 0.3em;
      margin: 0 0 0.5em; font-family: 'DejaVu Sans Mono', Menlo, Consolas, monospace;
      font-size: min(11.5px, 2.05vw); line-height: 1.25; overflow-x: auto; }
table { border-collapse: collapse; background: #fffdf6; width: 100%; }
td, th { border: 1px solid #c9bf9f; padding: 0.35em 0.8em; text-align: left; }
footer { padding: 1em 1.2em; font-size: 0.85em; color: #6b6455; }
.press { padding: 0 1.2em 1em; max-width: 60em; }
.press h2 { font-size: 1.15em; }
.press h3 { font-size: 1em; margin: 0.8em 0 0.3em; }
.press pre { white-space: pre-wrap; }
"""

# One press message as a page shows it: its headline and its text.
PressItem = tuple[str, str]


def turn_page_name(turn: int) -> str:
    return f"turn-{turn:03d}.html"


def page(title: str, body: str) -> str:
    """A whole archive page around ``body`` (the house style, one column on a phone)."""
    return (
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        f"<title>{escape(title)}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n"
        f"{body}\n<footer>Refereed by pbmref. Rule numbers refer to the game's rulebook."
        "</footer>\n</body>\n</html>\n"
    )


def _nav(prev_href: str | None, next_href: str | None, index_href: str | None,
         prev_label: str, next_label: str) -> str:
    prev = (f'<a rel="prev" id="prev" href="{escape(prev_href)}">&larr; {escape(prev_label)}</a>'
            if prev_href else '<span class="off">&larr; first turn</span>')
    nxt = (f'<a rel="next" id="next" href="{escape(next_href)}">{escape(next_label)} &rarr;</a>'
           if next_href else '<span class="off">latest turn &rarr;</span>')
    index = (f'<a id="index" href="{escape(index_href)}">all turns</a>' if index_href else "")
    return f"<nav>{prev}{index}{nxt}</nav>"


def _figure(picture: Picture) -> str:
    return (f'<figure class="map" id="{escape(picture.name or "map")}">\n{picture.svg}'
            f"<figcaption>{escape(picture.caption)}</figcaption></figure>")


def _press(items: Sequence[PressItem], heading: str) -> str:
    if not items:
        return ""
    articles = "\n".join(f"<article><h3>{escape(head)}</h3><pre>{escape(text)}</pre></article>"
                         for head, text in items)
    return f'<section class="press" id="press"><h2>{escape(heading)}</h2>\n{articles}</section>'


def _pictures(pictures: Sequence[Picture], move_svgs: Sequence[str]) -> str:
    """The turn's pictures, with the panels of its moves beside the first."""
    if not pictures:
        return ""
    moves = "".join(f'<figure class="move">{svg}</figure>' for svg in move_svgs)
    return ('<section class="pictures">' + "\n".join(_figure(p) for p in pictures)
            + (f'<div class="move-panels">{moves}</div>' if moves else "") + "</section>")


def render_turn_page(report: TurnReport[Any], report_text: str, *, label: str,
                     pictures: Sequence[Picture] = (), prev_href: str | None = None,
                     next_href: str | None = None,
                     index_href: str | None = "index.html",
                     prev_label: str | None = None, next_label: str | None = None,
                     document: Document | None = None,
                     move_svgs: Sequence[str] = (),
                     press: Sequence[PressItem] = ()) -> str:
    """One turn's archive page: its pictures (the ruleset's, each with its
    caption; two or more each take a whole row, as large as the board is
    drawn) with a panel for each move (``move_svgs``) beside the board, the
    report (``document``, else ``report_text`` as it is), the broadcasts sent
    during the turn (``press``) and links to its neighbours; ``label`` names
    the turn (``turn 7``, ``S1901M``), ``prev_label`` and ``next_label`` its
    neighbours (default ``turn 6``, ``turn 8``). One column on a phone, two on
    a wide screen."""
    title = report.title or report.game_id
    heading = f"{title}: {label}"
    doc = document or Document.preformatted(report_text)
    if report.game_over:
        sub = "Game over"
    else:
        sub = f"Next deadline: {format_deadline(report.next_deadline, report.timezone)}"
    nav = _nav(prev_href, next_href, index_href, prev_label or f"turn {report.turn - 1}",
               next_label or f"turn {report.turn + 1}")
    layout = ' class="boards"' if len(pictures) > 1 else ""
    body = (
        f"<header><h1>{escape(heading)}</h1><p>game {escape(report.game_id)} &middot; "
        f"{escape(report.ruleset)} &middot; {escape(sub)}</p></header>\n{nav}\n"
        f"<main{layout}>\n{_pictures(pictures, move_svgs)}\n<section class=\"report\">"
        f"{document_html(doc, pre_style='')}</section>\n</main>\n"
        f"{_press(press, f'Press to everyone during {label}')}{nav}"
    )
    return page(heading, body)


@dataclass(frozen=True)
class TurnLink:
    turn: int
    href: str
    summary: str = ""
    label: str = ""  # how players name the turn (``S1901M``); default ``Turn 7``


def render_index(game_id: str, title: str, turns: Sequence[TurnLink], *,
                 ruleset: str = "tweedekker", map_svg: str | None = None,
                 status_line: str = "", press: Sequence[PressItem] = ()) -> str:
    """The game's archive index: every turn, the board as it is now (``map_svg``)
    and the broadcast ``press`` of the open turn."""
    heading = title or game_id
    rows = "\n".join(
        f'<tr><td><a href="{escape(t.href)}">{escape(t.label or f"Turn {t.turn}")}</a></td>'
        f"<td>{escape(t.summary)}</td></tr>" for t in turns)
    table = (f"<table><tr><th>Turn</th><th>What happened</th></tr>\n{rows}\n</table>"
             if turns else "<p>No turn has been played yet.</p>")
    now = f'<section class="pictures"><div class="map">\n{map_svg}</div></section>' \
        if map_svg else ""
    body = (f"<header><h1>{escape(heading)}</h1><p>game {escape(game_id)} &middot; "
            f"{escape(ruleset)}{' &middot; ' + escape(status_line) if status_line else ''}"
            f"</p></header>\n<main>\n{now}\n<section class=\"turns\">{table}</section>\n"
            f"</main>{_press(press, 'Press to everyone since the last report')}")
    return page(f"{heading}: archive", body)
