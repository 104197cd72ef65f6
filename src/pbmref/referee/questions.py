"""A registered player's mail without a password: a question, or an attempt to
change something (issue 42, item 9).

A mail from a player's registered address with no PASSWORD line is most
often a question: "staus", "hepl", "how do I play? I lost my mail",
"thanks!", a reply to a press mail, a forward of one's own orders, orders
typed in the Subject. It gets an answer: the public commands it asks for
(HELP, STATUS, also misspelt) and how to write what it seems to want. Only a
mail that carries orders, press, a command that is not public, or a line
that is an order with a mistake is one the password warning is for
(``pbmref.referee.pipeline``).
"""

from __future__ import annotations

from collections.abc import Iterable

from pbmref.orders.envelope import Command, OrderMail
from pbmref.orders.errors import OrderMailError

__all__ = ["answers_press", "asked", "question_note"]


def asked(envelope: OrderMail, entry: object, errors: Iterable[OrderMailError],
          public: frozenset[str]) -> list[Command] | None:
    """The public commands a mail without a password asks for (a slip of one
    counts: "staus" is STATUS), in order, once each; None when the mail tries
    to change something (orders, press, another command, an order with a
    mistake)."""
    if entry is not None or envelope.press:
        return None
    wanted = list(envelope.commands)
    if any(c.name not in public for c in wanted):
        return None
    for e in errors:
        if e.suggestion in public:
            wanted.append(Command(e.suggestion, line_no=e.line_no))
        elif not e.prose:
            return None
    return list({c.format(): c for c in wanted}.values())


def answers_press(subject: str) -> bool:
    """Whether a mail answers a press relay ("Re: [zep1] Press from Bert to
    Anna", "AW: [dip1] Anonymous press to all"): such a mail is never left
    without a word (a player must not believe an answer went out that did not).

    >>> answers_press("Re: [zep1] Press from Bert to Anna"), answers_press("Re: orders")
    (True, False)
    """
    return "press" in subject.lower()


def question_note(game_id: str, subject: str) -> str:
    """How to write what a mail without a password seems to want."""
    lines = [f"Your mail to game {game_id} has no PASSWORD line, so it changes nothing.",
             f"Orders go in the text of a mail: GAME {game_id}, then PASSWORD and",
             "yours, then your orders. Send HELP for how to write them."]
    if answers_press(subject):
        lines.append("To answer press, write PRESS TO and the receivers above your")
        lines.append("message, with your PASSWORD line (send HELP for the names).")
    return "\n".join(lines)
