"""``pbmref init DIR``: a referee's folder, ready for its mailbox.

Asks (or takes as options) the provider, the referee's address and name, the
game master's address and what the provider needs (an OAuth2 app's ID, or the
servers of a generic provider), writes a commented ``config.yaml`` that loads
as written, makes the folders, warns that the mailbox must be the referee's
own, and says the next three commands. An existing ``config.yaml`` is never
overwritten.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path

from pbmref.cli.common import config_at
from pbmref.config import PROVIDERS, ConfigError

__all__ = ["register"]

OAUTH2_PROVIDERS = ("gmail", "microsoft")
PASSWORD_FILE = "mail.password"

OWN_MAILBOX = ("The mailbox must be the referee's own: it answers EVERY mail in its folder "
               "(\"your address is not registered\") and files it away. Give it a new "
               "account, never your personal one.")

_QUESTIONS = {
    "provider": "Mail provider (gmail, microsoft, fastmail, generic)",
    "address": "The referee's mail address (players write to it)",
    "name": "The referee's name on its mail",
    "game_master": "Your address, the game master's (for notices and the test mail)",
    "client_id": "The client ID of the app you registered with the provider "
                 "(README: Going live)",
    "client_secret": "Its client secret (Google gives desktop apps one)",
    "imap_host": "The IMAP server (host name)",
    "smtp_host": "The SMTP server (host name)",
}


def _needed(provider: str) -> list[str]:
    needed = ["address", "name", "game_master"]
    if provider in OAUTH2_PROVIDERS:
        needed.append("client_id")
    if provider == "gmail":
        needed.append("client_secret")
    if provider == "generic":
        needed += ["imap_host", "smtp_host"]
    return needed


def _answers(args: argparse.Namespace, ask: Callable[[str], str] | None) -> dict[str, str]:
    """Every answer: the options given, the rest asked (or missing: an error)."""
    given = {key: getattr(args, key) for key in _QUESTIONS}
    if not given["provider"] and ask:
        given["provider"] = ask(_QUESTIONS["provider"]).strip().lower()
    provider = given["provider"] or ""
    if provider not in PROVIDERS:
        raise ValueError(f"the provider must be one of {', '.join(PROVIDERS)}"
                         + (f", not {provider!r}" if provider else " (--provider)"))
    if not given["name"]:
        given["name"] = "" if ask else "pbmref referee"
    missing = []
    for key in _needed(provider):
        while not given[key] and ask:
            given[key] = ask(_QUESTIONS[key]).strip()
        if not given[key]:
            missing.append("--" + key.replace("_", "-"))
    if missing:
        raise ValueError(f"give {', '.join(missing)} (or run pbmref init in a terminal, "
                         "which asks)")
    return {k: v or "" for k, v in given.items()}


def _q(text: str) -> str:
    """A YAML scalar of ``text`` (a JSON string is one)."""
    return json.dumps(text, ensure_ascii=False)


def config_text(a: dict[str, str]) -> str:
    """The commented config.yaml for the answers ``a``."""
    provider = a["provider"]
    oauth2 = provider in OAUTH2_PROVIDERS
    lines = [
        "# pbmref configuration, written by `pbmref init`. Every key is explained in",
        "# config.example.yaml; what is not here has its default. Relative paths are",
        "# relative to this folder. Passwords never go in this file.",
        "",
        "# One folder per game (pbmref new-game makes them).",
        "games_dir: games",
        "# Mail waiting to be handled or sent, and the referee's bookkeeping.",
        "spool_dir: mail/spool",
        "",
        "referee:",
        "  # The address players write to. THE MAILBOX MUST BE THE REFEREE'S OWN:",
        "  # it answers every mail in its folder and files it away.",
        f"  address: {_q(a['address'])}",
        f"  name: {_q(a['name'])}",
        "  # Gets the referee's notices and `pbmref mail test`'s test mail.",
        f"  game_master: {_q(a['game_master'])}",
        "",
        "mail:",
        "  # Read the mailbox by IMAP, send by SMTP.",
        "  mode: imap",
        "  # Fills in the servers, ports, security and login; what is written",
        "  # below wins. SMTP logs in as the IMAP user, the same way.",
        f"  provider: {provider}",
        "  imap:",
        f"    user: {_q(a['address'])}",
    ]
    if provider == "generic":
        lines[-1:-1] = [
            f"    host: {_q(a['imap_host'])}",
            "    # tls: implicit TLS on 993; starttls: 143, then STARTTLS.",
            "    security: tls",
        ]
    if oauth2:
        lines += [
            "    # Logs in with OAuth2: `pbmref mail authorize` asks the provider once.",
            "    auth: xoauth2",
        ]
    else:
        lines += [
            "    # The password (for Fastmail and most others an app password) is the",
            f"    # one line of {PASSWORD_FILE} (chmod 600), or use password_env or",
            "    # password_command (a password manager) instead.",
            f"    password_file: {PASSWORD_FILE}",
        ]
    lines += ["    # The folder the orders arrive in; handled mail moves to pbmref-handled.",
              "    folder: INBOX"]
    if provider == "generic":
        lines += [
            "  smtp:",
            f"    host: {_q(a['smtp_host'])}",
            "    # starttls: 587, then STARTTLS; tls: implicit TLS on 465.",
            "    security: starttls",
            f"    user: {_q(a['address'])}",
            f"    password_file: {PASSWORD_FILE}",
        ]
    if oauth2:
        secret = (["    # Google gives desktop apps this in the open: not a password.",
                   f"    client_secret: {_q(a['client_secret'])}"]
                  if a["client_secret"] else [])
        lines += [
            "  oauth2:",
            "    # The app you registered with the provider (README: Going live).",
            f"    client_id: {_q(a['client_id'])}",
            *secret,
            "    # The grant, written mode 0600 by `pbmref mail authorize`.",
            "    token_file: oauth2-token.json",
        ]
    return "\n".join(lines) + "\n"


def handle_init(args: argparse.Namespace) -> int:
    folder = Path(args.dir)
    target = folder / "config.yaml"
    if target.exists():
        print(f"{target} exists: not overwritten (edit it, or give another folder)",
              file=sys.stderr)
        return 2
    ask = _ask if sys.stdin.isatty() and not args.no_input else None
    try:
        answers = _answers(args, ask)
    except ValueError as exc:
        print(f"init: {exc}", file=sys.stderr)
        return 2
    print(f"Warning: {OWN_MAILBOX}")
    folder.mkdir(parents=True, exist_ok=True)
    for sub in ("games", "mail/spool"):
        (folder / sub).mkdir(parents=True, exist_ok=True)
    target.write_text(config_text(answers), encoding="utf-8")
    try:
        config_at(target)
    except ConfigError as exc:  # an answer the config refuses (an address without @)
        target.unlink()
        print(f"init: {exc}", file=sys.stderr)
        return 2
    print(f"Wrote {target} and made {folder / 'games'} and {folder / 'mail/spool'}.")
    first = ("pbmref mail authorize      # sign in once as " + answers["address"]
             if answers["provider"] in OAUTH2_PROVIDERS else
             f"install -m 600 /dev/null {PASSWORD_FILE} && ${{EDITOR:-nano}} {PASSWORD_FILE}"
             "   # the mailbox's (app) password, one line")
    print(f"Next, in {folder}:\n"
          f"  1. {first}\n"
          "  2. pbmref mail test           # checks the servers step by step, mails you a test\n"
          "  3. pbmref serve               # the referee at work (make games with new-game)")
    return 0


def _ask(question: str) -> str:
    return input(f"{question}: ")


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "init", help="make a referee's folder: a commented config.yaml for a provider",
        description="Make DIR with a commented config.yaml for the provider, games/ and "
        "mail/spool/, and say the next three commands. Asks what the options do not "
        f"give (in a terminal). {OWN_MAILBOX}")
    p.add_argument("dir", metavar="DIR")
    p.add_argument("--provider", choices=tuple(PROVIDERS))
    p.add_argument("--address", help="the referee's mail address")
    p.add_argument("--name", help="the referee's name on its mail")
    p.add_argument("--game-master", dest="game_master", metavar="ADDRESS",
                   help="your address (notices, the test mail)")
    p.add_argument("--client-id", dest="client_id", help="gmail, microsoft: your app's ID")
    p.add_argument("--client-secret", dest="client_secret",
                   help="gmail: your app's client secret")
    p.add_argument("--imap-host", dest="imap_host", help="generic: the IMAP server")
    p.add_argument("--smtp-host", dest="smtp_host", help="generic: the SMTP server")
    p.add_argument("--no-input", action="store_true", help="never ask (fail if missing)")
    p.set_defaults(func=handle_init)
