r"""Text from outside made safe to show: what a terminal would act on, or a
screen hide, taken out.

A mail may carry characters that are not there to be read: an escape sequence
sets a terminal's window title or moves its cursor back over the line before,
a carriage return or a backspace writes over what was printed, a bidi
override shows a line backwards, a zero-width character hides inside a word.
``visible(text)`` leaves the text without them: every control character but
the line feed and the tab (C0, DEL, C1), every format character (Unicode
category Cf: bidi embeddings, overrides, isolates and marks, zero-width
spaces and joiners, the byte-order mark, soft hyphens, tags) and any lone
surrogate. What is left of an escape sequence stays, to be seen.

>>> visible("Hi\x1b]0;title\x07 there\x1b[2K\r")
'Hi]0;title there[2K'
>>> visible("From: France\u202e!olleh\u202c, zero\u200bwidth")
'From: France!olleh, zerowidth'
>>> visible("two lines\n\tand a tab")
'two lines\n\tand a tab'
"""

from __future__ import annotations

import re
import unicodedata

__all__ = ["visible"]

_ASCII_CONTROLS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]+")
_HIDDEN = frozenset({"Cc", "Cf", "Cs"})
_KEPT = frozenset("\n\t")


def visible(text: str) -> str:
    """``text`` without the characters a terminal acts on or a screen hides."""
    if text.isascii():
        return _ASCII_CONTROLS.sub("", text)
    category = unicodedata.category
    return "".join(c for c in text if c in _KEPT or category(c) not in _HIDDEN)
