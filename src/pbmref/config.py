"""The referee's configuration file (YAML, safe loader) as frozen dataclasses.

Everything has a default: no file, or an empty one, means "local Maildir mode"
with all folders under `./mail/`. Relative paths are taken relative to the
folder holding the config file (the current folder when there is none).
Unknown keys and bad values raise `ConfigError` naming the file, the line and
the key. Passwords never live in the file: `password_env` names an
environment variable, `password_file` a file holding the password.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field, fields, is_dataclass, replace
from datetime import timedelta
from pathlib import Path
from typing import Any, get_type_hints

from pbmref.base.errors import GameFileError
from pbmref.base.times import parse_duration
from pbmref.base.yamlfile import YamlDoc, read_yaml

__all__ = [
    "Config",
    "ConfigError",
    "DeadlinesConfig",
    "ImapConfig",
    "LimitsConfig",
    "MailConfig",
    "MaildirConfig",
    "RefereeConfig",
    "SmtpConfig",
    "load_config",
    "read_password",
]


class ConfigError(Exception):
    """A configuration problem, with file, line and key in its message."""


@dataclass(frozen=True)
class RefereeConfig:
    address: str = "referee@localhost"
    name: str = "pbmref referee"
    game_master: str = ""  # gets the referee's notices (a flood of wrong passwords)


@dataclass(frozen=True)
class MaildirConfig:
    inbox: Path = Path("mail/inbox")
    outbox: Path = Path("mail/outbox")


@dataclass(frozen=True)
class ImapConfig:
    host: str = "localhost"
    port: int = 0  # 0: 993 with tls, 143 without
    tls: bool = True
    user: str = ""
    password_env: str = ""
    password_file: Path | None = None
    folder: str = "INBOX"
    handled_folder: str = "pbmref-handled"
    idle_renew_seconds: float = 240.0
    poll_seconds: float = 60.0
    timeout: float = 30.0

    def password(self) -> str:
        return read_password(self.password_env, self.password_file, "mail.imap")


@dataclass(frozen=True)
class SmtpConfig:
    host: str = "localhost"
    port: int = 0  # 0: 25 / 587 / 465 for none / starttls / tls
    security: str = "starttls"
    user: str = ""
    password_env: str = ""
    password_file: Path | None = None
    timeout: float = 60.0

    def password(self) -> str | None:
        if not self.user:
            return None
        return read_password(self.password_env, self.password_file, "mail.smtp")


@dataclass(frozen=True)
class MailConfig:
    mode: str = "maildir"  # maildir | imap (imap also sends through smtp)
    maildir: MaildirConfig = field(default_factory=MaildirConfig)
    imap: ImapConfig = field(default_factory=ImapConfig)
    smtp: SmtpConfig = field(default_factory=SmtpConfig)


@dataclass(frozen=True)
class LimitsConfig:
    max_message_bytes: int = 1_000_000
    press_chars: int = 6000  # characters in one press message
    press_per_day: int = 40  # press messages one player may send a game in 24 hours
    # How long the spools keep what is left of a mail once it is handled or sent
    # (its record), and a mail set aside or failed for good (for the game master).
    spool_retention: str = "14d"
    # A mail provider's limits on what the referee's account sends (0: none):
    # mails a minute, and recipients in any 24 hours. The rest waits in the
    # outgoing spool; the game master is told when a deadline's reports will
    # take long to go out.
    send_per_minute: int = 0
    recipients_per_day: int = 0

    @property
    def retention(self) -> timedelta:
        return parse_duration(self.spool_retention)


@dataclass(frozen=True)
class DeadlinesConfig:
    reminder_hours: float = 24.0  # 0 turns reminders off
    early_adjudication: bool = True


@dataclass(frozen=True)
class Config:
    games_dir: Path = Path("games")
    spool_dir: Path = Path("mail/spool")
    referee: RefereeConfig = field(default_factory=RefereeConfig)
    mail: MailConfig = field(default_factory=MailConfig)
    limits: LimitsConfig = field(default_factory=LimitsConfig)
    deadlines: DeadlinesConfig = field(default_factory=DeadlinesConfig)
    source: Path | None = None  # the file this came from (None: defaults)

    @classmethod
    def local(cls, root: Path, address: str, name: str = "Referee") -> Config:
        """A referee on a local Maildir with every folder under ``root``: games,
        spool, ``inbox`` and ``outbox`` (benchmarks and the pictures in docs/)."""
        return cls(games_dir=root / "games", spool_dir=root / "spool",
                   referee=RefereeConfig(address=address, name=name),
                   mail=MailConfig(mode="maildir", maildir=MaildirConfig(
                       inbox=root / "inbox", outbox=root / "outbox")))

    @property
    def referee_addresses(self) -> tuple[str, ...]:
        """Every address this config gives the referee (its own, and the mail
        server logins that are addresses): no player may be registered with one."""
        found = [self.referee.address, self.mail.imap.user, self.mail.smtp.user]
        return tuple(dict.fromkeys(a.strip().lower() for a in found if "@" in a))


_CHOICES = {
    ("mail", "mode"): ("maildir", "imap"),
    ("mail", "smtp", "security"): ("none", "starttls", "tls"),
}
_POSITIVE = {"max_message_bytes", "idle_renew_seconds", "poll_seconds", "timeout",
             "press_chars", "press_per_day"}


def read_password(env: str, file: Path | str | None, where: str = "") -> str:
    """The password from the environment variable `env`, else from `file`."""
    label = f"{where}: " if where else ""
    if env:
        value = os.environ.get(env)
        if value is not None:
            return value
        if not file:
            raise ConfigError(f"{label}the environment variable {env} (password_env) is not set")
    if file:
        try:
            return Path(file).read_text(encoding="utf-8").strip("\r\n")
        except OSError as exc:
            raise ConfigError(f"{label}cannot read password_file {file}: {exc.strerror}") from exc
    raise ConfigError(f"{label}no password: set password_env or password_file")


# ------------------------------------------------------------------------- loading


class _Builder:
    def __init__(self, doc: YamlDoc, base: Path) -> None:
        self.source = str(doc.path)
        self.doc = doc
        self.base = base

    def fail(self, path: tuple[str, ...], message: str) -> ConfigError:
        line = self.doc.line(path) if path else None
        where = f"{self.source}, line {line}" if line else self.source
        key = ".".join(path) if path else "(top level)"
        return ConfigError(f"{where}: {key}: {message}")

    def build(self, cls: type[Any], data: Any, path: tuple[str, ...]) -> Any:
        if data is None:
            data = {}
        if not isinstance(data, dict):
            raise self.fail(path, f"expected a mapping of keys, got {type(data).__name__}")
        hints = get_type_hints(cls)
        known = {f.name for f in fields(cls) if f.name != "source"}
        kwargs: dict[str, Any] = {}
        for key, value in data.items():
            kpath = path + (str(key),)
            if key == "password":
                raise self.fail(kpath, "passwords never go in the config file; "
                                       "use password_env or password_file")
            if key not in known:
                raise self.fail(kpath, f"unknown key (known: {', '.join(sorted(known))})")
            kwargs[key] = self.value(hints[key], value, kpath)
        return cls(**kwargs)

    def value(self, hint: Any, value: Any, path: tuple[str, ...]) -> Any:
        if is_dataclass(hint):
            return self.build(hint, value, path)  # type: ignore[arg-type]
        optional = hint == (Path | None)
        if optional and value in (None, ""):
            return None
        if optional:
            hint = Path
        check = {Path: self._path, bool: self._bool, int: self._int, float: self._float,
                 str: self._str}.get(hint)
        if check is None:  # pragma: no cover - a field type this reader does not know
            raise self.fail(path, f"unsupported setting type {hint}")
        return check(value, path)

    def _path(self, value: Any, path: tuple[str, ...]) -> Path:
        if not isinstance(value, str) or not value.strip():
            raise self.fail(path, "expected a path (text)")
        p = Path(os.path.expanduser(value))
        return p if p.is_absolute() else self.base / p

    def _bool(self, value: Any, path: tuple[str, ...]) -> bool:
        if not isinstance(value, bool):
            raise self.fail(path, f"expected true or false, got {value!r}")
        return value

    def _number(self, value: Any, path: tuple[str, ...]) -> None:
        if value < 0 or (path[-1] in _POSITIVE and value == 0):
            raise self.fail(path, f"must be positive, got {value}")

    def _int(self, value: Any, path: tuple[str, ...]) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(path, f"expected a whole number, got {value!r}")
        self._number(value, path)
        if path[-1] == "port" and value > 65535:
            raise self.fail(path, f"not a port number: {value}")
        return value

    def _float(self, value: Any, path: tuple[str, ...]) -> float:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise self.fail(path, f"expected a number, got {value!r}")
        self._number(value, path)
        return float(value)

    def _str(self, value: Any, path: tuple[str, ...]) -> str:
        if not isinstance(value, str):
            raise self.fail(path, f"expected text, got {value!r}")
        choices = _CHOICES.get(path)
        if choices and value not in choices:
            raise self.fail(path, f"must be one of {', '.join(choices)}, got {value!r}")
        return value


def _resolve_defaults(cfg: Config, base: Path) -> Config:
    """Make the default (relative) paths absolute against `base`."""
    def absol(p: Path) -> Path:
        return p if p.is_absolute() else base / p

    return replace(
        cfg,
        games_dir=absol(cfg.games_dir),
        spool_dir=absol(cfg.spool_dir),
        mail=replace(cfg.mail, maildir=MaildirConfig(absol(cfg.mail.maildir.inbox),
                                                     absol(cfg.mail.maildir.outbox))),
    )


def load_config(path: str | os.PathLike[str] | None = None, *, required: bool = False) -> Config:
    """Read the config file at `path`. Missing file (unless `required`) or None: defaults."""
    if path is None:
        return _resolve_defaults(Config(), Path.cwd())
    file = Path(path)
    if not file.exists():
        if required:
            raise ConfigError(f"{file}: no such config file")
        return _resolve_defaults(Config(), Path.cwd())
    try:
        doc = read_yaml(file)
    except GameFileError as exc:
        where = f"{file}, line {exc.line}" if exc.line else str(file)
        raise ConfigError(f"{where}: {exc.message}") from None
    base = file.resolve().parent
    builder = _Builder(doc, base)
    cfg = builder.build(Config, doc.data, ())
    cfg = replace(_resolve_defaults(cfg, base), source=file.resolve())
    mail = cfg.mail
    if mail.mode == "imap":
        if not mail.imap.user:
            raise builder.fail(("mail", "imap", "user"), "required when mail.mode is imap")
        if not (mail.imap.password_env or mail.imap.password_file):
            raise builder.fail(("mail", "imap"), "set password_env or password_file")
    if mail.smtp.user and not (mail.smtp.password_env or mail.smtp.password_file):
        raise builder.fail(("mail", "smtp"), "user is set: also set password_env or password_file")
    if "@" not in cfg.referee.address:
        raise builder.fail(("referee", "address"), f"not a mail address: {cfg.referee.address!r}")
    if cfg.referee.game_master and "@" not in cfg.referee.game_master:
        raise builder.fail(("referee", "game_master"),
                           f"not a mail address: {cfg.referee.game_master!r}")
    try:
        cfg.limits.retention  # noqa: B018 - read once here, so a bad value fails at load
    except ValueError as exc:
        raise builder.fail(("limits", "spool_retention"), str(exc)) from None
    return cfg
