"""``pbmref press GAME``: every press message of a game, as the game master reads it.

The referee keeps each message it relayed in ``games/GAME/press/NNNN.yaml``
with its real sender, also for grey (anonymous) press; this prints them,
oldest first, or only those of one turn (``--turn N``) or one sender
(``--from PLAYER``). Players never see this: they get only the mails the
referee sent them.
"""

from __future__ import annotations

import argparse
import sys

from pbmref.cli import jsonout
from pbmref.cli.common import add_config, games_dir
from pbmref.store import GameStore, StoreError
from pbmref.store.press import PressRecord

__all__ = ["register"]


def _format(record: PressRecord) -> str:
    to = "everyone" if record.broadcast else ", ".join(record.receivers)
    grey = " (grey: the receivers were not told who sent it)" if record.grey else ""
    head = (f"#{record.number} {record.label} {record.sent_at:%Y-%m-%d %H:%M %Z}: "
            f"{record.sender} to {to}{grey}")
    return head + "\n" + "".join(f"    {line}\n" for line in record.text.splitlines())


def handle_press(args: argparse.Namespace) -> int:
    try:
        game = GameStore(games_dir(args)).open(args.game)
        records = game.press.records()
    except StoreError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    shown = [r for r in records
             if (args.turn is None or r.turn == args.turn)
             and (args.sender is None or r.sender == args.sender)]
    if args.json:
        jsonout.emit("press", game=game.id, messages=[
            {"number": r.number, "turn": r.turn, "label": r.label, "sender": r.sender,
             "grey": r.grey, "broadcast": r.broadcast, "receivers": list(r.receivers),
             "observers": r.observers, "sent_at": jsonout.when(r.sent_at), "text": r.text}
            for r in shown])
        return 0
    if not shown:
        print(f"{game.id}: no press" + (" that matches" if records else ""))
        return 0
    for record in shown:
        sys.stdout.write(_format(record))
    print(f"{len(shown)} message{'s' if len(shown) != 1 else ''}")
    return 0


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("press", help="read a game's press, real senders included",
                       description="Print every press message the referee relayed in a "
                       "game, with its real sender (also for grey press), oldest first.")
    add_config(p)
    p.add_argument("game", metavar="GAME")
    p.add_argument("--turn", type=int, metavar="N", help="only the press of turn N")
    p.add_argument("--from", dest="sender", metavar="PLAYER", help="only one player's press")
    jsonout.add_json(p)
    p.set_defaults(func=handle_press)
