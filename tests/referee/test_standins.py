"""A computer pilot stands in for a replaced player in both air rulesets (issue 8)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from pbmref import gm
from pbmref.config import Config, MailConfig, MaildirConfig
from pbmref.referee.pipeline import Referee
from pbmref.referee.turns import adjudicate_due, fill_computer_orders
from pbmref.rulesets.fastplay.classroom import new_class, template_from_dict
from pbmref.store import GameStore

NOW = datetime(2026, 5, 1, 12, tzinfo=UTC)


def _referee(tmp_path: Path, store: GameStore) -> Referee:
    config = Config(games_dir=store.dir, spool_dir=tmp_path / "spool", mail=MailConfig(
        maildir=MaildirConfig(inbox=tmp_path / "in", outbox=tmp_path / "out")))
    return Referee(config, store=store, clock=lambda: NOW)


def test_fastplay_computer_pilot_orders_pass_validation(tmp_path: Path) -> None:
    pilots = {f"g{i}": {"team": "Germans", "computer": True} for i in range(3)}
    pilots.update({f"a{i}": {"team": "Allies", "computer": True} for i in range(3)})
    (board,) = new_class(template_from_dict({"class": "c", "pilots": pilots}))
    store = GameStore(tmp_path / "games")
    gm.new_game(store, board.game_id,
                [gm.PlayerSpec(p, (f"{p}@school.example",), computer=True) for p in board.players],
                ruleset="fastplay", position=board.position, seed=4,
                deadline=NOW - timedelta(minutes=1), now=NOW - timedelta(days=1))
    referee = _referee(tmp_path, store)
    game = store.open(board.game_id)
    written = fill_computer_orders(referee, game)
    assert sorted(written) == sorted(board.players)
    orders = store.open(board.game_id).book.entries()  # read back: each is checked as in force
    assert set(orders) == set(board.players)
    report = adjudicate_due(referee, None, games=[board.game_id], force=True)
    assert [r.turn for r in report.adjudicated] == [1]


def test_tweedekker_replaced_player_is_flown_by_the_computer(tmp_path: Path) -> None:
    store = GameStore(tmp_path / "games")
    gm.new_game(store, "z", [gm.PlayerSpec("anna", ("anna@example.org",)),
                             gm.PlayerSpec("bert", ("bert@example.org",))],
                seed=9, deadline=NOW - timedelta(minutes=1), now=NOW - timedelta(days=1))
    gm.replace_player(store, "z", "bert", computer=True)
    referee = _referee(tmp_path, store)
    adjudicate_due(referee, None)
    played = store.open("z").book.entries(1)
    assert "bert" in played and played["bert"].get("takeoff")
    assert "anna" not in played  # a human without orders stays an NMR (N1)
