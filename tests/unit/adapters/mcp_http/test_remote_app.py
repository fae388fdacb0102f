"""Remote mode over a real loopback socket: the guard, the health routes and the access log."""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncIterator
from typing import Any

import httpx2
import pytest
from aiohttp import web
from aiohttp.test_utils import TestServer

from openproject_mcp.adapters.mcp.catalog import TOOLS
from openproject_mcp.config import HttpSettings
from tests.unit.adapters.mcp_http.serving import (
    ACCEPT,
    RecordingScopes,
    SlowTool,
    demo_app,
    free_port,
    post,
    post_modern,
    rpc,
    serving,
    tool_call,
)

STATUSES = tool_call("openproject_list_statuses")
SENTINEL = "sentinel-7f3a9c-never-log-me"


def access_lines(caplog: pytest.LogCaptureFixture) -> list[dict[str, Any]]:
    return [json.loads(r.getMessage()) for r in caplog.records if r.name == "openproject_mcp.http.access"]


def server_log(caplog: pytest.LogCaptureFixture) -> str:
    """Everything the server side logged (the test's own HTTP client logs the URLs it requests)."""
    client_side = ("httpx2", "httpcore2")
    return "\n".join(
        f"{r.name} {r.getMessage()} {r.exc_text or ''}" for r in caplog.records if not r.name.startswith(client_side)
    )


@pytest.fixture
def access(caplog: pytest.LogCaptureFixture) -> pytest.LogCaptureFixture:
    caplog.set_level(logging.DEBUG)
    return caplog


async def test_health_routes_answer_without_credentials() -> None:
    async with serving(demo_app()) as running, httpx2.AsyncClient() as http:
        health = await http.get(f"{running.url}/healthz")
        ready = await http.get(f"{running.url}/readyz")
    assert (health.status_code, health.json()) == (200, {"status": "ok"})
    assert (ready.status_code, ready.json()) == (200, {"status": "ready", "checks": {"configuration": "ok"}})


async def test_a_request_without_a_token_is_refused_at_the_transport_with_how_to_authenticate() -> None:
    scopes = RecordingScopes()
    async with serving(demo_app(scopes)) as running, httpx2.AsyncClient() as http:
        refused = await post(http, running.mcp_url, STATUSES)
        wrong_scheme = await post(http, running.mcp_url, STATUSES, Authorization="Basic dXNlcjpwYXNz")
        empty_bearer = await post(http, running.mcp_url, STATUSES, Authorization="Bearer")
    for response in (refused, wrong_scheme, empty_bearer):
        assert response.status_code == 401
        assert response.headers["www-authenticate"].startswith("Bearer")
        assert response.headers["content-type"] == "application/json"
        error = response.json()["error"]
        assert "token" in error["message"]
        assert error["data"]["code"] == "OPENPROJECT_AUTH_ERROR"
        assert "Authorization: Bearer <token>" in error["data"]["hint"]
        assert "X-OpenProject-Api-Key: <token>" in error["data"]["hint"]
    assert scopes.seen == [], "no tool call may start without a token"


async def test_both_header_styles_deliver_the_callers_own_token_to_the_tool_call() -> None:
    scopes = RecordingScopes()
    async with serving(demo_app(scopes)) as running, httpx2.AsyncClient() as http:
        bearer = await post(http, running.mcp_url, STATUSES, token="token-bearer")
        api_key = await post(http, running.mcp_url, STATUSES, token="token-header", style="api-key")
        both = await post(http, running.mcp_url, STATUSES, token="token-wins", **{"X-OpenProject-Api-Key": "other"})
    assert [r.status_code for r in (bearer, api_key, both)] == [200, 200, 200]
    assert all(r.json()["result"]["isError"] is False for r in (bearer, api_key, both))
    assert scopes.seen == ["token-bearer", "token-header", "token-wins"]


async def test_a_token_in_the_query_string_is_ignored_and_never_logged(access: pytest.LogCaptureFixture) -> None:
    scopes = RecordingScopes()
    async with serving(demo_app(scopes)) as running, httpx2.AsyncClient() as http:
        only_query = await post(http, f"{running.mcp_url}?api_key={SENTINEL}&token={SENTINEL}", STATUSES)
        with_header = await post(http, f"{running.mcp_url}?access_token={SENTINEL}", STATUSES, token="token-a")
    assert only_query.status_code == 401
    assert with_header.status_code == 200
    assert scopes.seen == ["token-a"]
    assert SENTINEL not in server_log(access)
    lines = access_lines(access)
    assert [line["query_string_ignored"] for line in lines] == [True, True]
    assert all(line["path"] == "/mcp" for line in lines)


async def test_no_token_is_needed_where_the_operator_allows_it() -> None:
    scopes = RecordingScopes()
    async with serving(demo_app(scopes, credentials_required=False)) as running, httpx2.AsyncClient() as http:
        response = await post(http, running.mcp_url, STATUSES)
    assert response.status_code == 200 and response.json()["result"]["isError"] is False
    assert scopes.seen == [None]


async def test_oversized_bodies_are_refused_and_the_server_stays_up() -> None:
    options = HttpSettings(max_body_bytes=4096)
    padding = "x" * 8192
    big = tool_call("openproject_search_work_packages", {"query": padding})

    async def chunked() -> AsyncIterator[bytes]:
        encoded = json.dumps(big).encode()
        for start in range(0, len(encoded), 1000):
            yield encoded[start : start + 1000]

    async with serving(demo_app(options=options), options) as running, httpx2.AsyncClient() as http:
        declared = await post(http, running.mcp_url, big, token="t")
        streamed = await http.post(
            running.mcp_url,
            content=chunked(),
            headers={"Authorization": "Bearer t", "Accept": ACCEPT, "Content-Type": "application/json"},
        )
        after = await post(http, running.mcp_url, STATUSES, token="t")
    for response in (declared, streamed):
        assert response.status_code == 413
        assert "larger than this server accepts (4096 bytes)" in response.json()["error"]["message"]
    assert "transfer-encoding" not in declared.request.headers
    assert streamed.request.headers.get("transfer-encoding") == "chunked"
    assert after.status_code == 200


@pytest.mark.parametrize(
    ("body", "status", "code", "says"),
    [
        (b"{not json", 400, -32700, "not valid JSON"),
        (b'"just a string"', 400, -32600, "must be one JSON-RPC 2.0 message"),
        (b'[{"jsonrpc": "2.0", "id": 1, "method": "tools/list"}]', 400, -32600, "Batches are not supported"),
        (b'{"jsonrpc": "2.0", "id": 1}', 400, -32600, "must be one JSON-RPC 2.0 message"),
        (b'{"id": 1, "method": "tools/list"}', 400, -32600, "must be one JSON-RPC 2.0 message"),
        (json.dumps(rpc("no/such/method")).encode(), 200, -32601, "Method not found"),
        (json.dumps(rpc("tools/call", {"name": 5})).encode(), 200, -32602, "Invalid request parameters"),
        (b'{"jsonrpc": "1.0", "id": 1, "method": "tools/list"}', 400, -32600, "must be one JSON-RPC 2.0 message"),
        (b'{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": "x"}', 400, -32600, "params must"),
        (
            b'{"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"a": ' + b"[" * 200 + b"]" * 200 + b"}}",
            400,
            -32600,
            "levels deep",
        ),
        (
            b'{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "\\ud800"}}',
            400,
            -32600,
            "surrogate",
        ),
    ],
    ids=[
        "parse-error",
        "not-an-object",
        "batch",
        "no-method",
        "no-version",
        "unknown-method",
        "bad-params",
        "version-1.0",
        "string-params",
        "deep-nesting",
        "lone-surrogate",
    ],
)
async def test_malformed_json_rpc_gets_a_clear_error_and_the_server_stays_up(
    body: bytes, status: int, code: int, says: str
) -> None:
    async with serving(demo_app()) as running, httpx2.AsyncClient() as http:
        response = await post(http, running.mcp_url, body, token="t")
        after = await post(http, running.mcp_url, STATUSES, token="t")
    assert response.status_code == status
    assert response.headers["content-type"] == "application/json"
    error = response.json()["error"]
    assert error["code"] == code
    assert says in error["message"]
    assert after.status_code == 200 and after.json()["result"]["isError"] is False


async def test_modern_clients_get_the_same_answers_and_errors() -> None:
    scopes = RecordingScopes()
    async with serving(demo_app(scopes)) as running, httpx2.AsyncClient() as http:
        listed = await post_modern(http, running.mcp_url, rpc("tools/list"), token="token-m")
        called = await post_modern(http, running.mcp_url, STATUSES, token="token-m")
        unknown = await post_modern(http, running.mcp_url, rpc("no/such/method"), token="token-m")
        no_token = await post_modern(http, running.mcp_url, STATUSES)
    assert len(listed.json()["result"]["tools"]) == len(TOOLS)
    assert called.json()["result"]["isError"] is False
    assert unknown.json()["error"]["code"] == -32601
    assert no_token.status_code == 401
    assert scopes.seen == ["token-m"]


async def test_an_unknown_tool_is_a_tool_error_not_a_crash() -> None:
    async with serving(demo_app()) as running, httpx2.AsyncClient() as http:
        response = await post(http, running.mcp_url, tool_call("openproject_drop_database"), token="t")
    result = response.json()["result"]
    assert result["isError"] is True and result["content"][0]["text"].startswith("Error [INVALID_ARGUMENT]:")


@pytest.mark.parametrize("method", ["GET", "DELETE", "PUT"])
async def test_only_post_is_served_on_the_mcp_endpoint(method: str) -> None:
    async with serving(demo_app()) as running, httpx2.AsyncClient() as http:
        response = await http.request(method, running.mcp_url, headers={"Accept": ACCEPT, "Authorization": "Bearer t"})
    assert response.status_code == 405
    assert response.headers["allow"] == "POST"
    assert "POST" in response.json()["error"]["message"]


@pytest.mark.parametrize(
    ("origin", "status"),
    [
        ("https://evil.example", 403),
        ("http://localhost.evil.example:8000", 403),
        ("http://127.0.0.1:3000", 200),
        ("http://localhost:5173", 200),
        ("https://chat.example.com", 200),
    ],
)
async def test_browser_origins_must_be_allowed(origin: str, status: int) -> None:
    options = HttpSettings(allowed_origins=("https://chat.example.com",))
    scopes = RecordingScopes()
    async with serving(demo_app(scopes, options=options), options) as running, httpx2.AsyncClient() as http:
        response = await post(http, running.mcp_url, STATUSES, token="t", Origin=origin)
    assert response.status_code == status
    assert len(scopes.seen) == (1 if status == 200 else 0)


async def test_a_foreign_host_header_is_refused_on_a_loopback_bind() -> None:
    scopes = RecordingScopes()
    async with serving(demo_app(scopes)) as running, httpx2.AsyncClient() as http:
        rebound = await post(http, running.mcp_url, STATUSES, token="t", Host="attacker.example:80")
    assert rebound.status_code == 421
    assert scopes.seen == []


async def test_the_public_name_a_proxy_forwards_can_be_allowed() -> None:
    options = HttpSettings(allowed_hosts=("mcp.example.com",))
    async with serving(demo_app(options=options), options) as running, httpx2.AsyncClient() as http:
        proxied = await post(http, running.mcp_url, STATUSES, token="t", Host="mcp.example.com")
        direct = await post(http, running.mcp_url, STATUSES, token="t")
        other = await post(http, running.mcp_url, STATUSES, token="t", Host="other.example.com")
    assert (proxied.status_code, direct.status_code, other.status_code) == (200, 200, 421)


@pytest.mark.parametrize("era", ["handshake", "modern"])
async def test_a_request_past_its_deadline_gets_504_and_its_tool_call_is_cancelled(era: str) -> None:
    slow = SlowTool()
    options = HttpSettings(request_timeout_seconds=1.0)
    app = demo_app(options=options, tools=(*TOOLS, slow.spec()))
    call = tool_call("test_sleep", {"seconds": 30}, request_id=41)
    async with serving(app, options) as running, httpx2.AsyncClient(timeout=20) as http:
        if era == "modern":
            response = await post_modern(http, running.mcp_url, call, token="t")
        else:
            response = await post(http, running.mcp_url, call, token="t")
        after = await post(http, running.mcp_url, STATUSES, token="t")
    assert response.status_code == 504
    body = response.json()
    assert body["id"] == 41
    assert body["error"]["code"] == -32001
    assert "longer than 1 s" in body["error"]["message"]
    assert (slow.started, slow.finished) == (1, 0)
    assert slow.cancelled == 1, "the call is stopped, not left running"
    assert after.status_code == 200


async def test_every_request_gets_one_json_access_line_without_secrets(access: pytest.LogCaptureFixture) -> None:
    async with serving(demo_app()) as running, httpx2.AsyncClient() as http:
        await http.get(f"{running.url}/healthz")
        await post(http, running.mcp_url, STATUSES, token=SENTINEL, **{"X-Request-Id": "proxy-id.42"})
        await post(http, running.mcp_url, STATUSES)
        await post(http, running.mcp_url, b"{oops", token=SENTINEL)
    lines = access_lines(access)
    assert len(lines) == 4
    health, called, refused, broken = lines
    assert health["path"] == "/healthz" and health["status"] == 200 and "auth" not in health
    assert called["request_id"] == "proxy-id.42"
    assert called["rpc_method"] == "tools/call" and called["tool"] == "openproject_list_statuses"
    assert called["status"] == 200 and called["auth"] == "header"
    assert len(called["tenant"]) == 12
    assert refused["status"] == 401 and refused["rejected"] == "credentials" and refused["auth"] == "none"
    assert broken["status"] == 400 and broken["rpc_method"] == "(unparsable)"
    for line in lines:
        assert {"ts", "event", "request_id", "method", "path", "status", "duration_ms", "client"} <= set(line)
        assert line["client"] == "127.0.0.1"
    assert SENTINEL not in server_log(access)


async def test_a_token_pasted_into_a_path_a_method_or_a_tool_name_is_not_logged(
    access: pytest.LogCaptureFixture,
) -> None:
    async with serving(demo_app()) as running, httpx2.AsyncClient() as http:
        in_path = await http.get(f"{running.url}/{SENTINEL}")
        as_method = await post(http, running.mcp_url, rpc(SENTINEL), token="t")
        as_tool = await post(http, running.mcp_url, tool_call(SENTINEL), token="t")
    assert in_path.status_code == 404
    assert as_method.json()["error"]["code"] == -32601
    assert as_tool.json()["result"]["isError"] is True
    lines = access_lines(access)
    assert [line["path"] for line in lines] == ["(other)", "/mcp", "/mcp"]
    assert lines[1]["rpc_method"] == "(other)"
    assert lines[2]["tool"] == "(unknown)"
    assert SENTINEL not in server_log(access)


async def test_the_request_id_comes_back_and_an_unsafe_one_is_replaced() -> None:
    async with serving(demo_app()) as running, httpx2.AsyncClient() as http:
        kept = await http.get(f"{running.url}/healthz", headers={"X-Request-Id": "abc-123"})
        replaced = await http.get(f"{running.url}/healthz", headers={"X-Request-Id": "bad id\twith spaces"})
    assert kept.headers["x-request-id"] == "abc-123"
    assert replaced.headers["x-request-id"] not in ("", "bad id\twith spaces")


async def test_readiness_can_include_whether_the_instance_answers() -> None:
    options = HttpSettings(ready_checks_instance=True)

    async def api_root(request: web.Request) -> web.Response:
        return web.json_response({"message": "login required"}, status=401)

    instance = web.Application()
    instance.router.add_get("/openproject/api/v3", api_root)
    async with TestServer(instance, host="127.0.0.1") as upstream:
        reachable_url = str(upstream.make_url("/openproject/"))
        app = demo_app(options=options, instance_url=reachable_url)
        async with serving(app, options) as running, httpx2.AsyncClient() as http:
            ready = await http.get(f"{running.url}/readyz")
    down_app = demo_app(options=options, instance_url=f"http://127.0.0.1:{free_port()}/")
    async with serving(down_app, options) as running, httpx2.AsyncClient() as http:
        down = await http.get(f"{running.url}/readyz")
        health = await http.get(f"{running.url}/healthz")
    assert (ready.status_code, ready.json()["checks"]) == (200, {"configuration": "ok", "instance": "ok"})
    assert down.status_code == 503
    assert down.json() == {"status": "unavailable", "checks": {"configuration": "ok", "instance": "unreachable"}}
    assert health.status_code == 200, "liveness does not depend on the instance"


async def test_a_token_sent_as_the_http_method_is_not_logged(access: pytest.LogCaptureFixture) -> None:
    async with serving(demo_app()) as running, httpx2.AsyncClient() as http:
        await http.request(SENTINEL, f"{running.url}/healthz")
        await http.get(f"{running.url}/healthz")
    methods = [line["method"] for line in access_lines(access)]
    assert methods == ["(other)", "GET"]
    assert SENTINEL not in server_log(access)
