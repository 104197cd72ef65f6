"""The Fast Play turn report as text, and the character map of its board.

The board of rule FP1 is a rectangle of flat-topped hexes, ``files`` wide
and ``ranks`` high; files A, C, E... sit half a hex lower than B, D, F...
The character map draws one column per file (lettered above and below) and
two text rows per hex, so the half-hex stagger shows. Each text row holds
the hexes of every other file, all with the same number, and that number is
written at both ends of the row: a hex's name is its column letter and the
number at either end of its row. An empty hex is a dot.

A plane is a letter and a heading mark (``Av`` heading S, ``/a`` SW, the mark
on the side of the nose, as on the tweedekker map); the letter is upper case
for the Germans and lower case for the Allies (FP1), and the key under the
map says whose letter it is. Two planes in one hex show both letters, three
or more the first and ``+``.

The report (``fastplay_report_document``, as text ``render_fastplay_report``)
has, in reading order: a header; the reader's own block
(``fastplay_personal``) or, for observers and the teacher, the turn at a
glance; move by move with every die (the words of ``render_events``); the
planes table (hex, heading, side, damage of ``hits_to_down``, victories,
ace, cards left, NMR) and the score by side; the orders given (secret until
now) and the dice rolled; and last the board after the turn with its key.
Every line is at most 70 characters. Nothing here recomputes a rule: it only
reads the stored position, events and orders.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from pbmref.reports.common import WIDTH, fit_width, wrap
from pbmref.reports.document import Block, Document, Fixed, Gap, Para, Section, Sub
from pbmref.reports.model import TurnReport
from pbmref.rules.eventdata import Event
from pbmref.rules.fastplay import events as ev
from pbmref.rules.fastplay.board import FastBoard
from pbmref.rules.fastplay.state import GameState
from pbmref.rules.hexgrid import Hex
from pbmref.rulesets.air.report import (
    Teller,
    foot_section,
    head_section,
    orders_blocks,
    piece_mark,
)
from pbmref.rulesets.fastplay.personal import glance_section, pilot_section
from pbmref.rulesets.fastplay.turn import DECK_SIZE, FastTurn, letters_of

__all__ = [
    "fastplay_report_document",
    "fastplay_table_blocks",
    "render_fastplay_map",
    "render_fastplay_map_reply",
    "render_fastplay_report",
    "render_fastplay_tables",
]

SIDES = ("Germans", "Allies")
STATE_WORDS = {
    "flying": "flying", "left": "left (FP13)", "down": "down (FP9)",
    "out": "out (FP9)", "removed": "removed",
}


# ---------------------------------------------------------------- the map


def _step(files: int) -> int:
    """Columns between files: as wide as 70 columns allow."""
    for step in (5, 4, 3):
        if 4 + step * (files - 1) + 6 <= WIDTH:
            return step
    return 2


def render_fastplay_map(state: GameState, letters: Mapping[str, str] | None = None
                        ) -> list[str]:
    """The board's lines: file letters above and below, numbers at both edges.

    >>> from pbmref.rules.fastplay.position import position_from_dict
    >>> lines = render_fastplay_map(position_from_dict({
    ...     "board": {"files": 3, "ranks": 2}, "aircraft": {
    ...     "anna": {"team": "Germans", "hex": "B2", "heading": "S"},
    ...     "bert": {"team": "Allies", "hex": "A1", "heading": "NE"}}}))
    >>> print("\\n".join(lines))
        A    B    C
     2       Av        2
     2  .         .    2
     1       .         1
     1  b/        .    1
        A    B    C
    """
    board = state.board
    if letters is None:
        letters = letters_of(state)
    pieces: dict[Hex, list[str]] = {}
    for a in state.planes:
        if a.hex is not None and a.on_board and board.contains(a.hex):
            pieces.setdefault(a.hex, []).append(piece_mark(letters.get(a.pilot, "?"), a.heading))
    step = _step(board.files)
    margin = 4
    last_x = margin + step * (board.files - 1)
    width = last_x + 6
    rows = [[" "] * width for _ in range(2 * board.ranks)]

    def y_of(f: int, n: int) -> int:
        # files A, C, E... half a hex lower than B, D, F... (FP1)
        return 2 * (board.ranks - n) + (1 if f % 2 == 0 else 0)

    for f in range(board.files):
        x = margin + step * f
        for n in range(1, board.ranks + 1):
            here = pieces.get(board.hex_at(f, n), [])
            if len(here) == 1:
                inside = here[0]
            elif len(here) == 2:
                inside = "".join(p.strip("^/\\v") for p in here)
            elif here:
                inside = here[0].strip("^/\\v") + "+"
            else:
                inside = ". "
            y = y_of(f, n)
            rows[y][x] = inside[0]
            rows[y][x + 1] = inside[1]
    for y in range(2 * board.ranks):  # each row's number at both edges
        label = list(f"{board.ranks - y // 2:2d}")
        rows[y][0:2] = label
        rows[y][last_x + 4:last_x + 6] = label
    files = " " * margin + (" " * (step - 1)).join(
        chr(ord("A") + f) for f in range(board.files))
    return [files] + ["".join(r).rstrip() for r in rows] + [files]


def map_key(state: GameState, letters: Mapping[str, str],
            names: Mapping[str, str] | None = None) -> list[str]:
    """Whose letter is which, by side, and what the marks mean."""
    names = names or {}
    lines: list[str] = []
    for side in SIDES:
        entries = []
        for a in state.planes:
            if a.team.value != side:
                continue
            shown = names.get(a.pilot) or a.pilot
            where = "" if a.on_board else f" ({a.state.value})"
            entries.append(f"{letters.get(a.pilot, '?')} {shown}{where}")
        edge = "north" if side == "Germans" else "south"
        case = "upper" if side == "Germans" else "lower"
        lines += wrap(f"{side} ({case} case, {edge} edge): "
                      + (", ".join(entries) or "none"), "  ", "    ")
    lines.append("  Heading: A^ N, A/ NE, A\\ SE, Av S, /A SW, \\A NW; "
                 "Ab two planes,")
    lines.append("  A+ three or more. A hex is its column letter and the number")
    lines.append("  at either end of its row (E8: column E, a row numbered 8).")
    return lines


# ---------------------------------------------------------------- tables


def _plane_rows(state: GameState, names: Mapping[str, str],
                letters: Mapping[str, str]) -> list[str]:
    rows = ["  Pilot          Side    Hex Hdg State    Hits Kills Ace  Cards NMR",
            "  " + "-" * 66]
    down = state.settings.hits_to_down
    for a in state.planes:
        shown = f"{letters.get(a.pilot, '?')} {names.get(a.pilot) or a.pilot}"[:14]
        on = a.on_board and a.hex is not None
        hex_ = state.board.name(a.hex) if on and a.hex is not None else "-"
        hdg = str(a.heading) if on else "-"
        ace = "2xACE" if a.double_ace else ("ACE" if a.ace else "-")
        hits = f"{a.hits}/{down}"
        rows.append(f"  {shown:<14} {a.team.value[:7]:<7} {hex_:<3} {hdg:<3} "
                    f"{a.state.value[:8]:<8} {hits:>4} {a.kills:>5} {ace:<5} "
                    f"{len(a.deck):>4} {a.nmr:>3}")
    return rows


def _plane_notes(state: GameState, names: Mapping[str, str]) -> list[Block]:
    notes: list[Block] = []
    for a in state.planes:
        extra = []
        if a.duel:
            extra.append(f"in a duel with {names.get(a.duel) or a.duel} (FP15)")
        if a.withdrawing:
            extra.append("duel won: out of the fight until it leaves (FP15)")
        if a.burning:
            extra.append("burning (FP12)")
        if a.gun_hits:
            extra.append(f"gun hit: {a.gun_hits} die fewer (FP12)")
        if a.state.value in ("left", "down", "out") and not state.game_over:
            extra.append("returns next turn (FP14)"
                         + (" as a new pilot" if a.state.value == "out" else ""))
        if extra:
            notes.append(Para(f"{names.get(a.pilot) or a.pilot}: " + "; ".join(extra)))
    return [Gap(), *notes] if notes else []


def fastplay_table_blocks(state: GameState, names: Mapping[str, str] | None = None,
                          letters: Mapping[str, str] | None = None) -> list[Block]:
    """The planes table and the score by side."""
    names = names or {}
    if letters is None:
        letters = letters_of(state)
    down = state.settings.hits_to_down
    blocks: list[Block] = [
        Fixed(_plane_rows(state, names, letters)),
        Para(f"(Hits: damage points of {down}, shot down at {down}, FP9; "
             "Kills: the pilot's victories, FP16; Ace at "
             f"{state.settings.ace_victories} (FP11); "
             f"Cards: left of {DECK_SIZE} (FP6).)", 2, 2)]
    blocks += _plane_notes(state, names)
    score = {team.value: n for team, n in state.score}
    blocks += [Sub("SCORE (victories in this game, FP19)"),
               Para("   ".join(f"{side} {score.get(side, 0)}" for side in SIDES))]
    return blocks


def render_fastplay_tables(state: GameState, names: Mapping[str, str] | None = None,
                           letters: Mapping[str, str] | None = None) -> list[str]:
    """``fastplay_table_blocks`` as text lines (the MAP reply)."""
    return Section("PLANES", fastplay_table_blocks(state, names, letters)).lines()


def _orders_section(turn: FastTurn) -> Section:
    report = turn.report
    pilots = [a.pilot for a in turn.before.planes if a.state.value != "removed"]
    pilots += sorted(p for p in report.orders if p not in pilots)
    blocks = orders_blocks(report.orders, pilots, turn.name)
    if report.dice:
        blocks += [Gap(), Para("Dice rolled this turn: " + " ".join(str(d) for d in report.dice),
                               0, 2)]
    return Section(f"ORDERS GIVEN FOR TURN {report.turn} (secret until now)", blocks, "orders")


# ---------------------------------------------------------------- the report


def _moves_section(turn: FastTurn) -> Section:
    report = turn.report
    blocks: list[Block] = []
    for line in render_events(turn.events, report.names, turn.board):
        indent = len(line) - len(line.lstrip())
        if indent == 0 and line.endswith(":"):
            blocks.append(Sub(line[:-1]))
        else:
            blocks.append(Para(line.strip(), indent, indent + 4))
    if not report.events:
        blocks.append(Para("No events were recorded for this turn."))
    return Section("MOVE BY MOVE (every die shown)", blocks, "moves")


def _board_section(turn: FastTurn) -> Section:
    after, letters = turn.after, turn.letters
    when = "at the end of the game" if turn.report.game_over else (
        f"at the start of turn {after.turn}")
    return Section(f"THE BOARD {when.upper()} (character map)", [
        Fixed(["  Germans' edge (north)", *render_fastplay_map(after, letters),
               "  Allies' edge (south)"]), Gap(),
        Fixed(map_key(after, letters, turn.report.names))], "map")


def fastplay_report_document(report: TurnReport[Event], readers: Sequence[str] = ()) -> Document:
    """A Fast Play report as a document: the personal block of each pilot in
    ``readers`` first (the turn at a glance when there is none)."""
    turn = FastTurn.of(report)
    planes = {a.pilot for state in (turn.before, turn.after) for a in state.planes}
    mine = [p for p in readers if p in planes]
    winners = ", ".join(report.winners) or "nobody"
    sections = [head_section(report, "Fast Play", f"GAME OVER. Winners: {winners} (FP19)")]
    sections += [pilot_section(turn, p) for p in mine] if mine else [glance_section(turn)]
    sections += [_moves_section(turn),
                 Section("PLANES", fastplay_table_blocks(turn.after, report.names,
                                                        turn.letters), "tables"),
                 _orders_section(turn), _board_section(turn),
                 foot_section(report)]
    return Document(sections)


def render_fastplay_report(report: TurnReport[Event], readers: Sequence[str] = ()) -> str:
    """A Fast Play turn report as text, every line at most 70 characters."""
    return fastplay_report_document(report, readers).text()


def render_fastplay_map_reply(state: GameState, names: Mapping[str, str] | None = None,
                              title: str = "") -> str:
    """The answer to MAP in a Fast Play game: the board now, its key, the planes."""
    names = dict(names or {})
    letters = letters_of(state)
    head = f"{title + ': ' if title else ''}the board at the start of turn {state.turn}"
    lines = wrap(head, "", "  ") + ["", "  Germans' edge (north)"]
    lines += render_fastplay_map(state, letters)
    lines += ["  Allies' edge (south)", ""]
    lines += map_key(state, letters, names)
    lines += render_fastplay_tables(state, names, letters)
    return "\n".join(fit_width(lines)) + "\n"


_SHOWN_ELSEWHERE = {"fire", "crash", "burn", "critical"}


def _die(e: ev.DieRolled, n: Teller) -> str | None:
    if e.purpose in _SHOWN_ELSEWHERE:
        return None
    die = "die" if e.sides == 6 else f"d{e.sides}"
    return f"  {e.purpose} {die} for {n(e.who)}: {e.value}"


def _entered(e: ev.Entered, n: Teller) -> str:
    how = "as ordered" if e.chosen_by == "orders" else "placed by the referee"
    near = f", nearest enemy {e.distance} hexes" if e.distance else ""
    new = " (a new pilot)" if e.new_pilot else ""
    return f"{n(e.pilot)}{new} enters at {n.hex(e.hex)} facing {e.heading}, {how}{near}"


def _duel_over(e: ev.DuelEnded, n: Teller) -> str:
    who = " and ".join(n(p) for p in e.pilots)
    if e.winner:
        return (f"Duel of {who} over ({e.reason}): {n(e.winner)} wins and must fly "
                "off the board before fighting again")
    return f"Duel of {who} over ({e.reason})"


def _manoeuvre(e: ev.Manoeuvred, n: Teller) -> str:
    card = e.card or "no card"
    note = f" [{e.reason}]" if e.reason else ""
    src = n.hex(e.from_hex)
    if e.outcome == "left":
        return f"{n(e.pilot)}: {card} from {src}, flies off the board{note}"
    if e.outcome == "stayed":
        return f"{n(e.pilot)}: {card}, stays at {src} facing {e.heading}{note}"
    dst = None if e.to_hex is None else n.hex(e.to_hex)
    return f"{n(e.pilot)}: {card} {src} -> {dst} {e.heading}{note}"


def _fire(e: ev.Fired, n: Teller) -> str:
    rolls = " ".join(str(r) for r in e.rolls) or "-"
    dice = f"{e.dice} {'die' if e.dice == 1 else 'dice'}"
    return (f"{n(e.shooter)} fires at {n(e.target)} ({e.distance} hex"
            f"{'es' if e.distance != 1 else ''}, {dice}): {rolls} -> "
            f"{e.hits} hit{'s' if e.hits != 1 else ''}")


def _critical(e: ev.CriticalHit, n: Teller) -> str:
    extra = f", {e.extra_damage} extra damage" if e.extra_damage else ""
    return f"  critical hit on {n(e.target)}: {e.roll} {e.effect}{extra}"


def _shot_down(e: ev.ShotDown, n: Teller) -> str:
    fate = ("lands safely and flies again next turn" if e.outcome == "down"
            else "is put out of action")
    return f"{n(e.target)} is shot down: crash roll {e.crash_roll}, {fate}"


def _ace(e: ev.AcePromoted, n: Teller) -> str:
    title = "a double ace" if e.title == "double ace" else "an ace"
    return f"{n(e.pilot)} is now {title} with {e.victories} victories"


def _game_over(e: ev.GameEnded, n: Teller) -> str:
    score = ", ".join(f"{t} {k}" for t, k in e.score)
    return f"The game is over ({e.reason}): {' and '.join(e.winners)} win ({score})"


def _duel(e: ev.DuelBegan, n: Teller) -> str:
    return f"Duel: {' and '.join(n(p) for p in e.pilots)} fight it out alone"


# One line of each event of the kinds below, of its fields (``Teller.line``).
_FIELD_LINES: dict[type[Event], str] = {
    ev.MissedOrders: "{who}: no orders ({e.count} in a row); the referee flies the plane",
    ev.BurnChecked: "{who} is burning: rolls {e.roll}, {e.outcome}",
    ev.HeldFire: "{who} holds fire ({e.reason})",
    ev.CardLost: "  {who} loses the card {e.card} ({e.cause})",
    ev.Damaged: "{target} takes {e.amount} damage ({e.cause}), now {e.hits}",
    ev.Victory: "Victory for {who} over {target} ({e.damage} damage this turn), "
                "{e.victories} in all",
    ev.Removed: "{who} is removed from the game ({e.reason})",
}


def _field_line(e: Event, n: Teller) -> str:
    return n.line(_FIELD_LINES, e)


# One line per class of event (FP rules); an event of another kind is not shown.
_LINES: dict[type[Event], Callable[[Any, Teller], str | None]] = {
    ev.DieRolled: _die, ev.Entered: _entered, ev.DuelBegan: _duel, ev.DuelEnded: _duel_over,
    ev.Manoeuvred: _manoeuvre, ev.Fired: _fire, ev.CriticalHit: _critical,
    ev.ShotDown: _shot_down, ev.AcePromoted: _ace, ev.GameEnded: _game_over,
    **dict.fromkeys(_FIELD_LINES, _field_line),
}


def render_events(events: Sequence[Event], names: Mapping[str, str],
                  board: FastBoard) -> list[str]:
    """A turn's events as plain text lines, grouped by move, every die shown;
    pilots by their ``names``."""
    tell = Teller(lambda who: names.get(who) or who, board)
    lines: list[str] = []
    current: int | None = None
    ended = False
    for e in events:
        move = e.move
        if move != current:
            if move == 0 and current is not None:
                heading, ended = "End of the turn", True
            elif move == 0:
                heading = "Before the moves"
            else:
                heading = f"Move {move}"
            if not (move == 0 and ended and current == 0):
                lines.append(f"{heading}:")
            current = move
        line = _LINES.get(type(e))
        text = line(e, tell) if line is not None else None
        if text is not None:
            lines.append(text if text.startswith("  ") else f"  {text}")
    return lines
