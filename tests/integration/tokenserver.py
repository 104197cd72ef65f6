"""An OAuth2 provider on loopback, for the tests of the referee's OAuth2 logins.

    with TokenServer(cert, key) as provider:
        provider.url("/token")                # the token endpoint (HTTPS)
        provider.approve(user_code, "referee")  # the person at the other device says yes
        provider.expire_access()              # every access token given so far stops working
        provider.revoke("referee")            # the account withdraws the grant

Endpoints, as a provider has them: ``/authorize`` (the browser's page: the
account ``signs_in_as`` says yes at once, or no with ``deny``; redirects with a
code), ``/device`` (RFC 8628 device codes), ``/token`` (authorization code with
PKCE S256, device code, refresh token; refresh tokens are turned over at each
renewal, as Microsoft does, and the granted scope leaves out
``offline_access``, as Microsoft's does) and ``/introspect`` (RFC 7662: what
Dovecot's OAuth2 password database and the SMTP relay ask). HTTPS with the
mail servers' self-signed certificate; ports picked free at run time.
"""

from __future__ import annotations

import base64
import hashlib
import http.server
import json
import secrets
import ssl
import threading
import time
import urllib.parse
from pathlib import Path
from typing import Any

CLIENT_ID = "pbmref-test-app"


class _Handler(http.server.BaseHTTPRequestHandler):
    server: _Server
    timeout = 30  # seconds a connection may stay silent

    def _params(self) -> dict[str, str]:
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length).decode() if length else ""
        query = urllib.parse.urlsplit(self.path).query
        return dict(urllib.parse.parse_qsl(body or query))

    def _json(self, status: int, data: dict[str, Any]) -> None:
        raw = json.dumps(data).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(raw)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(raw)

    def do_GET(self) -> None:
        path = urllib.parse.urlsplit(self.path).path
        params = self._params()
        self.server.provider.requests.append((path, params))
        if path != "/authorize":
            self._json(404, {"error": "not_found"})
            return
        location = self.server.provider.authorize(params)
        self.send_response(302)
        self.send_header("Location", location)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_POST(self) -> None:
        path = urllib.parse.urlsplit(self.path).path
        params = self._params()
        self.server.provider.requests.append((path, params))
        provider = self.server.provider
        answer = {"/token": provider.token, "/device": provider.device,
                  "/introspect": provider.introspect}.get(path)
        if answer is None:
            self._json(404, {"error": "not_found"})
            return
        status, data = answer(params)
        self._json(status, data)

    def log_message(self, format: str, *args: Any) -> None:
        pass


class _Server(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, provider: TokenServer) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.provider = provider


class TokenServer:
    """The provider: its accounts' grants, tokens and the pages above."""

    def __init__(self, cert: Path, key: Path, *, lifetime: int = 3600) -> None:
        self.cert, self.key = cert, key
        self.lifetime = lifetime
        self.signs_in_as = "referee"
        self.deny = False
        self.requests: list[tuple[str, dict[str, str]]] = []
        self._lock = threading.Lock()
        self._access: dict[str, tuple[str, float]] = {}  # token -> (account, expires at)
        self._refresh: dict[str, str] = {}  # token -> account
        self._codes: dict[str, tuple[str, str, str]] = {}  # code -> (account, challenge, uri)
        self._devices: dict[str, dict[str, Any]] = {}  # device code -> state
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None

    # ------------------------------------------------------------------ the test's hands
    def url(self, path: str) -> str:
        assert self._server is not None
        return f"https://127.0.0.1:{self._server.server_address[1]}{path}"

    def approve(self, user_code: str, account: str) -> None:
        with self._lock:
            for state in self._devices.values():
                if state["user_code"] == user_code:
                    state["account"] = account
                    return
        raise KeyError(user_code)

    def expire_access(self) -> None:
        with self._lock:
            self._access = {t: (a, 0.0) for t, (a, _) in self._access.items()}

    def revoke(self, account: str) -> None:
        with self._lock:
            self._access = {t: v for t, v in self._access.items() if v[0] != account}
            self._refresh = {t: a for t, a in self._refresh.items() if a != account}

    def count(self, path: str, **match: str) -> int:
        return sum(1 for p, params in self.requests
                   if p == path and all(params.get(k) == v for k, v in match.items()))

    # ------------------------------------------------------------------ endpoints
    def _issue(self, account: str, scope: str) -> tuple[int, dict[str, Any]]:
        access, refresh = secrets.token_urlsafe(24), secrets.token_urlsafe(24)
        self._access[access] = (account, time.time() + self.lifetime)
        self._refresh[refresh] = account
        granted = " ".join(s for s in scope.split() if s != "offline_access")
        return 200, {"access_token": access, "refresh_token": refresh, "token_type": "Bearer",
                     "expires_in": self.lifetime, "scope": granted}

    def authorize(self, params: dict[str, str]) -> str:
        uri = params["redirect_uri"]
        if self.deny:
            answer = {"error": "access_denied", "error_description": "the user said no"}
        else:
            code = secrets.token_urlsafe(16)
            with self._lock:
                self._codes[code] = (self.signs_in_as, params.get("code_challenge", ""), uri)
            answer = {"code": code}
        return f"{uri}?{urllib.parse.urlencode({**answer, 'state': params.get('state', '')})}"

    def device(self, params: dict[str, str]) -> tuple[int, dict[str, Any]]:
        if params.get("client_id") != CLIENT_ID:
            return 400, {"error": "invalid_client"}
        code, user_code = secrets.token_urlsafe(16), secrets.token_hex(4).upper()
        with self._lock:
            self._devices[code] = {"user_code": user_code, "account": None,
                                   "scope": params.get("scope", "")}
        return 200, {"device_code": code, "user_code": user_code,
                     "verification_uri": self.url("/device-login"), "expires_in": 900,
                     "interval": 1}

    def token(self, params: dict[str, str]) -> tuple[int, dict[str, Any]]:
        if params.get("client_id") != CLIENT_ID:
            return 401, {"error": "invalid_client"}
        grant = params.get("grant_type")
        with self._lock:
            if grant == "refresh_token":
                account = self._refresh.pop(params.get("refresh_token", ""), None)
                if account is None:
                    return 400, {"error": "invalid_grant",
                                 "error_description": "the refresh token was revoked"}
                return self._issue(account, params.get("scope", ""))
            if grant == "authorization_code":
                found = self._codes.pop(params.get("code", ""), None)
                if found is None or found[2] != params.get("redirect_uri"):
                    return 400, {"error": "invalid_grant"}
                digest = hashlib.sha256(params.get("code_verifier", "").encode()).digest()
                if base64.urlsafe_b64encode(digest).rstrip(b"=").decode() != found[1]:
                    return 400, {"error": "invalid_grant", "error_description": "PKCE"}
                return self._issue(found[0], params.get("scope", ""))
            if grant == "urn:ietf:params:oauth:grant-type:device_code":
                state = self._devices.get(params.get("device_code", ""))
                if state is None:
                    return 400, {"error": "expired_token"}
                if state["account"] is None:
                    return 400, {"error": "authorization_pending"}
                del self._devices[params["device_code"]]
                return self._issue(state["account"], state["scope"])
        return 400, {"error": "unsupported_grant_type"}

    def introspect(self, params: dict[str, str]) -> tuple[int, dict[str, Any]]:
        with self._lock:
            found = self._access.get(params.get("token", ""))
        if found is None or found[1] <= time.time():
            return 200, {"active": False}
        return 200, {"active": True, "username": found[0]}

    # ------------------------------------------------------------------ lifecycle
    def start(self) -> TokenServer:
        server = _Server(self)
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(str(self.cert), str(self.key))
        # the handshake in each request's own thread: a client slow to greet
        # (or one that only looks at the port) must not hold up the others
        server.socket = context.wrap_socket(server.socket, server_side=True,
                                            do_handshake_on_connect=False)
        self._server = server
        self._thread = threading.Thread(target=server.serve_forever, daemon=True,
                                        name="token-server")
        self._thread.start()
        return self

    def stop(self) -> None:
        server, self._server = self._server, None
        if server is not None:
            server.shutdown()
            server.server_close()
        if self._thread is not None:
            self._thread.join(timeout=10)

    def __enter__(self) -> TokenServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
