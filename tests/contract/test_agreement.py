"""The fixture backend and the HTTP backend give identical answers on one dataset.

The fixture backend offers every capability, including a wiki page list and page texts that no
released OpenProject serves; the HTTP side is therefore the 18.0 profile with those two added
(a variant for this comparison only, not a profile of any release).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from openproject_mcp.adapters.fixture import Dataset
from openproject_mcp.adapters.mcp.wire import to_wire
from openproject_mcp.application.activities import ListActivitiesRequest, ListWorkPackageActivities
from openproject_mcp.application.meetings import GetMeeting, GetMeetingRequest, ListMeetings, ListMeetingsRequest
from openproject_mcp.application.metadata import (
    ListPriorities,
    ListStatuses,
    ListTypes,
    ListTypesRequest,
    ListUsers,
    ListUsersRequest,
)
from openproject_mcp.application.projects import GetProject, GetProjectRequest, ListProjects, ListProjectsRequest
from openproject_mcp.application.saved_queries import GetQuery, GetQueryRequest, ListQueries, ListQueriesRequest
from openproject_mcp.application.search_meetings import SearchMeetings, SearchMeetingsRequest
from openproject_mcp.application.search_wiki_pages import SearchWikiPages, SearchWikiPagesRequest
from openproject_mcp.application.search_work_packages import SearchWorkPackages, SearchWorkPackagesRequest
from openproject_mcp.application.wiki_pages import (
    GetWikiPage,
    GetWikiPageRequest,
    ListWikiPageLinks,
    ListWikiPageLinksRequest,
)
from openproject_mcp.application.work_packages import (
    GetWorkPackage,
    GetWorkPackageRequest,
    ListWorkPackages,
    ListWorkPackagesRequest,
    WorkPackageScope,
)
from openproject_mcp.composition import Application
from openproject_mcp.config import Settings
from tests.conftest import shared_path
from tests.contract.conftest import TOKEN, http_settings
from tests.support.fake_openproject import PROFILES, FakeOpenProject
from tests.support.fake_openproject.profiles import with_unreleased_wiki_api

Call = tuple[type[Any], Any]

EVERYTHING = with_unreleased_wiki_api(PROFILES["18.0"])


def demo_calls(dataset: Dataset) -> list[Call]:
    return [
        (ListProjects, ListProjectsRequest(page_size=100, sort_by="name")),
        (GetProject, GetProjectRequest("checkout")),
        (ListWorkPackages, ListWorkPackagesRequest(page_size=100)),
        (ListWorkPackages, ListWorkPackagesRequest(WorkPackageScope(status="open", project_id="webshop"))),
        (ListWorkPackages, ListWorkPackagesRequest(subject="checkout", sort_by="updatedAt:desc")),
        (ListWorkPackages, ListWorkPackagesRequest(page_size=7, offset=3)),
        (GetWorkPackage, GetWorkPackageRequest(114)),
        (ListWorkPackageActivities, ListActivitiesRequest(116)),
        (ListWorkPackageActivities, ListActivitiesRequest(116, query="idempotency")),
        (SearchWorkPackages, SearchWorkPackagesRequest("double charge reload", page_size=100)),
        (SearchWorkPackages, SearchWorkPackagesRequest("honeypot")),
        (SearchWorkPackages, SearchWorkPackagesRequest("the", match_mode="exact", page_size=100)),
        (ListQueries, ListQueriesRequest()),
        (GetQuery, GetQueryRequest(41)),
        (ListTypes, ListTypesRequest()),
        (ListStatuses, None),
        (ListPriorities, None),
        (ListUsers, ListUsersRequest(page_size=100)),
        (ListMeetings, ListMeetingsRequest(page_size=100)),
        (GetMeeting, GetMeetingRequest(203)),
        (SearchMeetings, SearchMeetingsRequest("what did we decide about the printed catalogue")),
        (SearchMeetings, SearchMeetingsRequest("planning", page_size=100)),
        (GetWikiPage, GetWikiPageRequest(304)),
        (SearchWikiPages, SearchWikiPagesRequest("idempotency webhooks")),
        (SearchWikiPages, SearchWikiPagesRequest()),
        (ListWikiPageLinks, ListWikiPageLinksRequest(116)),
    ]


def acceptance_calls(dataset: Dataset) -> list[Call]:
    return [
        (ListWorkPackages, ListWorkPackagesRequest(page_size=100)),
        (GetWorkPackage, GetWorkPackageRequest(203)),
        (ListWorkPackageActivities, ListActivitiesRequest(206)),
        (SearchWorkPackages, SearchWorkPackagesRequest("pgbouncer")),
        (SearchWorkPackages, SearchWorkPackagesRequest("payment reconcilation", page_size=100)),
        (GetQuery, GetQueryRequest(30)),
        (SearchMeetings, SearchMeetingsRequest("what did we decide about escrow")),
        (SearchMeetings, SearchMeetingsRequest("ines dubois", page_size=100)),
        (SearchWikiPages, SearchWikiPagesRequest("flamegraph")),
        (ListWikiPageLinks, ListWikiPageLinksRequest(220)),
    ]


async def answers(app: Application, calls: list[Call]) -> list[Any]:
    out: list[Any] = []
    for kind, request in calls:
        async with app.scope(None) as scope:
            use_case = await scope.resolve(kind)
            result = await (use_case.execute() if request is None else use_case.execute(request))
        out.append(to_wire(result))
    return out


@pytest.mark.parametrize("which", ["demo", "acceptance"])
async def test_fixture_and_http_backends_answer_identically(which: str) -> None:
    if which == "demo":
        settings = Settings(backend="demo")
        make: Callable[[Dataset], list[Call]] = demo_calls
    else:
        settings = Settings(backend="dataset", dataset_path=shared_path("acceptance", "dataset.json"))
        make = acceptance_calls
    fixture = Application(settings)
    dataset = fixture.container.dataset()  # what the in-memory backend serves; the fake renders the same
    calls = make(dataset)
    expected = await answers(fixture, calls)
    async with FakeOpenProject({TOKEN: dataset}, profile=EVERYTHING) as fake:
        app = Application(http_settings(fake.base_url))
        try:
            got = await answers(app, calls)
        finally:
            await app.aclose()
    for (kind, request), want, have in zip(calls, expected, got, strict=True):
        assert have == want, f"{kind.__name__}({request}) differs between backends"
