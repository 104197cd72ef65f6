"""Durable spools for mail in and out (in the style of Mailman's queue runners).

Each entry is one file in the folder of its state, named by its id (an
incoming one's is the hash of its Message-ID). An outgoing one holds a line
of meta data (JSON) and the mail; an incoming one first a line of marks (a
dot a try, a plus once its replies are queued), written in place a byte at a
time, then the meta line and the mail as it came. A keyed outgoing mail's
marker in `keys/` is a second name of its entry's file, whose meta line
names the entry. An entry is written under another name in `tmp/`,
fsynced, then given its name in its state's folder: a crash leaves either
the whole entry or nothing. Moving an entry between states is one rename.
(One file an entry rather than a folder of files, issue 20: on a file
system that makes new files slowly under load, such as this machine's ext4
without a journal, each file made cost 0.5 ms a mail.) A spool names its
data format in ``format.yaml`` (``SPOOL_FORMAT``): opening one of an older
format brings it up to date, one of a newer format is refused, and so is one
of the layout before issue 20 (a folder an entry), which no release reads
since.

Incoming: `new/` (waiting) -> `done/` (handled) or `shunt/` (set aside with
its reason). Saving a mail whose
Message-ID and content are already in any of them is reported as a duplicate
and changes nothing; another mail under a Message-ID seen before is a mail of
its own (issue 15: a reused Message-ID silences nobody).

A mail is set aside only for what it does itself (issue 40). Each try is
counted before the mail is handled (``begin``) and ends when its handling is
over, its replies queued (``handled``), or when its handling raises
(``failed``): after ``max_attempts`` raises it is set aside. A try that
never ended means the process died while that very mail was being handled,
which an outside kill (a restart, the OOM killer taking the process for
another's sake, a reboot) does as well as a mail that kills it. Such a mail
(``interrupted``) is next handled alone, in a round of its own (its replies
sent and the mail marked handled before the next mail is begun), in its
place in the order of the mails; only when the process dies
``max_attempts`` times in a row while handling that mail alone is the mail
set aside (``pending``). Outside kills do not reach that bound: they would
have to fall that many times running into the milliseconds one mail's
handling takes, and a death anywhere else (sending, flushing, another
mail) is not counted against it. A mail that kills the process every time
reaches it after ``max_attempts`` restarts; the mails before it are answered
meanwhile.

Outgoing: `queue/` -> `sent/`, or `failed/` on a permanent failure or after
`give_up_after`. Each queued mail has its own next-attempt time (exponential
back-off, the first retry after a few seconds). A crash between a successful
send and the move to `sent/` can cause one duplicate, never a loss. One
delivery round sends over one connection where the sender has sessions, no
more than the pace allows (``pbmref.mail.pace``: a provider's limits a
minute and a day); the rest stays queued. A mail is flattened once, when it
is queued: what is sent is the bytes the entry holds (``Outgoing``), never
parsed back nor written anew (issue 43).

What is kept, and for how long (issue 15): only what a retry needs. A handled
mail keeps only its meta data (which recognises it if it comes again) and
its marks, a sent one its meta data, whose file's time says when it went:
the mail itself is cut off the entry when it is done or sent (a mail that
carries a password, such as a new password for a player, also when it fails
for good). `prune(older_than)` deletes what is left once it is older than the
referee's retention (`limits.spool_retention`): done and sent records,
shunted and failed mails; and what a process killed while writing an entry
left in `tmp/`, which nobody reads, once nobody can still be writing it (an
hour; a reply held for a delivery round after `give_up_after`). Everything
is readable by the referee's user (and group) only.

What must survive a power cut is flushed to disk (the raw mail when the
intake will not hand it out again, a queued reply, a shunted mail); moves
between states and marks are not: a power cut may undo such a move, and the
work is done again, keyed against doing it twice. Inside a
``pbmref.base.files.durable_together`` block the flushes wait for the
block's end, and a queued mail joins `queue/` only then.

Queued mails that are sent at once need no copy on disk (issue 20). Inside
``OutgoingSpool.holding()`` a queued mail is written but not flushed, and
waits in `tmp/`, where nobody else looks, for the ``deliver()`` inside the
same hold; the mails it sends go from `tmp/` to `sent/`, and on leaving the
hold the rest (a send failed or was deferred, or another process was
delivering) are flushed -- entry and key markers -- and join `queue/`, which
is flushed too. Whoever marks the mails these answer handled does so only
after the hold: by then each reply is with the server (SMTP accepted it, or
it is flushed into the outbox Maildir before its move to `sent/`, as always)
or on disk in `queue/`. If the referee dies in the hold, or the power goes
before its flush is over, nothing is marked handled yet and the mails are
handled again: a reply whose key marker names a held entry left whole in
`tmp/` (the referee was killed) is taken over, the very same mail; one whose
entry was lost or torn (a power cut) is made anew (the referee names a reply
by its key, so it is the same message again, with the same Message-ID); one
recorded in `sent/` is not queued again (a reply sent whose move to `sent/`
was not made, or not kept, goes twice: the duplicate the spool allows, the
same message twice). A held mail never joins `queue/` before it is on disk,
so no entry there is ever missing its message after a power cut.
"""

from __future__ import annotations

from pbmref.mail.spool.entries import SpoolBusy, SpoolFormatError
from pbmref.mail.spool.incoming import IncomingSpool, InEntry
from pbmref.mail.spool.outgoing import DeliveryReport, OutEntry, OutgoingSpool

__all__ = [
    "DeliveryReport",
    "InEntry",
    "IncomingSpool",
    "OutEntry",
    "OutgoingSpool",
    "SpoolBusy",
    "SpoolFormatError",
]
