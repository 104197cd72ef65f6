"""Reading press blocks out of a mail (issue 18): the table press_mails.yaml."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from pbmref.orders.envelope import read_order_mail, scan_order_mail
from pbmref.orders.errors import OrderMailError

CASES: list[dict[str, Any]] = yaml.safe_load(
    (Path(__file__).parent / "press_mails.yaml").read_text(encoding="utf-8"))


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_press_blocks(case: dict[str, Any]) -> None:
    mail = read_order_mail("orders", case["text"])
    got = []
    for block in mail.press:
        if block.problem is not None:
            got.append([list(block.receivers), block.grey, None])
            assert case["press"][len(got) - 1][3] in block.problem.message
            assert block.problem.line_no == block.line_no
        else:
            got.append([list(block.receivers), block.grey, block.text])
    assert got == [p[:3] for p in case["press"]]
    assert [n for n, _ in mail.body] == case["body"]
    assert [c.format() for c in mail.commands] == case.get("commands", [])


def test_a_press_block_is_never_read_as_orders() -> None:
    mail = read_order_mail("orders", "PRESS TO ENG\nA Par - Bur\nF Bre - Mao\n")
    assert mail.body == ()
    assert mail.press[0].text == "A Par - Bur\nF Bre - Mao"


def test_concede_needs_a_power() -> None:
    _, errors = scan_order_mail("orders", "CONCEDE\nCONCEDE TO\n")
    assert [e.line_no for e in errors] == [1, 2]
    assert all("CONCEDE needs the power you concede to" in e.message for e in errors)
    with pytest.raises(OrderMailError):
        read_order_mail("orders", "CONCEDE TO\n")


def test_receivers_keep_their_columns_for_the_caret() -> None:
    block = read_order_mail("orders", "PRESS TO ENG  XYZ\nHi\n").press[0]
    error = block.error("nobody called XYZ", receiver="XYZ")
    assert error.caret() == "PRESS TO ENG  XYZ\n              ^^^"
