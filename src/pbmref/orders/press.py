"""Press blocks of a mail: messages between players that the referee relays.

A press block starts with a header line and runs to the end of its message::

    PRESS TO FRA ENG          (any list of receivers)
    PRESS TO ALL              (everyone: a broadcast)
    PRESS GREY TO ENG         (anonymous, where the game allows it)

The message is every line after the header up to ``ENDPRESS`` (the mail goes
on after it: orders, commands, another block), ``END`` or a signature
(``-- ``; the mail ends there), a quoted-reply separator (``On ... wrote:``,
``-----Original Message-----``), the next ``PRESS`` header, or the end of
the mail. Quoted lines (``>``) are never part of a message, nor a phone's
"Sent from my ..." line.

``take_press(lines, ends_mail=, starts_quote=, skips=)`` lifts the blocks out of a mail's lines and
leaves blank lines in their place, so the envelope reader numbers the lines
that remain as the player wrote them. A block holds its lines as ``visible``
leaves them (``pbmref.base.text``): no control, bidi or zero-width character
of a mail reaches a receiver, the game folder or the game master's terminal. Receivers are kept as written (with
their columns); which names a game accepts is the ruleset's to say, and the
referee checks them. A block that cannot be relayed as written (a header
without receivers, no message) carries its ``problem``: the referee answers
it with the game's other press mistakes, after the password is checked.
Nothing here reads orders: a message is text only.

>>> lines = ["GAME dip1", "PRESS TO FRA, eng", "Shall we?", "ENDPRESS", "A Par H"]
>>> never = lambda line: False
>>> kept, blocks = take_press(lines, ends_mail=never, starts_quote=never, skips=never)
>>> kept
['GAME dip1', '', '', '', 'A Par H']
>>> [(b.line_no, b.receivers, b.grey, b.text, b.problem) for b in blocks]
[(2, ('FRA', 'ENG'), False, 'Shall we?', None)]
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from pbmref.base.text import visible
from pbmref.orders.errors import OrderMailError
from pbmref.orders.lines import clean_line

__all__ = ["ALL", "PressBlock", "PressError", "is_press_header", "take_press"]

ALL = "ALL"  # the receiver word of a broadcast
_HEADER = re.compile(r"^\s*(press|broadcast)\b:?", re.I)
# A judge's broadcast (njudge's BROADCAST ... ENDPRESS): its message is taken
# as press and not sent, the reply naming PRESS TO ALL (issue 42, item 2).
_BROADCAST = re.compile(r"^\s*broadcast\b", re.I)
_FULL = re.compile(r"^\s*press\b:?(?P<grey>\s+gr[ae]y\b)?\s+to\b:?(?P<rest>.*)$", re.I)
_END_PRESS = re.compile(r"^\s*end[- ]?press\b", re.I)
_WORD = re.compile(r"[^\s,;]+")
_JOINERS = {"AND", "&", "+"}


class PressError(OrderMailError):
    """A press block the referee cannot relay: its header, its receivers, the
    game's press setting, or a limit against abuse."""

    kind = "press"

    def __init__(self, message: str, **kw: object) -> None:
        kw.setdefault("rule", "PRESS")
        super().__init__(message, **kw)  # type: ignore[arg-type]


@dataclass(frozen=True)
class PressBlock:
    """One press message as written: its header line (number, text), whether it
    asks to stay anonymous (``GREY``), its receivers (upper-cased, ``ALL`` for
    a broadcast) with the column of each, and the message text."""

    line_no: int
    header: str
    grey: bool
    receivers: tuple[str, ...]
    columns: tuple[int, ...] = ()
    text: str = ""
    lines: tuple[str, ...] = field(default=(), repr=False)
    problem: PressError | None = None  # why it cannot be relayed as written

    @property
    def broadcast(self) -> bool:
        return ALL in self.receivers

    def error(self, message: str, receiver: str | None = None, **kw: object) -> PressError:
        """An error pointing at this block's header (at ``receiver`` when given)."""
        column, width = None, 1
        if receiver is not None and receiver in self.receivers:
            column = self.columns[self.receivers.index(receiver)]
            width = len(receiver)
        return PressError(message, line_no=self.line_no, line=self.header, column=column,
                          width=width, **kw)


def is_press_header(line: str) -> bool:
    """Whether ``line`` starts a press block (``PRESS ...``)."""
    return bool(_HEADER.match(clean_line(line)))


def _header(line_no: int, raw: str) -> PressBlock:
    """The block a header line starts (with its problem, when it names nobody)."""
    raw = visible(raw.rstrip("\r\n"))
    cleaned = clean_line(raw)
    if _BROADCAST.match(cleaned):
        return PressBlock(line_no, raw, False, (), problem=PressError(
            "BROADCAST is a judge's word: this press was not sent", line_no=line_no,
            line=raw, expected="PRESS TO ALL",
            hint="write PRESS TO ALL above the message and ENDPRESS below it"))
    m = _FULL.match(cleaned)
    if m is None:
        return PressBlock(line_no, raw, False, (), problem=PressError(
            "a press line names who the message is for", line_no=line_no, line=raw,
            expected="PRESS TO FRA ENG, PRESS TO ALL or PRESS GREY TO ENG",
            hint="write PRESS TO and the receivers, then the message on the lines below"))
    start = m.start("rest")
    receivers: list[str] = []
    columns: list[int] = []
    for w in _WORD.finditer(m.group("rest")):
        word = w.group().strip(":.").upper()
        if not word or word in _JOINERS:
            continue
        if word not in receivers:
            receivers.append(word)
            columns.append(start + w.start() + 1)
    if not receivers:
        return PressBlock(line_no, raw, bool(m.group("grey")), (), problem=PressError(
            "PRESS TO needs who the message is for", line_no=line_no, line=raw,
            column=len(raw.rstrip()) + 1, expected="powers or names, or ALL",
            hint="e.g. PRESS TO FRA ENG, or PRESS TO ALL"))
    return PressBlock(line_no, raw, bool(m.group("grey")), tuple(receivers), tuple(columns))


def _finish(block: PressBlock, body: list[str]) -> PressBlock:
    while body and not body[-1].strip():
        body.pop()
    while body and not body[0].strip():
        body.pop(0)
    text = "\n".join(line.rstrip() for line in body)
    done = PressBlock(block.line_no, block.header, block.grey, block.receivers, block.columns,
                      text, tuple(body), block.problem)
    if done.problem is None and not text.strip():
        return PressBlock(done.line_no, done.header, done.grey, done.receivers, done.columns,
                          text, done.lines, done.error(
                              "this press has no message: write it on the lines below "
                              "the PRESS line", hint="end it with ENDPRESS"))
    return done


def take_press(lines: Sequence[str], *, ends_mail: Callable[[str], bool],
               starts_quote: Callable[[str], bool], skips: Callable[[str], bool]
               ) -> tuple[list[str], list[PressBlock]]:
    """The mail's lines with its press blocks blanked out, and the blocks. The
    envelope reader says which lines end the mail (``ends_mail``: a signature,
    END, a forwarded block; nothing after it is press), which start a quoted
    reply (``starts_quote``: "On ... wrote:", which ends a message) and which
    are a mail program's own (``skips``: "Sent from my phone")."""
    kept = list(lines)
    blocks: list[PressBlock] = []
    block: PressBlock | None = None
    body: list[str] = []

    def close() -> None:
        nonlocal block
        if block is not None:
            blocks.append(_finish(block, body))
        block = None
        body.clear()

    for n, raw in enumerate(lines):
        stripped = raw.strip()
        quoted = stripped.startswith((">", "\u203a"))
        if block is None:
            if quoted:
                continue
            if ends_mail(raw):
                break
            if not is_press_header(raw):
                continue
        elif quoted or skips(raw):
            kept[n] = ""
            continue
        elif ends_mail(raw):
            close()
            break
        elif starts_quote(raw.replace("\u00a0", " ")):
            close()  # the line stays: the envelope reader skips it
            continue
        elif _END_PRESS.match(clean_line(raw)):
            close()
            kept[n] = ""
            continue
        elif not is_press_header(raw):
            body.append(visible(raw.rstrip("\r\n")))
            kept[n] = ""
            continue
        close()
        kept[n] = ""
        block = _header(n + 1, raw)
    close()
    return kept, blocks
