"""A corrected report tells the truth (issue 46, item 3): ``rerun --mail``
after the game master extended the deadline carries the deadline now in
force, and a player whose orders for the next turn are in is told they now
start from the corrected position, with the preview of those orders redone."""

from __future__ import annotations

import re

from gmkit import House, text_of

TURN1 = "PLANE\nTAKEOFF BETA\n1: A\n2: A\n3: A"
TURN2 = "TURN 2\nPLANE\n1: A\n2: A\n3: A"


def test_a_corrected_report_has_the_deadline_in_force_and_redoes_the_plan(
        house: House) -> None:
    house.new_game()
    for who in ("anna", "bert"):
        house.mail(f"{who}@example.org", "[zep1] orders",
                   f"PASSWORD {house.passwords[who]}\n{TURN1}")
    ran = house.run("serve", "--once", "--quiet")  # both in: played at once
    assert "adjudicated 1 turn(s)" in ran.out, ran
    house.mail("anna@example.org", "[zep1] orders",
               f"PASSWORD {house.passwords['anna']}\n{TURN2}")
    assert house.run("serve", "--once", "--quiet").code == 0
    assert house.run("extend", "zep1", "--by", "24h", "--no-mail").code == 0
    deadline = re.search(r"deadline (\w+ \d+ \w+ \d{4} \d\d:\d\d)",
                         house.run("status", "zep1").out)
    assert deadline, house.run("status", "zep1").out
    day, number, month, year, hour = deadline.group(1).split()
    in_force = f"{day} {int(number)} {month} {year} {hour}"  # as the reports write it

    orders = house.root / "games" / "zep1" / "turns" / "001" / "orders" / "anna.yaml"
    text = orders.read_text()
    orders.write_text(text.replace("plane: [A, A, A]", "plane: [A, A, L]", 1))
    assert orders.read_text() != text, text
    assert house.run("check", "zep1").code == 0
    before = len(house.outbox())
    ran = house.run("rerun", "zep1", "--from", "1", "--mail", "--why", "a typo of mine")
    assert ran.code == 0, ran
    corrected = {str(m["To"]): text_of(m) for m in house.outbox()[before:]}
    anna = next(t for to, t in corrected.items() if "anna@" in to)
    bert = next(t for to, t in corrected.items() if "bert@" in to)
    assert in_force in anna and in_force in bert, in_force  # the deadline now in force
    said, bert_said = " ".join(anna.split()), " ".join(bert.split())  # flowed lines joined
    assert "now start from the corrected position" in said, anna
    assert "Move 1: A from K16" in said, anna  # the preview, from the corrected hex
    assert "corrected position" not in bert_said  # he has no orders in
