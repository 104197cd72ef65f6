"""The envelope: game, password, turn, pilot, commands, body line numbers."""

from __future__ import annotations

import pytest

from pbmref.orders.envelope import (
    check_game,
    check_turn,
    game_from_subject,
    identify_player,
    read_order_mail,
)
from pbmref.orders.errors import (
    OrderMailError,
    StaleTurnError,
    UnknownGameError,
    UnknownPlayerError,
)

SUBJECTS = [
    ("zep1 orders", "zep1"),
    ("Re: [zep1] turn 7 report", "zep1"),
    ("RE: Re: [dd-2] S1901M", "dd-2"),
    ("Fwd: zep1", "zep1"),
    ("dogfight orders", "dogfight"),
    ("Orders for game dogfight", "dogfight"),
    ("Game: zep1", "zep1"),
    ("AW: zep1 turn 3", "zep1"),
    ("orders", None),
    ("Re: turn 7", None),
    ("Hello there", None),
    ("", None),
]


@pytest.mark.parametrize(("subject", "game"), SUBJECTS, ids=[s or "empty" for s, _ in SUBJECTS])
def test_game_from_subject(subject: str, game: str | None) -> None:
    assert game_from_subject(subject) == game


# The GAME line: the name as written; a phone's one full stop at the end is no
# part of it, more than that makes a name no game has (issue 40: "GAME a.."
# was read as game a).
GAME_LINES = [
    ("GAME zep1", "zep1"),
    ("GAME zep1.", "zep1"),
    ("GAME zep1!", "zep1"),
    ("game: zep1", "zep1"),
    ("GAME zep1, PASSWORD x", "zep1"),
    ("GAME a..", "a.."),
    ("GAME zep1..", "zep1.."),
    ("GAME zep1...", "zep1..."),
    ("GAME zep1?!", "zep1?!"),
    ("GAME ../../etc", "../../etc"),
    ("GAME zep_", "zep_"),
]


@pytest.mark.parametrize(("line", "game"), GAME_LINES, ids=[line for line, _ in GAME_LINES])
def test_the_game_line_names_the_game_as_written(line: str, game: str) -> None:
    if game in ("zep1", "zep_"):
        assert read_order_mail("", line + "\n").game_id == game
        return
    with pytest.raises(OrderMailError) as info:
        read_order_mail("", line + "\n")
    (error,) = info.value.errors
    assert error.rule == "ENVELOPE" and error.line_no == 1
    assert error.message == f"{game} is not a game name", error.message
    assert error.column == line.index(game) + 1 and error.width == len(game)


def test_body_lines_keep_their_mail_line_numbers() -> None:
    mail = read_order_mail("", "> quoted\n\nGAME zep1\n# note\nPLANE\n\n1: A\r\n2: L\n")
    assert mail.body == ((5, "PLANE"), (7, "1: A"), (8, "2: L"))


def test_end_signature_and_quotes_stop_or_skip() -> None:
    mail = read_order_mail("", "PLANE\n1: A\nEND\n1: R\n")
    assert mail.body == ((1, "PLANE"), (2, "1: A")) and mail.ended_at == 3
    mail = read_order_mail("", "PLANE\n1: A\n--\nJohn\n")
    assert mail.ended_at == 3 and len(mail.body) == 2


def test_body_game_wins_with_a_note() -> None:
    mail = read_order_mail("Re: [zep2] report", "GAME zep1\n")
    assert mail.game_id == "zep1" and mail.game_from == "body"
    assert mail.game_note is not None and "zep2" in mail.game_note
    assert read_order_mail("Re: [ZEP1] report", "game zep1\n").game_note is None


def test_commands_and_values() -> None:
    mail = read_order_mail("", "game zep1; password Sw0rd; turn 7\nPILOT baron\n"
                               "help\nHISTORY 3\nstatus, map\nclear\norders\n")
    assert (mail.game_id, mail.password, mail.turn, mail.pilot) == ("zep1", "Sw0rd", 7, "baron")
    assert [c.format() for c in mail.commands] == [
        "HELP", "HISTORY 3", "STATUS", "MAP", "CLEAR", "ORDERS"]
    assert mail.body == ()


def test_stale_turn_and_phase() -> None:
    mail = read_order_mail("", "GAME zep1\nTURN 6\n")
    check_turn(mail, 6)
    with pytest.raises(StaleTurnError) as info:
        check_turn(mail, 7)
    assert info.value.line_no == 2 and info.value.column == 6
    dip = read_order_mail("", "GAME dd1\nPHASE f1901m\n")
    check_turn(dip, "F1901M")
    with pytest.raises(StaleTurnError):
        check_turn(dip, "S1902M")


def test_identity() -> None:
    addresses = {"baron": ["baron@example.org"], "red": ["baron@example.org"],
                 "ace": ["ace@example.org"]}
    mail = read_order_mail("", "PILOT red\n")
    assert identify_player(mail, "Baron <BARON@example.org>", addresses) == "red"
    with pytest.raises(UnknownPlayerError, match="several"):
        identify_player(read_order_mail("", ""), "baron@example.org", addresses)
    assert identify_player(read_order_mail("", ""), "ace@example.org", addresses) == "ace"
    with pytest.raises(UnknownGameError):
        check_game(read_order_mail("", "PLANE\n"), ["zep1"])
    assert check_game(read_order_mail("ZEP1 orders", ""), ["zep1"]) == "zep1"


@pytest.mark.parametrize("text", [None, 42, b"GAME zep1", "\x00\x01", "GAME", "TURN -1",
                                  "GAME zep1 GAME", "PASSWORD", "PHASE 1901"])
def test_odd_input_gives_a_mail_or_our_error(text: object) -> None:
    try:
        read_order_mail(None, text)  # type: ignore[arg-type]
    except OrderMailError as exc:
        assert exc.errors
