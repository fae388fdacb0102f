"""``/readyz`` with a shared store: a store that does not answer degrades the replica, never unreadies it."""

from __future__ import annotations

import httpx2

from openproject_mcp.adapters.mcp.hosting import build_http_app
from openproject_mcp.adapters.mcp.server import build_server
from openproject_mcp.adapters.shared_state.memory import MemoryStore
from openproject_mcp.composition import Application
from openproject_mcp.config import HttpSettings, Settings
from tests.support.redis_server import RedisServer
from tests.unit.adapters.mcp_http.serving import RecordingScopes, serving


async def ready_answer(application: Application) -> httpx2.Response:
    app = build_http_app(
        build_server(RecordingScopes()),
        HttpSettings(),
        credentials_required=False,
        instance="demo",
        shared_state=application.shared_state_reachable,
    )
    async with serving(app) as running, httpx2.AsyncClient() as http:
        return await http.get(f"{running.url}/readyz")


async def test_readiness_names_the_shared_store_and_degrades_while_it_is_down(redis_server: RedisServer) -> None:
    application = Application(Settings(backend="demo", redis_url=redis_server.url))
    await application.start()
    try:
        up = await ready_answer(application)
        redis_server.stop()
        down = await ready_answer(application)
    finally:
        await application.aclose()
    assert (up.status_code, up.json()) == (
        200,
        {"status": "ready", "checks": {"configuration": "ok", "sharedState": "ok"}},
    )
    assert down.status_code == 200, "the replica still serves every call, without the shared cache"
    assert down.json() == {
        "status": "degraded",
        "checks": {"configuration": "ok", "sharedState": "unreachable: serving without the shared cache"},
    }


async def test_without_a_redis_url_the_shared_store_is_in_process_and_always_ready() -> None:
    application = Application(Settings(backend="demo"))
    await application.start()
    try:
        assert await application.shared_state_reachable()
        store = application.container.shared_store()
        assert isinstance(store, MemoryStore)
        assert not store.shared
    finally:
        await application.aclose()
