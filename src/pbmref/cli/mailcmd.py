"""``pbmref serve``, ``pbmref adjudicate`` and ``pbmref mail``: the referee at work."""

from __future__ import annotations

import argparse
import logging
import sys
from typing import Any

from pbmref.config import ConfigError, load_config


def _config(args: argparse.Namespace) -> Any:
    return load_config(args.config, required=bool(args.config))


def _logging(verbose: bool) -> None:
    logging.basicConfig(level=logging.INFO if verbose else logging.WARNING,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")


def handle_serve(args: argparse.Namespace) -> int:
    from pbmref.mail.factory import open_intake
    from pbmref.referee.daemon import Daemon
    from pbmref.referee.pipeline import Referee

    _logging(not args.quiet)
    config = _config(args)
    referee = Referee(config)
    intake = open_intake(config)
    poll = config.mail.imap.poll_seconds if config.mail.mode == "imap" else args.poll
    Daemon(referee, intake, poll_seconds=poll).run(rounds=1 if args.once else None)
    return 0


def handle_adjudicate(args: argparse.Namespace) -> int:
    from pbmref.mail.factory import open_intake
    from pbmref.referee.pipeline import Referee
    from pbmref.referee.turns import adjudicate_due

    _logging(args.verbose)
    if not args.due and not args.games:
        print("name a game, or give --due for every game past its deadline", file=sys.stderr)
        return 2
    config = _config(args)
    referee = Referee(config)
    intake = open_intake(config)
    try:
        report = adjudicate_due(referee, intake, games=args.games or None,
                                force=bool(args.games))
    finally:
        intake.close()
    for record in report.adjudicated:
        end = " (game over)" if record.game_over else ""
        phase = record.position_before.get("phase")  # Diplomacy names its turns
        print(f"{record.game_id}: {f'phase {phase}' if phase else f'turn {record.turn}'} "
              f"adjudicated{end}")
    for gid, why in report.broken.items():
        print(f"{gid}: NOT adjudicated: {why}", file=sys.stderr)
    if not report.adjudicated and not report.broken:
        print("no game was due")
    print(f"mail taken in: {report.taken_in}; reminders: {report.reminders}; "
          f"mails sent: {report.sent}")
    return 1 if report.broken else 0


def handle_mail(args: argparse.Namespace) -> int:
    from pbmref.mail.factory import open_intake
    from pbmref.referee.pipeline import Referee

    _logging(args.verbose)
    config = _config(args)
    referee = Referee(config)
    if args.action == "fetch":
        intake = open_intake(config)
        try:
            print(f"handled {referee.take_in(intake)} mail(s)")
        finally:
            intake.close()
    if args.action in ("fetch", "deliver"):
        print(f"sent {referee.deliver(force=args.action == 'deliver')} mail(s)")
    if args.action == "shunted":
        for entry, reason in referee.incoming.shunted():
            print(f"{entry.id}  {entry.message_id}  {reason}")
    if args.action == "retry":
        # A mail set aside after a fault goes back in the queue, once the GM
        # has fixed the cause; the next round of the daemon (or this) handles it.
        if not args.ids:
            print("name the shunted mail(s) to retry (see: pbmref mail shunted)",
                  file=sys.stderr)
            return 2
        for entry_id in args.ids:
            referee.incoming.unshunt(entry_id)
        print(f"handled {referee.process_spool()} mail(s); sent {referee.deliver()} mail(s)")
    return 0


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    def common(p: argparse.ArgumentParser) -> None:
        p.add_argument("--config", metavar="FILE",
                       help="the referee's config file (default: config.yaml if present)")

    p = sub.add_parser("serve", help="read the mailbox and answer order mail (the daemon)")
    common(p)
    p.add_argument("--once", action="store_true", help="one round, then stop")
    p.add_argument("--poll", type=float, default=10.0,
                   help="seconds between looks at a local Maildir (default 10)")
    p.add_argument("--quiet", action="store_true")
    p.set_defaults(func=_guard(handle_serve))

    p = sub.add_parser("adjudicate", help="adjudicate GAME now, or --due: every game "
                                          "past its deadline (for cron)")
    common(p)
    p.add_argument("games", nargs="*", metavar="GAME")
    p.add_argument("--due", action="store_true",
                   help="take in waiting mail, then adjudicate every due game once")
    p.add_argument("-v", "--verbose", action="store_true")
    p.set_defaults(func=_guard(handle_adjudicate))

    p = sub.add_parser("mail", help="mail chores: fetch, deliver the outgoing spool, "
                                    "list shunted mail, retry it")
    common(p)
    p.add_argument("action", choices=("fetch", "deliver", "shunted", "retry"))
    p.add_argument("ids", nargs="*", metavar="ID", help="retry: the shunted mails to retry")
    p.add_argument("-v", "--verbose", action="store_true")
    p.set_defaults(func=_guard(handle_mail))


def _guard(func: Any) -> Any:
    def run(args: argparse.Namespace) -> int:
        try:
            return int(func(args))
        except ConfigError as exc:
            print(f"config: {exc}", file=sys.stderr)
            return 2
    return run
