"""The fake OpenProject server behaves like OpenProject: auth, tenants, filters, paging, profiles, faults."""

from __future__ import annotations

import asyncio
import json
import time
from datetime import UTC, datetime
from typing import Any

import aiohttp
import pytest

from openproject_mcp.adapters.fixture import (
    Dataset,
    InMemoryMeetingRepository,
    InMemoryMetadataRepository,
    InMemoryQueryRepository,
    InMemoryWorkPackageRepository,
)
from openproject_mcp.domain.queries import Filter, MeetingQuery, MeetingTime, PageRequest, SortKey
from tests.support.fake_openproject import PROFILES, FakeOpenProject, Fault, RecordedRequest
from tests.unit.support.fake_client import (
    OTHER_TOKEN,
    TOKEN,
    ServeDemo,
    api_for,
    basic,
    bearer,
    filters,
    filters_of,
    ids,
)

ALL = PageRequest(1, 1000)


def me(dataset: Dataset) -> int:
    return next(u.id for u in dataset.users.values() if u.status == "active")


def open_ids(dataset: Dataset) -> list[int]:
    return [row.work_package.id for row in dataset.work_package_rows.values() if not row.is_closed]


# Authentication ------------------------------------------------------------------------------


@pytest.mark.parametrize("authorization", [basic(TOKEN), bearer(TOKEN)], ids=["basic", "bearer"])
async def test_accepts_the_token_as_basic_apikey_or_bearer(serve_demo: ServeDemo, authorization: str) -> None:
    async with serve_demo() as (fake, _), api_for(fake, authorization) as api:
        root = await api.json("api/v3")
    assert root["_type"] == "Root"
    assert fake.requests[-1].token == TOKEN


@pytest.mark.parametrize(
    "authorization",
    [None, bearer("wrong"), basic("wrong"), basic(TOKEN, user="admin"), f"Token {TOKEN}", "Basic %%%"],
    ids=["missing", "wrong-bearer", "wrong-basic", "basic-not-apikey", "unknown-scheme", "garbled-basic"],
)
async def test_refuses_a_missing_or_unknown_token_with_a_hal_401(
    serve_demo: ServeDemo, authorization: str | None
) -> None:
    async with serve_demo() as (fake, _), api_for(fake, authorization) as api:
        answer = await api.get("api/v3/projects")
    assert answer.status == 401
    assert answer.headers["Content-Type"].startswith("application/hal+json")
    assert answer.headers["WWW-Authenticate"].startswith("Basic")
    assert answer.error == "Unauthenticated"
    assert set(answer.json()) == {"_type", "errorIdentifier", "message"}


# Tenants -------------------------------------------------------------------------------------


async def test_each_token_sees_only_its_own_dataset(demo: Dataset, generated: Dataset) -> None:
    async with (
        FakeOpenProject({TOKEN: demo, OTHER_TOKEN: generated}) as fake,
        api_for(fake, bearer(TOKEN)) as mine,
        api_for(fake, basic(OTHER_TOKEN)) as theirs,
    ):
        assert ids(await mine.json("api/v3/projects")) == list(demo.projects)
        assert ids(await theirs.json("api/v3/projects")) == list(generated.projects)
        some_demo_wp = next(iter(demo.work_packages))
        assert (await mine.get(f"api/v3/work_packages/{some_demo_wp}")).status == 200
        assert (await theirs.get(f"api/v3/work_packages/{some_demo_wp}")).error == "NotFound"
        mine_root, theirs_root = await mine.json("api/v3"), await theirs.json("api/v3")
    assert mine_root["instanceName"] == demo.instance_name
    assert theirs_root["instanceName"] == generated.instance_name
    assert mine_root["_links"]["user"]["href"] == f"/api/v3/users/{me(demo)}"
    assert theirs_root["_links"]["user"]["href"] == f"/api/v3/users/{me(generated)}"
    assert [r.token for r in fake.requests] == [TOKEN, OTHER_TOKEN, TOKEN, OTHER_TOKEN, TOKEN, OTHER_TOKEN]


def test_refuses_bad_constructor_arguments(demo: Dataset) -> None:
    with pytest.raises(ValueError, match="profile"):
        FakeOpenProject({TOKEN: demo}, profile="15.0")
    with pytest.raises(ValueError, match="tenant"):
        FakeOpenProject({})
    with pytest.raises(ValueError, match="not tenants"):
        FakeOpenProject({TOKEN: demo}, non_admin_tokens={"nobody"})


async def test_base_url_needs_a_running_server(demo: Dataset) -> None:
    fake = FakeOpenProject({TOKEN: demo})
    with pytest.raises(RuntimeError):
        _ = fake.base_url
    async with fake:
        assert fake.base_url.startswith("http://127.0.0.1:") and fake.base_url.endswith("/")


# Work package lists --------------------------------------------------------------------------


async def test_a_work_package_list_without_filters_is_open_work_packages_only(
    serve_demo: ServeDemo, demo: Dataset
) -> None:
    async with serve_demo() as (_, api):
        default = await api.json("api/v3/work_packages", {"pageSize": 1000})
        everything = await api.json("api/v3/work_packages", {"filters": "[]", "pageSize": 1000})
    assert ids(default) == open_ids(demo)
    assert default["total"] == len(open_ids(demo)) < len(demo.work_packages)
    assert '"operator":"o"' in default["_links"]["self"]["href"].replace("%22", '"').replace("%3A", ":")
    assert ids(everything) == list(demo.work_packages)
    assert default["_type"] == everything["_type"] == "WorkPackageCollection"


WORK_PACKAGE_FILTERS: list[list[Filter]] = [
    [Filter("status", "c")],
    [Filter("status", "*")],
    [Filter("status", "=", ("1", "2"))],
    [Filter("project", "=", ("2",))],
    [Filter("type", "=", ("7",)), Filter("status", "o")],
    [Filter("assignee", "=", ("me",))],
    [Filter("assignee", "!*")],
    [Filter("subject", "~", ("checkout",))],
    [Filter("search", "**", ("payment",))],
    [Filter("id", "=", ("101", "105", "999"))],
    [Filter("parent", "=", ("101",))],
    [Filter("updatedAt", "<>d", ("2026-10-01", ""))],
]


@pytest.mark.parametrize("wanted", WORK_PACKAGE_FILTERS, ids=lambda fs: ";".join(f"{f.name}{f.operator}" for f in fs))
async def test_work_package_filters_select_what_the_fixture_backend_selects(
    serve_demo: ServeDemo, demo: Dataset, wanted: list[Filter]
) -> None:
    expected = await InMemoryWorkPackageRepository(demo, me(demo)).list(wanted, [], ALL)
    params: dict[str, str | int] = {"filters": filters_of(wanted), "pageSize": 1000}
    async with serve_demo() as (_, api):
        found = await api.json("api/v3/work_packages", params)
    assert ids(found) == [wp.id for wp in expected.items]
    assert found["total"] == expected.total


async def test_assignee_me_is_the_first_active_user_of_the_dataset(serve_demo: ServeDemo, demo: Dataset) -> None:
    async with serve_demo() as (_, api):
        found = await api.json("api/v3/work_packages", {"filters": filters(("assignee", "=", ["me"]))})
    assert found["total"] > 0
    assert {wp["_links"]["assignee"]["href"] for wp in found["_embedded"]["elements"]} == {f"/api/v3/users/{me(demo)}"}


@pytest.mark.parametrize("sort", ['[["updatedAt","desc"]]', "updatedAt:desc", '[["updated_at","desc"]]'])
async def test_sorts_as_the_fixture_backend(serve_demo: ServeDemo, demo: Dataset, sort: str) -> None:
    expected = await InMemoryWorkPackageRepository(demo).list([], [SortKey("updatedAt", "desc")], ALL)
    async with serve_demo() as (_, api):
        found = await api.json("api/v3/work_packages", {"filters": "[]", "sortBy": sort, "pageSize": 1000})
    assert ids(found) == [wp.id for wp in expected.items]


async def test_pages_are_page_numbers_with_paging_links(serve_demo: ServeDemo, demo: Dataset) -> None:
    every = list(demo.work_packages)
    async with serve_demo() as (_, api):
        second = await api.json("api/v3/work_packages", {"filters": "[]", "offset": 2, "pageSize": 5})
        last = await api.json("api/v3/work_packages", {"filters": "[]", "offset": 6, "pageSize": 5})
        empty = await api.json("api/v3/work_packages", {"filters": "[]", "pageSize": 0})
    assert ids(second) == every[5:10]
    assert (second["offset"], second["pageSize"], second["count"], second["total"]) == (2, 5, 5, len(every))
    assert "offset=3&pageSize=5" in second["_links"]["nextByOffset"]["href"]
    assert "offset=1&pageSize=5" in second["_links"]["previousByOffset"]["href"]
    assert second["_links"]["jumpTo"]["templated"] is True
    assert ids(last) == every[25:30] and "nextByOffset" not in last["_links"]
    assert (empty["count"], empty["total"]) == (0, len(every))


@pytest.mark.parametrize(("asked", "used"), [(500, 7), (-1, 7), (7, 7), (3, 3)])
async def test_page_size_is_clamped_to_the_maximum(serve_demo: ServeDemo, asked: int, used: int) -> None:
    async with serve_demo(page_size_max=7) as (_, api):
        found = await api.json("api/v3/work_packages", {"filters": "[]", "pageSize": asked})
    assert found["pageSize"] == found["count"] == used


@pytest.mark.parametrize(
    ("params", "error"),
    [
        ({"filters": filters(("colour", "=", ["red"]))}, "InvalidQuery"),
        ({"filters": filters(("status", "~", ["x"]))}, "InvalidQuery"),
        ({"filters": filters(("subject", "~", [""]))}, "InvalidQuery"),
        ({"filters": '[{"status": {"operator": "o"'}, "InvalidQuery"),
        ({"filters": '{"status": "o"}'}, "InvalidQuery"),
        ({"sortBy": '[["colour","asc"]]'}, "InvalidQuery"),
        ({"sortBy": '[["id","sideways"]]'}, "InvalidQuery"),
        ({"sortBy": '[["id"'}, "InvalidQuery"),
        ({"offset": "abc"}, "BadRequest"),
    ],
    ids=[
        "unknown-filter",
        "unknown-operator",
        "blank-text",
        "malformed-json",
        "not-a-list",
        "unknown-sort",
        "bad-direction",
        "malformed-sort",
        "bad-offset",
    ],
)
async def test_refuses_bad_parameters_with_400(serve_demo: ServeDemo, params: dict[str, str], error: str) -> None:
    async with serve_demo() as (_, api):
        answer = await api.get("api/v3/work_packages", params)
    assert answer.status == 400
    assert answer.error == error


async def test_project_work_packages_are_scoped_to_the_project(serve_demo: ServeDemo, demo: Dataset) -> None:
    project = demo.projects[2]
    expected = [row.work_package.id for row in demo.work_package_rows.values() if row.project_id == 2]
    async with serve_demo() as (_, api):
        by_id = await api.json("api/v3/projects/2/work_packages", {"filters": "[]", "pageSize": 100})
        by_identifier = await api.json(
            f"api/v3/projects/{project.identifier}/work_packages", {"filters": "[]", "pageSize": 100}
        )
        missing = await api.get("api/v3/projects/nope/work_packages")
    assert ids(by_id) == ids(by_identifier) == expected
    assert by_id["_links"]["self"]["href"].startswith("/api/v3/projects/2/work_packages?")
    assert missing.error == "NotFound"


async def test_single_resources_and_404s(serve_demo: ServeDemo, demo: Dataset) -> None:
    project = demo.projects[1]
    async with serve_demo() as (_, api):
        assert (await api.json(f"api/v3/projects/{project.identifier}"))["id"] == project.id
        assert (await api.json("api/v3/projects/1"))["identifier"] == project.identifier
        assert ids(await api.json("api/v3/projects/1/types")) == list(demo.types)
        for path in ("types", "statuses", "priorities"):
            collection = await api.json(f"api/v3/{path}")
            first = ids(collection)[0]
            assert (await api.json(f"api/v3/{path}/{first}"))["id"] == first
        for path in (
            "api/v3/projects/999",
            "api/v3/work_packages/999999",
            "api/v3/work_packages/999999/activities",
            "api/v3/meetings/999999",
            "api/v3/wiki_pages/999999",
            "api/v3/wiki_pages/999999/attachments",
            "api/v3/queries/999999",
            "api/v3/users/999999",
            "api/v3/statuses/999999",
            "api/v3/no_such_thing",
            "api/v3/work_packages/1/no_such_thing",
        ):
            answer = await api.get(path)
            assert (answer.status, answer.error) == (404, "NotFound"), path
        assert (await api.get("api/v3/meetings/abc")).error == "BadRequest"
        async with api.session.post("api/v3/projects") as response:
            assert response.status == 405


# Version profiles ----------------------------------------------------------------------------

PROFILE_NAMES = ("16.6", "17.3", "17.5", "17.8", "18.0")


def per_profile(*statuses: int) -> dict[str, int]:
    return dict(zip(PROFILE_NAMES, statuses, strict=True))


# The HTTP status of each path on 16.6, 17.3, 17.5, 17.8 and 18.0 (the demo dataset's meeting 201,
# wiki page 304, and work package 116 with a wiki page link); see docs/openproject-versions.md.
PROFILE_TABLE: dict[str, dict[str, int]] = {
    "api/v3/meetings": per_profile(200, 200, 200, 200, 200),
    "api/v3/meetings/201": per_profile(200, 200, 200, 200, 200),
    "api/v3/meetings/201/agenda_items": per_profile(404, 404, 200, 200, 200),
    "api/v3/meeting_outcomes/901001": per_profile(404, 404, 404, 200, 200),
    "api/v3/meetings?filters=" + filters(("search", "**", ["roadmap"])): per_profile(400, 400, 400, 400, 400),
    "api/v3/projects/1/wiki_pages": per_profile(404, 404, 404, 404, 404),
    "api/v3/work_packages/116/wiki_page_links": per_profile(404, 404, 404, 200, 200),
    "api/v3/wiki_page_links": per_profile(404, 404, 404, 200, 200),
    "api/v3/work_packages/SHOP-1": per_profile(400, 400, 200, 200, 200),
    "api/v3/wiki_pages/304": per_profile(200, 200, 200, 200, 200),
}


@pytest.mark.parametrize("profile", PROFILE_NAMES)
async def test_each_profile_exposes_what_its_version_has(serve_demo: ServeDemo, profile: str) -> None:
    async with serve_demo(profile=profile) as (_, api):
        got = {path: (await api.get(path)).status for path in PROFILE_TABLE}
        meeting = await api.json("api/v3/meetings/201")
        work_package = await api.json("api/v3/work_packages/101")
        wiki_page = await api.json("api/v3/wiki_pages/304")
        search = await api.get("api/v3/meetings", {"filters": filters(("search", "**", ["x"]))})
    assert got == {path: statuses[profile] for path, statuses in PROFILE_TABLE.items()}
    if search.status == 400:
        assert search.error == "InvalidQuery"
    older = profile in ("16.6", "17.3")
    # 201 lasts 90 minutes: hours as a number in 17.3 and before, ISO 8601 from 17.4.
    assert meeting["duration"] == (1.5 if older else "PT1H30M")
    assert ("state" in meeting) is not older
    assert ("participants" in meeting["_links"]) is not older
    assert ("displayId" in work_package) is not older
    assert "text" not in wiki_page  # no release has wiki page texts in APIv3


TIME_FORMS: dict[str, dict[MeetingTime, tuple[str, str, list[str]]]] = {
    "list": {"upcoming": ("time", "=", ["future"]), "past": ("time", "=", ["past"])},
    "operator": {"upcoming": ("time", "upcoming", []), "past": ("time", "past", [])},
}


@pytest.mark.parametrize("profile", PROFILE_NAMES)
async def test_meetings_time_filter_in_each_profiles_form(serve_demo: ServeDemo, demo: Dataset, profile: str) -> None:
    now = datetime(2026, 10, 1, tzinfo=UTC)
    fixture = InMemoryMeetingRepository(demo, now=lambda: now)
    form = PROFILES[profile].meeting_time_filter
    other = "operator" if form == "list" else "list"
    async with serve_demo(profile=profile, now=lambda: now) as (_, api):
        times: tuple[MeetingTime, ...] = ("upcoming", "past")
        for time in times:
            expected = sorted(m.id for m in (await fixture.list(MeetingQuery(time=time), ALL)).items)
            found = await api.json("api/v3/meetings", {"filters": filters(TIME_FORMS[form][time]), "pageSize": 1000})
            assert ids(found) == expected, time
            refused = await api.get("api/v3/meetings", {"filters": filters(TIME_FORMS[other][time])})
            assert (refused.status, refused.error) == (400, "InvalidQuery")
            assert refused.json()["message"].startswith("Filters Start time is not set to one of the allowed values.")
        # `upcoming` was never a value of the list form (@4911b8a:.../meetings/filters/time_filter.rb).
        wrong = await api.get("api/v3/meetings", {"filters": filters(("time", "=", ["upcoming"]))})
        assert wrong.status == 400
        if form == "list":
            assert wrong.json()["message"] == "Filters Start time filter has invalid values."
        unknown = await api.get("api/v3/meetings", {"filters": filters(("colour", "=", ["x"]))})
        assert (unknown.status, unknown.json()["message"]) == (400, "Filters Colour filter does not exist.")


@pytest.mark.parametrize("profile", PROFILE_NAMES)
async def test_meetings_sort_only_by_registered_keys(serve_demo: ServeDemo, profile: str) -> None:
    registered = PROFILES[profile].meeting_sort_keys
    async with serve_demo(profile=profile) as (_, api):
        for key, name in (("id", "ID"), ("startTime", "Start time"), ("location", "Location")):
            answer = await api.get("api/v3/meetings", {"sortBy": json.dumps([[key, "desc"]])})
            if key in registered:
                assert answer.status == 200, key
                assert ids(answer.json()) == sorted(ids(answer.json()), reverse=True)  # the demo starts in id order
            else:
                assert answer.status == 400, key
                assert answer.json() == {
                    "_type": "Error",
                    "errorIdentifier": "urn:openproject-org:api:v3:errors:InvalidQuery",
                    "message": f"Orders {name} does not exist.",
                }
        both = await api.get("api/v3/meetings", {"sortBy": json.dumps([["location", "asc"], ["title", "asc"]])})
        assert (both.status, both.error) == (400, "MultipleErrors")


@pytest.mark.parametrize("profile", PROFILE_NAMES)
async def test_status_filters_take_numbers_on_principals_and_names_on_users(
    serve_demo: ServeDemo, profile: str
) -> None:
    async with serve_demo(profile=profile) as (_, api):
        by_number = await api.json("api/v3/principals", {"filters": filters(("status", "=", ["3"]))})
        by_name = await api.get("api/v3/principals", {"filters": filters(("status", "=", ["locked"]))})
        users = await api.json("api/v3/users", {"filters": filters(("status", "=", ["locked"]))})
        users_by_number = await api.get("api/v3/users", {"filters": filters(("status", "=", ["3"]))})
    assert ids(by_number) == ids(users) and ids(users)
    for refused in (by_name, users_by_number):
        assert (refused.status, refused.json()["message"]) == (400, "Filters Status filter has invalid values.")


async def test_agenda_items_embed_their_outcomes_and_link_them(serve_demo: ServeDemo, demo: Dataset) -> None:
    details = demo.meeting_details[201]
    async with serve_demo(profile="17.8") as (_, api):
        agenda = await api.json("api/v3/meetings/201/agenda_items")
        first = agenda["_embedded"]["elements"][0]
        linked = await api.json(first["_links"]["outcomes"][0]["href"].removeprefix("/"))
        outcomes = await api.json("api/v3/meetings/201/agenda_items/901/outcomes")
        single = await api.json("api/v3/meeting_agenda_items/901")
    assert agenda["_type"] == "Collection" and "pageSize" not in agenda
    items = details.agenda_items or ()
    assert [e["title"] for e in agenda["_embedded"]["elements"]] == [i.title for i in items]
    assert [o["notes"]["raw"] for o in first["_embedded"]["outcomes"]] == list(items[0].outcomes)
    linked_work_package = items[0].work_package
    assert linked_work_package is not None
    assert first["_links"]["workPackage"]["href"] == f"/api/v3/work_packages/{linked_work_package.id}"
    assert linked == first["_embedded"]["outcomes"][0]
    assert outcomes["_embedded"]["elements"] == first["_embedded"]["outcomes"]
    assert single == first


# Saved queries -------------------------------------------------------------------------------


async def test_queries_list_filters_by_project(serve_demo: ServeDemo, demo: Dataset) -> None:
    async with serve_demo() as (_, api):
        everything = await api.json("api/v3/queries")
        in_project = await api.json("api/v3/queries", {"filters": filters(("project", "=", ["2"]))})
        global_only = await api.json("api/v3/queries", {"filters": filters(("project", "!*", []))})
        bad = await api.get("api/v3/queries", {"filters": filters(("colour", "=", ["x"]))})
    assert ids(everything) == list(demo.queries)
    assert ids(in_project) == [q.id for q in demo.queries.values() if q.project and q.project.id == 2]
    assert ids(global_only) == [q.id for q in demo.queries.values() if q.project is None]
    assert bad.error == "InvalidQuery"
    assert "pageSize" not in everything  # unpaginated, as in OpenProject


async def test_a_query_embeds_one_page_of_its_results(serve_demo: ServeDemo, demo: Dataset) -> None:
    query_id = next(q.id for q in demo.queries.values() if q.project is None)
    _, expected = await InMemoryQueryRepository(demo, me(demo)).get(query_id, PageRequest(2, 1))
    async with serve_demo() as (_, api):
        query = await api.json(f"api/v3/queries/{query_id}", {"offset": 2, "pageSize": 1})
    results = query["_embedded"]["results"]
    assert results["_type"] == "WorkPackageCollection"
    assert (results["offset"], results["pageSize"], results["total"]) == (2, 1, expected.total)
    assert ids(results) == [wp.id for wp in expected.items]
    assert "description" in results["_embedded"]["elements"][0]


# Users ---------------------------------------------------------------------------------------


async def test_users_needs_an_admin_and_principals_does_not(demo: Dataset) -> None:
    async with (
        FakeOpenProject({TOKEN: demo, OTHER_TOKEN: demo}, non_admin_tokens={OTHER_TOKEN}) as fake,
        api_for(fake, bearer(TOKEN)) as admin,
        api_for(fake, bearer(OTHER_TOKEN)) as member,
    ):
        assert (await admin.get("api/v3/users")).status == 200
        refused = await member.get("api/v3/users")
        principals = await member.json("api/v3/principals", {"filters": filters(("type", "=", ["User"]))})
        groups = await member.json("api/v3/principals", {"filters": filters(("type", "=", ["Group"]))})
        named = await member.json("api/v3/principals", {"filters": filters(("name", "~", ["MUL"]))})
        myself = await member.json("api/v3/users/me")
        one = await member.json(f"api/v3/users/{me(demo)}")
        admin_root, member_root = await admin.json("api/v3"), await member.json("api/v3")
    assert (refused.status, refused.error) == (403, "MissingPermission")
    assert ids(principals) == list(demo.users)
    assert groups["total"] == 0
    expected = await InMemoryMetadataRepository(demo).principals([Filter("name", "~", ("MUL",))], ALL)
    assert ids(named) == [u.id for u in expected.items] != []  # accent-insensitive: "Müller"
    assert myself == one
    assert "coreVersion" in admin_root and "coreVersion" not in member_root


async def test_users_filter_by_status(serve_demo: ServeDemo, demo: Dataset) -> None:
    async with serve_demo() as (_, api):
        locked = await api.json("api/v3/users", {"filters": filters(("status", "=", ["locked"]))})
    assert ids(locked) == [u.id for u in demo.users.values() if u.status == "locked"]
    assert all("unlock" in u["_links"] for u in locked["_embedded"]["elements"])


# Everything else -----------------------------------------------------------------------------


async def test_activities_are_comments_or_changes_with_untitled_user_links(
    serve_demo: ServeDemo, demo: Dataset
) -> None:
    work_package_id = next(wp for wp, timeline in demo.activities.items() if any(a.is_comment for a in timeline))
    async with serve_demo() as (_, api):
        collection = await api.json(f"api/v3/work_packages/{work_package_id}/activities")
    elements = collection["_embedded"]["elements"]
    timeline = demo.activities[work_package_id]
    assert [e["id"] for e in elements] == [a.id for a in timeline]
    assert [e["_type"] for e in elements] == ["Activity::Comment" if a.is_comment else "Activity" for a in timeline]
    assert all("title" not in e["_links"]["user"] for e in elements)
    assert all(d["format"] == "custom" for e in elements for d in e["details"])
    assert collection["_links"]["self"]["href"] == f"/api/v3/work_packages/{work_package_id}/activities"


async def test_wiki_pages_have_no_attachments(serve_demo: ServeDemo) -> None:
    async with serve_demo(profile="18.0") as (_, api):
        attachments = await api.json("api/v3/wiki_pages/304/attachments")
    assert (attachments["total"], attachments["_embedded"]["elements"]) == (0, [])


RELATION = "urn:openproject-org:api:v3:wikiPageLinks:Relation"


async def test_wiki_page_links_have_the_17_6_shape(serve_demo: ServeDemo, demo: Dataset) -> None:
    async with serve_demo(profile="18.0") as (_, api):
        collection = await api.json("api/v3/work_packages/116/wiki_page_links")
    assert collection["_type"] == "WikiPageLinkCollection"
    [link] = collection["_embedded"]["elements"]
    assert set(link) == {"_type", "id", "identifier", "wikiPageLinkType", "createdAt", "updatedAt", "_links"}
    assert (link["identifier"], link["wikiPageLinkType"]) == ("304", RELATION)
    assert set(link["_links"]) == {"self", "provider", "linkable", "author", "delete"}
    assert link["_links"]["provider"]["href"].endswith("/api/v3/wiki_providers/internal")
    assert link["_links"]["linkable"]["href"].endswith("/api/v3/work_packages/116")
    assert link["_links"]["self"]["title"] == "304"


async def test_every_wiki_page_link_with_filters(serve_demo: ServeDemo, demo: Dataset) -> None:
    async with serve_demo(profile="18.0") as (_, api):
        everything = await api.json("api/v3/wiki_page_links")
        by_identifier = await api.json("api/v3/wiki_page_links", {"filters": filters(("identifier", "=", ["305"]))})
        by_provider = await api.json("api/v3/wiki_page_links", {"filters": filters(("provider", "=", ["internal"]))})
        by_type = await api.json(
            "api/v3/wiki_page_links", {"filters": filters(("wiki_page_link_type", "!", [RELATION]))}
        )
        first_two = await api.json("api/v3/wiki_page_links", {"pageSize": 2, "offset": 2})
        bad_provider = await api.get("api/v3/wiki_page_links", {"filters": filters(("provider", "=", ["nope"]))})
        bad_type = await api.get("api/v3/wiki_page_links", {"filters": filters(("wiki_page_link_type", "=", ["x"]))})
        unknown = await api.get("api/v3/wiki_page_links", {"filters": filters(("linkable", "=", ["1"]))})
    assert ids(everything) == sorted(demo.wiki_page_links)
    assert [e["identifier"] for e in by_identifier["_embedded"]["elements"]] == ["305"]
    assert ids(by_provider) == ids(everything) and ids(by_type) == []
    assert ids(first_two) == sorted(demo.wiki_page_links)[:2], "offset is not read, as in OpenProject"
    for answer in (bad_provider, bad_type, unknown):
        assert (answer.status, answer.error) == (400, "InvalidQuery")


@pytest.mark.parametrize("spec", [None, {"openapi": "3.1.0", "paths": {}}])
async def test_serves_the_spec_it_is_given(serve_demo: ServeDemo, spec: dict[str, object] | None) -> None:
    async with serve_demo(spec=spec) as (_, api):
        answer = await api.get("api/v3/spec.json")
    if spec is None:
        assert (answer.status, answer.error) == (404, "NotFound")
    else:
        assert answer.json() == spec


# Faults, latency, the request log -------------------------------------------------------------


async def test_a_429_fault_carries_retry_after_and_applies_only_to_its_path(serve_demo: ServeDemo) -> None:
    async with serve_demo() as (fake, api):
        fake.inject(Fault(429, r"/work_packages$", retry_after="2"))
        limited = await api.get("api/v3/work_packages")
        again = await api.get("api/v3/work_packages")
        other = await api.get("api/v3/projects")
    assert (limited.status, limited.headers["Retry-After"], limited.error) == (429, "2", "TooManyRequests")
    assert again.status == 429  # times=None: every time
    assert other.status == 200


async def test_a_fault_with_times_applies_that_often_then_the_answer_is_normal(serve_demo: ServeDemo) -> None:
    async with serve_demo() as (fake, api):
        fake.inject(Fault(500, r"/projects$", times=1))
        failed = await api.get("api/v3/projects")
        recovered = await api.get("api/v3/projects")
    assert (failed.status, failed.error) == (500, "InternalServerError")
    assert recovered.status == 200


async def test_faults_come_before_authentication(serve_demo: ServeDemo) -> None:
    async with serve_demo() as (fake, _), api_for(fake, None) as anonymous:
        fake.inject(Fault(503, r"/api/v3$", times=1))
        assert (await anonymous.get("api/v3")).status == 503
        assert (await anonymous.get("api/v3")).status == 401


async def test_a_truncated_body_is_sent_as_is(serve_demo: ServeDemo) -> None:
    async with serve_demo() as (fake, api):
        fake.inject(Fault(200, r"/projects$", body=b'{"_type": "Coll'))
        answer = await api.get("api/v3/projects")
    assert (answer.status, answer.body) == (200, b'{"_type": "Coll')
    with pytest.raises(json.JSONDecodeError):
        answer.json()


async def test_a_delay_fault_slows_the_normal_answer(serve_demo: ServeDemo) -> None:
    async with serve_demo() as (fake, api):
        fake.inject(Fault(200, r"/statuses$", delay=0.2, times=1))
        started = time.monotonic()
        answer = await api.get("api/v3/statuses")
        elapsed = time.monotonic() - started
        quick = await api.get("api/v3/statuses")
    assert answer.status == quick.status == 200
    assert elapsed >= 0.2
    slow, fast = fake.requests
    assert slow.finished - slow.started >= 0.2 > fast.finished - fast.started


async def test_a_status_0_fault_drops_the_connection(serve_demo: ServeDemo) -> None:
    async with serve_demo() as (fake, api):
        fake.inject(Fault(0, r"/types$"))
        with pytest.raises(aiohttp.ServerDisconnectedError):
            await api.get("api/v3/types")
        assert (await api.get("api/v3/statuses")).status == 200


async def test_clear_forgets_requests_and_faults(serve_demo: ServeDemo) -> None:
    async with serve_demo() as (fake, api):
        fake.inject(Fault(500, r"/types$"))
        assert (await api.get("api/v3/types")).status == 500
        fake.clear()
        assert fake.requests == []
        assert (await api.get("api/v3/types")).status == 200
    assert len(fake.requests) == 1


async def test_latency_requests_and_the_in_flight_peak_are_recorded(serve_demo: ServeDemo) -> None:
    async with serve_demo(latency=0.05) as (fake, api):
        paths = ["api/v3/types", "api/v3/statuses", "api/v3/priorities", "api/v3/projects", "api/v3"]
        answers = await asyncio.gather(*(api.get(p, {"pageSize": 3}) for p in paths))
    assert [a.status for a in answers] == [200] * 5
    assert fake.max_in_flight == 5
    assert sorted(r.path for r in fake.requests) == sorted(f"/{p}" for p in paths)
    for record in fake.requests:
        assert isinstance(record, RecordedRequest)
        assert (record.method, record.token, record.query) == ("GET", TOKEN, {"pageSize": "3"})
        assert record.finished - record.started >= 0.05


async def test_sequential_requests_never_overlap(serve_demo: ServeDemo) -> None:
    async with serve_demo() as (fake, api):
        for _ in range(3):
            await api.get("api/v3/types")
    assert fake.max_in_flight == 1


# Sub-path installs ---------------------------------------------------------------------------


def _hrefs(payload: Any) -> list[str]:
    if isinstance(payload, dict):
        found = [payload["href"]] if isinstance(payload.get("href"), str) else []
        return found + [h for value in payload.values() for h in _hrefs(value)]
    if isinstance(payload, list):
        return [h for value in payload for h in _hrefs(value)]
    return []


async def test_a_prefix_puts_every_route_and_href_under_the_sub_path(serve_demo: ServeDemo) -> None:
    async with serve_demo(prefix="/openproject/") as (fake, api):
        assert fake.base_url.endswith("/openproject/")
        fake.inject(Fault(500, r"^/api/v3/statuses$", times=1))  # matched without the prefix too
        assert (await api.get("api/v3/statuses")).status == 500
        payloads = [
            await api.json("api/v3"),
            await api.json("api/v3/work_packages/101"),
            await api.json("api/v3/meetings/201"),
            await api.json("api/v3/projects"),
        ]
        async with aiohttp.ClientSession(headers={"Authorization": bearer(TOKEN)}) as bare:
            outside = fake.base_url.removesuffix("openproject/") + "api/v3/projects"
            async with bare.get(outside) as response:
                assert response.status == 404
    hrefs = [h for p in payloads for h in _hrefs(p)]
    assert hrefs and all(h.startswith("/openproject/") for h in hrefs)
    assert fake.requests[0].path == "/openproject/api/v3/statuses"


@pytest.mark.parametrize("profile_name", ["16.6", "18.0"])
def test_a_meeting_under_way_is_both_past_and_upcoming_as_openproject_selects_them(profile_name: str) -> None:
    """OpenProject's time filter: past is ``start_time < now``, upcoming a meeting not yet over
    (``start_time + duration`` after now), so a meeting under way is in both lists."""
    from datetime import timedelta

    from openproject_mcp.composition import Application
    from tests.support.datasets import DEMO
    from tests.support.fake_openproject.meeting_query import meetings_for
    from tests.support.fake_openproject.profiles import profile_named
    from tests.support.fake_openproject.tenant import Tenant

    dataset = Application(DEMO).container.dataset()
    meeting = next(m for m in dataset.meetings.values() if (m.duration_minutes or 0) >= 30)
    during = meeting.start_time + timedelta(minutes=10)
    tenant = Tenant("t", dataset, admin=False, now=lambda: during)
    profile = profile_named(profile_name)
    if profile.meeting_time_filter == "list":
        upcoming, past = Filter("time", "=", ("future",)), Filter("time", "=", ("past",))
    else:
        upcoming, past = Filter("time", "upcoming", ()), Filter("time", "past", ())
    assert meeting in meetings_for(profile, tenant, [upcoming], [], during)
    assert meeting in meetings_for(profile, tenant, [past], [], during)
    before = meeting.start_time - timedelta(minutes=1)
    assert meeting not in meetings_for(profile, tenant, [past], [], before)


def test_meeting_sort_keys_are_read_in_either_spelling_as_openprojects_converter_reads_them() -> None:
    from openproject_mcp.composition import Application
    from tests.support.datasets import DEMO
    from tests.support.fake_openproject.errors import ApiError
    from tests.support.fake_openproject.meeting_query import meetings_for
    from tests.support.fake_openproject.profiles import profile_named
    from tests.support.fake_openproject.tenant import Tenant

    dataset = Application(DEMO).container.dataset()
    now = datetime(2026, 12, 1, tzinfo=UTC)
    tenant = Tenant("t", dataset, admin=False, now=lambda: now)
    profile = profile_named("18.0")
    camel = meetings_for(profile, tenant, [], [SortKey("startTime", "desc")], now)
    snake = meetings_for(profile, tenant, [], [SortKey("start_time", "desc")], now)
    assert camel == snake and len(camel) > 1
    with pytest.raises(ApiError):
        meetings_for(profile, tenant, [], [SortKey("title")], now)
