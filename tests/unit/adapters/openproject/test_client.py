"""The HTTP client: base URL, session, retries and their budget, error mapping, redaction."""

from __future__ import annotations

import asyncio
import base64
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime

import aiohttp
import pytest
from aioresponses import CallbackResult, aioresponses

from openproject_mcp.adapters.openproject.client import (
    ClientSettings,
    ForeignHrefError,
    OpenProjectClient,
    TenantLimiters,
    absolute_url,
    basic_credentials,
    normalize_base_url,
    open_session,
    parse_retry_after,
    relative_path_for,
)
from openproject_mcp.application.caching import tenant_key
from openproject_mcp.domain.errors import (
    AuthenticationError,
    ForbiddenError,
    InvalidQueryError,
    NetworkError,
    NotFoundError,
    OpenProjectMcpError,
    RateLimitedError,
    UpstreamServerError,
)
from tests.unit.adapters.openproject.conftest import BASE, TOKEN, ClientMaker, Sleeps, issued

PING = "api/v3/ping"


def hal_error(name: str, message: str) -> dict[str, str]:
    return {
        "_type": "Error",
        "errorIdentifier": f"urn:openproject-org:api:v3:errors:{name}",
        "message": message,
    }


# Base URL and settings -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ("https://op.example.com", "https://op.example.com/"),
        ("https://op.example.com/", "https://op.example.com/"),
        ("  HTTPS://OP.Example.com  ", "https://op.example.com/"),
        ("http://localhost:8080", "http://localhost:8080/"),
        ("https://op.example.com:443/", "https://op.example.com/"),
        ("https://host/openproject", "https://host/openproject/"),
        ("https://host/openproject/", "https://host/openproject/"),
        ("https://host/openproject/api/v3", "https://host/openproject/"),
        ("https://host/api/v3/", "https://host/"),
        ("http://[::1]:3000", "http://[::1]:3000/"),
    ],
)
def test_base_url_is_normalised(given: str, expected: str) -> None:
    assert normalize_base_url(given) == expected
    assert ClientSettings(given).base_url == expected


@pytest.mark.parametrize(
    ("given", "complaint"),
    [
        ("", "empty"),
        ("op.example.com", "http:// or https://"),
        ("ftp://op.example.com/", "http:// or https://"),
        ("https://", "no host"),
        ("https://user:secret@op.example.com/", "credentials"),
        ("https://op.example.com/?x=1", "query or fragment"),
        ("https://op.example.com:99999/", "invalid port"),
    ],
)
def test_bad_base_urls_are_refused_with_a_reason(given: str, complaint: str) -> None:
    with pytest.raises(ValueError, match=complaint):
        normalize_base_url(given)


def test_settings_defaults_and_validation() -> None:
    settings = ClientSettings("https://op.example.com")
    assert (settings.timeout_seconds, settings.max_retries, settings.retry_budget_seconds) == (30.0, 3, 20.0)
    assert (settings.max_retry_after_seconds, settings.max_concurrency) == (30.0, 16)
    with pytest.raises(ValueError, match="max_concurrency"):
        ClientSettings(BASE, max_concurrency=0)
    with pytest.raises(ValueError, match="timeout"):
        ClientSettings(BASE, timeout_seconds=0)


# Session ---------------------------------------------------------------------------------------


async def test_open_session_headers_timeout_and_shared_connector() -> None:
    settings = ClientSettings("https://host/openproject", timeout_seconds=12)
    connector = aiohttp.TCPConnector()
    try:
        async with asynccontextmanager(open_session)(settings, TOKEN, connector) as session:
            assert session.headers["Accept"] == "application/hal+json"
            expected = "Basic " + base64.b64encode(f"apikey:{TOKEN}".encode()).decode()
            assert session.headers["Authorization"] == expected
            assert session.timeout.total == 12
            assert str(session._base_url) == "https://host/openproject/"
        assert session.closed
        assert not connector.closed  # the shared pool outlives the call's session
    finally:
        await connector.close()


def test_a_missing_token_is_an_authentication_error() -> None:
    with pytest.raises(AuthenticationError) as caught:
        basic_credentials("  ")
    assert caught.value.hint and "OPENPROJECT_API_KEY" in caught.value.hint


async def test_sub_path_is_kept_for_relative_request_paths(make_client: ClientMaker, mocked: aioresponses) -> None:
    base = "https://host/openproject/"
    client = await make_client(base)
    mocked.get(f"{base}api/v3/projects?pageSize=1", payload={"total": 0})
    await client.get("api/v3/projects", {"pageSize": 1})
    assert [str(url) for _, url in issued(mocked)] == [f"{base}api/v3/projects?pageSize=1"]


async def test_absolute_request_paths_are_refused(client: OpenProjectClient) -> None:
    with pytest.raises(ValueError, match="relative"):
        await client.get("/api/v3/projects")
    with pytest.raises(ValueError, match="relative"):
        await client.get("https://evil.example.com/api/v3/projects")


# Following hrefs -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("base", "href", "expected"),
    [
        (BASE, "/api/v3/users/4", "api/v3/users/4"),
        (BASE, "https://op.example.com/api/v3/users/4", "api/v3/users/4"),
        (BASE, "https://OP.example.com:443/api/v3/users/4", "api/v3/users/4"),
        (BASE, "/api/v3/work_packages?filters=%5B%5D", "api/v3/work_packages?filters=%5B%5D"),
        ("https://host/openproject/", "/openproject/api/v3/users/4", "api/v3/users/4"),
        ("https://host/openproject/", "api/v3/users/4", "api/v3/users/4"),
    ],
)
def test_hrefs_on_the_instance_become_relative_paths(base: str, href: str, expected: str) -> None:
    assert relative_path_for(href, base) == expected


@pytest.mark.parametrize(
    ("base", "href"),
    [
        (BASE, "https://evil.example.com/api/v3/users/4"),
        (BASE, "http://op.example.com/api/v3/users/4"),
        (BASE, "https://op.example.com:8443/api/v3/users/4"),
        (BASE, "//evil.example.com/api/v3/users/4"),
        ("https://host/openproject/", "/api/v3/users/4"),
        ("https://host/openproject/", "/other-app/api/v3/users/4"),
    ],
)
def test_hrefs_elsewhere_are_refused(base: str, href: str) -> None:
    with pytest.raises(ForeignHrefError):
        relative_path_for(href, base)


def test_absolute_urls_resolve_against_the_base() -> None:
    base = "https://host/openproject/"
    assert absolute_url("/openproject/api/v3/attachments/1/content", base) == (
        "https://host/openproject/api/v3/attachments/1/content"
    )
    assert absolute_url("https://s3.example.com/x.png", base) == "https://s3.example.com/x.png"


# Retries -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("status", [429, 502, 503, 504])
async def test_transient_statuses_are_retried_with_exponential_backoff(
    client: OpenProjectClient, mocked: aioresponses, sleeps: Sleeps, status: int
) -> None:
    mocked.get(f"{BASE}{PING}", status=status)
    mocked.get(f"{BASE}{PING}", status=status)
    mocked.get(f"{BASE}{PING}", payload={"ok": True})
    assert await client.get(PING) == b'{"ok": true}'
    # base 0.5 s doubling, "equal jitter" with jitter=0.5: 3/4 of each step
    assert sleeps == [0.375, 0.75]
    assert client.slept_seconds == pytest.approx(1.125)


@pytest.mark.parametrize("status", [400, 401, 403, 404, 422, 500, 501])
async def test_other_statuses_are_not_retried(
    client: OpenProjectClient, mocked: aioresponses, sleeps: Sleeps, status: int
) -> None:
    mocked.get(f"{BASE}{PING}", status=status, payload=hal_error("X", "no"), repeat=True)
    with pytest.raises(OpenProjectMcpError):
        await client.get(PING)
    assert sleeps == []
    assert len(issued(mocked)) == 1


async def test_retries_stop_after_max_retries(make_client: ClientMaker, mocked: aioresponses, sleeps: Sleeps) -> None:
    client = await make_client(max_retries=2)
    mocked.get(f"{BASE}{PING}", status=503, repeat=True)
    with pytest.raises(UpstreamServerError) as caught:
        await client.get(PING)
    assert len(issued(mocked)) == 3
    assert len(sleeps) == 2
    assert "503" in caught.value.message and "after 2 retries" in caught.value.message
    assert caught.value.status == 503


async def test_the_retry_budget_is_shared_by_all_requests_of_a_call(
    make_client: ClientMaker, mocked: aioresponses, sleeps: Sleeps
) -> None:
    client = await make_client(retry_budget_seconds=1.0, max_retries=10)
    mocked.get(f"{BASE}{PING}", status=502, repeat=True)
    with pytest.raises(UpstreamServerError):
        await client.get(PING)
    # 0.375 + 0.75 > 1.0: only the first sleep fits in the budget
    assert sleeps == [0.375]
    with pytest.raises(UpstreamServerError):
        await client.get(PING)
    assert sleeps == [0.375, 0.375]  # the next request of the same call gets what is left
    with pytest.raises(UpstreamServerError):
        await client.get(PING)
    assert sleeps == [0.375, 0.375]  # and then nothing
    assert client.slept_seconds == 0.75
    assert len(issued(mocked)) == 2 + 2 + 1


async def test_retry_after_in_seconds_is_honoured(
    client: OpenProjectClient, mocked: aioresponses, sleeps: Sleeps
) -> None:
    mocked.get(f"{BASE}{PING}", status=429, headers={"Retry-After": "7"})
    mocked.get(f"{BASE}{PING}", payload={})
    await client.get(PING)
    assert sleeps == [7.0]


async def test_retry_after_as_an_http_date_is_honoured(
    make_client: ClientMaker, mocked: aioresponses, sleeps: Sleeps
) -> None:
    client = await make_client()
    now = datetime(2026, 9, 1, 12, 0, 0, tzinfo=UTC)
    client._clock = lambda: now
    mocked.get(f"{BASE}{PING}", status=503, headers={"Retry-After": format_datetime(now + timedelta(seconds=4))})
    mocked.get(f"{BASE}{PING}", payload={})
    await client.get(PING)
    assert sleeps == [4.0]


async def test_a_retry_after_beyond_the_cap_is_reported_at_once(
    client: OpenProjectClient, mocked: aioresponses, sleeps: Sleeps
) -> None:
    mocked.get(f"{BASE}{PING}", status=429, headers={"Retry-After": "120"}, repeat=True)
    with pytest.raises(RateLimitedError) as caught:
        await client.get(PING)
    assert sleeps == []
    assert caught.value.retry_after_seconds == 120
    assert "120 seconds" in caught.value.message


async def test_a_retry_after_beyond_the_budget_is_reported_at_once(
    make_client: ClientMaker, mocked: aioresponses, sleeps: Sleeps
) -> None:
    client = await make_client(retry_budget_seconds=5)
    mocked.get(f"{BASE}{PING}", status=429, headers={"Retry-After": "6"}, repeat=True)
    with pytest.raises(RateLimitedError):
        await client.get(PING)
    assert sleeps == []


async def test_429_is_reported_after_the_retries_with_the_wait(
    client: OpenProjectClient, mocked: aioresponses, sleeps: Sleeps
) -> None:
    body = hal_error("TooManyRequests", "Too many requests.")
    mocked.get(f"{BASE}{PING}", status=429, headers={"Retry-After": "2"}, payload=body, repeat=True)
    with pytest.raises(RateLimitedError) as caught:
        await client.get(PING)
    assert sleeps == [2.0, 2.0, 2.0]
    assert len(issued(mocked)) == 4
    error = caught.value
    assert error.retry_after_seconds == 2 and error.status == 429 and error.aborts_search
    assert "wait 2 seconds" in error.message and "after 3 retries" in error.message


async def test_429_without_retry_after_still_says_to_wait(make_client: ClientMaker, mocked: aioresponses) -> None:
    client = await make_client(max_retries=0)
    mocked.get(f"{BASE}{PING}", status=429)
    with pytest.raises(RateLimitedError) as caught:
        await client.get(PING)
    assert caught.value.retry_after_seconds is None
    assert "wait" in caught.value.message


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        (None, None),
        ("", None),
        ("5", 5.0),
        ("0", 0.0),
        ("-3", 0.0),
        ("1.5", 1.5),
        ("nan", None),
        ("soon", None),
        ("Tue, 01 Sep 2026 12:00:10 GMT", 10.0),
        ("Tue, 01 Sep 2026 11:59:00 GMT", 0.0),
    ],
)
def test_retry_after_parsing(header: str | None, expected: float | None) -> None:
    now = datetime(2026, 9, 1, 12, 0, 0, tzinfo=UTC)
    assert parse_retry_after(header, now) == expected


async def test_connection_resets_are_retried(client: OpenProjectClient, mocked: aioresponses, sleeps: Sleeps) -> None:
    mocked.get(f"{BASE}{PING}", exception=aiohttp.ServerDisconnectedError())
    mocked.get(f"{BASE}{PING}", exception=aiohttp.ClientOSError(104, "Connection reset by peer"))
    mocked.get(f"{BASE}{PING}", payload={"ok": 1})
    assert await client.get(PING) == b'{"ok": 1}'
    assert len(sleeps) == 2


async def test_connection_resets_end_in_a_network_error(
    client: OpenProjectClient, mocked: aioresponses, sleeps: Sleeps
) -> None:
    mocked.get(f"{BASE}{PING}", exception=aiohttp.ServerDisconnectedError(), repeat=True)
    with pytest.raises(NetworkError):
        await client.get(PING)
    assert len(sleeps) == 3


async def test_a_refused_connection_is_a_network_error_at_once(
    client: OpenProjectClient, mocked: aioresponses, sleeps: Sleeps
) -> None:
    refused = aiohttp.ClientConnectorError(
        aiohttp.client_reqrep.ConnectionKey("op.example.com", 443, True, True, None, None, None),
        OSError(111, "Connection refused"),
    )
    mocked.get(f"{BASE}{PING}", exception=refused, repeat=True)
    with pytest.raises(NetworkError) as caught:
        await client.get(PING)
    assert sleeps == []
    assert caught.value.hint and "OPENPROJECT_BASE_URL" in caught.value.hint


@pytest.mark.parametrize("failure", [TimeoutError(), aiohttp.ServerTimeoutError("read timed out")])
async def test_timeouts_are_network_errors(
    client: OpenProjectClient, mocked: aioresponses, sleeps: Sleeps, failure: Exception
) -> None:
    mocked.get(f"{BASE}{PING}", exception=failure, repeat=True)
    with pytest.raises(NetworkError) as caught:
        await client.get(PING)
    assert "did not answer" in caught.value.message and "30 seconds" in caught.value.message
    assert sleeps == []


async def test_redirects_are_not_followed(client: OpenProjectClient, mocked: aioresponses) -> None:
    mocked.get(f"{BASE}{PING}", status=302, headers={"Location": "https://login.example.com/"})
    with pytest.raises(UpstreamServerError) as caught:
        await client.get(PING)
    assert "redirected" in caught.value.message
    assert len(issued(mocked)) == 1


# Error mapping -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("status", "reason", "name", "expected"),
    [
        (401, "Unauthorized", "Unauthenticated", AuthenticationError),
        (403, "Forbidden", "MissingPermission", ForbiddenError),
        (404, "Not Found", "NotFound", NotFoundError),
        (400, "Bad Request", "InvalidQuery", InvalidQueryError),
        (422, "Unprocessable Entity", "PropertyConstraintViolation", InvalidQueryError),
        (500, "Internal Server Error", "InternalServerError", UpstreamServerError),
        (501, "Not Implemented", None, UpstreamServerError),
        (502, "Bad Gateway", None, UpstreamServerError),
        (503, "Service Unavailable", None, UpstreamServerError),
        (504, "Gateway Timeout", None, UpstreamServerError),
        (409, "Conflict", "UpdateConflict", UpstreamServerError),
        (418, "I'm a teapot", "NotFound", NotFoundError),
        (418, "I'm a teapot", "MissingPermission", ForbiddenError),
        (418, "I'm a teapot", "TooManyRequests", RateLimitedError),
    ],
)
async def test_statuses_and_identifiers_map_to_core_errors(
    make_client: ClientMaker,
    mocked: aioresponses,
    status: int,
    reason: str,
    name: str | None,
    expected: type[OpenProjectMcpError],
) -> None:
    client = await make_client(max_retries=0)

    def answer(url: object, **kwargs: object) -> CallbackResult:
        body = hal_error(name, f"OpenProject says {name}") if name else None
        return CallbackResult(status=status, reason=reason, payload=body)

    mocked.get(f"{BASE}{PING}", callback=answer)
    with pytest.raises(OpenProjectMcpError) as caught:
        await client.get(PING)
    assert type(caught.value) is expected
    if name and expected is not RateLimitedError:
        assert f"OpenProject says {name}" in caught.value.message
    if expected is not RateLimitedError:
        assert caught.value.status == status


async def test_401_carries_the_token_hint(client: OpenProjectClient, mocked: aioresponses) -> None:
    mocked.get(
        f"{BASE}{PING}",
        callback=lambda url, **kw: CallbackResult(
            status=401, reason="Unauthorized", payload=hal_error("Unauthenticated", "You need to be authenticated.")
        ),
    )
    with pytest.raises(AuthenticationError) as caught:
        await client.get(PING)
    assert "You need to be authenticated." in caught.value.message
    assert caught.value.hint and "OPENPROJECT_API_KEY" in caught.value.hint
    assert "My account" in caught.value.hint and "Access tokens" in caught.value.hint


async def test_invalid_query_carries_openprojects_message(client: OpenProjectClient, mocked: aioresponses) -> None:
    mocked.get(f"{BASE}{PING}", status=400, payload=hal_error("InvalidQuery", "Filters Invalid filter does not exist."))
    with pytest.raises(InvalidQueryError, match=r"Filters Invalid filter does not exist\."):
        await client.get(PING)


async def test_multiple_errors_show_their_details(client: OpenProjectClient, mocked: aioresponses) -> None:
    body = {
        **hal_error("MultipleErrors", "Multiple field constraints have been violated."),
        "_embedded": {"errors": [{"message": "Subject can't be blank."}, {"message": "Type is invalid."}]},
    }
    mocked.get(f"{BASE}{PING}", status=422, payload=body)
    with pytest.raises(InvalidQueryError, match=r"Subject can't be blank\. Type is invalid\."):
        await client.get(PING)


async def test_an_error_without_a_hal_body_still_maps(client: OpenProjectClient, mocked: aioresponses) -> None:
    mocked.get(f"{BASE}{PING}", status=404, body="<html>nope</html>", content_type="text/html")
    with pytest.raises(NotFoundError, match="HTTP 404"):
        await client.get(PING)


# Redaction ---------------------------------------------------------------------------------------

_BASIC = base64.b64encode(f"apikey:{TOKEN}".encode()).decode()
_LEAKS = [TOKEN, base64.b64encode(TOKEN.encode()).decode(), _BASIC, _BASIC.rstrip("=")]


def assert_no_token(error: OpenProjectMcpError) -> None:
    for text in (error.message, str(error), error.hint or ""):
        for leak in _LEAKS:
            assert leak not in text, f"token leaked into {text!r}"


@pytest.mark.parametrize("status", [400, 401, 403, 404, 422, 429, 500, 503, 418])
async def test_the_token_never_appears_in_status_errors(
    make_client: ClientMaker, mocked: aioresponses, status: int
) -> None:
    client = await make_client(max_retries=0)
    echo = f"token {TOKEN} basic {_BASIC} b64 {_LEAKS[1]} header Basic {_BASIC}"
    mocked.get(f"{BASE}{PING}", status=status, payload=hal_error("InvalidQuery", echo), reason="Echo " + TOKEN)
    with pytest.raises(OpenProjectMcpError) as caught:
        await client.get(PING)
    assert_no_token(caught.value)


@pytest.mark.parametrize(
    "exception",
    [
        aiohttp.ClientConnectionError(f"cannot connect with {TOKEN}"),
        aiohttp.ServerDisconnectedError(f"dropped Authorization: Basic {_BASIC}"),
        aiohttp.ClientPayloadError(f"broken body {_LEAKS[1]}"),
        aiohttp.InvalidURL(f"https://apikey:{TOKEN}@op.example.com/"),
    ],
)
async def test_the_token_never_appears_in_transport_errors(
    make_client: ClientMaker, mocked: aioresponses, exception: Exception
) -> None:
    client = await make_client(max_retries=0)
    mocked.get(f"{BASE}{PING}", exception=exception)
    with pytest.raises(OpenProjectMcpError) as caught:
        await client.get(PING)
    assert_no_token(caught.value)
    assert "[redacted]" in caught.value.message


# Concurrency -------------------------------------------------------------------------------------


def test_tenant_limiters_share_one_semaphore_per_tenant() -> None:
    limiters = TenantLimiters(max_concurrency=3)
    alice = tenant_key(BASE, "alice-token")
    first = limiters.for_tenant(alice)
    assert limiters.for_tenant(alice) is first
    assert limiters.for_tenant(tenant_key(BASE, "bob-token")) is not first
    assert "alice-token" not in alice
    assert first._value == 3


def test_tenant_limiters_forget_tenants_nobody_uses() -> None:
    limiters = TenantLimiters()
    limiters.for_tenant("a")
    assert len(limiters) == 0  # nothing held it


async def test_requests_in_flight_are_bounded_by_the_tenant_limiter(
    make_client: ClientMaker, mocked: aioresponses
) -> None:
    limiter = asyncio.Semaphore(2)
    clients = [await make_client(limiter=limiter), await make_client(limiter=limiter)]
    in_flight = 0
    peak = 0

    async def slow(url: object, **kwargs: object) -> CallbackResult:
        nonlocal in_flight, peak
        in_flight += 1
        peak = max(peak, in_flight)
        await asyncio.sleep(0.01)
        in_flight -= 1
        return CallbackResult(payload={})

    mocked.get(f"{BASE}{PING}", callback=slow, repeat=True)
    await asyncio.gather(*(c.get(PING) for c in clients for _ in range(5)))
    assert peak == 2


# Against a real socket: what aioresponses cannot fake faithfully -------------------------------


@asynccontextmanager
async def raw_server(
    handler: Callable[[asyncio.StreamReader, asyncio.StreamWriter], Awaitable[None]],
) -> AsyncIterator[str]:
    server = await asyncio.start_server(handler, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    try:
        yield f"http://127.0.0.1:{port}/sub/"
    finally:
        server.close()
        await server.wait_closed()


async def _read_request(reader: asyncio.StreamReader) -> str:
    return (await reader.readuntil(b"\r\n\r\n")).decode()


async def test_a_truncated_body_is_an_unreadable_answer(make_client: ClientMaker) -> None:
    async def truncated(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await _read_request(reader)
        writer.write(
            b"HTTP/1.1 200 OK\r\nContent-Type: application/hal+json\r\nContent-Length: 500\r\n\r\n"
            b'{"_type": "Collection", "total": 3, "_embedded": {"elem'
        )
        await writer.drain()
        writer.close()

    async with raw_server(truncated) as base:
        client = await make_client(base)
        with pytest.raises(UpstreamServerError, match="could not be read"):
            await client.get(PING)


async def test_a_slow_server_times_out_as_a_network_error(make_client: ClientMaker) -> None:
    release = asyncio.Event()

    async def silent(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await _read_request(reader)
        await release.wait()
        writer.close()

    async with raw_server(silent) as base:
        client = await make_client(base, timeout_seconds=0.2)
        try:
            with pytest.raises(NetworkError, match=r"did not answer GET /api/v3/ping within 0.2 seconds"):
                await client.get(PING)
        finally:
            release.set()


async def test_requests_keep_the_sub_path_and_send_credentials_on_the_wire(make_client: ClientMaker) -> None:
    seen: list[str] = []

    async def echo(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        seen.append(await _read_request(reader))
        writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: application/hal+json\r\nContent-Length: 2\r\n\r\n{}")
        await writer.drain()
        writer.close()

    async with raw_server(echo) as base:
        client = await make_client(base)
        await client.get("api/v3/projects", {"pageSize": 1})
    request = seen[0]
    assert request.startswith("GET /sub/api/v3/projects?pageSize=1 HTTP/1.1")
    assert f"Authorization: Basic {_BASIC}" in request
    assert "Accept: application/hal+json" in request


async def test_a_dropped_connection_is_retried_then_reported(make_client: ClientMaker, sleeps: Sleeps) -> None:
    connections = 0

    async def hang_up(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        nonlocal connections
        connections += 1
        await _read_request(reader)
        writer.close()

    async with raw_server(hang_up) as base:
        client = await make_client(base)
        with pytest.raises(NetworkError):
            await client.get(PING)
    assert len(sleeps) == 3  # our three retries...
    assert connections >= 4  # ...on top of the one aiohttp itself may make for an idempotent request
