"""Remote mode under sustained load: tool calls per second and latency percentiles over HTTP.

The server runs as its own process (``openproject-mcp serve --http``) on a free loopback port, as
it would be deployed; the load generator and, for the second scenario, the fake OpenProject share
this process. Several tenants call at once, each with its own token, each through a few
concurrent workers that send 2026-07-28 requests (what the real MCP client sends) in a fixed
loop: the run is bounded by a number of calls, never by a clock. Every answer is checked to
belong to the tenant that asked.

1. ``demo data``: the embedded demo dataset; measures the transport, the guard and the tools.
2. ``fake OpenProject``: the OpenProject backend against the fake server, one organisation per
   token; each call costs one or more real HTTP requests upstream, searches several.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

import anyio
import httpx2

from tests.support.fake_openproject import FakeOpenProject
from tests.unit.adapters.mcp_http.serving import free_port, modern, modern_headers, tenant_dataset

TENANTS = 4
WORKERS_PER_TENANT = 6
CALLS_PER_WORKER = 40
WARMUP_CALLS_PER_TENANT = 10
RUN_LIMIT_SECONDS = 300.0

DEMO_CALLS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("openproject_list_projects", {}),
    ("openproject_get_work_package", {"workPackageId": 101}),
    ("openproject_list_statuses", {}),
    ("openproject_search_wiki_pages", {"query": "onbaording checklist"}),
    ("openproject_search_meetings", {"query": "budget aproval"}),
)
FAKE_CALLS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("openproject_list_projects", {}),
    ("openproject_get_work_package", {"workPackageId": 3}),
    ("openproject_list_work_packages", {"pageSize": 20}),
    ("openproject_list_work_package_activities", {"workPackageId": 2}),
    ("openproject_search_work_packages", {"query": "routine maintenance note"}),
)


@dataclass
class Tally:
    latencies: list[float] = field(default_factory=list)
    errors: int = 0
    misrouted: int = 0


@dataclass(frozen=True)
class Scenario:
    name: str
    calls: Sequence[tuple[str, dict[str, Any]]]
    markers: Mapping[str, str]  # token -> the text only that tenant's answers contain ("" to skip)


@asynccontextmanager
async def server_process(args: Sequence[str], env: Mapping[str, str]) -> AsyncIterator[str]:
    """``openproject-mcp serve --http`` on a free loopback port; yields its MCP URL, then SIGTERMs it."""
    port = free_port()
    base = {k: v for k, v in os.environ.items() if not k.startswith("OPENPROJECT_")}
    with tempfile.TemporaryFile() as log:
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "openproject_mcp",
            "serve",
            "--http",
            "--port",
            str(port),
            *args,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=log,
            env={**base, **env},
        )
        url = f"http://127.0.0.1:{port}"
        try:
            await wait_until_healthy(url, process)
            yield f"{url}/mcp"
        finally:
            if process.returncode is None:
                process.send_signal(signal.SIGTERM)
                with anyio.fail_after(30):
                    await process.wait()


async def wait_until_healthy(url: str, process: asyncio.subprocess.Process) -> None:
    with anyio.fail_after(30):
        async with httpx2.AsyncClient(timeout=2) as http:
            while True:
                if process.returncode is not None:
                    raise RuntimeError(f"the server exited with status {process.returncode} before it was ready")
                try:
                    if (await http.get(f"{url}/healthz")).status_code == 200:
                        return
                except httpx2.TransportError:
                    pass
                await asyncio.sleep(0.05)


async def one_call(
    http: httpx2.AsyncClient, url: str, token: str, marker: str, call: tuple[str, dict[str, Any]], tally: Tally
) -> None:
    tool, arguments = call
    message = modern(
        {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": tool, "arguments": arguments}}
    )
    headers = {
        "Authorization": f"Bearer {token}",
        "Accept": "application/json, text/event-stream",
        "Content-Type": "application/json",
        **modern_headers(message),
    }
    started = time.perf_counter()
    response = await http.post(url, content=json.dumps(message).encode(), headers=headers)
    tally.latencies.append(time.perf_counter() - started)
    if response.status_code != 200 or response.json().get("result", {}).get("isError", True):
        tally.errors += 1
    elif marker and marker not in response.text:
        tally.misrouted += 1


async def sequential(url: str, scenario: Scenario) -> tuple[Tally, float]:
    """One caller, one call at a time: latency without queueing (doubles as the warm-up)."""
    async with httpx2.AsyncClient(timeout=60) as http:
        tally = Tally()
        started = time.perf_counter()
        for token, marker in scenario.markers.items():
            for n in range(WARMUP_CALLS_PER_TENANT):
                await one_call(http, url, token, marker, scenario.calls[n % len(scenario.calls)], tally)
        return tally, time.perf_counter() - started


async def drive(url: str, scenario: Scenario) -> tuple[Tally, float]:
    """Every tenant's workers each make ``CALLS_PER_WORKER`` calls at once; returns the tally and seconds."""
    limits = httpx2.Limits(max_connections=TENANTS * WORKERS_PER_TENANT, max_keepalive_connections=64)
    async with httpx2.AsyncClient(timeout=60, limits=limits) as http:
        tally = Tally()

        async def worker(token: str, marker: str, offset: int) -> None:
            for n in range(CALLS_PER_WORKER):
                call = scenario.calls[(offset + n) % len(scenario.calls)]
                await one_call(http, url, token, marker, call, tally)

        started = time.perf_counter()
        with anyio.fail_after(RUN_LIMIT_SECONDS):
            async with anyio.create_task_group() as group:
                for token, marker in scenario.markers.items():
                    for offset in range(WORKERS_PER_TENANT):
                        group.start_soon(worker, token, marker, offset)
        return tally, time.perf_counter() - started


def percentile(values: Sequence[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def report(name: str, tally: Tally, seconds: float, upstream: int | None = None) -> None:
    calls = len(tally.latencies)
    ms = [value * 1000 for value in tally.latencies]
    print(
        f"  {name:<28} {calls:>4} calls in {seconds:5.1f} s: {calls / seconds:7.1f} calls/s  "
        f"p50 {statistics.median(ms):6.1f} ms  p95 {percentile(ms, 0.95):6.1f} ms  "
        f"p99 {percentile(ms, 0.99):6.1f} ms  max {max(ms):6.1f} ms  "
        f"errors {tally.errors}  misrouted {tally.misrouted}"
        + (f"  [{upstream / calls:.1f} upstream requests per call]" if upstream is not None else "")
    )


async def run() -> None:
    tokens = [f"bench-tenant-{n}" for n in range(TENANTS)]
    print(
        f"{TENANTS} tenants x {WORKERS_PER_TENANT} concurrent workers x {CALLS_PER_WORKER} calls "
        f"after {WARMUP_CALLS_PER_TENANT} sequential calls per tenant (the '1 caller' line); "
        "server in its own process on 127.0.0.1"
    )

    demo = Scenario("demo data", DEMO_CALLS, dict.fromkeys(tokens, ""))
    # The load is the point here: the per-caller rate limit is switched off, or it would be what is measured.
    unlimited = {"OPENPROJECT_LOG_LEVEL": "INFO", "OPENPROJECT_HTTP_RATE_LIMIT": "0"}
    async with server_process(["--demo"], unlimited) as url:
        alone, alone_seconds = await sequential(url, demo)
        tally, seconds = await drive(url, demo)
    report(f"{demo.name}, 1 caller", alone, alone_seconds)
    report(f"{demo.name}, loaded", tally, seconds)

    markers = {token: f"Tenant{chr(ord('A') + n)}corp" for n, token in enumerate(tokens)}
    datasets = {token: tenant_dataset(marker, 30) for token, marker in markers.items()}
    async with FakeOpenProject(datasets) as fake:
        env = {**unlimited, "OPENPROJECT_BASE_URL": fake.base_url}
        async with server_process([], env) as url:
            scenario = Scenario("fake OpenProject", FAKE_CALLS, markers)
            alone, alone_seconds = await sequential(url, scenario)
            stray = {request.token for request in fake.requests}
            fake.clear()
            tally, seconds = await drive(url, scenario)
            upstream = len(fake.requests)
            stray = (stray | {request.token for request in fake.requests}) - set(tokens)
    report(f"{scenario.name}, 1 caller", alone, alone_seconds)
    report(f"{scenario.name}, loaded", tally, seconds, upstream)
    if stray:
        print(f"  !! requests reached OpenProject with tokens no caller sent: {len(stray)}")


def main() -> None:
    asyncio.run(run())


if __name__ == "__main__":
    main()
