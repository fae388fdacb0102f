"""The remote-mode ASGI application: access log → (guard → SDK for ``/mcp``, else the health routes)."""

from __future__ import annotations

import os
import time
from collections.abc import Mapping
from typing import Any

from mcp.server import Server
from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from openproject_mcp.adapters.mcp.hosting.access import (
    MCP_PATH,
    acceptable_request_id,
    exchange_of,
    is_mcp,
    log_exchange,
)
from openproject_mcp.adapters.mcp.hosting.guard import CrossOrigin, GuardPolicy, McpGuard
from openproject_mcp.adapters.mcp.hosting.health import (
    InstanceProbe,
    InstanceRoute,
    Lifecycle,
    SharedStateCheck,
    health_routes,
)
from openproject_mcp.adapters.mcp.hosting.limits import RateLimiter
from openproject_mcp.adapters.mcp.hosting.options import (
    HttpOptions,
    check_http_options,
    in_flight_per_caller,
    origin_allowlist,
    transport_security,
)
from openproject_mcp.adapters.mcp.hosting.signin import SignInServer
from openproject_mcp.adapters.mcp.server import credential_from_headers


class RemoteApp:
    """The ASGI application of remote mode: access log → (guard → SDK for ``/mcp``, else routes)."""

    def __init__(self, inner: ASGIApp, guard: ASGIApp, lifecycle: Lifecycle) -> None:
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
        headers = Headers(scope=scope)
        incoming_id = headers.get("x-request-id", "")
        if acceptable_request_id(incoming_id, credential_from_headers(headers)):
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
            if is_mcp(scope):
                # ``/mcp/``, ``/mcp//`` and ``/mcp%2f`` are served as ``/mcp`` itself. Left to the
                # router, they would be redirected to an absolute URL built from what this process
                # sees, plain http behind a TLS proxy, and a client would resend its token there.
                served = {**scope, "path": MCP_PATH, "raw_path": MCP_PATH.encode()}
                await self._guard(served, receive, logged_send)
            else:
                await self._inner(scope, receive, logged_send)
        finally:
            log_exchange(scope, exchange, status, time.perf_counter() - started)

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


def build_http_app(
    server: Server[Any],
    options: HttpOptions,
    *,
    credentials_required: bool,
    instance: str,
    instance_url: str | None = None,
    instance_route: InstanceRoute | None = None,
    signin: SignInServer | None = None,
    shared_state: SharedStateCheck | None = None,
    env: Mapping[str, str] | None = None,
) -> RemoteApp:
    """The remote-mode ASGI app for ``server``. Build a fresh ``server`` for every app: each runs once.

    ``credentials_required`` is false only where a request may go without its own token (the
    operator's single-tenant mode, or in-memory data). ``instance`` names the data source in the
    tenant fingerprint of the access log; ``instance_url`` is probed by ``/readyz`` when the
    options ask for it, through ``instance_route`` (the proxy and certificates tool calls use).
    With ``signin`` the server also signs users in with OpenProject (its routes, and its gate in
    front of the guard); header tokens keep working beside it.
    ``shared_state``, where replicas share a store, tells ``/readyz`` whether it answers.
    ``env`` (the process environment by default) holds the settings read here rather than in
    ``options``. A setting that could never match (an allowed host or origin in another form) or
    is out of range raises ``SettingError`` before anything listens.
    """
    check_http_options(options)
    per_caller = in_flight_per_caller(options, os.environ if env is None else env)
    lifecycle = Lifecycle()
    probe = (
        InstanceProbe(instance_url, route=instance_route) if options.ready_checks_instance and instance_url else None
    )
    sdk_app = server.streamable_http_app(
        streamable_http_path=MCP_PATH,
        json_response=True,
        stateless_http=True,
        max_request_body_size=options.max_body_bytes,
        transport_security=transport_security(options),
        host=options.host,
        custom_starlette_routes=[*health_routes(lifecycle, probe, shared_state), *(signin.routes() if signin else [])],
    )
    policy = GuardPolicy(
        credentials_required=credentials_required,
        instance=instance,
        max_body_bytes=options.max_body_bytes,
        request_timeout_seconds=options.request_timeout_seconds,
        body_timeout_seconds=options.body_timeout_seconds,
        max_in_flight=options.max_in_flight,
        max_in_flight_per_caller=per_caller,
        allowed_origins=origin_allowlist(options),
        sign_in_metadata_url=signin.site.metadata_url if signin else None,
    )
    limiter = RateLimiter(options.rate_limit_per_minute, options.rate_limit_burst)
    guard: ASGIApp = McpGuard(sdk_app, policy, lifecycle, limiter)
    endpoint = signin.gate(guard) if signin else guard
    if options.allowed_origins:  # CORS for those origins only (the loopback ones stay same-origin only)
        endpoint = CrossOrigin(endpoint, options.allowed_origins)
    return RemoteApp(sdk_app, endpoint, lifecycle)
