"""The final report of a game (J14): how it ended, who played what, and for a
game of supply centres the chart of centres held at the end of each year.

Rendered from plain data (``FinalReport``) as the text everyone in the game
is mailed (at most 70 columns) and as the archive's last page. The ruleset
gives the chart (``Ruleset.centre_chart``) and the words of the ending
(``Ruleset.ending``); the archive layer gathers the rest.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from html import escape

from pbmref.reports.common import wrap
from pbmref.reports.html import page

__all__ = ["FINAL_PAGE", "FinalReport", "render_final_page", "render_final_text"]

FINAL_PAGE = "final.html"


@dataclass(frozen=True)
class FinalReport:
    """A game that has ended, as the final report shows it."""

    game_id: str
    title: str
    kind: str  # "Diplomacy", "Tweedekker" ...
    ending: str  # how it ended, in a sentence
    turns: int  # turns played
    places: Sequence[tuple[str, str]] = ()  # (place, who played it: "" in an anonymous game)
    chart: Sequence[tuple[str, Mapping[str, int]]] = ()  # (year, centres of each side)
    sides: Sequence[str] = field(default=())  # the chart's columns, in order


def _chart_lines(report: FinalReport) -> list[str]:
    """The centre chart as a table of text, a year a row.

    >>> print("\\n".join(_chart_lines(FinalReport("g", "", "", "", 2, chart=[
    ...     ("start", {"ENG": 3, "FRA": 3}), ("1901", {"ENG": 4, "FRA": 5})],
    ...     sides=("ENG", "FRA")))))
    Year    ENG  FRA
    start     3    3
    1901      4    5
    """
    if not report.chart:
        return []
    width = max(3, *(len(s) for s in report.sides))
    head = "Year  " + "".join(f"{s:>{width + 2}}" for s in report.sides)
    rows = [f"{year:<6}" + "".join(f"{counts.get(s, 0):>{width + 2}}" for s in report.sides)
            for year, counts in report.chart]
    return [head.rstrip(), *(r.rstrip() for r in rows)]


def render_final_text(report: FinalReport) -> str:
    """The final report mailed to everyone in the game (J14)."""
    out = ["=" * 70, f"FINAL REPORT: game {report.game_id}"
           + (f" ({report.title})" if report.title and report.title != report.game_id else ""),
           "=" * 70, "", *wrap(f"{report.ending.rstrip('.')} ({report.kind}, "
                                f"{report.turns} turns played; rule J14)."), ""]
    if report.places:
        out.append("Who played what:")
        width = max(len(p) for p, _ in report.places)
        out += [f"  {p:<{width}}  {who}".rstrip() for p, who in report.places]
        out.append("")
    chart = _chart_lines(report)
    if chart:
        out += ["Supply centres at the end of each year:", "", *("  " + c for c in chart), ""]
    out += ["The game's archive keeps every report; this is its last page.",
            "Thank you for playing."]
    return "\n".join(out) + "\n"


def render_final_page(report: FinalReport, *, last_turn_href: str | None = None) -> str:
    """The archive's last page (J14): the ending, the places and the chart."""
    heading = f"{report.title or report.game_id}: final report"
    places = "".join(f"<tr><td>{escape(p)}</td><td>{escape(who)}</td></tr>"
                     for p, who in report.places)
    chart = ""
    if report.chart:
        head = "".join(f"<th>{escape(s)}</th>" for s in report.sides)
        rows = "".join(
            f"<tr><td>{escape(year)}</td>"
            + "".join(f"<td>{counts.get(s, 0)}</td>" for s in report.sides) + "</tr>"
            for year, counts in report.chart)
        chart = (f'<section id="chart"><h2>Supply centres at the end of each year</h2>'
                 f"<table><tr><th>Year</th>{head}</tr>{rows}</table></section>")
    back = (f'<a rel="prev" href="{escape(last_turn_href)}">&larr; the last turn</a>'
            if last_turn_href else "")
    body = (f"<header><h1>{escape(heading)}</h1><p>game {escape(report.game_id)} &middot; "
            f"{escape(report.kind)} &middot; {report.turns} turns played</p></header>\n"
            f"<nav>{back}<a id=\"index\" href=\"index.html\">all turns</a></nav>\n<main>\n"
            f"<p id=\"ending\">{escape(report.ending)} (rule J14)</p>\n"
            + (f'<section id="places"><h2>Who played what</h2><table>{places}</table>'
               "</section>\n" if places else "")
            + f"{chart}\n</main>")
    return page(heading, body)
