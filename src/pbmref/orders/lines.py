"""Small helpers shared by the envelope and the body readers.

``clean_line`` makes a mail line readable without moving any character, so a
column found in the cleaned line is the column in the line the player wrote.
``parse_past_mistakes`` reads a line with a Lark parser and keeps going past
the words it cannot take, so one line's every mistake can be told;
``read_past_mistakes`` also tells them in plain words, each once.
"""

from __future__ import annotations

import importlib.resources
import re
from collections.abc import Callable
from functools import lru_cache
from typing import Any, TypeVar

from lark import Lark
from lark.exceptions import LarkError, UnexpectedInput, UnexpectedToken

from pbmref.orders.errors import OrderMailError, OrderSyntaxError
from pbmref.orders.nearest import line_mistakes

__all__ = ["clean_line", "cut_at_end", "grammar_text", "parse_past_mistakes",
           "read_past_mistakes"]

T = TypeVar("T")
_MAX_SKIPS = 12  # bad words skipped in one line before the parser gives up on it

# Characters a phone or a mail program puts where a plain one was meant.
_SAME_WIDTH = str.maketrans({
    "\u00a0": " ",  # no-break space
    "\u2007": " ",  # figure space
    "\u202f": " ",  # narrow no-break space
    "\u2009": " ",  # thin space
    "\u200b": " ",  # zero-width space
    "\ufeff": " ",  # byte order mark
    "\u3000": " ",  # ideographic space
    "\t": " ",
    ",": " ",       # commas and semicolons between items
    ";": " ",
    "\u2010": "-",  # hyphen
    "\u2011": "-",  # non-breaking hyphen
    "\u2012": "-",  # figure dash
    "\u2013": "-",  # en dash (phones turn "-" into it)
    "\u2014": "-",  # em dash
    "\u2212": "-",  # minus sign
    "\uff1a": ":",  # full-width colon
    "\u2018": "'",
    "\u2019": "'",
    "\u201c": '"',
    "\u201d": '"',
})

_TRAILING = ".!?'\"`*_"
_BULLET = re.compile(r"^\s*[\u2022\u00b7\u25aa\u25cf\u2023*-]\s+(?=\S)")


@lru_cache(maxsize=4096)
def clean_line(text: str) -> str:
    """The line with look-alike characters made plain, column for column
    (kept for the next reader of the same line: the envelope, the press and
    the body readers each look at a line more than once).

    Stray punctuation at the end (a phone's full stop) and a list bullet at
    the start become spaces.

    >>> clean_line("1:\u00a0LS f\u2013A, f-R.")
    '1: LS f-A  f-R '
    >>> clean_line("\u2022 2: A")
    '  2: A'
    """
    text = text.translate(_SAME_WIDTH).rstrip("\r\n")
    # A list bullet a phone or a mail program put in front of the line.
    bullet = _BULLET.match(text)
    if bullet:
        text = " " * bullet.end() + text[bullet.end():]
    stripped = text.rstrip()
    end = len(stripped)
    while end > 0 and stripped[end - 1] in _TRAILING:
        end -= 1
    if end < len(stripped):
        text = stripped[:end] + " " * (len(text) - end)
    return text


def cut_at_end(raw: str, end: int) -> str:
    """What ``clean_line`` made spaces of right after column ``end`` (0-based) of
    the line as written: the punctuation that ended the line ("" when none).

    >>> cut_at_end("GAME zep1..", 9), cut_at_end("GAME zep1, TURN 3", 9)
    ('..', '')
    """
    rest = raw[end:]
    return rest[:len(rest) - len(rest.lstrip(_TRAILING))]


def grammar_text(name: str) -> str:
    """The text of ``grammar/NAME`` shipped inside the package."""
    return (importlib.resources.files("pbmref") / "grammar" / name).read_text(encoding="utf-8")


def parse_past_mistakes(parser: Lark, line: str, explain: Callable[[UnexpectedInput, str], T]
                        ) -> tuple[Any | None, list[T]]:
    """Parse ``line``; at each word the grammar cannot take, ``explain`` it (while
    the parser still stands there) and read on without it.

    Returns what was read (None when the line could not be read even so) and
    the explanations, in the order the mistakes were met. A line the parser
    reads at once costs one parse.
    """
    try:
        return parser.parse(line), []
    except UnexpectedInput:
        pass
    explained: list[T] = []
    met: list[UnexpectedInput] = []

    def skip(exc: UnexpectedInput) -> bool:
        met.append(exc)
        explained.append(explain(exc, line))
        return (isinstance(exc, UnexpectedToken) and exc.token.type != "$END"
                and len(met) < _MAX_SKIPS)

    try:
        return parser.parse(line, on_error=skip), explained
    except UnexpectedInput as exc:
        if not any(exc is m for m in met):
            explained.append(explain(exc, line))
    except LarkError:  # pragma: no cover - what was met is explained all the same
        pass
    return None, explained


def read_past_mistakes(
    parser: Lark, text: str, line_no: int | None,
    explain: Callable[[UnexpectedInput, str], tuple[str | None, OrderSyntaxError]],
    order_read: Callable[[Any], bool],
) -> tuple[Any | None, list[OrderMailError]]:
    """One body line read by a reader's ``parser``: what it says without the
    words that could not be read (None: nothing of it could be read), and
    every mistake of the line, placed on it (``nearest.line_mistakes``).

    ``explain`` gives a mistake's label and plain words; ``order_read`` says
    whether what was read holds an order word.
    """
    cleaned = clean_line(text)
    try:
        result, explained = parse_past_mistakes(parser, cleaned, explain)
    except LarkError as exc:  # pragma: no cover - a transformer bug, kept readable
        return None, [OrderSyntaxError(f"cannot read this line ({exc})", line_no=line_no,
                                       line=text)]
    if not explained:
        return result, []
    errors = line_mistakes(explained, cleaned, order_read(result))
    return result, [e.at(line_no, text) for e in errors]
