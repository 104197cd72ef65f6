"""Deadlines: take in waiting mail, adjudicate each due game once, mail the reports.

``adjudicate_due`` is what cron runs (``pbmref adjudicate --due``), and the
daemon every round. Waiting mail is taken in first, so orders that reached
the server before the deadline count even when the daemon was down; their
time is the server's arrival time. It also prunes the spools (at most once
an hour: ``Referee.prune_spools``). A game whose files are broken is reported and skipped; the
other games go on. Computer pilots (``replace-player --computer``) get their
orders written just before their game is adjudicated. When the reports wait
long for the pace of the mail provider's limits, the game master is told
once, ahead of them (``tell_reports_take_long``).

Every turn's reports reach every reader once (issue 40): a turn owes its
reports from its adjudication (``pbmref.store.owed``, on disk before the
turn's result) until every copy is on disk in the outgoing spool, which
sends each once. Each run mails what any turn of any game still owes
(``queue_owed_reports``: a run killed in between, however many turns ago),
asking the store's index which games owe, so no other game is opened. A
report that could not be delivered for ``STUCK_AFTER`` (still queued, or
refused for good) is told to the game master, once
(``tell_of_stuck_reports``).
"""

from __future__ import annotations

import hashlib
import logging
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from typing import Any

from pbmref import gm
from pbmref.archive import shown_players, stored_report
from pbmref.base.times import format_duration
from pbmref.gm import Notice
from pbmref.mail.base import Intake
from pbmref.mail.pace import recipients_of
from pbmref.referee import replies
from pbmref.referee.ending import queue_final_report
from pbmref.referee.lateness import send_lateness_notices
from pbmref.referee.nextturn import next_turn_section, reminder_block
from pbmref.referee.pictures import ReportPictures
from pbmref.referee.pipeline import Referee
from pbmref.referee.replies import TurnName
from pbmref.reports.html import render_report_mail
from pbmref.reports.model import TurnReport
from pbmref.reports.notices import correction_section
from pbmref.store import Game, StoreError, TurnRecord, derive_turn_seed

log = logging.getLogger("pbmref.referee")
# Reports that take longer than this to go out, at the pace of the provider's
# limits, are worth a notice to the game master.
REPORTS_TAKE_LONG = timedelta(minutes=15)

# A report still in the outgoing queue this long after it was queued, or
# refused for good, is told to the game master (once each), at most one
# notice each NOTICE_EVERY; the spool is looked at every STUCK_CHECK_EVERY.
STUCK_AFTER = timedelta(hours=6)
STUCK_CHECK_EVERY = timedelta(hours=1)
NOTICE_EVERY = timedelta(days=1)


@dataclass
class DueReport:
    """What one run of the deadline job did."""

    taken_in: int = 0
    adjudicated: list[TurnRecord] = field(default_factory=list)
    broken: dict[str, str] = field(default_factory=dict)  # game id -> why it was skipped
    reminders: int = 0
    sent: int = 0
    pruned: int = 0  # spool entries past their retention, deleted


def fill_computer_orders(referee: Referee, game: Game) -> list[str]:
    """Write orders for computer-played players who have none yet: the game's
    ruleset plays them (``Ruleset.computer_orders``; None leaves a player out,
    for one with nothing to order or a game kind without a computer player)."""
    have = set(game.book.in_force(check=False))
    rng = random.Random(derive_turn_seed(game.settings.seed, game.turn) ^ 0x5EED)
    written = []
    for pid, player in sorted(game.settings.players.items()):
        if not (player.computer and player.active) or pid in have:
            continue
        orders = game.ruleset.computer_orders(game.open.state, pid, rng)
        entry = None if orders is None else game.ruleset.encode_orders(orders)
        if not entry:
            continue
        game.book.save(pid, entry, raw="(written by the computer pilot)",
                       message_id=f"<computer-{game.id}-{game.turn}-{pid}@pbmref>",
                       received_at=referee.clock(), orders=orders)
        written.append(pid)
    return written


def report_readers(game: Game) -> list[tuple[str, tuple[str, ...]]]:
    """Every address that gets the report, with the players it plays (their own
    blocks open its copy); an observer's address plays none."""
    readers: dict[str, list[str]] = {}
    for pid, player in sorted(game.settings.players.items()):
        if player.status == "kicked":
            continue
        for address in player.addresses:
            readers.setdefault(address, []).append(pid)
    for address in game.settings.observers:
        readers.setdefault(address, [])
    return [(address, tuple(pids)) for address, pids in readers.items()]


@dataclass(frozen=True)
class Correction:
    """Why a report is mailed again after ``pbmref rerun`` (the game master's words),
    the report as it was (None: not known), to say what changed, and the dice the
    re-run rolled that the turn had not rolled (V5), by what for."""

    why: str = ""
    before: TurnReport[Any] | None = None
    new_dice: tuple[str, ...] = ()
    # the turn before the open one: the deadline in force now (the game master
    # may have moved it since the turn was played), and the preview of each
    # player's orders already in for the open turn, from the corrected position
    deadline: datetime | None = None
    plans: Mapping[str, tuple[str, ...]] = field(default_factory=dict)


def report_pictures(game: Game, report: TurnReport[Any]) -> ReportPictures:
    """The pictures of a report mail (``Ruleset.render_pictures``: the map, or a
    Diplomacy phase's orders and the board after it), shown inline as light
    PNGs by the HTML part, with a panel for each move: made once a turn, the
    same parts in every reader's mail (``ReportPictures.for_reader`` adds the
    reader's own picture)."""
    ruleset = game.ruleset
    label = ruleset.file_label(report)
    boards = [(p.filename(game.id, label).removesuffix(".svg"), p.caption, p.svg)
              for p in ruleset.render_pictures(report)]
    return ReportPictures(boards, ruleset.render_move_svgs(report),
                          colours=ruleset.picture_colours)


def queue_report(referee: Referee, game: Game, turn: int, text: str | None = None,
                 *, corrected: bool | Correction = False) -> int:
    """Queue the report of ``turn`` to every player and observer, one mail each
    (so no one sees another's address): each copy opens with the reader's own
    block, as text (``format=flowed``) and as HTML with the map inline; the
    pictures are drawn and encoded once for all the copies. Once every copy
    is on disk in the outgoing spool, the turn owes no report
    (``History.reports_queued``)."""
    if (text if text is not None else game.history.report(turn)) is None:
        return 0
    report = stored_report(game, turn)
    ruleset = game.ruleset
    label = ruleset.report_label(report)
    correction = corrected if isinstance(corrected, Correction) else (
        Correction() if corrected else None)
    if correction is not None and correction.deadline is not None:
        report = replace(report, next_deadline=correction.deadline)
    drawn = report_pictures(game, report)
    subject = f"[{game.id}] {label} report" + (" (corrected)" if correction else "")
    shown = shown_players(game)
    archive_url = referee.config.referee.archive_url
    count = 0
    for address, players in report_readers(game):
        readers = shown.readers(players)  # as the report names them (anonymous games)
        # every deadline of the copy in the reader's own time zone (J12)
        zone = game.settings.zone_of(players[0] if players else None)
        doc = ruleset.report_document(replace(report, timezone=zone), readers)
        attachments, pictures = drawn.for_reader(ruleset.reader_focus(report, readers))
        if correction is not None:
            changed = (ruleset.render_changes(correction.before, report, readers)
                       if correction.before is not None else
                       "The account of the turn changed; read it again below.")
            plans = [(p, correction.plans[p]) for p in players if p in correction.plans]
            doc = doc.with_opening([correction_section(label, correction.why, changed,
                                                       correction.new_dice, plans)])
        # Keyed by the copy's text: the same report never goes out twice, a
        # corrected one (after a re-run) does. Each copy is on disk in the queue
        # when this returns, where another run queueing it too finds it. (Its
        # closing part, which counts the time to the deadline, is left out.)
        digest = hashlib.sha256(doc.text().encode()).hexdigest()[:16]
        closing = next_turn_section(game, players, referee.clock(), archive_url, turn)
        doc = doc.with_closing([closing] if closing is not None else [])
        body = doc.flowed()
        html = render_report_mail(doc, title=f"{game.settings.title or game.id}: {label}",
                                  pictures=pictures)
        referee.outgoing.enqueue(
            referee.mail_to(address, subject, body, html=html, attachments=attachments),
            key=f"report:{game.id}:{turn}:{address}:{digest}")
        count += 1
    # every copy queued: the turn owes no report (a run killed before this
    # queues them all again, under their keys)
    game.history.reports_queued(turn)
    return count


def queue_notice(referee: Referee, notice: Notice) -> int:
    """Queue a game master's notice (pause, resume, new deadline) to each address."""
    for address in notice.to:
        referee.outgoing.enqueue(referee.mail_to(address, notice.subject, notice.body),
                                 key=f"notice:{notice.key}:{address}")
    return len(notice.to)


def queue_owed_reports(referee: Referee) -> int:
    """Queue the reports every game still owes: of turns adjudicated by a run
    that died before it queued them, however many turns were played since.
    Only the games the store's index knows to owe reports are opened."""
    count = 0
    for gid in referee.store.index.owing():
        try:
            game = referee.store.open(gid)
            owed = game.history.reports_owed()
            if not owed:  # queued meanwhile by another run: the index follows
                with game.lock():
                    game.reload()
                    game.write_schedule()
            for turn in owed:
                count += queue_report(referee, game, turn)
            if owed:  # the last turn's reports, then the end's (J14; keyed: once)
                queue_final_report(referee, game, [a for a, _ in report_readers(game)])
        except StoreError as exc:  # a broken game: adjudicate_due reports it
            log.error("game %s: reports owed not queued: %s", gid, exc)
    return count


def tell_of_stuck_reports(referee: Referee) -> int:
    """Tell the game master (``referee.game_master``) about reports that could
    not be delivered: still queued ``STUCK_AFTER`` after they were queued, or
    refused for good. Each is told once; a notice goes at most once each
    NOTICE_EVERY (those stuck in between wait for the next). Returns how many
    were told."""
    address = referee.config.referee.game_master
    now = referee.clock()
    if not address or not referee.state.once_per("stuck-checked", "reports", now,
                                                 STUCK_CHECK_EVERY):
        return 0
    stuck = referee.outgoing.stuck("report", STUCK_AFTER)
    ids = [e.id for e in stuck]
    if (not set(ids) - set(referee.state.values("stuck-told", ids))
            or not referee.state.once_per("stuck-notice", address, now, NOTICE_EVERY)):
        return 0  # nothing new, or a notice went within NOTICE_EVERY
    keep = max(referee.config.limits.retention, NOTICE_EVERY)  # as long as the spool keeps them
    new = set(referee.state.first_times("stuck-told", ids, now, keep))
    told = [e for e in stuck if e.id in new]
    lines = [f"{e.meta.get('subject', '')} to {e.meta.get('to', '')}: "
             + (f"refused: {e.meta.get('reason', '')}" if e.state == "failed" else
                f"waiting since {e.created:%Y-%m-%d %H:%M} UTC ("
                + (e.last_error or "held back by the mail provider's limits") + ")")
             for e in told]
    games = sorted({str(e.meta.get("subject", "")).partition("]")[0].lstrip("[")
                    for e in told})
    hours = int(STUCK_AFTER.total_seconds() // 3600)
    referee.outgoing.enqueue(referee.mail_to(
        address, f"[{', '.join(games)}] reports not delivered",
        replies.stuck_reports(lines, f"{hours} hours")),
        key=f"stuck:{hashlib.sha256(' '.join(sorted(new)).encode()).hexdigest()[:16]}")
    log.warning("told the game master of %d report(s) not delivered", len(told))
    return len(told)


def send_reminders(referee: Referee) -> int:
    """Remind players without orders, once per turn, some hours before the deadline.

    A referee that checked before (the daemon's next rounds) asks only about
    the games whose reminder window opened since, and those in their window
    whose index entries changed since (the others were reminded, or had no one
    to remind, at that check)."""
    now = referee.clock()
    count = 0
    index = referee.store.index
    mark = index.mark()
    last = referee.reminders_checked
    if last is None or now < last[1]:
        games = index.reminders_due(now)
    else:
        games = sorted({*index.reminders_opened(last[1], now),
                        *index.reminders_due(now, among=index.changed_since(last[0]))})
    entries = {gid: index.entry(gid) for gid in games}
    reminded = referee.state.values("reminders", games) if games else {}
    for gid in games:
        entry, done = entries.get(gid), reminded.get(gid)
        if (entry is not None and isinstance(done, dict)
                and done.get("turn") == entry.schedule.turn
                and set(entry.schedule.waiting_for) <= set(done.get("players") or ())):
            continue  # everyone it waits for was reminded already
        try:
            game = referee.store.open(gid)
        except StoreError:
            continue
        if game.schedule.reminder_due(now):
            count += _remind_game(referee, gid, game, now)
    referee.reminders_checked = (mark, now)
    return count


def _remind_game(referee: Referee, gid: str, game: Game, now: datetime) -> int:
    """Queue a reminder to each player of ``game`` the turn waits for and who was
    not reminded this turn; how many were queued."""
    s = game.settings
    count = 0
    for pid in game.waiting_for():
        turn = TurnName(game.turn_label, game.ruleset.words_for(game.open.state, pid))
        if not referee.state.remind_once(gid, game.turn, pid):
            continue
        player = s.players[pid]
        body = "\n".join([replies.reminder(gid, turn, replies.when(s.deadline, s.timezone)),
                          "", *reminder_block(game, pid, now)])
        shared = [q for q in s.players.values()
                  if q.id != pid and set(q.addresses) & set(player.addresses)]
        if shared:  # one address flies several pilots: say which one (PILOT)
            body = (f"This reminder is for your pilot {player.name or pid}; "
                    f"write PILOT {pid} in its orders.\n\n{body}")
        for address in player.addresses[:1]:
            referee.outgoing.enqueue(referee.mail_to(
                address, f"[{gid}] reminder: orders for {turn}", body),
                key=f"reminder:{gid}:{game.turn}:{pid}:{address}")
            count += 1
    return count


def tell_reports_take_long(referee: Referee, played: Sequence[TurnRecord]) -> bool:
    """Tell the game master once, ahead of the queue, when the reports of the
    turns just ``played`` wait long for the pace of the mail provider's limits
    (``Pace``); True when told. The pace is wall-clock time, as the spool's."""
    outgoing = referee.outgoing
    if not outgoing.pace.limited:
        return False
    now = datetime.now(UTC)
    queued = outgoing.queued()
    recipients = sum(recipients_of(str(e.meta.get("to", ""))) for e in queued)
    took = outgoing.pace.load(now).eta(mails=len(queued), recipients=recipients, now=now)
    if took < REPORTS_TAKE_LONG:
        return False
    turns = [f"{r.game_id} turn {r.turn}" for r in played]
    limits = referee.config.limits
    words = ", ".join(f"{n} {what}" for n, what in (
        (limits.send_per_minute, "mails a minute"),
        (limits.recipients_per_day, "recipients a day")) if n)
    log.warning("the reports of %s take about %s to go out (%s)", ", ".join(turns),
                format_duration(took), words)
    gm_address = referee.config.referee.game_master
    if not gm_address:
        return False
    body = replies.reports_take_long(turns, len(queued), recipients, format_duration(took),
                                     words)
    outgoing.enqueue(referee.mail_to(gm_address, "[pbmref] reports will take "
                                     f"{format_duration(took)} to go out", body),
                     key="reports-take-long:" + ",".join(f"{r.game_id}/{r.turn}" for r in played),
                     first=True)
    return True


def adjudicate_due(referee: Referee, intake: Intake | None = None, *,
                   games: Iterable[str] | None = None, force: bool = False) -> DueReport:
    """Take in mail, adjudicate every due game (or ``games``) once, mail reports.
    The mails are answered as the daemon answers them (``take_in`` with
    ``send``): each reply goes out once its game is on disk, and only those
    that did not go are flushed in the spool and queued. When a game is due,
    mail is taken in once more before it is adjudicated: what reached the
    server while the first mails were answered, before the deadline, counts."""
    report = DueReport()
    with referee.round():
        if intake is not None:
            report.taken_in = referee.take_in(intake, send=True)
        now = referee.clock()
        wanted = list(games) if games is not None else referee.store.index.due(now)
        if intake is not None and wanted:
            # Mail that reached the server while the first was being answered, before
            # the deadline, counts too: fetched now, after the deadline passed.
            report.taken_in += referee.take_in(intake, send=True)
        for gid in wanted:
            try:
                game = referee.store.open(gid)
                fill_computer_orders(referee, game)
                record = gm.adjudicate(referee.store, gid, now, force=force, game=game)
                if record is None and games is None:
                    # The index had it due, the game itself says not: its state
                    # index was behind its folders (written anew, so it is not
                    # opened again each round).
                    with game.lock():
                        game.reload()
                        game.write_schedule()
            except StoreError as exc:
                log.error("game %s not adjudicated: %s", gid, exc)
                report.broken[gid] = str(exc)
                continue
            if record is None:
                continue
            report.adjudicated.append(record)
            queue_report(referee, game, record.turn, record.report_text)  # one game open
            if record.game_over:  # J14
                queue_final_report(referee, game, [a for a, _ in report_readers(game)])
        queue_owed_reports(referee)
        if report.adjudicated:
            tell_reports_take_long(referee, report.adjudicated)
        report.reminders = send_reminders(referee)
        tell_of_stuck_reports(referee)
        send_lateness_notices(referee)  # J10
        report.sent = referee.deliver()
        report.pruned = referee.prune_spools()
    return report
