"""Who the turn waits for (issue 46, item 8): STATUS by mail lists computer
powers as computer and names who the turn waits for; a player with nothing
to order in the open phase is neither waiting nor told to send orders; a mail
without a Date: header beside a HELP of the same second gets no paragraph
about which orders are in force."""

from __future__ import annotations

import os
import time
from pathlib import Path

import yaml
from gmkit import House, text_of

DIP2 = ("new-game", "dip2", "--ruleset", "diplomacy",
        "--player", "fleur:fleur@example.org:Fleur:FRA",
        "--player", "edith:edith@example.org:Edith:ENG", "--computer-powers")
TAKEOFF = "PLANE\nTAKEOFF BETA\n1: A\n2: A\n3: A"
SAME_SECOND = "reached the server in the same"


def _same_second(house: House) -> None:
    """Every mail in the inbox arrived in one second (the Maildir's file times)."""
    at = int(time.time()) - 5
    for path in (house.root / "mail" / "inbox" / "new").iterdir():
        os.utime(path, (at, at))


def _reply_to(house: House, words: str) -> str:
    texts = [text_of(m) for m in house.outbox()]
    found = [t for t in texts if words in t]
    assert found, texts
    return found[-1]


def test_a_help_in_the_same_second_is_no_twin_of_an_order_mail(house: House) -> None:
    house.new_game()
    house.mail("anna@example.org", "[zep1] HELP", "HELP")
    house.mail("anna@example.org", "[zep1] orders",
               f"PASSWORD {house.passwords['anna']}\n{TAKEOFF}")
    _same_second(house)
    assert house.run("serve", "--once", "--quiet").code == 0
    orders = _reply_to(house, "accepted")
    assert SAME_SECOND not in orders, orders  # the HELP changes no orders


def test_two_order_mails_in_the_same_second_still_say_which_is_in_force(house: House) -> None:
    house.new_game()
    house.mail("anna@example.org", "[zep1] orders",
               f"PASSWORD {house.passwords['anna']}\n{TAKEOFF}")
    house.mail("anna@example.org", "[zep1] orders",
               f"PASSWORD {house.passwords['anna']}\n{TAKEOFF.replace('3: A', '3: L')}")
    _same_second(house)
    assert house.run("serve", "--once", "--quiet").code == 0
    assert all(SAME_SECOND in text_of(m) for m in house.outbox()), \
        [text_of(m) for m in house.outbox()]


def test_status_by_mail_names_computers_and_who_the_turn_waits_for(house: House) -> None:
    house.new_game(*DIP2)
    house.mail("fleur@example.org", "[dip2] STATUS", "STATUS")
    assert house.run("serve", "--once", "--quiet").code == 0
    status = _reply_to(house, "Phase S1901M is open")
    rows = [line.split() for line in status.splitlines() if line.startswith("   ")]
    assert sum(1 for r in rows if r[-1] == "computer") == 5, status
    assert sum(1 for r in rows if r[-1] == "waiting") == 2, status
    assert "Waiting for Edith and Fleur." in status, status


def test_a_player_with_nothing_to_order_is_not_waited_for(house: House) -> None:
    house.new_game(*DIP2)
    game_dir = house.root / "games" / "dip2"
    _edith_has_nothing_to_order(game_dir)
    status = house.run("status", "dip2").out
    assert "edith" in status
    edith = next(line for line in status.splitlines() if line.split()[0] == "edith")
    assert edith.split()[-3:] == ["nothing", "to", "order"], status
    house.mail("fleur@example.org", "[dip2] STATUS", "STATUS")
    assert house.run("serve", "--once", "--quiet").code == 0
    by_mail = _reply_to(house, "Phase S1901M is open")
    assert "Waiting for Fleur." in by_mail, by_mail
    assert "nothing to order" in by_mail, by_mail


def _edith_has_nothing_to_order(game_dir: Path) -> None:
    """England's units taken off the board by hand (a GM's edit)."""
    turn = game_dir / "turns" / "001"
    position = turn / "position.yaml"
    assert position.is_file(), sorted(p.name for p in turn.iterdir())
    text = position.read_text()
    data = yaml.safe_load(text)
    units = data["units"]
    kept = {k: v for k, v in units.items() if k != "ENG"} if isinstance(units, dict) else \
        [u for u in units if "ENG" not in str(u)]
    data["units"] = kept
    position.write_text(yaml.safe_dump(data, sort_keys=False))


def test_a_phase_is_played_once_those_who_must_order_have(house: House) -> None:
    house.new_game(*DIP2)
    _edith_has_nothing_to_order(house.root / "games" / "dip2")
    house.mail("fleur@example.org", "[dip2] orders",
               f"PASSWORD {house.passwords['fleur']}\nA Par H\nA Mar H\nF Bre H")
    ran = house.run("serve", "--once", "--quiet")
    assert "adjudicated 1 turn(s)" in ran.out, ran  # Edith is not waited for
    reports = [text_of(m) for m in house.outbox() if m["To"] and "edith" in m["To"]]
    assert reports, [m["Subject"] for m in house.outbox()]
