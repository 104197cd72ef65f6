"""A re-run replays what the game master did between turns (issue 21).

Each case plays the same game twice: new-game, turn 1 adjudicated, one GM
action while turn 2 is open, pause, resume, turn 2 adjudicated. The second
time an unedited ``rerun --from 1`` comes between pause and resume, and
another one at the end. Both games must be the same, file for file: a re-run
without an edit changes nothing, whatever the game master did meanwhile.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from pbmref import gm
from pbmref.base.yamlfile import dump_yaml, read_yaml
from pbmref.gm.actions import GM_FILE, actions_of
from pbmref.store import GameStore

T0 = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
PILOTS = ("anna", "bert", "carl", "dora")
GAME = "zep"

Action = Callable[[GameStore, datetime], object]

ACTIONS: dict[str, Action] = {
    "kick": lambda s, now: gm.kick(s, GAME, "carl", now=now),
    "replace-player": lambda s, now: gm.replace_player(
        s, GAME, "carl", address="charlie@example.org", name="Charlie", new_pw=False, now=now),
    "replace-player --computer": lambda s, now: gm.replace_player(
        s, GAME, "carl", computer=True, now=now),
    "kick, then replace-player": lambda s, now: (
        gm.kick(s, GAME, "carl", now=now),
        gm.replace_player(s, GAME, "carl", address="cora@example.org", new_pw=False,
                          now=now + timedelta(minutes=5))),
    "extend": lambda s, now: gm.extend(s, GAME, timedelta(hours=24), now=now),
    "add-observer": lambda s, now: gm.add_observer(s, GAME, "press@example.org", now=now),
    "pause only": lambda s, now: None,
}


def snapshot(game_dir: Path) -> dict[str, str]:
    """Every file of a game but the state index (it holds game.yaml's mtime)."""
    return {str(p.relative_to(game_dir)): p.read_text() for p in sorted(game_dir.rglob("*"))
            if p.is_file() and p.name not in (".lock", "state.yaml")}


def send_orders(store: GameStore, turn: int) -> None:
    """Every active pilot's orders for the open turn (the computer pilot's choice)."""
    game = store.open(GAME)
    rng = random.Random(turn)
    for pid, player in game.settings.players.items():
        if not player.active:
            continue
        orders = game.ruleset.computer_orders(game.open.state, pid, rng)
        entry = None if orders is None else game.ruleset.encode_orders(orders)
        if entry:
            game.book.save(pid, entry, raw="(test)", message_id=f"<{pid}-{turn}@test>",
                           received_at=T0 + timedelta(days=2 * turn - 1))


def play(root: Path, action: Action, *, rerun: bool) -> Path:
    store = GameStore(root / "games")
    gm.new_game(store, GAME, [gm.PlayerSpec(p, (f"{p}@example.org",), p.title(), False, None)
                              for p in PILOTS],
                seed=1916, passwords=False, deadline=T0 + timedelta(days=2), now=T0)
    send_orders(store, 1)
    assert gm.adjudicate(store, GAME, T0 + timedelta(days=2, minutes=1)).turn == 1
    action(store, T0 + timedelta(days=2, hours=1))
    gm.pause(store, GAME, now=T0 + timedelta(days=2, hours=2))
    if rerun:
        result = gm.rerun(store, GAME, 1, now=T0 + timedelta(days=2, hours=3))
        assert not result.changed, result.text()
    gm.resume(store, GAME, T0 + timedelta(days=3))
    send_orders(store, 2)
    assert gm.adjudicate(store, GAME, T0 + timedelta(days=6), force=True).turn == 2
    if rerun:
        result = gm.rerun(store, GAME, 1, now=T0 + timedelta(days=6, hours=1))
        assert not result.changed, result.text()
    return store.path(GAME)


@pytest.mark.parametrize("name", ACTIONS)
def test_an_unedited_rerun_changes_nothing_after_a_gm_action(tmp_path, name):
    plain = snapshot(play(tmp_path / "plain", ACTIONS[name], rerun=False))
    rerun = snapshot(play(tmp_path / "rerun", ACTIONS[name], rerun=True))
    assert sorted(rerun) == sorted(plain)
    for path in plain:
        assert rerun[path] == plain[path], f"{path} differs after the re-run"


def test_the_kicked_pilot_flew_turn_1_and_is_out_of_turn_2(tmp_path):
    """The bug as reported: after kick, pause, rerun, resume, adjudicate, the
    kicked pilot's plane was back on the map with a missed turn (NMR)."""
    game_dir = play(tmp_path, ACTIONS["kick"], rerun=True)
    store = GameStore(tmp_path / "games")
    game = store.open(GAME)
    turn1 = read_yaml(game_dir / "turns/001/result.yaml").data
    assert "carl" in turn1["orders"]  # orders of turn 1 count: carl was still flying
    assert game.read_position(2)["aircraft"]["carl"]["state"] == "removed"
    turn2 = read_yaml(game_dir / "turns/002/result.yaml").data
    assert "carl" not in turn2["orders"] and "carl" not in turn2["no_orders"]
    assert not any(e.get("kind") == "nmr" and e.get("pilot") == "carl"
                   for e in game.history.events(2))


def test_each_action_is_recorded_in_its_turn_and_the_file_only_grows(tmp_path):
    play(tmp_path, ACTIONS["kick, then replace-player"], rerun=False)
    game = GameStore(tmp_path / "games").open(GAME)
    recorded = actions_of(game, 2)
    assert [a.action for a in recorded] == ["kick", "replace-player", "pause", "resume"]
    kick = recorded[0]
    assert kick.player == "carl" and kick.at == T0 + timedelta(days=2, hours=1)
    assert kick.before == {"players": {"carl": {"status": "active"}}}
    assert kick.after == {"players": {"carl": {"status": "kicked"}}}
    assert "password_hash" not in (game.turn_dir(2) / GM_FILE).read_text()
    assert actions_of(game, 1) == [] and actions_of(game, 3) == []
    # appended, never rewritten: what was written first is still the file's start
    first = game.turn_dir(2) / GM_FILE
    text = first.read_text()
    gm.add_observer(GameStore(tmp_path / "games"), GAME, "late@example.org")
    assert actions_of(game, 3)[-1].action == "add-observer"
    assert first.read_text() == text
    assert gm.check(GameStore(tmp_path / "games"), GAME).ok


def test_a_broken_gm_file_is_named_with_its_line(tmp_path):
    play(tmp_path, ACTIONS["kick"], rerun=False)
    store = GameStore(tmp_path / "games")
    path = store.open(GAME).turn_dir(2) / GM_FILE
    path.write_text(path.read_text().replace("action: kick", "action: promote"))
    result = gm.check(store, GAME)
    assert not result.ok
    assert any("gm.yaml" in str(p) and "promote" in str(p) for p in result.problems)


def test_a_pilot_moved_between_boards_is_replayed_on_the_board_it_joined(tmp_path):
    """``roster rebalance --apply`` moves a returning pilot to another board of a
    class: the board they joined gets their plane again in a re-run; the board
    they left refuses to re-run turns from before (their player entry left with
    them)."""
    from pbmref.cli import main
    from pbmref.gm.classroom import apply_transfers
    from pbmref.rulesets.classes import Transfer
    from pbmref.store import TurnError

    template = tmp_path / "class.yaml"
    pilots = {f"{side[0].lower()}{i:02d}": {"name": f"{side} {i}", "team": side,
                                            "computer": True}
              for side in ("Germans", "Allies") for i in range(5)}
    template.write_text(dump_yaml({"class": "c", "pilots": pilots, "seed": 7}))
    games = tmp_path / "games"
    assert main(["new-class", str(template), "--games", str(games), "--no-passwords"]) == 0
    store = GameStore(games)
    for gid in ("c-1", "c-2"):
        assert gm.adjudicate(store, gid, T0, force=True).turn == 1
    one = store.open("c-1")
    mover = next(iter(one.position["aircraft"]))
    position = dict(one.position)
    position["aircraft"] = {**position["aircraft"],
                            mover: {**position["aircraft"][mover], "state": "left"}}
    one.history.replace(2, "position.yaml", one.history.position_text(2, position))
    done = apply_transfers(store, [Transfer(mover, "c-1", "c-2")], now=T0)
    assert done == [f"{mover}: moved from c-1 to c-2"]
    two = store.open("c-2")
    assert [a.action for a in actions_of(two, 2)] == ["transfer-in"]
    before = snapshot(two.dir)
    assert not gm.rerun(store, "c-2", 1, now=T0).changed
    assert snapshot(two.dir) == before
    with pytest.raises(TurnError, match=f"{mover} moved to c-2 in turn 2"):
        gm.rerun(store, "c-1", 1)
