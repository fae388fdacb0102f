"""Every user-written text is cut at TEXT_LIMIT with ``truncated: true``; one result has a size ceiling."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from openproject_mcp.adapters.openproject.client import DEFAULT_MAX_REQUESTS_PER_CALL, DEFAULT_MAX_RESPONSE_BYTES
from openproject_mcp.application.arguments import parse_filters, parse_sort_by
from openproject_mcp.application.meetings import GetMeeting, GetMeetingRequest
from openproject_mcp.application.presenters import activity_view
from openproject_mcp.application.projects import GetProject, GetProjectRequest, ListProjects, ListProjectsRequest
from openproject_mcp.application.result_size import DEFAULT_MAX_RESULT_CHARS, fit_result, json_size
from openproject_mcp.application.views import (
    TEXT_LIMIT,
    ApiSpecView,
    ProjectList,
    ProjectSummary,
    WorkPackageDetail,
)
from openproject_mcp.application.work_packages import GetWorkPackage, GetWorkPackageRequest
from openproject_mcp.config import UpstreamLimits, load_settings
from openproject_mcp.domain.entities import Activity, NamedRef
from openproject_mcp.domain.errors import InvalidArgumentError, UpstreamServerError
from tests.support.datasets import dataset_settings, scope_for

LONG = TEXT_LIMIT * 3


def _demo_with_long_texts(tmp_path: Path) -> Path:
    document: dict[str, Any] = json.loads(
        (Path(__file__).parents[3] / "src" / "adapters" / "fixture" / "demo_dataset.json").read_text()
    )
    document["projects"][0]["description"] = "p" * LONG
    meeting = document["meetings"][0]
    meeting["agendaItems"][0]["notes"] = "n" * LONG
    meeting["agendaItems"][0]["outcomes"] = ["o" * LONG, "short outcome"]
    work_package = document["work_packages"][0]
    work_package["description"] = "w" * LONG
    path = tmp_path / "long.json"
    path.write_text(json.dumps(document))
    return path


async def test_the_fixture_backend_cuts_every_long_user_text(tmp_path: Path) -> None:
    settings = dataset_settings(_demo_with_long_texts(tmp_path))
    async with scope_for(settings) as scope:
        project = await (await scope.resolve(GetProject)).execute(GetProjectRequest(1))
        listed = await (await scope.resolve(ListProjects)).execute(ListProjectsRequest(page_size=100))
        meeting = await (await scope.resolve(GetMeeting)).execute(GetMeetingRequest(201))
        first_wp = json.loads(settings.dataset_path.read_text())["work_packages"][0]["id"]  # type: ignore[union-attr]
        work_package = await (await scope.resolve(GetWorkPackage)).execute(GetWorkPackageRequest(first_wp))
    assert project.description == "p" * TEXT_LIMIT and project.truncated is True
    summary = next(p for p in listed.projects if p.id == 1)
    assert summary.description == "p" * TEXT_LIMIT and summary.truncated is True
    assert all(p.truncated is None for p in listed.projects if p.id != 1)
    assert meeting.agenda_items is not None
    item = next(i for i in meeting.agenda_items if i.notes and i.notes.startswith("n"))
    assert item.notes == "n" * TEXT_LIMIT and item.outcomes == ("o" * TEXT_LIMIT, "short outcome")
    assert item.truncated is True
    assert all(i.truncated is None for i in meeting.agenda_items if i is not item)
    assert work_package.description == "w" * TEXT_LIMIT and work_package.truncated is True


def test_activity_details_are_cut_like_comments() -> None:
    view = activity_view(Activity(1, 1, datetime(2026, 1, 1, tzinfo=UTC), details=("d" * LONG, "short")))
    assert view.details == ("d" * TEXT_LIMIT, "short") and view.truncated is True
    assert activity_view(Activity(2, 1, datetime(2026, 1, 1, tzinfo=UTC), comment="fine")).truncated is None


# The total size of one result ---------------------------------------------------------------------


def _projects(count: int, text: int) -> ProjectList:
    items = tuple(
        ProjectSummary(id=n, identifier=f"p{n}", name=f"P{n}", active=True, public=True, description="x" * text)
        for n in range(1, count + 1)
    )
    return ProjectList(total=500, count=count, page_size=count, offset=1, has_more=True, projects=items)


def test_a_result_within_the_ceiling_is_returned_as_it_is() -> None:
    result = _projects(3, 100)
    assert fit_result(result, 100_000) is result


def test_a_long_list_loses_its_last_records_and_says_so() -> None:
    result = _projects(100, TEXT_LIMIT)
    assert json_size(result) > 1_000_000
    fitted = fit_result(result, 300_000)
    assert json_size(fitted) <= 300_000
    assert 1 <= len(fitted.projects) < 100 and fitted.count == len(fitted.projects)
    assert [p.id for p in fitted.projects] == list(range(1, len(fitted.projects) + 1))
    assert fitted.total == 500 and fitted.has_more
    assert fitted.notes and "OPENPROJECT_MAX_RESULT_CHARS" in fitted.notes[0]
    assert f"only the first {len(fitted.projects)} of the 100 projects" in fitted.notes[0]


def test_one_huge_record_gets_its_texts_shortened_and_marked() -> None:
    fields = {f"Long field {n}": "c" * TEXT_LIMIT for n in range(200)}
    detail = WorkPackageDetail(
        id=1, subject="s", type="Task", status="New", project=NamedRef(1, "P"), custom_fields=fields
    )
    fitted = fit_result(detail, 500_000)
    assert json_size(fitted) <= 500_000
    assert fitted.truncated is True and fitted.custom_fields is not None and len(fitted.custom_fields) == 200
    assert fitted.notes and "shortened" in fitted.notes[0]


def test_a_result_that_cannot_fit_is_a_clear_error() -> None:
    spec = {f"/api/v3/path{n}": {"get": {"x": n}} for n in range(5_000)}
    with pytest.raises(UpstreamServerError, match="OPENPROJECT_MAX_RESULT_CHARS") as caught:
        fit_result(ApiSpecView(title="T", spec=spec), 50_000)
    assert caught.value.hint and "full=true" in caught.value.hint


def test_limits_are_read_from_the_environment_with_documented_defaults() -> None:
    env = {"OPENPROJECT_BASE_URL": "https://op.example.com", "OPENPROJECT_API_KEY": "k"}
    assert load_settings(env).limits == UpstreamLimits()
    assert UpstreamLimits() == UpstreamLimits(
        max_response_bytes=DEFAULT_MAX_RESPONSE_BYTES,
        max_requests_per_call=DEFAULT_MAX_REQUESTS_PER_CALL,
        max_result_chars=DEFAULT_MAX_RESULT_CHARS,
    )
    custom = load_settings(
        env
        | {
            "OPENPROJECT_MAX_RESPONSE_BYTES": "1048576",
            "OPENPROJECT_MAX_REQUESTS_PER_CALL": "50",
            "OPENPROJECT_MAX_RESULT_CHARS": "100000",
        }
    ).limits
    assert custom == UpstreamLimits(1_048_576, 50, 100_000)


# Arguments that nest too deeply -------------------------------------------------------------------


def test_deeply_nested_filters_are_an_invalid_argument() -> None:
    with pytest.raises(InvalidArgumentError, match="nested too deeply"):
        parse_filters("[" * 100_000 + "]" * 100_000)
    with pytest.raises(InvalidArgumentError, match="nested too deeply"):
        parse_sort_by("[" * 100_000 + "]" * 100_000)
