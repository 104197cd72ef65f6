"""The acceptance shows the preview (issue 22), mailed through the whole pipeline.

The table (preview_mails.yaml) mails orders to games of every kind and reads
the replies: the preview stands between the orders in force and the
deadline, every warning starts a line of its own, no line is wider than 70
columns, and PLAN answers the same preview again. Nothing of another
player's orders reaches a preview: the same mail gets the same reply
whatever the other player has ordered.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
import yaml
from tablekit import T0, Table, body_of

from pbmref import gm

CASES: list[dict[str, Any]] = yaml.safe_load(
    (Path(__file__).parent / "preview_mails.yaml").read_text(encoding="utf-8"))


def make_game(table: Table, case: dict[str, Any], game_id: str = "sky1") -> dict[str, str]:
    """The case's game beside the table's; the players' passwords."""
    players = case["players"]
    powers = players if isinstance(players, dict) else {p: None for p in players}
    specs = [gm.PlayerSpec(pid, (f"{pid}@example.org",), pid.title(), power=power)
             for pid, power in powers.items()]
    position = None
    if case["position"] is not None:
        position = {"ruleset": case["ruleset"], "turn": 1, **case["position"]}
    created = gm.new_game(table.store, game_id, specs, ruleset=case["ruleset"],
                          position=position, seed=3, zeppelin=None,
                          deadline=T0 + timedelta(hours=48), now=T0)
    return created.passwords


def mail(game_id: str, password: str, body: str) -> str:
    return f"GAME {game_id}\nPASSWORD {password}\n{body.rstrip()}\nEND\n"


def preview_of(reply: str) -> list[str]:
    """The lines between the orders in force and the deadline."""
    lines = reply.splitlines()
    start = next(i for i, line in enumerate(lines)
                 if line == "Your orders in force now:" or "previewed (PLAN)" in line)
    rest = lines[start + 1:]
    first = next(i for i, line in enumerate(rest) if not line.startswith("  "))
    block = rest[first:rest.index(next(x for x in rest if x.startswith("Deadline:")))]
    return [line for line in block if line]


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_acceptance_shows_the_preview(table: Table, case: dict[str, Any]) -> None:
    passwords = make_game(table, case)
    player = case["player"]
    out = table.send(mail("sky1", passwords[player], case["mail"]),
                     sender=f"{player}@example.org")
    assert len(out) == 1
    reply = body_of(out[0])
    if "refused" in case:
        assert "NOT accepted" in reply and case["refused"] in " ".join(reply.split())
        assert "Your path if nothing else happens" not in reply
        assert table.store.open("sky1").book.entries() == {}
        return
    assert "your orders are accepted" in reply
    assert all(len(line) <= 70 for line in reply.splitlines()), reply
    shown = preview_of(reply)
    if "preview" in case:
        assert shown == case["preview"], reply
    warnings = [line for line in shown if line.startswith(("Warning (", "Note ("))]
    assert len(warnings) == case["warnings"], reply
    # PLAN: the orders in force, previewed again, the same lines.
    again = body_of(table.send(mail("sky1", passwords[player], "PLAN"),
                               sender=f"{player}@example.org")[0])
    assert "previewed (PLAN)" in again
    assert preview_of(again) == shown
    assert table.store.open("sky1").book.entries()[player]  # PLAN changed nothing


def test_plan_without_orders_previews_what_happens_without_them(table: Table) -> None:
    reply = body_of(table.send(mail("zep1", table.passwords["anna"], "PLAN"))[0])
    assert "previewed (PLAN)" in reply and "(none yet" in reply
    assert "No PLANE orders: your aircraft stays landed (N1)." in reply
    assert table.game().book.entries() == {}


def test_the_preview_is_the_same_whatever_the_other_player_ordered(table: Table) -> None:
    """Two copies of one game; the other pilot orders differently in each."""
    case = CASES[0]
    replies = []
    for game_id, others in (("sky1", "PLANE\n1: A\n2: A\n3: A"),
                            ("sky2", "PLANE\n1: L f-A\n2: LS f-R\n3: R f-L")):
        passwords = make_game(table, case, game_id)
        table.send(mail(game_id, passwords["bert"], others), sender="bert@example.org")
        out = table.send(mail(game_id, passwords["anna"], case["mail"]),
                         sender="anna@example.org")
        replies.append(preview_of(body_of(out[0])))
    assert replies[0] == replies[1] == case["preview"]


def test_a_refused_mail_shows_no_preview_of_the_refused_orders(table: Table) -> None:
    good = "PLANE\nTAKEOFF BETA\n1: A\n2: A\n3: L"
    table.send(mail("zep1", table.passwords["anna"], good))
    reply = body_of(table.send(mail("zep1", table.passwords["anna"],
                                    "PLANE\nTAKEOFF BETA\n1: A\n2: 0\n3: A"))[0])
    assert "NOT accepted" in reply
    assert "Your path if nothing else happens" not in reply
