"""The reply text for a rejected order mail, for a player reading on a phone.

Each error shows its line number, the line as written, a caret under the
bad spot, what is wrong (naming the word at the caret, or the word before a
missing one: a caret is lost in a phone's proportional font), what was expected, and how to fix it. Lines stay
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

__all__ = ["ignored_note", "render_error", "render_error_list", "render_errors"]

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


def _word_near(text: str, col: int, width: int) -> tuple[str, str]:
    """How the problem names the caret's spot: ``with`` the word it points at,
    or, at a space or past the end of the line (a word missing), ``after`` the
    word before it; ("", "") on an empty line.

    >>> _word_near("1: LS Q f-A", 6, 1), _word_near("GAME", 5, 1)
    (('with', 'Q'), ('after', 'GAME'))
    """
    word = _word_at(text, col, width)
    if word:
        return "with", word
    before = text[:max(0, col)].split()
    return ("after", _clip(before[-1], 30)) if before else ("", "")


def _word_at(text: str, col: int, width: int) -> str:
    """The word the caret points at (the whole word around it), short.

    >>> _word_at("1: LS Q f-A", 6, 1), _word_at("GAME zep1", 9, 1)
    ('Q', '')
    """
    if not 0 <= col < len(text) or text[col].isspace():
        return ""
    start, end = col, min(len(text), col + width)
    while start > 0 and not text[start - 1].isspace():
        start -= 1
    while end < len(text) and not text[end].isspace():
        end += 1
    return _clip(text[start:end], 30)


def render_error(error: OrderMailError) -> str:
    """One error as a block of short lines."""
    lines: list[str] = []
    head = f"Line {error.line_no}:" if error.line_no is not None else "Your mail:"
    lines.append(head)
    where = ""
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
            how, word = _word_near(text, col, width)
            where = f" {how} '{word}'" if word else ""
    message, question = _question(error)
    message = _clip(message) + _rule_words(error.rule)
    lines.append(f"{_INDENT}Problem{where}: {_sentence(message)}"
                 + (f" {question}" if question else ""))
    if error.expected:
        lines.append(f"{_INDENT}Expected: {_sentence(_clip(error.expected))}")
    if error.hint:
        lines.append(f"{_INDENT}How to fix: {_sentence(_clip(error.hint))}")
    return "\n".join(lines)


def _question(error: OrderMailError) -> tuple[str, str]:
    """The message, and its "did you mean" as a sentence of its own (after the rule)."""
    if error.suggestion:
        ask = f"did you mean {error.suggestion}?"
        if error.message.endswith(ask):
            head = error.message[:-len(ask)].rstrip(" :;,")
            return head, "D" + ask[1:]
    return error.message, ""


def _sentence(text: str) -> str:
    text = text.strip()
    if not text:
        return text
    first = text.split(" ", 1)[0]
    if re.fullmatch(r"[a-z]{3,}|a|an|at|if|in|is|it|no|of|on|or|to|up", first):
        text = text[0].upper() + text[1:]
    return text if text[-1] in ".!?" else text + "."


_ACCEPTED = "Your orders were accepted."
_AGAIN = "Please send the whole mail again, corrected. Send HELP for the order words."


def render_errors(errors: OrderMailError | Iterable[OrderMailError]) -> str:
    """The whole reply text for a mail that was not accepted: what is wrong,
    line by line, and (once) that nothing was changed."""
    return _render(errors, whole=True)


def render_error_list(errors: OrderMailError | Iterable[OrderMailError]) -> str:
    """What is wrong with a refused mail, line by line, for a reply that says
    itself that the mail was not accepted, nothing was changed and which
    orders stay in force (so none of that is said twice)."""
    return _render(errors, whole=False)


def _render(errors: OrderMailError | Iterable[OrderMailError], *, whole: bool) -> str:
    found: list[OrderMailError] = []
    ignored: tuple[tuple[int, str], ...] = ()
    if isinstance(errors, OrderMailError):
        found.extend(errors.errors)
        ignored = tuple(getattr(errors, "ignored", ()))
    else:
        for e in errors:
            found.extend(e.errors)
            ignored += tuple(getattr(e, "ignored", ()))
    if not found:
        return _ACCEPTED
    ordered = _ordered(found)
    blocks = [render_error(e) for e in ordered[:_MAX_SHOWN]]
    count = len(found)
    if count > _MAX_SHOWN:
        blocks.append(f"... and {count - _MAX_SHOWN} more problems, not shown here.")
    if ignored:
        blocks.append(ignored_note(ignored))
    what = "a problem" if count == 1 else f"{count} problems"
    if not whole:
        intro = f"The mail has {what}:"
    elif all(isinstance(e, StaleTurnError) for e in found):
        intro = "Your mail was NOT used: it is for another turn."
    elif all(isinstance(e, IdentityError) for e in found):
        intro = "Your mail was NOT used: it could not be matched to your game."
    else:
        intro = f"Your orders were NOT accepted: the mail has {what}."
    outro = ("Nothing was changed: your earlier orders (if any) stay in force.\n" + _AGAIN
             if whole else _AGAIN)
    return "\n\n".join([intro, *blocks, outro]) + "\n"


_MAX_NOTE = 240  # characters of the one line that lists what was left out


def ignored_note(ignored: Iterable[tuple[int, str]]) -> str:
    """One line saying which lines were left out as greetings or signatures.

    >>> ignored_note([(1, "Hi,"), (9, "Hans")])
    'Left out as greeting or signature, not orders: "Hi," (line 1), "Hans" (line 9).'
    """
    parts = []
    for line_no, text in ignored:
        shown = " ".join(text.split())
        shown = shown if len(shown) <= 30 else shown[:27] + "..."
        parts.append(f'"{shown}" (line {line_no})')
    note = "Left out as greeting or signature, not orders: " + ", ".join(parts)
    return _clip(note, _MAX_NOTE) + ("" if note.endswith(".") or len(note) > _MAX_NOTE else ".")


def _ordered(errors: Sequence[OrderMailError]) -> list[OrderMailError]:
    """By line; a bound of what the referee reads that the mail passes (rule
    LIMIT, ``pbmref.orders.envelope``) first, however many come before it."""
    return sorted(errors, key=lambda e: (e.rule != "LIMIT", e.line_no is not None,
                                         e.line_no or 0, e.column or 0))
