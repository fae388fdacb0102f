"""OpenProject's OAuth 2 provider as the fake plays it: Doorkeeper as OpenProject configures it.

What is played (see docs/openproject-versions.md, "Sign-in: OpenProject as OAuth provider"):
``GET /oauth/authorize`` (authorization code, with or without a PKCE challenge; the fake's
"browser" is signed in as one user and approves at once), ``POST /oauth/token`` (form-encoded
only; ``authorization_code`` with the PKCE check and ``refresh_token``; codes live 10 minutes,
access tokens two hours, every token response carries a new refresh token and the one used is
revoked with its access token), ``POST /oauth/revoke`` (RFC 7009: always 200), and
``revoke_all_for`` (what *My account → Access tokens → revoke* does to an application).
The access tokens it issues are accepted as ``Bearer`` by the API routes of the fake.
"""

from __future__ import annotations

import base64
import hashlib
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from urllib.parse import urlencode

from aiohttp import web

ACCESS_LIFETIME = 7200.0
CODE_LIFETIME = 600.0
SCOPES = frozenset({"api_v3", "bcf_v2_1"})
DEFAULT_SCOPE = "api_v3"
FORM = "application/x-www-form-urlencoded"


@dataclass
class OAuthApplication:
    client_id: str
    client_secret: str
    redirect_uri: str
    scopes: frozenset[str] = frozenset({DEFAULT_SCOPE})


@dataclass
class _Code:
    client_id: str
    user: str
    redirect_uri: str
    scope: str
    challenge: str | None
    method: str | None
    expires_at: float
    used: bool = False


@dataclass
class _TokenRow:
    """One row of Doorkeeper's access tokens: the access token and the refresh token issued with it."""

    token: str
    refresh_token: str
    client_id: str
    user: str
    scope: str
    expires_at: float
    revoked: bool = False


@dataclass
class FakeOAuth:
    """The provider's state and controls. ``signed_in_as`` is the tenant token of the user whose
    browser session approves ``/oauth/authorize`` (``None``: nobody is signed in, 401)."""

    clock: Callable[[], float] = time.time
    signed_in_as: str | None = None
    applications: dict[str, OAuthApplication] = field(default_factory=dict)
    token_requests: list[str] = field(default_factory=list)  # grant_type of every token request
    revocations: int = 0
    _codes: dict[str, _Code] = field(default_factory=dict)
    _rows: list[_TokenRow] = field(default_factory=list)

    def register(self, client_id: str, client_secret: str, redirect_uri: str) -> OAuthApplication:
        application = OAuthApplication(client_id, client_secret, redirect_uri)
        self.applications[client_id] = application
        return application

    # controls ---------------------------------------------------------------------------------

    def user_for(self, access_token: str) -> str | None:
        """The user an access token acts for, if it is accessible (neither revoked nor expired)."""
        for row in self._rows:
            if secrets.compare_digest(row.token, access_token):
                return row.user if not row.revoked and row.expires_at > self.clock() else None
        return None

    def revoke_all_for(self, user: str, client_id: str | None = None) -> None:
        """My account → Access tokens → revoke an application: every token and code of the user."""
        for row in self._rows:
            if row.user == user and client_id in (None, row.client_id):
                row.revoked = True
        for code in self._codes.values():
            if code.user == user and client_id in (None, code.client_id):
                code.used = True

    def expire_access_tokens(self) -> None:
        """Every access token issued so far is past its two hours (refresh tokens stay valid)."""
        for row in self._rows:
            row.expires_at = min(row.expires_at, self.clock() - 1)

    def issued_tokens(self) -> list[str]:
        """Every access and refresh token issued so far (for checks that none leaks)."""
        return [t for row in self._rows for t in (row.token, row.refresh_token)]

    # endpoints --------------------------------------------------------------------------------

    def routes(self, prefix: str) -> list[web.RouteDef]:
        return [
            web.get(f"{prefix}/oauth/authorize", self._authorize),
            web.post(f"{prefix}/oauth/token", self._token),
            web.post(f"{prefix}/oauth/revoke", self._revoke),
        ]

    async def _authorize(self, request: web.Request) -> web.StreamResponse:
        query = request.query
        application = self.applications.get(query.get("client_id", ""))
        if application is None:
            return _page(401, "Client authentication failed due to unknown client.")
        if query.get("redirect_uri") != application.redirect_uri:
            return _page(400, "The requested redirect uri is malformed or doesn't match client redirect URI.")
        state = query.get("state")

        def back(**params: str) -> web.StreamResponse:
            if state is not None:
                params["state"] = state
            location = f"{application.redirect_uri}?{urlencode(params)}"
            return web.Response(status=302, headers={"Location": location, "Cache-Control": "no-store"})

        if query.get("response_type") != "code":
            return back(error="unsupported_response_type")
        scope = query.get("scope") or DEFAULT_SCOPE
        if not set(scope.split()) <= application.scopes:
            return back(error="invalid_scope")
        challenge = query.get("code_challenge")
        method = query.get("code_challenge_method") or ("plain" if challenge else None)
        if challenge is not None and method not in ("S256", "plain"):
            return back(error="invalid_request")
        if self.signed_in_as is None:
            return _page(401, "You need to sign in to OpenProject first.")
        code = secrets.token_urlsafe(32)
        self._codes[code] = _Code(
            application.client_id,
            self.signed_in_as,
            application.redirect_uri,
            scope,
            challenge,
            method,
            self.clock() + CODE_LIFETIME,
        )
        return back(code=code)

    def _client(self, request: web.Request, form: dict[str, str]) -> OAuthApplication | None:
        client_id, secret = form.get("client_id", ""), form.get("client_secret", "")
        scheme, _, encoded = request.headers.get("Authorization", "").partition(" ")
        if scheme.lower() == "basic":
            client_id, _, secret = base64.b64decode(encoded).decode().partition(":")
        application = self.applications.get(client_id)
        if application is None or not secrets.compare_digest(application.client_secret, secret):
            return None
        return application

    async def _token(self, request: web.Request) -> web.StreamResponse:
        if request.content_type != FORM:
            return _oauth_error(400, "invalid_request")
        form = {k: v for k, v in (await request.post()).items() if isinstance(v, str)}
        grant_type = form.get("grant_type", "")
        self.token_requests.append(grant_type)
        application = self._client(request, form)
        if application is None:
            return _oauth_error(401, "invalid_client")
        if grant_type == "authorization_code":
            return self._code_grant(application, form)
        if grant_type == "refresh_token":
            return self._refresh_grant(application, form)
        return _oauth_error(400, "unsupported_grant_type")

    def _code_grant(self, application: OAuthApplication, form: dict[str, str]) -> web.Response:
        code = self._codes.get(form.get("code", ""))
        if (
            code is None
            or code.used
            or code.client_id != application.client_id
            or code.expires_at <= self.clock()
            or form.get("redirect_uri") != code.redirect_uri
            or not _pkce_holds(code, form.get("code_verifier"))
        ):
            return _oauth_error(400, "invalid_grant")
        code.used = True
        return self._issue(application.client_id, code.user, code.scope)

    def _refresh_grant(self, application: OAuthApplication, form: dict[str, str]) -> web.Response:
        given = form.get("refresh_token", "")
        row = next((r for r in self._rows if secrets.compare_digest(r.refresh_token, given)), None)
        if row is None or row.revoked or row.client_id != application.client_id:
            return _oauth_error(400, "invalid_grant")
        row.revoked = True
        return self._issue(row.client_id, row.user, row.scope)

    def _issue(self, client_id: str, user: str, scope: str) -> web.Response:
        now = self.clock()
        row = _TokenRow(
            secrets.token_urlsafe(32), secrets.token_urlsafe(32), client_id, user, scope, now + ACCESS_LIFETIME
        )
        self._rows.append(row)
        return web.json_response(
            {
                "access_token": row.token,
                "token_type": "Bearer",
                "expires_in": int(ACCESS_LIFETIME),
                "refresh_token": row.refresh_token,
                "scope": scope,
                "created_at": int(now),
            },
            headers={"Cache-Control": "no-store"},
        )

    async def _revoke(self, request: web.Request) -> web.StreamResponse:
        form = {k: v for k, v in (await request.post()).items() if isinstance(v, str)}
        application = self._client(request, form)
        if application is None:
            return _oauth_error(401, "invalid_client")
        given = form.get("token", "")
        for row in self._rows:
            if row.client_id == application.client_id and given in (row.token, row.refresh_token):
                row.revoked = True
                self.revocations += 1
        return web.json_response({})


def _pkce_holds(code: _Code, verifier: str | None) -> bool:
    if code.challenge is None:
        return True
    if not verifier:
        return False
    if code.method == "S256":
        computed = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).decode().rstrip("=")
        return secrets.compare_digest(computed, code.challenge)
    return secrets.compare_digest(verifier, code.challenge)


def _oauth_error(status: int, error: str) -> web.Response:
    return web.json_response({"error": error}, status=status, headers={"Cache-Control": "no-store"})


def _page(status: int, text: str) -> web.Response:
    return web.Response(status=status, text=f"<!doctype html><p>{text}</p>", content_type="text/html")
