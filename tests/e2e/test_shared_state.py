"""Two replicas sharing their caches on a real Redis: what one read, the other does not ask again.

Each replica is its own process graph (``Application``) behind its own HTTP server on loopback;
both talk to one fake OpenProject and one ``redis-server`` started for the test. Every text of
tenant X's organisation carries X's marker, so an answer (and a cache entry) shows whose it is.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
from collections.abc import AsyncIterator, Iterator, Sequence
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass
from typing import Any

import httpx2
import pytest
import redis

from openproject_mcp.adapters.fixture.dataset import Dataset, parse_dataset
from openproject_mcp.adapters.mcp.hosting import build_http_app
from openproject_mcp.adapters.mcp.server import build_server
from openproject_mcp.adapters.openproject.capabilities import CACHE_TTL_SECONDS
from openproject_mcp.adapters.shared_state.redis import PREFIX, RedisStore
from openproject_mcp.application.caching import CacheSettings, tenant_key
from openproject_mcp.composition import Application
from openproject_mcp.config import HttpSettings, Settings, SignInSettings
from tests.support.datasets import marked_organisation
from tests.support.fake_openproject import FakeOpenProject
from tests.support.redis_server import RedisServer
from tests.unit.adapters.mcp_http.serving import Running, post, quiet_client_loggers, serving, tool_call

SENTINEL = "alpha-SENTINEL-93c1d0aa-token"
TENANTS = {SENTINEL: "Alphacorp", "bravo-token-41c2": "Bravocorp", "charlie-token-8e0f": "Charliecorp"}
MARKERS = tuple(TENANTS.values())
CALLS_PER_TENANT = 50

Tool = tuple[str, dict[str, Any]]
SEARCH_WORK_PACKAGES: Tool = ("openproject_search_work_packages", {"query": "routine maintenance note"})
SEARCH_MEETINGS: Tool = ("openproject_search_meetings", {"query": "status round"})
SEARCH_WIKI: Tool = ("openproject_search_wiki_pages", {"query": "handbook"})
API_SPEC: Tool = ("openproject_get_openapi_spec", {})


_CACHES = CacheSettings()
TTL_MS = {
    "enrichment": _CACHES.enrichment_ttl_seconds * 1000,
    "wiki": _CACHES.wiki_ttl_seconds * 1000,
    "spec": _CACHES.spec_ttl_seconds * 1000,
    "wiki-ids": _CACHES.wiki_id_ttl_seconds * 1000,
    "capabilities": CACHE_TTL_SECONDS * 1000,
}


def organisation(marker: str) -> Dataset:
    return parse_dataset(json.dumps(marked_organisation(marker)).encode(), f"tenant {marker}")


SPEC: dict[str, object] = {
    "openapi": "3.0.1",
    "info": {"title": "OpenProject API V3 (Stable)", "version": "3"},
    "tags": [{"name": "Work Packages"}],
    "paths": {"/api/v3/work_packages": {"get": {"tags": ["Work Packages"], "summary": "List work packages"}}},
}


def fake_server(tenants: dict[str, Dataset], latency: float = 0.0) -> FakeOpenProject:
    return FakeOpenProject(tenants, latency=latency, spec=SPEC)


def markers_in(text: str) -> set[str]:
    return {marker for marker in MARKERS if marker in text}


@dataclass
class Replicas:
    fake: FakeOpenProject
    applications: list[Application]
    running: list[Running]

    def url(self, index: int) -> str:
        return self.running[index % len(self.running)].mcp_url


@asynccontextmanager
async def replicas(fake: FakeOpenProject, redis_url: str | None, count: int = 2) -> AsyncIterator[Replicas]:
    options = HttpSettings(request_timeout_seconds=60, rate_limit_per_minute=0)
    async with AsyncExitStack() as stack:
        applications: list[Application] = []
        running: list[Running] = []
        for _ in range(count):
            # These tests are about what replicas share, not about outages: a Redis command slowed
            # by a loaded machine must not count as one (OPENPROJECT_REDIS_TIMEOUT).
            settings = Settings(
                backend="openproject", base_url=fake.base_url, redis_url=redis_url, redis_timeout_seconds=5.0
            )
            application = Application(settings, shared=True)
            stack.push_async_callback(application.aclose)
            app = build_http_app(
                build_server(application.scope),
                options,
                credentials_required=True,
                instance=settings.instance,
                shared_state=application.shared_state_reachable if redis_url else None,
            )
            running.append(await stack.enter_async_context(serving(app, options)))
            applications.append(application)
        yield Replicas(fake, applications, running)


@pytest.fixture
def fake_openproject_tenants() -> dict[str, Dataset]:
    return {token: organisation(marker) for token, marker in TENANTS.items()}


@pytest.fixture(autouse=True)
def capture_everything(caplog: pytest.LogCaptureFixture) -> Iterator[pytest.LogCaptureFixture]:
    caplog.set_level(logging.DEBUG)
    for _ in quiet_client_loggers():
        yield caplog


async def call(http: httpx2.AsyncClient, url: str, token: str, tool: tuple[str, dict[str, Any]]) -> httpx2.Response:
    response = await post(http, url, tool_call(*tool), token=token)
    assert response.status_code == 200, response.text
    result = response.json()["result"]
    assert result["isError"] is False, result["content"][0]["text"]
    return response


async def cost(fake: FakeOpenProject, http: httpx2.AsyncClient, url: str, token: str, tool: Any) -> int:
    """How many requests OpenProject received for one call."""
    fake.clear()
    await call(http, url, token, tool)
    return len(fake.requests)


async def test_a_search_repeated_on_the_other_replica_costs_only_its_candidate_requests(
    redis_server: RedisServer, fake_openproject_tenants: dict[str, Dataset]
) -> None:
    token = "bravo-token-41c2"
    async with fake_server(fake_openproject_tenants) as upstream:
        measured: dict[str, tuple[int, int, int]] = {}
        asked: dict[str, list[str]] = {}
        async with replicas(upstream, redis_server.url) as shared, httpx2.AsyncClient(timeout=60) as http:
            for tool in (SEARCH_WORK_PACKAGES, SEARCH_MEETINGS, SEARCH_WIKI, API_SPEC):
                cold = await cost(upstream, http, shared.url(0), token, tool)
                other = await cost(upstream, http, shared.url(1), token, tool)
                asked[tool[0]] = [r.path for r in upstream.requests]
                again = await cost(upstream, http, shared.url(1), token, tool)
                measured[tool[0]] = (cold, other, again)
        async with (
            fake_server(fake_openproject_tenants) as alone_fake,
            replicas(alone_fake, None) as apart,
            httpx2.AsyncClient(timeout=60) as http,
        ):
            unshared = {
                name: (
                    await cost(alone_fake, http, apart.url(0), token, (name, arguments)),
                    await cost(alone_fake, http, apart.url(1), token, (name, arguments)),
                )
                for name, arguments in (SEARCH_WORK_PACKAGES, SEARCH_MEETINGS, SEARCH_WIKI, API_SPEC)
            }

    # The API description comes from the store; the other replica only asks the instance whether it
    # still accepts the token (one small request), never for the document itself.
    spec_cold, spec_other, _ = measured.pop("openproject_get_openapi_spec")
    assert spec_cold == 1 and spec_other == 1 and unshared["openproject_get_openapi_spec"] == (1, 1)
    assert [path.rsplit("/api/v3/", 1)[-1] for path in asked["openproject_get_openapi_spec"]] == ["users/me"]
    for name, (cold, other, again) in measured.items():
        assert other == again, f"{name}: on the other replica as cheap as a repeat on the same one ({measured})"
        assert other < cold, f"{name}: the other replica used what the first read ({measured})"
        unshared_cold, unshared_other = unshared[name]
        assert unshared_other > other, f"{name}: without the shared store the other replica pays again ({unshared})"
        assert unshared_cold == cold, "the shared store changes nothing about a cold call"
    # The candidate legs only (subject, one per word, all three words together, the recent
    # window), no comment reads.
    assert measured["openproject_search_work_packages"][1] <= 6, measured
    assert not any(path.endswith("/activities") for path in asked["openproject_search_work_packages"])


async def test_redis_stopped_mid_run_loses_no_call_and_is_logged_once_per_replica(
    redis_server: RedisServer,
    fake_openproject_tenants: dict[str, Dataset],
    capture_everything: pytest.LogCaptureFixture,
) -> None:
    workload: Sequence[tuple[str, dict[str, Any]]] = (
        SEARCH_WORK_PACKAGES,
        SEARCH_MEETINGS,
        SEARCH_WIKI,
        API_SPEC,
        ("openproject_list_projects", {}),
    )
    async with (
        fake_server(fake_openproject_tenants, latency=0.005) as upstream,
        replicas(upstream, redis_server.url) as pair,
        httpx2.AsyncClient(timeout=60) as http,
    ):

        async def one(token: str, index: int) -> tuple[str, httpx2.Response]:
            return token, await call(http, pair.url(index), token, workload[index % len(workload)])

        async def stop_midway() -> None:
            while len(upstream.requests) < 60:  # noqa: ASYNC110 - the fake has no event for this
                await asyncio.sleep(0.005)
            await asyncio.to_thread(redis_server.stop)

        stopper = asyncio.create_task(stop_midway())
        answers = await asyncio.gather(*(one(token, n) for n in range(40) for token in TENANTS))
        stopped_midway = stopper.done()
        stopper.cancel()
        assert stopped_midway, "Redis was stopped while the calls ran"
        after = await asyncio.gather(*(one(token, n) for n in range(10) for token in TENANTS))
        ready = [await http.get(f"{running.url}/readyz") for running in pair.running]

    for token, response in [*answers, *after]:
        assert markers_in(response.text) <= {TENANTS[token]}
    marked = [(token, r) for token, r in [*answers, *after] if "openapi_spec" not in r.request.content.decode()]
    assert all(markers_in(response.text) == {TENANTS[token]} for token, response in marked)
    for response in ready:
        assert response.status_code == 200, "a replica without its shared store still serves"
        assert response.json()["status"] == "degraded"
        assert response.json()["checks"]["sharedState"].startswith("unreachable")
    down = [r for r in capture_everything.records if "cannot be reached" in r.getMessage()]
    assert 1 <= len(down) <= 2, "one line per replica, not one per call"


async def test_no_tenant_reads_another_tenants_entries_through_the_shared_cache(
    redis_server: RedisServer,
    fake_openproject_tenants: dict[str, Dataset],
    capture_everything: pytest.LogCaptureFixture,
    capfd: pytest.CaptureFixture[str],
) -> None:
    workload: Sequence[tuple[str, dict[str, Any]]] = (
        SEARCH_WORK_PACKAGES,
        ("openproject_get_work_package", {"workPackageId": 3}),
        SEARCH_MEETINGS,
        SEARCH_WIKI,
        API_SPEC,
        ("openproject_list_work_package_activities", {"workPackageId": 2}),
    )
    limits = httpx2.Limits(max_connections=200, max_keepalive_connections=200)
    async with (
        fake_server(fake_openproject_tenants, latency=0.01) as upstream,
        replicas(upstream, redis_server.url) as pair,
        httpx2.AsyncClient(timeout=60, limits=limits) as http,
    ):

        async def one(token: str, index: int) -> tuple[str, httpx2.Response]:
            return token, await call(http, pair.url(index), token, workload[index % len(workload)])

        answers = await asyncio.gather(*(one(token, n) for n in range(CALLS_PER_TENANT) for token in TENANTS))
        instance = pair.applications[0].settings.instance

    assert len(answers) == len(TENANTS) * CALLS_PER_TENANT
    leaks = [(token, markers_in(r.text)) for token, r in answers if markers_in(r.text) - {TENANTS[token]}]
    assert leaks == [], "no answer carries another tenant's data"
    unmarked = [
        (token, r.text[:200])
        for token, r in answers
        if "openapi_spec" not in r.request.content.decode() and markers_in(r.text) != {TENANTS[token]}
    ]
    assert unmarked == [], "every answer but the API description carries its own tenant's data"
    assert {request.token for request in upstream.requests} == set(TENANTS)

    client = redis.Redis.from_url(redis_server.url)
    keys = [key.decode() if isinstance(key, bytes) else str(key) for key in client.keys("*")]
    owner = {tenant_key(instance, token): TENANTS[token] for token in TENANTS}
    tenant_entries = [key for key in keys if key.split(":", 2)[1] in ("enrichment", "wiki", "spec")]
    assert {k.split(":", 2)[1] for k in tenant_entries} == {"enrichment", "wiki", "spec"}, keys
    for key in keys:
        assert key.startswith(PREFIX)
        value = client.get(key)
        assert isinstance(value, bytes)
        assert SENTINEL.encode() not in value and SENTINEL not in key, "no token in a key or a value"
        kind = key.split(":", 2)[1]
        assert 0 < client.pttl(key) <= TTL_MS[kind], f"{key} expires within its cache's time to live"
        if key in tenant_entries:
            tenant = next(t for t in owner if t in key)
            found = {marker for marker in MARKERS if marker.encode() in value}
            assert found <= {owner[tenant]}, f"{key} holds {found}"
        else:  # per instance: which ids exist and how the instance is asked, never a record's content
            assert key.split(":", 2)[1] in ("wiki-ids", "capabilities"), key
            assert not any(marker.encode() in value for marker in MARKERS)

    logged = capture_everything.text + "".join(capfd.readouterr())
    assert SENTINEL not in logged


async def test_sign_in_state_written_by_one_replica_is_taken_once_by_the_other_and_sealed_in_redis(
    redis_server: RedisServer,
) -> None:
    keys = (os.urandom(32),)
    signin = SignInSettings("client-id", "client-secret", "http://127.0.0.1:9", keys)
    settings = Settings(backend="openproject", base_url="http://127.0.0.1:9", redis_url=redis_server.url)
    first, second = Application(settings, shared=True), Application(settings, shared=True)
    await first.start()
    await second.start()
    try:
        assert isinstance(first.container.shared_store(), RedisStore)
        written, _ = first.signin_parts(signin)
        read, _ = second.signin_parts(signin)
        await written.put("code:abc", b"grant-for-bravo", ttl_seconds=60)
        taken = await asyncio.gather(read.take("code:abc"), read.take("code:abc"), written.take("code:abc"))
    finally:
        await first.aclose()
        await second.aclose()
    assert [value for value in taken if value is not None] == [b"grant-for-bravo"], "a code is used once"
    client = redis.Redis.from_url(redis_server.url)
    assert client.get(f"{PREFIX}code:abc") is None


async def test_sign_in_state_at_rest_in_redis_is_sealed(redis_server: RedisServer) -> None:
    signin = SignInSettings("client-id", "client-secret", "http://127.0.0.1:9", (os.urandom(32),))
    settings = Settings(backend="openproject", base_url="http://127.0.0.1:9", redis_url=redis_server.url)
    application = Application(settings, shared=True)
    await application.start()
    try:
        store, _ = application.signin_parts(signin)
        await store.put("token:xyz", b"openproject-access-token-value", ttl_seconds=60)
        client = redis.Redis.from_url(redis_server.url)
        raw = client.get(f"{PREFIX}token:xyz")
        assert isinstance(raw, bytes)
        assert b"openproject-access-token-value" not in raw
        assert 0 < client.pttl(f"{PREFIX}token:xyz") <= 60_000
        assert await store.get("token:xyz") == b"openproject-access-token-value"
    finally:
        await application.aclose()
