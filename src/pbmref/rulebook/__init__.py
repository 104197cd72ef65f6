"""The project's own rulebooks, shipped inside the package, and looking a rule up.

``tweedekker.md`` (with the zeppelin scenario), ``fastplay.md``,
``diplomacy.md`` (Diplomacy and Dirigible Diplomacy) and ``judge.md`` (the
house rules of every game: joining, deadlines, draws, the end) hold one Markdown
heading per rule: ``### M3 — Stalling``, then its text, Rulings included.
``rule("M3")`` is that rule as a ``Rule`` (its number, title, book and text);
``rule_text("m3")`` the text a player gets for ``HELP M3`` or ``pbmref rules
M3``. The books are in ``books/``; ``docs/rules/`` is that folder, for reading in a clone.

>>> rule("M3").title
'Stalling'
>>> rule("dd8").book
'diplomacy'
>>> rule("X99") is None
True
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from importlib import resources

__all__ = ["BOOKS", "Rule", "all_rules", "rule", "rule_text"]

BOOKS = ("tweedekker", "fastplay", "diplomacy", "judge")
_HEADING = re.compile(r"^### (?P<number>[A-Z]+\d+[a-z]?) — (?P<title>.+)$")
NUMBER = re.compile(r"\b(?:FP|DD|[BTMLFCWZNVJ])\d{1,2}a?\b")  # a rule number in any text


@dataclass(frozen=True)
class Rule:
    number: str  # as the book writes it: M3, L2a, FP12, DD2a
    title: str
    book: str  # tweedekker, fastplay or diplomacy
    text: str  # the rule's own paragraphs, Rulings included

    def format(self) -> str:
        """The rule as a reply shows it: its number and title, then its text."""
        return f"Rule {self.number} ({self.book}): {self.title}\n\n{self.text}\n"


def _rules_of(book: str, text: str) -> list[Rule]:
    """The rules of one book: each ``### N — title`` heading and the lines under it,
    up to the next rule or section heading."""
    found: list[Rule] = []
    current: tuple[str, str] | None = None
    body: list[str] = []
    for line in [*text.splitlines(), "## end"]:
        m = _HEADING.match(line)
        if (m or line.startswith("## ")) and current is not None:
            found.append(Rule(current[0], current[1], book, "\n".join(body).strip()))
            current = None
        if m:
            current, body = (m["number"], m["title"].strip()), []
        elif current is not None:
            body.append(line)
    return found


@cache
def all_rules() -> dict[str, Rule]:
    """Every rule of every book, by its number in capitals (``L2A`` for L2a)."""
    out: dict[str, Rule] = {}
    for book in BOOKS:
        text = (resources.files(__package__) / "books" / f"{book}.md").read_text(
            encoding="utf-8")
        out.update((r.number.upper(), r) for r in _rules_of(book, text))
    return out


def rule(number: str) -> Rule | None:
    """The rule with this number (any case), or None."""
    return all_rules().get(number.strip().upper())


def rule_text(number: str) -> str | None:
    """The rule as a player reads it, or None when there is no such rule."""
    found = rule(number)
    return found.format() if found is not None else None
