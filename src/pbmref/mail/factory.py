"""Build the intake, the sender and the spools a configuration asks for."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pbmref.base.files import ordered
from pbmref.config import Config, LoginConfig
from pbmref.mail.base import Intake, Sender
from pbmref.mail.pace import Pace
from pbmref.mail.spool import IncomingSpool, OutgoingSpool

if TYPE_CHECKING:
    from pbmref.mail.health import ServerWatch
    from pbmref.mail.imap_in import ImapIntake
    from pbmref.mail.oauth2 import AccessTokens
    from pbmref.mail.smtp_out import SmtpSender

__all__ = ["access_tokens", "imap_intake", "open_intake", "open_sender", "open_spools",
           "server_watch", "smtp_sender"]


def access_tokens(config: Config) -> AccessTokens:
    """The OAuth2 access tokens of the config's account (``mail.oauth2``)."""
    from pbmref.mail.oauth2 import AccessTokens, OAuth2App, TokenFile

    oauth = config.mail.oauth2
    return AccessTokens(TokenFile(oauth.token_file, OAuth2App.of(oauth)))


def _tokens(config: Config, login: LoginConfig) -> AccessTokens | None:
    """The OAuth2 tokens a server is logged in to with, if it is (else a password)."""
    return access_tokens(config) if login.oauth2 else None


def open_intake(config: Config, *, once: bool = False) -> Intake:
    """The configured intake: a MaildirIntake (mode maildir) or an ImapIntake (mode imap).

    ``once``: for a job that runs again soon anyway (cron's ``adjudicate --due``,
    ``mail fetch``): an IMAP server that cannot be reached fails at the first
    try, instead of after half a minute of reconnecting."""
    mail = config.mail
    if mail.mode == "imap":
        intake = imap_intake(config)
        if once:
            intake.reconnect_attempts = 1
        return intake
    from pbmref.mail.maildir_in import MaildirIntake

    return MaildirIntake(mail.maildir.inbox,
                         max_fetch_bytes=config.limits.max_message_bytes)


def open_sender(config: Config) -> Sender:
    """The configured sender: SMTP in imap mode, the outbox Maildir otherwise."""
    if config.mail.mode == "imap":
        return smtp_sender(config)
    from pbmref.mail.outbox import MaildirOutbox

    return MaildirOutbox(config.mail.maildir.outbox)


def open_spools(config: Config) -> tuple[IncomingSpool, OutgoingSpool]:
    """The incoming and outgoing spools under `config.spool_dir` (`in/` and `out/`),
    the outgoing one sending at the pace of `limits`."""
    return IncomingSpool(config.spool_dir / "in"), _outgoing(config)


def _outgoing(config: Config) -> OutgoingSpool:
    limits = config.limits
    return OutgoingSpool(config.spool_dir / "out", pace=Pace(
        send_per_minute=limits.send_per_minute, recipients_per_day=limits.recipients_per_day))


def imap_intake(config: Config) -> ImapIntake:
    """The IMAP intake of ``mail.imap`` (whatever ``mail.mode`` says)."""
    from pbmref.mail.imap_in import ImapIntake

    imap = config.mail.imap
    return ImapIntake(
        imap.host,
        imap.port or None,
        user=imap.user,
        security=imap.security,
        folder=imap.folder,
        handled_folder=imap.handled_folder,
        state_file=config.spool_dir / "imap-state.json",
        idle_renew_seconds=imap.idle_renew_seconds,
        poll_seconds=imap.poll_seconds,
        timeout=imap.timeout,
        max_fetch_bytes=config.limits.max_message_bytes,
        auth=imap.auth,
        tokens=_tokens(config, imap),
        password="" if imap.oauth2 else imap.password(),
        watch=server_watch(config, "imap"),
    )


def smtp_sender(config: Config) -> SmtpSender:
    """The SMTP sender of ``mail.smtp``."""
    from pbmref.mail.smtp_out import SmtpSender

    smtp = config.mail.smtp
    return SmtpSender(
        smtp.host,
        smtp.port or None,
        security=smtp.security,
        user=smtp.user or None,
        timeout=smtp.timeout,
        auth=smtp.auth if smtp.user else "password",
        tokens=_tokens(config, smtp) if smtp.user else None,
        password=smtp.password(),
        watch=server_watch(config, "smtp"),
    )


def server_watch(config: Config, server: str) -> ServerWatch:
    """The health of the config's IMAP or SMTP server, with the notices to the
    game master: queued in the outgoing spool; one about the mailbox is also
    sent at once (the referee's rounds stop at the mailbox meanwhile)."""
    from pbmref.mail.compose import make_mail
    from pbmref.mail.health import ServerWatch

    referee = config.referee

    def notify(key: str, subject: str, text: str) -> None:
        outgoing = _outgoing(config)
        # queued for good now, not with the round it came up in (which may fail)
        with ordered():
            outgoing.enqueue(make_mail(referee.game_master, f"[pbmref] {subject}", text,
                                       from_addr=referee.address, from_name=referee.name),
                             key=key)
            if server == "imap":
                outgoing.deliver(smtp_sender(config))

    host = config.mail.imap.host if server == "imap" else config.mail.smtp.host
    return ServerWatch(config.spool_dir, server, host, after=referee.trouble_delay,
                       notify=notify if referee.game_master else None)
