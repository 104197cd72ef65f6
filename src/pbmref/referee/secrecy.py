"""What the referee never repeats and never keeps of a mail: its passwords.

orders.md (PASSWORD) promises that the secret itself is never kept; issue 15
adds that it is never echoed either. Both are done on the decoded text of the
mail (what ``read_message`` made of quoted-printable, base64, UTF-16 or HTML),
so no transfer encoding, charset or tag inside the password hides it:

- ``password_candidates(text)``: every value written after a PASSWORD keyword;
- ``mail_passwords(mail)``: those of a mail's text and Subject (and of the
  envelope's PASSWORD line, as read);
- ``mask(text, candidates)``: ``text`` with each of them replaced by ``(hidden)``
  (for what quotes the mail: its Subject, the lines and values of errors);
- ``mask_reply(text, candidates)``: only where a PASSWORD keyword stands before
  one (the referee's own words are left alone, even when a password is "wrong");
- ``hide_in_press(block, candidates)``: a press block with its passwords hidden,
  before it is relayed, kept or copied back to its sender (issue 40);
- ``hide_in_errors(errors, candidates)``: the errors about a mail, its
  passwords hidden in each (the caret stays under its spot);
- ``stored_text(mail, envelope)``: what an orders file keeps of a mail (its
  headers and decoded text, every password hidden).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import replace

from pbmref.mail.message import IncomingMail
from pbmref.orders.envelope import OrderMail
from pbmref.orders.errors import OrderMailError
from pbmref.orders.press import PressBlock

__all__ = ["HIDDEN", "hide_in_errors", "hide_in_press", "mail_passwords", "mask",
           "mask_reply", "password_candidates", "stored_text"]

HIDDEN = "(hidden)"
# A PASSWORD keyword (or PASSWD, PW) and the value after it, as the envelope reads it.
_KEYWORD_VALUE = re.compile(r"(?i)(?<![\w-])(?:password|passwd|pw)\b[ \t:=]*(\S+)")
# A value this long is hidden wherever it stands; a shorter one only after a keyword
# (hiding every "ab" of a reply would make it unreadable).
_ANYWHERE = 4
_STORED_HEADERS = ("From", "To", "Subject", "Date", "Message-ID")


def password_candidates(text: str, *also: str | None) -> tuple[str, ...]:
    """Every value written after a PASSWORD keyword in ``text`` (and ``also``),
    longest first, with a phone's full stop or comma at its end dropped too.

    >>> password_candidates("GAME z\\nPASSWORD swordfish.\\nPW: ab")
    ('swordfish.', 'swordfish', 'ab')
    """
    found: dict[str, None] = {}
    for value in [*(m.group(1) for m in _KEYWORD_VALUE.finditer(text)), *also]:
        if value:
            found[value] = None
            found[value.rstrip(".,;")] = None
    return tuple(sorted((v for v in found if v), key=len, reverse=True))


def mail_passwords(mail: IncomingMail, envelope: OrderMail | None = None) -> tuple[str, ...]:
    """The passwords ``mail`` holds (or seems to), in its text or its Subject,
    and the envelope's as read: never to be repeated."""
    also = (envelope.password, envelope.password_raw) if envelope is not None else ()
    return password_candidates(mail.text, *password_candidates(mail.subject), *also)


def mask(text: str, candidates: Iterable[str], filler: str | None = None) -> str:
    """``text`` with every password of ``candidates`` hidden (by ``filler``, else
    by ``(hidden)``; ``"*"`` fills each with as many stars).

    >>> mask("PASSWORD swordfish is wrong; swordfish.", ["swordfish"])
    'PASSWORD (hidden) is wrong; (hidden).'
    >>> mask("PASSWORD ab, grab", ["ab"])
    'PASSWORD (hidden), grab'
    >>> mask("PASSWORD swordfish x", ["swordfish"], "*")
    'PASSWORD ********* x'
    """
    for secret in candidates:
        hidden = "*" * len(secret) if filler == "*" else (filler or HIDDEN)
        if len(secret) >= _ANYWHERE:
            text = text.replace(secret, hidden)
        else:
            text = _after_keyword(secret).sub(r"\g<1>" + hidden.replace("\\", r"\\"), text)
    return text


def mask_reply(text: str, candidates: Iterable[str]) -> str:
    r"""The referee's reply with each password of ``candidates`` hidden where a
    PASSWORD keyword stands before it: its own words stay as they are.

    >>> mask_reply("had a wrong or missing PASSWORD.\n    PASSWORD wrong x", ["wrong"])
    'had a wrong or missing PASSWORD.\n    PASSWORD (hidden) x'
    """
    for secret in candidates:
        text = _after_keyword(secret).sub(lambda m: m.group(1) + HIDDEN, text)
    return text


def _after_keyword(secret: str) -> re.Pattern[str]:
    return re.compile(r"(?i)(?<![\w-])((?:password|passwd|pw)\b[ \t:=]*)" + re.escape(secret)
                      + r"(?!\w)")


def hide_in_errors(errors: OrderMailError | Iterable[OrderMailError],
                   candidates: Iterable[str]) -> None:
    """Hide the passwords of ``candidates`` in each of ``errors`` (one error or
    several), in place: in the mail line it shows (by stars, so the caret stays
    under its spot) and in its words."""
    secrets = tuple(candidates)
    if not secrets:
        return
    groups = [errors] if isinstance(errors, OrderMailError) else list(errors)
    for error in (e for group in groups for e in group.errors):
        if error.line is not None:
            error.line = mask(error.line, secrets, "*")
        error.message = mask(error.message, secrets)
        error.hint = mask(error.hint, secrets) if error.hint else error.hint
        error.args = (error.summary(),)


def hide_in_press(block: PressBlock, candidates: Iterable[str]) -> PressBlock:
    """``block`` with every password of ``candidates`` hidden in its message,
    as ``mask`` hides them anywhere else the referee quotes a mail.

    >>> from pbmref.orders.press import PressBlock
    >>> block = PressBlock(2, "PRESS TO ENG", False, ("ENG",), (10,),
    ...                    "my PASSWORD is swordfish", ("my PASSWORD is swordfish",))
    >>> hide_in_press(block, ["swordfish"]).text
    'my PASSWORD is (hidden)'
    """
    secrets = tuple(candidates)
    if not secrets:
        return block
    return replace(block, text=mask(block.text, secrets),
                   lines=tuple(mask(line, secrets) for line in block.lines))


def stored_text(mail: IncomingMail, envelope: OrderMail) -> str:
    r"""What the game folder keeps of an order mail: its main headers and its
    decoded text, every password hidden (referee.md: orders are stored with the
    raw text and Message-ID; orders.md: never the password).

    >>> from pbmref.mail.message import read_message
    >>> mail = read_message(b"Subject: orders\r\n\r\nGAME z\r\nPASSWORD swordfish\r\nPLANE\r\n")
    >>> print(stored_text(mail, OrderMail(password="swordfish")))
    Subject: orders
    <BLANKLINE>
    GAME z
    PASSWORD (hidden)
    PLANE
    <BLANKLINE>
    """
    head = [f"{name}: {mail.header(name)}" for name in _STORED_HEADERS if mail.header(name)]
    text = "\n".join(head) + "\n\n" + mail.text
    return mask(text, password_candidates(text, envelope.password, envelope.password_raw))
