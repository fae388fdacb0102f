"""Sign in with OpenProject, end to end: the SDK's own OAuth client, no header, a real server.

The fake OpenProject plays OpenProject's OAuth provider; its "browser" is signed in as one
user and approves at once. The client registers itself, the user allows it on this server's
own consent page (the test's browser reads the form and posts it, cookie and all), is sent
through OpenProject's login and back, and then calls tools as that user, with nothing but the
tokens this server issued.
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field, replace
from html.parser import HTMLParser
from typing import Any
from urllib.parse import parse_qs, urlencode, urljoin, urlsplit

import anyio
import httpx2
import pytest
from mcp import Client
from mcp.client.auth import OAuthClientProvider
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.auth import AuthorizationCodeResult, OAuthClientInformationFull, OAuthClientMetadata, OAuthToken

from openproject_mcp.adapters.mcp.hosting import build_http_app, make_server
from openproject_mcp.adapters.mcp.hosting.signin import OpenProjectSignIn, SignInServer, SignInSite, pkce_challenge
from openproject_mcp.adapters.mcp.server import build_server
from openproject_mcp.adapters.shared_state.memory import MemoryStore
from openproject_mcp.composition import Application
from openproject_mcp.config import HttpSettings, Settings, SignInSettings
from tests.support.fake_openproject import FakeOAuth, FakeOpenProject
from tests.support.fake_openproject.oauth import ACCESS_LIFETIME
from tests.unit.adapters.mcp_http.serving import loopback_socket, post, quiet_client_loggers, tenant_dataset, tool_call

ALPHA, BRAVO = "alpha-api-token-3c1f", "bravo-api-token-9d2e"
MARKERS = {ALPHA: "Alphacorp", BRAVO: "Bravocorp"}
CLIENT_ID, CLIENT_SECRET = "openproject-mcp-app", "app-secret-7f0c2b9e41d5"
CLIENT_REDIRECT = "http://127.0.0.1:9/client-callback"
SEARCH = ("openproject_search_work_packages", {"query": "routine maintenance note"})


@dataclass
class Clock:
    """The time both OpenProject and this server read, so that tests can let hours pass."""

    offset: float = 0.0

    def __call__(self) -> float:
        return time.time() + self.offset

    def advance(self, seconds: float) -> None:
        self.offset += seconds


@dataclass
class Stack:
    fake: FakeOpenProject
    oauth: FakeOAuth
    url: str
    clock: Clock
    store: MemoryStore

    def store_dump(self) -> list[tuple[str, bytes]]:
        """Every entry of the shared store as it is held (names and sealed values)."""
        return [(name, value) for name, (_, value) in self.store._entries.items()]

    @property
    def mcp_url(self) -> str:
        return f"{self.url}/mcp"


@asynccontextmanager
async def signin_stack() -> AsyncIterator[Stack]:
    sock = loopback_socket()
    public = f"http://127.0.0.1:{sock.getsockname()[1]}"
    clock = Clock()
    oauth = FakeOAuth(clock=clock)
    oauth.register(CLIENT_ID, CLIENT_SECRET, f"{public}/oauth/callback")
    datasets = {token: tenant_dataset(marker) for token, marker in MARKERS.items()}
    async with FakeOpenProject(datasets, oauth=oauth) as fake:
        settings = Settings(backend="openproject", base_url=fake.base_url)
        application = Application(settings, shared=True)
        signin = SignInSettings(CLIENT_ID, CLIENT_SECRET, public, (os.urandom(32),))
        store, upstream = application.signin_parts(signin)
        provider = OpenProjectSignIn(store, upstream, SignInSite(public), clock=clock)
        options = HttpSettings(request_timeout_seconds=60)
        app = build_http_app(
            build_server(application.scope),
            options,
            credentials_required=True,
            instance=settings.instance,
            signin=SignInServer(provider),
        )
        server = make_server(app, replace(options, port=sock.getsockname()[1]))
        task = asyncio.create_task(server.serve(sockets=[sock]))
        try:
            with anyio.fail_after(10):
                while not server.started:
                    if task.done():
                        task.result()  # raises what made the server fail to start
                    await asyncio.sleep(0.01)
            shared = application.container.shared_store()
            assert isinstance(shared, MemoryStore)
            yield Stack(fake, oauth, public, clock, shared)
        finally:
            server.request_shutdown()
            with anyio.fail_after(15):
                await task
            await application.aclose()


@dataclass
class Storage:
    tokens: OAuthToken | None = None
    client: OAuthClientInformationFull | None = None

    async def get_tokens(self) -> OAuthToken | None:
        return self.tokens

    async def set_tokens(self, tokens: OAuthToken) -> None:
        self.tokens = tokens

    async def get_client_info(self) -> OAuthClientInformationFull | None:
        return self.client

    async def set_client_info(self, client_info: OAuthClientInformationFull) -> None:
        self.client = client_info


class Form(HTMLParser):
    """The first form of a page as a browser sees it: its action, its method, its fields, and the
    values of its submit buttons by name."""

    def __init__(self) -> None:
        super().__init__()
        self.action: str | None = None
        self.method = "get"
        self.fields: dict[str, str] = {}
        self.buttons: dict[str, list[str]] = {}
        self._inside = False
        self._done = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {name: value or "" for name, value in attrs}
        if tag == "form" and not self._done:
            self._inside = True
            self.action = values.get("action", "")
            self.method = values.get("method", "get").lower()
        elif self._inside and tag == "input" and values.get("type", "text") != "submit" and "name" in values:
            self.fields[values["name"]] = values.get("value", "")
        elif self._inside and tag == "button" and "name" in values:
            self.buttons.setdefault(values["name"], []).append(values.get("value", ""))

    def handle_endtag(self, tag: str) -> None:
        if tag == "form" and self._inside:
            self._inside, self._done = False, True


def read_form(page: str) -> Form:
    form = Form()
    form.feed(page)
    assert form.action is not None, "the page has no form"
    return form


@dataclass
class Browser:
    """Follows the redirects a user's browser would, answers this server's consent page the way a
    user clicking ``answer`` would (the form as read from the page, with the browser's cookies),
    and hands the client what came back."""

    visited: list[str] = field(default_factory=list)
    result: AuthorizationCodeResult | None = None
    redirect: str = CLIENT_REDIRECT
    answer: str = "approve"
    pages: list[str] = field(default_factory=list)
    came_back: dict[str, list[str]] = field(default_factory=dict)

    async def open(self, url: str) -> None:
        async with httpx2.AsyncClient(follow_redirects=False) as browser:
            for _ in range(8):
                self.visited.append(url)
                if url.startswith(self.redirect):
                    self.came_back = parse_qs(urlsplit(url).query)
                    if self.answer != "approve":
                        return
                    assert "code" in self.came_back, f"the sign-in came back without a code: {sorted(self.came_back)}"
                    self.result = AuthorizationCodeResult(
                        code=self.came_back["code"][0], state=self.came_back.get("state", [None])[0]
                    )
                    return
                response = await browser.get(url)
                if response.status_code == 200 and "<form" in response.text:
                    self.pages.append(response.text)
                    response = await self.submit(browser, url, response)
                assert response.status_code in (302, 303), (url.split("?")[0], response.status_code, response.text)
                url = urljoin(url, response.headers["location"])
        raise AssertionError(f"too many redirects: {[u.split('?')[0] for u in self.visited]}")

    async def submit(self, browser: httpx2.AsyncClient, url: str, page: httpx2.Response) -> httpx2.Response:
        form = read_form(page.text)
        assert form.method == "post" and self.answer in form.buttons.get("decision", [])
        target = urljoin(url, form.action or url)
        self.visited.append(target)
        origin = "{0.scheme}://{0.netloc}".format(urlsplit(target))
        return await browser.post(target, data={**form.fields, "decision": self.answer}, headers={"Origin": origin})

    async def callback(self) -> AuthorizationCodeResult:
        assert self.result is not None
        return self.result


@dataclass
class SignedInClient:
    storage: Storage
    browser: Browser
    http: httpx2.AsyncClient


@asynccontextmanager
async def signed_in(stack: Stack) -> AsyncIterator[tuple[Client, SignedInClient]]:
    storage, browser = Storage(), Browser()
    auth = OAuthClientProvider(
        server_url=stack.mcp_url,
        client_metadata=OAuthClientMetadata(
            redirect_uris=[CLIENT_REDIRECT],  # type: ignore[list-item]
            client_name="the tests",
            grant_types=["authorization_code", "refresh_token"],
            response_types=["code"],
        ),
        storage=storage,
        redirect_handler=browser.open,
        callback_handler=browser.callback,
    )
    async with (
        httpx2.AsyncClient(auth=auth, timeout=30) as http,
        Client(streamable_http_client(stack.mcp_url, http_client=http)) as client,
    ):
        yield client, SignedInClient(storage, browser, http)


@pytest.fixture(autouse=True)
def capture_everything(caplog: pytest.LogCaptureFixture) -> Iterator[pytest.LogCaptureFixture]:
    caplog.set_level(logging.DEBUG)
    for _ in quiet_client_loggers():
        yield caplog


def text_of(result: Any) -> str:
    return "\n".join(getattr(part, "text", "") for part in result.content)


def markers_in(text: str) -> set[str]:
    return {marker for marker in MARKERS.values() if marker in text}


async def test_a_user_signs_in_with_openproject_and_searches_as_themselves(
    capture_everything: pytest.LogCaptureFixture, capfd: pytest.CaptureFixture[str]
) -> None:
    seen: list[str] = []
    our_tokens: list[str] = []
    async with signin_stack() as stack:
        stack.oauth.signed_in_as = ALPHA
        async with signed_in(stack) as (alpha, alpha_side):
            tools = (await alpha.list_tools()).tools
            found = await alpha.call_tool(*SEARCH)
            seen.append(text_of(found))
            assert alpha_side.storage.tokens is not None
            our_tokens += [alpha_side.storage.tokens.access_token, alpha_side.storage.tokens.refresh_token or ""]

            stack.oauth.signed_in_as = BRAVO
            async with signed_in(stack) as (bravo, bravo_side):
                other = await bravo.call_tool(*SEARCH)
                seen.append(text_of(other))
                assert bravo_side.storage.tokens is not None
                our_tokens.append(bravo_side.storage.tokens.access_token)

            # OpenProject's two hours run out: the server refreshes the grant, the client notices nothing.
            stack.clock.advance(ACCESS_LIFETIME + 1)
            renewed = await alpha.call_tool(*SEARCH)
            seen.append(text_of(renewed))
            refreshes = stack.oauth.token_requests.count("refresh_token")

            # Header tokens keep working beside sign-in.
            async with httpx2.AsyncClient(timeout=30) as plain:
                by_header = await post(plain, stack.mcp_url, tool_call(*SEARCH), token=BRAVO)

            # The user revokes the application in OpenProject: the next call says so.
            stack.oauth.revoke_all_for(ALPHA)
            revoked = await alpha.call_tool(*SEARCH)
            seen.append(text_of(revoked))
        upstream_tokens = stack.oauth.issued_tokens()
        visited = alpha_side.browser.visited
        # The consent page's request id and single-use value (its cookie's value too) are secrets as well.
        consent_values = [value for page in alpha_side.browser.pages for value in read_form(page).fields.values()]

    assert len(tools) == 25  # the 19, openproject_get_instance, four write tools and the time entry list
    assert not found.is_error and markers_in(text_of(found)) == {"Alphacorp"}
    assert not other.is_error and markers_in(text_of(other)) == {"Bravocorp"}
    assert not renewed.is_error and markers_in(text_of(renewed)) == {"Alphacorp"}
    assert refreshes == 1
    assert by_header.status_code == 200 and markers_in(by_header.text) == {"Bravocorp"}
    assert revoked.is_error
    # The first refusal cannot know yet whether renewing the token will work: it says both.
    assert "OPENPROJECT_AUTH_ERROR" in text_of(revoked) and "call again" in text_of(revoked)
    assert "sign in again" in text_of(revoked)
    # The browser went to this server, was asked on its consent page, then went to OpenProject's own
    # login, then back through this server.
    assert [urlsplit(u).path for u in visited[:5]] == [
        "/authorize",
        "/oauth/consent",
        "/oauth/consent",
        "/oauth/authorize",
        "/oauth/callback",
    ]

    assert len(consent_values) == 2
    secrets_seen = [*upstream_tokens, *filter(None, our_tokens), *consent_values, CLIENT_SECRET]
    assert len(upstream_tokens) >= 6
    logged = "\n".join(r.getMessage() for r in capture_everything.records) + "\n".join(capfd.readouterr())
    for secret in secrets_seen:
        assert secret not in logged, "a token reached a log line"
        for text in seen:
            assert secret not in text, "a token reached a tool result"


async def test_after_a_revoked_grant_the_client_is_asked_to_sign_in_again() -> None:
    async with signin_stack() as stack:
        stack.oauth.signed_in_as = ALPHA
        async with signed_in(stack) as (client, side):
            assert not (await client.call_tool(*SEARCH)).is_error
            stack.oauth.revoke_all_for(ALPHA)
            refused = await client.call_tool(*SEARCH)
            assert side.storage.tokens is not None
            ended_token = side.storage.tokens.access_token
        async with httpx2.AsyncClient(timeout=30) as plain:
            again = await post(plain, stack.mcp_url, tool_call(*SEARCH), token=ended_token)
    assert refused.is_error and "OPENPROJECT_AUTH_ERROR" in text_of(refused)
    # The sign-in is over: the old token is refused with the challenge that starts a new one.
    assert again.status_code == 401
    assert again.json()["error"]["data"]["code"] == "OPENPROJECT_AUTH_ERROR"
    assert 'error="invalid_token"' in again.headers["www-authenticate"]
    assert "/.well-known/oauth-protected-resource/mcp" in again.headers["www-authenticate"]


async def test_a_token_openproject_retired_early_is_renewed_and_the_next_call_works() -> None:
    """OpenProject may end an access token before the lifetime it announced; the sign-in has not
    ended (its refresh token holds): the refused call says to call again, and the next call works."""
    async with signin_stack() as stack:
        stack.oauth.signed_in_as = ALPHA
        async with signed_in(stack) as (client, _):
            assert not (await client.call_tool(*SEARCH)).is_error
            stack.oauth.expire_access_tokens()
            refused = await client.call_tool(*SEARCH)
            renewed = await client.call_tool(*SEARCH)
    assert refused.is_error and "OPENPROJECT_AUTH_ERROR" in text_of(refused)
    assert "renewing it now, so call again" in text_of(refused)
    assert not renewed.is_error and markers_in(text_of(renewed)) == {"Alphacorp"}


async def test_without_any_token_the_401_points_oauth_clients_at_the_metadata() -> None:
    async with signin_stack() as stack, httpx2.AsyncClient(timeout=30) as plain:
        refused = await post(plain, stack.mcp_url, tool_call(*SEARCH))
        metadata = (await plain.get(f"{stack.url}/.well-known/oauth-protected-resource/mcp")).json()
        server = (await plain.get(f"{stack.url}/.well-known/oauth-authorization-server")).json()
    assert refused.status_code == 401
    assert (
        f'resource_metadata="{stack.url}/.well-known/oauth-protected-resource/mcp"'
        in (refused.headers["www-authenticate"])
    )
    assert metadata["resource"] == stack.mcp_url
    assert [a.rstrip("/") for a in metadata["authorization_servers"]] == [stack.url]
    assert server["registration_endpoint"] == f"{stack.url}/register"
    assert server["code_challenge_methods_supported"] == ["S256"]


# The same flow by hand, to reach the corners a well-behaved client never visits. ----------------


@dataclass
class Issued:
    client_id: str
    access: str
    refresh: str


async def sign_in_by_hand(http: httpx2.AsyncClient, stack: Stack, redirect: str = CLIENT_REDIRECT) -> Issued:
    registered = await http.post(
        f"{stack.url}/register",
        json={
            "redirect_uris": [redirect],
            "grant_types": ["authorization_code", "refresh_token"],
            "response_types": ["code"],
            "token_endpoint_auth_method": "none",
        },
    )
    assert registered.status_code == 201, registered.text
    client_id = registered.json()["client_id"]
    verifier = "v" * 64
    browser = Browser(redirect=redirect)
    query = {
        "response_type": "code",
        "client_id": client_id,
        "redirect_uri": redirect,
        "state": "s-1",
        "code_challenge": pkce_challenge(verifier),
        "code_challenge_method": "S256",
    }
    await browser.open(f"{stack.url}/authorize?{urlencode(query)}")
    code = (await browser.callback()).code
    tokens = await http.post(
        f"{stack.url}/token",
        data={
            "grant_type": "authorization_code",
            "code": code,
            "redirect_uri": redirect,
            "client_id": client_id,
            "code_verifier": verifier,
        },
    )
    assert tokens.status_code == 200, tokens.text
    again = await http.post(
        f"{stack.url}/token",
        data={
            "grant_type": "authorization_code",
            "code": code,
            "redirect_uri": redirect,
            "client_id": client_id,
            "code_verifier": verifier,
        },
    )
    assert again.status_code == 400 and again.json()["error"] == "invalid_grant", "a code was accepted twice"
    body = tokens.json()
    return Issued(client_id, body["access_token"], body["refresh_token"])


async def refresh(http: httpx2.AsyncClient, stack: Stack, issued: Issued, token: str) -> httpx2.Response:
    return await http.post(
        f"{stack.url}/token",
        data={"grant_type": "refresh_token", "refresh_token": token, "client_id": issued.client_id},
    )


async def calls_ok(http: httpx2.AsyncClient, stack: Stack, access: str) -> bool:
    answer = await post(http, stack.mcp_url, tool_call("openproject_list_projects"), token=access)
    return answer.status_code == 200 and answer.json()["result"]["isError"] is False


async def test_refresh_rotates_both_tokens_and_a_reused_refresh_token_ends_the_sign_in() -> None:
    async with signin_stack() as stack, httpx2.AsyncClient(timeout=30) as http:
        stack.oauth.signed_in_as = ALPHA
        first = await sign_in_by_hand(http, stack)
        assert await calls_ok(http, stack, first.access)
        rotated = await refresh(http, stack, first, first.refresh)
        assert rotated.status_code == 200, rotated.text
        second = Issued(first.client_id, rotated.json()["access_token"], rotated.json()["refresh_token"])
        assert second.access != first.access and second.refresh != first.refresh
        assert not await calls_ok(http, stack, first.access), "the replaced access token still works"
        assert await calls_ok(http, stack, second.access)
        # The first refresh token again: someone copied it. The whole sign-in ends, upstream too.
        reused = await refresh(http, stack, first, first.refresh)
        assert reused.status_code == 400 and reused.json()["error"] == "invalid_grant"
        assert not await calls_ok(http, stack, second.access)
        assert (await refresh(http, stack, second, second.refresh)).status_code == 400
        assert stack.oauth.revocations >= 1


async def test_a_client_revoking_its_token_signs_out_here_and_at_openproject() -> None:
    async with signin_stack() as stack, httpx2.AsyncClient(timeout=30) as http:
        stack.oauth.signed_in_as = BRAVO
        issued = await sign_in_by_hand(http, stack)
        revoked = await http.post(
            f"{stack.url}/revoke", data={"token": issued.access, "client_id": issued.client_id, "client_secret": ""}
        )
        assert revoked.status_code == 200
        assert not await calls_ok(http, stack, issued.access)
        assert (await refresh(http, stack, issued, issued.refresh)).status_code == 400
        assert stack.oauth.revocations == 1
        assert all(stack.oauth.user_for(token) is None for token in stack.oauth.issued_tokens())


async def test_tokens_at_rest_are_neither_readable_nor_named_in_the_shared_store() -> None:
    async with signin_stack() as stack, httpx2.AsyncClient(timeout=30) as http:
        stack.oauth.signed_in_as = ALPHA
        issued = await sign_in_by_hand(http, stack)
        assert await calls_ok(http, stack, issued.access)
        raw = stack.store_dump()
        secrets_at_rest = [*stack.oauth.issued_tokens(), issued.access, issued.refresh, CLIENT_SECRET]
    assert any(name.startswith("signin:grant:") for name, _ in raw)
    for name, value in raw:
        for secret in secrets_at_rest:
            assert secret not in name and secret.encode() not in value, f"a token is readable in {name.split(':')[1]}"


async def test_a_desktop_client_with_its_own_url_scheme_signs_in_too() -> None:
    async with signin_stack() as stack, httpx2.AsyncClient(timeout=30) as http:
        stack.oauth.signed_in_as = BRAVO
        issued = await sign_in_by_hand(http, stack, redirect="cursor://anysphere.cursor-mcp/oauth/callback")
        assert await calls_ok(http, stack, issued.access)


# This server's own consent page (ADR 0077): a client that registered itself is named and asked for. --


EVIL_REDIRECT = "https://trusted.example@attacker.example/steal"
EVIL_NAME = '<script>alert("owned")</script> Trusted Corp'


async def register_public(http: httpx2.AsyncClient, stack: Stack, redirect: str, name: str | None = None) -> str:
    metadata: dict[str, Any] = {
        "redirect_uris": [redirect],
        "grant_types": ["authorization_code", "refresh_token"],
        "response_types": ["code"],
        "token_endpoint_auth_method": "none",
    }
    if name is not None:
        metadata["client_name"] = name
    registered = await http.post(f"{stack.url}/register", json=metadata)
    assert registered.status_code == 201, registered.text
    client_id: str = registered.json()["client_id"]
    return client_id


def authorize_link(stack: Stack, client_id: str, redirect: str, state: str = "s-1") -> str:
    query = {
        "response_type": "code",
        "client_id": client_id,
        "redirect_uri": redirect,
        "state": state,
        "code_challenge": pkce_challenge("v" * 64),
        "code_challenge_method": "S256",
    }
    return f"{stack.url}/authorize?{urlencode(query)}"


async def consent_of(browser: httpx2.AsyncClient, link: str) -> tuple[str, httpx2.Response]:
    """Where ``/authorize`` sends a browser, and the page found there."""
    sent = await browser.get(link)
    assert sent.status_code == 302, sent.text
    where = urljoin(link, sent.headers["location"])
    return where, await browser.get(where)


async def test_a_link_built_by_anyone_shows_this_servers_consent_page_naming_the_client_not_openproject() -> None:
    async with signin_stack() as stack, httpx2.AsyncClient(timeout=30) as attacker:
        stack.oauth.signed_in_as = ALPHA  # the victim's browser is signed in to OpenProject
        client_id = await register_public(attacker, stack, EVIL_REDIRECT, EVIL_NAME)
        link = authorize_link(stack, client_id, EVIL_REDIRECT)
        async with httpx2.AsyncClient(timeout=30, follow_redirects=False) as victim:
            where, page = await consent_of(victim, link)
    assert urlsplit(where).path == "/oauth/consent", "the browser went on without being asked"
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert "location" not in page.headers
    assert stack.oauth.token_requests == []
    # The client's own name is untrusted text: shown, but escaped.
    assert "<script>" not in page.text
    assert "&lt;script&gt;alert(&quot;owned&quot;)&lt;/script&gt; Trusted Corp" in page.text
    # Where the approval goes is shown by the host it really reaches, not by what it starts with.
    assert "<p class=where id=where>https://attacker.example</p>" in page.text
    assert "create and change work packages" in page.text
    # It cannot be framed, cached or kept.
    assert page.headers["x-frame-options"] == "DENY"
    assert "frame-ancestors 'none'" in page.headers["content-security-policy"]
    assert page.headers["cache-control"] == "no-store"
    cookie = page.headers["set-cookie"].lower()
    assert "httponly" in cookie and "samesite=strict" in cookie and "max-age=" in cookie


async def test_an_approval_posted_from_another_site_or_browser_is_refused_and_sends_nobody_to_openproject() -> None:
    async with signin_stack() as stack, httpx2.AsyncClient(timeout=30, follow_redirects=False) as attacker:
        stack.oauth.signed_in_as = ALPHA
        client_id = await register_public(attacker, stack, EVIL_REDIRECT, "Evil")
        # The attacker opens the link in its own browser and reads the form, hidden values and all...
        where, page = await consent_of(attacker, authorize_link(stack, client_id, EVIL_REDIRECT))
        form = read_form(page.text)
        action = urljoin(where, form.action or "")
        approve = {**form.fields, "decision": "approve"}
        # ...then makes the victim's browser post it: an auto-submitted form on its own site.
        async with httpx2.AsyncClient(timeout=30, follow_redirects=False) as victim:
            cross_site = await victim.post(action, data=approve, headers={"Origin": "https://attacker.example"})
            no_origin = await victim.post(action, data=approve)
        # Even the attacker's own cookie does not help with a value the page did not hand out.
        forged = await attacker.post(action, data={**approve, "confirm": "x" * 43}, headers={"Origin": stack.url})
        # The page's own browser, answering with the page's own form, still can.
        answered = await attacker.post(action, data=approve, headers={"Origin": stack.url})
    for refused in (cross_site, no_origin, forged):
        assert refused.status_code == 403, refused.text
        assert "location" not in refused.headers
    assert answered.status_code == 303
    assert urlsplit(answered.headers["location"]).path.endswith("/oauth/authorize")


async def test_an_approval_is_single_use_and_a_consent_page_expires() -> None:
    async with signin_stack() as stack, httpx2.AsyncClient(timeout=30, follow_redirects=False) as browser:
        stack.oauth.signed_in_as = BRAVO
        client_id = await register_public(browser, stack, CLIENT_REDIRECT, "the tests")
        where, page = await consent_of(browser, authorize_link(stack, client_id, CLIENT_REDIRECT))
        form = read_form(page.text)
        cookies = dict(browser.cookies)
        approve = {**form.fields, "decision": "approve"}
        first = await browser.post(urljoin(where, form.action or ""), data=approve)
        browser.cookies.update(cookies)  # as if the browser had kept the cookie the answer deleted
        second = await browser.post(urljoin(where, form.action or ""), data=approve)
        later, _ = await consent_of(browser, authorize_link(stack, client_id, CLIENT_REDIRECT))
        stack.clock.advance(601)
        stale = await browser.get(later)
    assert first.status_code == 303
    assert second.status_code == 400 and "expired or was already used" in second.text
    assert stale.status_code == 400 and "<form" not in stale.text


async def test_declining_on_the_consent_page_sends_the_client_access_denied_with_its_state() -> None:
    async with signin_stack() as stack, httpx2.AsyncClient(timeout=30) as http:
        stack.oauth.signed_in_as = ALPHA
        client_id = await register_public(http, stack, CLIENT_REDIRECT, "the tests")
        browser = Browser(answer="deny")
        await browser.open(authorize_link(stack, client_id, CLIENT_REDIRECT, state="keep-me"))
    assert browser.came_back == {
        "error": ["access_denied"],
        "error_description": ["The user did not allow access."],
        "state": ["keep-me"],
    }
    assert [urlsplit(u).path for u in browser.visited] == [
        "/authorize",
        "/oauth/consent",
        "/oauth/consent",
        "/client-callback",
    ]
    assert stack.oauth.token_requests == []


async def test_a_public_client_revokes_with_its_client_id_alone_and_a_confidential_one_still_needs_its_secret() -> None:
    async with signin_stack() as stack, httpx2.AsyncClient(timeout=30) as http:
        stack.oauth.signed_in_as = ALPHA
        issued = await sign_in_by_hand(http, stack)  # token_endpoint_auth_method "none"
        # RFC 7009 §2.1 as a public client sends it: the token and its client_id, nothing else.
        revoked = await http.post(f"{stack.url}/revoke", data={"token": issued.refresh, "client_id": issued.client_id})
        signed_out = not await calls_ok(http, stack, issued.access)
        confidential = await http.post(
            f"{stack.url}/register",
            json={"redirect_uris": [CLIENT_REDIRECT], "token_endpoint_auth_method": "client_secret_post"},
        )
        assert confidential.status_code == 201, confidential.text
        own = confidential.json()
        without_secret = await http.post(f"{stack.url}/revoke", data={"token": "x", "client_id": own["client_id"]})
        wrong_secret = await http.post(
            f"{stack.url}/revoke", data={"token": "x", "client_id": own["client_id"], "client_secret": "nope"}
        )
        with_secret = await http.post(
            f"{stack.url}/revoke",
            data={"token": "x", "client_id": own["client_id"], "client_secret": own["client_secret"]},
        )
    assert revoked.status_code == 200, revoked.text
    assert signed_out and stack.oauth.revocations == 1
    assert without_secret.status_code == 401 and without_secret.json()["error"] == "unauthorized_client"
    assert wrong_secret.status_code == 401
    assert with_secret.status_code == 200
