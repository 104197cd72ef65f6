"""What the referee never repeats and never keeps of a mail: its passwords.

orders.md (PASSWORD) promises that the secret itself is never kept; issue 15
adds that it is never echoed either. Both are done on the decoded text of the
mail (what ``read_message`` made of quoted-printable, base64, UTF-16 or HTML),
so no transfer encoding, charset or tag inside the password hides it:

- ``password_candidates(text)``: every value written after a PASSWORD keyword
  (also one typed with a look-alike letter of another alphabet, "P\u0410SSWORD");
- ``mail_passwords(mail)``: those of a mail's text and Subject (and of the
  envelope's PASSWORD line, as read);
- ``reply_secrets(mail)``: the passwords a reply to ``mail`` must not repeat:
  those of the player's own lines (not of the lines quoted from an earlier
  mail, which are the referee's own words most often and never shown in a
  reply), and of the Subject where it gives one as a PASSWORD line does
  (not "Re: [zep1] welcome: your password and how to send orders", the
  referee's own Subject: its "and" is no password, issue 40);
- ``mask(text, candidates)``: ``text`` with each of them replaced by ``(hidden)``
  (for what quotes the mail: its Subject, the lines and values of errors);
- ``mask_reply(text, candidates)``: only where a PASSWORD keyword stands before
  one (the referee's own words are left alone, even when a password is "wrong");
- ``hide_in_press(block, candidates)``: a press block with its passwords hidden,
  before it is relayed, kept or copied back to its sender (issue 40);
- ``hide_in_errors(errors, candidates)``: the errors about a mail, its
  passwords hidden in each (the caret stays under its spot);
- ``stored_text(mail, envelope)``: what an orders file keeps of a mail (its
  main headers and the lines the referee read, bounded, every password hidden).

What it costs is a pass or two over the text, however many passwords a mail
names (issue 40: a mail of 50,000 PASSWORD lines once cost minutes): the
values of a text are found once (kept for the next caller), and past
``_FEW`` passwords they are hidden in one pass, each where it stands as a
word (alone, after a keyword, in brackets or before a full stop), not
looked for inside longer words as a few are.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import replace
from functools import lru_cache

from pbmref.mail.message import IncomingMail
from pbmref.orders.envelope import OrderMail
from pbmref.orders.errors import OrderMailError
from pbmref.orders.lookalikes import in_latin
from pbmref.orders.press import PressBlock

__all__ = ["HIDDEN", "hide_in_errors", "hide_in_press", "mail_passwords", "mask",
           "mask_reply", "password_candidates", "reply_secrets", "stored_text"]

HIDDEN = "(hidden)"
# A PASSWORD keyword (or PASSWD, PW) and the value after it, as the envelope reads it.
_KEYWORD_VALUE = re.compile(r"(?i)(?<![\w-])(?:password|passwd|pw)\b[ \t:=]*(\S+)")
# In a Subject, a value given as a PASSWORD line gives it: the keyword first (after
# "Re:" and a [game] tag), or in capitals, or followed by ':' or '='.
_SUBJECT_VALUE = re.compile(
    r"(?:^(?i:\s*(?:(?:re|fwd?|aw|sv|vs|antw|wg|tr)\s*(?:\[\d+\])?\s*:\s*)*(?:\[[^\]]*\]\s*)?"
    r"(?:password|passwd|pw)\b)|(?<![\w-])(?:PASSWORD|PASSWD|PW)\b"
    r"|(?<![\w-])(?i:password|passwd|pw)[ \t]*[:=])[ \t:=]*(\S+)")
# A line quoted from an earlier mail (as the envelope skips it).
_QUOTED = re.compile(r"^[ \t]*(?:>|\u203a)")
# A value this long is hidden wherever it stands; a shorter one only after a keyword
# (hiding every "ab" of a reply would make it unreadable).
_ANYWHERE = 4
_STORED_HEADERS = ("From", "To", "Subject", "Date", "Message-ID")
# What an orders file keeps of a mail at most (``stored_text``), in characters: a
# header's value, a line, the lines the referee read, the other lines before the
# end of the orders. Some 30 KB of YAML, however big the mail.
KEPT_HEADER = 300
KEPT_LINE = 1_000
KEPT_READ = 20_000
KEPT_OTHER = 4_000


# The same, searched in the lower-cased text: starting with the letter, the search
# skips from "p" to "p" at C speed (a look-behind first makes it try every place).
_KEYWORD_LOWER = re.compile(r"p(?<![\w-]p)(?:assw(?:or)?d|w)\b[ \t:=]*(\S+)")
# Past this many passwords a text is masked in one pass, word by word (``_FEW``).
_FEW = 16
# What may stand around a password in a text (brackets, quotes, a full stop).
_AROUND = ".,;:!?()[]{}<>\"'`"
_SPACE = re.compile(r"(\s+)")


def password_candidates(text: str, *also: str | None) -> tuple[str, ...]:
    """Every value written after a PASSWORD keyword in ``text`` (and ``also``),
    longest first, with a phone's full stop or comma at its end dropped too.

    >>> password_candidates("GAME z\\nPASSWORD swordfish.\\nPW: ab")
    ('swordfish.', 'swordfish', 'ab')
    """
    return _candidates(text, also)


@lru_cache(maxsize=8)
def _candidates(text: str, also: tuple[str | None, ...]) -> tuple[str, ...]:
    """``password_candidates``, worked out once for the callers of one mail (a
    reply, its errors, the stored copy ask alike)."""
    found = dict.fromkeys(v for v in (*_values(text), *also) if v)
    found.update(dict.fromkeys([v.rstrip(".,;") for v in found]))
    found.pop("", None)
    return tuple(sorted(found, key=len, reverse=True))


@lru_cache(maxsize=8)
def _values(text: str) -> tuple[str, ...]:
    """The values after a PASSWORD keyword in ``text``."""
    latin = in_latin(text)  # a keyword typed with look-alike letters counts too
    low = latin.lower()
    if len(low) != len(text):  # a letter that lower-cases to two: the plain search
        return _found(_KEYWORD_VALUE, text)
    return tuple(text[start:end] for start, end in (m.span(1) for m in
                                                    _KEYWORD_LOWER.finditer(low)))


def mail_passwords(mail: IncomingMail, envelope: OrderMail | None = None) -> tuple[str, ...]:
    """The passwords ``mail`` holds (or seems to), in its text or its Subject,
    and the envelope's as read: never to be repeated."""
    also = (envelope.password, envelope.password_raw) if envelope is not None else ()
    return password_candidates(mail.text, *password_candidates(mail.subject), *also)


def _found(pattern: re.Pattern[str], text: str) -> tuple[str, ...]:
    """The values ``pattern`` finds after a keyword in ``text``, also when the
    keyword has letters of another alphabet ("P\u0410SSWORD"): found in the text
    in Latin letters, taken from the text as written."""
    return tuple(text[m.start(1):m.end(1)] for m in pattern.finditer(in_latin(text)))


def reply_secrets(mail: IncomingMail) -> tuple[str, ...]:
    r"""The passwords a reply to ``mail`` never repeats: those of its own lines
    and of its Subject where it gives one (see the module's words).

    >>> from pbmref.mail.message import read_message
    >>> reply_secrets(read_message(
    ...     b"Subject: Re: [z] welcome: your password and how to send orders\r\n\r\n"
    ...     b"PASSWORD swordfish\r\n> PASSWORD and your password\r\n"))
    ('swordfish',)
    >>> reply_secrets(read_message(b"Subject: Re: password: swordfish\r\n\r\nhi\r\n"))
    ('swordfish',)
    """
    own = "\n".join(line for line in mail.text.splitlines() if not _QUOTED.match(line))
    return password_candidates(own, *_found(_SUBJECT_VALUE, mail.subject))


def mask(text: str, candidates: Iterable[str], filler: str | None = None) -> str:
    """``text`` with every password of ``candidates`` hidden (by ``filler``, else
    by ``(hidden)``; ``"*"`` fills each with as many stars).

    >>> mask("PASSWORD swordfish is wrong; swordfish.", ["swordfish"])
    'PASSWORD (hidden) is wrong; (hidden).'
    >>> mask("PASSWORD ab, grab", ["ab"])
    'PASSWORD (hidden), grab'
    >>> mask("PASSWORD swordfish x", ["swordfish"], "*")
    'PASSWORD ********* x'
    """
    return _passwords(tuple(candidates)).mask(text, filler)


def mask_reply(text: str, candidates: Iterable[str]) -> str:
    r"""The referee's reply with each password of ``candidates`` hidden where a
    PASSWORD keyword stands before it: its own words stay as they are.

    >>> mask_reply("had a wrong or missing PASSWORD.\n    PASSWORD wrong x", ["wrong"])
    'had a wrong or missing PASSWORD.\n    PASSWORD (hidden) x'
    """
    return _passwords(tuple(candidates)).mask_reply(text)


_VALUE_AFTER = re.compile(r"(?i)(?<![\w-])((?:password|passwd|pw)\b[ \t:=]*)(\S+)")


class _Passwords:
    """The passwords of one mail, ready to be hidden in as many texts as need it
    (a reply, each of its errors). A few are each looked for through the text;
    past ``_FEW`` the text is gone through once, whatever their number."""

    def __init__(self, candidates: Iterable[str]) -> None:
        self.secrets = tuple(candidates)
        self.many = len(self.secrets) > _FEW
        self.wanted = frozenset(self.secrets) if self.many else frozenset()
        self.long = frozenset(s for s in self.wanted if len(s) >= _ANYWHERE)

    def mask(self, text: str, filler: str | None = None) -> str:
        if self.many:
            return self._words(self._after_keywords(text, filler), filler)
        for secret in self.secrets:
            hidden = _hidden(secret, filler)
            if len(secret) >= _ANYWHERE:
                text = text.replace(secret, hidden)
            else:
                text = _hide_after_keyword(text, secret, hidden)
        return text

    def mask_reply(self, text: str) -> str:
        if self.many:
            return self._after_keywords(text, None)
        for secret in self.secrets:
            text = _hide_after_keyword(text, secret, HIDDEN)
        return text

    def _words(self, text: str, filler: str | None) -> str:
        """``text`` with each word that is one of the long passwords hidden, also
        between brackets, quotes or before a full stop."""
        words = _SPACE.split(text)
        for i in range(0, len(words), 2):  # the words; the spaces between stay
            word = words[i]
            if word in self.long:
                words[i] = _hidden(word, filler)
                continue
            core = word.strip(_AROUND)
            if core in self.long:
                at = word.index(core)
                words[i] = word[:at] + _hidden(core, filler) + word[at + len(core):]
        return "".join(words)

    def _after_keywords(self, text: str, filler: str | None) -> str:
        """``text`` with the longest password each value after a PASSWORD keyword
        starts with (up to a character that is no letter or digit) hidden."""
        if "p" not in text.lower():
            return text

        def hide(m: re.Match[str]) -> str:
            value = m.group(2)
            ends = [len(value), *(i for i in range(len(value) - 1, 0, -1)
                                  if not (value[i].isalnum() or value[i] == "_"))]
            for end in ends:
                if value[:end] in self.wanted:
                    return m.group(1) + _hidden(value[:end], filler) + value[end:]
            return m.group(0)

        return _VALUE_AFTER.sub(hide, text)


@lru_cache(maxsize=8)
def _passwords(candidates: tuple[str, ...]) -> _Passwords:
    """The ``_Passwords`` of ``candidates``, made once for the texts of one mail."""
    return _Passwords(candidates)


def _hidden(secret: str, filler: str | None) -> str:
    return "*" * len(secret) if filler == "*" else (filler or HIDDEN)


def _hide_after_keyword(text: str, secret: str, hidden: str) -> str:
    """``text`` with ``secret`` hidden where a PASSWORD keyword stands before it
    (one with look-alike letters too: matched in Latin letters, cut as written)."""
    after = re.compile(r"(?i)(?<![\w-])((?:password|passwd|pw)\b[ \t:=]*)"
                       + re.escape(in_latin(secret)) + r"(?!\w)")
    pieces: list[str] = []
    last = 0
    for m in after.finditer(in_latin(text)):
        pieces += [text[last:m.end(1)], hidden]
        last = m.end()
    return "".join(pieces) + text[last:]


def hide_in_errors(errors: OrderMailError | Iterable[OrderMailError],
                   candidates: Iterable[str]) -> None:
    """Hide the passwords of ``candidates`` in each of ``errors`` (one error or
    several), in place: in the mail line it shows (by stars, so the caret stays
    under its spot) and in its words."""
    secrets = _passwords(tuple(candidates))
    if not secrets.secrets:
        return
    groups = [errors] if isinstance(errors, OrderMailError) else list(errors)
    for error in (e for group in groups for e in group.errors):
        if error.line is not None:
            error.line = secrets.mask(error.line, "*")
        error.message = secrets.mask(error.message)
        error.hint = secrets.mask(error.hint) if error.hint else error.hint
        error.args = (error.summary(),)


def hide_in_press(block: PressBlock, candidates: Iterable[str]) -> PressBlock:
    """``block`` with every password of ``candidates`` hidden in its message,
    as ``mask`` hides them anywhere else the referee quotes a mail.

    >>> from pbmref.orders.press import PressBlock
    >>> block = PressBlock(2, "PRESS TO ENG", False, ("ENG",), (10,),
    ...                    "my PASSWORD is swordfish", ("my PASSWORD is swordfish",))
    >>> hide_in_press(block, ["swordfish"]).text
    'my PASSWORD is (hidden)'
    """
    secrets = tuple(candidates)
    if not secrets:
        return block
    return replace(block, text=mask(block.text, secrets),
                   lines=tuple(mask(line, secrets) for line in block.lines))


def stored_text(mail: IncomingMail, envelope: OrderMail) -> str:
    r"""What the game folder keeps of an order mail, to settle a dispute: its main
    headers and the lines the referee read (``envelope``), every password hidden
    (referee.md: orders are stored with the raw text and Message-ID; orders.md:
    never the password). It is bounded, whatever the mail's size (issue 40: a
    mail of 1 MB was kept whole): a header's value and a line are cut at
    KEPT_HEADER and KEPT_LINE characters, the lines read at KEPT_READ in all,
    the other lines before the end of the orders (blank, quoted, press) at
    KEPT_OTHER, and nothing after the end (END, a signature, a forwarded
    mail) is kept; a note in brackets, starting ``pbmref:``, says what was
    left out where.

    >>> from pbmref.mail.message import read_message
    >>> from pbmref.orders.envelope import scan_order_mail
    >>> mail = read_message(b"Subject: orders\r\n\r\nGAME z\r\nPASSWORD swordfish\r\n"
    ...                     b"PLANE\r\nEND\r\nThe report of turn 6:\r\nfog\r\n")
    >>> print(stored_text(mail, scan_order_mail(mail.subject, mail.text)[0]))
    Subject: orders
    <BLANKLINE>
    GAME z
    PASSWORD (hidden)
    PLANE
    END
    [pbmref: lines 5-6 not kept, 24 characters]
    """
    head = [(name, value) for name in _STORED_HEADERS if (value := mail.header(name))]
    secrets = password_candidates(mail.text,
                                  *password_candidates("\n".join(f"{n}: {v}" for n, v in head)),
                                  envelope.password, envelope.password_raw)
    kept = "\n".join(f"{n}: {_cut(v, KEPT_HEADER)}" for n, v in head)
    return mask(kept + "\n\n" + _kept_lines(mail.text, envelope), secrets)


def _cut(line: str, most: int) -> str:
    """``line``, cut at ``most`` characters with a note of how many more it had."""
    if len(line) <= most:
        return line
    return f"{line[:most]} [pbmref: {len(line) - most:,} more characters not kept]"


def _kept_lines(text: str, envelope: OrderMail) -> str:
    """The lines of ``text`` an orders file keeps (see ``stored_text``), a note in
    place of each run of lines left out."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").rstrip().split("\n")
    read = {n for n, _ in envelope.body} | {n for n, _ in envelope.keyword_lines}
    end = envelope.ended_at or len(lines)
    used = {True: 0, False: 0}
    out: list[str] = []
    left: list[int] = []  # the run of lines left out: its line numbers, its characters

    def note() -> None:
        if left:
            lines_ = f"line {left[0]}" if left[0] == left[1] else f"lines {left[0]}-{left[1]}"
            out.append(f"[pbmref: {lines_} not kept, {left[2]:,} characters]")
        left.clear()

    for n, line in enumerate(lines, 1):
        shown = _cut(line, KEPT_LINE)
        mine = n in read
        if n <= end and used[mine] + len(shown) <= (KEPT_READ if mine else KEPT_OTHER):
            used[mine] += len(shown) + 1
            note()
            out.append(shown)
        elif left:
            left[1], left[2] = n, left[2] + len(line)
        else:
            left.extend((n, n, len(line)))
    if left and not any(lines[i - 1].strip() for i in range(left[0], left[1] + 1)):
        left.clear()  # blank lines at the end: nothing to say
    note()
    return "\n".join(out)
