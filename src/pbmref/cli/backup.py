"""``pbmref backup FILE`` and ``pbmref restore FILE DIR`` (``pbmref.referee.backup``).

``backup`` reads the config by the one rule of ``pbmref.cli.common`` and may
run while the daemon runs; ``restore`` needs no config: it puts the backup's
config back too.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from pbmref.cli.common import add_config, config_of
from pbmref.cli.progress import Progress
from pbmref.config import ConfigError

__all__ = ["register"]


def handle_backup(args: argparse.Namespace) -> int:
    from pbmref.base.errors import StoreError
    from pbmref.mail.base import MailError
    from pbmref.referee.backup import BackupError, make_backup

    progress = Progress("backup")  # on a terminal; -v says each step in cron too
    try:
        config = config_of(args)
        try:
            done = make_backup(config, Path(args.file).absolute(),
                               progress=(lambda said: print(f"  {said}")) if args.verbose
                               else progress.step)
        finally:
            progress.done()
    except ConfigError as exc:
        print(f"config: {exc}", file=sys.stderr)
        return 2
    except (BackupError, MailError, StoreError, OSError) as exc:
        print(f"error: no backup made: {exc}", file=sys.stderr)
        return 1
    print(f"{done.file}: {len(done.games)} game{'s' if len(done.games) != 1 else ''}, "
          f"the spool and {'the config ' + str(config.source) if config.source else 'no config'}"
          f" ({done.files} files)")
    return 0


def handle_restore(args: argparse.Namespace) -> int:
    from pbmref.referee.backup import BackupError, restore_backup

    folder = Path(args.dir).absolute()
    try:
        done = restore_backup(Path(args.file), folder)
    except (BackupError, OSError) as exc:
        print(f"error: nothing restored: {exc}", file=sys.stderr)
        return 1
    print(f"restored {len(done.games)} game{'s' if len(done.games) != 1 else ''} and the "
          f"spool into {folder} ({done.files} files)")
    config = f" --config {done.config}" if done.config else ""
    print(f"next: pbmref check{config}, then start the referee")
    return 0


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("backup", help="archive the games, the spool and the config "
                       "(while the daemon runs)",
                       description="Write FILE, a gzipped tar readable by you only: the "
                       "config file, every game folder and the roster, the spool (mail "
                       "in and out, the referee's bookkeeping); not the games index, which "
                       "is rebuilt. Consistent while the daemon runs: it waits for the "
                       "backup, which takes each game under its lock.")
    p.add_argument("file", metavar="FILE", help="the archive to write, e.g. "
                   "/var/backups/pbmref-2026-12-06.tar.gz")
    add_config(p, games=False)
    p.add_argument("-v", "--verbose", action="store_true", help="say each step")
    p.set_defaults(func=handle_backup)

    p = sub.add_parser("restore", help="put a backup back into an empty folder",
                       description="Restore the backup FILE into DIR, which must be empty: "
                       "the config, the games and the spool, each where it was in the "
                       "referee's folder. Then run pbmref check there.")
    p.add_argument("file", metavar="FILE")
    p.add_argument("dir", metavar="DIR")
    p.set_defaults(func=handle_restore)
