"""The envelope of an order mail: game, password, turn, pilot, commands, body.

``read_order_mail(subject, text)`` reads what every order mail has in common,
whatever the game; the body lines it hands on (with their line numbers in the
mail as sent) are read by the ruleset's body parser (``pbmref.orders.bodies``).

What it tolerates (shared/spec/orders.md): quoted reply text (``>`` lines,
also a whole quoted report, and the "On ... wrote:" line above it, also in
Dutch, German, French and Spanish and when the mail program wrapped it over
two lines), a ``-- `` signature or ``END``/``SIGNOFF`` (everything after is
ignored), a forwarded or "Original Message" block (in those languages too), a
phone's "Sent from my iPhone", blank lines, ``#`` comments, any letter case,
non-breaking spaces, Windows or old Mac line ends, a phone's full stops and
dashes, and commas or semicolons between items. The game may be named in the
Subject instead (``zep1 orders``, ``Re: [zep1] turn 7 report``); when the
body names another game the body wins and ``game_note`` says so.

What it reads of one mail is bounded before any grammar sees a line
(issue 40: one mail once cost a minute of the referee's time): the first
``MAX_LINES`` lines of a mail, of them ``MAX_READ`` lines of envelope and
orders holding ``MAX_WORDS`` words at most, each line ``MAX_LINE``
characters at most, and a Subject of ``MAX_SUBJECT``. A mail past a bound
gets an error at the line where it passes it, naming the bound (rule
``LIMIT``); nothing past it is read. A line too long to read is not quoted
in its error (a window of it could show part of a password: passwords are
hidden whole).

Besides the envelope items of the grammar (``envelope.lark``) a few commands
take their whole line, each with its words (``LINE_COMMANDS``): the lobby's
``LIST``, ``JOIN``, ``OBSERVE``, ``TAKEOVER``, ``CONFIRM`` and ``RESIGN``, a
player's ``SET ABSENCE`` and ``SET TIMEZONE``, and ``DRAW`` with the powers
of a draw (rules J1-J14 of ``docs/rules/judge.md``). The envelope checks
their shape (how many words, a game's name, a date); what they mean for a
game is the referee's to say.

It raises nothing but ``pbmref.orders.errors`` exceptions.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from datetime import date
from functools import cache
from typing import Any

from lark import Lark, Token, Transformer
from lark.exceptions import LarkError, UnexpectedInput

from pbmref.orders.errors import (
    OrderMailError,
    OrderSyntaxError,
    StaleTurnError,
    UnknownGameError,
    UnknownPlayerError,
    WrongPasswordError,
    raise_all,
)
from pbmref.orders.habits import judge_habit, signon_password
from pbmref.orders.lines import clean_line, cut_at_end, grammar_text
from pbmref.orders.lookalikes import foreign_letters, in_latin
from pbmref.orders.press import PressBlock, take_press

__all__ = [
    "COMMANDS",
    "MAX_LINE",
    "MAX_LINES",
    "MAX_READ",
    "MAX_SUBJECT",
    "MAX_WORDS",
    "LINE_COMMANDS",
    "LOBBY_COMMANDS",
    "Command",
    "LineCommand",
    "OrderMail",
    "check_password",
    "check_turn",
    "game_from_subject",
    "identify_player",
    "read_order_mail",
    "scan_order_mail",
]

# What the envelope reads of one mail at most (see the module's words): a mail of
# orders needs a few dozen lines and words; a mail from anyone costs a bounded
# few times what such a mail does.
MAX_LINES = 2_000  # lines looked at, quoted and blank ones too, before the orders end
MAX_READ = 100  # of them, lines read as envelope or orders (a greeting too)
MAX_WORDS = 400  # words in the lines read
MAX_LINE = 1_000  # characters of a line read
MAX_SUBJECT = 1_000  # characters of the Subject

COMMANDS = ("HELP", "ORDERS", "STATUS", "MAP", "HISTORY", "CLEAR", "PLAN",
            "DRAW", "NODRAW", "CONCEDE", "NOCONCEDE", "WAIT", "NOWAIT")


@dataclass(frozen=True)
class LineCommand:
    """A command that takes the rest of its line: from ``least`` to ``most``
    words after it, the first a game's name when ``game`` says so; ``words``
    says what they are, ``example`` how one writes the line."""

    least: int
    most: int
    words: str
    example: str
    game: bool = False


LINE_COMMANDS: dict[str, LineCommand] = {
    "LIST": LineCommand(0, 1, "nothing (every game), or one game's name", "LIST dip1",
                        game=True),
    "JOIN": LineCommand(1, 40, "a game's name, then the places you want, the one you want "
                               "most first", "JOIN dip1 FRA ENG", game=True),
    "OBSERVE": LineCommand(1, 1, "one game's name", "OBSERVE dip1", game=True),
    "TAKEOVER": LineCommand(2, 2, "a game's name and the place", "TAKEOVER dip1 FRA",
                            game=True),
    "CONFIRM": LineCommand(1, 1, "the code", "CONFIRM K7QX-M2PA"),
    "RESIGN": LineCommand(0, 1, "nothing (the game of the mail), or a forming game's name",
                          "RESIGN", game=True),
    "SET": LineCommand(2, 40, "ABSENCE FROM date TO date, or TIMEZONE and a zone",
                       "SET ABSENCE FROM 2026-07-01 TO 2026-07-14"),
    "DRAW": LineCommand(0, 40, "nothing (a draw of every surviving power), or the powers "
                               "of the draw", "DRAW AUS ENG FRA"),
}
# The commands that need no game of the mail: a stranger may send them.
LOBBY_COMMANDS = frozenset({"LIST", "JOIN", "OBSERVE", "TAKEOVER", "CONFIRM"})
_ENVELOPE_WORDS = {"GAME", "PASSWORD", "PASSWD", "PW", "TURN", "PHASE", "PILOT", "PLAYER",
                   *COMMANDS, *LINE_COMMANDS}
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_END_WORDS = {"END", "SIGNOFF", "SIGN-OFF", "ENDORDERS", "END-ORDERS"}
_GAME_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
_PHASE = re.compile(r"^[SFW]\d{4}[MRA]$", re.I)

# Lines that end the body: signatures and forwarded or quoted-original blocks
# (Outlook's separator in English, German, Dutch, French and Spanish, and the
# "From:" header line of a quoted original in those languages).
_STOP = re.compile(
    r"^(--|-- .*|_{10,}"
    r"|-{3,}\s*(original message|ursprüngliche nachricht|oorspronkelijk bericht"
    r"|message d'origine|mensaje original|forwarded message|weitergeleitete nachricht"
    r"|doorgestuurd bericht|message transféré|mensaje reenviado)\s*-{3,}"
    r"|begin forwarded message:?|(from|von|van|de|da)\s?:\s.*@.*)\s*$",
    re.I,
)
# A line drawn across: only dashes, stars, equals signs, dots (not "--").
_RULER = re.compile(r"^\s*([-=*_~.+#]\s*){3,}$")
# The attribution above a quote: "On <date>, <name> wrote:" and its Dutch,
# German, French and Spanish forms, where the name may follow the verb.
_ATTRIBUTION = re.compile(
    r"^(on\s.+\swrote|op\s.+\sschreef(\s.*)?|am\s.+\sschrieb(\s.*)?"
    r"|le\s.+\sa\s+[ée]crit|el\s.+\sescribi[óo]"
    r"|.+\s(wrote|schrieb|schreef|a\s+écrit|skrev|scrisse|escribió))\s?:\s*$",
    re.I,
)
# Where a wrapped attribution starts: "On", "Op", "Am", "Le", "El" and a digit
# or a day's name soon after.
_ATTRIBUTION_START = re.compile(r"^(on|op|am|le|el)\s+\S", re.I)
# Lines to skip: a phone's or a mail program's signature line.
_SKIP = re.compile(
    r"^(sent from my .+|get outlook for .+|sent from .+ (mail|phone)|envoyé de mon .+"
    r"|von meinem .+ gesendet|gesendet von .+|verzonden (vanaf|met) .+"
    r"|verstuurd (vanaf|met) .+|enviado desde (mi )?.+)\s*$",
    re.I,
)


@dataclass(frozen=True, slots=True)
class Command:
    """A command of the mail: HELP, HELP <rule>, ORDERS, STATUS, MAP, HISTORY n, CLEAR,
    PLAN, the votes DRAW, NODRAW, CONCEDE TO ENG, NOCONCEDE, WAIT, NOWAIT, and the
    commands of ``LINE_COMMANDS``.

    ``arg`` is HISTORY's turn number; ``rule`` the rule HELP asks for (``M3``);
    ``target`` CONCEDE's side as written (upper-cased), at ``column`` of ``line``;
    ``args`` the words after a line command (a game's name as written, places,
    powers and SET's words upper-cased, a time zone as written)."""

    name: str
    arg: int | None = None
    line_no: int | None = None
    rule: str | None = None
    target: str | None = None
    line: str | None = None
    column: int | None = None
    args: tuple[str, ...] = ()

    def format(self) -> str:
        """The command as a player writes it.

        >>> Command("HELP", rule="M3").format(), Command("HISTORY", 5).format()
        ('HELP M3', 'HISTORY 5')
        >>> Command("CONCEDE", target="ENG").format()
        'CONCEDE TO ENG'
        >>> Command("JOIN", args=("dip1", "FRA", "ENG")).format()
        'JOIN dip1 FRA ENG'
        """
        if self.args:
            return " ".join((self.name, *self.args))
        if self.target is not None:
            return f"{self.name} TO {self.target}"
        if self.rule is not None:
            return f"{self.name} {self.rule}"
        return self.name if self.arg is None else f"{self.name} {self.arg}"


@dataclass(frozen=True, slots=True)
class OrderMail:
    """What the envelope of one order mail says.

    ``game_from`` is ``"body"``, ``"subject"`` or ``""`` (not named);
    ``game_note`` is set when Subject and body name different games (the body
    wins). ``body`` holds ``(line_no, text)`` for each body line, numbered as
    in the mail. ``turn`` is ``TURN n``; ``phase`` is Diplomacy's ``PHASE``.
    ``press`` holds the mail's press blocks (``pbmref.orders.press``), never orders.
    """

    subject: str = ""
    game_id: str | None = None
    game_from: str = ""
    game_note: str | None = None
    password: str | None = None
    turn: int | None = None
    phase: str | None = None
    pilot: str | None = None
    commands: tuple[Command, ...] = ()
    body: tuple[tuple[int, str], ...] = ()
    ended_at: int | None = None  # the END / signature line, when there was one
    password_raw: str | None = None  # as written, before a phone's full stop was dropped
    turn_line_no: int | None = None  # where TURN / PHASE stood
    turn_line: str | None = None
    turn_column: int | None = None
    # (line_no, keyword) of every envelope line, read or not: GAME, PASSWORD ...
    keyword_lines: tuple[tuple[int, str], ...] = ()
    press: tuple[PressBlock, ...] = ()

    @property
    def has_orders(self) -> bool:
        return bool(self.body)

    @property
    def for_lobby(self) -> bool:
        """The mail asks the lobby (J1-J7): a line of LIST, JOIN, OBSERVE, TAKEOVER
        or CONFIRM (read or not), or RESIGN of a game it names."""
        return any(k in LOBBY_COMMANDS for _, k in self.keyword_lines) or any(
            c.name == "RESIGN" and c.args for c in self.commands)

    def command(self, name: str) -> Command | None:
        for c in self.commands:
            if c.name == name.upper():
                return c
        return None

    def describe(self) -> list[str]:
        """The envelope in plain lines, for ``pbmref orders check``."""
        out = []
        if self.game_id:
            where = {"body": "from the GAME line", "subject": "from the Subject"}.get(
                self.game_from, "")
            out.append(f"Game: {self.game_id} ({where})" if where else f"Game: {self.game_id}")
        else:
            out.append("Game: not named")
        if self.game_note:
            out.append(f"Note: {self.game_note}")
        out.append("Password: given" if self.password else "Password: none")
        if self.turn is not None:
            out.append(f"Turn: {self.turn}")
        if self.phase:
            out.append(f"Phase: {self.phase}")
        if self.pilot:
            out.append(f"Pilot: {self.pilot}")
        if self.commands:
            out.append("Commands: " + ", ".join(c.format() for c in self.commands))
        for block in self.press:
            grey = "anonymous " if block.grey else ""
            out.append(f"Press: {grey}to {', '.join(block.receivers) or '?'} "
                       f"({len(block.text)} characters)")
        return out


class _EnvelopeTransformer(Transformer[Token, Any]):
    def _value(self, kind: str, children: list[Token]) -> tuple[str, Token, Token]:
        return (kind, children[0], children[1])

    def game(self, c: list[Token]) -> tuple[str, Token, Token]:
        return self._value("GAME", c)

    def password(self, c: list[Token]) -> tuple[str, Token, Token]:
        return self._value("PASSWORD", c)

    def turn(self, c: list[Token]) -> tuple[str, Token, Token]:
        return self._value("TURN", c)

    def phase(self, c: list[Token]) -> tuple[str, Token, Token]:
        return self._value("PHASE", c)

    def pilot(self, c: list[Token]) -> tuple[str, Token, Token]:
        return self._value("PILOT", c)

    def history(self, c: list[Token]) -> tuple[str, Token, Token]:
        return self._value("HISTORY", c)

    def help_rule(self, c: list[Token]) -> tuple[str, Token, Token]:
        return self._value("HELP", c)

    def concede(self, c: list[Token]) -> tuple[str, Token, Token]:
        return ("CONCEDE", c[0], c[-1])  # CONCEDE [TO] ENG

    def command(self, c: list[Token]) -> tuple[str, Token, None]:
        return ("COMMAND", c[0], None)

    def line(self, c: list[Any]) -> list[Any]:
        return c


@cache
def envelope_parser() -> Lark:
    return Lark(grammar_text("envelope.lark"), parser="lalr", lexer="contextual",
                transformer=_EnvelopeTransformer())


_KEYWORD_HELP = {
    "GAME": ("GAME needs the game's name", "the game's name, e.g. GAME zep1"),
    "PASSWORD": ("PASSWORD needs your password", "your password, e.g. PASSWORD swordfish"),
    "TURN": ("TURN needs the turn number", "a turn number, e.g. TURN 7"),
    "PHASE": ("PHASE needs a phase name", "a phase like S1901M, F1901R or W1901A"),
    "PILOT": ("PILOT needs the pilot's name", "the pilot's name, e.g. PILOT baron"),
    "HISTORY": ("HISTORY needs a turn number", "a turn number, e.g. HISTORY 5"),
    "CONCEDE": ("CONCEDE needs the power you concede to", "a power, e.g. CONCEDE TO ENG"),
    "TO": ("CONCEDE needs the power you concede to", "a power, e.g. CONCEDE TO ENG"),
}


def _keyword_of(token: str) -> str:
    word = token.rstrip(":").upper()
    return {"PASSWD": "PASSWORD", "PW": "PASSWORD", "PLAYER": "PILOT"}.get(word, word)


def _first_word(cleaned: str) -> str:
    match = re.match(r"\s*([A-Za-z][A-Za-z-]*)", cleaned)
    return match.group(1).upper() if match else ""


_SUBJECT_AFTER = {"orders", "order", "turn", "report", "moves", "votes", "phase", "status",
                  "help", "map", "history"}


def game_from_subject(subject: str,
                      known: Iterable[str] | Mapping[str, str] | None = None) -> str | None:
    """The game named in a Subject, or None.

    A name in brackets wins; then ``game NAME``; then a word before
    ``orders``/``turn``/``report``, or one with a digit. With ``known`` game
    ids, any word of the Subject that is one of them is the game (``known``
    may map the ids in ``casefold`` form to the ids, as a store's index does:
    then nothing is done per game).

    >>> game_from_subject("Re: [zep1] turn 7 report")
    'zep1'
    >>> game_from_subject("zep1 orders")
    'zep1'
    >>> game_from_subject("Orders for game dd2")
    'dd2'
    >>> game_from_subject("Hello there") is None
    True
    >>> game_from_subject("Re: dogfight", known=["Dogfight"])
    'Dogfight'
    """
    text = clean_line(subject or "").strip()
    bracket = re.search(r"\[\s*([A-Za-z0-9][A-Za-z0-9_.-]*)\s*\]", text)
    if bracket:
        return bracket.group(1)
    named = re.search(r"\bgame[:\s]+([A-Za-z0-9][A-Za-z0-9_.-]*)", text, re.I)
    if named:
        return named.group(1)
    if known is not None:
        game = _known_game([w.strip(":.,;!?()[]") for w in text.split()], known)
        if game is not None:
            return game
    return _likely_game(text)


def _known_game(words: list[str], known: Iterable[str] | Mapping[str, str]) -> str | None:
    """The first word that is a known game id (in any case), as the id is written."""
    names = known if isinstance(known, Mapping) else {k.casefold(): k for k in known}
    for w in words:
        if w.casefold() in names:
            return names[w.casefold()]
    return None


_SUBJECT_STOP = {"orders", "order", "turn", "report", "for", "my", "the", "a", "phase", "help",
                 "status", "map", "history", "clear", "password", "moves", "votes", "re",
                 "fwd"}


def _likely_game(text: str) -> str | None:
    """After any Re:/Fwd:, the first word like a game id that stands before
    ``orders``/``turn``/``report`` or holds a digit, a dash or an underscore."""
    text = re.sub(r"^\s*((re|fwd?|aw|sv|vs|antw|wg|tr)\s*(\[\d+\])?\s*:\s*)+", "", text,
                  flags=re.I)
    words = [w.strip(":.,;!?()") for w in text.split()]
    for i, w in enumerate(words):
        if not w or w.lower() in _SUBJECT_STOP or w.isdigit() or not _GAME_ID.match(w):
            continue
        if i > 0 and words[i - 1].lower() in ("turn", "phase"):
            continue
        followed = i + 1 < len(words) and words[i + 1].lower() in _SUBJECT_AFTER
        if followed or any(c.isdigit() or c in "-_" for c in w):
            return w
    return None


def scan_order_mail(subject: str, text: str, *, known_games: Iterable[str] | None = None
                    ) -> tuple[OrderMail, list[OrderMailError]]:
    """Read the envelope and keep going past errors: (mail, every error found)."""
    if not isinstance(text, str):
        text = "" if text is None else str(text)
    if not isinstance(subject, str):
        subject = "" if subject is None else str(subject)
    bounded: list[OrderMailError] = []
    if len(subject) > MAX_SUBJECT:
        bounded.append(OrderSyntaxError(
            f"the Subject has more than {MAX_SUBJECT:,} characters; the referee reads a "
            f"Subject of at most {MAX_SUBJECT:,} characters", rule="LIMIT",
            hint="write a short Subject, e.g. the game's name and 'orders'"))
        subject = ""
    # The lines looked at, and the rest as one piece (split no further).
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n", MAX_LINES)
    rest = lines.pop() if len(lines) > MAX_LINES else ""
    # A line too long to read is cut before anything looks at it (its length kept
    # for its error): no pattern runs over a megabyte of one line.
    lengths = {n: len(line) for n, line in enumerate(lines, 1) if len(line) > MAX_LINE}
    for n in lengths:
        lines[n - 1] = lines[n - 1][:MAX_LINE + 1]
    # Press blocks first: their lines are messages, never orders; their own
    # mistakes are the referee's to answer (after the password).
    lines, press = take_press(lines, ends_mail=_ends_mail, starts_quote=_starts_quote,
                              skips=lambda line: bool(_SKIP.match(clean_line(line).strip())))
    scan = _Scan(lines, lengths)
    scan.run()
    if rest and not scan.stopped and scan.ended_at is None:
        bounded += _read_on(rest)
    return (replace(scan.mail(subject, known_games), press=tuple(press)),
            [*bounded, *scan.errors])


# A line that is neither blank nor quoted (a reply's quote: ">" or a phone's "›").
_UNQUOTED = re.compile(r"^[ \t\u00a0]*[^\s>\u203a]", re.M)


def _read_on(rest: str) -> list[OrderMailError]:
    """The error for a mail that goes on past MAX_LINES lines without the end of
    its orders (END, a signature): at its first line there that would be read.
    Only quoted and blank lines past them are no error (a long quoted report)."""
    found = _UNQUOTED.search(rest)
    if found is None:
        return []
    end = rest.find("\n", found.start())
    line = rest[found.start():end if end >= 0 else len(rest)]
    if _ends_mail(line[:MAX_LINE]):
        return []
    return [OrderSyntaxError(
        f"the mail goes on past line {MAX_LINES:,}; the referee reads the first "
        f"{MAX_LINES:,} lines of a mail", rule="LIMIT",
        line_no=MAX_LINES + rest.count("\n", 0, found.start()) + 1,
        line=line if len(line) <= MAX_LINE else None,
        hint="put your orders at the top of the mail, and END below them")]


def _ends_mail(raw: str) -> bool:
    """Whether a line ends the mail: a signature, a forwarded block, END."""
    line = raw.rstrip("\r\n").replace("\u00a0", " ")
    cleaned = clean_line(raw)
    return bool(_STOP.match(line)) or line.strip() == "--" or (
        _first_word(cleaned) in _END_WORDS and len(cleaned.split()) == 1)


def _starts_quote(raw: str) -> bool:
    """Whether a line is the attribution above a quoted reply ("On ... wrote:")."""
    return bool(_ATTRIBUTION.match(raw.strip()))


def _quote_lines(lines: list[str], line_no: int) -> int:
    """How many lines from ``line_no`` (1-based) are quoted reply text or the
    attribution above it ("On ... wrote:", also wrapped over two lines): 0, 1 or 2."""
    stripped = lines[line_no - 1].strip()
    if stripped.startswith(">") or stripped.startswith("\u203a"):
        return 1  # quoted text of a reply (rule: orders.md, Envelope)
    if _ATTRIBUTION.match(stripped):
        return 1  # the "On ... wrote:" line above a quote
    if _ATTRIBUTION_START.match(stripped) and line_no < len(lines):
        following = lines[line_no].strip()
        if not following.startswith(">") and _ATTRIBUTION.match(f"{stripped} {following}"):
            return 2
    return 0


def _unmarked_quote(lines: list[str], after: int) -> bool:
    """Whether the attribution line(s) ending at line ``after`` (1-based) stand
    above a quote without '>' marks: the first line after them that is not
    blank is no quoted line. (A quote with marks may have replies between its
    lines; one without ends the mail.)"""
    for line in lines[after:]:
        if line.strip():
            return not line.strip().startswith((">", "\u203a"))
    return False


class _Scan:
    """One pass over a mail's lines: envelope values, commands, body lines, errors."""

    def __init__(self, lines: list[str], lengths: Mapping[int, int]) -> None:
        self.lines = lines
        self.lengths = lengths  # line number -> length, of each line cut for being too long
        self.errors: list[OrderMailError] = []
        self.found: dict[str, tuple[str, int, str]] = {}  # kind -> (value, line_no, raw)
        self.columns: dict[str, tuple[int, int]] = {}
        self.commands: list[Command] = []
        self.body: list[tuple[int, str]] = []
        self.keyword_lines: list[tuple[int, str]] = []
        self.ended_at: int | None = None
        self.password_raw: str | None = None
        self.read = 0  # lines read as envelope or orders
        self.words = 0  # their words
        self.stopped = False  # a bound was passed: the lines after it are not read

    def run(self) -> None:
        skip = 0
        for line_no, raw in enumerate(self.lines, 1):
            if skip:
                skip -= 1
                continue
            skip = _quote_lines(self.lines, line_no)
            if skip and not raw.lstrip().startswith((">", "\u203a")) and _unmarked_quote(
                    self.lines, line_no + skip - 1):
                # "On ... wrote:" above a quote without '>' (Yahoo, Android clients):
                # the attribution marks where the quote starts, to the end of the mail.
                self.ended_at = line_no
                return
            if skip:
                skip -= 1
                continue
            stripped = raw.strip()
            if _STOP.match(raw.rstrip("\r\n").replace("\u00a0", " ")) or stripped == "--":
                self.ended_at = line_no
                return
            if self.line(line_no, raw):
                return

    def line(self, line_no: int, raw: str) -> bool:
        """Read one line; True when it ends the orders (END, SIGNOFF) or passes a
        bound (MAX_READ, MAX_WORDS: the lines after it are not read)."""
        if len(raw) > MAX_LINE:
            self.read += 1
            self.errors.append(OrderSyntaxError(
                f"this line is {self.lengths.get(line_no, len(raw)):,} characters long; the "
                f"referee reads lines of at most {MAX_LINE:,} characters", rule="LIMIT",
                line_no=line_no, hint="put each order on a line of its own"))
            return False
        cleaned = clean_line(raw)
        # '#' starts a comment at the line's start or after a space.
        hash_at = re.search(r"(^|\s)#", cleaned)
        if hash_at:
            cleaned = cleaned[:hash_at.start()] + " " * (len(cleaned) - hash_at.start())
            raw = raw[:hash_at.start()].rstrip()
        if not cleaned.strip() or _SKIP.match(cleaned.strip()) or _RULER.match(cleaned):
            return False
        word = _first_word(cleaned)
        if word in _END_WORDS:
            self.ended_at = line_no
            return True
        if self._past_bounds(line_no, raw, len(cleaned.split())):
            self.stopped = True
            return True
        habit = judge_habit(cleaned)
        if habit is not None:  # SIGNON, SET WAIT ...: pbmref's own word named
            self._judge_habit(habit, word, line_no, raw, cleaned)
            return False
        if word not in _ENVELOPE_WORDS:
            meant = _first_word(in_latin(cleaned))
            if meant in _ENVELOPE_WORDS:  # "P\u0410SSWORD": that line, never a greeting
                self.keyword_lines.append((line_no, _keyword_of(meant)))
                error = foreign_letters(raw, rule="ENVELOPE")
                assert error is not None  # the line's first word differs in Latin letters
                self.errors.append(error.at(line_no, raw))
                return False
            self.body.append((line_no, raw.rstrip("\r\n")))
            return False
        self.keyword_lines.append((line_no, _keyword_of(word)))
        if word in LINE_COMMANDS:
            self.line_command(word, cleaned, line_no, raw)
            return False
        try:
            items: list[tuple[str, Token, Token | None]] = envelope_parser().parse(
                cleaned)  # type: ignore[assignment]
        except UnexpectedInput as exc:
            self.errors.append(_envelope_error(exc, cleaned).at(line_no, raw))
            return False
        except LarkError as exc:  # pragma: no cover - kept readable all the same
            self.errors.append(OrderSyntaxError(f"cannot read this line ({exc})",
                                                line_no=line_no, line=raw))
            return False
        for kind, key_tok, value_tok in items:
            self.item(kind, key_tok, value_tok, line_no, raw)
        return False

    def _judge_habit(self, habit: OrderMailError, word: str, line_no: int, raw: str,
                     cleaned: str) -> None:
        """A judge's line told in pbmref's words; SIGNON's password is not shown
        and is the line that meant to give one (no second error for it)."""
        password = signon_password(cleaned) if word == "SIGNON" else None
        if password is not None:
            raw = raw.replace(password, "(hidden)")
            self.keyword_lines.append((line_no, "PASSWORD"))
        self.errors.append(habit.at(line_no, raw))

    def _past_bounds(self, line_no: int, raw: str, words: int) -> bool:
        """Count a line read; an error naming the bound it passes, if it does."""
        self.read += 1
        self.words += words
        if self.read > MAX_READ:
            message = (f"the mail has more than {MAX_READ} lines of orders and commands; the "
                       f"referee reads at most {MAX_READ} lines of a mail")
        elif self.words > MAX_WORDS:
            message = (f"the mail has more than {MAX_WORDS} words of orders and commands; "
                       f"the referee reads at most {MAX_WORDS} words of a mail")
        else:
            return False
        self.errors.append(OrderSyntaxError(
            message, rule="LIMIT", line_no=line_no, line=raw,
            hint="send your orders without other text, or in two mails"))
        return True
    def line_command(self, name: str, cleaned: str, line_no: int, raw: str) -> None:
        """A command of ``LINE_COMMANDS``, with the words of its line (checked)."""
        words = [(m.start() + 1, m.group()) for m in re.finditer(r"\S+", cleaned)][1:]
        error = _line_command_error(name, words)
        if error is not None:
            message, column, width, hint = error
            self.errors.append(OrderSyntaxError(
                message, rule="ENVELOPE", line_no=line_no, line=raw, column=column,
                width=width, expected=LINE_COMMANDS[name].words, hint=hint))
            return
        spec = LINE_COMMANDS[name]
        args = tuple(w if (n == 0 and spec.game) or (name == "SET" and n == 1
                                                     and words[0][1].upper() == "TIMEZONE")
                     else w.upper() for n, (_, w) in enumerate(words))
        self.commands.append(Command(name, None, line_no, line=raw, args=args,
                                     column=words[0][0] if words else None))

    def item(self, kind: str, key_tok: Token, value_tok: Token | None, line_no: int,
             raw: str) -> None:
        """One envelope item of a line: a command, or a value (GAME zep1)."""
        if kind == "COMMAND" or value_tok is None:
            self.commands.append(Command(_keyword_of(str(key_tok)), None, line_no))
            return
        value = str(value_tok)
        if kind == "GAME":
            value = _game_name(value, value_tok, raw)
        err = _check_value(kind, value, value_tok, line_no, raw)
        if err is not None:
            self.errors.append(err)
            return
        if kind == "HISTORY":
            self.commands.append(Command("HISTORY", int(value), line_no))
            return
        if kind in ("HELP", "CONCEDE"):
            self.commands.append(Command(kind, None, line_no, rule=value.upper())
                                 if kind == "HELP" else
                                 Command(kind, None, line_no, target=value.upper(), line=raw,
                                         column=value_tok.column))
            return
        previous = self.found.get(kind)
        if previous is not None and _norm(kind, previous[0]) != _norm(kind, value):
            # a password is never repeated in a reply (issue 15), not even a wrong one
            values = (f"one on line {previous[1]}, another here" if kind == "PASSWORD"
                      else f"{previous[0]} on line {previous[1]}, {value} here")
            self.errors.append(OrderSyntaxError(
                f"{kind} is given twice with different values ({values})",
                rule="ENVELOPE", line_no=line_no, line=raw, column=value_tok.column,
                width=len(value), hint=f"keep one {kind} line"))
            return
        if kind == "PASSWORD" and previous is None:  # as written on the line it came from
            start = (value_tok.column or 1) - 1
            self.password_raw = raw[start:].split()[0] if raw[start:].split() else value
        self.found[kind] = (value, line_no, raw)
        self.columns[kind] = (value_tok.column or 1, len(value))

    def mail(self, subject: str, known_games: Iterable[str] | None) -> OrderMail:
        found = self.found
        subject_game = game_from_subject(subject, known_games)
        body_game = found["GAME"][0] if "GAME" in found else None
        note = None
        if body_game and subject_game and body_game.casefold() != subject_game.casefold():
            note = (f"the Subject names game {subject_game} but the GAME line names "
                    f"{body_game}; the GAME line wins")
        turn_at = found.get("TURN") or found.get("PHASE")
        return OrderMail(
            subject=subject,
            game_id=body_game or subject_game,
            game_from="body" if body_game else ("subject" if subject_game else ""),
            game_note=note,
            password=found["PASSWORD"][0] if "PASSWORD" in found else None,
            turn=int(found["TURN"][0]) if "TURN" in found else None,
            phase=found["PHASE"][0].upper() if "PHASE" in found else None,
            pilot=found["PILOT"][0] if "PILOT" in found else None,
            commands=tuple(self.commands),
            body=tuple(self.body),
            ended_at=self.ended_at,
            password_raw=self.password_raw,
            turn_line_no=turn_at[1] if turn_at else None,
            turn_line=turn_at[2] if turn_at else None,
            turn_column=(self.columns.get("TURN") or self.columns.get("PHASE")
                         or (None, 0))[0],
            keyword_lines=tuple(self.keyword_lines),
        )


def _line_command_error(name: str, words: list[tuple[int, str]]
                        ) -> tuple[str, int | None, int, str] | None:
    """What is wrong with the words of a line command: (message, column, width,
    hint), or None.

    >>> _line_command_error("CONFIRM", [(9, "K7QX"), (14, "M2PA")])[0]
    'CONFIRM takes the code, not 2 words'
    """
    spec = LINE_COMMANDS[name]
    hint = f"write e.g. {spec.example}"
    if len(words) < spec.least:
        return (f"{name} needs {spec.words.split(', or')[0]}", None, 1, hint)
    if name == "SET":
        return _set_error(words)
    if len(words) > spec.most:
        column = words[spec.most][0]
        return (f"{name} takes {spec.words}, not {len(words)} words", column,
                len(words[spec.most][1]),
                f"one {name} line for each ({hint})" if spec.most == 1 else hint)
    if spec.game and words and not _GAME_ID.match(words[0][1]):
        column, word = words[0]
        return (f"{word} is not a game name", column, len(word),
                "game names are letters, digits, '-', '_' and '.'")
    return None


def _set_error(words: list[tuple[int, str]]) -> tuple[str, int | None, int, str] | None:
    """What is wrong with ``SET ABSENCE FROM date TO date`` / ``SET TIMEZONE zone``."""
    what = words[0][1].upper()
    if what == "TIMEZONE":
        if len(words) != 2:
            return ("SET TIMEZONE needs one zone, e.g. Europe/Paris", None, 1,
                    "write e.g. SET TIMEZONE Europe/Paris")
        return None
    absence_hint = "write e.g. SET ABSENCE FROM 2026-07-01 TO 2026-07-14"
    if what != "ABSENCE":
        return (f"SET knows ABSENCE and TIMEZONE, not {words[0][1]}", words[0][0],
                len(words[0][1]), absence_hint)
    shape = [w.upper() for _, w in words]
    if len(words) != 5 or shape[1] != "FROM" or shape[3] != "TO" or not (
            _DATE.match(shape[2]) and _DATE.match(shape[4])):
        return ("SET ABSENCE needs two dates, year-month-day", None, 1, absence_hint)
    days = []
    for column, text in (words[2], words[4]):
        try:
            days.append(date.fromisoformat(text))
        except ValueError:
            return (f"{text} is not a date", column, len(text), absence_hint)
    if days[1] < days[0]:
        return ("this absence ends before it starts", words[4][0], len(words[4][1]),
                absence_hint)
    return None


def _norm(kind: str, value: str) -> str:
    return value if kind == "PASSWORD" else value.casefold()


def _check_value(kind: str, value: str, tok: Token, line_no: int,
                 raw: str) -> OrderMailError | None:
    def bad(message: str, expected: str, hint: str | None = None) -> OrderMailError:
        return OrderSyntaxError(message, rule="ENVELOPE", line_no=line_no, line=raw,
                                column=tok.column, width=len(value), expected=expected,
                                hint=hint)

    if kind in ("TURN", "HISTORY"):
        if not value.isdigit() or len(value) > 6:
            return bad(f"{kind} needs a turn number, not {value}",
                       _KEYWORD_HELP[kind][1], f"write {kind} 7 (digits only)")
    elif kind == "GAME":
        if not _GAME_ID.match(value) or value.endswith("."):
            return bad(f"{value} is not a game name", _KEYWORD_HELP["GAME"][1],
                       "game names are letters, digits, '-', '_' and '.'")
    elif kind == "PHASE" and not _PHASE.match(value):
        return bad(f"{value} is not a phase", _KEYWORD_HELP["PHASE"][1],
                   "S/F/W, the year, then M (moves), R (retreats) or A (adjustments)")
    return None


def _game_name(value: str, tok: Token, raw: str) -> str:
    """The GAME line's name as written. ``clean_line`` left out the punctuation
    that ended the line; of it only a phone's one full stop ("zep1.") is no
    part of the name: "GAME zep_" names zep_, and "GAME a.." names "a.."
    (no game name), never game a."""
    cut = cut_at_end(raw, (tok.column or 1) - 1 + len(value))
    return value if cut in ("", ".", "!", "?") else value + cut


def _envelope_error(exc: UnexpectedInput, line: str) -> OrderMailError:
    token = getattr(exc, "token", None)
    at_end = token is None or getattr(token, "type", "") == "$END"
    words = line.split()
    keyword = _keyword_of(words[-1]) if words else ""
    if at_end:
        message, expected = _KEYWORD_HELP.get(keyword, ("this line stops too early",
                                                        "a value"))
        example = expected.split("e.g. ")[-1] if "e.g. " in expected else None
        return OrderSyntaxError(message, rule="ENVELOPE", column=len(line.rstrip()) + 1,
                                expected=expected,
                                hint=f"write e.g. {example}" if example else None)
    column = getattr(exc, "column", None)
    word = str(token) if token is not None else ""
    return OrderSyntaxError(
        f"I cannot read {word or 'this'} here", rule="ENVELOPE",
        column=column if isinstance(column, int) and column > 0 else None,
        width=max(1, len(word)),
        expected="GAME, PASSWORD, TURN, PILOT, HELP, HELP <rule>, ORDERS, PLAN, STATUS, "
                 "MAP, HISTORY n or CLEAR",
        hint="put each order on a line of its own")


def read_order_mail(subject: str, text: str, *,
                    known_games: Iterable[str] | None = None) -> OrderMail:
    """Read the envelope of an order mail; raises our errors (all of them at once).

    ``known_games`` (optional): the game ids this referee runs, to find the
    game in any word of the Subject.
    """
    mail, errors = scan_order_mail(subject, text, known_games=known_games)
    raise_all(errors)
    return mail


# ---------------------------------------------------------------------------
# Checks against the game (the referee and ``pbmref orders check`` call these)


def check_turn(mail: OrderMail, open_turn: int | str | None) -> None:
    """``TURN n`` / ``PHASE`` must name the open turn, or the mail is stale."""
    if open_turn is None:
        return
    if isinstance(open_turn, int) and not isinstance(open_turn, bool):
        if mail.turn is not None and mail.turn != open_turn:
            late = mail.turn < open_turn
            raise StaleTurnError(
                f"this mail is for turn {mail.turn}, but turn {open_turn} is open now"
                + ("; turn " + str(mail.turn) + " has been played already" if late else ""),
                given=str(mail.turn), open_turn=str(open_turn),
                line_no=mail.turn_line_no, line=mail.turn_line, column=mail.turn_column,
                width=len(str(mail.turn)), hint=f"check the latest report and write "
                f"TURN {open_turn} (or leave the TURN line out)")
        return
    phase = str(open_turn).upper()
    if mail.phase is not None and mail.phase != phase:
        raise StaleTurnError(
            f"this mail is for phase {mail.phase}, but {phase} is open now",
            given=mail.phase, open_turn=phase, line_no=mail.turn_line_no,
            line=mail.turn_line, hint=f"write PHASE {phase}")
    if mail.turn is not None:
        raise StaleTurnError("Diplomacy turns are named by PHASE, not TURN",
                             given=str(mail.turn), open_turn=phase,
                             line_no=mail.turn_line_no, line=mail.turn_line, hint=f"write PHASE {phase}")


def check_password(mail: OrderMail, verify: Callable[[str], bool],
                   required: bool = True) -> None:
    """The mail's password must pass ``verify`` (which compares with the stored hash)."""
    if mail.password is None:
        if required:
            raise WrongPasswordError("this game needs your password, and the mail has none",
                                     hint="add a line PASSWORD <your password>")
        return
    for candidate in dict.fromkeys((mail.password, mail.password_raw)):
        if candidate and verify(candidate):
            return
    raise WrongPasswordError("the password is wrong",
                             hint="check the password in your welcome mail; passwords "
                                  "are case-sensitive")


def identify_player(mail: OrderMail, sender: str,
                    addresses: Mapping[str, Iterable[str]]) -> str:
    """The player id a mail is from: by the sender's registered address (and PILOT).

    ``addresses`` maps each player id to its registered addresses.
    """
    address = _address(sender)
    mine = [pid for pid, addrs in addresses.items()
            if address and address in {_address(a) for a in addrs}]
    if mail.pilot is not None:
        chosen = [pid for pid in mine if pid.casefold() == mail.pilot.casefold()]
        if chosen:
            return chosen[0]
        if mine:
            raise UnknownPlayerError(
                f"PILOT {mail.pilot} is not one of your pilots in this game "
                f"(yours: {', '.join(mine)})", hint=f"write PILOT {mine[0]}")
    if not mine:
        raise UnknownPlayerError(
            f"{address or 'this address'} is not registered for this game",
            hint="send from the address you gave the game master")
    if len(mine) > 1:
        raise UnknownPlayerError(
            f"you play several pilots here ({', '.join(mine)}); say which",
            hint=f"add a line PILOT {mine[0]}")
    return mine[0]


def _address(text: str) -> str:
    match = re.search(r"<([^>]+)>", text or "")
    return (match.group(1) if match else (text or "")).strip().lower()


def check_game(mail: OrderMail, known: Iterable[str]) -> str:
    """The game id of the mail, which must be one of ``known``; raises UnknownGameError."""
    names = {k.casefold(): k for k in known}
    if not mail.game_id:
        raise UnknownGameError("the mail does not say which game it is for",
                               hint="add a line GAME <name>, or put the name in the Subject")
    if mail.game_id.casefold() not in names:
        raise UnknownGameError(f"there is no game called {mail.game_id}",
                               hint="check the game's name in your last report")
    return names[mail.game_id.casefold()]
