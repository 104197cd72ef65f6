"""One form for every mail address the referee compares: the one it sends to.

A local part in quotes names the same mailbox as the bare word it quotes
(RFC 5322 3.2.4: a quoted-string is, semantically, the atom it holds):
``"anna"@example.org`` is ``anna@example.org``, and the mail library writes
it so in every header the referee sends. An address read in any other form
than that one would be told apart from itself: the referee would take
``"anna"@example.org`` for a stranger and then mail its note for strangers
to ``anna@example.org``, a player's registered address (issue 40).

``mailbox`` gives the form the mail library writes. A quoted local part
that holds more than a plain word (``"anna@example.org"@evil.test``) stays
quoted: it is another mailbox. An address with quotes that cannot be read
as RFC 5322 writes addresses is no address at all (``""``): nothing is
sent to it, and it matches no one.
"""

from __future__ import annotations

from email.errors import MessageError
from email.headerregistry import Address

__all__ = ["mailbox"]


def mailbox(address: str) -> str:
    """``address`` as the mail the referee sends writes it; ``""`` when it
    cannot be written. An address without quotes is given back as it is.

    >>> mailbox('"anna"@example.org'), mailbox('"Anna"@Example.org')
    ('anna@example.org', 'Anna@Example.org')
    >>> mailbox('"anna@example.org"@evil.test')
    '"anna@example.org"@evil.test'
    >>> mailbox('"anna"@example.org.'), mailbox('""@example.org')
    ('', '')
    >>> mailbox("anna@example.org")
    'anna@example.org'
    """
    if '"' not in address:
        return address
    try:
        written = Address(addr_spec=address).addr_spec
    except (ValueError, MessageError):  # the library's defects are ValueErrors
        return ""
    local, _, domain = written.rpartition("@")
    return written if local and domain else ""
