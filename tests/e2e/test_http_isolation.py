"""Remote mode under load: several tenants at once, each answer and each cache entry stays with its token.

The fake OpenProject serves a different organisation per token; every text in tenant X's
organisation carries X's marker. So an answer proves whose token reached OpenProject for it.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from typing import Any

import httpx2
import pytest

from openproject_mcp.adapters.mcp.hosting import build_http_app
from openproject_mcp.adapters.mcp.server import build_server
from openproject_mcp.application.caching import tenant_key
from openproject_mcp.composition import Application
from openproject_mcp.config import HttpSettings, Settings
from tests.support.fake_openproject import FakeOpenProject
from tests.unit.adapters.mcp_http.serving import (
    Running,
    post,
    post_modern,
    quiet_client_loggers,
    serving,
    tenant_dataset,
    tool_call,
)

SENTINEL = "alpha-SENTINEL-5be0c7d1-token"
TENANTS = {SENTINEL: "Alphacorp", "bravo-token-2f1e": "Bravocorp", "charlie-token-77aa": "Charliecorp"}
MARKERS = tuple(TENANTS.values())
CALLS_PER_TENANT = 50
WORK_PACKAGES = 6


def workload(index: int) -> tuple[str, dict[str, Any]]:
    """The index-th call of a tenant: lists, reads and searches that use the per-tenant caches."""
    work_package = 1 + index % WORK_PACKAGES
    calls: list[tuple[str, dict[str, Any]]] = [
        ("openproject_list_projects", {}),
        ("openproject_get_work_package", {"workPackageId": work_package}),
        ("openproject_search_work_packages", {"query": "routine maintenance note"}),
        ("openproject_list_work_package_activities", {"workPackageId": work_package}),
        ("openproject_list_users", {}),
        ("openproject_get_project", {"projectId": "ops"}),
    ]
    return calls[index % len(calls)]


@dataclass
class Stack:
    fake: FakeOpenProject
    application: Application
    running: Running


@pytest.fixture
async def stack() -> AsyncIterator[Stack]:
    datasets = {token: tenant_dataset(marker, WORK_PACKAGES) for token, marker in TENANTS.items()}
    # A little latency upstream, so that the tenants' requests to OpenProject really interleave.
    async with FakeOpenProject(datasets, latency=0.01) as fake:
        settings = Settings(backend="openproject", base_url=fake.base_url)
        application = Application(settings, shared=True)
        options = HttpSettings(request_timeout_seconds=60)
        app = build_http_app(
            build_server(application.scope), options, credentials_required=True, instance=settings.instance
        )
        try:
            async with serving(app, options) as running:
                yield Stack(fake, application, running)
        finally:
            await application.aclose()


@pytest.fixture(autouse=True)
def capture_everything(caplog: pytest.LogCaptureFixture) -> Iterator[pytest.LogCaptureFixture]:
    """Every log record of the run at DEBUG, but for the test's own HTTP client (it logs URLs)."""
    caplog.set_level(logging.DEBUG)
    for _ in quiet_client_loggers():
        yield caplog


def markers_in(text: str) -> set[str]:
    return {marker for marker in MARKERS if marker in text}


async def test_concurrent_tenants_each_get_only_their_own_data_and_cache_entries(
    stack: Stack, capture_everything: pytest.LogCaptureFixture, capfd: pytest.CaptureFixture[str]
) -> None:
    limits = httpx2.Limits(max_connections=200, max_keepalive_connections=200)

    async def one_call(http: httpx2.AsyncClient, token: str, index: int) -> tuple[str, httpx2.Response]:
        tool, arguments = workload(index)
        message = tool_call(tool, arguments, request_id=f"{TENANTS[token]}-{index}")
        if index % 2:
            return token, await post_modern(http, stack.running.mcp_url, message, token=token)
        return token, await post(
            http, stack.running.mcp_url, message, token=token, style=("bearer", "api-key")[index % 4 // 2]
        )

    async with httpx2.AsyncClient(timeout=60, limits=limits) as http:
        answers = await asyncio.gather(
            *(one_call(http, token, index) for index in range(CALLS_PER_TENANT) for token in TENANTS)
        )

    assert len(answers) == len(TENANTS) * CALLS_PER_TENANT
    for token, response in answers:
        assert response.status_code == 200, response.text
        body = response.json()
        assert body["id"].startswith(TENANTS[token])
        result = body["result"]
        assert result["isError"] is False, result["content"][0]["text"]
        assert markers_in(response.text) == {TENANTS[token]}, f"{TENANTS[token]} got {markers_in(response.text)}"

    # Every request OpenProject saw carried one of the callers' own tokens, and every caller's.
    assert {request.token for request in stack.fake.requests} == set(TENANTS)
    assert stack.fake.max_in_flight > 1, "the calls really overlapped"

    # Tenant-scoped caches: keyed by the hash of base URL + token, holding only that tenant's data.
    caches = stack.application.container.caches()
    owner = {tenant_key(stack.application.settings.instance, token): TENANTS[token] for token in TENANTS}
    enrichment_keys = caches.enrichment.keys_snapshot()
    assert enrichment_keys, "the searches filled the enrichment cache"
    assert {key[0] for key in enrichment_keys} == set(owner), "each tenant has its own entries"
    for key in enrichment_keys:
        assert markers_in(repr(caches.enrichment.get(key))) <= {owner[key[0]]}
    for tenant_of_entry in [key[0] for key in caches.wiki.keys_snapshot()] + caches.spec.keys_snapshot():
        assert tenant_of_entry in owner
    assert all(SENTINEL not in str(key) for key in enrichment_keys), "keys hold a hash, never the token"

    logged = capture_everything.text + "".join(capfd.readouterr())
    assert "openproject_mcp.http.access" in logged and "aiohttp.access" in logged, "the logs were captured"
    assert SENTINEL not in logged


async def test_without_a_valid_token_of_its_own_a_request_gets_no_data(
    stack: Stack, capture_everything: pytest.LogCaptureFixture, capfd: pytest.CaptureFixture[str]
) -> None:
    url = stack.running.mcp_url
    list_projects = tool_call("openproject_list_projects")
    async with httpx2.AsyncClient(timeout=30) as http:
        missing = await asyncio.gather(*(post(http, url, list_projects) for _ in range(20)))
        in_query = await post(http, f"{url}?api_key={SENTINEL}&token={SENTINEL}&access_token={SENTINEL}", list_projects)
        assert not stack.fake.requests, "nothing reached OpenProject without a header token"
        invalid = await asyncio.gather(
            *(post(http, url, list_projects, token=f"revoked-{n}") for n in range(10)),
            post_modern(http, url, list_projects, token="revoked-modern"),
        )
        header_wins = await post(http, f"{url}?api_key={SENTINEL}", list_projects, token="bravo-token-2f1e")

    for response in (*missing, in_query):
        assert response.status_code == 401
        assert "Authorization: Bearer <token>" in response.json()["error"]["data"]["hint"]
        assert markers_in(response.text) == set()
    for response in invalid:
        result = response.json()["result"]
        assert result["isError"] is True
        assert result["structuredContent"]["code"] == "OPENPROJECT_AUTH_ERROR"
        assert markers_in(response.text) == set()
    assert markers_in(header_wins.text) == {"Bravocorp"}

    seen = [request.token for request in stack.fake.requests]
    assert None not in seen
    assert SENTINEL not in seen, "the token in the query string was never used"
    assert set(seen) == {f"revoked-{n}" for n in range(10)} | {"revoked-modern", "bravo-token-2f1e"}
    tenants_cached = {key[0] for key in stack.application.container.caches().enrichment.keys_snapshot()}
    assert tenants_cached <= {tenant_key(stack.application.settings.instance, "bravo-token-2f1e")}

    logged = capture_everything.text + "".join(capfd.readouterr())
    assert SENTINEL not in logged
    assert "revoked-" not in logged
    access = [json.loads(r.getMessage()) for r in capture_everything.records if r.name == "openproject_mcp.http.access"]
    assert sum(1 for line in access if line.get("query_string_ignored")) == 2
