"""The referee's pipeline: mail in, games changed, answers out.

Order of work for every mail (``shared/spec/referee.md``, "Mail"), in the
manner of Mailman's runners:

1. the raw message is saved in the incoming spool before anything else
   (keyed by its Message-ID; a second copy is recognised);
2. the mail is read and answered: the game is changed (orders stored with
   the raw text and Message-ID) and the replies are queued in the outgoing
   spool;
3. only then is the mail marked handled on the server.

A mail that makes the referee fail is retried a few times and then set
aside in the spool's ``shunt/`` folder with its reason, and its sender is
told; it is never lost and never retried for ever. Replies are delivered
from the outgoing spool, with back-off, each once.
"""

from __future__ import annotations

import email
import email.policy
import logging
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from typing import Any

from pbmref.base.times import moment
from pbmref.config import Config
from pbmref.mail.base import Intake, Sender
from pbmref.mail.compose import Attachment, make_mail, make_reply
from pbmref.mail.message import IncomingMail, never_answer_reason, read_message
from pbmref.mail.spool import IncomingSpool, InEntry, OutgoingSpool
from pbmref.orders.envelope import (
    OrderMail,
    check_password,
    check_turn,
    game_from_subject,
    identify_player,
    read_order_mail,
    scan_order_mail,
)
from pbmref.orders.errors import (
    OrderMailError,
    StaleTurnError,
    UnknownPlayerError,
    WrongPasswordError,
)
from pbmref.orders.render import render_errors
from pbmref.referee import replies
from pbmref.referee.state import RefereeState
from pbmref.reports.status import render_status
from pbmref.store import Game, GameFileError, GameStore, StoreError, check_id

log = logging.getLogger("pbmref.referee")

_REPLIED = "replied"  # marker file in a spool entry: its replies are queued
# At most this many replies to one address within REPLY_WINDOW: a robot that
# answers every mail without the auto-reply headers (a naive vacation responder)
# and the referee would otherwise write to each other for ever.
REPLY_BUDGET = 30
REPLY_WINDOW = timedelta(hours=1)
# At most this many "how to join" notes in all within REPLY_WINDOW: a flood of
# mail with forged senders must not make the referee a source of backscatter.
STRANGER_BUDGET = 50


_PASSWORD_LINE = re.compile(r"(?im)^([ \t>]*(?:password|passwd|pw)\b[ \t:=]*)\S+")


def hide_password(text: str, envelope: OrderMail) -> str:
    r"""The raw mail as stored in the game folder, its password hidden.

    Conformance (orders.md, PASSWORD: the secret itself is never kept): the orders files keep
    the raw text of each mail (referee.md) but never the password itself.

    >>> hide_password("GAME z\nPASSWORD swordfish\nPLANE", OrderMail(password="swordfish"))
    'GAME z\nPASSWORD (hidden)\nPLANE'
    """
    secrets = [s for s in (envelope.password, envelope.password_raw) if s and len(s) >= 4]

    def mask(value: str) -> str:
        for secret in secrets:
            value = value.replace(secret, "(hidden)")
        return _PASSWORD_LINE.sub(lambda m: m.group(1).rstrip() + " (hidden)"
                                  if not m.group(0).endswith("(hidden)") else m.group(0),
                                  value)

    return mask(_hide_in_encoded_parts(text, mask))


def _hide_in_encoded_parts(text: str, mask: Callable[[str], str]) -> str:
    """``text`` (a whole message) with ``mask`` applied inside its base64 text
    parts, which a plain search of the message cannot see into."""
    if "base64" not in text.lower():
        return text
    try:
        msg = email.message_from_string(text, policy=email.policy.default)
        changed = False
        for part in msg.walk():
            if (part.is_multipart() or part.get_content_maintype() != "text"
                    or str(part.get("Content-Transfer-Encoding", "")).lower() != "base64"):
                continue
            content = part.get_content()
            hidden = mask(content)
            if hidden != content:
                part.set_content(hidden, subtype=part.get_content_subtype(), charset="utf-8",
                                 cte="base64")
                changed = True
        return msg.as_string() if changed else text
    except Exception:  # noqa: BLE001 - a mail the parser cannot rewrite keeps its text
        return text


def _whole_address(address: str) -> re.Pattern[str]:
    """A pattern finding ``address`` as a whole address, in any case."""
    return re.compile(r"(?<![\w.+-])" + re.escape(address) + r"(?![\w.-])", re.IGNORECASE)


@dataclass
class HandledMail:
    """What handling one mail did: replies to queue and a line for the log."""

    replies: list[EmailMessage] = field(default_factory=list)
    summary: str = ""
    game_id: str | None = None
    changed: bool = False


@dataclass
class Letter:
    """One order mail for one game, as it is being answered: the mail, its
    envelope, the game it names, and (once known) the player, the registered
    address the reply goes to, notes for the reply, the commands' answers and
    the pictures the reply carries (MAP's board)."""

    mail: IncomingMail
    raw: bytes
    arrived: datetime
    envelope: OrderMail
    game: Game
    player: str = ""
    to: str = ""
    notes: list[str] = field(default_factory=list)
    sections: list[str] = field(default_factory=list)
    attachments: list[Attachment] = field(default_factory=list)


def _turn_name(game: Game) -> replies.TurnName:
    """The open turn as players know it: its number, or for Diplomacy the phase
    (``S1901M``), which ``PHASE`` lines are checked against."""
    return replies.TurnName(game.turn_label, game.ruleset.words)


def _deadline_text(game: Game) -> str:
    return replies.when(game.settings.deadline, game.settings.timezone)


def _turn_started(game: Game) -> datetime | None:
    """When the open turn began: the adjudication of the turn before it."""
    if game.turn <= 1:
        return None
    try:
        result = game.history.result(game.turn - 1) or {}
    except StoreError:
        return None
    return moment(result.get("adjudicated_at"))


def _status(game: Game, turn: replies.TurnName) -> str:
    """The answer to STATUS: the open turn, its deadline, who has orders in."""
    s = game.settings
    return render_status(
        game_id=game.id, title=s.title, turn=turn.title(), deadline=s.deadline,
        timezone=s.timezone, players={pid: p.name or pid for pid, p in s.players.items()},
        sent=list(game.book.in_force()), inactive=[p for p, q in s.players.items()
                                                   if not q.active], status=s.status)




class Referee:
    """Reads order mail, keeps the games, answers every mail that may be answered."""

    def __init__(self, config: Config, *, store: GameStore | None = None,
                 sender: Sender | None = None,
                 clock: Callable[[], datetime] | None = None) -> None:
        from pbmref.mail.factory import open_sender, open_spools

        self.config = config
        self.store = store or GameStore(config.games_dir)
        self.incoming: IncomingSpool
        self.outgoing: OutgoingSpool
        self.incoming, self.outgoing = open_spools(config)
        self.sender = sender or open_sender(config)
        self.clock = clock or (lambda: datetime.now(UTC))
        self.state = RefereeState.load(config.spool_dir / "referee-state.json")

    # ------------------------------------------------------------ addresses

    @property
    def address(self) -> str:
        return self.config.referee.address

    def _reply(self, mail: IncomingMail, to: str, body: str,
               attachments: Sequence[Attachment] = ()) -> EmailMessage:
        return make_reply(mail, to, body, from_addr=self.address,
                          from_name=self.config.referee.name, attachments=attachments,
                          date=self.clock())

    def mail_to(self, to: str | list[str], subject: str, body: str, **kw: Any) -> EmailMessage:
        return make_mail(to, subject, body, from_addr=self.address,
                         from_name=self.config.referee.name, date=self.clock(), **kw)

    # ------------------------------------------------------------ intake

    def take_in(self, intake: Intake) -> int:
        """Fetch waiting mail, spool it, handle it, then mark it handled; returns
        how many mails were handled."""
        fetched: list[str] = []
        for raw in intake.fetch_new():
            entry = self.incoming.save(raw)
            if entry.duplicate and entry.state != "pending":
                log.info("mail %s seen before (%s): marked handled again",
                         entry.message_id, entry.state)
                intake.mark_handled(raw.key)
                continue
            fetched.append(raw.key)
        handled = self.process_spool(intake)
        return handled

    def process_spool(self, intake: Intake | None = None) -> int:
        """Handle every pending spooled mail, oldest first."""
        count = 0
        with self.incoming.lock():
            shunted_before = {e.id for e, _ in self.incoming.shunted()}
            pending = self.incoming.pending()
            for entry, _reason in self.incoming.shunted():
                # pending() gave up on it: the referee died while handling it, each
                # time. Its sender is told, as after any failure, and it leaves the inbox.
                if entry.id not in shunted_before:
                    self._tell_given_up(entry, intake)
            for entry in pending:
                self._handle_entry(entry, intake)
                count += 1
        return count

    def _mark(self, intake: Intake | None, entry: InEntry) -> None:
        """Mark (move) the mail on the server; the spool has it, so a failure here
        only leaves it there until a later round marks it again."""
        if intake is None or not entry.intake_key:
            return
        try:
            intake.mark_handled(entry.intake_key)
        except Exception:  # noqa: BLE001 - the spool has it: it is safe
            log.warning("could not mark %s handled on the server", entry.intake_key,
                        exc_info=True)

    def _handle_entry(self, entry: InEntry, intake: Intake | None = None) -> None:
        """Handle one spooled mail: answer it, mark it on the server, then call it
        done. Marking comes before ``done``: a crash in between leaves the entry
        pending, so the next round handles it again (nothing twice: orders are
        stored once per Message-ID, replies are keyed) and marks it; the other way
        round, a crash could leave a handled mail in the server's inbox for good."""
        entry = self.incoming.begin(entry)
        mail: IncomingMail | None = None
        try:
            raw = entry.raw()
            mail = read_message(raw, max_bytes=self.config.limits.max_message_bytes,
                                size=entry.size)
            if not (entry.path / _REPLIED).exists():
                result = self.handle(mail, raw, arrived=entry.arrived)
                kept = [m for m in result.replies if self._reply_allowed(m)]
                if len(kept) < len(result.replies):
                    result.summary += "; reply withheld: reply budget of the address used up"
                    result.replies = kept
                for n, msg in enumerate(result.replies):
                    # Keyed: handling the mail again after a crash queues nothing twice.
                    self.outgoing.enqueue(msg, key=f"reply:{entry.id}:{n}")
                (entry.path / _REPLIED).write_text(result.summary + "\n", encoding="utf-8")
                log.info("mail %s from %s: %s", mail.message_id, mail.from_addr,
                         result.summary)
            self._mark(intake, entry)
            self.incoming.done(entry)
        except Exception as exc:  # noqa: BLE001 - set aside, never lost, never a loop
            reason = f"{type(exc).__name__}: {exc}"
            log.exception("mail %s failed", entry.message_id)
            if self.incoming.failed(entry, reason):
                self._tell_failed(mail)
            self._mark(intake, entry)  # the spool keeps it for the next try

    def _reply_allowed(self, msg: EmailMessage) -> bool:
        """Whether another reply to the mail's recipient fits REPLY_BUDGET."""
        to = str(msg.get("To", "")).strip().lower()
        if self.state.within_budget("replies", to, self.clock(), REPLY_BUDGET, REPLY_WINDOW):
            return True
        log.warning("not answering %s: %d replies within %s already (a mail loop?)",
                    to, REPLY_BUDGET, REPLY_WINDOW)
        return False

    def _tell_given_up(self, entry: InEntry, intake: Intake | None) -> None:
        try:
            mail = read_message(entry.raw(), max_bytes=self.config.limits.max_message_bytes,
                                size=entry.size)
            self._tell_failed(mail)
            if intake is not None and entry.intake_key:
                intake.mark_handled(entry.intake_key)
        except Exception:  # noqa: BLE001 - telling is a courtesy; the GM sees the shunt
            log.warning("could not tell the sender of set-aside mail %s", entry.message_id,
                        exc_info=True)

    def _tell_failed(self, mail: IncomingMail | None) -> None:
        """Tell the sender that their mail was set aside (registered senders only)."""
        if mail is None or never_answer_reason(mail, [self.address]):
            return
        for game_id in self._games_of(mail.from_addr):
            self.outgoing.enqueue(self._reply(mail, mail.from_addr, replies.failed(game_id)),
                                  key=f"failed:{mail.message_id}")
            return

    # ------------------------------------------------------------ one mail

    def _games_of(self, address: str) -> list[str]:
        """The open games in which ``address`` is a registered player."""
        out = []
        for gid in self.store.list_games():
            try:
                game = self.store.open(gid)
            except Exception:  # noqa: BLE001 - a broken game does not stop the others
                continue
            if game.settings.player_by_address(address) is not None:
                out.append(gid)
        return out

    def handle(self, mail: IncomingMail, raw: bytes, *, arrived: datetime) -> HandledMail:
        """Read one mail and act on it; returns the replies (nothing sent yet)."""
        why = never_answer_reason(mail, [self.address])
        if why:
            return HandledMail(summary=f"not answered: {why}")
        sender = mail.from_addr
        if mail.oversized:
            if self._games_of(sender):
                return HandledMail([self._reply(mail, sender, replies.oversized(
                    self.config.limits.max_message_bytes))], "refused: oversized")
            return self._unknown_sender(mail)
        try:
            envelope = read_order_mail(mail.subject, mail.text)
        except OrderMailError as exc:
            if not self._games_of(sender):
                return self._unknown_sender(mail)
            shown = self._orders_in_force_text(mail, sender)
            return HandledMail([self._reply(mail, sender, "Your mail was NOT accepted; "
                                            "nothing was changed.\n\n" + render_errors(exc)
                                            + (f"\n\n{shown}" if shown else ""))],
                               "rejected: envelope")
        game_id = self._pick_game(envelope, sender)
        if game_id is None:
            mine = self._games_of(sender)
            if not mine:
                return self._unknown_sender(mail)
            return HandledMail([self._reply(mail, sender, replies.unknown_game(
                envelope.game_id, mine))], "rejected: unknown game")
        try:
            game = self.store.open(game_id)
        except StoreError as exc:
            log.error("game %s cannot be opened: %s", game_id, exc)
            if not self._games_of(sender) and not self._registered_in_dir(game_id, sender):
                return self._unknown_sender(mail)
            return HandledMail([self._reply(mail, sender, replies.game_unavailable(game_id))],
                               f"game {game_id} unavailable: {exc}", game_id)
        letter = Letter(mail, raw, arrived, envelope, game)
        try:
            return self._handle_for_game(letter)
        except GameFileError as exc:  # e.g. an orders file the game master broke
            log.error("game %s cannot take orders: %s", game_id, exc)
            player = game.settings.player_by_address(sender)
            to = player.addresses[0] if player is not None else sender
            return HandledMail([self._reply(mail, to, replies.game_unavailable(game_id))],
                               f"game {game_id} unavailable: {exc}", game_id)

    def _orders_in_force_text(self, mail: IncomingMail, sender: str) -> str | None:
        """The sender's orders in force and the deadline, for the reply to a mail
        whose envelope has an error -- only when its game, player and password can
        still be told from it (orders.md: every reply shows them; they stay secret
        from anyone without the password)."""
        try:
            envelope, _ = scan_order_mail(mail.subject, mail.text)
            game_id = self._pick_game(envelope, sender)
            if game_id is None:
                return None
            game = self.store.open(game_id)
            addresses = {pid: p.addresses for pid, p in game.settings.players.items()
                         if p.status != "kicked"}
            player_id = identify_player(envelope, sender, addresses)
            player = game.settings.players[player_id]
            check_password(envelope, lambda pw: game.settings.check_password(player_id, pw),
                           required=player.password_hash is not None)
            return replies.orders_shown(game.id, _turn_name(game),
                                        game.book.entry_of(player_id), _deadline_text(game))
        except (OrderMailError, StoreError):
            return None

    def _registered_in_dir(self, game_id: str, sender: str) -> bool:
        """Whether ``sender`` stands as a whole address in a broken game's settings
        file (a text search: the file cannot be read as YAML). ``a@example.org``
        inside ``anna@example.org`` does not count, so a stranger learns nothing.

        >>> bool(_whole_address("a@example.org").search("- anna@example.org"))
        False
        """
        try:
            text = (self.store.path(game_id) / "game.yaml").read_text(encoding="utf-8")
        except OSError:
            return False
        return bool(sender) and bool(_whole_address(sender).search(text))

    def _pick_game(self, envelope: OrderMail, sender: str) -> str | None:
        if envelope.game_id:
            try:
                check_id(envelope.game_id.lower())
            except StoreError:
                return None
            known = {g.casefold(): g for g in self.store.list_games()}
            return known.get(envelope.game_id.casefold())
        mine = self._games_of(sender)
        return mine[0] if len(mine) == 1 else None

    def _unknown_sender(self, mail: IncomingMail) -> HandledMail:
        sender = mail.from_addr
        if (self.state.once_per("joined", sender, self.clock(), timedelta(days=1))
                and self.state.within_budget("strangers", "*", self.clock(),
                                             STRANGER_BUDGET, REPLY_WINDOW)):
            return HandledMail([self._reply(mail, sender, replies.how_to_join(self.address))],
                               "unknown sender: told how to join")
        return HandledMail(summary="unknown sender: already told today")

    def _answer(self, letter: Letter, body: str, summary: str,
                changed: bool = False) -> HandledMail:
        """The one reply to an identified player's mail."""
        return HandledMail([self._reply(letter.mail, letter.to, body, letter.attachments)],
                           summary, letter.game.id, changed)

    def _handle_for_game(self, letter: Letter) -> HandledMail:
        mail, game = letter.mail, letter.game
        sender = mail.from_addr
        gid = game.id
        addresses = {pid: p.addresses for pid, p in game.settings.players.items()
                     if p.status != "kicked"}
        try:
            letter.player = identify_player(letter.envelope, sender, addresses)
        except UnknownPlayerError as exc:
            if not self._games_of(sender):
                return self._unknown_sender(mail)
            known = game.settings.player_by_address(sender)
            if known is None:
                return HandledMail([self._reply(mail, sender, replies.not_registered(gid))],
                                   "rejected: not registered", gid)
            if known.status == "kicked":
                return HandledMail([self._reply(mail, sender, replies.kicked(gid))],
                                   "rejected: kicked", gid)
            return HandledMail([self._reply(mail, sender, render_errors(exc))],
                               "rejected: pilot", gid)
        player = game.settings.players[letter.player]
        # Replies go to the registered address, never to an unregistered Reply-To.
        letter.to = sender if sender in {a.lower() for a in player.addresses} else \
            player.addresses[0]
        try:
            check_password(letter.envelope,
                           lambda pw: game.settings.check_password(player.id, pw),
                           required=player.password_hash is not None)
        except WrongPasswordError:
            return self._answer(letter, replies.wrong_password(gid, sender),
                                "rejected: wrong password")
        # The body-wins note, only when the Subject names a game that exists here
        # (a Subject like "orders (utf-8)" names no game at all).
        games_here = self.store.list_games()
        subject_game = game_from_subject(mail.subject, games_here)
        if (letter.envelope.game_note and subject_game
                and subject_game.casefold() in {g.casefold() for g in games_here}):
            letter.notes.append(f"Note: {letter.envelope.game_note}")
        result = self._identified(letter)
        if letter.notes:
            # Conformance (orders.md, Envelope): when the GAME line overrides the
            # Subject, every reply tells the player, not only one accepting orders.
            for n, msg in enumerate(result.replies):
                text = str(msg.get_body(("plain",)).get_content())  # type: ignore[union-attr]
                if letter.notes[0] not in text:
                    result.replies[n] = self._reply(mail, letter.to,
                                                    "\n".join(letter.notes) + "\n\n" + text,
                                                    letter.attachments)
        return result

    def _identified(self, letter: Letter) -> HandledMail:
        """The mail of an identified player (password checked): commands and orders."""
        game, envelope = letter.game, letter.envelope
        gid = game.id
        for command in envelope.commands:
            if command.name == "HELP":
                letter.sections.append(game.ruleset.words.help)
            elif command.name == "HISTORY":
                wanted = command.arg or max(1, game.turn - 1)
                text = game.history.report(wanted) if game.history.is_adjudicated(wanted) \
                    else None
                letter.sections.append(text or f"There is no report of turn {wanted} yet.")
        with game.lock():
            # Read the game again under its lock: a turn adjudicated meanwhile
            # makes this mail late, never a change to the next turn.
            game.reload()
            turn, deadline_text = _turn_name(game), _deadline_text(game)

            def in_force() -> str:
                return replies.orders_shown(gid, turn, game.book.entry_of(letter.player),
                                            deadline_text)

            if game.settings.status != "open":
                body = [replies.game_closed(gid, game.settings.status), *letter.sections]
                if game.settings.status == "paused":
                    # Conformance (orders.md, Reading rules): the reply shows the
                    # orders that stay in force for when the game resumes.
                    body.append(in_force())
                return self._answer(letter, "\n\n".join(body), f"game {game.settings.status}")
            try:
                check_turn(envelope, turn.label)
            except StaleTurnError:
                asked = envelope.phase or envelope.turn
                assert asked is not None
                # Conformance (orders.md, Reading rules): every reply shows the
                # sender's complete orders in force, also when the mail was stale.
                return self._answer(letter, "\n\n".join([
                    replies.stale_turn(gid, asked, turn, deadline_text), in_force()]),
                    "rejected: stale turn")
            deadline = game.settings.deadline
            wants_change = bool(envelope.body) or any(
                c.name == "CLEAR" for c in envelope.commands)
            started = _turn_started(game)
            arrived = letter.arrived
            if wants_change and started is not None and arrived < started:
                # Conformance (referee.md: a mail whose turn was adjudicated is
                # answered too late, not used, with the new turn's number): it
                # reached the server before the last adjudication but is read only
                # now (a retried or late-fetched mail); it was meant for that turn,
                # never for this one.
                return self._answer(letter, "\n\n".join([
                    replies.missed_turn(gid, replies.when(arrived, game.settings.timezone),
                                        turn, deadline_text), in_force()]),
                    "rejected: its turn was adjudicated before it was read")
            if wants_change and deadline is not None and arrived > deadline:
                return self._answer(letter, "\n\n".join([
                    replies.too_late(gid, replies.when(arrived, game.settings.timezone),
                                     deadline_text, turn),
                    # Conformance (orders.md): every reply shows the orders in force.
                    in_force()]), "rejected: after the deadline")
            return self._orders_and_commands(letter, turn, deadline_text)

    def _orders_and_commands(self, letter: Letter, turn: replies.TurnName,
                             deadline_text: str) -> HandledMail:
        game, envelope, mail, player = letter.game, letter.envelope, letter.mail, letter.player
        gid = game.id
        text_raw = hide_password(letter.raw.decode("utf-8", errors="replace"), envelope)
        current = game.book.entry_of(player)
        changed = False
        summary = "commands answered"
        clear = any(c.name == "CLEAR" for c in envelope.commands)
        head = ""
        if clear and not envelope.body:
            game.book.clear(player, raw=text_raw, message_id=mail.message_id,
                            received_at=letter.arrived)
            current = None
            changed = True
            summary = "orders withdrawn"
            head = replies.orders_cleared(gid, turn, deadline_text)
        elif envelope.body:
            try:
                entry = game.ruleset.read_orders(game.open.state, player, list(envelope.body))
                # Conformance (orders.md, Reading rules: CLEAR takes back all): CLEAR beside
                # new orders withdraws the earlier ones first; the new ones stand.
                merged = game.ruleset.merge_orders(None if clear else current, entry)
                game.book.save(player, merged, raw=text_raw, message_id=mail.message_id,
                               received_at=letter.arrived, checked=True)
            except OrderMailError as exc:
                game.book.reject(player, raw=text_raw, message_id=mail.message_id,
                                 received_at=letter.arrived, error=str(exc))
                head = replies.orders_rejected(gid, turn, render_errors(exc), current,
                                               deadline_text)
                summary = "rejected: " + "; ".join(e.summary() for e in exc.errors)[:300]
            else:
                current = merged
                changed = True
                summary = "orders accepted"
                head = replies.orders_accepted(gid, turn, merged, deadline_text, letter.notes)
        sections = letter.sections
        names = {pid: p.name for pid, p in game.settings.players.items() if p.name}
        for command in envelope.commands:
            if command.name == "ORDERS":
                sections.append(replies.orders_shown(gid, turn, current, deadline_text))
            elif command.name == "STATUS":
                sections.append(_status(game, turn))
            elif command.name == "MAP":
                sections.append(game.ruleset.map_reply(game.position, names,
                                                       game.settings.title))
                svg = game.ruleset.render_position_svg(game.position, names)
                if svg is not None:  # the picture of the board beside its text
                    letter.attachments.append(Attachment(
                        f"{gid}-map-{turn.label}.svg", svg.encode(), "image/svg+xml"))
        if not head and not sections:
            sections.append(replies.orders_shown(gid, turn, current, deadline_text))
            sections.append("Your mail held no orders or commands; send HELP to see how "
                            "to write them.")
        elif not head and not any(c.name == "ORDERS" for c in envelope.commands):
            # Conformance (orders.md, Reading rules): every reply shows the sender's
            # complete orders in force and the deadline, also one to HELP, MAP,
            # STATUS or HISTORY alone.
            sections.append(replies.orders_shown(gid, turn, current, deadline_text))
        body = "\n\n".join(part.rstrip() for part in [head, *sections] if part)
        return self._answer(letter, body, summary, changed)

    # ------------------------------------------------------------ sending

    def deliver(self, *, force: bool = False) -> int:
        """Send what waits in the outgoing spool; returns how many went out."""
        # Back-off is wall-clock mechanics, not game time: the spool keeps its own clock.
        report = self.outgoing.deliver(self.sender, force=force)
        return len(report.sent)
