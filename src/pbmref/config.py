"""The referee's configuration file (YAML, safe loader) as frozen dataclasses.

Everything has a default: no file, or an empty one, means "local Maildir mode"
with all folders under `./mail/`. Relative paths are taken relative to the
folder holding the config file (the current folder when there is none).
Unknown keys and bad values raise `ConfigError` naming the file, the line and
the key. Passwords never live in the file: `password_env` names an
environment variable, `password_file` a file holding the password and
`password_command` a command that prints it (a password manager); an account
that logs in with OAuth2 (``auth: xoauth2`` or ``oauthbearer``) keeps its
refresh token in `mail.oauth2.token_file`, written by ``pbmref mail authorize``.

`mail.provider` (gmail, microsoft, fastmail) fills in the servers, ports,
security and login of a known provider (`PROVIDERS`); what the file says
itself wins (a section that names a password logs in with it). With a
provider named, SMTP logs in as the IMAP user, the same way, unless
`mail.smtp.user` is given.
"""

from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass, field, fields, is_dataclass, replace
from datetime import timedelta
from pathlib import Path
from typing import Any, get_type_hints

from pbmref.base.errors import GameFileError
from pbmref.base.times import parse_duration
from pbmref.base.yamlfile import YamlDoc, read_yaml

__all__ = [
    "AUTH_MODES",
    "PROVIDERS",
    "Config",
    "ConfigError",
    "DeadlinesConfig",
    "ImapConfig",
    "LimitsConfig",
    "MailConfig",
    "MaildirConfig",
    "OAuth2Config",
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
    # The game master is told when the mailbox or the SMTP server has failed this long.
    trouble_after: str = "1h"
    # Where the games' archives are published (``pbmref render GAME --out
    # DIR/GAME``): each report links its turn's page, DIR's URL + GAME/turn-NNN.html.
    archive_url: str = ""

    @property
    def trouble_delay(self) -> timedelta:
        return parse_duration(self.trouble_after)


@dataclass(frozen=True)
class MaildirConfig:
    inbox: Path = Path("mail/inbox")
    outbox: Path = Path("mail/outbox")


AUTH_MODES = ("password", "xoauth2", "oauthbearer")


@dataclass(frozen=True)
class LoginConfig:
    """How a mail server is logged in to: the user, and either a password (from
    the environment, a file or a command) or an OAuth2 access token (``auth``)."""

    user: str = ""
    auth: str = "password"  # password | xoauth2 | oauthbearer (OAuth2: pbmref mail authorize)
    password_env: str = ""
    password_file: Path | None = None
    password_command: str = ""

    @property
    def oauth2(self) -> bool:
        return self.auth != "password"

    @property
    def password_given(self) -> bool:
        return bool(self.password_env or self.password_file or self.password_command)


@dataclass(frozen=True)
class ImapConfig(LoginConfig):
    host: str = "localhost"
    port: int = 0  # 0: 993 with tls, 143 with starttls or none
    security: str = "tls"  # tls (implicit, 993) | starttls (143) | none
    folder: str = "INBOX"
    handled_folder: str = "pbmref-handled"
    idle_renew_seconds: float = 240.0
    poll_seconds: float = 60.0
    timeout: float = 30.0

    def password(self) -> str:
        return read_password(self.password_env, self.password_file, "mail.imap",
                             command=self.password_command)


@dataclass(frozen=True)
class SmtpConfig(LoginConfig):
    host: str = "localhost"
    port: int = 0  # 0: 25 / 587 / 465 for none / starttls / tls
    security: str = "starttls"
    timeout: float = 60.0

    def password(self) -> str | None:
        if not self.user or self.oauth2:
            return None
        return read_password(self.password_env, self.password_file, "mail.smtp",
                             command=self.password_command)


@dataclass(frozen=True)
class OAuth2Config:
    """The OAuth2 client the referee is to its mail provider. A named provider
    fills in the URLs, scopes and flow; ``client_id`` (and for Google
    ``client_secret``) come from the app the game master registers with it."""

    client_id: str = ""
    # Not a password: the provider gives it to installed apps in the open
    # (Google's desktop clients have one, Microsoft's public clients none).
    client_secret: str = ""
    token_file: Path = Path("oauth2-token.json")  # written 0600 by pbmref mail authorize
    flow: str = ""  # device (a code typed on any device) | browser (a redirect to this machine)
    authorize_url: str = ""
    token_url: str = ""
    device_url: str = ""
    scopes: str = ""  # separated by spaces

@dataclass(frozen=True)
class MailConfig:
    mode: str = "maildir"  # maildir | imap (imap also sends through smtp)
    provider: str = "generic"  # gmail | microsoft | fastmail | generic (see PROVIDERS)
    maildir: MaildirConfig = field(default_factory=MaildirConfig)
    imap: ImapConfig = field(default_factory=ImapConfig)
    smtp: SmtpConfig = field(default_factory=SmtpConfig)
    oauth2: OAuth2Config = field(default_factory=OAuth2Config)

    @property
    def uses_oauth2(self) -> bool:
        return self.mode == "imap" and (self.imap.oauth2 or (bool(self.smtp.user)
                                                              and self.smtp.oauth2))


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


# What naming a provider fills in (what the config file says itself wins).
# Gmail takes OAuth2 or, behind 2-step verification, an app password (auth:
# password); Google's device flow does not grant mail, so its flow is the
# browser's. Microsoft (Outlook.com, Hotmail, Microsoft 365) takes OAuth2 only;
# "common" in its URLs serves personal and work accounts. Fastmail takes an
# app password.
_MICROSOFT = "https://login.microsoftonline.com/common/oauth2/v2.0"
PROVIDERS: dict[str, dict[str, dict[str, object]]] = {
    "gmail": {
        "imap": {"host": "imap.gmail.com", "port": 993, "security": "tls", "auth": "xoauth2"},
        "smtp": {"host": "smtp.gmail.com", "port": 465, "security": "tls", "auth": "xoauth2"},
        "oauth2": {"flow": "browser",
                   "authorize_url": "https://accounts.google.com/o/oauth2/v2/auth",
                   "token_url": "https://oauth2.googleapis.com/token",
                   "scopes": "https://mail.google.com/"},
    },
    "microsoft": {
        "imap": {"host": "outlook.office365.com", "port": 993, "security": "tls",
                 "auth": "xoauth2"},
        "smtp": {"host": "smtp.office365.com", "port": 587, "security": "starttls",
                 "auth": "xoauth2"},
        "oauth2": {"flow": "device",
                   "authorize_url": f"{_MICROSOFT}/authorize",
                   "token_url": f"{_MICROSOFT}/token",
                   "device_url": f"{_MICROSOFT}/devicecode",
                   "scopes": "https://outlook.office.com/IMAP.AccessAsUser.All "
                             "https://outlook.office.com/SMTP.Send offline_access"},
    },
    "fastmail": {
        "imap": {"host": "imap.fastmail.com", "port": 993, "security": "tls", "auth": "password"},
        "smtp": {"host": "smtp.fastmail.com", "port": 465, "security": "tls", "auth": "password"},
    },
    "generic": {},
}
# What SMTP takes over from IMAP when a provider is named and smtp.user is not.
_SHARED_LOGIN = ("user", "auth", "password_env", "password_file", "password_command")

_SECURITY = ("none", "starttls", "tls")
_CHOICES = {
    ("mail", "mode"): ("maildir", "imap"),
    ("mail", "provider"): tuple(PROVIDERS),
    ("mail", "imap", "security"): _SECURITY,
    ("mail", "smtp", "security"): _SECURITY,
    ("mail", "imap", "auth"): AUTH_MODES,
    ("mail", "smtp", "auth"): AUTH_MODES,
    ("mail", "oauth2", "flow"): ("", "device", "browser"),
}
# Keys of earlier versions, and what to write instead.
_RENAMED = {
    ("mail", "imap", "tls"): "now security: tls (implicit TLS, port 993), starttls "
                             "(port 143, then STARTTLS) or none (tls: false was none)",
}
_POSITIVE = {"max_message_bytes", "idle_renew_seconds", "poll_seconds", "timeout",
             "press_chars", "press_per_day"}
PASSWORD_COMMAND_SECONDS = 60.0


def read_password(env: str, file: Path | str | None, where: str = "", *,
                  command: str = "") -> str:
    """The password from the environment variable `env` (when it is set), else
    from `file`, else the first line `command` prints (run by the shell, as
    getmail's, mutt's and isync's are: ``pass show mail/referee``)."""
    label = f"{where}: " if where else ""
    if env:
        value = os.environ.get(env)
        if value is not None:
            return value
        if not (file or command):
            raise ConfigError(f"{label}the environment variable {env} (password_env) is not set")
    if file:
        try:
            return Path(file).read_text(encoding="utf-8").strip("\r\n")
        except OSError as exc:
            raise ConfigError(f"{label}cannot read password_file {file}: {exc.strerror}") from exc
    if command:
        return _run_password_command(command, label)
    raise ConfigError(f"{label}no password: set password_env, password_file or password_command")


def _run_password_command(command: str, label: str) -> str:
    try:
        done = subprocess.run(command, shell=True, capture_output=True, text=True,
                              timeout=PASSWORD_COMMAND_SECONDS, check=False)
    except subprocess.TimeoutExpired:
        raise ConfigError(f"{label}password_command {command!r} gave no password within "
                          f"{PASSWORD_COMMAND_SECONDS:.0f} s (is it waiting for input?)") from None
    except OSError as exc:
        raise ConfigError(f"{label}cannot run password_command {command!r}: {exc}") from exc
    said = done.stderr.strip().splitlines()
    if done.returncode != 0:
        why = f": {said[-1]}" if said else ""
        raise ConfigError(f"{label}password_command {command!r} failed "
                          f"(exit status {done.returncode}){why}")
    lines = done.stdout.splitlines()
    if not lines or not lines[0]:
        raise ConfigError(f"{label}password_command {command!r} printed no password "
                          "(the password is the first line it prints)")
    return lines[0]


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
        kwargs: dict[str, object] = {}
        for key, value in data.items():
            kpath = path + (str(key),)
            if key == "password":
                raise self.fail(kpath, "passwords never go in the config file; "
                                       "use password_env or password_file")
            if kpath in _RENAMED:
                raise self.fail(kpath, _RENAMED[kpath])
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
        if value is None:  # "key:" with nothing after it
            value = ""
        if not isinstance(value, str):
            raise self.fail(path, f"expected text, got {value!r}")
        choices = _CHOICES.get(path)
        if choices and value not in choices:
            named = ", ".join(c for c in choices if c)
            raise self.fail(path, f"must be one of {named}, got {value!r}")
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
                                                     absol(cfg.mail.maildir.outbox)),
                     oauth2=replace(cfg.mail.oauth2,
                                    token_file=absol(cfg.mail.oauth2.token_file))),
    )


def _with_provider(data: Any) -> Any:
    """The file's settings with its provider's filled in where the file says
    nothing (`PROVIDERS`), and SMTP's login taken from IMAP's when the file
    names no SMTP user. An unknown provider is left to the builder to refuse."""
    mail = data.get("mail") if isinstance(data, dict) else None
    if not isinstance(mail, dict) or mail.get("provider") not in PROVIDERS:
        return data
    preset = PROVIDERS[mail["provider"]]
    if not preset:
        return data
    mail = {"mode": "imap", **mail}
    for section, values in preset.items():
        given = mail.get(section)
        if given is None or isinstance(given, dict):
            mail[section] = _preset_section(values, given or {})
    _smtp_login_from_imap(mail["imap"], mail["smtp"], data["mail"].get("smtp") or {})
    return {**data, "mail": mail}


def _smtp_login_from_imap(imap: Any, smtp: Any, given_smtp: Any) -> None:
    """SMTP logs in as IMAP does where the file names no SMTP user."""
    if isinstance(imap, dict) and isinstance(smtp, dict) and isinstance(given_smtp, dict) \
            and "user" not in given_smtp:
        smtp.update({k: imap[k] for k in _SHARED_LOGIN if k in imap and k not in given_smtp})


def _preset_section(values: dict[str, object], given: dict[str, object]) -> dict[str, object]:
    """One server's section: the preset's values under the file's; where the
    file gives a password and no auth, auth is password (it is meant)."""
    section = {**values, **given}
    if "auth" in values and "auth" not in given and any(k in given for k in _SHARED_LOGIN[2:]):
        section["auth"] = "password"
    return section


def _check_login(builder: _Builder, path: tuple[str, ...], login: LoginConfig,
                 provider: str) -> None:
    if login.auth == "password" and not login.password_given:
        raise builder.fail(path, "user is set: also set password_env, password_file or "
                                 "password_command (or auth: xoauth2 for OAuth2)")
    if login.oauth2 and login.password_given:
        whose = f" (the {provider} preset's)" if provider != "generic" else ""
        raise builder.fail(path + ("auth",), f"a password is set but auth is {login.auth}{whose}: "
                           "write auth: password to log in with the password, or remove "
                           "the password to log in with OAuth2 (pbmref mail authorize)")


def _check_oauth2(builder: _Builder, mail: MailConfig) -> OAuth2Config:
    """The OAuth2 settings complete for the flow, the flow chosen when not given."""
    oauth = mail.oauth2
    path = ("mail", "oauth2")
    if not oauth.client_id:
        raise builder.fail(path + ("client_id",), "required when a mail server logs in with "
                           "OAuth2: the ID of the app you registered with your provider "
                           "(README: Going live)")
    if not oauth.token_url:
        raise builder.fail(path + ("token_url",), "required when a mail server logs in with "
                           "OAuth2 (the provider's token endpoint)")
    flow = oauth.flow or ("device" if oauth.device_url else "browser")
    need = "device_url" if flow == "device" else "authorize_url"
    if not getattr(oauth, need):
        raise builder.fail(path + (need,), f"required for the {flow} flow")
    return replace(oauth, flow=flow)


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
    cfg = builder.build(Config, _with_provider(doc.data), ())
    cfg = replace(_resolve_defaults(cfg, base), source=file.resolve())
    mail = cfg.mail
    if mail.mode == "imap":
        if not mail.imap.user:
            raise builder.fail(("mail", "imap", "user"), "required when mail.mode is imap")
        _check_login(builder, ("mail", "imap"), mail.imap, mail.provider)
    if mail.smtp.user:
        _check_login(builder, ("mail", "smtp"), mail.smtp, mail.provider)
    if mail.uses_oauth2:
        cfg = replace(cfg, mail=replace(mail, oauth2=_check_oauth2(builder, mail)))
    if "@" not in cfg.referee.address:
        raise builder.fail(("referee", "address"), f"not a mail address: {cfg.referee.address!r}")
    if cfg.referee.game_master and "@" not in cfg.referee.game_master:
        raise builder.fail(("referee", "game_master"),
                           f"not a mail address: {cfg.referee.game_master!r}")
    lengths = {("limits", "spool_retention"): cfg.limits.spool_retention,
               ("referee", "trouble_after"): cfg.referee.trouble_after}
    for key, text in lengths.items():
        try:
            parse_duration(text)  # once here, so a bad value fails at load
        except ValueError as exc:
            raise builder.fail(key, str(exc)) from None
    return cfg
