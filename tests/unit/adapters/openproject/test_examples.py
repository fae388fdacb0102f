"""OpenProject's own example payloads (../shared/openproject-examples) decode into our entities.

Every file there is classified: read (decoded and mapped), abbreviated (the documentation cut its
elements short; they are completed with the full single-resource example first, as a real server
embeds full elements), error (mapped to a core error), or skipped with the reason.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import pytest

from openproject_mcp.adapters.openproject import hal, mapping
from openproject_mcp.adapters.openproject.client import absolute_url
from openproject_mcp.adapters.openproject.http_errors import error_for_status
from openproject_mcp.domain.entities import NamedRef, QueryFilter, SortCriterion, WorkPackageRef
from openproject_mcp.domain.errors import (
    AuthenticationError,
    ForbiddenError,
    InvalidQueryError,
    NotFoundError,
    OpenProjectMcpError,
)
from openproject_mcp.domain.queries import PageRequest
from tests.conftest import shared_path

BASE = "https://op.example.com/"

READ = {
    "activity.json",
    "attachment.json",
    "meeting.json",
    "priority.json",
    "priority_collection.json",
    "project.json",
    "project_collection.json",
    "project_type_collection.json",
    "query.json",
    "query_collection.json",
    "status.json",
    "status_collection.json",
    "type.json",
    "type_collection.json",
    "user.json",
    "wiki_page.json",
    "wiki_page_attachments.json",
    "wiki_page_schema_example.json",
    "work_package.json",
    "work_package_activities.json",
}
ABBREVIATED = {
    "work_package_collection.json": "elements cut to {_type, _links.self, id}",
    "user_collection.json": "elements cut to {_type, id}",
    "meeting_collection.json": "elements cut to {id, title, startTime, endTime}: no project link",
}
SKIPPED = {
    "INDEX.md": "the index of the examples",
    "root.json": "the API root is not read by the adapter",
    "sprint.json": "sprints are not read by the adapter",
    "relation_collection.json": "relations are not read by the adapter",
    "default_query.json": "GET /api/v3/queries/default is not read (its shape is the one of query.json; "
    "decoded below at the HAL level only: it has no id)",
    "error_response_schema.json": "a JSON schema, not a payload",
    "formattable_schema.json": "a JSON schema, not a payload",
}
ERRORS_PATTERN = re.compile(r"error_(\d{3})_.*\.json")


def examples_dir() -> Path:
    return shared_path("openproject-examples")


def load(name: str) -> Any:
    """An example's payload: ``components/examples`` files wrap it as ``{description, value}``."""
    document = json.loads((examples_dir() / name).read_text())
    if isinstance(document, dict) and "value" in document and set(document) <= {"description", "value"}:
        return document["value"]
    if isinstance(document, dict) and "content" in document:  # a whole response object
        return document["content"]["application/hal+json"]["example"]
    return document


def as_bytes(payload: Any) -> bytes:
    return json.dumps(payload).encode()


def complete(elements: list[Any], template: dict[str, Any]) -> list[Any]:
    """Abbreviated elements merged over a full example, as a real server would embed them."""
    completed = []
    for element in elements:
        if isinstance(element, dict):
            fields = {k: v for k, v in element.items() if k != "_abbreviated"}
            merged = {**template, **fields}
            for nested in ("_links", "_embedded"):  # one level deeper: keep the template's other links
                if isinstance(fields.get(nested), dict):
                    merged[nested] = {**template.get(nested, {}), **fields[nested]}
            completed.append(merged)
        else:  # "<--- shortened for brevity --->"
            completed.append(template)
    return completed


def with_full_results(query: dict[str, Any]) -> dict[str, Any]:
    results = query["_embedded"]["results"]
    results["_embedded"]["elements"] = complete(results["_embedded"]["elements"], load("work_package.json"))
    return query


def test_every_example_is_classified() -> None:
    names = {p.name for p in examples_dir().iterdir()}
    errors = {n for n in names if ERRORS_PATTERN.fullmatch(n)}
    unclassified = names - READ - set(ABBREVIATED) - set(SKIPPED) - errors
    assert not unclassified, f"classify these examples: {sorted(unclassified)}"
    assert names >= READ | set(ABBREVIATED)


# Single resources ------------------------------------------------------------------------------


def test_project() -> None:
    project = mapping.project(hal.decode(as_bytes(load("project.json")), hal.ProjectHal))
    assert (project.id, project.identifier, project.name) == (1, "project_example", "Project example")
    assert project.active is True and project.public is False
    assert project.description == "Lorem **ipsum** dolor sit amet"
    assert project.parent == NamedRef(123, "Parent project")
    assert project.status == "On track"
    assert project.status_explanation == "Everything **fine**"
    assert project.created_at == datetime(2014, 5, 21, 8, 51, 20, 396000, tzinfo=UTC)


def test_work_package() -> None:
    data = as_bytes(load("work_package.json"))
    resource = hal.decode(data, hal.WorkPackageHal)
    values = mapping.custom_field_values(hal.decode(data, dict[str, Any]))
    wp = mapping.work_package(resource, tuple(values.items()))
    assert (wp.id, wp.subject, wp.type, wp.status, wp.priority) == (1528, "Develop API", "A Type", "New", "Normal")
    assert wp.project == NamedRef(1, "A Test Portfolio")
    assert wp.assignee == NamedRef(11, "Emmie Okuneva - Adele5450")
    assert wp.author == NamedRef(1, "OpenProject Admin - admin")
    assert wp.parent == WorkPackageRef(1298, "nisi eligendi officiis eos delectus quis voluptas dolores")
    assert wp.children == (WorkPackageRef(1529, "Write API documentation"),)
    assert wp.description == "Develop super cool OpenProject API."
    assert wp.percentage_done == 0 and wp.start_date is None and wp.display_id is None
    assert wp.updated_at is not None and wp.updated_at.tzinfo == UTC
    assert wp.custom_fields == (("customField1", "Foo"), ("customField2", "42"), ("customField3", "14"))


def test_activity() -> None:
    activity = mapping.activity(hal.decode(as_bytes(load("activity.json")), hal.ActivityHal), {33: "Leia"})
    assert (activity.id, activity.version) == (1478, 4)
    assert activity.comment == "I can give you a CR70 corvette, you have to make do, Leia..."
    assert activity.is_comment and activity.details == ()
    assert activity.user == NamedRef(33, "Leia")  # the link has no title: named by lookup
    assert activity.created_at == datetime(2025, 4, 17, 13, 54, 40, 737000, tzinfo=UTC)


def test_attachment() -> None:
    resource = hal.decode(as_bytes(load("attachment.json")), hal.AttachmentHal)
    attachment = mapping.attachment(resource, lambda href: absolute_url(href, BASE))
    assert (attachment.id, attachment.file_name, attachment.content_type) == (1, "cat.png", "image/png")
    assert attachment.file_size == 24  # the example spells it "filesize"
    # Its downloadLocation is the external storage's URL (signed, in real life): never the link.
    assert attachment.download_url == "https://op.example.com/api/v3/attachments/1/content"


def test_meeting() -> None:
    meeting = mapping.meeting(hal.decode(as_bytes(load("meeting.json")), hal.MeetingHal))
    assert (meeting.id, meeting.title) == (1, "Meeting No 42")
    assert meeting.location == "Death Star - Level 1337 L13/42"
    assert meeting.start_time == datetime(2026, 2, 16, 10, 0, tzinfo=UTC)
    assert meeting.duration_minutes == 60  # 1.0 hours in 17.3
    assert meeting.project == NamedRef(10, "Death Star") and meeting.author == NamedRef(4, "Darth Vader")
    assert meeting.state is None
    assert mapping.participants(hal.decode(as_bytes(load("meeting.json")), hal.MeetingHal)) is None


@pytest.mark.parametrize("name", ["wiki_page.json", "wiki_page_schema_example.json"])
def test_wiki_page(name: str) -> None:
    page = mapping.wiki_page(hal.decode(as_bytes(load(name)), hal.WikiPageHal))
    assert (page.id, page.title, page.project) == (72, "A wiki page with a name", NamedRef(12, "some project"))
    assert page.text is None  # 17.3 has no page bodies


def test_user() -> None:
    user = mapping.user(hal.decode(as_bytes(load("user.json")), hal.UserHal))
    assert (user.id, user.name, user.login, user.email, user.status) == (
        14,
        "Mara Jade",
        "member",
        "m.jade@empire.org",
        "active",
    )


def test_status_type_priority() -> None:
    status = mapping.status(hal.decode(as_bytes(load("status.json")), hal.StatusHal))
    assert (status.id, status.name, status.is_closed, status.color) == (
        13,
        "Waiting for Darth-approval",
        False,
        "#FE005D",
    )
    type_ = mapping.work_package_type(hal.decode(as_bytes(load("type.json")), hal.TypeHal))
    assert (type_.id, type_.name, type_.is_milestone, type_.is_default) == (1, "Bug", False, True)
    priority = mapping.priority(hal.decode(as_bytes(load("priority.json")), hal.PriorityHal))
    assert (priority.id, priority.name, priority.is_active, priority.is_default) == (1, "Low", True, False)


def test_query_with_its_results() -> None:
    resource = hal.decode(as_bytes(with_full_results(load("query.json"))), hal.QueryWithResultsHal)
    query = mapping.saved_query(resource)
    assert (query.id, query.name, query.public, query.starred) == (9, "abcdefg", False, False)
    assert query.project == NamedRef(3, "copy")
    assert query.filters == (QueryFilter("status", "o", ()), QueryFilter("dueDate", "<t+", ("1",)))
    assert query.columns == ("id", "subject", "type", "status", "priority", "assignee", "updated_at")
    assert query.sort_by == (SortCriterion("parent", "desc"),)
    results = resource.embedded.results
    assert results is not None
    page = mapping.page_of(results, tuple(mapping.work_package(e) for e in results.elements), PageRequest())
    assert (page.total, page.offset, page.page_size) == (234, 1, 30)
    assert page.items[0].subject == "Develop API"


def test_default_query_decodes_at_the_hal_level() -> None:
    resource = hal.decode(as_bytes(with_full_results(load("default_query.json"))), hal.QueryWithResultsHal)
    assert resource.id is None and resource.name == "default"
    assert resource.links.project is not None and resource.links.project.href is None
    assert [c.title for c in resource.links.columns][:2] == ["ID", "Subject"]
    assert resource.embedded.results is not None and resource.embedded.results.total == 234


# Collections -----------------------------------------------------------------------------------

Mapper = Callable[[Any], Any]


@pytest.mark.parametrize(
    ("name", "element", "mapper", "expected_ids"),
    [
        ("status_collection.json", hal.StatusHal, mapping.status, [1, 3, 4, 5, 6, 2]),
        ("priority_collection.json", hal.PriorityHal, mapping.priority, [1, 2, 3, 4]),
        ("type_collection.json", hal.TypeHal, mapping.work_package_type, [1, 2]),
        ("project_type_collection.json", hal.TypeHal, mapping.work_package_type, [1, 2]),
        ("project_collection.json", hal.ProjectHal, mapping.project, [1, 2]),
        ("work_package_activities.json", hal.ActivityHal, mapping.activity, [1, 2]),
    ],
)
def test_collections(name: str, element: type[Any], mapper: Mapper, expected_ids: list[int]) -> None:
    collection = hal.decode(as_bytes(load(name)), hal.Collection[element])  # type: ignore[valid-type]
    entities = [mapper(e) for e in collection.elements]
    assert [e.id for e in entities] == expected_ids
    assert collection.total == len(expected_ids)


def test_project_collection_is_paginated() -> None:
    collection = hal.decode(as_bytes(load("project_collection.json")), hal.Collection[hal.ProjectHal])
    page = mapping.page_of(collection, tuple(mapping.project(e) for e in collection.elements), PageRequest(3, 5))
    assert (page.total, page.offset, page.page_size, page.has_more) == (2, 1, 20, False)
    assert page.items[1].name == "Palpatine's secret plan" and page.items[1].public is False


def test_wiki_page_attachments() -> None:
    collection = hal.decode(as_bytes(load("wiki_page_attachments.json")), hal.Collection[hal.AttachmentHal])
    [attachment] = [mapping.attachment(e, lambda href: absolute_url(href, BASE)) for e in collection.elements]
    assert (attachment.id, attachment.file_name, attachment.file_size) == (376, "some.gif", 3521772)
    assert attachment.download_url == "https://op.example.com/api/v3/attachments/376/content"


def test_query_collection() -> None:
    payload = load("query_collection.json")
    for element in payload["_embedded"]["elements"]:
        with_full_results(element)
    collection = hal.decode(as_bytes(payload), hal.Collection[hal.QueryHal])
    [query] = [mapping.saved_query(e) for e in collection.elements]
    assert (query.id, query.name, query.starred) == (9, "fdsfdsfdsf", True)
    assert query.columns[0] == "id" and query.filters[1].operator == "<t+"


@pytest.mark.parametrize("name", sorted(ABBREVIATED))
def test_abbreviated_collections_decode_as_they_are(name: str) -> None:
    element = {
        "work_package_collection.json": hal.WorkPackageHal,
        "user_collection.json": hal.UserHal,
        "meeting_collection.json": hal.MeetingHal,
    }[name]
    collection = hal.decode(as_bytes(load(name)), hal.Collection[element])  # type: ignore[valid-type]
    assert collection.total == 2 and len(collection.elements) == 2


def test_abbreviated_work_packages_once_completed() -> None:
    payload = load("work_package_collection.json")
    payload["_embedded"]["elements"] = complete(payload["_embedded"]["elements"], load("work_package.json"))
    collection = hal.decode(as_bytes(payload), hal.Collection[hal.WorkPackageHal])
    assert [mapping.work_package(e).id for e in collection.elements] == [1, 2]
    assert collection.type_ == "Collection"  # the documentation's _type; real servers say WorkPackageCollection


def test_abbreviated_users_once_completed() -> None:
    payload = load("user_collection.json")
    payload["_embedded"]["elements"] = complete(payload["_embedded"]["elements"], load("user.json"))
    collection = hal.decode(as_bytes(payload), hal.Collection[hal.UserHal])
    assert [(u.id, u.name) for u in map(mapping.user, collection.elements)] == [
        (1337, "Mara Jade"),
        (1338, "Mara Jade"),
    ]


def test_abbreviated_meetings_once_completed() -> None:
    payload = load("meeting_collection.json")
    payload["_embedded"]["elements"] = complete(payload["_embedded"]["elements"], load("meeting.json"))
    collection = hal.decode(as_bytes(payload), hal.Collection[hal.MeetingHal])
    meetings = [mapping.meeting(e) for e in collection.elements]
    assert [(m.id, m.title) for m in meetings] == [(6, "Weekly"), (5, "Weekly")]
    assert meetings[0].start_time == datetime(2026, 2, 17, 20, 54, 35, 523000, tzinfo=UTC)
    assert (collection.page_size, collection.offset) == (20, 1)


def test_abbreviated_elements_are_not_mapped_into_invented_data() -> None:
    collection = hal.decode(as_bytes(load("meeting_collection.json")), hal.Collection[hal.MeetingHal])
    with pytest.raises(hal.PayloadError, match="project of meeting 6"):
        mapping.meeting(collection.elements[0])


# Errors ------------------------------------------------------------------------------------------

EXPECTED_ERRORS: dict[int, type[OpenProjectMcpError]] = {
    400: InvalidQueryError,
    401: AuthenticationError,
    403: ForbiddenError,
    404: NotFoundError,
}


def error_examples() -> list[str]:
    directory = Path(__file__).resolve().parents[4].parent / "shared" / "openproject-examples"
    if not directory.exists():
        return ["error_404_missing.json"]  # resolved (and skipped) by shared_path in the test
    return sorted(p.name for p in directory.iterdir() if ERRORS_PATTERN.fullmatch(p.name))


@pytest.mark.parametrize("name", error_examples())
def test_error_examples_map_to_the_right_error(name: str) -> None:
    payload = load(name)
    match = ERRORS_PATTERN.fullmatch(name)
    assert match is not None
    status = int(match.group(1))
    error = error_for_status(status, None, as_bytes(payload), path="api/v3/x", retry_after=None, retries=0, secrets=())
    assert type(error) is EXPECTED_ERRORS[status]
    assert payload["message"] in error.message


def test_dates_are_dates() -> None:
    wp = hal.decode(b'{"id": 1, "startDate": "2026-09-01", "date": "2026-09-03"}', hal.WorkPackageHal)
    assert wp.start_date == date(2026, 9, 1) and wp.milestone_date == date(2026, 9, 3)
