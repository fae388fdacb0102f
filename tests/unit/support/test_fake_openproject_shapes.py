"""The fake's HAL renderings have the shape of OpenProject's own (shared/openproject-examples),
and the adapter's structs read them back into exactly the fixture backend's entities."""

from __future__ import annotations

import dataclasses
import json
import re
from typing import Any

import pytest

from openproject_mcp.adapters.fixture import (
    Dataset,
    InMemoryMeetingRepository,
    InMemoryProjectRepository,
    InMemoryWorkPackageRepository,
)
from openproject_mcp.adapters.openproject import hal, mapping
from openproject_mcp.domain.queries import MeetingQuery, PageRequest
from tests.conftest import shared_path
from tests.support.fake_openproject import FakeOpenProject
from tests.unit.support.fake_client import TOKEN, Answer, ServeDemo, api_for, ids

# Keys an example carries that depend on the instance's custom fields, never on the resource.
_CUSTOM = re.compile(r"custom(Field|Comment)\d+")


def example(name: str) -> dict[str, Any]:
    """One example payload; ``{"value": ...}`` wrappers (with or without a description) unwrapped."""
    document: dict[str, Any] = json.loads(shared_path("openproject-examples", name).read_text(encoding="utf-8"))
    if "_type" not in document and isinstance(document.get("value"), dict):
        inner: dict[str, Any] = document["value"]
        return inner
    return document


def keys(payload: dict[str, Any]) -> set[str]:
    return {key for key in payload if not _CUSTOM.fullmatch(key) and key != "_abbreviated"}


def assert_has_keys_of(rendered: dict[str, Any], expected: dict[str, Any], where: str) -> None:
    missing = keys(expected) - set(rendered)
    assert not missing, f"{where}: missing {sorted(missing)}"
    for section in ("_links", "_embedded"):
        if isinstance(expected.get(section), dict):
            missing = keys(expected[section]) - set(rendered.get(section, {}))
            assert not missing, f"{where}.{section}: missing {sorted(missing)}"


# (example file, request path under api/v3; ``{wp}`` etc. filled from the demo dataset)
SHAPES: list[tuple[str, str]] = [
    ("root.json", ""),
    ("work_package.json", "/work_packages/{wp}"),
    ("work_package_collection.json", "/work_packages"),
    ("work_package_activities.json", "/work_packages/{wp}/activities"),
    ("activity.json", "/activities/{activity}"),
    ("project.json", "/projects/{project}"),
    ("project_collection.json", "/projects"),
    ("project_type_collection.json", "/projects/{project}/types"),
    ("type.json", "/types/{type}"),
    ("type_collection.json", "/types"),
    ("status.json", "/statuses/{status}"),
    ("status_collection.json", "/statuses"),
    ("priority.json", "/priorities/{priority}"),
    ("priority_collection.json", "/priorities"),
    ("user.json", "/users/{user}"),
    ("user_collection.json", "/users"),
    ("query.json", "/queries/{query}"),
    ("query_collection.json", "/queries"),
    ("meeting.json", "/meetings/{meeting}"),
    ("meeting_collection.json", "/meetings"),
    ("wiki_page.json", "/wiki_pages/{wiki}"),
    ("wiki_page_attachments.json", "/wiki_pages/{wiki}/attachments"),
]


def placeholders(dataset: Dataset) -> dict[str, int]:
    work_package, commented = next(
        (wp, activity) for wp, timeline in dataset.activities.items() for activity in timeline if activity.is_comment
    )
    return {
        "wp": work_package,
        "activity": commented.id,
        "project": next(iter(dataset.projects)),
        "type": next(iter(dataset.types)),
        "status": next(iter(dataset.statuses)),
        "priority": next(iter(dataset.priorities)),
        "user": next(u.id for u in dataset.users.values() if u.status == "active"),
        "query": next(iter(dataset.queries)),
        "meeting": next(iter(dataset.meetings)),
        "wiki": next(iter(dataset.wiki_pages)),
    }


@pytest.mark.parametrize(("name", "path"), SHAPES, ids=[name for name, _ in SHAPES])
async def test_renderings_carry_every_key_of_the_openproject_example(
    serve_demo: ServeDemo, demo: Dataset, name: str, path: str
) -> None:
    expected = example(name)
    async with serve_demo(profile="17.3") as (_, api):  # the examples are OpenProject 17.3's
        rendered = await api.json("api/v3" + path.format(**placeholders(demo)))
    assert_has_keys_of(rendered, expected, name)
    assert rendered["_type"] == expected["_type"] or (
        name == "work_package_collection.json" and rendered["_type"] == "WorkPackageCollection"
    )


async def test_collection_elements_have_the_keys_of_the_full_examples(serve_demo: ServeDemo, demo: Dataset) -> None:
    """Collections embed full elements (the documentation abbreviates them)."""
    ph = placeholders(demo)
    async with serve_demo(profile="17.3") as (_, api):
        work_packages = await api.json("api/v3/work_packages", {"filters": "[]", "pageSize": 3})
        activities = await api.json(f"api/v3/work_packages/{ph['wp']}/activities")
        meetings = await api.json("api/v3/meetings", {"pageSize": 3})
        projects = await api.json("api/v3/projects")
    for element in work_packages["_embedded"]["elements"]:
        assert_has_keys_of(element, example("work_package.json"), "work package element")
    listed_activity = example("work_package_activities.json")["_embedded"]["elements"][0]
    for element in activities["_embedded"]["elements"]:
        assert_has_keys_of(element, listed_activity, "activity element")
    for element in meetings["_embedded"]["elements"]:
        assert_has_keys_of(element, example("meeting.json"), "meeting element")
    for element in projects["_embedded"]["elements"]:
        assert_has_keys_of(element, example("project.json"), "project element")


async def test_query_filters_columns_and_sort_are_rendered_like_the_example(
    serve_demo: ServeDemo, demo: Dataset
) -> None:
    query = next(q for q in demo.queries.values() if q.sort_by and len(q.filters) >= 2)
    async with serve_demo() as (_, api):
        single = await api.json(f"api/v3/queries/{query.id}")
        listed = next(q for q in (await api.json("api/v3/queries"))["_embedded"]["elements"] if q["id"] == query.id)
    shown = example("query.json")
    linked_shape, valued_shape = shown["filters"]  # StatusQueryFilter (values as links), DueDate (plain values)
    for rendered_filter in single["filters"]:
        shape = linked_shape if "values" in rendered_filter["_links"] else valued_shape
        assert keys(rendered_filter) == keys(shape) and keys(rendered_filter["_links"]) >= keys(shape["_links"])
        assert rendered_filter["_type"].endswith("QueryFilter")
    first = single["filters"][0]
    assert first["_links"]["filter"]["href"] == f"/api/v3/queries/filters/{query.filters[0].field}"
    assert first["_links"]["operator"]["href"] == f"/api/v3/queries/operators/{query.filters[0].operator}"
    # The single query keeps its columns in the table projection, a listed one in _links.columns too.
    table = single["projections"][0]
    assert table["_type"] == "QueryProjection::Table"
    assert [c["href"].rsplit("/", 1)[1] for c in table["_links"]["columns"]] == list(query.columns)
    assert "columns" not in single["_links"]
    assert [c["href"].rsplit("/", 1)[1] for c in listed["_links"]["columns"]] == list(query.columns)
    sort = query.sort_by[0]
    assert single["_links"]["sortBy"][0]["href"] == f"/api/v3/queries/sort_bys/{sort.attribute}-{sort.direction}"


async def test_meeting_embeds_author_project_and_attachments(serve_demo: ServeDemo, demo: Dataset) -> None:
    async with serve_demo(profile="17.3") as (_, api):
        meeting = await api.json(f"api/v3/meetings/{placeholders(demo)['meeting']}")
    assert_has_keys_of(meeting["_embedded"]["author"], example("user.json"), "embedded author")
    assert_has_keys_of(meeting["_embedded"]["project"], example("project.json"), "embedded project")
    assert meeting["_embedded"]["attachments"]["_type"] == "Collection"


@pytest.mark.parametrize(
    "path", ["api/v3/work_packages/999999", "api/v3/nowhere", "api/v3/work_packages?filters=x", "api/v3/users"]
)
async def test_errors_have_the_shape_of_the_example(demo: Dataset, path: str) -> None:
    async with (
        FakeOpenProject({TOKEN: demo, "member": demo}, non_admin_tokens={"member"}) as fake,
        api_for(fake, "Bearer member") as api,
    ):
        answer: Answer = await api.get(path)
    assert answer.status in (400, 403, 404)
    assert set(answer.json()) == set(example("error_401_unauthenticated.json"))
    assert answer.json()["errorIdentifier"].startswith("urn:openproject-org:api:v3:errors:")


# The adapter's structs read the renderings ----------------------------------------------------

DECODED: list[tuple[str, Any]] = [
    ("projects", hal.Collection[hal.ProjectHal]),
    ("projects/1", hal.ProjectHal),
    ("work_packages?filters=[]", hal.Collection[hal.WorkPackageHal]),
    ("work_packages/101", hal.WorkPackageHal),
    ("work_packages/102/activities", hal.Collection[hal.ActivityHal]),
    ("queries", hal.Collection[hal.QueryHal]),
    ("queries/41", hal.QueryWithResultsHal),
    ("types", hal.Collection[hal.TypeHal]),
    ("statuses", hal.Collection[hal.StatusHal]),
    ("priorities", hal.Collection[hal.PriorityHal]),
    ("users", hal.Collection[hal.UserHal]),
    ("principals", hal.Collection[hal.UserHal]),
    ("meetings", hal.Collection[hal.MeetingHal]),
    ("meetings/201", hal.MeetingHal),
    ("meetings/201/agenda_items", hal.Collection[hal.AgendaItemHal]),
    ("meetings/201/agenda_items/901/outcomes", hal.Collection[hal.OutcomeHal]),
    ("wiki_pages/304", hal.WikiPageHal),
    ("wiki_pages/304/attachments", hal.Collection[hal.AttachmentHal]),
    ("wiki_page_links", hal.Collection[hal.WikiPageLinkHal]),
    ("work_packages/116/wiki_page_links", hal.Collection[hal.WikiPageLinkHal]),
]


async def test_the_adapter_structs_decode_every_rendering(serve_demo: ServeDemo) -> None:
    async with serve_demo(profile="18.0") as (_, api):
        for path, struct in DECODED:
            answer = await api.get(f"api/v3/{path}")
            assert answer.status == 200, path
            decoded = hal.decode(answer.body, struct)
            if isinstance(decoded, hal.Collection):
                assert decoded.total is not None and decoded.total == answer.json()["total"], path
                assert len(decoded.elements) == decoded.count, path


def _blank_is_none(value: Any) -> Any:
    """The fixture keeps empty texts as ``""``; the adapter reads an empty formattable as ``None``."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return type(value)(**{f.name: _blank_is_none(getattr(value, f.name)) for f in dataclasses.fields(value)})
    if isinstance(value, tuple):
        return tuple(_blank_is_none(item) for item in value)
    return None if value == "" else value


@pytest.mark.parametrize("which", ["demo", "acceptance"])
async def test_the_adapter_mapping_reads_back_the_fixture_entities(which: str, request: pytest.FixtureRequest) -> None:
    dataset: Dataset = request.getfixturevalue(which)
    async with FakeOpenProject({TOKEN: dataset}) as fake, api_for(fake) as api:
        everything = hal.decode(
            (await api.get("api/v3/work_packages", {"filters": "[]", "pageSize": 1000})).body,
            hal.Collection[hal.WorkPackageHal],
        )
        projects = hal.decode((await api.get("api/v3/projects")).body, hal.Collection[hal.ProjectHal])
        meetings = hal.decode(
            (await api.get("api/v3/meetings", {"pageSize": 1000})).body, hal.Collection[hal.MeetingHal]
        )
        agenda = {
            m.id: hal.decode(
                (await api.get(f"api/v3/meetings/{m.id}/agenda_items")).body, hal.Collection[hal.AgendaItemHal]
            )
            for m in meetings.elements
        }
    expected_wps = await InMemoryWorkPackageRepository(dataset).list([], [], PageRequest(1, 1000))
    assert [_blank_is_none(mapping.work_package(e)) for e in everything.elements] == [
        _blank_is_none(wp) for wp in expected_wps.items
    ]
    expected_projects = await InMemoryProjectRepository(dataset).list([], [], PageRequest(1, 1000))
    assert [_blank_is_none(mapping.project(e)) for e in projects.elements] == [
        _blank_is_none(p) for p in expected_projects.items
    ]
    fixture_meetings = InMemoryMeetingRepository(dataset)
    listed = (await fixture_meetings.list(MeetingQuery(), PageRequest(1, 1000))).items
    # Without a sort key the fake lists by id; the fixture orders by start time.
    assert [mapping.meeting(e) for e in meetings.elements] == sorted(listed, key=lambda m: m.id)
    for meeting_id, items in agenda.items():
        details = await fixture_meetings.details(meeting_id)
        read = tuple(mapping.agenda_item(i, i.embedded.outcomes or ()) for i in items.elements)
        both = (*(details.agenda_items or ()), *(details.backlog_items or ()))  # 18.0 lists the backlog too
        assert _blank_is_none(read) == _blank_is_none(both), meeting_id
    assert ids(json.loads(hal.encode(everything))) == list(dataset.work_packages)
