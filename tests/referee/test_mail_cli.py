"""`pbmref mail shunted` and `pbmref mail retry`: a mail set aside is not lost."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from tablekit import Table, body_of

from pbmref.cli import main


def test_a_shunted_mail_is_listed_and_retried(table: Table, tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "config.yaml"
    config.write_text(yaml.safe_dump({
        "games_dir": str(table.store.dir), "spool_dir": str(table.root / "spool"),
        "referee": {"address": "referee@test.invalid"},
        "mail": {"mode": "maildir", "maildir": {"inbox": str(table.root / "inbox"),
                                                "outbox": str(table.root / "outbox")}}}))
    original = type(table.referee).handle

    def boom(*args: object, **kwargs: object) -> None:
        raise RuntimeError("simulated fault")

    monkeypatch.setattr(type(table.referee), "handle", boom)
    body = (f"GAME zep1\nPASSWORD {table.passwords['anna']}\nPLANE\nTAKEOFF BETA\n"
            "1: A\n2: A\n3: A\n")
    table.send(body)
    for _ in range(3):
        table.referee.process_spool()
    # issue 44, item 7: status shows the referee's health, the set-aside mail too
    assert main(["status", "--config", str(config)]) == 0
    status = capsys.readouterr().out
    assert "referee: last good round " in status
    assert "referee: 1 incoming mail(s) set aside after a fault (pbmref mail shunted)" in status
    assert main(["mail", "shunted", "--config", str(config)]) == 0
    listed = capsys.readouterr().out.split()
    assert "simulated" in listed
    monkeypatch.setattr(type(table.referee), "handle", original)  # the GM fixed the cause
    assert main(["mail", "retry", listed[0], "--config", str(config)]) == 0
    assert "handled 1 mail(s)" in capsys.readouterr().out
    assert table.game().book.entries()["anna"]["plane"] == ["A", "A", "A"]
    replies = [m for m in table.new_outbox() if "accepted" in body_of(m)]
    assert len(replies) == 1
