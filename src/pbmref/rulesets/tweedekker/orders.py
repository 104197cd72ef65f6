"""Reading and checking tweedekker orders: mail body lines and orders entries.

Two ways in, one set of checks:

- ``parse_body(state, player, lines)``: the body lines of an order mail
  (``(line_no, text)`` pairs from the envelope) -> a canonical orders entry,
  e.g. ``{"plane": ["L f-A", "A", "R"], "zeppelin": ["L f-B", "A d-B", ""]}``;
- ``entry_to_orders(state, player, entry)``: an orders entry (scenario file,
  stored orders) -> ``(PlaneOrders | None, (ZeppelinVote | None,) * 3)``.
  A line in the canonical form ``parse_body`` writes (``LS f-A f-R``,
  ``A d-B``) is read word by word with the rules' own values, without the
  grammar: the orders a mail gave are parsed once, when it arrives, however
  often the stored entry is checked or played after. Any other line (a
  scenario file's ``LT``, ``FIRE L+R``) goes through the grammar as a mail's.

Both raise ``pbmref.orders.errors`` exceptions only; several problems come
as one ``OrderErrors``. Rule numbers refer to ``shared/rules/tweedekker.md``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any, NamedTuple

from lark import Lark, Token, Transformer

from pbmref.orders.errors import (
    IllegalOrderError,
    OrderMailError,
    OrderSyntaxError,
    UnknownPlayerError,
    raise_all,
)
from pbmref.orders.lines import (
    air_order_line,
    clean_line,
    grammar_text,
    order_piece,
    read_past_mistakes,
)
from pbmref.rules.hexgrid import Heading
from pbmref.rules.tweedekker.orders import (
    FireDir,
    Manoeuvre,
    Move,
    PlaneOrders,
    ZeppelinFire,
    ZeppelinVote,
)
from pbmref.rules.tweedekker.state import Aircraft, AircraftState, GameState, Runway
from pbmref.rulesets.air.lines import first_mistake
from pbmref.rulesets.base import OrdersEntry

__all__ = [
    "ParsedLine",
    "Item",
    "canonical_line",
    "entry_to_orders",
    "order_line",
    "parse_body",
    "parse_position_body",
    "parse_line",
    "read_body",
    "read_line",
    "MOVES_PER_TURN",
]

MOVES_PER_TURN = 3  # rule T1

MANOEUVRE_WORDS = {
    "A": Manoeuvre.A, "L": Manoeuvre.L, "LT": Manoeuvre.L, "R": Manoeuvre.R,
    "RT": Manoeuvre.R, "LS": Manoeuvre.LS, "RS": Manoeuvre.RS, "0": Manoeuvre.ZERO,
    "N": Manoeuvre.ZERO, "O": Manoeuvre.ZERO, "I": Manoeuvre.I,
}
_MANOEUVRE_VALUE = {word: m.value for word, m in MANOEUVRE_WORDS.items()}
FIRE_WORDS = {"A": "f-A", "L": "f-L", "R": "f-R", "B": "f-B", "0": "f-0", "O": "f-0"}


# ---------------------------------------------------------------------------
# What an order line looks like (asked by the one reader of every game's mails,
# ``pbmref.orders.check.read_mail_body``, before the line is parsed)

# The section and runway words (T1, L3, L4) and the postal FIRE (F2).
_KEYWORDS = ("PLANE", "AIRCRAFT", "ZEPPELIN", "ZEP", "Z", "TAKEOFF", "TAKE-OFF", "LAND")
# A manoeuvre (M2, with the postal LT, RT, N, O), a move number without its colon
# (T1), a fire or bomb item (F2, Z14); and their common slips: "fA" (no dash),
# "RRL" (no spaces).
_PIECE = re.compile(r"ls|rs|lt|rt|[alr0noi1-9]|[fd]-[a-z0-9]{1,3}", re.I)
_SLIP = re.compile(r"[fd][alrb0o]|(ls|rs|lt|rt|[alr0i]){2,}", re.I)
_TAKE_OFF = re.compile(r"^\s*take\s+off\b", re.I)


def _piece(word: str) -> bool:
    """A word of a move line; a capitalised word ("Al", "Lara", "Fr") is a name,
    no slip of one.

    >>> [_piece(w) for w in ("LS", "f-Z", "fA", "RRL", "rr", "Al", "Lara", "All")]
    [True, True, True, True, True, False, False, False]
    """
    return order_piece(word, _PIECE, _SLIP)


def order_line(cleaned: str) -> bool:
    """Does a (cleaned) mail line look like a tweedekker order: a move number
    (T1), a section or runway word (or a slip of one), ``FIRE`` and a direction
    (F2), or manoeuvres and fire items (M2, F2, Z14)?

    >>> [order_line(t) for t in ("2: RS f-A", "Zeplin", "A d-B", "FIRE L+R", "RRL")]
    [True, True, True, True, True]
    >>> [order_line(t) for t in ("Hi  I hope this is right:", "Fire at will ",
    ...                          "Bert van Dam | Senior Analyst", "All the best", "A bientôt")]
    [False, False, False, False, False]
    """
    return air_order_line(cleaned, _KEYWORDS, _piece) or bool(_TAKE_OFF.match(cleaned))


# ---------------------------------------------------------------------------
# One line, parsed


class Item(NamedTuple):
    """One word of a move line: ``kind`` is man | fire | bomb; ``value`` canonical.

    (Named tuples: built for every word of every mail, and cheaper than
    frozen dataclasses.)
    """

    kind: str
    value: str  # "LS", "f-A", "f-0", "d-B"
    column: int
    width: int
    text: str  # as written


class ParsedLine(NamedTuple):
    """What one body line says, before it is checked against the position.

    ``kind``: plane | zeppelin | move (section from context) | takeoff | land.
    """

    kind: str
    move_no: int | None = None
    move_col: int | None = None
    move_width: int = 1
    items: tuple[Item, ...] = ()
    runway: Runway | None = None
    corner: Heading | None = None
    corner_col: int | None = None


def _number(tok: Token) -> int:
    digits = "".join(c for c in str(tok) if c.isdigit())
    return int(digits) if len(digits) < 6 else 10**6


class _LineTransformer(Transformer[Token, Any]):
    """Parse tree of one line -> ``ParsedLine`` (rules M2, F2, Z7)."""

    def postal_fire(self, children: list[Token]) -> list[Item]:
        kw = children[0]
        out: list[Item] = []
        for tok in children[1:]:
            if tok.type != "FDIR":
                continue
            # The caret for "FIRE A" marks the direction letter.
            out.append(Item("fire", FIRE_WORDS[str(tok).upper()], tok.column or 1, 1,
                            f"{kw} {tok}"))
        return out

    def _line(self, kind: str, children: list[Any]) -> ParsedLine:
        move_no = move_col = None
        width = 1
        items: list[Item] = []
        for c in children:
            if isinstance(c, list):  # a postal FIRE A+B
                items.extend(c)
                continue
            kind_ = c.type
            if kind_ == "MANOEUVRE":
                items.append(Item("man", _MANOEUVRE_VALUE[c.upper()], c.column or 1,
                                  len(c), str(c)))
            elif kind_ == "FIRE":
                items.append(Item("fire", FIRE_WORDS[c[2].upper()], c.column or 1, len(c),
                                  str(c)))
            elif kind_ == "BOMB":
                items.append(Item("bomb", "d-B", c.column or 1, len(c), str(c)))
            elif kind_ in ("MOVENO", "PMOVENO", "ZMOVENO"):
                move_no, move_col, width = _number(c), c.column, len(c)
        return ParsedLine(kind, move_no, move_col, width, tuple(items))

    def plane_line(self, children: list[Any]) -> ParsedLine:
        return self._line("plane", children)

    def zeppelin_line(self, children: list[Any]) -> ParsedLine:
        return self._line("zeppelin", children)

    def move_line(self, children: list[Any]) -> ParsedLine:
        return self._line("move", children)

    def _runway_line(self, kind: str, children: list[Token]) -> ParsedLine:
        runway = corner = None
        corner_col = None
        for tok in children:
            if tok.type == "RUNWAY":
                runway = Runway.parse(str(tok))
            elif tok.type == "CORNER":
                corner, corner_col = Heading.parse(str(tok)), tok.column
        if kind == "takeoff" and runway is None:
            runway = Runway.BETA  # rule L3: BETA when none is named
        return ParsedLine(kind, runway=runway, corner=corner, corner_col=corner_col)

    def takeoff_line(self, children: list[Token]) -> ParsedLine:
        return self._runway_line("takeoff", children)

    def land_line(self, children: list[Token]) -> ParsedLine:
        return self._runway_line("land", children)


class _KeepMistakes:
    """Post-lexer that keeps the MISTAKE_* terminals acceptable everywhere."""

    always_accept = (
        "MISTAKE_NODASH", "MISTAKE_FIREWORD", "MISTAKE_PAREN", "MISTAKE_NUMBER",
        "MISTAKE_JOINED", "MISTAKE_KEYWORD", "MISTAKE_OTHER",
    )

    def process(self, stream: Iterable[Token]) -> Iterable[Token]:
        return stream


@cache
def line_parser() -> Lark:
    """The LALR parser of one body line, transforming to ``ParsedLine``."""
    return Lark(grammar_text("tweedekker.lark"), parser="lalr", lexer="contextual",
                postlex=_KeepMistakes(), transformer=_LineTransformer(),
                maybe_placeholders=False)


@cache
def bare_parser() -> Lark:
    """The same grammar without the transformer (match_examples, benchmarks)."""
    return Lark(grammar_text("tweedekker.lark"), parser="lalr", lexer="contextual",
                postlex=_KeepMistakes(), maybe_placeholders=False)


def parse_line(text: str, line_no: int | None = None) -> ParsedLine:
    """One tweedekker order line read; raises its first mistake, with line and
    column (``read_line`` gives them all, for the reply)."""
    return first_mistake(read_line(text, line_no))


def read_line(text: str, line_no: int | None = None
              ) -> tuple[ParsedLine | None, list[OrderMailError]]:
    """Parse one body line and keep going past its mistakes.

    Returns what the line says, read without the words that could not be
    read (None when nothing of it can be read), and every mistake of the
    line in plain words (``pbmref.orders.nearest.line_mistakes``).
    """
    from pbmref.rulesets.tweedekker.catalogue import explain_one

    result, errors = read_past_mistakes(line_parser(), text, line_no, explain_one)
    return (result if isinstance(result, ParsedLine) else None), errors


# ---------------------------------------------------------------------------
# Lines in their sections, then checked against the position


@dataclass(slots=True)
class _Src:
    line_no: int | None
    text: str
    parsed: ParsedLine
    move_no: int = 0
    broken: bool = False  # the line had words that could not be read (reported)


@dataclass(slots=True)
class _Draft:
    """The sections of one mail (or entry) before the checks."""

    plane_given: bool = False
    plane_header: _Src | None = None
    plane: dict[int, _Src] = field(default_factory=dict)
    zeppelin_given: bool = False
    zeppelin_header: _Src | None = None
    zeppelin: dict[int, _Src] = field(default_factory=dict)
    takeoff: _Src | None = None
    land: _Src | None = None
    errors: list[OrderMailError] = field(default_factory=list)
    unread: set[tuple[str, int]] = field(default_factory=set)  # moves held by unread lines
    unread_runway: bool = False  # a misspelt TAKEOFF or LAND line (reported)


def _err(cls: type[OrderMailError], src: _Src | None, message: str, rule: str, *,
         item: Item | None = None, column: int | None = None, width: int = 1,
         expected: str | None = None, hint: str | None = None) -> OrderMailError:
    if item is not None:
        column, width = item.column, item.width
    return cls(message, rule=rule, line_no=src.line_no if src else None,
               line=src.text if src else None, column=column, width=width,
               expected=expected, hint=hint)


def _place(draft: _Draft, section: str, src: _Src, explicit_no: int | None,
           next_no: int) -> int:
    """File a move line under its section and number; returns the next number."""
    moves = draft.plane if section == "plane" else draft.zeppelin
    no = explicit_no if explicit_no is not None else next_no
    name = "PLANE" if section == "plane" else "ZEPPELIN"
    if no < 1 or no > MOVES_PER_TURN:
        draft.errors.append(_err(
            OrderSyntaxError, src, f"there is no move {no}: a turn has three moves", "T1",
            column=src.parsed.move_col, width=src.parsed.move_width,
            expected="a move number 1, 2 or 3",
            hint="number the moves 1: 2: 3:, or leave the numbers out"))
        return no + 1
    if no in moves:
        first = moves[no]
        where = f" (line {first.line_no})" if first.line_no is not None else ""
        draft.errors.append(_err(
            OrderSyntaxError, src, f"{name} move {no} is given twice{where}", "T1",
            column=src.parsed.move_col, width=src.parsed.move_width,
            hint="keep one line per move"))
        return no + 1
    src.move_no = no
    moves[no] = src
    return no + 1


_SECTIONS = {"PLANE": "plane", "AIRCRAFT": "plane", "ZEPPELIN": "zeppelin"}
_MOVE_NO = re.compile(r"^\s*(?:(?:move|m|plane|zeppelin|zep|z)\s*)?([1-9])\s*[:).\]]", re.I)


def _collect(lines: Iterable[tuple[int | None, str]], default_section: str = "plane",
             numbered: bool = False) -> _Draft:
    """Parse lines and sort them into sections (orders.md, body)."""
    draft = _Draft()
    section = default_section
    next_no = {"plane": 1, "zeppelin": 1}
    for index, (line_no, text) in enumerate(lines):
        parsed, problems = read_line(text, line_no)
        draft.errors.extend(problems)
        meant = _note_problems(draft, problems)
        if meant is not None:
            section = _SECTIONS[meant]
        if parsed is None:
            _number_unread(draft, section, text, next_no,
                           counts=meant is None)
            continue
        src = _Src(line_no, text, parsed, broken=bool(problems))
        kind = parsed.kind
        if kind in ("takeoff", "land"):
            _runway_line(draft, src, kind)
            continue
        if kind in ("plane", "zeppelin"):
            section = kind
            _section_header(draft, src, kind)
            if parsed.move_no is None and not parsed.items:
                continue  # a bare section header
        else:
            setattr(draft, f"{section}_given", True)
        explicit = parsed.move_no
        if explicit is None and numbered:
            explicit = index + 1
        next_no[section] = _place(draft, section, src, explicit, next_no[section])
    return draft


def _note_problems(draft: _Draft, problems: list[OrderMailError]) -> str | None:
    """What a line's problems tell of the mail: a misspelt section word
    ("zeplin") still starts its section (returned), a misspelt TAKEOFF or LAND
    still says the runway line was meant."""
    meant = next((e.suggestion for e in problems if e.suggestion in _SECTIONS), None)
    if meant is not None:
        setattr(draft, f"{_SECTIONS[meant]}_given", True)
    if any(e.suggestion in ("TAKEOFF", "LAND") for e in problems):
        draft.unread_runway = True
    return meant


def _number_unread(draft: _Draft, section: str, text: str, next_no: dict[str, int], *,
                   counts: bool) -> None:
    """A line that could not be read and held a move ("3: RR", "RR") still takes
    its number (the written one, else the next if it ``counts`` as a move)."""
    written = _MOVE_NO.match(clean_line(text))
    if written is not None:
        draft.unread.add((section, int(written.group(1))))
        next_no[section] = int(written.group(1)) + 1
    elif counts:
        draft.unread.add((section, next_no[section]))
        next_no[section] += 1


def _runway_line(draft: _Draft, src: _Src, kind: str) -> None:
    """A TAKEOFF or LAND line: kept, unless one was given already (L3, L4)."""
    if getattr(draft, kind) is not None:
        draft.errors.append(_err(OrderSyntaxError, src, f"{kind.upper()} is given twice",
                                 "L3" if kind == "takeoff" else "L4",
                                 hint="keep one such line"))
    else:
        setattr(draft, kind, src)


def _section_header(draft: _Draft, src: _Src, kind: str) -> None:
    """A PLANE or ZEPPELIN line starts its section (the first one is kept)."""
    if kind == "plane":
        draft.plane_given = True
        draft.plane_header = draft.plane_header or src
    else:
        draft.zeppelin_given = True
        draft.zeppelin_header = draft.zeppelin_header or src


# --- aircraft --------------------------------------------------------------

_OUT_OF_FIGHT = {
    AircraftState.LEFT: ("M4", "your aircraft has left the board and takes no further part"),
    AircraftState.DOWN: ("V2", "your aircraft was shot down"),
    AircraftState.REMOVED: ("N2", "your aircraft was removed after three turns without orders"),
}


def _plane_move(src: _Src, plane: Aircraft, errors: list[OrderMailError],
                ace_threshold: int = 15) -> Move:
    """One PLANE move line -> Move, with the per-move checks (M2, V4, F2)."""
    no = src.move_no
    manoeuvres = [i for i in src.parsed.items if i.kind == "man"]
    if not manoeuvres and src.broken:
        man = Manoeuvre.A  # its manoeuvre could not be read: that error is reported
    elif not manoeuvres:
        errors.append(_err(
            IllegalOrderError, src, f"PLANE move {no} has no manoeuvre", "M2",
            column=src.parsed.move_col or 1,
            expected="a manoeuvre: A, L, R, LS, RS or 0 (I for aces)",
            hint=f"start the move with its manoeuvre, e.g. {no}: A f-A"))
        man = Manoeuvre.A
    else:
        man = Manoeuvre(manoeuvres[0].value)
        for extra in manoeuvres[1:]:
            errors.append(_err(
                IllegalOrderError, src,
                f"one manoeuvre per move: {manoeuvres[0].text} and {extra.text} "
                f"cannot both be move {no}", "M2", item=extra,
                hint="give each move its own line, e.g. 1: A  2: R"))
    if man is Manoeuvre.I and not plane.ace:
        errors.append(_err(
            IllegalOrderError, src,
            "only an ace may fly the Immelman turn I, and your pilot is not an ace yet",
            "V4", item=manoeuvres[0],
            hint=f"use L or R to turn; a pilot becomes an ace after dealing {ace_threshold} "
                 "damage points"))
    fire, hold = _plane_fire(src, plane, errors)
    return Move(man, tuple(fire), hold is not None and not fire)


def _plane_fire(src: _Src, plane: Aircraft,
                errors: list[OrderMailError]) -> tuple[list[FireDir], Item | None]:
    """A move's bursts of fire and its f-0 (hold fire), with the fire checks (F2)."""
    no = src.move_no
    fire: list[FireDir] = []
    hold: Item | None = None
    seen: dict[str, Item] = {}
    for item in src.parsed.items:
        if item.kind == "bomb":
            errors.append(_err(
                IllegalOrderError, src,
                "aircraft carry no bombs; d-B is a zeppelin vote", "F2", item=item,
                hint="put d-B under ZEPPELIN, or fire with f-A, f-L, f-R"))
            continue
        if item.kind != "fire":
            continue
        if item.value in seen:
            errors.append(_err(
                IllegalOrderError, src,
                f"{item.value} is given twice in move {no}: one burst per direction in a move",
                "F2", item=item, hint=f"write {item.value} once"))
            continue
        seen[item.value] = item
        if item.value == "f-0":
            hold = item
            continue
        direction = FireDir(item.value)
        if direction is FireDir.B and not plane.rear_gun:
            errors.append(_err(
                IllegalOrderError, src,
                "f-B fires backward, and only an aircraft with a rear gunner can do that",
                "F2", item=item, hint="fire f-A, f-L or f-R instead"))
            continue
        fire.append(direction)
    if hold is not None and fire:
        errors.append(_err(
            IllegalOrderError, src,
            f"f-0 means hold fire, so it cannot stand beside {fire[0].value} in move {no}",
            "F2", item=hold, hint="drop f-0 to fire, or drop the bursts to hold fire"))
    return fire, hold


def _check_plane(state: GameState, plane: Aircraft, draft: _Draft) -> PlaneOrders | None:
    errors = draft.errors
    if not draft.plane_given and draft.takeoff is None and draft.land is None:
        return None
    first = (draft.plane_header or next(iter(sorted_moves(draft.plane)), None)
             or draft.takeoff or draft.land)
    if not plane.in_fight:
        rule, why = _OUT_OF_FIGHT.get(plane.state, ("M4", "your aircraft is out of the fight"))
        errors.append(_err(
            IllegalOrderError, first, f"{why}, so it takes no PLANE orders", rule,
            hint="leave out PLANE; you may still send ZEPPELIN votes" if rule != "N2" else
            "leave out PLANE"))
        return None
    moves: list[Move] = []
    numbers = sorted(draft.plane)
    last = numbers[-1] if numbers else 0
    for no in range(1, last + 1):
        src = draft.plane.get(no)
        # A move left out is flown A without fire (N1).
        moves.append(_plane_move(src, plane, errors, state.settings.ace_threshold) if src else Move(Manoeuvre.A))
    _check_stall(draft, moves)
    _check_takeoff(state, plane, draft, moves)
    _check_land(plane, draft)
    _check_bursts(state, plane, draft, moves)
    takeoff = draft.takeoff.parsed.runway if draft.takeoff else None
    land = draft.land.parsed.runway if draft.land else None
    return PlaneOrders(tuple(moves), takeoff, land)


def _check_stall(draft: _Draft, moves: list[Move]) -> None:
    """Rule M3: no stall as move 1; after 0 in move 2, move 3 must be 0."""
    errors = draft.errors
    if moves and moves[0].manoeuvre is Manoeuvre.ZERO and 1 in draft.plane:
        src = draft.plane[1]
        man = next(i for i in src.parsed.items if i.kind == "man")
        errors.append(_err(
            IllegalOrderError, src, "0 (no move) may not be move 1 of a turn: it would stall",
            "M3", item=man, hint="fly move 1 as A, L, R, LS or RS"))
    if len(moves) >= 2 and moves[1].manoeuvre is Manoeuvre.ZERO and 2 in draft.plane:
        _check_stall_after_zero(draft, moves)


def _check_stall_after_zero(draft: _Draft, moves: list[Move]) -> None:
    """M3: move 2 was 0, so move 3 must be 0 too (a move 3 that could not be read
    is not judged again)."""
    src3 = draft.plane.get(3)
    unread = ("plane", 3) in draft.unread or (src3 is not None and src3.broken and not any(
        i.kind == "man" for i in src3.parsed.items))
    if unread or (len(moves) >= 3 and moves[2].manoeuvre is Manoeuvre.ZERO):
        return
    src = src3 or draft.plane[2]
    man3 = next((i for i in src3.parsed.items if i.kind == "man"), None) if src3 else None
    left_out = src3 is None
    draft.errors.append(_err(
        IllegalOrderError, src,
        "after 0 (no move) in move 2, move 3 must be 0 too"
        + (" (a move left out is flown A)" if left_out else ""), "M3", item=man3,
        hint="add 3: 0" if left_out else "make move 3 a 0, or move 2 a real manoeuvre"))


def _check_takeoff(state: GameState, plane: Aircraft, draft: _Draft, moves: list[Move]) -> None:
    """Rules L3 (taking off: a landed aircraft, moves 1 and 2 A, no fire) and
    L2a (a landed aircraft that moves needs TAKEOFF)."""
    errors = draft.errors
    landed = plane.state is AircraftState.LANDED
    if draft.takeoff is not None:
        src = draft.takeoff
        if not landed:
            errors.append(_err(IllegalOrderError, src,
                               "TAKEOFF is only for a landed aircraft, and yours is in the air",
                               "L3", hint="leave out the TAKEOFF line"))
        elif not state.may_take_off(plane):  # L1: turn 1 always may
            errors.append(_err(IllegalOrderError, src,
                               "your aircraft must stand landed for a whole turn before it "
                               "takes off again", "L3", hint="send TAKEOFF next turn"))
        else:
            for no in (1, 2):
                msrc = draft.plane.get(no)
                if msrc is not None:
                    _check_taxi(msrc, moves[no - 1], no, errors)
    elif landed and draft.plane and not draft.unread_runway:
        src = sorted_moves(draft.plane)[0]
        errors.append(_err(
            IllegalOrderError, src,
            "your aircraft is landed: it needs TAKEOFF before it can move", "L2a",
            hint="add TAKEOFF BETA (or ALPHA/GAMMA) with moves 1: A 2: A, or send an "
                 "empty PLANE section to stay landed"))


def _check_taxi(msrc: _Src, move: Move, no: int, errors: list[OrderMailError]) -> None:
    """Move 1 or 2 of a take-off: A, without fire (L3)."""
    bad = next((i for i in msrc.parsed.items if i.kind == "man"), None)
    if move.manoeuvre is not Manoeuvre.A:
        errors.append(_err(
            IllegalOrderError, msrc,
            f"taking off, moves 1 and 2 must be A (taxi down the runway); "
            f"move {no} is {move.manoeuvre.value}", "L3", item=bad,
            hint="write 1: A and 2: A; move 3 is free"))
    shot = next((i for i in msrc.parsed.items if i.kind == "fire"
                 and i.value != "f-0"), None)
    if shot is not None:
        errors.append(_err(
            IllegalOrderError, msrc,
            f"an aircraft taking off cannot fire in move {no}", "L3", item=shot,
            hint="fire from move 3 on"))


def _check_land(plane: Aircraft, draft: _Draft) -> None:
    """Rule L4: land only at your own airfield, not when landed or taking off."""
    src = draft.land
    if src is None:
        return
    errors = draft.errors
    if src.parsed.corner is not None and src.parsed.corner is not plane.airfield:
        errors.append(_err(
            IllegalOrderError, src,
            f"you may land only at your own airfield ({plane.airfield.value}), "
            f"not at {src.parsed.corner.value}", "L4",
            column=src.parsed.corner_col, width=len(src.parsed.corner.value),
            hint=f"write LAND {src.parsed.runway.value if src.parsed.runway else 'BETA'}"))
    elif plane.state is AircraftState.LANDED:
        errors.append(_err(IllegalOrderError, src,
                           "your aircraft is already landed", "L4",
                           hint="leave out LAND; TAKEOFF to fly"))
    elif draft.takeoff is not None:
        errors.append(_err(IllegalOrderError, src,
                           "an aircraft cannot take off and land in the same turn", "L4",
                           hint="land in a later turn"))


def _check_bursts(state: GameState, plane: Aircraft, draft: _Draft, moves: list[Move]) -> None:
    """Rule F1: at most bursts_per_turn bursts a turn, never more than the rounds left."""
    limit = state.settings.bursts_per_turn
    count = 0
    for no, move in enumerate(moves, 1):
        src = draft.plane.get(no)
        fired = [i for i in (src.parsed.items if src else ()) if i.kind == "fire"
                 and i.value in {d.value for d in move.fire}]
        for item in fired:
            count += 1
            if count == limit + 1:
                draft.errors.append(_err(
                    IllegalOrderError, src, f"at most {limit} bursts a turn; this is burst "
                    f"{count}", "F1", item=item, hint="drop a burst"))
            elif count == plane.ammo + 1 and count <= limit:
                draft.errors.append(_err(
                    IllegalOrderError, src,
                    f"more bursts than rounds left: you have {plane.ammo} round"
                    f"{'s' if plane.ammo != 1 else ''}", "F1", item=item,
                    hint="fire fewer bursts, or LAND to refill"))


def sorted_moves(moves: Mapping[int, _Src]) -> list[_Src]:
    return [moves[k] for k in sorted(moves)]


# --- zeppelin --------------------------------------------------------------


def _zeppelin_vote(src: _Src, errors: list[OrderMailError]) -> ZeppelinVote | None:
    no = src.move_no
    manoeuvres = [i for i in src.parsed.items if i.kind == "man"]
    shots = [i for i in src.parsed.items if i.kind in ("fire", "bomb")]
    move = None
    if manoeuvres:
        move = Manoeuvre(manoeuvres[0].value)
        if move is Manoeuvre.I:
            errors.append(_err(IllegalOrderError, src,
                               "a zeppelin cannot fly the Immelman turn I", "Z10",
                               item=manoeuvres[0], hint="vote A, L, R, LS, RS or 0"))
        for extra in manoeuvres[1:]:
            errors.append(_err(
                IllegalOrderError, src,
                f"one movement vote per move: {manoeuvres[0].text} and {extra.text} "
                f"cannot both be your vote for move {no}", "Z7", item=extra,
                hint="keep one of them"))
    fire = None
    if shots:
        fire = ZeppelinFire(shots[0].value)
        for extra in shots[1:]:
            pair = {shots[0].value, extra.value}
            if "d-B" in pair:
                other = (pair - {"d-B"}).pop() if len(pair) > 1 else "d-B"
                message = (f"a move takes one fire vote: d-B drops a bomb instead of firing, "
                           f"so it cannot stand with {other}")
            else:
                message = (f"a move takes one fire vote: {shots[0].value} and "
                           f"{extra.value} cannot both be your vote for move {no}")
            errors.append(_err(IllegalOrderError, src, message, "Z14", item=extra,
                               hint=f"keep either {shots[0].value} or {extra.value}"))
    vote = ZeppelinVote(move, fire)
    return None if vote.empty else vote


def _check_zeppelin(state: GameState, plane: Aircraft,
                    draft: _Draft) -> tuple[ZeppelinVote | None, ...]:
    votes: list[ZeppelinVote | None] = [None] * MOVES_PER_TURN
    if not draft.zeppelin_given:
        return tuple(votes)
    first = draft.zeppelin_header or next(iter(sorted_moves(draft.zeppelin)), None)
    errors = draft.errors
    if plane.state is AircraftState.REMOVED:  # not among ``state.voters()``
        errors.append(_err(
            IllegalOrderError, first,
            "a player removed for missing three turns may no longer vote for the zeppelin",
            "Z9", hint="leave out the ZEPPELIN section"))
        return tuple(votes)
    if state.controlled_zeppelin() is None:
        if any(z.controlled for z in state.zeppelins):
            errors.append(_err(
                IllegalOrderError, first,
                "the zeppelin has been destroyed, so there is nothing left to vote for",
                "Z12", hint="leave out the ZEPPELIN section"))
        else:
            errors.append(_err(
                IllegalOrderError, first,
                "there is no zeppelin steered by votes in this game", "Z6",
                hint="leave out the ZEPPELIN section"))
        return tuple(votes)
    for no, src in draft.zeppelin.items():
        votes[no - 1] = _zeppelin_vote(src, errors)
    return tuple(votes)


# ---------------------------------------------------------------------------
# Public API


def _plane_of(state: GameState, player: str) -> Aircraft:
    try:
        return state.plane(player)
    except KeyError:
        known = ", ".join(state.pilots()) or "nobody"
        raise UnknownPlayerError(
            f"{player!r} is not a player of this game (players: {known})") from None


def read_body(
    state: GameState, player: str, lines: Sequence[tuple[int | None, str]]
) -> tuple[OrdersEntry, PlaneOrders | None, tuple[ZeppelinVote | None, ...]]:
    """Body lines -> (canonical entry, plane orders, zeppelin votes); raises our errors."""
    plane = _plane_of(state, player)
    draft = _collect(lines)
    return _finish(state, player, plane, draft)


def _finish(
    state: GameState, player: str, plane: Aircraft, draft: _Draft
) -> tuple[OrdersEntry, PlaneOrders | None, tuple[ZeppelinVote | None, ...]]:
    orders = _check_plane(state, plane, draft)
    votes = _check_zeppelin(state, plane, draft)
    raise_all(draft.errors)
    return entry_of(orders, votes, draft.zeppelin_given), orders, votes


def entry_of(orders: PlaneOrders | None, votes: Sequence[ZeppelinVote | None],
             zeppelin_given: bool = True) -> OrdersEntry:
    """Typed orders -> the canonical orders entry (the scenario schema)."""
    entry: OrdersEntry = {}
    if orders is not None:
        entry["plane"] = [m.format() for m in orders.moves]
        if orders.takeoff is not None:
            entry["takeoff"] = orders.takeoff.value
        if orders.land is not None:
            entry["land"] = orders.land.value
    if zeppelin_given:
        entry["zeppelin"] = [v.format() if v is not None else "" for v in votes]
    return entry


def parse_body(state: GameState, player: str,
               lines: Sequence[tuple[int | None, str]]) -> OrdersEntry:
    """The body lines of an order mail -> the canonical orders entry.

    ``lines`` are ``(line_no, text)`` with the line numbers of the mail.
    ``LT`` becomes ``L``, ``FIRE L+R`` becomes ``f-L f-R``, and so on.
    """
    return read_body(state, player, lines)[0]


def parse_position_body(position: Mapping[str, object], player: str,
                        lines: Sequence[tuple[int | None, str]]) -> OrdersEntry:
    """``parse_body`` for a position given as plain data (the ruleset interface)."""
    from pbmref.rules.tweedekker.position import PositionError, position_from_dict

    try:
        state = position_from_dict(position)
    except PositionError as exc:
        raise OrderSyntaxError(f"the game's position is broken ({exc}); tell the game master",
                               rule="INTERNAL") from None
    return parse_body(state, player, lines)


_ENTRY_KEYS = ("plane", "zeppelin", "takeoff", "land")
_CANONICAL_MAN = {m.value for m in Manoeuvre}
_CANONICAL_FIRE = {f.value for f in FireDir} | {ZeppelinFire.HOLD.value}
_BOMB = ZeppelinFire.BOMB.value
_RUNWAYS = {r.value: r for r in Runway}


def canonical_line(text: str) -> ParsedLine | None:
    """A move line in the canonical form of a stored entry, read without the
    grammar (what ``parse_line`` makes of it); None for any other line.

    >>> canonical_line("LS f-A f-R").items[1]
    Item(kind='fire', value='f-A', column=4, width=3, text='f-A')
    >>> canonical_line("A d-B").items[1].kind, canonical_line("f-0").items[0].kind
    ('bomb', 'fire')
    >>> canonical_line("LT"), canonical_line("A  f-A"), canonical_line("")
    (None, None, None)
    """
    items = []
    column = 1
    for n, word in enumerate(text.split(" ")):
        if n == 0 and word in _CANONICAL_MAN:
            kind = "man"
        elif word in _CANONICAL_FIRE:
            kind = "fire"
        elif word == _BOMB:
            kind = "bomb"
        else:
            return None  # not canonical (or empty): the grammar reads it
        items.append(Item(kind, word, column, len(word), word))
        column += len(word) + 1
    return ParsedLine("move", items=tuple(items))


def _entry_line(text: str, line_no: int) -> ParsedLine:
    """One line of a stored entry: canonical ones read directly, others parsed."""
    return canonical_line(text) or parse_line(text, line_no)


def _entry_lines(value: Any, key: str) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, (list, tuple)):
        raise OrderSyntaxError(f"{key}: expected a list of order lines, found {value!r}")
    return ["" if v is None else str(v) for v in value]


def _draft_section(draft: _Draft, key: str, lines: list[str]) -> None:
    """The ``plane`` or ``zeppelin`` list of an entry: a move a line (T1), an
    empty PLANE line an error (M2)."""
    setattr(draft, f"{key}_given", True)
    if len(lines) > MOVES_PER_TURN:
        draft.errors.append(OrderSyntaxError(
            f"{key}: {len(lines)} lines, but a turn has three moves", rule="T1",
            line_no=MOVES_PER_TURN + 1, line=lines[MOVES_PER_TURN]))
        lines = lines[:MOVES_PER_TURN]
    for index, text in enumerate(lines):
        if not text.strip():
            if key == "plane":
                draft.errors.append(OrderSyntaxError(
                    f"PLANE move {index + 1} is empty", rule="M2", line_no=index + 1,
                    line=text, expected="a manoeuvre: A, L, R, LS, RS or 0"))
            continue
        try:
            parsed = _entry_line(text, index + 1)
        except OrderMailError as exc:
            draft.errors.append(exc)
            continue
        if parsed.kind not in ("move", key):
            draft.errors.append(OrderSyntaxError(
                f"{key}: expected a move line, found {text!r}", line_no=index + 1,
                line=text))
            continue
        src = _Src(index + 1, text, parsed)
        _place(draft, key, src, parsed.move_no or index + 1, index + 1)


def entry_to_orders(
    state: GameState, player: str, entry: Mapping[str, object] | None
) -> tuple[PlaneOrders | None, tuple[ZeppelinVote | None, ...]]:
    """An orders entry -> typed orders, checked against ``state``.

    ``entry`` is the per-player mapping of a scenario file:
    ``{"plane": [...], "zeppelin": [...], "takeoff": "BETA", "land": "ALPHA"}``.
    Without ``plane`` (and TAKEOFF/LAND) the plane orders are ``None`` (NMR,
    N1); ``plane: []`` for a landed aircraft means stay landed (L2a). The votes
    are a 3-tuple with ``None`` for a move without a vote (Z8). For errors,
    ``line_no`` is the line's place in its list (1 = first move).
    """
    if entry is None:
        entry = {}
    if not isinstance(entry, Mapping):
        raise OrderSyntaxError(f"expected a mapping with plane/zeppelin/takeoff/land, "
                               f"found {entry!r}")
    unknown = [k for k in entry if k not in _ENTRY_KEYS]
    if unknown:
        raise OrderSyntaxError(f"unknown key {unknown[0]!r} in the orders; known keys: "
                               + ", ".join(_ENTRY_KEYS))
    plane = _plane_of(state, player)
    draft = _Draft()
    for key in ("plane", "zeppelin"):
        if key in entry:
            _draft_section(draft, key, _entry_lines(entry[key], key))
    for key in ("takeoff", "land"):
        if key not in entry or entry[key] in (None, ""):
            continue
        text = f"{key.upper()} {entry[key]}"
        runway = _RUNWAYS.get(str(entry[key]))
        try:
            parsed = (ParsedLine(key, runway=runway) if runway is not None
                      else parse_line(text, 1))
        except OrderMailError as exc:
            draft.errors.append(exc)
            continue
        setattr(draft, key, _Src(1, text, parsed))
    _, orders, votes = _finish(state, player, plane, draft)
    return orders, votes
