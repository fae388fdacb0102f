"""Remote mode on a real loopback socket, for tests: start the app, talk to it, drain it."""

from __future__ import annotations

import asyncio
import json
import logging
import socket
from collections.abc import AsyncIterator, Iterator, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field, replace
from typing import Any

import anyio
import httpx2
import msgspec

from openproject_mcp.adapters.fixture import Dataset, parse_dataset
from openproject_mcp.adapters.mcp.catalog import TOOLS, ToolSpec, UseCaseScope
from openproject_mcp.adapters.mcp.hosting import DrainingServer, RemoteApp, build_http_app, make_server
from openproject_mcp.adapters.mcp.server import ScopeFactory, build_server
from openproject_mcp.composition import Application
from openproject_mcp.config import HttpSettings, Settings
from tests.support.datasets import many_work_packages

ACCEPT = "application/json, text/event-stream"
MODERN = "2026-07-28"
DEMO = Settings(backend="demo")


def quiet_client_loggers() -> Iterator[None]:
    """For a fixture: keep the test's HTTP client from logging its request lines while it runs.

    Those lines hold full URLs, and remote-mode tests put tokens into URLs on purpose (to show the
    server ignores them); the server's own output is what the tests inspect. The level is set on
    the loggers themselves: ``caplog.set_level(..., logger=...)`` would also raise the capture
    handler's level for every other logger.
    """
    loggers = [logging.getLogger(name) for name in ("httpx2", "httpcore2")]
    saved = [logger.level for logger in loggers]
    for logger in loggers:
        logger.setLevel(logging.WARNING)
    try:
        yield
    finally:
        for logger, level in zip(loggers, saved, strict=True):
            logger.setLevel(level)


def loopback_socket() -> socket.socket:
    """A listening socket on a free loopback port: no port is guessed, so nothing can race for it."""
    # IPPROTO_TCP spelled out: asyncio turns Nagle off only on sockets that say they are TCP, and
    # without that every small response waits for a delayed ACK (about 40 ms on loopback).
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    sock.listen(128)
    sock.setblocking(False)
    return sock


async def until_healthy(http: httpx2.AsyncClient, url: str, *, seconds: float, pause: float = 0.05) -> None:
    """Wait for a server starting at ``url`` to answer ``/healthz`` with 200, at most ``seconds``."""
    with anyio.fail_after(seconds):
        while True:
            try:
                if (await http.get(f"{url}/healthz")).status_code == 200:
                    return
            except httpx2.TransportError:
                await asyncio.sleep(pause)


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@dataclass
class Running:
    """A remote-mode server listening on loopback."""

    url: str
    app: RemoteApp
    server: DrainingServer
    task: asyncio.Task[None]

    @property
    def mcp_url(self) -> str:
        return f"{self.url}/mcp"


@asynccontextmanager
async def serving(app: RemoteApp, options: HttpSettings | None = None) -> AsyncIterator[Running]:
    """Serve ``app`` on a free loopback port until the block ends, then shut it down and wait."""
    sock = loopback_socket()
    port = sock.getsockname()[1]
    server = make_server(app, replace(options or HttpSettings(), port=port))
    task = asyncio.create_task(server.serve(sockets=[sock]))
    try:
        with anyio.fail_after(10):
            while not server.started:
                if task.done():
                    task.result()  # raises what made the server fail to start
                await asyncio.sleep(0.01)
        yield Running(f"http://127.0.0.1:{port}", app, server, task)
    finally:
        server.request_shutdown()
        with anyio.fail_after(15):
            await task


@dataclass
class RecordingScopes:
    """A scope factory over the demo data that remembers which credential each call brought."""

    application: Application = field(default_factory=lambda: Application(DEMO))
    seen: list[str | None] = field(default_factory=list)

    @asynccontextmanager
    async def __call__(self, credential: str | None) -> AsyncIterator[UseCaseScope]:
        self.seen.append(credential)
        async with self.application.scope(credential) as scope:
            yield scope


def demo_app(
    scopes: ScopeFactory | None = None,
    *,
    options: HttpSettings | None = None,
    credentials_required: bool = True,
    tools: Sequence[ToolSpec] = TOOLS,
    instance_url: str | None = None,
    env: Mapping[str, str] | None = None,
) -> RemoteApp:
    """``env`` holds the settings the app reads itself (none by default, whatever the test's environment)."""
    server = build_server(scopes or RecordingScopes(), tools=tools)
    return build_http_app(
        server,
        options or HttpSettings(),
        credentials_required=credentials_required,
        instance="demo",
        instance_url=instance_url,
        env=env or {},
    )


def rpc(method: str, params: dict[str, Any] | None = None, request_id: int | str = 1) -> dict[str, Any]:
    message: dict[str, Any] = {"jsonrpc": "2.0", "id": request_id, "method": method}
    if params is not None:
        message["params"] = params
    return message


def tool_call(name: str, arguments: dict[str, Any] | None = None, request_id: int | str = 1) -> dict[str, Any]:
    return rpc("tools/call", {"name": name, "arguments": arguments or {}}, request_id)


def modern(message: dict[str, Any]) -> dict[str, Any]:
    """``message`` as a 2026-07-28 request: the per-request envelope travels in ``_meta``."""
    params = dict(message.get("params") or {})
    params["_meta"] = {
        "io.modelcontextprotocol/protocolVersion": MODERN,
        "io.modelcontextprotocol/clientInfo": {"name": "tests", "version": "0"},
        "io.modelcontextprotocol/clientCapabilities": {},
    }
    return {**message, "params": params}


def headers(token: str | None = None, *, style: str = "bearer", **extra: str) -> dict[str, str]:
    chosen = {"Accept": ACCEPT, "Content-Type": "application/json", **extra}
    if token is not None:
        if style == "bearer":
            chosen["Authorization"] = f"Bearer {token}"
        else:
            chosen["X-OpenProject-Api-Key"] = token
    return chosen


def modern_headers(message: dict[str, Any]) -> dict[str, str]:
    """The routing headers a 2026-07-28 client sends beside the body."""
    chosen = {"MCP-Protocol-Version": MODERN, "Mcp-Method": message["method"]}
    name = (message.get("params") or {}).get("name")
    if isinstance(name, str):
        chosen["Mcp-Name"] = name
    return chosen


async def post(
    client: httpx2.AsyncClient,
    url: str,
    message: Any,
    *,
    token: str | None = None,
    style: str = "bearer",
    **extra: str,
) -> httpx2.Response:
    body = message if isinstance(message, bytes) else json.dumps(message).encode()
    return await client.post(url, content=body, headers=headers(token, style=style, **extra))


async def post_modern(
    client: httpx2.AsyncClient, url: str, message: dict[str, Any], *, token: str | None = None
) -> httpx2.Response:
    enveloped = modern(message)
    return await client.post(url, json=enveloped, headers={**headers(token), **modern_headers(enveloped)})


class SlowArgs(msgspec.Struct, rename="camel", forbid_unknown_fields=True, kw_only=True):
    seconds: float


@dataclass(frozen=True)
class Slept:
    seconds: float


@dataclass
class SlowTool:
    """A test-only tool that sleeps: something to be in flight during a deadline or a shutdown."""

    started: int = 0
    finished: int = 0
    cancelled: int = 0
    _start: asyncio.Event = field(default_factory=asyncio.Event)

    async def wait_started(self, count: int = 1) -> None:
        with anyio.fail_after(10):
            while self.started < count:
                await self._start.wait()
                self._start.clear()

    async def handler(self, args: SlowArgs, scope: UseCaseScope, progress: Any) -> Slept:
        self.started += 1
        self._start.set()
        try:
            await asyncio.sleep(args.seconds)
        except asyncio.CancelledError:
            self.cancelled += 1
            raise
        self.finished += 1
        return Slept(args.seconds)

    def spec(self) -> ToolSpec:
        return ToolSpec("test_sleep", "Sleep", "Sleeps for a while (tests only).", SlowArgs, Slept, self.handler)


def tenant_dataset(marker: str, work_packages: int = 6) -> Dataset:
    """An organisation whose every visible text carries ``marker``, so an answer shows whose data it is.

    Every tenant has the same ids: a cache or memo keyed by id alone would hand one tenant's
    record to another, and the marker would show it.
    """
    document = many_work_packages(work_packages)
    document["instance"]["name"] = f"{marker} instance"
    for user in document["users"]:
        user["name"] = f"{user['name']} {marker}"
    document["projects"][0]["name"] = f"{marker} operations"
    document["projects"][0]["description"] = f"Everything at {marker}."
    for work_package in document["work_packages"]:
        number = work_package["id"]
        work_package["subject"] = f"{marker} routine maintenance task {number}"
        work_package["description"] = f"Check the usual {marker} things."
        for activity in work_package["activities"]:
            activity["comment"] = f"{marker} note on task {number}"
    return parse_dataset(json.dumps(document).encode(), f"tenant {marker}")
