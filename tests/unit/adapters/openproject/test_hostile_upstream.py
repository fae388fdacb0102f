"""A hostile OpenProject: what it sends never decides how much one call reads, requests or returns.

Each test runs a small aiohttp server on loopback that answers one way on purpose (huge bodies,
gzip bombs, absurd totals, thousands of links, megabyte descriptions, echoed tokens) and checks
that the call ends with a clear error or a bounded result, and that the next normal call works.
Memory is never measured here (that is for ``make bench``): the tests check the limits' logic.
"""

from __future__ import annotations

import asyncio
import functools
import gzip
import html
import json
import logging
import zlib
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote, quote_plus

import pytest
from aiohttp import web

from openproject_mcp.adapters.openproject.client import BodyTooLargeError, _Inflater
from openproject_mcp.adapters.openproject.concurrency import together
from openproject_mcp.adapters.openproject.meetings import MAX_OUTCOME_FOLLOWS
from openproject_mcp.adapters.openproject.repositories import (
    AiohttpProjectRepository,
    AiohttpWorkPackageRepository,
)
from openproject_mcp.application.meetings import GetMeeting, GetMeetingRequest
from openproject_mcp.application.projects import GetProject, GetProjectRequest, ListProjects, ListProjectsRequest
from openproject_mcp.application.views import TEXT_LIMIT
from openproject_mcp.composition import Application
from openproject_mcp.config import Settings, UpstreamLimits
from openproject_mcp.domain.errors import (
    InvalidQueryError,
    OpenProjectMcpError,
    UpstreamServerError,
)
from tests.unit.adapters.openproject import payloads as p
from tests.unit.adapters.openproject.conftest import ClientMaker

# Characters that URL and HTML encodings change, so that every echoed spelling differs.
TOKEN = "Hostile/Token+Key=&<0123456789>"
MIB = 1024 * 1024

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


@dataclass
class Hostile:
    """A loopback server: ``routes`` maps a path (without the sub-path) to a handler."""

    routes: dict[str, Handler]
    base_url: str = ""
    requests: list[str] = field(default_factory=list)
    sent_bytes: int = 0


def normal_project(request: web.Request) -> Awaitable[web.StreamResponse]:
    async def answer() -> web.StreamResponse:
        return web.json_response(p.project(1, "demo", "Demo project"))

    return answer()


@asynccontextmanager
async def hostile(routes: dict[str, Handler]) -> AsyncIterator[Hostile]:
    server = Hostile({"api/v3/projects/1": normal_project, **routes})

    async def dispatch(request: web.Request) -> web.StreamResponse:
        path = request.path.removeprefix("/op/")
        server.requests.append(path)
        handler = server.routes.get(path)
        if handler is None:
            return web.json_response(p.error("NotFound", "nothing here"), status=404)
        return await handler(request)

    app = web.Application()
    app.router.add_route("GET", "/{tail:.*}", dispatch)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    server.base_url = f"http://127.0.0.1:{port}/op/"
    try:
        yield server
    finally:
        await runner.cleanup()


def json_answer(payload: Any, status: int = 200) -> Handler:
    async def answer(request: web.Request) -> web.StreamResponse:
        return web.json_response(payload, status=status)

    return answer


def application(base_url: str, **limits: Any) -> Application:
    settings = Settings(
        backend="openproject", base_url=base_url, api_key=TOKEN, max_retries=0, limits=UpstreamLimits(**limits)
    )
    return Application(settings)


async def assert_next_call_works(make_client: ClientMaker, server: Hostile, **settings: Any) -> None:
    client = await make_client(server.base_url, TOKEN, **settings)
    project = await AiohttpProjectRepository(client).get(1)
    assert project.name == "Demo project"


# Response bodies ---------------------------------------------------------------------------------


async def test_a_100_mb_body_is_cut_off_at_the_cap_while_reading(make_client: ClientMaker) -> None:
    chunk = b" " * MIB

    async def endless(request: web.Request) -> web.StreamResponse:
        response = web.StreamResponse(headers={"Content-Type": "application/hal+json"})
        await response.prepare(request)  # chunked: no Content-Length to refuse it by
        try:
            for _ in range(100):
                await response.write(chunk)
                server.sent_bytes += len(chunk)
        except (ConnectionError, RuntimeError):
            pass
        return response

    async with hostile({"api/v3/projects/2": endless}) as server:
        client = await make_client(server.base_url, TOKEN, max_response_bytes=MIB)
        with pytest.raises(UpstreamServerError) as caught:
            await AiohttpProjectRepository(client).get(2)
        message = caught.value.message
        assert "larger than the limit of 1,048,576 bytes" in message and "OPENPROJECT_MAX_RESPONSE_BYTES" in message
        assert caught.value.hint and "OPENPROJECT_MAX_RESPONSE_BYTES" in caught.value.hint
        await asyncio.sleep(0.05)
        assert server.sent_bytes < 50 * MIB, "the client stopped reading; the server could not send it all"
        await assert_next_call_works(make_client, server, max_response_bytes=MIB)


async def test_a_declared_oversized_body_is_refused_before_reading(make_client: ClientMaker) -> None:
    async def declared(request: web.Request) -> web.StreamResponse:
        response = web.StreamResponse(headers={"Content-Type": "application/hal+json"})
        response.content_length = 100 * MIB
        await response.prepare(request)
        with suppress(ConnectionError, RuntimeError):
            await response.write(b"{" * 1024)
        return response

    async with hostile({"api/v3/projects/2": declared}) as server:
        client = await make_client(server.base_url, TOKEN, max_response_bytes=MIB)
        with pytest.raises(UpstreamServerError, match="larger than the limit"):
            await AiohttpProjectRepository(client).get(2)
        await assert_next_call_works(make_client, server)


@functools.cache
def gzip_bomb(inflated: int) -> bytes:
    compressor = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    block = b"\0" * MIB
    parts = [compressor.compress(block) for _ in range(inflated // MIB)]
    return b"".join(parts) + compressor.flush()


async def test_a_gzip_bomb_never_inflates_past_the_cap(make_client: ClientMaker) -> None:
    bomb = gzip_bomb(64 * MIB)
    assert len(bomb) < 70 * 1024  # 64 MiB of zeros in about 64 KB on the wire

    async def bombing(request: web.Request) -> web.StreamResponse:
        return web.Response(body=bomb, headers={"Content-Encoding": "gzip", "Content-Type": "application/hal+json"})

    async with hostile({"api/v3/projects/2": bombing}) as server:
        client = await make_client(server.base_url, TOKEN, max_response_bytes=MIB)
        with pytest.raises(UpstreamServerError, match=r"larger than the limit of 1,048,576 bytes.*decompressed"):
            await AiohttpProjectRepository(client).get(2)
        await assert_next_call_works(make_client, server)


def test_the_inflater_stops_one_byte_past_the_room_it_is_given() -> None:
    bomb = gzip_bomb(64 * MIB)
    out = bytearray()
    with pytest.raises(BodyTooLargeError):
        _Inflater("gzip").feed(bomb, MIB, out)
    assert len(out) == MIB + 1, "decompression stops as soon as the cap is passed, whatever the chunk holds"


@pytest.mark.parametrize("encoding", ["gzip", "deflate", "raw-deflate"])
async def test_compressed_answers_within_the_cap_still_read(make_client: ClientMaker, encoding: str) -> None:
    body = json.dumps(p.project(3, "big", "Compressed project")).encode()
    if encoding == "gzip":
        wire, header = gzip.compress(body), "gzip"
    elif encoding == "deflate":
        wire, header = zlib.compress(body), "deflate"
    else:
        raw = zlib.compressobj(6, zlib.DEFLATED, -zlib.MAX_WBITS)
        wire, header = raw.compress(body) + raw.flush(), "deflate"

    async def compressed(request: web.Request) -> web.StreamResponse:
        assert request.headers["Accept-Encoding"] == "gzip, deflate"
        return web.Response(body=wire, headers={"Content-Encoding": header, "Content-Type": "application/hal+json"})

    async with hostile({"api/v3/projects/3": compressed}) as server:
        client = await make_client(server.base_url, TOKEN)
        assert (await AiohttpProjectRepository(client).get(3)).name == "Compressed project"


async def test_an_encoding_that_was_not_asked_for_is_an_unreadable_answer(make_client: ClientMaker) -> None:
    async def brotli(request: web.Request) -> web.StreamResponse:
        return web.Response(body=b"\x0b\x02\x80{}\x03", headers={"Content-Encoding": "br"})

    async with hostile({"api/v3/projects/2": brotli}) as server:
        client = await make_client(server.base_url, TOKEN)
        with pytest.raises(UpstreamServerError, match="content encoding 'br'"):
            await AiohttpProjectRepository(client).get(2)


async def test_one_call_reads_at_most_four_response_caps_in_all(make_client: ClientMaker) -> None:
    filler = "x" * (60 * 1024)
    routes = {f"api/v3/projects/{n}": json_answer({**p.project(n), "filler": filler}) for n in range(10, 16)}
    async with hostile(routes) as server:
        client = await make_client(server.base_url, TOKEN, max_response_bytes=64 * 1024)
        repository = AiohttpProjectRepository(client)
        for n in range(10, 14):
            await repository.get(n)
        with pytest.raises(UpstreamServerError, match=r"would pass the 262,144 bytes one call may read"):
            await repository.get(14)


async def test_a_huge_error_body_is_read_for_its_message_only(make_client: ClientMaker) -> None:
    async def huge_error(request: web.Request) -> web.StreamResponse:
        body = json.dumps(p.error("InternalServerError", "boom")).encode() + b" " * (20 * MIB)
        return web.Response(status=500, body=body, headers={"Content-Type": "application/hal+json"})

    async with hostile({"api/v3/projects/2": huge_error}) as server:
        client = await make_client(server.base_url, TOKEN, max_retries=0)
        with pytest.raises(UpstreamServerError, match="HTTP 500"):
            await AiohttpProjectRepository(client).get(2)
        await assert_next_call_works(make_client, server)


# Text and result sizes -----------------------------------------------------------------------------


async def test_a_5_mb_project_description_is_cut_with_truncated_true() -> None:
    described = p.project(7, "long", "Long project")
    described["description"] = {"format": "markdown", "raw": "d" * (5 * MIB), "html": ""}
    described["statusExplanation"] = {"format": "markdown", "raw": "s" * (TEXT_LIMIT + 1), "html": ""}
    async with hostile(
        {"api/v3/projects/7": json_answer(described), "api/v3/projects": json_answer(p.collection([described]))}
    ) as server:
        app = application(server.base_url)
        try:
            async with app.scope(None) as scope:
                detail = await (await scope.resolve(GetProject)).execute(GetProjectRequest(7))
                listed = await (await scope.resolve(ListProjects)).execute(ListProjectsRequest())
                normal = await (await scope.resolve(GetProject)).execute(GetProjectRequest(1))
        finally:
            await app.aclose()
    assert detail.description is not None and len(detail.description) == TEXT_LIMIT
    assert detail.status_explanation is not None and len(detail.status_explanation) == TEXT_LIMIT
    assert detail.truncated is True
    summary = listed.projects[0]
    assert summary.description is not None and len(summary.description) == TEXT_LIMIT and summary.truncated
    assert normal.name == "Demo project" and normal.truncated is None


# Fan-out -------------------------------------------------------------------------------------------


async def test_3000_outcome_links_are_followed_only_up_to_a_bound_and_the_answer_says_so() -> None:
    links = [p.link(f"/op/api/v3/meeting_outcomes/{n}") for n in range(1, 3001)]
    item = p.agenda_item(
        1, "Budget", 1, _links={"self": p.link("/op/api/v3/meeting_agenda_items/1"), "outcomes": links}
    )
    routes: dict[str, Handler] = {
        "api/v3/meetings/2": json_answer(p.meeting(2)),
        "api/v3/meetings/2/agenda_items": json_answer(p.collection([item], paginated=False)),
    }
    routes |= {f"api/v3/meeting_outcomes/{n}": json_answer(p.outcome(n, f"Outcome {n}")) for n in range(1, 3001)}
    async with hostile(routes) as server:
        app = application(server.base_url, max_requests_per_call=200)
        try:
            async with app.scope(None) as scope:
                meeting = await (await scope.resolve(GetMeeting)).execute(GetMeetingRequest(2))
            # The meeting adapter follows at most MAX_OUTCOME_FOLLOWS linked outcomes per meeting, well
            # under the ceiling of requests per call, and the answer says the rest were not read.
            assert len(server.requests) <= 2 + MAX_OUTCOME_FOLLOWS
            assert meeting.agenda_items and len(meeting.agenda_items[0].outcomes) == MAX_OUTCOME_FOLLOWS
            assert meeting.notes and any("only the first were read" in n for n in meeting.notes)
            async with app.scope(None) as scope:  # a fresh call has a fresh ceiling
                assert (await (await scope.resolve(GetProject)).execute(GetProjectRequest(1))).id == 1
        finally:
            await app.aclose()


async def test_together_takes_calls_lazily_and_stops_taking_after_a_failure() -> None:
    created = 0

    async def call(n: int) -> int:
        await asyncio.sleep(0)
        if n == 5:
            raise UpstreamServerError("the fifth failed")
        return n

    def calls() -> Any:
        nonlocal created
        for n in range(1_000_000):
            created += 1
            yield call(n)

    with pytest.raises(UpstreamServerError, match="fifth"):
        await together(calls(), limit=4)
    assert created <= 4 + 6, f"{created} calls were built for a failure at the sixth"


async def test_together_keeps_the_order_of_results() -> None:
    async def call(n: int) -> int:
        await asyncio.sleep(0.001 * (n % 3))
        return n

    assert await together((call(n) for n in range(50)), limit=4) == list(range(50))


# Malformed answers and misread statuses -------------------------------------------------------------


async def test_deeply_nested_json_is_a_malformed_answer(make_client: ClientMaker) -> None:
    deep = b'{"id": 2, "name": "x", "extra": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"

    async def nested(request: web.Request) -> web.StreamResponse:
        return web.Response(body=deep, headers={"Content-Type": "application/hal+json"})

    async with hostile({"api/v3/projects/2": nested, "api/v3/work_packages/5": nested}) as server:
        client = await make_client(server.base_url, TOKEN)
        with pytest.raises(UpstreamServerError, match="nested too deeply"):
            await AiohttpProjectRepository(client).get(2)
        await assert_next_call_works(make_client, server)


async def test_a_collection_without_embedded_elements_is_malformed_not_empty(make_client: ClientMaker) -> None:
    bare = {"_type": "Collection", "total": 3, "count": 3, "pageSize": 20, "offset": 1}
    async with hostile({"api/v3/projects": json_answer(bare)}) as server:
        app = application(server.base_url)
        try:
            async with app.scope(None) as scope:
                with pytest.raises(UpstreamServerError, match="without `_embedded`"):
                    await (await scope.resolve(ListProjects)).execute(ListProjectsRequest())
        finally:
            await app.aclose()


async def test_a_409_does_not_read_overloaded(make_client: ClientMaker) -> None:
    conflict = json_answer(p.error("UpdateConflict", "Conflict."), status=409)
    async with hostile({"api/v3/projects/2": conflict}) as server:
        client = await make_client(server.base_url, TOKEN)
        with pytest.raises(UpstreamServerError) as caught:
            await AiohttpProjectRepository(client).get(2)
        assert "conflict" in caught.value.message and caught.value.status == 409
        assert "overloaded" not in (caught.value.hint or "")


async def test_a_proxys_400_for_an_oversized_header_is_not_a_filter_problem(make_client: ClientMaker) -> None:
    async def too_large(request: web.Request) -> web.StreamResponse:
        page = "<html><h1>400 Request Header Or Cookie Too Large</h1></html>"
        return web.Response(status=400, text=page, content_type="text/html")

    bad_filter = json_answer(p.error("InvalidQuery", "Filters Bogus does not exist."), status=400)
    async with hostile({"api/v3/projects/2": too_large, "api/v3/projects/3": bad_filter}) as server:
        client = await make_client(server.base_url, TOKEN)
        with pytest.raises(OpenProjectMcpError) as caught:
            await AiohttpProjectRepository(client).get(2)
        assert type(caught.value) is UpstreamServerError and caught.value.status == 400
        assert "filter names" not in (caught.value.hint or "") and "header" in (caught.value.hint or "")
        with pytest.raises(InvalidQueryError, match="Bogus") as filtered:
            await AiohttpProjectRepository(client).get(3)
        assert "filter names" in (filtered.value.hint or "")


# Secrets -------------------------------------------------------------------------------------------

ECHOES = [TOKEN.upper(), quote_plus(TOKEN), quote(TOKEN, safe="").lower(), html.escape(TOKEN), TOKEN.swapcase()]


@pytest.mark.parametrize("echo", ECHOES)
async def test_echoed_tokens_in_any_spelling_never_reach_an_error_or_a_result(
    make_client: ClientMaker, echo: str
) -> None:
    described = p.project(8, "echo", "Echo project")
    described["description"] = {"format": "markdown", "raw": f"token={echo};", "html": ""}
    routes = {
        "api/v3/projects/8": json_answer(described),
        "api/v3/projects/9": json_answer(p.error("InvalidQuery", f"Token {echo} is not a filter."), status=400),
    }
    async with hostile(routes) as server:
        app = application(server.base_url)
        try:
            async with app.scope(None) as scope:
                detail = await (await scope.resolve(GetProject)).execute(GetProjectRequest(8))
                with pytest.raises(InvalidQueryError) as caught:
                    await (await scope.resolve(GetProject)).execute(GetProjectRequest(9))
        finally:
            await app.aclose()
    assert detail.description == "token=[redacted];"
    assert "[redacted]" in caught.value.message
    shown = (detail.description + caught.value.message).lower()
    for form in (TOKEN, quote_plus(TOKEN), quote(TOKEN, safe=""), html.escape(TOKEN)):
        assert form.lower() not in shown


async def test_activities_naming_thousands_of_users_fall_back_to_ids_past_the_ceiling(
    make_client: ClientMaker,
) -> None:
    activities = [
        p.activity(n, n, "2026-09-01T09:00:00Z", f"/op/api/v3/users/{n}", comment=f"comment {n}") for n in range(1, 501)
    ]
    routes: dict[str, Handler] = {"api/v3/work_packages/38/activities": json_answer(p.collection(activities))}
    routes |= {f"api/v3/users/{n}": json_answer(p.user(n, f"User name {n}")) for n in range(1, 501)}
    async with hostile(routes) as server:
        client = await make_client(server.base_url, TOKEN, max_requests_per_call=50)
        timeline = await AiohttpWorkPackageRepository(client).activities(38)
        assert len(timeline) == 500 and len(server.requests) == 50
        names = {a.user.name for a in timeline if a.user is not None}
        assert sum(1 for n in names if n.startswith("User name ")) == 49  # the rest could not be looked up
        assert "User #500" in names


async def test_thousands_of_foreign_links_write_a_handful_of_log_lines(caplog: pytest.LogCaptureFixture) -> None:
    links = [p.link(f"https://elsewhere.example/api/v3/meeting_outcomes/{n}?t={TOKEN}") for n in range(1, 3001)]
    item = p.agenda_item(
        1, "Budget", 1, _links={"self": p.link("/op/api/v3/meeting_agenda_items/1"), "outcomes": links}
    )
    routes: dict[str, Handler] = {
        "api/v3/meetings/2": json_answer(p.meeting(2)),
        "api/v3/meetings/2/agenda_items": json_answer(p.collection([item], paginated=False)),
    }
    async with hostile(routes) as server:
        app = application(server.base_url)
        try:
            with caplog.at_level(logging.WARNING):
                async with app.scope(None) as scope:
                    meeting = await (await scope.resolve(GetMeeting)).execute(GetMeetingRequest(2))
        finally:
            await app.aclose()
    assert meeting.agenda_items is not None and meeting.agenda_items[0].outcomes == ()
    warnings = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert 1 <= len(warnings) <= 6, len(warnings)
    assert "not logged" in warnings[-1].getMessage()
    assert TOKEN not in caplog.text
