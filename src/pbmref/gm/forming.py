"""Forming games: made by the game master, filled by mail, started when full (J2-J5).

``new_forming`` writes a forming game (``store.lobby``: ``.lobby/<id>.yaml``)
after trying its settings on a game of stand-in players, so a bad setting
is said at once, against the command. ``join``, ``leave`` and ``observe``
change it as the referee's lobby asks (after J3); ``start`` gives the
places (J4: by preference, in an order drawn from the game's seed, or as
the game master chose), makes the game with ``new_game`` (a Fast Play
class: its boards, with ``classroom.create_class``), moves the record into
the game's folder (``lobby.yaml``) and returns the passwords for the
referee to mail once. Nothing here mails.
"""

from __future__ import annotations

import random
import re
import shutil
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pbmref.gm.classroom import classroom, create_class
from pbmref.gm.newgame import check_addresses, new_game
from pbmref.gm.roster import roster_path
from pbmref.rulesets import PlayerSpec
from pbmref.rulesets.base import shuffled
from pbmref.store import GameStore, StoreError, check_id
from pbmref.store.errors import DataError, GameExists
from pbmref.store.lobby import CHOICES, Forming, Joined, Lobby, Standby, write_standby
from pbmref.store.settings import ID_RE

__all__ = ["GAME_KEYS", "Started", "assign_places", "join", "join_refused", "leave",
           "new_forming",
           "observe", "offered_places", "player_ids", "start"]

# The settings of a forming game's ``game:`` (gm.new_game's keyword arguments).
GAME_KEYS = ("variant", "board_side", "zeppelin", "zeppelin_length", "rule_settings",
             "timezone", "turn_length", "reminder_hours", "early_adjudication", "early_delay", "anonymous",
             "press", "passwords", "computer_sides", "deadlines", "draws", "takeover")


def offered_places(store: GameStore, forming: Forming) -> list[tuple[str, str]]:
    """The places a forming game offers (J2): a class's sides, the game kind's
    places of its variant (powers, airfields), or none."""
    if forming.klass is not None:
        return _class_places(forming)
    variant = forming.game.get("variant")
    return store.ruleset_loader(forming.ruleset).places(
        variant if isinstance(variant, str) else None)


def _game_settings(forming: Forming) -> dict[str, Any]:
    unknown = [k for k in forming.game if k not in GAME_KEYS]
    if unknown:
        raise ValueError(f"{forming.id}: unknown setting {unknown[0]!r} in game: (known: "
                         f"{', '.join(GAME_KEYS)})")
    return dict(forming.game)


def new_forming(store: GameStore, game_id: str, *, ruleset: str, places: int,
                title: str = "", choice: str = "preference",
                game: Mapping[str, object] | None = None, klass: Mapping[str, object] | None = None,
                observers: Sequence[str] = (), seed: int | None = None,
                now: datetime | None = None, refused_addresses: Sequence[str] = ()) -> Forming:
    """A new forming game waiting for ``places`` players; its settings are tried
    first (on a game of stand-ins, thrown away), so a bad one changes nothing."""
    check_id(game_id)
    lobby = Lobby(store.dir)
    if store.exists(game_id) or lobby.exists(game_id):
        raise GameExists(f"game {game_id!r} exists already in {store.dir}")
    if choice not in CHOICES:
        raise ValueError(f"choice must be one of: {', '.join(CHOICES)}")
    check_addresses(observers, refused_addresses)
    forming = Forming(
        id=game_id, ruleset=classroom().ruleset if klass is not None else ruleset, places=places,
        title=title or game_id, choice=choice,
        seed=seed if seed is not None else random.SystemRandom().randrange(1, 2**31),
        created=now or datetime.now(UTC), game=dict(game or {}),
        klass=dict(klass) if klass is not None else None, observers=tuple(observers))
    offered = offered_places(store, forming)
    if places < 2:
        raise ValueError("a forming game needs places for two players at least")
    if offered and klass is None and places > len(offered) \
            and not store.ruleset_loader(forming.ruleset).places_shared:
        raise ValueError(f"{places} places, but the game offers {len(offered)}: "
                         f"{', '.join(code for code, _ in offered)}")
    _try(store, forming)
    lobby.write(forming)
    return forming


def _try(store: GameStore, forming: Forming) -> None:
    """Make the game of ``forming`` with stand-in players in a folder of its own
    and throw it away: a bad setting raises here, before the forming game is
    written."""
    trial = store.dir / ".lobby" / f".trial-{forming.id}"
    shutil.rmtree(trial, ignore_errors=True)
    stand_ins = tuple(Joined(f"player{n}@lobby.invalid", f"Player {n}")
                      for n in range(1, forming.places + 1))
    try:
        _make(GameStore(trial, ruleset_loader=store.ruleset_loader),
              replace(forming, players=stand_ins), datetime.now(UTC), roster=trial / "roster")
    except (DataError, StoreError) as exc:
        raise ValueError(str(exc)) from None
    finally:
        shutil.rmtree(trial, ignore_errors=True)


def _joining(store: GameStore, forming: Forming, joined: Joined) -> Joined:
    """``joined`` with its wishes as place codes; StoreError when it cannot join."""
    if forming.player(joined.address) is not None:
        raise StoreError(f"you have a place in {forming.id} already")
    if forming.full:
        raise StoreError(f"{forming.id} has no open place left")
    offered = offered_places(store, forming)
    codes = [c for c, _ in offered]
    wants = tuple(dict.fromkeys(_place_word(w, offered) for w in joined.wants))
    unknown = [w for w in wants if w not in codes]
    if unknown:
        raise StoreError(f"{unknown[0]} is not a place of {forming.id} (its places: "
                         f"{', '.join(codes) or 'none to choose'})")
    return replace(joined, wants=wants)


def join_refused(store: GameStore, game_id: str, joined: Joined) -> str | None:
    """Why ``joined`` cannot join the forming game now (J2), or None; nothing
    is written (the lobby asks before it mails a code, J3)."""
    try:
        _joining(store, Lobby(store.dir).read(game_id), joined)
    except StoreError as exc:
        return str(exc)
    return None


def join(store: GameStore, game_id: str, joined: Joined, *,
         refused_addresses: Sequence[str] = ()) -> Forming:
    """Add ``joined`` to a forming game (J2, after J3); the game as it is then."""
    check_addresses([joined.address], refused_addresses)
    lobby = Lobby(store.dir)
    with lobby.lock(game_id):
        forming = lobby.read(game_id)
        forming = forming.with_player(_joining(store, forming, joined))
        lobby.write(forming)
        return forming


def _place_word(word: str, offered: Sequence[tuple[str, str]]) -> str:
    """A place as written (``fra``, ``France``, ``GER`` for the Germans' side) as
    its code; a word that names no place, as it is (upper-cased).

    >>> _place_word("england", [("ENG", "England")]), _place_word("ger", [("GERMANS", "Germans")])
    ('ENG', 'GERMANS')
    """
    upper = word.upper()
    for code, label in offered:
        if upper in (code, label.upper()):
            return code
    found = [c for c, _ in offered if c.startswith(upper)]
    return found[0] if len(found) == 1 else upper


def leave(store: GameStore, game_id: str, address: str) -> Forming:
    """Take ``address`` out of a forming game (J6)."""
    lobby = Lobby(store.dir)
    with lobby.lock(game_id):
        forming = lobby.read(game_id)
        if forming.player(address) is None:
            raise StoreError(f"you have no place in {game_id}")
        forming = forming.without(address)
        lobby.write(forming)
        return forming


def observe(store: GameStore, game_id: str, address: str, *,
            refused_addresses: Sequence[str] = ()) -> bool:
    """Add an observer to a forming game (J5); False when it is one already."""
    check_addresses([address], refused_addresses)
    lobby = Lobby(store.dir)
    with lobby.lock(game_id):
        forming = lobby.read(game_id)
        if address.lower() in {o.lower() for o in forming.observers}:
            return False
        lobby.write(replace(forming, observers=(*forming.observers, address)))
        return True


# ------------------------------------------------------------------ the start


def assign_places(forming: Forming, codes: Sequence[str]) -> dict[str, str | None]:
    """Each player's place (address -> code; None when every place is given and
    the game kind shares them, as tweedekker's airfields, B5), by J4: the game
    master's seats first (``choice: gm``), then, in an order drawn from the
    seed, each player's first wish still free (``choice: preference``), then
    places drawn from those left.

    >>> f = Forming("g", "diplomacy", 2, seed=7, players=(
    ...     Joined("a@x.org", wants=("FRA",)), Joined("b@x.org", wants=("FRA", "ENG"))))
    >>> sorted(assign_places(f, ["ENG", "FRA", "GER"]).values())  # b drawn first: FRA
    ['FRA', 'GER']
    """
    free = list(codes)
    given: dict[str, str | None] = {}
    by_address = {p.address.lower(): p for p in forming.players}
    if forming.choice == "gm":
        for address, place in forming.seats.items():
            if address in by_address and place in free and address not in given:
                given[address] = place
                free.remove(place)
    order = shuffled(list(by_address), str(forming.seed))
    if forming.choice == "preference":
        for address in order:
            wish = next((w for w in by_address[address].wants if w in free), None)
            if wish is not None and address not in given:
                given[address] = wish
                free.remove(wish)
    rng = random.Random(forming.seed)
    for address in order:
        if address not in given:
            drawn = rng.choice(free) if free else None
            given[address] = drawn
            if drawn is not None:
                free.remove(drawn)
    return given


def _class_places(forming: Forming) -> list[tuple[str, str]]:
    """A class's places: its sides (a Fast Play class: FP1)."""
    return [(team.upper(), team) for team in classroom(forming.ruleset).teams]


def _class_sides(forming: Forming) -> dict[str, str]:
    """A class's sides (FP1) as the pupils wished (J4), each side at most half
    the class rounded up, so both sides fly."""
    cap = -(-len(forming.players) // 2)
    places = _class_places(forming)
    teams = [team for _, team in places]
    count = dict.fromkeys(teams, 0)
    out: dict[str, str] = {}
    by_name = dict(places)
    order = shuffled([p.address.lower() for p in forming.players], str(forming.seed))
    wishes = {p.address.lower(): p.wants for p in forming.players}
    for address in order:
        wished = [by_name[w] for w in wishes[address] if w in by_name
                  and count[by_name[w]] < cap]
        team = wished[0] if wished else min(teams, key=lambda t: (count[t], teams.index(t)))
        out[address] = team
        count[team] += 1
    return out


def player_ids(players: Sequence[Joined]) -> dict[str, str]:
    """A player id for each address (its local part, made a valid id, numbered
    when two would be the same).

    >>> player_ids([Joined("Anna.B@x.org"), Joined("anna.b@y.org"), Joined("9@z.org")])
    {'anna.b@x.org': 'anna-b', 'anna.b@y.org': 'anna-b2', '9@z.org': '9'}
    """
    out: dict[str, str] = {}
    taken: set[str] = set()
    for p in players:
        local = p.address.split("@", 1)[0].lower()
        base = re.sub(r"[^a-z0-9_-]+", "-", local).strip("-_")[:24] or "player"
        if not ID_RE.fullmatch(base):
            base = "p" + base
        pid, n = base, 2
        while pid in taken:
            pid, n = f"{base}{n}", n + 1
        taken.add(pid)
        out[p.address.lower()] = pid
    return out


@dataclass(frozen=True)
class Started:
    """A forming game made into its game (or a class into its boards): the
    passwords to mail once, per game."""

    games: Mapping[str, Mapping[str, str]]  # game id -> player id -> password
    forming: Forming


def _make(store: GameStore, forming: Forming, now: datetime, *,
          refused_addresses: Sequence[str] = (), roster: Path | None = None
          ) -> dict[str, dict[str, str]]:
    """The game (or a class's boards) of ``forming`` with its players; the
    passwords by game."""
    ids = player_ids(forming.players)
    if forming.klass is not None:
        sides = _class_sides(forming)
        pilots = {ids[p.address.lower()]: {"name": p.name or ids[p.address.lower()],
                                           "team": sides[p.address.lower()],
                                           "address": p.address} for p in forming.players}
        kind = classroom(forming.ruleset)
        template = kind.template_from_dict({**forming.klass, "class": forming.id,
                                            "title": forming.title, "pilots": pilots})
        boards = create_class(store, template, roster or roster_path(store.dir), kind=kind,
                              refused_addresses=refused_addresses, now=now,
                              observers=forming.observers)
        return {b.game_id: dict(b.passwords) for b in boards}
    settings = _game_settings(forming)
    codes = [c for c, _ in offered_places(store, forming)]
    places = assign_places(forming, codes) if codes else {}
    rules = store.ruleset_loader(forming.ruleset)
    players = []
    for p in forming.players:
        spec = PlayerSpec(ids[p.address.lower()], (p.address,), p.name or ids[p.address.lower()])
        place = places.get(p.address.lower())
        players.append(rules.seat(spec, place) if place else spec)
    result = new_game(store, forming.id, players, title=forming.title, ruleset=forming.ruleset,
                      seed=forming.seed, now=now, observers=forming.observers,
                      refused_addresses=refused_addresses, **settings)
    return {forming.id: dict(result.passwords)}


def start(store: GameStore, game_id: str, *, now: datetime | None = None,
          seats: Mapping[str, str] | None = None,
          refused_addresses: Sequence[str] = ()) -> Started:
    """Start a forming game with whoever joined (J4): when it is full, or when
    the game master says (``pbmref start``). ``seats``: the game master's
    choice of places (address -> place), for a game of ``choice: gm``."""
    now = now or datetime.now(UTC)
    lobby = Lobby(store.dir)
    with lobby.lock(game_id):
        forming = lobby.read(game_id)
        if not forming.players:
            raise StoreError(f"nobody has joined {game_id} yet")
        if seats:
            forming = replace(forming, seats={**forming.seats, **{
                a.lower(): p.upper() for a, p in seats.items()}})
        try:
            games = _make(store, forming, now, refused_addresses=refused_addresses)
        except DataError as exc:
            raise ValueError(str(exc)) from None
        record = Standby(forming.players, (), {
            "forming": {k: v for k, v in forming.to_dict().items() if k != "players"},
            "started": now.isoformat()})
        for gid in games:
            write_standby(store.path(gid), record, ())
        lobby.remove(game_id)
    return Started(games, forming)
