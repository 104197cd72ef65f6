"""The parts of a turn report both air games (tweedekker, Fast Play) share: the
head, the orders as mailed, the foot, and a piece's mark on the character map.

The tweedekker report (``rulesets.tweedekker.report``) and the Fast Play
report (``rulesets.fastplay.report``) differ in their boards and events and
open and close alike; both read the turn's events typed (the report's own).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

from pbmref.reports.common import and_list, format_deadline
from pbmref.reports.document import Block, Gap, Para, Rule, Section, Title
from pbmref.reports.model import TurnReport
from pbmref.rules.eventdata import Event, HexNamer
from pbmref.rules.hexgrid import Heading, Hex, HexNameError
from pbmref.rulesets.air.names import Namer

__all__ = ["HEADING_MARKS", "foot_section", "head_section", "next_turn_line",
           "orders_blocks", "piece_mark", "render_orders", "Teller"]


class Teller:
    """Says a turn's events in words: pilots by ``name``, hexes by the names
    the board gives them."""

    def __init__(self, name: Callable[[str], str], board: HexNamer) -> None:
        self.name = name
        self.hex = board.name
        self.names = board.names

    def __call__(self, who: str) -> str:
        return self.name(who)

    def hexes(self, line: tuple[Hex, ...]) -> str:
        return " ".join(self.names(line)) or "-"

    def line(self, templates: Mapping[type[Event], str], e: Event) -> str:
        """The event's template filled with its fields (``e``), and the names of
        its ``pilot`` (``who``) and ``target`` and its ``runway`` in words."""
        return templates[type(e)].format(
            e=e, who=self(str(getattr(e, "pilot", ""))),
            target=self(str(getattr(e, "target", ""))),
            runway=str(getattr(e, "runway", "")).title())


# Where the heading mark goes: after the letter for N/NE/SE/S, before for SW/NW.
HEADING_MARKS: dict[str, tuple[str, str]] = {
    "N": ("", "^"), "NE": ("", "/"), "SE": ("", "\\"),
    "S": ("", "v"), "SW": ("/", ""), "NW": ("\\", ""),
}


def piece_mark(letter: str, heading: Heading | str, landed: bool = False) -> str:
    """Two characters: a letter and its heading mark (``_`` when landed; ``?``
    after it for a heading that is none)."""
    if landed:
        return letter + "_"
    try:
        h: Heading | None = heading if isinstance(heading, Heading) else Heading.parse(heading)
    except HexNameError:
        h = None
    before, after = HEADING_MARKS[h.value] if h else ("", "?")
    return before + letter + after


def next_turn_line(report: TurnReport[Event], namer: Namer | None = None) -> str:
    """The next deadline, or who won."""
    if report.game_over:
        name = namer or Namer((), (), report.names)
        winners = and_list(name(w) for w in report.winners) or "nobody"
        return f"The game is over. Won by {winners}."
    next_turn = report.position_after.get("turn", report.turn + 1)
    return (f"Orders for turn {next_turn} by "
            f"{format_deadline(report.next_deadline, report.timezone)}.")


def head_section(report: TurnReport[Event], game_kind: str, game_over: str = "") -> Section:
    """The report's head: title and id, the turn, the next deadline or (the words
    ``game_over``) who won."""
    blocks: list[Block] = [Rule(), Title((report.title or report.game_id).upper(),
                                         f"game {report.game_id}"),
                           Para(f"{game_kind} - report of turn {report.turn}", 2, 2)]
    if report.game_over:
        blocks.append(Para(game_over, 2, 2, strong=True))
    else:
        next_turn = report.position_after.get("turn", report.turn + 1)
        blocks.append(Para(f"Next deadline (turn {next_turn}): "
                           f"{format_deadline(report.next_deadline, report.timezone)}", 2, 4))
    blocks.append(Rule())
    return Section(None, blocks, "head")


def _entry_blocks(entry: Mapping[str, object]) -> list[Block]:
    blocks: list[Block] = [Para(f"{key.upper()} {entry[key]}", 4, 6)
                           for key in ("takeoff", "land", "enter", "duel") if entry.get(key)]
    for section in ("plane", "zeppelin"):
        moves = entry.get(section)
        if moves is None:
            continue
        lines = moves if isinstance(moves, Iterable) else [moves]
        parts = [f"{i}: {m}" for i, m in enumerate(lines, 1) if str(m).strip()]
        # An empty PLANE section keeps a landed aircraft on the ground (L2a).
        empty = "(stay landed, L2a)" if section == "plane" else "(no votes)"
        blocks.append(Para(f"{section.upper():<9} " + ("   ".join(parts) if parts else empty),
                           4, 14))
    shown = ("plane", "zeppelin", "takeoff", "land", "enter", "duel", "raw", "message_id")
    blocks += [Para(f"{key}: {entry[key]}", 4, 6) for key in entry if key not in shown]
    return blocks


def orders_blocks(orders: Mapping[str, object], pilots: list[str],
                  namer: Callable[[str], str] | None = None) -> list[Block]:
    """The orders each player gave, as they would be mailed."""
    def name(p: str) -> str:
        return str(namer(p)) if namer else p

    blocks: list[Block] = []
    for pilot in pilots:
        entry = orders.get(pilot)
        if not entry:
            blocks.append(Para(f"{name(pilot)}: no orders received"))
            continue
        blocks.append(Para(f"{name(pilot)}:"))
        if isinstance(entry, Mapping):
            blocks += _entry_blocks(entry)
        else:
            items = entry if isinstance(entry, list | tuple) else [entry]
            blocks += [Para(str(item), 4, 6) for item in items]
    return blocks


def render_orders(orders: Mapping[str, object], pilots: list[str],
                  namer: Callable[[str], str] | None = None) -> list[str]:
    """``orders_blocks`` as text lines."""
    lines: list[str] = []
    for block in orders_blocks(orders, pilots, namer):
        lines += block.lines()
    return lines


def foot_section(report: TurnReport[Event]) -> Section:
    """The last lines: when the next orders are due."""
    if report.game_over:
        text = "The game is over. Thank you for flying."
    else:
        text = next_turn_line(report) + " Send MAP or STATUS for a fresh look."
    return Section(None, [Gap(), Rule(), Para(text, 2, 2), Rule()], "foot")
