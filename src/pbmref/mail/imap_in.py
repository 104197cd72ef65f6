"""Intake from an IMAP folder (imapclient), with IDLE, back-off and a small state file.

* Mail is fetched with `BODY.PEEK[]` (no `\\Seen` flag is set) together with
  INTERNALDATE, the server's arrival time, returned aware in UTC.
* The state file keeps UIDVALIDITY, the highest UID already handed out and
  any "mark handled" that could not reach the server (retried on the next
  connection). When UIDVALIDITY changes everything in the folder is fetched
  again; the incoming spool drops what it already has (by Message-ID).
* Handled mail is moved to `handled_folder` (MOVE, else COPY + \\Deleted +
  expunge).
* When the server goes away every operation reconnects with exponential
  back-off; after `reconnect_attempts` failures it raises `IntakeError`.
* The connection is implicit TLS (``security="tls"``, port 993), plain then
  STARTTLS (``"starttls"``, port 143; a server without STARTTLS is refused)
  or plain (``"none"``). The login is a password, or an OAuth2 access token
  (``auth="xoauth2"`` or ``"oauthbearer"``) from `AccessTokens`, asked for at
  each connection: a token the server refuses is renewed and tried once more,
  and a grant the provider withdrew stops the intake at once
  (`AuthorizationLost`, an `IntakeError` that says what to do).
"""

from __future__ import annotations

import contextlib
import functools
import json
import logging
import os
import ssl
import threading
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, TypedDict, TypeVar

from imapclient import IMAPClient
from imapclient.exceptions import IMAPClientError, LoginError

from pbmref.base.files import replace_file, then
from pbmref.base.locks import FileLock
from pbmref.mail.base import IntakeError, RawMail

if TYPE_CHECKING:
    from pbmref.mail.health import ServerWatch
    from pbmref.mail.oauth2 import AccessTokens

__all__ = ["SECURITY_MODES", "ImapIntake", "imap_login"]

SECURITY_MODES = ("none", "starttls", "tls")

log = logging.getLogger(__name__)

T = TypeVar("T")

_RETRYABLE: tuple[type[BaseException], ...] = (
    IMAPClientError,  # includes imaplib's error/abort, LoginError, ...
    OSError,  # socket errors, ConnectionRefused, timeouts
    ssl.SSLError,
    EOFError,
)


def _to_utc(value: Any) -> datetime:
    if isinstance(value, datetime):
        # naive INTERNALDATE (imapclient's normalised form) is local time
        return value.astimezone(UTC)
    return datetime.now(UTC)


class ImapState(TypedDict):
    """The intake's state file (JSON): the folder's UIDVALIDITY, the last UID
    handed out in it, and the moves to the handled folder put off
    (``validity:uid`` keys)."""

    uidvalidity: int | None
    last_uid: int
    pending_marks: list[str]


def imap_state(data: object) -> ImapState:
    """The state a state file holds (``data`` as JSON read it; a value that is
    missing or of the wrong kind reads as no record of it).

    >>> imap_state({"uidvalidity": 7, "last_uid": 12, "pending_marks": ["7:3", 4]})
    {'uidvalidity': 7, 'last_uid': 12, 'pending_marks': ['7:3']}
    >>> imap_state(None)
    {'uidvalidity': None, 'last_uid': 0, 'pending_marks': []}
    """
    raw = data if isinstance(data, dict) else {}
    validity, last, marks = raw.get("uidvalidity"), raw.get("last_uid"), raw.get("pending_marks")
    return {"uidvalidity": validity if isinstance(validity, int) else None,
            "last_uid": last if isinstance(last, int) else 0,
            "pending_marks": [k for k in marks if isinstance(k, str)]
            if isinstance(marks, list) else []}


class ImapIntake:
    """`Intake` over an IMAP folder. Keys are "<uidvalidity>:<uid>"."""

    hands_out_once: ClassVar[bool] = True  # the last UID handed out is kept: a mail comes once
    IDLE_SLICE = 0.5  # seconds: how often a wait in IDLE looks whether it was interrupted

    def __init__(
        self,
        host: str,
        port: int | None = None,
        *,
        user: str,
        password: str = "",
        security: str = "tls",
        auth: str = "password",
        tokens: AccessTokens | None = None,
        folder: str = "INBOX",
        handled_folder: str = "pbmref-handled",
        state_file: str | os.PathLike[str] | None = None,
        idle_renew_seconds: float = 240.0,
        poll_seconds: float = 60.0,
        timeout: float = 30.0,
        ssl_context: ssl.SSLContext | None = None,
        reconnect_attempts: int = 6,
        backoff_first: float = 1.0,
        backoff_max: float = 60.0,
        max_fetch_bytes: int | None = None,
        batch: int = 50,
        sleep: Callable[[float], None] = time.sleep,
        use_idle: bool = True,
        use_move: bool = True,
        watch: ServerWatch | None = None,
    ) -> None:
        if security not in SECURITY_MODES:
            raise ValueError(f"security must be one of {', '.join(SECURITY_MODES)}, "
                             f"not {security!r}")
        if auth != "password" and tokens is None:
            raise ValueError(f"auth {auth!r} needs the OAuth2 access tokens")
        self.host = host
        self.port = port or (993 if security == "tls" else 143)
        self.user = user
        self._password = password
        self.security = security
        self.auth = auth
        self.tokens = tokens
        self.folder = folder
        self.handled_folder = handled_folder
        self.state_file = Path(state_file) if state_file else None
        self.idle_renew_seconds = idle_renew_seconds
        self.poll_seconds = poll_seconds
        self.timeout = timeout
        self.ssl_context = ssl_context
        self.reconnect_attempts = max(1, reconnect_attempts)
        self.backoff_first = backoff_first
        self.backoff_max = backoff_max
        self.max_fetch_bytes = max_fetch_bytes
        self.batch = max(1, batch)
        self._interrupted = threading.Event()
        # back-off naps end early when interrupted (an injected ``sleep`` is a test's)
        self._sleep = self._interrupted.wait if sleep is time.sleep else sleep
        self.use_idle = use_idle  # False: always poll (also when the server has IDLE)
        self.use_move = use_move  # False: always COPY + \\Deleted + expunge
        self.watch = watch  # told whether the server answers (mail.health)
        self._client: IMAPClient | None = None
        self._caps: frozenset[bytes] = frozenset()
        self.uidvalidity: int | None = None
        self.connects = 0  # how many times a connection was opened (for tests and logs)
        self.idles = 0  # how many IDLE commands were issued (each renewal is one)
        self._state = self._load_state()

    # ------------------------------------------------------------------ state file
    def _load_state(self) -> ImapState:
        data: object = None
        if self.state_file and self.state_file.exists():
            try:
                data = json.loads(self.state_file.read_text(encoding="utf-8"))
            except (OSError, ValueError) as exc:
                log.warning("ignoring unreadable IMAP state file %s: %s", self.state_file, exc)
        return imap_state(data)

    def _save_state(self, *, durable: bool = True) -> None:
        if not self.state_file:
            return
        replace_file(self.state_file, json.dumps(self._state, indent=1), durable=durable)

    def _update_state(self, change: Callable[[ImapState], None], *,
                      durable: bool = True) -> None:
        """Read-modify-write the state file under a lock, so a daemon and a cron run
        sharing it do not undo each other's progress or forget each other's marks.
        ``durable=False``: written, not flushed (``_record_consumed``)."""
        if not self.state_file:
            change(self._state)
            return
        self.state_file.parent.mkdir(parents=True, exist_ok=True)
        with FileLock(self.state_file.with_name(self.state_file.name + ".lock")):
            disk = self._load_state()
            before = json.dumps(disk, sort_keys=True)
            mine = self._state
            if disk["uidvalidity"] == mine["uidvalidity"]:
                mine["last_uid"] = max(disk["last_uid"], mine["last_uid"])
                marks = list(mine["pending_marks"])
                marks += [k for k in disk["pending_marks"] if k not in marks]
                mine["pending_marks"] = marks
            change(mine)
            if json.dumps(mine, sort_keys=True) != before:
                self._save_state(durable=durable)

    @property
    def last_uid(self) -> int:
        return self._state["last_uid"]

    # ------------------------------------------------------------------ connection
    def open(self) -> IMAPClient:
        """A connection, secured as configured and logged in (no folder chosen)."""
        client = IMAPClient(
            self.host, port=self.port, ssl=self.security == "tls",
            ssl_context=self.ssl_context, timeout=self.timeout,
        )
        try:
            if self.security == "starttls":
                client.starttls(self.ssl_context)
            imap_login(client, self.user, auth=self.auth, password=self._password,
                       tokens=self.tokens)
        except BaseException:
            with contextlib.suppress(Exception):
                client.shutdown()
            raise
        return client

    def _connect(self) -> IMAPClient:
        client = self.open()
        try:
            client.normalise_times = False  # INTERNALDATE with its zone
            caps = set(client.capabilities())
            if not self.use_idle:
                caps.discard(b"IDLE")
            if not self.use_move:
                caps.discard(b"MOVE")
            self._caps = frozenset(caps)
            info = client.select_folder(self.folder)
            uidvalidity = int(info[b"UIDVALIDITY"])
            if self._state["uidvalidity"] != uidvalidity:
                if self._state["uidvalidity"] is not None:
                    log.warning("UIDVALIDITY of %s changed (%s -> %s): fetching everything again",
                                self.folder, self._state["uidvalidity"], uidvalidity)
                self._state = {"uidvalidity": uidvalidity, "last_uid": 0, "pending_marks": []}
                self._update_state(lambda st: None)
            self.uidvalidity = uidvalidity
            if not client.folder_exists(self.handled_folder):
                with contextlib.suppress(IMAPClientError):  # created meanwhile by another run
                    client.create_folder(self.handled_folder)
        except BaseException:
            with contextlib.suppress(Exception):
                client.shutdown()
            raise
        self._client = client
        self.connects += 1
        self._flush_marks(client)
        return client

    def _drop(self) -> None:
        client, self._client = self._client, None
        if client is not None:
            with contextlib.suppress(Exception):
                client.shutdown()

    def _run(self, op: Callable[[IMAPClient], T], what: str) -> T:
        """Run `op` on a live connection, reconnecting with back-off when it breaks;
        what came of it goes to the `watch` (the game master hears of trouble)."""
        try:
            done = self._attempts(op, what)
        except IntakeError as exc:
            if self.watch is not None:
                self.watch.failed(str(exc))
            raise
        if self.watch is not None:
            self.watch.ok()
        return done

    def _attempts(self, op: Callable[[IMAPClient], T], what: str) -> T:
        delay = self.backoff_first
        for attempt in range(1, self.reconnect_attempts + 1):
            try:
                client = self._client or self._connect()
                return op(client)
            except _RETRYABLE as exc:
                self._drop()
                if attempt >= self.reconnect_attempts or self._interrupted.is_set():
                    raise IntakeError(
                        f"IMAP {self.host}:{self.port} ({what}) failed {attempt} "
                        f"time{'' if attempt == 1 else 's'}; "
                        f"last error: {type(exc).__name__}: {exc}"
                    ) from exc
                log.warning("IMAP %s failed (%s: %s); reconnecting in %.1f s",
                            what, type(exc).__name__, exc, delay)
                self._sleep(delay)
                delay = min(delay * 2, self.backoff_max)
        raise AssertionError("unreachable")

    def has_capability(self, name: str) -> bool:
        if self._client is None:
            self._run(lambda c: None, "connect")
        return name.upper().encode() in self._caps

    # ------------------------------------------------------------------ Intake
    def fetch_new(self) -> Iterator[RawMail]:
        """Mail with a UID above the last one handed out, oldest first.

        The last UID is recorded only once the caller asks for the next mail (or
        finishes the loop), i.e. after it has saved the previous one; inside a
        ``durable_together`` block, only once what the block wrote is on disk
        (``then``): a caller that saves a batch of mails in one block flushes
        them together, and the record never gets ahead of them.
        """

        def search(c: IMAPClient) -> tuple[int, list[int]]:
            self._update_state(lambda st: None)  # take in another process's progress
            c.noop()  # Dovecot may not show fresh mail to SEARCH without it
            last = self.last_uid
            uids = sorted(u for u in c.search(["UID", f"{last + 1}:*"]) if u > last)
            assert self.uidvalidity is not None
            return self.uidvalidity, uids

        validity, uids = self._run(search, "search")
        consumed = self.last_uid
        try:
            for start in range(0, len(uids), self.batch):
                chunk = uids[start:start + self.batch]
                data = self._run(functools.partial(self._fetch, uids=chunk), "fetch")
                if self.uidvalidity != validity:
                    return  # the folder was rebuilt meanwhile: start over next time
                for uid in chunk:
                    item = data.get(uid)
                    if item is None:  # expunged meanwhile
                        consumed = max(consumed, uid)
                        continue
                    raw, arrived, size = item
                    yield RawMail(key=f"{validity}:{uid}", raw=raw, arrived=arrived, size=size)
                    consumed = max(consumed, uid)
                self._commit(validity, consumed)
        finally:
            self._commit(validity, consumed)

    def _commit(self, validity: int, consumed: int) -> None:
        then(functools.partial(self._record_consumed, validity, consumed))

    def _record_consumed(self, validity: int, consumed: int) -> None:
        """Note the mails up to ``consumed`` handed out, once their copies are on
        disk (``then``). The note is written, not flushed (two flushes fewer a
        round, issue 20): a power cut that takes it back, or leaves the file
        empty (read as no record), only makes the next fetch hand out those mails
        again, and the spool knows each by its Message-ID. It never reaches the
        disk before the copies do: it is written only after they were flushed.
        A mark put off (``pending_marks``) is still flushed when noted."""
        if self._state["uidvalidity"] == validity and consumed > self.last_uid:
            def note(st: ImapState) -> None:
                st["last_uid"] = max(consumed, st["last_uid"])

            self._update_state(note, durable=False)

    def _fetch(self, c: IMAPClient, uids: list[int]) -> dict[int, tuple[bytes, datetime, int]]:
        out: dict[int, tuple[bytes, datetime, int]] = {}
        if self.max_fetch_bytes is None:
            resp = c.fetch(uids, ["BODY.PEEK[]", "INTERNALDATE", "RFC822.SIZE"])
            for uid, d in resp.items():
                raw = d.get(b"BODY[]") or b""
                out[uid] = (bytes(raw), _to_utc(d.get(b"INTERNALDATE")),
                            int(d.get(b"RFC822.SIZE") or len(raw)))
            return out
        meta = c.fetch(uids, ["INTERNALDATE", "RFC822.SIZE"])
        small = [u for u, d in meta.items() if int(d.get(b"RFC822.SIZE") or 0) <= self.max_fetch_bytes]
        big = [u for u in meta if u not in set(small)]
        # of a big mail the headers only: enough to answer "too big" politely
        bodies = {**_parts(c, small, b"BODY[]"), **_parts(c, big, b"BODY[HEADER]")}
        for uid, d in meta.items():
            if uid in bodies:
                out[uid] = (bodies[uid], _to_utc(d.get(b"INTERNALDATE")),
                            int(d.get(b"RFC822.SIZE") or 0))
        return out

    def _move(self, c: IMAPClient, uids: list[int]) -> None:
        if b"MOVE" in self._caps:
            c.move(uids, self.handled_folder)
            return
        c.copy(uids, self.handled_folder)
        c.delete_messages(uids)
        if b"UIDPLUS" in self._caps:
            c.uid_expunge(uids)
        else:
            c.expunge()

    def _flush_marks(self, client: IMAPClient) -> None:
        marks = list(self._state["pending_marks"])
        if not marks:
            return
        uids = [int(k.split(":")[1]) for k in marks if k.split(":")[0] == str(self.uidvalidity)]
        if uids:
            self._move(client, uids)
        done = set(marks)

        def forget(st: ImapState) -> None:
            st["pending_marks"] = [k for k in st["pending_marks"] if k not in done]

        self._update_state(forget)

    def mark_handled(self, *keys: str) -> None:
        """Move the mails to the handled folder, in one MOVE (a round's mails
        together). If the server cannot be reached the moves are remembered in
        the state file and done on the next connection."""
        uids: dict[int, list[int]] = {}
        for key in keys:
            try:
                validity_s, uid_s = key.split(":", 1)
                uids.setdefault(int(validity_s), []).append(int(uid_s))
            except ValueError as exc:
                raise ValueError(f"not an IMAP intake key: {key!r}") from exc
        if not keys:
            return

        def move(c: IMAPClient) -> None:
            for validity, some in uids.items():
                if validity != self.uidvalidity:  # checked once connected
                    log.warning("not moving %s: the folder's UIDVALIDITY is now %s",
                                ", ".join(f"{validity}:{u}" for u in some), self.uidvalidity)
                    continue
                self._move(c, some)

        try:
            self._run(move, "move")
        except IntakeError as exc:
            log.warning("could not move %s now (%s); will retry on the next connection",
                        ", ".join(keys), exc)

            def add(st: ImapState) -> None:
                for key in keys:
                    if key not in st["pending_marks"]:
                        st["pending_marks"].append(key)

            self._update_state(add)

    def wait(self, timeout: float) -> bool:
        """IDLE until the server reports new mail (renewed every idle_renew_seconds),
        or sleep `min(timeout, poll_seconds)` when the server has no IDLE.

        Returns True when woken by the server (new mail) or by a broken connection
        (the next fetch_new reconnects), False on timeout. Never raises.
        """
        end = time.monotonic() + max(0.0, timeout)
        try:
            if not self.has_capability("IDLE"):
                self._sleep(min(max(0.0, timeout), self.poll_seconds))
                return False
        except IntakeError as exc:
            log.warning("IMAP wait: %s", exc)
            return True
        while not self._interrupted.is_set():
            left = end - time.monotonic()
            if left <= 0:
                return False
            client = self._client
            if client is None:
                return True
            try:
                client.idle()
                self.idles += 1
                try:
                    responses = self._idle_check(client, min(left, self.idle_renew_seconds))
                finally:
                    # what the server said between the last look and DONE comes
                    # back with the DONE: a new mail told then is told only then
                    _, told_at_done = client.idle_done()
                responses = [*responses, *told_at_done]
            except _RETRYABLE as exc:
                log.info("IMAP IDLE ended by %s: %s", type(exc).__name__, exc)
                self._drop()
                return True
            for resp in responses:
                if not isinstance(resp, tuple):
                    continue
                words = [x for x in resp if isinstance(x, bytes)]
                if b"EXISTS" in words or b"RECENT" in words:
                    return True
                if b"BYE" in words:
                    self._drop()
                    return True
        return False

    def _idle_check(self, client: IMAPClient, timeout: float) -> list[Any]:
        """The server's responses within ``timeout`` seconds of IDLE, looked for in
        short slices so that an interrupt ends the wait at once (one IDLE command
        all along: the slices are only how long each look at the socket lasts)."""
        end = time.monotonic() + timeout
        while not self._interrupted.is_set():
            left = end - time.monotonic()
            if left <= 0:
                return []
            responses: list[Any] = client.idle_check(timeout=min(left, self.IDLE_SLICE))
            if responses:
                return responses
        return []

    def interrupt(self) -> None:
        self._interrupted.set()

    def close(self) -> None:
        client, self._client = self._client, None
        if client is not None:
            try:
                client.logout()
            except Exception:  # noqa: BLE001
                with contextlib.suppress(Exception):
                    client.shutdown()

    def __enter__(self) -> ImapIntake:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def imap_login(client: IMAPClient, user: str, *, auth: str = "password", password: str = "",
               tokens: AccessTokens | None = None) -> None:
    """Log in with the password, or with an OAuth2 access token (SASL XOAUTH2 or
    OAUTHBEARER); a token the server refuses is renewed and tried once more."""
    if auth == "password":
        client.login(user, password)
        return
    assert tokens is not None
    for attempt in (1, 2):
        token = tokens.token()
        try:
            if auth == "xoauth2":
                client.oauth2_login(user, token)
            else:
                client.oauthbearer_login(user, token)
            return
        except LoginError:
            tokens.expire()  # the server turned it down: the next one is renewed
            if attempt == 2:
                raise


def _parts(c: IMAPClient, uids: list[int], part: bytes) -> dict[int, bytes]:
    """The ``part`` (``BODY[]``, ``BODY[HEADER]``) of each mail, read without
    marking it seen (none asked: no request)."""
    if not uids:
        return {}
    peek = part.decode().replace("BODY", "BODY.PEEK", 1)
    return {uid: bytes(d.get(part) or b"") for uid, d in c.fetch(uids, [peek]).items()}
