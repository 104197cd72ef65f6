"""The config file: defaults, every key, clear errors with file, line and key."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from pbmref.config import Config, ConfigError, load_config, read_password
from pbmref.mail import open_intake, open_sender, open_spools
from pbmref.mail.imap_in import ImapIntake
from pbmref.mail.maildir_in import MaildirIntake
from pbmref.mail.outbox import MaildirOutbox
from pbmref.mail.smtp_out import SmtpSender

ROOT = Path(__file__).resolve().parents[2]


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "pbmref.yaml"
    path.write_text(text)
    return path


def test_missing_and_empty_config_mean_local_maildir(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    for cfg in (load_config(None), load_config(tmp_path / "absent.yaml"),
                load_config(write(tmp_path, ""))):
        assert cfg.mail.mode == "maildir"
        assert cfg.mail.maildir.inbox == tmp_path / "mail" / "inbox"
        assert cfg.mail.maildir.outbox == tmp_path / "mail" / "outbox"
        assert cfg.spool_dir == tmp_path / "mail" / "spool"
        assert cfg.games_dir == tmp_path / "games"
        assert cfg.limits.max_message_bytes == 1_000_000
    with pytest.raises(ConfigError, match="no such config file"):
        load_config(tmp_path / "absent.yaml", required=True)


def test_example_config_loads_and_names_every_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PBMREF_IMAP_PASSWORD", "x")
    cfg = load_config(ROOT / "config.example.yaml", required=True)
    assert isinstance(cfg, Config)
    text = (ROOT / "config.example.yaml").read_text()
    for key in ("games_dir", "spool_dir", "address", "name", "mode", "inbox", "outbox", "host",
                "port", "user", "password_env", "password_file", "password_command", "folder",
                "auth", "provider", "client_id", "token_file",
                "handled_folder", "idle_renew_seconds", "poll_seconds", "security",
                "max_message_bytes", "reminder_hours", "early_adjudication", "game_master",
                "spool_retention", "trouble_after"):
        assert f"{key}:" in text, key
    assert cfg.limits.retention == timedelta(days=14)
    assert cfg.referee.game_master == "gm@example.org"


def test_spool_retention_has_a_safe_default_and_bad_values_are_refused(tmp_path: Path) -> None:
    assert load_config(None).limits.retention == timedelta(days=14)
    assert load_config(write(tmp_path, "limits:\n  spool_retention: 36h\n")).limits.retention \
        == timedelta(hours=36)
    for bad in ("0m", "soon", "-3d"):
        with pytest.raises(ConfigError, match="spool_retention"):
            load_config(write(tmp_path, f"limits:\n  spool_retention: {bad}\n"))
    with pytest.raises(ConfigError, match="game_master"):
        load_config(write(tmp_path, "referee:\n  game_master: nobody\n"))
    assert load_config(None).referee.trouble_delay == timedelta(hours=1)
    with pytest.raises(ConfigError, match="referee.trouble_after"):
        load_config(write(tmp_path, "referee:\n  trouble_after: whenever\n"))


def test_full_imap_config_and_factories(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REF_PW", "hunter2")
    (tmp_path / "smtp.pw").write_text("s3cret\n")
    cfg = load_config(write(tmp_path, """
games_dir: /srv/games
spool_dir: spool
referee: {address: ref@example.org, name: The Referee}
mail:
  mode: imap
  imap: {host: imap.example.org, user: ref, password_env: REF_PW, security: starttls}
  smtp: {host: smtp.example.org, security: tls, user: ref, password_file: smtp.pw}
limits: {max_message_bytes: 2000}
deadlines: {reminder_hours: 6.5, early_adjudication: false}
"""))
    assert cfg.games_dir == Path("/srv/games") and cfg.spool_dir == tmp_path / "spool"
    assert cfg.mail.imap.password() == "hunter2"
    assert cfg.mail.smtp.password() == "s3cret"
    assert cfg.deadlines.reminder_hours == 6.5 and not cfg.deadlines.early_adjudication
    intake = open_intake(cfg)
    assert isinstance(intake, ImapIntake) and intake.port == 143 and intake.max_fetch_bytes == 2000
    assert intake.security == "starttls"
    sender = open_sender(cfg)
    assert isinstance(sender, SmtpSender) and sender.port == 465 and sender.password == "s3cret"
    inspool, outspool = open_spools(cfg)
    assert inspool.root == tmp_path / "spool" / "in" and outspool.root == tmp_path / "spool" / "out"


def test_maildir_factories(tmp_path: Path) -> None:
    cfg = load_config(write(tmp_path, "mail: {maildir: {inbox: in, outbox: out}}\n"))
    assert isinstance(open_intake(cfg), MaildirIntake)
    assert (tmp_path / "in" / "new").is_dir()
    sender = open_sender(cfg)
    assert isinstance(sender, MaildirOutbox) and sender.path == tmp_path / "out"


CONFIG_ERRORS = [
    # (yaml, expected line, expected fragment)
    ("games_dir: g\nbogus: 1\n", 2, "bogus: unknown key"),
    ("mail:\n  imap:\n    prot: 5\n", 3, "mail.imap.prot: unknown key"),
    ("mail:\n  mode: pop3\n", 2, "mail.mode: must be one of maildir, imap"),
    ("mail:\n  smtp:\n    security: ssl\n", 3, "mail.smtp.security: must be one of"),
    ("mail:\n  smtp:\n    port: http\n", 3, "mail.smtp.port: expected a whole number"),
    ("mail:\n  smtp:\n    port: 70000\n", 3, "not a port number"),
    ("mail:\n  imap:\n    tls: false\n", 3, "mail.imap.tls: now security: tls"),
    ("mail:\n  imap:\n    security: ssl\n", 3, "mail.imap.security: must be one of none, "
                                                "starttls, tls"),
    ("mail:\n  imap:\n    auth: oauth\n", 3, "must be one of password, xoauth2, oauthbearer"),
    ("mail:\n  provider: yahoo\n", 2, "mail.provider: must be one of gmail, microsoft, "
                                       "fastmail, generic"),
    ("mail:\n  oauth2:\n    flow: magic\n", 3, "must be one of device, browser"),
    ("mail:\n  provider: gmail\n  imap:\n    user: r@gmail.com\n", 0,
     "mail.oauth2.client_id: required when a mail server logs in with OAuth2"),
    ("mail:\n  mode: imap\n  imap:\n    user: r\n    auth: xoauth2\n    password_env: P\n", 5,
     "mail.imap.auth: a password is set but auth is xoauth2: write auth: password"),
    ("mail:\n  mode: imap\n  imap:\n    user: r\n    auth: xoauth2\n  oauth2:\n"
     "    client_id: x\n    token_url: https://t/\n    flow: device\n", 0,
     "mail.oauth2.device_url: required for the device flow"),
    ("limits:\n  max_message_bytes: 0\n", 2, "must be positive"),
    ("limits:\n  max_message_bytes: -5\n", 2, "must be positive"),
    ("deadlines:\n  reminder_hours: soon\n", 2, "expected a number"),
    ("mail:\n  imap:\n    user: r\n    password: swordfish\n", 4, "passwords never go in the config"),
    ("referee: ref@x\n", 1, "expected a mapping"),
    ("referee:\n  address: nobody\n", 2, "not a mail address"),
    ("mail:\n  mode: imap\n  imap:\n    password_env: X\n", 0, "mail.imap.user: required"),
    ("mail:\n  mode: imap\n  imap:\n    user: r\n", 3,
     "set password_env, password_file or password_command"),
    ("mail: [\n", 2, "not valid YAML"),
    ("- just\n- a list\n", 0, "expected a mapping"),
]


@pytest.mark.parametrize(("text", "line", "fragment"), CONFIG_ERRORS)
def test_config_errors_name_file_line_and_key(tmp_path: Path, text: str, line: int,
                                              fragment: str) -> None:
    path = write(tmp_path, text)
    with pytest.raises(ConfigError) as info:
        load_config(path)
    message = str(info.value)
    assert message.startswith(str(path))
    assert fragment in message
    if line:
        assert f"line {line}:" in message


def test_read_password(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NOPE", raising=False)
    with pytest.raises(ConfigError, match="NOPE"):
        read_password("NOPE", None)
    with pytest.raises(ConfigError, match="cannot read password_file"):
        read_password("", tmp_path / "missing")
    (tmp_path / "pw").write_text("pw with spaces \n")
    assert read_password("NOPE", tmp_path / "pw") == "pw with spaces "


def test_password_command_gives_the_first_line_it_prints(tmp_path: Path) -> None:
    """As getmail's, mutt's and isync's: the password from a password manager."""
    assert read_password("", None, command="printf 'pw one\\nnot this'") == "pw one"
    cfg = load_config(write(tmp_path, """
mail:
  mode: imap
  imap: {host: h, user: ref, password_command: "echo from-the-manager"}
  smtp: {user: ref, password_command: "echo for-smtp"}
"""))
    assert cfg.mail.imap.password() == "from-the-manager"
    assert cfg.mail.smtp.password() == "for-smtp"


@pytest.mark.parametrize(("command", "fragment"), [
    ("echo 'no such entry' >&2; exit 3", "failed (exit status 3): no such entry"),
    ("true", "printed no password"),
])
def test_password_command_failures_say_what_went_wrong(command: str, fragment: str) -> None:
    with pytest.raises(ConfigError) as info:
        read_password("", None, "mail.imap", command=command)
    assert str(info.value).startswith("mail.imap: password_command")
    assert fragment in str(info.value)


PRESETS = [
    # (provider, imap host, port, security, auth, smtp host, port, security)
    ("gmail", "imap.gmail.com", 993, "tls", "xoauth2", "smtp.gmail.com", 465, "tls"),
    ("microsoft", "outlook.office365.com", 993, "tls", "xoauth2", "smtp.office365.com", 587,
     "starttls"),
    ("fastmail", "imap.fastmail.com", 993, "tls", "password", "smtp.fastmail.com", 465, "tls"),
]


@pytest.mark.parametrize("preset", PRESETS, ids=[p[0] for p in PRESETS])
def test_a_provider_fills_servers_security_and_login(tmp_path: Path,
                                                     preset: tuple[object, ...]) -> None:
    provider, ihost, iport, isec, auth, shost, sport, ssec = preset
    login = ("password_file: pw" if auth == "password" else "")
    cfg = load_config(write(tmp_path, f"""
referee: {{address: ref@example.org}}
mail:
  provider: {provider}
  imap: {{user: ref@example.org, {login}}}
  oauth2: {{client_id: my-app}}
"""))
    mail = cfg.mail
    assert mail.mode == "imap"
    assert (mail.imap.host, mail.imap.port, mail.imap.security, mail.imap.auth) == \
        (ihost, iport, isec, auth)
    assert (mail.smtp.host, mail.smtp.port, mail.smtp.security) == (shost, sport, ssec)
    # SMTP logs in as IMAP does, unless it names its own user
    assert (mail.smtp.user, mail.smtp.auth) == ("ref@example.org", auth)
    if auth == "password":
        assert mail.smtp.password_file == tmp_path / "pw"
    else:
        assert mail.oauth2.token_url.startswith("https://") and mail.oauth2.scopes
        assert mail.oauth2.token_file == tmp_path / "oauth2-token.json"
    assert mail.oauth2.flow == {"gmail": "browser", "microsoft": "device"}.get(provider, "")


def test_what_the_file_says_wins_over_the_provider(tmp_path: Path) -> None:
    """Gmail with an app password (a password named: it is meant); a sender of its own."""
    cfg = load_config(write(tmp_path, """
mail:
  provider: gmail
  imap: {user: ref@gmail.com, password_env: PW, port: 1993}
  smtp: {host: relay.example.org, port: 25, security: none, user: other, password_env: PW2}
"""))
    imap, smtp = cfg.mail.imap, cfg.mail.smtp
    assert (imap.host, imap.port, imap.auth, imap.security) == \
        ("imap.gmail.com", 1993, "password", "tls")
    assert (smtp.host, smtp.port, smtp.security, smtp.user, smtp.auth, smtp.password_env) == \
        ("relay.example.org", 25, "none", "other", "password", "PW2")
    assert not cfg.mail.uses_oauth2
