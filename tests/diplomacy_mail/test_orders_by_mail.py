"""Issue 10: Diplomacy orders by mail (orders.md "Diplomacy body", DD1-DD3).

Standard notation is read, bad mails change nothing and say why (line,
caret, plain words), good ones are confirmed with the orders in force,
PHASE is checked against the open phase, and orders stay secret until the
phase is adjudicated.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from dipkit import PLAYERS, DipTable, address, body_of, make_table, svg_of, svgs_of


@pytest.fixture
def dip(tmp_path: Path) -> DipTable:
    return make_table(tmp_path, ruleset="diplomacy")


def test_new_game_gives_each_player_a_power_and_the_dd4_opening(dip: DipTable) -> None:
    game = dip.game()
    assert game.position["players"] == PLAYERS
    assert game.position["phase"] == "S1901M"
    assert sum(len(v) for v in game.position["units"].values()) == 22  # DD4
    assert set(dip.passwords) == set(PLAYERS)


def test_good_orders_are_confirmed_with_the_orders_in_force(dip: DipTable) -> None:
    text = dip.reply("fleur", "A Par - Bur", "f bre - mid-atlantic ocean",
                     "A Mar S A Par - Bur", phase="S1901M")
    assert "phase S1901M: your orders are accepted" in text
    assert "A Par - Bur\n  F Bre - Mao\n  A Mar S A Par - Bur" in text
    assert "Deadline: Mon 2 Mar 2026 12:00 UTC" in text
    assert dip.game().book.entries()["fleur"] == {
        "orders": ["A Par - Bur", "F Bre - Mao", "A Mar S A Par - Bur"]}


def test_support_and_convoy_notation(dip: DipTable) -> None:
    text = dip.reply("edith", "F Lon - Nth", "F Edi - Nwg", "A Lvp - Yor")
    assert "accepted" in text
    dip.deadline()
    assert dip.phase() == "F1901M"  # DD1: no retreats, no Winter in Spring
    text = dip.reply("edith", "A Yor - Nwy via convoy", "F Nth C A Yor - Nwy",
                     "F Nwg S F Nth")
    assert "accepted" in text and "F Nth C A Yor - Nwy" in text


def test_a_bad_order_rejects_the_whole_mail_and_changes_nothing(dip: DipTable) -> None:
    dip.reply("fleur", "A Par - Bur")
    text = dip.reply("fleur", "A Par - Pic", "A Mar - Mos")
    assert "NOT accepted" in text and "Nothing was changed" in text
    assert "Line 4:" in text and "A Mar - Mos" in text  # GAME, PASSWORD, then the orders
    caret = text.splitlines()[text.splitlines().index("    A Mar - Mos") + 1]
    assert caret.strip() == "^^^" and caret.index("^") == len("    A Mar - ")
    assert "Mos is not next to Mar" in text
    assert "earlier orders stay in force" in text and "A Par - Bur" in text
    assert dip.game().book.entries()["fleur"] == {"orders": ["A Par - Bur"]}


def test_ordering_another_powers_unit_is_refused(dip: DipTable) -> None:
    text = dip.reply("fleur", "A Mun - Bur")
    assert "NOT accepted" in text
    assert "fleur" not in dip.game().book.entries()


def test_a_wrong_phase_is_stale_and_refused(dip: DipTable) -> None:
    text = dip.reply("fleur", "A Par - Bur", phase="F1901M")
    assert "phase F1901M, but phase S1901M is open" in text
    assert "PHASE S1901M" in text
    assert dip.game().book.entries() == {}


def test_help_status_and_map_speak_diplomacy(dip: DipTable) -> None:
    text = dip.reply("tarik", "HELP")
    assert "Build F StP/sc" in text and "PLANE" not in text
    # plain Diplomacy never speaks of dirigibles (issue 43, item 3); Dirigible
    # Diplomacy's HELP does (DD8, DD10)
    assert "irigib" not in text and "D Mun devastate" not in text and "Build D" not in text
    from pbmref.rulesets import get_ruleset

    assert "D Mun devastate" in get_ruleset("dirigible").words.help
    dip.reply("fleur", "A Par - Bur")
    status = dip.reply("tarik", "STATUS")
    assert "Phase S1901M is open" in status
    assert "Bur" not in status  # who has sent orders, never what
    board = dip.reply("tarik", "MAP")
    assert "S1901M" in board and "TUR: A Con, A Smy, F Ank" in board


def test_the_map_reply_carries_the_board_picture(dip: DipTable) -> None:
    dip.reply("fleur", "A Par - Bur")  # orders are secret: the picture shows the board only
    (reply,) = dip.send("tarik", "MAP")
    pictures = svgs_of(reply)
    assert list(pictures) == ["dip1-map-S1901M.svg"]
    svg = pictures["dip1-map-S1901M.svg"]
    assert svg.count('class="unit"') == 22 and 'data-order=' not in svg
    assert "Spring 1901 movement: the board" in svg
    (plain,) = dip.send("tarik", "STATUS")
    assert svgs_of(plain) == {}  # only MAP carries it


def test_clear_and_orders_commands(dip: DipTable) -> None:
    dip.reply("fleur", "A Par - Bur")
    assert "A Par - Bur" in dip.reply("fleur", "ORDERS")
    text = dip.reply("fleur", "CLEAR")
    assert "withdrawn" in text and "units hold" in text
    assert "fleur" not in dip.game().book.entries()
    assert "without orders your units hold, DD3" in dip.reply("fleur", "ORDERS")


def test_reports_go_to_every_player_with_the_board_and_reveal_orders(dip: DipTable) -> None:
    dip.reply("fleur", "A Par - Bur", "A Mar S A Par - Bur", "F Bre - Mao")
    dip.reply("gustav", "A Mun - Bur")
    mails = dip.deadline()
    assert dip.due is not None and [r.turn for r in dip.due.adjudicated] == [1]
    assert sorted(m["To"] for m in mails) == sorted(address(p) for p in PLAYERS)
    for m in mails:
        assert m["Subject"] == "[dip1] S1901M report"
        svg = svg_of(m, game=dip.game())
        assert svg is not None and 'data-unit="A Bur"' in svg
    text = body_of(mails[0])
    assert "report of S1901M (Spring 1901 movement)" in text
    assert "Next: F1901M (Fall 1901 movement)" in text
    assert "A Par - Bur - succeeds" in text
    assert "A Mun - Bur - fails: bounced" in text  # France's support wins Burgundy
    assert "A Mar S A Par - Bur - succeeds" in text  # DD2a: neither cut nor void
    assert "Austria (AUS, Anton): no orders: every unit holds (DD3)" in text
    assert dip.phase() == "F1901M"


def test_a_late_mail_for_an_adjudicated_phase(dip: DipTable) -> None:
    dip.deadline()
    text = dip.reply("fleur", "A Par - Bur", phase="S1901M")
    assert "phase S1901M, but phase F1901M is open" in text


def test_a_turn_number_in_a_diplomacy_mail_is_refused(dip: DipTable) -> None:
    out = dip.send("fleur", "TURN 1", "A Par - Bur")
    text = body_of(out[0])
    assert "your mail is for turn 1, but phase S1901M is open" in text
    assert dip.game().book.entries() == {}


def test_the_reminder_names_the_phase_and_dd3(dip: DipTable) -> None:
    from datetime import timedelta

    from pbmref.referee.turns import send_reminders

    dip.game().change_settings({"reminder_hours": 6})
    dip.reply("fleur", "A Par - Bur")
    dip.clock.now = dip.game().settings.deadline - timedelta(hours=2)
    assert send_reminders(dip.referee) == len(PLAYERS) - 1
    dip.referee.deliver(force=True)
    mails = dip.new_outbox()
    assert address("fleur") not in [m["To"] for m in mails]
    assert mails[0]["Subject"] == "[dip1] reminder: orders for phase S1901M"
    assert "your units hold" in body_of(mails[0]) and "DD3" in body_of(mails[0])


def test_dd1_no_winter_when_nobody_may_adjust(dip: DipTable) -> None:
    dip.deadline()  # nobody sent orders: every unit holds (DD3)
    assert dip.phase() == "F1901M"
    mails = dip.deadline()
    assert dip.phase() == "S1902M"  # no captures, no builds: no W1901A (DD1)
    assert "Next: S1902M (Spring 1902 movement)" in body_of(mails[0])


def test_dd1_a_capture_in_the_fall_opens_the_winter_builds(dip: DipTable) -> None:
    dip.reply("fleur", "A Mar - Spa", phase="S1901M")
    dip.deadline()
    mails = dip.deadline()
    text = body_of(mails[0])
    assert "FRA takes Spa" in text and "Next: W1901A (Winter 1901 adjustments)" in text
    assert dip.phase() == "W1901A"
    refused = dip.reply("fleur", "Build A Spa")  # not a home centre
    assert "NOT accepted" in refused
    assert "accepted" in dip.reply("fleur", "Build A Mar", phase="W1901A")
    text = body_of(dip.deadline()[0])
    assert "Build A Mar - succeeds" in text and "FRA builds A Mar" in text
    assert dip.phase() == "S1902M"
    assert "A Mar" in dip.game().position["units"]["FRA"]
