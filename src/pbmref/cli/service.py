"""``pbmref service systemd``: the systemd unit that runs the referee's daemon.

The unit ships in the package (``pbmref/data/pbmref.service``, a template);
the command fills in the referee's user, its folder (the one of its config
file), the file that sets the variables its passwords are read from
(``password_env``) and this pbmref's own path, and prints it. The daemon may write only in the referee's folder,
and in the games, spool and Maildir folders of its config where they lie
outside it.
"""

from __future__ import annotations

import argparse
import os
import sys
from importlib import resources
from pathlib import Path

from pbmref.cli.common import add_config, config_of
from pbmref.config import Config, ConfigError

__all__ = ["register", "systemd_unit"]


# The folders systemd's ProtectHome=yes hides from a service (systemd.exec(5)):
# not data of ours, the places a pbmref installed there cannot be run from.
_HIDDEN_BY_PROTECT_HOME = ("/home/", "/root/", "/run/user/")


def _this_pbmref() -> str:
    """How a service starts this pbmref: its command's path, or this Python
    with ``-m pbmref``."""
    command = Path(sys.argv[0])
    if command.name == "pbmref" and command.is_file():
        return os.path.abspath(command)
    return f"{sys.executable} -m pbmref"


def _writable(config: Config, folder: Path) -> list[Path]:
    """The folders the daemon writes in: ``folder``, and those of the config
    that lie outside it."""
    places = [config.games_dir, config.spool_dir]
    if config.mail.mode == "maildir":
        places += [config.mail.maildir.inbox, config.mail.maildir.outbox]
    found = [folder]
    for place in places:
        if not any(place.is_relative_to(f) for f in found):
            found.append(place)
    return found


def systemd_unit(config: Config, *, folder: Path, user: str, env_file: str,
                 pbmref: str) -> str:
    """The unit for a referee that runs ``pbmref`` as ``user`` in ``folder``."""
    text = (resources.files("pbmref") / "data" / "pbmref.service").read_text(encoding="utf-8")
    config_file = config.source or folder / "config.yaml"
    text = text.replace("--config @DIR@/config.yaml", f"--config {config_file}")
    text = text.replace("ReadWritePaths=@DIR@", "ReadWritePaths=" + " ".join(
        str(p) for p in _writable(config, folder)))
    for mark, value in (("@USER@", user), ("@DIR@", str(folder)), ("@ENV_FILE@", env_file),
                        ("@PBMREF@", pbmref)):
        text = text.replace(mark, value)
    return text


def handle_systemd(args: argparse.Namespace) -> int:
    try:
        config = config_of(args)
    except ConfigError as exc:
        print(f"config: {exc}", file=sys.stderr)
        return 2
    folder = Path(args.dir).absolute() if args.dir else (
        config.source.parent if config.source else Path.cwd())
    pbmref = args.pbmref or _this_pbmref()
    sys.stdout.write(systemd_unit(config, folder=folder, user=args.user,
                                  env_file=args.env_file, pbmref=pbmref))
    if pbmref.startswith(_HIDDEN_BY_PROTECT_HOME):
        print(f"note: {pbmref} is in a home folder, which the unit hides from the service "
              "(ProtectHome=yes): install pbmref in /opt/pbmref (README, Install)",
              file=sys.stderr)
    if config.source is None:
        print(f"note: no config file found; the unit reads {folder / 'config.yaml'} "
              "(give --config FILE)", file=sys.stderr)
    return 0


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("service", help="print what runs the referee as a system service",
                       description="systemd: print the unit that runs pbmref serve as its "
                       "own user, in the referee's folder (the folder of its config), with "
                       "the passwords from an EnvironmentFile. Save it as "
                       "/etc/systemd/system/pbmref.service.")
    p.add_argument("kind", choices=("systemd",))
    add_config(p, games=False)
    p.add_argument("--user", default="pbmref", help="the user the referee runs as "
                   "(default pbmref)")
    p.add_argument("--dir", metavar="DIR", help="the referee's folder (default: the folder "
                   "of the config file, else the current one)")
    p.add_argument("--env-file", default="/etc/pbmref/env", metavar="FILE",
                   help="the file (mode 0600, owned by root) that sets the variables the "
                   "config's password_env names (default /etc/pbmref/env)")
    p.add_argument("--pbmref", metavar="COMMAND", help="how to start pbmref (default: "
                   "this one's path)")
    p.set_defaults(func=handle_systemd)
