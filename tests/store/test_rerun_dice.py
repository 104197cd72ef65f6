"""A re-run deals each recorded die to what it was rolled for (issue 46, V5).

A Fast Play game of six computer pilots is played for four turns; then the
game master makes one pilot hold fire in move 1 of a turn (or open fire
where he held it) and re-runs from there. Every other pilot keeps his own
dice: the held-fire dice go to nobody, a die never rolled comes from the
game's seeded dice and the re-run says so, and an older record that does not
say what each die was for is dealt out in order, as before, and says so.
"""

from __future__ import annotations

import random
from collections import defaultdict
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from pbmref import gm
from pbmref.base.yamlfile import dump_yaml, read_yaml
from pbmref.cli import main
from pbmref.mail.outbox import read_maildir
from pbmref.rulesets.fastplay.classroom import new_class, template_from_dict
from pbmref.store import Game, GameStore

T0 = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
PILOTS = {"anna": "Germans", "bert": "Allies", "carl": "Germans", "dora": "Allies",
          "emil": "Germans", "fred": "Allies"}
TURNS = 4


def fastplay_game(root: Path, seed: int, hold: tuple[int, str] | None = None) -> GameStore:
    """Four turns of computer pilots on a 6x6 board; ``hold``: (turn, pilot) who
    holds fire in move 1 of that turn."""
    store = GameStore(root / "games")
    template = template_from_dict({
        "class": "c", "board": {"files": 6, "ranks": 6},
        "pilots": {p: {"name": p.title(), "team": side, "computer": True}
                   for p, side in PILOTS.items()}})
    (board,) = new_class(template)
    gm.new_game(store, "fp", [gm.PlayerSpec(p, (f"{p}@example.org",), p.title())
                              for p in board.players],
                ruleset="fastplay", position=board.position, seed=seed, passwords=False,
                deadline=T0 + timedelta(days=2), now=T0)
    for turn in range(1, TURNS + 1):
        game = store.open("fp")
        rng = random.Random(seed * 10 + turn)
        for pid in sorted(game.settings.players):
            orders = game.ruleset.computer_orders(game.open.state, pid, rng)
            entry = None if orders is None else game.ruleset.encode_orders(orders)
            if entry and hold == (turn, pid):
                entry["plane"][0] += " f-0"
            if entry:
                game.book.save(pid, entry, raw="(test)", message_id=f"<{pid}-{turn}@t>",
                               received_at=T0 + timedelta(days=2 * turn - 1))
        assert gm.adjudicate(store, "fp", T0 + timedelta(days=2 * turn, minutes=1),
                             force=True) is not None
    return store


def dice_by_key(game: Game, turn: int) -> dict[tuple[int, str, str], list[int]]:
    out: dict[tuple[int, str, str], list[int]] = defaultdict(list)
    for e in game.history.events(turn):
        if e["kind"] == "die":
            out[(e["move"], e["purpose"], e["who"])].append(e["value"])
    return dict(out)


def move1_fire(game: Game) -> list[tuple[int, dict[str, Any]]]:
    return [(t, e) for t in range(1, TURNS + 1) for e in game.history.events(t)
            if e["kind"] == "fire" and e["move"] == 1]


def set_move1(game: Game, turn: int, pilot: str, hold: bool) -> None:
    """The game master's edit: ``pilot`` holds fire in move 1 of ``turn`` (or not)."""
    path = game.book.in_force(turn)[pilot].path
    data = read_yaml(path).data
    plane = list(data["entry"]["plane"])
    plane[0] = plane[0].replace(" f-0", "") + (" f-0" if hold else "")
    data["entry"]["plane"] = plane
    path.write_text(dump_yaml(data))


def dice(n: int) -> str:
    return f"{n} {'die' if n == 1 else 'dice'}"


def every_file(game: Game) -> dict[str, str]:
    return {str(p.relative_to(game.dir)): p.read_text() for p in sorted(game.dir.rglob("*"))
            if p.is_file() and p.name not in (".lock", "state.yaml")}


def test_a_pilot_made_to_hold_fire_leaves_everyone_else_their_dice(tmp_path: Path) -> None:
    """The issue's case: one pilot holds fire in move 1 where his fire hit
    nothing; on the re-run every other pilot keeps his dice, and the game is
    the same but for that pilot's burst: nobody else shot down, no stored
    orders left out."""
    store = fastplay_game(tmp_path, seed=1900)
    game = store.open("fp")
    misses = [(t, e) for t, e in move1_fire(game) if e["hits"] == 0]
    assert misses, "the game must hold a burst in move 1 that hit nothing"
    turn, burst = misses[0]
    pilot = burst["shooter"]
    before = {t: dice_by_key(game, t) for t in range(1, TURNS + 1)}

    set_move1(game, turn, pilot, hold=True)
    result = gm.rerun(store, "fp", turn)
    assert result.warnings == [], result.warnings  # no orders left out

    game = store.open("fp")
    for t in range(1, TURNS + 1):
        after = dice_by_key(game, t)
        expected = {k: v for k, v in before[t].items()
                    if (t, k) != (turn, (1, "fire", pilot))}
        assert after == expected, t
    changed = {(c.turn, c.name) for c in result.changes}
    assert changed == {(turn, "dice.yaml"), (turn, "events.yaml"), (turn, "report.txt")}
    text = result.text()
    held = before[turn][(1, "fire", pilot)]
    assert (f"turn {turn}: {dice(len(held))} recorded, no longer needed, handed to nobody: "
            f"move 1 fire {pilot} ({', '.join(map(str, held))})") in text
    assert "rolled now" not in text


def test_a_die_never_rolled_comes_from_the_seeded_dice_and_is_told(tmp_path: Path) -> None:
    """The other way round: a pilot who held fire is made to fire; his dice were
    never rolled, so the re-run rolls them from the game's seeded dice, says so,
    and a second re-run keeps them."""
    probe = fastplay_game(tmp_path / "probe", seed=1900)
    turn, burst = move1_fire(probe.open("fp"))[0]
    pilot = burst["shooter"]
    store = fastplay_game(tmp_path / "held", seed=1900, hold=(turn, pilot))
    game = store.open("fp")
    assert (1, "fire", pilot) not in dice_by_key(game, turn)

    set_move1(game, turn, pilot, hold=False)
    result = gm.rerun(store, "fp", turn)
    game = store.open("fp")
    rolled = dice_by_key(game, turn)[(1, "fire", pilot)]
    # the same dice the unedited game rolled there: the generator's, in their place
    assert rolled == dice_by_key(probe.open("fp"), turn)[(1, "fire", pilot)]
    note = (f"turn {turn}: {dice(len(rolled))} never rolled before, rolled now from the "
            f"game's seeded dice: move 1 fire {pilot} ({', '.join(map(str, rolled))})")
    assert note in result.text()
    assert result.new_dice[turn] == [f"move 1 fire {pilot} ({', '.join(map(str, rolled))})"]
    again = gm.rerun(store, "fp", turn)
    assert not again.changed and again.new_dice == {}


def test_the_corrected_report_says_which_dice_were_rolled_anew(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    probe = fastplay_game(tmp_path / "probe", seed=1900)
    turn, burst = move1_fire(probe.open("fp"))[0]
    pilot = burst["shooter"]
    store = fastplay_game(tmp_path, seed=1900, hold=(turn, pilot))
    config = tmp_path / "config.yaml"
    config.write_text(
        f"games_dir: {tmp_path / 'games'}\nspool_dir: {tmp_path / 'spool'}\n"
        "referee: {address: referee@example.org}\nmail:\n  mode: maildir\n  maildir:\n"
        f"    inbox: {tmp_path / 'inbox'}\n    outbox: {tmp_path / 'outbox'}\n")
    set_move1(store.open("fp"), turn, pilot, hold=False)
    assert main(["rerun", "fp", "--from", str(turn), "--mail", "--why", "she did fire",
                 "--config", str(config)]) == 0
    out = capsys.readouterr().out
    rolled = dice_by_key(store.open("fp"), turn)[(1, "fire", pilot)]
    dealt = f"move 1 fire {pilot} ({', '.join(map(str, rolled))})"
    assert f"never rolled before, rolled now from the game's seeded dice: {dealt}" in out
    sent = [m for m in read_maildir(tmp_path / "outbox")
            if str(m["Subject"]) == f"[fp] turn {turn} report (corrected)"]
    assert len(sent) == len(PILOTS)
    for mail in sent:
        part = mail.get_body(("plain",))
        assert part is not None
        head = " ".join(str(part.get_content()).split())
        assert (f"Dice the turn had not rolled were rolled now, from the game's seeded "
                f"dice: {dealt}.") in head


def test_an_older_record_is_dealt_in_order_and_the_rerun_says_so(tmp_path: Path) -> None:
    """dice.yaml as written before the keys: a re-run without an edit changes
    nothing (the old record is kept as it is); one after an edit deals the dice
    in order, as before, and says so."""
    store = fastplay_game(tmp_path, seed=1900)
    game = store.open("fp")
    for turn in range(1, TURNS + 1):
        path = game.turn_dir(turn) / "dice.yaml"
        data = read_yaml(path).data
        data["dice"] = [line[3] for line in data["dice"]]
        path.write_text(dump_yaml(data, header=f"Every die rolled in turn {turn} (rule V5)"))
    files = every_file(game)
    assert not gm.rerun(store, "fp", 1).changed
    assert every_file(game) == files

    turn, burst = move1_fire(game)[0]
    set_move1(game, turn, burst["shooter"], hold=True)
    result = gm.rerun(store, "fp", turn, dry_run=True)
    assert (f"turn {turn}: an older dice.yaml, which does not say what each die was "
            "rolled for: its dice were dealt out in order") in result.text()


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_an_unedited_rerun_of_a_fastplay_game_changes_nothing(tmp_path: Path,
                                                               seed: int) -> None:
    store = fastplay_game(tmp_path, seed=seed)
    game = store.open("fp")
    files = every_file(game)
    result = gm.rerun(store, "fp", 1)
    assert not result.changed, result.text()
    assert every_file(game) == files
