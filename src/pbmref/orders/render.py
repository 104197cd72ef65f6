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
        lines.append(_INDENT + text)
        if error.column is not None:
            lines.append(_INDENT + " " * (error.column - 1) + "^" * error.width)
    lines.append(f"{_INDENT}Problem: {_sentence(error.message + _rule_words(error.rule))}")
    if error.expected:
        lines.append(f"{_INDENT}Expected: {_sentence(error.expected)}")
    if error.hint:
        lines.append(f"{_INDENT}How to fix: {_sentence(error.hint)}")
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
    blocks = [render_error(e) for e in _ordered(found)]
    count = len(found)
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
