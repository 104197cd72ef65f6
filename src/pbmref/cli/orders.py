"""``pbmref orders check MAIL``: what an order mail means for a game.

MAIL is a saved message (headers and body; the Subject and From are read
from it) or plain text (give ``--subject`` / ``--from`` / ``--player``). The
game is named by its id as in every other command (``--game GAME``, in the
games folder of ``--games`` or the config), or by its folder; or it is a
position file (``--position FILE.yaml``, scenario schema). Prints the envelope and each
order in canonical form, or the reply a player would get for a rejected mail.
Exit status: 0 accepted, 1 rejected, 2 the command could not run.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from pbmref.base.errors import GameFileError
from pbmref.base.yamlfile import read_yaml
from pbmref.cli.common import add_config, games_dir
from pbmref.mail.message import read_message
from pbmref.orders.check import check_order_mail
from pbmref.orders.errors import OrderMailError
from pbmref.orders.render import render_errors
from pbmref.rules.plaindata import PositionError
from pbmref.rulesets import UnknownRuleset, get_ruleset
from pbmref.store import Game, GameStore, StoreError, open_game
from pbmref.store.layout import GAME_FILE

__all__ = ["register"]


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = sub.add_parser("orders", help="read order mails (orders check MAIL)")
    osub = parser.add_subparsers(dest="orders_command", metavar="SUBCOMMAND")
    check = osub.add_parser(
        "check", help="show what an order mail means for a game, or every error in it",
        description="Read an order mail the way the referee does and print what it means "
                    "(envelope and orders in canonical form) or the reply listing its errors.")
    check.add_argument("mail", metavar="MAIL", help="a message file or a plain text file ('-': stdin)")
    where = check.add_mutually_exclusive_group(required=True)
    where.add_argument("--game", metavar="GAME", help="the game: its id (in the games folder, "
                       "see --games) or its folder")
    where.add_argument("--position", metavar="FILE", help="a position/scenario YAML file")
    check.add_argument("--player", help="the player id (default: from the sender or PILOT)")
    check.add_argument("--from", dest="sender", metavar="ADDRESS",
                       help="the sender's address (default: the message's From)")
    check.add_argument("--subject", help="the Subject (default: the message's Subject)")
    check.add_argument("--ruleset", help="with --position: the ruleset (default: the file's "
                                         "'ruleset' key, else tweedekker)")
    check.add_argument("--no-password", action="store_true",
                       help="do not check the password (GM use)")
    add_config(check)
    check.set_defaults(func=_check)
    parser.set_defaults(func=lambda args: (parser.print_help(), 2)[1])


def _read_mail(path: str) -> tuple[str, str, str | None]:
    """(subject, body text, From) of a message file or plain text, read as the
    referee reads mail (``pbmref.mail.message``)."""
    raw = sys.stdin.buffer.read() if path == "-" else Path(path).read_bytes()
    head = raw[:4096].decode("utf-8", "replace").replace("\r\n", "\n")
    first_block = head.split("\n\n", 1)[0]
    looks_like_mail = any(line.lower().startswith(("subject:", "from:", "message-id:",
                                                   "to:", "date:"))
                          for line in first_block.split("\n")[:30])
    if not looks_like_mail:
        return "", raw.decode("utf-8", "replace"), None
    mail = read_message(raw)
    return mail.subject, mail.text, mail.from_addr or None


def _check(args: argparse.Namespace) -> int:
    try:
        subject, text, sender = _read_mail(args.mail)
    except OSError as exc:
        print(f"pbmref orders check: cannot read {args.mail}: {exc.strerror or exc}",
              file=sys.stderr)
        return 2
    if args.subject is not None:
        subject = args.subject
    if args.sender:
        sender = args.sender
    kwargs: dict[str, Any] = {}
    try:
        if args.game:
            kwargs = _game_context(_open(args), args.no_password)
        else:
            kwargs = _position_context(args.position, args.ruleset)
    except _Fail as exc:
        print(f"pbmref orders check: {exc}", file=sys.stderr)
        return 2
    if args.player:
        kwargs["player"] = args.player
    elif sender and kwargs.get("addresses"):
        kwargs["sender"] = sender
    else:
        kwargs.pop("addresses", None)
    try:
        checked = check_order_mail(subject, text, **kwargs)
    except OrderMailError as exc:
        print(render_errors(exc), end="")
        return 1
    print("Accepted.")
    for line in checked.describe():
        print(line)
    return 0


class _Fail(Exception):
    pass


def _open(args: argparse.Namespace) -> Game:
    """The game of ``--game``: a folder holding a game.yaml, else an id in the games
    folder."""
    try:
        if (Path(args.game) / GAME_FILE).is_file():
            return open_game(args.game)
        return GameStore(games_dir(args)).open(args.game)
    except StoreError as exc:  # the store's own error text is plain words
        raise _Fail(str(exc)) from None


def _game_context(game: Game, no_password: bool) -> dict[str, Any]:
    players = game.settings.players
    context: dict[str, Any] = {
        "read_body": game.ruleset.body_reader(game.open.state),
        "open_turn": game.turn_label,
        "addresses": {pid: p.addresses for pid, p in players.items()},
        "game_id": game.id,
    }
    if not no_password:
        context["verify_password"] = game.settings.check_password
        context["password_required"] = lambda pid: bool(players[pid].password_hash) \
            if pid in players else True
    return context


def _position_context(path: str, ruleset_name: str | None) -> dict[str, Any]:
    try:
        data = read_yaml(path).mapping("a position (a mapping of keys)")
    except GameFileError as exc:
        raise _Fail(str(exc)) from None
    try:
        ruleset = get_ruleset(ruleset_name or str(data.get("ruleset", "tweedekker")))
    except UnknownRuleset as exc:
        raise _Fail(str(exc)) from None
    position = {k: v for k, v in data.items() if k not in ("orders", "expect", "seed",
                                                            "description", "title")}
    try:
        state = ruleset.decode(position)
    except PositionError as exc:
        raise _Fail(f"{path}: {exc}") from None
    turn = data.get("turn") if isinstance(data.get("turn"), int) else None
    return {
        "read_body": ruleset.body_reader(state),
        "open_turn": ruleset.turn_label(position, turn or 0)
        if turn is not None or data.get("phase") else None,
        "addresses": {},
        "verify_password": None,
    }
