"""Fixtures of the hardening tests.

``hard_servers``: one private Dovecot + SMTP relay (tests/integration/mailservers.py)
for the hardening tests, with mailboxes for the referee, the corpus players
(anna, bert, cora) and 120 soak players (p000..p119).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "integration"))

from mailservers import DOVECOT, MailServers, dovecot_available  # noqa: E402

SOAK_PLAYERS = [f"p{i:03d}" for i in range(120)]
USERS = ["referee", "anna", "bert", "cora", *SOAK_PLAYERS]


@pytest.fixture(scope="session")
def hard_servers() -> Iterator[MailServers]:
    if not dovecot_available():
        pytest.skip(f"{DOVECOT} is not installed (apt-get install dovecot-imapd dovecot-lmtpd)")
    if os.geteuid() != 0:
        pytest.skip("the private Dovecot needs root (it stores mail as uid 10000)")
    with MailServers(USERS, spare_users=10) as servers:
        yield servers
