"""``pbmref serve``, ``pbmref adjudicate`` and ``pbmref mail``: the referee at work.

Each reads its config by the one rule of ``pbmref.cli.common`` (``--config``,
``$PBMREF_CONFIG``, ``./config.yaml``, the built-in defaults). A mailbox that
cannot be read and a bad config are one line on standard error and a
non-zero exit, never a traceback (cron mails whatever a job prints).
"""

from __future__ import annotations

import argparse
import logging
import sys
from typing import TYPE_CHECKING, Any

from pbmref.cli.common import CONFIG_HELP, config_of
from pbmref.config import Config, ConfigError

if TYPE_CHECKING:
    from pbmref.referee.pipeline import Referee
    from pbmref.referee.turns import DueReport

_RULE = ("The config file is --config FILE, else $PBMREF_CONFIG, else ./config.yaml, "
         "else the built-in defaults (local Maildir mode: mail/inbox, mail/outbox, "
         "mail/spool and games/ under the current folder).")


def _logging(verbose: bool, *, debug: bool = False) -> None:
    logging.basicConfig(level=logging.INFO if verbose else logging.WARNING,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    if debug:  # ours only: the IMAP library's debug log would show every mail, passwords too
        logging.getLogger("pbmref").setLevel(logging.DEBUG)


def _where_mail_goes(config: Config) -> str:
    """Where this config sends mail, in words (for a GM who gave no config)."""
    if config.mail.mode == "imap":
        smtp = config.mail.smtp
        return f"through the SMTP server {smtp.host}" + (f":{smtp.port}" if smtp.port else "")
    return f"into the Maildir {config.mail.maildir.outbox}"


def _no_config_note(config: Config) -> None:
    if config.source is None:
        print(f"no config file, so the built-in defaults: mail was read from "
              f"{config.mail.maildir.inbox} and went {_where_mail_goes(config)}; "
              "see pbmref adjudicate --help")


def handle_serve(args: argparse.Namespace) -> int:
    from pbmref.mail.base import IntakeError
    from pbmref.mail.factory import open_intake
    from pbmref.referee.daemon import Daemon
    from pbmref.referee.pipeline import Referee

    _logging(not args.quiet, debug=args.debug)
    config = config_of(args)
    referee = Referee(config)
    intake = open_intake(config, once=args.once)
    poll = config.mail.imap.poll_seconds if config.mail.mode == "imap" else args.poll
    daemon = Daemon(referee, intake, poll_seconds=poll, watch_games=not args.once)
    logging.getLogger("pbmref").info("%s", daemon.start_line(once=args.once))
    if not args.once:
        daemon.run()
        return 0
    try:
        daemon.once()
    except IntakeError as exc:  # waiting orders might be in there: adjudicate nothing
        logging.getLogger("pbmref.referee").debug("the mailbox cannot be read", exc_info=True)
        print(f"error: nothing answered or adjudicated, the mailbox cannot be read (the "
              f"next run tries again): {exc}", file=sys.stderr)
        return 1
    done = daemon.done
    if not (done.handled or done.adjudicated or done.sent):
        print("no mail; no game was due; nothing to send")
    else:
        print(f"handled {done.handled} mail(s), adjudicated {done.adjudicated} turn(s), "
              f"sent {done.sent} mail(s)")
    return 0


def handle_adjudicate(args: argparse.Namespace) -> int:
    from pbmref.mail.base import MailError
    from pbmref.mail.factory import open_intake
    from pbmref.referee.pipeline import Referee
    from pbmref.referee.turns import adjudicate_due

    _logging(args.verbose)
    if not args.due and not args.games:
        print("name a game, or give --due for every game past its deadline", file=sys.stderr)
        return 2
    config = config_of(args)
    referee = Referee(config)
    intake = open_intake(config, once=True)
    try:
        with referee.round():
            taken = 0
            ask = bool(args.games) and not args.force
            if ask:  # the waiting mail first: it may hold orders
                taken = referee.take_in(intake, send=True)
                if _all_silent_said(referee, args.games):
                    return 1
            report = adjudicate_due(referee, None if ask else intake,
                                    games=args.games or None, force=bool(args.games))
            report.taken_in += taken
    except MailError as exc:  # waiting orders might be in there: adjudicate nothing
        print(f"error: nothing adjudicated, the mailbox cannot be read (the next run "
              f"tries again): {exc}", file=sys.stderr)
        return 1
    finally:
        intake.close()
    _say_adjudicated(report)
    _no_config_note(config)
    return 1 if report.broken else 0


def _all_silent_said(referee: Referee, games: list[str]) -> bool:
    """Are the named games ones whose players sent no orders (``_silent``)? Then
    that is said, and nothing is adjudicated without ``--force``."""
    silent = [_silent(referee.store.open(g)) for g in games]
    if not any(silent):
        return False
    for why in filter(None, silent):
        print(f"warning: {why}", file=sys.stderr)
    print("nothing adjudicated; give --force to adjudicate anyway", file=sys.stderr)
    return True


def _say_adjudicated(report: DueReport) -> None:
    """What ``adjudicate`` did: each turn played, each game that could not be."""
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


def _silent(game: Any) -> str:
    """Why a game named to ``adjudicate`` waits for ``--force``: its players owe
    orders and none has sent any (every unit would just hold); "" otherwise."""
    state = game.open.state
    owing = [p.id for p in game.settings.humans() if game.ruleset.needs_orders(state, p.id)]
    if not owing or len(game.waiting_for()) < len(owing):
        return ""
    return (f"{game.id}: no player has sent orders for {game.ruleset.words.noun} "
            f"{game.turn_label}")


def _shunted(config: Config, *, as_json: bool = False) -> int:
    """List the mails set aside; needs the spool only (no SMTP, no IMAP)."""
    from pbmref.cli import jsonout
    from pbmref.mail.factory import open_spools

    incoming, _ = open_spools(config)
    listed = incoming.shunted()
    if as_json:
        jsonout.emit("mail shunted", mails=[
            {"id": e.id, "message_id": e.message_id, "sender": e.sender or None,
             "arrived": jsonout.when(e.arrived), "reason": reason} for e, reason in listed])
        return 0
    for entry, reason in listed:
        print(f"{entry.id}  {entry.message_id}  {reason}")
    print(f"{len(listed)} mail(s) set aside" if listed else "nothing set aside")
    return 0


def handle_mail(args: argparse.Namespace) -> int:
    from pbmref.mail.factory import open_intake
    from pbmref.referee.pipeline import Referee

    _logging(args.verbose)
    if args.action in ("authorize", "test"):
        from pbmref.cli import mailsetup

        return (mailsetup.handle_authorize if args.action == "authorize"
                else mailsetup.handle_test)(args)
    config = config_of(args)
    if args.action == "shunted":
        return _shunted(config, as_json=args.json)
    if args.action == "retry" and not args.ids:
        print("name the shunted mail(s) to retry (see: pbmref mail shunted)", file=sys.stderr)
        return 2
    referee = Referee(config)
    if args.action == "fetch":
        intake = open_intake(config, once=True)
        try:
            print(f"handled {referee.take_in(intake, send=True)} mail(s)")
        finally:
            intake.close()
    if args.action in ("fetch", "deliver"):
        print(f"sent {referee.deliver(force=args.action == 'deliver')} mail(s)")
    if args.action == "retry":
        # A mail set aside after a fault goes back in the queue, once the GM
        # has fixed the cause; the next round of the daemon (or this) handles it.
        for entry_id in args.ids:
            referee.incoming.unshunt(entry_id)
        print(f"handled {referee.process_spool()} mail(s); sent {referee.deliver()} mail(s)")
    return 0


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    def common(p: argparse.ArgumentParser) -> None:
        p.add_argument("--config", metavar="FILE", help=CONFIG_HELP)

    p = sub.add_parser("serve", help="read the mailbox and answer order mail (the daemon)",
                       description="Read the mailbox, answer every order mail, adjudicate "
                       "due games and send what waits, then wait for new mail. " + _RULE)
    common(p)
    p.add_argument("--once", action="store_true", help="one round, then stop")
    p.add_argument("--poll", type=float, default=10.0,
                   help="seconds between looks at a local Maildir (default 10)")
    p.add_argument("--quiet", action="store_true")
    p.add_argument("--debug", action="store_true",
                   help="log the details too (e.g. the traceback of a mailbox that cannot "
                        "be read)")
    p.set_defaults(func=_guard(handle_serve))

    p = sub.add_parser("adjudicate", help="adjudicate GAME now, or --due: every game "
                                          "past its deadline (for cron)",
                       description="Take in waiting mail, adjudicate the named games (or "
                       "with --due every game past its deadline) and mail the reports. "
                       + _RULE)
    common(p)
    p.add_argument("games", nargs="*", metavar="GAME")
    p.add_argument("--due", action="store_true",
                   help="take in waiting mail, then adjudicate every due game once")
    p.add_argument("--force", action="store_true",
                   help="adjudicate the named GAME even when no player has sent orders "
                        "(without it: a warning, exit 1)")
    p.add_argument("-v", "--verbose", action="store_true")
    p.set_defaults(func=_guard(handle_adjudicate))

    p = sub.add_parser("mail", help="mail chores: fetch, deliver the outgoing spool, "
                                    "list shunted mail, retry it; authorize, test",
                       description="fetch: take in waiting mail; deliver: send the outgoing "
                       "spool now; shunted: list the mails set aside after a fault; retry "
                       "ID...: queue them again; authorize: grant the referee its mailbox "
                       "by OAuth2 (once; Gmail, Microsoft); test: check the servers and the "
                       "login step by step and send a test mail to the game master. " + _RULE)
    common(p)
    p.add_argument("action", choices=("fetch", "deliver", "shunted", "retry", "authorize",
                                      "test"))
    p.add_argument("ids", nargs="*", metavar="ID", help="retry: the shunted mails to retry")
    p.add_argument("--flow", choices=("device", "browser"),
                   help="authorize: the provider's flow (default: the config's)")
    p.add_argument("--no-browser", action="store_true",
                   help="authorize: print the address, do not open a browser")
    p.add_argument("--to", metavar="ADDRESS",
                   help="test: send the test mail here (default: referee.game_master)")
    p.add_argument("-v", "--verbose", action="store_true")
    p.add_argument("--json", action="store_true",
                   help="shunted: one JSON object for scripts (docs/json.md)")
    p.set_defaults(func=_guard(handle_mail))


def _guard(func: Any) -> Any:
    """A bad config, a mailbox that cannot be read or a game named that cannot be
    opened: one line and a non-zero exit."""
    from pbmref.base.errors import StoreError
    from pbmref.mail.base import MailError

    def run(args: argparse.Namespace) -> int:
        try:
            return int(func(args))
        except ConfigError as exc:
            print(f"config: {exc}", file=sys.stderr)
            return 2
        except (MailError, StoreError) as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 1
    return run
