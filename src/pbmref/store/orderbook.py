"""The order book of a game: every order mail of every turn, as stored.

One file per mail (``turns/NNN/orders/PLAYER.yaml``, ``PLAYER.v2.yaml`` ...),
never rewritten: an accepted mail (``kind: orders``), a refused one
(``rejected``, kept for the history) or a CLEAR (``withdrawal``). The orders
in force for a player are those of the latest mail unless it withdrew them.

Reading checks every file (its keys, the player, the turn) and, for the
orders in force, decodes the entry against the turn's position with the
game's ruleset (``Ruleset.decode_orders``: the typed orders the turn is
played with, decoded once); a bad file raises ``GameFileError`` with the file
and line. What a
``Game`` object read is kept for the life of that object (one mail, one
command), so one mail reads each file once; the orders in force of a game's
open turn are kept for the process, for as long as the turn's files, the
settings and the position stay as they were (a referee opens a game afresh
for every mail and every deadline). Who has orders in force, and whether they
count, is kept for the schedule player by player (``counted``): storing one
player's mail reads that player's file alone, each other player's checked by
its stamp.
"""

from __future__ import annotations

import os
import re
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from pbmref.base.errors import GameFileError, KeyPath
from pbmref.base.files import write_new
from pbmref.base.times import iso, parse_datetime
from pbmref.base.yamlfile import YamlDoc, dump_yaml, plain_copy, remember_written, stored_value
from pbmref.orders.errors import OrderMailError
from pbmref.store.errors import TurnError
from pbmref.store.layout import ORDERS, file_stamp, no_links, turn_dir

if TYPE_CHECKING:
    from pbmref.store.game import Game, TurnView
    from pbmref.store.schedule import Schedule
    from pbmref.store.settings import GameSettings

__all__ = ["ORDER_KINDS", "Counted", "OrderBook", "OrdersFile", "entry_path"]

_ORDERS_NAME = re.compile(r"(?P<player>[^.]+)(?:\.v(?P<version>\d+))?\.yaml")
# The orders file names of a folder listing joined by line breaks (``_list``).
_LISTED = re.compile(r"^([^.\n]+)(?:\.v([0-9]+))?\.yaml$", re.MULTILINE)
_PLAIN = re.compile(r"[^.\n]+(?:\.v[0-9]+)?\.yaml")  # one name as _LISTED reads it
_ORDERS_KEYS = {
    "player", "turn", "version", "kind", "entry", "raw", "message_id", "received_at", "error",
    "note",
}
ORDER_KINDS = ("orders", "withdrawal", "rejected")


@dataclass(frozen=True)
class _Kept:
    """The orders in force of an open turn as a process last worked them out
    (``OrderBook.in_force``): for the settings and the position it used (the
    very objects the store's cache hands out while ``game.yaml`` and
    ``position.yaml`` are unchanged), the folder's listing, and the stamp of
    every orders file read (each as it was before it was read)."""

    settings: GameSettings
    view: TurnView
    check: bool
    listing: list[str]
    stamps: tuple[tuple[str, tuple[int, int, int]], ...]
    found: dict[str, OrdersFile]


_KEPT: OrderedDict[str, _Kept] = OrderedDict()  # by the turn's orders folder
KEPT_TURNS = 1024  # open turns kept, the least recently asked dropped first
_LISTS: OrderedDict[str, _Listed] = OrderedDict()  # by the turn's orders folder, as many


@dataclass(frozen=True)
class Counted:
    """A player's orders in force as the schedule counts them: whether they
    spare the player a missed turn (the ruleset's ``counts_as_orders``) and
    when they came."""

    counts: bool
    received_at: datetime | None


@dataclass(frozen=True)
class _Tallied:
    """One player's orders in force for an open turn as a process last counted
    them (``OrderBook.counted``): from the player's orders files ``names``,
    having read the files of ``stamps`` (newest first, each stamped before it
    was read); ``counted`` None when no orders are in force."""

    names: tuple[str, ...]
    stamps: tuple[tuple[str, tuple[int, int, int]], ...]
    counted: Counted | None


# by the turn's orders folder: the settings and the position counted with (the
# very objects the store's cache hands out while their files are unchanged), and
# each player's tally
_TALLIES: OrderedDict[str, tuple[GameSettings, TurnView, dict[str, _Tallied]]] = OrderedDict()


@dataclass(frozen=True)
class OrdersFile:
    """One order mail of one player for one turn, as stored."""

    player: str
    version: int
    path: Path
    kind: str  # orders | withdrawal | rejected
    entry: dict[str, object] | None
    raw: str
    message_id: str
    received_at: datetime | None
    error: str = ""
    # The entry's typed orders (the ruleset's ``O``), decoded against the turn's
    # position when the file was checked against it; None before, and for a
    # file that holds no orders.
    orders: object = None

    def with_own_entry(self) -> OrdersFile:
        """The same, with a copy of the entry (for a reader who may change it;
        ``dataclasses.replace`` cost a sixth of reading the orders in force)."""
        return OrdersFile(self.player, self.version, self.path, self.kind,
                          plain_copy(self.entry), self.raw, self.message_id, self.received_at,
                          self.error, self.orders)


def _listing(odir: Path | str) -> list[str]:
    """The names in a turn's orders folder (none while it does not exist)."""
    try:
        return os.listdir(odir)
    except (FileNotFoundError, NotADirectoryError):
        return []


def _player_version(odir: Path, name: str) -> tuple[str, int]:
    """``anna.v3.yaml`` -> ``("anna", 3)``; ``anna.yaml`` -> ``("anna", 1)``
    (``_ORDERS_NAME`` without the regular expression: a turn may hold hundreds)."""
    player, dot, rest = name[:-5].partition(".")
    if player and not dot:
        return player, 1
    if player and rest[:1] == "v" and rest[1:].isdigit() and rest[1:].isascii():
        return player, int(rest[1:])
    raise GameFileError(odir / name, "not an orders file name: expected "
                                     "PLAYER.yaml or PLAYER.vN.yaml")


@dataclass(frozen=True)
class _Listed:
    """A turn's orders folder as a process last listed it (``OrderBook._list``):
    the names in it, each player's orders file names oldest first, and each
    player's highest version (files set aside by a re-run included)."""

    names: frozenset[str]
    by_player: dict[str, tuple[str, ...]]
    tops: dict[str, int]

    def with_added(self, added: frozenset[str], names: frozenset[str]) -> _Listed:
        """The same folder after orders files ``added`` (plain ``PLAYER.yaml`` /
        ``PLAYER.vN.yaml`` names, as ``_LISTED`` matched them) came in."""
        by_player = dict(self.by_player)
        tops = dict(self.tops)
        new: dict[str, list[str]] = {}
        for name in added:
            new.setdefault(name.split(".", 1)[0], []).append(name)
        for player, mine in new.items():
            versioned = sorted((_version(name), name)
                               for name in (*by_player.get(player, ()), *mine))
            by_player[player] = tuple(name for _, name in versioned)
            tops[player] = max(versioned[-1][0], tops.get(player, 0))
        return _Listed(names, dict(sorted(by_player.items())), tops)


def _version(name: str) -> int:
    """``anna.v3.yaml`` -> 3, ``anna.yaml`` -> 1 (a name ``_LISTED`` matched)."""
    rest = name[:-5].partition(".")[2]
    return int(rest[1:]) if rest else 1


def _list_anew(odir: Path, listing: list[str], names: frozenset[str]) -> _Listed:
    """A turn's orders folder worked out from its whole ``listing``."""
    plain = [name for name in listing
             if name[0] != "." and name.endswith(".yaml") and ".replaced-" not in name]
    # every name read at one pass (a turn may hold hundreds); one of another
    # shape, or with a line break, is named by the error _player_version raises
    text = "\n".join(plain)
    found = _LISTED.findall(text)
    if len(found) != len(plain) or text.count("\n") != len(plain) - 1:
        found = [(player, str(version)) for player, version in
                 (_player_version(odir, name) for name in plain)]
    by_player: dict[str, list[tuple[int, str]]] = {}
    for name, (player, version) in zip(plain, found, strict=True):
        item = (int(version) if version else 1, name)
        mine = by_player.get(player)
        if mine is None:
            by_player[player] = [item]
        else:
            mine.append(item)
    out: dict[str, tuple[str, ...]] = {}
    tops: dict[str, int] = {}
    for player in sorted(by_player):
        mine = sorted(by_player[player])
        out[player] = tuple(name for _, name in mine)
        tops[player] = mine[-1][0]
    _count_set_aside(listing, tops)
    return _Listed(names, out, tops)


def _count_set_aside(listing: list[str], tops: dict[str, int]) -> None:
    """The highest version of each player counts the files set aside by a re-run."""
    for name in listing:
        if ".replaced-" in name:
            m = _ORDERS_NAME.fullmatch(name.split(".replaced-")[0])
            if m:
                version = int(m.group("version") or 1)
                tops[m.group("player")] = max(version, tops.get(m.group("player"), 0))


def entry_path(entry: Mapping[str, object], exc: OrderMailError) -> KeyPath:
    """Where in an orders entry an order error points (by the line text it quotes)."""
    text = exc.line
    if isinstance(text, str) and text.strip():
        for key, value in entry.items():
            if isinstance(value, list):
                for i, item in enumerate(value):
                    if isinstance(item, str) and item.strip() == text.strip():
                        return (str(key), i)
            elif isinstance(value, str) and value.strip() == text.strip():
                return (str(key),)
    for key in entry:
        if f"'{key}'" in exc.message:
            return (str(key),)
    return ()


class OrderBook:
    """The order mails of one game (``game.book``)."""

    def __init__(self, game: Game) -> None:
        self.game = game
        # by the file's path as text: read, not yet checked
        self._read: dict[str, tuple[OrdersFile, YamlDoc]] = {}
        self._stamps: dict[str, tuple[int, int, int]] = {}  # of each, before it was read
        # checked against a turn's position (the view of a re-run is another one),
        # the player counted as active or not
        self._checked: dict[tuple[str, TurnView, bool], OrdersFile] = {}
        # the settings last read with, and their players (part of a read's cache key)
        self._players: tuple[GameSettings | None, frozenset[str]] = (None, frozenset())
        self._names: dict[int, dict[str, list[str]]] = {}  # a turn's file names, listed
        self._listed_in: dict[int, int | None] = {}  # the lock's hold each was listed in
        self._folders: dict[int, Path] = {}
        self._tops: dict[int, dict[str, int]] = {}  # with _names: each player's last version
        # the orders file this book stored last, with the schedule written with it
        self._stored_last: tuple[Path, Schedule] | None = None

    def forget(self) -> None:
        self._read.clear()
        self._stamps.clear()
        self._checked.clear()
        self._names.clear()
        self._tops.clear()

    def relist(self) -> None:
        """List the order folders again when next asked (another process may
        have stored mails since)."""
        self._names.clear()
        self._tops.clear()

    def folder(self, turn: int | None = None) -> Path:
        turn = self.game.turn if turn is None else turn
        known = self._folders.get(turn)
        if known is None:
            known = self._folders[turn] = turn_dir(self.game.dir, turn) / ORDERS
        return known

    # ------------------------------------------------------------ reading

    def names(self, turn: int | None = None) -> dict[str, list[str]]:
        """The file names of a turn's order mails, per player, oldest first (the
        folder listed once for the life of the object, like the files read;
        nothing is read). A name that is not an orders file name raises
        ``GameFileError``."""
        turn = self.game.turn if turn is None else turn
        known = self._names.get(turn)
        if known is None:
            known = self._names[turn] = self._list(turn)
            self._listed_in[turn] = self.game.holding
        return known

    def _list(self, turn: int, listing: list[str] | None = None) -> dict[str, list[str]]:
        """The folder's orders files per player (``names``), from ``listing`` if
        the caller just listed it. Worked out from what this process found in
        the folder last time when the listing only gained orders files since
        (each mail adds one: a turn of hundreds costs by the new names, not by
        all of them); the highest version of each player goes to ``_tops``."""
        odir = self.folder(turn)
        if listing is None:
            listing = _listing(odir)
        key = os.fspath(odir)
        now = frozenset(listing)
        known = _LISTS.get(key)
        if known is None or known.names != now:
            if (known is not None and known.names <= now
                    and all(_PLAIN.fullmatch(name) for name in now - known.names)):
                known = known.with_added(now - known.names, now)
            else:
                known = _list_anew(odir, listing, now)
            _LISTS[key] = known
            if len(_LISTS) > KEPT_TURNS:
                _LISTS.popitem(last=False)
        _LISTS.move_to_end(key)
        self._tops[turn] = dict(known.tops)
        return {player: list(names) for player, names in known.by_player.items()}

    def files(self, turn: int | None = None, *, check: bool = True
              ) -> dict[str, list[OrdersFile]]:
        """Every stored order mail of a turn, per player, oldest first.

        With ``check`` every accepted entry is checked against the turn's
        position (as ``pbmref check`` does); without it the files are only read.
        Finding the orders in force needs neither: see ``in_force``.
        """
        turn = self.game.turn if turn is None else turn
        odir = self.folder(turn)
        view = self.game.view(turn) if check else None
        return {player: [self.read(odir / name, turn, view) for name in names]
                for player, names in self.names(turn).items()}

    def _latest(self, turn: int, names: Sequence[str],
                read: list[str] | None = None) -> OrdersFile | None:
        """A player's order mail in force for ``turn`` among their files ``names``
        (oldest first): the newest that is not a refused one, unless it withdrew
        the orders. Read from the newest back, so a mail costs the same however
        many the turn has; the paths read are added to ``read``."""
        odir = os.fspath(self.folder(turn)) + os.sep  # names joined as text: no pathlib
        for name in reversed(names):
            f = self.read(odir + name, turn)
            if read is not None:
                read.append(odir + name)
            if f.kind == "rejected":
                continue
            return f if f.kind == "orders" else None
        return None

    def read(self, path: Path | str, turn: int, view: TurnView | None = None, *,
             settings: GameSettings | None = None) -> OrdersFile:
        """Read one orders file; with a turn ``view`` its entry is checked against
        that turn's position, if its player is active in ``settings`` (the game's
        as they were in that turn; default: as they are now)."""
        name = os.fspath(path)
        known = self._read.get(name)
        if known is None:
            known = self._read[name] = self._read_file(name, turn)
        if view is None:
            return known[0]
        player = (settings or self.game.settings).players.get(known[0].player)
        key = (name, view, player is not None and player.active)
        checked = self._checked.get(key)
        if checked is None:
            checked = self._checked[key] = self._check(*known, view, key[2])
        return checked

    def _check(self, f: OrdersFile, doc: YamlDoc, view: TurnView, active: bool) -> OrdersFile:
        """``f`` checked against a turn's position: its entry is one the player could
        have mailed, decoded into the typed orders it is played with. A kicked or
        removed player's mails are kept but never used: they are not checked
        against a position that no longer has their side."""
        if f.kind == "orders" and f.entry is not None and active:
            try:
                typed = self.game.ruleset.decode_orders(view.state, f.player, f.entry)
            except OrderMailError as exc:
                raise doc.error(("entry", *entry_path(f.entry, exc)), exc.message,
                                "" if exc.rule == "SYNTAX" else exc.rule) from None
            return OrdersFile(f.player, f.version, f.path, f.kind, f.entry, f.raw,
                              f.message_id, f.received_at, f.error, typed)
        return f

    def _read_file(self, path: str, turn: int) -> tuple[OrdersFile, YamlDoc]:
        """One orders file read and checked (not against the position): once per
        version of the file in the process, for this turn, these players and
        this time zone; the entry handed out is the caller's own copy."""
        f, doc = self._stored(path, turn)
        return f.with_own_entry(), doc

    def _stored(self, path: str, turn: int) -> tuple[OrdersFile, YamlDoc]:
        """``_read_file`` with the entry the process keeps: not to be handed out."""
        settings = self.game.settings
        if self._players[0] is not settings:
            self._players = (settings, frozenset(settings.players))
        key = ("orders", turn, self._players[1], settings.zone)
        stamp = self._stamps[path] = file_stamp(path)  # before the reading
        return stored_value(path, key, lambda doc: self._checked_file(doc, turn), stamp=stamp)

    def _mail_of(self, path: str, turn: int) -> tuple[str, str]:
        """The Message-ID and text of a stored mail (is a mail stored already?),
        read without a copy of its entry."""
        known = self._read.get(path)
        f = known[0] if known is not None else self._stored(path, turn)[0]
        return f.message_id, f.raw

    def _checked_file(self, doc: YamlDoc, turn: int) -> tuple[OrdersFile, YamlDoc]:
        path = doc.path
        m = _ORDERS_NAME.fullmatch(path.name)
        assert m is not None
        data = doc.mapping("an orders record")
        for key in data:
            if key not in _ORDERS_KEYS:
                raise doc.error((key,), f"unknown key {key!r}; known keys: "
                                        f"{', '.join(sorted(_ORDERS_KEYS))}")
        player = self._player_of(doc, data, m.group("player"))
        if "turn" in data and data["turn"] != turn:
            raise doc.error(("turn",), f"turn {data['turn']!r} differs from the folder's "
                                       f"turn {turn}")
        kind = str(data.get("kind", "orders"))
        if kind not in ORDER_KINDS:
            raise doc.error(("kind",), f"kind {kind!r} is not one of: {', '.join(ORDER_KINDS)}")
        entry = data.get("entry")
        if kind == "orders" and not isinstance(entry, Mapping):
            raise doc.error(("entry",) if "entry" in data else (),
                            "orders need an entry: the player's orders as a mapping")
        received = data.get("received_at")
        if received is not None:
            received = self._received_at(doc, received)
        return OrdersFile(
            player=player, version=int(m.group("version") or 1), path=path, kind=kind,
            entry=dict(entry) if isinstance(entry, Mapping) else None,
            raw=str(data.get("raw") or ""), message_id=str(data.get("message_id") or ""),
            received_at=received, error=str(data.get("error") or ""),
        ), doc

    def _player_of(self, doc: YamlDoc, data: Mapping[str, object], named: str) -> str:
        """The record's player: the one its file is ``named`` after, a player of
        the game."""
        players = self.game.settings.players
        player = str(data.get("player", named))
        if player != named:
            raise doc.error(("player",), f"player {player!r} does not match the file name "
                                         f"{doc.path.name}")
        if player not in players:
            raise doc.error(("player",) if "player" in data else (),
                            f"{player!r} is not a player of this game "
                            f"(players: {', '.join(sorted(players))})")
        return player

    def _received_at(self, doc: YamlDoc, received: object) -> datetime:
        try:
            return parse_datetime(received, self.game.settings.zone)
        except ValueError as exc:
            raise doc.error(("received_at",), str(exc)) from None

    def in_force(self, turn: int | None = None, *, check: bool = True,
                 view: TurnView | None = None,
                 settings: GameSettings | None = None) -> dict[str, OrdersFile]:
        """Per active player, the order mail in force: the latest accepted one, unless
        withdrawn. Mails of kicked or removed players are kept but never in force.
        With ``check`` the entries in force are checked against the turn's position
        (or against ``view``, a re-run's position of that turn). ``settings``: the
        game's as they were in that turn (a re-run; default: as they are now)."""
        turn = self.game.turn if turn is None else turn
        if turn == self.game.turn and view is None and settings is None:
            return self._in_force_kept(turn, check)
        return self._in_force(turn, check, view, settings)

    def _in_force_kept(self, turn: int, check: bool) -> dict[str, OrdersFile]:
        """``in_force`` of the open turn, as this process last worked it out if
        nothing it depends on changed: the listing of the folder and the stamp of
        every file read are compared (a listing and a ``stat`` a file, as reading
        does), the settings and the position must be the same objects. Each
        caller gets its own copy of each entry. A book that read the turn
        already answers from what it read (for the life of its ``Game``, as
        before); one that had not works it out from this listing, and keeps it
        with the stamps its reading took."""
        game = self.game
        odir = os.fspath(self.folder(turn))
        inside = odir + os.sep
        if turn in self._names or any(path.startswith(inside) for path in self._read):
            # this book read the turn already: what it read holds for its life
            return self._in_force(turn, check, None, None)
        listing = _listing(odir)
        kept = _KEPT.get(odir)
        if (kept is not None and kept.settings is game.settings and kept.view is game.open
                and kept.check is check and kept.listing == listing
                and all(file_stamp(path) == was for path, was in kept.stamps)):
            _KEPT.move_to_end(odir)
            return {p: f.with_own_entry() for p, f in kept.found.items()}
        settings, view = game.settings, game.open
        self._names[turn] = self._list(turn, listing)
        self._listed_in[turn] = game.holding
        found = self._in_force(turn, check, None, None)
        _KEPT[odir] = _Kept(settings, view, check, listing,
                            tuple((path, was) for path, was in self._stamps.items()
                                  if path.startswith(inside)),
                            {p: f.with_own_entry() for p, f in found.items()})
        if len(_KEPT) > KEPT_TURNS:
            _KEPT.popitem(last=False)
        return found

    def _in_force(self, turn: int, check: bool, view: TurnView | None,
                  settings: GameSettings | None) -> dict[str, OrdersFile]:
        players = (settings or self.game.settings).players
        out: dict[str, OrdersFile] = {}
        for player, names in self.names(turn).items():
            known = players.get(player)
            if known is None:  # a stray player's file: read it for its error
                self.read(self.folder(turn) / names[-1], turn)
            if known is None or not known.active:
                continue
            f = self._latest(turn, names)
            if f is not None:
                out[player] = f
        if out and check:
            view = view or self.game.view(turn)
            out = {p: self.read(f.path, turn, view, settings=settings) for p, f in out.items()}
        return out

    def counted(self, counts: Callable[[str, Mapping[str, object]], bool]
                ) -> dict[str, Counted]:
        """Per active player with orders in force for the open turn, whether
        ``counts`` says their entry counts (the ruleset's ``counts_as_orders``
        on the open position) and when it came: what the schedule needs (issue
        41, item 5). Kept for the process from mail to mail player by player,
        with the settings and the position it was counted with: a player is
        counted again only when their orders files' names, or the stamp of a
        file read for them, changed (the game master's edit is read), so that
        storing one player's orders reads that player's file alone, however
        many players the game has."""
        game = self.game
        turn = game.turn
        inside = os.fspath(self.folder(turn)) + os.sep
        kept = _TALLIES.get(inside)
        if kept is None or kept[0] is not game.settings or kept[1] is not game.open:
            kept = _TALLIES[inside] = (game.settings, game.open, {})
            if len(_TALLIES) > KEPT_TURNS:
                _TALLIES.popitem(last=False)
        _TALLIES.move_to_end(inside)
        tallies = kept[2]
        players = game.settings.players
        out: dict[str, Counted] = {}
        for player, names in self.names(turn).items():
            known = players.get(player)
            if known is None:  # a stray player's file: read it for its error
                self.read(inside + names[-1], turn)
            if known is None or not known.active:
                continue
            tally = tallies.get(player)
            if (tally is None or tally.names != tuple(names)
                    or any(file_stamp(path) != was for path, was in tally.stamps)):
                tally = tallies[player] = self._tally(turn, player, names, counts)
            if tally.counted is not None:
                out[player] = tally.counted
        return out

    def _tally(self, turn: int, player: str, names: list[str],
               counts: Callable[[str, Mapping[str, object]], bool]) -> _Tallied:
        """One player's orders in force counted from their files ``names``."""
        read: list[str] = []
        f = self._latest(turn, names, read)
        stamps = tuple((path, self._stamps.get(path) or file_stamp(path)) for path in read)
        counted = None if f is None else Counted(counts(player, f.entry or {}), f.received_at)
        return _Tallied(tuple(names), stamps, counted)

    def in_force_lenient(self, turn: int, view: TurnView, warnings: list[str], *,
                         settings: GameSettings | None = None) -> dict[str, OrdersFile]:
        """The orders in force for a turn re-run on a changed position: a file that
        no longer fits it is left out, with a warning (``pbmref rerun``)."""
        try:
            return self.in_force(turn, view=view, settings=settings)
        except GameFileError:
            pass
        players = (settings or self.game.settings).players
        by_player: dict[str, list[OrdersFile]] = {}
        for files in self.files(turn, check=False).values():
            for f in files:
                try:
                    checked = self.read(f.path, turn, view, settings=settings)
                except GameFileError as exc:
                    warnings.append(f"left out (no longer fits the re-run position): {exc}")
                    continue
                by_player.setdefault(checked.player, []).append(checked)
        out: dict[str, OrdersFile] = {}
        for player, files in by_player.items():
            if not players[player].active:
                continue
            for f in reversed(files):
                if f.kind == "rejected":
                    continue
                if f.kind == "orders":
                    out[player] = f
                break
        return out

    def entries(self, turn: int | None = None) -> dict[str, dict[str, object]]:
        """Player id -> orders entry in force for the turn (default: the open turn)."""
        return {p: dict(f.entry or {}) for p, f in self.in_force(turn).items()}

    def in_force_of(self, player: str) -> OrdersFile | None:
        """The order mail in force of one player for the open turn (None: none),
        its entry decoded (``OrdersFile.orders``); only that player's mail is
        checked."""
        known = self.game.settings.players.get(player)
        names = self.names().get(player)
        if known is None or not known.active or not names:
            return None
        f = self._latest(self.game.turn, names)
        if f is None:
            return None
        return self.read(f.path, self.game.turn, self.game.open)

    def entry_of(self, player: str) -> dict[str, object] | None:
        """The orders entry in force of one player for the open turn (None: none)."""
        f = self.in_force_of(player)
        return None if f is None else dict(f.entry or {})

    # ------------------------------------------------------------ writing

    def _path(self, player: str, version: int) -> Path:
        name = f"{player}.yaml" if version == 1 else f"{player}.v{version}.yaml"
        return self.folder() / name

    def _write(self, player: str, record: dict[str, object], *,
               checked: OrdersFile | None = None) -> Path:
        game = self.game
        with game.lock():
            game.refresh_turn()
            if player not in game.settings.players:
                raise TurnError(f"{player!r} is not a player of game {game.id}")
            if game.history.is_adjudicated(game.turn):
                raise TurnError(f"turn {game.turn} of {game.id} was adjudicated already")
            if self._listed_in.get(game.turn) != game.holding:
                # listed again under the lock (a listing of this hold still holds:
                # one listing a mail, however many files the turn has)
                self._names.pop(game.turn, None)
                self._tops.pop(game.turn, None)
            self._stored_last = None
            mid = record.get("message_id")
            if mid:
                odir = os.fspath(self.folder()) + os.sep
                mail = (mid, str(record.get("raw") or ""))
                for name in self.names().get(player, []):
                    # The same mail handled again (after a crash) is stored once; another
                    # mail that reuses its Message-ID is a mail of its own.
                    if self._mail_of(odir + name, game.turn) == mail:
                        return self.folder() / name
            self.names()  # and the highest version of each player
            version = self._tops.get(game.turn, {}).get(player, 0) + 1
            data = {"player": player, "turn": game.turn, "version": version, **record}
            text = dump_yaml(data, header=f"Orders of {player} for turn {game.turn} "
                                          f"of {game.id}")
            path = write_new(no_links(game.dir, self._path(player, version)), text)
            remember_written(path, text, data)  # not parsed back by the next mail
            self.names().setdefault(player, []).append(path.name)  # the newest version
            self._tops.setdefault(game.turn, {})[player] = version
            if checked is not None:  # read with the open turn's view: no second check
                self._checked[(str(path), game.open, True)] = OrdersFile(
                    player, version, path, "orders", checked.entry, str(record["raw"]),
                    str(mid or ""), checked.received_at, orders=checked.orders)
                self._read[str(path)] = (self._checked[(str(path), game.open, True)],
                                         YamlDoc(path, "", data))
            self._stored_last = (path, game.write_schedule())
            return path

    def schedule_stored_with(self, path: Path) -> Schedule | None:
        """The schedule written with the orders file at ``path`` when this book
        stored it, as the game stood then, under its lock (the acceptance's
        "adjudicating now" reads it rather than working the orders in force
        out again); ``None`` when this book's last store was not that file (a
        mail stored before is found, not stored: nothing was written)."""
        stored = self._stored_last
        return stored[1] if stored is not None and stored[0] == path else None

    def save(self, player: str, entry: Mapping[str, object], *, raw: str, message_id: str,
             received_at: datetime, orders: object = None) -> Path:
        """Store an accepted order mail for the open turn. The entry is decoded
        against the position first (``decode_orders``: checked) unless the caller
        gives its typed ``orders`` (read with the ruleset already, ``read_orders``;
        ``entry`` is their ``encode_orders``). The same mail twice (its
        Message-ID and text) is stored once."""
        game = self.game
        typed = orders if orders is not None else game.ruleset.decode_orders(
            game.open.state, player, entry)
        return self._write(player, {
            "kind": "orders", "received_at": iso(received_at), "message_id": message_id,
            "entry": dict(entry), "raw": raw,
        }, checked=OrdersFile(player, 0, Path(), "orders", dict(entry), raw, message_id,
                              received_at, orders=typed))

    def reject(self, player: str, *, raw: str, message_id: str, received_at: datetime,
               error: str) -> Path:
        """Keep a refused order mail in the history; it changes no orders in force."""
        return self._write(player, {
            "kind": "rejected", "received_at": iso(received_at), "message_id": message_id,
            "error": error, "raw": raw,
        })

    def clear(self, player: str, *, raw: str = "", message_id: str = "",
              received_at: datetime | None = None) -> Path:
        """A CLEAR mail: withdraw the player's orders for the open turn."""
        return self._write(player, {
            "kind": "withdrawal", "received_at": iso(received_at or datetime.now(UTC)),
            "message_id": message_id, "raw": raw,
        })

