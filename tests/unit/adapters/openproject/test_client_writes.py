"""Requests that are not idempotent (POST, PATCH): sent once, never repeated once they may have
reached OpenProject, and failing with an error that says their outcome is unknown, unless the
answer is a refusal the client reads. A request its caller calls repeatable (a form) is retried
like a read."""

from __future__ import annotations

import aiohttp
import pytest
from aioresponses import aioresponses

from openproject_mcp.adapters.openproject.client import OUTCOME_UNKNOWN_HINT, OpenProjectClient
from openproject_mcp.adapters.openproject.endpoints import ALL_ENDPOINTS, Endpoint, Method
from openproject_mcp.domain.errors import NetworkError, OpenProjectMcpError, RateLimitedError, UpstreamServerError
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


def hal_error(name: str, message: str) -> dict[str, str]:
    return {"_type": "Error", "errorIdentifier": f"urn:openproject-org:api:v3:errors:{name}", "message": message}


@pytest.mark.parametrize("method", WRITES)
@pytest.mark.parametrize("status", [500, 501, 502, 503, 504, 507])
async def test_any_5xx_on_a_write_is_outcome_unknown_and_never_says_try_again_later(
    client: OpenProjectClient, mocked: aioresponses, sleeps: Sleeps, method: Method, status: int
) -> None:
    # A 500 may come after OpenProject saved the change (a failure rendering the answer); a retry
    # "later" would then post a comment or a time entry twice.
    body = hal_error("InternalServerError", "An internal error has occurred.")
    register(mocked, method, status=status, payload=body, repeat=True)
    with pytest.raises(UpstreamServerError) as caught:
        await client.request(method, PATH, body={})
    assert sent(mocked, method) == 1 and sleeps == []
    assert caught.value.status == status and f"HTTP {status}" in caught.value.message
    assert "outcome is unknown" in caught.value.message and "not sent again" in caught.value.message
    assert caught.value.hint == OUTCOME_UNKNOWN_HINT and "later" not in caught.value.hint


async def test_only_a_refusal_the_client_reads_says_a_write_was_not_applied(
    client: OpenProjectClient, mocked: aioresponses, sleeps: Sleeps
) -> None:
    refusals = {
        400: hal_error("InvalidRequestBody", "The request body was invalid."),
        401: hal_error("Unauthenticated", "You need to be authenticated."),
        403: hal_error("MissingPermission", "You are not authorized to access this resource."),
        404: hal_error("NotFound", "The requested resource could not be found."),
        409: hal_error("UpdateConflict", "Your changes could not be saved."),
        422: hal_error("PropertyConstraintViolation", "Subject can't be blank."),
        405: hal_error("NotFound", "The requested resource could not be found."),  # an error OpenProject names
    }
    # Answers nothing here reads as "not applied": a redirect (a 303 is how a web application answers
    # a POST it applied), a 4xx OpenProject does not use, a status that is no error.
    unreadable: dict[int, dict[str, str] | None] = {303: None, 307: None, 418: None, 413: None, 304: None}
    seen: dict[int, bool] = {}
    for status, body in {**refusals, **unreadable}.items():
        path = f"api/v3/work_packages/{status}/activities"
        mocked.post(f"{BASE}{path}", status=status, payload=body, headers={"Location": f"{BASE}elsewhere"})
        with pytest.raises(OpenProjectMcpError) as caught:
            await client.request("POST", path, body={})
        seen[status] = "outcome is unknown" in caught.value.message
        if seen[status]:
            assert caught.value.hint is not None and caught.value.hint.startswith(OUTCOME_UNKNOWN_HINT)
            assert "later" not in caught.value.hint and TOKEN not in caught.value.message
    assert seen == {status: status in unreadable for status in seen}
    assert len(issued(mocked)) == len(seen) and sleeps == []  # each sent once


@pytest.mark.parametrize(
    ("answer", "sends"),
    [
        ({"status": 503}, 4),
        ({"status": 502, "headers": {"Retry-After": "0"}}, 4),
        ({"exception": aiohttp.ServerDisconnectedError()}, 4),
        ({"exception": aiohttp.ClientOSError(104, "Connection reset by peer")}, 4),
        ({"status": 500}, 1),
        ({"exception": TimeoutError()}, 1),
    ],
    ids=["503", "502-retry-after", "disconnected", "reset", "500", "timeout"],
)
async def test_a_repeatable_post_follows_the_retry_policy_of_a_read(
    client: OpenProjectClient, mocked: aioresponses, sleeps: Sleeps, answer: dict[str, object], sends: int
) -> None:
    mocked.get(f"{BASE}{PATH}", repeat=True, **answer)
    register(mocked, "POST", repeat=True, **answer)
    with pytest.raises(OpenProjectMcpError) as read:
        await client.request("GET", PATH)
    read_sleeps = list(sleeps)
    sleeps.clear()
    with pytest.raises(OpenProjectMcpError) as checked:
        await client.request("POST", PATH, body={"subject": "S"}, repeatable=True)
    assert sent(mocked, "GET") == sent(mocked, "POST") == sends
    assert sleeps == read_sleeps and type(checked.value) is type(read.value)
    assert "outcome is unknown" not in checked.value.message and f"POST /{PATH}" in checked.value.message


async def test_a_repeatable_post_that_succeeds_on_a_retry_returns_its_answer(
    client: OpenProjectClient, mocked: aioresponses, sleeps: Sleeps
) -> None:
    register(mocked, "POST", exception=aiohttp.ServerDisconnectedError())
    register(mocked, "POST", status=503)
    register(mocked, "POST", status=200, payload={"_type": "Form"})
    assert await client.request("POST", PATH, body={}, repeatable=True) == b'{"_type": "Form"}'
    assert sent(mocked, "POST") == 3 and len(sleeps) == 2
    [(_, calls)] = [(key, calls) for key, calls in mocked.requests.items() if key[0] == "POST"]
    assert [call.kwargs["json"] for call in calls] == [{}, {}, {}]  # the same body each time


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
