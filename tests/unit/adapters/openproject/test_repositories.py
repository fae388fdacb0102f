"""The repositories against aioresponses: the requests they send and what they make of the answers.

Every test uses the ``api`` fixture, which afterwards checks that each request was a GET on a
declared endpoint with declared parameters only.
"""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime
from typing import Any
from urllib.parse import quote

import pytest
from aioresponses import CallbackResult, aioresponses
from yarl import URL

from openproject_mcp.adapters.openproject.capabilities import CapabilityCache
from openproject_mcp.adapters.openproject.client import OpenProjectClient
from openproject_mcp.adapters.openproject.repositories import (
    AiohttpApiSpecRepository,
    AiohttpMeetingRepository,
    AiohttpMetadataRepository,
    AiohttpProjectRepository,
    AiohttpQueryRepository,
    AiohttpWikiPageLinkRepository,
    AiohttpWikiPageRepository,
    AiohttpWorkPackageRepository,
)
from openproject_mcp.domain.entities import AgendaItem, NamedRef, WorkPackageRef
from openproject_mcp.domain.errors import (
    AuthenticationError,
    ForbiddenError,
    InvalidQueryError,
    NotFoundError,
    RateLimitedError,
    UnsupportedError,
    UpstreamServerError,
)
from openproject_mcp.domain.queries import Filter, MeetingQuery, PageRequest, SortKey
from tests.unit.adapters.openproject import payloads as p
from tests.unit.adapters.openproject.conftest import BASE, ClientMaker, issued, queries_to, url_for

NOT_FOUND = p.error("NotFound", "The requested resource could not be found.")


def paths(mocked: aioresponses) -> list[str]:
    return sorted(str(url.with_query(None)).removeprefix(BASE) for _, url in issued(mocked))


# Projects ----------------------------------------------------------------------------------------


async def test_project_list_sends_filters_sort_and_page(client: OpenProjectClient, api: aioresponses) -> None:
    api.get(url_for("api/v3/projects"), payload=p.collection([p.project(1), p.project(2, "ops", "Ops")], total=42))
    page = await AiohttpProjectRepository(client).list(
        [Filter("name_and_identifier", "~", ('demo "quoted" ]', "ünï"))],
        [SortKey("name", "desc")],
        PageRequest(offset=2, page_size=5000),
    )
    [query] = queries_to(api, "api/v3/projects")
    assert json.loads(query["filters"]) == [
        {"name_and_identifier": {"operator": "~", "values": ['demo "quoted" ]', "ünï"]}}
    ]
    assert json.loads(query["sortBy"]) == [["name", "desc"]]
    assert (query["offset"], query["pageSize"]) == ("2", "1000")  # clamped to the server maximum
    assert [pr.identifier for pr in page.items] == ["demo", "ops"]
    assert (page.total, page.offset, page.page_size) == (42, 1, 20)  # what the server says it used


async def test_project_by_id_and_by_url_encoded_identifier(client: OpenProjectClient, api: aioresponses) -> None:
    repo = AiohttpProjectRepository(client)
    api.get(f"{BASE}api/v3/projects/1", payload=p.project(1), repeat=True)
    api.get(f"{BASE}api/v3/projects/demo", payload=p.project(1))
    api.get(f"{BASE}api/v3/projects/we%2Fird%20one%3F", payload=p.project(1))
    assert (await repo.get(1)).name == "Demo project"
    assert (await repo.get("#1")).id == 1
    assert (await repo.get("demo")).identifier == "demo"
    await repo.get("we/ird one?")
    raw_paths = sorted(url.raw_path for _, url in issued(api))
    assert raw_paths == [
        "/api/v3/projects/1",
        "/api/v3/projects/1",
        "/api/v3/projects/demo",
        "/api/v3/projects/we%2Fird%20one%3F",
    ]


async def test_missing_project_is_not_found(client: OpenProjectClient, api: aioresponses) -> None:
    api.get(f"{BASE}api/v3/projects/9", status=404, payload=NOT_FOUND)
    with pytest.raises(NotFoundError):
        await AiohttpProjectRepository(client).get(9)
    with pytest.raises(NotFoundError):
        await AiohttpProjectRepository(client).get("  ")


# Work packages -----------------------------------------------------------------------------------


async def test_work_package_list_always_sends_filters(client: OpenProjectClient, api: aioresponses) -> None:
    api.get(url_for("api/v3/work_packages"), payload=p.collection([p.work_package()], _type="WorkPackageCollection"))
    page = await AiohttpWorkPackageRepository(client).list([], [], PageRequest())
    [query] = queries_to(api, "api/v3/work_packages")
    assert query["filters"] == "[]"
    assert "sortBy" not in query
    assert (query["offset"], query["pageSize"]) == ("1", "20")
    [wp] = page.items
    assert (wp.id, wp.subject, wp.type, wp.status, wp.priority) == (38, "Fix login redirect", "Task", "New", "Normal")
    assert wp.description == "Description of Fix login redirect"
    assert wp.project == NamedRef(1, "Demo project") and wp.author == NamedRef(4, "Anna Müller")


async def test_work_package_list_filters_are_json(client: OpenProjectClient, api: aioresponses) -> None:
    api.get(url_for("api/v3/work_packages"), payload=p.collection([]))
    filters = [
        Filter("status", "o"),
        Filter("assignee", "=", ("me", "4")),
        Filter("search", "**", ('say "hi" & {bye}',)),
    ]
    await AiohttpWorkPackageRepository(client).list(
        filters, [SortKey("updatedAt", "desc"), SortKey("id")], PageRequest(3, 50)
    )
    [query] = queries_to(api, "api/v3/work_packages")
    assert json.loads(query["filters"]) == [
        {"status": {"operator": "o", "values": []}},
        {"assignee": {"operator": "=", "values": ["me", "4"]}},
        {"search": {"operator": "**", "values": ['say "hi" & {bye}']}},
    ]
    assert json.loads(query["sortBy"]) == [["updatedAt", "desc"], ["id", "asc"]]
    assert (query["offset"], query["pageSize"]) == ("3", "50")


async def test_a_refused_filter_is_an_invalid_query(client: OpenProjectClient, api: aioresponses) -> None:
    api.get(
        url_for("api/v3/work_packages"), status=400, payload=p.error("InvalidQuery", "Filters Bogus does not exist.")
    )
    with pytest.raises(InvalidQueryError, match=r"Filters Bogus does not exist\."):
        await AiohttpWorkPackageRepository(client).list([Filter("bogus", "=", ("1",))], [], PageRequest())


async def test_work_package_by_id_with_children_and_named_custom_fields(
    client: OpenProjectClient, api: aioresponses
) -> None:
    payload = p.work_package(customField1="Sprint 4", customField2=None)
    payload["_links"]["children"] = [p.link("/api/v3/work_packages/39", "Child")]
    payload["_links"]["parent"] = p.link("/api/v3/work_packages/30", "Epic")
    payload["_links"]["customField3"] = p.link("/api/v3/users/5", "Ben")
    api.get(f"{BASE}api/v3/work_packages/38", payload=payload)
    api.get(
        f"{BASE}api/v3/work_packages/schemas/1-1",
        payload={"customField1": {"name": "Sprint"}, "customField3": {"name": "Reviewer"}},
    )
    wp = await AiohttpWorkPackageRepository(client).get(38)
    assert wp.children == (WorkPackageRef(39, "Child"),) and wp.parent == WorkPackageRef(30, "Epic")
    assert wp.custom_fields == (("Sprint", "Sprint 4"), ("Reviewer", "Ben"))


async def test_custom_fields_keep_their_keys_without_a_schema(client: OpenProjectClient, api: aioresponses) -> None:
    api.get(f"{BASE}api/v3/work_packages/38", payload=p.work_package(customField1="x"))
    api.get(f"{BASE}api/v3/work_packages/schemas/1-1", status=403, payload=p.error("MissingPermission", "no"))
    assert (await AiohttpWorkPackageRepository(client).get(38)).custom_fields == (("customField1", "x"),)


async def test_a_schema_link_elsewhere_is_not_followed(client: OpenProjectClient, api: aioresponses) -> None:
    payload = p.work_package(customField1="x")
    payload["_links"]["schema"] = p.link("https://evil.example.com/api/v3/work_packages/schemas/1-1")
    api.get(f"{BASE}api/v3/work_packages/38", payload=payload)
    assert (await AiohttpWorkPackageRepository(client).get(38)).custom_fields == (("customField1", "x"),)
    assert paths(api) == ["api/v3/work_packages/38"]


async def test_no_schema_request_without_custom_fields(client: OpenProjectClient, api: aioresponses) -> None:
    api.get(f"{BASE}api/v3/work_packages/38", payload=p.work_package())
    await AiohttpWorkPackageRepository(client).get("38")
    assert paths(api) == ["api/v3/work_packages/38"]


async def test_work_package_by_display_id(client: OpenProjectClient, api: aioresponses) -> None:
    api.get(f"{BASE}api/v3/work_packages/DEMO-38", payload=p.work_package(displayId="DEMO-38"))
    wp = await AiohttpWorkPackageRepository(client).get("DEMO-38")
    assert (wp.id, wp.display_id) == (38, "DEMO-38")


@pytest.mark.parametrize("status", [400, 404])
async def test_an_unknown_display_id_is_not_found_with_a_hint(
    client: OpenProjectClient, api: aioresponses, status: int
) -> None:
    api.get(f"{BASE}api/v3/work_packages/DEMO-38", status=status, payload=p.error("NotFound", "nope"))
    with pytest.raises(NotFoundError) as caught:
        await AiohttpWorkPackageRepository(client).get("DEMO-38")
    assert "DEMO-38" in caught.value.message
    assert caught.value.hint and "17.5" in caught.value.hint


async def test_activities_oldest_first_with_user_names_looked_up_once(
    client: OpenProjectClient, api: aioresponses
) -> None:
    api.get(
        f"{BASE}api/v3/work_packages/38/activities",
        payload=p.collection(
            [
                p.activity(92, 3, "2026-09-12T09:00:00Z", "/api/v3/users/5", "Later"),
                p.activity(90, 1, "2026-09-10T09:00:00Z", "/api/v3/users/4"),
                p.activity(91, 2, "2026-09-11T09:00:00Z", "/api/v3/users/4", "Looks good"),
                p.activity(93, 4, "2026-09-13T09:00:00Z", "/api/v3/users/77"),
            ],
            paginated=False,
        ),
        repeat=True,
    )
    api.get(f"{BASE}api/v3/users/4", payload=p.user(4, "Anna Müller"))
    api.get(f"{BASE}api/v3/users/5", payload=p.user(5, "Ben"))
    api.get(f"{BASE}api/v3/users/77", status=404, payload=NOT_FOUND)
    repo = AiohttpWorkPackageRepository(client)
    activities = await repo.activities(38)
    assert [a.id for a in activities] == [90, 91, 92, 93]
    assert [a.user for a in activities] == [
        NamedRef(4, "Anna Müller"),
        NamedRef(4, "Anna Müller"),
        NamedRef(5, "Ben"),
        NamedRef(77, "User #77"),
    ]
    assert [a.is_comment for a in activities] == [False, True, True, False]
    assert activities[0].created_at == datetime(2026, 9, 10, 9, tzinfo=UTC)
    await repo.activities(38)
    assert paths(api).count("api/v3/users/4") == 1  # names are remembered for the call


async def test_activities_of_a_missing_work_package(client: OpenProjectClient, api: aioresponses) -> None:
    api.get(f"{BASE}api/v3/work_packages/9/activities", status=404, payload=NOT_FOUND)
    with pytest.raises(NotFoundError):
        await AiohttpWorkPackageRepository(client).activities(9)


async def test_an_unreadable_payload_is_an_upstream_error(client: OpenProjectClient, api: aioresponses) -> None:
    api.get(url_for("api/v3/work_packages"), body="<html>Sign in</html>", content_type="text/html")
    with pytest.raises(UpstreamServerError, match="could not be read"):
        await AiohttpWorkPackageRepository(client).list([], [], PageRequest())


async def test_an_element_without_a_project_is_an_upstream_error(client: OpenProjectClient, api: aioresponses) -> None:
    broken = p.work_package()
    del broken["_links"]["project"]
    api.get(url_for("api/v3/work_packages"), payload=p.collection([broken]))
    with pytest.raises(UpstreamServerError, match="project of work package 38 is missing"):
        await AiohttpWorkPackageRepository(client).list([], [], PageRequest())


# Saved queries -----------------------------------------------------------------------------------


def saved_query(query_id: int, name: str) -> p.JSON:
    return {
        "_type": "Query",
        "id": query_id,
        "name": name,
        "public": True,
        "starred": False,
        "filters": [],
        "_links": {
            "self": p.link(f"/api/v3/queries/{query_id}", name),
            "project": p.link("/api/v3/projects/1", "Demo"),
        },
    }


async def test_query_list_is_paged_client_side(client: OpenProjectClient, api: aioresponses) -> None:
    api.get(
        url_for("api/v3/queries"), payload=p.collection([saved_query(i, f"Q{i}") for i in range(1, 6)], paginated=False)
    )
    page = await AiohttpQueryRepository(client).list(1, PageRequest(offset=2, page_size=2))
    [query] = queries_to(api, "api/v3/queries")
    assert json.loads(query["filters"]) == [{"project": {"operator": "=", "values": ["1"]}}]
    assert [q.name for q in page.items] == ["Q3", "Q4"]
    assert (page.total, page.offset, page.page_size, page.has_more) == (5, 2, 2, True)


async def test_query_list_everywhere_sends_no_filter(client: OpenProjectClient, api: aioresponses) -> None:
    api.get(url_for("api/v3/queries"), payload=p.collection([], paginated=False))
    await AiohttpQueryRepository(client).list(None, PageRequest())
    assert queries_to(api, "api/v3/queries") == [{}]


async def test_query_with_its_results(client: OpenProjectClient, api: aioresponses) -> None:
    payload = saved_query(30, "Open bugs") | {
        "_embedded": {
            "results": p.collection([p.work_package(1), p.work_package(2)], total=12, _type="WorkPackageCollection")
            | {"pageSize": 2, "offset": 3}
        }
    }
    api.get(url_for("api/v3/queries/30"), payload=payload)
    query, page = await AiohttpQueryRepository(client).get(30, PageRequest(offset=3, page_size=2))
    assert queries_to(api, "api/v3/queries/30") == [{"offset": "3", "pageSize": "2"}]
    assert (query.id, query.name, query.project) == (30, "Open bugs", NamedRef(1, "Demo"))
    assert [wp.id for wp in page.items] == [1, 2]
    assert (page.total, page.offset, page.page_size) == (12, 3, 2)


async def test_query_without_results_is_unreadable(client: OpenProjectClient, api: aioresponses) -> None:
    api.get(url_for("api/v3/queries/30"), payload=saved_query(30, "Open bugs"))
    with pytest.raises(UpstreamServerError, match="results of query 30"):
        await AiohttpQueryRepository(client).get(30, PageRequest())


# Metadata ------------------------------------------------------------------------------------------


async def test_types_statuses_priorities(client: OpenProjectClient, api: aioresponses) -> None:
    type_ = {"_type": "Type", "id": 1, "name": "Task", "isMilestone": False, "isDefault": True, "color": "#1A67A3"}
    api.get(f"{BASE}api/v3/types", payload=p.collection([type_], paginated=False))
    api.get(f"{BASE}api/v3/projects/3/types", payload=p.collection([type_ | {"id": 2, "name": "Bug"}], paginated=False))
    api.get(f"{BASE}api/v3/statuses", payload=p.collection([{"id": 5, "name": "Closed", "isClosed": True}]))
    api.get(f"{BASE}api/v3/priorities", payload=p.collection([{"id": 8, "name": "Normal", "isActive": True}]))
    repo = AiohttpMetadataRepository(client)
    assert [t.name for t in await repo.types(None)] == ["Task"]
    assert [t.name for t in await repo.types(3)] == ["Bug"]
    [closed] = await repo.statuses()
    assert closed.is_closed and closed.name == "Closed"
    [normal] = await repo.priorities()
    assert normal.is_active and normal.name == "Normal"


async def test_users_with_real_filters(client: OpenProjectClient, api: aioresponses) -> None:
    api.get(url_for("api/v3/users"), payload=p.collection([p.user(4, "Anna", login="amuller", status="active")]))
    page = await AiohttpMetadataRepository(client).users(
        [Filter("status", "=", ("active",)), Filter("name", "~", ("ann",))], PageRequest(1, 10)
    )
    [query] = queries_to(api, "api/v3/users")
    assert json.loads(query["filters"]) == [
        {"status": {"operator": "=", "values": ["active"]}},
        {"name": {"operator": "~", "values": ["ann"]}},
    ]
    assert query["pageSize"] == "10"
    assert page.items[0].login == "amuller"


async def test_users_without_admin_rights_is_forbidden(client: OpenProjectClient, api: aioresponses) -> None:
    api.get(
        url_for("api/v3/users"), status=403, payload=p.error("MissingPermission", "You are not allowed to see users.")
    )
    with pytest.raises(ForbiddenError, match="not allowed to see users"):
        await AiohttpMetadataRepository(client).users([], PageRequest())
    assert "filters" not in queries_to(api, "api/v3/users")[0]


async def test_principals_are_restricted_to_users(client: OpenProjectClient, api: aioresponses) -> None:
    api.get(url_for("api/v3/principals"), payload=p.collection([p.user(4, "Anna")]), repeat=True)
    repo = AiohttpMetadataRepository(client)
    await repo.principals([Filter("name", "~", ("ann",))], PageRequest())
    await repo.principals([Filter("type", "=", ("User", "Group"))], PageRequest())
    first, second = (json.loads(q["filters"]) for q in queries_to(api, "api/v3/principals"))
    assert first == [{"type": {"operator": "=", "values": ["User"]}}, {"name": {"operator": "~", "values": ["ann"]}}]
    assert second == [{"type": {"operator": "=", "values": ["User", "Group"]}}]  # replaced, not duplicated


async def test_principals_get_status_numbers(client: OpenProjectClient, api: aioresponses) -> None:
    # The principals status filter takes Principal.statuses numbers, the users one names
    # (opf/openproject@cef85bf:app/models/queries/principals/filters/status_filter.rb).
    api.get(url_for("api/v3/principals"), payload=p.collection([p.user(4, "Anna")]), repeat=True)
    repo = AiohttpMetadataRepository(client)
    await repo.principals([Filter("status", "=", ("locked",))], PageRequest())
    [query] = queries_to(api, "api/v3/principals")
    assert json.loads(query["filters"])[-1] == {"status": {"operator": "=", "values": ["3"]}}
    with pytest.raises(InvalidQueryError, match="banned"):
        await repo.principals([Filter("status", "=", ("banned",))], PageRequest())


# API description -----------------------------------------------------------------------------------


async def test_api_spec(client: OpenProjectClient, api: aioresponses) -> None:
    api.get(f"{BASE}api/v3/spec.json", payload={"openapi": "3.1.2", "paths": {"/api/v3": {}}})
    assert (await AiohttpApiSpecRepository(client).spec())["openapi"] == "3.1.2"


async def test_api_spec_absent_or_unreadable(client: OpenProjectClient, api: aioresponses) -> None:
    api.get(f"{BASE}api/v3/spec.json", status=404, payload=NOT_FOUND)
    api.get(f"{BASE}api/v3/spec.json", payload=[1, 2])
    repo = AiohttpApiSpecRepository(client)
    with pytest.raises(UnsupportedError, match=r"spec\.json"):
        await repo.spec()
    with pytest.raises(UpstreamServerError, match="could not be read"):
        await repo.spec()


# Meetings --------------------------------------------------------------------------------------------


async def test_meeting_list_asks_in_the_list_form_with_a_start_time_sort(
    client: OpenProjectClient, api: aioresponses
) -> None:
    # The list form (`=` with `future`/`past`) is what the code read before 18.0 ships
    # (opf/openproject@4911b8a:modules/meeting/app/models/queries/meetings/filters/time_filter.rb); `upcoming`
    # was never one of its values. `startTime` is the only sort key every version registers.
    api.get(
        url_for("api/v3/meetings"), payload=p.collection([p.meeting(2), p.meeting(3, duration="PT30M", state="open")])
    )
    page = await AiohttpMeetingRepository(client).list(MeetingQuery(project_id=1, time="upcoming"), PageRequest(1, 20))
    [query] = queries_to(api, "api/v3/meetings")
    assert json.loads(query["filters"]) == [
        {"project": {"operator": "=", "values": ["1"]}},
        {"time": {"operator": "=", "values": ["future"]}},
    ]
    assert json.loads(query["sortBy"]) == [["startTime", "asc"]]
    first, second = page.items
    assert (first.duration_minutes, second.duration_minutes, second.state) == (60, 30, "open")
    assert first.start_time == datetime(2026, 9, 8, 10, tzinfo=UTC)


async def test_the_operator_form_after_a_400_is_remembered_per_instance(
    client: OpenProjectClient, api: aioresponses
) -> None:
    refused = p.error("InvalidQuery", "Filters Start time is not set to one of the allowed values.")
    api.get(url_for("api/v3/meetings"), status=400, payload=refused)
    api.get(url_for("api/v3/meetings"), payload=p.collection([p.meeting(2)]), repeat=True)
    cache = CapabilityCache()
    page = await AiohttpMeetingRepository(client, cache).list(MeetingQuery(time="past"), PageRequest())
    assert [m.id for m in page.items] == [2]
    sent = [json.loads(q["filters"]) for q in queries_to(api, "api/v3/meetings")]
    assert sent == [[{"time": {"operator": "=", "values": ["past"]}}], [{"time": {"operator": "past", "values": []}}]]
    assert cache.dialect(client.base_url, "meetings.time_filter") == "operator"
    api.requests.clear()
    await AiohttpMeetingRepository(client, cache).list(MeetingQuery(time="upcoming"), PageRequest())
    [again] = queries_to(api, "api/v3/meetings")
    assert json.loads(again["filters"]) == [{"time": {"operator": "upcoming", "values": []}}]


async def test_a_form_refused_both_ways_fails_and_nothing_is_learned(
    client: OpenProjectClient, api: aioresponses
) -> None:
    refused = p.error("InvalidQuery", "Filters Project filter has invalid values.")
    api.get(url_for("api/v3/meetings"), status=400, payload=refused, repeat=True)
    cache = CapabilityCache()
    with pytest.raises(InvalidQueryError, match="Project filter"):
        await AiohttpMeetingRepository(client, cache).list(MeetingQuery(time="past"), PageRequest())
    assert len(queries_to(api, "api/v3/meetings")) == 4  # two time forms, with and without the sort key
    assert cache.dialect(client.base_url, "meetings.time_filter") is None
    assert cache.dialect(client.base_url, "meetings.sort") is None


async def test_an_instance_that_sorts_by_nothing_is_ordered_here(client: OpenProjectClient, api: aioresponses) -> None:
    # 14.4 registers no meetings order at all (@4911b8a:modules/meeting/app/models/queries/meetings.rb).
    def answer(url: URL, **_: object) -> CallbackResult:
        if "sortBy" in url.query:
            return CallbackResult(status=400, payload=p.error("InvalidQuery", "Orders Start time does not exist."))
        early, late, tie = p.meeting(5), p.meeting(6), p.meeting(4)
        early["startTime"], late["startTime"], tie["startTime"] = (
            "2026-01-01T09:00:00.000Z",
            "2026-03-01T09:00:00.000Z",
            "2026-03-01T09:00:00.000Z",
        )
        return CallbackResult(payload=p.collection([early, late, tie], total=3))

    api.get(url_for("api/v3/meetings"), callback=answer, repeat=True)
    cache = CapabilityCache()
    repo = AiohttpMeetingRepository(client, cache)
    newest = await repo.list(MeetingQuery(order="newest_first"), PageRequest(1, 2))
    assert [m.id for m in newest.items] == [4, 6]  # same start: ascending id
    assert (newest.total, newest.has_more) == (3, True)
    assert cache.dialect(client.base_url, "meetings.sort") == "none"
    earliest = await repo.list(MeetingQuery(), PageRequest(2, 2))
    assert [m.id for m in earliest.items] == [6]
    sent = queries_to(api, "api/v3/meetings")
    assert len(sent) == 2 and "sortBy" in sent[0] and "sortBy" not in sent[1]  # one read serves both pages


async def test_where_the_time_filter_is_required_a_list_is_both_halves(
    client: OpenProjectClient, api: aioresponses
) -> None:
    # 18.0 marks the time filter `required? true` (opf/openproject@a27f373:modules/meeting/app/models/queries/
    # meetings/filters/time_filter.rb); should an instance refuse a list without it, both halves are read.
    def answer(url: URL, **_: object) -> CallbackResult:
        filters = json.loads(url.query.get("filters", "[]"))
        time = next((f["time"] for f in filters if "time" in f), None)
        if time is None or time["operator"] == "=":
            return CallbackResult(status=400, payload=p.error("InvalidQuery", "Filters Start time is not set."))
        past, coming = p.meeting(5), p.meeting(6)
        past["startTime"], coming["startTime"] = "2026-01-01T09:00:00.000Z", "2026-12-01T09:00:00.000Z"
        return CallbackResult(payload=p.collection([past] if time["operator"] == "past" else [coming], total=1))

    api.get(url_for("api/v3/meetings"), callback=answer, repeat=True)
    cache = CapabilityCache()
    newest = await AiohttpMeetingRepository(client, cache).list(MeetingQuery(order="newest_first"), PageRequest())
    assert [m.id for m in newest.items] == [6, 5] and newest.total == 2
    assert cache.dialect(client.base_url, "meetings.time_required") == "yes"
    api.requests.clear()
    earliest = await AiohttpMeetingRepository(client, cache).list(MeetingQuery(), PageRequest())
    assert [m.id for m in earliest.items] == [5, 6]
    assert len(queries_to(api, "api/v3/meetings")) == 2  # one request per half, nothing refused


async def test_a_time_filter_the_instance_applies_by_itself_is_noticed(
    client: OpenProjectClient, api: aioresponses
) -> None:
    # 18.0's time filter defaults to Upcoming and is required (opf/openproject@a27f373:modules/meeting/app/
    # models/queries/meetings/filters/time_filter.rb): a list naming no time must not silently lose the past.
    def answer(url: URL, **_: object) -> CallbackResult:
        filters = json.loads(url.query.get("filters", "[]"))
        time = next((f["time"] for f in filters if "time" in f), {"operator": "upcoming", "values": []})
        applied = json.dumps([{"time": time}])
        past, coming = p.meeting(5), p.meeting(6)
        past["startTime"], coming["startTime"] = "2026-01-01T09:00:00.000Z", "2026-12-01T09:00:00.000Z"
        wants_past = time["operator"] == "past" or time["values"] == ["past"]
        body = p.collection([past] if wants_past else [coming], total=1)
        body["_links"] = {"self": {"href": f"/api/v3/meetings?filters={quote(applied)}&offset=1&pageSize=20"}}
        return CallbackResult(payload=body)

    api.get(url_for("api/v3/meetings"), callback=answer, repeat=True)
    cache = CapabilityCache()
    listed = await AiohttpMeetingRepository(client, cache).list(MeetingQuery(), PageRequest())
    assert [m.id for m in listed.items] == [5, 6] and listed.total == 2
    assert cache.dialect(client.base_url, "meetings.time_required") == "yes"


async def test_an_accepted_form_is_learned_even_when_its_answer_cannot_be_read(
    client: OpenProjectClient, api: aioresponses
) -> None:
    def answer(url: URL, **_: object) -> CallbackResult:
        if "sortBy" in url.query:
            return CallbackResult(status=400, payload=p.error("InvalidQuery", "Orders Start time does not exist."))
        broken = p.meeting(5)
        broken["_links"] = {}  # no project: the meeting cannot be read
        return CallbackResult(payload=p.collection([broken], total=1))

    api.get(url_for("api/v3/meetings"), callback=answer, repeat=True)
    cache = CapabilityCache()
    with pytest.raises(UpstreamServerError):
        await AiohttpMeetingRepository(client, cache).list(MeetingQuery(), PageRequest())
    assert cache.dialect(client.base_url, "meetings.sort") == "none"  # a later call sends no refused key


async def test_meeting_list_without_the_module_is_unsupported(client: OpenProjectClient, api: aioresponses) -> None:
    api.get(url_for("api/v3/meetings"), status=404, payload=NOT_FOUND)
    with pytest.raises(UnsupportedError) as caught:
        await AiohttpMeetingRepository(client).list(MeetingQuery(), PageRequest())
    assert "/api/v3/meetings" in caught.value.message and "meetings module" in caught.value.message


async def test_meeting_search_filter_refused(client: OpenProjectClient, api: aioresponses) -> None:
    api.get(
        url_for("api/v3/meetings"),
        status=400,
        payload=p.error("InvalidQuery", "Filters Search filter does not exist."),
        repeat=True,
    )
    with pytest.raises(InvalidQueryError):
        await AiohttpMeetingRepository(client).list(MeetingQuery(text="budget"), PageRequest())


async def test_meeting_details_on_17_3(client: OpenProjectClient, api: aioresponses) -> None:
    api.get(f"{BASE}api/v3/meetings/2", payload=p.meeting(2))
    api.get(f"{BASE}api/v3/meetings/2/agenda_items", status=404, payload=NOT_FOUND)
    details = await AiohttpMeetingRepository(client).details(2)
    assert (details.meeting_id, details.participants, details.agenda_items) == (2, None, None)


async def test_meeting_details_on_17_4_with_embedded_outcomes(client: OpenProjectClient, api: aioresponses) -> None:
    api.get(f"{BASE}api/v3/meetings/2", payload=p.meeting(2, state="closed"))
    items = [
        p.agenda_item(21, "Budget", 2, _embedded={"outcomes": []}),
        p.agenda_item(
            20,
            "Staffing",
            1,
            _links={"workPackage": p.link("/api/v3/work_packages/38", "Fix login redirect")},
            _embedded={"outcomes": [p.outcome(3, "We agreed on the hiring freeze."), p.outcome(4, "")]},
        ),
    ]
    api.get(f"{BASE}api/v3/meetings/2/agenda_items", payload=p.collection(items, paginated=False))
    details = await AiohttpMeetingRepository(client).details(2)
    assert details.participants is None
    assert details.agenda_items == (
        AgendaItem(
            id=20,
            title="Staffing",
            position=1,
            notes="Notes on Staffing",
            duration_in_minutes=15,
            work_package=WorkPackageRef(38, "Fix login redirect"),
            outcomes=("We agreed on the hiring freeze.",),
        ),
        AgendaItem(id=21, title="Budget", position=2, notes="Notes on Budget", duration_in_minutes=15),
    )


async def test_meeting_details_on_18_0_with_participants(client: OpenProjectClient, api: aioresponses) -> None:
    meeting = p.meeting(2)
    meeting["_links"]["participants"] = [p.link("/api/v3/users/4", "Anna Müller"), p.link("/api/v3/users/5", "Ben")]
    api.get(f"{BASE}api/v3/meetings/2", payload=meeting)
    api.get(f"{BASE}api/v3/meetings/2/agenda_items", payload=p.collection([], paginated=False))
    details = await AiohttpMeetingRepository(client).details(2)
    assert details.participants == (NamedRef(4, "Anna Müller"), NamedRef(5, "Ben"))
    assert details.agenda_items == ()


async def test_linked_outcomes_are_followed(client: OpenProjectClient, api: aioresponses) -> None:
    api.get(f"{BASE}api/v3/meetings/2", payload=p.meeting(2))
    items = [
        p.agenda_item(
            20,
            "Staffing",
            1,
            _links={"outcomes": [p.link("/api/v3/meeting_outcomes/3", "3"), p.link("/api/v3/meeting_outcomes/4", "4")]},
        ),
        p.agenda_item(21, "Budget", 2, _links={"outcomes": p.link("/api/v3/meetings/2/agenda_items/21/outcomes")}),
        p.agenda_item(
            22, "Evil", 3, _links={"outcomes": [p.link("https://evil.example.com/api/v3/meeting_outcomes/5")]}
        ),
    ]
    api.get(f"{BASE}api/v3/meetings/2/agenda_items", payload=p.collection(items, paginated=False))
    api.get(f"{BASE}api/v3/meeting_outcomes/3", payload=p.outcome(3, "First"))
    api.get(f"{BASE}api/v3/meeting_outcomes/4", payload=p.outcome(4, "Second"))
    api.get(f"{BASE}api/v3/meetings/2/agenda_items/21/outcomes", payload=p.collection([p.outcome(6, "Third")]))
    details = await AiohttpMeetingRepository(client).details(2)
    assert details.agenda_items is not None
    assert [item.outcomes for item in details.agenda_items] == [("First", "Second"), ("Third",), ()]
    assert not any("evil" in str(url) for _, url in issued(api))


def _in_section(item: dict[str, Any], section_id: int, *, backlog: bool | None) -> dict[str, Any]:
    item["_links"]["section"] = p.link(f"/api/v3/meeting_sections/{section_id}", "Backlog" if backlog else "Agenda")
    if backlog is not None:
        item["_embedded"] = {"section": {"_type": "MeetingSection", "id": section_id, "backlog": backlog}}
    return item


async def test_backlog_items_are_told_apart_by_their_embedded_section(
    client: OpenProjectClient, api: aioresponses
) -> None:
    # Sections carry `backlog` (opf/openproject@9610091:modules/meeting/lib/api/v3/meeting_sections/
    # meeting_section_representer.rb); the collection embeds them
    # (@899685:.../meeting_agenda_item_collection_representer.rb).
    api.get(f"{BASE}api/v3/meetings/2", payload=p.meeting(2))
    items = [
        _in_section(p.agenda_item(20, "On the agenda", 1), 7, backlog=False),
        _in_section(p.agenda_item(21, "Parked", 1), 8, backlog=True),
    ]
    api.get(f"{BASE}api/v3/meetings/2/agenda_items", payload=p.collection(items, paginated=False))
    details = await AiohttpMeetingRepository(client).details(2)
    assert [i.id for i in details.agenda_items or ()] == [20]
    assert [i.id for i in details.backlog_items or ()] == [21]
    assert paths(api) == ["api/v3/meetings/2", "api/v3/meetings/2/agenda_items"]  # no section request


async def test_linked_sections_are_read_once_and_an_unreadable_one_is_the_backlog(
    client: OpenProjectClient, api: aioresponses
) -> None:
    # Before 17.6 the sections endpoint does not serve the backlog section (#75616 in
    # opf/openproject@0170877:docs/release-notes/17-6-0/README.md).
    api.get(f"{BASE}api/v3/meetings/2", payload=p.meeting(2))
    items = [
        _in_section(p.agenda_item(20, "First", 1), 7, backlog=None),
        _in_section(p.agenda_item(22, "Second", 2), 7, backlog=None),
        _in_section(p.agenda_item(21, "Parked", 1), 8, backlog=None),
    ]
    api.get(f"{BASE}api/v3/meetings/2/agenda_items", payload=p.collection(items, paginated=False))
    api.get(f"{BASE}api/v3/meeting_sections/7", payload={"_type": "MeetingSection", "id": 7, "backlog": False})
    api.get(f"{BASE}api/v3/meeting_sections/8", status=404, payload=NOT_FOUND)
    details = await AiohttpMeetingRepository(client).details(2)
    assert [i.id for i in details.agenda_items or ()] == [20, 22]
    assert [i.id for i in details.backlog_items or ()] == [21]
    assert paths(api).count("api/v3/meeting_sections/7") == 1


async def test_outcomes_neither_embedded_nor_linked_are_unreadable(
    client: OpenProjectClient, api: aioresponses
) -> None:
    api.get(f"{BASE}api/v3/meetings/2", payload=p.meeting(2))
    api.get(
        f"{BASE}api/v3/meetings/2/agenda_items",
        payload=p.collection([p.agenda_item(20, "Budget", 1)], paginated=False),
    )
    details = await AiohttpMeetingRepository(client).details(2)
    assert details.outcomes_readable is False and details.agenda_items


async def test_details_of_a_missing_meeting(client: OpenProjectClient, api: aioresponses) -> None:
    api.get(f"{BASE}api/v3/meetings/9", status=404, payload=NOT_FOUND)
    api.get(f"{BASE}api/v3/meetings/9/agenda_items", status=404, payload=NOT_FOUND)
    with pytest.raises(NotFoundError):
        await AiohttpMeetingRepository(client).details(9)


async def test_details_never_hide_an_authentication_failure(client: OpenProjectClient, api: aioresponses) -> None:
    api.get(f"{BASE}api/v3/meetings/2", payload=p.meeting(2))
    api.get(
        f"{BASE}api/v3/meetings/2/agenda_items",
        callback=lambda url, **kw: CallbackResult(
            status=401, reason="Unauthorized", payload=p.error("Unauthenticated", "no")
        ),
    )
    with pytest.raises(AuthenticationError):
        await AiohttpMeetingRepository(client).details(2)


async def test_meeting_and_agenda_are_fetched_concurrently(make_client: ClientMaker, api: aioresponses) -> None:
    client = await make_client()
    both_started = asyncio.Event()
    started = 0

    async def gate(payload: p.JSON) -> CallbackResult:
        nonlocal started
        started += 1
        if started == 2:
            both_started.set()
        await asyncio.wait_for(both_started.wait(), timeout=2)
        return CallbackResult(payload=payload)

    async def meeting(url: object, **kwargs: object) -> CallbackResult:
        return await gate(p.meeting(2))

    async def agenda(url: object, **kwargs: object) -> CallbackResult:
        return await gate(p.collection([], paginated=False))

    api.get(f"{BASE}api/v3/meetings/2", callback=meeting)
    api.get(f"{BASE}api/v3/meetings/2/agenda_items", callback=agenda)
    assert (await AiohttpMeetingRepository(client).details(2)).agenda_items == ()


async def test_a_rate_limited_meeting_list(make_client: ClientMaker, api: aioresponses) -> None:
    client = await make_client(max_retries=0)
    api.get(url_for("api/v3/meetings"), status=429, headers={"Retry-After": "3"})
    with pytest.raises(RateLimitedError, match="3 seconds"):
        await AiohttpMeetingRepository(client).list(MeetingQuery(), PageRequest())


# Wiki ----------------------------------------------------------------------------------------------


async def test_wiki_page_with_and_without_text(client: OpenProjectClient, api: aioresponses) -> None:
    api.get(f"{BASE}api/v3/wiki_pages/1", payload=p.wiki_page(1))
    api.get(f"{BASE}api/v3/wiki_pages/2", payload=p.wiki_page(2, "Runbook", text="# Steps"))
    repo = AiohttpWikiPageRepository(client)
    first = await repo.get(1)
    assert (first.title, first.text, first.project) == ("Onboarding Guide", None, NamedRef(1, "Demo project"))
    assert (await repo.get(2)).text == "# Steps"


async def test_wiki_attachments_get_absolute_download_urls(make_client: ClientMaker, api: aioresponses) -> None:
    base = "https://host/openproject/"
    client = await make_client(base)
    attachment = {
        "_type": "Attachment",
        "id": 376,
        "fileName": "some.gif",
        "fileSize": 3521772,
        "contentType": "image/gif",
        "_links": {"downloadLocation": p.link("/openproject/api/v3/attachments/376/content")},
    }
    api.get(f"{base}api/v3/wiki_pages/72/attachments", payload=p.collection([attachment], paginated=False))
    [found] = await AiohttpWikiPageRepository(client).attachments(72)
    assert found.download_url == "https://host/openproject/api/v3/attachments/376/content"
    assert (found.file_name, found.file_size, found.content_type) == ("some.gif", 3521772, "image/gif")


async def test_no_wiki_page_list_is_asked_for(client: OpenProjectClient, api: aioresponses) -> None:
    # No released version has one: pages are found by id, without an off-spec request.
    assert await AiohttpWikiPageRepository(client).list_pages(1) is None
    assert await AiohttpWikiPageRepository(client).list_pages(None) is None
    assert not issued(api)


def wiki_page_link(link_id: int, identifier: str = "1") -> p.JSON:
    """A link as 17.6+ renders it: the page named by ``identifier`` only."""
    return {
        "_type": "WikiPageLink",
        "id": link_id,
        "identifier": identifier,
        "wikiPageLinkType": "urn:openproject-org:api:v3:wikiPageLinks:Relation",
        "_links": {
            "self": p.link(f"/api/v3/wiki_page_links/{link_id}", identifier),
            "provider": p.link("/api/v3/wiki_providers/7d1e-uid", "Internal wiki"),
            "linkable": p.link("/api/v3/work_packages/38", "Fix the login"),
        },
    }


async def test_wiki_page_links(client: OpenProjectClient, api: aioresponses) -> None:
    api.get(url_for("api/v3/work_packages/38/wiki_page_links"), payload=p.collection([wiki_page_link(7)]))
    page = await AiohttpWikiPageLinkRepository(client).list(38, PageRequest(1, 30))
    assert queries_to(api, "api/v3/work_packages/38/wiki_page_links") == [{"offset": "1", "pageSize": "30"}]
    [found] = page.items
    assert (found.identifier, found.provider, found.provider_id, found.link_type) == (
        "1",
        "Internal wiki",
        "7d1e-uid",
        "relation",
    )
    assert found.work_package == WorkPackageRef(38, "Fix the login") and found.wiki_page is None


async def test_unpaginated_wiki_page_links_are_paged_here(client: OpenProjectClient, api: aioresponses) -> None:
    links = [wiki_page_link(i) for i in range(1, 6)]
    api.get(url_for("api/v3/work_packages/38/wiki_page_links"), payload=p.collection(links, paginated=False))
    page = await AiohttpWikiPageLinkRepository(client).list(38, PageRequest(2, 2))
    assert [link.id for link in page.items] == [3, 4] and page.total == 5


async def test_wiki_page_links_where_the_offset_is_not_read(client: OpenProjectClient, api: aioresponses) -> None:
    # Some versions pass only pageSize to the collection: every answer is the first page.
    links = [wiki_page_link(i) for i in range(1, 6)]

    def first_page(url: object, **kwargs: object) -> CallbackResult:
        params = kwargs["params"]
        assert isinstance(params, dict)
        size = int(params["pageSize"])
        return CallbackResult(payload=p.collection(links[:size], total=5) | {"pageSize": size, "offset": 1})

    api.get(url_for("api/v3/work_packages/38/wiki_page_links"), callback=first_page, repeat=True)
    page = await AiohttpWikiPageLinkRepository(client).list(38, PageRequest(2, 2))
    assert [link.id for link in page.items] == [3, 4] and page.total == 5


async def test_wiki_page_links_before_17_6(client: OpenProjectClient, api: aioresponses) -> None:
    api.get(url_for("api/v3/work_packages/38/wiki_page_links"), status=404, payload=NOT_FOUND)
    api.get(f"{BASE}api/v3/work_packages/38", payload=p.work_package(38))
    with pytest.raises(UnsupportedError, match=r"need OpenProject 17\.6 or newer"):
        await AiohttpWikiPageLinkRepository(client).list(38, PageRequest())


async def test_every_wiki_page_link_in_one_request(client: OpenProjectClient, api: aioresponses) -> None:
    links = [wiki_page_link(i, str(100 + i)) for i in range(1, 4)]
    api.get(url_for("api/v3/wiki_page_links"), payload=p.collection(links, total=3) | {"pageSize": 50, "offset": 1})
    found = await AiohttpWikiPageLinkRepository(client).list_all(50)
    assert [link.identifier for link in found] == ["101", "102", "103"]
    assert queries_to(api, "api/v3/wiki_page_links") == [{"pageSize": "50"}]


async def test_every_wiki_page_link_before_17_6(client: OpenProjectClient, api: aioresponses) -> None:
    api.get(url_for("api/v3/wiki_page_links"), status=404, payload=NOT_FOUND)
    with pytest.raises(UnsupportedError, match=r"17\.6"):
        await AiohttpWikiPageLinkRepository(client).list_all(50)


async def test_wiki_page_links_of_a_missing_work_package(client: OpenProjectClient, api: aioresponses) -> None:
    api.get(url_for("api/v3/work_packages/9/wiki_page_links"), status=404, payload=NOT_FOUND)
    api.get(
        f"{BASE}api/v3/work_packages/9",
        status=404,
        payload=p.error("NotFound", "The specified work package does not exist."),
    )
    with pytest.raises(NotFoundError, match="work package does not exist"):
        await AiohttpWikiPageLinkRepository(client).list(9, PageRequest())
