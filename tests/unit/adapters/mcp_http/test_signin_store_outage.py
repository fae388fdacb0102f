"""Sign-in over a shared store that stops answering (ADR 0078): a real ``redis-server``, stopped or
paused, under the served app, with the fake OpenProject as the OAuth provider.

While the store cannot be read, nothing a client holds may look unknown: the access token is not
``invalid_token``, the refresh token is not ``invalid_grant``, the client is not ``invalid_client``
(a client discards its tokens or its registration on those) and ``/register`` does not answer 201
for a registration it did not keep. Each answers 503 with ``Retry-After``; once the store answers
again, the same tokens work (where the store kept them: a paused Redis does, a killed test one
does not).
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, replace
from urllib.parse import urlencode

import anyio
import httpx2
import pytest
import redis

from openproject_mcp.adapters.mcp.hosting import build_http_app, make_server
from openproject_mcp.adapters.mcp.hosting.signin import OpenProjectSignIn, SignInServer, SignInSite, pkce_challenge
from openproject_mcp.adapters.mcp.server import build_server
from openproject_mcp.composition import Application
from openproject_mcp.config import HttpSettings, Settings, SignInSettings
from tests.e2e.test_http_signin import Browser
from tests.support.fake_openproject import FakeOAuth, FakeOpenProject
from tests.support.redis_server import RedisServer
from tests.unit.adapters.mcp_http.serving import loopback_socket, post, tenant_dataset, tool_call

ALPHA = "alpha-api-token-3c1f"
CLIENT_ID, CLIENT_SECRET = "openproject-mcp-app", "app-secret-7f0c2b9e41d5"
REDIRECT = "http://127.0.0.1:9/client-callback"
VERIFIER = "v" * 64


@dataclass
class Served:
    url: str
    oauth: FakeOAuth

    @property
    def mcp_url(self) -> str:
        return f"{self.url}/mcp"


@asynccontextmanager
async def served_with_redis(redis_url: str) -> AsyncIterator[Served]:
    sock = loopback_socket()
    public = f"http://127.0.0.1:{sock.getsockname()[1]}"
    oauth = FakeOAuth()
    oauth.register(CLIENT_ID, CLIENT_SECRET, f"{public}/oauth/callback")
    async with FakeOpenProject({ALPHA: tenant_dataset("Alphacorp")}, oauth=oauth) as fake:
        settings = Settings(
            backend="openproject", base_url=fake.base_url, redis_url=redis_url, redis_timeout_seconds=0.3
        )
        application = Application(settings, shared=True)
        store, upstream = application.signin_parts(SignInSettings(CLIENT_ID, CLIENT_SECRET, public, (os.urandom(32),)))
        options = HttpSettings(request_timeout_seconds=60, rate_limit_per_minute=0)
        app = build_http_app(
            build_server(application.scope),
            options,
            credentials_required=True,
            instance=settings.instance,
            signin=SignInServer(OpenProjectSignIn(store, upstream, SignInSite(public))),
        )
        server = make_server(app, replace(options, port=sock.getsockname()[1]))
        task = asyncio.create_task(server.serve(sockets=[sock]))
        try:
            with anyio.fail_after(10):
                while not server.started:
                    if task.done():
                        task.result()
                    await asyncio.sleep(0.01)
            yield Served(public, oauth)
        finally:
            server.request_shutdown()
            with anyio.fail_after(15):
                await task
            await application.aclose()


@dataclass
class Signed:
    client_id: str
    access: str
    refresh: str


async def register(http: httpx2.AsyncClient, served: Served) -> httpx2.Response:
    return await http.post(
        f"{served.url}/register",
        json={
            "redirect_uris": [REDIRECT],
            "grant_types": ["authorization_code", "refresh_token"],
            "response_types": ["code"],
            "token_endpoint_auth_method": "none",
            "client_name": "the tests",
        },
    )


def authorize_link(served: Served, client_id: str) -> str:
    query = {
        "response_type": "code",
        "client_id": client_id,
        "redirect_uri": REDIRECT,
        "state": "s-1",
        "code_challenge": pkce_challenge(VERIFIER),
        "code_challenge_method": "S256",
    }
    return f"{served.url}/authorize?{urlencode(query)}"


async def sign_in(http: httpx2.AsyncClient, served: Served) -> Signed:
    registered = await register(http, served)
    assert registered.status_code == 201, registered.text
    client_id = registered.json()["client_id"]
    browser = Browser(redirect=REDIRECT)
    await browser.open(authorize_link(served, client_id))
    tokens = await http.post(
        f"{served.url}/token",
        data={
            "grant_type": "authorization_code",
            "code": (await browser.callback()).code,
            "redirect_uri": REDIRECT,
            "client_id": client_id,
            "code_verifier": VERIFIER,
        },
    )
    assert tokens.status_code == 200, tokens.text
    return Signed(client_id, tokens.json()["access_token"], tokens.json()["refresh_token"])


async def call(http: httpx2.AsyncClient, served: Served, access: str) -> httpx2.Response:
    return await post(http, served.mcp_url, tool_call("openproject_list_projects"), token=access)


async def refresh(http: httpx2.AsyncClient, served: Served, signed: Signed) -> httpx2.Response:
    return await http.post(
        f"{served.url}/token",
        data={"grant_type": "refresh_token", "refresh_token": signed.refresh, "client_id": signed.client_id},
    )


def assert_retry_later(answer: httpx2.Response) -> None:
    assert answer.status_code == 503, (answer.status_code, answer.text)
    assert int(answer.headers["retry-after"]) >= 1
    assert "invalid_token" not in answer.headers.get("www-authenticate", "")
    for refusal in ("invalid_token", "invalid_client", "invalid_grant"):
        assert refusal not in answer.text


async def until_served(http: httpx2.AsyncClient, served: Served, access: str, seconds: float = 15) -> httpx2.Response:
    """The first answer to the same token that is not "try again later" (the store is skipped for 5 s)."""
    deadline = time.monotonic() + seconds
    while True:
        answer = await call(http, served, access)
        if answer.status_code != 503 or time.monotonic() > deadline:
            return answer
        await asyncio.sleep(0.25)


def works(answer: httpx2.Response) -> bool:
    return answer.status_code == 200 and answer.json()["result"]["isError"] is False


async def test_while_the_store_is_stopped_sign_in_answers_retry_later_and_refuses_nothing(
    redis_server: RedisServer, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    async with served_with_redis(redis_server.url) as served, httpx2.AsyncClient(timeout=30) as http:
        served.oauth.signed_in_as = ALPHA
        signed = await sign_in(http, served)
        assert works(await call(http, served, signed.access))

        await asyncio.to_thread(redis_server.stop)
        during = {
            "call": await call(http, served, signed.access),
            "refresh": await refresh(http, served, signed),
            "register": await register(http, served),
            "refresh from a web page": await http.post(
                f"{served.url}/token",
                data={"grant_type": "refresh_token", "refresh_token": signed.refresh, "client_id": signed.client_id},
                headers={"Origin": "https://inspector.example"},
            ),
            "revoke": await http.post(
                f"{served.url}/revoke", data={"token": signed.access, "client_id": signed.client_id}
            ),
        }
        authorize = await http.get(authorize_link(served, signed.client_id))
        # A killed test server keeps nothing (no persistence): signing in again works once it is back.
        await asyncio.to_thread(redis_server.start)
        await asyncio.sleep(5.1)  # the store is skipped for 5 s after a failure
        again = await sign_in(http, served)
        after = await call(http, served, again.access)

    for answer in during.values():
        assert_retry_later(answer)
    assert during["call"].json()["error"]["data"]["code"] == "SIGN_IN_STORE_UNAVAILABLE"
    assert during["refresh"].json()["error"] == "temporarily_unavailable"
    assert during["register"].json()["error"] == "temporarily_unavailable"
    # A browser client reads the wait, as it reads the SDK's own answers there (any origin).
    assert during["refresh from a web page"].headers["access-control-allow-origin"] == "*"
    assert "Retry-After" in during["refresh from a web page"].headers["access-control-expose-headers"]
    assert "access-control-allow-origin" not in during["refresh"].headers
    assert authorize.status_code == 503 and "location" not in authorize.headers
    assert "<form" not in authorize.text
    assert works(after), after.text
    # An outage is expected: logged once by the store, as a warning, never with a token in it.
    assert not [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    logged = "\n".join(r.getMessage() for r in caplog.records)
    for secret in (signed.access, signed.refresh, again.access, again.refresh, CLIENT_SECRET):
        assert secret not in logged


async def test_a_paused_store_is_retry_later_for_a_signed_in_call_and_then_the_same_token_works(
    redis_server: RedisServer,
) -> None:
    async with served_with_redis(redis_server.url) as served, httpx2.AsyncClient(timeout=30) as http:
        served.oauth.signed_in_as = ALPHA
        signed = await sign_in(http, served)
        assert works(await call(http, served, signed.access))

        raw = redis.Redis.from_url(redis_server.url)
        raw.client_pause(1500, all=True)  # slower than the 0.3 s command timeout
        slow = await call(http, served, signed.access)
        slow_refresh = await refresh(http, served, signed)
        after = await until_served(http, served, signed.access)
        refreshed = await refresh(http, served, signed)
        raw.close()
    assert_retry_later(slow)
    assert_retry_later(slow_refresh)
    # Nothing was lost: the same access token works, and the same refresh token rotates.
    assert works(after), after.text
    assert refreshed.status_code == 200, refreshed.text
