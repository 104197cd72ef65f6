"""What the envelope reads of one mail is bounded before any grammar sees it
(issue 40, item 5): a line too long, too many lines or words of orders, a
mail that goes on too far, a Subject too long. Each is a plain error at its
line that names the limit (never silence), the rest of the mail is read up
to the bound, and what lies beyond is handed to nobody."""

from __future__ import annotations

import re

import pytest

from pbmref.orders import envelope
from pbmref.orders.envelope import (
    MAX_LINE,
    MAX_LINES,
    MAX_READ,
    MAX_SUBJECT,
    MAX_WORDS,
    scan_order_mail,
)

HEAD = "GAME zep1\nPASSWORD swordfish\n"  # two lines, four words
LONG = "1: " + "LS " * 400_000

# name: (subject, text, line of the error (None: the mail as a whole), its words)
CASES: dict[str, tuple[str, str, int | None, str]] = {
    "long-line": ("orders", HEAD + "PLANE\n" + LONG + "\n2: A\n",
                  4, f"{len(LONG):,} characters.*at most {MAX_LINE:,}"),
    "long-word": ("orders", HEAD + "1: " + "L" * (MAX_LINE + 1) + "\n",
                  3, f"at most {MAX_LINE:,} characters"),
    "long-envelope-line": ("orders", "GAME " + "z" * 10 * MAX_LINE + "\n",
                           1, f"at most {MAX_LINE:,} characters"),
    "many-lines": ("orders", HEAD + "PLANE\n" + "1: A\n" * (MAX_READ + 50),
                   MAX_READ + 1, f"more than {MAX_READ} lines.*at most {MAX_READ}"),
    "many-words": ("orders", HEAD + ("1: " + "LS " * 99 + "\n") * (MAX_WORDS // 50),
                   2 + (MAX_WORDS - 4) // 100 + 1, f"more than {MAX_WORDS} words"),
    "goes-on": ("orders", HEAD + "PLANE\n" + "\n> quoted\n" * MAX_LINES + "1: A\n",
                3 + 2 * MAX_LINES + 1, f"past line {MAX_LINES:,}.*first {MAX_LINES:,} lines"),
    "long-subject": ("zep1 " * (MAX_SUBJECT // 5 + 1), HEAD + "PLANE\n1: A\n",
                     None, f"Subject has more than {MAX_SUBJECT:,} characters.*"
                           f"at most {MAX_SUBJECT:,}"),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_mail_past_a_bound_gets_an_error_naming_it(name: str) -> None:
    subject, text, line, words = CASES[name]
    mail, errors = scan_order_mail(subject, text)
    bounded = [e for e in errors if e.rule == "LIMIT"]
    assert len(bounded) == 1, [str(e) for e in errors]
    error = bounded[0]
    assert error.line_no == line, (error.line_no, line, str(error))
    assert re.search(words, error.message), error.message
    # a line too long to read is never quoted (a window of it could hold part of
    # a password); the others are, whole, for the reply to mask and cut
    assert error.line is None or len(error.line) <= MAX_LINE, len(error.line)
    if name.startswith("long") and name != "long-subject":
        assert error.line is None
    assert mail.game_id == ("zep1" if name != "long-envelope-line" else None)
    # what lies past the bound is handed to no reader
    assert len(mail.body) <= MAX_READ
    assert all(len(text) <= MAX_LINE for _, text in mail.body)
    assert sum(len(text.split()) for _, text in mail.body) <= MAX_WORDS


def test_the_grammar_never_sees_a_line_past_a_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[str] = []
    parser = envelope.envelope_parser()

    class Watching:
        def parse(self, line: str) -> object:
            seen.append(line)
            return parser.parse(line)

    monkeypatch.setattr(envelope, "envelope_parser", lambda: Watching())
    scan_order_mail("orders", "GAME " + "z" * 10 * MAX_LINE + "\nSTATUS\n" * (MAX_READ + 5))
    assert len(seen) == MAX_READ - 1 and all(len(s) < 20 for s in seen), len(seen)


def test_mails_within_the_bounds_read_as_before() -> None:
    """A long greeting, a long quoted report, a Subject of a few words: no error."""
    text = (HEAD + "Hi referee, " + "this turn I go for the zeppelin " * 25 + "\n"
            + "PLANE\n1: A\n2: A\n3: L\nEND\n" + "> report line\n" * 5 * MAX_LINES)
    mail, errors = scan_order_mail("Re: [zep1] turn 7 report", text)
    assert errors == [] and mail.game_id == "zep1" and len(mail.body) == 5
    # past MAX_LINES, only quoted or blank lines: nothing more to read
    quoted_below = HEAD + "PLANE\n1: A\n\nOn Monday, the referee wrote:\n" + \
        "> report line\n\n" * MAX_LINES
    mail, errors = scan_order_mail("orders", quoted_below)
    assert errors == [] and len(mail.body) == 2


def test_many_password_lines_leave_one_password_to_check() -> None:
    """The first PASSWORD line gives the password and its form as written; the
    others are errors. (The form as written came from the last line, so a mail
    of many PASSWORD lines had two passwords checked, each at scrypt's price.)"""
    mail, errors = scan_order_mail("orders", "GAME zep1\nPW first.\n" + "".join(
        f"PASSWORD other-{i}\n" for i in range(20)))
    assert (mail.password, mail.password_raw) == ("first", "first.")
    assert len(errors) == 20 and all("twice" in e.message for e in errors)
