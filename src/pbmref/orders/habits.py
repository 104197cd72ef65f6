"""Lines in the words of the email judges (njudge and its kin) that pbmref
says otherwise: each is answered with pbmref's own word, never taken for a
greeting nor done in silence (issue 42, item 2).

``judge_habit(cleaned)`` gives the error for such a line (``None`` for any
other): ``SIGNON Pgame password`` (here ``GAME`` and ``PASSWORD`` lines),
``SET WAIT`` / ``SET NOWAIT`` (``WAIT`` / ``NOWAIT``), ``SET PASSWORD`` (the
game master gives a new one), ``SET ADDRESS`` (the game master changes it).
A judge's ``BROADCAST`` press is told in ``pbmref.orders.press``: its
message is a press block that is not sent. The lobby's words (``LIST``,
``JOIN``, ``RESIGN``, ``SET ABSENCE``, ``SET TIMEZONE``) are the envelope's own.

>>> judge_habit("SET NOWAIT").hint
'write NOWAIT'
>>> judge_habit("A Par - Bur") is None
True
"""

from __future__ import annotations

import re

from pbmref.orders.errors import OrderSyntaxError

__all__ = ["judge_habit", "signon_password"]

_SIGNON = re.compile(r"^\s*signon\b\s*(?P<who>\S+)?\s*(?P<password>\S+)?", re.I)
_SET = re.compile(r"^\s*set\s+(?P<what>wait|nowait|password|address)\b", re.I)


def signon_password(cleaned: str) -> str | None:
    """The password a SIGNON line gives, to be hidden where the line is shown."""
    m = _SIGNON.match(cleaned)
    return m.group("password") if m else None


def judge_habit(cleaned: str) -> OrderSyntaxError | None:
    """The error that names pbmref's own word for a judge's line, or None."""
    m = _SIGNON.match(cleaned)
    if m is not None:
        who = m.group("who") or ""
        game = who[1:] if len(who) > 1 else "<game>"
        return OrderSyntaxError(
            "SIGNON is a judge's word: here GAME and PASSWORD lines", rule="ENVELOPE",
            hint=f"write GAME {game}, then PASSWORD and yours on the next line")
    m = _SET.match(cleaned)
    if m is None:
        return None
    what = m.group("what").upper()
    if what in ("WAIT", "NOWAIT"):
        return OrderSyntaxError(
            f"SET {what} is a judge's word: here it is {what} alone", rule="ENVELOPE",
            hint=f"write {what}")
    if what == "PASSWORD":
        return OrderSyntaxError(
            "SET PASSWORD is a judge's word: the game master gives new passwords",
            rule="ENVELOPE",
            hint="take this line out and ask the game master for a new password")
    return OrderSyntaxError(
        "SET ADDRESS is a judge's word: the game master changes addresses",
        rule="ENVELOPE", hint="take this line out and write to the game master")
