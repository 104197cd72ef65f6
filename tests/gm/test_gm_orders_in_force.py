"""Which orders file to edit (issue 42, item 10): each mail of a player is a
file of its own and the orders in force are the highest ``.vK``; a hand edit
of an earlier file changes nothing, and ``pbmref check`` says so, naming the
file in force, as the README does."""

from __future__ import annotations

import os
from pathlib import Path

from gmkit import House

TAKEOFF = "PLANE\nTAKEOFF BETA\n1: A\n2: A\n3: A"
README = Path(__file__).resolve().parents[2] / "README.md"


def test_check_names_the_file_in_force_when_an_older_one_is_edited(house: House) -> None:
    house.new_game()
    for _ in range(2):
        house.mail("anna@example.org", "[zep1] orders",
                   f"PASSWORD {house.passwords['anna']}\n{TAKEOFF}")
        assert house.run("serve", "--once", "--quiet").code == 0
    orders = house.root / "games" / "zep1" / "turns" / "001" / "orders"
    first, latest = orders / "anna.yaml", orders / "anna.v2.yaml"
    assert first.is_file() and latest.is_file()
    clean = house.run("check", "zep1")
    assert clean.code == 0 and "note:" not in clean.out, clean
    # The game master edits the file found first (a later time than the latest's).
    first.write_text(first.read_text(encoding="utf-8").replace("BETA", "ALPHA"),
                     encoding="utf-8")
    stamp = latest.stat().st_mtime_ns + 1_000_000_000
    os.utime(first, ns=(stamp, stamp))
    ran = house.run("check", "zep1")
    assert ran.code == 0, ran
    note = " ".join(ran.out.split())
    assert "turns/001/orders/anna.yaml was changed after anna.v2.yaml" in note, ran.out
    assert "the orders in force are those of anna.v2.yaml: edit that file" in note
    assert "change nothing" in note


def test_the_readme_says_which_orders_file_to_edit() -> None:
    text = " ".join(README.read_text(encoding="utf-8").split())
    assert "the orders in force are those of the file with the highest number" in text
    assert "editing them changes nothing, and `pbmref check` says so" in text
