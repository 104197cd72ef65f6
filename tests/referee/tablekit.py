"""A small game on the local Maildir default, and a way to mail the referee
(on the one harness, ``tests/refereekit.py``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from email.message import EmailMessage
from pathlib import Path

import pytest

from pbmref import gm
from pbmref.store import GameStore
from refereekit import REFEREE, T0, Clock, RefereeTable, body_of, maildir_config, parse

__all__ = ["REFEREE", "T0", "Clock", "Table", "body_of", "maildir_config", "parse", "table"]


@dataclass
class Table(RefereeTable):
    """A referee on a Maildir, one game ``zep1`` with three players."""

    passwords: dict[str, str] = field(default_factory=dict)

    def send(self, body: str, *, sender: str = "anna@example.org", subject: str = "orders",
             headers: dict[str, str] | None = None, arrived: datetime | None = None,
             message_id: str | None = None) -> list[EmailMessage]:
        """Deliver a mail to the inbox, let the referee take it in; the new outbox mail."""
        return self.send_raw(self.mail(body, sender=sender, subject=subject, headers=headers,
                                       arrived=arrived, message_id=message_id), arrived=arrived)

    def send_raw(self, raw: bytes, *, arrived: datetime | None = None) -> list[EmailMessage]:
        self.deliver(raw, arrived=arrived)
        self.take_in()
        return self.new_outbox()


@pytest.fixture
def table(tmp_path: Path) -> Table:
    config = maildir_config(tmp_path)
    clock = Clock(T0)
    store = GameStore(config.games_dir)
    players = [
        gm.PlayerSpec("anna", ("anna@example.org",), "Anna", airfield="N"),
        gm.PlayerSpec("bert", ("bert@example.org",), "Bert", airfield="SE"),
        gm.PlayerSpec("cora", ("cora@example.org",), "Cora", airfield="SW"),
    ]
    created = gm.new_game(store, "zep1", players, title="Zeppelin test", seed=11,
                          deadline=T0 + timedelta(hours=48), turn_length="48h",
                          early_adjudication=False, reminder_hours=12, now=T0)
    return Table.start(tmp_path, config, store, clock, passwords=created.passwords)
