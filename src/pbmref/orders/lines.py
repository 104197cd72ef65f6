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
from collections import OrderedDict
from collections.abc import Callable, Iterable
from functools import lru_cache
from typing import Any, TypeVar

from lark import Lark
from lark.exceptions import LarkError, UnexpectedInput, UnexpectedToken

from pbmref.orders.errors import OrderMailError, OrderSyntaxError
from pbmref.orders.nearest import line_mistakes, nearest

__all__ = ["air_order_line", "clean_line", "cut_at_end", "first_word", "grammar_text",
           "keyword_led", "made_of", "numbered", "order_piece", "parse_past_mistakes",
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


# Lines read without a mistake, by their parser and cleaned text: what they say,
# for the next mail that writes them again ("1: A", "TAKEOFF BETA" come in mail
# after mail: issue 41, item 5); only a value that cannot change (hashable),
# the least recently read dropped first.
_READ: OrderedDict[tuple[object, str], object] = OrderedDict()
KEPT_LINES = 4096
KEPT_LINE = 200  # characters of a line kept at most


def _unchanging(value: object) -> bool:
    """Whether ``value`` cannot change (a hashable value, such as a tuple of
    tuples or a frozen record), so that one reading may serve every mail.

    >>> _unchanging(("move", 1)), _unchanging(["move", 1])
    (True, False)
    """
    try:
        hash(value)
    except TypeError:
        return False
    return True


def read_past_mistakes(
    parser: Lark, text: str, line_no: int | None,
    explain: Callable[[UnexpectedInput, str], tuple[str | None, OrderSyntaxError]],
) -> tuple[Any | None, list[OrderMailError]]:
    """One body line read by a reader's ``parser``: what it says without the
    words that could not be read (None: nothing of it could be read), and
    every mistake of the line, placed on it (``nearest.line_mistakes``). A line
    read without a mistake is parsed once while the process keeps it (``_READ``).

    ``explain`` gives a mistake's label and plain words.
    """
    cleaned = clean_line(text)
    key = (parser, cleaned)
    known = _READ.get(key, _READ)
    if known is not _READ:
        _READ.move_to_end(key)
        return known, []
    try:
        result, explained = parse_past_mistakes(parser, cleaned, explain)
    except LarkError as exc:  # pragma: no cover - a transformer bug, kept readable
        return None, [OrderSyntaxError(f"cannot read this line ({exc})", line_no=line_no,
                                       line=text)]
    if not explained:
        if len(cleaned) <= KEPT_LINE and _unchanging(result):
            _READ[key] = result
            if len(_READ) > KEPT_LINES:
                _READ.popitem(last=False)
        return result, []
    errors = line_mistakes(explained, cleaned)
    return result, [e.at(line_no, text) for e in errors]


# A move or order number at the start of a line: "1:", "2)", "(4)", "3.", "Move 1:",
# "m2:", "Z1:", "Plane 3:" (a ")", "." or "]" only before a space: "5.12.2026" is a date).
_NUMBERED = re.compile(
    r"^\s*(?:(?:move|m|plane|zeppelin|zep|z)\s*)?\(?[1-9]\d?\s*(?::|[).\]](?=\s|$))", re.I)


def numbered(cleaned: str) -> bool:
    """Does the line start with a move or order number?

    >>> numbered("1: LS f-A"), numbered("(4) D Bur S A Par"), numbered("Move 2: A")
    (True, True, True)
    >>> numbered("5.12.2026"), numbered("+31 20 123 4567"), numbered("1st place")
    (False, False, False)
    """
    return bool(_NUMBERED.match(cleaned))


def order_piece(word: str, pieces: re.Pattern[str], slips: re.Pattern[str]) -> bool:
    """Is ``word`` one of a game's order ``pieces``, or one of its ``slips`` not
    written as a name ("fA" and "RRL" are slips, "Fr" and "Lara" names)?

    >>> order_piece("Lara", re.compile("a|l|r"), re.compile("[alr]+", re.I))
    False
    """
    word = word.strip(":.,;!?()")
    if pieces.fullmatch(word):
        return True
    return bool(slips.fullmatch(word)) and not (word[:1].isupper() and word[1:].islower())


def made_of(words: list[str], piece: Callable[[str], bool]) -> bool:
    """Is a line of ``words`` made of order pieces: its first word one, and more
    of its words pieces than not? (A word of only separators counts neither way.)

    >>> piece = {"A", "LS", "f-A"}.__contains__
    >>> made_of(["LS", "f-A"], piece), made_of(["A", "bientôt"], piece)
    (True, False)
    >>> made_of(["I", "hope", "this", "is", "right"], {"I"}.__contains__)
    False
    """
    counted = [w for w in words if any(c.isalnum() for c in w)]
    if not counted or not piece(counted[0]):
        return False
    pieces = sum(1 for w in counted if piece(w))
    return 2 * pieces > len(counted)


def first_word(cleaned: str) -> str:
    """The line's first word, without the punctuation around it (upper case).

    >>> first_word("  Zeppelin: 1: A"), first_word("(4) D Bur")
    ('ZEPPELIN', '4')
    """
    words = cleaned.split()
    return words[0].strip(":.,;!?()[]").upper() if words else ""


def keyword_led(cleaned: str, keywords: Iterable[str]) -> bool:
    """Does the line start with one of the game's ``keywords``, or a slip of
    one ("PLNAE", "Zeplin")? A greeting word is never a slip.

    >>> keyword_led("Zeplin 1: L f-B", ("PLANE", "ZEPPELIN"))
    True
    >>> keyword_led("Planning ahead", ("PLANE", "ZEPPELIN"))
    False
    """
    word = first_word(cleaned)
    if not word:
        return False
    known = tuple(keywords)
    return word in known or nearest(word, known) is not None


# The postal FIRE with a direction ("FIRE A", "fire L+R"); "Fire at will!" is no order.
_POSTAL_FIRE = re.compile(r"^\s*fire\b:?\s*([alrb0o]\b.*)?$", re.I)


def air_order_line(cleaned: str, keywords: Iterable[str], piece: Callable[[str], bool]) -> bool:
    """The shape of an air game's order line (tweedekker, Fast Play): a move
    number, one of the game's ``keywords`` (or a slip of one), ``FIRE`` and a
    direction, or a line ``made_of`` the game's pieces.

    >>> air_order_line("Fire at will ", ("PLANE",), {"A"}.__contains__)
    False
    >>> air_order_line("fire A", ("PLANE",), {"A"}.__contains__)
    True
    """
    if first_word(cleaned) == "FIRE":
        return bool(_POSTAL_FIRE.match(cleaned))
    return numbered(cleaned) or keyword_led(cleaned, keywords) or made_of(cleaned.split(), piece)
