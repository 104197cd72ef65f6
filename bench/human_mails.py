"""How the order reader fares on the table of hand-written mails
(tests/orders/human_mails.yaml): each mail counted as understood, a helpful
refusal, an unhelpful reply, misread or dropped (issue 42).

- understood: a mail the table says is valid, read as the table says;
- helpful refusal: a mail the table says is wrong, refused naming every
  mistake the table lists (rule and line);
- unhelpful: a valid mail refused, or a wrong one refused without naming
  each of its mistakes;
- misread: accepted with other orders than the table's, or a wrong mail
  accepted with nothing left out;
- dropped: accepted while a line the table reads as orders (or names as a
  mistake) was left out as a greeting.

A mail with ``raw`` in the table is a whole mail as a client sends it: its
Subject and text are what ``pbmref.mail.message.read_message`` gives.

    .venv/bin/python bench/human_mails.py            # this checkout
    PYTHONPATH=/path/to/other/src .venv/bin/python bench/human_mails.py --show 3
    .venv/bin/python bench/human_mails.py --cpu 5     # and the reader's CPU a mail

Run with another checkout's ``src`` first on the path to count its reader
(main's, for the "before" figure); the table is always this checkout's.
"""

from __future__ import annotations

import argparse
import collections
import statistics
import sys
import time
from pathlib import Path
from typing import Any

TESTS = Path(__file__).resolve().parent.parent / "tests" / "orders"
sys.path.insert(0, str(TESTS))

import humankit  # noqa: E402 - the table's own reader, from this checkout's tests

from pbmref.orders.errors import OrderMailError  # noqa: E402
from pbmref.orders.render import render_errors  # noqa: E402

KINDS = ("understood", "helpful refusal", "unhelpful", "misread", "dropped")


def read(case: dict[str, Any]) -> Any:
    """The reader's answer: a CheckedMail, or the OrderMailError it raised."""
    try:
        return humankit.check(case)
    except OrderMailError as exc:
        return exc


def classify(case: dict[str, Any], got: Any) -> str:
    refused = isinstance(got, OrderMailError)
    ignored = {n for n, _ in getattr(got, "ignored", ())}
    if "ok" in case:
        want = case["ok"]
        if refused:
            return "unhelpful"
        if got.entry == want["entry"]:
            return "understood"
        return "dropped" if ignored - set(want.get("ignored", [])) else "misread"
    wanted = case["errors"]
    if not refused:
        named = {e["line"] for e in wanted}
        return "dropped" if ignored & named or ignored else "misread"
    found = [(e.rule, e.line_no) for e in got.errors]
    if all((w["rule"], w["line"]) in found for w in wanted):
        return "helpful refusal"
    return "unhelpful"


def reply_of(got: Any) -> str:
    if isinstance(got, OrderMailError):
        return render_errors(got)
    return "\n".join(got.describe())


def cpu_per_mail(mails: list[dict[str, Any]], rounds: int) -> float:
    """The reader's CPU time for one mail of ``mails`` in ms: the median of
    ``rounds`` rounds over all of them, after one round to warm up."""
    times = []
    for n in range(rounds + 1):
        start = time.process_time()
        for case in mails:
            read(case)
        if n:
            times.append((time.process_time() - start) / len(mails) * 1000)
    return statistics.median(times)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--show", default="", help="names of mails whose replies to print, "
                    "comma separated")
    ap.add_argument("--new", action="store_true", help="count only the mails of issue 42")
    ap.add_argument("--list", action="store_true", help="print each mail's class")
    ap.add_argument("--cpu", type=int, default=0, metavar="N",
                    help="also print the reader's CPU time a mail, the median of N rounds")
    args = ap.parse_args(argv)
    mails = [c for c in humankit.MAILS if not args.new or c.get("issue") == 42]
    if args.cpu:
        print(f"{cpu_per_mail(mails, args.cpu):.3f} ms of CPU a mail (median of {args.cpu})")
    counts: collections.Counter[str] = collections.Counter()
    show = {s.strip() for s in args.show.split(",") if s.strip()}
    for case in mails:
        got = read(case)
        kind = classify(case, got)
        counts[kind] += 1
        if args.list:
            print(f"{kind:16} {case['name']}")
        if case["name"] in show:
            print(f"--- {case['name']} ({kind})\n{reply_of(got)}\n")
    print(f"{len(mails)} mails: " + ", ".join(f"{counts[k]} {k}" for k in KINDS))
    return 0


if __name__ == "__main__":
    sys.exit(main())
