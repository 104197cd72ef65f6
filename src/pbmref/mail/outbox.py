"""Outgoing mail written into an outbox Maildir (the default mode: no SMTP server)."""

from __future__ import annotations

import email
import email.policy
import itertools
import os
import socket
import time
from email.message import EmailMessage
from pathlib import Path

from pbmref.base.files import fsync_dir
from pbmref.mail.base import Outgoing, TemporaryFailure
from pbmref.mail.maildir_in import ensure_maildir

__all__ = ["MaildirOutbox", "read_maildir", "write_maildir"]

_counter = itertools.count()


def write_maildir(root: str | os.PathLike[str], raw: bytes) -> str:
    """Write `raw` into the Maildir `root` the Maildir way (tmp, fsync, rename into new/)."""
    base = ensure_maildir(root)
    name = (f"{time.time_ns() // 1000}.P{os.getpid()}Q{next(_counter)}."
            f"{socket.gethostname().replace('/', '_').replace(':', '_')}")
    tmp = base / "tmp" / name
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o640)
    try:
        view = memoryview(raw)
        while view:
            view = view[os.write(fd, view):]
        os.fsync(fd)
    finally:
        os.close(fd)
    os.rename(tmp, base / "new" / name)
    fsync_dir(base / "new")  # in new/ for good before the spool records it sent
    return name


def read_maildir(root: str | os.PathLike[str]) -> list[EmailMessage]:
    """Every mail in the Maildir `root` (new/ and cur/), oldest first, parsed."""
    base = Path(root)
    files: list[tuple[float, str, Path]] = []
    for sub in ("new", "cur"):
        folder = base / sub
        if folder.is_dir():
            files += [(p.stat().st_mtime, p.name, p) for p in folder.iterdir() if p.is_file()]
    out = []
    for _, _, path in sorted(files):
        msg = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
        assert isinstance(msg, EmailMessage)
        out.append(msg)
    return out


class MaildirOutbox:
    """`Sender` that stores each mail in an outbox Maildir (for a human or a cron job to pass on)."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)

    def send(self, mail: Outgoing) -> None:
        try:
            write_maildir(self.path, mail.raw)
        except OSError as exc:
            raise TemporaryFailure(f"cannot write to the outbox {self.path}: {exc}") from exc

    def messages(self) -> list[EmailMessage]:
        return read_maildir(self.path)
