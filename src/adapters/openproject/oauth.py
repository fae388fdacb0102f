"""OpenProject as the OAuth 2 provider of sign-in: its ``/oauth/authorize``, ``/oauth/token`` and
``/oauth/revoke`` (Doorkeeper's routes under the instance's base URL; see docs/openproject-versions.md).

Token requests are form-encoded (OpenProject enforces that content type) and authenticate the
application with its client id and secret in the body. Nothing here logs a token or repeats
OpenProject's answer body, which could echo one.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field
from typing import Any, Final
from urllib.parse import urlencode

import aiohttp

from openproject_mcp.adapters.openproject.network import tls_context
from openproject_mcp.ports.signin import (
    GrantRefusedError,
    OpenProjectAuthorization,
    ProviderUnavailableError,
    UpstreamTokens,
)

log = logging.getLogger("openproject_mcp.adapters.openproject.oauth")

SCOPE: Final = "api_v3"
# Errors after which the grant cannot be used again (RFC 6749 §5.2): sign in again.
REFUSALS: Final = frozenset({"invalid_grant", "invalid_client", "unauthorized_client", "invalid_scope"})
MAX_ANSWER_BYTES: Final = 64 * 1024


@dataclass(frozen=True, slots=True)
class OAuthApplication:
    """The application an administrator registered in OpenProject for this server."""

    base_url: str  # the instance's base URL, with its trailing slash
    client_id: str
    client_secret: str = field(repr=False)
    redirect_uri: str
    timeout_seconds: float = 30.0
    # The same network path as the tools' requests: the proxy chosen for the instance, the CA bundle.
    proxy: str | None = None
    ca_bundle: str | None = None


class AiohttpOpenProjectAuthorization(OpenProjectAuthorization):
    """One short-lived HTTP session per exchange: they happen once per sign-in and per refresh."""

    def __init__(self, application: OAuthApplication) -> None:
        self._app = application

    def authorization_url(self, *, state: str, code_challenge: str) -> str:
        query = urlencode(
            {
                "response_type": "code",
                "client_id": self._app.client_id,
                "redirect_uri": self._app.redirect_uri,
                "scope": SCOPE,
                "state": state,
                "code_challenge": code_challenge,
                "code_challenge_method": "S256",
            }
        )
        return f"{self._app.base_url}oauth/authorize?{query}"

    async def exchange_code(self, code: str, code_verifier: str) -> UpstreamTokens:
        return await self._token(
            {
                "grant_type": "authorization_code",
                "code": code,
                "code_verifier": code_verifier,
                "redirect_uri": self._app.redirect_uri,
            }
        )

    async def refresh(self, refresh_token: str) -> UpstreamTokens:
        return await self._token({"grant_type": "refresh_token", "refresh_token": refresh_token})

    async def revoke(self, token: str) -> None:
        try:
            async with self._session() as session, session.post("oauth/revoke", data=self._form({"token": token})):
                pass
        except (aiohttp.ClientError, TimeoutError) as exc:
            log.info("could not revoke a token at OpenProject (%s); it expires on its own", type(exc).__name__)

    def _form(self, fields: dict[str, str]) -> dict[str, str]:
        return {**fields, "client_id": self._app.client_id, "client_secret": self._app.client_secret}

    def _session(self) -> aiohttp.ClientSession:
        return aiohttp.ClientSession(
            base_url=self._app.base_url,
            connector=aiohttp.TCPConnector(ssl=tls_context(self._app.ca_bundle)),
            proxy=self._app.proxy,
            headers={"Accept": "application/json"},
            timeout=aiohttp.ClientTimeout(total=self._app.timeout_seconds),
        )

    async def _token(self, fields: dict[str, str]) -> UpstreamTokens:
        try:
            async with self._session() as session, session.post("oauth/token", data=self._form(fields)) as response:
                status = response.status
                body = await response.content.read(MAX_ANSWER_BYTES)
        except (aiohttp.ClientError, TimeoutError) as exc:
            reason = type(exc).__name__
            raise ProviderUnavailableError(f"OpenProject's token endpoint did not answer ({reason})") from None
        answer = _json_object(body)
        if status == 200 and isinstance(answer.get("access_token"), str) and answer["access_token"]:
            refresh = answer.get("refresh_token")
            expires = answer.get("expires_in")
            scope = answer.get("scope")
            return UpstreamTokens(
                access_token=answer["access_token"],
                refresh_token=refresh if isinstance(refresh, str) and refresh else None,
                expires_in=float(expires) if isinstance(expires, int | float) and expires > 0 else None,
                scope=scope if isinstance(scope, str) else SCOPE,
            )
        error = answer.get("error")
        if status in (400, 401) and isinstance(error, str) and error in REFUSALS:
            raise GrantRefusedError(f"OpenProject refused the grant ({error})")
        raise ProviderUnavailableError(f"OpenProject's token endpoint answered HTTP {status}")


def _json_object(body: bytes) -> dict[str, Any]:
    try:
        parsed = json.loads(body)
    except ValueError:
        return {}
    return parsed if isinstance(parsed, dict) else {}
