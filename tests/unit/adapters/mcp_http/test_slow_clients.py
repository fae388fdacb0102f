"""Slow, idle and greedy clients on a real loopback socket: each is cut off by its own bound."""

from __future__ import annotations

import asyncio
import errno
import json
import logging
import os
import re
import resource
import sys
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress

import anyio
import httpx2
import pytest
from aiohttp import web
from aiohttp.test_utils import TestServer

from openproject_mcp.adapters.mcp.catalog import TOOLS
from openproject_mcp.adapters.mcp.hosting.server import AcceptErrorLog
from openproject_mcp.config import HttpSettings
from tests.unit.adapters.mcp_http.serving import SlowTool, demo_app, post, serving, tool_call

STATUSES = tool_call("openproject_list_statuses")
HOST = "127.0.0.1"


@asynccontextmanager
async def raw_connection(url: str) -> AsyncIterator[tuple[asyncio.StreamReader, asyncio.StreamWriter]]:
    port = int(url.rsplit(":", 1)[1])
    reader, writer = await asyncio.open_connection(HOST, port)
    try:
        yield reader, writer
    finally:
        writer.close()
        with suppress(OSError):
            await writer.wait_closed()


async def closed_within(reader: asyncio.StreamReader, seconds: float) -> tuple[float, bytes]:
    """How long until the server closed the connection, and what it said before closing.

    A server that closes while the client is still sending resets the connection, and the reset
    can discard what it said: then what was said is ``b"(reset)"``.
    """
    began = time.monotonic()
    received = b""
    with anyio.fail_after(seconds):
        try:
            while chunk := await reader.read(4096):
                received += chunk
        except ConnectionResetError:
            received = received or b"(reset)"
    return time.monotonic() - began, received


async def trickle(writer: asyncio.StreamWriter, data: bytes, every: float) -> None:
    """``data`` one byte at a time, until it is all sent or the server hangs up."""
    for index in range(len(data)):
        try:
            writer.write(data[index : index + 1])
            await writer.drain()
        except (ConnectionError, OSError):
            return
        await asyncio.sleep(every)


def headers_for(body: bytes) -> bytes:
    return (
        b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer t\r\nContent-Type: application/json\r\n"
        b"Accept: application/json, text/event-stream\r\nContent-Length: " + str(len(body)).encode() + b"\r\n\r\n"
    )


async def test_slow_headers_are_cut_off_at_the_header_timeout() -> None:
    options = HttpSettings(header_timeout_seconds=1.0)
    async with serving(demo_app(options=options), options) as running, raw_connection(running.url) as (reader, writer):
        sender = asyncio.create_task(trickle(writer, headers_for(b"{}") + b"{}", every=0.2))
        took, said = await closed_within(reader, 8)
        sender.cancel()
    assert took < 4, f"a client sending a byte every 0.2 s kept its connection for {took:.1f} s"
    assert said.startswith(b"HTTP/1.1 408") or said == b"(reset)"


async def test_an_idle_connection_is_closed_at_the_header_timeout() -> None:
    options = HttpSettings(header_timeout_seconds=1.0)
    async with serving(demo_app(options=options), options) as running, raw_connection(running.url) as (reader, _):
        took, said = await closed_within(reader, 8)
    assert took < 4 and said == b""


async def test_a_slow_body_is_cut_off_at_the_body_timeout() -> None:
    options = HttpSettings(body_timeout_seconds=1.0)
    body = json.dumps(STATUSES).encode()
    async with serving(demo_app(options=options), options) as running, raw_connection(running.url) as (reader, writer):
        writer.write(headers_for(body) + body[:5])
        await writer.drain()
        await trickle(writer, body[5:10], every=0.1)  # a little more, then the client stalls
        took, said = await closed_within(reader, 8)
    assert took < 4
    assert said.startswith(b"HTTP/1.1 408")
    assert b"did not arrive within 1 s" in said


async def test_the_request_deadline_counts_from_the_first_byte() -> None:
    # Headers and body each stay far within their own timeouts; the time the headers took is taken
    # from the request's deadline. What the body was left to arrive in is what the 408 names: with
    # a deadline counted from the end of the headers it would be the whole 4 s (or the body's 30 s).
    deadline, head_start = 4.0, 1.0
    options = HttpSettings(request_timeout_seconds=deadline, header_timeout_seconds=30, body_timeout_seconds=30)
    body = json.dumps(STATUSES).encode()
    head = headers_for(body)
    async with serving(demo_app(options=options), options) as running, raw_connection(running.url) as (reader, writer):
        writer.write(head[:1])
        await writer.drain()
        await asyncio.sleep(head_start)  # never returns early: the first byte is at least this old
        writer.write(head[1:] + body[:5])  # the rest of the headers at once, then the body stalls
        await writer.drain()
        _, said = await closed_within(reader, 30)
    assert said.startswith(b"HTTP/1.1 408"), said[:200]
    left = re.search(rb"did not arrive within ([0-9.e-]+) s", said)
    assert left is not None, said[-300:]
    assert 0 <= float(left.group(1)) <= deadline - head_start / 2, f"the body was left {left.group(1)!r} s"


async def test_idle_connections_beyond_the_cap_make_room_and_health_still_answers() -> None:
    options = HttpSettings(max_connections=16, header_timeout_seconds=60)
    async with serving(demo_app(options=options), options) as running:
        idle = [await asyncio.open_connection(HOST, int(running.url.rsplit(":", 1)[1])) for _ in range(16)]
        try:
            async with httpx2.AsyncClient(timeout=5) as http:
                health = await http.get(f"{running.url}/healthz")
            oldest_reader = idle[0][0]
            _, said = await closed_within(oldest_reader, 5)
        finally:
            for _, writer in idle:
                writer.close()
    assert health.status_code == 200
    assert said == b"", "the oldest idle connection was closed to make room"
    assert running.server.book.evicted >= 1


async def test_a_new_connection_beyond_the_cap_gets_a_fast_503_when_every_connection_is_busy() -> None:
    slow = SlowTool()
    options = HttpSettings(max_connections=16)
    app = demo_app(options=options, tools=(*TOOLS, slow.spec()))
    async with serving(app, options) as running:
        clients = [httpx2.AsyncClient(timeout=20) for _ in range(16)]
        try:
            calls = [
                asyncio.create_task(post(c, running.mcp_url, tool_call("test_sleep", {"seconds": 1.5}, n), token="t"))
                for n, c in enumerate(clients)
            ]
            await slow.wait_started(16)
            async with raw_connection(running.url) as (reader, _):
                _, said = await closed_within(reader, 5)
            answers = await asyncio.gather(*calls)
        finally:
            for client in clients:
                await client.aclose()
    assert said.startswith(b"HTTP/1.1 503")
    assert b"retry-after: 1" in said.lower()
    assert [a.status_code for a in answers] == [200] * 16


async def test_requests_beyond_the_in_flight_cap_get_503_with_retry_after_and_health_answers() -> None:
    slow = SlowTool()
    options = HttpSettings(max_in_flight=2)
    app = demo_app(options=options, tools=(*TOOLS, slow.spec()))
    async with serving(app, options) as running, httpx2.AsyncClient(timeout=20) as http:
        calls = [  # two callers, each within its own share: the process's cap is what is full
            asyncio.create_task(
                post(http, running.mcp_url, tool_call("test_sleep", {"seconds": 1.5}, n), token=f"t{n}")
            )
            for n in range(2)
        ]
        await slow.wait_started(2)
        refused = await post(http, running.mcp_url, STATUSES, token="t2")
        health = await http.get(f"{running.url}/healthz")
        answers = await asyncio.gather(*calls)
        after = await post(http, running.mcp_url, STATUSES, token="t")
    assert refused.status_code == 503
    assert refused.headers["retry-after"] == "1"
    assert "answering 2 requests already" in refused.json()["error"]["message"]
    assert health.status_code == 200
    assert [a.status_code for a in answers] == [200, 200]
    assert after.status_code == 200


async def test_clients_still_sending_their_body_do_not_take_in_flight_slots() -> None:
    options = HttpSettings(max_in_flight=1, body_timeout_seconds=30)
    body = json.dumps(STATUSES).encode()
    async with serving(demo_app(options=options), options) as running, httpx2.AsyncClient(timeout=10) as http:
        stalled = [await asyncio.open_connection(HOST, int(running.url.rsplit(":", 1)[1])) for _ in range(3)]
        try:
            for _, writer in stalled:
                writer.write(headers_for(body) + body[:5])  # then nothing more
                await writer.drain()
            await asyncio.sleep(0.3)
            answer = await post(http, running.mcp_url, STATUSES, token="t")
        finally:
            for _, writer in stalled:
                writer.close()
    assert answer.status_code == 200


async def test_each_caller_has_its_own_rate_limit() -> None:
    options = HttpSettings(rate_limit_per_minute=60, rate_limit_burst=3)
    async with serving(demo_app(options=options), options) as running, httpx2.AsyncClient() as http:
        alice = [await post(http, running.mcp_url, STATUSES, token="alice") for _ in range(4)]
        bob = await post(http, running.mcp_url, STATUSES, token="bob")
    assert [r.status_code for r in alice] == [200, 200, 200, 429]
    limited = alice[-1]
    assert 1 <= int(limited.headers["retry-after"]) <= 2
    assert "Too many requests" in limited.json()["error"]["message"]
    assert bob.status_code == 200


async def test_a_rate_limit_of_zero_turns_the_limit_off() -> None:
    options = HttpSettings(rate_limit_per_minute=0, rate_limit_burst=1)
    async with serving(demo_app(options=options), options) as running, httpx2.AsyncClient() as http:
        answers = [await post(http, running.mcp_url, STATUSES, token="alice") for _ in range(5)]
    assert [r.status_code for r in answers] == [200] * 5


TOKEN_LIKE = "9f2c" * 16


@pytest.mark.parametrize(
    ("sent", "kept"),
    [
        ("abc-123", True),
        ("0f8e2a4c-9b1d-4c3e-8a7f-112233445566", True),
        ("5d41402abc4b2a76b9719d911017c592", True),  # nginx's $request_id: 32 hex digits
        (TOKEN_LIKE, False),
        (f"req-{TOKEN_LIKE}", False),
        ("caller-own-token", False),  # the caller's own token, sent as a request id
    ],
)
async def test_a_request_id_that_looks_like_a_token_is_replaced(
    sent: str, kept: bool, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="openproject_mcp.http.access")
    async with serving(demo_app()) as running, httpx2.AsyncClient() as http:
        response = await post(http, running.mcp_url, STATUSES, token="caller-own-token", **{"X-Request-Id": sent})
    echoed = response.headers["x-request-id"]
    assert (echoed == sent) is kept
    if not kept:
        assert sent not in caplog.text and len(echoed) == 16


async def test_the_readiness_probe_sends_no_credential_even_from_the_base_url() -> None:
    seen: list[dict[str, str]] = []

    async def api_root(request: web.Request) -> web.Response:
        seen.append(dict(request.headers))
        return web.json_response({"message": "login required"}, status=401)

    instance = web.Application()
    instance.router.add_get("/api/v3", api_root)
    options = HttpSettings(ready_checks_instance=True)
    async with TestServer(instance, host=HOST) as upstream:
        url = f"http://alice:S3cretPW@{HOST}:{upstream.port}/"
        async with serving(demo_app(options=options, instance_url=url), options) as running, httpx2.AsyncClient() as h:
            ready = await h.get(f"{running.url}/readyz")
    assert ready.status_code == 200
    assert len(seen) == 1
    assert not {"authorization", "cookie", "proxy-authorization"} & {k.lower() for k in seen[0]}


def test_running_out_of_descriptors_is_logged_once_per_interval(caplog: pytest.LogCaptureFixture) -> None:
    now = [0.0]
    errors = AcceptErrorLog(30.0, clock=lambda: now[0])
    exhausted = OSError(errno.EMFILE, "Too many open files")
    with caplog.at_level(logging.DEBUG):
        for _ in range(1000):
            errors.report(exhausted)
        now[0] = 31.0
        errors.report(exhausted)
    lines = [r for r in caplog.records if "cannot accept connections" in r.getMessage()]
    assert len(lines) == 2
    assert "999 more time(s)" in lines[1].getMessage()
    assert all(r.exc_info is None for r in caplog.records), "no traceback"


CLIENT = """
import socket, sys, time
port = int(sys.argv[1])
sys.stdin.readline()  # until the server's descriptors are short
idle = [socket.create_connection(("127.0.0.1", port)) for _ in range(30)]
time.sleep(0.5)
probe = socket.create_connection(("127.0.0.1", port), timeout=10)
probe.sendall(b"GET /healthz HTTP/1.1\\r\\nHost: 127.0.0.1\\r\\nConnection: close\\r\\n\\r\\n")
answer = b""
while chunk := probe.recv(4096):
    answer += chunk
print(answer.split(b"\\r\\n", 1)[0].decode())
"""


async def test_out_of_descriptors_the_server_closes_idle_connections_and_logs_it_once(
    caplog: pytest.LogCaptureFixture,
) -> None:
    # The connection cap is computed from the limit at start; lowering the limit afterwards makes
    # accept() itself fail, the case the cap normally prevents. The client runs in its own
    # process, so only the server's descriptors are short.
    caplog.set_level(logging.INFO, logger="openproject_mcp.http")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    options = HttpSettings(header_timeout_seconds=60)
    async with serving(demo_app(options=options), options) as running:
        port = running.url.rsplit(":", 1)[1]
        client = await asyncio.create_subprocess_exec(
            sys.executable, "-c", CLIENT, port, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE
        )
        try:
            in_use = len(os.listdir("/proc/self/fd"))
            resource.setrlimit(resource.RLIMIT_NOFILE, (in_use + 8, hard))
            with anyio.fail_after(30):
                status_line, _ = await client.communicate(b"go\n")
        finally:
            resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    assert status_line.decode().strip() == "HTTP/1.1 200 OK"
    reports = [r for r in caplog.records if "cannot accept connections" in r.getMessage()]
    assert len(reports) == 1
    assert all(r.exc_info is None for r in caplog.records if r.name.startswith("openproject_mcp"))
    assert running.server.book.evicted >= 1
