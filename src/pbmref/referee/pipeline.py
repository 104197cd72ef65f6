"""The referee's runner: mail in, games changed, answers out.

Order of work for every mail (``shared/spec/referee.md``, "Mail"), in the
manner of Mailman's runners:

1. the raw message is saved in the incoming spool before anything else
   (keyed by its Message-ID; a second copy is recognised);
2. the mail is read and answered: the game is changed (orders stored with
   the raw text and Message-ID) and the replies are queued in the outgoing
   spool;
3. only then is the mail marked handled on the server.

This module is that runner: the rounds, each mail taken from the spool,
handled safely, its replies rationed and queued under keys, the mails marked
and the replies delivered. What one mail does is the other modules' job,
each with one: ``intake`` (who sent it and which game it is for),
``handlers`` (an identified player's mail: orders, password, closed and late
games), ``commands`` (HELP, HISTORY, ORDERS, PLAN, STATUS, MAP), ``press``
(press and votes), ``rations`` (how many replies, to whom), ``answers``
(the reply as a mail) and ``letter`` (the values they hand on). The loop
that runs rounds (IDLE, signals, deadlines) is ``daemon``.

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
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from contextlib import contextmanager, nullcontext
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from typing import Any

from pbmref.base.files import durable_together
from pbmref.config import Config
from pbmref.mail.base import Intake, Sender
from pbmref.mail.compose import Attachment, Mail, make_mail
from pbmref.mail.health import note_round
from pbmref.mail.message import IncomingMail, never_answer_reason, read_message
from pbmref.mail.spool import IncomingSpool, InEntry, OutgoingSpool
from pbmref.referee import answers, kept, rations, replies
from pbmref.referee import intake as mail_intake
from pbmref.referee.courier import Courier
from pbmref.referee.letter import HandledMail, Letter, Twin
from pbmref.referee.notices import tell_set_aside
from pbmref.referee.state import RefereeState
from pbmref.referee.twins import changes_orders
from pbmref.store import GameStore, StoreError
from pbmref.store.index import bare_address

log = logging.getLogger("pbmref.referee")

__all__ = ["HandledMail", "Letter", "Referee", "Twin"]

# The spools are pruned (limits.spool_retention) at most this often, by the
# daemon or a cron run, whichever comes first.
PRUNE_EVERY = timedelta(hours=1)
# The daemon answers a round of more mails than this part by part: each part's
# changes flushed, its replies handed to the courier, which sends them while
# the next part is handled (``process_spool``, ``courier.py``).
ROUND_PART = 25

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

    def reply(self, mail: IncomingMail, to: str, body: str,
              attachments: Sequence[Attachment] = ()) -> Mail:
        """The answer to ``mail`` from this referee (``answers.reply``: cut to
        REPLY_LIMIT, its passwords hidden, boards as pictures)."""
        return answers.reply(mail, to, body, attachments, from_addr=self.address,
                             from_name=self.config.referee.name, date=self.clock())

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
        flushed) is made again, under the same Message-ID (``answers.name_by_key``).
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
        rations.ration(self, result, token=token)
        for n, msg in enumerate(result.replies):
            key = f"{token}:{n}"
            answers.name_by_key(msg, key, self.address)
            self.outgoing.enqueue(msg, key=key)

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
            mine = self.games_of(mail.from_addr)
            if mine:
                self.outgoing.enqueue(self.reply(mail, mail.from_addr, replies.failed(mine[0])),
                                      key=f"failed:{mail.message_id}")
        except Exception:  # the GM sees the shunted mail and this log
            log.exception("could not tell %s that mail %s was set aside", mail.from_addr,
                          mail.message_id)

    # ------------------------------------------------------------ one mail

    def games_of(self, address: str) -> list[str]:
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

    def game_names(self) -> Mapping[str, str]:
        """Every game here by its id's ``casefold`` form (as the store's index knows
        them this round)."""
        with self.round():
            return self.store.index.names()

    def handle(self, mail: IncomingMail, raw: bytes, *, arrived: datetime,
               twins: tuple[Twin, ...] = ()) -> HandledMail:
        """Read one mail and act on it; returns the replies (nothing sent yet).
        ``twins``: the sender's other mails of the same second (``process_spool``);
        the intake's work (``intake.handle``)."""
        return mail_intake.handle(self, mail, raw, arrived=arrived, twins=twins)

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
