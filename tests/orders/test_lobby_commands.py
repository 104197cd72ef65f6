"""The lobby's and the judge's commands read by the envelope (lobby_commands.yaml)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from pbmref.orders.envelope import scan_order_mail

CASES: list[dict[str, Any]] = yaml.safe_load(
    (Path(__file__).parent / "lobby_commands.yaml").read_text(encoding="utf-8"))
READ = [c for c in CASES if "commands" in c]
REFUSED = [c for c in CASES if "errors" in c]


def test_the_table_has_both_kinds() -> None:
    assert len(READ) >= 10 and len(REFUSED) >= 8
    assert len({c["name"] for c in CASES}) == len(CASES)


@pytest.mark.parametrize("case", READ, ids=[c["name"] for c in READ])
def test_read(case: dict[str, Any]) -> None:
    mail, errors = scan_order_mail("", case["text"])
    assert errors == []
    assert [c.format() for c in mail.commands] == case["commands"]


@pytest.mark.parametrize("case", REFUSED, ids=[c["name"] for c in REFUSED])
def test_refused_with_every_mistake(case: dict[str, Any]) -> None:
    mail, errors = scan_order_mail("", case["text"])
    got = [(e.line_no, e.message, e.hint or "") for e in errors]
    assert len(errors) == len(case["errors"]), got
    for want in case["errors"]:
        assert any(line == want["line"] and want["message"] in message
                   and want.get("fix", "") in hint for line, message, hint in got), (want, got)
    assert mail.commands == ()  # a command with a mistake is not read
