"""Reading and checking Fast Play orders: mail body lines and orders entries.

Two ways in, one set of checks (``shared/rules/fastplay.md``):

- ``parse_body(state, player, lines)``: the body lines of an order mail
  (``(line_no, text)`` pairs from the envelope) -> the canonical orders entry,
  e.g. ``{"plane": ["LS", "A f-0", "AF"], "enter": "A5 N", "duel": "falcon"}``,
  with ``"burn": "CARD"`` or ``"DAMAGE"`` for ``BURN CARD`` / ``BURN DAMAGE``;
- ``entry_to_orders(state, player, entry)``: an orders entry (scenario file,
  stored orders) -> typed ``PlaneOrders``.

Both raise ``pbmref.orders.errors`` exceptions only (several problems come as
one ``OrderErrors``). What is refused: a word that is not a card (FP4), a card
played more often than the deck holds it (FP4) or lost to damage (FP6), fire
other than ``f-A``/``f-0`` (FP7), a path off the board with fewer than
``leave_hits`` damage points (FP13), an ENTER from a plane on the board, off
the edge or too near an enemy (FP14), a DUEL from a pilot not entering (FP15),
a BURN from a plane that is not on fire (FP12), orders from a pilot removed
for NMR (FP17).

>>> from pbmref.rules.fastplay.position import position_from_dict
>>> state = position_from_dict({"aircraft": {"anna": {"team": "Germans", "hex": "E8",
...     "heading": "S"}}})
>>> parse_body(state, "anna", [(3, "PLANE"), (4, "1: ls fire 0"), (5, "af")])
{'plane': ['LS f-0', 'AF']}
>>> burning = position_from_dict({"settings": {"critical_hits": True}, "aircraft": {
...     "anna": {"team": "Germans", "hex": "E8", "heading": "S", "burning": True}}})
>>> parse_body(burning, "anna", [(3, "burn card")])
{'burn': 'CARD'}
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from lark import Lark, Token, Transformer
from lark.exceptions import UnexpectedInput, UnexpectedToken

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
from pbmref.orders.nearest import ENVELOPE_WORDS, nearest
from pbmref.rules.fastplay.cards import Card
from pbmref.rules.fastplay.legality import Problem, check_plane_orders
from pbmref.rules.fastplay.orders import Burn, CardPlay, Entry, PlaneOrders
from pbmref.rules.fastplay.state import GameState
from pbmref.rules.hexgrid import Heading, HexNameError
from pbmref.rulesets.air.lines import first_mistake
from pbmref.rulesets.base import OrdersEntry

__all__ = ["ParsedLine", "entry_of", "entry_to_orders", "order_line", "parse_body", "parse_line",
           "read_body", "read_line"]

MOVES_PER_TURN = 3  # FP3
_CARDS = "A, L, R, LS, RS, AF, ST, STL, STR or I"
_ENTRY_KEYS = ("plane", "enter", "duel", "burn")
# Orders entry keys of the other air game: refused with the rule that says why.
_TWEEDEKKER_KEYS = ("takeoff", "land", "zeppelin")


# What an order line looks like (asked by the one reader of every game's mails,
# ``pbmref.orders.check.read_mail_body``, before the line is parsed): the turn's
# words (PLANE, ENTER FP14, DUEL FP15, BURN FP12) and the other air game's, which
# get an answer naming the rule that says why not.
_KEYWORDS = ("PLANE", "AIRCRAFT", "ENTER", "DUEL", "BURN", "ZEPPELIN", "ZEP", "TAKEOFF",
             "TAKE-OFF", "LAND")
# A card (FP4) and the slips people make of one (LT, RT, 0, N, O), a move number
# without its colon (FP3), a fire item (FP7) and its slip "fA" (no dash).
_PIECE = re.compile(r"stl|str|st|af|ls|rs|lt|rt|[alr0noi1-9]|[fd]-[a-z0-9]{1,3}", re.I)
_SLIP = re.compile(r"[fd][alrb0o]", re.I)


def _piece(word: str) -> bool:
    """A word of a move line; a capitalised word ("Fr", "Da") is a name, no slip."""
    return order_piece(word, _PIECE, _SLIP)


def order_line(cleaned: str) -> bool:
    """Does a (cleaned) mail line look like a Fast Play order: a move number
    (FP3), a turn word (or a slip of one), ``FIRE`` and a direction, or cards
    and fire items (FP4, FP7)?

    >>> [order_line(t) for t in ("1: STL", "LS A f-A", "ENTER E5 S", "Duell bert", "FIRE A")]
    [True, True, True, True, True]
    >>> [order_line(t) for t in ("Hi Mr Smith  I hope this is right:", "Anna (5B)",
    ...                          "Fire at will ", "A bientôt")]
    [False, False, False, False]
    """
    return air_order_line(cleaned, _KEYWORDS, _piece)


@dataclass(frozen=True, slots=True)
class Item:
    kind: str  # "card" | "fire"
    value: str  # "LS", "f-A", "f-0"
    column: int
    width: int


@dataclass(frozen=True, slots=True)
class ParsedLine:
    """One body line: ``kind`` plane | move | enter | duel | burn."""

    kind: str
    move_no: int | None = None
    move_col: int | None = None
    items: tuple[Item, ...] = ()
    hex: str = ""
    hex_col: int = 1
    heading: str = ""
    pilot: str = ""
    burn: str = ""


def _number(tok: Token) -> int:
    digits = "".join(c for c in str(tok) if c.isdigit())
    return int(digits) if len(digits) < 6 else 10**6


class _ToLine(Transformer[Token, Any]):
    def card(self, c: list[Token]) -> Item:
        return Item("card", str(c[0]).upper(), c[0].column or 1, len(c[0]))

    def fire(self, c: list[Token]) -> Item:
        value = "f-A" if str(c[0])[2].upper() == "A" else "f-0"
        return Item("fire", value, c[0].column or 1, len(c[0]))

    def postal_fire(self, c: list[Token]) -> Item:
        value = "f-A" if str(c[1]).upper() == "A" else "f-0"
        return Item("fire", value, c[0].column or 1, len(c[0]) + len(c[1]) + 1)

    def _moves(self, kind: str, c: list[Any]) -> ParsedLine:
        move_no = move_col = None
        items: list[Item] = []
        for x in c:
            if isinstance(x, Token):
                if x.type in ("MOVENO", "PMOVENO"):
                    move_no, move_col = _number(x), x.column
            else:
                items.append(x)
        return ParsedLine(kind, move_no, move_col, tuple(items))

    def plane_line(self, c: list[Any]) -> ParsedLine:
        return self._moves("plane", c)

    def move_line(self, c: list[Any]) -> ParsedLine:
        return self._moves("move", c)

    def enter_line(self, c: list[Token]) -> ParsedLine:
        return ParsedLine("enter", hex=str(c[1]).replace(" ", ""), hex_col=c[1].column or 1,
                          heading=str(c[2]).upper())

    def duel_line(self, c: list[Token]) -> ParsedLine:
        return ParsedLine("duel", pilot=str(c[1]))

    def burn_line(self, c: list[Token]) -> ParsedLine:
        return ParsedLine("burn", burn=str(c[1]).upper())


class _KeepMistakes:
    always_accept = ("MISTAKE_MANOEUVRE", "MISTAKE_SIDEFIRE", "MISTAKE_BOMB",
                     "MISTAKE_AIRGAME", "MISTAKE_OTHER")

    def process(self, stream: Iterable[Token]) -> Iterable[Token]:
        return stream


@cache
def line_parser() -> Lark:
    return Lark(grammar_text("fastplay.lark"), parser="lalr", lexer="contextual",
                postlex=_KeepMistakes(), transformer=_ToLine(), maybe_placeholders=False)


# Words a Fast Play line starts with, for "did you mean" (with the envelope's).
_LINE_WORDS = ("PLANE", "AIRCRAFT", "ENTER", "DUEL", "BURN", "FIRE", *ENVELOPE_WORDS)
# The rule a turn-line word belongs to (a misspelt one is told with it).
_WORD_RULE = {"ENTER": "FP14", "DUEL": "FP15", "BURN": "FP12", "FIRE": "FP7"}
_BURN_CHOICES = ("CARD", "DAMAGE")
# Cards written as another air game writes its manoeuvres: the card meant.
_CARD_MEANT = {"LT": ("L", "to turn left, play L"), "RT": ("R", "to turn right, play R")}
_STAY = "to stay in the hex, play ST (or STL, STR to turn there)"
_FIRE = "f-A (fire, the default) or f-0 (hold fire)"


def _explain(exc: UnexpectedInput, text: str) -> tuple[str | None, OrderSyntaxError]:
    """(label, plain words) for one mistake in a line, with the labels of
    ``pbmref.orders.nearest.line_mistakes`` ("unknown-word", "stops-early"...)."""
    if not isinstance(exc, UnexpectedToken) or exc.token.type == "$END":
        return "stops-early", _too_soon(text, getattr(exc, "column", None))
    tok = exc.token
    word = str(tok)
    at: dict[str, Any] = {"column": tok.column, "width": len(word)}
    kind = tok.type
    if kind == "MISTAKE_MANOEUVRE":
        card, how = _CARD_MEANT.get(word.upper(), ("ST", _STAY))
        return "card-word", OrderSyntaxError(
            f"{word} is not a Fast Play card: did you mean {card}?", rule="FP4",
            expected=f"a card: {_CARDS}", hint=how, suggestion=card, **at)
    if kind == "MISTAKE_SIDEFIRE":
        return "fire", OrderSyntaxError(
            f"{word}: a Fast Play plane fires only straight ahead", rule="FP7",
            expected=_FIRE, **at)
    if kind == "MISTAKE_BOMB":
        return "fire", OrderSyntaxError("there are no bombs in Fast Play", rule="FP3", **at)
    if kind == "MISTAKE_AIRGAME":
        return "air-word", OrderSyntaxError(
            f"{word.upper().rstrip(':')}: Fast Play has no zeppelins and no airfields",
            rule="FP3",
            expected="PLANE, move lines, ENTER <hex> <heading>, DUEL <pilot> or BURN CARD",
            **at)
    expected = exc.expected if hasattr(exc, "expected") else set()
    if "HEX" in expected:
        return "hex", OrderSyntaxError(f"{word} is not a hex name", rule="FP14",
                                       expected="ENTER <hex> <heading>, e.g. ENTER A5 N", **at)
    if "HEADING" in expected:
        return "heading", OrderSyntaxError(f"{word} is not a heading", rule="FP14",
                                           expected="one of N NE SE S SW NW", **at)
    if "BURN_CHOICE" in expected:
        choice = nearest(word, _BURN_CHOICES)
        ask = f": did you mean {choice}?" if choice else ""
        return "burn", OrderSyntaxError(
            f"BURN {word}: a burning plane gives up a card or a damage point{ask}",
            rule="FP12", expected="BURN CARD or BURN DAMAGE", suggestion=choice,
            hint=f"write BURN {choice}" if choice else None, **at)
    if "FDIR" in expected:
        return "fire", OrderSyntaxError(
            f"FIRE {word}: a Fast Play plane fires only straight ahead", rule="FP7",
            expected="FIRE A or FIRE 0", **at)
    if word.lower().startswith("f-"):
        return "fire", OrderSyntaxError(f"{word} is not a Fast Play fire order", rule="FP7",
                                        expected=_FIRE, **at)
    if word[:1].isdigit():
        return "move-number-without-colon", OrderSyntaxError(
            f"{word} is not how a move number is written",
            expected="a move number and a colon, like 1:", **at)
    meant = nearest(word, _LINE_WORDS)
    if meant is not None:
        return "unknown-word", OrderSyntaxError(
            f"I cannot read {word} here: did you mean {meant}?", rule=_WORD_RULE.get(meant, "FP4"),
            hint=f"write {meant}", suggestion=meant, **at)
    return "unknown-word", OrderSyntaxError(f"{word} is not a Fast Play card or order",
                                            rule="FP4", expected=f"a card: {_CARDS}", **at)


def _too_soon(text: str, column: int | None) -> OrderSyntaxError:
    """The line ended before it said enough."""
    words = text.split()
    head = words[0].lower().rstrip(":") if words else ""
    end = len(text.rstrip()) + 1
    if head == "enter":
        return OrderSyntaxError("ENTER needs a hex and a heading", rule="FP14", column=end,
                                expected="ENTER <hex> <heading>, e.g. ENTER A5 N")
    if head == "duel":
        return OrderSyntaxError("DUEL needs the other pilot's name", rule="FP15", column=end,
                                expected="DUEL <pilot>")
    if head == "burn":
        return OrderSyntaxError("BURN needs CARD or DAMAGE", rule="FP12", column=end,
                                expected="BURN CARD or BURN DAMAGE")
    if head == "fire":
        return OrderSyntaxError("FIRE needs A or 0", rule="FP7", column=end,
                                expected="FIRE A or FIRE 0")
    return OrderSyntaxError("this line ends too soon", column=column,
                            expected=f"a card: {_CARDS}")


def parse_line(text: str, line_no: int | None = None) -> ParsedLine:
    """One Fast Play order line read; raises its first mistake (an
    ``OrderSyntaxError`` with line and column; ``read_line`` gives them all)."""
    return first_mistake(read_line(text, line_no))


def read_line(text: str, line_no: int | None = None
              ) -> tuple[ParsedLine | None, list[OrderMailError]]:
    """Parse one body line and keep going past its mistakes.

    Returns what the line says without the words that could not be read
    (None when nothing of it can be read), and every mistake of the line.
    """
    result, errors = read_past_mistakes(line_parser(), text, line_no, _explain)
    return (result if isinstance(result, ParsedLine) else None), errors


@dataclass(slots=True)
class _Src:
    line_no: int | None
    text: str
    parsed: ParsedLine
    broken: bool = False  # the line had words that could not be read (reported)


@dataclass(slots=True)
class _Draft:
    moves: dict[int, _Src] = field(default_factory=dict)
    enter: _Src | None = None
    duel: _Src | None = None
    burn: _Src | None = None
    plane_given: bool = False  # a PLANE header or a move line was written
    errors: list[OrderMailError] = field(default_factory=list)
    unread: set[int] = field(default_factory=set)  # moves held by lines that could not be read
    unread_turn_line: bool = False  # an ENTER, DUEL or BURN line that could not be read


def _err(cls: type[OrderMailError], src: _Src | None, message: str, rule: str,
         column: int | None = None, width: int = 1, section: str = "",
         expected: str | None = None, hint: str | None = None) -> OrderMailError:
    err = cls(message, rule=rule, line_no=src.line_no if src else None,
              line=src.text if src else None, column=column, width=width,
              expected=expected, hint=hint)
    if section:
        err.section = section  # type: ignore[attr-defined]
    return err


# Lines given at most once a mail, and the rule each belongs to.
_ONE_LINE_RULE = {"enter": "FP14", "duel": "FP15", "burn": "FP12"}
_MOVE_NO = re.compile(r"^\s*(?:(?:move|m|plane)\s*)?([1-9])\s*[:).\]]", re.I)
_TURN_LINE = re.compile(r"^\s*(enter|duel|burn)\b", re.I)


def _collect(draft: _Draft, lines: Iterable[tuple[int | None, str]], numbered: bool = False,
             section: str = "") -> None:
    next_no = 1
    for index, (line_no, text) in enumerate(lines):
        parsed, problems = read_line(text, line_no)
        for exc in problems:
            if section:
                exc.section = section  # type: ignore[attr-defined]
            draft.errors.append(exc)
        if parsed is None:
            next_no = _number_unread(draft, text, problems,
                                     index + 1 if numbered else next_no)
            continue
        src = _Src(line_no, text, parsed, broken=bool(problems))
        if parsed.kind in _ONE_LINE_RULE:
            _one_line(draft, src)
            continue
        draft.plane_given = True
        if parsed.kind == "plane" and parsed.move_no is None and not parsed.items:
            continue  # a bare PLANE header
        no = parsed.move_no if parsed.move_no is not None else (
            index + 1 if numbered else next_no)
        _place_move(draft, src, no, section)
        next_no = no + 1


def _number_unread(draft: _Draft, text: str, problems: list[OrderMailError], no: int) -> int:
    """A line that could not be read: what it held is unknown, so the checks
    that depend on it wait; a move keeps its number (the written one, else
    ``no``). The next move's number."""
    written = _MOVE_NO.match(clean_line(text))
    if written is not None:
        draft.unread.add(int(written.group(1)))
        return int(written.group(1)) + 1
    if _TURN_LINE.match(text) or any(e.suggestion in ("ENTER", "DUEL") for e in problems):
        draft.unread_turn_line = True
    else:
        draft.unread.add(no)
        return no + 1
    return no


def _one_line(draft: _Draft, src: _Src) -> None:
    """ENTER, DUEL or BURN: kept, unless given already (FP14, FP15, FP12)."""
    kind = src.parsed.kind
    if getattr(draft, kind) is not None:
        draft.errors.append(_err(OrderSyntaxError, src, f"{kind.upper()} is given twice",
                                 _ONE_LINE_RULE[kind], hint="keep one such line"))
    else:
        setattr(draft, kind, src)


def _place_move(draft: _Draft, src: _Src, no: int, section: str) -> None:
    """Move line ``no``: one of the turn's three (FP3), given once."""
    if not 1 <= no <= MOVES_PER_TURN:
        draft.errors.append(_err(OrderSyntaxError, src,
                                 f"there is no move {no}: a turn has three moves", "FP3",
                                 column=src.parsed.move_col, section=section,
                                 expected="a move number 1, 2 or 3"))
    elif no in draft.moves:
        first = draft.moves[no]
        where = f" (line {first.line_no})" if first.line_no is not None else ""
        draft.errors.append(_err(OrderSyntaxError, src, f"move {no} is given twice{where}",
                                 "FP3", column=src.parsed.move_col, section=section,
                                 hint="keep one line per move"))
    else:
        draft.moves[no] = src


def _play(src: _Src, errors: list[OrderMailError], section: str) -> CardPlay | None:
    cards = [i for i in src.parsed.items if i.kind == "card"]
    fires = [i for i in src.parsed.items if i.kind == "fire"]
    if not cards and src.broken:
        return None  # its card could not be read: that error is reported
    if not cards:
        errors.append(_err(OrderSyntaxError, src, "a move needs a card", "FP4",
                           section=section, expected=f"a card: {_CARDS}"))
        return None
    if len(cards) > 1:
        extra = cards[1]
        errors.append(_err(OrderSyntaxError, src, "one card per move: each line is one move",
                           "FP4", column=extra.column, width=extra.width, section=section,
                           hint="put each card on its own numbered line, e.g. 1: A  2: R"))
        return None
    values = {f.value for f in fires}
    if len(values) > 1:
        errors.append(_err(IllegalOrderError, src,
                           "f-0 holds fire and f-A fires: a move takes one of them", "FP7",
                           column=fires[-1].column, width=fires[-1].width, section=section))
        return None
    return CardPlay(Card(cards[0].value), hold_fire="f-0" in values)


def _plane_of(state: GameState, player: str) -> None:
    try:
        state.plane(player)
    except KeyError:
        known = ", ".join(p.pilot for p in state.planes) or "nobody"
        raise UnknownPlayerError(
            f"{player!r} is not a pilot of this game (pilots: {known})") from None


def _finish(state: GameState, player: str, draft: _Draft,
            section: str = "") -> PlaneOrders:
    errors = draft.errors
    moves: list[CardPlay | None] = [None] * MOVES_PER_TURN
    unknown = set(draft.unread)  # moves whose card is not known
    for no, src in draft.moves.items():
        moves[no - 1] = _play(src, errors, section)
        if moves[no - 1] is None:
            unknown.add(no)
    while moves and moves[-1] is None:
        moves.pop()
    duel = draft.duel.parsed.pilot if draft.duel is not None else None
    burn = Burn.parse(draft.burn.parsed.burn) if draft.burn is not None else None
    orders = PlaneOrders(tuple(moves), _enter_of(state, draft), duel, burn)
    # The card counts (FP4, FP6), ENTER, DUEL and BURN are checked whatever
    # else is wrong; the path (FP13) up to the first move whose card is not known.
    known_until = 0 if draft.unread_turn_line else min(unknown, default=MOVES_PER_TURN + 1) - 1
    for problem in check_plane_orders(state, player, orders):
        if problem.part == "move" and problem.rule not in ("FP4", "FP6") and (
                problem.move > known_until):
            continue
        errors.append(_problem_error(draft, problem, section))
    raise_all(errors)
    return orders


def _enter_of(state: GameState, draft: _Draft) -> Entry | None:
    """The ENTER line's hex and heading (FP14); a bad hex is one more error."""
    if draft.enter is None:
        return None
    p = draft.enter.parsed
    try:
        return Entry(state.board.parse(p.hex), Heading.parse(p.heading))
    except HexNameError as exc:
        draft.errors.append(_err(IllegalOrderError, draft.enter, str(exc), "FP14",
                                 column=p.hex_col, width=len(p.hex), section="enter"))
        return None


def _problem_error(draft: _Draft, problem: Problem, section: str) -> OrderMailError:
    """A problem the rules found, said against the line it is about."""
    if problem.part == "move":
        msrc = draft.moves.get(problem.move)
        card = next((i for i in msrc.parsed.items if i.kind == "card"), None) \
            if msrc else None
        return _err(IllegalOrderError, msrc, problem.message, problem.rule,
                    column=card.column if card else None,
                    width=card.width if card else 1, section=section)
    src = {"enter": draft.enter, "duel": draft.duel, "burn": draft.burn}.get(problem.part)
    if problem.part in ("enter", "duel", "burn"):
        return _err(IllegalOrderError, src, problem.message, problem.rule,
                    section=problem.part)
    return IllegalOrderError(problem.message, rule=problem.rule)


def entry_of(orders: PlaneOrders) -> OrdersEntry:
    """Typed orders -> the canonical orders entry (the scenario schema)."""
    entry: OrdersEntry = {"plane": [m.format() if m is not None else "" for m in orders.moves]}
    return entry


def _entry(state: GameState, orders: PlaneOrders, plane_given: bool = True) -> OrdersEntry:
    entry = entry_of(orders) if plane_given else {}
    if orders.enter is not None:
        entry["enter"] = f"{state.board.name(orders.enter.hex)} {orders.enter.heading.value}"
    if orders.duel is not None:
        entry["duel"] = orders.duel
    if orders.burn is not None:
        entry["burn"] = orders.burn.value
    return entry


def read_body(state: GameState, player: str,
              lines: Sequence[tuple[int | None, str]]) -> tuple[OrdersEntry, PlaneOrders]:
    """Body lines -> (canonical entry, typed orders); raises our errors.

    The entry has ``plane`` only when the mail had a PLANE section or move
    lines, so a mail with just ``DUEL bert`` leaves earlier cards in force.
    """
    _plane_of(state, player)
    draft = _Draft()
    _collect(draft, lines)
    orders = _finish(state, player, draft)
    return _entry(state, orders, draft.plane_given), orders


def parse_body(state: GameState, player: str,
               lines: Sequence[tuple[int | None, str]]) -> OrdersEntry:
    """The body lines of an order mail -> the canonical orders entry."""
    return read_body(state, player, lines)[0]


def entry_to_orders(state: GameState, player: str,
                    entry: Mapping[str, object] | None) -> PlaneOrders | None:
    """An orders entry -> typed orders checked against ``state``; None for no entry.

    ``entry``: ``{"plane": ["A", "L f-0", ""], "enter": "A5 N", "duel": "falcon",
    "burn": "CARD"}``;
    ``""`` (or a short list) leaves a move without a card (FP17). For errors,
    ``line_no`` is the line's place in the ``plane`` list (1 = move 1) and
    ``section`` names the key.
    """
    if entry is None:
        return None
    _check_entry_keys(entry)
    _plane_of(state, player)
    draft = _Draft()
    _draft_moves(draft, _plane_lines(entry, draft))
    for key in ("enter", "duel", "burn"):
        value = entry.get(key)
        if value in (None, ""):
            continue
        text = f"{key.upper()} {value}"
        try:
            parsed = parse_line(text, None)
        except OrderMailError as exc:
            exc.section = key  # type: ignore[attr-defined]
            draft.errors.append(exc)
            continue
        setattr(draft, key, _Src(None, text, parsed))
    return _finish(state, player, draft, section="plane")


def _check_entry_keys(entry: object) -> None:
    if not isinstance(entry, Mapping):
        raise OrderSyntaxError(f"expected a mapping with plane/enter/duel/burn, found {entry!r}")
    unknown = [k for k in entry if k not in _ENTRY_KEYS]
    if unknown and unknown[0] in _TWEEDEKKER_KEYS:
        raise OrderSyntaxError(f"{unknown[0]}: Fast Play has no airfields and no zeppelins; "
                               "a returning plane names its hex with enter", rule="FP3")
    if unknown:
        raise OrderSyntaxError(f"unknown key {unknown[0]!r} in Fast Play orders; known keys: "
                               + ", ".join(_ENTRY_KEYS))


def _plane_lines(entry: Mapping[str, object], draft: _Draft) -> list[tuple[int, str]]:
    """The entry's ``plane`` list as numbered lines (a fourth line and on is an
    error, FP3)."""
    plane = entry.get("plane") or []
    if isinstance(plane, str):
        plane = [plane]
    if not isinstance(plane, (list, tuple)):
        raise OrderSyntaxError(f"plane: expected a list of move lines, found {plane!r}")
    if len(plane) > MOVES_PER_TURN:
        draft.errors.append(OrderSyntaxError(
            f"plane: {len(plane)} lines, but a turn has three moves", rule="FP3",
            line_no=MOVES_PER_TURN + 1, line=str(plane[MOVES_PER_TURN])))
        plane = plane[:MOVES_PER_TURN]
    return [(i + 1, "" if v is None else str(v)) for i, v in enumerate(plane)]


def _draft_moves(draft: _Draft, lines: list[tuple[int, str]]) -> None:
    """Each given line of the ``plane`` list is the move of its place in the list."""
    for n, text in lines:
        if not text.strip():
            continue
        try:
            parsed = parse_line(text, n)
        except OrderMailError as exc:
            exc.section = "plane"  # type: ignore[attr-defined]
            draft.errors.append(exc)
            continue
        if parsed.kind not in ("move", "plane"):
            draft.errors.append(_err(OrderSyntaxError, _Src(n, text, parsed),
                                     f"plane: expected a move line, found {text!r}", "FP4",
                                     section="plane"))
            continue
        draft.moves[n] = _Src(n, text, parsed)
