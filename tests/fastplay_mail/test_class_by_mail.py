"""A Fast Play class played by mail end to end, on the Maildir default (issue 9).

``pbmref new-class`` makes the games of a class from its template (one per
board, FP16 roster); each pupil mails the orders the Fast Play autopilot
picks (the envelope, a ``PLANE`` section, ``ENTER`` when returning, FP14);
every mail goes through ``Referee.take_in`` and is accepted; at each deadline
``adjudicate_due`` mails every pupil the report with the board drawn and the
SVG map attached, and the roster follows each turn by itself (FP16).
No servers: the inbox and outbox are Maildir folders.
"""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
import yaml

from pbmref.archive import stored_report
from pbmref.cli import main
from pbmref.config import RefereeConfig
from pbmref.gm.roster import load_roster
from pbmref.orders.check import order_mail
from pbmref.referee.turns import adjudicate_due
from pbmref.rulesets import get_ruleset
from pbmref.store import GameStore
from refereekit import Clock, RefereeTable, body_of, maildir_config

REFEREE = "referee@school.invalid"
SVGNS = "{http://www.w3.org/2000/svg}"
T0 = datetime(2026, 3, 2, 8, 0, tzinfo=UTC)
TURNS = 4  # the class template's turn limit (FP19)
PUPILS = {
    "anna": ("Anna", "Germans"), "bart": ("Bart", "Germans"), "cees": ("Cees", "Germans"),
    "dirk": ("Dirk", "Germans"), "emma": ("Emma", "Allies"), "fenna": ("Fenna", "Allies"),
    "gijs": ("Gijs", "Allies"), "hugo": ("Hugo", "Allies"),
}


@dataclass
class School(RefereeTable):
    """The referee of a class's games (``pbmref new-class``) on the one harness."""

    passwords: dict[str, str] = field(default_factory=dict)
    new_class_output: str = ""
    log: list[str] = field(default_factory=list)

    def send(self, sender: str, body: str, subject: str = "orders") -> list[EmailMessage]:
        """A pupil's mail, taken in (one) and answered; the new outbox mail."""
        self.deliver(self.mail(body, sender=sender, subject=subject))
        assert self.referee.take_in(self.intake) == 1
        self.referee.deliver(force=True)
        return self.new_outbox()


def address(pid: str) -> str:
    return f"{pid}@school.example"


@pytest.fixture
def school(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> School:
    template = tmp_path / "7b.yaml"
    template.write_text(yaml.safe_dump({
        "class": "7b", "title": "Class 7B", "per_board": 4, "turns": TURNS, "seed": 9,
        "turn_length": "48h",
        "pilots": {pid: {"name": name, "team": team, "address": address(pid)}
                   for pid, (name, team) in PUPILS.items()},
    }), encoding="utf-8")
    games = tmp_path / "games"
    assert main(["new-class", str(template), "--games", str(games),
                 "--deadline", (T0 + timedelta(hours=48)).isoformat()]) == 0
    out = capsys.readouterr().out
    passwords: dict[str, str] = {}
    for line in out.splitlines():
        m = re.fullmatch(r"\s+(\w+)\s+(\S+)\s+(\S+@\S+)", line)
        if m:
            assert m.group(3) == address(m.group(1))
            passwords[m.group(1)] = m.group(2)
    config = replace(maildir_config(tmp_path),
                     referee=RefereeConfig(address=REFEREE, name="Referee"))
    return School.start(tmp_path, config, GameStore(games), Clock(T0), passwords=passwords,
                        new_class_output=out)


def test_new_class_registers_every_pupil_and_prints_passwords(school: School) -> None:
    assert school.store.list_games() == ["7b-1", "7b-2"]
    assert sorted(school.passwords) == sorted(PUPILS)  # printed once, one per pupil
    seen = set()
    for gid in school.store.list_games():
        game = school.store.open(gid)
        assert game.settings.ruleset == "fastplay"
        sides = [PUPILS[pid][1] for pid in game.settings.players]
        assert sides.count("Germans") == sides.count("Allies") == 2  # even sides
        for pid, player in game.settings.players.items():
            assert player.addresses == (address(pid),)
            assert player.name == PUPILS[pid][0]
            assert game.settings.check_password(pid, school.passwords[pid])
            assert not game.settings.check_password(pid, "guess")
            seen.add(pid)
    assert seen == set(PUPILS)


def test_help_map_and_status_by_mail_speak_fast_play(school: School) -> None:
    pw = school.passwords["anna"]
    gid = next(g for g in school.store.list_games()
               if "anna" in school.store.open(g).settings.players)
    [reply] = school.send(address("anna"), f"GAME {gid}\nPASSWORD {pw}\nHELP\nMAP\nSTATUS\n")
    text = body_of(reply)
    assert "ENTER" in text and "FP4" in text  # the Fast Play HELP, not tweedekker's
    assert "TAKEOFF" not in text and "ZEPPELIN" not in text
    assert "the board at the start of turn 1" in text and "Germans' edge (north)" in text
    assert "PLANES" in text and "Turn 1 is open." in text
    assert max(len(line) for line in text.splitlines()) <= 70
    [reply] = school.send(address("anna"), f"GAME {gid}\nPASSWORD {pw}\nORDERS\n")
    assert "FP17" in body_of(reply) and "N1" not in body_of(reply)


def play_turn(school: School, turn: int, rng: random.Random,
              silent: tuple[str, ...] = ()) -> dict[str, dict[str, Any]]:
    """Every active pupil but ``silent`` mails the autopilot's orders; each is accepted."""
    given: dict[str, dict[str, Any]] = {}
    for gid in school.store.list_games():
        game = school.store.open(gid)
        assert game.settings.status == "open" and game.turn == turn
        for pid, player in sorted(game.settings.players.items()):
            if not player.active or pid in silent:
                continue
            orders = get_ruleset("fastplay").computer_orders(game.open.state, pid, rng)
            assert orders is not None
            entry = orders.encoded()
            body = order_mail(gid, school.passwords[pid], f"TURN {game.turn}", entry)
            replies = school.send(address(pid), body)
            assert len(replies) == 1 and replies[0]["To"] == address(pid)
            text = body_of(replies[0])
            assert f"Game {gid}, turn {turn}: your orders are accepted." in text, text
            assert "PLANE" in text and "ZEPPELIN" not in text
            if entry.get("enter"):
                assert f"ENTER {entry['enter']}" in text  # FP14, shown back
            stored = school.store.open(gid).book.entries()[pid]
            assert stored["plane"] == [c for c in entry["plane"] if c]
            assert stored.get("enter") == entry.get("enter")
            given[f"{gid}/{pid}"] = entry
    return given


def check_reports(school: School, turn: int, last: bool) -> None:
    """Every pupil got one report mail of ``turn``, with the board and the map."""
    # the turn's reports (the last turn's final report after them is J14's)
    mailed = school.new_outbox()
    reports = [m for m in mailed if not str(m["Subject"]).endswith(" final report")]
    finals = [str(m["To"]) for m in mailed if str(m["Subject"]).endswith(" final report")]
    assert sorted(finals) == (sorted(address(p) for p in PUPILS) if last else [])
    by_pupil = {str(m["To"]): m for m in reports if " report" in str(m["Subject"])}
    assert sorted(by_pupil) == sorted(address(p) for p in PUPILS)  # every pupil, once
    assert len([m for m in reports if " report" in str(m["Subject"])]) == len(PUPILS)
    for to, msg in by_pupil.items():
        gid = str(msg["Subject"]).split("]")[0].lstrip("[")
        assert str(msg["Subject"]) == f"[{gid}] turn {turn} report"
        text = body_of(msg)
        assert f"Fast Play - report of turn {turn}" in text
        assert "THE BOARD AT THE" in text and "MOVE BY MOVE" in text
        assert "PLANES" in text and "SCORE" in text and "ORDERS GIVEN" in text
        assert ("GAME OVER" in text) == last
        # as mailed (format=flowed: the paragraphs join on a phone), no line past 76
        plain = msg.get_body(("plain",))
        assert plain is not None
        assert max(len(line) for line in str(plain.get_content()).splitlines()) <= 76
        pid = to.split("@")[0]
        assert f"  {PUPILS[pid][0]}:" in text  # the pupil's own orders, or none
        # the map shown inline (a light PNG, nothing attached: issue 43); the SVG
        # it is drawn from is the archive's, which the element check reads
        assert list(msg.iter_attachments()) == []
        assert any(p.get_content_type() == "image/png" for p in msg.walk())
        game = school.store.open(gid)
        report = stored_report(game, turn)
        root = ET.fromstring(game.ruleset.render_pictures(report)[0].svg)
        ids = sorted(g.get("id") or "" for g in root.iter(f"{SVGNS}g")
                     if (g.get("id") or "").startswith("aircraft-"))
        position = school.store.open(gid).read_position(turn + 1) if not last else \
            school.store.open(gid).position
        flying = sorted(f"aircraft-{p}" for p, a in position["aircraft"].items()
                        if a.get("state") == "flying")
        assert ids == flying  # one element per plane on the board


def test_a_class_plays_its_game_by_mail(school: School, tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    rng = random.Random(2026)
    entries = 0
    for turn in range(1, TURNS + 1):
        silent = ("hugo",) if turn == 2 else ()
        entries += len(play_turn(school, turn, rng, silent))
        deadline = max(school.store.open(g).settings.deadline  # type: ignore[type-var]
                       for g in school.store.list_games())
        if silent:  # a reminder before the deadline, to the pupil without orders only
            school.clock.now = deadline - timedelta(hours=1)
            due = adjudicate_due(school.referee, school.intake)
            hugo_game = next(g for g in school.store.list_games()
                             if "hugo" in school.store.open(g).settings.players)
            assert [r.game_id for r in due.adjudicated] == [g for g in school.store.list_games()
                                                            if g != hugo_game]
            check_only = school.new_outbox()
            reminders = [m for m in check_only if "reminder" in str(m["Subject"])]
            assert [str(m["To"]) for m in reminders] == [address("hugo")]
            early = {str(m["To"]) for m in check_only if "turn 2 report" in str(m["Subject"])}
            others = school.store.open(next(g for g in school.store.list_games()
                                            if g != hugo_game)).settings.players
            assert early == {address(p) for p in others}  # all in: adjudicated early
            assert "FP17" in body_of(reminders[0]) and "N1" not in body_of(reminders[0])
            school.clock.now = deadline + timedelta(minutes=1)
            due = adjudicate_due(school.referee, school.intake)
            assert [r.game_id for r in due.adjudicated] == [hugo_game]
            late = [m for m in school.new_outbox() if "turn 2 report" in str(m["Subject"])]
            assert {str(m["To"]) for m in late} == {
                address(p) for p in school.store.open(hugo_game).settings.players}
            hugo_report = next(m for m in late if str(m["To"]) == address("hugo"))
            text = body_of(hugo_report)
            assert "  Hugo: no orders received" in text
            row = next(line for line in text.splitlines() if line.startswith("  h Hugo"))
            assert row.split()[-1] == "1"  # one NMR (FP17)
            continue
        school.clock.now = deadline + timedelta(minutes=1)
        due = adjudicate_due(school.referee, school.intake)
        assert sorted(r.game_id for r in due.adjudicated) == ["7b-1", "7b-2"]
        assert not due.broken
        check_reports(school, turn, last=turn == TURNS)
        for gid in school.store.list_games():
            game = school.store.open(gid)
            assert game.history.is_adjudicated(turn)
            if turn < TURNS:
                assert game.turn == turn + 1 and game.settings.status == "open"
            else:
                assert game.settings.status != "open"  # the turn limit (FP19)
    assert entries == TURNS * len(PUPILS) - 1

    # the archive shows the board of every turn
    from pbmref.archive import write_archive

    written = write_archive(school.store.open("7b-1"), tmp_path / "archive")
    pages = {p.name: p.read_text(encoding="utf-8") for p in written}
    turns = [f"turn-{t:03d}.html" for t in range(1, TURNS + 1)]
    assert sorted(pages) == ["final.html", "index.html", *turns]  # final: J14
    assert all("fastplay-map" in pages[name] for name in ["index.html", *turns])

    # the roster followed every turn (FP16): update finds nothing to count
    capsys.readouterr()
    assert main(["roster", "update", "--games", str(school.games)]) == 0
    assert "the roster agreed with every adjudicated turn" in capsys.readouterr().out
    roster = load_roster(school.games / "roster.yaml")
    victories = 0
    outs = 0
    for gid in school.store.list_games():
        for turn in range(1, TURNS + 1):
            doc = school.store.open(gid).history.read_file(turn, "events.yaml")
            events = (doc.mapping().get("events") or []) if doc else []
            victories += sum(1 for e in events if e.get("kind") == "victory")
            outs += sum(1 for e in events
                        if e.get("kind") == "shot_down" and e.get("outcome") == "out")
    totals = roster.totals()
    assert totals["victories"] == victories and totals["out"] == outs
    assert victories > 0  # the pupils did meet
    assert all(roster.players[pid].careers[0].sorties >= 1 for pid in PUPILS)
    assert main(["roster", "--games", str(school.games)]) == 0
    assert "board" in capsys.readouterr().out.splitlines()[0]


def test_a_second_mail_replaces_the_plane_section_with_its_entry(school: School) -> None:
    """FP14: ENTER and DUEL travel with the PLANE section; a new mail's
    section replaces all three (orders.md, reading rules)."""
    game = school.store.open("7b-1")
    pid = sorted(game.settings.players)[0]
    pw = school.passwords[pid]
    school.send(address(pid), order_mail("7b-1", pw, "TURN 1", {"plane": ["A", "A", "L"]}))
    school.send(address(pid), order_mail("7b-1", pw, "TURN 1", {"plane": ["L", "A"]}))
    assert school.store.open("7b-1").book.entries()[pid] == {"plane": ["L", "A"]}
    rules = get_ruleset("fastplay")

    def merge_entry(old: dict[str, object], new: dict[str, object]) -> dict[str, object]:
        return rules.merged_entry(old, new)[0]

    old = {"plane": ["A", "A", "A"], "enter": "C10 S", "duel": "emma"}
    assert merge_entry(old, {"plane": ["L"]}) == {"plane": ["L"]}
    assert merge_entry(old, {"enter": "A10 S"}) == {"enter": "A10 S"}


def test_the_help_example_is_a_good_fast_play_mail(school: School) -> None:
    """What HELP shows a pupil is the pupil's own mail for the open turn, and
    is accepted as written once the password is put in (FP4, FP7)."""
    from pbmref.rulesets.fastplay.ruleset import HELP as HELP_FASTPLAY

    assert max(len(line) for line in HELP_FASTPLAY.splitlines()) <= 70
    game = school.store.open("7b-1")
    pid = sorted(game.settings.players)[0]
    [help_reply] = school.send(address(pid), "HELP")  # no password needed
    text = body_of(help_reply)
    assert "tweedekker" not in text.lower() and school.passwords[pid] not in text
    lines = [line.strip() for line in text.splitlines()]
    start = lines.index("GAME 7b-1")
    example = lines[start:lines.index("END", start) + 1]
    assert example[1:3] == ["PASSWORD <your password>", "TURN 1"]
    mail = "\n".join(example).replace("<your password>", school.passwords[pid])
    [reply] = school.send(address(pid), mail)
    assert "your orders are accepted" in body_of(reply)
    assert school.store.open("7b-1").book.entries()[pid]["plane"]
