"""``pbmref orders check MAIL``: what an order mail means for a game.

MAIL is a saved message (headers and body; the Subject and From are read
from it) or plain text (give ``--subject`` / ``--from`` / ``--player``). The
game is a game folder (``--game DIR``) or a position file
(``--position FILE.yaml``, scenario schema). Prints the envelope and each
order in canonical form, or the reply a player would get for a rejected mail.
Exit status: 0 accepted, 1 rejected, 2 the command could not run.
"""

from __future__ import annotations

import argparse
import email
import email.policy
import sys
from email.message import EmailMessage
from pathlib import Path
from typing import Any

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
    where.add_argument("--game", metavar="GAME_DIR", help="the game's folder")
    where.add_argument("--position", metavar="FILE", help="a position/scenario YAML file")
    check.add_argument("--player", help="the player id (default: from the sender or PILOT)")
    check.add_argument("--from", dest="sender", metavar="ADDRESS",
                       help="the sender's address (default: the message's From)")
    check.add_argument("--subject", help="the Subject (default: the message's Subject)")
    check.add_argument("--ruleset", help="with --position: the ruleset (default: the file's "
                                         "'ruleset' key, else tweedekker)")
    check.add_argument("--no-password", action="store_true",
                       help="do not check the password (GM use)")
    check.set_defaults(func=_check)
    parser.set_defaults(func=lambda args: (parser.print_help(), 2)[1])


def _read_mail(path: str) -> tuple[str, str, str | None]:
    """(subject, body text, From) of a message file or plain text."""
    raw = sys.stdin.buffer.read() if path == "-" else Path(path).read_bytes()
    head = raw[:4096].decode("utf-8", "replace").replace("\r\n", "\n")
    first_block = head.split("\n\n", 1)[0]
    looks_like_mail = any(line.lower().startswith(("subject:", "from:", "message-id:",
                                                   "to:", "date:"))
                          for line in first_block.split("\n")[:30])
    if not looks_like_mail:
        return "", raw.decode("utf-8", "replace"), None
    msg = email.message_from_bytes(raw, policy=email.policy.default)
    subject = str(msg.get("Subject", "") or "")
    sender = str(msg.get("From", "") or "") or None
    text = ""
    if isinstance(msg, EmailMessage):
        part = msg.get_body(preferencelist=("plain", "html"))
        if part is not None:
            try:
                text = part.get_content()
            except (LookupError, ValueError):
                payload = part.get_payload(decode=True)
                text = payload.decode("utf-8", "replace") if isinstance(payload, bytes) else ""
            if part.get_content_type() == "text/html":
                import html
                import re

                text = html.unescape(re.sub(r"<br\s*/?>|</p>|</div>", "\n", text, flags=re.I))
                text = re.sub(r"<[^>]+>", "", text)
    return subject, str(text), sender


def _check(args: argparse.Namespace) -> int:
    from pbmref.orders.check import check_order_mail
    from pbmref.orders.errors import OrderMailError
    from pbmref.orders.render import render_errors

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
            kwargs = _game_context(args.game, args.no_password)
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


def _game_context(path: str, no_password: bool) -> dict[str, Any]:
    try:
        from pbmref.store import open_game
    except ImportError:
        try:
            from pbmref.store.game import open_game
        except ImportError as exc:
            raise _Fail(f"the game store is not available ({exc}); use --position") from None
    try:
        game = open_game(path)
    except Exception as exc:  # noqa: BLE001 - the store's own error text is plain words
        raise _Fail(str(exc)) from None
    players = game.settings.players
    context: dict[str, Any] = {
        "ruleset": game.settings.ruleset,
        "position": game.position,
        "open_turn": _open_turn(game.settings.ruleset, game.position, game.turn),
        "addresses": {pid: p.addresses for pid, p in players.items()},
        "game_id": getattr(game, "id", None),
    }
    if not no_password and hasattr(game, "check_password"):
        context["verify_password"] = game.check_password
        context["password_required"] = lambda pid: bool(
            getattr(players.get(pid), "password_hash", None))
    return context


def _open_turn(ruleset: str, position: dict[str, Any], turn: int | None) -> int | str | None:
    if ruleset in ("diplomacy", "dirigible") and position.get("phase"):
        return str(position["phase"])
    return turn


def _position_context(path: str, ruleset: str | None) -> dict[str, Any]:
    import yaml

    try:
        data = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise _Fail(f"cannot read {path}: {exc.strerror or exc}") from None
    except yaml.YAMLError as exc:
        raise _Fail(f"{path} is not valid YAML: {exc}") from None
    if not isinstance(data, dict):
        raise _Fail(f"{path}: expected a position (a mapping of keys), found {type(data).__name__}")
    name = ruleset or str(data.get("ruleset", "tweedekker"))
    position = {k: v for k, v in data.items() if k not in ("orders", "expect", "seed",
                                                            "description", "title")}
    turn = data.get("turn") if isinstance(data.get("turn"), int) else None
    return {
        "ruleset": name,
        "position": position,
        "open_turn": _open_turn(name, data, turn) if turn is not None or data.get("phase")
        else None,
        "addresses": {},
        "verify_password": None,
    }
