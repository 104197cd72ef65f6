"""The test harness's own waits (``mailservers.MailServers``): a wait on an event
keeps polling through a poll the server was slow to answer, and still fails when
the event does not come in time."""

from __future__ import annotations

import os
from typing import Any

import pytest
from mailservers import MailServers


class _Polls:
    """Stands in for the servers: each count poll gives the next of ``answers``
    (a number, or an exception to raise: the harness's client timed out)."""

    def __init__(self, *answers: Any) -> None:
        self.answers = list(answers)
        self.polls = 0

    def count(self, user: str, folder: str = "INBOX") -> int:
        self.polls += 1
        answer = self.answers.pop(0) if len(self.answers) > 1 else self.answers[0]
        if isinstance(answer, BaseException):
            raise answer
        return int(answer)


def test_wait_count_keeps_polling_through_a_poll_that_timed_out() -> None:
    # found in a full run: Dovecot just restarted answered one LIST of the
    # harness's poll after more than its 10 s, and the wait failed with it
    polls = _Polls(TimeoutError("timed out"), 0, 1)
    assert MailServers.wait_count(polls, "bert", 1, timeout=5.0) == 1  # type: ignore[arg-type]
    assert polls.polls == 3


def test_wait_count_still_fails_when_the_mail_never_comes() -> None:
    assert MailServers.wait_count(_Polls(0), "bert", 1, timeout=0.3) == 0  # type: ignore[arg-type]
    with pytest.raises(TimeoutError):
        MailServers.wait_count(_Polls(TimeoutError("timed out")), "bert", 1,  # type: ignore[arg-type]
                               timeout=0.3)


@pytest.mark.integration
def test_the_relay_in_a_process_of_its_own_delivers_and_refuses_as_in_a_thread() -> None:
    # the benchmarks run the SMTP server apart from the referee, as a host does
    import smtplib

    with MailServers(["referee", "anna"], spare_users=0, relay_process=True) as ms:
        assert ms._controller is None and ms._relay is not None  # not in this process
        ms.send(ms.address("referee"), [ms.address("anna")], b"Subject: hello\r\n\r\nhi\r\n")
        assert ms.wait_count("anna", 1, timeout=30) == 1
        assert b"Subject: hello" in ms.fetch_all("anna")[0]
        with pytest.raises(smtplib.SMTPRecipientsRefused) as refused:
            ms.send(ms.address("referee"), [ms.address("nobody")], b"Subject: x\r\n\r\nx\r\n")
        assert refused.value.recipients[ms.address("nobody")][0] == 550
        late = ms.fresh_user("late")  # the relay reads the users again when they change
        ms.send(ms.address("referee"), [ms.address(late)], b"Subject: late\r\n\r\nhi\r\n")
        assert ms.wait_count(late, 1, timeout=30) == 1
        relay = ms._relay
    assert relay.poll() is not None  # stopped with the servers


def test_the_oauth2_harness_takes_tokens_under_the_referees_umask() -> None:
    """pbmref's cli.main sets the umask to 027 for the rest of the process: a
    harness made after it must still let Dovecot's auth process read its OAuth2
    settings and certificate (else every token login was a temporary failure)."""
    from imapclient import IMAPClient

    before = os.umask(0o027)
    try:
        with MailServers(["referee"], oauth2=True, spare_users=0) as ms:
            _, token = ms.provider._issue("referee", "mail")
            client = IMAPClient(ms.host, port=ms.imap_port, ssl=False, timeout=30)
            try:
                assert client.oauth2_login("referee", token["access_token"]) == [b"Logged in"]
            finally:
                client.logout()
    finally:
        os.umask(before)
