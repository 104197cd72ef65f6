"""``pbmref scenario FILE...``: run scenario files (docs/scenario-format.md).

One file: its resulting position with its events, as YAML on standard
output. Several files (or a folder): one line per file (``PATH: ok``,
``differs``, ``broken``), then the count; ``-v`` prints each result as well
(as YAML documents headed by that line as a comment). Differences from
``expect`` and errors go to standard error as ``FILE:LINE: message (rule
X)``. Exit status: 0 all matched, 1 some expected value differs, 2 a file is
broken.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from pbmref.base.yamlfile import dump_yaml
from pbmref.rulesets.scenario_files import (
    EXIT_BROKEN,
    EXIT_DIFFERS,
    EXIT_OK,
    FileResult,
    run_file,
)

_VERDICT = {EXIT_OK: "ok", EXIT_DIFFERS: "differs", EXIT_BROKEN: "broken"}


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "scenario",
        help="run scenario files (one turn each) and check their expect blocks",
        description="Run each scenario file through the referee's rules and compare the "
        "result with its expect block. One file: print the resulting position and events. "
        "Several files or a folder: one line per file and the count (-v: the results too).",
    )
    p.add_argument("files", nargs="+", metavar="FILE",
                   help="scenario YAML files (a folder means every *.yaml in it)")
    out = p.add_mutually_exclusive_group()
    out.add_argument("-q", "--quiet", action="store_true",
                     help="print only differences and errors, not the resulting positions")
    out.add_argument("-v", "--verbose", action="store_true",
                     help="with several files: print every resulting position too")
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


def _print_result(path: Path, outcome: FileResult, head: str, first: bool) -> bool:
    """The result as one YAML document; False when it cannot be printed."""
    try:
        text = dump_yaml(dict(outcome.result or {}))
    except Exception as exc:  # noqa: BLE001 - never a traceback: a result YAML cannot hold
        print(f"{path}: the result cannot be printed as YAML: {exc}", file=sys.stderr)
        return False
    sys.stdout.write(("" if first else "---\n") + f"# {head}\n" + text)
    return True


def _print_messages(path: Path, outcome: FileResult, *, show: bool, note: str) -> None:
    """A scenario's messages (to stderr when it did not pass; a pass's "refused
    as expected" only when shown) and its differences."""
    for message in outcome.messages:
        if outcome.code != EXIT_OK:
            print(message, file=sys.stderr)
        elif show:  # "refused as expected"
            print(note + message)
    for difference in outcome.differences:
        print(f"{path}: {difference}", file=sys.stderr)


def handle(args: argparse.Namespace) -> int:
    files = _expand(args.files)
    if not files:
        print("no scenario files found in " + " ".join(args.files), file=sys.stderr)
        return EXIT_BROKEN
    single = len(files) == 1
    show = not args.quiet and (single or args.verbose)
    listing = not single and not args.quiet  # one line per file
    # with -v the output stays one YAML stream: the plain lines become comments
    note = "# " if listing and show else ""
    worst = EXIT_OK
    counts = {EXIT_OK: 0, EXIT_DIFFERS: 0, EXIT_BROKEN: 0}
    first = True
    for path in files:
        outcome = run_file(path)
        code = outcome.code
        line = f"{path}: {_VERDICT[code]}"
        if show and outcome.result is not None:
            if not _print_result(path, outcome, line if listing else str(path), first):
                code = EXIT_BROKEN
            first = False
        elif listing:
            print(note + line)
        counts[code] += 1
        worst = max(worst, code)
        _print_messages(path, outcome, show=show, note=note)
    if not single:
        print(f"{note}{len(files)} scenarios: {counts[EXIT_OK]} passed, "
              f"{counts[EXIT_DIFFERS]} differ, {counts[EXIT_BROKEN]} broken")
    sys.stdout.flush()
    return worst
