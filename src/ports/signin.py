"""The sign-in port: OpenProject as the OAuth 2 provider that signs each user in.

The MCP adapter's authorization server delegates a user's login and consent to OpenProject and
keeps the tokens OpenProject grants; this port is everything it asks of OpenProject. Tokens
cross it as plain strings and never leave the server.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class UpstreamTokens:
    """What OpenProject's token endpoint granted: an access token, its refresh token and lifetime."""

    access_token: str = field(repr=False)
    refresh_token: str | None = field(repr=False)
    expires_in: float | None
    scope: str


class GrantRefusedError(Exception):
    """OpenProject refused the grant (``invalid_grant``, ``invalid_client``): revoked, expired or
    already used. Signing in again is the only way on."""


class ProviderUnavailableError(Exception):
    """OpenProject's token endpoint did not answer usefully (network, 5xx, malformed): try again later."""


class OpenProjectAuthorization(ABC):
    @abstractmethod
    def authorization_url(self, *, state: str, code_challenge: str) -> str:
        """Where to send the user's browser: OpenProject's ``/oauth/authorize`` for this application."""

    @abstractmethod
    async def exchange_code(self, code: str, code_verifier: str) -> UpstreamTokens:
        """Trade the code OpenProject sent back (with the PKCE verifier) for tokens."""

    @abstractmethod
    async def refresh(self, refresh_token: str) -> UpstreamTokens:
        """New tokens for a refresh token (OpenProject issues a new refresh token each time)."""

    @abstractmethod
    async def revoke(self, token: str) -> None:
        """Revoke a token at OpenProject; a failure is not an error (best effort)."""


SIGNED_IN: str = "signed-in:"
"""How a call's credential says "an OAuth access token from sign-in" (sent as ``Bearer``, not as
an API token's Basic ``apikey:<token>``): the prefix, then the token."""


def signed_in_credential(access_token: str) -> str:
    return f"{SIGNED_IN}{access_token}"


def signed_in_token(credential: str) -> str | None:
    """The OAuth access token in a sign-in credential, or ``None`` for an API token."""
    return credential[len(SIGNED_IN) :] if credential.startswith(SIGNED_IN) else None
