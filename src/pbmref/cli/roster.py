"""Fast Play classes and careers: ``pbmref new-class`` and ``pbmref roster``.

- ``pbmref new-class --example``: the commented example class file, to copy;
- ``pbmref new-class TEMPLATE [--games DIR]``: one game per board of the
  class (``<class>-1`` ...), pilots dealt so the sides are even, every pilot
  registered in the roster (rule FP16) with a sortie for the first board;
  prints the passwords once and, with mail configured (``--welcome``), mails
  each pupil a welcome (``pbmref.referee.welcome``).
- ``pbmref roster [show|update] [--games DIR] [--roster FILE]``: show each
  pupil's board and careers; the roster beside the games follows every
  adjudication and re-run by itself (``pbmref.gm.roster``), and ``update``
  reads every Fast Play game's turns again (for a roster kept elsewhere, or
  one repaired after an edit broke it; safe to run any number of times).
- ``pbmref roster rebalance CLASS [--games DIR] [--apply]``: which returning
  pilots would go to the board where the sides are most even (FP14), and with
  ``--apply`` move them (player entry and plane) to that board's game.
"""

from __future__ import annotations

import argparse
import sys
from datetime import datetime
from pathlib import Path
from typing import Any

from pbmref.cli import jsonout
from pbmref.cli.common import add_config, config_of, early_delay_flag, early_delay_option, games_dir
from pbmref.cli.gm import wants_welcome, welcome_flag
from pbmref.store import GameStore, StoreError

__all__ = ["register"]


def _roster_file(args: argparse.Namespace) -> Path:
    from pbmref.gm.roster import roster_path

    return Path(args.roster) if args.roster else roster_path(games_dir(args))


def _fail(message: str) -> int:
    print(f"error: {message}", file=sys.stderr)
    return 1


def _guard(handler: Any) -> Any:
    def run(args: argparse.Namespace) -> int:
        from pbmref.gm.roster import RosterError

        try:
            return int(handler(args) or 0)
        except (StoreError, RosterError) as exc:
            return _fail(str(exc))
        except ValueError as exc:
            return _fail(str(exc))
    return run


def handle_new_class(args: argparse.Namespace) -> int:
    from pbmref.gm.classroom import classroom, create_class

    kind = classroom()
    if args.example:
        sys.stdout.write(kind.example_template())
        return 0
    if not args.template:
        return _fail("name the class file (pbmref new-class --example prints one to start "
                     "from)")
    if args.forming:  # pupils join by mail (J2); the file's pilots are not read
        from pbmref.cli.lobby import handle_new_forming

        return handle_new_forming(args)
    template = kind.load_template(args.template)
    store = GameStore(games_dir(args))
    roster_file = _roster_file(args)
    deadline = datetime.fromisoformat(args.deadline) if args.deadline else None
    try:
        boards = create_class(store, template, roster_file, kind=kind, deadline=deadline,
                              passwords=not args.no_passwords,
                              early_delay=early_delay_option(args),
                              refused_addresses=config_of(args).referee_addresses)
    except ValueError as exc:
        return _fail(str(exc))
    welcome = wants_welcome(args)
    for board in boards:
        print(f"created {store.path(board.game_id)}: {board.sides['Germans']} Germans, "
              f"{board.sides['Allies']} Allies")
        for pid, pw in board.passwords.items():
            print(f"  {pid:<12} {pw:<28} {template.pilot(pid).address}")
        if welcome is not None:
            from pbmref.referee.welcome import mail_welcome

            count = mail_welcome(store, board.game_id, board.passwords, config=welcome)
            print(f"  welcome mailed to {count} pupil{'s' if count != 1 else ''}")
    from pbmref.gm.roster import load_roster

    print(f"roster: {roster_file} ({len(load_roster(roster_file).players)} pilots)")
    return 0


def handle_roster(args: argparse.Namespace) -> int:
    from pbmref.gm.roster import boards, load_roster, render_roster, update_roster

    store = GameStore(games_dir(args))
    if args.action == "update":
        roster, changed = update_roster(store, _roster_file(args))
        print(f"{changed} battle turn{'s' if changed != 1 else ''} of the games counted anew"
              if changed else "the roster agreed with every adjudicated turn")
    elif args.action == "rebalance":
        return _rebalance(args)
    else:
        roster = load_roster(_roster_file(args))
    if args.json:
        where = boards(roster, store)
        jsonout.emit("roster", pupils=[
            {"id": pid, "name": rec.name, "side": rec.team, "board": where.get(pid),
             "careers": [{"pilot": c.pilot, "victories": c.victories, "sorties": c.sorties,
                          "status": c.status, "title": c.title or None,
                          "closed": c.closed or None} for c in rec.careers]}
            for pid, rec in sorted(roster.players.items())])
        return 0
    if not roster.players:
        print("the roster is empty")
        return 0
    for line in render_roster(roster, boards(roster, store)):
        print(line)
    return 0


def _rebalance(args: argparse.Namespace) -> int:
    from pbmref.gm.classroom import apply_transfers, classroom

    if not args.cls:
        return _fail("name the class: pbmref roster rebalance CLASS")
    store = GameStore(games_dir(args))
    games = [g for g in store.list_games() if g.startswith(f"{args.cls}-")]
    positions = {g: store.open(g).position for g in games}
    _, moves = classroom().rebalance(positions)
    if not moves:
        print("the sides are as even as they can be; nobody moves")
        return 0
    if args.apply:
        for line in apply_transfers(store, moves):
            print(line)
        return 0
    for t in moves:
        print(f"{t.player}: {t.from_game} -> {t.to_game}")
    print("(nothing was changed; --apply moves them)")
    return 0


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    def common(p: argparse.ArgumentParser) -> None:
        add_config(p)
        p.add_argument("--roster", metavar="FILE", help="the roster file (default: "
                       "roster.yaml in the games directory)")

    p = sub.add_parser("new-class", help="create the Fast Play games of a class (one per board)",
                       description="Create one Fast Play game per board for a class template.")
    p.add_argument("template", nargs="?", help="the class file (YAML)")
    p.add_argument("--example", action="store_true",
                   help="print a commented example class file and stop")
    p.add_argument("--deadline", help="deadline of turn 1 (ISO date and time)")
    p.add_argument("--no-passwords", action="store_true", help="games without passwords")
    early_delay_flag(p)
    p.add_argument("--forming", action="store_true",
                   help="a class that pupils join by mail (JOIN CLASS [Germans|Allies], "
                        "J2): the file's pilots are left out; it starts when --places are "
                        "taken, or with pbmref start CLASS")
    p.add_argument("--places", type=int, metavar="N", help="with --forming: how many pupils")
    p.add_argument("--choice", default="preference", help=argparse.SUPPRESS)
    common(p)
    welcome_flag(p)
    p.set_defaults(func=_guard(handle_new_class))

    p = sub.add_parser("roster", help="Fast Play pilot careers (FP16)",
                       description="Show or update the Fast Play roster.")
    p.add_argument("action", nargs="?", choices=("show", "update", "rebalance"),
                   default="show")
    p.add_argument("cls", nargs="?", metavar="CLASS", help="the class (for rebalance)")
    p.add_argument("--apply", action="store_true",
                   help="rebalance: move the pilots (default: only show who would move)")
    common(p)
    jsonout.add_json(p)
    p.set_defaults(func=_guard(handle_roster))
