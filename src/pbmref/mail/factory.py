"""Build the intake, the sender and the spools a configuration asks for."""

from __future__ import annotations

from pbmref.config import Config
from pbmref.mail.base import Intake, Sender
from pbmref.mail.pace import Pace
from pbmref.mail.spool import IncomingSpool, OutgoingSpool

__all__ = ["open_intake", "open_sender", "open_spools"]


def open_intake(config: Config, *, once: bool = False) -> Intake:
    """The configured intake: a MaildirIntake (mode maildir) or an ImapIntake (mode imap).

    ``once``: for a job that runs again soon anyway (cron's ``adjudicate --due``,
    ``mail fetch``): an IMAP server that cannot be reached fails at the first
    try, instead of after half a minute of reconnecting."""
    mail = config.mail
    if mail.mode == "imap":
        from pbmref.mail.imap_in import ImapIntake

        imap = mail.imap
        intake = ImapIntake(
            imap.host,
            imap.port or None,
            user=imap.user,
            password=imap.password(),
            tls=imap.tls,
            folder=imap.folder,
            handled_folder=imap.handled_folder,
            state_file=config.spool_dir / "imap-state.json",
            idle_renew_seconds=imap.idle_renew_seconds,
            poll_seconds=imap.poll_seconds,
            timeout=imap.timeout,
            max_fetch_bytes=config.limits.max_message_bytes,
        )
        if once:
            intake.reconnect_attempts = 1
        return intake
    from pbmref.mail.maildir_in import MaildirIntake

    return MaildirIntake(mail.maildir.inbox,
                         max_fetch_bytes=config.limits.max_message_bytes)


def open_sender(config: Config) -> Sender:
    """The configured sender: SMTP in imap mode, the outbox Maildir otherwise."""
    mail = config.mail
    if mail.mode == "imap":
        from pbmref.mail.smtp_out import SmtpSender

        smtp = mail.smtp
        return SmtpSender(
            smtp.host,
            smtp.port or None,
            security=smtp.security,
            user=smtp.user or None,
            password=smtp.password(),
            timeout=smtp.timeout,
        )
    from pbmref.mail.outbox import MaildirOutbox

    return MaildirOutbox(mail.maildir.outbox)


def open_spools(config: Config) -> tuple[IncomingSpool, OutgoingSpool]:
    """The incoming and outgoing spools under `config.spool_dir` (`in/` and `out/`),
    the outgoing one sending at the pace of `limits`."""
    limits = config.limits
    return IncomingSpool(config.spool_dir / "in"), OutgoingSpool(
        config.spool_dir / "out", pace=Pace(send_per_minute=limits.send_per_minute,
                                            recipients_per_day=limits.recipients_per_day))
