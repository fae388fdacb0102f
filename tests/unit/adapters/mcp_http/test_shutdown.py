"""Graceful shutdown: stop accepting, let the calls in flight finish, but only within the grace period."""

from __future__ import annotations

import asyncio
import time

import anyio
import httpx2

from openproject_mcp.adapters.mcp.catalog import TOOLS
from openproject_mcp.config import HttpSettings
from tests.unit.adapters.mcp_http.serving import Running, SlowTool, demo_app, post, serving, tool_call


async def wait_until_closed(running: Running) -> None:
    """Until a new connection is refused: the listening socket is gone."""
    with anyio.fail_after(10):
        while True:
            try:
                async with httpx2.AsyncClient() as fresh:
                    await fresh.get(f"{running.url}/healthz")
            except httpx2.ConnectError:
                return
            await asyncio.sleep(0.02)


async def test_calls_in_flight_finish_after_shutdown_is_requested_and_new_ones_are_refused() -> None:
    slow = SlowTool()
    options = HttpSettings(shutdown_grace_seconds=10)
    app = demo_app(options=options, tools=(*TOOLS, slow.spec()))
    async with serving(app, options) as running, httpx2.AsyncClient(timeout=20) as http:
        calls = [
            asyncio.create_task(post(http, running.mcp_url, tool_call("test_sleep", {"seconds": 1.0}, n), token="t"))
            for n in range(3)
        ]
        await slow.wait_started(3)
        assert running.app.lifecycle.in_flight == 3
        running.server.request_shutdown()
        assert running.app.lifecycle.draining
        await wait_until_closed(running)
        answers = await asyncio.gather(*calls)
        with anyio.fail_after(10):
            await running.task
    assert [a.status_code for a in answers] == [200, 200, 200]
    assert all(a.json()["result"]["structuredContent"] == {"seconds": 1.0} for a in answers)
    assert (slow.finished, slow.cancelled) == (3, 0)
    assert running.app.lifecycle.in_flight == 0


async def test_a_call_that_outlives_the_grace_period_is_cancelled_and_the_server_still_stops() -> None:
    slow = SlowTool()
    options = HttpSettings(shutdown_grace_seconds=0.5)
    app = demo_app(options=options, tools=(*TOOLS, slow.spec()))
    async with serving(app, options) as running, httpx2.AsyncClient(timeout=20) as http:
        call = asyncio.create_task(post(http, running.mcp_url, tool_call("test_sleep", {"seconds": 60}), token="t"))
        await slow.wait_started()
        began = time.monotonic()
        running.server.request_shutdown()
        with anyio.fail_after(10):
            await running.task
        stopped_after = time.monotonic() - began
        answer = await call
    assert stopped_after < 3.0, f"shutdown took {stopped_after:.1f} s with a 0.5 s grace period"
    assert (slow.finished, slow.cancelled) == (0, 1)
    assert answer.status_code == 503
    assert answer.headers["retry-after"] == "1"
    assert "shutting down" in answer.json()["error"]["message"]
