"""Mail transport: reading mail in (Maildir or IMAP), spooling it, sending mail out
(outbox Maildir or SMTP). Nothing here knows about games.

Typical use by the referee::

    intake, sender = open_intake(cfg), open_sender(cfg)
    inspool, outspool = open_spools(cfg)
    take_in(intake, inspool)                  # 1. save every new mail before anything else
    with inspool.lock():                      # one process works the spool at a time
        for entry in inspool.pending():       # oldest arrival first
            entry = inspool.begin(entry)      # 2. count the attempt (crash-proof)
            mail = read_message(entry.raw(), max_bytes=..., size=entry.size)
            ...                               # 3. change and save the game, enqueue replies
            finish(intake, inspool, entry)    # 4. spool done, then moved on the server
            # on an exception: inspool.failed(entry, reason) -> shunted after 3 tries
    outspool.enqueue(make_reply(...)); outspool.deliver(sender)   # sent once, with back-off
"""

from pbmref.mail.base import (
    Intake,
    IntakeError,
    MailError,
    PermanentFailure,
    RawMail,
    Sender,
    TemporaryFailure,
)
from pbmref.mail.compose import Attachment, clean_header, make_mail, make_reply, reply_subject
from pbmref.mail.factory import open_intake, open_sender, open_spools
from pbmref.mail.message import (
    LOOP_HEADER,
    IncomingMail,
    message_id_of,
    never_answer_reason,
    read_message,
)
from pbmref.mail.pump import TakeInReport, finish, set_aside, take_in
from pbmref.mail.spool import (
    DeliveryReport,
    IncomingSpool,
    InEntry,
    OutEntry,
    OutgoingSpool,
    SpoolBusy,
)

__all__ = [
    "LOOP_HEADER",
    "Attachment",
    "DeliveryReport",
    "InEntry",
    "IncomingMail",
    "IncomingSpool",
    "Intake",
    "IntakeError",
    "MailError",
    "OutEntry",
    "OutgoingSpool",
    "PermanentFailure",
    "RawMail",
    "Sender",
    "SpoolBusy",
    "TakeInReport",
    "TemporaryFailure",
    "clean_header",
    "make_mail",
    "make_reply",
    "message_id_of",
    "never_answer_reason",
    "open_intake",
    "open_sender",
    "open_spools",
    "read_message",
    "reply_subject",
    "finish",
    "set_aside",
    "take_in",
]
