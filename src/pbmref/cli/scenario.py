"""``pbmref scenario FILE...``: run scenario files (docs/scenario-format.md).

Prints each resulting position with its events as YAML on standard output;
differences from ``expect`` and errors go to standard error as
``FILE:LINE: message (rule X)``. Exit status: 0 all matched, 1 some expected
value differs, 2 a file is broken.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from pbmref.base.yamlfile import dump_yaml
from pbmref.rulesets.scenario_files import EXIT_BROKEN, EXIT_DIFFERS, EXIT_OK, run_file


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "scenario",
        help="run scenario files (one turn each) and check their expect blocks",
        description="Run each scenario file through the referee's rules, print the "
        "resulting position and events, and compare with its expect block.",
    )
    p.add_argument("files", nargs="+", metavar="FILE",
                   help="scenario YAML files (a folder means every *.yaml in it)")
    p.add_argument("-q", "--quiet", action="store_true",
                   help="print only differences and errors, not the resulting positions")
    p.set_defaults(func=handle)


def _expand(names: list[str]) -> list[Path]:
    out: list[Path] = []
    for name in names:
        path = Path(name)
        if path.is_dir():
            out.extend(sorted(path.rglob("*.yaml")) + sorted(path.rglob("*.yml")))  # and below
        else:
            out.append(path)
    return out


def handle(args: argparse.Namespace) -> int:
    files = _expand(args.files)
    if not files:
        print("no scenario files found in " + " ".join(args.files), file=sys.stderr)
        return EXIT_BROKEN
    worst = EXIT_OK
    counts = {EXIT_OK: 0, EXIT_DIFFERS: 0, EXIT_BROKEN: 0}
    first = True
    for path in files:
        outcome = run_file(path)
        counts[outcome.code] += 1
        worst = max(worst, outcome.code)
        if outcome.result is not None and not args.quiet:
            if not first:
                sys.stdout.write("---\n")
            first = False
            sys.stdout.write(f"# {path}\n")
            try:
                sys.stdout.write(dump_yaml(dict(outcome.result)))
            except Exception as exc:  # never a traceback: a result YAML cannot hold
                print(f"{path}: the result cannot be printed as YAML: {exc}", file=sys.stderr)
                worst = max(worst, EXIT_BROKEN)
        for message in outcome.messages:
            stream = sys.stdout if outcome.code == EXIT_OK else sys.stderr
            print(message, file=stream)
        for difference in outcome.differences:
            print(f"{path}: {difference}", file=sys.stderr)
    if len(files) > 1:
        print(f"{len(files)} scenarios: {counts[EXIT_OK]} passed, {counts[EXIT_DIFFERS]} "
              f"differ, {counts[EXIT_BROKEN]} broken", file=sys.stderr)
    sys.stdout.flush()
    return worst
