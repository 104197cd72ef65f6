"""The handlers: what an identified game's mail does to the game, and its reply.

Given a mail for one game (``Letter``, from ``intake``): the player is told
from the sender and the envelope, the password checked, then the mail is
answered -- a wrong or missing password rationed (``rations``), a closed or
paused game said, a stale or late mail refused with the orders in force, and
otherwise its orders stored (or refused, every mistake listed), its press
relayed and its votes recorded (``press``) and its commands answered
(``commands``). Each path ends in one reply (``answers.answer``) that shows
the sender's orders in force and the deadline.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

from pbmref.base.times import moment
from pbmref.gm.actions import paused_until
from pbmref.mail.compose import TextMail
from pbmref.orders.check import password_line_mistaken
from pbmref.orders.envelope import check_password, check_turn, game_from_subject, identify_player
from pbmref.orders.errors import StaleTurnError, UnknownPlayerError, WrongPasswordError, gather
from pbmref.orders.render import ignored_note, render_error_list, render_errors
from pbmref.referee import commands, questions, rations, replies
from pbmref.referee.answers import answer, errors_text
from pbmref.referee.letter import (
    BodyRead,
    HandledMail,
    Letter,
    addresses,
    deadline_text,
    read_body,
    shown,
    turn_name,
)
from pbmref.referee.press import PressDesk
from pbmref.referee.secrecy import hide_in_errors, reply_secrets, stored_text
from pbmref.store import Game, Schedule, StoreError
from pbmref.store.schedule import grace_end

if TYPE_CHECKING:
    from pbmref.referee.pipeline import Referee

# Commands that show nothing secret: answered without the password.
PUBLIC_COMMANDS = frozenset({"HELP", "STATUS"})


def for_game(referee: Referee, letter: Letter) -> HandledMail:
    """Answer a mail for ``letter.game``: its player told, its password checked."""
    mail, game = letter.mail, letter.game
    sender = mail.from_addr
    gid = game.id
    try:
        letter.player = identify_player(letter.envelope, sender, addresses(game))
    except UnknownPlayerError as exc:
        if not referee.games_of(sender):
            return rations.how_to_join(referee, mail, letter.envelope)
        known = game.settings.player_by_address(sender)
        if known is None:
            return HandledMail([referee.reply(mail, sender, replies.not_registered(gid))],
                               "rejected: not registered", gid)
        if known.status == "kicked":
            return HandledMail([referee.reply(mail, sender, replies.kicked(gid))],
                               "rejected: kicked", gid)
        hide_in_errors(exc, reply_secrets(mail))
        return HandledMail([referee.reply(mail, sender, render_errors(exc))],
                           "rejected: pilot", gid)
    player = game.settings.players[letter.player]
    # Replies go to the registered address, never to an unregistered Reply-To.
    letter.to = sender if sender in {a.lower() for a in player.addresses} else \
        player.addresses[0]
    # The body-wins note, only when the Subject names a game that exists here
    # (a Subject like "orders (utf-8)" names no game at all).
    games_here = referee.game_names()
    subject_game = game_from_subject(mail.subject, games_here)
    if (letter.envelope.game_note and subject_game
            and subject_game.casefold() in games_here):
        letter.notes.append(f"Note: {letter.envelope.game_note}")
    try:
        check_password(letter.envelope,
                       lambda pw: game.settings.check_password(player.id, pw),
                       required=player.password_hash is not None)
    except WrongPasswordError:
        result = without_password(referee, letter)
    else:
        result = identified(referee, letter)
        if player.password_hash is not None:
            result.rations = ()  # its password checked: never withheld
    if letter.notes:
        # Conformance (orders.md, Envelope): when the GAME line overrides the
        # Subject, every reply tells the player, not only one accepting orders.
        for n, msg in enumerate(result.replies):
            text = (msg.plain_text() if isinstance(msg, TextMail)
                    else str(msg.get_body(("plain",)).get_content()))  # type: ignore[union-attr]
            if letter.notes[0] not in text:
                result.replies[n] = referee.reply(mail, letter.to,
                                                  "\n".join(letter.notes) + "\n\n" + text,
                                                  letter.attachments)
    return result


def without_password(referee: Referee, letter: Letter) -> HandledMail:
    """A registered player's mail with a wrong or missing password. Without a
    PASSWORD line, commands that show nothing secret (HELP, HELP <rule>,
    STATUS) are answered; a misspelt PASSWORD line gets every mistake of
    the mail listed. Neither shows the orders in force."""
    game, envelope = letter.game, letter.envelope
    if envelope.password is not None:
        return rations.wrong_password(referee, letter)
    read = read_body(game, envelope, letter.player)
    turn = turn_name(game, letter.player)
    error = read.error
    if error is not None and password_line_mistaken(envelope, read.errors):
        return answer(referee, letter, replies.refused_without_password(
            game.id, turn, errors_text(error, letter.mail)), "rejected: password line")
    wanted = questions.asked(envelope, read.orders, read.errors, PUBLIC_COMMANDS)
    press_reply = questions.answers_press(letter.mail.subject) and not envelope.press
    if wanted is None and press_reply:
        wanted = []  # its words are an answer to press: told how to send it
    if wanted is None:  # orders, press or a command: the password warning
        return rations.wrong_password(referee, letter)
    sections = [ignored_note(read.ignored)] if read.ignored else []
    sections += [commands.help_text(letter, c) if c.name == "HELP"
                 else commands.status(game, turn) for c in wanted]
    if not wanted:  # a question in words: how to write what it wants
        sections += [questions.question_note(game.id, letter.mail.subject),
                     commands.status(game, turn)]
    sections.append(replies.PASSWORD_NEEDED)
    answered = answer(referee, letter, "\n\n".join(s.rstrip() for s in sections),
                      "commands answered without the password")
    if not wanted and not press_reply:
        # words alone (a thank-you, an autoresponder's "I am away"): answered
        # once an hour, as the password warning, so no mail loop runs on it.
        # An answer to press always gets its word (within the replies a
        # player's address has: the loop breaker; auto-replies are never answered).
        answered.rations = rations.password_warned(game.id, letter.player)
    return answered


def identified(referee: Referee, letter: Letter) -> HandledMail:
    """The mail of an identified player (password checked): commands and orders."""
    game, envelope = letter.game, letter.envelope
    gid = game.id
    commands.help_and_history(letter)
    with game.lock():
        # Read the game again under its lock: a turn adjudicated meanwhile
        # makes this mail late, never a change to the next turn.
        game.reload()
        turn, deadline = (turn_name(game, letter.player),
                          deadline_text(game, letter.player))

        def in_force() -> str:
            return shown(game, turn, game.book.entry_of(letter.player), deadline)

        desk = PressDesk(referee, letter)
        if game.settings.status != "open":
            until = paused_until(game)
            resumes = (replies.when(until, game.settings.timezone)
                       if until is not None and until > referee.clock() else None)
            # Press goes in any phase, also while paused; after the end, to all only.
            body = [replies.game_closed(gid, game.settings.status, resumes),
                    *(press_alone(desk) if desk.only_press() else []),
                    *letter.sections]
            if game.settings.status == "paused":
                # Conformance (orders.md, Reading rules): the reply shows the
                # orders that stay in force for when the game resumes.
                body.append(in_force())
            return answer(referee, letter, "\n\n".join(body), f"game {game.settings.status}")
        try:
            check_turn(envelope, turn.label)
        except StaleTurnError:
            asked = envelope.phase or envelope.turn
            assert asked is not None
            # Conformance (orders.md, Reading rules): every reply shows the
            # sender's complete orders in force, also when the mail was stale.
            return answer(referee, letter, "\n\n".join([
                replies.stale_turn(gid, asked, turn, deadline), in_force()]),
                "rejected: stale turn")
        read = read_body(game, envelope, letter.player)
        too_late = late(letter, read, turn, deadline)
        if too_late is not None:
            return answer(referee, letter, "\n\n".join([too_late[0], in_force()]), too_late[1])
        return orders_and_commands(referee, letter, turn, deadline, read, desk)


def press_alone(desk: PressDesk) -> list[str]:
    """A mail of press only: relayed, or its mistakes answered."""
    error = gather(desk.problems())
    if error is not None:
        return [render_error_list(error)]
    return desk.deliver()


def turn_started(game: Game) -> datetime | None:
    """When the open turn began: the adjudication of the turn before it."""
    if game.turn <= 1:
        return None
    try:
        result = game.history.result(game.turn - 1) or {}
    except StoreError:
        return None
    return moment(result.get("adjudicated_at"))


def late(letter: Letter, read: BodyRead, turn: replies.TurnName,
         deadline: str) -> tuple[str, str] | None:
    """(reply, summary) for a mail that wants a change too late, or None."""
    game, arrived = letter.game, letter.arrived
    wants_change = (read.orders is not None or bool(read.errors)
                    or letter.envelope.command("CLEAR") is not None)
    if not wants_change:
        return None
    zone = game.settings.timezone
    started = turn_started(game)
    if started is not None and arrived < started:
        # Conformance (referee.md: a mail whose turn was adjudicated is
        # answered too late, not used, with the new turn's number): it
        # reached the server before the last adjudication but is read only
        # now (a retried or late-fetched mail); it was meant for that turn,
        # never for this one.
        return (replies.missed_turn(game.id, replies.when(arrived, zone), turn, deadline),
                "rejected: its turn was adjudicated before it was read")
    # J10: with a grace period, orders are taken until it ends
    game_deadline = grace_end(game.settings) or game.settings.deadline
    if game_deadline is not None and arrived > game_deadline:
        arrival_text, deadline_then = replies.arrival_and_deadline(arrived, game_deadline, zone)
        # Conformance (orders.md): every reply shows the orders in force.
        return (replies.too_late(game.id, arrival_text, deadline_then, turn),
                "rejected: after the deadline")
    return None


def twin_notes(letter: Letter) -> list[str]:
    """What the reply says when another mail of the player's reached the
    server in the same second: which of them is in force."""
    if not letter.twins:
        return []
    zone = letter.game.settings.timezone

    def sent(at: datetime | None) -> str:
        return replies.when(at, zone, seconds=True) if at is not None else "no date"

    later = [t for t in letter.twins if t.later]
    other = later[0] if later else letter.twins[-1]
    return [replies.same_second(sent(letter.mail.date), sent(other.sent), later=bool(later))]


def orders_and_commands(referee: Referee, letter: Letter, turn: replies.TurnName,
                        deadline: str, read: BodyRead, desk: PressDesk) -> HandledMail:
    """The mail's orders stored (or refused with every mistake, or withdrawn by
    CLEAR), its press relayed and votes recorded, its commands answered."""
    game, envelope, player = letter.game, letter.envelope, letter.player
    gid = game.id
    current, typed = commands.in_force(game, player)
    changed = False
    summary = "commands answered"
    clear = envelope.command("CLEAR") is not None
    head = ""
    # The mail's press and votes are checked with its orders: a mistake in
    # any refuses the whole mail, and one reply lists them all.
    error = gather((*read.errors, *desk.problems()), read.ignored)
    if error is not None:
        if read.orders is not None or read.errors:  # a refused order mail is kept
            game.book.reject(player, raw=raw_text(letter),
                             message_id=letter.mail.message_id,
                             received_at=letter.arrived, error=str(error))
        head = replies.orders_rejected(gid, turn, errors_text(error, letter.mail), current,
                                       deadline, twin_notes(letter))
        summary = "rejected: " + "; ".join(e.summary() for e in error.errors)[:300]
    elif read.orders is not None:
        # Conformance (orders.md, Reading rules: CLEAR takes back all): CLEAR beside
        # new orders withdraws the earlier ones first; the new ones stand.
        current, head = store_orders(referee, letter, turn, deadline, read,
                                     None if clear else typed)
        changed, summary = True, "orders accepted"
    elif clear:
        game.book.clear(player, raw=raw_text(letter),
                        message_id=letter.mail.message_id, received_at=letter.arrived)
        current = None
        changed, summary = True, "orders withdrawn"
        head = replies.orders_cleared(gid, turn, deadline)
    if error is None:
        letter.sections[:0] = desk.deliver()
        deadline = deadline_text(game, player)  # SET ABSENCE may move it (J11)
    sections = commands.sections(letter, turn, current, deadline)
    if read.ignored and error is None and read.orders is None:
        sections.append(ignored_note(read.ignored))
    if not head and not sections:
        sections.append(shown(game, turn, current, deadline))
        sections.append("Your mail held no orders or commands; send HELP to see how "
                        "to write them.")
    elif not head and envelope.command("ORDERS") is None and envelope.command("PLAN") is None:
        # Conformance (orders.md, Reading rules): every reply shows the sender's
        # complete orders in force and the deadline, also one to HELP, MAP,
        # STATUS or HISTORY alone.
        sections.append(shown(game, turn, current, deadline))
    body = "\n\n".join(part.rstrip() for part in [head, *sections] if part)
    return answer(referee, letter, body, summary, changed)


def store_orders(referee: Referee, letter: Letter, turn: replies.TurnName, deadline: str,
                 read: BodyRead, old: object) -> tuple[dict[str, object], str]:
    """The mail's typed orders merged into the ``old`` ones in force (None: none
    or withdrawn), previewed and stored: (the entry in force, the acceptance)."""
    game, player = letter.game, letter.player
    merged = game.ruleset.merge_orders(old, read.orders)
    preview = game.ruleset.preview(game.open.state, player, merged)  # before saving
    entry: dict[str, object] = game.ruleset.encode_orders(merged)
    stored = game.book.save(player, entry, raw=raw_text(letter),
                            message_id=letter.mail.message_id,
                            received_at=letter.arrived, orders=merged)
    return entry, accepted(referee, letter, turn, entry, deadline, read, preview,
                           game.book.schedule_stored_with(stored))


def raw_text(letter: Letter) -> str:
    """The mail as the orders file keeps it: its headers and decoded text, its
    password hidden (``secrecy.stored_text``)."""
    return stored_text(letter.mail, letter.envelope)


def accepted(referee: Referee, letter: Letter, turn: replies.TurnName, entry: dict[str, Any],
             deadline: str, read: BodyRead, preview: list[str],
             schedule: Schedule | None) -> str:
    """The acceptance: the orders in force with their ``preview`` (issue 22),
    what was left out of the mail, and whether the turn is being adjudicated
    now (early adjudication, or a mail taken in at the deadline), from the
    ``schedule`` stored with the orders (the game's as it is now when the
    mail was stored before: ``OrderBook.schedule_stored_with``)."""
    notes = list(letter.notes)
    if read.ignored:
        notes.append(ignored_note(read.ignored))
    notes += twin_notes(letter)
    now = referee.clock()
    if schedule is None:
        schedule = letter.game.schedule
    adjudicating = ""
    if schedule.is_due(now):
        passed = schedule.deadline is not None and schedule.deadline <= now
        adjudicating = replies.adjudicating_now(turn, deadline_passed=passed)
    elif schedule.all_in and schedule.early_at is not None:
        adjudicating = replies.all_orders_in(turn, schedule.early_at,
                                             letter.game.settings.timezone)
    return replies.orders_accepted(letter.game.id, turn, entry, deadline, notes,
                                   preview, adjudicating=adjudicating)
