"""Careers across games (FP16) and classes over several boards: the roster adds up."""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
import yaml

from pbmref.cli import main
from pbmref.gm.classroom import play_class
from pbmref.gm.roster import (
    Battle,
    Roster,
    RosterError,
    apply_turn,
    load_roster,
    record_game_start,
    render_roster,
    save_roster,
)
from pbmref.rulesets.fastplay.classroom import (
    choose_board,
    load_template,
    new_class,
    plan_boards,
    rebalance,
    side_counts,
    template_from_dict,
)
from pbmref.store.errors import DataError, GameFileError


def pilots(germans: int, allies: int, computer: bool = True) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for i in range(germans):
        out[f"g{i:02d}"] = {"name": f"German {i}", "team": "Germans", "computer": computer}
    for i in range(allies):
        out[f"a{i:02d}"] = {"name": f"Ally {i}", "team": "Allies", "computer": computer}
    return out


# --------------------------------------------------------------------- roster


def test_victories_sorties_and_a_closed_career() -> None:
    r = Roster().register("anna", "Anna", "Germans").register("bert", "Bert", "Allies")
    r = record_game_start(r, "c-1", ["anna", "bert"])
    events = [
        {"kind": "victory", "pilot": "anna", "target": "bert"},
        # anna is put out in the same move: the victory stays with her first pilot
        {"kind": "shot_down", "target": "anna", "outcome": "out"},
        {"kind": "victory", "pilot": "bert", "target": "anna"},
        {"kind": "shot_down", "target": "bert", "outcome": "down"},
    ]
    r = apply_turn(r, "c-1", 1, events)
    anna = r.players["anna"]
    assert [(c.pilot, c.victories, c.sorties, c.status) for c in anna.careers] == [
        (1, 1, 1, "out"), (2, 0, 0, "flying")]
    assert anna.careers[0].closed == "c-1 turn 1"
    assert r.victories("bert") == 1
    r = apply_turn(r, "c-1", 2, [{"kind": "entered", "pilot": "anna"},
                                 {"kind": "entered", "pilot": "bert"}])
    assert r.current("anna").sorties == 1 and r.current("bert").sorties == 2
    assert r.totals() == {"victories": 2, "sorties": 4, "out": 1, "pilots": 3}


def test_a_turn_is_counted_once() -> None:
    r = Roster().register("anna", "Anna", "Germans")
    ev = [{"kind": "victory", "pilot": "anna", "target": "x"}]
    r = apply_turn(apply_turn(r, "g", 3, ev), "g", 3, ev)
    assert r.victories("anna") == 1
    assert record_game_start(record_game_start(r, "g", ["anna"]), "g", ["anna"]) \
        .current("anna").sorties == 1


def test_ace_titles_and_the_side_is_kept() -> None:
    r = Roster().register("anna", "Anna", "Germans")
    r = apply_turn(r, "g", 1, [{"kind": "victory", "pilot": "anna"}] * 10)
    assert r.current("anna").title == "double ace"
    with pytest.raises(RosterError):
        r.register("anna", "Anna", "Allies")
    with pytest.raises(RosterError):
        r.register("otto", "Otto", "Huns")
    assert "double ace" in "\n".join(render_roster(r))


def test_save_and_load_round_trip(tmp_path: Path) -> None:
    path = tmp_path / "roster.yaml"
    assert load_roster(path) == Roster()
    r = Roster().register("anna", "Anna", "Germans").register("bert", "Bert", "Allies")
    r = apply_turn(r, "g", 1, [{"kind": "victory", "pilot": "anna"},
                               {"kind": "shot_down", "target": "bert", "outcome": "out"}])
    save_roster(path, r)
    again = load_roster(path)
    assert again == r
    assert not list(tmp_path.glob(".*tmp"))  # no temporary file left behind
    save_roster(path, again)
    assert load_roster(path) == r


def test_a_broken_roster_names_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "roster.yaml"
    path.write_text("players:\n  anna:\n    team: Germans\n    careers:\n"
                    "      - {pilot: 1, victories: many}\n")
    with pytest.raises(GameFileError) as info:
        load_roster(path)
    assert info.value.line == 5 and "whole number" in info.value.message
    path.write_text("players: !!python/object:os.system {}\n")
    with pytest.raises(GameFileError):
        load_roster(path)  # the safe loader refuses it


# --------------------------------------------------------------------- classroom


def test_template_checks() -> None:
    with pytest.raises(DataError) as info:
        template_from_dict({"class": "c", "pilots": pilots(13, 12)})
    assert "at most 24" in info.value.message
    with pytest.raises(DataError) as info:
        template_from_dict({"class": "c", "pilots": pilots(3, 0)})
    assert "Allies" in info.value.message
    with pytest.raises(DataError) as info:
        template_from_dict({"class": "c", "pilots": {"x": {"team": "Allies"}}})
    assert info.value.path == ("pilots", "x", "address")


def test_template_file_errors_have_lines(tmp_path: Path) -> None:
    path = tmp_path / "class.yaml"
    path.write_text("class: 7b\npilots:\n  anna: {name: Anna, team: Prussians, computer: true}\n")
    with pytest.raises(GameFileError) as info:
        load_template(path)
    assert info.value.line == 3


@pytest.mark.parametrize("g, a, boards", [(4, 4, 1), (5, 4, 2), (12, 12, 3), (11, 9, 3),
                                          (3, 1, 1), (10, 2, 2)])
def test_boards_hold_at_most_per_board_with_even_sides(g: int, a: int, boards: int) -> None:
    t = template_from_dict({"class": "c", "pilots": pilots(g, a)})
    plan = plan_boards(t)
    assert len(plan) == boards
    assert sorted(p for b in plan for p in b) == sorted(pilots(g, a))
    assert all(len(b) <= t.per_board for b in plan)
    diffs = [abs(sum(1 for p in b if p.startswith("g")) - sum(1 for p in b if p.startswith("a")))
             for b in plan]
    assert max(diffs) <= max(1, -(-abs(g - a) // boards))


def test_starting_positions_follow_fp2_and_the_roster() -> None:
    t = template_from_dict({"class": "c", "pilots": pilots(3, 3)})
    r = Roster()
    for p in t.pilots:
        r = r.register(p.id, p.name, p.team)
    r = apply_turn(r, "old", 1, [{"kind": "victory", "pilot": "g01"}] * 6)
    (game,) = new_class(t, r.victories)
    ac = game.position["aircraft"]
    assert {a["hex"][1:] for k, a in ac.items() if k.startswith("g")} == {"10"}
    assert {a["heading"] for k, a in ac.items() if k.startswith("a")} == {"N"}
    assert ac["g01"]["kills"] == 6 and ac["g01"]["ace"] is True
    assert game.game_id == "c-1"


def test_a_returning_pilot_goes_where_the_sides_are_most_even() -> None:
    def board(g: int, a: int, returning: dict[str, Any] | None = None) -> dict[str, Any]:
        ac: dict[str, Any] = {}
        for i in range(g):
            ac[f"g{i}"] = {"team": "Germans", "hex": f"{'ABCDEFGHIJ'[i]}10", "heading": "S"}
        for i in range(a):
            ac[f"a{i}"] = {"team": "Allies", "hex": f"{'ABCDEFGHIJ'[i]}1", "heading": "N"}
        ac.update(returning or {})
        return {"turn": 3, "aircraft": ac}

    positions = {"c-1": board(3, 3, {"zed": {"team": "Allies", "state": "down",
                                             "heading": "N"}}),
                 "c-2": board(3, 1)}
    assert choose_board({"c-1": board(3, 3), "c-2": board(3, 1)}, "Allies") == "c-2"
    moved, transfers = rebalance(positions)
    assert [(t.player, t.from_game, t.to_game) for t in transfers] == [("zed", "c-1", "c-2")]
    assert "zed" in moved["c-2"]["aircraft"] and "zed" not in moved["c-1"]["aircraft"]
    assert side_counts(moved["c-2"]) == {"Germans": 3, "Allies": 2}
    assert "zed" in positions["c-1"]["aircraft"]  # the input is untouched
    # a pilot on a board where it keeps the sides even stays
    _, none = rebalance({"c-1": board(3, 2, {"zed": {"team": "Allies", "state": "left",
                                                    "heading": "N"}}),
                         "c-2": board(2, 2)})
    assert none == []


@pytest.mark.slow
def test_ten_turn_class_game_adds_up() -> None:
    """20 computer pilots on three boards for ten turns; the roster must agree
    with every event of every board."""
    t = template_from_dict({"class": "7b", "pilots": pilots(11, 9), "turns": 10})
    run = play_class(t, Roster(), seed=4)
    every = [e for turns in run.events.values() for turn in turns for e in turn]
    assert len(run.events) == 3 and all(len(v) == 10 for v in run.events.values())
    victories = Counter(e["pilot"] for e in every if e["kind"] == "victory")
    entered = sum(1 for e in every if e["kind"] == "entered")
    outs = sum(1 for e in every if e["kind"] == "shot_down" and e["outcome"] == "out")
    totals = run.roster.totals()
    assert totals["victories"] == sum(victories.values()) > 0
    assert totals["sorties"] == 20 + entered
    assert totals["out"] == outs and totals["pilots"] == 20 + outs
    for pid, record in run.roster.players.items():
        assert sum(c.victories for c in record.careers) == victories[pid]
    # each board's game score is the victories scored on it
    for gid, turns in run.events.items():
        scored = sum(1 for turn in turns for e in turn if e["kind"] == "victory")
        assert sum(run.positions[gid]["score"].values()) == scored
        assert run.positions[gid].get("game_over") is True  # ten turns of ten
    # nobody was lost or duplicated between boards
    seen = [p for pos in run.positions.values() for p in pos["aircraft"]]
    assert sorted(seen) == sorted(pilots(11, 9))


# --------------------------------------------------------------------- commands


def test_new_class_and_roster_commands(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                       ) -> None:
    from pbmref import gm
    from pbmref.store import GameStore

    template = tmp_path / "class.yaml"
    data = {"class": "7b", "title": "Class 7B", "pilots": pilots(5, 5)}
    data["pilots"]["g00"] = {"name": "Anna", "team": "Germans", "address": "anna@school.example"}
    template.write_text(yaml.safe_dump(data))
    games = tmp_path / "games"
    assert main(["new-class", str(template), "--games", str(games)]) == 0
    out = capsys.readouterr().out
    assert "7b-1" in out and "7b-2" in out and "anna@school.example" in out
    store = GameStore(games)
    assert store.list_games() == ["7b-1", "7b-2"]
    assert main(["new-class", str(template), "--games", str(games)]) == 1  # exists already
    capsys.readouterr()
    roster = load_roster(games / "roster.yaml")
    assert len(roster.players) == 10 and roster.totals()["sorties"] == 10
    gm.adjudicate(store, "7b-1", datetime.now(UTC), force=True)
    # the adjudication brought the roster up to date: nothing for update to do
    assert main(["roster", "update", "--games", str(games)]) == 0
    assert "the roster agreed with every adjudicated turn" in capsys.readouterr().out
    # a roster that does not agree with the game (kept elsewhere, or hand-edited) is
    # made to: the careers come from the turns as recorded
    stale = tmp_path / "stale.yaml"
    save_roster(stale, load_roster(games / "roster.yaml").record(
        Battle("7b-1", 1, victories=("g00",))))
    assert load_roster(stale).victories("g00") == 1
    assert main(["roster", "update", "--games", str(games), "--roster", str(stale)]) == 0
    assert "1 battle turn of the games counted anew" in capsys.readouterr().out
    assert load_roster(stale) == load_roster(games / "roster.yaml")
    assert main(["roster", "--games", str(games)]) == 0
    assert "g00" in capsys.readouterr().out
    assert main(["roster", "rebalance", "7b", "--games", str(games)]) == 0


def test_new_class_with_a_bad_template_is_one_line(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    template = tmp_path / "class.yaml"
    template.write_text("class: x\npilots: {}\n")
    assert main(["new-class", str(template), "--games", str(tmp_path / "g")]) == 1
    err = capsys.readouterr().err
    assert "class.yaml" in err and "pilots" in err and "Traceback" not in err


def test_rebalance_apply_moves_a_returning_pilot_between_game_folders(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from pbmref.store import GameStore

    template = tmp_path / "class.yaml"
    data = {"class": "c", "pilots": pilots(5, 5)}
    data["pilots"]["g00"] = {"name": "Anna", "team": "Germans", "address": "anna@school.example"}
    template.write_text(yaml.safe_dump(data))
    games = tmp_path / "games"
    assert main(["new-class", str(template), "--games", str(games)]) == 0
    store = GameStore(games)
    game = store.open("c-1")
    position = dict(game.position)
    ac = {k: dict(v) for k, v in position["aircraft"].items()}
    assert sorted(ac) == ["a00", "a02", "a04", "g00", "g02", "g04"]
    ac["a00"]["state"] = "removed"
    ac["a02"]["state"] = "removed"
    ac["g00"]["state"] = "left"
    del ac["g00"]["hex"]
    position["aircraft"] = ac
    game.history.replace(1, "position.yaml", game.history.position_text(1, position))
    capsys.readouterr()
    assert main(["roster", "rebalance", "c", "--games", str(games)]) == 0
    assert "g00: c-1 -> c-2" in capsys.readouterr().out
    assert "g00" in store.open("c-1").position["aircraft"]  # only shown
    assert main(["roster", "rebalance", "c", "--games", str(games), "--apply"]) == 0
    assert "g00: moved from c-1 to c-2" in capsys.readouterr().out
    one, two = store.open("c-1"), store.open("c-2")
    assert "g00" not in one.position["aircraft"] and "g00" not in one.settings.players
    assert two.position["aircraft"]["g00"]["state"] == "left"
    assert two.settings.players["g00"].addresses == ("anna@school.example",)
    assert two.settings.players["g00"].password_hash
    assert main(["check", "c-2", "--games", str(games)]) == 0


# ------------------------------------------------ careers follow the games (issue 46)


CLASS_START = datetime(2026, 9, 1, 12, 0, tzinfo=UTC)


def class_file(tmp_path: Path, cls: str, seed: int = 3) -> Path:
    """Six pupils on one 6x6 board (computer pilots, so the test plays them)."""
    path = tmp_path / f"{cls}.yaml"
    path.write_text(yaml.safe_dump({
        "class": cls, "seed": seed, "turns": 6, "board": {"files": 6, "ranks": 6},
        "pilots": pilots(3, 3)}))
    return path


def play_turns(games: Path, gid: str, turns: int, seed: int = 1) -> None:
    """Each pupil's orders as the computer pilot chooses them, then adjudication,
    as the referee does at each deadline."""
    import random

    from pbmref import gm
    from pbmref.store import GameStore

    store = GameStore(games)
    rng = random.Random(seed)
    for _ in range(turns):
        game = store.open(gid)
        if game.settings.status != "open":
            return
        for pid, player in sorted(game.settings.players.items()):
            orders = game.ruleset.computer_orders(game.open.state, pid, rng) if \
                player.active else None
            entry = None if orders is None else orders.encoded()
            if entry:
                game.book.save(pid, entry, raw="(test)", message_id=f"<{pid}-{game.turn}@t>",
                               received_at=CLASS_START)
        assert gm.adjudicate(store, gid, CLASS_START + timedelta(days=2 * game.turn),
                             force=True) is not None


def victories_in(games: Path, *gids: str) -> Counter[str]:
    from pbmref.store import GameStore

    store = GameStore(games)
    out: Counter[str] = Counter()
    for gid in gids:
        game = store.open(gid)
        for turn in game.turn_numbers():
            if game.history.is_adjudicated(turn):
                out.update(e["pilot"] for e in game.history.events(turn)
                           if e["kind"] == "victory")
    return out


def test_careers_carry_to_the_next_game_without_any_roster_command(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """FP16: a pupil's victories in one game are hers in the next; the roster
    follows each adjudicated turn by itself (no `roster update`)."""
    games = tmp_path / "games"
    assert main(["new-class", str(class_file(tmp_path, "l1")), "--games", str(games),
                 "--no-passwords"]) == 0
    play_turns(games, "l1-1", 4)
    won = victories_in(games, "l1-1")
    assert won, "the first lesson must see a victory"
    roster = load_roster(games / "roster.yaml")
    for pupil, record in roster.players.items():
        assert sum(c.victories for c in record.careers) == won[pupil], pupil
    # the next lesson starts each pupil with her open career's victories
    assert main(["new-class", str(class_file(tmp_path, "l2")), "--games", str(games),
                 "--no-passwords"]) == 0
    capsys.readouterr()
    from pbmref.store import GameStore

    kills = {p: a["kills"] for p, a in GameStore(games).open("l2-1").position["aircraft"].items()}
    assert kills == {p: roster.victories(p) for p in kills}
    assert any(kills.values())


def test_a_rerun_that_changes_a_result_changes_the_roster(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The careers are worked out from the games' recorded turns: a re-run that
    takes a victory away takes it from the roster, and running it again changes
    nothing."""
    from pbmref.base.yamlfile import dump_yaml, read_yaml
    from pbmref.store import GameStore

    games = tmp_path / "games"
    assert main(["new-class", str(class_file(tmp_path, "c")), "--games", str(games),
                 "--no-passwords"]) == 0
    play_turns(games, "c-1", 4)
    store = GameStore(games)
    game = store.open("c-1")
    scored = [(t, e) for t in range(1, game.turn) for e in game.history.events(t)
              if e["kind"] == "victory"]
    assert scored
    turn, victory = scored[0]
    victor = victory["pilot"]
    before = load_roster(games / "roster.yaml")
    # the GM rules that the victor held fire the whole turn
    path = game.book.in_force(turn)[victor].path
    data = read_yaml(path).data
    data["entry"]["plane"] = [m.split(" f-")[0] + " f-0" for m in data["entry"]["plane"]]
    path.write_text(dump_yaml(data))
    assert main(["rerun", "c-1", "--from", str(turn), "--games", str(games)]) == 0
    out = capsys.readouterr().out
    after = load_roster(games / "roster.yaml")
    won = victories_in(games, "c-1")
    assert won[victor] < sum(c.victories for c in before.players[victor].careers)
    for pupil, record in after.players.items():
        assert sum(c.victories for c in record.careers) == won[pupil], pupil
    told = next(line for line in out.splitlines() if line.startswith("roster: the careers of"))
    assert victor in told.split(" follow ")[0], told
    text = (games / "roster.yaml").read_text()
    assert main(["rerun", "c-1", "--from", "1", "--games", str(games)]) == 0
    assert (games / "roster.yaml").read_text() == text


def test_the_roster_shows_each_pupils_board_and_what_pilot_means(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    games = tmp_path / "games"
    data = {"class": "7b", "per_board": 4, "pilots": pilots(4, 4)}
    (tmp_path / "class.yaml").write_text(yaml.safe_dump(data))
    assert main(["new-class", str(tmp_path / "class.yaml"), "--games", str(games),
                 "--no-passwords"]) == 0
    capsys.readouterr()
    assert main(["roster", "--games", str(games)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["pupil", "side", "board", "pilot", "victories", "sorties",
                                "title"]
    from pbmref.store import GameStore

    store = GameStore(games)
    for gid in ("7b-1", "7b-2"):
        for pid in store.open(gid).settings.players:
            row = next(line for line in lines if line.startswith(pid + " "))
            assert row.split()[2:4] == [gid, "1st"], row
    legend = " ".join(lines[lines.index("") + 1:])
    assert "pilot: which of the pupil's pilots flies now" in legend and "FP16" in legend


def test_an_older_roster_still_reads_and_follows_new_turns(tmp_path: Path) -> None:
    """A roster written before it kept the battles: its careers stand as counted,
    the turns it lists are not counted twice, new turns add to them."""
    path = tmp_path / "roster.yaml"
    path.write_text("players:\n  anna:\n    name: Anna\n    team: Germans\n    careers:\n"
                    "    - {pilot: 1, victories: 4, sorties: 3, status: flying}\n"
                    "applied: [c-1/start, c-1/1, c-1/2]\n")
    roster = load_roster(path)
    assert roster.victories("anna") == 4
    again = apply_turn(roster, "c-1", 2, [{"kind": "victory", "pilot": "anna"}])
    assert again.victories("anna") == 4  # counted already
    again = apply_turn(again, "c-1", 3, [{"kind": "victory", "pilot": "anna"}])
    assert again.victories("anna") == 5 and again.current("anna").title == "ace"
    save_roster(path, again)
    assert load_roster(path) == again
    assert load_roster(path).battles == (Battle("c-1", 3, victories=("anna",)),)


def test_a_broken_roster_does_not_stop_the_turn_and_catches_up_once_repaired(
        tmp_path: Path, caplog: pytest.LogCaptureFixture,
        capsys: pytest.CaptureFixture[str]) -> None:
    games = tmp_path / "games"
    assert main(["new-class", str(class_file(tmp_path, "c")), "--games", str(games),
                 "--no-passwords"]) == 0
    good = (games / "roster.yaml").read_text()
    (games / "roster.yaml").write_text(good.replace("team: Allies", "team: Allied", 1))
    play_turns(games, "c-1", 4)  # adjudicated all the same
    errors = [r.getMessage() for r in caplog.records if r.levelname == "ERROR"]
    assert errors and all("roster.yaml, line" in e and "pbmref roster update" in e
                          for e in errors)
    (games / "roster.yaml").write_text(good)
    capsys.readouterr()
    assert main(["roster", "update", "--games", str(games)]) == 0
    assert "counted anew" in capsys.readouterr().out
    won = victories_in(games, "c-1")
    for pupil, record in load_roster(games / "roster.yaml").players.items():
        assert sum(c.victories for c in record.careers) == won[pupil], pupil
