"""Whether a mail counts as another of the same second for the orders in force.

Two mails of one player that reach the server in the same second are applied
in the order they were sent; the reply to each says which orders are in force
(``replies.same_second``). That matters only when the other mail can change
the orders: a mail of commands that only show something (HELP, STATUS, MAP,
ORDERS, HISTORY, PLAN), with no order line, changes nothing, so its twin's
reply says nothing of it, whether the mails carry a Date: header or not
(issue 46).
"""

from __future__ import annotations

from pbmref.mail.message import read_message
from pbmref.mail.spool import InEntry
from pbmref.orders.envelope import scan_order_mail

__all__ = ["changes_orders"]

# the commands that show and change nothing of a player's orders
SHOWING = frozenset({"HELP", "STATUS", "MAP", "ORDERS", "HISTORY", "PLAN"})


def changes_orders(entry: InEntry) -> bool:
    """Whether the spooled mail may change its sender's orders: it has order
    lines, a command beyond those that only show, or cannot be read (then it
    counts, as before)."""
    raw = entry.raw()
    if not raw:
        return True
    mail = read_message(raw, size=entry.size)
    if mail.oversized or mail.unread:
        return True
    envelope, errors = scan_order_mail(mail.subject, mail.text)
    if errors or envelope.has_orders:
        return True
    return not envelope.commands or any(c.name not in SHOWING for c in envelope.commands)
