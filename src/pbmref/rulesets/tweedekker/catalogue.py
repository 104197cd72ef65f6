"""A catalogue of common mistakes in order lines, and the plain words for each.

Lark's ``UnexpectedInput.match_examples`` compares a syntax error with the
errors the example lines below produce (same parser state, same kind of
token) and returns the label of the best match; the label picks the message
and the hint a player reads. The grammar gives common mistakes token kinds of
their own (``MISTAKE_*`` in ``grammar/tweedekker.lark``), so ``fA``, ``1)``
and ``RR`` are told apart even in the same spot of a line.

Each label is tested with its examples in ``tests/orders/test_catalogue.py``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from pbmref.orders.errors import OrderSyntaxError
from pbmref.orders.nearest import ENVELOPE_WORDS, nearest

__all__ = ["CATALOGUE", "Mistake", "explain_one", "explain_tweedekker", "label_of"]


# Where a mistake can stand: every spot of a move line (after each kind of
# line start and each kind of item), after FIRE, and after TAKEOFF/LAND.
_LINE_STARTS = ("", "1: ", "PLANE ", "PLANE 1: ", "Z1: ", "ZEPPELIN ")
_AFTER_ITEMS = ("", "A ", "f-A ", "d-B ", "FIRE A ", "- ", "A f-A ")
ITEM_SPOTS = tuple(start + item for start in _LINE_STARTS for item in _AFTER_ITEMS)
FIRE_SPOTS = tuple(spot + "FIRE " for spot in ITEM_SPOTS)
RUNWAY_SPOTS = ("TAKEOFF ", "LAND ", "LAND N ", "TAKEOFF N ", "TAKEOFF BETA ", "LAND BETA ")


@dataclass(frozen=True)
class Mistake:
    """One kind of mistake: how it looks, and how to explain it.

    ``examples`` are lines a player wrote (shown in the tests one by one);
    ``words`` are bad words tried at every spot of ``spots``, so that the
    mistake is recognised wherever it stands. ``message`` and ``hint`` may
    use ``{tok}`` (the word as written) and ``{fix}`` (from ``fix``).
    """

    label: str
    examples: tuple[str, ...]
    message: str
    expected: str | None
    hint: str | None
    fix: Callable[[str], str] | None = None
    words: tuple[str, ...] = ()
    spots: tuple[str, ...] = ITEM_SPOTS

    def all_examples(self) -> tuple[str, ...]:
        generated = tuple(spot + word for word in self.words for spot in self.spots)
        return self.examples + generated


def _fire_fix(tok: str) -> str:
    letter = tok[-1].upper() if tok else "A"
    return f"{tok[0].lower()}-{letter}"


def _number_fix(tok: str) -> str:
    digits = "".join(c for c in tok if c.isdigit()) or "1"
    return f"{digits}:"


def _joined_fix(tok: str) -> str:
    return " ".join(re.findall(r"LS|RS|LT|RT|[ALRI0]", tok.upper()))


_FIRE_WORDS = "f-A (ahead), f-L (ahead-left), f-R (ahead-right), f-B (backward), f-0 (hold fire)"
_MANOEUVRES = "A, L, R, LS, RS, 0, or I for aces"

CATALOGUE: tuple[Mistake, ...] = (
    Mistake(
        "fire-without-dash",
        ("fA", "A fA", "1: A fL", "1: LS fR", "PLANE 1: A fR", "Z1: A fB", "A f-A fR",
         "ZEPPELIN A dB", "1: dB", "FIRE A fL"),
        "{tok} needs a dash: write {fix}", _FIRE_WORDS,
        "fire orders are written f-A, f-L, f-R, f-B, f-0 (bombs d-B)", _fire_fix,
        words=("fA", "dB")),
    Mistake(
        "fire-word",
        ("F-FRONT", "A F-FRONT", "1: A f-ahead", "LS f-left", "1: f-AR", "Z1: d-bomb",
         "A f-A f-RL", "A f-1"),
        "{tok} is not a fire order", _FIRE_WORDS,
        "one letter after the dash: f-A, f-L, f-R, f-B or f-0; one item per direction, "
        "e.g. f-A f-R", words=("f-front",)),
    Mistake(
        "move-number-bracket",
        ("1) A", "1. A", "2) LS f-A", "PLANE 1) A", "A 1)", "3] A"),
        "{tok} is not how a move number is written", "a move number and a colon, like 1:",
        "write the number with a colon: {fix} A", _number_fix, words=("1)",)),
    Mistake(
        "move-number-without-colon",
        ("1 A", "2 LS f-A", "PLANE 1 A", "ZEPPELIN 2 L", "A 2", "Z 1 A"),
        "the move number {tok} needs a colon after it", "a move number and a colon, like 1:",
        "write {fix} A", _number_fix, words=("1",)),
    Mistake(
        "joined-manoeuvres",
        ("RR", "AA", "1: LSA", "A RR", "PLANE 1: ARS", "Z1: AL", "ALR f-A"),
        "{tok} is not one manoeuvre", f"one manoeuvre per move: {_MANOEUVRES}",
        "one manoeuvre per move, each move on its own line: {fix}", _joined_fix,
        words=("RR",)),
    Mistake(
        "fire-direction",
        ("A FIRE", "FIRE", "A FIRE front", "A FIRE X", "FIRE ahead", "A FIRE A+"),
        "FIRE needs a direction, not {tok}",
        "a direction after FIRE: A, L, R, B or 0 (FIRE L+R for two)",
        "write FIRE A, FIRE L+R, or f-A f-L", words=("", "X", "fA", "f-front", "1", "1)",
                                                     "RR", "PLANE"),
        spots=FIRE_SPOTS),
    Mistake(
        "runway",
        ("LAND", "LAND DELTA", "TAKEOFF DELTA", "TAKEOFF X", "LAND N", "LAND N X",
         "TAKEOFF BETA A", "LAND ALPHA now"),
        "{tok} is not a runway", "ALPHA, BETA or GAMMA (or LEFT, CENTRE, RIGHT)",
        "write e.g. TAKEOFF BETA or LAND ALPHA on a line of its own",
        words=("", "X", "A", "fA", "f-front", "1", "1)", "RR", "PLANE", "f-A", "d-B", "1:"),
        spots=RUNWAY_SPOTS),
    Mistake(
        "section-word",
        ("A PLANE", "1: ZEPPELIN", "A TAKEOFF", "A LAND BETA", "LS f-A ZEPPELIN", "1: PLANE",
         "PLANE ZEPPELIN", "Z1: A PLANE", "A f-A GAME", "TAKEOFF LAND"),
        "{tok} must start a line of its own", None,
        "start a new line with PLANE, ZEPPELIN, TAKEOFF or LAND", words=("PLANE",)),
    Mistake(
        "unknown-word",
        ("X", "A X", "1: hello", "PLANE x", "Z1: x", "A f-A x", "1: A f-A f-R x",
         "ZEPPELIN x", "1: %", "A - x"),
        "I cannot read {tok} here", None,
        "a move line is a manoeuvre ({manoeuvres}) and fire orders ({fire})",
        words=("X", "1:")),
)

_BY_LABEL = {m.label: m for m in CATALOGUE}

_TERMINAL_WORDS = {
    "MANOEUVRE": "a manoeuvre (" + _MANOEUVRES + ")",
    "FIRE": "a fire order (f-A f-L f-R f-B f-0)",
    "BOMB": "d-B",
    "FIRE_KW": "FIRE",
    "FDIR": "a fire direction (A, L, R, B or 0)",
    "PLUS": "+",
    "MOVENO": "a move number like 1:",
    "PMOVENO": "PLANE 1:",
    "ZMOVENO": "Z1:",
    "PLANE_KW": "PLANE",
    "ZEP_KW": "ZEPPELIN",
    "TAKEOFF_KW": "TAKEOFF",
    "LAND_KW": "LAND",
    "RUNWAY": "a runway (ALPHA, BETA or GAMMA)",
    "CORNER": "your airfield (N, NE, SE, S, SW, NW)",
    "$END": "the end of the line",
}

_HEXLIKE = re.compile(r"^[a-s]\d{1,2}$", re.I)
_HEADING = re.compile(r"^(ne|nw|se|sw|north|south|east|west)$", re.I)


def expected_words(accepts: Any) -> str | None:
    """Terminal names -> "a manoeuvre (...), a fire order (...) or the end of the line"."""
    names = set(accepts or ())
    if {"MOVENO", "PLANE_KW", "MANOEUVRE"} <= names:  # the start of a line
        return "a move (like 1: LS f-A), PLANE, ZEPPELIN, TAKEOFF or LAND"
    if {"MANOEUVRE", "FIRE", "$END"} <= names:  # within a move line
        return (f"a manoeuvre ({_MANOEUVRES}), a fire order (f-A f-L f-R f-B f-0), "
                "or the end of the line")
    words: list[str] = []
    for name in sorted(accepts or (), key=lambda n: list(_TERMINAL_WORDS).index(n)
                       if n in _TERMINAL_WORDS else 99):
        word = _TERMINAL_WORDS.get(name)
        if word and word not in words:
            words.append(word)
    if not words:
        return None
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def _parse_for_examples(text: str) -> Any:
    # The same Lark instance as the reader: parser states are only comparable
    # within one instance.
    from pbmref.rulesets.tweedekker.orders import line_parser

    return line_parser().parse(text)


def _state_key(state: Any) -> Any:
    position = getattr(state, "position", None)
    if position is not None:
        return (position, len(getattr(state, "state_stack", ())))
    return state if isinstance(state, (int, str, tuple)) else repr(state)


_EXAMPLES = [(m.label, m.all_examples()) for m in CATALOGUE]
_EXAMPLE_WORDS = frozenset(w for _, examples in _EXAMPLES for line in examples
                           for w in re.split(r"[\s+]+", line) if w)
_LABELS: dict[tuple[Any, ...], str | None] = {}


_ACCEPTS: dict[tuple[int, ...], frozenset[str]] = {}


def _accepts(exc: UnexpectedToken) -> frozenset[str]:
    """The terminals the parser accepts where ``exc`` stands, remembered per
    parser stack (Lark finds them by trying each terminal on a copy)."""
    stack = getattr(getattr(exc, "state", None), "state_stack", None)
    if stack is None:
        return frozenset(exc.accepts or ())
    key = tuple(stack)
    if key not in _ACCEPTS:
        if len(_ACCEPTS) > 4096:
            _ACCEPTS.clear()
        _ACCEPTS[key] = frozenset(exc.accepts or ())
    return _ACCEPTS[key]


def label_of(exc: UnexpectedInput) -> str | None:
    """The catalogue label of a syntax error, via ``match_examples``.

    Answers are remembered per (parser state, token kind, token text), so a
    mistake seen before costs a dictionary look-up.
    """
    if isinstance(exc, UnexpectedToken):
        tok = exc.token
        if tok.type == "MISTAKE_OTHER" and (_HEXLIKE.match(tok) or _HEADING.match(tok)):
            return "hex-or-heading"
        # match_examples can only match the exact text of a word its examples
        # hold; any other word is matched by its kind, so one answer serves all.
        text = str(tok) if str(tok) in _EXAMPLE_WORDS else None
        key: tuple[Any, ...] = (_state_key(exc.state), tok.type, text,
                                _accepts(exc))
    else:
        key = (type(exc).__name__, _state_key(exc.state), str(getattr(exc, "char", "")))
    if key not in _LABELS:
        if len(_LABELS) > 4096:
            _LABELS.clear()
        _LABELS[key] = exc.match_examples(
            _parse_for_examples, _EXAMPLES,
            token_type_match_fallback=True)
    return _LABELS[key]


def explain_tweedekker(exc: UnexpectedInput, line: str) -> OrderSyntaxError:
    """A Lark syntax error on ``line`` -> our ``OrderSyntaxError`` in plain words."""
    return _explain(exc, line)[1]


# Words a tweedekker line starts with, for "did you mean" (with the envelope's).
SECTION_WORDS = ("PLANE", "ZEPPELIN")
LINE_WORDS = (*SECTION_WORDS, "AIRCRAFT", "TAKEOFF", "LAND", "FIRE", *ENVELOPE_WORDS)
RUNWAY_WORDS = ("ALPHA", "BETA", "GAMMA", "LEFT", "CENTRE", "CENTER", "RIGHT")


def _spot(exc: UnexpectedInput, line: str) -> tuple[int | None, str, int, Any]:
    """Where a Lark syntax error is on ``line``: (column, the word there, its
    width, what the parser would have accepted)."""
    column = getattr(exc, "column", None)
    tok_text = ""
    width = 1
    accepts: Any = ()
    if isinstance(exc, UnexpectedToken):
        tok_text = str(exc.token)
        accepts = _accepts(exc) or exc.expected
        if exc.token.type == "$END":
            column = len(line.rstrip()) + 1
            tok_text = ""
        else:
            width = max(1, len(tok_text))
    elif isinstance(exc, UnexpectedCharacters):
        accepts = exc.allowed
        match = re.match(r"\S+", line[max(0, (column or 1) - 1):])
        tok_text = match.group(0) if match else line[(column or 1) - 1:(column or 1)]
        width = len(tok_text) or 1
    elif isinstance(exc, UnexpectedEOF):
        accepts = exc.expected
        column = len(line.rstrip()) + 1
    if not isinstance(column, int) or column < 1:
        column = None
    return column, tok_text, width, accepts


def _explain(exc: UnexpectedInput, line: str) -> tuple[str | None, OrderSyntaxError]:
    """(catalogue label, plain error) for one Lark syntax error on ``line``."""
    column, tok_text, width, accepts = _spot(exc, line)
    try:
        label = label_of(exc)
    except Exception:  # noqa: BLE001 - the catalogue must never hide the real error
        label = None
    plain_expected = expected_words(accepts)
    if label == "hex-or-heading":
        return label, OrderSyntaxError(
            f"{tok_text} is a hex or a compass heading, and orders are not",
            column=column, width=width, expected=plain_expected,
            hint="orders are manoeuvres relative to your own heading: A ahead, L/R turn, "
                 "LS/RS slip, 0 stay")
    mistake = _BY_LABEL.get(label or "")
    if tok_text == "" and (mistake is None or "{tok}" in mistake.message):
        return "stops-early", _stops_early(mistake, accepts, column, plain_expected)
    if label in ("unknown-word", "runway", None):
        meant = nearest(tok_text, RUNWAY_WORDS if label == "runway" else LINE_WORDS)
        if meant is not None:
            return label, OrderSyntaxError(
                f"I cannot read {tok_text} here: did you mean {meant}?", column=column,
                width=width, hint=f"write {meant}", suggestion=meant)
    if mistake is None:
        return label, OrderSyntaxError(f"I cannot read {tok_text or 'this'} here",
                                       column=column, width=width, expected=plain_expected)
    return label, _from_catalogue(mistake, line, tok_text, column, width, plain_expected)


def _stops_early(mistake: Mistake | None, accepts: Any, column: int | None,
                 plain_expected: str | None) -> OrderSyntaxError:
    """The line ends where the grammar wants more: say what it wants."""
    what = "the line stops too early"
    if "RUNWAY" in set(accepts or ()):
        what = "LAND needs a runway"
    elif "FDIR" in set(accepts or ()):
        what = "FIRE needs a direction"
    return OrderSyntaxError(
        what, column=column, expected=plain_expected,
        hint=mistake.hint if mistake and "{" not in (mistake.hint or "") else None)


def _from_catalogue(mistake: Mistake, line: str, tok_text: str, column: int | None, width: int,
                    plain_expected: str | None) -> OrderSyntaxError:
    """The catalogue's words for a known mistake, filled in with what was written."""
    fix = mistake.fix(tok_text) if mistake.fix else ""
    fmt = {"tok": tok_text, "fix": fix, "manoeuvres": _MANOEUVRES,
           "fire": "f-A f-L f-R f-B f-0"}
    hint = mistake.hint.format(**fmt) if mistake.hint else None
    return OrderSyntaxError(
        mistake.message.format(**fmt), column=column, width=width,
        expected=mistake.expected or plain_expected, hint=hint)


def explain_one(exc: UnexpectedInput, line: str) -> tuple[str | None, OrderSyntaxError]:
    """(label, plain error) of one syntax error, while the parser stands where it
    met it (a reader that skips the bad word and reads on calls this first; see
    ``pbmref.orders.nearest.line_mistakes`` for the labels that matter there)."""
    return _explain(exc, line)
