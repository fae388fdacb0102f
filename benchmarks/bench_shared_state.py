"""Two replicas behind a round-robin proxy, with and without a shared store on Redis.

Everything runs on loopback: a ``redis-server`` of its own (free port, temporary directory), the
fake OpenProject (5 ms per request) and the load generator in this process, two server
processes (``openproject-mcp serve --http``), and a small proxy here that sends each request to
the next replica in turn, as a round-robin load balancer does.

1. ``one user, spread``: one user's searches (work packages, meetings, wiki), each repeated, every
   call landing on the other replica than the one before: the OpenProject requests it costs with
   the shared store and without. Without it, each replica reads the user's deep content, probes
   the instance and explores the wiki for itself.
2. ``50 clients``: 50 concurrent clients of another user (so the caches start cold), each making
   the same mix of searches: calls per second, latency, and OpenProject requests per call.
3. ``3 tenants x 50``: three tenants at once, 50 concurrent calls each, through the shared store:
   an answer holding another tenant's marker is a leak (the line must say 0).

The runs are bounded by a number of calls, never by a clock.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import statistics
import time
from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import AsyncExitStack, asynccontextmanager
from typing import Any

import aiohttp
import anyio
import httpx2
from aiohttp import web

from benchmarks.bench_http_load import percentile, server_process
from openproject_mcp.adapters.fixture import Dataset, parse_dataset
from tests.support.datasets import marked_organisation
from tests.support.fake_openproject import FakeOpenProject
from tests.support.redis_server import MISSING, redis_server_binary, running_redis
from tests.unit.adapters.mcp_http.serving import free_port, modern, modern_headers

LATENCY = 0.005
REPEATS = 6
CLIENTS = 50
CALLS_PER_CLIENT = 4
TENANT_CALLS = 50
RUN_LIMIT_SECONDS = 300.0
USER = "bench-user-token"
TENANTS = {"bench-alpha-token": "Alphacorp", "bench-bravo-token": "Bravocorp", "bench-charlie-token": "Charliecorp"}
SEARCHES: tuple[tuple[str, dict[str, Any]], ...] = (
    ("openproject_search_work_packages", {"query": "routine maintenance note"}),
    ("openproject_search_meetings", {"query": "status round figures"}),
    ("openproject_search_wiki_pages", {"query": "handbook"}),
)
LOAD_USER = "bench-load-token"  # a second user, so the loaded run starts with cold caches
ENV = {"OPENPROJECT_HTTP_RATE_LIMIT": "0", "OPENPROJECT_HTTP_MAX_IN_FLIGHT": "500", "OPENPROJECT_LOG_LEVEL": "WARNING"}


def organisation(marker: str) -> Dataset:
    return parse_dataset(json.dumps(marked_organisation(marker, work_packages=60, meetings=30)).encode(), marker)


@asynccontextmanager
async def round_robin(targets: Sequence[str]) -> AsyncIterator[str]:
    """A proxy on a free loopback port sending each request to the next of ``targets`` in turn."""
    turn = itertools.count()
    # Idle connections are dropped well before a replica's own idle timeout closes them under us.
    connector = aiohttp.TCPConnector(limit=200, keepalive_timeout=2.0)
    async with aiohttp.ClientSession(connector=connector) as session:

        async def forward(request: web.Request) -> web.Response:
            target = targets[next(turn) % len(targets)]
            headers = {
                name: value
                for name, value in request.headers.items()
                if name.lower() not in ("host", "content-length", "connection", "transfer-encoding")
            }
            async with session.request(
                request.method, f"{target}{request.path_qs}", data=await request.read(), headers=headers
            ) as answer:
                body = await answer.read()
                kept = {k: v for k, v in answer.headers.items() if k.lower() in ("content-type", "x-request-id")}
                return web.Response(status=answer.status, body=body, headers=kept)

        app = web.Application()
        app.router.add_route("*", "/{tail:.*}", forward)
        runner = web.AppRunner(app, access_log=None)
        await runner.setup()
        port = free_port()
        site = web.TCPSite(runner, "127.0.0.1", port)
        await site.start()
        try:
            yield f"http://127.0.0.1:{port}/mcp"
        finally:
            await runner.cleanup()


@asynccontextmanager
async def behind_proxy(fake: FakeOpenProject, redis_url: str | None) -> AsyncIterator[str]:
    env = {**ENV, "OPENPROJECT_BASE_URL": fake.base_url}
    if redis_url:
        env["OPENPROJECT_REDIS_URL"] = redis_url
    async with AsyncExitStack() as stack:
        urls = [await stack.enter_async_context(server_process([], env)) for _ in range(2)]
        yield await stack.enter_async_context(round_robin([url.removesuffix("/mcp") for url in urls]))


async def one_call(
    http: httpx2.AsyncClient, url: str, token: str, call: tuple[str, dict[str, Any]]
) -> tuple[float, httpx2.Response]:
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
    return time.perf_counter() - started, response


def failed(response: httpx2.Response) -> bool:
    return response.status_code != 200 or bool(response.json().get("result", {}).get("isError", True))


async def spread(fake: FakeOpenProject, url: str) -> tuple[int, int, int]:
    """One user's searches, each ``REPEATS`` times, one call at a time: (requests, first round, errors)."""
    fake.clear()
    errors = 0
    first_round = 0
    async with httpx2.AsyncClient(timeout=60) as http:
        for round_number in range(REPEATS):
            for call in SEARCHES:
                _, response = await one_call(http, url, USER, call)
                errors += failed(response)
            if round_number == 0:
                first_round = len(fake.requests)
    return len(fake.requests), first_round, errors


async def loaded(fake: FakeOpenProject, url: str) -> tuple[list[float], float, int, int]:
    """``CLIENTS`` concurrent clients of one user, starting cold: (latencies, seconds, requests upstream, errors)."""
    limits = httpx2.Limits(max_connections=CLIENTS, max_keepalive_connections=CLIENTS)
    latencies: list[float] = []
    errors = 0
    fake.clear()
    async with httpx2.AsyncClient(timeout=60, limits=limits) as http:

        async def client(offset: int) -> None:
            nonlocal errors
            for n in range(CALLS_PER_CLIENT):
                call = SEARCHES[(offset + n) % len(SEARCHES)]
                seconds, response = await one_call(http, url, LOAD_USER, call)
                latencies.append(seconds)
                errors += failed(response)

        started = time.perf_counter()
        with anyio.fail_after(RUN_LIMIT_SECONDS):
            async with anyio.create_task_group() as group:
                for offset in range(CLIENTS):
                    group.start_soon(client, offset)
        elapsed = time.perf_counter() - started
    return latencies, elapsed, len(fake.requests), errors


async def tenants_at_once(url: str) -> tuple[int, int, int]:
    """Three tenants, ``TENANT_CALLS`` concurrent calls each: (calls, leaks, errors)."""
    limits = httpx2.Limits(max_connections=200, max_keepalive_connections=200)
    markers = tuple(TENANTS.values())
    async with httpx2.AsyncClient(timeout=60, limits=limits) as http:

        async def one(token: str, n: int) -> tuple[str, httpx2.Response]:
            return token, (await one_call(http, url, token, SEARCHES[n % len(SEARCHES)]))[1]

        with anyio.fail_after(RUN_LIMIT_SECONDS):
            answers = await asyncio.gather(*(one(token, n) for n in range(TENANT_CALLS) for token in TENANTS))
    leaks = sum(1 for token, r in answers if any(m in r.text for m in markers if m != TENANTS[token]))
    errors = sum(1 for _, r in answers if failed(r))
    return len(answers), leaks, errors


def line(name: str, latencies: Sequence[float], seconds: float, upstream: int, errors: int) -> str:
    ms = [value * 1000 for value in latencies]
    return (
        f"  {name:<34} {len(ms)} calls in {seconds:5.1f} s: {len(ms) / seconds:6.1f} calls/s  "
        f"p50 {statistics.median(ms):6.1f} ms  p95 {percentile(ms, 0.95):6.1f} ms  "
        f"{upstream / len(ms):5.1f} OpenProject requests per call  errors {errors}"
    )


async def run() -> None:
    if redis_server_binary() is None:
        print(f"  skipped: {MISSING}")
        return
    datasets: Mapping[str, Dataset] = {USER: organisation("Usercorp"), LOAD_USER: organisation("Loadcorp")} | {
        token: organisation(marker) for token, marker in TENANTS.items()
    }
    print(
        f"2 replicas (serve --http) behind a round-robin proxy on 127.0.0.1; fake OpenProject with "
        f"{LATENCY * 1000:.0f} ms per request, 60 work packages, 30 meetings, 3 wiki pages per tenant"
    )
    results: dict[str, Any] = {}
    with running_redis() as redis_server:
        for label, redis_url in (("shared store (Redis)", redis_server.url), ("no shared store", None)):
            async with FakeOpenProject(datasets, latency=LATENCY) as fake, behind_proxy(fake, redis_url) as url:
                results[label] = (await spread(fake, url), await loaded(fake, url))
                if redis_url:
                    results["tenants"] = await tenants_at_once(url)

    calls = REPEATS * len(SEARCHES)
    print(f"\n  one user, {len(SEARCHES)} searches x {REPEATS}, alternating replicas ({calls} calls):")
    for label in ("shared store (Redis)", "no shared store"):
        (total, first, errors), _ = results[label]
        print(
            f"    {label:<22} {total:4d} OpenProject requests ({first} for the first round, "
            f"{(total - first) / (calls - len(SEARCHES)):.1f} per repeated call)  errors {errors}"
        )
    shared_total, unshared_total = results["shared store (Redis)"][0][0], results["no shared store"][0][0]
    print(f"    the shared store saves {1 - shared_total / unshared_total:.0%} of the requests to OpenProject")
    print(f"\n  {CLIENTS} concurrent clients of one user (caches cold at the start), {CALLS_PER_CLIENT} searches each:")
    for label in ("shared store (Redis)", "no shared store"):
        latencies, seconds, upstream, errors = results[label][1]
        print(line(label, latencies, seconds, upstream, errors))
    count, leaks, errors = results["tenants"]
    print(
        f"\n  {len(TENANTS)} tenants x {TENANT_CALLS} concurrent calls through the shared store: "
        f"{count} calls, {leaks} cross-tenant leaks, {errors} errors"
    )


def main() -> None:
    asyncio.run(run())


if __name__ == "__main__":
    main()
