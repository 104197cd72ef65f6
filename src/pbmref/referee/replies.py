"""The words of the referee's replies: short, plain, fit for a phone.

Every function returns text only; the pipeline decides who gets it. Lines
stay within 70 columns where the content allows.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any

from pbmref.reports.text import format_deadline

RULE = "-" * 40

# A turn is a number in the air games and a phase name (``S1901M``) in
# Diplomacy (issue 10): every function below that takes ``turn`` takes either,
# and a phase name also picks the Diplomacy wording (units hold, DD3).
Turn = int | str


class FastPlayTurn(int):
    """A Fast Play turn number (issue 9): a number like any other turn, but
    the replies word the orders a missing mail gets by rule FP17, not N1.

    >>> t = FastPlayTurn(3)
    >>> t == 3, f"turn {t}", _fastplay(t), _fastplay(3)
    (True, 'turn 3', True, False)
    """


def _fastplay(turn: Turn) -> bool:
    return isinstance(turn, FastPlayTurn)


def help_for(turn: Turn) -> str:
    """The HELP text for the game's ruleset, told by how its turns are named."""
    if _diplomacy(turn):
        return HELP_DIPLOMACY
    return HELP_FASTPLAY if _fastplay(turn) else HELP


_NO_ORDERS_FP = ("Without orders your plane plays, each move, the first of A, L, R,",
                 "ST that keeps it on the board and fires ahead (rule FP17); three",
                 "such turns in a row and you are removed.")


def turn_words(turn: Turn) -> str:
    """``turn 7``, or ``phase S1901M`` for Diplomacy."""
    return f"phase {turn}" if isinstance(turn, str) else f"turn {turn}"


def _diplomacy(turn: Turn) -> bool:
    return isinstance(turn, str)


def when(moment: datetime | None, timezone: str) -> str:
    """A deadline as the player reads it, in the game's time zone (as in reports).

    >>> from datetime import UTC
    >>> when(datetime(2026, 12, 1, 18, 0, tzinfo=UTC), "Europe/Amsterdam")
    'Tue 1 Dec 2026 19:00 CET (Europe/Amsterdam)'
    """
    return format_deadline(moment, timezone)


def format_entry(entry: Mapping[str, Any]) -> list[str]:
    """An orders entry as the mail lines that would give it."""
    lines: list[str] = []
    if "plane" in entry:
        lines.append("PLANE")
        plane = list(entry.get("plane") or [])
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
        lines += [f"  {n}: {v or '(no vote)'}" for n, v in enumerate(entry["zeppelin"], 1)]
    if entry.get("orders"):
        lines += [str(o) for o in entry["orders"]]
    for key, value in entry.items():
        if key not in ("plane", "takeoff", "land", "enter", "duel", "zeppelin", "orders"):
            lines.append(f"{key.upper()} {value}")
    return lines


def orders_accepted(game: str, turn: Turn, entry: Mapping[str, Any] | None,
                    deadline: str, notes: Sequence[str] = ()) -> str:
    out = [f"Game {game}, {turn_words(turn)}: your orders are accepted.", ""]
    out += list(notes)
    if notes:
        out.append("")
    out.append("Your orders in force now:")
    out += ["  " + line for line in format_entry(entry or {})] or ["  (none)"]
    if _diplomacy(turn):
        out += ["", f"Deadline: {deadline}",
                "You may send new orders until then; a new mail's orders",
                "replace all of these. Units without an order hold.",
                "Send CLEAR to withdraw them."]
        return "\n".join(out)
    if _fastplay(turn):
        out += ["", f"Deadline: {deadline}",
                "You may send new orders until then; a new PLANE section",
                "replaces the old one with its ENTER and DUEL. Send CLEAR to",
                "withdraw them."]
        return "\n".join(out)
    out += ["", f"Deadline: {deadline}",
            "You may send new orders until then; a new PLANE or ZEPPELIN",
            "section replaces the old one. Send CLEAR to withdraw them."]
    return "\n".join(out)


def orders_rejected(game: str, turn: Turn, errors_text: str,
                    entry: Mapping[str, Any] | None, deadline: str) -> str:
    out = [f"Game {game}, {turn_words(turn)}: your mail was NOT accepted.",
           "Nothing was changed.", "", errors_text.rstrip(), ""]
    if entry:
        out.append("Your earlier orders stay in force:")
        out += ["  " + line for line in format_entry(entry)]
    else:
        out.append("You have no orders in force for this turn yet.")
    out += ["", f"Deadline: {deadline}"]
    return "\n".join(out)


def orders_shown(game: str, turn: Turn, entry: Mapping[str, Any] | None, deadline: str) -> str:
    out = [f"Game {game}, {turn_words(turn)}: your orders in force."]
    if entry:
        out += ["  " + line for line in format_entry(entry)]
    elif _diplomacy(turn):
        out.append("  (none yet: without orders your units hold, DD3)")
    elif _fastplay(turn):
        out.append("  (none yet: without orders the referee flies your plane, FP17)")
    else:
        out.append("  (none yet: without orders your aircraft flies straight ahead, N1)")
    out += ["", f"Deadline: {deadline}"]
    return "\n".join(out)


def orders_cleared(game: str, turn: Turn, deadline: str) -> str:
    if _diplomacy(turn):
        return "\n".join([
            f"Game {game}, {turn_words(turn)}: your orders are withdrawn (CLEAR).",
            "Without new orders by the deadline your units hold, dislodged",
            "units are disbanded and nothing is built (rule DD3).", "",
            f"Deadline: {deadline}"])
    if _fastplay(turn):
        return "\n".join([
            f"Game {game}, turn {turn}: your orders are withdrawn (CLEAR).",
            "Without new orders by the deadline your plane plays, each move,",
            "the first of A, L, R, ST that keeps it on the board and fires",
            "ahead (rule FP17).", "", f"Deadline: {deadline}"])
    return "\n".join([
        f"Game {game}, turn {turn}: your orders are withdrawn (CLEAR).",
        "Without new orders by the deadline your aircraft flies straight",
        "ahead and does not fire (rule N1).", "", f"Deadline: {deadline}"])


def status_text(game: str, title: str, turn: int, deadline: str, sent: Iterable[str],
                waiting: Iterable[str], game_status: str) -> str:
    sent = list(sent)
    waiting = list(waiting)
    out = [f"Game {game}{f' ({title})' if title else ''}: turn {turn}, {game_status}.",
           f"Deadline: {deadline}", "",
           f"Orders received from: {', '.join(sent) if sent else 'nobody yet'}",
           f"Still to send: {', '.join(waiting) if waiting else 'nobody'}",
           "", "Orders stay secret until the turn is adjudicated."]
    return "\n".join(out)


def wrong_password(game: str, address: str) -> str:
    return "\n".join([
        f"Game {game}: a mail from {address} had a wrong or missing PASSWORD.",
        "Nothing was changed.", "",
        "If you sent it, check the password line (PASSWORD yourpassword).",
        "If you did not, somebody may be sending mail in your name; the",
        "game master can see this in the game's history."])


def stale_turn(game: str, asked: Turn, open_turn: Turn, deadline: str) -> str:
    if _diplomacy(open_turn):
        return "\n".join([
            f"Game {game}: your mail is for {turn_words(asked)}, but "
            f"{turn_words(open_turn)} is open.",
            "Too late or too early: nothing was used or changed.", "",
            f"Phase {open_turn} is open now; its deadline is {deadline}.",
            f"Send your orders again with PHASE {open_turn} (or no PHASE line)."])
    assert isinstance(asked, int) and isinstance(open_turn, int)
    if asked < open_turn:
        head = (f"Game {game}: your mail is for turn {asked}, which has already been "
                f"adjudicated.")
    else:
        head = f"Game {game}: your mail is for turn {asked}, but turn {open_turn} is open."
    return "\n".join([head, "Too late or too early: nothing was used or changed.", "",
                      f"Turn {open_turn} is open now; its deadline is {deadline}.",
                      f"Send your orders again with TURN {open_turn} (or no TURN line)."])


def too_late(game: str, arrived: str, deadline: str, open_turn: Turn) -> str:
    return "\n".join([
        f"Game {game}: your mail arrived {arrived}, after the deadline",
        f"({deadline}). It was not used.", "",
        # Conformance (referee.md, deadlines: a late mail's answer gives the
        # number of the turn that comes next): name it.
        f"The report of {turn_words(open_turn)} follows; send orders for "
        + ("the next phase then." if _diplomacy(open_turn)
           else f"turn {int(open_turn) + 1} then.")])


def missed_turn(game: str, arrived: str, open_turn: Turn, deadline: str) -> str:
    """A mail that reached the server in time for a turn already adjudicated
    when the referee read it (it is never used for the next turn)."""
    return "\n".join([
        f"Game {game}: your mail arrived {arrived}, but the referee read it only",
        "after that turn had been adjudicated. It was not used.", "",
        f"{turn_words(open_turn).capitalize()} is open now; its deadline is {deadline}.",
        "Please send your orders for it again."])


def game_closed(game: str, status: str) -> str:
    if status == "paused":
        return (f"Game {game} is paused by the game master; orders are not taken "
                "until it resumes. Nothing was changed.")
    return f"Game {game} has ended; no more orders are taken. Nothing was changed."


def game_unavailable(game: str) -> str:
    return "\n".join([
        f"Game {game} cannot take orders at the moment: one of its files needs",
        "the game master's attention. Your mail is kept; please send it again",
        "once the game master says the game is running. Nothing was changed."])


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
        "To join a game, write to the game master, who registers your address",
        "and sends you a password. Then mail your orders to",
        f"{referee} (send HELP for how to write them).",
        "",
        "This note is sent at most once a day per address."])


def oversized(limit: int) -> str:
    return "\n".join([
        f"Your mail is larger than this referee accepts ({limit // 1000} kB), so it",
        "was not read. Please send your orders as plain text, without",
        "attachments or a long quoted history. Nothing was changed."])


def failed(game: str | None) -> str:
    where = f" for game {game}" if game else ""
    return "\n".join([
        f"Your mail{where} could not be handled because of a fault in the referee.",
        "It has been set aside for the game master, who will look at it.",
        "Nothing was changed; your earlier orders stay in force."])


def reminder(game: str, turn: Turn, deadline: str) -> str:
    if _diplomacy(turn):
        return "\n".join([
            f"Game {game}: a reminder that your orders for {turn_words(turn)} have",
            f"not arrived yet. The deadline is {deadline}.", "",
            "Without orders your units hold, dislodged units are disbanded",
            "and nothing is built (rule DD3). Send HELP for how to write orders."])
    if _fastplay(turn):
        return "\n".join([
            f"Game {game}: a reminder that your orders for turn {turn} have not",
            f"arrived yet. The deadline is {deadline}.", "", *_NO_ORDERS_FP,
            "Send HELP for how to write orders."])
    return "\n".join([
        f"Game {game}: a reminder that your orders for turn {turn} have not",
        f"arrived yet. The deadline is {deadline}.", "",
        "Without orders your aircraft flies straight ahead and does not",
        "fire (rule N1); three such turns in a row and you are removed (N2).",
        "Send HELP for how to write orders."])


HELP = """\
How to send orders (pbmref)

Write a plain-text mail to the referee, for example:

  GAME zep1
  PASSWORD swordfish
  TURN 7
  PLANE
  1: LS f-A f-R
  2: A
  3: R f-A
  ZEPPELIN
  1: L f-B
  2: A d-B
  3: f-0
  END

Manoeuvres (one a move): A ahead, L left turn, R right turn,
LS slip left, RS slip right, 0 no move (never in move 1, and after
a 0 in move 2 move 3 is 0 too), I Immelman (aces only).
Fire: f-A ahead, f-L ahead-left, f-R ahead-right, f-B backward
(rear gunner only), f-0 hold fire. At most 3 bursts a turn.
On the ground: TAKEOFF ALPHA|BETA|GAMMA (moves 1 and 2 are A).
To land: LAND ALPHA|BETA|GAMMA, and fly A from the runway's far hex
into its near hex, toward your airfield.
Zeppelin votes: a move (A L LS R RS 0) and one fire vote
(f-A f-L f-R f-B f-0, or d-B to drop a bomb) for each move.

Commands (alone or beside orders):
  HELP       this text
  ORDERS     your orders in force
  STATUS     the turn, the deadline, who has sent orders
  MAP        the current map
  HISTORY n  the report of turn n
  CLEAR      withdraw your orders for this turn

Your mail is checked at once and answered. A mail with a mistake is
refused whole and your earlier orders stay in force. Orders are
secret until the turn is adjudicated.
"""


HELP_DIPLOMACY = """\
How to send orders (pbmref, Diplomacy and Dirigible Diplomacy)

Write a plain-text mail to the referee, one order a line, e.g.:

  GAME dip1
  PASSWORD swordfish
  PHASE S1901M
  A Par - Bur
  F Lon S F Nth - Eng
  A Lon - Bel via convoy
  F Nth C A Lon - Bel
  D Mun S A Ber - Mun
  D Mun devastate
  END

Movement: hold (A Par H), move (-), support (S), convoy (C).
Dirigibles (D) move to any neighbour, support dirigibles, support
the army or fleet in their own province (DD8) and devastate
(D Mun devastate, DD10). Retreats: A Mun - Boh, or Disband A Mun.
Winter: Build A Par, Build F StP/sc, Build D Ber, Disband A War,
Waive. Units without an order hold; missed retreats disband.
PHASE is optional; when given it must be the open phase.

Commands (alone or beside orders):
  HELP       this text
  ORDERS     your orders in force
  STATUS     the phase, the deadline, who has sent orders
  MAP        the board now
  HISTORY n  the report of turn n (the n-th phase played)
  CLEAR      withdraw your orders for this phase

Your mail is checked at once and answered. A mail with a mistake is
refused whole and your earlier orders stay in force; a new mail's
orders replace all earlier ones. Orders are secret until the phase
is adjudicated.
"""


HELP_FASTPLAY = """\
How to send orders (pbmref, Fast Play)

Write a plain-text mail to the referee, for example:

  GAME 7b-1
  PASSWORD swordfish
  TURN 3
  PLANE
  1: LS
  2: A f-0
  3: AF
  END

Each turn you play three cards from your deck, one a move (FP4):
A ahead, L left turn, R right turn, LS slip left, RS slip right,
AF two hexes ahead, ST stall (stay), STL / STR stall and turn left
or right, I Immelman. A deck holds three each of A L R LS RS and
one each of AF ST STL STR I; a card may be played in one turn as
often as your deck holds it, and lost cards are gone (FP6).
Your plane fires ahead at the nearest enemy within 5 hexes by itself
(FP7); write f-0 after a card to hold fire that move.
Coming back after leaving or a crash landing (FP14): ENTER <hex>
<heading>, e.g. ENTER C10 S, on an edge hex at least 6 hexes from
every enemy. Two pilots who both come back may each write
DUEL <other pilot> (FP15). With 4 or more hits you may fly off
the board (FP13). Missing cards are flown for you (FP17).

Commands (alone or beside orders):
  HELP       this text
  ORDERS     your orders in force
  STATUS     the turn, the deadline, who has sent orders
  MAP        the board now, with every plane
  HISTORY n  the report of turn n
  CLEAR      withdraw your orders for this turn

Your mail is checked at once and answered. A mail with a mistake is
refused whole and your earlier orders stay in force; a new PLANE
section replaces the old one with its ENTER and DUEL. Orders are
secret until the turn is adjudicated.
"""
