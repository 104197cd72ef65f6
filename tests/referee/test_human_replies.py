"""Mail as people write it, through the Maildir pipeline (issue 16): greetings
left out and said so in one line, every mistake in one reply that says once
that nothing was changed, commands without secrets answered without the
password, HELP for the player's own game, rules by number, the welcome mail,
seconds for a late mail of the deadline's minute, the turn adjudicated now,
a landed aircraft that stays landed, and mails of one second in send order."""

from __future__ import annotations

import os
import re
from datetime import timedelta
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid
from pathlib import Path

import pytest
from tablekit import REFEREE, T0, Table, body_of, parse

from pbmref import gm
from pbmref.cli import main
from pbmref.config import Config, MailConfig, MaildirConfig, RefereeConfig
from pbmref.mail.outbox import read_maildir
from pbmref.referee import guide
from pbmref.referee.pipeline import Referee
from pbmref.referee.turns import adjudicate_due
from pbmref.referee.welcome import queue_welcome, welcome_text
from pbmref.store import Game, GameStore

TAKEOFF = ["PLANE", "TAKEOFF BETA", "1: A", "2: A", "3: L"]


def shows_orders(text: str) -> bool:
    """Whether a reply lists orders in force (their heads: "your orders in force.",
    "Your orders in force now:", "Your earlier orders stay in force")."""
    return bool(re.search(r"(?i)your orders in force(\.|:| now)|orders stay in force:", text))


def mail(table: Table, player: str, *lines: str, password: bool = True) -> str:
    head = ["GAME zep1"] + ([f"PASSWORD {table.passwords[player]}"] if password else [])
    return "\n".join([*head, *lines])


def reply(table: Table, body: str, **kw: object) -> str:
    out = table.send(body, **kw)  # type: ignore[arg-type]
    assert len(out) == 1, [m["Subject"] for m in out]
    return body_of(out[0])


def example_of(text: str) -> list[str]:
    """The example mail of a HELP text: the indented lines from GAME to END."""
    lines = text.splitlines()
    start = next(n for n, line in enumerate(lines) if line.strip().startswith("GAME "))
    end = next(n for n in range(start, len(lines)) if lines[n].strip() == "END")
    return [line.strip() for line in lines[start:end + 1]]


# ------------------------------------------------------------------ reading

def test_greetings_are_left_out_and_said_so_in_one_line(table: Table) -> None:
    text = reply(table, "Hi referee,\n\n" + mail(table, "anna", *TAKEOFF)
                 + "\n\nThanks!\nAnna\n")
    assert "your orders are accepted" in text
    assert text.count("Left out as greeting or signature") == 1
    assert '"Hi referee," (line 1)' in text and '"Anna" (line' in text
    assert table.game().book.entries()["anna"] == {"plane": ["A", "A", "L"],
                                                   "takeoff": "BETA"}


def test_a_refusal_lists_every_mistake_and_says_nothing_changed_once(table: Table) -> None:
    table.send(mail(table, "anna", *TAKEOFF))
    text = reply(table, "Hallo,\n" + mail(table, "anna", "PLANE", "TAKEOFF BETA", "1: A",
                                          "2: 0", "3: A", "zeplin", "1: L f-B")
                 + "\nViele Grüße\nAnna\n")
    assert "NOT accepted" in text
    assert text.lower().count("nothing was changed") == 1
    assert "rule M3" in text and "Did you mean ZEPPELIN?" in text and "rule L3" in text
    assert text.count("Left out as greeting or signature") == 1
    assert "Your earlier orders stay in force" in text and shows_orders(text)
    assert table.game().book.entries()["anna"]["plane"] == ["A", "A", "L"]


def test_a_bad_game_line_hides_no_order_error(table: Table) -> None:
    body = mail(table, "anna", "PLANE", "TAKEOFF BETA", "1: A", "2: 0", "3: A")
    text = reply(table, body.replace("GAME zep1", "GAME"))
    assert "GAME needs the game's name" in text and "rule M3" in text
    assert text.lower().count("nothing was changed") == 1
    assert "You have no orders in force" in text  # the player and password were told


def test_without_a_password_an_envelope_error_shows_no_orders(table: Table) -> None:
    table.send(mail(table, "anna", *TAKEOFF))
    text = reply(table, "GAME\nPASSWORD guess\nPLANE\n1: A\n2: 0\n")
    assert "GAME needs the game's name" in text
    assert "rule M3" not in text and "TAKEOFF BETA" not in text
    assert text.lower().count("nothing was changed") == 1


def test_a_misspelt_password_line_gets_every_mistake_but_no_orders(table: Table) -> None:
    table.send(mail(table, "anna", *TAKEOFF))
    body = mail(table, "anna", "PLANE", "TAKEOFF BETA", "1: A", "2: 0", password=False)
    text = reply(table, body.replace("GAME zep1", f"GAME zep1\nPASSWORT {table.passwords['anna']}"))
    assert "Did you mean PASSWORD?" in text and "rule M3" in text
    assert not shows_orders(text) and "3: L" not in text
    assert table.game().book.entries()["anna"]["plane"] == ["A", "A", "L"]


def test_an_empty_password_line_gets_every_mistake_but_no_orders(table: Table) -> None:
    table.send(mail(table, "anna", *TAKEOFF))
    text = reply(table, "GAME zep1\nPASSWORD\nPLANE\nTAKEOFF BETA\n1: A\n2: 0\n")
    assert "PASSWORD needs your password" in text and "rule M3" in text
    assert text.lower().count("nothing was changed") == 1
    assert not shows_orders(text) and "3: L" not in text


# ------------------------------------------------------------------ no secrets, no password

def test_a_password_line_typed_in_another_alphabet_is_named_and_never_shown(
        table: Table) -> None:
    """Issue 40: "P\u0410SSWORD" (a Cyrillic A) was left out as a greeting, and
    the reply showed the line, password and all."""
    body = mail(table, "anna", *TAKEOFF, password=False)
    text = reply(table, body.replace("GAME zep1",
                                     f"GAME zep1\nP\u0410SSWORD {table.passwords['anna']}"))
    assert '"\u0410" is a Cyrillic letter, not the Latin A' in text
    assert "Left out as greeting" not in text
    assert table.passwords["anna"] not in text
    assert table.game().book.entries() == {}


def test_a_reply_to_the_welcome_hides_the_password_and_none_of_the_referees_words(
        table: Table) -> None:
    """Issue 40: the Subject of the welcome ("your password and how to send
    orders"), and the welcome quoted below a player's orders, made the masker
    hide "and" wherever the reply said PASSWORD and."""
    queue_welcome(table.referee, table.game(), table.passwords)
    table.referee.deliver(force=True)
    welcome = {m["To"]: m for m in table.new_outbox()}["anna@example.org"]
    quoted = "\n".join("> " + line for line in body_of(welcome).splitlines())
    for asks in (TAKEOFF, ["HELP"]):
        body = mail(table, "anna", *asks) + "\n\nOn Sun, the referee wrote:\n" + quoted
        (answer,) = table.send(body, subject=f"Re: {welcome['Subject']}")
        assert answer["Subject"] == "Re: [zep1] welcome: your password and how to send orders"
        text = body_of(answer)
        assert "(hidden)" not in text, text
        assert table.passwords["anna"] not in text


def test_help_without_the_password_is_for_the_players_own_game(table: Table) -> None:
    table.send(mail(table, "anna", *TAKEOFF))
    text = reply(table, "Hi,\nHELP\nThanks\n")
    assert "How to send orders (pbmref, Tweedekker, game zep1)" in text
    example = example_of(text)
    assert example[:3] == ["GAME zep1", guide.PASSWORD_LINE, "TURN 1"]
    assert "TAKEOFF BETA" in example  # anna's aircraft is landed (L3)
    assert table.passwords["anna"] not in text
    assert not shows_orders(text) and "shown only in answer to a mail" in text
    assert text.count("Left out as greeting or signature") == 1


def test_a_copied_help_example_with_the_password_put_in_is_accepted(table: Table) -> None:
    for player in ("anna", "bert"):
        sender = f"{player}@example.org"
        example = example_of(reply(table, "HELP", sender=sender))
        body = "\n".join(example).replace("<your password>", table.passwords[player])
        text = reply(table, body, sender=sender)
        assert "your orders are accepted" in text, text
        assert table.game().book.entries()[player]["takeoff"]


def test_status_and_rules_need_no_password(table: Table) -> None:
    table.send(mail(table, "anna", *TAKEOFF))
    text = reply(table, "GAME zep1\nHELP M3\nSTATUS\n", sender="bert@example.org")
    assert "Rule M3 (tweedekker): Stalling" in text
    assert "Anna" in text and "received" in text and "waiting" in text
    assert "TAKEOFF BETA" not in text and not shows_orders(text)
    assert "There is no rule X99" in reply(table, "GAME zep1\nHELP X99\n",
                                           sender="bert@example.org")


def test_anything_else_without_the_password_is_refused(table: Table) -> None:
    for body in ("GAME zep1\nORDERS\n", "GAME zep1\nHELP\nMAP\n",
                 "GAME zep1\nPASSWORD guess\nHELP\n", "GAME zep1\nSTATUS\nPLANE\n1: A\n"):
        table.clock.now += timedelta(minutes=61)  # the warning goes once an hour (issue 15)
        text = reply(table, body)
        assert "wrong or missing PASSWORD" in text, body
        assert "How to send orders" not in text
    assert table.game().book.entries() == {}


def test_a_bare_help_from_a_stranger_gets_the_join_note_and_the_help(table: Table) -> None:
    text = reply(table, "help\n", sender="stranger@example.net")
    assert "registered for any game here" in text
    assert "How to send orders (pbmref)" in text and guide.PASSWORD_LINE in text
    assert "zep1" not in text


# ------------------------------------------------------------------ saying it right

def test_orders_for_a_landed_aircraft_say_it_stays_landed(table: Table) -> None:
    text = reply(table, mail(table, "bert", "ORDERS"), sender="bert@example.org")
    assert "stays landed" in text and "L2a" in text and "straight ahead" not in text


def test_clear_and_the_reminder_to_a_landed_aircraft_say_it_stays_landed(
        table: Table) -> None:
    from pbmref.referee.turns import send_reminders

    text = reply(table, mail(table, "bert", "CLEAR"), sender="bert@example.org")
    assert "stays landed" in text and "straight ahead" not in text
    table.clock.now = T0 + timedelta(hours=40)  # in the 12-hour reminder window
    assert send_reminders(table.referee) == 3
    table.referee.deliver(force=True)
    reminders = [body_of(m) for m in table.new_outbox() if "reminder" in str(m["Subject"])]
    assert len(reminders) == 3
    assert all("stays landed (rules L2a, N1)" in r and "straight ahead" not in r
               for r in reminders)


def test_a_late_mail_of_the_deadlines_minute_shows_seconds(table: Table) -> None:
    late = T0 + timedelta(hours=48, seconds=2)
    table.clock.now = late
    text = reply(table, mail(table, "anna", *TAKEOFF), arrived=late)
    assert "arrived Tue 3 Mar 2026 12:00:02 UTC, after the deadline" in text
    assert "(Tue 3 Mar 2026 12:00:00 UTC)" in text


def test_the_last_orders_under_early_adjudication_say_when_the_turn_is_played(
        table: Table) -> None:
    players = [gm.PlayerSpec("anna", ("anna@example.org",), "Anna", airfield="N"),
               gm.PlayerSpec("bert", ("bert@example.org",), "Bert", airfield="SE")]
    created = gm.new_game(table.store, "zep2", players, seed=3, now=T0,
                          deadline=T0 + timedelta(hours=48), turn_length="48h",
                          early_adjudication=True)
    first = reply(table, f"GAME zep2\nPASSWORD {created.passwords['anna']}\n" + "\n".join(TAKEOFF))
    assert "You may send new orders until then" in first
    last = reply(table, f"GAME zep2\nPASSWORD {created.passwords['bert']}\n"
                 + "\n".join(TAKEOFF), sender="bert@example.org")
    # tweedekker waits half an hour for changes (issue 43, item 7)
    assert ("All orders are in: turn 1 will be played at 12:30 UTC\n(Sun 1 Mar) unless "
            "someone sends WAIT.") in last
    assert "You may send new orders" not in last
    assert adjudicate_due(table.referee, table.intake).adjudicated == []
    table.clock.now = T0 + timedelta(minutes=30)
    due = adjudicate_due(table.referee, table.intake)
    assert [r.turn for r in due.adjudicated] == [1]


def test_a_mail_cron_takes_in_at_the_deadline_says_the_turn_is_played_now(
        table: Table) -> None:
    table.clock.now = T0 + timedelta(hours=48, minutes=1)
    raw = _raw("anna@example.org", mail(table, "anna", *TAKEOFF), T0 + timedelta(hours=47))
    _deliver(table, raw, T0 + timedelta(hours=47))
    due = adjudicate_due(table.referee, table.intake)
    assert [r.turn for r in due.adjudicated] == [1]
    out = table.new_outbox()
    [accepted] = [m for m in out if m["Subject"] == "Re: orders"]
    assert "The deadline has passed: turn 1 is being adjudicated now" in body_of(accepted)
    assert any(m["Subject"] == "[zep1] turn 1 report" for m in out)


def test_mails_of_one_second_are_applied_in_the_order_they_were_sent(table: Table) -> None:
    second = T0 + timedelta(hours=1)
    later_sent = _raw("anna@example.org", mail(table, "anna", *TAKEOFF[:-1], "3: R"),
                      second - timedelta(seconds=5))
    earlier_sent = _raw("anna@example.org", mail(table, "anna", *TAKEOFF),
                        second - timedelta(seconds=30))
    _deliver(table, later_sent, second)  # the server got the later-sent one first
    _deliver(table, earlier_sent, second)
    table.referee.take_in(table.intake)
    table.referee.deliver(force=True)
    replies = [body_of(m) for m in table.new_outbox()]
    assert table.game().book.entries()["anna"]["plane"] == ["A", "A", "R"]
    first, last = replies  # answered in the order applied
    assert "3: L" in first and "that one comes after this one" in first
    assert "3: R" in last and "this one came after it: the orders below are in force" in last
    assert "12:59:55 UTC" in first and "12:59:30 UTC" in last


def _raw(sender: str, body: str, sent: object) -> bytes:
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = REFEREE
    msg["Subject"] = "orders"
    msg["Date"] = format_datetime(sent)  # type: ignore[arg-type]
    msg["Message-ID"] = make_msgid(domain="example.org")
    msg.set_content(body)
    return msg.as_bytes()


def _deliver(table: Table, raw: bytes, arrived: object) -> None:
    key = table.intake.deliver(raw)
    stamp = arrived.timestamp()  # type: ignore[attr-defined]
    os.utime(table.intake.root / "new" / key, (stamp, stamp))


# ------------------------------------------------------------------ the welcome mail

def test_the_welcome_mail_has_everything_a_new_player_needs(table: Table) -> None:
    game = table.game()
    assert queue_welcome(table.referee, game, table.passwords) == 3
    table.referee.deliver(force=True)
    out = {m["To"]: m for m in table.new_outbox()}
    assert sorted(out) == ["anna@example.org", "bert@example.org", "cora@example.org"]
    text = body_of(out["anna@example.org"])
    assert "[zep1] welcome" in out["anna@example.org"]["Subject"]
    assert f"Your password: {table.passwords['anna']}" in text
    assert text.count(table.passwords["anna"]) == 1  # HELP says <your password>
    assert "airfield N" in text and "TAKEOFF" in text
    assert "Tue 3 Mar 2026 12:00 UTC" in text and REFEREE in text
    example = "\n".join(example_of(text)).replace("<your password>", table.passwords["anna"])
    assert "your orders are accepted" in reply(table, example)
    # queued twice, sent once
    queue_welcome(table.referee, game, table.passwords)
    table.referee.deliver(force=True)
    assert table.new_outbox() == []


def test_a_welcome_names_the_deadline_in_the_games_time_zone(tmp_path: Path) -> None:
    store = GameStore(tmp_path)
    game = gm.new_game(store, "ams", [gm.PlayerSpec("anna", ("a@example.org",), "Anna"),
                                      gm.PlayerSpec("bert", ("b@example.org",), "Bert")],
                       seed=1, now=T0, deadline=T0 + timedelta(hours=48), turn_length="48h",
                       timezone="Europe/Amsterdam").game
    text = welcome_text(game, "anna", None, REFEREE)
    assert "Tue 3 Mar 2026 13:00 CET (Europe/Amsterdam)" in text
    assert "Your password is the one the game master gave you" in text


def _config(root: Path) -> Path:
    path = root / "pbmref.yaml"
    path.write_text(f"""games_dir: {root / 'games'}
spool_dir: {root / 'spool'}
referee: {{address: {REFEREE}, name: Referee}}
mail:
  mode: maildir
  maildir: {{inbox: {root / 'inbox'}, outbox: {root / 'outbox'}}}
""", encoding="utf-8")
    return path


def test_new_game_and_replace_player_mail_the_welcome(tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]
                                                      ) -> None:
    config = _config(tmp_path)
    assert main(["new-game", "zep9", "--config", str(config), "--seed", "4",
                 "--player", "anna:anna@example.org:Anna:N",
                 "--player", "bert:bert@example.org:Bert:SE"]) == 0
    assert "welcome mailed to 2 players" in capsys.readouterr().out
    sent = {m["To"]: body_of(m) for m in read_maildir(tmp_path / "outbox")}
    assert sorted(sent) == ["anna@example.org", "bert@example.org"]
    assert "Welcome to game zep9" in sent["anna@example.org"]
    assert main(["replace-player", "zep9", "bert", "--config", str(config),
                 "--address", "berta@example.org", "--name", "Berta"]) == 0
    out = capsys.readouterr().out
    new_pw = re.search(r"new password for bert: (\S+)", out)
    assert new_pw is not None and "welcome mailed to berta@example.org" in out
    [welcome] = [m for m in read_maildir(tmp_path / "outbox") if m["To"] == "berta@example.org"]
    assert f"Your password: {new_pw.group(1)}" in body_of(welcome)
    assert "You play as Berta" in body_of(welcome)
    assert main(["new-game", "zep8", "--config", str(config), "--no-welcome",
                 "--player", "cora:cora@example.org:Cora:N",
                 "--player", "dirk:dirk@example.org:Dirk:S"]) == 0
    assert "welcome" not in capsys.readouterr().out


def test_new_class_mails_each_pupil_a_welcome(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    import yaml

    config = _config(tmp_path)
    template = tmp_path / "7b.yaml"
    pupils = {"anna": "Germans", "bart": "Germans", "emma": "Allies", "fenna": "Allies"}
    template.write_text(yaml.safe_dump({
        "class": "7b", "title": "Class 7B", "per_board": 4, "turns": 4, "seed": 9,
        "turn_length": "48h", "pilots": {pid: {"name": pid.title(), "team": team,
                                              "address": f"{pid}@school.example"}
                                        for pid, team in pupils.items()}}))
    assert main(["new-class", str(template), "--config", str(config),
                 "--deadline", (T0 + timedelta(hours=48)).isoformat()]) == 0
    assert "welcome mailed to 4 pupils" in capsys.readouterr().out
    sent = {m["To"]: body_of(m) for m in read_maildir(tmp_path / "outbox")}
    assert sorted(sent) == sorted(f"{p}@school.example" for p in pupils)
    anna = sent["anna@school.example"]
    assert "a game of Fast Play" in anna and "You fly for the Germans" in anna
    assert "tweedekker" not in anna.lower()
    # the pupil's copied example, password put in, is accepted by the referee
    password = re.search(r"Your password: (.+)", anna)
    assert password is not None
    cfg = Config(games_dir=tmp_path / "games", spool_dir=tmp_path / "spool2",
                 referee=RefereeConfig(address=REFEREE, name="Referee"),
                 mail=MailConfig(mode="maildir", maildir=MaildirConfig(
                     inbox=tmp_path / "inbox", outbox=tmp_path / "outbox2")))
    referee = Referee(cfg, store=GameStore(tmp_path / "games"))
    body = "\n".join(example_of(anna)).replace("<your password>", password.group(1))
    from pbmref.mail.message import read_message

    result = referee.handle(read_message(_raw("anna@school.example", body, T0)),
                            b"", arrived=T0 + timedelta(minutes=1))
    assert "your orders are accepted" in body_of(parse(result.replies[0].as_bytes()))


# ------------------------------------------------------------------ every game kind's example

def _games(root: Path) -> list[tuple[Game, str]]:
    """(game, player) for a game of each kind, some a turn on."""
    from pbmref.rulesets.fastplay.classroom import new_class, template_from_dict

    store = GameStore(root)
    people = [gm.PlayerSpec(p, (f"{p}@example.org",), p.title()) for p in ("fleur", "edith")]
    out: list[tuple[Game, str]] = []
    for kind in ("diplomacy", "dirigible"):
        game = gm.new_game(store, kind, people, ruleset=kind, seed=2, now=T0,
                           deadline=T0 + timedelta(hours=48)).game
        out += [(game, "fleur"), (game, "edith")]
    pupils = {"anna": "Germans", "bart": "Germans", "emma": "Allies", "fenna": "Allies"}
    template = template_from_dict({
        "class": "7c", "title": "Class 7C", "per_board": 4, "turns": 4, "seed": 9,
        "pilots": {p: {"name": p, "team": t, "address": f"{p}@x.org"}
                   for p, t in pupils.items()}})
    for board in new_class(template):
        game = gm.new_game(store, board.game_id,
                           [gm.PlayerSpec(p, (f"{p}@x.org",), p) for p in board.players],
                           ruleset="fastplay", position=board.position, now=T0,
                           deadline=T0 + timedelta(hours=48)).game
        out += [(game, p) for p in board.players]
    air = gm.new_game(store, "air", [gm.PlayerSpec("anna", ("a@example.org",), "Anna",
                                                   airfield="N"),
                                     gm.PlayerSpec("bert", ("b@example.org",), "Bert",
                                                   airfield="S")],
                      seed=7, now=T0, deadline=T0 + timedelta(hours=48)).game
    out.append((air, "anna"))
    gm.adjudicate(store, "air", T0 + timedelta(hours=49))
    gm.adjudicate(store, "diplomacy", T0 + timedelta(hours=49))
    out += [(store.open("air"), "anna"), (store.open("diplomacy"), "fleur")]
    return out


def test_every_game_kinds_help_example_is_accepted_as_written(tmp_path: Path) -> None:
    from pbmref.orders.check import check_order_mail

    for game, player in _games(tmp_path):
        lines = guide.example_mail(game, player)
        body = "\n".join(lines).replace("<your password>", "swordfish")
        checked = check_order_mail(
            "", body, read_body=game.ruleset.body_reader(game.open.state),
            player=player, open_turn=game.turn_label, game_id=game.id,
            verify_password=lambda who, pw: pw == "swordfish")
        assert checked.entry, (game.id, lines)
        text = guide.help_text(game, player)
        assert max(len(line) for line in text.splitlines()) <= 72, game.id
