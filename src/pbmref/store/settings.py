"""A game's settings (``game.yaml``): the part the game master edits.

``settings_from_doc`` checks every value and reports a bad one with the file
and line; ``settings_to_dict`` writes the same keys back. Example::

    title: Zeppelin over Flanders
    ruleset: tweedekker
    status: open                 # open | paused | finished
    seed: 4711                   # every turn's dice seed is derived from it
    timezone: Europe/Brussels    # IANA name; deadlines are shown in it
    deadline: 2026-12-02T20:00:00+01:00   # of the open turn (no zone: the game's zone)
    turn_length: 48h             # 90m, 48h, 2d, 1d12h
    reminder_hours: 12           # 0 = no reminder
    early_adjudication: true     # adjudicate as soon as every active player sent orders
    early_delay: 1h              # ... this long after the last orders came in (default: the ruleset's)
    anonymous: false             # true: players are shown by side (Pilot N, France), never by name
    press: white                 # none | white | grey | broadcast (default: the ruleset's)
    deadlines: {grace: 24h, days: [mon, tue, wed, thu, fri]}   # J8-J11 (store.deadlines)
    draws: {allow: [all, named], secret: true}   # J13: which draws; votes secret or open
    takeover: anyone             # J7: anyone | standby (only the standby list takes over)
    scenario: {board_side: 10, zeppelin: controlled, zeppelin_length: 2}
    players:
      baron:
        name: Red Baron
        addresses: [baron@example.org]
        password_hash: scrypt$16384$8$1$...   # made by `pbmref new-game`; never a plain password
        computer: false
        status: active           # active | resigned | removed | kicked
        timezone: Europe/Paris   # J12: the player's own (default: the game's)
    observers: [press@example.org]
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pbmref.base.addresses import mailbox
from pbmref.base.times import format_duration, parse_datetime, parse_duration, parse_early_delay
from pbmref.rulesets import PRESS_LEVELS
from pbmref.store.deadlines import DeadlineRules, deadline_rules
from pbmref.store.errors import DataError, InvalidId, KeyPath
from pbmref.store.passwords import is_new_password

__all__ = [
    "DRAW_KINDS",
    "GAME_STATUSES",
    "OPEN_STATUSES",
    "PLAYER_STATUSES",
    "TAKEOVERS",
    "DrawRules",
    "GameSettings",
    "Player",
    "check_id",
    "draw_rules",
    "hash_password",
    "mail_address",
    "parse_early_delay",
    "player_to_dict",
    "settings_from_dict",
    "settings_to_dict",
    "text_value",
    "verify_password",
]

ID_RE = re.compile(r"[a-z0-9][a-z0-9_-]{0,31}")
ADDRESS_RE = re.compile(r"[^@\s<>,;]+@[^@\s<>,;]+\.[^@\s<>,;]+")
GAME_STATUSES = ("open", "paused", "finished")
PLAYER_STATUSES = ("active", "resigned", "removed", "kicked")
# A player of these gave the place up: another may take it over (J7).
OPEN_STATUSES = ("resigned", "removed")
DRAW_KINDS = ("all", "named")  # J13: the draw of all survivors, a draw among named powers
TAKEOVERS = ("anyone", "standby")  # J7: who may take an open place over


def check_id(value: object, what: str = "game id") -> str:
    """``value`` if it is a valid id (``[a-z0-9][a-z0-9_-]{0,31}``), else InvalidId.

    Ids become folder and file names, so nothing else is let through: no
    slashes, dots, ``..``, spaces or capitals.
    """
    if not isinstance(value, str) or not ID_RE.fullmatch(value):
        raise InvalidId(
            f"{value!r} is not a valid {what}: use 1-32 lower-case letters, digits, "
            "'-' or '_', starting with a letter or digit"
        )
    return value


# ---------------------------------------------------------------- passwords

# scrypt's cost: N (memory and time), r, p. A password of ``new_password()``
# (five words of the list, PASSWORD_BITS = 63.2 bits) is strong by itself: an
# offline attacker needs about 2**62 guesses, and at N = 2**10 (3 ms, 1 MiB a
# guess here) that is some 10**8 years of one core, or 10**6 of a large GPU.
# Any other password (older games', a game master's own) may be guessable and
# gets the full stretching, N = 2**14 (50 ms, 16 MiB). The stored hash names
# its own cost, so hashes made with either are checked alike.
_SCRYPT_N, _SCRYPT_R, _SCRYPT_P = 2**14, 8, 1
_SCRYPT_N_STRONG = 2**10


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii").rstrip("=")


def _unb64(text: str) -> bytes:
    return base64.b64decode(text + "=" * (-len(text) % 4))


def hash_password(password: str, *, salt: bytes | None = None) -> str:
    """A salted scrypt hash: ``scrypt$N$r$p$salt$hash`` (never the password itself);
    N by the password's strength (see ``_SCRYPT_N``).

    >>> from pbmref.store.passwords import new_password
    >>> hash_password(new_password()).split("$")[1]
    '1024'
    >>> hash_password("swordfish").split("$")[1]
    '16384'
    """
    salt = salt or secrets.token_bytes(16)
    n = _SCRYPT_N_STRONG if is_new_password(password) else _SCRYPT_N
    digest = hashlib.scrypt(password.encode("utf-8"), salt=salt, n=n, r=_SCRYPT_R,
                            p=_SCRYPT_P, dklen=32)
    return f"scrypt${n}${_SCRYPT_R}${_SCRYPT_P}${_b64(salt)}${_b64(digest)}"


def verify_password(password: str, stored: str) -> bool:
    """Does ``password`` match the stored hash (scrypt or pbkdf2_sha256)?

    A match is remembered for the life of the process (like a mail server's
    auth cache): scrypt costs tens of milliseconds on purpose, and a busy
    referee checks the same player's password on every mail. What is kept is
    a keyed hash of the password and its stored hash (``_verified_key``),
    never the password: the key is this process's own, so the cache is of no
    use outside it. Only matches are kept, so a guess still pays the full
    price every time.
    """
    key = _verified_key(password, stored)
    if key in _VERIFIED:
        return True
    if _verify(password, stored):
        if len(_VERIFIED) > 4096:
            _VERIFIED.clear()
        _VERIFIED.add(key)
        return True
    return False


_VERIFIED: set[bytes] = set()
_VERIFIED_KEY = secrets.token_bytes(32)  # made anew by every process, never stored


def _verified_key(password: str, stored: str) -> bytes:
    """The cache's key for a checked password: a BLAKE2 hash keyed with this
    process's secret, of the stored hash and the password."""
    data = stored.encode("utf-8") + b"\0" + password.encode("utf-8", "surrogatepass")
    return hashlib.blake2b(data, key=_VERIFIED_KEY, digest_size=32).digest()


def _verify(password: str, stored: str) -> bool:
    try:
        parts = stored.split("$")
        if parts[0] == "scrypt" and len(parts) == 6:
            n, r, p = int(parts[1]), int(parts[2]), int(parts[3])
            salt, want = _unb64(parts[4]), _unb64(parts[5])
            got = hashlib.scrypt(password.encode("utf-8"), salt=salt, n=n, r=r, p=p,
                                 dklen=len(want), maxmem=2**27)
        elif parts[0] == "pbkdf2_sha256" and len(parts) == 4:
            iterations, salt, want = int(parts[1]), _unb64(parts[2]), _unb64(parts[3])
            got = hashlib.pbkdf2_hmac("sha256", password.encode("utf-8"), salt, iterations,
                                      len(want))
        else:
            return False
    except (ValueError, TypeError):
        return False
    return hmac.compare_digest(got, want)


def _hash_ok(stored: str) -> bool:
    parts = stored.split("$")
    return (parts[0] == "scrypt" and len(parts) == 6) or (
        parts[0] == "pbkdf2_sha256" and len(parts) == 4)


# ---------------------------------------------------------------- the settings


@dataclass(frozen=True)
class Player:
    id: str
    name: str
    addresses: tuple[str, ...]
    password_hash: str | None = None
    computer: bool = False
    status: str = "active"  # active | resigned | removed | kicked
    timezone: str | None = None  # J12: the player's own time zone (None: the game's)

    @property
    def active(self) -> bool:
        return self.status == "active"

    @property
    def open_place(self) -> bool:
        """The player gave the place up (resigned, or removed by the game master):
        another may take it over (J7)."""
        return self.status in OPEN_STATUSES


@dataclass(frozen=True)
class DrawRules:
    """Which draws a game allows and whether the votes are secret (J13)."""

    allow: tuple[str, ...] = ("all",)  # of DRAW_KINDS
    secret: bool = True

    def to_dict(self) -> dict[str, object]:
        return {"allow": list(self.allow), "secret": self.secret}


@dataclass(frozen=True)
class GameSettings:
    id: str
    ruleset: str
    title: str = ""
    status: str = "open"  # open | paused | finished
    seed: int = 0
    timezone: str = "UTC"
    deadline: datetime | None = None  # of the open turn, aware
    turn_length: timedelta = timedelta(hours=48)
    reminder_hours: float = 0
    early_adjudication: bool = False
    early_delay: timedelta | None = None  # after all orders are in; None: the ruleset's default
    anonymous: bool = False
    press: str | None = None  # none | white | grey | broadcast; None: the ruleset's default
    players: dict[str, Player] = field(default_factory=dict)
    observers: tuple[str, ...] = ()
    scenario: dict[str, object] = field(default_factory=dict)
    deadlines: DeadlineRules = field(default_factory=DeadlineRules)
    draws: DrawRules = field(default_factory=DrawRules)
    takeover: str = "anyone"

    @property
    def zone(self) -> ZoneInfo:
        return ZoneInfo(self.timezone)

    def zone_of(self, player: str | None) -> str:
        """The time zone a player reads deadlines in (J12): theirs, else the game's."""
        p = self.players.get(player or "")
        return (p.timezone if p is not None and p.timezone else None) or self.timezone

    def zone_of_address(self, address: str) -> str:
        """The time zone of whoever reads at ``address`` (an observer: the game's)."""
        p = self.player_by_address(address)
        return self.zone_of(p.id if p is not None else None)

    def active_players(self) -> list[Player]:
        return [p for p in self.players.values() if p.active]

    def humans(self) -> list[Player]:
        """Active players who mail their orders (not played by the computer)."""
        return [p for p in self.players.values() if p.active and not p.computer]

    def player_by_address(self, address: str) -> Player | None:
        """The player who registered ``address`` (any case; ``Name <a@b>`` is fine)."""
        m = re.search(r"<([^>]+)>", address)
        addr = (m.group(1) if m else address).strip().lower()
        for player in self.players.values():
            if any(a.lower() == addr for a in player.addresses):
                return player
        return None

    def is_observer(self, address: str) -> bool:
        addr = address.strip().lower()
        return any(o.lower() == addr for o in self.observers)

    def check_password(self, player: str, password: str | None) -> bool:
        """True when the password matches, or the player has none set."""
        p = self.players.get(player)
        if p is None:
            return False
        if not p.password_hash:
            return True
        return password is not None and verify_password(password, p.password_hash)


_GAME_KEYS = {
    "id", "title", "ruleset", "status", "seed", "timezone", "deadline", "turn_length",
    "reminder_hours", "early_adjudication", "early_delay", "anonymous",
    "players", "observers", "scenario",
    "press", "deadlines", "draws", "takeover",
}
_PLAYER_KEYS = {"name", "addresses", "password_hash", "computer", "status", "timezone"}


def _known(data: Mapping[str, object], allowed: set[str], path: KeyPath) -> None:
    for key in data:
        if key not in allowed:
            known = ", ".join(sorted(allowed))
            raise DataError((*path, key), f"unknown key {key!r}; known keys: {known}")


def _bool(data: Mapping[str, object], key: str, default: bool, path: KeyPath) -> bool:
    value = data.get(key, default)
    if not isinstance(value, bool):
        raise DataError((*path, key), f"{key} must be true or false, found {value!r}")
    return value


def text_value(data: Mapping[str, object], key: str, default: str, path: KeyPath) -> str:
    value = data.get(key, default)
    if value is None:
        return default
    if not isinstance(value, (str, int)) or isinstance(value, bool):
        raise DataError((*path, key), f"{key} must be text, found {value!r}")
    return str(value)


def mail_address(value: object, path: KeyPath) -> str:
    """A registered address, in the form mail is sent to (``"anna"@x`` is ``anna@x``)."""
    address = mailbox(value.strip()) if isinstance(value, str) else ""
    if not ADDRESS_RE.fullmatch(address):
        raise DataError(path, f"{value!r} is not a mail address like name@example.org")
    return address


def _addresses(value: object, path: KeyPath) -> tuple[str, ...]:
    if value is None:
        return ()
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list):
        raise DataError(path, "expected a list of mail addresses")
    return tuple(mail_address(v, (*path, i)) for i, v in enumerate(value))


def settings_from_dict(data: Mapping[str, object], game_id: str) -> GameSettings:
    """Check ``game.yaml`` data; raises DataError with the key path of a bad value."""
    if not isinstance(data, Mapping):
        raise DataError((), "expected the game's settings as a mapping of keys to values")
    _known(data, _GAME_KEYS, ())
    if "id" in data and data["id"] != game_id:
        raise DataError(("id",), f"id {data['id']!r} differs from the game's folder {game_id!r}")
    if "ruleset" not in data:
        raise DataError((), "ruleset is missing (tweedekker, fastplay, diplomacy or dirigible)")
    ruleset = text_value(data, "ruleset", "", ())
    status = text_value(data, "status", "open", ())
    if status not in GAME_STATUSES:
        raise DataError(("status",), f"status {status!r} is not one of: {', '.join(GAME_STATUSES)}")
    seed = data.get("seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise DataError(("seed",), f"seed must be a whole number, found {seed!r}")
    timezone, deadline, turn_length, reminder = _schedule(data)
    players = _players(data)
    scenario = data.get("scenario") or {}
    if not isinstance(scenario, Mapping):
        raise DataError(("scenario",), "expected a mapping of scenario settings")
    early_delay = None
    if data.get("early_delay") is not None:
        try:
            early_delay = parse_early_delay(data["early_delay"])
        except ValueError as exc:
            raise DataError(("early_delay",), str(exc)) from None
    press = data.get("press")
    if press is not None and press not in PRESS_LEVELS:
        raise DataError(("press",), f"press {press!r} is not one of: "
                                    f"{', '.join(PRESS_LEVELS)}")
    takeover = text_value(data, "takeover", "anyone", ())
    if takeover not in TAKEOVERS:
        raise DataError(("takeover",), f"takeover {takeover!r} is not one of: "
                                       f"{', '.join(TAKEOVERS)}")
    return GameSettings(
        id=game_id, ruleset=ruleset, title=text_value(data, "title", game_id, ()), status=status,
        seed=seed, timezone=timezone, deadline=deadline, turn_length=turn_length,
        reminder_hours=reminder, early_adjudication=_bool(data, "early_adjudication", False, ()),
        early_delay=early_delay,
        anonymous=_bool(data, "anonymous", False, ()), press=press, players=players,
        observers=_addresses(data.get("observers"), ("observers",)), scenario=dict(scenario),
        deadlines=deadline_rules(data.get("deadlines")), draws=draw_rules(data.get("draws")),
        takeover=takeover,
    )


def draw_rules(value: Any) -> DrawRules:
    """The ``draws:`` mapping (J13): ``allow`` (all, named) and ``secret``."""
    if value is None:
        return DrawRules()
    if not isinstance(value, Mapping):
        raise DataError(("draws",), "expected draws: {allow: [all, named], secret: true}")
    _known(value, {"allow", "secret"}, ("draws",))
    allow = value.get("allow", ["all"])
    allow = [allow] if isinstance(allow, str) else allow
    if not isinstance(allow, list) or any(a not in DRAW_KINDS for a in allow):
        raise DataError(("draws", "allow"), f"allow lists the draws a game allows: "
                                            f"{', '.join(DRAW_KINDS)} (or none: [])")
    return DrawRules(tuple(a for a in DRAW_KINDS if a in allow),
                     _bool(value, "secret", True, ("draws",)))


def _schedule(data: Mapping[str, object]) -> tuple[str, datetime | None, timedelta, float]:
    """The game's clock: its time zone, the open turn's deadline, the turn
    length and the hours before the deadline a reminder goes out."""
    timezone = text_value(data, "timezone", "UTC", ())
    try:
        zone = ZoneInfo(timezone)
    except (ZoneInfoNotFoundError, ValueError):
        raise DataError(("timezone",),
                        f"{timezone!r} is not a time zone name like Europe/Berlin or UTC") from None
    deadline = None
    if data.get("deadline") is not None:
        try:
            deadline = parse_datetime(data["deadline"], zone)
        except ValueError as exc:
            raise DataError(("deadline",), str(exc)) from None
    try:
        turn_length = parse_duration(data.get("turn_length", "48h"))
    except ValueError as exc:
        raise DataError(("turn_length",), str(exc)) from None
    reminder = data.get("reminder_hours", 0)
    if isinstance(reminder, bool) or not isinstance(reminder, (int, float)) or reminder < 0:
        raise DataError(("reminder_hours",),
                        f"reminder_hours must be a number of hours (0 = none), found {reminder!r}")
    return timezone, deadline, turn_length, reminder


def _players(data: Mapping[str, object]) -> dict[str, Player]:
    """The ``players`` key: each player's id and details."""
    raw_players = data.get("players")
    if not isinstance(raw_players, Mapping) or not raw_players:
        raise DataError(("players",), "a game needs players: a mapping of player id to details")
    return {pid: _player(pid, p) for pid, p in raw_players.items()}


def _player(pid: Any, p: Any) -> Player:
    """One player: a valid id, mail addresses (or a computer player), a real
    password hash if any, and a status."""
    path: KeyPath = ("players", str(pid))
    try:
        check_id(pid, "player id")
    except InvalidId as exc:
        raise DataError(path, str(exc)) from None
    if not isinstance(p, Mapping):
        raise DataError(path, "expected the player's details: name, addresses, ...")
    _known(p, _PLAYER_KEYS, path)
    addresses = _addresses(p.get("addresses"), (*path, "addresses"))
    computer = _bool(p, "computer", False, path)
    if not addresses and not computer:
        raise DataError((*path, "addresses"),
                        "a player needs at least one registered mail address "
                        "(or computer: true)")
    # Conformance (orders.md, PILOT: one address may fly several pilots): one
    # address may be registered for several
    # players; a mail from it names its pilot with PILOT (identify_player).
    pw = p.get("password_hash")
    if pw is not None and (not isinstance(pw, str) or not _hash_ok(pw)):
        raise DataError((*path, "password_hash"),
                        "password_hash must be a hash made by pbmref "
                        "(scrypt$... or pbkdf2_sha256$...), never a plain password")
    pstatus = text_value(p, "status", "active", path)
    if pstatus not in PLAYER_STATUSES:
        raise DataError((*path, "status"),
                        f"status {pstatus!r} is not one of: {', '.join(PLAYER_STATUSES)}")
    zone = p.get("timezone")
    if zone is not None:
        zone = _zone_name(zone, (*path, "timezone"))
    return Player(
        id=pid, name=text_value(p, "name", pid, path), addresses=addresses, password_hash=pw,
        computer=computer, status=pstatus, timezone=zone,
    )


def _zone_name(value: object, path: KeyPath) -> str:
    """An IANA time zone name that this machine knows."""
    try:
        ZoneInfo(str(value))
    except (ZoneInfoNotFoundError, ValueError):
        raise DataError(path, f"{value!r} is not a time zone name like Europe/Berlin "
                              "or UTC") from None
    return str(value)


def settings_to_dict(s: GameSettings) -> dict[str, object]:
    """The settings as ``game.yaml`` data (the keys ``settings_from_dict`` reads)."""
    out: dict[str, object] = {
        "title": s.title,
        "ruleset": s.ruleset,
        "status": s.status,
        "seed": s.seed,
        "timezone": s.timezone,
        "deadline": s.deadline.isoformat() if s.deadline else None,
        "turn_length": format_duration(s.turn_length),
        "reminder_hours": s.reminder_hours,
        "early_adjudication": s.early_adjudication,
        "anonymous": s.anonymous,
    }
    if s.early_delay is not None:
        out["early_delay"] = format_duration(s.early_delay)
    if s.press is not None:
        out["press"] = s.press
    deadlines = s.deadlines.to_dict()
    if deadlines:
        out["deadlines"] = deadlines
    if s.draws != DrawRules():
        out["draws"] = s.draws.to_dict()
    if s.takeover != "anyone":
        out["takeover"] = s.takeover
    if s.scenario:
        out["scenario"] = dict(s.scenario)
    out["players"] = {p.id: player_to_dict(p) for p in s.players.values()}
    out["observers"] = list(s.observers)
    return out


def player_to_dict(p: Player) -> dict[str, object]:
    """One player as ``game.yaml``'s ``players`` keeps them."""
    return {
        "name": p.name,
        "addresses": list(p.addresses),
        **({"password_hash": p.password_hash} if p.password_hash else {}),
        "computer": p.computer,
        "status": p.status,
        **({"timezone": p.timezone} if p.timezone else {}),
    }
