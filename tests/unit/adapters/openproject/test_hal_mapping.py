"""HAL decoding tolerance and the mapping rules, on hand-written payloads."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest

from openproject_mcp.adapters.openproject import hal, mapping
from openproject_mcp.domain.entities import NamedRef, WorkPackageRef
from openproject_mcp.domain.queries import PageRequest


def decode(payload: Any, tp: type[Any]) -> Any:
    return hal.decode(json.dumps(payload).encode(), tp)


def link(href: str | None, title: str | None = None) -> dict[str, Any]:
    return {"href": href, **({"title": title} if title is not None else {})}


def work_package(**extra: Any) -> dict[str, Any]:
    payload: dict[str, Any] = {
        "_type": "WorkPackage",
        "id": 38,
        "subject": "Fix login redirect",
        "_links": {
            "self": link("/api/v3/work_packages/38", "Fix login redirect"),
            "project": link("/api/v3/projects/1", "Demo project"),
            "type": link("/api/v3/types/1", "Task"),
            "status": link("/api/v3/statuses/2", "In progress"),
            "priority": link("/api/v3/priorities/8", "Normal"),
            "assignee": link(None),
            "responsible": {"href": None, "title": None},
            "parent": link(None),
        },
    }
    payload.update(extra)
    return payload


@pytest.mark.parametrize(
    ("href", "expected"),
    [
        ("/api/v3/users/4", 4),
        ("/api/v3/users/4/", 4),
        ("https://op.example.com/sub/api/v3/projects/12", 12),
        ("/api/v3/users/me", None),
        ("/api/v3/statuses/2?x=1", 2),
        ("", None),
        (None, None),
    ],
)
def test_ids_come_from_hrefs(href: str | None, expected: int | None) -> None:
    assert mapping.id_from_href(href) == expected


@pytest.mark.parametrize(
    ("value", "minutes"),
    [
        (1.0, 60),
        (1, 60),
        (0.25, 15),
        (1.5, 90),
        ("1.5", 90),
        ("PT1H", 60),
        ("PT1H30M", 90),
        ("PT45M", 45),
        ("PT0.5H", 30),
        ("PT90S", 2),
        ("P1D", 1440),
        ("P1DT2H", 1560),
        ("P1W", 10080),
        ("pt2h", 120),
        ("PT", None),
        ("P", None),
        ("P1DT", None),
        ("an hour", None),
        ("", None),
        (-1.0, None),
        (None, None),
    ],
)
def test_meeting_durations_become_minutes(value: float | str | None, minutes: int | None) -> None:
    assert mapping.minutes_from_duration(value) == minutes


def test_a_meeting_accepts_both_duration_shapes() -> None:
    base = {
        "id": 2,
        "title": "Approval",
        "startTime": "2026-09-08T10:00:00Z",
        "_links": {"project": link("/api/v3/projects/1", "Demo")},
    }
    assert mapping.meeting(decode({**base, "duration": 1.25}, hal.MeetingHal)).duration_minutes == 75
    assert mapping.meeting(decode({**base, "duration": "PT1H15M"}, hal.MeetingHal)).duration_minutes == 75
    assert mapping.meeting(decode({**base, "duration": None}, hal.MeetingHal)).duration_minutes is None


def test_missing_extra_and_null_fields_are_tolerated() -> None:
    payload = work_package(
        description=None,
        startDate=None,
        customField9="x",
        somethingNew={"nested": [1, 2]},
        _embedded={"whatever": True},
    )
    wp = mapping.work_package(decode(payload, hal.WorkPackageHal))
    assert wp.description is None and wp.assignee is None and wp.parent is None and wp.children == ()
    assert (wp.type, wp.status, wp.priority) == ("Task", "In progress", "Normal")


def test_a_wrongly_typed_value_is_a_payload_error() -> None:
    with pytest.raises(hal.PayloadError, match=r"\$\.id"):
        decode(work_package(id="thirty-eight"), hal.WorkPackageHal)
    with pytest.raises(hal.PayloadError, match="not valid JSON"):
        hal.decode(b'{"id": 1,', hal.WorkPackageHal)
    with pytest.raises(hal.PayloadError):
        hal.decode(b"<html>login</html>", hal.Collection[hal.ProjectHal])


def test_a_work_package_needs_its_project_and_subject() -> None:
    payload = work_package()
    del payload["_links"]["project"]
    with pytest.raises(hal.PayloadError, match="project of work package 38"):
        mapping.work_package(decode(payload, hal.WorkPackageHal))
    with pytest.raises(hal.PayloadError, match="subject"):
        mapping.work_package(decode(work_package(subject=None), hal.WorkPackageHal))


def test_work_package_fields() -> None:
    payload = work_package(
        displayId="DEMO-38",
        description={"format": "markdown", "raw": "Steps **to** reproduce", "html": "<p>...</p>"},
        startDate="2026-09-01",
        dueDate=None,
        percentageDone=33.4,
        createdAt="2026-09-01T11:00:00+02:00",
        updatedAt="2026-09-10T09:00:00Z",
    )
    payload["_links"]["assignee"] = link("/api/v3/users/4", "Anna Müller")
    payload["_links"]["author"] = link("/api/v3/users/5", "Ben")
    payload["_links"]["parent"] = link("/api/v3/work_packages/30", "Login epic")
    payload["_links"]["children"] = [link("/api/v3/work_packages/39", "Child A"), link("/api/v3/work_packages/40")]
    wp = mapping.work_package(decode(payload, hal.WorkPackageHal))
    assert wp.display_id == "DEMO-38"
    assert wp.description == "Steps **to** reproduce"
    assert wp.assignee == NamedRef(4, "Anna Müller") and wp.author == NamedRef(5, "Ben")
    assert wp.parent == WorkPackageRef(30, "Login epic")
    assert wp.children == (WorkPackageRef(39, "Child A"), WorkPackageRef(40, ""))
    assert wp.percentage_done == 33
    assert wp.created_at == datetime(2026, 9, 1, 9, 0, tzinfo=UTC)
    assert wp.created_at.tzinfo is UTC


def test_a_milestone_date_fills_start_and_due() -> None:
    wp = mapping.work_package(decode(work_package(date="2026-10-01"), hal.WorkPackageHal))
    assert wp.start_date == wp.due_date == datetime(2026, 10, 1).date()


def test_a_numeric_display_id_is_kept_as_text() -> None:
    assert mapping.work_package(decode(work_package(displayId=38), hal.WorkPackageHal)).display_id == "38"


def test_naive_and_offset_timestamps_become_utc() -> None:
    assert mapping.utc(datetime(2026, 1, 1, 12)) == datetime(2026, 1, 1, 12, tzinfo=UTC)
    offset = datetime(2026, 1, 1, 12, tzinfo=timezone(timedelta(hours=2)))
    assert mapping.utc(offset) == datetime(2026, 1, 1, 10, tzinfo=UTC)


def test_custom_fields_as_text() -> None:
    payload = {
        "customField2": 42,
        "customField10": True,
        "customField3": {"format": "markdown", "raw": "long *text*", "html": "..."},
        "customField4": None,
        "customField5": ["a", "b"],
        "notACustomField": 1,
        "_links": {
            "customField1": {"href": "/api/v3/users/14", "title": "Mara Jade"},
            "customField6": [{"href": "/api/v3/custom_options/1", "title": "Red"}, {"href": "/x/2", "title": "Blue"}],
            "customField7": {"href": None},
        },
    }
    assert mapping.custom_field_values(payload) == {
        "customField1": "Mara Jade",
        "customField2": "42",
        "customField3": "long *text*",
        "customField5": "a, b",
        "customField6": "Red, Blue",
        "customField10": "true",
    }
    schema = {"customField1": {"name": "Reviewer", "type": "User"}, "subject": {"name": "Subject"}}
    assert mapping.custom_field_names(schema) == {"customField1": "Reviewer"}


def test_activity_comment_details_and_user() -> None:
    payload = {
        "_type": "Activity",
        "id": 90,
        "version": 2,
        "comment": {"format": "markdown", "raw": "", "html": ""},
        "details": [{"format": "custom", "raw": "Status changed from New to In progress", "html": "<x>"}],
        "createdAt": "2026-09-10T09:00:00Z",
        "_links": {"user": link("/api/v3/users/4")},
    }
    activity = mapping.activity(decode(payload, hal.ActivityHal), {4: "Anna Müller"})
    assert activity.comment is None and not activity.is_comment
    assert activity.details == ("Status changed from New to In progress",)
    assert activity.user == NamedRef(4, "Anna Müller")


def test_agenda_items_with_embedded_outcomes() -> None:
    payload = {
        "_type": "MeetingAgendaItem",
        "id": 20,
        "title": "Staffing",
        "notes": {"format": "markdown", "raw": "We need **two** people", "html": "..."},
        "position": 1,
        "durationInMinutes": 15,
        "itemType": "simple",
        "_links": {
            "workPackage": link("/api/v3/work_packages/38", "Fix login redirect"),
            "outcomes": [link("/api/v3/meeting_outcomes/3", "3")],
        },
        "_embedded": {"outcomes": [{"_type": "MeetingOutcome", "id": 3, "notes": {"raw": "Hiring freeze."}}]},
    }
    resource = decode(payload, hal.AgendaItemHal)
    assert resource.embedded.outcomes is not None
    item = mapping.agenda_item(resource, resource.embedded.outcomes)
    assert (item.id, item.title, item.position, item.duration_in_minutes) == (20, "Staffing", 1, 15)
    assert item.notes == "We need **two** people"
    assert item.work_package == WorkPackageRef(38, "Fix login redirect")
    assert item.outcomes == ("Hiring freeze.",)


def test_a_work_package_agenda_item_takes_its_title_from_the_work_package() -> None:
    payload = {"id": 21, "title": None, "_links": {"workPackage": link("/api/v3/work_packages/38", "Fix login")}}
    item = mapping.agenda_item(decode(payload, hal.AgendaItemHal))
    assert item.title == "Fix login" and item.position == 0 and item.outcomes == ()


def test_participants_from_links() -> None:
    base = {"id": 2, "_links": {"participants": [link("/api/v3/users/4", "Anna"), link("/api/v3/users/5", "Ben")]}}
    assert mapping.participants(decode(base, hal.MeetingHal)) == (NamedRef(4, "Anna"), NamedRef(5, "Ben"))
    assert mapping.participants(decode({"id": 2, "_links": {}}, hal.MeetingHal)) is None
    single = {"id": 2, "_links": {"participants": link("/api/v3/meetings/2/participants")}}
    assert mapping.participants(decode(single, hal.MeetingHal)) is None


def test_a_listed_meeting_carries_its_participants_where_the_version_renders_them() -> None:
    links = {"project": link("/api/v3/projects/1", "Demo")}
    base = {"id": 2, "title": "Approval", "startTime": "2026-09-08T10:00:00Z"}
    named = {**base, "_links": {**links, "participants": [link("/api/v3/users/4", "Anna")]}}
    assert mapping.meeting(decode(named, hal.MeetingHal)).participants == (NamedRef(4, "Anna"),)
    assert mapping.meeting(decode({**base, "_links": links}, hal.MeetingHal)).participants is None


def test_wiki_page_with_text() -> None:
    page = mapping.wiki_page(
        decode(
            {
                "id": 1,
                "title": "Onboarding Guide",
                "text": {"format": "markdown", "raw": "# Welcome"},
                "updatedAt": "2026-09-02T09:00:00Z",
                "_links": {"project": link("/api/v3/projects/1", "Demo")},
            },
            hal.WikiPageHal,
        )
    )
    assert (page.text, page.project, page.updated_at) == (
        "# Welcome",
        NamedRef(1, "Demo"),
        datetime(2026, 9, 2, 9, tzinfo=UTC),
    )


def page_link(identifier: str, kind: str, provider: dict[str, Any]) -> dict[str, Any]:
    """A ``WikiPageLink`` as 17.6+ renders it (``PageLinkRepresenter``)."""
    return {
        "_type": "WikiPageLink",
        "id": 7,
        "identifier": identifier,
        "wikiPageLinkType": f"urn:openproject-org:api:v3:wikiPageLinks:{kind}",
        "createdAt": "2026-09-02T09:00:00Z",
        "updatedAt": "2026-09-02T09:00:00Z",
        "_links": {
            "self": link("/api/v3/wiki_page_links/7", identifier),
            "provider": provider,
            "linkable": link("/api/v3/work_packages/38", "Fix the login"),
        },
    }


def test_wiki_page_links_in_the_17_6_shape() -> None:
    internal = mapping.wiki_page_link(
        decode(
            page_link("12", "Relation", link("/api/v3/wiki_providers/5f0c-uid", "Internal wiki")), hal.WikiPageLinkHal
        )
    )
    assert (internal.identifier, internal.provider, internal.provider_id) == ("12", "Internal wiki", "5f0c-uid")
    assert internal.link_type == "relation" and internal.work_package == WorkPackageRef(38, "Fix the login")
    assert internal.wiki_page is None and internal.url is None  # the application resolves the page
    xwiki = mapping.wiki_page_link(
        decode(
            page_link("/wiki/path/to/kiwi", "Inline", {"href": "/api/v3/wiki_providers/x%20wiki"}), hal.WikiPageLinkHal
        )
    )
    assert (xwiki.identifier, xwiki.provider, xwiki.provider_id, xwiki.link_type) == (
        "/wiki/path/to/kiwi",
        "x wiki",
        "x wiki",
        "inline",
    )


@pytest.mark.parametrize(
    ("rendered", "name"),
    [
        ({"_links": {"filter": link("/api/v3/queries/filters/dueDate", "Finish date")}}, "dueDate"),
        (
            {"_links": {"filter": link(None), "schema": link("/api/v3/queries/filter_instance_schemas/dueDate")}},
            "dueDate",
        ),
        ({"_type": "DueDateQueryFilter", "_links": {}}, "dueDate"),
        ({"_type": "StatusQueryFilter"}, "status"),
        ({"_type": "QueryFilter"}, "Finish date"),
        ({}, "Finish date"),
    ],
)
def test_a_query_filter_is_named_by_its_api_name_not_its_label(rendered: dict[str, Any], name: str) -> None:
    payload = {"id": 1, "name": "q", "filters": [{"name": "Finish date", "values": ["1"], **rendered}]}
    [query_filter] = mapping.saved_query(decode(payload, hal.QueryHal)).filters
    assert query_filter.field == name


def test_query_filters_with_linked_values_and_encoded_operators() -> None:
    payload = {
        "id": 30,
        "name": "Open bugs",
        "public": True,
        "filters": [
            {
                "_links": {
                    "filter": link("/api/v3/queries/filters/status"),
                    "operator": link("/api/v3/queries/operators/%3D"),
                    "values": [link("/api/v3/statuses/1", "New"), link("/api/v3/statuses/2")],
                }
            },
            {
                "values": [True],
                "_links": {"filter": link("/api/v3/queries/filters/blocked"), "operator": link("/x/operators/=")},
            },
        ],
        "_links": {
            "project": link("/api/v3/projects/1", "Demo"),
            "sortBy": [link("/api/v3/queries/sort_bys/updated_at-desc"), link("/api/v3/queries/sort_bys/id-asc")],
        },
        "projections": [
            {"_type": "QueryProjection::Table", "_links": {"columns": [link("/api/v3/queries/columns/id")]}}
        ],
    }
    query = mapping.saved_query(decode(payload, hal.QueryHal))
    assert [(f.field, f.operator, f.values) for f in query.filters] == [
        ("status", "=", ("1", "2")),
        ("blocked", "=", ("t",)),
    ]
    assert [(s.attribute, s.direction) for s in query.sort_by] == [("updated_at", "desc"), ("id", "asc")]
    assert query.columns == ("id",)
    assert query.project == NamedRef(1, "Demo")


def test_pages_echo_the_server_and_fall_back_to_the_request() -> None:
    collection = decode(
        {"total": 45, "count": 20, "pageSize": 20, "offset": 2, "_embedded": {"elements": []}},
        hal.Collection[hal.UserHal],
    )
    page = mapping.page_of(collection, (), PageRequest(offset=9, page_size=99))
    assert (page.total, page.offset, page.page_size, page.has_more) == (45, 2, 20, True)
    bare = decode({"_embedded": {"elements": [{"id": 1, "name": "a"}]}}, hal.Collection[hal.UserHal])
    page = mapping.page_of(bare, (1,), PageRequest(offset=1, page_size=5))
    assert (page.total, page.offset, page.page_size) == (1, 1, 5)


def test_client_side_slices() -> None:
    page = mapping.slice_page(tuple(range(1, 8)), PageRequest(offset=2, page_size=3))
    assert (page.items, page.total, page.has_more) == ((4, 5, 6), 7, True)
    assert mapping.slice_page((1, 2), PageRequest(offset=3, page_size=3)).items == ()


@pytest.mark.parametrize("collection_type", ["Collection", "WorkPackageCollection", "SomethingNew", None])
def test_collections_are_not_discriminated_by_type(collection_type: str | None) -> None:
    payload: dict[str, Any] = {"total": 1, "count": 1, "_embedded": {"elements": [work_package()]}}
    if collection_type:
        payload["_type"] = collection_type
    assert decode(payload, hal.Collection[hal.WorkPackageHal]).elements[0].id == 38


def test_structs_encode_what_they_decode() -> None:
    """A fake OpenProject server can render its payloads with these types."""
    original = hal.Collection[hal.MeetingHal](
        type_="Collection",
        total=1,
        count=1,
        page_size=20,
        offset=1,
        embedded=hal.CollectionEmbedded[hal.MeetingHal](
            elements=[
                hal.MeetingHal(
                    id=2,
                    title="Approval",
                    start_time=datetime(2026, 9, 8, 10, tzinfo=UTC),
                    duration="PT1H",
                    links=hal.MeetingLinks(
                        project=hal.Link(href="/api/v3/projects/1", title="Demo"),
                        participants=[hal.Link(href="/api/v3/users/4", title="Anna")],
                    ),
                )
            ]
        ),
    )
    data = hal.encode(original)
    document = json.loads(data)
    assert document["pageSize"] == 20 and document["_embedded"]["elements"][0]["startTime"] == "2026-09-08T10:00:00Z"
    assert hal.decode(data, hal.Collection[hal.MeetingHal]) == original
    query = hal.QueryWithResultsHal(
        id=1, name="q", embedded=hal.QueryEmbedded(results=hal.Collection(total=0, embedded=hal.CollectionEmbedded()))
    )
    assert hal.decode(hal.encode(query), hal.QueryWithResultsHal) == query


@pytest.mark.parametrize(
    "payload",
    [{"total": 3, "count": 3}, {"total": 3}, {"count": 2}, {}, {"total": 0, "count": 1}],
)
def test_a_collection_claiming_elements_without_embedded_ones_is_malformed(payload: dict[str, Any]) -> None:
    with pytest.raises(hal.PayloadError, match="without `_embedded`"):
        decode(payload, hal.Collection[hal.UserHal])


@pytest.mark.parametrize("payload", [{"total": 0, "count": 0}, {"total": 0}, {"total": 5, "count": 0}])
def test_an_empty_collection_may_leave_out_embedded(payload: dict[str, Any]) -> None:
    assert decode(payload, hal.Collection[hal.UserHal]).elements == []
