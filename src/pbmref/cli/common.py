"""What every command shares: which config file it reads, and the games folder.

One rule for every command (``serve``, ``adjudicate``, ``mail`` and each game
master's command): the file given with ``--config``, else the file named by
``$PBMREF_CONFIG``, else ``config.yaml`` in the current folder, else the
built-in defaults (local Maildir mode, every folder under the current one).
A file that is named (by the option or the variable) must exist.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from pbmref.config import Config, load_config
from pbmref.store.settings import parse_early_delay

__all__ = ["CONFIG_ENV", "CONFIG_HELP", "LOCAL_CONFIG", "add_config", "config_at",
           "config_of", "config_source", "early_delay_flag", "early_delay_option", "games_dir"]

CONFIG_ENV = "PBMREF_CONFIG"
LOCAL_CONFIG = "config.yaml"
CONFIG_HELP = (f"the referee's config file (default: ${CONFIG_ENV}, else ./{LOCAL_CONFIG}, "
               "else the built-in defaults: local Maildir mode, folders under the current one)")


def add_config(p: argparse.ArgumentParser, *, games: bool = True) -> None:
    """``--config FILE`` (and ``--games DIR``) on a command."""
    p.add_argument("--config", metavar="FILE", help=CONFIG_HELP)
    if games:
        p.add_argument("--games", metavar="DIR", help="the games folder (default: games_dir "
                       "of the config file, else ./games)")


def config_source(args: argparse.Namespace) -> tuple[str | None, bool]:
    """The config file a command reads, and whether it was named (so must exist);
    (None, False) for the built-in defaults."""
    named = getattr(args, "config", None) or os.environ.get(CONFIG_ENV)
    if named:
        return named, True
    if Path(LOCAL_CONFIG).is_file():
        return LOCAL_CONFIG, False
    return None, False


def config_of(args: argparse.Namespace) -> Config:
    """The config of a command: ``--config``, else ``$PBMREF_CONFIG``, else
    ``./config.yaml``, else the defaults (``Config.source`` is None then)."""
    path, named = config_source(args)
    return load_config(path, required=named)


def config_at(path: Path) -> Config:
    """The config file at ``path``, which must exist (``pbmref init`` reads back
    what it wrote)."""
    return load_config(path, required=True)


def games_dir(args: argparse.Namespace) -> Path:
    """``--games``, else the config's ``games_dir``."""
    if getattr(args, "games", None):
        return Path(args.games)
    return config_of(args).games_dir


def early_delay_flag(p: argparse.ArgumentParser) -> None:
    p.add_argument("--early-delay", metavar="DURATION",
                   help="when every player's orders are in, play the turn this long after "
                        "the last came in (e.g. 30m, 2h; 0: at once); default: the ruleset's "
                        "(tweedekker 30m, Diplomacy 1h, Fast Play 0)")


def early_delay_option(args: argparse.Namespace) -> str | None:
    """``--early-delay`` checked (game.yaml's ``early_delay``); a bad one is
    refused in one plain line naming the option."""
    if args.early_delay is None:
        return None
    try:
        parse_early_delay(args.early_delay)
    except ValueError as exc:
        raise ValueError(f"--early-delay: {exc} (0: at once)") from None
    return str(args.early_delay)
