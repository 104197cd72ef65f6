"""The command line: parses arguments and hands each command to its layer.

Each command group lives in its own module of this package with a
``register(subparsers)`` function; a command sets ``func`` on its parser,
which is called with the parsed arguments and returns the exit status.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from pbmref.cli import demo, gm, mailcmd, orders, render, roster, scenario

# One module per command group; each adds its subcommands.
COMMAND_MODULES = (
    scenario,   # pbmref scenario
    orders,     # pbmref orders check
    gm,         # new-game, check, status, rerun, extend, pause, ...
    mailcmd,    # serve, adjudicate, fetch
    render,     # render
    demo,       # demo
    roster,     # roster (Fast Play careers)
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="pbmref",
        description="A play-by-mail referee for WWI air combat and Diplomacy.",
    )
    parser.add_argument("--version", action="version", version="pbmref 0.1.0")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in COMMAND_MODULES:
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
