"""Session fixture `mailservers`: one private Dovecot + SMTP relay for all integration tests.

Use from any test file under tests/integration/::

    import pytest
    pytestmark = pytest.mark.integration

    def test_x(mailservers):
        user = mailservers.fresh_user("ref")      # an empty mailbox of your own
        mailservers.send(..., [mailservers.address(user)], raw)

Preset users: referee, gm, player1..player6 (password: mailservers.password(user)).
Tests that break the servers (kill_imap, stop_smtp) must bring them back before
returning; the `servers_up` fixture does that for you afterwards.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from mailservers import DOVECOT, MailServers, dovecot_available

PRESET_USERS = ["referee", "gm"] + [f"player{i}" for i in range(1, 7)]


@pytest.fixture(scope="session")
def mailservers() -> Iterator[MailServers]:
    if not dovecot_available():
        pytest.skip(f"{DOVECOT} is not installed (apt-get install dovecot-imapd dovecot-lmtpd)")
    if os.geteuid() != 0:
        pytest.skip("the private Dovecot needs root (it stores mail as uid 10000)")
    with MailServers(PRESET_USERS) as servers:
        yield servers


@pytest.fixture
def servers_up(mailservers: MailServers) -> Iterator[MailServers]:
    """The session servers, restarted after the test if it stopped one of them."""
    yield mailservers
    mailservers.start_imap()
    mailservers.start_smtp()
