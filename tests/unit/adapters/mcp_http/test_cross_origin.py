"""CORS at /mcp over a real socket: a browser app on an allowed origin can call, and read every answer."""

from __future__ import annotations

import asyncio

import httpx2
import pytest

from openproject_mcp.adapters.mcp.catalog import TOOLS
from openproject_mcp.config import HttpSettings
from tests.unit.adapters.mcp_http.serving import SlowTool, demo_app, post, serving, tool_call

APP = "https://app.example.com"
STATUSES = tool_call("openproject_list_statuses")
ASKED = "authorization, content-type, mcp-protocol-version, x-openproject-api-key"


async def preflight(http: httpx2.AsyncClient, url: str, origin: str) -> httpx2.Response:
    return await http.request(
        "OPTIONS",
        url,
        headers={"Origin": origin, "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": ASKED},
    )


def names(value: str) -> set[str]:
    return {word.strip().lower() for word in value.split(",")}


@pytest.mark.parametrize(
    ("allowed", "origin"), [(APP, APP), ("http://dev.example.com:*", "http://dev.example.com:5173")]
)
async def test_a_preflight_from_an_allowed_origin_is_answered_with_what_a_browser_needs(
    allowed: str, origin: str
) -> None:
    options = HttpSettings(allowed_origins=(allowed,))
    async with serving(demo_app(options=options), options) as running, httpx2.AsyncClient() as http:
        answer = await preflight(http, running.mcp_url, origin)
    assert answer.status_code == 204
    assert answer.headers["access-control-allow-origin"] == origin
    assert answer.headers["access-control-allow-methods"] == "POST"
    assert names(ASKED) <= names(answer.headers["access-control-allow-headers"])
    assert {"accept", "mcp-session-id", "last-event-id"} <= names(answer.headers["access-control-allow-headers"])
    assert int(answer.headers["access-control-max-age"]) > 0
    assert "origin" in names(answer.headers["vary"])
    assert "access-control-allow-credentials" not in answer.headers
    assert "*" not in str(answer.headers)


async def test_answers_to_an_allowed_origin_can_be_read_by_it_refusals_too() -> None:
    slow = SlowTool()
    options = HttpSettings(allowed_origins=(APP,), max_in_flight=1, rate_limit_burst=2, rate_limit_per_minute=1)
    app = demo_app(options=options, tools=(*TOOLS, slow.spec()))
    async with serving(app, options) as running, httpx2.AsyncClient(timeout=20) as http:
        answered = await post(http, running.mcp_url, STATUSES, token="alpha", Origin=APP)
        unauthenticated = await post(http, running.mcp_url, STATUSES, Origin=APP)
        second = await post(http, running.mcp_url, STATUSES, token="alpha", Origin=APP)  # the burst is two
        limited = await post(http, running.mcp_url, STATUSES, token="alpha", Origin=APP)
        sleeping = asyncio.create_task(
            post(http, running.mcp_url, tool_call("test_sleep", {"seconds": 1.0}), token="bravo", Origin=APP)
        )
        await slow.wait_started()
        busy = await post(http, running.mcp_url, STATUSES, token="carol", Origin=APP)
        await sleeping
    assert [a.status_code for a in (answered, second, unauthenticated, limited, busy)] == [200, 200, 401, 429, 503]
    for answer in (answered, unauthenticated, limited, busy):
        assert answer.headers["access-control-allow-origin"] == APP
        assert "origin" in names(answer.headers["vary"])
        exposed = names(answer.headers["access-control-expose-headers"])
        assert {"www-authenticate", "retry-after", "mcp-session-id"} <= exposed
        assert "access-control-allow-credentials" not in answer.headers


async def test_a_foreign_origin_is_still_refused_and_told_nothing() -> None:
    options = HttpSettings(allowed_origins=(APP,))
    async with serving(demo_app(options=options), options) as running, httpx2.AsyncClient() as http:
        asked = await preflight(http, running.mcp_url, "https://evil.example")
        posted = await post(http, running.mcp_url, STATUSES, token="t", Origin="https://evil.example")
        sibling = await post(http, running.mcp_url, STATUSES, token="t", Origin="https://app.example.com.evil.example")
    assert (asked.status_code, posted.status_code, sibling.status_code) == (403, 403, 403)
    for answer in (asked, posted, sibling):
        assert "access-control-allow-origin" not in answer.headers


async def test_without_allowed_origins_nothing_changes_for_a_loopback_page() -> None:
    async with serving(demo_app()) as running, httpx2.AsyncClient() as http:
        asked = await preflight(http, running.mcp_url, "http://localhost:5173")
        posted = await post(http, running.mcp_url, STATUSES, token="t", Origin="http://localhost:5173")
    assert asked.status_code == 405
    assert posted.status_code == 200
    for answer in (asked, posted):
        assert not any(name.startswith("access-control-") for name in answer.headers)
