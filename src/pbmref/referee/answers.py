"""A reply as a mail: the answer's text made into the message that goes out.

Its text stops at ``REPLY_LIMIT`` characters with a note saying so; it never
repeats a password of the mail it answers (``secrecy``); a board it carries
(MAP, HISTORY) goes as a light PNG inline in an HTML version and as SVG
attached; and it is named by a key (``name_by_key``), so that a reply made
again after a crash is the same message, never a second one. The words
themselves are ``replies``'; who gets which reply is the handlers'.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import replace
from datetime import datetime
from typing import TYPE_CHECKING

from pbmref.mail.compose import Attachment, Mail, make_reply, write_reply
from pbmref.mail.message import IncomingMail
from pbmref.orders.errors import OrderMailError
from pbmref.orders.render import render_error_list
from pbmref.referee import replies
from pbmref.referee.letter import REPLY_LIMIT, HandledMail, Letter
from pbmref.referee.pictures import map_pictures
from pbmref.referee.press import not_sent
from pbmref.referee.secrecy import hide_in_errors, mask, mask_reply, reply_secrets
from pbmref.reports.document import Document
from pbmref.reports.html import render_report_mail
from pbmref.store.index import bare_address

if TYPE_CHECKING:
    from pbmref.referee.pipeline import Referee



def reply(mail: IncomingMail, to: str, body: str, attachments: Sequence[Attachment] = (),
          *, from_addr: str, from_name: str, date: datetime) -> Mail:
    """The answer to ``mail``: never longer than REPLY_LIMIT, never repeating
    a password the mail holds (in its text or its Subject). Boards among the
    ``attachments`` (MAP, HISTORY) go as PNG inline in an HTML version of
    the text, and as SVG attached (the player asked for the board); a reply
    of text alone is written as bytes (``write_reply``)."""
    if len(body) > REPLY_LIMIT:
        body = body[:REPLY_LIMIT].rsplit("\n", 1)[0] + "\n\n" + replies.cut_short(REPLY_LIMIT)
    secrets = reply_secrets(mail)
    if secrets:
        body = mask_reply(body, secrets)
        mail = replace(mail, subject=mask(mail.subject, secrets))
    if not attachments:
        return write_reply(mail, to, body, from_addr=from_addr, from_name=from_name, date=date)
    html, attachments = with_pictures(mail, body, attachments)
    return make_reply(mail, to, body, from_addr=from_addr, html=html, from_name=from_name,
                      attachments=attachments, date=date)


def errors_text(errors: OrderMailError | Iterable[OrderMailError], mail: IncomingMail) -> str:
    """The errors of a refused mail as reply text (``render_error_list``), its
    passwords hidden."""
    errors = errors if isinstance(errors, OrderMailError) else list(errors)
    hide_in_errors(errors, reply_secrets(mail))
    return render_error_list(errors)


def name_by_key(msg: Mail, key: str, referee: str) -> None:
    """Give a reply the Message-ID its key names (the answered mail's spool entry,
    itself named by that mail's Message-ID and content, and the reply's place).
    A reply made again after a power cut took the spool's copy of the first is
    then the same message to every mail program, never a second, different one.

    >>> from pbmref.mail.compose import TextMail
    >>> msg = TextMail([("Message-ID", "<random@x>")], "")
    >>> name_by_key(msg, "reply:abc:0", "Referee <ref@game.test>"); msg["Message-ID"]
    '<reply-3818ba13fe7cf285e042eb4e1cf4ca4f@game.test>'
    """
    digest = hashlib.sha256(key.encode()).hexdigest()[:32]
    domain = bare_address(referee).rpartition("@")[2] or "localhost"
    msg.replace_header("Message-ID", f"<reply-{digest}@{domain}>")


def with_pictures(mail: IncomingMail, body: str, attachments: Sequence[Attachment]
                  ) -> tuple[str | None, list[Attachment]]:
    """The HTML version of a reply (None without boards) and its attachments:
    each SVG board shown inline as a light PNG, and attached too: the player
    asked for the board (MAP, HISTORY n), once; the reports, which go to
    everyone every turn, carry no SVG."""
    boards = [(a.filename.removesuffix(".svg"), "the board", a.content.decode())
              for a in attachments if a.mimetype == "image/svg+xml"]
    if not boards:
        return None, list(attachments)
    files, shown = map_pictures(boards, svg=True)
    html = render_report_mail(Document.preformatted(body), title=mail.subject or "pbmref",
                              pictures=shown)
    return html, [*(a for a in attachments if a.mimetype != "image/svg+xml"), *files]


def answer(referee: Referee, letter: Letter, body: str, summary: str,
           changed: bool = False) -> HandledMail:
    """The one reply to an identified player's mail (saying so when the mail's
    press was not relayed)."""
    if letter.envelope.press and not letter.press_done:
        body = f"{body.rstrip()}\n\n{not_sent(len(letter.envelope.press))}"
    return HandledMail([referee.reply(letter.mail, letter.to, body, letter.attachments)],
                       summary, letter.game.id, changed)
