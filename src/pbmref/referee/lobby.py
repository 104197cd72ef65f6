"""The lobby by mail: LIST, JOIN, OBSERVE, TAKEOVER, CONFIRM, and RESIGN of a
forming game (rules J1-J7), for anyone, strangers too.

The pipeline hands over a mail whose envelope holds one of these commands
(``OrderMail.for_lobby``) and queues the reply it gets back; the orders,
votes and press of a game are not read in such a mail. Forming games are
the store's (``store.lobby``), changed through ``gm.forming``; places in
running games through ``gm.seats``.

Nothing is granted to an address that has not shown that it receives mail
(J3). A request (JOIN, OBSERVE, TAKEOVER, RESIGN of a forming game) is
checked first (a request that cannot be granted is refused at once, and
costs no code), then kept in the referee's state under the sender's
address (``lobby-pending``: one request mail a sender, the newest) and
answered with a code; it is carried out when the same address mails
``CONFIRM`` and that code within three days. The code is an HMAC of the
request mail with the referee's own key (kept in its state), so a mail
handled again after a crash gets the same code.

Against backscatter, a sender no game here knows gets at most one answer to
LIST a day and one confirmation mail a day, each also counted against the
referee's hourly allowance for strangers (``STRANGER_BUDGET``), and a
confirmation that is withheld records no request. An address that
CONFIRMed a code has shown that it gets mail: for 30 days it is answered
as a registered player is (``lobby-proven``).

When a JOIN fills a forming game's last place, the game starts (J4): every
player gets the welcome with their place and password (``welcome``), the
observers a note.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from pbmref.archive import shown_players
from pbmref.base.times import moment, parse_duration
from pbmref.config import Config, load_config
from pbmref.gm import add_observer
from pbmref.gm.forming import (
    Started,
    join,
    join_refused,
    leave,
    observe,
    offered_places,
    start,
)
from pbmref.gm.seats import SeatRefused, join_standby, open_place_of, take_over
from pbmref.mail.message import IncomingMail
from pbmref.orders.envelope import LOBBY_COMMANDS, Command, OrderMail
from pbmref.orders.errors import OrderMailError
from pbmref.orders.render import render_error_list
from pbmref.referee import lobbytext, replies
from pbmref.referee.letter import HandledMail
from pbmref.referee.pipeline import Referee
from pbmref.referee.rations import REPLY_BUDGET, REPLY_WINDOW, STRANGER_BUDGET
from pbmref.referee.secrecy import hide_in_errors, mail_passwords
from pbmref.referee.state import Ration
from pbmref.referee.welcome import queue_welcome
from pbmref.store import Game, GameStore, StoreError
from pbmref.store.deadlines import deadline_rules
from pbmref.store.errors import GameNotFound, InvalidId
from pbmref.store.index import bare_address
from pbmref.store.listing import clock_words_of
from pbmref.store.lobby import Forming, Joined, Lobby, read_standby
from pbmref.store.settings import draw_rules

__all__ = ["PENDING", "Request", "answer", "mail_start", "queue_start"]

log = logging.getLogger("pbmref.referee")

PENDING = "lobby-pending"  # the referee state's kind of requests waiting for CONFIRM
PROVEN = "lobby-proven"  # addresses that CONFIRMed a code lately: they get mail (J3)
_KEY = "lobby-key"
CODE_LIFE = timedelta(days=3)
PROVEN_FOR = timedelta(days=30)
DAY = timedelta(days=1)
MOST_LISTED = 40  # games being played that LIST shows (those with open places first)
_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"  # no 0 and O, no 1, I and L
_WORDS = {"join": "JOIN", "standby": "JOIN", "observe": "OBSERVE", "takeover": "TAKEOVER",
          "leave": "RESIGN"}


@dataclass(frozen=True)
class Request:
    """One request waiting for its CONFIRM (J3)."""

    action: str  # join | standby | observe | takeover | leave
    game: str
    places: tuple[str, ...] = ()

    def line(self) -> str:
        """What will be done, as the player asked it.

        >>> Request("join", "dip7", ("FRA", "ENG")).line()
        'JOIN dip7 FRA ENG: a place in the forming game'
        """
        what = {"join": "a place in the forming game", "standby": "the game's standby list",
                "observe": "every report, as an observer", "takeover": "the place is yours",
                "leave": "you leave the forming game"}[self.action]
        return f"{' '.join((_WORDS[self.action], self.game, *self.places))}: {what}"

    def to_dict(self) -> dict[str, object]:
        return {"action": self.action, "game": self.game, "places": list(self.places)}

    @classmethod
    def from_dict(cls, data: Any) -> Request | None:
        try:
            return cls(str(data["action"]), str(data["game"]),
                       tuple(str(p) for p in data.get("places") or ()))
        except (KeyError, TypeError, AttributeError):
            return None


def _code_of(key: str, text: str) -> str:
    """A code of eight letters and digits a phone keyboard types easily.

    >>> _code_of("k", "x")
    'KVDP-YRME'
    """
    digest = hmac.new(key.encode(), text.encode(), hashlib.sha256).digest()
    letters = "".join(_ALPHABET[b % len(_ALPHABET)] for b in digest[:8])
    return f"{letters[:4]}-{letters[4:]}"


def _hash(code: str) -> str:
    return hashlib.sha256(code.upper().replace("-", "").encode()).hexdigest()


def _expired(record: Any, now: datetime) -> bool:
    made = moment(record.get("made")) if isinstance(record, Mapping) else None
    return made is None or now - made >= CODE_LIFE


def answer(referee: Referee, mail: IncomingMail, envelope: OrderMail,
           errors: Sequence[OrderMailError]) -> HandledMail:
    """The lobby's answer to one mail (see the module)."""
    return _Desk(referee, mail, envelope).answer(errors)


class _Desk:
    """One lobby mail being answered."""

    def __init__(self, referee: Referee, mail: IncomingMail, envelope: OrderMail) -> None:
        self.referee = referee
        self.mail = mail
        self.envelope = envelope
        self.sender = bare_address(mail.from_addr)
        self.now = referee.clock()
        self.store = referee.store
        self.lobby = Lobby(self.store.dir)
        with referee.round():
            self.known = bool(self.store.index.games_of(self.sender)) or self._proven_lately()
        self.proven = False  # a CONFIRM with the right code: the address gets mail
        self.games: list[str] = []

    # ------------------------------------------------------------ the answer

    def answer(self, errors: Sequence[OrderMailError]) -> HandledMail:
        if errors:
            found = list(errors)
            hide_in_errors(found, mail_passwords(self.mail))
            return self._reply(replies.mail_refused(render_error_list(found)) + "\n\n" +
                               "LIST shows the games of this referee (rule J1).",
                               "lobby: refused")
        sections: list[str] = []
        requests: list[Request] = []
        seen: set[tuple[str, tuple[str, ...]]] = set()
        for c in self.envelope.commands:
            if (c.name, c.args) in seen:
                continue
            seen.add((c.name, c.args))
            if c.name == "LIST":
                sections.append(self._list(c))
            elif c.name == "CONFIRM":
                sections.append(self._confirm(c))
            elif c.name in LOBBY_COMMANDS or c.name == "RESIGN":
                asked = self._request(c)
                if isinstance(asked, Request):
                    requests.append(asked)
                else:
                    sections.append(asked)
            else:
                sections.append(f"{c.format()}: not read in a mail of the lobby's commands; "
                                "send it in a mail of its own.")
        if self.envelope.body:
            sections.append("The other lines of your mail were not read: a mail with LIST, "
                            "JOIN, OBSERVE, TAKEOVER or CONFIRM holds no orders.")
        if requests:
            return self._with_code(requests, sections)
        return self._reply(_text(sections), "lobby: answered")

    def _reply(self, body: str, summary: str) -> HandledMail:
        """The one reply; a sender no game knows gets one a day (unless proven)."""
        rations = None
        if not (self.known or self.proven):
            rations = (Ration("lobby", self.sender, 1, DAY),
                       Ration("strangers", "*", STRANGER_BUDGET, REPLY_WINDOW),
                       Ration("replies", self.sender, REPLY_BUDGET, REPLY_WINDOW))
        return HandledMail([self.referee.reply(self.mail, self.sender, body)], summary,
                           self.games[0] if self.games else None, changed=bool(self.games),
                           rations=rations)

    def _with_code(self, requests: Sequence[Request], sections: list[str]) -> HandledMail:
        """The answer with a code to CONFIRM the ``requests`` (J3); the requests
        kept only when it goes (a stranger's: one a day)."""
        state = self.referee.state
        if not (self.known or self.proven):
            rations = (Ration("lobby-confirm", self.sender, 1, DAY),
                       Ration("strangers", "*", STRANGER_BUDGET, REPLY_WINDOW),
                       Ration("replies", self.sender, REPLY_BUDGET, REPLY_WINDOW))
            if not state.within_budgets(self.now, rations, token=self.mail.message_id):
                return HandledMail(summary="lobby: confirmation withheld (one a day to an "
                                           "unknown address)", rations=())
        code = _code_of(self._key(), "\n".join(
            [self.sender, self.mail.message_id, *(r.line() for r in requests)]))
        state.put(PENDING, self.sender, {
            "code": _hash(code), "made": self.now.isoformat(),
            "requests": [r.to_dict() for r in requests]},
            drop=lambda record: _expired(record, self.now))
        sections.append(lobbytext.confirm_request(code, [r.line() for r in requests]))
        return HandledMail([self.referee.reply(self.mail, self.sender, _text(sections))],
                           "lobby: code sent for " + "; ".join(r.line() for r in requests),
                           rations=())

    def _proven_lately(self) -> bool:
        """The sender CONFIRMed a code within ``PROVEN_FOR``: it gets mail, and is
        answered as a registered player is."""
        when = moment(self.referee.state.values(PROVEN, [self.sender]).get(self.sender))
        return when is not None and self.now - when < PROVEN_FOR

    def _key(self) -> str:
        """The referee's own key for the codes (made once, kept in its state)."""
        state = self.referee.state
        kept = state.values(_KEY, ["key"]).get("key")
        if not isinstance(kept, str):
            kept = secrets.token_hex(32)
            state.put(_KEY, "key", kept)
        return kept

    # ------------------------------------------------------------ LIST (J1)

    def _forming(self, game_id: str) -> Forming | None:
        try:
            return self.lobby.read(game_id)
        except (GameNotFound, InvalidId):
            return None

    def _game(self, game_id: str) -> Game | None:
        with self.referee.round():
            real = self.store.index.names().get(game_id.casefold())
        if real is None:
            return None
        return self.store.open(real)

    def _list(self, command: Command) -> str:
        if command.args:
            return self._one(command.args[0])
        forming = []
        for gid in self.lobby.ids():
            record = self._forming(gid)
            if record is not None:
                forming.append((gid, self._about(record)))
        with self.referee.round():
            listings = [(gid, listing) for gid, listing in self.store.index.listings().items()
                        if listing.status != "finished"]
        listings.sort(key=lambda item: (not item[1].open, item[0]))
        return lobbytext.list_lines(forming, listings[:MOST_LISTED],
                                    max(0, len(listings) - MOST_LISTED))

    def _kind(self, forming: Forming) -> str:
        if forming.klass is not None:
            return "a Fast Play class"
        rules = self.store.ruleset_loader(forming.ruleset)
        variant = forming.game.get("variant")
        return rules.title + (f" ({variant})" if variant else "")

    def _clock(self, forming: Forming) -> str:
        length = (forming.klass or forming.game).get("turn_length", "48h")
        return clock_words_of(parse_duration(length),
                              deadline_rules(forming.game.get("deadlines")))

    def _about(self, forming: Forming) -> str:
        press = str(forming.game.get("press") or "") or self.store.ruleset_loader(
            forming.ruleset).default_press
        return (f"{forming.title}, {self._kind(forming)}, {lobbytext.press_words(press)}, "
                f"{self._clock(forming)}; {forming.open_places} of {forming.places} places "
                "open.")

    def _one(self, game_id: str) -> str:
        """LIST GAME (J1)."""
        forming = self._forming(game_id)
        if forming is not None:
            return lobbytext.game_lines(self._forming_view(forming))
        try:
            game = self._game(game_id)
        except StoreError:
            return f"Game {game_id} cannot be read just now; the game master is told."
        if game is None:
            return f"There is no game called {game_id} here. LIST shows the games."
        return lobbytext.game_lines(self._game_view(game))

    def _draws(self, ruleset: str, allow: Sequence[str], secret: bool) -> str:
        kinds = {"all": "the draw of all survivors (DRAW)",
                 "named": "draws among named powers (DRAW AUS ENG)"}
        if not self.store.ruleset_loader(ruleset).has_draws:
            return "none: the game kind has no draws"
        if not allow:
            return "none"
        return (" and ".join(kinds[a] for a in allow) +
                ("; votes are secret" if secret else "; votes are open") + " (J13)")

    def _forming_view(self, forming: Forming) -> lobbytext.GameView:
        game = forming.game
        draws = draw_rules(game.get("draws"))
        anonymous = bool(game.get("anonymous"))
        offered = offered_places(self.store, forming)
        joined = ["(anonymous)" if anonymous else (p.name or "a player")
                  for p in forming.players]
        places = tuple((code, label) for code, label in offered)
        return lobbytext.GameView(
            game_id=forming.id, title=forming.title, kind=self._kind(forming), forming=True,
            press=str(game.get("press") or self.store.ruleset_loader(
                forming.ruleset).default_press),
            clock=self._clock(forming),
            draws=self._draws(forming.ruleset, draws.allow, draws.secret),
            takeover=_takeover_words(str(game.get("takeover", "anyone"))),
            anonymous=anonymous, places=places,
            state=(f"Forming: {len(forming.players)} of {forming.places} places taken"
                   + (f" ({', '.join(joined)})" if joined and not anonymous else "")),
            choice="by the players' preference" if forming.choice == "preference"
            else "by the game master")

    def _game_view(self, game: Game) -> lobbytext.GameView:
        s = game.settings
        shown = shown_players(game)
        places = []
        for pid, p in s.players.items():
            place = game.ruleset.place_of(game.position, pid) or pid
            if p.open_place:
                who = f"open: TAKEOVER {game.id} {place} (J7)"
            elif p.status == "kicked":
                who = "out of the game"
            elif s.anonymous:
                who = "taken"
            else:
                who = shown.name(pid) + (" (computer)" if p.computer else "")
            places.append((place if not s.anonymous else shown.name(pid), who))
        reader = s.player_by_address(self.sender)
        zone = s.zone_of(reader.id if reader is not None else None)
        turn = game.ruleset.words.turn(game.turn_label)
        state = {"paused": f"Paused in {turn}", "finished": "Finished"}.get(
            s.status, f"Being played: {turn}, deadline {replies.when(s.deadline, zone)}")
        listing = game.listing
        return lobbytext.GameView(
            game_id=game.id, title=s.title, kind=listing.kind, forming=False,
            press=game.press_level, clock=listing.clock,
            draws=self._draws(s.ruleset, s.draws.allow, s.draws.secret),
            takeover=_takeover_words(s.takeover), anonymous=s.anonymous,
            places=tuple(places), state=state)

    # ------------------------------------------------------------ requests (J2-J7)

    def _request(self, c: Command) -> Request | str:
        """The request of one command, checked; or why it is refused."""
        if not c.args:  # RESIGN alone: a game's, with its password
            return ("RESIGN without a game's name goes in an order mail of your game, with "
                    "your password (rule J6).")
        game_id, places = c.args[0], c.args[1:]
        forming = self._forming(game_id)
        try:
            game = None if forming is not None else self._game(game_id)
        except StoreError:
            return f"Game {game_id} cannot be read just now; the game master is told."
        if forming is None and game is None:
            return f"There is no game called {game_id} here. LIST shows the games."
        gid = forming.id if forming is not None else game.id  # type: ignore[union-attr]
        if c.name == "JOIN":
            return self._join(gid, places, forming, game)
        if c.name == "OBSERVE":
            observers = forming.observers if forming is not None else (
                game.settings.observers if game is not None else ())
            if self.sender in {o.lower() for o in observers}:
                return f"OBSERVE {gid}: you observe it already (J5)."
            return Request("observe", gid)
        if c.name == "TAKEOVER":
            if game is None:
                return f"TAKEOVER {gid}: the game has not started; JOIN {gid} asks for a place."
            return self._takeover_refused(game, places[0]) or Request("takeover", gid,
                                                                      (places[0].upper(),))
        # RESIGN GAME
        if forming is None:
            return (f"RESIGN {gid}: {gid} is being played; send RESIGN in an order mail of "
                    "the game, with your password (rule J6).")
        if forming.player(self.sender) is None:
            return f"RESIGN {gid}: you have no place in {gid} (J6)."
        return Request("leave", gid)

    def _join(self, gid: str, places: tuple[str, ...], forming: Forming | None,
              game: Game | None) -> Request | str:
        """JOIN: a place in a forming game (J2), else the standby list of one
        being played."""
        if forming is not None:
            joined = Joined(self.sender, self._name(), tuple(places), self.now)
            refused = join_refused(self.store, gid, joined)
            return f"JOIN {gid}: {refused} (J2)." if refused else Request("join", gid, places)
        assert game is not None
        return self._standby(game) or Request("standby", gid)

    def _name(self) -> str:
        name = " ".join(self.mail.from_name.replace('"', "").split())[:40]
        return name or self.sender.split("@", 1)[0]

    def _standby(self, game: Game) -> str | None:
        """Why the sender cannot go on the game's standby list, or None (J2)."""
        if game.settings.status == "finished":
            return f"JOIN {game.id}: the game has ended."
        held = game.settings.player_by_address(self.sender)
        if held is not None and held.active:
            return f"JOIN {game.id}: you play in this game already."
        if read_standby(game.dir).on_standby(self.sender):
            return f"JOIN {game.id}: you are on its standby list already (J7)."
        return None

    def _takeover_refused(self, game: Game, place: str) -> str | None:
        if open_place_of(game, place) is None:
            return f"TAKEOVER {game.id} {place}: {place} is not an open place of {game.id} (J7)."
        if game.settings.takeover == "standby" and not read_standby(game.dir).on_standby(
                self.sender):
            return (f"TAKEOVER {game.id} {place}: {game.id} gives open places to its standby "
                    f"list only; JOIN {game.id} puts you on it first (J7).")
        return None

    # ------------------------------------------------------------ CONFIRM (J3)

    def _confirm(self, c: Command) -> str:
        state = self.referee.state
        record = state.values(PENDING, [self.sender]).get(self.sender)
        if (not isinstance(record, Mapping) or _expired(record, self.now)
                or not hmac.compare_digest(str(record.get("code", "")), _hash(c.args[0]))):
            return ("CONFIRM: this is not the code the referee sent to this address, or it "
                    "is more than three days old (rule J3). Nothing was done; send your "
                    "request again for a new code.")
        self.proven = True
        self.referee.state.put(PROVEN, self.sender, self.now.isoformat(), drop=lambda when: (
            (moment(when) or self.now - PROVEN_FOR) <= self.now - PROVEN_FOR))
        done = []
        for item in record.get("requests") or []:
            request = Request.from_dict(item)
            if request is not None:
                done.append(self._carry_out(request))
        state.pop(PENDING, self.sender)
        return "\n\n".join(done)

    def _carry_out(self, request: Request) -> str:
        """One confirmed request carried out; what the reply says of it."""
        joined = Joined(self.sender, self._name(), request.places, self.now)
        refused = self.referee.config.referee_addresses
        gid = request.game
        try:
            if request.action == "join":
                forming = join(self.store, gid, joined, refused_addresses=refused)
                self.games.append(gid)
                if forming.full:
                    queue_start(self.referee, start(self.store, gid, now=self.now,
                                                    refused_addresses=refused))
                    return (f"JOIN {gid}: done, and every place is taken: {gid} starts now "
                            "(rule J4). Your place and your password come in a mail of "
                            "their own.")
                open_places = forming.open_places
                return (f"JOIN {gid}: done; you have a place (rule J2). {open_places} of "
                        f"{forming.places} places {'is' if open_places == 1 else 'are'} "
                        "still open; the game starts when all are taken, and then a mail "
                        "brings your place and your password.")
            if request.action == "leave":
                leave(self.store, gid, self.sender)
                return f"RESIGN {gid}: done; you have left the forming game (rule J6)."
            if request.action == "observe":
                if self.lobby.exists(gid):
                    observe(self.store, gid, self.sender, refused_addresses=refused)
                else:
                    add_observer(self.store, gid, self.sender, now=self.now,
                                 refused_addresses=refused)
                self.games.append(gid)
                return f"OBSERVE {gid}: done; you get every report from now on (rule J5)."
            game = self.store.open(gid)
            if request.action == "standby":
                join_standby(game, joined, refused_addresses=refused)
                return (f"JOIN {gid}: done; you are on the game's standby list (rule J7). "
                        f"When a place is given up, TAKEOVER {gid} and the place takes it.")
            return self._take_over(game, request.places[0], joined)
        except (SeatRefused, StoreError, ValueError) as exc:
            return f"{request.line().split(':')[0]}: not done: {exc}"

    def _take_over(self, game: Game, place: str, joined: Joined) -> str:
        taken = take_over(game, place, joined, now=self.now,
                          refused_addresses=self.referee.config.referee_addresses)
        game.reload()
        self.games.append(game.id)
        queue_welcome(self.referee, game, {taken.player: taken.change.password},
                      [taken.player], note=f"You take over {taken.place} (rule J7). "
                      "The orders of the open turn are yours to send.")
        shown = shown_players(game)
        who = "" if game.settings.anonymous else f" by {shown.name(taken.player)}"
        for address in _everyone(game, leave_out=taken.player):
            self.referee.outgoing.enqueue(self.referee.mail_to(
                address, f"[{game.id}] {taken.place} is played again",
                "\n".join(lobbytext.paragraph(
                    f"{taken.place} of game {game.id} is played again{who}, from now on "
                    "(rule J7)."))),
                key=f"takeover:{game.id}:{taken.player}:{self.sender}:{address}")
        return (f"TAKEOVER {game.id} {taken.place}: done; the place is yours (rule J7). "
                "Your password comes in a mail of its own.")


def _text(sections: Sequence[str]) -> str:
    """The sections of a reply, each sentence of one line wrapped to the width."""
    return "\n\n".join(s if "\n" in s or len(s) <= 70 else "\n".join(lobbytext.paragraph(s))
                       for part in sections for s in part.split("\n\n"))


def _takeover_words(takeover: str) -> str:
    return ("the game's standby list only (JOIN the game to be on it)"
            if takeover == "standby" else "anyone who asks with TAKEOVER")


def _everyone(game: Game, leave_out: str = "") -> list[str]:
    """The addresses of the game's active players and observers (one each)."""
    out: list[str] = []
    for pid, p in game.settings.players.items():
        if p.active and pid != leave_out:
            out += [a for a in p.addresses if a not in out]
    out += [a for a in game.settings.observers if a not in out]
    return out


# ------------------------------------------------------------------ the start (J4)


def queue_start(referee: Referee, started: Started) -> int:
    """Queue the start of a game (or a class's boards): each player's welcome
    with their place and password, once; a note to each observer."""
    count = 0
    for gid, passwords in started.games.items():
        game = referee.store.open(gid)
        count += queue_welcome(referee, game, passwords, note=(
            f"{game.id} starts now: its places are given (rule J4). This mail is the only "
            "one that holds your password."))
        for address in game.settings.observers:
            referee.outgoing.enqueue(referee.mail_to(
                address, f"[{gid}] the game starts",
                "\n".join(lobbytext.paragraph(
                    f"Game {gid} ({game.settings.title}) starts now (rule J4). You observe "
                    "it: every report comes to you."))),
                key=f"start:{gid}:{address}")
            count += 1
    return count


def mail_start(store: GameStore, game_id: str, *, config: Config | None = None,
               seats: Mapping[str, str] | None = None) -> Started:
    """``pbmref start``: start a forming game now (J4) and mail its players."""
    config = config or load_config()
    referee = Referee(config, store=store)
    started = start(store, game_id, now=referee.clock(), seats=seats,
                    refused_addresses=config.referee_addresses)
    queue_start(referee, started)
    referee.deliver()
    return started

