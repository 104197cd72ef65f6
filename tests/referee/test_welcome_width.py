"""Welcome mails never have a line over 70 columns (issue 43, item 8), for
every game kind, with a long game title, long player names, a long address
and the lobby's note (a game that starts once its places are taken, J4)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from pbmref import gm
from pbmref.referee.newpassword import new_password_text
from pbmref.referee.welcome import welcome_text
from pbmref.rulesets.fastplay.classroom import new_class, template_from_dict
from pbmref.store import GameStore

T0 = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
TITLE = ("The Grand Spring Offensive of the Flying Circus over the Western Front, "
         "Third Campaign of the Rhineland Society of Paper Aviators")
NAME = "Maximiliane-Theodora Wilhelmina von Hohenzollern-Sigmaringen de la Tour"
ADDRESS = "maximiliane.theodora.von.hohenzollern-sigmaringen@very-long-university-name.example.org"
REFEREE = "referee-of-the-paper-aviators-society@play-by-mail.example.org"  # 63
NOTE = ("The game starts now: every place is taken (J4). Your place was given by your "
        "preference where it could be, otherwise by lot among those left.")


def players(kind: str) -> tuple[list[gm.PlayerSpec], dict[str, object]]:
    if kind == "fastplay":
        (board,) = new_class(template_from_dict({
            "class": "7c", "title": TITLE, "per_board": 2, "seed": 9,
            "pilots": {"maxi": {"name": NAME, "team": "Germans", "address": ADDRESS},
                       "bart": {"name": NAME + " II", "team": "Allies",
                                "address": "bart@example.org"}}}))
        names = {"maxi": NAME, "bart": NAME + " II"}
        addresses = {"maxi": ADDRESS, "bart": "bart@example.org"}
        return ([gm.PlayerSpec(p, (addresses[p],), names[p]) for p in board.players],
                {"position": board.position})
    if kind == "tweedekker":
        return ([gm.PlayerSpec("maxi", (ADDRESS,), NAME, airfield="N"),
                 gm.PlayerSpec("bart", ("bart@example.org",), NAME + " II", airfield="SE")],
                {})
    return ([gm.PlayerSpec("maxi", (ADDRESS,), NAME, power="FRA"),
             gm.PlayerSpec("bart", ("bart@example.org",), NAME + " II", power="ENG")], {})


@pytest.mark.parametrize("kind", ["tweedekker", "fastplay", "diplomacy", "dirigible"])
def test_no_welcome_line_is_over_70_columns(tmp_path: Path, kind: str) -> None:
    specs, extra = players(kind)
    created = gm.new_game(GameStore(tmp_path), "longgame-with-a-long-id-2026", specs,
                          title=TITLE, ruleset=kind, seed=3, now=T0,
                          deadline=T0 + timedelta(hours=48), turn_length="48h",
                          timezone="America/Argentina/ComodRivadavia",
                          **extra)  # type: ignore[arg-type]
    game = created.game
    for pid, password in created.passwords.items():
        for text in (welcome_text(game, pid, password, REFEREE),
                     welcome_text(game, pid, password, REFEREE, note=NOTE),
                     welcome_text(game, pid, None, REFEREE),
                     new_password_text(game, pid, password, REFEREE)):
            long = [line for line in text.splitlines() if len(line) > 70]
            assert long == [], long
            assert NAME in " ".join(text.split()) or "new password" in text.lower()
