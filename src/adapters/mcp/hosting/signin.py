"""Sign in with OpenProject: this server as the OAuth authorization server of its MCP clients.

The MCP SDK speaks the protocol (``mcp.server.auth``: metadata, dynamic client registration,
``/authorize``, ``/token`` with PKCE, refresh and revocation, the bearer check). This module is
the provider behind it. A client's ``/authorize`` first shows this server's own consent page
(``/oauth/consent``, ADR 0077), naming the client that registered itself and where its redirect
URI points; only the user's approval there, posted back with a single-use value that only that
browser holds (a form field matching a cookie), becomes a redirect to OpenProject's own
``/oauth/authorize`` (with a PKCE challenge of ours); OpenProject sends the user back to
``/oauth/callback``, where the code is traded for the user's OpenProject tokens, which are
kept as a *grant*; the client then gets a code, and for it tokens of ours. A request to
``/mcp`` with one of our access tokens is served with that grant's OpenProject access token,
refreshed when it is about to expire. No OpenProject token ever reaches the client.

Everything lives in the shared store under names made of a purpose and a SHA-256 of the token
(never the token); the store given here encrypts every value (``SealedStore``). Header tokens
are not touched: only bearer tokens with this server's prefix are ours.

The store is used through its strict view (ADR 0078): a store that cannot be reached raises
``StoreUnavailableError`` rather than reading as "no such token". Sign-in then answers 503 with
``Retry-After`` (``temporarily_unavailable``), never ``invalid_token`` or ``invalid_client``, so
that a client keeps its tokens and its registration through an outage.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import json
import logging
import secrets
import time
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final, Literal, TypeVar
from urllib.parse import parse_qsl, urlencode, urlsplit

from mcp.server.auth.middleware.bearer_auth import AuthenticatedUser, BearerAuthBackend
from mcp.server.auth.provider import (
    AccessToken,
    AuthorizationCode,
    AuthorizationParams,
    AuthorizeError,
    OAuthAuthorizationServerProvider,
    ProviderTokenVerifier,
    RefreshToken,
    TokenError,
    construct_redirect_uri,
)
from mcp.server.auth.routes import (
    REVOCATION_PATH,
    build_resource_metadata_url,
    create_auth_routes,
    create_protected_resource_routes,
)
from mcp.server.auth.settings import ClientRegistrationOptions, RevocationOptions
from mcp.server.transport_security import DEFAULT_MAX_REQUEST_BODY_SIZE
from mcp.shared.auth import OAuthClientInformationFull, OAuthToken
from pydantic import AnyHttpUrl, AnyUrl, BaseModel, ValidationError
from starlette.datastructures import Headers
from starlette.requests import HTTPConnection, Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from openproject_mcp.adapters.mcp.hosting.access import exchange_of
from openproject_mcp.adapters.mcp.hosting.consent import CONSENT_PATH, consent_page, notice_page
from openproject_mcp.adapters.mcp.hosting.guard import rpc_error_response
from openproject_mcp.adapters.mcp.hosting.limits import RateLimiter, retry_after
from openproject_mcp.adapters.mcp.server import SIGNED_IN_HINT, SIGNED_IN_KEY, SignedInCall
from openproject_mcp.ports.shared_state import SharedStore, StoreUnavailableError
from openproject_mcp.ports.signin import (
    GrantRefusedError,
    OpenProjectAuthorization,
    ProviderUnavailableError,
    signed_in_credential,
)

log = logging.getLogger("openproject_mcp.http.signin")

SCOPE: Final = "openproject"
ACCESS_PREFIX: Final = "opmcp_at_"
REFRESH_PREFIX: Final = "opmcp_rt_"
CALLBACK_PATH: Final = "/oauth/callback"

ACCESS_TTL: Final = 3600  # an issued access token; the client refreshes it
REFRESH_TTL: Final = 30 * 86400  # an issued refresh token, and the grant behind it, when unused
CODE_TTL: Final = 300  # an issued authorization code
PENDING_TTL: Final = 600  # a sign-in waiting at OpenProject's login (OpenProject's codes live 10 minutes)
CLIENT_TTL: Final = 365 * 86400  # a registered client
REFRESH_MARGIN: Final = 60.0  # refresh OpenProject's access token this long before it expires
UPSTREAM_DEFAULT_LIFETIME: Final = 7200.0  # OpenProject's access tokens live two hours by default

SIGN_IN_AGAIN: Final = SIGNED_IN_HINT

M = TypeVar("M", bound=BaseModel)


def digest(token: str) -> str:
    """What names a token's record: its SHA-256 (tokens are 256-bit random, so no salt is needed)."""
    return hashlib.sha256(token.encode()).hexdigest()


def pkce_challenge(verifier: str) -> str:
    return base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).decode().rstrip("=")


class StoredCode(AuthorizationCode):
    grant_id: str


class StoredRefresh(RefreshToken):
    grant_id: str


class StoredAccess(AccessToken):
    grant_id: str


class Consent(BaseModel):
    """An authorization request waiting for the user's answer on this server's consent page."""

    client_id: str
    client_name: str | None
    redirect_uri: str
    redirect_uri_provided_explicitly: bool
    code_challenge: str
    scopes: list[str]
    state: str | None
    expires_at: float
    binding: str | None = None  # SHA-256 of the value the page last handed a browser (form field and cookie)


class Pending(BaseModel):
    """A sign-in sent to OpenProject's login, waiting for the user to come back."""

    client_id: str
    redirect_uri: str
    redirect_uri_provided_explicitly: bool
    code_challenge: str
    scopes: list[str]
    state: str | None
    verifier: str  # our PKCE verifier toward OpenProject


class Grant(BaseModel):
    """One user's sign-in: the OpenProject tokens, and which of our tokens currently stand for them."""

    client_id: str
    scopes: list[str]
    upstream_access: str
    upstream_refresh: str | None
    upstream_expires_at: float | None
    access_digest: str | None = None
    refresh_digest: str | None = None


class IssuedRecord(BaseModel):
    grant_id: str
    client_id: str
    scopes: list[str]
    expires_at: int | None


@dataclass(frozen=True, slots=True)
class SignInSite:
    """Where this server is reached (an origin) and the resource its tokens are for."""

    public_url: str

    @property
    def resource_url(self) -> str:
        return f"{self.public_url}/mcp"

    @property
    def callback_url(self) -> str:
        return f"{self.public_url}{CALLBACK_PATH}"

    @property
    def metadata_url(self) -> str:
        return str(build_resource_metadata_url(AnyHttpUrl(self.resource_url)))

    @property
    def origin(self) -> str:
        parts = urlsplit(self.public_url)
        return f"{parts.scheme}://{parts.netloc}".lower()

    @property
    def secure(self) -> bool:
        return self.public_url.startswith("https://")

    def consent_cookie(self, request_id: str) -> str:
        """The cookie that binds one consent page to the browser it was shown in: ``__Host-`` where
        the server is reached over HTTPS (so no other host or plain-HTTP page can set it)."""
        name = f"opmcp-consent-{digest(request_id)[:16]}"
        return f"__Host-{name}" if self.secure else name


Ended = Literal["ended", "unavailable"]


class OpenProjectSignIn(OAuthAuthorizationServerProvider[StoredCode, StoredRefresh, StoredAccess]):
    """The SDK's provider protocol over the shared store, with OpenProject doing the login."""

    def __init__(
        self,
        store: SharedStore,
        upstream: OpenProjectAuthorization,
        site: SignInSite,
        *,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self._store = store.strict()  # an outage raises; it never reads as an unknown token (ADR 0078)
        self._upstream = upstream
        self.site = site
        self._clock = clock
        self._locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()

    # records ----------------------------------------------------------------------------------

    async def _load(self, key: str, model: type[M], *, take: bool = False) -> M | None:
        raw = await (self._store.take(key) if take else self._store.get(key))
        if raw is None:
            return None
        try:
            return model.model_validate_json(raw)
        except ValidationError:
            log.warning("a sign-in record of an unexpected shape was ignored")
            return None

    async def _save(self, key: str, record: BaseModel, ttl: float) -> None:
        await self._store.put(key, record.model_dump_json().encode(), ttl)

    # clients ----------------------------------------------------------------------------------

    async def get_client(self, client_id: str) -> OAuthClientInformationFull | None:
        return await self._load(f"signin:client:{digest(client_id)}", OAuthClientInformationFull)

    async def register_client(self, client_info: OAuthClientInformationFull) -> None:
        await self._save(f"signin:client:{digest(client_info.client_id or '')}", client_info, CLIENT_TTL)

    # authorization: to OpenProject and back ----------------------------------------------------

    async def authorize(self, client: OAuthClientInformationFull, params: AuthorizationParams) -> str:
        """A client's ``/authorize``: remember it, and send the browser to this server's consent page."""
        if params.resource is not None and params.resource.rstrip("/") != self.site.resource_url:
            raise AuthorizeError("invalid_target", f"This server only issues tokens for {self.site.resource_url}.")
        request_id = secrets.token_urlsafe(32)
        asked = Consent(
            client_id=client.client_id or "",
            client_name=client.client_name,
            redirect_uri=str(params.redirect_uri),
            redirect_uri_provided_explicitly=params.redirect_uri_provided_explicitly,
            code_challenge=params.code_challenge,
            scopes=params.scopes or [SCOPE],
            state=params.state,
            expires_at=self._clock() + PENDING_TTL,
        )
        try:
            await self._save(f"signin:consent:{digest(request_id)}", asked, PENDING_TTL)
        except StoreUnavailableError:
            raise AuthorizeError(
                "temporarily_unavailable", "This server cannot keep the sign-in just now; try again in a moment."
            ) from None
        return f"{self.site.public_url}{CONSENT_PATH}?{urlencode({'request': request_id})}"

    async def consent(self, request: Request) -> Response:
        """The consent page (GET) and the user's answer to it (POST)."""
        if request.method == "POST":
            return await self._answer(request)
        request_id = request.query_params.get("request", "")
        key = f"signin:consent:{digest(request_id)}"
        asked = await self._load(key, Consent) if request_id else None
        left = asked.expires_at - self._clock() if asked else 0.0
        if asked is None or left <= 1:
            return _expired()
        confirm = secrets.token_urlsafe(32)
        await self._save(key, asked.model_copy(update={"binding": digest(confirm)}), left)
        page = consent_page(
            client_name=asked.client_name,
            client_id=asked.client_id,
            redirect_uri=asked.redirect_uri,
            request_id=request_id,
            confirm=confirm,
        )
        page.set_cookie(
            self.site.consent_cookie(request_id),
            confirm,
            max_age=int(left),
            path="/",
            secure=self.site.secure,
            httponly=True,
            samesite="strict",
        )
        return page

    async def _answer(self, request: Request) -> Response:
        origin = request.headers.get("origin")
        if origin is not None and origin.lower() != self.site.origin:
            return _refused()
        form = await request.form()
        request_id, confirm, decision = (form.get(name) for name in ("request", "confirm", "decision"))
        if not isinstance(request_id, str) or not isinstance(confirm, str) or decision not in ("approve", "deny"):
            return notice_page(400, "This answer is incomplete.", "Start signing in again from your MCP client.")
        key = f"signin:consent:{digest(request_id)}"
        asked = await self._load(key, Consent)
        if asked is None or asked.expires_at <= self._clock():
            return _expired()
        cookie = request.cookies.get(self.site.consent_cookie(request_id), "")
        bound = asked.binding is not None and secrets.compare_digest(digest(confirm), asked.binding)
        if not (bound and cookie and secrets.compare_digest(cookie.encode(), confirm.encode())):
            return _refused()
        taken = await self._load(key, Consent, take=True)
        if taken is None or taken.binding != asked.binding:
            return _expired()  # answered meanwhile (another tab, or a second click)
        if decision == "deny":
            log.info("a user declined a sign-in on the consent page")
            response = _back(
                taken.state,
                taken.redirect_uri,
                error="access_denied",
                error_description="The user did not allow access.",
                status=303,
            )
        else:
            response = RedirectResponse(
                await self._to_openproject(taken), status_code=303, headers={"Cache-Control": "no-store"}
            )
        response.delete_cookie(
            self.site.consent_cookie(request_id), path="/", secure=self.site.secure, httponly=True, samesite="strict"
        )
        return response

    async def _to_openproject(self, asked: Consent) -> str:
        """After the user's approval: remember the sign-in, and where OpenProject's login is for it."""
        state = secrets.token_urlsafe(32)
        verifier = secrets.token_urlsafe(48)
        pending = Pending(
            client_id=asked.client_id,
            redirect_uri=asked.redirect_uri,
            redirect_uri_provided_explicitly=asked.redirect_uri_provided_explicitly,
            code_challenge=asked.code_challenge,
            scopes=asked.scopes,
            state=asked.state,
            verifier=verifier,
        )
        await self._save(f"signin:pending:{digest(state)}", pending, PENDING_TTL)
        return self._upstream.authorization_url(state=state, code_challenge=pkce_challenge(verifier))

    async def callback(self, request: Request) -> Response:
        """Where OpenProject sends the user back: trade its code, keep the grant, hand the client a code."""
        state = request.query_params.get("state", "")
        pending = await self._load(f"signin:pending:{digest(state)}", Pending, take=True) if state else None
        if pending is None:
            return _expired()
        code = request.query_params.get("code", "")
        if request.query_params.get("error") or not code:
            return _back(
                pending.state,
                pending.redirect_uri,
                error="access_denied",
                error_description="OpenProject did not grant access.",
            )
        try:
            tokens = await self._upstream.exchange_code(code, pending.verifier)
        except GrantRefusedError:
            return _back(
                pending.state,
                pending.redirect_uri,
                error="access_denied",
                error_description="OpenProject did not accept the sign-in.",
            )
        except ProviderUnavailableError as exc:
            log.warning("sign-in could not be completed: %s", exc)
            return _back(
                pending.state,
                pending.redirect_uri,
                error="temporarily_unavailable",
                error_description="OpenProject could not be reached.",
            )
        grant_id = secrets.token_urlsafe(16)
        grant = Grant(
            client_id=pending.client_id,
            scopes=pending.scopes,
            upstream_access=tokens.access_token,
            upstream_refresh=tokens.refresh_token,
            upstream_expires_at=self._clock() + (tokens.expires_in or UPSTREAM_DEFAULT_LIFETIME),
        )
        await self._save(f"signin:grant:{grant_id}", grant, REFRESH_TTL)
        ours = secrets.token_urlsafe(32)
        stored = StoredCode(
            code=ours,
            scopes=pending.scopes,
            expires_at=self._clock() + CODE_TTL,
            client_id=pending.client_id,
            code_challenge=pending.code_challenge,
            redirect_uri=AnyUrl(pending.redirect_uri),
            redirect_uri_provided_explicitly=pending.redirect_uri_provided_explicitly,
            resource=self.site.resource_url,
            grant_id=grant_id,
        )
        await self._save(f"signin:code:{digest(ours)}", stored.model_copy(update={"code": ""}), CODE_TTL)
        log.info("a user signed in with OpenProject")
        return _back(pending.state, pending.redirect_uri, code=ours)

    async def load_authorization_code(
        self, client: OAuthClientInformationFull, authorization_code: str
    ) -> StoredCode | None:
        found = await self._load(f"signin:code:{digest(authorization_code)}", StoredCode)
        return found.model_copy(update={"code": authorization_code}) if found else None

    async def exchange_authorization_code(
        self, client: OAuthClientInformationFull, authorization_code: StoredCode
    ) -> OAuthToken:
        taken = await self._load(f"signin:code:{digest(authorization_code.code)}", StoredCode, take=True)
        if taken is None or taken.client_id != client.client_id:
            raise TokenError("invalid_grant", "authorization code does not exist")
        grant = await self._load(f"signin:grant:{taken.grant_id}", Grant)
        if grant is None:
            raise TokenError("invalid_grant", "the sign-in behind this code has ended; sign in again")
        return await self._issue(taken.grant_id, grant, taken.scopes)

    # our tokens -------------------------------------------------------------------------------

    async def _issue(self, grant_id: str, grant: Grant, scopes: list[str]) -> OAuthToken:
        access = ACCESS_PREFIX + secrets.token_urlsafe(32)
        refresh = REFRESH_PREFIX + secrets.token_urlsafe(32)
        now = int(self._clock())
        await self._save(
            f"signin:access:{digest(access)}",
            IssuedRecord(grant_id=grant_id, client_id=grant.client_id, scopes=scopes, expires_at=now + ACCESS_TTL),
            ACCESS_TTL,
        )
        await self._save(
            f"signin:refresh:{digest(refresh)}",
            IssuedRecord(grant_id=grant_id, client_id=grant.client_id, scopes=scopes, expires_at=now + REFRESH_TTL),
            REFRESH_TTL,
        )
        updated = grant.model_copy(update={"access_digest": digest(access), "refresh_digest": digest(refresh)})
        await self._save(f"signin:grant:{grant_id}", updated, REFRESH_TTL)
        return OAuthToken(
            access_token=access,
            token_type="Bearer",
            expires_in=ACCESS_TTL,
            refresh_token=refresh,
            scope=" ".join(scopes),
        )

    async def load_refresh_token(self, client: OAuthClientInformationFull, refresh_token: str) -> StoredRefresh | None:
        if not refresh_token.startswith(REFRESH_PREFIX):
            return None
        name = digest(refresh_token)
        record = await self._load(f"signin:refresh:{name}", IssuedRecord)
        if record is None:
            reused = await self._load(f"signin:used-refresh:{name}", IssuedRecord)
            if reused is not None:
                # A refresh token used a second time was copied: end the whole sign-in (RFC 9700 §4.14.2).
                log.warning("a refresh token was presented again after it had been used; that sign-in is ended")
                await self.end_grant(reused.grant_id, revoke_upstream=True)
            return None
        return StoredRefresh(
            token=refresh_token,
            client_id=record.client_id,
            scopes=record.scopes,
            expires_at=record.expires_at,
            resource=self.site.resource_url,
            grant_id=record.grant_id,
        )

    async def exchange_refresh_token(
        self, client: OAuthClientInformationFull, refresh_token: StoredRefresh, scopes: list[str]
    ) -> OAuthToken:
        name = digest(refresh_token.token)
        taken = await self._load(f"signin:refresh:{name}", IssuedRecord, take=True)
        if taken is None or taken.client_id != client.client_id:
            raise TokenError("invalid_grant", "refresh token does not exist")
        await self._save(f"signin:used-refresh:{name}", taken, REFRESH_TTL)
        grant = await self._load(f"signin:grant:{taken.grant_id}", Grant)
        if grant is None:
            raise TokenError("invalid_grant", "the sign-in has ended; sign in again")
        if grant.access_digest:
            await self._store.delete(f"signin:access:{grant.access_digest}")
        return await self._issue(taken.grant_id, grant, scopes or taken.scopes)

    async def load_access_token(self, token: str) -> StoredAccess | None:
        if not token.startswith(ACCESS_PREFIX):
            return None
        record = await self._load(f"signin:access:{digest(token)}", IssuedRecord)
        if record is None:
            return None
        return StoredAccess(
            token=token,
            client_id=record.client_id,
            scopes=record.scopes,
            expires_at=record.expires_at,
            resource=self.site.resource_url,
            grant_id=record.grant_id,
        )

    async def revoke_token(self, token: StoredAccess | StoredRefresh) -> None:
        await self.end_grant(token.grant_id, revoke_upstream=True)

    # grants -----------------------------------------------------------------------------------

    async def end_grant(self, grant_id: str, *, revoke_upstream: bool) -> None:
        """Forget a sign-in and every token of ours standing for it (and, if asked, revoke it upstream)."""
        grant = await self._load(f"signin:grant:{grant_id}", Grant, take=True)
        if grant is None:
            return
        for name in filter(
            None,
            (
                grant.access_digest and f"signin:access:{grant.access_digest}",
                grant.refresh_digest and f"signin:refresh:{grant.refresh_digest}",
            ),
        ):
            await self._store.delete(name)
        if revoke_upstream:
            await self._upstream.revoke(grant.upstream_refresh or grant.upstream_access)

    async def upstream_credential(self, grant_id: str, *, force_refresh: bool = False) -> str | Ended:
        """The call credential for a grant: its OpenProject access token, refreshed first when due."""
        grant = await self._load(f"signin:grant:{grant_id}", Grant)
        if grant is None:
            return "ended"
        due = grant.upstream_expires_at is not None and grant.upstream_expires_at - REFRESH_MARGIN <= self._clock()
        if due or force_refresh:
            refreshed = await self._refresh(grant_id, grant)
            if isinstance(refreshed, str):
                return refreshed
            grant = refreshed
        return signed_in_credential(grant.upstream_access)

    def _lock(self, grant_id: str) -> asyncio.Lock:
        lock = self._locks.get(grant_id)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[grant_id] = lock
        return lock

    async def _refresh(self, grant_id: str, seen: Grant) -> Grant | Ended:
        async with self._lock(grant_id):
            current = await self._load(f"signin:grant:{grant_id}", Grant)
            if current is None:
                return "ended"
            if current.upstream_access != seen.upstream_access:
                return current  # refreshed meanwhile (in this process or another replica)
            if current.upstream_refresh is None:
                await self.end_grant(grant_id, revoke_upstream=False)
                return "ended"
            try:
                tokens = await self._upstream.refresh(current.upstream_refresh)
            except GrantRefusedError:
                latest = await self._load(f"signin:grant:{grant_id}", Grant)
                if latest is not None and latest.upstream_refresh != current.upstream_refresh:
                    return latest  # another replica rotated it first
                log.info("OpenProject refused to refresh a sign-in (revoked or expired); it is ended")
                await self.end_grant(grant_id, revoke_upstream=False)
                return "ended"
            except ProviderUnavailableError as exc:
                log.warning("could not refresh a sign-in at OpenProject: %s", exc)
                still_valid = current.upstream_expires_at is None or current.upstream_expires_at > self._clock()
                return current if still_valid else "unavailable"
            updated = current.model_copy(
                update={
                    "upstream_access": tokens.access_token,
                    "upstream_refresh": tokens.refresh_token or current.upstream_refresh,
                    "upstream_expires_at": self._clock() + (tokens.expires_in or UPSTREAM_DEFAULT_LIFETIME),
                }
            )
            await self._save(f"signin:grant:{grant_id}", updated, REFRESH_TTL)
            return updated


def _back(state: str | None, redirect_uri: str, *, status: int = 302, **params: str | None) -> Response:
    """Send the user's browser back to the MCP client, with its own ``state``."""
    url = construct_redirect_uri(redirect_uri, **params, state=state)
    return RedirectResponse(url, status_code=status, headers={"Cache-Control": "no-store"})


def _expired() -> Response:
    return notice_page(
        400, "This sign-in link has expired or was already used.", "Start signing in again from your MCP client."
    )


def _refused() -> Response:
    return notice_page(
        403,
        "This answer did not come from the page this server showed you.",
        "Nothing was allowed. Start signing in again from your MCP client.",
    )


class _StoreOutageIsNoCrash(logging.Filter):
    """The SDK's ``/authorize`` logs every exception as "Unexpected error" with a traceback before it
    re-raises; a store outage is expected, logged once by the store, and answered 503 here."""

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        return not isinstance(error, StoreUnavailableError)


_SDK_AUTHORIZE_LOG: Final = logging.getLogger("mcp.server.auth.handlers.authorize")


class SignInServer:
    """What remote mode adds for sign-in: the routes, and the gate in front of ``/mcp``."""

    def __init__(self, provider: OpenProjectSignIn, *, limiter: RateLimiter | None = None) -> None:
        if not any(isinstance(f, _StoreOutageIsNoCrash) for f in _SDK_AUTHORIZE_LOG.filters):
            _SDK_AUTHORIZE_LOG.addFilter(_StoreOutageIsNoCrash())
        self.provider = provider
        self.site = provider.site
        self._limiter = limiter
        self._bearer = BearerAuthBackend(
            ProviderTokenVerifier(provider),  # type: ignore[arg-type]
            resource_server_url=AnyHttpUrl(self.site.resource_url),
        )

    def routes(self) -> list[Route]:
        issuer = AnyHttpUrl(self.site.public_url)
        routes = [
            *create_auth_routes(
                self.provider,
                issuer_url=issuer,
                client_registration_options=ClientRegistrationOptions(
                    enabled=True, valid_scopes=[SCOPE], default_scopes=[SCOPE]
                ),
                revocation_options=RevocationOptions(enabled=True),
            ),
            *create_protected_resource_routes(
                resource_url=AnyHttpUrl(self.site.resource_url),
                authorization_servers=[issuer],
                scopes_supported=[SCOPE],
                resource_name="OpenProject",
            ),
            Route(CONSENT_PATH, self.provider.consent, methods=["GET", "POST"]),
            Route(CALLBACK_PATH, self.provider.callback, methods=["GET"]),
        ]
        pages = {"/authorize", CONSENT_PATH, CALLBACK_PATH}
        return [
            Route(
                r.path,
                _Limited(
                    _PublicRevocation(r.app) if r.path == REVOCATION_PATH else r.app,
                    self._limiter,
                    browser=r.path in pages,
                ),
                methods=r.methods,
            )
            for r in routes
        ]

    def gate(self, app: ASGIApp) -> ASGIApp:
        return _Gate(app, self)

    async def resolve(self, scope: Scope) -> tuple[str, SignedInCall] | Response | None:
        """For a request to ``/mcp``: ``None`` if it carries no token of ours; else the call
        credential and marker to serve it with, or the refusal to answer."""
        authorization = Headers(scope=scope).get("authorization", "")
        scheme, _, token = authorization.partition(" ")
        if scheme.lower() != "bearer" or not token.strip().startswith(ACCESS_PREFIX):
            return None
        try:
            verified = await self._bearer.authenticate(HTTPConnection(scope))
            user = verified[1] if verified else None
            access = user.access_token if isinstance(user, AuthenticatedUser) else None
            if not isinstance(access, StoredAccess):
                return self.refusal("This sign-in token is expired or unknown.", error="invalid_token")
            credential = await self.provider.upstream_credential(access.grant_id)
        except StoreUnavailableError as outage:
            exchange_of(scope).rejected = "store-unavailable"
            return _rpc_error(
                503,
                "This server cannot read its sign-in records just now; your sign-in is kept. "
                "Send the request again in a moment.",
                data={"code": "SIGN_IN_STORE_UNAVAILABLE"},
                headers={"Retry-After": retry_after(outage.retry_after)},
            )
        if credential == "ended":
            return self.refusal("Your sign-in with OpenProject has ended.", error="invalid_token")
        if credential == "unavailable":
            return _rpc_error(
                503,
                "OpenProject could not be reached to renew your sign-in; send the request again in a moment.",
                data={"code": "OPENPROJECT_NETWORK_ERROR"},
                headers={"Retry-After": "5"},
            )
        return credential, SignedInCall(access.grant_id)

    def refusal(self, message: str, *, error: str) -> Response:
        challenge = (
            f'Bearer error="{error}", error_description="{message}", resource_metadata="{self.site.metadata_url}"'
        )
        return _rpc_error(
            401,
            message,
            data={"code": "OPENPROJECT_AUTH_ERROR", "hint": SIGN_IN_AGAIN},
            headers={"WWW-Authenticate": challenge},
        )


def _rpc_error(status: int, message: str, *, data: dict[str, Any], headers: dict[str, str]) -> Response:
    return rpc_error_response(status, message, data=data, headers=headers)


class _Gate:
    """In front of the guard: a request with a token of ours is served with the user's OpenProject
    token in its place (the client never sees it); any other request passes untouched."""

    def __init__(self, app: ASGIApp, signin: SignInServer) -> None:
        self._app = app
        self._signin = signin

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        resolved = await self._signin.resolve(scope)
        if resolved is None:
            await self._app(scope, receive, send)
            return
        if isinstance(resolved, Response):
            exchange = exchange_of(scope)
            exchange.rejected = exchange.rejected or "signin"
            exchange_of(scope).auth = "signed-in"
            await resolved(scope, receive, send)
            return
        credential, marker = resolved
        kept = [(k, v) for k, v in scope["headers"] if k not in (b"authorization", b"x-openproject-api-key")]
        inner = {
            **scope,
            "headers": [*kept, (b"authorization", f"Bearer {credential}".encode())],
            SIGNED_IN_KEY: marker,
        }
        exchange_of(scope).auth = "signed-in"
        renewed = False

        async def send_once_renewed(message: Message) -> None:
            # OpenProject refused the token during the call: renew it before the answer leaves, so
            # the client's next call (which the answer invites) already finds the new token.
            nonlocal renewed
            if message["type"] == "http.response.start" and marker.refused and not renewed:
                renewed = True
                await self._renew(marker.grant)
            await send(message)

        await self._app(inner, receive, send_once_renewed)
        if marker.refused and not renewed:
            await self._renew(marker.grant)

    async def _renew(self, grant: str) -> None:
        """Renew a refused sign-in's token, or end the sign-in so the client signs in again."""
        try:
            await self._signin.provider.upstream_credential(grant, force_refresh=True)
        except StoreUnavailableError:
            log.warning("a refused sign-in could not be renewed: the shared store cannot be reached")
        except Exception as exc:  # the answer must still leave; the next call retries the renewal
            log.warning("a refused sign-in could not be renewed (%s)", type(exc).__name__)


class _Limited:
    """A sign-in route under the per-client rate limit (these routes need no token), answering 503
    with ``Retry-After`` while the store cannot be reached (never a pretended success or refusal)."""

    def __init__(self, app: ASGIApp, limiter: RateLimiter | None, *, browser: bool = False) -> None:
        self._app = app
        self._limiter = limiter
        self._browser = browser  # a page a user's browser opens (an HTML answer), not a client's endpoint

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        client = scope.get("client")
        wait = self._limiter.admit(f"signin:{client[0] if client else '?'}") if self._limiter else None
        own = self._readable(scope, send)
        if wait is not None:
            exchange_of(scope).rejected = "rate-limit"
            response = Response(
                '{"error":"temporarily_unavailable","error_description":"Too many requests; wait and try again."}',
                status_code=429,
                media_type="application/json",
                headers={"Retry-After": retry_after(wait)},
            )
            await response(scope, receive, own)
            return
        started = False

        async def sending(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self._app(scope, receive, sending)
        except StoreUnavailableError as outage:
            if started:
                raise
            exchange_of(scope).rejected = "store-unavailable"
            await _store_unavailable(outage, browser=self._browser)(scope, receive, own)

    def _readable(self, scope: Scope, send: Send) -> Send:
        """``send`` for the answers given here rather than by the SDK's endpoint: a client's endpoint
        answers a web page (an ``Origin``) as the SDK's own CORS does, any origin and no credentials,
        so a browser client can read its 429 or 503 and the ``Retry-After``; the user's pages do not."""
        if self._browser or not any(name == b"origin" for name, _ in scope.get("headers", ())):
            return send

        async def readable(message: Message) -> None:
            if message["type"] == "http.response.start":
                cors = [(b"access-control-allow-origin", b"*"), (b"access-control-expose-headers", b"Retry-After")]
                message = {**message, "headers": [*message.get("headers", []), *cors]}
            await send(message)

        return readable


class _PublicRevocation:
    """Around the SDK's ``/revoke``: its request model requires a ``client_secret`` field, which a
    public client (``token_endpoint_auth_method`` ``none``) has none of, nor does one that sends
    its secret in a Basic header; RFC 7009 asks neither for it. A form body without the field
    gets an empty one. That changes no authentication: the SDK's client check runs on the same
    form first, and an empty secret is a missing one there."""

    def __init__(self, app: ASGIApp) -> None:
        self._app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = Headers(scope=scope).get("content-type", "").split(";")[0].strip().lower()
        if scope["type"] != "http" or scope.get("method") != "POST" or kind != "application/x-www-form-urlencoded":
            await self._app(scope, receive, send)
            return
        body = bytearray()
        complete = False
        trailing: Message | None = None
        while len(body) <= DEFAULT_MAX_REQUEST_BODY_SIZE:
            message = await receive()
            if message["type"] != "http.request":
                trailing = message
                break
            body.extend(message.get("body", b""))
            if not message.get("more_body", False):
                complete = True
                break
        if complete and len(body) <= DEFAULT_MAX_REQUEST_BODY_SIZE:
            fields = {name for name, _ in parse_qsl(body.decode("latin-1"), keep_blank_values=True)}
            if "client_secret" not in fields:
                body.extend(b"&client_secret=" if body else b"client_secret=")
                headers = [(k, v) for k, v in scope["headers"] if k.lower() != b"content-length"]
                scope = {**scope, "headers": [*headers, (b"content-length", str(len(body)).encode())]}
        queued: list[Message] = [{"type": "http.request", "body": bytes(body), "more_body": not complete}]
        if trailing is not None:
            queued.append(trailing)

        async def replay() -> Message:
            return queued.pop(0) if queued else await receive()

        await self._app(scope, replay, send)


def _store_unavailable(outage: StoreUnavailableError, *, browser: bool) -> Response:
    wait = retry_after(outage.retry_after)
    headers = {"Retry-After": wait, "Cache-Control": "no-store"}
    if browser:
        page = notice_page(
            503,
            "Signing in is not possible just this moment.",
            f"This server cannot reach its sign-in records. Wait {wait} s, then reload this page.",
        )
        page.headers.update(headers)
        return page
    return Response(
        json.dumps(
            {
                "error": "temporarily_unavailable",
                "error_description": "This server cannot read or keep its sign-in records just now; "
                "nothing was changed. Try again in a moment.",
            }
        ),
        status_code=503,
        media_type="application/json",
        headers=headers,
    )
