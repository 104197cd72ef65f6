"""The errors an order mail can produce, in plain words a player understands.

Every problem with an order mail is one of these exceptions; Lark's own
exceptions never leave ``pbmref.orders``. Each error knows the mail line it is
about (``line_no`` counts from 1 in the mail as it was sent, or in an orders
entry the position in its list), the text of that line, the column of the bad
spot (1-based, ``None`` when the whole line or the whole mail is meant), what
was expected, how to fix it, and the rule it breaks (rulebook numbers such as
``"M3"``, ``"Z14"``; ``"SYNTAX"`` for a line that cannot be read at all).

A mail is accepted or rejected whole (orders.md "Reading rules"): when a mail
has several errors, they are raised together as one ``OrderErrors`` whose
attributes are those of its first error.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

__all__ = [
    "IdentityError",
    "IllegalOrderError",
    "OrderError",
    "OrderErrors",
    "OrderMailError",
    "OrderSyntaxError",
    "StaleTurnError",
    "UnknownGameError",
    "UnknownPlayerError",
    "WrongPasswordError",
]


class OrderMailError(Exception):
    """Base of every order-mail error.

    ``rule``: the rule broken (``"M3"``), or ``"SYNTAX"``/``"ENVELOPE"``/...;
    ``message``: what is wrong, in plain words; ``expected``: what would have
    been right at that spot; ``hint``: how to fix it; ``width``: how many
    characters the caret marks; ``suggestion``: the order word the player
    probably meant ("did you mean ZEPPELIN?"); ``prose``: the line is no
    order of the game (prose between orders, ``pbmref.orders.check``).
    """

    kind = "error"

    def __init__(
        self,
        message: str,
        *,
        rule: str = "",
        line_no: int | None = None,
        line: str | None = None,
        column: int | None = None,
        expected: str | None = None,
        hint: str | None = None,
        width: int = 1,
        suggestion: str | None = None,
        prose: bool = False,
    ) -> None:
        self.message = message
        self.rule = rule
        self.line_no = line_no
        self.line = line
        self.column = column
        self.expected = expected
        self.hint = hint
        self.width = max(1, width)
        self.suggestion = suggestion
        self.prose = prose
        super().__init__(self.summary())

    def summary(self) -> str:
        where = f"line {self.line_no}: " if self.line_no is not None else ""
        rule = f" (rule {self.rule})" if self.rule and self.rule.isalnum() and any(
            c.isdigit() for c in self.rule) else ""
        return f"{where}{self.message}{rule}"

    @property
    def errors(self) -> tuple[OrderMailError, ...]:
        """All errors this exception stands for (itself, for a single error)."""
        return (self,)

    def at(self, line_no: int | None, line: str | None) -> OrderMailError:
        """This error placed on a mail line (used when a body parser worked line by line)."""
        self.line_no = line_no
        self.line = line
        self.args = (self.summary(),)
        return self

    def caret(self) -> str | None:
        """The line and a caret line under the bad spot, or None."""
        if self.line is None:
            return None
        text = self.line.replace("\t", " ").rstrip()
        if self.column is None:
            return text
        pad = " " * max(0, self.column - 1)
        return f"{text}\n{pad}{'^' * self.width}"

    def to_dict(self) -> dict[str, object]:
        return {
            "kind": self.kind, "rule": self.rule, "line_no": self.line_no, "line": self.line,
            "column": self.column, "message": self.message, "expected": self.expected,
            "hint": self.hint,
        }


# The name the engine and the ruleset interface use.
OrderError = OrderMailError


class OrderSyntaxError(OrderMailError):
    """A line the referee cannot read at all (not one of the order words)."""

    kind = "syntax"

    def __init__(self, message: str, **kw: object) -> None:
        kw.setdefault("rule", "SYNTAX")
        super().__init__(message, **kw)  # type: ignore[arg-type]


class IllegalOrderError(OrderMailError):
    """A readable order the rules do not allow (M3, F1, F2, L3, V4, Z14 ...)."""

    kind = "illegal"


class IdentityError(OrderMailError):
    """The mail cannot be tied to a game and a player."""

    kind = "identity"


class UnknownGameError(IdentityError):
    def __init__(self, message: str, **kw: object) -> None:
        kw.setdefault("rule", "GAME")
        super().__init__(message, **kw)  # type: ignore[arg-type]


class UnknownPlayerError(IdentityError):
    def __init__(self, message: str, **kw: object) -> None:
        kw.setdefault("rule", "PLAYER")
        super().__init__(message, **kw)  # type: ignore[arg-type]


class WrongPasswordError(IdentityError):
    def __init__(self, message: str, **kw: object) -> None:
        kw.setdefault("rule", "PASSWORD")
        super().__init__(message, **kw)  # type: ignore[arg-type]


class StaleTurnError(OrderMailError):
    """``TURN n`` (or ``PHASE``) names a turn that is not the one open now."""

    kind = "stale"

    def __init__(self, message: str, *, given: str = "", open_turn: str = "",
                 **kw: object) -> None:
        kw.setdefault("rule", "TURN")
        self.given = given
        self.open_turn = open_turn
        super().__init__(message, **kw)  # type: ignore[arg-type]


class OrderErrors(OrderMailError):
    """Several errors of one mail, raised together; reads as its first error.

    ``ignored``: the ``(line_no, text)`` lines left out of the mail as
    greetings or signatures, so the reply can say so beside the errors.
    """

    def __init__(self, errors: Sequence[OrderMailError],
                 ignored: Sequence[tuple[int, str]] = ()) -> None:
        if not errors:
            raise ValueError("OrderErrors needs at least one error")
        self._errors = tuple(errors)
        self.ignored = tuple(ignored)
        first = self._errors[0]
        self.kind = first.kind
        super().__init__(
            first.message, rule=first.rule, line_no=first.line_no, line=first.line,
            column=first.column, expected=first.expected, hint=first.hint, width=first.width,
            suggestion=first.suggestion, prose=first.prose,
        )

    @property
    def errors(self) -> tuple[OrderMailError, ...]:
        return self._errors

    def summary(self) -> str:
        text = super().summary()
        extra = len(getattr(self, "_errors", ())) - 1
        return text + (f" (and {extra} more)" if extra > 0 else "")


def raise_all(errors: Iterable[OrderMailError],
              ignored: Sequence[tuple[int, str]] = ()) -> None:
    """Raise nothing, the one error, or all of them as ``OrderErrors``.

    Each error is listed once: the same message on the same spot of the same
    line (two ways of reading one line that found one mistake) is dropped.
    With ``ignored`` lines the errors always come as ``OrderErrors``, which
    carries them.
    """
    found = gather(errors, ignored)
    if found is not None:
        raise found


def gather(errors: Iterable[OrderMailError],
           ignored: Sequence[tuple[int, str]] = ()) -> OrderMailError | None:
    """What ``raise_all`` raises, returned instead (None: no error)."""
    found: list[OrderMailError] = []
    seen: set[tuple[object, ...]] = set()
    for e in errors:
        for one in e.errors:
            key = (one.line_no, one.column, one.rule, one.message)
            if key not in seen:
                seen.add(key)
                found.append(one)
    if len(found) == 1 and not ignored:
        return found[0]
    if not found:
        return None
    found.sort(key=lambda e: (e.line_no if e.line_no is not None else 0,
                              e.column if e.column is not None else 0))
    return OrderErrors(found, ignored)
