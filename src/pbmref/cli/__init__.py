"""The command line: parses arguments and hands each command to its layer.

Each command group lives in its own module of this package with a
``register(subparsers)`` function; a command sets ``func`` on its parser,
which is called with the parsed arguments and returns the exit status.

Everything a command prints goes through ``visible`` (``pbmref.base.text``):
mail content (press, order lines, Subjects, addresses in log lines) reaches
the game master's terminal without the control, bidi and zero-width
characters a terminal would act on (issue 40).
"""

from __future__ import annotations

import argparse
import difflib
import os
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any, TextIO

from pbmref import __version__
from pbmref.base.text import visible
from pbmref.cli import (
    backup,
    demo,
    gm,
    initcmd,
    lobby,
    mailcmd,
    orders,
    press,
    render,
    roster,
    rules,
    scenario,
    service,
)
from pbmref.cli.common import CONFIG_ENV, LOCAL_CONFIG

# One module per command group; each adds its subcommands.
COMMAND_MODULES = (
    scenario,   # pbmref scenario
    rules,      # pbmref rules
    orders,     # pbmref orders check
    gm,         # new-game, check, status, rerun, extend, pause, ...
    lobby,      # start (a forming game)
    mailcmd,    # serve, adjudicate, fetch
    render,     # render
    demo,       # demo
    roster,     # roster (Fast Play careers)
    press,      # press (the GM reads a game's press)
    service,    # service systemd (the unit that runs the daemon)
    backup,     # backup, restore
    initcmd,    # init (a referee's folder for a mail provider)
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="pbmref",
        description="A play-by-mail referee for WWI air combat and Diplomacy.",
        epilog=f"Every command that reads the referee's config takes it from --config FILE, "
               f"else ${CONFIG_ENV}, else ./{LOCAL_CONFIG}, else the built-in defaults "
               "(local Maildir mode, games/ and mail/ under the current folder). GM commands "
               "work on the games folder of that config (or --games DIR).",
    )
    parser.add_argument("--version", action="version", version=f"pbmref {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in COMMAND_MODULES:
        module.register(sub)
    return parser


# What the referee writes (games, spools, its bookkeeping, outgoing mail) is
# readable by its own user and group only: it holds addresses, orders and,
# until delivered, passwords (issue 15).
UMASK = 0o027


def main(argv: Sequence[str] | None = None) -> int:
    os.umask(os.umask(UMASK) | UMASK)
    with _visible_output():
        parser = build_parser()
        unknown = _unknown_command(parser, sys.argv[1:] if argv is None else list(argv))
        if unknown:
            print(unknown, file=sys.stderr)
            return 2
        args = parser.parse_args(argv)
        if not getattr(args, "func", None):
            parser.print_help()
            return 2
        try:
            code = int(args.func(args) or 0)
            sys.stdout.flush()  # a closed pipe shows here, not at the interpreter's exit
            return code
        except KeyboardInterrupt:
            print("interrupted", file=sys.stderr)
            return 130
        except BrokenPipeError:  # ``pbmref status | head``: the reader has seen enough
            _quiet_stdout()
            return 141  # as a program killed by SIGPIPE


def _unknown_command(parser: argparse.ArgumentParser, argv: list[str]) -> str:
    """What to say of a first word that is no command: the nearest command's
    name ("did you mean"), else where the list is; "" for a known one."""
    if not argv or argv[0].startswith("-"):
        return ""
    commands = [name for action in parser._actions
                if isinstance(action, argparse._SubParsersAction)
                for name in action.choices]
    if argv[0] in commands:
        return ""
    near = difflib.get_close_matches(argv[0], commands, n=1, cutoff=0.6)
    guess = f"; did you mean {near[0]!r}?" if near else ""
    return f"pbmref: there is no command {argv[0]!r}{guess} (pbmref --help lists them)"


class _Visible:
    """A text stream that writes what ``visible`` leaves of each text."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream

    def write(self, text: str) -> int:
        self.stream.write(visible(text))
        return len(text)

    def writelines(self, lines: Iterator[str]) -> None:
        for line in lines:
            self.write(line)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.stream, name)


@contextmanager
def _visible_output() -> Iterator[None]:
    """Standard output and error through ``_Visible`` while a command runs."""
    out, err = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = _Visible(out), _Visible(err)
    try:
        yield
    finally:
        sys.stdout, sys.stderr = out, err


def _quiet_stdout() -> None:
    """Point standard output at /dev/null, so that Python's own flush at exit
    does not fail on the closed pipe a second time."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)
