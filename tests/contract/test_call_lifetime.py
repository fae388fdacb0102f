"""Nothing of a tool call outlives it: after many calls through the real MCP server, no per-call
object is still alive and the process graph has not grown (counted with the garbage collector)."""

from __future__ import annotations

import gc
import itertools
from collections import Counter
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from typing import Any

import aiohttp
from dependency_injector import containers, providers
from mcp import Client

from openproject_mcp.adapters.mcp.catalog import UseCaseScope
from openproject_mcp.adapters.mcp.server import build_server
from openproject_mcp.adapters.openproject.client import OpenProjectClient
from openproject_mcp.application.caching import EnrichmentCache
from openproject_mcp.application.project_scope import ProjectResolver
from openproject_mcp.composition import Application, Call, RequestScope
from openproject_mcp.config import Settings
from tests.contract.conftest import http_settings, served_dataset
from tests.support.fake_openproject import FakeOpenProject

CALLS = 60
TOOLS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("openproject_list_projects", {}),
    ("openproject_list_work_packages", {"projectId": "webshop", "pageSize": 5}),
    ("openproject_search_meetings", {"query": "budget"}),
    ("openproject_get_work_package", {"workPackageId": 114}),
)
PER_CALL = (Call, RequestScope, ProjectResolver, EnrichmentCache, OpenProjectClient, aiohttp.ClientSession)
GRAPH = (containers.DynamicContainer, providers.Provider)


def census() -> Counter[str]:
    """Live objects of the per-call kinds, and of dependency-injector's own, by class name."""
    gc.collect()
    counts: Counter[str] = Counter()
    for obj in gc.get_objects():
        if isinstance(obj, PER_CALL):
            counts[type(obj).__name__] += 1
        elif isinstance(obj, GRAPH):
            counts["graph:" + ("container" if isinstance(obj, containers.DynamicContainer) else "provider")] += 1
    return counts


ScopeFactory = Callable[[str | None], AbstractAsyncContextManager[UseCaseScope]]


async def run_calls(scope_factory: ScopeFactory, calls: int) -> None:
    async with Client(build_server(scope_factory)) as client:
        for _, (tool, arguments) in zip(range(calls), itertools.cycle(TOOLS), strict=False):
            result = await client.call_tool(tool, arguments)
            assert not result.is_error, (tool, result.content)


def assert_nothing_of_a_call_is_left(before: Counter[str], after: Counter[str]) -> None:
    """Compared with the census taken before the calls (objects of earlier tests may be alive in both)."""
    left = {
        kind.__name__: after[kind.__name__] - before[kind.__name__]
        for kind in PER_CALL
        if after[kind.__name__] > before[kind.__name__]
    }
    assert not left, f"per-call objects alive after their calls: {left}"
    for kind in ("graph:container", "graph:provider"):
        assert after[kind] <= before[kind], f"{kind}: {before[kind]} before, {after[kind]} after {CALLS} calls"


async def test_fixture_calls_leave_nothing_behind() -> None:
    app = Application(Settings(backend="demo"))
    await run_calls(app.scope, 4)  # warm: everything built once per process exists now
    before = census()
    await run_calls(app.scope, CALLS)
    assert_nothing_of_a_call_is_left(before, census())


async def test_openproject_calls_from_many_tokens_leave_nothing_behind() -> None:
    dataset = served_dataset()
    tokens = [f"lifetime-token-{n:03d}" for n in range(CALLS)]
    async with FakeOpenProject(dict.fromkeys(tokens, dataset), profile="18.0") as fake:
        app = Application(http_settings(fake.base_url, tokens[0]))
        turn = itertools.cycle(tokens)

        def each_call_its_own_token(_: str | None) -> AbstractAsyncContextManager[RequestScope]:
            return app.scope(next(turn))

        try:
            await run_calls(each_call_its_own_token, 4)
            before = census()
            await run_calls(each_call_its_own_token, CALLS)
            after = census()
        finally:
            await app.aclose()
    assert {request.token for request in fake.requests} <= set(tokens)
    assert_nothing_of_a_call_is_left(before, after)
