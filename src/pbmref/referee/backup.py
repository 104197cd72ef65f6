"""Backup and restore of a referee's data: ``pbmref backup FILE`` and
``pbmref restore FILE DIR``.

A backup is one gzipped tar file, readable by its maker only (it holds the
players' addresses, password hashes and, until sent, mails that carry a new
password). It holds the config file, every game folder and the files beside
them in the games folder (the Fast Play roster), and the spool: the mails in
and out, the IMAP intake's record of the last mail handed out, the referee's
own bookkeeping. Not the store's index of the games, which the referee
rebuilds from the folders, nor any lock file.

It is consistent while the daemon runs. The backup holds the incoming
spool's work lock throughout, so no mail is handled meanwhile (the daemon
waits, and takes mail in: it stays on the server or in the spool); it
archives the intake's record first, so a mail taken in after it is one the
restored referee fetches again (and its spool knows it); each game under
its own lock, so a turn is archived before or after its adjudication, never
half-way (reports of a turn played after the referee's bookkeeping was
archived are mailed by the restored referee, as after a crash); the spool
last, under the outgoing spool's delivery lock, so no mail moves between its
folders meanwhile, and a mail taken in during the backup is in it.

A restore puts everything back where it was relative to the referee's
folder (the folder of its config file), inside an empty folder; a games or
spool folder that lay outside it comes back inside it, and the restored
config says so. ``pbmref check`` then reads every game.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import tarfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from pbmref import __version__
from pbmref.base.files import fsync_dir
from pbmref.base.locks import FileLock
from pbmref.base.yamlfile import load_round_trip, read_text
from pbmref.config import Config
from pbmref.mail.spool import IncomingSpool, OutgoingSpool
from pbmref.store.layout import GAME_FILE, LOCK_FILE, TURNS

__all__ = ["BACKUP_FORMAT", "BackupError", "Backup", "make_backup", "restore_backup"]

BACKUP_FORMAT = 1
MANIFEST = "pbmref-backup.json"
INDEX_FILE = "games-index.json"  # the store's index: rebuilt, never archived
GAME_LOCK_WAIT = 600.0  # seconds a backup waits for a game's lock (a long turn)


class BackupError(Exception):
    """A backup or a restore that cannot be made: one plain sentence."""


@dataclass
class Backup:
    """What a backup holds, or a restore put back."""

    file: Path
    games: list[str] = field(default_factory=list)
    files: int = 0
    config: Path | None = None  # the config file (restored: where it is now)


def _kept(name: str) -> bool:
    """Whether a file belongs in a backup: no lock, no temp file of a write
    in progress, nothing being made (``.new-GAME``)."""
    return not (name == LOCK_FILE or name.endswith(".lock") or name.startswith(".new-")
                or (name.startswith(".") and name.endswith(".tmp")))


def _inside(path: Path, folder: Path) -> str | None:
    """``path`` relative to ``folder``, if it lies inside it."""
    try:
        return path.resolve().relative_to(folder.resolve()).as_posix()
    except ValueError:
        return None


class _Archive:
    """The tar file being written, and how much went in."""

    def __init__(self, tar: tarfile.TarFile) -> None:
        self.tar = tar
        self.files = 0

    def tree(self, folder: Path, name: str) -> None:
        """``folder`` as ``name`` in the archive, with what is under it."""
        self.tar.add(folder, arcname=name, recursive=False)
        for root, dirs, files in os.walk(folder):
            dirs[:] = sorted(d for d in dirs if _kept(d))
            here = Path(root)
            inner = f"{name}/{here.relative_to(folder).as_posix()}".removesuffix("/.")
            for d in dirs:
                self.tar.add(here / d, arcname=f"{inner}/{d}", recursive=False)
            for f in sorted(files):
                if _kept(f):
                    with contextlib.suppress(FileNotFoundError):  # gone meanwhile
                        self.tar.add(here / f, arcname=f"{inner}/{f}", recursive=False)
                        self.files += 1

    def file(self, path: Path, name: str) -> None:
        with contextlib.suppress(FileNotFoundError):
            self.tar.add(path, arcname=name, recursive=False)
            self.files += 1

    def data(self, name: str, data: bytes) -> None:
        info = tarfile.TarInfo(name)
        info.size, info.mtime, info.mode = len(data), int(datetime.now(UTC).timestamp()), 0o640
        self.tar.addfile(info, io.BytesIO(data))


@contextlib.contextmanager
def _written(target: Path) -> Iterator[tarfile.TarFile]:
    """A gzipped tar written under a temporary name beside ``target``, readable by
    its maker only, flushed and given its name when the block ends whole."""
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        with os.fdopen(fd, "wb") as raw:
            with tarfile.open(fileobj=raw, mode="w:gz", compresslevel=6) as tar:
                yield tar
            raw.flush()
            os.fsync(raw.fileno())
        os.replace(tmp, target)
        fsync_dir(target.parent)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()
        raise


def _game_folders(games: Path) -> list[Path]:
    if not games.is_dir():
        return []
    return sorted(p for p in games.iterdir() if p.is_dir() and _kept(p.name)
                  and not p.name.startswith(".")
                  and ((p / GAME_FILE).exists() or (p / TURNS).is_dir()))


def make_backup(config: Config, target: Path, *,
                progress: Callable[[str], None] = lambda _said: None) -> Backup:
    """Archive the referee's data into ``target`` (see the module's docstring);
    ``progress`` is told each step ("state", "game ID", "spool")."""
    folder = config.source.parent if config.source else Path.cwd()
    if _inside(target, config.games_dir) is not None or _inside(
            target, config.spool_dir) is not None:
        raise BackupError(f"{target}: a backup inside the games or spool folder would be "
                          "archived with them; write it elsewhere")
    incoming = IncomingSpool(config.spool_dir / "in")
    outgoing = OutgoingSpool(config.spool_dir / "out")
    done = Backup(file=target, config=config.source)
    manifest = {
        "pbmref-backup": BACKUP_FORMAT, "pbmref": __version__,
        "made": datetime.now(UTC).isoformat(timespec="seconds"),
        "config": config.source.name if config.source else None,
        "games": _inside(config.games_dir, folder), "spool": _inside(config.spool_dir, folder),
    }
    with _written(target) as tar, incoming.lock():
        archive = _Archive(tar)
        archive.data(MANIFEST, json.dumps(manifest, indent=1).encode())
        if config.source is not None:
            archive.file(config.source, f"config/{config.source.name}")
        progress("state")  # first: what was taken in after this is fetched again
        for path in sorted(config.spool_dir.iterdir()):
            if path.is_file() and _kept(path.name) and path.name != INDEX_FILE:
                archive.file(path, f"spool/{path.name}")
        for game in _game_folders(config.games_dir):
            with FileLock(game / LOCK_FILE, timeout=GAME_LOCK_WAIT, mode=0o644):
                archive.tree(game, f"games/{game.name}")
            done.games.append(game.name)
            progress(f"game {game.name}")
        if config.games_dir.is_dir():
            for path in sorted(config.games_dir.iterdir()):  # the roster, class files
                if path.is_file() and _kept(path.name) and not path.name.startswith("."):
                    archive.file(path, f"games/{path.name}")
        progress("spool")
        with outgoing.delivery_paused():
            archive.tree(incoming.root, "spool/in")
            archive.tree(outgoing.root, "spool/out")
        done.files = archive.files
    return done


def _manifest(tar: tarfile.TarFile, source: Path) -> dict[str, object]:
    try:
        member = tar.extractfile(MANIFEST)
        data = json.loads(member.read()) if member is not None else None
    except (KeyError, ValueError):
        data = None
    if not isinstance(data, dict) or "pbmref-backup" not in data:
        raise BackupError(f"{source}: not a pbmref backup (no {MANIFEST} in it)")
    if not isinstance(data["pbmref-backup"], int) or data["pbmref-backup"] > BACKUP_FORMAT:
        raise BackupError(f"{source}: made by pbmref {data.get('pbmref')}, a newer release "
                          "than this one: restore it with that release")
    return data


def _placed(name: str, manifest: dict[str, object]) -> str:
    """Where an archive member goes inside the restored referee's folder."""
    top, _, rest = name.partition("/")
    if top == "config":
        return rest
    at = manifest.get(top) or top  # outside the referee's folder: put inside it
    return f"{at}/{rest}" if rest else str(at)


def _moved_config(config: Path, manifest: dict[str, object]) -> None:
    """Point the restored config at the games and spool folders that came back
    inside the referee's folder, when they lay outside it."""
    moved = {key: key for key in ("games", "spool") if not manifest.get(key)}
    if not moved:
        return
    from ruamel.yaml import YAML

    yaml = YAML(typ="rt")
    data = load_round_trip(yaml, read_text(config), config)
    for key in moved:
        data[f"{key}_dir"] = key
    with config.open("w", encoding="utf-8") as out:
        yaml.dump(data, out)


def restore_backup(source: Path, folder: Path) -> Backup:
    """Put the backup ``source`` back into ``folder``, which must be empty (or
    not there yet). Nothing is written over."""
    if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
        raise BackupError(f"{folder}: not an empty folder; restore into an empty one")
    try:
        tar = tarfile.open(source, "r:gz")
    except (OSError, tarfile.TarError) as exc:
        raise BackupError(f"{source}: cannot be read as a backup ({exc})") from None
    with tar:
        manifest = _manifest(tar, source)
        members = []
        for member in tar.getmembers():
            if member.name == MANIFEST:
                continue
            if member.name.partition("/")[0] not in ("config", "games", "spool"):
                raise BackupError(f"{source}: {member.name} is no part of a pbmref backup")
            member.name = _placed(member.name, manifest)
            if member.islnk():
                member.linkname = _placed(member.linkname, manifest)
            members.append(member)
        folder.mkdir(parents=True, exist_ok=True)
        tar.extractall(folder, members=members, filter="data")
    done = Backup(file=source)
    games = folder / str(manifest.get("games") or "games")
    done.games = [p.name for p in _game_folders(games)]
    done.files = sum(1 for m in members if m.isfile())
    if manifest.get("config"):
        done.config = folder / str(manifest["config"])
        _moved_config(done.config, manifest)
    return done
