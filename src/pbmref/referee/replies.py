"""The words of the referee's replies: short, plain, fit for a phone.

Every function returns text only; the pipeline decides who gets it. Lines
stay within 70 columns where the content allows.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from zoneinfo import ZoneInfo

from pbmref.orders.check import entry_list
from pbmref.reports.common import format_deadline
from pbmref.rulesets import Words

RULE = "-" * 40


@dataclass(frozen=True)
class TurnName:
    """The open turn as players name it (a number, or a Diplomacy phase such as
    ``S1901M``), with the words its game kind uses in replies."""

    label: int | str
    words: Words

    def __str__(self) -> str:
        """``turn 7`` or ``phase S1901M``."""
        return self.words.turn(self.label)

    def title(self) -> str:
        """``Turn 7`` or ``Phase S1901M`` (at the start of a sentence)."""
        text = str(self)
        return text[:1].upper() + text[1:]


def when(moment: datetime | None, timezone: str, *, seconds: bool = False) -> str:
    """A deadline as the player reads it, in the game's time zone (as in reports).

    >>> from datetime import UTC
    >>> when(datetime(2026, 12, 1, 18, 0, tzinfo=UTC), "Europe/Amsterdam")
    'Tue 1 Dec 2026 19:00 CET (Europe/Amsterdam)'
    """
    return format_deadline(moment, timezone, seconds=seconds)


def arrival_and_deadline(arrived: datetime, deadline: datetime | None,
                         timezone: str) -> tuple[str, str]:
    """A late mail's arrival and the deadline, with seconds when both fall in
    one minute (never "arrived 17:59, after the deadline 17:59").

    >>> from datetime import UTC
    >>> arrival_and_deadline(datetime(2026, 12, 1, 17, 59, 2, tzinfo=UTC),
    ...                      datetime(2026, 12, 1, 17, 59, tzinfo=UTC), "UTC")
    ('Tue 1 Dec 2026 17:59:02 UTC', 'Tue 1 Dec 2026 17:59:00 UTC')
    """
    same = deadline is not None and (
        arrived.replace(second=0, microsecond=0) == deadline.replace(second=0, microsecond=0))
    return when(arrived, timezone, seconds=same), when(deadline, timezone, seconds=same)


def format_entry(entry: Mapping[str, object]) -> list[str]:
    """An orders entry as the mail lines that would give it."""
    lines: list[str] = []
    if "plane" in entry:
        lines.append("PLANE")
        plane = entry_list(entry, "plane")
        if not plane and entry.get("takeoff"):
            # A take-off without moves flies A in every move (N1), it does not stay
            # landed (the reply must show the orders as they will be used).
            lines.append("  (no moves: A in every move, rule N1)")
        elif not plane:
            lines.append("  (no moves: stay landed)")
        lines += [f"  {n}: {m}" for n, m in enumerate(plane, 1)]
    for key in ("takeoff", "land", "enter", "duel"):
        if entry.get(key):
            lines.append(f"{key.upper()} {entry[key]}")
    if entry.get("zeppelin"):
        lines.append("ZEPPELIN")
        lines += [f"  {n}: {v or '(no vote)'}" for n, v in enumerate(entry_list(entry, "zeppelin"), 1)]
    if entry.get("orders"):
        lines += [str(o) for o in entry_list(entry, "orders")]
    for key, value in entry.items():
        if key not in ("plane", "takeoff", "land", "enter", "duel", "zeppelin", "orders"):
            lines.append(f"{key.upper()} {value}")
    return lines


def orders_accepted(game: str, turn: TurnName, entry: Mapping[str, object] | None,
                    deadline: str, notes: Sequence[str] = (),
                    preview: Sequence[str] = (), *, adjudicating: str = "") -> str:
    """The acceptance: the orders in force and under them their ``preview`` (the
    ruleset's path and warnings, issue 22). ``adjudicating``: why the turn is
    being adjudicated now (``adjudicating_now``), which takes the place of "you
    may send new orders until then"."""
    out = [f"Game {game}, {turn}: your orders are accepted.", ""]
    out += list(notes)
    if notes:
        out.append("")
    out.append("Your orders in force now:")
    out += ["  " + line for line in format_entry(entry or {})] or ["  (none)"]
    if preview:
        out += ["", *preview]
    out += ["", f"Deadline: {deadline}"]
    out += [adjudicating] if adjudicating else list(turn.words.accepted)
    return "\n".join(out)


def adjudicating_now(turn: TurnName, *, deadline_passed: bool) -> str:
    """An acceptance that completes the turn (early adjudication), or one read
    at the deadline: the turn is played now, so no new orders can follow."""
    why = ("The deadline has passed" if deadline_passed
           else "Every player's orders are in")
    return (f"{why}: {turn} is being adjudicated now, and its report\n"
            "follows by mail.")


def all_orders_in(turn: TurnName, at: datetime, timezone: str) -> str:
    """An acceptance that completes the turn with early adjudication after a
    delay (issue 43, item 7): when it is played, and how to stop that.

    >>> from datetime import UTC
    >>> from pbmref.rulesets.diplomacy.ruleset import WORDS
    >>> print(all_orders_in(TurnName("S1901M", WORDS), datetime(2026, 3, 1, 13, 0, tzinfo=UTC),
    ...                     "Europe/Paris"))
    All orders are in: phase S1901M will be played at 14:00 CET
    (Sun 1 Mar) unless someone sends WAIT. Until then you may still
    change your orders.
    """
    zone = ZoneInfo(timezone)
    local = at.astimezone(zone)
    return (f"All orders are in: {turn} will be played at {local:%H:%M} {local.tzname()}\n"
            f"({local:%a} {local.day} {local:%b}) unless someone sends WAIT. Until then you "
            "may still\nchange your orders.")


def orders_planned(game: str, turn: TurnName, entry: Mapping[str, object] | None,
                   deadline: str, preview: Sequence[str]) -> str:
    """The answer to PLAN: the orders in force, previewed again."""
    out = [f"Game {game}, {turn}: your orders in force, previewed (PLAN)."]
    if entry:
        out += ["  " + line for line in format_entry(entry)]
    else:
        out.append(turn.words.none_yet)
    if preview:
        out += ["", *preview]
    out += ["", f"Deadline: {deadline}"]
    return "\n".join(out)


def orders_rejected(game: str, turn: TurnName, errors_text: str,
                    entry: Mapping[str, object] | None, deadline: str,
                    notes: Sequence[str] = ()) -> str:
    """``errors_text`` is ``render_error_list``'s: this reply says once that
    nothing was changed."""
    out = [f"Game {game}, {turn}: your mail was NOT accepted.",
           "Nothing was changed.", "", *notes, *([""] if notes else []),
           errors_text.rstrip(), ""]
    if entry:
        out.append("Your earlier orders stay in force:")
        out += ["  " + line for line in format_entry(entry)]
    else:
        out.append("You have no orders in force for this turn yet.")
    out += ["", f"Deadline: {deadline}"]
    return "\n".join(out)


def mail_refused(errors_text: str) -> str:
    """A mail whose envelope has a mistake, its game or sender not to be told
    for sure (so no orders are shown)."""
    return "Your mail was NOT accepted; nothing was changed.\n\n" + errors_text.rstrip()


def refused_without_password(game: str, turn: TurnName, errors_text: str) -> str:
    """A mail whose PASSWORD line is misspelt or empty: every mistake, but not
    the orders in force (secret without the password)."""
    return "\n".join([
        f"Game {game}, {turn}: your mail was NOT accepted.", "Nothing was changed.", "",
        errors_text.rstrip(), "", PASSWORD_NEEDED])


PASSWORD_NEEDED = ("Your orders in force are shown only in answer to a mail with\n"
                   "your PASSWORD line.")


def same_second(sent: str, other: str, *, later: bool) -> str:
    """Two mails of one player that reached the server in the same second: they
    are applied in the order they were sent (the Date header, then the server's
    order); which one is in force."""
    if later:
        return "\n".join([
            f"Another mail of yours (sent {other}) reached the server in the same",
            f"second as this one (sent {sent}). Mails are applied in the order",
            "they were sent, so that one comes after this one: where it is",
            "accepted, its orders are the ones in force (its reply shows them)."])
    return "\n".join([
        f"Another mail of yours (sent {other}) reached the server in the same",
        f"second as this one (sent {sent}). Mails are applied in the order they",
        "were sent, so this one came after it: the orders below are in force."])


def orders_shown(game: str, turn: TurnName, entry: Mapping[str, object] | None,
                 deadline: str) -> str:
    out = [f"Game {game}, {turn}: your orders in force."]
    if entry:
        out += ["  " + line for line in format_entry(entry)]
    else:
        out.append(turn.words.none_yet)
    out += ["", f"Deadline: {deadline}"]
    return "\n".join(out)


def orders_cleared(game: str, turn: TurnName, deadline: str) -> str:
    return "\n".join([f"Game {game}, {turn}: your orders are withdrawn (CLEAR).",
                      *turn.words.cleared, "", f"Deadline: {deadline}"])


def wrong_password(game: str, address: str) -> str:
    return "\n".join([
        f"Game {game}: a mail from {address} had a wrong or missing PASSWORD.",
        "Nothing was changed.", "",
        "If you sent it, check the password line (PASSWORD yourpassword).",
        "If you did not, somebody may be sending mail in your name; the",
        "referee counts such mails, and the game master sees them in",
        "'pbmref status'. A mail with the right password is always taken.",
        "This warning is sent at most once an hour."])


def password_flood(game: str, player: str, count: int) -> str:
    """To a player for whom many mails with a wrong password came within an hour."""
    return "\n".join([
        f"Game {game}: within the last hour the referee got {count} mails for",
        f"{player} with a wrong or missing PASSWORD. None of them changed",
        "anything. If they were not yours, somebody is trying to guess your",
        "password; from now on such mails are not answered one by one.", "",
        "Your own mails with the right password are taken as always: nobody",
        "can lock you out. The game master has been told and can give you a",
        "new password."])


def password_flood_gm(game: str, player: str, count: int, sender: str) -> str:
    """To the game master: a flood of wrong passwords for one player."""
    return "\n".join([
        f"Game {game}: within the last hour {count} mails for player {player}",
        f"came with a wrong or missing PASSWORD (the last from {sender}).",
        "Nothing was changed, and the player's mails with the right password",
        "are still taken. The player has been told once; further such mails",
        "are not answered.", "",
        f"See the count with: pbmref status {game}",
        f"Give the player a new password with: pbmref new-password {game} {player}"])


def reports_take_long(turns: Sequence[str], mails: int, recipients: int, took: str,
                      limits: str) -> str:
    """To the game master: the reports of a deadline wait for the pace of the
    mail provider's limits (``limits.send_per_minute``, ``recipients_per_day``)."""
    return "\n".join([
        f"The reports of {', '.join(turns)} are queued: with what waits before",
        f"them, {mails} mail(s) to {recipients} recipient(s). Within your provider's",
        f"limits as the config gives them ({limits}) the last of them goes out in",
        f"about {took}. Nothing is lost meanwhile: they wait in the referee's outgoing",
        "spool and go in order as the limits allow.", "",
        "Raise limits.send_per_minute or limits.recipients_per_day in the config",
        "if your provider allows more, or tell the players their reports come late."])


def left_out(count: int, limit: int) -> str:
    """The note at the end of a reply whose answers did not all fit."""
    return "\n".join([
        f"This reply reached its size limit of {limit // 1000} thousand characters:",
        f"{count} more answer(s) were left out; ask for them in another mail."])


def cut_short(limit: int) -> str:
    """The note at the end of a reply cut at its size limit."""
    return f"(This reply was cut at its size limit of {limit // 1000} thousand characters.)"


def stale_turn(game: str, asked: int | str, turn: TurnName, deadline: str) -> str:
    open_turn = turn.label
    words = turn.words
    # the mail's own TURN or PHASE line, named as the player wrote it
    mine = f"turn {asked}" if isinstance(asked, int) else f"phase {asked}"
    if isinstance(asked, int) and isinstance(open_turn, int) and asked < open_turn:
        head = f"Game {game}: your mail is for {mine}, which has already been adjudicated."
    else:
        head = f"Game {game}: your mail is for {mine}, but {turn} is open."
    return "\n".join([head, "Too late or too early: nothing was used or changed.", "",
                      f"{turn.title()} is open now; its deadline is {deadline}.",
                      f"Send your orders again with {words.keyword} {open_turn} "
                      f"(or no {words.keyword} line)."])


def too_late(game: str, arrived: str, deadline: str, turn: TurnName) -> str:
    return "\n".join([
        f"Game {game}: your mail arrived {arrived}, after the deadline",
        f"({deadline}). It was not used.", "",
        # Conformance (referee.md, deadlines: a late mail's answer gives the
        # number of the turn that comes next): name it.
        f"The report of {turn} follows; send orders for {turn.words.after(turn.label)} then."])


def missed_turn(game: str, arrived: str, turn: TurnName, deadline: str) -> str:
    """A mail that reached the server in time for a turn already adjudicated
    when the referee read it (it is never used for the next turn)."""
    return "\n".join([
        f"Game {game}: your mail arrived {arrived}, but the referee read it only",
        "after that turn had been adjudicated. It was not used.", "",
        f"{turn.title()} is open now; its deadline is {deadline}.",
        "Please send your orders for it again."])


def game_closed(game: str, status: str, resumes: str | None = None) -> str:
    """A game that takes no orders; ``resumes``: when a paused one goes on, if known."""
    if status == "paused":
        if resumes:
            return (f"Game {game} is paused by the game master until {resumes}; orders "
                    "are not taken until it resumes, so send them again then. Nothing "
                    "was changed.")
        return (f"Game {game} is paused by the game master; orders are not taken "
                "until it resumes. Nothing was changed.")
    return f"Game {game} has ended; no more orders are taken. Nothing was changed."


def unknown_game(game: str | None, games: Sequence[str]) -> str:
    if game is None:
        head = "Your mail does not say which game it is for."
    else:
        head = f"There is no game called {game!r} here."
    out = [head, "Put a line GAME <id> at the top of your orders, or the game id in",
           "the Subject."]
    if games:
        out += ["", f"Your games: {', '.join(games)}"]
    return "\n".join(out)


def not_registered(game: str) -> str:
    return "\n".join([
        f"Your address is not registered for game {game}, so the mail was not used.",
        "Orders are taken only from the address the game master registered.",
        "Nothing was changed."])


def kicked(game: str) -> str:
    return "\n".join([
        f"The game master has removed you from game {game}, so your mail was not used.",
        "Nothing was changed. If you think this is a mistake, write to the game",
        "master, not to the referee."])


def how_to_join(referee: str) -> str:
    return "\n".join([
        "Hello. This is pbmref, a play-by-mail referee. Your address is not",
        "registered for any game here, so your mail was not read further.",
        "",
        "To see the games you can join, send LIST (rule J1). To ask for a",
        "place, send JOIN and the game's name, e.g. JOIN dip1 (rule J2): a",
        "code comes back for you to confirm, and when the game starts a mail",
        "brings your place and your password. A game master may also",
        "register your address for a game. Then mail your orders to",
        f"{referee} (send HELP for how to write them).",
        "",
        "This note is sent at most once a day per address."])


def oversized(limit: int) -> str:
    return "\n".join([
        f"Your mail is larger than this referee accepts ({limit // 1000} kB), so it",
        "was not read. Please send your orders as plain text, without",
        "attachments or a long quoted history. Nothing was changed."])


def unread(why: str) -> str:
    """A mail past a bound of what the referee reads (``IncomingMail.unread``)."""
    return "\n".join([
        f"Your mail was not read: {why}.",
        "Please send your orders as plain text, without attachments or a long",
        "quoted history. Nothing was changed."])


def failed(game: str | None) -> str:
    where = f" for game {game}" if game else ""
    return "\n".join([
        f"Your mail{where} could not be handled because of a fault in the referee.",
        "It has been set aside for the game master, who will look at it.",
        "Nothing was changed; your earlier orders stay in force."])


def reminder(game: str, turn: TurnName, deadline: str) -> str:
    return "\n".join([
        f"Game {game}: a reminder that your orders for {turn} have not",
        f"arrived yet. The deadline is {deadline}.", "", *turn.words.reminder])


def stuck_reports(lines: Sequence[str], after: str) -> str:
    """To the game master: turn reports that did not reach their readers (each
    line one copy: its subject, reader, and why), told once."""
    return "\n".join([
        "These turn reports could not be delivered (waiting longer than",
        f"{after}, or refused for good by the mail server):", "",
        *(f"- {line}" for line in lines), "",
        "The referee keeps trying those still waiting. Each is told once.",
        "See the outgoing spool's queue/ and failed/ folders."])
