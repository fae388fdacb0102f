"""Views derived from entities: every field a view shares with its entity arrives, none is lost."""

from __future__ import annotations

import dataclasses
from datetime import UTC, date, datetime
from typing import Any

import pytest

from openproject_mcp.application import presenters as p
from openproject_mcp.application.views import TEXT_LIMIT
from openproject_mcp.domain.entities import (
    Activity,
    AgendaItem,
    Meeting,
    NamedRef,
    Project,
    WorkPackage,
    WorkPackageRef,
)

WHEN = datetime(2026, 11, 2, 9, 30, tzinfo=UTC)
REF = NamedRef(7, "Lena")
WP_REF = WorkPackageRef(3, "Parent")
PROJECT = Project(1, "demo", "Demo", True, False, "About", REF, WHEN, WHEN, "on track", "Fine")
WORK_PACKAGE = WorkPackage(
    5, "Subject", "Bug", "New", REF, "DEMO-5", "Text", "High", REF, REF, WP_REF, (WP_REF,),
    date(2026, 1, 1), date(2026, 2, 1), 40, WHEN, WHEN, (("Risk", "low"),), 4,
)  # fmt: skip
MEETING = Meeting(9, "Budget", WHEN, REF, WHEN, 60, "Room 1", "open", REF, WHEN, WHEN)
ITEM = AgendaItem(11, "Item", 1, "Notes", 15, WP_REF, ("Approved",))
ACTIVITY = Activity(13, 2, WHEN, REF, "A comment", ("Status changed",))

# Fields a view has that no entity gives: set by the use case or only when a text was cut.
VIEW_ONLY = {"truncated", "notes", "score", "snippet", "participants", "agenda_items", "backlog_items"}


@pytest.mark.parametrize(
    "view",
    [
        p.project_summary(PROJECT),
        p.project_detail(PROJECT),
        p.work_package_summary(WORK_PACKAGE),
        p.work_package_detail(WORK_PACKAGE),
        p.meeting_summary(MEETING),
        p.agenda_item_view(ITEM),
        p.activity_view(ACTIVITY),
    ],
    ids=lambda view: type(view).__name__,
)
def test_a_fully_set_entity_sets_every_field_of_its_view(view: Any) -> None:
    empty = [f.name for f in dataclasses.fields(view) if getattr(view, f.name) is None and f.name not in VIEW_ONLY]
    assert not empty, f"{type(view).__name__} lost {empty}"


def test_renamed_and_reshaped_fields_carry_the_entitys_values() -> None:
    meeting = p.meeting_summary(MEETING)
    assert (meeting.duration, meeting.location) == (60, "Room 1")
    detail = p.work_package_detail(WORK_PACKAGE)
    assert detail.custom_fields == {"Risk": "low"} and detail.children == (WP_REF,) and detail.truncated is None


def test_long_texts_are_cut_and_the_view_says_so() -> None:
    long = "x" * (TEXT_LIMIT + 1)
    view = p.project_detail(dataclasses.replace(PROJECT, status_explanation=long))
    assert view.status_explanation == long[:TEXT_LIMIT] and view.truncated is True and view.description == "About"
