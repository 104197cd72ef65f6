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
told; it is never lost and never retried for ever. A mail the referee died
while handling is next handled alone, in a round of its own, and set aside
only when the referee dies on it alone again and again (the bound is the
spool's, ``pbmref.mail.spool``): being killed from outside is not the mail's
fault. Whatever a mail holds, it
never stops the round: a failure while telling its sender is logged, and the
other mails are handled. Replies are delivered from the outgoing spool, with
back-off, each once.

Replies are rationed so that nobody can make the referee write without end,
and nobody without a password can silence a player (issue 15):

- a reply to a mail whose password was checked is never withheld;
- the warning about a wrong or missing password goes to the registered
  address once an hour per player; from ``PASSWORD_FLOOD`` such mails within
  an hour on, one summary goes to the player and one notice to the game master
  (a day), and ``pbmref status`` shows the count -- the right password is
  accepted all the while (no lockout);
- the "how to join" note goes to a stranger once a day, to all strangers at
  most ``STRANGER_BUDGET`` times an hour, and is recorded only when sent;
- every other reply counts against ``REPLY_BUDGET`` per address (the loop
  breaker for robots that answer every mail).

No reply repeats a password of the mail it answers (``secrecy``), each
command is answered once per mail, and a reply's text stops at
``REPLY_LIMIT`` characters with a note saying so.
"""

from __future__ import annotations

import hashlib
import logging
import re
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from typing import Any

from pbmref.archive import shown_players, stored_report
from pbmref.base.files import durable_together
from pbmref.base.times import moment
from pbmref.config import Config
from pbmref.gm.actions import paused_until
from pbmref.mail.base import Intake, Sender
from pbmref.mail.compose import Attachment, make_mail, make_reply
from pbmref.mail.health import note_round
from pbmref.mail.message import IncomingMail, never_answer_reason, read_message
from pbmref.mail.spool import IncomingSpool, InEntry, OutgoingSpool
from pbmref.orders.check import password_line_mistaken, read_mail_body
from pbmref.orders.envelope import (
    Command,
    OrderMail,
    check_password,
    check_turn,
    game_from_subject,
    identify_player,
    scan_order_mail,
)
from pbmref.orders.errors import (
    OrderMailError,
    StaleTurnError,
    UnknownPlayerError,
    WrongPasswordError,
    gather,
)
from pbmref.orders.render import ignored_note, render_error_list, render_errors
from pbmref.referee import guide, kept, questions, replies
from pbmref.referee.courier import Courier
from pbmref.referee.notices import tell_set_aside
from pbmref.referee.pictures import map_pictures
from pbmref.referee.press import PressDesk, not_sent
from pbmref.referee.secrecy import (
    hide_in_errors,
    mask,
    mask_reply,
    reply_secrets,
    stored_text,
)
from pbmref.referee.state import Ration, RefereeState
from pbmref.referee.twins import changes_orders
from pbmref.reports.document import Document
from pbmref.reports.html import render_report_mail
from pbmref.reports.status import render_status
from pbmref.store import Game, GameFileError, GameStore, Schedule, StoreError, check_id
from pbmref.store.index import bare_address
from pbmref.store.schedule import grace_end

log = logging.getLogger("pbmref.referee")

# At most this many replies to one address within REPLY_WINDOW: a robot that
# answers every mail without the auto-reply headers (a naive vacation responder)
# and the referee would otherwise write to each other for ever.
REPLY_BUDGET = 30
REPLY_WINDOW = timedelta(hours=1)
# At most this many "how to join" notes in all within REPLY_WINDOW: a flood of
# mail with forged senders must not make the referee a source of backscatter.
STRANGER_BUDGET = 50
# From this many mails with a wrong or missing password for one player within
# REPLY_WINDOW on, they are a flood: no more answers one by one, one summary.
PASSWORD_FLOOD = 5
# The longest text of one reply, in characters: a mail asking for MAP 25,000
# times (or every report there is) gets what fits and a note.
REPLY_LIMIT = 40_000
# Of it, what the answers to commands may take: the rest is for the head, the
# orders in force and the note about what was left out.
_ANSWERS_LIMIT = REPLY_LIMIT - 5_000
# The spools are pruned (limits.spool_retention) at most this often, by the
# daemon or a cron run, whichever comes first.
PRUNE_EVERY = timedelta(hours=1)
# The daemon answers a round of more mails than this part by part: each part's
# changes flushed, its replies handed to the courier, which sends them while
# the next part is handled (``process_spool``, ``courier.py``).
ROUND_PART = 25


def _whole_address(address: str) -> re.Pattern[str]:
    """A pattern finding ``address`` as a whole address, in any case."""
    return re.compile(r"(?<![\w.+-])" + re.escape(address) + r"(?![\w.-])", re.IGNORECASE)


@dataclass
class HandledMail:
    """What handling one mail did: replies to queue and a line for the log.

    ``rations``: what the replies use up (``RefereeState.within_budgets``);
    None means REPLY_BUDGET of each address written to, ``()`` nothing (the
    replies to a mail whose password was checked)."""

    replies: list[EmailMessage] = field(default_factory=list)
    summary: str = ""
    game_id: str | None = None
    changed: bool = False
    rations: tuple[Ration, ...] | None = None


@dataclass(frozen=True)
class Twin:
    """Another mail of the same sender that reached the server in the same
    second: when it was sent (its Date header) and whether it is applied
    after this one (the spool's order)."""

    sent: datetime | None
    later: bool


@dataclass(frozen=True)
class BodyRead:
    """A mail's body as the orders layer read it (``read_mail_body``): the
    orders entry, the greeting and signature lines left out, every error."""

    entry: dict[str, Any] | None = None
    ignored: tuple[tuple[int, str], ...] = ()
    errors: tuple[OrderMailError, ...] = ()

    @property
    def error(self) -> OrderMailError | None:
        """Every error at once (with the lines left out), or None."""
        return gather(self.errors, self.ignored)


# Commands that show nothing secret: answered without the password.
PUBLIC_COMMANDS = frozenset({"HELP", "STATUS"})


@dataclass
class Letter:
    """One order mail for one game, as it is being answered: the mail, its
    envelope, the game it names, and (once known) the player, the registered
    address the reply goes to, notes for the reply, the commands' answers and
    the pictures the reply carries (MAP's board).
    ``press_done``: its press was relayed (a reply without it says it was not)."""

    mail: IncomingMail
    raw: bytes
    arrived: datetime
    envelope: OrderMail
    game: Game
    player: str = ""
    to: str = ""
    notes: list[str] = field(default_factory=list)
    sections: list[str] = field(default_factory=list)
    twins: tuple[Twin, ...] = ()
    attachments: list[Attachment] = field(default_factory=list)
    press_done: bool = False
    left_out: int = 0  # answers that did not fit in REPLY_LIMIT
    size: int = 0  # characters of the answers in ``sections``

    @property
    def commands(self) -> list[Command]:
        """The mail's commands, each once (``MAP`` 25,000 times is one MAP)."""
        once: dict[tuple[str, int | None, str | None, tuple[str, ...]], Command] = {}
        for command in self.envelope.commands:
            once.setdefault((command.name, command.arg, command.rule, command.args), command)
        return list(once.values())

    @property
    def full(self) -> bool:
        """Whether the reply's answers take all the room REPLY_LIMIT leaves them."""
        return self.size >= _ANSWERS_LIMIT

    def add(self, section: str) -> bool:
        """Add one answer to the reply, unless it does not fit (REPLY_LIMIT);
        whether it was added."""
        if self.size + len(section) > _ANSWERS_LIMIT:
            self.left_out += 1
            return False
        self.sections.append(section)
        self.size += len(section)
        return True


def _twins(pending: list[InEntry]) -> list[tuple[Twin, ...]]:
    """For each pending mail, the other pending mails of its sender that reached
    the server in the same second, in the spool's order (the order they were
    sent). One pass over the round's mails, however many there are."""
    groups: dict[tuple[str, datetime], list[int]] = {}
    for n, entry in enumerate(pending):
        if entry.sender:
            groups.setdefault((entry.sender, entry.second), []).append(n)
    twins: list[tuple[Twin, ...]] = [()] * len(pending)
    for places in groups.values():
        places = [n for n in places if changes_orders(pending[n])] if len(places) > 1 else []
        if len(places) > 1:
            for place in places:
                twins[place] = tuple(Twin(pending[n].sent, n > place)
                                     for n in places if n != place)
    return twins


def _rounds(mails: list[tuple[InEntry, tuple[Twin, ...]]]
            ) -> Iterator[tuple[list[tuple[InEntry, tuple[Twin, ...]]], bool]]:
    """The pending mails cut into rounds, in their order: a mail the referee died
    while handling (``InEntry.interrupted``) makes a round of its own, flagged
    ``alone``; the mails between such ones go together."""
    together: list[tuple[InEntry, tuple[Twin, ...]]] = []
    for mail in mails:
        if mail[0].interrupted:
            if together:
                yield together, False
                together = []
            yield [mail], True
        else:
            together.append(mail)
    if together:
        yield together, False


def _name_by_key(msg: EmailMessage, key: str, referee: str) -> None:
    """Give a reply the Message-ID its key names (the answered mail's spool entry,
    itself named by that mail's Message-ID and content, and the reply's place).
    A reply made again after a power cut took the spool's copy of the first is
    then the same message to every mail program, never a second, different one.

    >>> msg = EmailMessage(); msg["Message-ID"] = "<random@x>"
    >>> _name_by_key(msg, "reply:abc:0", "Referee <ref@game.test>"); msg["Message-ID"]
    '<reply-3818ba13fe7cf285e042eb4e1cf4ca4f@game.test>'
    """
    digest = hashlib.sha256(key.encode()).hexdigest()[:32]
    domain = bare_address(referee).rpartition("@")[2] or "localhost"
    msg.replace_header("Message-ID", f"<reply-{digest}@{domain}>")


def _with_pictures(mail: IncomingMail, body: str, attachments: Sequence[Attachment]
                   ) -> tuple[str | None, list[Attachment]]:
    """The HTML version of a reply (None without boards) and its attachments:
    each SVG board shown inline as a light PNG, and attached too: the player
    asked for the board (MAP, HISTORY n), once; the reports, which go to
    everyone every turn, carry no SVG."""
    boards = [(a.filename.removesuffix(".svg"), "the board", a.content.decode())
              for a in attachments if a.mimetype == "image/svg+xml"]
    if not boards:
        return None, list(attachments)
    files, shown = map_pictures(boards, svg=True)
    html = render_report_mail(Document.preformatted(body), title=mail.subject or "pbmref",
                              pictures=shown)
    return html, [*(a for a in attachments if a.mimetype != "image/svg+xml"), *files]


def _turn_name(game: Game, player: str = "") -> replies.TurnName:
    """The open turn as players know it: its number, or for Diplomacy the phase
    (``S1901M``), which ``PHASE`` lines are checked against; with the words of
    the replies to ``player`` (what happens to their side without orders)."""
    words = game.ruleset.words_for(game.open.state, player) if player else game.ruleset.words
    return replies.TurnName(game.turn_label, words)


def _deadline_text(game: Game, player: str = "") -> str:
    """The open turn's deadline in the reader's time zone (J12)."""
    return replies.when(game.settings.deadline, game.settings.zone_of(player))


def _turn_started(game: Game) -> datetime | None:
    """When the open turn began: the adjudication of the turn before it."""
    if game.turn <= 1:
        return None
    try:
        result = game.history.result(game.turn - 1) or {}
    except StoreError:
        return None
    return moment(result.get("adjudicated_at"))


def read_body(game: Game, envelope: OrderMail, player: str) -> BodyRead:
    """The mail's body read for ``player`` on the game's open turn, through the
    orders layer's one path (``read_mail_body``, as ``check_order_mail``):
    greetings and signatures left out, every error found."""
    if not envelope.body:
        return BodyRead()
    state, ruleset = game.open.state, game.ruleset
    entry, ignored, errors = read_mail_body(
        lambda who, lines: ruleset.read_orders(state, who, lines), envelope, player)
    return BodyRead(entry, ignored, tuple(errors))


def _shown(game: Game, player: str, turn: replies.TurnName, entry: dict[str, Any] | None,
           deadline_text: str) -> str:
    """The player's orders in force (or what happens without them) and the deadline."""
    del player  # the turn's words are the player's own (``_turn_name``)
    return replies.orders_shown(game.id, turn, entry, deadline_text)


def _addresses(game: Game) -> dict[str, tuple[str, ...]]:
    """Each player's registered addresses (kicked players left out)."""
    return {pid: tuple(p.addresses) for pid, p in game.settings.players.items()
            if p.status != "kicked"}


def _status(game: Game, turn: replies.TurnName) -> str:
    """The answer to STATUS: the open turn, its deadline, who has orders in and
    who asks the referee to wait (never the orders or the votes), each player
    as the game shows them (``shown_players``)."""
    s = game.settings
    shown = shown_players(game)
    return render_status(
        game_id=game.id, title=s.title, turn=turn.title(), deadline=s.deadline,
        timezone=s.timezone, players=shown.shown_names(),
        sent=shown.readers(game.book.in_force()),
        inactive=shown.readers(p for p, q in s.players.items() if not q.active),
        status=s.status, waits=shown.readers(game.votes.waiting(game.turn)),
        computers=shown.readers(p for p, q in s.players.items() if q.computer),
        owing=shown.readers(game.waiting_for()))




class Referee:
    """Reads order mail, keeps the games, answers every mail that may be answered."""

    def __init__(self, config: Config, *, store: GameStore | None = None,
                 sender: Sender | None = None,
                 clock: Callable[[], datetime] | None = None) -> None:
        from pbmref.mail.factory import open_sender, open_spools

        self.config = config
        # The referee keeps the store's index of the games in its spool folder.
        self.store = store or GameStore(config.games_dir,
                                        index_file=config.spool_dir / "games-index.json")
        self.incoming: IncomingSpool
        self.outgoing: OutgoingSpool
        self.incoming, self.outgoing = open_spools(config)
        self.sender = sender or open_sender(config)
        self.clock = clock or (lambda: datetime.now(UTC))
        self.state = RefereeState.load(config.spool_dir / "referee-state.json")
        self.kept = kept.Kept(config.spool_dir / "kept")
        self._in_round = False
        # the store index's mark and the time when reminders were last looked
        # for (turns)
        self.reminders_checked: tuple[int, datetime] | None = None

    @contextmanager
    def round(self) -> Iterator[None]:
        """One round of work (a daemon's round, one cron run): the games folder is
        looked at once, at its start, for what changed since (a game master's
        edit by hand, a game copied in, another process's change). Rounds nest:
        the outermost one looks."""
        if self._in_round:
            yield
            return
        self.store.index.look()
        self._in_round = True
        try:
            yield
        finally:
            self._in_round = False
            self.store.index.save_now_and_then()
        note_round(self.config.spool_dir, self.clock())

    # ------------------------------------------------------------ addresses

    @property
    def address(self) -> str:
        return self.config.referee.address

    def _reply(self, mail: IncomingMail, to: str, body: str,
               attachments: Sequence[Attachment] = ()) -> EmailMessage:
        """The answer to ``mail``: never longer than REPLY_LIMIT, never repeating
        a password the mail holds (in its text or its Subject). Boards among the
        ``attachments`` (MAP, HISTORY) go as PNG inline in an HTML version of
        the text, and as SVG attached (the player asked for the board)."""
        if len(body) > REPLY_LIMIT:
            body = body[:REPLY_LIMIT].rsplit("\n", 1)[0] + "\n\n" + replies.cut_short(REPLY_LIMIT)
        secrets = self._secrets(mail)
        if secrets:
            body = mask_reply(body, secrets)
            mail = replace(mail, subject=mask(mail.subject, secrets))
        html, attachments = _with_pictures(mail, body, attachments)
        return make_reply(mail, to, body, from_addr=self.address, html=html,
                          from_name=self.config.referee.name, attachments=attachments,
                          date=self.clock())

    @staticmethod
    def _secrets(mail: IncomingMail) -> tuple[str, ...]:
        """The passwords ``mail`` holds (or seems to), never to be repeated."""
        return reply_secrets(mail)

    def _errors(self, errors: OrderMailError | Iterable[OrderMailError],
                mail: IncomingMail) -> str:
        """The errors of a refused mail as reply text (``render_error_list``), its
        passwords hidden."""
        errors = errors if isinstance(errors, OrderMailError) else list(errors)
        hide_in_errors(errors, self._secrets(mail))
        return render_error_list(errors)

    def mail_to(self, to: str | list[str], subject: str, body: str, **kw: Any) -> EmailMessage:
        return make_mail(to, subject, body, from_addr=self.address,
                         from_name=self.config.referee.name, date=self.clock(), **kw)

    # ------------------------------------------------------------ intake

    def take_in(self, intake: Intake, *, send: bool = False) -> int:
        """Fetch waiting mail, spool it, handle it, then mark it handled; returns
        how many mails were handled. With ``send`` the replies go out as soon as
        the round's game changes are on disk, before the mails are marked handled
        (the daemon: the player has the answer a server round trip sooner, and
        only a reply that did not go is flushed in the spool; ``process_spool``)."""
        with self.round():
            # An intake that hands each mail out only once (IMAP) needs the spool's
            # copy on disk before it records the mail handed out: the copies of
            # a fetch reach the disk together at the block's end, and the
            # intake's record waits for that (``then``).
            with durable_together():
                for raw in intake.fetch_new():
                    entry = self.incoming.save(raw, durable=intake.hands_out_once)
                    if entry.duplicate and entry.state != "pending":
                        log.info("mail %s seen before (%s): marked handled again",
                                 entry.message_id, entry.state)
                        intake.mark_handled(raw.key)
            return self.process_spool(intake, send=send)

    def process_spool(self, intake: Intake | None = None, *, send: bool = False) -> int:
        """Handle every pending spooled mail, oldest first.

        The round's mails are answered together, in this order:

        1. (saved raw: ``take_in``, before this);
        2. the games changed and the replies queued, for all the round's mails;
           the game changes reach the disk in one flush at the end
           (``durable_together``);
        3. without ``send`` (a cron run, ``pbmref mail``) the queued replies are
           flushed in that same flush and join the outgoing queue only after it.
           With ``send`` (the daemon) they are held, unflushed, and delivered
           at once (``OutgoingSpool.holding``); only those still queued after
           that (a send failed or was deferred) are flushed and join the queue;
        4. only then are the mails marked answered, marked handled on the
           server and moved to ``done``.

        A mail the referee died while handling (``InEntry.interrupted``) takes
        steps 2 to 4 alone, in its place among the others (``_rounds``): the
        mails before it are answered first, those after it once it is.

        With ``send``, a round of more than ROUND_PART mails takes steps 2 and 3
        part by part: each part's game changes are flushed (its replies held,
        as in step 3), then its replies are handed to the courier, which sends them
        on its own thread over the round's one connection while the next part
        is handled; after the last part it sends what is left, and step 4
        waits for it. Each mail's order is the one above.

        After step 3 each reply is with the server (SMTP took it, or it is
        flushed into the outbox Maildir before the spool records it sent) or
        on disk in the queue, so marking a mail handled loses nothing. Whatever
        kills the referee before that, SIGKILL or a power cut (which also takes
        what was not flushed), the mails are still pending, or still on the
        server, and are handled again: orders are stored once per Message-ID,
        replies are queued under keys and counted against the rations under
        them, a reply recorded sent is not queued again, one held whole in the
        spool's ``tmp/`` is taken over, one whose entry was lost (never
        flushed) is made again, under the same Message-ID (``_name_by_key``).
        So nothing is lost and nothing done twice, except a reply sent whose
        record of it was not yet made or was undone by a power cut: the same
        message goes once more (the duplicate the spool allows)."""
        with self.round(), self.incoming.lock():
            shunted_before = {e.id for e, _ in self.incoming.shunted()}
            pending = self.incoming.pending()
            for entry, _reason in self.incoming.shunted():
                # pending() gave up on it: the referee died while handling it alone,
                # each time. Its sender is told, as after any failure, and it leaves
                # the inbox.
                if entry.id not in shunted_before:
                    self._tell_given_up(entry, intake)
            for mails, alone in _rounds(list(zip(pending, _twins(pending), strict=True))):
                self._answer_round(mails, intake, send=send, alone=alone)
            tell_set_aside(self)
            released = self._release_kept()  # a game repaired: its kept mail now
        return len(pending) + released

    def _answer_round(self, mails: Sequence[tuple[InEntry, tuple[Twin, ...]]],
                      intake: Intake | None, *, send: bool, alone: bool) -> None:
        """Steps 2 to 4 of ``process_spool`` for ``mails`` (``alone``: one mail
        the referee died while handling, in a round of its own)."""
        answered: list[tuple[InEntry, str | None]] = []
        if not send or len(mails) <= ROUND_PART:
            with self.outgoing.holding() if send else nullcontext():
                with durable_together():
                    for entry, twins in mails:
                        answered.append((entry, self._handle_safely(entry, twins, alone)))
                if send:
                    self.deliver()
        else:
            with self.outgoing.holding(), Courier(self.sender, self._deliver_held) as courier:
                for start in range(0, len(mails), ROUND_PART):
                    with durable_together():
                        for entry, twins in mails[start:start + ROUND_PART]:
                            answered.append((entry, self._handle_safely(entry, twins, alone)))
                    courier.hand(self.outgoing.held())
        self._finish(answered, intake)

    def _handle_safely(self, entry: InEntry, twins: tuple[Twin, ...],
                       alone: bool = False) -> str | None:
        """Handle one mail; whatever goes wrong, the round goes on (the spool
        keeps the mail, and retries or sets it aside)."""
        try:
            return self._handle_entry(entry, twins, alone)
        except Exception:  # one mail never stops the round; it is logged
            log.exception("mail %s: handling and recording its failure failed; it stays "
                          "in the spool", entry.message_id)
            return None

    def _mark(self, intake: Intake | None, entries: Sequence[InEntry]) -> None:
        """Mark (move) the mails on the server, together; the spool has them, so a
        failure here only leaves them there until a later round marks them again."""
        keys = [e.intake_key for e in entries if e.intake_key]
        if intake is None or not keys:
            return
        try:
            intake.mark_handled(*keys)
        except Exception:  # the spool has them: they are safe
            log.warning("could not mark %s handled on the server", ", ".join(keys),
                        exc_info=True)

    def _handle_entry(self, entry: InEntry, twins: tuple[Twin, ...] = (),
                      alone: bool = False) -> str | None:
        """Answer one spooled mail: the game changed, the replies queued (put on
        disk with the round's others). Returns the summary for the log, None when
        the mail failed (its failure is recorded; it is tried again next round,
        or set aside once its attempts are used up). The try is counted first
        (``alone``: in a round of its own) and its end noted once the replies
        are queued: a death in between is one while handling this mail."""
        if entry.answered:
            return ""  # answered before a crash; only marking it was left
        entry = self.incoming.begin(entry, alone=alone)
        mail: IncomingMail | None = None
        try:
            raw = entry.raw()
            mail = read_message(raw, max_bytes=self.config.limits.max_message_bytes,
                                size=entry.size)
            result = self.handle(mail, raw, arrived=entry.arrived, twins=twins)
            self._queue_replies(result, f"reply:{entry.id}")
            self.incoming.handled(entry)
            log.info("mail %s from %s: %s", mail.message_id, mail.from_addr, result.summary)
            return result.summary
        except Exception as exc:  # set aside, never lost, never a loop
            reason = f"{type(exc).__name__}: {exc}"
            log.exception("mail %s failed", entry.message_id)
            if self.incoming.failed(entry, reason):
                self._tell_failed(mail)
            return None

    def _finish(self, answered: Sequence[tuple[InEntry, str | None]],
                intake: Intake | None) -> None:
        """After the round's flush: note each mail answered, mark them all on the
        server (one command), then call them done. Marking comes before
        ``done``: a crash in between leaves the entries pending, so the next
        round handles them again (nothing twice: each is noted answered) and
        marks them; the other way round, a crash could leave a handled mail in
        the server's inbox for good. A failed mail (summary None) is marked too:
        the spool keeps it for the next try."""
        for entry, summary in answered:
            if summary:
                self.incoming.mark_answered(entry)
        self._mark(intake, [entry for entry, _ in answered])
        for entry, summary in answered:
            if summary is not None:
                self.incoming.done(entry)

    def _ration(self, result: HandledMail, token: str | None = None) -> None:
        """Withhold the replies when what they use up is used up (HandledMail.rations)."""
        rations = result.rations
        if rations is None:
            to = dict.fromkeys(str(m.get("To", "")).strip().lower() for m in result.replies)
            rations = tuple(Ration("replies", a, REPLY_BUDGET, REPLY_WINDOW) for a in to)
        if not result.replies or not rations:
            return
        if not self.state.within_budgets(self.clock(), rations, token=token):
            log.warning("not answering %s: %s used up (a mail loop, or a flood?)",
                        ", ".join(str(m.get("To", "")) for m in result.replies),
                        ", ".join(f"{r.kind} {r.key}" for r in rations))
            result.summary += "; reply withheld: " + ", ".join(r.kind for r in rations) + \
                " used up"
            result.replies = []

    def _tell_given_up(self, entry: InEntry, intake: Intake | None) -> None:
        try:
            mail = read_message(entry.raw(), max_bytes=self.config.limits.max_message_bytes,
                                size=entry.size)
            self._tell_failed(mail)
            if intake is not None and entry.intake_key:
                intake.mark_handled(entry.intake_key)
        except Exception:  # telling is a courtesy; the GM sees the shunt
            log.warning("could not tell the sender of set-aside mail %s", entry.message_id,
                        exc_info=True)

    def _tell_failed(self, mail: IncomingMail | None) -> None:
        """Tell the sender that their mail was set aside (registered senders only).
        Telling is a courtesy: when it fails too, that is logged and the round goes on."""
        if mail is None or never_answer_reason(mail, [self.address]):
            return
        try:
            mine = self._games_of(mail.from_addr)
            if mine:
                self.outgoing.enqueue(self._reply(mail, mail.from_addr, replies.failed(mine[0])),
                                      key=f"failed:{mail.message_id}")
        except Exception:  # the GM sees the shunted mail and this log
            log.exception("could not tell %s that mail %s was set aside", mail.from_addr,
                          mail.message_id)

    # ------------------------------------------------------------ one mail

    def _games_of(self, address: str) -> list[str]:
        """The games in which ``address`` is a registered player: those the store's
        index names, each opened to be sure."""
        out = []
        with self.round():
            candidates = self.store.index.games_of(bare_address(address))
        for gid in candidates:
            try:
                game = self.store.open(gid)
            except Exception:  # noqa: BLE001 - a broken game does not stop the others
                continue
            if game.settings.player_by_address(address) is not None:
                out.append(gid)
        return out

    def _game_names(self) -> Mapping[str, str]:
        """Every game here by its id's ``casefold`` form (as the store's index knows
        them this round)."""
        with self.round():
            return self.store.index.names()

    def handle(self, mail: IncomingMail, raw: bytes, *, arrived: datetime,
               twins: tuple[Twin, ...] = ()) -> HandledMail:
        """Read one mail and act on it; returns the replies (nothing sent yet).
        ``twins``: the sender's other mails of the same second (``process_spool``)."""
        why = never_answer_reason(mail, [self.address])
        if why:
            return HandledMail(summary=f"not answered: {why}")
        sender = mail.from_addr
        if mail.oversized or mail.unread:
            if self._games_of(sender):
                words = (replies.oversized(self.config.limits.max_message_bytes)
                         if mail.oversized else replies.unread(mail.unread))
                return HandledMail([self._reply(mail, sender, words)],
                                   "refused: " + ("oversized" if mail.oversized else "unread"))
            return self._unknown_sender(mail)
        envelope, envelope_errors = scan_order_mail(mail.subject, mail.text)
        if envelope.for_lobby:  # LIST, JOIN, OBSERVE, TAKEOVER, CONFIRM (J1-J7)
            from pbmref.referee import lobby  # it builds on this module

            return lobby.answer(self, mail, envelope, envelope_errors)
        if envelope_errors:
            if not self._games_of(sender):
                return self._unknown_sender(mail)
            return self._envelope_refused(mail, envelope, envelope_errors)
        game_id = self._pick_game(envelope, sender)
        if game_id is None:
            mine = self._games_of(sender)
            if not mine:
                return self._unknown_sender(mail, envelope)
            return HandledMail([self._reply(mail, sender, replies.unknown_game(
                envelope.game_id, mine))], "rejected: unknown game")
        try:
            game = self.store.open(game_id)
        except StoreError as exc:
            log.error("game %s cannot be opened: %s", game_id, exc)
            if not self._games_of(sender) and not self._registered_in_dir(game_id, sender):
                return self._unknown_sender(mail)
            return self._kept(mail, raw, arrived, sender, game_id, exc)
        letter = Letter(mail, raw, arrived, envelope, game, twins=twins)
        try:
            return self._handle_for_game(letter)
        except GameFileError as exc:  # e.g. an orders file the game master broke
            log.error("game %s cannot take orders: %s", game_id, exc)
            player = game.settings.player_by_address(sender)
            to = player.addresses[0] if player is not None else sender
            return self._kept(mail, raw, arrived, to, game_id, exc)

    def _kept(self, mail: IncomingMail, raw: bytes, arrived: datetime, to: str,
              game_id: str, exc: StoreError) -> HandledMail:
        """A mail for a game that cannot be read: kept until the game master
        repairs it, who is told once (``referee.kept``)."""
        count = self.kept.keep(game_id, mail.message_id, raw, arrived)
        notes = [self._reply(mail, to, kept.player_reply(game_id))]
        gm_address = self.config.referee.game_master
        if gm_address and self.kept.first_told(game_id, str(exc)):
            notes.append(self.mail_to(gm_address, f"[{game_id}] the game cannot be read",
                                      kept.gm_notice(game_id, str(exc), count)))
        return HandledMail(notes, f"kept: game {game_id} unavailable: {exc}", game_id)

    def _release_kept(self) -> int:
        """Handle the kept mails of every game that reads again; how many."""
        count = 0
        for game_id in self.kept.games():
            try:
                self.store.open(game_id)
            except StoreError:
                continue  # not repaired yet
            for held in self.kept.mails(game_id):
                mail = read_message(held.raw, max_bytes=self.config.limits.max_message_bytes)
                with durable_together():
                    result = self.handle(mail, held.raw, arrived=held.arrived)
                    if result.summary.startswith("kept:"):
                        break  # a file it needs is still broken: the next round
                    self._queue_replies(result, f"kept:{held.name}")
                held.drop()
                count += 1
                log.info("kept mail %s from %s: %s", mail.message_id, mail.from_addr,
                         result.summary)
            else:
                self.kept.released(game_id)
        return count

    def _queue_replies(self, result: HandledMail, token: str) -> None:
        """Queue a handled mail's replies under keys made of ``token``: handling
        the mail again after a crash queues nothing twice, and counts nothing
        twice against the rations."""
        self._ration(result, token=token)
        for n, msg in enumerate(result.replies):
            key = f"{token}:{n}"
            _name_by_key(msg, key, self.address)
            self.outgoing.enqueue(msg, key=key)

    def _envelope_refused(self, mail: IncomingMail, envelope: OrderMail,
                          errors: list[OrderMailError]) -> HandledMail:
        """A mail whose envelope has a mistake (a bad GAME or PASSWORD line): when
        its game and player can still be told, every mistake of the body too, and
        with the password the orders in force (orders.md: every reply shows them;
        they stay secret from anyone without the password); else the envelope's
        mistakes alone."""
        sender = mail.from_addr
        told = self._identify(envelope, sender)
        if told is None:
            return HandledMail([self._reply(mail, sender, replies.mail_refused(
                self._errors(errors, mail)))], "rejected: envelope")
        game, player_id = told
        player = game.settings.players[player_id]
        try:
            check_password(envelope, lambda pw: game.settings.check_password(player_id, pw),
                           required=player.password_hash is not None)
        except OrderMailError:
            if not password_line_mistaken(envelope, errors):
                return HandledMail([self._reply(mail, sender, replies.mail_refused(
                    self._errors(errors, mail)))], "rejected: envelope")
            secret = True  # the PASSWORD line itself is the mistake: list, show nothing
        else:
            secret = False
        read = read_body(game, envelope, player_id)
        every = gather([*errors, *read.errors], read.ignored)
        assert every is not None  # the envelope's errors are there
        turn = _turn_name(game, player_id)
        if secret:
            body = replies.refused_without_password(game.id, turn, self._errors(every, mail))
        else:
            body = replies.orders_rejected(game.id, turn, self._errors(every, mail),
                                           game.book.entry_of(player_id), _deadline_text(game, player_id))
        # with its password checked, the refusal is never withheld
        checked = not secret and player.password_hash is not None
        return HandledMail([self._reply(mail, sender, body)], "rejected: envelope", game.id,
                           rations=() if checked else None)

    def _identify(self, envelope: OrderMail, sender: str) -> tuple[Game, str] | None:
        """The game and player of a mail whose envelope has an error, when both can
        still be told from it."""
        game_id = self._pick_game(envelope, sender)
        if game_id is None:
            return None
        try:
            game = self.store.open(game_id)
            return game, identify_player(envelope, sender, _addresses(game))
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
            return self._game_names().get(envelope.game_id.casefold())
        mine = self._games_of(sender)
        return mine[0] if len(mine) == 1 else None

    def _unknown_sender(self, mail: IncomingMail,
                        envelope: OrderMail | None = None) -> HandledMail:
        """The how-to-join note (with how an order mail looks when the mail asked
        for HELP); it quotes nothing of the stranger's mail."""
        sender = mail.from_addr
        body = replies.how_to_join(self.address)
        if envelope is not None and envelope.command("HELP") is not None:
            body += "\n\n" + guide.stranger_help()
        # once a day per address, STRANGER_BUDGET an hour in all; recorded only when
        # it is sent (_ration)
        return HandledMail([self._reply(mail, sender, body)],
                           "unknown sender: told how to join", rations=(
                               Ration("joined", sender, 1, timedelta(days=1)),
                               Ration("strangers", "*", STRANGER_BUDGET, REPLY_WINDOW),
                               Ration("replies", sender, REPLY_BUDGET, REPLY_WINDOW)))

    def _answer(self, letter: Letter, body: str, summary: str,
                changed: bool = False) -> HandledMail:
        """The one reply to an identified player's mail (saying so when the mail's
        press was not relayed)."""
        if letter.envelope.press and not letter.press_done:
            body = f"{body.rstrip()}\n\n{not_sent(len(letter.envelope.press))}"
        return HandledMail([self._reply(letter.mail, letter.to, body, letter.attachments)],
                           summary, letter.game.id, changed)

    def _handle_for_game(self, letter: Letter) -> HandledMail:
        mail, game = letter.mail, letter.game
        sender = mail.from_addr
        gid = game.id
        try:
            letter.player = identify_player(letter.envelope, sender, _addresses(game))
        except UnknownPlayerError as exc:
            if not self._games_of(sender):
                return self._unknown_sender(mail, letter.envelope)
            known = game.settings.player_by_address(sender)
            if known is None:
                return HandledMail([self._reply(mail, sender, replies.not_registered(gid))],
                                   "rejected: not registered", gid)
            if known.status == "kicked":
                return HandledMail([self._reply(mail, sender, replies.kicked(gid))],
                                   "rejected: kicked", gid)
            hide_in_errors(exc, self._secrets(mail))
            return HandledMail([self._reply(mail, sender, render_errors(exc))],
                               "rejected: pilot", gid)
        player = game.settings.players[letter.player]
        # Replies go to the registered address, never to an unregistered Reply-To.
        letter.to = sender if sender in {a.lower() for a in player.addresses} else \
            player.addresses[0]
        # The body-wins note, only when the Subject names a game that exists here
        # (a Subject like "orders (utf-8)" names no game at all).
        games_here = self._game_names()
        subject_game = game_from_subject(mail.subject, games_here)
        if (letter.envelope.game_note and subject_game
                and subject_game.casefold() in games_here):
            letter.notes.append(f"Note: {letter.envelope.game_note}")
        try:
            check_password(letter.envelope,
                           lambda pw: game.settings.check_password(player.id, pw),
                           required=player.password_hash is not None)
        except WrongPasswordError:
            result = self._without_password(letter)
        else:
            result = self._identified(letter)
            if player.password_hash is not None:
                result.rations = ()  # its password checked: never withheld
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

    def _help(self, letter: Letter, command: Command) -> str:
        """The answer to HELP (for the player's own game and turn) or HELP <rule>."""
        if command.rule is not None:
            return guide.rule_reply(command.rule)
        return guide.help_text(letter.game, letter.player)

    def _without_password(self, letter: Letter) -> HandledMail:
        """A registered player's mail with a wrong or missing password. Without a
        PASSWORD line, commands that show nothing secret (HELP, HELP <rule>,
        STATUS) are answered; a misspelt PASSWORD line gets every mistake of
        the mail listed. Neither shows the orders in force."""
        game, envelope = letter.game, letter.envelope
        if envelope.password is not None:
            return self._wrong_password(letter)
        read = read_body(game, envelope, letter.player)
        turn = _turn_name(game, letter.player)
        error = read.error
        if error is not None and password_line_mistaken(envelope, read.errors):
            return self._answer(letter, replies.refused_without_password(
                game.id, turn, self._errors(error, letter.mail)), "rejected: password line")
        wanted = questions.asked(envelope, read.entry, read.errors, PUBLIC_COMMANDS)
        if wanted is None:  # orders, press or a command: the password warning
            return self._wrong_password(letter)
        sections = [ignored_note(read.ignored)] if read.ignored else []
        sections += [self._help(letter, c) if c.name == "HELP" else _status(game, turn)
                     for c in wanted]
        if not wanted:  # a question in words: how to write what it wants
            sections += [questions.question_note(game.id, letter.mail.subject),
                         _status(game, turn)]
        sections.append(replies.PASSWORD_NEEDED)
        answer = self._answer(letter, "\n\n".join(s.rstrip() for s in sections),
                              "commands answered without the password")
        if not wanted:
            # words alone (a thank-you, an autoresponder's "I am away"): answered
            # once an hour, as the password warning, so no mail loop runs on it
            answer.rations = (Ration("password-warned", f"{game.id}/{letter.player}", 1,
                                     REPLY_WINDOW),)
        return answer

    def _wrong_password(self, letter: Letter) -> HandledMail:
        """A mail for a player with a wrong or missing password: counted for the
        GM (``pbmref status``); the player is warned once an hour, and from
        PASSWORD_FLOOD such mails within an hour on the player gets one summary and
        the game master one notice a day instead."""
        gid, pid, sender = letter.game.id, letter.player, letter.mail.from_addr
        now = self.clock()
        count = self.state.password_failure(gid, pid, sender, now)
        if count < PASSWORD_FLOOD:
            warning = self._answer(letter, replies.wrong_password(gid, sender),
                                   "rejected: wrong password")
            warning.rations = (Ration("password-warned", f"{gid}/{pid}", 1, REPLY_WINDOW),)
            return warning
        summary = f"rejected: wrong password, {count} for {pid} within an hour"
        notes = [self.mail_to(letter.to, f"[{gid}] mails with a wrong password",
                              replies.password_flood(gid, pid, count))]
        gm_address = self.config.referee.game_master
        if gm_address:
            notes.append(self.mail_to(gm_address, f"[{gid}] wrong passwords for {pid}",
                                      replies.password_flood_gm(gid, pid, count, sender)))
        return HandledMail(notes, summary, gid, rations=(
            Ration("password-flood", f"{gid}/{pid}", 1, timedelta(days=1)),))

    def _attach_turn(self, letter: Letter, turn: int) -> None:
        """The pictures of a played turn beside its report (HISTORY), each once."""
        game = letter.game
        report = stored_report(game, turn)
        label = game.ruleset.file_label(report)
        have = {a.filename for a in letter.attachments}
        letter.attachments += [
            Attachment(p.filename(game.id, label), p.svg.encode(), "image/svg+xml")
            for p in game.ruleset.render_pictures(report) if p.filename(game.id, label) not in have]

    def _identified(self, letter: Letter) -> HandledMail:
        """The mail of an identified player (password checked): commands and orders."""
        game, envelope = letter.game, letter.envelope
        gid = game.id
        for command in letter.commands:
            if command.name not in ("HELP", "HISTORY"):
                continue
            if letter.full:
                letter.left_out += 1
            elif command.name == "HELP":
                letter.add(self._help(letter, command))
            else:
                wanted = command.arg or max(1, game.turn - 1)
                text = game.history.report(wanted) if game.history.is_adjudicated(wanted) \
                    else None
                letter.add(text or f"There is no report of turn {wanted} yet.")
                if text is not None:  # the turn's pictures, as its report mail had them
                    self._attach_turn(letter, wanted)
        with game.lock():
            # Read the game again under its lock: a turn adjudicated meanwhile
            # makes this mail late, never a change to the next turn.
            game.reload()
            turn, deadline_text = (_turn_name(game, letter.player),
                                   _deadline_text(game, letter.player))

            def in_force() -> str:
                return _shown(game, letter.player, turn, game.book.entry_of(letter.player),
                              deadline_text)

            desk = PressDesk(self, letter)
            if game.settings.status != "open":
                until = paused_until(game)
                resumes = (replies.when(until, game.settings.timezone)
                           if until is not None and until > self.clock() else None)
                # Press goes in any phase, also while paused; after the end, to all only.
                body = [replies.game_closed(gid, game.settings.status, resumes),
                        *(self._press_alone(desk) if desk.only_press() else []),
                        *letter.sections]
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
            read = read_body(game, envelope, letter.player)
            late = self._late(letter, read, turn, deadline_text)
            if late is not None:
                return self._answer(letter, "\n\n".join([late[0], in_force()]), late[1])
            return self._orders_and_commands(letter, turn, deadline_text, read, desk)

    @staticmethod
    def _press_alone(desk: PressDesk) -> list[str]:
        """A mail of press only: relayed, or its mistakes answered."""
        error = gather(desk.problems())
        if error is not None:
            return [render_error_list(error)]
        return desk.deliver()

    def _late(self, letter: Letter, read: BodyRead, turn: replies.TurnName,
              deadline_text: str) -> tuple[str, str] | None:
        """(reply, summary) for a mail that wants a change too late, or None."""
        game, arrived = letter.game, letter.arrived
        wants_change = (read.entry is not None or bool(read.errors)
                        or letter.envelope.command("CLEAR") is not None)
        if not wants_change:
            return None
        zone = game.settings.timezone
        started = _turn_started(game)
        if started is not None and arrived < started:
            # Conformance (referee.md: a mail whose turn was adjudicated is
            # answered too late, not used, with the new turn's number): it
            # reached the server before the last adjudication but is read only
            # now (a retried or late-fetched mail); it was meant for that turn,
            # never for this one.
            return (replies.missed_turn(game.id, replies.when(arrived, zone), turn,
                                        deadline_text),
                    "rejected: its turn was adjudicated before it was read")
        # J10: with a grace period, orders are taken until it ends
        deadline = grace_end(game.settings) or game.settings.deadline
        if deadline is not None and arrived > deadline:
            arrival_text, deadline_then = replies.arrival_and_deadline(arrived, deadline, zone)
            # Conformance (orders.md): every reply shows the orders in force.
            return (replies.too_late(game.id, arrival_text, deadline_then, turn),
                    "rejected: after the deadline")
        return None

    def _twin_notes(self, letter: Letter) -> list[str]:
        """What the reply says when another mail of the player's reached the
        server in the same second: which of them is in force."""
        if not letter.twins:
            return []
        zone = letter.game.settings.timezone

        def sent(at: datetime | None) -> str:
            return replies.when(at, zone, seconds=True) if at is not None else "no date"

        later = [t for t in letter.twins if t.later]
        other = later[0] if later else letter.twins[-1]
        return [replies.same_second(sent(letter.mail.date), sent(other.sent),
                                    later=bool(later))]

    def _orders_and_commands(self, letter: Letter, turn: replies.TurnName,
                             deadline_text: str, read: BodyRead,
                             desk: PressDesk) -> HandledMail:
        game, envelope, player = letter.game, letter.envelope, letter.player
        gid = game.id
        current = game.book.entry_of(player)
        changed = False
        summary = "commands answered"
        clear = envelope.command("CLEAR") is not None
        head = ""
        # The mail's press and votes are checked with its orders: a mistake in
        # any refuses the whole mail, and one reply lists them all.
        error = gather((*read.errors, *desk.problems()), read.ignored)
        if error is not None:
            if read.entry is not None or read.errors:  # a refused order mail is kept
                game.book.reject(player, raw=self._raw_text(letter),
                                 message_id=letter.mail.message_id,
                                 received_at=letter.arrived, error=str(error))
            head = replies.orders_rejected(gid, turn, self._errors(error, letter.mail), current,
                                           deadline_text, self._twin_notes(letter))
            summary = "rejected: " + "; ".join(e.summary() for e in error.errors)[:300]
        elif read.entry is not None:
            # Conformance (orders.md, Reading rules: CLEAR takes back all): CLEAR beside
            # new orders withdraws the earlier ones first; the new ones stand.
            current = game.ruleset.merge_orders(None if clear else current, read.entry)
            preview = game.ruleset.preview(game.open.state, player, current)  # before saving
            stored = game.book.save(player, current, raw=self._raw_text(letter),
                                    message_id=letter.mail.message_id,
                                    received_at=letter.arrived, checked=True)
            changed, summary = True, "orders accepted"
            head = self._accepted(letter, turn, current, deadline_text, read, preview,
                                  game.book.schedule_stored_with(stored))
        elif clear:
            game.book.clear(player, raw=self._raw_text(letter),
                            message_id=letter.mail.message_id, received_at=letter.arrived)
            current = None
            changed, summary = True, "orders withdrawn"
            head = replies.orders_cleared(gid, turn, deadline_text)
        if error is None:
            letter.sections[:0] = desk.deliver()
            deadline_text = _deadline_text(game, player)  # SET ABSENCE may move it (J11)
        sections = self._command_sections(letter, turn, current, deadline_text)
        if read.ignored and error is None and read.entry is None:
            sections.append(ignored_note(read.ignored))
        if not head and not sections:
            sections.append(_shown(game, player, turn, current, deadline_text))
            sections.append("Your mail held no orders or commands; send HELP to see how "
                            "to write them.")
        elif not head and envelope.command("ORDERS") is None and envelope.command("PLAN") is None:
            # Conformance (orders.md, Reading rules): every reply shows the sender's
            # complete orders in force and the deadline, also one to HELP, MAP,
            # STATUS or HISTORY alone.
            sections.append(_shown(game, player, turn, current, deadline_text))
        body = "\n\n".join(part.rstrip() for part in [head, *sections] if part)
        return self._answer(letter, body, summary, changed)

    def _raw_text(self, letter: Letter) -> str:
        """The mail as the orders file keeps it: its headers and decoded text, its
        password hidden (``secrecy.stored_text``)."""
        return stored_text(letter.mail, letter.envelope)

    def _accepted(self, letter: Letter, turn: replies.TurnName, entry: dict[str, Any],
                  deadline_text: str, read: BodyRead, preview: list[str],
                  schedule: Schedule | None) -> str:
        """The acceptance: the orders in force with their ``preview`` (issue 22),
        what was left out of the mail, and whether the turn is being adjudicated
        now (early adjudication, or a mail taken in at the deadline), from the
        ``schedule`` stored with the orders (the game's as it is now when the
        mail was stored before: ``OrderBook.schedule_stored_with``)."""
        notes = list(letter.notes)
        if read.ignored:
            notes.append(ignored_note(read.ignored))
        notes += self._twin_notes(letter)
        now = self.clock()
        if schedule is None:
            schedule = letter.game.schedule
        adjudicating = ""
        if schedule.is_due(now):
            passed = schedule.deadline is not None and schedule.deadline <= now
            adjudicating = replies.adjudicating_now(turn, deadline_passed=passed)
        elif schedule.all_in and schedule.early_at is not None:
            adjudicating = replies.all_orders_in(turn, schedule.early_at,
                                                 letter.game.settings.timezone)
        return replies.orders_accepted(letter.game.id, turn, entry, deadline_text, notes,
                                       preview, adjudicating=adjudicating)

    def _command_sections(self, letter: Letter, turn: replies.TurnName,
                          current: dict[str, Any] | None, deadline_text: str) -> list[str]:
        """HELP and HISTORY answered already, then ORDERS, PLAN, STATUS and MAP."""
        game, player = letter.game, letter.player
        sections = letter.sections
        for command in letter.commands:
            if command.name not in ("ORDERS", "PLAN", "STATUS", "MAP"):
                continue
            if letter.full:
                letter.left_out += 1
            elif command.name == "ORDERS":
                letter.add(_shown(game, player, turn, current, deadline_text))
            elif command.name == "STATUS":
                letter.add(_status(game, turn))
            elif command.name == "PLAN":
                letter.add(replies.orders_planned(
                    game.id, turn, current, deadline_text,
                    game.ruleset.preview(game.open.state, player, current)))
            elif letter.add(game.ruleset.map_reply(*self._board(game), game.settings.title)):
                # MAP is answered once a mail (Letter.commands), its picture with it
                svg = game.ruleset.render_position_svg(*self._board(game))
                if svg is not None:  # the picture of the board beside its text
                    letter.attachments.append(Attachment(
                        f"{game.id}-map-{turn.label}.svg", svg.encode(), "image/svg+xml"))
        if letter.left_out:
            sections.append(replies.left_out(letter.left_out, REPLY_LIMIT))
        return sections

    @staticmethod
    def _board(game: Game) -> tuple[dict[str, Any], dict[str, str]]:
        """The open position and the names of its players, as players are shown them."""
        shown = shown_players(game)
        return shown.position(game.position), shown.shown_names()

    # ------------------------------------------------------------ sending

    def prune_spools(self) -> int:
        """Delete what the spools keep beyond ``limits.spool_retention`` (records of
        handled and sent mail, mails set aside or failed), at most once every
        PRUNE_EVERY; returns how many entries went."""
        if not self.state.once_per("pruned", "spools", self.clock(), PRUNE_EVERY):
            return 0
        retention = self.config.limits.retention
        gone = self.incoming.prune(retention) + self.outgoing.prune(retention)
        if gone:
            log.info("pruned %d spool entries older than %s", gone,
                     self.config.limits.spool_retention)
        return gone

    def _deliver_held(self, ids: Collection[str] | None) -> None:
        """The courier's delivery: the held replies ``ids`` (None: every one) and
        the queue's due mails, oldest first."""
        self.outgoing.deliver(self.sender, held=ids)

    def deliver(self, *, force: bool = False) -> int:
        """Send what waits in the outgoing spool; returns how many went out."""
        # Back-off is wall-clock mechanics, not game time: the spool keeps its own clock.
        report = self.outgoing.deliver(self.sender, force=force)
        return len(report.sent)
