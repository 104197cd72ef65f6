"""``pbmref mail authorize`` and ``pbmref mail test``: the mailbox made ready.

``authorize`` runs the provider's OAuth2 flow once and keeps the grant in the
token file (mode 0600); ``test`` checks the servers and the login step by step
in plain words and sends a test mail to the game master. Both read the config
by the one rule of ``pbmref.cli.common``.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

from pbmref.cli.common import config_of
from pbmref.config import Config

__all__ = ["handle_authorize", "handle_test"]


def handle_authorize(args: argparse.Namespace) -> int:
    from pbmref.mail.oauth2 import OAuth2App, TokenEndpointDown, TokenFile, authorize

    config = config_of(args)
    mail = config.mail
    if not mail.uses_oauth2:
        print("nothing to authorize: this config logs in with a password (auth: password), "
              "or reads a local Maildir (mail.mode). For OAuth2 write auth: xoauth2 under "
              "mail.imap (a provider such as gmail or microsoft does it for you).",
              file=sys.stderr)
        return 2
    oauth = mail.oauth2
    app = OAuth2App.of(oauth)
    flow = args.flow or oauth.flow
    who = mail.imap.user if mail.imap.oauth2 else mail.smtp.user
    print(f"Asking {_provider(config)} to let the referee read and send the mail of {who} "
          f"({flow} flow).")
    try:
        authorize(app, TokenFile(oauth.token_file, app), say=lambda text: print(text, flush=True),
                  flow=flow, open_browser=_browser(args.no_browser))
    except TokenEndpointDown as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    print(f"Granted. The grant is kept in {oauth.token_file} (only this user can read it); "
          "the referee renews its access from it by itself.\n"
          "Next: pbmref mail test")
    return 0


def _provider(config: Config) -> str:
    named = {"gmail": "Google", "microsoft": "Microsoft", "fastmail": "Fastmail"}
    return named.get(config.mail.provider, config.mail.oauth2.token_url)


def _browser(no_browser: bool) -> Callable[[str], object]:
    """What opens the provider's page: the desktop's browser, or nothing."""
    import webbrowser

    return (lambda url: False) if no_browser else webbrowser.open


def handle_test(args: argparse.Namespace) -> int:
    from pbmref.mail.check import Step, check_imap, check_smtp

    config = config_of(args)
    mail = config.mail
    if mail.mode != "imap":
        print(f"mail.mode is {mail.mode}: the referee reads {mail.maildir.inbox} and writes "
              f"to {mail.maildir.outbox}; no mail server to test. For a real mailbox see "
              "`pbmref init --help` and the README's \"Going live\".")
        return 0
    failures = 0

    def show(step: Step) -> None:
        nonlocal failures
        mark = "ok  " if step.ok and not step.note else ("note" if step.ok else "FAIL")
        print(f"  {mark}  {step.name:<12} {step.said}", flush=True)
        if not step.ok:
            failures += 1
            print(f"        {'what to do':<12} {step.todo}")

    imap, smtp = mail.imap, mail.smtp
    print(f"IMAP {imap.host}, security {imap.security}, login "
          f"{'by ' + imap.auth.upper() if imap.oauth2 else 'by password'} as {imap.user}")
    for step in check_imap(config):
        show(step)
    to = args.to or config.referee.game_master
    print(f"SMTP {smtp.host}, security {smtp.security}, "
          + (f"login by {'password' if not smtp.oauth2 else smtp.auth.upper()} as {smtp.user}"
             if smtp.user else "no login"))
    if not to:
        print("  (no referee.game_master in the config: give --to ADDRESS for the test mail)")
        return 2
    for step in check_smtp(config, to=to):
        show(step)
    if failures:
        print("Not ready: fix what failed above, then run pbmref mail test again.")
        return 1
    print("Ready: the referee can read its mailbox and send mail.")
    return 0
