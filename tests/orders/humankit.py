"""The table of hand-written mails (human_mails.yaml) and a player who answers replies.

``check(case, text)`` reads one mail of the table the way the referee does
(``pbmref.orders.check.check_order_mail``). ``mails_needed(case)`` plays the
player: send the mail; on a refusal, correct each line the reply names with
the case's ``fixes`` (a line without a fix is sent again as it was) and send
again; count the mails until one is accepted (None: the player is stuck).
A fix may be a list of steps, one for each mistake of the line: a reply that
names two mistakes of a line has the player take two steps, one that names
only the first (the other hidden behind it) one step. Greeting and signature
lines (a case's ``ignored``) count as fixed by leaving them out, as a refusal
that named them asked the player to.

This module imports nothing of the tests around it, so the same table can be
replayed on another checkout of pbmref (the "before" figure of issue 16).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from pbmref.mail.message import read_message
from pbmref.orders.check import CheckedMail, check_order_mail
from pbmref.orders.errors import OrderMailError
from pbmref.rulesets import get_ruleset

HERE = Path(__file__).parent
MAX_MAILS = 6


def _yaml(name: str) -> Any:
    return yaml.safe_load((HERE / name).read_text(encoding="utf-8"))


TABLE: dict[str, Any] = _yaml("human_mails.yaml")
POSITIONS: dict[str, Any] = {**_yaml("positions.yaml"), **TABLE["positions"]}
MAILS: list[dict[str, Any]] = TABLE["mails"]


def subject_and_text(case: dict[str, Any]) -> tuple[str, str]:
    """The Subject and text the referee reads of the case's mail: a ``raw``
    mail (as a client sends it) is read by ``read_message`` as the referee's
    intake reads it."""
    if "raw" in case:
        mail = read_message(case["raw"].replace("\n", "\r\n").encode("utf-8"))
        return mail.subject, mail.text
    return case.get("subject", ""), case["text"]


def _body_reader(ruleset: Any, state: Any) -> Any:
    """The ruleset's reader of body lines; a checkout from before the one reader
    of issue 42 item 3 (no ``body_reader``) takes ``read_orders`` itself."""
    if hasattr(ruleset, "body_reader"):
        return ruleset.body_reader(state)
    return lambda who, lines: ruleset.read_orders(state, who, lines)


def check(case: dict[str, Any], text: str | None = None) -> CheckedMail:
    """Read the case's mail (or ``text``) for its game and player."""
    position = POSITIONS[case.get("game", "zep1")]
    ruleset = get_ruleset(position["ruleset"])
    state = ruleset.decode(position)
    kwargs: dict[str, Any] = {
        "read_body": _body_reader(ruleset, state),
        "player": case.get("player", "baron"),
        "open_turn": position.get("turn", position.get("phase")),
    }
    if "password" in case:
        secret = case["password"]
        kwargs["verify_password"] = lambda who, pw: pw == secret
    subject, written = subject_and_text(case)
    return check_order_mail(subject, written if text is None else text, **kwargs)


def ignored_of(case: dict[str, Any]) -> list[int]:
    """The lines of the mail that are left out as greetings and signatures."""
    return list((case.get("ok") or {}).get("ignored", case.get("ignored", [])))


def fixes_of(case: dict[str, Any]) -> dict[int, list[str | None]]:
    """Line number -> the steps of its correction (None: the line is taken out)."""
    fixes: dict[int, list[str | None]] = {n: [None] for n in ignored_of(case)}
    for n, fix in (case.get("fixes") or {}).items():
        fixes[int(n)] = list(fix) if isinstance(fix, list) else [fix]
    return fixes


def mails_needed(case: dict[str, Any]) -> int | None:
    """How many mails the player sends for this turn, answering each reply."""
    fixes = fixes_of(case)
    rows = [(n, text) for n, text in enumerate(subject_and_text(case)[1].split("\n"), 1)]
    steps_taken: dict[int, int] = {}
    for sent in range(1, MAX_MAILS + 1):
        try:
            check(case, "\n".join(text for _, text in rows))
        except OrderMailError as exc:
            named: dict[int, int] = {}  # original line -> mistakes the reply names there
            for e in exc.errors:
                if e.line_no is not None and 0 < e.line_no <= len(rows):
                    orig = rows[e.line_no - 1][0]
                    named[orig] = named.get(orig, 0) + 1
            todo: dict[int, str | None] = {}
            for orig, count in named.items():
                steps = fixes.get(orig, [])
                taken = steps_taken.get(orig, 0)
                if taken < len(steps):
                    steps_taken[orig] = min(len(steps), taken + count)
                    todo[orig] = steps[steps_taken[orig] - 1]
            if not todo:
                return None  # nothing the reply names can be corrected: stuck
            new_rows: list[tuple[int, str]] = []
            for orig, text in rows:
                fix = todo.get(orig, text)
                if orig not in todo:
                    new_rows.append((orig, text))
                elif fix is not None and (not new_rows or new_rows[-1][0] != orig):
                    # A fixed line (maybe one written as several) is written anew once.
                    new_rows.extend((orig, line) for line in fix.split("\n"))
            rows = new_rows
            continue
        return sent
    return None
