"""Remote mode: the MCP server over stateless streamable HTTP, shared by callers who each bring a token.

The SDK's streamable-HTTP app speaks the protocol. Around it this module adds what a shared
server needs: a guard on the MCP endpoint (Origin, method, credentials, body size, a deadline per
request), liveness and readiness routes that need no credentials, one JSON access-log line per
request, and a uvicorn runner that drains in-flight calls on SIGTERM.

The server keeps no state between requests (``stateless_http``, JSON responses), so any replica
behind any load balancer can answer any request. The OpenProject address is fixed by the
server's configuration; a request only ever chooses *whose* token is used, never *where* it goes.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import json
import logging
import re
import signal
import socket
import sys
import time
import uuid
from collections.abc import Generator, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Final, TextIO

import aiohttp
import anyio
import uvicorn
from mcp.server import Server
from mcp.server.transport_security import TransportSecuritySettings
from mcp.types import INTERNAL_ERROR, INVALID_REQUEST, PARSE_ERROR, REQUEST_TIMEOUT
from starlette.datastructures import Headers
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from openproject_mcp.adapters.environment import SettingError, read_flag, read_number, read_words
from openproject_mcp.adapters.mcp.catalog import TOOLS
from openproject_mcp.adapters.mcp.server import credential_from_headers
from openproject_mcp.application.caching import tenant_key

log = logging.getLogger("openproject_mcp.http")
access_log = logging.getLogger("openproject_mcp.http.access")

MCP_PATH: Final = "/mcp"
LOOPBACK_NAMES: Final = ("localhost",)
AUTH_HINT: Final = (
    "Send your OpenProject API token in a header: 'Authorization: Bearer <token>' or "
    "'X-OpenProject-Api-Key: <token>'. Create one in OpenProject under My account → Access tokens (API). "
    "A token in the URL is ignored."
)
NOT_ONE_MESSAGE: Final = (
    'The request body must be one JSON-RPC 2.0 message: {"jsonrpc": "2.0", "id": 1, "method": "...", '
    '"params": {...}}. Batches are not supported.'
)
_REQUEST_ID = re.compile(r"^[A-Za-z0-9._:-]{1,64}$")
# What a client sends is logged only when it cannot be a secret: a token pasted in the wrong place
# (a path, a method, a tool name) must not end up in the access log.
_RPC_METHOD = re.compile(r"^[a-z][A-Za-z/_]{0,63}$")
KNOWN_PATHS: Final = frozenset({MCP_PATH, "/healthz", "/readyz"})
KNOWN_TOOLS: Final = frozenset(spec.name for spec in TOOLS)


class HttpOptionsError(SettingError):
    """An HTTP-mode setting is invalid; the message says how to fix it."""


@dataclass(frozen=True, slots=True)
class HttpOptions:
    """How the remote server listens and what it accepts."""

    host: str = "127.0.0.1"
    port: int = 8000
    max_body_bytes: int = 1024 * 1024
    request_timeout_seconds: float = 120.0
    shutdown_grace_seconds: float = 25.0
    allowed_origins: tuple[str, ...] = ()
    allowed_hosts: tuple[str, ...] = ()
    ready_checks_instance: bool = False

    @classmethod
    def from_env(cls, env: Mapping[str, str], *, host: str | None = None, port: int | None = None) -> HttpOptions:
        """Options from ``OPENPROJECT_HTTP_*`` variables; ``host``/``port`` come from the command line."""
        defaults = cls()
        chosen_port = defaults.port if port is None else port
        if not 1 <= chosen_port <= 65535:
            raise HttpOptionsError(f"--port must be between 1 and 65535, got {chosen_port}.")
        return cls(
            host=(host or defaults.host).strip(),
            port=chosen_port,
            max_body_bytes=int(
                read_number(
                    env, "OPENPROJECT_HTTP_MAX_BODY_BYTES", defaults.max_body_bytes, 1024, 64e6, HttpOptionsError
                )
            ),
            request_timeout_seconds=read_number(
                env, "OPENPROJECT_HTTP_REQUEST_TIMEOUT", defaults.request_timeout_seconds, 1, 3600, HttpOptionsError
            ),
            shutdown_grace_seconds=read_number(
                env, "OPENPROJECT_HTTP_SHUTDOWN_GRACE", defaults.shutdown_grace_seconds, 0, 3600, HttpOptionsError
            ),
            allowed_origins=read_words(env, "OPENPROJECT_HTTP_ALLOWED_ORIGINS"),
            allowed_hosts=read_words(env, "OPENPROJECT_HTTP_ALLOWED_HOSTS"),
            ready_checks_instance=read_flag(env, "OPENPROJECT_HTTP_READY_CHECKS_INSTANCE", HttpOptionsError),
        )

    @property
    def loopback(self) -> bool:
        """Whether only this machine can connect (then DNS-rebinding protection is always on)."""
        host = self.host.strip("[]")
        if host in LOOPBACK_NAMES:
            return True
        try:
            return ipaddress.ip_address(host).is_loopback
        except ValueError:
            return False

    def origin_allowlist(self) -> tuple[str, ...]:
        loopback = ("http://127.0.0.1:*", "http://localhost:*", "http://[::1]:*") if self.loopback else ()
        return (*loopback, *self.allowed_origins)

    def transport_security(self) -> TransportSecuritySettings:
        """The SDK's Host/Origin check: on for loopback binds and wherever the operator names the hosts."""
        hosts = list(self.allowed_hosts)
        if self.loopback:
            hosts += ["127.0.0.1:*", "localhost:*", "[::1]:*"]
        if not hosts:
            # Bound to a public interface with no known public name: the Host header cannot be
            # judged here (the reverse proxy does), but the Origin check in ``McpGuard`` still runs.
            return TransportSecuritySettings(enable_dns_rebinding_protection=False)
        return TransportSecuritySettings(
            enable_dns_rebinding_protection=True,
            allowed_hosts=hosts,
            allowed_origins=list(self.origin_allowlist()),
        )


# --- what one request did, for its access-log line -------------------------------------------


@dataclass(slots=True)
class Exchange:
    """Facts about one HTTP request, filled in as it passes through; never holds a token."""

    request_id: str
    rpc_method: str | None = None
    tool: str | None = None
    tenant: str | None = None
    auth: str = "none"
    rejected: str | None = None
    query_ignored: bool = False


EXCHANGE_KEY: Final = "openproject_mcp.exchange"


def exchange_of(scope: Scope) -> Exchange:
    found = scope.get(EXCHANGE_KEY)
    if isinstance(found, Exchange):
        return found
    created = Exchange(request_id=uuid.uuid4().hex[:16])
    scope[EXCHANGE_KEY] = created
    return created


@dataclass(slots=True)
class Lifecycle:
    """Where the server is in its life, for ``/readyz`` and the shutdown log."""

    started: bool = False
    draining: bool = False
    in_flight: int = 0


# --- error bodies -----------------------------------------------------------------------------


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


def _unauthenticated() -> JSONResponse:
    return rpc_error_response(
        401,
        "Authentication required: this server needs your own OpenProject API token on every request.",
        data={
            "code": "OPENPROJECT_AUTH_ERROR",
            "hint": AUTH_HINT,
            "headers": ["Authorization: Bearer <token>", "X-OpenProject-Api-Key: <token>"],
        },
        headers={"WWW-Authenticate": 'Bearer realm="openproject-mcp"'},
    )


# --- the guard in front of the MCP endpoint ---------------------------------------------------


@dataclass(frozen=True, slots=True)
class GuardPolicy:
    credentials_required: bool
    instance: str
    max_body_bytes: int
    request_timeout_seconds: float
    allowed_origins: tuple[str, ...]


class McpGuard:
    """Checks every request to ``/mcp`` before the SDK sees it, and bounds how long it may take.

    In order: the query string is dropped (credentials never travel in URLs, and nothing
    downstream can log one); a browser ``Origin`` must be allowed; only POST is served (a
    stateless server has no stream to open with GET); a token must be in a header unless the
    operator runs single-tenant; the body must fit the limit and be one JSON-RPC message; then
    the SDK has the request's deadline to answer.
    """

    def __init__(self, app: ASGIApp, policy: GuardPolicy, lifecycle: Lifecycle) -> None:
        self._app = app
        self._policy = policy
        self._lifecycle = lifecycle

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        exchange = exchange_of(scope)
        if scope.get("query_string"):
            exchange.query_ignored = True
            scope = {**scope, "query_string": b""}
        headers = Headers(scope=scope)
        refusal = self._refuse(scope, headers, exchange)
        if refusal is not None:
            await refusal(scope, receive, send)
            return
        body, too_large = await _read_body(receive, headers, self._policy.max_body_bytes)
        if too_large:
            exchange.rejected = "body-too-large"
            await rpc_error_response(
                413,
                f"The request body is larger than this server accepts ({self._policy.max_body_bytes} bytes).",
            )(scope, receive, send)
            return
        request_id, problem = _inspect_rpc(body, exchange)
        if problem is not None:
            exchange.rejected = "malformed"
            await problem(scope, receive, send)
            return
        self._lifecycle.in_flight += 1
        try:
            await self._answer_within_deadline(scope, _replay(body, receive), send, exchange, request_id)
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
            exchange.auth = "header"
            exchange.tenant = tenant_key(self._policy.instance, credential).removeprefix("tenant:")[:12]
            return None
        if self._policy.credentials_required:
            exchange.rejected = "credentials"
            return _unauthenticated()
        return None  # single-tenant mode or in-memory data: the call runs without a token of its own

    async def _answer_within_deadline(
        self, scope: Scope, receive: Receive, send: Send, exchange: Exchange, request_id: str | int | None
    ) -> None:
        answered = False

        async def watched_send(message: Message) -> None:
            nonlocal answered
            if message["type"] == "http.response.start":
                answered = True
            await send(message)

        timeout = self._policy.request_timeout_seconds
        try:
            with anyio.move_on_after(timeout) as deadline:
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


def _inspect_rpc(body: bytes, exchange: Exchange) -> tuple[str | int | None, Response | None]:
    """The request id, or why the body is not one JSON-RPC message; notes method and tool for the log.

    The SDK would refuse these too, but with a validation dump; a caller deserves one plain sentence.
    """
    try:
        message = json.loads(body)
    except (ValueError, RecursionError):
        exchange.rpc_method = "(unparsable)"
        return None, rpc_error_response(400, "Parse error: the request body is not valid JSON.", code=PARSE_ERROR)
    if not isinstance(message, dict):
        exchange.rpc_method = "(batch)" if isinstance(message, list) else "(not an object)"
        return None, rpc_error_response(400, NOT_ONE_MESSAGE)
    request_id = message.get("id")
    if not isinstance(request_id, str | int) or isinstance(request_id, bool):
        request_id = None
    method = message.get("method")
    if message.get("jsonrpc") != "2.0" or not isinstance(method, str):
        return request_id, rpc_error_response(400, NOT_ONE_MESSAGE, request_id=request_id)
    exchange.rpc_method = method if _RPC_METHOD.match(method) else "(other)"
    params = message.get("params")
    if method == "tools/call" and isinstance(params, dict) and isinstance(params.get("name"), str):
        exchange.tool = params["name"] if params["name"] in KNOWN_TOOLS else "(unknown)"
    return request_id, None


# --- access log, lifespan and routing ---------------------------------------------------------


class RemoteApp:
    """The ASGI application of remote mode: access log → (guard → SDK for ``/mcp``, else routes)."""

    def __init__(self, inner: ASGIApp, guard: McpGuard, lifecycle: Lifecycle) -> None:
        self._inner = inner
        self._guard = guard
        self.lifecycle = lifecycle

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await self._inner(scope, self._watch_lifespan_receive(receive), self._watch_lifespan_send(send))
            return
        if scope["type"] != "http":
            await self._inner(scope, receive, send)
            return
        await self._logged(scope, receive, send)

    async def _logged(self, scope: Scope, receive: Receive, send: Send) -> None:
        exchange = exchange_of(scope)
        incoming_id = Headers(scope=scope).get("x-request-id", "")
        if _REQUEST_ID.match(incoming_id):
            exchange.request_id = incoming_id
        status = 0
        started = time.perf_counter()

        async def logged_send(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                headers = [*message.get("headers", []), (b"x-request-id", exchange.request_id.encode())]
                message = {**message, "headers": headers}
            await send(message)

        try:
            if _is_mcp(scope):
                await self._guard(scope, receive, logged_send)
            else:
                await self._inner(scope, receive, logged_send)
        finally:
            _log_exchange(scope, exchange, status, time.perf_counter() - started)

    def _watch_lifespan_receive(self, receive: Receive) -> Receive:
        async def watched() -> Message:
            message = await receive()
            if message["type"] == "lifespan.shutdown":
                self.lifecycle.draining = True
            return message

        return watched

    def _watch_lifespan_send(self, send: Send) -> Send:
        async def watched(message: Message) -> None:
            if message["type"] == "lifespan.startup.complete":
                self.lifecycle.started = True
            await send(message)

        return watched


def _is_mcp(scope: Scope) -> bool:
    return str(scope.get("path", "")).rstrip("/") == MCP_PATH


def _loggable_path(scope: Scope) -> str:
    """The path, never the query string; any path but ours is summarised, as it could hold anything."""
    path = str(scope.get("path", ""))
    return path if path in KNOWN_PATHS or _is_mcp(scope) else "(other)"


def _log_exchange(scope: Scope, exchange: Exchange, status: int, seconds: float) -> None:
    if not access_log.isEnabledFor(logging.INFO):
        return
    client = scope.get("client")
    record: dict[str, Any] = {
        "ts": datetime.now(UTC).isoformat(timespec="milliseconds"),
        "event": "http_request",
        "request_id": exchange.request_id,
        "method": scope.get("method"),
        "path": _loggable_path(scope),
        "status": status,
        "duration_ms": round(seconds * 1000, 2),
        "client": client[0] if client else None,
    }
    if exchange.rpc_method is not None:
        record["rpc_method"] = exchange.rpc_method
    if exchange.tool is not None:
        record["tool"] = exchange.tool
    if _is_mcp(scope):
        record["auth"] = exchange.auth
    if exchange.tenant is not None:
        record["tenant"] = exchange.tenant
    if exchange.rejected is not None:
        record["rejected"] = exchange.rejected
    if exchange.query_ignored:
        record["query_string_ignored"] = True
    access_log.info(json.dumps(record, separators=(",", ":"), ensure_ascii=False))


# --- readiness --------------------------------------------------------------------------------


class InstanceProbe:
    """Whether the OpenProject instance answers at all, asked without credentials and remembered briefly.

    Any HTTP answer below 500 counts as reachable: an instance that wants a login answers 401,
    which still proves the network path and the server are up.
    """

    def __init__(self, base_url: str, *, timeout_seconds: float = 5.0, remember_seconds: float = 10.0) -> None:
        self._url = f"{base_url.rstrip('/')}/api/v3"
        self._timeout = timeout_seconds
        self._remember = remember_seconds
        self._last: tuple[float, bool] | None = None
        self._lock = asyncio.Lock()

    async def reachable(self) -> bool:
        async with self._lock:  # one probe at a time, however often the balancer asks
            now = time.monotonic()
            if self._last is not None and now - self._last[0] < self._remember:
                return self._last[1]
            result = await self._probe()
            self._last = (time.monotonic(), result)
            return result

    async def _probe(self) -> bool:
        timeout = aiohttp.ClientTimeout(total=self._timeout)
        try:
            async with (
                aiohttp.ClientSession(timeout=timeout) as session,
                session.get(self._url, allow_redirects=False) as response,
            ):
                return response.status < 500
        except (aiohttp.ClientError, TimeoutError, OSError):
            return False


def _health_routes(lifecycle: Lifecycle, probe: InstanceProbe | None) -> list[Route]:
    async def healthz(request: Request) -> Response:
        return JSONResponse({"status": "ok"})

    async def readyz(request: Request) -> Response:
        checks: dict[str, str] = {"configuration": "ok"}
        if probe is not None:
            checks["instance"] = "ok" if await probe.reachable() else "unreachable"
        if lifecycle.draining:
            status = "draining"
        elif not lifecycle.started:
            status = "starting"
        elif any(value != "ok" for value in checks.values()):
            status = "unavailable"
        else:
            status = "ready"
        return JSONResponse({"status": status, "checks": checks}, status_code=200 if status == "ready" else 503)

    return [Route("/healthz", healthz, methods=["GET"]), Route("/readyz", readyz, methods=["GET"])]


def build_http_app(
    server: Server[Any],
    options: HttpOptions,
    *,
    credentials_required: bool,
    instance: str,
    instance_url: str | None = None,
) -> RemoteApp:
    """The remote-mode ASGI app for ``server``. Build a fresh ``server`` for every app: each runs once.

    ``credentials_required`` is false only where a request may go without its own token (the
    operator's single-tenant mode, or in-memory data). ``instance`` names the data source in the
    tenant fingerprint of the access log; ``instance_url`` is probed by ``/readyz`` when the
    options ask for it.
    """
    lifecycle = Lifecycle()
    probe = InstanceProbe(instance_url) if options.ready_checks_instance and instance_url else None
    sdk_app = server.streamable_http_app(
        streamable_http_path=MCP_PATH,
        json_response=True,
        stateless_http=True,
        max_request_body_size=options.max_body_bytes,
        transport_security=options.transport_security(),
        host=options.host,
        custom_starlette_routes=_health_routes(lifecycle, probe),
    )
    policy = GuardPolicy(
        credentials_required=credentials_required,
        instance=instance,
        max_body_bytes=options.max_body_bytes,
        request_timeout_seconds=options.request_timeout_seconds,
        allowed_origins=options.origin_allowlist(),
    )
    return RemoteApp(sdk_app, McpGuard(sdk_app, policy, lifecycle), lifecycle)


# --- running it -------------------------------------------------------------------------------


class DrainingServer(uvicorn.Server):
    """uvicorn, with a shutdown that says what it is waiting for and ends the process normally.

    On SIGTERM or SIGINT it stops accepting connections, lets the requests in flight finish for
    up to ``timeout_graceful_shutdown`` seconds, cancels what is left, then stops. A second
    SIGINT forces the exit. Unlike uvicorn's own handler, the signal is not raised again
    afterwards, so a drained shutdown exits with status 0.
    """

    def __init__(self, config: uvicorn.Config, app: RemoteApp, *, handle_signals: bool) -> None:
        super().__init__(config)
        self._remote = app
        self._handle_signals = handle_signals

    def request_shutdown(self) -> None:
        """What SIGTERM does: stop accepting, drain, stop."""
        if not self._remote.lifecycle.draining:
            self._remote.lifecycle.draining = True
            log.info(
                "shutting down: %d request(s) in flight get up to %g s to finish",
                self._remote.lifecycle.in_flight,
                self.config.timeout_graceful_shutdown or 0,
            )
        self.should_exit = True

    @contextlib.contextmanager
    def capture_signals(self) -> Generator[None, None, None]:
        if not self._handle_signals:
            yield
            return
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, self._on_signal, sig)
        try:
            yield
        finally:
            for sig in (signal.SIGTERM, signal.SIGINT):
                loop.remove_signal_handler(sig)

    def _on_signal(self, sig: int) -> None:
        if self.should_exit and sig == signal.SIGINT:
            self.force_exit = True
            return
        log.info("received %s", signal.Signals(sig).name)
        self.request_shutdown()


def make_server(app: RemoteApp, options: HttpOptions, *, handle_signals: bool = False) -> DrainingServer:
    # uvicorn's access line holds the raw request target, query string included, and is written
    # whenever that logger has a handler; ours replaces it, so it is switched off for good.
    logging.getLogger("uvicorn.access").disabled = True
    config = uvicorn.Config(
        app,
        host=options.host,
        port=options.port,
        log_config=None,  # keep the process's logging as configured; uvicorn adds nothing
        access_log=False,
        # Annotated ``int | None``, but only ever handed to ``asyncio.wait_for``, which takes any float.
        timeout_graceful_shutdown=max(options.shutdown_grace_seconds, 0.001),  # type: ignore[arg-type]
        server_header=False,
        lifespan="on",
        ws="none",
    )
    return DrainingServer(config, app, handle_signals=handle_signals)


def install_access_log_handler(stream: TextIO | None = None) -> None:
    """Access lines are bare JSON objects on stderr, one per line, ready for a log shipper."""
    if access_log.handlers:
        return
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(logging.Formatter("%(message)s"))
    access_log.addHandler(handler)
    access_log.propagate = False


async def serve_http(app: RemoteApp, options: HttpOptions, *, sockets: list[socket.socket] | None = None) -> None:
    """Serve until SIGTERM/SIGINT, then drain (the entry point's runner)."""
    install_access_log_handler()
    if not logging.getLogger().isEnabledFor(logging.DEBUG):
        # The SDK notes every stateless exchange at INFO; the access log already has one line per request.
        logging.getLogger("mcp.server.streamable_http").setLevel(logging.WARNING)
    server = make_server(app, options, handle_signals=True)
    log.info(
        "serving MCP over streamable HTTP at http://%s:%d%s (stateless, JSON responses)",
        options.host,
        options.port,
        MCP_PATH,
    )
    await server.serve(sockets=sockets)
