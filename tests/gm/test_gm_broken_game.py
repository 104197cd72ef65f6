"""A broken game file is the game master's to hear about (issue 46, item 4).

With a syntax error in a game's game.yaml a player's mail is kept, and the
reply says so plainly (no "send it again"); the game master gets one notice
naming the file and the line, however many mails come; once the file is
repaired the next round handles the kept mail and answers it."""

from __future__ import annotations

import re

import yaml
from gmkit import House, text_of

TAKEOFF = "PLANE\nTAKEOFF BETA\n1: A\n2: A\n3: A"
GM = "gm@example.org"


def _config(house: House) -> None:
    (house.root / "config.yaml").write_text(yaml.safe_dump({
        "referee": {"address": "referee@example.org", "game_master": GM}}))


def test_a_broken_game_keeps_the_mail_tells_the_gm_once_and_answers_after_repair(
        house: House) -> None:
    _config(house)
    house.new_game()
    game_file = house.root / "games" / "zep1" / "game.yaml"
    good = game_file.read_text()
    game_file.write_text(good.replace("status: open", "status: [open"))
    house.mail("anna@example.org", "[zep1] orders",
               f"PASSWORD {house.passwords['anna']}\n{TAKEOFF}")
    house.mail("bert@example.org", "[zep1] STATUS", "STATUS")
    assert house.run("serve", "--once", "--quiet").code == 0
    mails = house.outbox()
    to_gm = [m for m in mails if m["To"] == GM]
    assert len(to_gm) == 1, [m["Subject"] for m in mails]  # one notice for two mails
    notice = text_of(to_gm[0])
    assert re.search(r"games/zep1/game\.yaml, line \d+: a list opened", notice), notice
    to_anna = [text_of(m) for m in mails if "anna@" in str(m["To"]) and "welcome" not in m["Subject"]]
    assert len(to_anna) == 1
    assert "please send it again" not in to_anna[0], to_anna[0]
    assert "kept" in to_anna[0] and "need not send it again" in to_anna[0], to_anna[0]

    house.mail("bert@example.org", "[zep1] HELP", "HELP")
    assert house.run("serve", "--once", "--quiet").code == 0
    assert len([m for m in house.outbox() if m["To"] == GM]) == 1  # still one

    game_file.write_text(good)  # the GM repairs it
    before = len(house.outbox())
    ran = house.run("serve", "--once", "--quiet")
    assert ran.code == 0, ran
    after = house.outbox()[before:]
    answered = [text_of(m) for m in after if "anna@" in str(m["To"])]
    assert any("accepted" in t for t in answered), [m["Subject"] for m in after]
    status = house.run("status", "zep1").out
    anna = next(row for row in status.splitlines() if row.split()[:1] == ["anna"])
    assert "orders in" in anna, status
    again = house.run("serve", "--once", "--quiet")  # handled once, not at each round
    assert "no mail" in again.out, again
