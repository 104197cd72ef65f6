"""OAuth2 for the mail servers: the one-time grant, the refresh token kept in a
file only the referee's user can read, and access tokens renewed as they expire.

``pbmref mail authorize`` runs the provider's flow once: the device flow
(RFC 8628: a code the game master types on any device) where the provider
grants mail that way (Microsoft), else the browser's (an authorization code
with PKCE, redirected to a listener on this machine's loopback: Google). The
grant is kept in ``mail.oauth2.token_file`` (mode 0600). `AccessTokens` hands
the IMAP intake and the SMTP sender an access token at each login and renews it
with the refresh token shortly before it expires, or when a server refused it;
the daemon and a cron job renew under one lock, and the one that comes second
takes the other's token.

The protocol work is requests-oauthlib's (oauthlib's client: token requests
and answers, PKCE, the device grant); this module chooses the flow, keeps the
file and turns the provider's errors into plain words. A grant the provider
no longer honours (revoked, expired, another app's) is `AuthorizationLost`:
the intake stops at once with that message (the mail waits on the server), the
sender keeps its mail in the spool (a temporary failure); nothing is lost, and
``pbmref mail authorize`` again mends it. A token endpoint that cannot be
reached is `TokenEndpointDown`, a connection error: retried like a mail server
that is down.
"""

from __future__ import annotations

import html
import http.server
import json
import logging
import os
import stat
import threading
import time
import urllib.parse
import webbrowser
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import requests
from oauthlib.oauth2 import DeviceClient, OAuth2Error
from requests_oauthlib import OAuth2Session

from pbmref.base.files import replace_file
from pbmref.base.locks import FileLock
from pbmref.config import OAuth2Config
from pbmref.mail.base import IntakeError

__all__ = ["AccessTokens", "AuthorizationLost", "OAuth2App", "TokenEndpointDown", "TokenFile",
           "authorize"]

log = logging.getLogger(__name__)

FORMAT = 1  # the token file's layout
AGAIN = "run `pbmref mail authorize` again (mail waits on the server and replies in the spool)"


class AuthorizationLost(IntakeError):
    """The provider does not (or no longer) grant the referee its mailbox."""


class TokenEndpointDown(ConnectionError):
    """The provider's token endpoint could not be reached or failed (try again later)."""


@dataclass(frozen=True)
class OAuth2App:
    """The app the game master registered with the provider, and its endpoints."""

    client_id: str
    token_url: str
    client_secret: str = ""
    flow: str = "browser"  # device | browser
    authorize_url: str = ""
    device_url: str = ""
    scopes: tuple[str, ...] = ()
    timeout: float = 30.0  # seconds for one request to the provider

    @classmethod
    def of(cls, config: OAuth2Config) -> OAuth2App:
        return cls(client_id=config.client_id, token_url=config.token_url,
                   client_secret=config.client_secret, flow=config.flow or "browser",
                   authorize_url=config.authorize_url, device_url=config.device_url,
                   scopes=tuple(config.scopes.split()))

    def session(self, **kwargs: Any) -> OAuth2Session:
        session = OAuth2Session(self.client_id, scope=list(self.scopes) or None, **kwargs)
        session.register_compliance_hook("access_token_response", self._answered)
        session.register_compliance_hook("refresh_token_response", self._answered)
        return session

    def _answered(self, response: requests.Response) -> requests.Response:
        if response.status_code >= 500:
            raise TokenEndpointDown(f"the token endpoint {self.token_url} failed "
                                    f"(HTTP {response.status_code}); trying again later")
        return response

    @property
    def secret(self) -> str | None:
        return self.client_secret or None


# ---------------------------------------------------------------------------- the file


class TokenFile:
    """The grant on disk: JSON, mode 0600, replaced atomically, with the app it
    belongs to (a file made for another app or endpoint is not used)."""

    def __init__(self, path: Path, app: OAuth2App) -> None:
        self.path = path
        self.app = app

    @contextmanager
    def locked(self) -> Iterator[None]:
        """One renewal at a time among the processes that share this file."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with FileLock(self.path.with_name(self.path.name + ".lock"), timeout=120, mode=0o600):
            yield

    def load(self) -> dict[str, object]:
        try:
            st = self.path.stat()
            text = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            raise AuthorizationLost(f"no OAuth2 grant yet ({self.path} is missing): run "
                                    "`pbmref mail authorize` once") from None
        except OSError as exc:
            raise AuthorizationLost(f"cannot read the OAuth2 token file {self.path}: "
                                    f"{exc.strerror}") from exc
        if st.st_mode & (stat.S_IRWXG | stat.S_IRWXO):
            raise AuthorizationLost(
                f"the OAuth2 token file {self.path} can be read by other users (mode "
                f"{stat.S_IMODE(st.st_mode):04o}): it holds the key to the mailbox; "
                f"`chmod 600 {self.path}`, and if others may have read it, revoke the grant "
                "with your provider and run `pbmref mail authorize` again")
        try:
            data = json.loads(text)
            token = data["token"]
            if not (token["access_token"] and token["refresh_token"]):
                raise ValueError("a token without its access or refresh token")
        except (ValueError, KeyError, TypeError):
            raise AuthorizationLost(f"the OAuth2 token file {self.path} is damaged: "
                                    "run `pbmref mail authorize` again") from None
        if (data.get("client_id"), data.get("token_url")) != (self.app.client_id,
                                                               self.app.token_url):
            raise AuthorizationLost(
                f"the OAuth2 token file {self.path} was made for another app or provider "
                f"(client {data.get('client_id')!r}, {data.get('token_url')}): "
                "run `pbmref mail authorize` for this config")
        return dict(token)

    def save(self, token: dict[str, object]) -> None:
        data = {"format": FORMAT, "client_id": self.app.client_id,
                "token_url": self.app.token_url, "token": token}
        self.path.parent.mkdir(parents=True, exist_ok=True)
        replace_file(self.path, json.dumps(data, indent=1) + "\n")  # a new file: 0600
        os.chmod(self.path, 0o600)


# ------------------------------------------------------------------------ renewal


class AccessTokens:
    """Access tokens for one login, renewed with the refresh token when they
    expire (``margin`` seconds early) or when a server refused one (`expire`)."""

    def __init__(self, file: TokenFile, *, margin: float = 60.0,
                 clock: Callable[[], float] = time.time) -> None:
        self.file = file
        self.app = file.app
        self.margin = margin
        self.clock = clock
        self.renewals = 0  # how many times this process renewed the access token
        self._token: dict[str, object] | None = None
        self._refused: str | None = None  # an access token a server turned down
        self._lock = threading.Lock()

    def _fresh(self, token: dict[str, object]) -> bool:
        if token.get("access_token") == self._refused:
            return False
        expires = token.get("expires_at")
        return expires is None or float(
            expires if isinstance(expires, int | float) else str(expires)
        ) - self.margin > self.clock()

    def token(self) -> str:
        """A valid access token (renewed first when it expires)."""
        with self._lock:
            token = self._token or self.file.load()
            if not self._fresh(token):
                with self.file.locked():
                    token = self.file.load()  # another process may have renewed it meanwhile
                    if not self._fresh(token):
                        token = self._renew(token)
                        self.file.save(token)
                        self.renewals += 1
            self._token = token
            return str(token["access_token"])

    def expire(self) -> None:
        """A server refused the current access token: renew it before the next use."""
        with self._lock:
            if self._token is not None:
                refused = self._token.get("access_token")
                self._refused = refused if isinstance(refused, str) else None
            self._token = None

    def _renew(self, token: dict[str, object]) -> dict[str, object]:
        log.info("renewing the OAuth2 access token at %s", self.app.token_url)
        session = self.app.session(token=token)
        refresh = token["refresh_token"]
        with _provider_errors(self.app, "renewing the access token"):
            new = _token_of(lambda: session.refresh_token(
                self.app.token_url, refresh_token=refresh, timeout=self.app.timeout,
                client_id=self.app.client_id, client_secret=self.app.secret))
        new.setdefault("refresh_token", refresh)  # Google keeps the one it gave
        return new


@contextmanager
def _provider_errors(app: OAuth2App, doing: str) -> Iterator[None]:
    """What the provider said, in the referee's words."""
    try:
        yield
    except OAuth2Error as exc:
        said = f"{exc.error}" + (f": {exc.description}" if exc.description else "")
        if exc.error in ("invalid_grant", "invalid_client", "unauthorized_client",
                         "access_denied", "invalid_scope", "expired_token"):
            raise AuthorizationLost(f"{app.token_url} refused {doing} ({said}): the grant was "
                                    f"revoked, has expired or is for another app; {AGAIN}") from exc
        raise TokenEndpointDown(f"{app.token_url} failed {doing} ({said})") from exc
    except requests.RequestException as exc:
        raise TokenEndpointDown(f"cannot reach the token endpoint {app.token_url} "
                                f"({type(exc).__name__}: {exc})") from exc


def _token_of(parse: Callable[[], Any]) -> dict[str, object]:
    """The token a parse returns; oauthlib warns when the provider granted other
    scopes than asked (Microsoft names fewer): the token is good all the same."""
    try:
        return dict(parse())
    except Warning as changed:
        token = getattr(changed, "token", None)
        if token is None:
            raise
        return dict(token)


# --------------------------------------------------------------------- the grant


class Refused(AuthorizationLost):
    """The game master (or the provider) said no during ``mail authorize``."""


def authorize(app: OAuth2App, file: TokenFile, *, say: Callable[[str], None],
              open_browser: Callable[[str], Any] = webbrowser.open,
              wait_seconds: float = 600.0, sleep: Callable[[float], None] = time.sleep,
              flow: str | None = None) -> dict[str, object]:
    """Run the provider's flow once and keep the grant in ``file``; returns the token."""
    chosen = flow or app.flow
    if chosen == "device":
        token = _device_flow(app, say=say, wait_seconds=wait_seconds, sleep=sleep)
    else:
        token = _browser_flow(app, say=say, open_browser=open_browser, wait_seconds=wait_seconds)
    if not token.get("refresh_token"):
        raise Refused("the provider granted access but gave no refresh token, so the referee "
                      "could not renew it: ask for offline access (Microsoft: the "
                      "offline_access scope)")
    with file.locked():
        file.save(token)
    return token


def _device_flow(app: OAuth2App, *, say: Callable[[str], None], wait_seconds: float,
                 sleep: Callable[[float], None]) -> dict[str, object]:
    """RFC 8628: ask for a code, tell it, poll the token endpoint until granted."""
    with _provider_errors(app, "the device code"):
        answer = requests.post(app.device_url, timeout=app.timeout, data={
            "client_id": app.client_id, "scope": " ".join(app.scopes)})
        if answer.status_code >= 400:
            raise Refused(f"{app.device_url} gave no device code (HTTP {answer.status_code}: "
                          f"{answer.text[:200]}); is the app registered as a public client "
                          "that may use the device flow?")
        grant = answer.json()
    where = grant.get("verification_uri") or grant.get("verification_url")
    say(f"On any device, open {where} and enter the code {grant['user_code']} "
        f"(within {int(grant.get('expires_in', 900)) // 60} minutes); sign in as the referee's "
        "account and allow the access asked for.")
    interval = float(grant.get("interval", 5))
    end = time.monotonic() + min(wait_seconds, float(grant.get("expires_in", wait_seconds)))
    session = app.session(client=DeviceClient(app.client_id))
    while True:
        with _provider_errors(app, "the device grant"):
            try:
                return _token_of(lambda: session.fetch_token(
                    app.token_url, device_code=grant["device_code"], include_client_id=True,
                    client_secret=app.secret, timeout=app.timeout))
            except OAuth2Error as exc:
                if exc.error not in ("authorization_pending", "slow_down"):
                    raise
                if exc.error == "slow_down":
                    interval += 5
        if time.monotonic() + interval > end:
            raise Refused("nobody entered the code in time: run `pbmref mail authorize` again")
        sleep(interval)


class _Redirect(http.server.BaseHTTPRequestHandler):
    """The loopback listener's one page: takes the provider's redirect."""

    server: _RedirectServer

    def do_GET(self) -> None:
        query = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(self.path).query))
        if "code" not in query and "error" not in query:
            self.send_error(404)
            return
        ok = "code" in query
        body = ("<p>pbmref has the grant: you can close this page.</p>" if ok else
                f"<p>No grant: {html.escape(query.get('error_description') or query['error'])}"
                "</p>")
        data = f"<!doctype html><title>pbmref</title>{body}".encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)
        self.server.answer = query
        self.server.answered.set()

    def log_message(self, format: str, *args: Any) -> None:
        log.debug("redirect listener: " + format, *args)


class _RedirectServer(http.server.HTTPServer):
    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), _Redirect)
        self.answer: dict[str, str] = {}
        self.answered = threading.Event()


def _browser_flow(app: OAuth2App, *, say: Callable[[str], None],
                  open_browser: Callable[[str], Any], wait_seconds: float) -> dict[str, object]:
    """An authorization code with PKCE, redirected to a listener on 127.0.0.1."""
    server = _RedirectServer()
    thread = threading.Thread(target=server.serve_forever, name="oauth2-redirect", daemon=True)
    thread.start()
    try:
        port = server.server_address[1]
        session = app.session(redirect_uri=f"http://127.0.0.1:{port}/", pkce="S256")
        # offline + consent: Google gives a refresh token only so; others ignore
        # parameters they do not know (RFC 6749, 3.1)
        url, state = session.authorization_url(app.authorize_url, access_type="offline",
                                               prompt="consent")
        say(f"Open this address in a browser on this machine (through `ssh -L {port}:"
            f"127.0.0.1:{port}` from another one), sign in as the referee's account and allow "
            f"the access asked for:\n\n  {url}\n")
        open_browser(url)
        if not server.answered.wait(wait_seconds):
            raise Refused("no answer from the browser in time: run `pbmref mail authorize` again")
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
    answer = server.answer
    if answer.get("state") != state:
        raise Refused("the browser's answer was not for this request (state differs): "
                      "run `pbmref mail authorize` again")
    if "error" in answer:
        raise Refused(f"the provider refused: {answer.get('error_description') or answer['error']}")
    with _provider_errors(app, "the authorization code"):
        return _token_of(lambda: session.fetch_token(
            app.token_url, code=answer["code"], include_client_id=True,
            client_secret=app.secret, timeout=app.timeout))
