"""Conformance: every promise of shared/spec/orders.md, checked from outside.

The envelope and the reading rules are checked by mailing the referee on a
local Maildir (speckit.py); the body rules that depend on a position (aces,
rounds, rear gunners, NMR removal) through ``pbmref orders check --position``,
the GM's own tool, with small position files written per test.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from speckit import DEADLINE, T0, Table, body_of, mail

from pbmref.cli import main
from pbmref.referee.turns import adjudicate_due

DEADLINE_TEXT = "Tue 3 Mar 2026 12:00 UTC"
TAKEOFF = ("PLANE", "TAKEOFF BETA", "1: A", "2: A", "3: L")


def reply_of(table: Table, body: str, **kw: Any) -> str:
    out = table.send(body, **kw)
    assert len(out) == 1, [m["Subject"] for m in out]
    return body_of(out[0])


def stored(table: Table, player: str = "anna") -> dict[str, Any] | None:
    return table.game().book.entries().get(player)


# ------------------------------------------------------------------ envelope


def test_keywords_are_case_insensitive(table: Table) -> None:
    body = (f"game zep1\npassword {table.passwords['anna']}\nturn 1\nplane\ntakeoff beta\n"
            "1: a\n2: a\n3: ls f-a\nzeppelin\nz1: l f-b\nend\n")
    assert "accepted" in reply_of(table, body)
    entry = stored(table)
    assert entry is not None and entry["plane"] == ["A", "A", "LS f-A"]
    assert entry["takeoff"] == "BETA" and entry["zeppelin"][0] == "L f-B"


def test_blank_lines_quotes_and_comments_are_ignored(table: Table) -> None:
    # Reading of "leading > quote marks ... are ignored": a quoted line of a reply
    # is quoted history and is not read (the intent: a reply quoting old orders
    # or a report must not give orders).
    body = "\n".join([
        "GAME zep1   # my game", "", f"PASSWORD {table.passwords['anna']}", "",
        "# a whole-line comment: PLANE 1: RS", "PLANE", "TAKEOFF BETA",
        "1: A  # taxi", "", "2: A", "3: L", "> PLANE", "> 3: R f-A", ">> ZEPPELIN",
        "END"])
    assert "accepted" in reply_of(table, body)
    assert stored(table) == {"plane": ["A", "A", "L"], "takeoff": "BETA"}


@pytest.mark.parametrize("subject", ["zep1 orders", "Re: [zep1] turn 7 report"])
def test_the_game_may_stand_in_the_subject(table: Table, subject: str) -> None:
    body = mail(table, "bert", *TAKEOFF, game=None)
    # bert plays zep1 and zep2: only the Subject can tell which game
    text = reply_of(table, body, sender="bert@example.org", subject=subject)
    assert "Game zep1" in text and "accepted" in text
    assert stored(table, "bert") is not None


@pytest.mark.parametrize("extra", [TAKEOFF, ("STATUS",), ("PLANE", "1: 0")])
def test_the_body_wins_over_the_subject_and_the_reply_says_so(
        table: Table, extra: tuple[str, ...]) -> None:
    """orders.md, Envelope: the GAME line beats a Subject naming another game and
    the player is told -- in every reply to the mail, not only accepting ones."""
    text = reply_of(table, mail(table, "anna", *extra), subject="Re: [zep2] turn 1 report")
    assert "Game zep1" in text or "game zep1" in text
    assert "zep2" in text, "the reply must say that the Subject named another game"
    assert "GAME line wins" in text


def test_a_game_with_passwords_needs_the_password(table: Table) -> None:
    text = reply_of(table, "GAME zep1\nPLANE\nTAKEOFF BETA\n1: A\n2: A\n")
    assert "wrong or missing PASSWORD" in text and stored(table) is None


def test_only_a_hash_of_the_password_is_stored(table: Table) -> None:
    table.send(mail(table, "anna", *TAKEOFF))
    secret = table.passwords["anna"]
    for path in table.game().dir.rglob("*"):
        if path.is_file():
            assert secret not in path.read_text(encoding="utf-8", errors="replace"), path
    settings = yaml.safe_load((table.game().dir / "game.yaml").read_text())
    assert settings["players"]["anna"]["password_hash"]


def test_turn_of_the_open_turn_is_accepted(table: Table) -> None:
    assert "accepted" in reply_of(table, mail(table, "anna", *TAKEOFF, turn=1))


@pytest.mark.parametrize("turn", [0, 2, 7])
@pytest.mark.parametrize("extra", [TAKEOFF, ("CLEAR",), ("CLEAR", *TAKEOFF)])
def test_turn_not_open_rejects_the_whole_mail_as_stale(
        table: Table, turn: int, extra: tuple[str, ...]) -> None:
    table.send(mail(table, "anna", "PLANE", "TAKEOFF GAMMA", "1: A", "2: A"))
    before = stored(table)
    text = reply_of(table, mail(table, "anna", *extra, turn=turn))
    assert f"turn {turn}" in text and "turn 1 is open" in text.lower()
    assert "nothing was used or changed" in text
    assert stored(table) == before


def test_a_single_pilot_address_needs_no_pilot_line(table: Table) -> None:
    reply_of(table, mail(table, "cora", *TAKEOFF), sender="cora@example.org")
    assert stored(table, "cora") is not None


@pytest.mark.parametrize("pilot", ["dirk", "emil", "EMIL"])
def test_pilot_picks_one_of_several_pilots_of_an_address(table: Table, pilot: str) -> None:
    text = reply_of(table, mail(table, pilot.lower(), *TAKEOFF, pilot=pilot),
                    sender="duo@example.org")
    assert "accepted" in text
    other = "emil" if pilot.lower() == "dirk" else "dirk"
    assert stored(table, pilot.lower()) is not None and stored(table, other) is None


def test_an_address_with_several_pilots_must_say_which(table: Table) -> None:
    text = reply_of(table, mail(table, "dirk", *TAKEOFF), sender="duo@example.org")
    assert "PILOT" in text and "dirk" in text and "emil" in text
    assert table.game().book.entries() == {}


def test_pilot_cannot_pick_another_addresses_pilot(table: Table) -> None:
    text = reply_of(table, mail(table, "bert", *TAKEOFF, pilot="bert"),
                    sender="anna@example.org")
    assert "not one of your pilots" in text or "wrong or missing PASSWORD" in text
    assert table.game().book.entries() == {}


@pytest.mark.parametrize("ending", ["END", "end", "SIGNOFF", "-- ", "--"])
def test_end_signoff_and_signature_end_the_body(table: Table, ending: str) -> None:
    lines = ["GAME zep1", f"PASSWORD {table.passwords['anna']}", *TAKEOFF, ending,
             "PLANE 3: RS  (quoted history after the end)", "this is not an order at all",
             "Baron von Richthofen, Jasta 11"]
    text = reply_of(table, "\n".join(lines))
    assert "accepted" in text
    assert stored(table)["plane"] == ["A", "A", "L"]


# ------------------------------------------------------------------ commands


COMMAND_MARKS = {
    "HELP": "How to send orders",
    "ORDERS": "your orders in force",
    "STATUS": "Orders stay secret",
    "MAP": "J19",  # the map names the hexes; N airfield's corner is J19 (B5)
    "HISTORY 1": "report of turn 1",
    "CLEAR": "withdrawn",
}


@pytest.mark.parametrize("command", list(COMMAND_MARKS))
def test_every_command_alone(table: Table, command: str) -> None:
    if command == "HISTORY 1":
        table.clock.now = DEADLINE + __import__("datetime").timedelta(minutes=1)
        adjudicate_due(table.referee, table.intake)
        table.new_outbox()
    else:
        table.send(mail(table, "anna", *TAKEOFF))
    before = stored(table)
    text = reply_of(table, mail(table, "anna", command))
    assert COMMAND_MARKS[command] in text, text
    if command == "CLEAR":
        assert stored(table) is None
    else:
        assert stored(table) == before


@pytest.mark.parametrize("command", [c for c in COMMAND_MARKS if c != "CLEAR"])
def test_every_command_beside_orders(table: Table, command: str) -> None:
    if command == "HISTORY 1":
        table.clock.now = DEADLINE + __import__("datetime").timedelta(minutes=1)
        adjudicate_due(table.referee, table.intake)
        table.new_outbox()
        lines: tuple[str, ...] = ("ZEPPELIN", "1: L", "2: A")
    else:
        lines = TAKEOFF
    text = reply_of(table, mail(table, "anna", command, *lines))
    assert "accepted" in text and COMMAND_MARKS[command] in text, text
    assert stored(table) is not None


def test_history_of_a_turn_not_played_yet(table: Table) -> None:
    text = reply_of(table, mail(table, "anna", "HISTORY 1"))
    assert "no report of turn 1" in text


def test_clear_beside_orders_replaces_everything_with_them(table: Table) -> None:
    # Reading: "CLEAR withdraws everything"; given beside new orders, the new orders
    # are what remains in force (the old ZEPPELIN section is withdrawn).
    table.send(mail(table, "anna", *TAKEOFF, "ZEPPELIN", "1: L f-A"))
    reply_of(table, mail(table, "anna", "CLEAR", "PLANE", "TAKEOFF ALPHA", "1: A", "2: A"))
    entry = stored(table)
    assert entry is not None and entry.get("takeoff") == "ALPHA"
    assert "zeppelin" not in entry


# ------------------------------------------------------------------ tweedekker body


BODY_OK = [
    # (lines, expected stored entry subset)
    (["PLANE", "TAKEOFF BETA", "1: A", "2: A", "3: LS f-A f-R"],
     {"plane": ["A", "A", "LS f-A f-R"], "takeoff": "BETA"}),
    (["PLANE", "TAKEOFF BETA", "A", "A", "R f-A"], {"plane": ["A", "A", "R f-A"]}),
    (["PLANE", "TAKEOFF BETA", "1: A", "A", "3: RT"], {"plane": ["A", "A", "R"]}),
    (["TAKEOFF BETA", "PLANE 1: A", "PLANE 2: A", "PLANE 3: LT FIRE A"],
     {"plane": ["A", "A", "L f-A"]}),
    (["PLANE", "TAKEOFF ALPHA", "1: A", "2: A", "3: A fire L+R"],
     {"plane": ["A", "A", "A f-L f-R"], "takeoff": "ALPHA"}),
    (["PLANE", "TAKEOFF LEFT", "1: A", "2: A", "3: N"], {"takeoff": "ALPHA"}),
    (["PLANE", "TAKEOFF CENTRE", "1: A", "2: A", "3: O"], {"takeoff": "BETA"}),
    (["PLANE", "TAKEOFF RIGHT", "1: A", "2: A", "3: 0"], {"takeoff": "GAMMA"}),
    (["PLANE", "TAKEOFF GAMMA", "1: A", "2: A", "3: RS f-0"], {"takeoff": "GAMMA"}),
    (["ZEPPELIN", "1: L f-B", "2: A d-B", "3: f-0"],
     {"zeppelin": ["L f-B", "A d-B", "f-0"]}),
    (["Z1: L f-B", "Z2: RS", "Z3: 0 f-A"], {"zeppelin": ["L f-B", "RS", "0 f-A"]}),
    (["ZEPPELIN", "1: d-B", "2:", "3: LS"], {"zeppelin": ["d-B", "", "LS"]}),
    (["PLANE"], {"plane": []}),  # landed, no moves: stays landed (L2a)
]


def _norm(entry: dict[str, Any]) -> dict[str, Any]:
    out = dict(entry)
    if "zeppelin" in out:
        z = list(out["zeppelin"])
        while z and not z[-1]:
            z.pop()
        out["zeppelin"] = z
    return out


@pytest.mark.parametrize("lines,expected", BODY_OK)
def test_body_lines_a_player_may_mail(table: Table, lines: list[str],
                                      expected: dict[str, Any]) -> None:
    text = reply_of(table, mail(table, "anna", *lines))
    assert "accepted" in text, text
    entry = _norm(stored(table))
    for key, value in _norm(expected).items():
        assert entry.get(key) == value, (key, entry)


BODY_BAD = [
    # (lines, words the reply must hold)
    (["ZEPPELIN", "1: LS f-A d-B"], ["one fire vote", "d-B"]),
    (["PLANE", "TAKEOFF BETA", "1: A", "2: A", "3: A d-B"], ["no bombs", "d-B"]),
    (["PLANE", "TAKEOFF BETA", "1: 0", "2: A", "3: A"], ["M3"]),
    (["PLANE", "TAKEOFF BETA", "1: A", "2: 0", "3: A"], ["M3"]),
    (["PLANE", "TAKEOFF BETA", "1: A", "2: 0"], ["M3"]),
    (["PLANE", "TAKEOFF BETA", "1: A", "2: A", "3: I"], ["ace"]),
    (["PLANE", "TAKEOFF BETA", "1: L", "2: A", "3: A"], ["L3"]),
    (["PLANE", "1: A", "2: A", "3: A"], ["TAKEOFF"]),  # landed: moves need TAKEOFF (L2a)
    (["PLANE", "TAKEOFF BETA", "1: A", "2: A", "3: A", "4: A"], ["4"]),
    (["ZEPPELIN", "1: L", "2: A", "3: R", "4: A"], ["4"]),
    (["PLANE", "TAKEOFF BETA", "1: A", "2: A", "3: A f-A f-A"], ["twice"]),
    (["PLANE", "TAKEOFF BETA", "1: A", "2: A", "3: A f-0 f-A"], ["f-0"]),
    (["PLANE", "TAKEOFF BETA", "1: A", "2: A", "3: A f-B"], ["rear gunner"]),
    (["ZEPPELIN", "1: I"], ["I"]),
    (["TAKEOFF DELTA"], ["DELTA"]),
]


@pytest.mark.parametrize("lines,words", BODY_BAD)
def test_a_wrong_line_rejects_the_mail_and_keeps_earlier_orders(
        table: Table, lines: list[str], words: list[str]) -> None:
    table.send(mail(table, "anna", "PLANE", "TAKEOFF GAMMA", "1: A", "2: A", "3: RS",
                    "ZEPPELIN", "1: A"))
    before = stored(table)
    text = reply_of(table, mail(table, "anna", *lines))
    assert "NOT accepted" in text and "earlier orders stay in force" in text, text
    for word in words:
        assert word.lower() in text.lower(), (word, text)
    assert stored(table) == before
    assert "TAKEOFF GAMMA" in text  # the orders still in force are shown


def test_every_error_is_listed_with_line_number_line_and_caret(table: Table) -> None:
    body = mail(table, "anna", "PLANE", "TAKEOFF BETA", "1: 0 f-A", "2: A", "3: A f-Q",
                "ZEPPELIN", "1: LS f-A d-B")
    lines = body.split("\n")
    text = reply_of(table, body)
    assert "NOT accepted" in text
    for needle in ("3: A f-Q", "1: LS f-A d-B"):
        no = lines.index(needle) + 1
        assert f"line {no}" in text.lower() or f"{no}:" in text or f"{no} |" in text, text
        at = text.index(needle)
        after = text[at:].split("\n")
        assert "^" in after[1], after[:3]  # a caret under the spot
    assert "M3" in text  # the third error: 0 as move 1
    assert "expected" in text.lower() or "write" in text.lower()


@pytest.mark.parametrize("new,kept", [
    (["PLANE", "TAKEOFF ALPHA", "1: A", "2: A", "3: RS"],
     {"plane": ["A", "A", "RS"], "takeoff": "ALPHA", "zeppelin": ["L f-A", "A"]}),
    (["ZEPPELIN", "1: R"],
     {"plane": ["A", "A", "L"], "takeoff": "BETA", "zeppelin": ["R"]}),
    (["PLANE"], {"plane": [], "zeppelin": ["L f-A", "A"]}),
])
def test_a_valid_mail_replaces_orders_section_by_section(
        table: Table, new: list[str], kept: dict[str, Any]) -> None:
    table.send(mail(table, "anna", *TAKEOFF, "ZEPPELIN", "1: L f-A", "2: A"))
    text = reply_of(table, mail(table, "anna", *new))
    assert "accepted" in text
    assert _norm(stored(table)) == _norm(kept)


def test_clear_withdraws_both_sections(table: Table) -> None:
    table.send(mail(table, "anna", *TAKEOFF, "ZEPPELIN", "1: L f-A"))
    text = reply_of(table, mail(table, "anna", "CLEAR"))
    assert "withdrawn" in text and stored(table) is None


# ------------------------------------------------------------------ every reply


def _replies_of_every_kind(table: Table) -> list[tuple[str, str, str]]:
    """(kind, Subject sent, reply) for each kind of mail a registered player sends."""
    cases = [
        ("accepted", "my orders", mail(table, "anna", *TAKEOFF)),
        ("rejected", "oops", mail(table, "anna", "PLANE", "1: 0")),
        ("help", "help me", mail(table, "anna", "HELP")),
        ("status", "status?", mail(table, "anna", "STATUS")),
        ("map", "the map", mail(table, "anna", "MAP")),
        ("history", "old report", mail(table, "anna", "HISTORY 1")),
        ("orders", "what did I send", mail(table, "anna", "ORDERS")),
        ("stale", "late orders", mail(table, "anna", *TAKEOFF, turn=3)),
        ("empty", "hello", mail(table, "anna")),
        ("envelope error", "typo", mail(table, "anna", "TURN seven", "PLANE", "1: A")),
    ]
    out = []
    for kind, subject, body in cases:
        sent = table.send(body, subject=subject)
        assert len(sent) == 1, kind
        out.append((kind, subject, sent[0]))
    return out


def test_every_reply_quotes_the_subject_shows_orders_and_deadline(table: Table) -> None:
    for kind, subject, reply in _replies_of_every_kind(table):
        assert reply["Subject"] == f"Re: {subject}", kind
        text = body_of(reply)
        assert DEADLINE_TEXT in text, (kind, text)
        # the complete orders in force (anna's first mail: TAKEOFF BETA, 3: L)
        assert "TAKEOFF BETA" in text and "3: L" in text, (kind, text)


def test_reply_deadline_is_in_the_games_time_zone(tmp_path: Path) -> None:
    from speckit import make_table

    table = make_table(tmp_path)
    settings = table.game().dir / "game.yaml"
    data = settings.read_text()
    assert "timezone: UTC" in data
    settings.write_text(data.replace("timezone: UTC", "timezone: Europe/Amsterdam"))
    text = reply_of(table, mail(table, "anna", *TAKEOFF))
    assert "Tue 3 Mar 2026 13:00 CET (Europe/Amsterdam)" in text


def test_orders_are_secret_until_adjudicated_then_in_the_report(table: Table) -> None:
    from datetime import timedelta

    table.send(mail(table, "anna", "PLANE", "TAKEOFF GAMMA", "1: A", "2: A", "3: RS f-A"))
    for other in ("bert", "cora"):
        sender = f"{other}@example.org"
        for command in ("STATUS", "MAP", "ORDERS", "HISTORY 1"):
            text = reply_of(table, mail(table, other, command), sender=sender)
            assert "GAMMA" not in text and "RS f-A" not in text, (other, command)
    table.clock.now = DEADLINE + timedelta(minutes=1)
    adjudicate_due(table.referee, table.intake)
    reports = [m for m in table.new_outbox() if "[zep1] turn 1 report" in m["Subject"]]
    assert len(reports) == 5  # every player and the observer
    for report in reports:
        text = body_of(report)
        orders = text[text.index("ORDERS GIVEN FOR TURN 1"):]
        assert "Anna:" in orders and "TAKEOFF GAMMA" in orders and "3: RS f-A" in orders
    assert T0 < DEADLINE


# ------------------------------------------------------------------ position-dependent rules


def _check(tmp_path: Path, position: dict[str, Any], body: str, player: str,
           capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    pos = tmp_path / "position.yaml"
    pos.write_text(yaml.safe_dump(position), encoding="utf-8")
    letter = tmp_path / "mail.txt"
    letter.write_text(body, encoding="utf-8")
    code = main(["orders", "check", str(letter), "--position", str(pos), "--player", player,
                 "--no-password"])
    return code, capsys.readouterr().out


def _air(**baron: Any) -> dict[str, Any]:
    craft = {"hex": "J10", "heading": "N", "state": "flying", "airfield": "N"}
    craft.update(baron)
    return {"ruleset": "tweedekker", "turn": 4, "board": {"side": 10},
            "aircraft": {"baron": craft,
                         "falcon": {"hex": "C3", "heading": "N", "state": "flying",
                                    "airfield": "S"}},
            "zeppelins": {"Z": {"hexes": ["J12", "J11"], "heading": "N", "controlled": True}}}


POSITION_RULES = [
    # (aircraft fields, orders, accepted?, words)
    ({}, "PLANE\n1: A f-A f-L\n2: A f-R\n3: A", True, []),
    ({}, "PLANE\n1: A f-A f-L\n2: A f-R\n3: A f-A", False, ["F1"]),  # four bursts
    ({"ammo": 2}, "PLANE\n1: A f-A f-L\n2: A f-R\n3: A", False, ["F1"]),  # rounds
    ({"ammo": 0}, "PLANE\n1: A f-A\n2: A\n3: A", False, ["F1"]),
    ({}, "PLANE\n1: A f-B\n2: A\n3: A", False, ["F2"]),
    ({"rear_gun": True}, "PLANE\n1: A f-B\n2: A\n3: A", True, []),
    ({}, "PLANE\n1: I\n2: A\n3: A", False, ["ace"]),
    ({"ace": True}, "PLANE\n1: I f-A\n2: A\n3: A", True, []),
    ({"state": "landed", "hex": "J19"}, "PLANE\nTAKEOFF BETA\n1: A\n2: R\n3: A", False,
     ["L3"]),
    ({"state": "landed", "hex": "J19"}, "PLANE\nTAKEOFF BETA\n1: A f-A\n2: A\n3: A", False,
     ["L3"]),
    ({}, "PLANE\n1: A\n2: A\n3: A\nLAND CENTRE", True, []),  # LAND Left/Centre/Right
    ({}, "PLANE\n1: A\n2: A\n3: A\nLAND DELTA", False, ["DELTA"]),
    ({"state": "removed", "nmr": 3}, "ZEPPELIN\n1: L", False, ["removed"]),
    ({"state": "down"}, "ZEPPELIN\n1: L f-A", True, []),  # Z9: shot down still votes
    ({"state": "left"}, "ZEPPELIN\n1: R", True, []),
]


@pytest.mark.parametrize("craft,orders,ok,words", POSITION_RULES)
def test_body_rules_that_depend_on_the_position(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], craft: dict[str, Any],
        orders: str, ok: bool, words: list[str]) -> None:
    code, out = _check(tmp_path, _air(**craft), f"GAME zep1\n{orders}\nEND\n", "baron", capsys)
    assert code == (0 if ok else 1), out
    for word in words:
        assert word.lower() in out.lower(), (word, out)


# ------------------------------------------------------------------ Fast Play and Diplomacy bodies


def _fastplay() -> dict[str, Any]:
    return {"ruleset": "fastplay", "turn": 2, "board": {"files": 10, "ranks": 10},
            "aircraft": {"baron": {"hex": "E5", "heading": "N", "state": "flying",
                                   "team": "Germans"},
                         "biggles": {"hex": "E8", "heading": "S", "state": "flying",
                                     "team": "Allies"}}}


@pytest.mark.parametrize("orders,ok", [
    ("PLANE\n1: A\n2: AF f-0\n3: STL", True),
    ("PLANE\n1: L f-A\n2: R\n3: ST", True),
    ("PLANE\n1: A\n2: 0\n3: 0", False),  # Fast Play has no 0
    ("PLANE\n1: A f-L\n2: A\n3: A", False),  # its only fire items are f-0 and f-A
])
def test_fastplay_body(tmp_path: Path, capsys: pytest.CaptureFixture[str], orders: str,
                       ok: bool) -> None:
    code, out = _check(tmp_path, _fastplay(), f"GAME fp1\n{orders}\nEND\n", "baron", capsys)
    assert code == (0 if ok else 1), out


def _diplomacy() -> dict[str, Any]:
    return {"ruleset": "diplomacy", "phase": "S1901M",
            "units": {"FRA": ["A Par", "F Bre", "A Mar"], "ENG": ["F Lon", "F Edi", "A Lvp"]},
            "centers": {"FRA": ["Par", "Bre", "Mar"], "ENG": ["Lon", "Edi", "Lvp"]}}


@pytest.mark.parametrize("orders,ok", [
    ("A Par - Bur\nF Bre - MAO\nA Mar S A Par - Bur", True),
    ("A Par - Bur", True),  # units without an order hold
    ("A Par - Mun", False),  # not adjacent
])
def test_diplomacy_body(tmp_path: Path, capsys: pytest.CaptureFixture[str], orders: str,
                        ok: bool) -> None:
    code, out = _check(tmp_path, _diplomacy(), f"GAME dip1\n{orders}\nEND\n", "FRA", capsys)
    assert code == (0 if ok else 1), out


def test_an_envelope_error_reveals_no_orders_without_the_password(table: Table) -> None:
    table.send(mail(table, "anna", "PLANE", "TAKEOFF GAMMA", "1: A", "2: A", "3: RS f-A"))
    body = mail(table, "anna", "TURN seven").replace(table.passwords["anna"], "guess")
    text = reply_of(table, body)
    assert "TURN seven" in text and "GAMMA" not in text and "RS f-A" not in text


def test_takeoff_alone_is_shown_as_it_will_be_flown(table: Table) -> None:
    """A TAKEOFF line without moves: the aircraft takes off flying A (N1, L3);
    the reply must not say it stays landed."""
    text = reply_of(table, mail(table, "anna", "TAKEOFF ALPHA"))
    assert "accepted" in text and "TAKEOFF ALPHA" in text
    assert "stay landed" not in text


def test_a_non_ascii_subject_is_quoted_with_re(table: Table) -> None:
    out = table.send(mail(table, "anna", *TAKEOFF), subject="Befehle für Zug 1 — zep1")
    assert len(out) == 1 and out[0]["Subject"] == "Re: Befehle für Zug 1 — zep1"


def test_a_game_without_passwords_takes_mail_without_one(table: Table) -> None:
    from pbmref import gm

    gm.new_game(table.store, "open1", [gm.PlayerSpec("anna", ("anna@example.org",),
                                                     airfield="N"),
                                       gm.PlayerSpec("bert", ("bert@example.org",),
                                                     airfield="S")],
                seed=1, deadline=DEADLINE, passwords=False, now=T0)
    text = reply_of(table, "GAME open1\nPLANE\nTAKEOFF BETA\n1: A\n2: A\n")
    assert "accepted" in text


@pytest.mark.parametrize("name", ["ZEP1", "Zep1"])
def test_the_game_name_is_case_insensitive(table: Table, name: str) -> None:
    text = reply_of(table, mail(table, "anna", *TAKEOFF).replace("GAME zep1", f"GAME {name}"))
    assert "accepted" in text


# Every example line of orders.md's Diplomacy body, each in the phase it belongs to.
DIPLOMACY_SPEC_LINES = [
    # (phase, units, extra position keys, player, lines)
    ("S1901M", {"ENG": ["A Lon", "F Nth"]}, {}, "ENG",
     ["A Lon - Bel via convoy", "F Nth C A Lon - Bel"]),
    ("S1901M", {"ENG": ["F Lon", "F Nth"]}, {}, "ENG", ["F Lon S F Nth - Eng"]),
    ("S1901M", {"FRA": ["A Par"]}, {}, "FRA", ["A Par - Bur"]),
    ("S1901M", {"GER": ["D Mun", "A Ber"]}, {}, "GER", ["D Mun S A Ber - Mun"]),
    ("S1901M", {"FRA": ["D Mun"]}, {}, "FRA", ["D Mun devastate"]),
    ("S1901R", {"FRA": ["A Mun"]},
     {"dislodged": {"GER": [{"unit": "A Mun", "attacker_from": "Bur"}]}}, "GER",
     ["A Mun - Boh"]),
    ("S1901R", {"FRA": ["A Mun"]},
     {"dislodged": {"GER": [{"unit": "A Mun", "attacker_from": "Bur"}]}}, "GER",
     ["Disband A Mun"]),
    ("W1901A", {"GER": ["A Kie"]}, {}, "GER", ["Build D Ber", "Waive"]),
    ("W1901A", {"RUS": ["A Mos"]}, {}, "RUS", ["Build F StP/sc"]),
    ("W1901A", {"RUS": ["A War", "A Mos"]}, {"centers": {"RUS": ["Mos"]}}, "RUS",
     ["Disband A War"]),
]


@pytest.mark.parametrize("phase,units,extra,player,lines", DIPLOMACY_SPEC_LINES)
def test_every_diplomacy_example_line_of_the_spec(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], phase: str,
        units: dict[str, list[str]], extra: dict[str, Any], player: str,
        lines: list[str]) -> None:
    position: dict[str, Any] = {
        "ruleset": "dirigible", "phase": phase, "units": units,
        "centers": {"ENG": ["Lon", "Edi", "Lvp"], "FRA": ["Par", "Bre", "Mar"],
                    "GER": ["Ber", "Kie", "Mun"], "RUS": ["StP", "Mos", "War", "Sev"]}}
    position.update(extra)
    code, out = _check(tmp_path, position, "GAME dip1\n" + "\n".join(lines) + "\nEND\n",
                       player, capsys)
    assert code == 0, out
    for line in lines:
        assert line in out


def test_fastplay_enter_and_duel_lines(tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    position = {"ruleset": "fastplay", "turn": 3, "board": {"files": 10, "ranks": 10},
                "aircraft": {"anna": {"team": "Germans", "state": "left", "heading": "S"},
                             "bert": {"team": "Allies", "state": "down", "heading": "N"}}}
    code, out = _check(tmp_path, position,
                       "GAME fp1\nENTER E10 S\nDUEL bert\nPLANE\n1: ST\n2: STL\n3: STR\nEND\n",
                       "anna", capsys)
    assert code == 0, out


@pytest.mark.parametrize("cte", ["7bit", "quoted-printable", "base64"])
def test_the_stored_raw_mail_never_holds_the_password(table: Table, cte: str) -> None:
    import email
    import email.policy
    from email.message import EmailMessage

    msg = EmailMessage()
    msg["From"] = "anna@example.org"
    msg["To"] = "referee@test.invalid"
    msg["Subject"] = "orders"
    msg["Message-ID"] = f"<pw-{cte}@example.org>"
    msg.set_content(mail(table, "anna", *TAKEOFF), charset="utf-8", cte=cte)
    table.send_raw(msg.as_bytes())
    secret = table.passwords["anna"]
    (orders_file,) = (table.game().dir / "turns" / "001" / "orders").iterdir()
    raw = yaml.safe_load(orders_file.read_text())["raw"]
    stored = email.message_from_string(raw, policy=email.policy.default)
    body = stored.get_body(("plain",))
    assert body is not None
    text = str(body.get_content())
    assert "TAKEOFF BETA" in text and "PASSWORD (hidden)" in text
    assert secret not in text and secret not in raw
