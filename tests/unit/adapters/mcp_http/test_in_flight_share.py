"""One caller's share of the requests in flight, over a real socket, against a slow fake OpenProject.

One token flooding the server with slow calls keeps at most its share of the in-flight slots;
every other caller is still answered, and the slots come back however a call ends.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import AsyncIterator, Callable, Mapping
from contextlib import asynccontextmanager

import anyio
import httpx2
import pytest

from openproject_mcp.adapters.environment import SettingError
from openproject_mcp.adapters.mcp.hosting import build_http_app
from openproject_mcp.adapters.mcp.server import build_server
from openproject_mcp.composition import Application
from openproject_mcp.config import HttpSettings, Settings
from tests.support.fake_openproject import FakeOpenProject
from tests.support.fake_openproject.server import Fault
from tests.unit.adapters.mcp_http.serving import Running, post, rpc, serving, tenant_dataset, tool_call

ALPHA, BRAVO = "alpha-token-5e2a91", "bravo-token-c40d17"
SLOW_PATH = "/api/v3/work_packages"
SLOW_CALL = tool_call("openproject_list_work_packages")
PER_CALLER = "OPENPROJECT_HTTP_MAX_IN_FLIGHT_PER_CALLER"


@asynccontextmanager
async def slow_stack(
    options: HttpSettings, env: Mapping[str, str], *, delay: float
) -> AsyncIterator[tuple[FakeOpenProject, Running]]:
    """The served app over a fake OpenProject whose work package list takes ``delay`` seconds."""
    tenants = {ALPHA: tenant_dataset("Alphacorp"), BRAVO: tenant_dataset("Bravocorp")}
    async with FakeOpenProject(tenants) as fake:
        fake.inject(Fault(status=200, path=SLOW_PATH, delay=delay))
        settings = Settings(backend="openproject", base_url=fake.base_url)
        application = Application(settings, shared=True)
        app = build_http_app(
            build_server(application.scope), options, credentials_required=True, instance=settings.instance, env=env
        )
        try:
            async with serving(app, options) as running:
                yield fake, running
        finally:
            await application.aclose()


async def until(condition: Callable[[], bool], seconds: float = 10.0) -> None:
    with anyio.fail_after(seconds):
        while True:
            if condition():
                return
            await asyncio.sleep(0.02)


def slow_requests(fake: FakeOpenProject, token: str) -> int:
    return sum(1 for r in fake.requests if r.token == token and r.path.endswith(SLOW_PATH))


def client(connections: int = 64) -> httpx2.AsyncClient:
    limits = httpx2.Limits(max_connections=connections, max_keepalive_connections=connections)
    return httpx2.AsyncClient(timeout=30, limits=limits)


async def test_one_token_flooding_slow_calls_keeps_its_share_and_others_are_still_answered() -> None:
    options = HttpSettings(max_in_flight=8, rate_limit_per_minute=0)  # a quarter each by default: 2
    async with slow_stack(options, {}, delay=2.0) as (fake, running), client() as http:
        flood = [asyncio.create_task(post(http, running.mcp_url, SLOW_CALL, token=ALPHA)) for _ in range(8)]
        await until(lambda: slow_requests(fake, ALPHA) >= 2)
        await asyncio.sleep(0.3)  # every one of the flood has reached the guard by now
        ping = await post(http, running.mcp_url, rpc("ping"), token=BRAVO)
        projects = await post(http, running.mcp_url, tool_call("openproject_list_projects"), token=BRAVO)
        answers = await asyncio.gather(*flood)
        assert running.app.lifecycle.in_flight == 0

    assert ping.status_code == 200, ping.text
    assert projects.status_code == 200 and "Bravocorp" in projects.text, projects.text
    assert Counter(a.status_code for a in answers) == {200: 2, 429: 6}
    refused = next(a for a in answers if a.status_code == 429)
    assert refused.headers["retry-after"] == "1"
    message = refused.json()["error"]["message"]
    assert "2 requests being answered" in message and ALPHA not in message
    assert slow_requests(fake, ALPHA) == 2, "a refused call never reached OpenProject"


async def test_the_share_is_a_setting_and_comes_back_after_timeouts_and_disconnects() -> None:
    options = HttpSettings(max_in_flight=16, rate_limit_per_minute=0, request_timeout_seconds=1.0)
    async with slow_stack(options, {PER_CALLER: "2"}, delay=2.5) as (fake, running):
        # Two calls whose clients go away while they are answered...
        async with client() as gone:
            left = [asyncio.create_task(post(gone, running.mcp_url, SLOW_CALL, token=ALPHA)) for _ in range(2)]
            await until(lambda: slow_requests(fake, ALPHA) >= 2)
            for task in left:
                task.cancel()
            await asyncio.gather(*left, return_exceptions=True)
        await until(lambda: running.app.lifecycle.in_flight == 0)
        async with client() as http:
            # ...two that run past the deadline...
            timed_out = await asyncio.gather(*(post(http, running.mcp_url, SLOW_CALL, token=ALPHA) for _ in range(2)))
            # ...and the share is whole again: two answered, the third refused.
            again = await asyncio.gather(*(post(http, running.mcp_url, SLOW_CALL, token=ALPHA) for _ in range(3)))
        assert running.app.lifecycle.in_flight == 0

    assert [a.status_code for a in timed_out] == [504, 504]
    assert sorted(a.status_code for a in again) == [429, 504, 504]


@pytest.mark.parametrize("value", ["0", "65", "many"])
def test_a_share_outside_one_to_the_cap_stops_the_app_from_being_built(value: str) -> None:
    with pytest.raises(SettingError, match=f"^{PER_CALLER} must be .*OPENPROJECT_HTTP_MAX_IN_FLIGHT \\(64\\)"):
        build_http_app(
            build_server(Application(Settings(backend="demo")).scope),
            HttpSettings(),
            credentials_required=True,
            instance="demo",
            env={PER_CALLER: value},
        )
