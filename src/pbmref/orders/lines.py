"""Small helpers shared by the envelope and the body readers.

``clean_line`` makes a mail line readable without moving any character, so a
column found in the cleaned line is the column in the line the player wrote.
"""

from __future__ import annotations

import importlib.resources
import re

__all__ = ["clean_line", "grammar_text"]

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


def clean_line(text: str) -> str:
    """The line with look-alike characters made plain, column for column.

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


def grammar_text(name: str) -> str:
    """The text of ``grammar/NAME`` shipped inside the package."""
    return (importlib.resources.files("pbmref") / "grammar" / name).read_text(encoding="utf-8")
