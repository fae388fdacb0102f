"""Requests that are not idempotent (POST, PATCH): sent once, never repeated once they may have
reached OpenProject, and failing with an error that says their outcome is unknown."""

from __future__ import annotations

import aiohttp
import pytest
from aioresponses import aioresponses

from openproject_mcp.adapters.openproject.client import OpenProjectClient
from openproject_mcp.adapters.openproject.endpoints import ALL_ENDPOINTS, Endpoint, Method
from openproject_mcp.domain.errors import NetworkError, RateLimitedError, UpstreamServerError
from tests.unit.adapters.openproject.conftest import BASE, TOKEN, Sleeps, issued

PATH = "api/v3/work_packages/7/activities"
WRITES: tuple[Method, ...] = ("POST", "PATCH")


def sent(mocked: aioresponses, method: str) -> int:
    return sum(1 for verb, url in issued(mocked) if verb == method and str(url).startswith(f"{BASE}{PATH}"))


def register(mocked: aioresponses, method: str, **answer: object) -> None:
    getattr(mocked, method.lower())(f"{BASE}{PATH}", **answer)


@pytest.mark.parametrize("method", WRITES)
async def test_a_write_sends_its_body_and_returns_the_answer(
    client: OpenProjectClient, mocked: aioresponses, method: Method
) -> None:
    register(mocked, method, status=201, payload={"id": 1})
    assert await client.request(method, PATH, body={"comment": {"raw": "done"}}) == b'{"id": 1}'
    [(_, calls)] = [(key, calls) for key, calls in mocked.requests.items() if key[0] == method]
    assert calls[0].kwargs["json"] == {"comment": {"raw": "done"}}


@pytest.mark.parametrize("method", WRITES)
@pytest.mark.parametrize(
    "failure",
    [
        TimeoutError(),
        aiohttp.ServerTimeoutError("read timed out"),
        aiohttp.ServerDisconnectedError(),
        aiohttp.ClientOSError(104, "Connection reset by peer"),
    ],
)
async def test_a_write_that_may_have_arrived_is_never_repeated(
    client: OpenProjectClient, mocked: aioresponses, sleeps: Sleeps, method: Method, failure: Exception
) -> None:
    register(mocked, method, exception=failure, repeat=True)
    with pytest.raises(NetworkError) as caught:
        await client.request(method, PATH, body={})
    assert sent(mocked, method) == 1 and sleeps == []
    assert "outcome is unknown" in caught.value.message and f"{method} /{PATH}" in caught.value.message
    assert caught.value.hint and "Check the current state" in caught.value.hint
    assert TOKEN not in caught.value.message


@pytest.mark.parametrize("method", WRITES)
@pytest.mark.parametrize("status", [502, 503, 504])
async def test_a_gateway_error_on_a_write_is_not_retried(
    client: OpenProjectClient, mocked: aioresponses, sleeps: Sleeps, method: Method, status: int
) -> None:
    register(mocked, method, status=status, repeat=True)
    with pytest.raises(UpstreamServerError) as caught:
        await client.request(method, PATH, body={})
    assert sent(mocked, method) == 1 and sleeps == []
    assert "outcome is unknown" in caught.value.message


@pytest.mark.parametrize("method", WRITES)
async def test_a_write_refused_with_429_was_not_processed_and_is_retried(
    client: OpenProjectClient, mocked: aioresponses, sleeps: Sleeps, method: Method
) -> None:
    register(mocked, method, status=429, headers={"Retry-After": "0"})
    register(mocked, method, status=200, payload={"ok": True})
    assert await client.request(method, PATH, body={}) == b'{"ok": true}'
    assert sent(mocked, method) == 2 and sleeps == [0.0]
    register(mocked, method, status=429, headers={"Retry-After": "0"}, repeat=True)
    with pytest.raises(RateLimitedError) as caught:
        await client.request(method, PATH, body={})
    assert f"{method} /{PATH}" in caught.value.message


async def test_a_refused_connection_never_reached_the_server(
    client: OpenProjectClient, mocked: aioresponses, sleeps: Sleeps
) -> None:
    refused = aiohttp.ClientConnectorError(
        aiohttp.client_reqrep.ConnectionKey("op.example.com", 443, True, True, None, None, None),
        OSError(111, "Connection refused"),
    )
    register(mocked, "POST", exception=refused)
    with pytest.raises(NetworkError) as caught:
        await client.request("POST", PATH, body={})
    assert "outcome is unknown" not in caught.value.message and sleeps == []


async def test_reads_are_still_retried_after_a_reset(
    client: OpenProjectClient, mocked: aioresponses, sleeps: Sleeps
) -> None:
    mocked.get(f"{BASE}{PATH}", exception=aiohttp.ServerDisconnectedError())
    mocked.get(f"{BASE}{PATH}", payload={"ok": 1})
    assert await client.request("GET", PATH) == b'{"ok": 1}'
    assert len(sleeps) == 1


def test_every_endpoint_carries_its_method_and_whether_it_may_be_repeated() -> None:
    assert {endpoint.method for endpoint in ALL_ENDPOINTS} == {"GET", "POST", "PATCH"}
    assert all(endpoint.idempotent == (endpoint.method == "GET") for endpoint in ALL_ENDPOINTS)
    assert not Endpoint("api/v3/work_packages/{id}/activities", method="POST").idempotent
    assert not Endpoint("api/v3/work_packages/{id}", method="PATCH").idempotent
