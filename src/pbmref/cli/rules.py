"""``pbmref rules [NUMBER...]``: the rulebooks that ship with pbmref.

With rule numbers (``pbmref rules M3 dd8``, any case) each rule is printed as
a player gets it for ``HELP M3``; without, every book is listed with its rule
numbers and titles. The books themselves are ``docs/rules/*.md`` in a clone
(``pbmref.rulebook``).
"""

from __future__ import annotations

import argparse
import sys

from pbmref.cli import jsonout
from pbmref.rulebook import BOOKS, all_rules, rule

__all__ = ["register"]


def _json(args: argparse.Namespace) -> int:
    """``rules --json``: every rule asked for (all without numbers), with its text."""
    wanted = [rule(n) for n in args.numbers] if args.numbers else list(all_rules().values())
    jsonout.emit("rules", rules=[{"number": r.number, "title": r.title, "book": r.book,
                                  "text": r.text} for r in wanted if r is not None],
                 unknown=[n for n, r in zip(args.numbers, wanted, strict=True) if r is None]
                 if args.numbers else [])
    return 1 if any(r is None for r in wanted) else 0


def handle_rules(args: argparse.Namespace) -> int:
    if args.json:
        return _json(args)
    if not args.numbers:
        rules = all_rules().values()
        for book in BOOKS:
            mine = [r for r in rules if r.book == book]
            print(f"{book} ({len(mine)} rules; pbmref rules NUMBER prints one):")
            for r in mine:
                print(f"  {r.number:<5} {r.title}")
        return 0
    code = 0
    for i, number in enumerate(args.numbers):
        found = rule(number)
        if found is None:
            print(f"error: there is no rule {number!r} (pbmref rules lists them all)",
                  file=sys.stderr)
            code = 1
            continue
        if i:
            print()
        print(found.format(), end="")
    return code


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("rules", help="print a rule (pbmref rules M3), or list every rule",
                       description="Print rules of the rulebooks pbmref plays by (tweedekker "
                       "with its zeppelin scenario, Fast Play, Diplomacy and Dirigible "
                       "Diplomacy), or list every rule number when none is given.")
    p.add_argument("numbers", nargs="*", metavar="NUMBER", help="rule numbers, e.g. M3 Z7 FP8")
    jsonout.add_json(p)
    p.set_defaults(func=handle_rules)
