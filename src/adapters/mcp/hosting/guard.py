"""The guard in front of the MCP endpoint: who may call, how much, how fast, and for how long."""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

import anyio
from mcp.types import INTERNAL_ERROR, INVALID_REQUEST, REQUEST_TIMEOUT
from starlette.datastructures import Headers
from starlette.responses import JSONResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from openproject_mcp.adapters.mcp.hosting.access import Exchange, exchange_of, note_rpc
from openproject_mcp.adapters.mcp.hosting.health import Lifecycle
from openproject_mcp.adapters.mcp.hosting.limits import InFlightShares, RateLimiter, retry_after
from openproject_mcp.adapters.mcp.jsonrpc import Refusal, inspect_message
from openproject_mcp.adapters.mcp.server import credential_from_headers
from openproject_mcp.application.caching import tenant_key

# When the first byte of the request arrived (``time.monotonic``), set by the server's protocol:
# the request's deadline counts from there, so slow headers and slow bodies spend it too.
FIRST_BYTE_KEY: Final = "openproject_mcp.first_byte"
SERVER_BUSY: Final = -32000
AUTH_HINT: Final = (
    "Send your OpenProject API token in a header: 'Authorization: Bearer <token>', "
    "'Authorization: Basic <base64 of apikey:token>' (curl -u apikey:<token>) or "
    "'X-OpenProject-Api-Key: <token>'. Create one in OpenProject under My account → Access tokens (API). "
    "A token in the URL is ignored."
)
# For a token that arrived in a header and that OpenProject refused: the fix is in the client.
# CORS, for the web origins the operator allows: what a browser client may send, and read, at /mcp.
CORS_ALLOWED_HEADERS: Final = (
    "Authorization, Content-Type, Accept, Mcp-Session-Id, Mcp-Protocol-Version, Mcp-Method, Mcp-Name, "
    "Last-Event-ID, X-OpenProject-Api-Key, X-Request-Id"
)
CORS_EXPOSED_HEADERS: Final = "Mcp-Session-Id, WWW-Authenticate, Retry-After, X-Request-Id"
CORS_MAX_AGE: Final = "600"
REJECTED_TOKEN_HINT: Final = (
    "OpenProject refused the token your MCP client sent in its Authorization (or X-OpenProject-Api-Key) "
    "header: it may be mistyped, expired or revoked, or belong to a locked user. Create a new one in "
    "OpenProject under My account → Access tokens (API) and update the header in the client's configuration."
)


def rpc_error_response(
    status: int,
    message: str,
    *,
    code: int = INVALID_REQUEST,
    data: Mapping[str, Any] | None = None,
    request_id: str | int | None = None,
    headers: Mapping[str, str] | None = None,
) -> JSONResponse:
    """A JSON-RPC error at an HTTP status: MCP clients surface ``error.message`` to their user."""
    error: dict[str, Any] = {"code": code, "message": message}
    if data:
        error["data"] = dict(data)
    body = {"jsonrpc": "2.0", "id": request_id, "error": error}
    return JSONResponse(body, status_code=status, headers=dict(headers or {}))


def _unauthenticated(sign_in_metadata_url: str | None = None) -> JSONResponse:
    challenge = 'Bearer realm="openproject-mcp"'
    hint = AUTH_HINT
    if sign_in_metadata_url:  # sign-in is on: an OAuth client starts it from this header
        challenge += f', resource_metadata="{sign_in_metadata_url}"'
        hint = f"Sign in with OpenProject (your MCP client does it when it supports OAuth), or: {AUTH_HINT}"
    return rpc_error_response(
        401,
        "Authentication required: this server needs your own OpenProject API token on every request.",
        data={
            "code": "OPENPROJECT_AUTH_ERROR",
            "hint": hint,
            "headers": [
                "Authorization: Bearer <token>",
                "Authorization: Basic <base64 of apikey:token>",
                "X-OpenProject-Api-Key: <token>",
            ],
        },
        headers={"WWW-Authenticate": challenge},
    )


@dataclass(frozen=True, slots=True)
class GuardPolicy:
    credentials_required: bool
    instance: str
    max_body_bytes: int
    request_timeout_seconds: float
    body_timeout_seconds: float
    max_in_flight: int
    max_in_flight_per_caller: int
    allowed_origins: tuple[str, ...]
    sign_in_metadata_url: str | None = None  # with sign-in on: named in the 401's WWW-Authenticate


class McpGuard:
    """Checks every request to ``/mcp`` before the SDK sees it, and bounds how long it may take.

    In order: the query string is dropped (credentials never travel in URLs, and nothing
    downstream can log one); a browser ``Origin`` must be allowed; only POST is served (a
    stateless server has no stream to open with GET); a token must be in a header unless the
    operator runs single-tenant; the caller must be within its rate limit and its share of the
    requests in flight, and the process within its in-flight cap; the body must arrive within its
    timeout, fit the limit and be one JSON-RPC message; then the SDK has what is left of the
    request's deadline to answer.
    """

    def __init__(self, app: ASGIApp, policy: GuardPolicy, lifecycle: Lifecycle, limiter: RateLimiter) -> None:
        self._app = app
        self._policy = policy
        self._lifecycle = lifecycle
        self._limiter = limiter
        self._shares = InFlightShares(policy.max_in_flight_per_caller)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        began = scope.get(FIRST_BYTE_KEY)
        started = began if isinstance(began, float) else time.monotonic()
        exchange = exchange_of(scope)
        if scope.get("query_string"):
            exchange.query_ignored = True
            scope = {**scope, "query_string": b""}
        headers = Headers(scope=scope)
        refusal = self._refuse(scope, headers, exchange)
        if refusal is not None:
            await refusal(scope, receive, send)
            return
        await self._admitted(scope, receive, send, exchange, headers, started)

    async def _admitted(
        self, scope: Scope, receive: Receive, send: Send, exchange: Exchange, headers: Headers, started: float
    ) -> None:
        policy = self._policy
        left = policy.request_timeout_seconds - (time.monotonic() - started)
        body_wait = max(0.0, min(policy.body_timeout_seconds, left))
        with anyio.move_on_after(body_wait) as reading:
            body, too_large = await _read_body(receive, headers, policy.max_body_bytes)
        if reading.cancelled_caught:
            exchange.rejected = "slow-body"
            await rpc_error_response(
                408,
                f"The request body did not arrive within {body_wait:g} s; send it again, all at once.",
                headers={"Connection": "close"},
            )(scope, receive, send)
            return
        if too_large:
            exchange.rejected = "body-too-large"
            await rpc_error_response(
                413, f"The request body is larger than this server accepts ({policy.max_body_bytes} bytes)."
            )(scope, receive, send)
            return
        inspected = inspect_message(body)
        if isinstance(inspected, Refusal):
            exchange.rejected = "malformed"
            exchange.rpc_method = inspected.kind
            await rpc_error_response(400, inspected.message, code=inspected.code, request_id=inspected.request_id)(
                scope, receive, send
            )
            return
        note_rpc(exchange, inspected.method, inspected.message.get("params"))
        caller = caller_of(scope, exchange)
        busy = self._busy(exchange, caller)  # asked again: the caps count requests being answered, not bodies
        if busy is not None:
            await busy(scope, receive, send)
            return
        left = policy.request_timeout_seconds - (time.monotonic() - started)
        # Counted and given back on every path: an answer, an error, a deadline, a cancellation
        # (a client that went away, a shutdown's end). Nothing is awaited between the check above
        # and the count, so two requests cannot both take the last slot.
        self._lifecycle.in_flight += 1
        try:
            with self._shares.held(caller):
                await self._answer_within(left, scope, _replay(body, receive), send, exchange, inspected.request_id)
        finally:
            self._lifecycle.in_flight -= 1

    def _refuse(self, scope: Scope, headers: Headers, exchange: Exchange) -> Response | None:
        origin = headers.get("origin")
        if origin is not None and not _origin_allowed(origin, self._policy.allowed_origins):
            exchange.rejected = "origin"
            return rpc_error_response(403, "Requests from this web origin are not allowed.")
        if scope["method"] != "POST":
            exchange.rejected = "method"
            return rpc_error_response(
                405,
                "This server is stateless: send every MCP message as a POST (there is no stream to open).",
                headers={"Allow": "POST"},
            )
        credential = credential_from_headers(headers)
        if credential is not None:
            exchange.auth = "header" if exchange.auth == "none" else exchange.auth
            exchange.tenant = tenant_key(self._policy.instance, credential).removeprefix("tenant:")[:12]
        elif self._policy.credentials_required:
            exchange.rejected = "credentials"
            return _unauthenticated(self._policy.sign_in_metadata_url)
        caller = caller_of(scope, exchange)
        wait = self._limiter.admit(caller)
        if wait is not None:
            exchange.rejected = "rate-limit"
            return rpc_error_response(
                429,
                f"Too many requests from this caller; this server accepts about "
                f"{self._limiter_rate()} per minute. Wait {retry_after(wait)} s and send it again.",
                code=SERVER_BUSY,
                headers={"Retry-After": retry_after(wait)},
            )
        return self._busy(exchange, caller)

    def _busy(self, exchange: Exchange, caller: str) -> Response | None:
        """A fast refusal when this caller, or the process, already has as many requests answered as it may.

        Requests still sending their body do not count. A caller over its share gets 429: it is
        this caller's doing, and a balancer must not read it as the replica failing (nor retry it
        on the next one, which would spread one caller's flood over every replica). A full
        process gets 503, as it is the server that cannot take more.
        """
        if self._shares.full(caller):
            exchange.rejected = "caller-busy"
            share = self._shares.per_caller
            return rpc_error_response(
                429,
                f"You already have {share} requests being answered, as many as one caller may have at once; "
                "wait for one to finish and send it again.",
                code=SERVER_BUSY,
                headers={"Retry-After": "1"},
            )
        if self._lifecycle.in_flight < self._policy.max_in_flight:
            return None
        exchange.rejected = "busy"
        return rpc_error_response(
            503,
            f"The server is answering {self._policy.max_in_flight} requests already; send it again in a moment.",
            code=SERVER_BUSY,
            headers={"Retry-After": "1"},
        )

    def _limiter_rate(self) -> int:
        return round(self._limiter.per_minute)

    async def _answer_within(
        self,
        left: float,
        scope: Scope,
        receive: Receive,
        send: Send,
        exchange: Exchange,
        request_id: str | int | None,
    ) -> None:
        answered = False

        async def watched_send(message: Message) -> None:
            nonlocal answered
            if message["type"] == "http.response.start":
                answered = True
            await send(message)

        timeout = self._policy.request_timeout_seconds
        try:
            with anyio.move_on_after(max(left, 0.0)) as deadline:
                await self._app(scope, receive, watched_send)
        except anyio.get_cancelled_exc_class():
            if not self._lifecycle.draining:
                raise
            # uvicorn cancels what is still running when the grace period ends. Say so, so the
            # caller retries (elsewhere), instead of leaving uvicorn to answer a bare 500; the
            # task ends right after this, so the cancellation is not lost.
            exchange.rejected = "shutdown"
            if not answered:
                with anyio.CancelScope(shield=True):
                    await rpc_error_response(
                        503,
                        "The server is shutting down and stopped this request before it finished; send it again.",
                        code=INTERNAL_ERROR,
                        request_id=request_id,
                        headers={"Retry-After": "1", "Connection": "close"},
                    )(scope, receive, send)
            return
        if deadline.cancelled_caught:
            exchange.rejected = "timeout"
            if not answered:
                await rpc_error_response(
                    504,
                    f"The request took longer than {timeout:g} s and was stopped; nothing was changed.",
                    code=REQUEST_TIMEOUT,
                    request_id=request_id,
                )(scope, receive, send)


class CrossOrigin:
    """CORS at ``/mcp`` for the web origins the operator allows (``OPENPROJECT_HTTP_ALLOWED_ORIGINS``).

    A preflight from such an origin is answered here, before any credential is asked for (a
    browser sends none with it); every other answer to such an origin, refusals included, says
    the origin may read it, so a browser client sees the 401's challenge or the 429's wait. The
    origin itself is named, never ``*``, and no ``Access-Control-Allow-Credentials`` is sent: the
    token travels in a header the page sets, never in a cookie. Any other origin, and a request
    without one, passes through unchanged: the guard refuses a foreign origin with 403 (its
    preflight too). Every answer says it ``Vary``s by ``Origin``.
    """

    def __init__(self, app: ASGIApp, origins: Sequence[str]) -> None:
        self._app = app
        self._origins = tuple(origins)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        headers = Headers(scope=scope)
        origin = headers.get("origin")
        allowed = origin is not None and _origin_allowed(origin, self._origins)
        if allowed and scope["method"] == "OPTIONS" and "access-control-request-method" in headers:
            preflight = {
                "Access-Control-Allow-Origin": str(origin),
                "Access-Control-Allow-Methods": "POST",
                "Access-Control-Allow-Headers": CORS_ALLOWED_HEADERS,
                "Access-Control-Max-Age": CORS_MAX_AGE,
                "Vary": "Origin",
            }
            await Response(status_code=204, headers=preflight)(scope, receive, send)
            return
        added = [(b"vary", b"Origin")]
        if allowed:
            added += [
                (b"access-control-allow-origin", str(origin).encode("latin-1")),
                (b"access-control-expose-headers", CORS_EXPOSED_HEADERS.encode()),
            ]

        async def shared_send(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), *added]}
            await send(message)

        await self._app(scope, receive, shared_send)


def caller_of(scope: Scope, exchange: Exchange) -> str:
    """Who a request counts against: its token's tenant fingerprint, else the client's address."""
    if exchange.tenant:
        return f"tenant:{exchange.tenant}"
    client = scope.get("client")
    return f"client:{client[0] if client else '?'}"


def _origin_allowed(origin: str, allowed: Sequence[str]) -> bool:
    for pattern in allowed:
        if origin == pattern:
            return True
        if pattern.endswith(":*") and origin.startswith(pattern[:-1]) and origin[len(pattern) - 1 :].isdigit():
            return True
    return False


async def _read_body(receive: Receive, headers: Headers, limit: int) -> tuple[bytes, bool]:
    """The whole request body, or ``too_large`` as soon as it is known to exceed ``limit``."""
    declared = headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        return b"", True
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] != "http.request":
            break  # the client went away; the SDK will notice on its own receive
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > limit:
            return b"", True
        chunks.append(chunk)
        if not message.get("more_body", False):
            break
    return b"".join(chunks), False


def _replay(body: bytes, receive: Receive) -> Receive:
    """A ``receive`` that hands the already-read body over once, then waits for the disconnect."""
    pending = [{"type": "http.request", "body": body, "more_body": False}]

    async def replayed() -> Message:
        if pending:
            return pending.pop()
        return await receive()

    return replayed
