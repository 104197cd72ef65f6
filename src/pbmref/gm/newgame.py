"""``pbmref new-game``: a game folder with its settings, players and turn 1.

The position of turn 1 comes from the game's ruleset (``Ruleset.opening``):
tweedekker builds its board, Diplomacy its opening position; the GM may give
a position instead (a scenario file). Each human player gets a new password
(``store.passwords``: five words, 63 bits), returned once for the referee to
mail; only its hash is written. No player may have one of the referee's own
addresses (``refused_addresses``): the referee never reads its own mail.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pbmref.base.addresses import mailbox
from pbmref.base.times import format_duration, parse_duration
from pbmref.rulesets import NewGameOptions, PlayerSpec, Ruleset
from pbmref.store import Game, GameStore, check_id, derive_turn_seed, hash_password, new_password
from pbmref.store.deadlines import deadline_rules, on_allowed_day
from pbmref.store.errors import DataError
from pbmref.store.settings import ADDRESS_RE, parse_early_delay

__all__ = ["NewGame", "check_addresses", "new_game"]


@dataclass(frozen=True)
class NewGame:
    game: Game
    passwords: dict[str, str]  # player id -> password, for the referee to mail once
    placement: str  # how the opening was set up, in words
    unplayed: tuple[str, ...] = ()  # sides nobody plays (Diplomacy powers)
    computer_sides: tuple[str, ...] = ()  # sides given to computer players
    unplayed_note: str = ""  # what happens to them, for the game master


def check_addresses(addresses: Iterable[str], refused: Iterable[str]) -> None:
    """ValueError when one of ``addresses`` is one of ``refused`` (the referee's own).

    >>> check_addresses(["Ref@Example.org"], ["ref@example.org"])
    Traceback (most recent call last):
    ...
    ValueError: Ref@Example.org is the referee's own address: a player or observer needs an address of their own
    >>> check_addresses(['"ref"@example.org'], ["ref@example.org"])
    Traceback (most recent call last):
    ...
    ValueError: "ref"@example.org is the referee's own address: a player or observer needs an address of their own
    """
    own = {mailbox(a.strip()).lower() for a in refused}
    for address in addresses:
        if mailbox(address.strip()).lower() in own:
            raise ValueError(f"{address} is the referee's own address: a player or observer "
                             "needs an address of their own")


def _check_players(players: Sequence[PlayerSpec], observers: Sequence[str]) -> None:
    """Each player named once, with an id and mail addresses that can be used (so a
    bad one is said against the command, not the game file it would have made)."""
    seen: set[str] = set()
    for p in players:
        check_id(p.id, "player id")
        if p.id in seen:
            raise ValueError(f"player {p.id} is named twice; each player needs an id of "
                             "their own")
        seen.add(p.id)
        for address in p.addresses:
            if not ADDRESS_RE.fullmatch(address.strip()):
                raise ValueError(f"player {p.id}: {address!r} is not a mail address like "
                                 "name@example.org")
    for address in observers:
        if not ADDRESS_RE.fullmatch(address.strip()):
            raise ValueError(f"observer {address!r} is not a mail address like "
                             "name@example.org")


def _check_timezone(timezone: str) -> None:
    try:
        ZoneInfo(timezone)
    except (ValueError, ZoneInfoNotFoundError):
        raise ValueError(f"timezone {timezone!r} is not a time zone: give an IANA name such "
                         "as Europe/Berlin or UTC") from None


def _check_variant(rules: Ruleset[Any, Any, Any], variant: str | None,
                   position: Mapping[str, object] | None) -> None:
    """A variant the ruleset has, and not beside a position (which names its own)."""
    if variant is not None and variant not in rules.variant_names():
        known = ", ".join(rules.variant_names()) or "none"
        raise ValueError(f"{rules.name} has no variant {variant!r} (its variants: {known})")
    if variant is not None and position is not None:
        raise ValueError("give a variant or a position, not both (a position names its variant)")


def _player_entries(players: Sequence[PlayerSpec], *,
                    passwords: bool) -> tuple[dict[str, str], dict[str, object]]:
    """The new passwords (human players only, if ``passwords``) and the players
    as ``game.yaml`` keeps them."""
    pw: dict[str, str] = {}
    player_data: dict[str, object] = {}
    for p in players:
        entry: dict[str, object] = {"name": p.name or p.id, "addresses": list(p.addresses)}
        if passwords and not p.computer:
            pw[p.id] = new_password()
            entry["password_hash"] = hash_password(pw[p.id])
        entry["computer"] = p.computer
        entry["status"] = "active"
        player_data[p.id] = entry
    return pw, player_data


def _first_deadline(after: datetime, timezone: str) -> datetime:
    """The first full hour (in the game's time zone) after ``after``."""
    local = after.astimezone(ZoneInfo(timezone))
    return local.replace(minute=0, second=0, microsecond=0) + timedelta(hours=1)


def new_game(
    store: GameStore,
    game_id: str,
    players: Sequence[PlayerSpec],
    *,
    title: str = "",
    ruleset: str = "tweedekker",
    board_side: int = 10,
    wind: Mapping[str, object] | None = None,
    clouds: Sequence[Mapping[str, object]] = (),
    zeppelin: str | None = "controlled",
    zeppelin_length: int = 2,
    zeppelin_hexes: Sequence[str] | None = None,
    zeppelin_heading: str | None = None,
    rule_settings: Mapping[str, object] | None = None,
    variant: str | None = None,
    position: Mapping[str, object] | None = None,
    timezone: str = "UTC",
    deadline: datetime | None = None,
    turn_length: str | timedelta = "48h",
    reminder_hours: float = 12,
    early_adjudication: bool = True,
    early_delay: str | timedelta | None = None,
    anonymous: bool = False,
    press: str | None = None,
    passwords: bool = True,
    observers: Sequence[str] = (),
    computer_sides: bool = False,
    seed: int | None = None,
    now: datetime | None = None,
    refused_addresses: Sequence[str] = (),
    deadlines: Mapping[str, object] | None = None,
    draws: Mapping[str, object] | None = None,
    takeover: str = "anyone",
) -> NewGame:
    """Create a game folder; returns the game and the players' new passwords.

    ``computer_sides``: every side nobody plays (a Diplomacy power) gets a
    computer player (``Ruleset.computer_player``); otherwise such sides stay
    out of play (a Diplomacy power in civil disorder, DD3).

    ``press`` (none, white, grey, broadcast) is what press the referee relays;
    by default the ruleset's (white in Diplomacy, none in the air games).

    ``early_delay`` (``"30m"``, ``"0"``: at once) is how long after every
    player's orders are in the turn is played; by default the ruleset's
    (``Ruleset.early_delay``); a bad one raises ``ValueError`` naming it.

    ``deadlines``, ``draws`` and ``takeover`` are game.yaml's keys of the same
    names (rules J7-J13); the first deadline falls on a day ``deadlines``
    allows (J8)."""
    check_id(game_id)
    if not players:
        raise ValueError("a game needs at least one player")
    _check_players(players, observers)
    check_addresses([a for p in players for a in p.addresses] + list(observers),
                    refused_addresses)
    _check_timezone(timezone)
    rules = store.ruleset_loader(ruleset)
    _check_variant(rules, variant, position)
    now = now or datetime.now(UTC)
    seed = seed if seed is not None else random.SystemRandom().randrange(1, 2**31)
    length = turn_length if isinstance(turn_length, timedelta) else parse_duration(turn_length)
    delay = _early_delay(early_delay)
    options = NewGameOptions(
        board_side=board_side, wind=wind, clouds=clouds, zeppelin=zeppelin,
        zeppelin_length=zeppelin_length, zeppelin_hexes=zeppelin_hexes,
        zeppelin_heading=zeppelin_heading, rule_settings=rule_settings, variant=variant)
    opening = rules.opening(players, options, derive_turn_seed(seed, 0), position)
    given = tuple(rules.unplayed(opening.position)) if computer_sides else ()
    if given:
        players = [*players, *(rules.computer_player(side) for side in given)]
        opening = rules.opening(players, options, derive_turn_seed(seed, 0), position)
    pw, player_data = _player_entries(players, passwords=passwords)
    try:
        clock = deadline_rules(deadlines)
    except DataError as exc:
        raise ValueError(f"{'.'.join(map(str, exc.path))}: {exc.message}") from None
    if deadline is None:
        deadline = on_allowed_day(_first_deadline(now + length, timezone), clock.days,
                                  ZoneInfo(timezone))
    settings = {
        "title": title or game_id,
        "ruleset": ruleset,
        "status": "open",
        "seed": seed,
        "timezone": timezone,
        "deadline": deadline.isoformat(),
        "turn_length": turn_length if isinstance(turn_length, str) else format_duration(length),
        "reminder_hours": reminder_hours,
        "early_adjudication": early_adjudication,
        **({"early_delay": format_duration(delay)} if delay is not None else {}),
        "anonymous": anonymous,
        "press": press or rules.default_press,
        **({"deadlines": dict(deadlines)} if deadlines else {}),
        **({"draws": dict(draws)} if draws else {}),
        **({"takeover": takeover} if takeover != "anyone" else {}),
        "scenario": opening.scenario,
        "players": player_data,
        "observers": list(observers),
    }
    game = store.create(game_id, settings, opening.position, header=(
        f"Game {game_id}: settings and players. The game master edits this file;\n"
        "run `pbmref check " + game_id + "` after every edit."))
    unplayed = tuple(rules.unplayed(opening.position))
    return NewGame(game=game, passwords=pw, placement=opening.placement,
                   unplayed=unplayed, computer_sides=given,
                   unplayed_note=rules.unplayed_note(unplayed) if unplayed else "")


def _early_delay(value: str | timedelta | None) -> timedelta | None:
    """``new_game``'s ``early_delay`` checked; a bad one is said in one line."""
    if value is None or isinstance(value, timedelta):
        return value
    try:
        return parse_early_delay(value)
    except ValueError as exc:
        raise ValueError(f"early_delay: {exc} (0: at once)") from None
