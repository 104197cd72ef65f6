"""The report mail a player opens on a phone (issue 17), through the real referee.

Each copy is personal (the reader's own block first), multipart/alternative
with the plain text and an HTML version showing the map inline as a PNG by
``cid:``, the SVG still attached; the PNG decodes and has the map's size.
A corrected report after ``rerun --mail --why`` opens with the correction;
pause, resume and extend are mailed as short notices; MAP and HISTORY
replies carry the picture too.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from datetime import timedelta
from email.message import EmailMessage

from tablekit import REFEREE, T0, Table, body_of

from pbmref import gm
from pbmref.archive import stored_report
from pbmref.cli import main
from pbmref.mail.picture import MAIL_WIDTH, png_size
from pbmref.referee.turns import adjudicate_due

AFTER = T0 + timedelta(hours=48, minutes=1)


def mail(table: Table, player: str, *lines: str, turn: int = 1) -> str:
    return "\n".join(["GAME zep1", f"PASSWORD {table.passwords[player]}", f"TURN {turn}",
                      *lines, "END"])


def play_turn_one(table: Table) -> list[EmailMessage]:
    table.send(mail(table, "anna", "PLANE", "TAKEOFF BETA", "1: A", "2: A", "3: A f-A",
                    "ZEPPELIN", "1: L f-A", "2: A", "3: R"))
    table.send(mail(table, "bert", "PLANE", "TAKEOFF ALPHA", "1: A", "2: A", "3: A"),
               sender="bert@example.org")
    table.clock.now = AFTER
    adjudicate_due(table.referee, table.intake)
    return [m for m in table.new_outbox() if str(m["Subject"]) == "[zep1] turn 1 report"]


def test_the_report_mail_is_light_flowed_text_and_html_with_inline_palette_pngs(
        table: Table) -> None:
    reports = play_turn_one(table)
    assert sorted(str(m["To"]) for m in reports) == [
        "anna@example.org", "bert@example.org", "cora@example.org"]
    msg = next(m for m in reports if str(m["To"]) == "anna@example.org")
    # no attachment at all (issue 43: the archive keeps the SVG): text and HTML
    assert msg.get_content_type() == "multipart/alternative"
    kinds = [p.get_content_type() for p in msg.iter_parts()]
    assert kinds == ["text/plain", "multipart/related"]
    plain = msg.get_body(("plain",))
    assert plain is not None and plain.get_param("format") == "flowed"
    assert plain.get_param("delsp") == "no"
    text = body_of(msg)
    html_part = msg.get_body(("html",))
    assert html_part is not None
    html = str(html_part.get_content())
    # the same content: every paragraph of the text is in the HTML
    assert "FOR ANNA (A)" in text and "FOR ANNA (A)" in html
    for phrase in ("Your aircraft (A) is at", "Damage points: 12 of 12", "MOVE BY MOVE",
                   "THE SKY AT THE START OF TURN 2"):
        assert phrase in text and phrase in html, phrase
    # the map inline, by cid:, as a palette PNG at the width the mail shows it
    cids = re.findall(r'src="cid:([^"]+)"', html)
    inline = {str(p["Content-ID"]).strip("<>"): p for p in msg.walk() if p["Content-ID"]}
    assert cids and set(cids) == set(inline)
    root = ET.fromstring(table.game().ruleset.render_pictures(
        stored_report(table.game(), 1))[0].svg)
    # the reader's own picture first (issue 43, item 2), then the board
    own, board_cid = cids[0], cids[1]
    assert own.endswith("-you.png@pbmref") and not board_cid.endswith("-you.png@pbmref")
    assert re.search(r'alt="you: [A-S]\d+ heading [NSEW]+, \d+ of 12 damage points', html)
    board = inline[board_cid]
    assert board.get_content_type() == "image/png" and board.get_content_disposition() == "inline"
    png = board.get_payload(decode=True)
    width = min(MAIL_WIDTH, round(float(root.get("width", 0))))
    assert png_size(png)[0] == width
    assert png[25] == 3  # colour type 3: a palette, no alpha channel
    assert f'width="{width}"' in html
    assert len(cids) == 5  # hers, the board and the three move panels
    assert list(msg.iter_attachments()) == []
    assert len(msg.as_bytes()) < 150_000


def test_every_readers_mail_shares_the_turns_picture_parts(table: Table) -> None:
    """The pictures are drawn and encoded once a turn: every copy carries the
    very same bytes for each picture."""
    reports = play_turn_one(table)
    parts = [[p.get_payload() for p in m.walk() if p.get_content_type() == "image/png"
              and not str(p.get_filename()).endswith("-you.png")] for m in reports]
    assert len(parts) == 3 and parts[0] and parts[0] == parts[1] == parts[2]
    # and each its reader's own picture, made for that reader
    own = [p.get_payload() for m in reports for p in m.walk()
           if str(p.get_filename()).endswith("-you.png")]
    assert len(own) == len(set(own)) >= 2


def test_each_copy_is_personal_and_observers_get_the_glance(table: Table) -> None:
    gm.add_observer(table.store, "zep1", "press@example.org")
    reports = play_turn_one(table)
    texts = {str(m["To"]): body_of(m) for m in reports}
    assert "FOR ANNA (A)" in texts["anna@example.org"]
    assert "FOR BERT (B)" in texts["bert@example.org"]
    assert "FOR ANNA" not in texts["bert@example.org"]
    glance = texts["press@example.org"]
    assert "TURN 1 AT A GLANCE" in glance and "\nFOR " not in glance
    # a player's own picture first; an observer gets the whole board only
    pictures = {str(m["To"]): [str(p.get_filename()) for p in m.walk()
                               if p.get_content_type() == "image/png"] for m in reports}
    assert pictures["anna@example.org"][0].endswith("-you.png")
    assert not any(n.endswith("-you.png") for n in pictures["press@example.org"])
    assert pictures["press@example.org"] == pictures["anna@example.org"][1:]
    # the personal block comes first, the character map last
    anna = texts["anna@example.org"]
    assert anna.index("FOR ANNA") < anna.index("MOVE BY MOVE") < anna.index("THE SKY AT")


def config_file(table: Table) -> str:
    path = table.root / "config.yaml"
    path.write_text(
        f"games_dir: {table.root / 'games'}\nspool_dir: {table.root / 'spool'}\n"
        f"referee: {{address: {REFEREE}}}\nmail:\n  mode: maildir\n  maildir:\n"
        f"    inbox: {table.root / 'inbox'}\n    outbox: {table.root / 'outbox'}\n")
    return str(path)


def test_a_corrected_report_says_why_and_what_changed(table: Table, capsys) -> None:  # type: ignore[no-untyped-def]
    play_turn_one(table)
    game = table.game()
    orders = next((game.dir / "turns" / "001" / "orders").glob("anna*.yaml"))
    orders.write_text(orders.read_text().replace("BETA", "ALPHA"))
    assert main(["rerun", "zep1", "--from", "1", "--mail", "--why",
                 "Anna's take-off runway was misread", "--config", config_file(table)]) == 0
    assert "mailed the new reports of turn(s) 1" in capsys.readouterr().out
    sent = [m for m in table.new_outbox()
            if str(m["Subject"]) == "[zep1] turn 1 report (corrected)"]
    assert len(sent) == 3
    anna = body_of(next(m for m in sent if str(m["To"]) == "anna@example.org"))
    head = " ".join(anna[:anna.index("FOR ANNA")].split())
    assert "The game master corrected turn 1." in head
    assert "Why: Anna's take-off runway was misread" in head
    assert "For you: position" in head
    cora = body_of(next(m for m in sent if str(m["To"]) == "cora@example.org"))
    assert "For your aircraft nothing changed" in " ".join(cora.split())


def test_pause_resume_and_extend_are_mailed_as_notices(table: Table, capsys) -> None:  # type: ignore[no-untyped-def]
    config = config_file(table)
    for argv in (["pause", "zep1"], ["resume", "zep1"], ["extend", "zep1", "--by", "24h"]):
        assert main([*argv, "--config", config]) == 0, capsys.readouterr().err
        assert "notice mailed to 3 addresses" in capsys.readouterr().out
    notices = table.new_outbox()
    subjects = sorted({str(m["Subject"]) for m in notices})
    assert subjects == ["[zep1] new deadline for turn 1", "[zep1] paused",
                        "[zep1] resumed: orders for turn 1"]
    assert len(notices) == 9  # three notices to three players, one each
    extended = next(m for m in notices if "new deadline" in str(m["Subject"]))
    deadline = table.game().settings.deadline
    assert deadline is not None
    assert f"New deadline: {deadline:%a} {deadline.day} {deadline:%b %Y %H:%M}" in \
        body_of(extended)
    assert all(len(line) <= 70 for m in notices for line in body_of(m).splitlines())
    assert main(["pause", "zep1", "--config", config, "--no-mail"]) == 0
    assert table.new_outbox() == []


def test_map_and_history_replies_carry_the_picture(table: Table) -> None:
    play_turn_one(table)
    reply = table.send(mail(table, "anna", "MAP", "HISTORY 1", turn=2))[0]
    kinds = [p.get_content_type() for p in reply.walk()]
    assert "text/html" in kinds and kinds.count("image/svg+xml") == 2  # asked for: attached
    assert kinds.count("image/png") == 2  # the board now, and the board after turn 1
    html_part = reply.get_body(("html",))
    assert html_part is not None
    assert len(re.findall(r'src="cid:', str(html_part.get_content()))) == 2
