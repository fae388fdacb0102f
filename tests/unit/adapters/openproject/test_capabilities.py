"""Capability detection against the version profiles of the dataset format, and its cache."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from aioresponses import CallbackResult, aioresponses

from openproject_mcp.adapters.openproject.capabilities import (
    CAPABILITY_NAMES,
    AiohttpCapabilityRepository,
    CapabilityCache,
)
from openproject_mcp.domain.capabilities import InstanceCapabilities
from openproject_mcp.domain.errors import AuthenticationError, RateLimitedError
from tests.unit.adapters.openproject import payloads as p
from tests.unit.adapters.openproject.conftest import BASE, ClientMaker, issued, url_for

NOT_FOUND = p.error("NotFound", "The requested resource could not be found.")

PROFILES: dict[str, InstanceCapabilities] = {
    # The meeting list is mounted since 14.4 (opf/openproject@4911b8a:modules/meeting/lib/api/v3/meetings/
    # meetings_api.rb); agenda items came with 17.4.
    "16.6": InstanceCapabilities(
        meeting_list=True,
        agenda_items=False,
        meeting_search_filter=False,
        meeting_participants=False,
        wiki_bodies=False,
        wiki_page_list=False,
        wiki_page_links=False,
        display_ids=False,
    ),
    "17.3": InstanceCapabilities(
        meeting_list=True,
        agenda_items=False,
        meeting_search_filter=False,
        meeting_participants=False,
        wiki_bodies=False,
        wiki_page_list=False,
        wiki_page_links=False,
        display_ids=False,
    ),
    "17.4": InstanceCapabilities(
        meeting_list=True,
        agenda_items=True,
        meeting_search_filter=False,
        meeting_participants=False,
        wiki_bodies=False,
        wiki_page_list=False,
        wiki_page_links=False,
        display_ids=False,
    ),
    # Everything but a wiki page list and page text, which no released version has (never probed).
    "18.0": InstanceCapabilities(wiki_bodies=False, wiki_page_list=False),
}


def serve(api: aioresponses, version: str, *, empty: bool = False, broken_work_packages: bool = False) -> None:
    """An OpenProject of the given profile (see "Version profiles" in the dataset format)."""
    newer = version >= "17.4"
    latest = version == "18.0"

    def meetings(url: Any, **kwargs: Any) -> CallbackResult:
        filters = json.loads(kwargs["params"].get("filters", "[]"))
        if any("search" in f for f in filters) and not latest:
            return CallbackResult(status=400, payload=p.error("InvalidQuery", "Filters Search does not exist."))
        return CallbackResult(payload=p.collection([] if empty else [p.meeting(2)]))

    meeting = p.meeting(2)
    if latest:
        meeting["_links"]["participants"] = [p.link("/api/v3/users/4", "Anna Müller")]
    wp = p.work_package(38, displayId="DEMO-38") if latest else p.work_package(38)

    api.get(url_for("api/v3/meetings"), callback=meetings, repeat=True)
    api.get(f"{BASE}api/v3/meetings/2", payload=meeting, repeat=True)
    api.get(
        f"{BASE}api/v3/meetings/2/agenda_items",
        **({"payload": p.collection([], paginated=False)} if newer else {"status": 404, "payload": NOT_FOUND}),
        repeat=True,
    )
    api.get(url_for("api/v3/projects"), payload=p.collection([] if empty else [p.project(1)]), repeat=True)
    api.get(
        url_for("api/v3/projects/1/wiki_pages"),
        **({"payload": p.collection([p.wiki_page(1)])} if latest else {"status": 404, "payload": NOT_FOUND}),
        repeat=True,
    )
    api.get(f"{BASE}api/v3/wiki_pages/1", payload=p.wiki_page(1, text="# Welcome"), repeat=True)
    if broken_work_packages:
        api.get(url_for("api/v3/work_packages"), status=500, payload=p.error("InternalServerError", "boom"))
    else:
        api.get(url_for("api/v3/work_packages"), payload=p.collection([] if empty else [wp]), repeat=True)
    api.get(
        url_for("api/v3/work_packages/38/wiki_page_links"),
        **({"payload": p.collection([])} if latest else {"status": 404, "payload": NOT_FOUND}),
        repeat=True,
    )


@pytest.mark.parametrize("version", sorted(PROFILES))
async def test_each_version_profile_is_detected(version: str, make_client: ClientMaker, api: aioresponses) -> None:
    serve(api, version)
    cache = CapabilityCache()
    found = await AiohttpCapabilityRepository(await make_client(), cache).capabilities()
    assert found == PROFILES[version]
    assert cache.known(BASE) == {name: getattr(found, name) for name in CAPABILITY_NAMES}


async def test_detected_once_per_instance(make_client: ClientMaker, api: aioresponses) -> None:
    serve(api, "17.4")
    cache = CapabilityCache()
    first = await AiohttpCapabilityRepository(await make_client(), cache).capabilities()
    sent = len(issued(api))
    # A later tool call (a new client, maybe another tenant) reuses the answers.
    second = await AiohttpCapabilityRepository(await make_client(api_key="other-token"), cache).capabilities()
    assert first == second and len(issued(api)) == sent
    # Another instance is detected on its own.
    other = "https://other.example.com/"
    api.get(url_for("api/v3/meetings", other), status=404, payload=NOT_FOUND, repeat=True)
    api.get(url_for("api/v3/projects", other), payload=p.collection([]), repeat=True)
    api.get(url_for("api/v3/work_packages", other), payload=p.collection([]), repeat=True)
    third = await AiohttpCapabilityRepository(await make_client(other), cache).capabilities()
    assert third.meeting_list is False and cache.known(BASE)["meeting_list"] is True


async def test_concurrent_calls_detect_once(make_client: ClientMaker, api: aioresponses) -> None:
    serve(api, "18.0")
    cache = CapabilityCache()
    clients = [await make_client() for _ in range(5)]
    results = await asyncio.gather(*(AiohttpCapabilityRepository(c, cache).capabilities() for c in clients))
    assert all(r == PROFILES["18.0"] for r in results)
    meeting_lists = [url for _, url in issued(api) if url.path == "/api/v3/meetings"]
    assert len(meeting_lists) == 2  # the list probe and the search-filter probe, once


async def test_without_the_meetings_module_no_meeting_feature(make_client: ClientMaker, api: aioresponses) -> None:
    serve(api, "17.4")
    api.clear()
    api.get(url_for("api/v3/meetings"), status=404, payload=NOT_FOUND, repeat=True)
    api.get(url_for("api/v3/projects"), payload=p.collection([]), repeat=True)
    api.get(url_for("api/v3/work_packages"), payload=p.collection([]), repeat=True)
    found = await AiohttpCapabilityRepository(await make_client(), CapabilityCache()).capabilities()
    assert not (found.meeting_list or found.agenda_items or found.meeting_participants or found.meeting_search_filter)


async def test_only_definitive_answers_are_cached(make_client: ClientMaker, api: aioresponses) -> None:
    serve(api, "18.0", empty=True)  # no meeting, project or work package to look at yet
    cache = CapabilityCache()
    found = await AiohttpCapabilityRepository(await make_client(), cache).capabilities()
    assert found.meeting_list and found.meeting_search_filter
    # Nothing to look at is no evidence of absence: the features count as present for this call (their
    # own requests then tell). No released version lists wiki pages or has their text: known without asking.
    assert found.agenda_items and found.display_ids and not found.wiki_page_list
    no_wiki_list = {"wiki_page_list": False, "wiki_bodies": False}
    assert cache.known(BASE) == {"meeting_list": True, "meeting_search_filter": True} | no_wiki_list
    sent = len(issued(api))
    await AiohttpCapabilityRepository(await make_client(), cache).capabilities()
    later = [url.path for _, url in issued(api)][sent:]
    assert "/api/v3/work_packages" in later  # asked again
    assert not any("wiki_pages" in path for _, url in issued(api) for path in [url.path])


async def test_a_failing_probe_is_asked_again(make_client: ClientMaker, api: aioresponses) -> None:
    serve(api, "17.3", broken_work_packages=True)
    cache = CapabilityCache()
    found = await AiohttpCapabilityRepository(await make_client(max_retries=0), cache).capabilities()
    assert found.meeting_list is True
    assert found.display_ids is True and found.wiki_page_links is True  # a failed probe is not a missing feature
    assert "display_ids" not in cache.known(BASE) and "wiki_page_links" not in cache.known(BASE)
    assert cache.known(BASE)["meeting_list"] is True


@pytest.mark.parametrize(
    ("status", "reason", "error", "expected"),
    [
        (401, "Unauthorized", "Unauthenticated", AuthenticationError),
        (429, "Too Many Requests", "TooManyRequests", RateLimitedError),
    ],
)
async def test_auth_and_rate_limit_errors_propagate_and_nothing_is_cached(
    make_client: ClientMaker, api: aioresponses, status: int, reason: str, error: str, expected: type[Exception]
) -> None:
    def refuse(url: Any, **kwargs: Any) -> CallbackResult:
        return CallbackResult(status=status, reason=reason, payload=p.error(error, "no"))

    for path in ("api/v3/meetings", "api/v3/projects", "api/v3/work_packages"):
        api.get(url_for(path), callback=refuse, repeat=True)
    cache = CapabilityCache()
    with pytest.raises(expected):
        await AiohttpCapabilityRepository(await make_client(max_retries=0), cache).capabilities()
    assert cache.known(BASE) == {}


async def test_a_forbidden_probe_is_undetermined_not_fatal_and_not_cached(
    make_client: ClientMaker, api: aioresponses
) -> None:
    # A user may lack the meetings or wiki module in the one project probed: that must not
    # break every tool that asks what the instance can do.
    def refuse(url: Any, **kwargs: Any) -> CallbackResult:
        return CallbackResult(status=403, reason="Forbidden", payload=p.error("MissingPermission", "no"))

    for path in ("api/v3/meetings", "api/v3/projects", "api/v3/work_packages"):
        api.get(url_for(path), callback=refuse, repeat=True)
    cache = CapabilityCache()
    found = await AiohttpCapabilityRepository(await make_client(max_retries=0), cache).capabilities()
    assert found.meeting_list is True and found.agenda_items is True  # not reported as missing
    assert found.wiki_page_list is False
    assert cache.known(BASE) == {"wiki_page_list": False, "wiki_bodies": False}  # known without asking


async def test_definitive_answers_expire(make_client: ClientMaker, api: aioresponses) -> None:
    serve(api, "17.3")
    now = [0.0]
    cache = CapabilityCache(ttl_seconds=60, clock=lambda: now[0])
    await AiohttpCapabilityRepository(await make_client(), cache).capabilities()
    assert cache.known(BASE)["meeting_list"] is True
    now[0] = 61.0
    assert cache.known(BASE) == {}


async def test_the_cache_can_forget(make_client: ClientMaker, api: aioresponses) -> None:
    serve(api, "17.3")
    cache = CapabilityCache()
    await AiohttpCapabilityRepository(await make_client(), cache).capabilities()
    cache.forget(BASE)
    assert cache.known(BASE) == {}
    with pytest.raises(ValueError, match="unknown capabilities"):
        cache.remember(BASE, {"teleportation": True})
