"""The fixture backend and the HTTP backend (18.0 profile) give identical answers on one dataset.

The fixture side serves the dataset as released OpenProject versions expose it: without wiki
page text, which no released version has in its API.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from openproject_mcp.adapters.fixture import Dataset
from openproject_mcp.adapters.fixture.dataset import DEMO_DATASET_NAME
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
from tests.support.fake_openproject import FakeOpenProject

Call = tuple[type[Any], Any]


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
        # Without a wiki page list, pages are found by id over several searches (tool calls), each
        # of bounded cost; compare once the discovery has tried everything it means to.
        for call in range(10 if kind is SearchWikiPages else 0):
            async with app.scope(None) as scope:
                search = await scope.resolve(SearchWikiPages)
                coverage = (await search.execute(SearchWikiPagesRequest(f"topic {call}"))).coverage
                if coverage is not None and coverage.complete:
                    break
        async with app.scope(None) as scope:
            use_case = await scope.resolve(kind)
            result = await (use_case.execute() if request is None else use_case.execute(request))
        out.append(comparable(kind, to_wire(result)))
    return out


def comparable(kind: type[Any], answer: Any) -> Any:
    """An answer without what only says how a backend found wiki pages (listed, or by id)."""
    if kind is not SearchWikiPages:
        return answer
    assert answer["coverage"]["complete"], answer["coverage"]
    notes = [n for n in answer.get("notes", []) if not n.startswith(("OpenProject has no wiki page list", "No wiki"))]
    return {key: value for key, value in answer.items() if key not in ("coverage", "notes")} | {"notes": notes}


def without_wiki_text(raw: bytes, tmp_path: Path) -> Path:
    """The dataset as a released OpenProject exposes it: wiki pages have no text in the API."""
    document = json.loads(raw)
    for page in document.get("wiki_pages", []):
        page.pop("text", None)
        page.pop("updatedAt", None)
    path = tmp_path / "dataset.json"
    path.write_text(json.dumps(document))
    return path


@pytest.mark.parametrize("which", ["demo", "acceptance"])
async def test_fixture_and_http_backends_answer_identically(which: str, tmp_path: Path) -> None:
    if which == "demo":
        raw = resources.files("openproject_mcp.adapters.fixture").joinpath(DEMO_DATASET_NAME).read_bytes()
        make: Callable[[Dataset], list[Call]] = demo_calls
    else:
        raw = shared_path("acceptance", "dataset.json").read_bytes()
        make = acceptance_calls
    fixture = Application(Settings(backend="dataset", dataset_path=without_wiki_text(raw, tmp_path)))
    dataset = fixture.container.dataset()  # what the in-memory backend serves; the fake renders the same
    calls = make(dataset)
    expected = await answers(fixture, calls)
    async with FakeOpenProject({TOKEN: dataset}, profile="18.0") as fake:
        app = Application(http_settings(fake.base_url))
        try:
            got = await answers(app, calls)
        finally:
            await app.aclose()
    for (kind, request), want, have in zip(calls, expected, got, strict=True):
        assert have == want, f"{kind.__name__}({request}) differs between backends"
