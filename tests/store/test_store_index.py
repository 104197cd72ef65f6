"""The store's index of its games (issue 20): addresses and schedules kept up to date
by the store, rebuilt from the folders when missing or stale, never trusted over
the YAML, and a game master's edits by hand seen at the next look."""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import yaml
from store_fakes import FAKE_POSITION, fake_settings, load_fake

from pbmref import gm
from pbmref.cli import main
from pbmref.store import GameStore
from pbmref.store.index import GameIndex
from pbmref.store.schedule import Schedule

T0 = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)  # before the fake game's deadline


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, (old, text)
    path.write_text(text.replace(old, new), encoding="utf-8")  # in place, like an editor


def test_a_deadline_edited_by_hand_is_seen_at_the_next_look(fake_store: GameStore) -> None:
    assert fake_store.due(T0) == []
    _edit(fake_store.path("fake1") / "game.yaml", "deadline: '2026-12-01T18:00:00+01:00'",
          "deadline: '2026-12-01T10:00:00+01:00'")
    assert fake_store.due(T0) == ["fake1"]


def test_an_address_edited_by_hand_is_seen_at_the_next_look(fake_store: GameStore) -> None:
    index = fake_store.index
    index.look()
    assert index.games_of("ann@example.org") == ["fake1"]
    assert index.games_of("bob@example.org") == ["fake1"]  # any case, as registered
    _edit(fake_store.path("fake1") / "game.yaml", "ann@example.org", "ann@elsewhere.org")
    assert index.games_of("ann@example.org") == ["fake1"]  # not looked yet
    index.look()
    assert index.games_of("ann@example.org") == []
    assert index.games_of("ann@elsewhere.org") == ["fake1"]


def test_the_store_keeps_the_index_up_to_date_itself(fake_store: GameStore) -> None:
    index = fake_store.index
    index.look()
    reads = index.reads
    game = fake_store.open("fake1")
    game.change_settings({"early_adjudication": True})
    game.book.save("ann", {"add": 1}, raw="1", message_id="<a@x>", received_at=T0)
    assert fake_store.due(T0) == []
    game.book.save("bob", {"add": 2}, raw="2", message_id="<b@x>", received_at=T0)
    assert fake_store.due(T0) == ["fake1"]  # everyone is in: due at once
    assert index.reads == reads, "the store's own changes were read back from the folder"


def _row(path: Path, game: str) -> dict[str, object]:
    """A game's row of the index file, by the file's own column names."""
    data = json.loads(path.read_text())
    return dict(zip(data["columns"], data["games"][game], strict=True))


def _kept(store: GameStore, path: Path) -> GameStore:
    """The store as another process opens it, its index kept in ``path``."""
    return GameStore(store.dir, ruleset_loader=load_fake, index_file=path)


def test_a_deleted_index_is_rebuilt_from_the_folders(fake_store: GameStore,
                                                     tmp_path: Path) -> None:
    path = tmp_path / "spool" / "games-index.json"
    store = _kept(fake_store, path)
    store.index.look()
    store.index.save()
    assert _row(path, "fake1")["addresses"] == ["ann@example.org", "bob@example.org"]
    path.unlink()
    fresh = _kept(fake_store, path)
    assert fresh.index.games_of("bob@example.org") == ["fake1"]
    assert fresh.index.reads == 1
    fresh.index.save_now_and_then()
    assert path.is_file(), "the rebuilt index is written down again"
    again = _kept(fake_store, path)
    assert again.index.ids() == ["fake1"] and again.index.reads == 0  # read from the file
    assert not list(fake_store.dir.glob(".*.json")), "the index is kept out of the games"


def test_a_few_changes_are_read_again_rather_than_written_down(
        fake_store: GameStore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Writing the index file costs as much as reading every entry of it: after a
    few changed games a process leaves the file as it is (the next one reads
    those few games again from their folders); after many, it writes it."""
    monkeypatch.setattr("pbmref.store.index.FEW_CHANGES", 2)
    path = tmp_path / "games-index.json"
    store = _kept(fake_store, path)
    store.index.look()
    store.index.save_now_and_then()  # built from the folders: written down
    written = path.read_text()
    shutil.copytree(fake_store.path("fake1"), fake_store.dir / "fake2")
    one = _kept(fake_store, path)
    assert one.index.ids() == ["fake1", "fake2"] and one.index.reads == 1
    one.index.save_now_and_then()
    assert path.read_text() == written, "one change: not worth writing the file"
    shutil.copytree(fake_store.path("fake1"), fake_store.dir / "fake3")
    two = _kept(fake_store, path)
    assert two.index.ids() == ["fake1", "fake2", "fake3"] and two.index.reads == 2
    two.index.save_now_and_then()
    assert sorted(json.loads(path.read_text())["games"]) == ["fake1", "fake2", "fake3"]
    assert _kept(fake_store, path).index.ids() == ["fake1", "fake2", "fake3"]


@pytest.mark.parametrize("content", [
    "{not json", '{"version": 99, "games": {}}',
    '{"version": 2, "games": {"fake1": {"turn": 1}}}',  # an older version
    '{"version": 3, "columns": ["game", "state", "turn", "due", "remind", "addresses", '
    '"schedule"], "games": {"fake1": [1, 2]}}',  # a row cut short
    '{"version": 3, "columns": ["game", "state"], "games": {"fake1": [[1, 2, 3], [4, 5, 6]]}}'])
def test_an_unreadable_index_is_rebuilt(fake_store: GameStore, content: str,
                                        tmp_path: Path) -> None:
    path = tmp_path / "games-index.json"
    path.write_text(content)
    fresh = _kept(fake_store, path)
    assert fresh.index.games_of("ann@example.org") == ["fake1"]


def test_the_index_is_never_trusted_over_the_yaml(fake_store: GameStore,
                                                  tmp_path: Path) -> None:
    """An index file that says otherwise than the folders (a stale copy, a
    hand-made one) counts only where its stamps match the files."""
    path = tmp_path / "games-index.json"
    store = _kept(fake_store, path)
    store.index.look()
    store.index.save()
    data = json.loads(path.read_text())
    row = data["games"]["fake1"]
    column = {name: i for i, name in enumerate(data["columns"])}
    row[column["addresses"]] = ["mallory@example.org"]
    row[column["due"]] = 0.0  # due long ago
    row[column["schedule"]] = row[column["schedule"]].replace(
        '"deadline":"2026-12-01T18:00:00+01:00"', '"deadline":"2000-01-01T00:00:00+00:00"')
    assert "2000-01-01" in row[column["schedule"]]
    row[column["game"]] = [1, 2, 3]  # not the stamp of game.yaml
    path.write_text(json.dumps(data))
    fresh = _kept(fake_store, path)
    assert fresh.index.games_of("mallory@example.org") == []
    assert fresh.due(T0) == []


def test_a_game_folder_copied_in_by_hand_is_found(fake_store: GameStore) -> None:
    fake_store.index.look()
    shutil.copytree(fake_store.path("fake1"), fake_store.dir / "copy2",
                    ignore=shutil.ignore_patterns(".lock"))
    _edit(fake_store.dir / "copy2" / "game.yaml", "ann@example.org", "cleo@example.org")
    fake_store.index.look()
    assert fake_store.index.ids() == ["copy2", "fake1"]
    assert fake_store.index.games_of("cleo@example.org") == ["copy2"]
    assert fake_store.index.games_of("bob@example.org") == ["copy2", "fake1"]
    late = T0 + timedelta(days=1)
    assert fake_store.due(late) == ["copy2", "fake1"]
    shutil.rmtree(fake_store.dir / "copy2")
    assert fake_store.due(late) == ["fake1"]  # and one removed is forgotten


def test_a_folder_without_game_yaml_is_due_so_its_error_is_reported(
        fake_store: GameStore) -> None:
    (fake_store.path("fake1") / "game.yaml").unlink()
    assert fake_store.due(T0) == ["fake1"]
    assert fake_store.index.ids() == []  # not a game anyone can mail


def test_a_crash_after_a_turn_result_shows_the_next_turn(fake_store: GameStore) -> None:
    """Killed between a turn's result.yaml and its new state index: the index of
    any process reads the folders and finds the turn that is open."""
    game = fake_store.open("fake1")
    state_before = (game.dir / "state.yaml").read_text()
    gm.adjudicate(fake_store, "fake1", T0, force=True)
    (game.dir / "state.yaml").write_text(state_before)  # as if the last write was lost
    fresh = GameIndex(fake_store.dir)
    entry = fresh.entry("fake1")
    assert entry is not None and entry.schedule.turn == 2


def test_every_question_is_answered_from_the_index_alone(tmp_path: Path) -> None:
    """After the index is built, a look reads no game's files unless they changed."""
    store = GameStore(tmp_path / "games", ruleset_loader=load_fake)
    for n in range(30):
        players = {p: {"name": p, "addresses": [f"{p}{n}@example.org"]} for p in ("ann", "bob")}
        store.create(f"g{n:02d}", fake_settings(players=players), FAKE_POSITION)
    store.index.look()
    reads = store.index.reads
    for _ in range(3):
        store.index.look()
        assert store.due(T0) == [] and store.reminders_due(T0) == []
        assert store.index.games_of("bob7@example.org") == ["g07"]
        assert store.index.games_of("nobody@example.org") == []
    assert store.index.reads == reads


def _times(index: GameIndex, at: datetime) -> tuple[list[str], list[str], datetime | None]:
    """What a round asks at ``at``: worked out from every entry, one by one."""
    due, remind, later = [], [], []
    for gid in sorted(index.turns()):
        entry = index.entry(gid)
        assert entry is not None
        when = entry.due_at()
        if when is not None and when <= at:
            due.append(gid)
        elif when is not None:
            later.append(when)
        window = entry.reminder_window()
        if window is not None:
            start, end = (datetime.fromtimestamp(t, UTC) for t in window)
            if start <= at < end:
                remind.append(gid)
            elif start > at:
                later.append(start)
    return due, remind, min(later, default=None)


def _set_by_hand(path: Path, key: str, value: object) -> None:
    """One setting of game.yaml changed in place, as a game master does."""
    text = f"'{value.isoformat()}'" if isinstance(value, datetime) else str(value)
    _edit(path, re.search(rf"^{key}: .*$", path.read_text(encoding="utf-8"), re.M)[0],
          f"{key}: {text}")


# Hours after T0 of each game's deadline, and its reminder window in hours.
GAMES = {"g1": (3, 2), "g2": (5, 0), "g3": (7, 4), "g4": (7, 1), "g5": (30, 12)}
CHANGES = [  # (what changes, game, setting, value)
    ("a deadline moved by hand", "g5", "deadline", T0 + timedelta(hours=1)),
    ("a reminder window widened by hand", "g2", "reminder_hours", 8),
    ("a game paused by hand", "g3", "status", "paused"),
    ("a game folder deleted", "g1", None, None),
    ("a deadline moved by the store", "g4", "deadline", T0 + timedelta(hours=2)),
]


def test_the_times_of_a_round_follow_every_change(tmp_path: Path) -> None:
    """The games due, the reminders due and the next event, answered from tables
    kept in time order, agree after each change with the entries themselves."""
    store = GameStore(tmp_path / "games", ruleset_loader=load_fake)
    for gid, (hours, remind) in GAMES.items():
        store.create(gid, fake_settings(deadline=(T0 + timedelta(hours=hours)).isoformat(),
                                        reminder_hours=remind), FAKE_POSITION)
    index = store.index
    moments = [T0 + timedelta(minutes=30 * k) for k in range(-2, 64)]
    for what, gid, key, value in [("nothing", None, None, None), *CHANGES]:
        if gid is not None and key is None:
            shutil.rmtree(store.path(gid))
        elif what.endswith("by hand"):
            _set_by_hand(store.path(gid) / "game.yaml", key, value)
        elif gid is not None:
            store.open(gid).change_settings({key: value})
        index.look()
        for at in moments:
            due, remind, nxt = _times(index, at)
            assert (index.due(at), index.reminders_due(at), index.next_event(at)) == (
                due, remind, nxt), (what, at)


# ---------------------------------------------------------------- a cheap rebuild (issue 41, item 7)

def _entries(index: GameIndex) -> dict[str, tuple[Schedule, tuple[str, ...]]]:
    """What the index says of each game: its schedule and its players' addresses."""
    out = {}
    for gid in sorted(index.turns()):
        entry = index.entry(gid)
        assert entry is not None
        out[gid] = (entry.schedule, entry.addresses)
    return out


def _house(root: Path, games: int = 4) -> GameStore:
    store = GameStore(root, ruleset_loader=load_fake)
    for n in range(games):
        players = {p: {"name": p, "addresses": [f"{p}{n}@example.org"]} for p in ("ann", "bob")}
        store.create(f"g{n:02d}", fake_settings(players=players, reminder_hours=6),
                     FAKE_POSITION)
    store.open("g01").book.save("ann", {"add": 1}, raw="1", message_id="<a@x>",
                                received_at=T0)
    return store


def test_a_rebuild_reads_each_state_yaml_and_no_game_yaml(tmp_path: Path) -> None:
    """The state index holds what the index needs of game.yaml (the players'
    addresses), stamped with the game.yaml it was taken from: rebuilding the
    index reads one small file a game, and says the same as the store."""
    store = _house(tmp_path / "games")
    kept = _entries(store.index)
    assert kept["g01"][0].waiting_for == ("bob",)
    fresh = GameIndex(store.dir)
    assert _entries(fresh) == kept
    assert fresh.reads == 4 and fresh.whole_reads == 0


def test_a_game_yaml_changed_since_its_state_index_is_read_whole(tmp_path: Path) -> None:
    """Never a stale summary: a game master's edit (same size even) changes the
    stamp of game.yaml, and that game's game.yaml is read and checked whole."""
    store = _house(tmp_path / "games")
    _edit(store.path("g02") / "game.yaml", "ann2@example.org", "amy2@example.org")
    _edit(store.path("g03") / "game.yaml", "reminder_hours: 6", "reminder_hours: 9")
    fresh = GameIndex(store.dir)
    assert fresh.games_of("amy2@example.org") == ["g02"]
    assert fresh.games_of("ann2@example.org") == []
    entry = fresh.entry("g03")
    assert entry is not None and entry.schedule.reminder_hours == 9
    assert fresh.whole_reads == 2


def test_a_broken_game_yaml_is_broken_in_a_rebuilt_index(tmp_path: Path) -> None:
    store = _house(tmp_path / "games")
    _edit(store.path("g02") / "game.yaml", "players:", "players: [")
    fresh = GameIndex(store.dir)
    entry = fresh.entry("g02")
    assert entry is not None and entry.schedule.broken
    assert fresh.due(T0) == ["g02"]


@pytest.mark.parametrize("copy", [shutil.copy2, shutil.copy])
def test_a_restored_house_rebuilds_its_index(tmp_path: Path,
                                             copy: Callable[[str, str], object]) -> None:
    """Game folders copied back from a backup (new inodes; the files' times
    kept, or not): the index rebuilt from them says what it said before, from
    the state.yaml files alone (where the times were lost, each game.yaml is
    known by its text)."""
    store = _house(tmp_path / "games")
    kept = _entries(store.index)
    shutil.copytree(store.dir, tmp_path / "restored", copy_function=copy,
                    ignore=shutil.ignore_patterns(".lock"))
    fresh = GameIndex(tmp_path / "restored")
    assert _entries(fresh) == kept
    assert fresh.whole_reads == 0


def test_a_house_restored_by_pbmref_restore_rebuilds_its_index(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``pbmref backup``, then ``pbmref restore`` into another folder (the
    games index is not in the backup; the files' times come back to the
    microsecond, not the nanosecond): the restored house's index, rebuilt,
    reads no game.yaml and says what the house's said."""
    house = tmp_path / "house"
    store = GameStore(house / "games")
    for n in range(3):
        gm.new_game(store, f"g{n}", [gm.PlayerSpec(p, (f"{p}{n}@example.org",), p.title())
                                     for p in ("anna", "bert")],
                    deadline=T0, turn_length="48h", passwords=False, now=T0)
    kept = _entries(GameIndex(store.dir))
    config = house / "pbmref.yaml"
    config.write_text(yaml.safe_dump({
        "games_dir": "games", "spool_dir": "spool",
        "referee": {"address": "referee@example.org", "name": "Referee"},
        "mail": {"mode": "maildir", "maildir": {"inbox": "inbox", "outbox": "outbox"}}}))
    (house / "spool").mkdir()
    backup = tmp_path / "house.tar.gz"
    assert main(["backup", "--config", str(config), str(backup)]) == 0, capsys.readouterr()
    assert main(["restore", str(backup), str(tmp_path / "restored")]) == 0, capsys.readouterr()
    fresh = GameIndex(tmp_path / "restored" / "games")
    assert _entries(fresh) == kept
    assert fresh.whole_reads == 0


def test_the_state_index_reads_as_yaml(fake_store: GameStore) -> None:
    """state.yaml is written so that the json module reads it (fast), and it is
    YAML all the same: any YAML reader, a game master's eye, gets the same."""
    text = (fake_store.path("fake1") / "state.yaml").read_text(encoding="utf-8")
    body = "".join(line for line in text.splitlines(keepends=True) if not line.startswith("#"))
    assert yaml.safe_load(text) == json.loads(body)
    assert json.loads(body)["addresses"] == ["ann@example.org", "bob@example.org"]
    assert text.startswith("# Written by the referee")


@pytest.mark.parametrize("form", ["older", "by hand"])
def test_a_state_index_in_block_yaml_is_read(fake_store: GameStore, form: str) -> None:
    """A state.yaml in YAML's block style (written by an earlier version, without
    the addresses, or rewritten by hand) is read as YAML: right, if slower."""
    path = fake_store.path("fake1") / "state.yaml"
    text = path.read_text(encoding="utf-8")
    data = yaml.safe_load(text)
    if form == "older":
        del data["addresses"]
    data["turn"] = 1
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    fresh = GameIndex(fake_store.dir)
    assert fresh.games_of("bob@example.org") == ["fake1"]
    assert fresh.whole_reads == (1 if form == "older" else 0)
    entry = fresh.entry("fake1")
    assert entry is not None and entry.schedule == fake_store.open("fake1").schedule


def test_a_rebuild_from_state_yaml_alone_finds_the_open_turn(fake_store: GameStore) -> None:
    """The state index says turn 1, the folders say turn 2 (killed between a
    turn's result and its state index): read from state.yaml alone, the entry
    still has the open turn the folders show."""
    gm.adjudicate(fake_store, "fake1", T0, force=True)
    path = fake_store.path("fake1") / "state.yaml"
    text = path.read_text(encoding="utf-8")
    assert '"turn": 2' in text
    path.write_text(text.replace('"turn": 2', '"turn": 1'), encoding="utf-8")
    fresh = GameIndex(fake_store.dir)
    entry = fresh.entry("fake1")
    assert entry is not None and entry.schedule.turn == 2
    assert fresh.whole_reads == 0


@pytest.mark.parametrize("garbage", ['"turn": "soon"', '"players": [3]',
                                     '"waiting_for": 7', '"addresses": "ann"'])
def test_a_state_index_spoilt_by_hand_stops_no_game(fake_store: GameStore,
                                                    garbage: str) -> None:
    """A value of the wrong kind in state.yaml (edited by hand) makes it count as
    unreadable: game.yaml wins, and the index of every game is still built."""
    path = fake_store.path("fake1") / "state.yaml"
    key = garbage.split(":")[0]
    path.write_text(re.sub(rf"^ {key}: .*?(,?)$", rf" {garbage}\1",
                           path.read_text(encoding="utf-8"), flags=re.M), encoding="utf-8")
    assert garbage in path.read_text(encoding="utf-8")
    shutil.copytree(fake_store.path("fake1"), fake_store.dir / "fake2",
                    ignore=shutil.ignore_patterns(".lock", "state.yaml"))
    fresh = GameIndex(fake_store.dir)
    assert fresh.ids() == ["fake1", "fake2"]
    assert fresh.games_of("ann@example.org") == ["fake1", "fake2"]
    entry = fresh.entry("fake1")
    assert entry is not None and not entry.schedule.broken and entry.schedule.turn == 1
