"""A whole order mail read for one game: envelope, identity, turn, body.

``check_order_mail`` is what the referee (and ``pbmref orders check``) calls
with the game's data. It collects every error it can find, so the reply can
list them all, and raises them together (``OrderErrors``) or returns the
``CheckedMail``: the envelope, the player, and the canonical orders entry the
body gives (``None`` when the mail has no body, only commands).

The body is read with the ``BodyReader`` the caller passes (a ruleset's
``body_reader`` on the open turn). It answers two questions of its game:
``order_line(cleaned)``, does this line look like an order of the game, and
``read(player, [(line_no, text)])``, the orders entry of the order lines
(raising ``pbmref.orders.errors`` exceptions). ``mail_lines`` and
``order_mail`` go the other way: an orders entry as the lines (and the whole
mail) a player would write.

Greetings and signatures are told apart from orders here, the same way for
every game (issue 42, item 3): ``read_mail_body`` asks the game of each body
line whether it looks like one of its orders (or a slip of an envelope word:
"staus"), also in Latin letters ("A G\u0430s - Spa"). Only those lines are
read as orders, right or wrong; any other line is prose. Prose above the
first order or envelope line or below the last one ("Hi referee,", "Viele
Grüße" and a name, "Fire at will!", an office signature) is left out, and
``CheckedMail.ignored`` (or ``OrderErrors.ignored``) lists it so the reply
can say so; prose between orders is an error asking to move it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from pbmref.orders.envelope import (
    OrderMail,
    check_password,
    check_turn,
    identify_player,
    scan_order_mail,
)
from pbmref.orders.errors import (
    OrderMailError,
    OrderSyntaxError,
    StaleTurnError,
    UnknownGameError,
    UnknownPlayerError,
    raise_all,
)
from pbmref.orders.lines import clean_line, keyword_led
from pbmref.orders.lookalikes import foreign_letters, in_latin
from pbmref.orders.nearest import BETWEEN_ORDERS, ENVELOPE_WORDS

__all__ = [
    "BodyReader",
    "CheckedMail",
    "check_order_mail",
    "entry_list",
    "format_entry",
    "mail_lines",
    "order_mail",
    "password_line_mistaken",
    "read_mail_body",
]

Lines = list[tuple[int, str]]
O = TypeVar("O")  # noqa: E741 -- a game's typed orders (its Ruleset's O)


@dataclass(frozen=True)
class BodyReader(Generic[O]):
    """What one game says of the body lines of an order mail (its ruleset's
    ``body_reader`` on the open turn): ``order_line(cleaned)`` whether a line
    (made plain by ``clean_line``) looks like an order of the game;
    ``read(player, lines)`` the typed orders of the order lines (the game's
    ``O``), raising ``OrderMailError`` (every error found); ``encode(orders)``
    the orders entry the store keeps of them."""

    read: Callable[[str, Lines], O]
    order_line: Callable[[str], bool]
    encode: Callable[[O], dict[str, object]]

    def looks_like_order(self, text: str) -> bool:
        """Is the line one of the game's orders, right or wrong: its own shape,
        a slip of an envelope word ("staus", "PASWORD x"), or an order written
        with letters of another alphabet?"""
        cleaned = clean_line(text)
        if self.order_line(cleaned) or keyword_led(cleaned, ENVELOPE_WORDS):
            return True
        latin = in_latin(cleaned)
        return latin != cleaned and self.order_line(latin)


@dataclass(frozen=True)
class CheckedMail:
    """An accepted order mail: its envelope, the player, the orders entry."""

    mail: OrderMail
    player: str | None
    entry: dict[str, object] | None
    ignored: tuple[tuple[int, str], ...] = ()  # greetings and signatures left out

    def describe(self) -> list[str]:
        lines = self.mail.describe()
        lines.append(f"Player: {self.player}" if self.player else "Player: not identified")
        if self.ignored:
            from pbmref.orders.render import ignored_note

            lines.append(ignored_note(self.ignored))
        if self.entry is None:
            lines.append("Orders: none in this mail")
        else:
            lines.append("Orders:")
            lines.extend("  " + line for line in format_entry(self.entry))
        return lines


def format_entry(entry: Mapping[str, object] | Sequence[Any]) -> list[str]:
    """An orders entry as the lines a player would mail (canonical form)."""
    if not isinstance(entry, Mapping):
        return [str(x) for x in entry]
    out: list[str] = []
    order = ["plane", "takeoff", "land", "zeppelin"]
    for key in sorted(entry, key=lambda k: order.index(k) if k in order else 99):
        value = entry[key]
        if isinstance(value, (list, tuple)):
            out.append(key.upper())
            numbered = key in ("plane", "zeppelin")
            for n, line in enumerate(value, 1):
                text = str(line)
                if numbered:
                    out.append(f"{n}: {text}" if text else f"{n}: (no vote)")
                else:
                    out.append(text)
        else:
            out.append(f"{key.upper()} {value}")
    return out


def entry_list(entry: Mapping[str, object], key: str) -> list[object]:
    """The list an orders entry keeps under ``key`` (absent: empty).

    >>> entry_list({"plane": ["A", "L f-0"]}, "plane"), entry_list({}, "zeppelin")
    (['A', 'L f-0'], [])
    """
    value = entry.get(key)
    return list(value) if isinstance(value, list | tuple) else []


def mail_lines(entry: Mapping[str, object]) -> list[str]:
    """The body lines of an order mail that gives ``entry`` (what a computer
    player writes); moves and votes left empty are left out.

    >>> mail_lines({"plane": ["A", "L f-0"], "takeoff": "BETA", "zeppelin": ["", "A d-B"]})
    ['PLANE', '1: A', '2: L f-0', 'TAKEOFF BETA', 'ZEPPELIN', '2: A d-B']
    """
    lines: list[str] = []
    if "plane" in entry:
        lines.append("PLANE")
        lines += [f"{n}: {m}" for n, m in enumerate(entry_list(entry, "plane"), 1) if str(m).strip()]
    for key in ("takeoff", "land", "enter", "duel", "burn"):
        if entry.get(key):
            lines.append(f"{key.upper()} {entry[key]}")
    if entry.get("zeppelin"):
        lines.append("ZEPPELIN")
        lines += [f"{n}: {v}" for n, v in enumerate(entry_list(entry, "zeppelin"), 1) if v]
    lines += [str(o) for o in entry_list(entry, "orders")]
    return lines


def order_mail(game_id: str, password: str, turn: str, entry: Mapping[str, object],
               extra: Iterable[str] = ()) -> str:
    """A whole order mail: the envelope (``turn`` is its line, ``TURN 3`` or
    ``PHASE S1901M``), the lines of ``entry``, ``extra`` lines, then END."""
    lines = [f"GAME {game_id}", f"PASSWORD {password}", turn, *mail_lines(entry), *extra, "END"]
    return "\n".join(lines) + "\n"


def check_order_mail(
    subject: str,
    text: str,
    *,
    read_body: BodyReader[O],
    player: str | None = None,
    sender: str | None = None,
    addresses: Mapping[str, Iterable[str]] | None = None,
    open_turn: int | str | None = None,
    verify_password: Callable[[str, str], bool] | None = None,
    password_required: bool | Callable[[str], bool] = True,
    game_id: str | None = None,
    known_games: Iterable[str] | None = None,
) -> CheckedMail:
    """Read an order mail for one game; raises every error found, together.

    ``read_body`` is the game's ``BodyReader`` (a ruleset's ``body_reader``
    on the open turn): which body lines are orders, and the orders entry they
    give that player. ``player`` fixes the player (GM tools); otherwise ``sender`` is looked up
    in ``addresses`` (player id -> registered addresses), with ``PILOT``
    choosing among several. ``verify_password(player, password)`` checks the
    password against the stored hash; ``password_required`` (a flag, or a
    function of the player id) says whether a mail without one is refused. ``open_turn`` is the turn (or
    Diplomacy phase) open now; a mail naming another is stale. ``game_id``
    is the game the mail was routed to; ``known_games`` helps find the game
    in the Subject.
    """
    mail, errors = scan_order_mail(subject, text, known_games=known_games)
    if game_id is not None and mail.game_id is not None and (
            mail.game_id.casefold() != game_id.casefold()):
        errors.append(UnknownGameError(
            f"the mail names game {mail.game_id}, but this is game {game_id}",
            hint=f"write GAME {game_id}"))
    try:
        check_turn(mail, open_turn)
    except StaleTurnError as exc:
        raise exc from None  # the whole mail is for another turn: nothing else matters
    who = player
    if who is None:
        if sender is None or addresses is None:
            if mail.pilot is not None:
                who = mail.pilot
            else:
                errors.append(UnknownPlayerError(
                    "the mail does not say which player it is from",
                    hint="add a line PILOT <your pilot>"))
        else:
            try:
                who = identify_player(mail, sender, addresses)
            except OrderMailError as exc:
                errors.append(exc)
    password_errors: list[OrderMailError] = []
    if who is not None and verify_password is not None:
        required = password_required(who) if callable(password_required) else password_required
        try:
            check_password(mail, lambda pw: verify_password(who, pw), required)
        except OrderMailError as exc:
            password_errors.append(exc)
    entry: dict[str, object] | None = None
    ignored: tuple[tuple[int, str], ...] = ()
    if mail.body and who is not None:
        read = read_mail_body(read_body, mail, who)
        entry = None if read[0] is None else read_body.encode(read[0])
        ignored, body_errors = read[1], read[2]
        errors.extend(body_errors)
    if password_line_mistaken(mail, errors):
        password_errors = []
    raise_all([*errors, *password_errors], ignored)
    return CheckedMail(mail, who, entry, ignored)


def password_line_mistaken(mail: OrderMail, errors: Iterable[OrderMailError]) -> bool:
    """Whether the mail meant to give a password on a line that has its own error:
    an empty PASSWORD line, or a misspelt one ("PASSWORT x": "did you mean
    PASSWORD?"). Then the missing password is that one mistake, not a second."""
    if mail.password is not None:
        return False
    return any(k == "PASSWORD" for _, k in mail.keyword_lines) or any(
        e.suggestion == "PASSWORD" for found in errors for e in found.errors)


def read_mail_body(reader: BodyReader[O], mail: OrderMail, player: str
                   ) -> tuple[O | None, tuple[tuple[int, str], ...], list[OrderMailError]]:
    """The mail's body read by the game's ``reader``, greetings and signatures left out.

    Returns ``(orders, ignored, errors)``: the typed orders (None when the body
    holds errors, or nothing but prose), the ``(line_no, text)`` lines left
    out, and every error of the body (nothing raised).
    """
    body = list(mail.body)
    orders = [(n, t) for n, t in body if reader.looks_like_order(t)]
    said = {n for n, _ in orders}
    anchors = [n for n, _ in mail.keyword_lines] + sorted(said)
    prose = [(n, t) for n, t in body if n not in said]
    inside = (lambda n: min(anchors) < n < max(anchors)) if anchors else (lambda n: False)
    ignored = tuple((n, t) for n, t in prose if not inside(n))
    errors = [_between_orders(n, t) for n, t in prose if inside(n)]
    entry = None
    if orders:
        entry, found = _read(reader.read, player, orders)
        errors += _told(found, _foreign_orders(reader.read, player, orders, found))
    errors.sort(key=lambda e: e.line_no or 0)
    return (None if errors else entry), ignored, errors


def _between_orders(line_no: int, text: str) -> OrderMailError:
    """A line of prose between two orders: the player is asked to move it."""
    cleaned = clean_line(text)
    start = len(cleaned) - len(cleaned.lstrip())
    shown = " ".join(text.split())  # as written
    shown = shown if len(shown) <= 30 else shown[:27] + "..."
    return OrderSyntaxError(f'I cannot read "{shown}" as an order', rule="SYNTAX",
                            column=start + 1, width=len(cleaned.strip()),
                            hint=BETWEEN_ORDERS, prose=True).at(line_no, text)


def _foreign_orders(read_body: Callable[[str, Lines], object], player: str,
                    body: Lines, errors: list[OrderMailError]) -> dict[int, list[OrderMailError]]:
    """The mistakes of the lines that are orders written with letters of another
    alphabet ("A G\u0430s - Spa", a Cyrillic a): each line's look-alikes named
    first, then what else is wrong with it read in Latin letters. A line that
    the game's reader found to be one in Latin letters only is told so."""
    wrong = {e.line_no for e in errors}
    latin = {n: in_latin(t) for n, t in body if n in wrong}
    latin = {n: t for n, t in latin.items() if t != dict(body)[n]}
    if not latin:
        return {}
    _, again = _read(read_body, player, [(n, latin.get(n, t)) for n, t in body])
    told: dict[int, list[OrderMailError]] = {}
    for n, text in body:
        if n not in latin:
            continue
        found = [e for e in again if e.line_no == n]
        named = foreign_letters(text)
        assert named is not None  # the line differs in Latin letters
        told[n] = [named.at(n, text), *(e.at(n, text) for e in found)]
    return told


def _told(errors: list[OrderMailError],
          foreign: dict[int, list[OrderMailError]]) -> list[OrderMailError]:
    """``errors`` with the mistakes of the lines in another alphabet told as such."""
    if not foreign:
        return errors
    return [e for e in errors if e.line_no not in foreign] + [
        e for found in foreign.values() for e in found]


def _read(read_body: Callable[[str, Lines], O], player: str,
          lines: Lines) -> tuple[O | None, list[OrderMailError]]:
    try:
        return read_body(player, lines), []
    except OrderMailError as exc:
        return None, list(exc.errors)
    except Exception as exc:  # noqa: BLE001 - a body reader must not crash the mail
        return None, [OrderSyntaxError(
            f"the orders could not be read ({type(exc).__name__}: {exc})",
            rule="INTERNAL", hint="tell the game master; this is a referee bug")]
