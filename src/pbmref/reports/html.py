"""The HTML archive of a game: one page per turn, an index, all offline.

``archive/<game>/index.html`` lists every adjudicated turn (and shows the
sky as it is now); ``turn-NNN.html`` shows one turn: the SVG map with the
paths flown and bursts fired, and the report text players received, with
links to the previous and next turn. Every page is a single file with its
style inline and no outside resources, so the folder works from a USB stick.

The page renderers (``render_turn_page``, ``render_index``) take plain data
and are testable alone; ``build_turn_report`` and ``write_archive`` read a
game folder through the store (``pbmref.store``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from html import escape
from pathlib import Path
from typing import Any

from pbmref.reports.diplomacy import render_diplomacy_svg
from pbmref.reports.model import TurnReport
from pbmref.reports.svg import render_svg
from pbmref.reports.text import format_deadline, render_report

__all__ = [
    "TurnLink",
    "build_turn_report",
    "render_index",
    "render_turn_page",
    "turn_page_name",
    "write_archive",
]

MAP_RULESETS = ("tweedekker", "fastplay")  # the rulesets render_svg can draw
DIPLOMACY_RULESETS = ("diplomacy", "dirigible")  # drawn by render_diplomacy_svg (issue 10)

STYLE = """
body { margin: 0; background: #efe9da; color: #2b2b2b;
       font-family: Georgia, 'Times New Roman', serif; }
header { background: #3b4a3f; color: #f4ecd0; padding: 0.8em 1.2em; }
header h1 { margin: 0; font-size: 1.5em; letter-spacing: 0.04em; }
header p { margin: 0.2em 0 0; opacity: 0.85; }
nav { display: flex; justify-content: space-between; gap: 1em; padding: 0.6em 1.2em;
      background: #d9d0b8; font-size: 1.05em; }
nav a { color: #3b4a3f; font-weight: bold; text-decoration: none; }
nav span.off { color: #9a927f; }
main { display: flex; flex-wrap: wrap; gap: 1.2em; padding: 1em 1.2em; align-items: flex-start; }
.map { flex: 1 1 560px; max-width: 700px; background: #fff8e6; border: 1px solid #c9bf9f;
       box-shadow: 0 2px 6px rgba(0,0,0,0.15); }
.map svg { width: 100%; height: auto; display: block; }
.report { flex: 1 1 560px; }
pre { background: #fffdf6; border: 1px solid #c9bf9f; padding: 0.8em; margin: 0;
      font-family: 'DejaVu Sans Mono', Menlo, Consolas, monospace; font-size: 12.5px;
      line-height: 1.25; overflow-x: auto; }
table { border-collapse: collapse; margin: 1em 1.2em; background: #fffdf6; }
td, th { border: 1px solid #c9bf9f; padding: 0.35em 0.8em; text-align: left; }
footer { padding: 1em 1.2em; font-size: 0.85em; color: #6b6455; }
"""


def turn_page_name(turn: int) -> str:
    return f"turn-{turn:03d}.html"


def _page(title: str, body: str) -> str:
    return (
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        f"<title>{escape(title)}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n"
        f"{body}\n<footer>Refereed by pbmref. Rule numbers refer to the game's rulebook."
        "</footer>\n</body>\n</html>\n"
    )


def _nav(prev_href: str | None, next_href: str | None, index_href: str | None,
         turn: int) -> str:
    prev = (f'<a rel="prev" id="prev" href="{escape(prev_href)}">&larr; turn {turn - 1}</a>'
            if prev_href else '<span class="off">&larr; first turn</span>')
    nxt = (f'<a rel="next" id="next" href="{escape(next_href)}">turn {turn + 1} &rarr;</a>'
           if next_href else '<span class="off">latest turn &rarr;</span>')
    index = (f'<a id="index" href="{escape(index_href)}">all turns</a>' if index_href else "")
    return f"<nav>{prev}{index}{nxt}</nav>"


def render_turn_page(report: TurnReport, report_text: str | None = None, *,
                     prev_href: str | None = None, next_href: str | None = None,
                     index_href: str | None = "index.html") -> str:
    """One turn's archive page: map, report text and links to its neighbours."""
    text = report_text if report_text is not None else render_report(report)
    title = report.title or report.game_id
    heading = f"{title}: turn {report.turn}"
    if report.ruleset in DIPLOMACY_RULESETS:  # a Diplomacy turn is named by its phase
        heading = f"{title}: {report.position_before.get('phase', report.turn)}"
    if report.ruleset in MAP_RULESETS:
        svg = render_svg(report.position_after, report.events, names=report.names,
                         title=f"After turn {report.turn}")
        map_html = f'<section class="map">\n{svg}</section>'
    elif report.ruleset in DIPLOMACY_RULESETS:  # issue 10: the board after the phase
        svg = render_diplomacy_svg(report.position_after)
        map_html = f'<section class="map">\n{svg}</section>'
    else:
        map_html = ""
    if report.game_over:
        sub = "Game over"
    else:
        sub = f"Next deadline: {format_deadline(report.next_deadline, report.timezone)}"
    nav = _nav(prev_href, next_href, index_href, report.turn)
    body = (
        f"<header><h1>{escape(heading)}</h1><p>game {escape(report.game_id)} &middot; "
        f"{escape(report.ruleset)} &middot; {escape(sub)}</p></header>\n{nav}\n"
        f"<main>\n{map_html}\n<section class=\"report\"><pre>{escape(text)}</pre>"
        f"</section>\n</main>\n{nav}"
    )
    return _page(heading, body)


@dataclass(frozen=True)
class TurnLink:
    turn: int
    href: str
    summary: str = ""


def render_index(game_id: str, title: str, turns: Sequence[TurnLink], *,
                 ruleset: str = "tweedekker", position: dict[str, Any] | None = None,
                 names: dict[str, str] | None = None, status_line: str = "") -> str:
    """The game's archive index: every turn, and the sky as it is now."""
    heading = title or game_id
    rows = "\n".join(
        f'<tr><td><a href="{escape(t.href)}">Turn {t.turn}</a></td>'
        f"<td>{escape(t.summary)}</td></tr>" for t in turns)
    table = (f"<table><tr><th>Turn</th><th>What happened</th></tr>\n{rows}\n</table>"
             if turns else "<p style=\"margin:1em 1.2em\">No turn has been played yet.</p>")
    now = ""
    if position is not None and ruleset in MAP_RULESETS:
        svg = render_svg(position, None, names=names,
                         title=f"The sky now: turn {position.get('turn', '?')}")
        now = f'<main><section class="map">\n{svg}</section></main>'
    elif position is not None and ruleset in DIPLOMACY_RULESETS:  # issue 10
        svg = render_diplomacy_svg(position)
        now = f'<main><section class="map">\n{svg}</section></main>'
    body = (f"<header><h1>{escape(heading)}</h1><p>game {escape(game_id)} &middot; "
            f"{escape(ruleset)}{' &middot; ' + escape(status_line) if status_line else ''}"
            f"</p></header>\n{table}\n{now}")
    return _page(f"{heading}: archive", body)


# ---------------------------------------------------------------- the store


def _summary(events: list[dict[str, Any]], names: dict[str, str]) -> str:
    """A one-line summary of a turn for the index, from its events."""
    def name(who: Any) -> str:
        return names.get(str(who)) or str(who)

    parts: list[str] = []
    bursts = sum(1 for e in events if e.get("kind") in ("burst", "fire"))
    hits = sum(1 if e.get("kind") == "hit" else int(e.get("hits") or 0)
               for e in events if e.get("kind") in ("hit", "fire"))  # fire: Fast Play
    if bursts:
        parts.append(f"{bursts} burst{'s' if bursts != 1 else ''}, "
                     f"{hits} hit{'s' if hits != 1 else ''}")
    for e in events:
        if e.get("kind") in ("destroyed", "shot_down"):
            parts.append(f"{name(e.get('target'))} down")
        elif e.get("kind") == "ace":
            parts.append(f"{name(e.get('pilot'))} an ace")
        elif e.get("kind") == "game_over":
            winners = ", ".join(name(w) for w in e.get("winners") or []) or "nobody"
            parts.append(f"game over: {winners}")
    return "; ".join(parts) or "manoeuvring"


def build_turn_report(game: Any, turn: int) -> TurnReport:
    """The TurnReport of an adjudicated turn, read from a store ``Game``."""
    settings = game.settings
    before = game.read_position(turn)
    turns = game.turn_numbers()
    after = game.read_position(turn + 1) if turn + 1 in turns else before
    events_doc = game.read_turn_file(turn, "events.yaml")
    events = list((events_doc.mapping() if events_doc else {}).get("events") or [])
    dice_doc = game.read_turn_file(turn, "dice.yaml")
    dice = list((dice_doc.mapping() if dice_doc else {}).get("dice") or [])
    result = game.result(turn) or {}
    deadline = result.get("next_deadline")
    if isinstance(deadline, str):
        try:
            deadline = datetime.fromisoformat(deadline)
        except ValueError:
            deadline = None
    try:
        orders = game.orders(turn)
    except Exception:  # an unreadable orders file must not stop the archive
        orders = {}
    return TurnReport(
        game_id=game.id, title=settings.title, ruleset=settings.ruleset, turn=turn,
        position_before=before, position_after=after, events=events, orders=dict(orders),
        names={pid: p.name for pid, p in settings.players.items() if p.name},
        next_deadline=deadline if isinstance(deadline, datetime) else None,
        timezone=settings.timezone, game_over=bool(result.get("game_over")),
        winners=list(result.get("winners") or []), dice=dice,
    )


def write_archive(game: Any, out_dir: Path) -> list[Path]:
    """Write ``index.html`` and one ``turn-NNN.html`` per adjudicated turn."""
    out_dir.mkdir(parents=True, exist_ok=True)
    played = [t for t in game.turn_numbers() if game.is_adjudicated(t)]
    written: list[Path] = []
    links: list[TurnLink] = []
    names = {pid: p.name for pid, p in game.settings.players.items() if p.name}
    for i, turn in enumerate(played):
        report = build_turn_report(game, turn)
        prev_href = turn_page_name(played[i - 1]) if i > 0 else None
        next_href = turn_page_name(played[i + 1]) if i + 1 < len(played) else None
        page = render_turn_page(report, game.report(turn), prev_href=prev_href,
                                next_href=next_href)
        path = out_dir / turn_page_name(turn)
        path.write_text(page, encoding="utf-8")
        written.append(path)
        links.append(TurnLink(turn, path.name, _summary(report.events, names)))
    status = f"turn {game.turn} open" if game.status == "open" else game.status
    try:
        position = game.position
    except Exception:  # the GM is editing the open turn: the archive still renders
        position = None
    index = render_index(game.id, game.settings.title, links,
                         ruleset=game.settings.ruleset, position=position, names=names,
                         status_line=status)
    path = out_dir / "index.html"
    path.write_text(index, encoding="utf-8")
    written.append(path)
    return written
