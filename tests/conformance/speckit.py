"""A referee on a local Maildir for the conformance tests (shared/spec/*.md).

On the one harness (``tests/refereekit.py``) with ``tests/referee/tablekit.py``'s
``Table``: one
tweedekker game ``zep1`` with three players, plus what the contracts speak of
and the referee tests do not set up: an observer, one address that plays two
pilots (``PILOT``), and a second game for the same player (Subject vs body).
"""

from __future__ import annotations

import sys
from datetime import timedelta
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "referee"))

from tablekit import REFEREE, T0, Clock, Table, body_of, parse

from pbmref import gm
from pbmref.store import GameStore
from refereekit import maildir_config

__all__ = ["REFEREE", "T0", "DEADLINE", "OBSERVER", "Table", "body_of", "make_table",
           "mail", "parse", "config_yaml"]

OBSERVER = "watcher@example.net"
DEADLINE = T0 + timedelta(hours=48)


def config_yaml(root: Path) -> Path:
    """The same referee as a config file, for ``pbmref ... --config``."""
    path = root / "config.yaml"
    path.write_text(
        f"games_dir: {root / 'games'}\nspool_dir: {root / 'spool'}\n"
        f"referee: {{address: {REFEREE}, name: Referee}}\n"
        f"mail:\n  mode: maildir\n  maildir: {{inbox: {root / 'inbox'}, "
        f"outbox: {root / 'outbox'}}}\n", encoding="utf-8")
    return path


def make_table(root: Path, **limits: int) -> Table:
    config = maildir_config(root, **limits)
    clock = Clock(T0)
    store = GameStore(config.games_dir)
    players = [
        gm.PlayerSpec("anna", ("anna@example.org",), "Anna", airfield="N"),
        gm.PlayerSpec("bert", ("bert@example.org",), "Bert", airfield="SE"),
        gm.PlayerSpec("cora", ("cora@example.org",), "Cora", airfield="SW"),
        # one address, two pilots (orders.md: PILOT picks one of them)
        gm.PlayerSpec("dirk", ("duo@example.org",), "Dirk", airfield="NE"),
        gm.PlayerSpec("emil", ("duo@example.org",), "Emil", airfield="S"),
    ]
    created = gm.new_game(store, "zep1", players, title="Zeppelin test", seed=11,
                          deadline=DEADLINE, turn_length="48h", early_adjudication=False,
                          reminder_hours=12, observers=[OBSERVER], now=T0)
    other = gm.new_game(store, "zep2", [gm.PlayerSpec("anna", ("anna@example.org",), "Anna",
                                                      airfield="N"),
                                        gm.PlayerSpec("bert", ("bert@example.org",), "Bert",
                                                      airfield="S")],
                        title="Second game", seed=12, deadline=DEADLINE, turn_length="48h",
                        early_adjudication=False, reminder_hours=0, now=T0)
    passwords = dict(created.passwords)
    passwords.update({f"zep2:{k}": v for k, v in other.passwords.items()})
    return Table.start(root, config, store, clock, passwords=passwords)


@pytest.fixture
def table(tmp_path: Path) -> Table:
    return make_table(tmp_path)


def mail(table: Table, player: str, *lines: str, game: str | None = "zep1",
         turn: int | None = None, pilot: str | None = None) -> str:
    """An order mail: GAME, PASSWORD (the player's), optional TURN/PILOT, lines, END."""
    key = player if game in (None, "zep1") else f"{game}:{player}"
    head = [f"GAME {game}"] if game else []
    head.append(f"PASSWORD {table.passwords[key]}")
    if turn is not None:
        head.append(f"TURN {turn}")
    if pilot is not None:
        head.append(f"PILOT {pilot}")
    return "\n".join([*head, *lines, "END"])
