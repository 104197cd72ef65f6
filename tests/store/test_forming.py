"""Forming games and places in running games, at the game master's layer
(issue 45, rules J2-J7, J11, J12): what the referee's lobby calls, without mail."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest
import yaml

from pbmref import gm
from pbmref.gm.forming import join, leave, new_forming, observe, start
from pbmref.gm.seats import (
    SeatRefused,
    join_standby,
    resign,
    set_absence,
    set_timezone,
    take_over,
)
from pbmref.store import GameStore, StoreError
from pbmref.store.lobby import Joined, Lobby, read_standby

T0 = datetime(2026, 7, 1, 10, 0, tzinfo=UTC)


@pytest.fixture
def store(tmp_path: Path) -> GameStore:
    return GameStore(tmp_path / "games")


def joined(name: str, *wants: str) -> Joined:
    return Joined(f"{name}@example.org", name.title(), tuple(wants), T0)


def dip(store: GameStore, places: int = 3, **kw: object) -> None:
    game = {"turn_length": "48h", "deadlines": {"grace": "24h"}, **kw.pop("game", {})}  # type: ignore[dict-item]
    new_forming(store, "dip7", ruleset="diplomacy", places=places, title="Summer league",
                game=game, seed=11, now=T0, **kw)  # type: ignore[arg-type]


def test_a_forming_game_is_a_file_of_the_lobby_and_no_game_J2(store: GameStore) -> None:
    dip(store)
    assert Lobby(store.dir).ids() == ["dip7"]
    assert store.list_games() == [] and store.index.ids() == []
    data = yaml.safe_load((store.dir / ".lobby" / "dip7.yaml").read_text())
    assert data["places"] == 3 and data["game"]["deadlines"] == {"grace": "24h"}
    assert not list((store.dir / ".lobby").glob(".trial-*"))  # the trial game is gone


@pytest.mark.parametrize(("game", "words"), [
    ({"timezone": "Mars/Olympus"}, "time zone"),
    ({"variant": "nowhere"}, "unknown variant 'nowhere'"),
    ({"deadlines": {"grace": "soon"}}, "grace"),
    ({"colour": "red"}, "unknown setting 'colour'"),
])
def test_a_bad_setting_is_said_at_once_and_nothing_is_made(store: GameStore, game: dict[str, object],
                                                            words: str) -> None:
    with pytest.raises(ValueError, match=words):
        new_forming(store, "dip7", ruleset="diplomacy", places=3, game=game)
    assert Lobby(store.dir).ids() == []


def test_more_places_than_powers_is_refused(store: GameStore) -> None:
    with pytest.raises(ValueError, match="8 places, but the game offers 7"):
        dip(store, places=8)


def test_joining_refuses_twice_an_unknown_place_and_a_full_game_J2(store: GameStore) -> None:
    dip(store, places=2)
    forming = join(store, "dip7", joined("anna", "fra", "England"))
    assert forming.players[0].wants == ("FRA", "ENG")  # a power by its code or its name
    with pytest.raises(StoreError, match="a place in dip7 already"):
        join(store, "dip7", joined("anna"))
    with pytest.raises(StoreError, match="XYZ is not a place of dip7"):
        join(store, "dip7", joined("bert", "XYZ"))
    join(store, "dip7", joined("bert"))
    with pytest.raises(StoreError, match="no open place"):
        join(store, "dip7", joined("cora"))
    assert [p.address for p in leave(store, "dip7", "anna@example.org").players] == [
        "bert@example.org"]
    with pytest.raises(ValueError, match="referee's own address"):
        join(store, "dip7", joined("ref"), refused_addresses=["ref@example.org"])


def test_the_start_gives_places_by_preference_in_a_drawn_order_J4(store: GameStore) -> None:
    dip(store)
    for name, wants in (("anna", ("FRA", "ENG")), ("bert", ("FRA",)), ("cora", ())):
        join(store, "dip7", joined(name, *wants))
    observe(store, "dip7", "press@example.org")
    started = start(store, "dip7", now=T0)
    assert set(started.games) == {"dip7"} and set(started.games["dip7"]) == {
        "anna", "bert", "cora"}
    game = store.open("dip7")
    powers = game.position["players"]
    # both wanted France: the drawn order gave it to one of them, the other got
    # their next wish or a place drawn from those left
    assert "FRA" in (powers["anna"], powers["bert"])
    assert powers["anna"] in ("FRA", "ENG") and len(set(powers.values())) == 3
    assert game.settings.observers == ("press@example.org",)
    assert game.settings.deadlines.grace == timedelta(hours=24)
    assert game.settings.deadline == datetime(2026, 7, 3, 11, 0, tzinfo=UTC)
    assert Lobby(store.dir).ids() == []
    kept = read_standby(game.dir)
    assert [j.address for j in kept.joined] == [f"{n}@example.org" for n in ("anna", "bert",
                                                                             "cora")]
    # the same seed and wishes give the same places
    again = GameStore(store.dir.parent / "again")
    dip(again)
    for name, wants in (("anna", ("FRA", "ENG")), ("bert", ("FRA",)), ("cora", ())):
        join(again, "dip7", joined(name, *wants))
    start(again, "dip7", now=T0)
    assert again.open("dip7").position["players"] == powers


def test_the_game_masters_choice_of_places_J4(store: GameStore) -> None:
    dip(store, choice="gm")
    for name in ("anna", "bert", "cora"):
        join(store, "dip7", joined(name, "TUR"))  # wishes are not places here
    start(store, "dip7", now=T0, seats={"anna@example.org": "RUS", "cora@example.org": "ITA"})
    powers = store.open("dip7").position["players"]
    assert (powers["anna"], powers["cora"]) == ("RUS", "ITA")
    assert powers["bert"] in {"AUS", "ENG", "FRA", "GER", "TUR"}  # drawn from those left


def test_a_tweedekker_game_forms_with_airfields_as_places(store: GameStore) -> None:
    new_forming(store, "zep2", ruleset="tweedekker", places=3, game={"board_side": 10},
                seed=3, now=T0)
    for name, field in (("anna", "n"), ("bert", "se"), ("cora", "N")):
        join(store, "zep2", joined(name, field))
    start(store, "zep2", now=T0)
    game = store.open("zep2")
    fields = {p: game.ruleset.place_of(game.position, p) for p in game.settings.players}
    assert fields["bert"] == "SE" and len(set(fields.values())) == 3
    assert [fields["anna"], fields["cora"]].count("N") == 1  # both wished N: one got it


def test_a_fast_play_class_forms_with_its_sides_as_places(store: GameStore) -> None:
    klass = {"per_board": 8, "turns": 6, "timezone": "Europe/Brussels"}
    new_forming(store, "7c", ruleset="fastplay", places=4, klass=klass, seed=5, now=T0)
    for name in ("anna", "bert", "cora", "dirk"):
        join(store, "7c", joined(name, "germans"))  # everybody wants the Germans
    started = start(store, "7c", now=T0)
    assert list(started.games) == ["7c-1"]
    game = store.open("7c-1")
    teams = sorted(a["team"] for a in game.position["aircraft"].values())
    assert teams == ["Allies", "Allies", "Germans", "Germans"]  # FP1: both sides fly
    assert (store.dir / "roster.yaml").is_file()


# ------------------------------------------------------------------ a running game


@pytest.fixture
def running(store: GameStore) -> GameStore:
    dip(store, game={"takeover": "standby"})
    for name in ("anna", "bert", "cora"):
        join(store, "dip7", joined(name))
    start(store, "dip7", now=T0)
    return store


def test_resign_opens_the_place_and_only_the_standby_list_takes_it_J6_J7(
        running: GameStore) -> None:
    game = running.open("dip7")
    place = game.position["players"]["bert"]
    assert resign(running.open("dip7"), "bert", now=T0) == place
    game = running.open("dip7")
    assert game.settings.players["bert"].status == "resigned"
    assert game.listing.open == ("bert",)
    assert "bert" not in game.schedule.waiting_for  # not waited for (J6)
    with pytest.raises(SeatRefused, match="no place"):
        resign(running.open("dip7"), "bert")
    dora = joined("dora")
    with pytest.raises(SeatRefused, match="standby list only: send JOIN dip7"):
        take_over(running.open("dip7"), place, dora, now=T0)
    assert join_standby(running.open("dip7"), dora) and not join_standby(running.open("dip7"), dora)
    with pytest.raises(SeatRefused, match="play in this game already"):
        join_standby(running.open("dip7"), joined("anna"))
    with pytest.raises(SeatRefused, match="is not an open place"):
        take_over(running.open("dip7"), "XXX", dora, now=T0)
    taken = take_over(running.open("dip7"), place.lower(), dora, now=T0)
    assert taken.player == "bert" and taken.change.password
    game = running.open("dip7")
    bert = game.settings.players["bert"]
    assert bert.addresses == ("dora@example.org",) and bert.active and bert.name == "Dora"
    assert game.settings.check_password("bert", taken.change.password)
    assert read_standby(game.dir).standby == ()
    assert [a.action for a in gm.actions.actions_of(game, 1)] == ["resign", "replace-player"]


def test_an_absence_moves_the_open_deadline_within_the_bounds_J11(running: GameStore) -> None:
    game = running.open("dip7")
    deadline = game.settings.deadline
    assert deadline is not None
    first = deadline.date() - timedelta(days=1)
    with pytest.raises(SeatRefused, match="7 days long at most"):
        set_absence(running.open("dip7"), "anna", first, first + timedelta(days=7), now=T0)
    with pytest.raises(SeatRefused, match="has passed"):
        set_absence(running.open("dip7"), "anna", date(2026, 6, 1), date(2026, 6, 2), now=T0)
    done = set_absence(running.open("dip7"), "anna", first, first + timedelta(days=2), now=T0)
    assert done.moved and done.old_deadline == deadline
    assert done.new_deadline == deadline + timedelta(days=2)  # the day after, same time
    game = running.open("dip7")
    assert game.settings.deadline == done.new_deadline
    assert [a.action for a in gm.actions.actions_of(game, 1)] == ["absence"]
    # the days of absence a player may take in the game: 21 by default
    for n in range(2):
        start_day = first + timedelta(days=10 + 7 * n)
        set_absence(running.open("dip7"), "anna", start_day, start_day + timedelta(days=6), now=T0)
    with pytest.raises(SeatRefused, match="4 days of absence left"):  # 3 + 7 + 7 taken
        set_absence(running.open("dip7"), "anna", first + timedelta(days=30),
                    first + timedelta(days=36), now=T0)


def test_the_next_deadline_falls_past_an_absence_and_on_the_phase_clock_J8(
        running: GameStore) -> None:
    game = running.open("dip7")
    game.change_settings({"deadlines": {"retreats": "12h", "adjustments": "6h"}})
    deadline = game.settings.deadline
    assert deadline is not None
    away = (deadline + timedelta(days=1)).date()
    set_absence(running.open("dip7"), "cora", away, away + timedelta(days=1), now=T0)
    record = gm.adjudicate(running, "dip7", deadline + timedelta(minutes=1))
    assert record is not None
    # S1901M played (nobody dislodged): F1901M runs on the turn length, 48h, which
    # falls in cora's absence: the day after it, at the same time
    assert running.open("dip7").settings.deadline == deadline + timedelta(days=3)


def test_a_player_sets_their_time_zone_J12(running: GameStore) -> None:
    assert set_timezone(running.open("dip7"), "anna", "Asia/Tokyo") == "Asia/Tokyo"
    assert running.open("dip7").settings.zone_of("anna") == "Asia/Tokyo"
    with pytest.raises(SeatRefused, match="not a time zone"):
        set_timezone(running.open("dip7"), "anna", "Tokyo")
