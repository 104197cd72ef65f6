"""The game store with a tiny fake ruleset: files, orders, deadlines, history."""

from __future__ import annotations

import os
from datetime import UTC, datetime, timedelta

import pytest
from store_fakes import FAKE_POSITION, fake_settings, load_fake

from pbmref import gm
from pbmref.base.errors import GameFileError
from pbmref.base.files import commit_file, durable_together, set_aside, write_new, write_synced
from pbmref.base.yamlfile import read_yaml
from pbmref.orders.errors import OrderMailError
from pbmref.rules.dice import Roll
from pbmref.store import GameExists, GameStore
from pbmref.store.errors import DataError
from pbmref.store.settings import settings_from_dict

T0 = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)


def save(game, player, add, mid, minute=0):
    return game.book.save(player, {"add": add}, raw=f"{add}\n", message_id=mid,
                            received_at=T0 + timedelta(minutes=minute))


def test_create_writes_settings_position_and_state(fake_store):
    game = fake_store.open("fake1")
    assert game.turn == 1
    assert game.position["score"] == {"ann": 0, "bob": 0}
    assert game.settings.deadline == datetime(2026, 12, 1, 17, 0, tzinfo=UTC)
    assert game.settings.turn_length == timedelta(hours=48)
    assert sorted(game.settings.players) == ["ann", "bob"]
    assert (game.dir / "state.yaml").is_file()
    assert fake_store.list_games() == ["fake1"]


def test_create_refuses_an_existing_game(fake_store):
    with pytest.raises(GameExists):
        fake_store.create("fake1", fake_settings(), FAKE_POSITION)


def test_a_resent_mail_is_a_new_version_and_the_latest_is_in_force(fake_store):
    game = fake_store.open("fake1")
    first = save(game, "ann", 3, "<a1@x>")
    second = save(game, "ann", 5, "<a2@x>", 5)
    assert (first.name, second.name) == ("ann.yaml", "ann.v2.yaml")
    assert game.book.entries() == {"ann": {"add": 5}}
    assert read_yaml(first).data["entry"] == {"add": 3}  # the first mail is kept


def test_the_same_message_id_is_stored_once(fake_store):
    game = fake_store.open("fake1")
    a = save(game, "ann", 3, "<same@x>")
    b = save(game, "ann", 3, "<same@x>")
    assert a == b
    assert len(game.book.files()["ann"]) == 1


def test_clear_withdraws_and_a_rejected_mail_changes_nothing(fake_store):
    game = fake_store.open("fake1")
    save(game, "ann", 3, "<a1@x>")
    game.book.reject("bob", raw="X", message_id="<b1@x>", received_at=T0, error="bad")
    assert game.book.entries() == {"ann": {"add": 3}}
    assert "bob" not in game.book.in_force()
    game.book.clear("ann", raw="CLEAR", message_id="<a2@x>", received_at=T0)
    assert game.book.entries() == {}
    assert [f.kind for f in game.book.files()["ann"]] == ["orders", "withdrawal"]


def test_a_mail_reads_the_newest_files_only_however_many_the_turn_holds(
        fake_store, monkeypatch):
    """The orders in force are the newest mail of each player that is not a
    refused one (issue 20: a batch of 500 mails into one turn read every
    earlier file for every mail)."""
    game = fake_store.open("fake1")
    for n in range(30):
        save(game, "ann", n % 10, f"<a{n}@x>", n)
        save(game, "bob", 1, f"<b{n}@x>", n)
    game.book.reject("ann", raw="X", message_id="<bad@x>", received_at=T0, error="bad")
    fresh = fake_store.open("fake1")
    read: list[str] = []
    real = fresh.book._read_file
    monkeypatch.setattr(fresh.book, "_read_file",
                        lambda path, turn: read.append(os.path.basename(path)) or real(path, turn))
    assert fresh.book.entries() == {"ann": {"add": 9}, "bob": {"add": 1}}
    assert fresh.book.entry_of("ann") == {"add": 9}
    # ann's refused mail, her newest orders, bob's newest orders: nothing older
    assert sorted(read) == ["ann.v30.yaml", "ann.v31.yaml", "bob.v30.yaml"]
    assert len(fresh.book.files()["ann"]) == 31  # pbmref check still reads them all


def test_a_turns_orders_are_listed_by_player_and_version_and_a_stray_name_is_named(
        fake_store):
    """The listing reads every name at one pass (issue 20): versions in number
    order (v10 after v9), a version written v01 as 1, a file copied in under
    another name refused with its path."""
    game = fake_store.open("fake1")
    for n in range(11):
        save(game, "ann", n % 10, f"<a{n}@x>", n)
    os.rename(game.book.folder() / "ann.v11.yaml", game.book.folder() / "bob.v01.yaml")
    fresh = fake_store.open("fake1")
    assert fresh.book.names() == {"ann": ["ann.yaml"] + [f"ann.v{v}.yaml" for v in range(2, 11)],
                                  "bob": ["bob.v01.yaml"]}
    (game.book.folder() / "ann copy.v2.yaml.yaml").write_text("")
    with pytest.raises(GameFileError, match=r"ann copy\.v2\.yaml\.yaml: not an orders file name"):
        fake_store.open("fake1").book.names()


def test_a_turns_listing_is_worked_out_from_the_names_it_gained(fake_store, monkeypatch):
    """Each mail adds one orders file, and a turn may hold hundreds: the
    listing is worked out from what the process found last time plus the new
    names, and anew only when a name went away or came in of another shape
    (issue 20: a batch of 500 mails worked out every name twice a mail)."""
    from pbmref.store import orderbook

    def whole(folder):
        listing = os.listdir(folder)
        listed = real(folder, listing, frozenset(listing))
        return {p: list(names) for p, names in listed.by_player.items()}, listed.tops

    anew: list[str] = []
    real = orderbook._list_anew
    monkeypatch.setattr(orderbook, "_list_anew",
                        lambda folder, *a: anew.append(folder.name) or real(folder, *a))
    game = fake_store.open("fake1")
    folder = game.book.folder()
    for n in range(12):
        save(game, "ann" if n % 3 else "bob", n % 10, f"<m{n}@x>", n)
    assert anew == ["orders"]  # the first listing only; each after it from the one before
    fresh = fake_store.open("fake1")
    assert fresh.book.names() == whole(folder)[0]
    assert fresh.book.names()["ann"][-2:] == ["ann.v7.yaml", "ann.v8.yaml"]  # v8 after v7
    # a file copied in by hand: from the new name alone
    (folder / "bob.v10.yaml").write_text(
        (folder / "bob.v4.yaml").read_text().replace("version: 4", "version: 10"))
    assert fake_store.open("fake1").book.names() == whole(folder)[0]
    assert anew == ["orders"]
    # a file deleted by hand: worked out anew, and it is gone
    os.remove(folder / "ann.v3.yaml")
    assert "ann.v3.yaml" not in fake_store.open("fake1").book.names()["ann"]
    assert anew == ["orders"] * 2
    # a file set aside by a re-run counts for the next version, worked out anew
    set_aside(folder / "ann.v8.yaml")
    os.link(folder / "ann.v7.yaml", folder / "ann.v11.yaml.replaced-1")
    game = fake_store.open("fake1")
    assert game.book.names()["ann"][-1] == "ann.v7.yaml"
    assert anew == ["orders"] * 3
    assert save(game, "ann", 5, "<m12@x>").name == "ann.v12.yaml"
    assert fake_store.open("fake1").book.names() == whole(folder)[0]


def test_a_mail_handled_under_the_lock_lists_the_turn_once(fake_store, monkeypatch):
    """The referee reads a player's orders in force and stores the new ones
    under one hold of the game's lock: the folder is listed once, not again
    for the store (issue 20: a batch into one turn listed a folder of up to 500
    files twice a mail). A listing made before the lock was taken, or under
    an earlier hold, is made again for the store, which still numbers its
    file after every file in the folder."""
    from pbmref.store import orderbook

    listed: list[str] = []
    real = orderbook._listing
    monkeypatch.setattr(orderbook, "_listing",
                        lambda folder: listed.append(os.path.basename(folder)) or real(folder))
    game = fake_store.open("fake1")
    save(game, "ann", 1, "<l1@x>")
    with game.lock():
        game.reload()
        listed.clear()
        assert game.book.entry_of("ann") == {"add": 1}
        assert save(game, "ann", 2, "<l2@x>").name == "ann.v2.yaml"
        assert save(game, "bob", 3, "<l3@x>").name == "bob.yaml"
        assert listed == ["orders"]
    assert game.holding is None
    # listed without the lock: listed again under it
    other = fake_store.open("fake1")
    assert other.book.entry_of("ann") == {"add": 2}
    (other.book.folder() / "ann.v3.yaml").write_text(
        (other.book.folder() / "ann.v2.yaml").read_text().replace("version: 2", "version: 3"))
    listed.clear()
    assert save(other, "ann", 4, "<l4@x>").name == "ann.v4.yaml"
    assert listed == ["orders"]
    # listed under an earlier hold: listed again under this one
    with other.lock():
        first = other.holding
        other.book.entry_of("bob")
    (other.book.folder() / "bob.v2.yaml").write_text(
        (other.book.folder() / "bob.yaml").read_text().replace("version: 1", "version: 2"))
    with other.lock():
        assert other.holding != first
        listed.clear()
        assert save(other, "bob", 5, "<l5@x>").name == "bob.v3.yaml"
        assert listed == ["orders"]
        # a file copied in by hand between the listing and the store, under the
        # number the store would choose: never written over; the mail fails
        # (and is handled again next round, listed anew)
        (other.book.folder() / "bob.v4.yaml").write_text(
            (other.book.folder() / "bob.v3.yaml").read_text().replace("version: 3",
                                                                      "version: 4"))
        with pytest.raises(FileExistsError):
            save(other, "bob", 6, "<l6@x>")
    assert "version: 4" in (other.book.folder() / "bob.v4.yaml").read_text()
    assert save(fake_store.open("fake1"), "bob", 6, "<l6@x>").name == "bob.v5.yaml"


def test_an_orders_file_edited_by_hand_is_read_again(fake_store):
    """Reading is once per version of a file: an edit by hand is another version."""
    game = fake_store.open("fake1")
    path = save(game, "ann", 3, "<a1@x>")
    assert fake_store.open("fake1").book.entries() == {"ann": {"add": 3}}
    text = path.read_text(encoding="utf-8").replace("add: 3", "add:  4")
    path.write_text(text, encoding="utf-8")  # in place: the size tells, whatever the clock
    assert fake_store.open("fake1").book.entries() == {"ann": {"add": 4}}


def test_an_orders_file_written_is_known_as_parsing_it_gives_and_not_parsed_back(
        fake_store, monkeypatch):
    """The referee keeps what it wrote as the file's version on disk (issue 20):
    the next mail's reading parses nothing, and gets what parsing would give."""
    from pbmref.base import yamlfile

    game = fake_store.open("fake1")
    path = save(game, "ann", 3, "<a1@x>")
    on_disk = read_yaml(path).data
    parsed: list[object] = []
    monkeypatch.setattr(yamlfile, "read_yaml", lambda p: parsed.append(p))
    fresh = fake_store.open("fake1")
    assert fresh.book.entries() == {"ann": {"add": 3}}
    assert yamlfile.stored_yaml(path).data == on_disk
    assert parsed == []


def test_a_played_turns_result_is_parsed_once_a_version_and_an_edit_is_read(
        fake_store, monkeypatch):
    """Every order mail's reply reads the turn before's result (when the open turn
    began): parsed once a version of ``result.yaml``, not once a mail (issue 20);
    a game master's edit is another version."""
    from pbmref.base import yamlfile

    gm.adjudicate(fake_store, "fake1", T0, force=True)
    first = fake_store.open("fake1").history.result(1)
    assert first is not None and first["turn"] == 1
    parsed: list[object] = []
    real = yamlfile.load_text
    monkeypatch.setattr(yamlfile, "load_text", lambda text, p: parsed.append(p) or real(text, p))
    for _ in range(3):
        assert fake_store.open("fake1").history.result(1) == first
    assert parsed == []
    path = fake_store.open("fake1").turn_dir(1) / "result.yaml"
    path.write_text(path.read_text(encoding="utf-8") + "# looked at by the GM\n",
                    encoding="utf-8")
    assert fake_store.open("fake1").history.result(1) == first
    assert parsed == [path]


def test_orders_are_checked_by_the_ruleset_before_they_are_stored(fake_store):
    game = fake_store.open("fake1")
    with pytest.raises(OrderMailError, match="add must be a whole number"):
        game.book.save("ann", {"add": 12}, raw="12", message_id="<x@x>", received_at=T0)
    assert game.book.files() == {}


def test_player_by_address_ignores_case_and_display_name(fake_store):
    game = fake_store.open("fake1")
    assert game.settings.player_by_address("bob@example.ORG").id == "bob"
    assert game.settings.player_by_address("Ann Smith <ANN@example.org>").id == "ann"
    assert game.settings.player_by_address("eve@example.org") is None


@pytest.mark.parametrize("written,read", [
    ('"ann"@example.org', "ann@example.org"),  # the same mailbox (RFC 5322 3.2.4)
    ('"ann@example.org"@evil.test', None),  # another one, too odd to register
    ('"ann"@example.org.', None),  # no address mail could be sent to
])
def test_a_registered_address_in_quotes_is_read_as_the_mailbox_mail_goes_to(
        written: str, read: str | None) -> None:
    """Issue 40: a player registered as ``"ann"@example.org`` is the player who
    mails from ``ann@example.org``, as every mail sent to them is addressed."""
    data = fake_settings(players={"ann": {"name": "Ann", "addresses": [written]}})
    if read is None:
        with pytest.raises(DataError, match="is not a mail address"):
            settings_from_dict(data, "fake1")
        return
    settings = settings_from_dict(data, "fake1")
    assert settings.players["ann"].addresses == (read,)
    assert settings.player_by_address(read.upper()).id == "ann"


def test_passwords_are_stored_as_hashes_only(tmp_path):
    store = GameStore(tmp_path, ruleset_loader=load_fake)
    created = gm.new_game(store, "pw", [gm.PlayerSpec("ann", ("ann@example.org",)),
                                        gm.PlayerSpec("bob", ("bob@example.org",))],
                          ruleset="fake", position=FAKE_POSITION, now=T0)
    game = created.game
    text = (game.dir / "game.yaml").read_text()
    for player, password in created.passwords.items():
        assert password not in text
        assert game.settings.check_password(player, password)
        assert not game.settings.check_password(player, password + "x")
    assert game.settings.players["ann"].password_hash.startswith("scrypt$")


def test_adjudication_writes_the_turn_and_opens_the_next(fake_store):
    game = fake_store.open("fake1")
    save(game, "ann", 3, "<a1@x>")
    record = gm.adjudicate(fake_store, "fake1", T0 + timedelta(days=1, hours=6))
    assert record is not None and record.turn == 1
    tdir = game.dir / "turns" / "001"
    for name in ("dice.yaml", "events.yaml", "report.txt", "result.yaml"):
        assert (tdir / name).is_file(), name
    game = fake_store.open("fake1")
    assert game.turn == 2
    assert game.position["score"] == record.position_after["score"]
    result = read_yaml(tdir / "result.yaml").data
    assert result["orders"] == {"ann": "ann.yaml"}
    assert result["no_orders"] == ["bob"]
    assert read_yaml(tdir / "dice.yaml").data["dice"] == [  # what each die was for (V5)
        [1, "score", "ann", record.dice[0]], [1, "score", "bob", record.dice[1]]]
    assert game.history.rolls(1) == [Roll("score", "ann", record.dice[0], move=1),
                                     Roll("score", "bob", record.dice[1], move=1)]
    assert game.history.dice(1) == record.dice
    # next deadline = old deadline + turn length (the old one was not far behind)
    assert game.settings.deadline == datetime(2026, 12, 3, 17, 0, tzinfo=UTC)
    # orders are never stored for a finished turn: a Game object that still
    # thinks turn 1 is open stores them for the open turn 2
    old = fake_store.open("fake1")
    old.turn = 1
    path = old.book.save("ann", {"add": 1}, raw="1", message_id="<late@x>", received_at=T0)
    assert path.parent == tdir.parent / "002" / "orders"


def test_the_schedule_stored_with_an_orders_file_is_the_one_written(fake_store):
    # the acceptance's "adjudicating now" reads it (issue 20: not worked out twice)
    from pbmref.store.schedule import read_schedule

    game = fake_store.open("fake1")
    first = save(game, "ann", 3, "<s1@x>")
    stored = game.book.schedule_stored_with(first)
    assert stored is not None
    assert stored == read_schedule(game.dir) == game.schedule
    assert stored.waiting_for == ("bob",)
    # the same mail again is found, not stored: nothing written with it
    assert save(game, "ann", 3, "<s1@x>") == first
    assert game.book.schedule_stored_with(first) is None
    second = save(game, "bob", 2, "<s2@x>")
    assert game.book.schedule_stored_with(second).waiting_for == ()
    assert game.book.schedule_stored_with(first) is None  # only the last one stored


def test_far_behind_deadline_starts_from_now(fake_store):
    late = T0 + timedelta(days=10)
    record = gm.adjudicate(fake_store, "fake1", late)
    assert record.next_deadline == late + timedelta(hours=48)


def test_not_due_is_not_adjudicated_unless_forced(fake_store):
    assert gm.adjudicate(fake_store, "fake1", T0) is None
    assert gm.adjudicate(fake_store, "fake1", T0, force=True).turn == 1


def test_paused_game_is_not_due_and_resume_moves_a_passed_deadline(fake_store):
    gm.pause(fake_store, "fake1")
    late = T0 + timedelta(days=5)
    assert fake_store.due(late) == []
    assert gm.adjudicate(fake_store, "fake1", late) is None
    deadline = gm.resume(fake_store, "fake1", late)
    assert deadline == late + timedelta(hours=48)
    assert fake_store.due(late) == []


def test_early_adjudication_when_everyone_has_sent_orders(fake_store):
    game = fake_store.open("fake1")
    game.change_settings({"early_adjudication": True})
    assert fake_store.due(T0) == []
    save(game, "ann", 1, "<a@x>")
    assert fake_store.due(T0) == []
    save(game, "bob", 1, "<b@x>")
    assert fake_store.due(T0) == ["fake1"]


def test_due_reads_a_deadline_the_gm_edited_by_hand(fake_store):
    game = fake_store.open("fake1")
    assert fake_store.due(T0) == []
    text = (game.dir / "game.yaml").read_text().replace(
        "deadline: '2026-12-01T18:00:00+01:00'", "deadline: 2026-11-30T10:00:00+01:00")
    assert "2026-11-30T10" in text
    (game.dir / "game.yaml").write_text(text)
    assert fake_store.due(T0) == ["fake1"]


def test_extend_keeps_the_gms_comments(fake_store):
    game = fake_store.open("fake1")
    path = game.dir / "game.yaml"
    path.write_text(path.read_text().replace("status: open", "status: open   # keep me"))
    new = gm.extend(fake_store, "fake1", timedelta(hours=24))
    assert new == datetime(2026, 12, 2, 17, 0, tzinfo=UTC)
    assert "# keep me" in path.read_text()
    assert fake_store.open("fake1").settings.deadline == new


def test_opening_reads_only_settings_and_the_open_turn(fake_store):
    for day in range(1, 4):
        gm.adjudicate(fake_store, "fake1", T0 + timedelta(days=10 * day))
    game = fake_store.open("fake1")
    assert game.turn == 4
    # break every old turn: opening and due() must not notice
    for turn in (1, 2, 3):
        (game.turn_dir(turn) / "position.yaml").write_text("score: [broken\n")
    assert fake_store.open("fake1").turn == 4
    assert fake_store.due(T0 + timedelta(days=100)) == ["fake1"]


def test_write_new_never_overwrites_and_set_aside_keeps_old_files(tmp_path):
    path = tmp_path / "events.yaml"
    write_new(path, "one\n")
    with pytest.raises(FileExistsError):
        write_new(path, "two\n")
    assert path.read_text() == "one\n"
    aside = set_aside(path)
    assert aside.name == "events.yaml.replaced-1"
    write_new(path, "two\n")
    assert set_aside(path).name == "events.yaml.replaced-2"
    folder = tmp_path / "003"
    folder.mkdir()
    assert set_aside(folder, now=T0).name == "003.old-20261130T120000Z"
    assert not [n for n in os.listdir(tmp_path) if n.endswith(".tmp")]


def test_commit_file_never_replaces_and_a_block_flushes_the_file_by_its_new_name(
        tmp_path, monkeypatch):
    """A spool entry is one file since issue 20: written under a name of its
    own, then given its name only if no entry has it (a rename would replace
    one); inside ``durable_together`` it is flushed by the name it ends with."""
    (tmp_path / "tmp").mkdir()
    (tmp_path / "new").mkdir()
    from powercut import flushes

    flushed = flushes(monkeypatch)
    with durable_together():
        write_synced(tmp_path / "tmp" / "a.1", b"first")
        assert commit_file(tmp_path / "tmp" / "a.1", tmp_path / "new" / "a")
        assert flushed == []
    assert flushed == [str(tmp_path / "new" / "a"), str(tmp_path / "new")]
    write_synced(tmp_path / "tmp" / "a.2", b"second")
    assert not commit_file(tmp_path / "tmp" / "a.2", tmp_path / "new" / "a")
    assert (tmp_path / "new" / "a").read_bytes() == b"first"
    assert os.listdir(tmp_path / "tmp") == []


def test_kick_removes_the_player_and_ignores_their_orders(fake_store):
    game = fake_store.open("fake1")
    save(game, "bob", 9, "<b@x>")
    gm.kick(fake_store, "fake1", "bob")
    record = gm.adjudicate(fake_store, "fake1", T0, force=True)
    assert "bob" not in record.orders
    game = fake_store.open("fake1")
    assert game.settings.players["bob"].status == "kicked"
    assert (game.dir / "game.yaml.replaced-1").is_file()


def test_replace_player_gives_a_new_address_and_password(fake_store):
    change = gm.replace_player(fake_store, "fake1", "bob", address="rob@example.org",
                               name="Rob")
    game = fake_store.open("fake1")
    assert game.settings.player_by_address("rob@example.org").id == "bob"
    assert game.settings.player_by_address("bob@example.org") is None
    assert change.password and game.settings.check_password("bob", change.password)
    gm.replace_player(fake_store, "fake1", "ann", computer=True)
    assert fake_store.open("fake1").settings.players["ann"].computer


def test_add_observer_once(fake_store):
    assert gm.add_observer(fake_store, "fake1", "press@example.org") is not None
    assert gm.add_observer(fake_store, "fake1", "press@example.org") is None
    assert fake_store.open("fake1").settings.observers == ("press@example.org",)


def test_status_tells_who_sent_orders_but_not_what(fake_store):
    game = fake_store.open("fake1")
    save(game, "ann", 7, "<a@x>")
    text = gm.status(fake_store, "fake1").text()
    assert "orders in" in text and "waiting" in text
    assert "add" not in text and "7" not in text.split("deadline")[1].split("\n", 1)[1]


def test_next_deadline_keeps_the_local_hour_across_daylight_saving():
    from zoneinfo import ZoneInfo

    from pbmref.store.deadlines import DeadlineRules, next_deadline

    zone = ZoneInfo("Europe/Amsterdam")
    old = datetime(2026, 10, 24, 20, 0, tzinfo=zone)  # summer time; winter time from 25 Oct
    new = next_deadline(DeadlineRules(), old, timedelta(hours=48), old, zone)
    assert (new.day, new.hour, new.utcoffset()) == (26, 20, timedelta(hours=1))


def test_reminders_due_in_the_window_while_someone_is_missing(fake_store):
    game = fake_store.open("fake1")
    game.change_settings({"reminder_hours": 12})
    deadline = game.settings.deadline
    assert fake_store.reminders_due(deadline - timedelta(hours=13)) == []
    assert fake_store.reminders_due(deadline - timedelta(hours=2)) == ["fake1"]
    assert fake_store.reminders_due(deadline) == []
    save(game, "ann", 1, "<a@x>")
    save(game, "bob", 1, "<b@x>")
    assert fake_store.reminders_due(deadline - timedelta(hours=2)) == []


def test_the_state_index_is_written_only_when_its_values_change(fake_store):
    """A player's second mail of a turn leaves state.yaml as it is (issue 20: one
    write less a mail); a state index changed by anyone else is written again."""
    game = fake_store.open("fake1")
    state = game.dir / "state.yaml"
    save(game, "ann", 3, "<a1@x>")
    first = state.stat().st_ino
    save(game, "ann", 4, "<a2@x>", 1)
    assert state.stat().st_ino == first  # the same values: not written again
    save(game, "bob", 1, "<b1@x>", 2)
    assert state.stat().st_ino != first  # bob's orders are in: waiting_for changed
    state.write_text("turn: 1\n", encoding="utf-8")  # someone else's write
    save(game, "bob", 2, "<b2@x>", 3)
    assert "waiting_for" in state.read_text(encoding="utf-8")


def test_a_position_is_decoded_once_a_version_and_a_hand_edit_is_read_again(example_store):
    game = example_store.open("example")
    path = game.turn_dir(game.turn) / "position.yaml"
    state = game.open.state
    assert example_store.open("example").open.state is state  # the same version: kept
    path.write_text(path.read_text().replace("damage: 12", "damage: 9", 1))
    assert example_store.open("example").open.state.plane("baron").damage == 9
    lines = path.read_text().replace("damage: 9", "damage: lots", 1).splitlines()
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(GameFileError) as broken:
        example_store.open("example")
    assert broken.value.line == next(n for n, line in enumerate(lines, 1) if "lots" in line)


def test_the_open_turn_is_found_when_another_process_played_one(tmp_path, fake_store):
    assert fake_store.open("fake1").turn == 1  # this process's index knows turn 1
    other = GameStore(fake_store.dir, ruleset_loader=load_fake)
    gm.adjudicate(other, "fake1", T0 + timedelta(days=10))
    assert fake_store.open("fake1").turn == 2


def test_settings_are_checked_once_a_version_and_a_hand_edit_is_read_again(fake_store):
    settings = fake_store.open("fake1").settings
    assert fake_store.open("fake1").settings is settings  # the same version: kept
    path = fake_store.path("fake1") / "game.yaml"
    path.write_text(path.read_text().replace("title: Fake game", "title: Edited by hand"))
    assert fake_store.open("fake1").settings.title == "Edited by hand"


def test_an_orders_entry_changed_by_its_reader_is_not_what_the_next_reader_gets(fake_store):
    save(fake_store.open("fake1"), "ann", 3, "<a1@x>")
    fake_store.open("fake1").book.in_force()["ann"].entry["add"] = 99
    assert fake_store.open("fake1").book.entries() == {"ann": {"add": 3}}


def test_the_open_turn_is_found_from_the_folders(fake_store):
    from pbmref.store.layout import find_open_turn

    game = fake_store.open("fake1")
    gm.adjudicate(fake_store, "fake1", T0 + timedelta(days=10))
    folder = game.dir
    assert find_open_turn(folder, 2) == 2
    assert find_open_turn(folder, 1) == 2  # a stale state index: turn 1 has its result
    assert find_open_turn(folder, 0) == 2  # none: the latest turn with a position
    assert find_open_turn(folder, 7) == 2  # a turn that has no folder
    position = folder / "turns" / "002" / "position.yaml"
    position.rename(folder / "turns" / "002" / "kept.yaml")
    with pytest.raises(GameFileError, match="turn 1 was adjudicated, but the position at "
                                            "the start of turn 2 is gone") as gone:
        find_open_turn(folder, 1)
    assert gone.value.file == position
    with pytest.raises(GameFileError, match="turn 2 is open, but the position at its start "
                                            "is gone") as gone:
        find_open_turn(folder, 2)
    assert gone.value.file == position


def test_the_orders_in_force_are_worked_out_once_while_their_files_stay_as_they_were(
        fake_store, monkeypatch):
    """A referee opens a game afresh for every mail and deadline: the open turn's
    orders in force are kept for the process (issue 20), checked against the
    folder's listing and each file's stamp, and worked out again after any
    change by hand: a file copied in, one deleted, one edited, a new position
    or new settings."""
    from pbmref.store.orderbook import OrderBook

    game = fake_store.open("fake1")
    save(game, "ann", 3, "<a1@x>")
    save(game, "bob", 4, "<b1@x>")
    folder = game.book.folder()
    assert fake_store.open("fake1").book.entries() == {"ann": {"add": 3}, "bob": {"add": 4}}
    read: list[str] = []
    real = OrderBook._read_file
    monkeypatch.setattr(OrderBook, "_read_file",
                        lambda self, path, turn: read.append(os.path.basename(path))
                        or real(self, path, turn))

    def in_force() -> dict[str, int]:
        return {p: f.entry["add"] for p, f in fake_store.open("fake1").book.in_force().items()}

    assert in_force() == {"ann": 3, "bob": 4} and read == []  # kept: nothing read
    # a file copied in by hand: a new version of ann's
    (folder / "ann.v2.yaml").write_text((folder / "ann.yaml").read_text()
                                        .replace("add: 3", "add: 5").replace("version: 1",
                                                                             "version: 2"))
    assert in_force() == {"ann": 5, "bob": 4} and sorted(read) == ["ann.v2.yaml", "bob.yaml"]
    read.clear()
    assert in_force() == {"ann": 5, "bob": 4} and read == []
    (folder / "ann.v2.yaml").unlink()  # deleted by hand: the earlier mail is in force again
    assert in_force() == {"ann": 3, "bob": 4}
    bob = folder / "bob.yaml"
    bob.write_text(bob.read_text().replace("add: 4", "add:  6"))  # edited in place
    assert in_force() == {"ann": 3, "bob": 6}
    read.clear()
    position = game.turn_dir(1) / "position.yaml"  # the position edited: checked again
    position.write_text(position.read_text().replace("bob: 0", "carl: 0"))
    with pytest.raises(GameFileError, match="bob has no score"):
        in_force()
    position.write_text(position.read_text().replace("carl: 0", "bob: 0"))
    assert in_force() == {"ann": 3, "bob": 6}
    gm.kick(fake_store, "fake1", "bob")  # new settings: bob's orders are not in force
    assert in_force() == {"ann": 3}


def test_storing_one_players_orders_reads_no_other_players_file(fake_store, monkeypatch):
    """Issue 41, item 5: the schedule written with a mail counts who has orders
    in force from what the process kept between mails, each other player's
    file checked by its stamp only: storing costs the same with 7 or 25."""
    from pbmref.store.orderbook import OrderBook

    save(fake_store.open("fake1"), "ann", 3, "<a1@x>")
    save(fake_store.open("fake1"), "bob", 4, "<b1@x>")
    read: list[str] = []
    real = OrderBook._read_file
    monkeypatch.setattr(OrderBook, "_read_file",
                        lambda self, path, turn: read.append(os.path.basename(path))
                        or real(self, path, turn))
    game = fake_store.open("fake1")
    stored = save(game, "ann", 5, "<a2@x>")
    assert read == []
    assert game.book.schedule_stored_with(stored).waiting_for == ()


def test_a_gm_edit_of_another_players_orders_counts_for_the_next_schedule(fake_store):
    """What the process kept of who has orders in force is checked by each
    file's stamp: the game master's edit of bob's orders between two of ann's
    mails is read, and the schedule written with ann's second mail waits for bob."""
    save(fake_store.open("fake1"), "ann", 3, "<a1@x>")
    game = fake_store.open("fake1")
    bob = save(game, "bob", 4, "<b1@x>")
    assert game.book.schedule_stored_with(bob).waiting_for == ()
    text = bob.read_text()
    bob.write_text(text.replace("kind: orders", "kind: withdrawal").split("entry:")[0])
    game = fake_store.open("fake1")
    stored = save(game, "ann", 5, "<a2@x>")
    assert game.book.schedule_stored_with(stored).waiting_for == ("bob",)
    bob.write_text(text)  # and back again
    game = fake_store.open("fake1")
    stored = save(game, "ann", 6, "<a3@x>")
    assert game.book.schedule_stored_with(stored).waiting_for == ()


def test_a_game_that_read_its_orders_answers_from_what_it_read(fake_store):
    """What one ``Game`` read holds for its life (one mail, one command), kept
    orders in force or not."""
    game = fake_store.open("fake1")
    save(game, "ann", 3, "<a1@x>")
    reader = fake_store.open("fake1")
    assert reader.book.entries() == {"ann": {"add": 3}}
    assert reader.book.entries() == {"ann": {"add": 3}}
    save(fake_store.open("fake1"), "ann", 7, "<a2@x>")
    assert reader.book.entries() == {"ann": {"add": 3}}  # listed before the new mail
    assert fake_store.open("fake1").book.entries() == {"ann": {"add": 7}}


def test_the_standing_votes_are_parsed_once_a_version_and_a_hand_edit_is_read(
        fake_store, monkeypatch):
    """Every adjudication and every STATUS reads ``votes.yaml``: parsed once a
    version of the file (issue 20), a change by the referee or by hand is
    another version, a bad key is named with its line."""
    from pbmref.base import yamlfile

    game = fake_store.open("fake1")
    assert game.votes.read().draw == frozenset()  # no file: nobody votes
    game.votes.change("ann", draw=True, wait=True)
    parsed: list[object] = []
    real = yamlfile.load_text
    monkeypatch.setattr(yamlfile, "load_text", lambda text, p: parsed.append(p) or real(text, p))
    for _ in range(3):
        votes = fake_store.open("fake1").votes
        assert votes.votes(["ann", "bob"]).draw == {"ann"}
        assert votes.waiting(1) == ["ann"]
    assert parsed == []  # parsed when the change was written (the schedule reads it)
    game.votes.change("bob", draw=True)
    assert fake_store.open("fake1").votes.votes(["ann", "bob"]).draw == {"ann", "bob"}
    path = game.dir / "votes.yaml"
    assert parsed == [path]
    path.write_text(path.read_text(encoding="utf-8").replace("[ann, bob]", "[ann]"),
                    encoding="utf-8")
    assert fake_store.open("fake1").votes.votes(["ann", "bob"]).draw == {"ann"}
    assert fake_store.open("fake1").votes.votes(["ann", "bob"]).draw == {"ann"}
    assert parsed == [path, path]
    path.write_text(path.read_text(encoding="utf-8") + "dance: [ann]\n", encoding="utf-8")
    with pytest.raises(GameFileError, match="unknown key 'dance'") as broken:
        fake_store.open("fake1").votes.read()
    assert broken.value.line == len(path.read_text(encoding="utf-8").splitlines())


def test_an_older_dice_record_without_keys_still_reads(fake_store):
    """dice.yaml of a game played before the dice said what they were for."""
    game = fake_store.open("fake1")
    gm.adjudicate(fake_store, "fake1", T0 + timedelta(days=2))
    path = game.turn_dir(1) / "dice.yaml"
    path.write_text("# Every die rolled in turn 1 (rule V5)\nturn: 1\nseed: 7\ndice: [3, 5]\n")
    assert game.history.dice(1) == [3, 5]
    assert game.history.rolls(1) is None  # nothing says what each die was for
    assert gm.check(fake_store, "fake1").problems == []


@pytest.mark.parametrize("dice, line, words", [
    ("\n- [1, score, ann, 4]\n- [1, score, bob, 7]\n", 6, "die 2: a die of 6 sides cannot show 7"),
    ("\n- [1, score, ann, 4]\n- 5\n", 6, "die 2: a die is [move, purpose, who, value] (and its sides if not 6), not 5"),
    (" [0]\n", 4, "die 1: 0 is not a die"),
    ("\n- [1, score, ann]\n", 5, "die 1: a die is [move, purpose, who, value]"),
])
def test_a_broken_dice_record_names_its_line(fake_store, dice, line, words):
    game = fake_store.open("fake1")
    gm.adjudicate(fake_store, "fake1", T0 + timedelta(days=2))
    path = game.turn_dir(1) / "dice.yaml"
    path.write_text("# Every die rolled in turn 1 (rule V5)\nturn: 1\nseed: 7\ndice:" + dice)
    (problem,) = gm.check(fake_store, "fake1").problems
    assert problem.line == line and words in problem.message, problem


def test_check_names_the_orders_file_in_force_when_an_earlier_one_was_edited(fake_store):
    """Issue 42, item 10: the game master edits anna.yaml, the file found first,
    while the orders in force are the latest mail's (ann.v2.yaml): check says
    which file holds them and that the edit changes nothing."""
    game = fake_store.open("fake1")
    first = game.book.save("ann", {"add": 1}, raw="1", message_id="<a@x>", received_at=T0)
    latest = game.book.save("ann", {"add": 2}, raw="2", message_id="<b@x>", received_at=T0)
    assert (first.name, latest.name) == ("ann.yaml", "ann.v2.yaml")
    assert gm.check(fake_store, "fake1").warnings == []
    edited = first.read_text(encoding="utf-8").replace("add: 1", "add: 3")
    first.write_text(edited, encoding="utf-8")
    stamp = latest.stat().st_mtime_ns + 1_000_000_000
    os.utime(first, ns=(stamp, stamp))
    result = gm.check(fake_store, "fake1")
    assert result.ok
    (warning,) = result.warnings
    assert "turns/001/orders/ann.yaml was changed after ann.v2.yaml" in warning
    assert "the orders in force are those of ann.v2.yaml: edit that file" in warning
    assert fake_store.open("fake1").book.entries() == {"ann": {"add": 2}}
