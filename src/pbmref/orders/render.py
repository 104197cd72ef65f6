"""The reply text for a rejected order mail, for a player reading on a phone.

Each error shows its line number, the line as written, a caret under the
bad spot, what is wrong, what was expected, and how to fix it. Lines stay
short; nothing depends on a wide screen.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from pbmref.orders.errors import (
    IdentityError,
    OrderMailError,
    StaleTurnError,
)

__all__ = ["render_error", "render_errors"]

_INDENT = "    "
_MAX_SHOWN = 20  # errors listed in one reply; the rest are counted
_MAX_LINE = 100  # characters of a mail line shown above its caret
_MAX_TEXT = 300  # characters of a problem, expectation or hint


def _clip(text: str, limit: int = _MAX_TEXT) -> str:
    """`text` cut to `limit` characters (a hostile mail must not make a huge reply)."""
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _rule_words(rule: str) -> str:
    if rule and any(c.isdigit() for c in rule) and rule[0].isalpha():
        return f" (rule {rule})"
    return ""


def render_error(error: OrderMailError) -> str:
    """One error as a block of short lines."""
    lines: list[str] = []
    head = f"Line {error.line_no}:" if error.line_no is not None else "Your mail:"
    lines.append(head)
    if error.line is not None:
        text = error.line.replace("\t", " ").rstrip()
        start = 0
        if len(text) > _MAX_LINE:  # show a window of a long line around the bad spot
            start = max(0, min((error.column or 1) - 1 - 20, len(text) - _MAX_LINE))
            text = ("..." if start else "") + text[start:start + _MAX_LINE] + (
                "..." if start + _MAX_LINE < len(text) else "")
            start -= 3 if start else 0
        lines.append(_INDENT + text)
        if error.column is not None:
            col = error.column - 1 - start
            width = max(1, min(error.width, len(text) - col))
            lines.append(_INDENT + " " * col + "^" * width)
    message = _clip(error.message) + _rule_words(error.rule)
    lines.append(f"{_INDENT}Problem: {_sentence(message)}")
    if error.expected:
        lines.append(f"{_INDENT}Expected: {_sentence(_clip(error.expected))}")
    if error.hint:
        lines.append(f"{_INDENT}How to fix: {_sentence(_clip(error.hint))}")
    return "\n".join(lines)


def _sentence(text: str) -> str:
    text = text.strip()
    if not text:
        return text
    first = text.split(" ", 1)[0]
    if re.fullmatch(r"[a-z]{3,}|a|an|at|if|in|is|it|no|of|on|or|to|up", first):
        text = text[0].upper() + text[1:]
    return text if text[-1] in ".!?" else text + "."


def render_errors(errors: OrderMailError | Iterable[OrderMailError]) -> str:
    """A list of errors as the reply text for a mail that was not accepted."""
    found: list[OrderMailError] = []
    if isinstance(errors, OrderMailError):
        found.extend(errors.errors)
    else:
        for e in errors:
            found.extend(e.errors)
    if not found:
        return "Your orders were accepted."
    ordered = _ordered(found)
    blocks = [render_error(e) for e in ordered[:_MAX_SHOWN]]
    count = len(found)
    if count > _MAX_SHOWN:
        blocks.append(f"... and {count - _MAX_SHOWN} more problems, not shown here.")
    if all(isinstance(e, StaleTurnError) for e in found):
        intro = "Your mail was NOT used: it is for another turn."
    elif all(isinstance(e, IdentityError) for e in found):
        intro = "Your mail was NOT used: it could not be matched to your game."
    else:
        what = "a problem" if count == 1 else f"{count} problems"
        intro = f"Your orders were NOT accepted: the mail has {what}."
    outro = ("Nothing was changed: your earlier orders (if any) stay in force.\n"
             "Please send the whole mail again, corrected. Send HELP for the order words.")
    return "\n\n".join([intro, *blocks, outro]) + "\n"


def _ordered(errors: Sequence[OrderMailError]) -> list[OrderMailError]:
    return sorted(errors, key=lambda e: (e.line_no is not None, e.line_no or 0,
                                         e.column or 0))
