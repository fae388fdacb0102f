"""Liveness and readiness: answered without credentials, and never waiting on a tool call."""

from __future__ import annotations

import asyncio
import ssl
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from urllib.parse import urlsplit, urlunsplit

import aiohttp
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route


@dataclass(slots=True)
class Lifecycle:
    """Where the server is in its life, for ``/readyz``, the in-flight cap and the shutdown log."""

    started: bool = False
    draining: bool = False
    in_flight: int = 0


def without_credentials(url: str) -> str:
    """``url`` without any ``user:password@`` part: the probe proves reachability, never identity."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    if ":" in host:
        host = f"[{host}]"
    netloc = f"{host}:{parts.port}" if parts.port else host
    return urlunsplit((parts.scheme, netloc, parts.path, "", ""))


@dataclass(frozen=True, slots=True)
class InstanceRoute:
    """How requests reach the instance: the proxy chosen for its address (``None``: direct) and the
    TLS context trusting the operator's CA bundle besides the system's (``None``: the system's)."""

    proxy: str | None = None
    tls: ssl.SSLContext | None = None


class InstanceProbe:
    """Whether the OpenProject instance answers at all, asked without credentials and remembered briefly.

    Any HTTP answer below 500 counts as reachable: an instance that wants a login answers 401,
    which still proves the network path and the server are up.
    """

    def __init__(
        self,
        base_url: str,
        *,
        timeout_seconds: float = 5.0,
        remember_seconds: float = 10.0,
        route: InstanceRoute | None = None,
    ) -> None:
        self._url = f"{without_credentials(base_url).rstrip('/')}/api/v3"
        self._route = route if route is not None else InstanceRoute()
        self._timeout = timeout_seconds
        self._remember = remember_seconds
        self._last: tuple[float, bool] | None = None
        self._lock = asyncio.Lock()

    @property
    def url(self) -> str:
        return self._url

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
        route = self._route
        try:
            # No auth and no cookies: nothing that identifies a user. The way to the instance is the
            # one tool calls take (the operator's proxy and trusted certificates), nothing else
            # from the environment.
            async with (
                aiohttp.ClientSession(
                    timeout=timeout,
                    trust_env=False,
                    cookie_jar=aiohttp.DummyCookieJar(),
                    connector=aiohttp.TCPConnector(ssl=route.tls if route.tls is not None else True),
                ) as session,
                session.get(self._url, allow_redirects=False, proxy=route.proxy) as response,
            ):
                return response.status < 500
        except (aiohttp.ClientError, TimeoutError, OSError):
            return False


SharedStateCheck = Callable[[], Awaitable[bool]]
"""Whether the store the replicas share answers now."""

SHARED_STATE_DOWN = "unreachable: serving without the shared cache"


def health_routes(
    lifecycle: Lifecycle, probe: InstanceProbe | None, shared_state: SharedStateCheck | None = None
) -> list[Route]:
    """``shared_state``, where replicas share a store, adds a ``sharedState`` check. A store that
    does not answer makes the replica ``degraded`` but still ready (``200``): it serves every call,
    only without the shared cache, and taking every replica out of the balancer would be worse."""

    async def healthz(request: Request) -> Response:
        return JSONResponse({"status": "ok"})

    async def readyz(request: Request) -> Response:
        checks: dict[str, str] = {"configuration": "ok"}
        if probe is not None:
            checks["instance"] = "ok" if await probe.reachable() else "unreachable"
        if shared_state is not None:
            checks["sharedState"] = "ok" if await shared_state() else SHARED_STATE_DOWN
        if lifecycle.draining:
            status = "draining"
        elif not lifecycle.started:
            status = "starting"
        elif any(value != "ok" for name, value in checks.items() if name != "sharedState"):
            status = "unavailable"
        elif checks.get("sharedState", "ok") != "ok":
            status = "degraded"
        else:
            status = "ready"
        ready = status in ("ready", "degraded")
        return JSONResponse({"status": status, "checks": checks}, status_code=200 if ready else 503)

    return [Route("/healthz", healthz, methods=["GET"]), Route("/readyz", readyz, methods=["GET"])]
