"""The order-mail table (mails.yaml): whole mails, accepted or rejected."""

from __future__ import annotations

from typing import Any

import pytest

from pbmref.orders.check import check_order_mail
from pbmref.orders.errors import OrderMailError
from pbmref.orders.render import render_errors

from .conftest import POSITIONS, load_yaml, reader

MAILS: list[dict[str, Any]] = load_yaml("mails.yaml")


def _check(case: dict[str, Any]) -> Any:
    name = case.get("position", "zep1")
    position = POSITIONS[name]
    kwargs: dict[str, Any] = {
        "read_body": reader(name),
        "open_turn": case.get("open_turn", position["turn"]),
        "game_id": case.get("game_id", "zep1" if "position" not in case else None),
    }
    player = case.get("player", "baron")
    if player is not None:
        kwargs["player"] = player
    if "sender" in case:
        kwargs["sender"] = case["sender"]
        kwargs["addresses"] = case["addresses"]
    if "password" in case:
        secret = case["password"]
        kwargs["verify_password"] = lambda who, pw: pw == secret
    return check_order_mail(case.get("subject", ""), case["text"], **kwargs)


def test_the_table_is_big_enough() -> None:
    accepted = [c for c in MAILS if "ok" in c]
    rejected = [c for c in MAILS if "errors" in c]
    assert len(MAILS) >= 60 and len(accepted) >= 25 and len(rejected) >= 25
    assert len({c["name"] for c in MAILS}) == len(MAILS)


@pytest.mark.parametrize("case", [c for c in MAILS if "ok" in c],
                         ids=[c["name"] for c in MAILS if "ok" in c])
def test_accepted_mail(case: dict[str, Any]) -> None:
    checked = _check(case)
    want = case["ok"]
    if "entry" in want:
        assert checked.entry == want["entry"]
    mail = checked.mail
    if "game" in want:
        assert mail.game_id == want["game"]
    if "game_from" in want:
        assert mail.game_from == want["game_from"]
    if "note" in want:
        assert mail.game_note is not None and want["note"] in mail.game_note
    else:
        assert mail.game_note is None
    if "turn" in want:
        assert mail.turn == want["turn"]
    if "pilot" in want:
        assert mail.pilot == want["pilot"]
    assert [c.format() for c in mail.commands] == want.get("commands", [])
    assert [n for n, _ in checked.ignored] == want.get("ignored", [])


@pytest.mark.parametrize("case", [c for c in MAILS if "errors" in c],
                         ids=[c["name"] for c in MAILS if "errors" in c])
def test_rejected_mail(case: dict[str, Any]) -> None:
    with pytest.raises(OrderMailError) as info:
        _check(case)
    got = list(info.value.errors)
    wanted = case["errors"]
    described = [(e.rule, e.line_no, e.message) for e in got]
    assert len(got) == len(wanted), described
    for want in wanted:
        assert any(e.rule == want["rule"] and want["message"] in e.message
                   and e.line_no == want["line"] for e in got), (want, described)
    # The reply names every error's line and shows the line itself.
    reply = render_errors(info.value)
    for e in got:
        if e.line_no is not None:
            assert f"Line {e.line_no}:" in reply
            assert e.line is not None and e.line.rstrip() in reply
