"""Every use case against the in-memory adapter, on the demo dataset and the acceptance dataset."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from openproject_mcp.adapters.fixture.api_spec_repository import InMemoryApiSpecRepository
from openproject_mcp.adapters.fixture.dataset import Dataset, load_dataset, load_demo_dataset
from openproject_mcp.adapters.fixture.meeting_repository import InMemoryMeetingRepository
from openproject_mcp.adapters.fixture.metadata_repository import InMemoryMetadataRepository
from openproject_mcp.adapters.fixture.project_repository import InMemoryProjectRepository
from openproject_mcp.adapters.fixture.work_package_repository import InMemoryWorkPackageRepository
from openproject_mcp.application import views
from openproject_mcp.application.activities import ListActivitiesRequest, ListWorkPackageActivities
from openproject_mcp.application.api_spec import GetApiSpec, GetApiSpecRequest
from openproject_mcp.application.caching import TenantCaches, tenant_key
from openproject_mcp.application.instance import GetInstance, InstanceView
from openproject_mcp.application.meetings import GetMeeting, GetMeetingRequest, ListMeetings, ListMeetingsRequest
from openproject_mcp.application.metadata import (
    ListPriorities,
    ListStatuses,
    ListTypes,
    ListTypesRequest,
    ListUsers,
    ListUsersRequest,
)
from openproject_mcp.application.project_scope import ProjectResolver
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
from openproject_mcp.config import Settings
from openproject_mcp.domain.entities import MeetingDetails, Project, User
from openproject_mcp.domain.errors import (
    AuthenticationError,
    ForbiddenError,
    InvalidArgumentError,
    NotFoundError,
    UnsupportedError,
)
from openproject_mcp.domain.queries import Filter, Page, PageRequest, SortKey
from tests.conftest import shared_path
from tests.support.datasets import DEMO, dataset_settings, scope_for


def acceptance_settings() -> Settings:
    return dataset_settings(shared_path("acceptance", "dataset.json"))


def first_ids(dataset: Dataset) -> dict[str, Any]:
    """Ids that exist in a dataset, so the same table runs on any of them."""
    linked_wp = next(iter(dataset.wiki_page_links.values())).work_package_id
    return {
        "project": next(iter(dataset.projects.values())).identifier,
        "work_package": next(iter(dataset.work_packages)),
        "query": next(iter(dataset.queries)),
        "meeting": next(iter(dataset.meetings)),
        "wiki_page": next(iter(dataset.wiki_pages)),
        "linked_work_package": linked_wp,
    }


def calls(ids: dict[str, Any]) -> list[tuple[type[Any], Any, type[Any]]]:
    """(use case, request, result type) for every tool."""
    return [
        (ListProjects, ListProjectsRequest(), views.ProjectList),
        (GetProject, GetProjectRequest(ids["project"]), views.ProjectDetail),
        (ListWorkPackages, ListWorkPackagesRequest(), views.WorkPackageList),
        (GetWorkPackage, GetWorkPackageRequest(ids["work_package"]), views.WorkPackageDetail),
        (ListWorkPackageActivities, ListActivitiesRequest(ids["work_package"]), views.ActivityList),
        (SearchWorkPackages, SearchWorkPackagesRequest("checkout"), views.WorkPackageSearchPage),
        (ListQueries, ListQueriesRequest(), views.SavedQueryList),
        (GetQuery, GetQueryRequest(ids["query"]), views.SavedQueryResult),
        (ListTypes, ListTypesRequest(), views.TypeList),
        (ListStatuses, None, views.StatusList),
        (ListPriorities, None, views.PriorityList),
        (ListUsers, ListUsersRequest(), views.UserList),
        (GetApiSpec, GetApiSpecRequest(), views.ApiSpecView),
        (ListMeetings, ListMeetingsRequest(), views.MeetingList),
        (GetMeeting, GetMeetingRequest(ids["meeting"]), views.MeetingDetail),
        (SearchMeetings, SearchMeetingsRequest("planning"), views.MeetingSearchPage),
        (GetWikiPage, GetWikiPageRequest(ids["wiki_page"]), views.WikiPageDetail),
        (SearchWikiPages, SearchWikiPagesRequest("checklist"), views.WikiSearchPage),
        (ListWikiPageLinks, ListWikiPageLinksRequest(ids["linked_work_package"]), views.WikiPageLinkList),
        (GetInstance, None, InstanceView),
    ]


@pytest.mark.parametrize("which", ["demo", "acceptance"])
async def test_every_use_case_answers_with_the_contract_shapes(which: str) -> None:
    settings = DEMO if which == "demo" else acceptance_settings()
    dataset = load_demo_dataset() if which == "demo" else load_dataset(shared_path("acceptance", "dataset.json"))
    table = calls(first_ids(dataset))
    assert len(table) == 20
    async with scope_for(settings) as scope:
        for kind, request, result_type in table:
            use_case = await scope.resolve(kind)
            if kind is GetApiSpec:
                # The in-memory datasets carry no OpenAPI document: a clear "unsupported", not a crash.
                with pytest.raises(UnsupportedError):
                    await use_case.execute(request)
                continue
            result = await (use_case.execute() if request is None else use_case.execute(request))
            assert isinstance(result, result_type), kind.__name__


async def test_demo_searches_show_off_typos_questions_comments_and_bodies() -> None:
    async with scope_for(DEMO) as scope:
        meetings = await scope.resolve(SearchMeetings)
        typo = await meetings.execute(SearchMeetingsRequest("quartely roadmap reveiw"))
        assert typo.elements and "roadmap" in typo.elements[0].meeting.title.lower()
        wiki = await scope.resolve(SearchWikiPages)
        assert (await wiki.execute(SearchWikiPagesRequest("onbaording"))).elements


async def test_list_work_packages_always_sends_an_explicit_status_filter() -> None:
    dataset = load_demo_dataset()
    seen: list[tuple[Filter, ...]] = []

    class Recording(InMemoryWorkPackageRepository):
        async def list(self, filters: Sequence[Filter], sort_by: Sequence[SortKey], page: PageRequest) -> Page[Any]:
            seen.append(tuple(filters))
            return await super().list(filters, sort_by, page)

    projects = ProjectResolver(InMemoryProjectRepository(dataset))
    use_case = ListWorkPackages(Recording(dataset), InMemoryMetadataRepository(dataset), projects)
    await use_case.execute(ListWorkPackagesRequest())
    await use_case.execute(ListWorkPackagesRequest(filters='[{"status":{"operator":"o","values":[]}}]'))
    await use_case.execute(ListWorkPackagesRequest(scope=WorkPackageScope(status="closed")))
    assert seen[0] == (Filter("status", "*"),)
    assert seen[1] == (Filter("status", "o"),), "a raw filter replaces the generated one of the same name"
    assert seen[2] == (Filter("status", "c"),)


async def test_project_identifiers_are_resolved_once_per_request() -> None:
    dataset = load_demo_dataset()
    lookups: list[int | str] = []

    class Counting(InMemoryProjectRepository):
        async def get(self, ref: int | str) -> Project:
            lookups.append(ref)
            return await super().get(ref)

    identifier = next(iter(dataset.projects.values())).identifier
    resolver = ProjectResolver(Counting(dataset))
    first = await resolver.resolve(identifier)
    second = await resolver.resolve(identifier)
    assert first == second and lookups == [identifier]
    assert await resolver.resolve("42") == 42 and lookups == [identifier]


async def test_unknown_project_identifier_is_not_found() -> None:
    async with scope_for(DEMO) as scope:
        use_case = await scope.resolve(ListWorkPackages)
        with pytest.raises(NotFoundError):
            await use_case.execute(ListWorkPackagesRequest(scope=WorkPackageScope(project_id="no-such-project")))


@pytest.mark.parametrize(
    "request_",
    [
        ListWorkPackagesRequest(page_size=0),
        ListWorkPackagesRequest(page_size=101),
        ListWorkPackagesRequest(offset=0),
        ListWorkPackagesRequest(filters="status is open"),
        ListWorkPackagesRequest(filters='{"status": {}}'),
        ListWorkPackagesRequest(filters='[{"status": {"values": []}}]'),
        ListWorkPackagesRequest(sort_by="subject:sideways"),
        ListWorkPackagesRequest(sort_by="colour"),
        ListWorkPackagesRequest(scope=WorkPackageScope(status="maybe")),
        ListWorkPackagesRequest(scope=WorkPackageScope(type="Unicorn")),
    ],
)
async def test_bad_arguments_are_rejected_with_a_message_naming_them(request_: ListWorkPackagesRequest) -> None:
    async with scope_for(DEMO) as scope:
        use_case = await scope.resolve(ListWorkPackages)
        with pytest.raises(InvalidArgumentError) as caught:
            await use_case.execute(request_)
    message = caught.value.message
    assert any(word in message for word in ("pageSize", "offset", "filters", "sortBy", "status", "type"))


@pytest.mark.parametrize("sort_by", ["subject", "subject:asc", '[["subject","asc"]]'])
async def test_sort_by_accepts_both_forms(sort_by: str) -> None:
    async with scope_for(DEMO) as scope:
        use_case = await scope.resolve(ListWorkPackages)
        page = await use_case.execute(ListWorkPackagesRequest(sort_by=sort_by, page_size=100))
    subjects = [w.subject for w in page.work_packages]
    assert subjects == sorted(subjects, key=str.casefold) or subjects == sorted(subjects)


async def test_users_fall_back_to_principals_with_a_note() -> None:
    dataset = load_demo_dataset()

    class NotAdmin(InMemoryMetadataRepository):
        async def users(self, filters: Sequence[Filter], page: PageRequest) -> Page[User]:
            raise ForbiddenError("You are not allowed to see users.", status=403)

        async def principals(self, filters: Sequence[Filter], page: PageRequest) -> Page[User]:
            return await InMemoryMetadataRepository.users(self, filters, page)

    result = await ListUsers(NotAdmin(dataset)).execute(ListUsersRequest())
    assert result.users and result.notes and "principals" in result.notes[0]


async def test_get_meeting_says_when_agenda_items_are_not_available() -> None:
    dataset = load_demo_dataset()

    class OldInstance(InMemoryMeetingRepository):
        async def details(self, meeting_id: int) -> MeetingDetails:
            await self.get(meeting_id)
            return MeetingDetails(meeting_id, participants=None, agenda_items=None)

    meeting_id = next(iter(dataset.meetings))
    detail = await GetMeeting(OldInstance(dataset)).execute(GetMeetingRequest(meeting_id))
    assert detail.agenda_items is None
    assert detail.notes and any("Agenda items are not available" in n for n in detail.notes)


async def test_activities_full_timeline_and_ranked_view() -> None:
    dataset = load_demo_dataset()
    wp_id = next(i for i, acts in dataset.activities.items() if sum(1 for a in acts if a.is_comment) >= 2)
    use_case = ListWorkPackageActivities(InMemoryWorkPackageRepository(dataset))
    timeline = await use_case.execute(ListActivitiesRequest(wp_id))
    assert [a.created_at for a in timeline.activities] == sorted(a.created_at for a in timeline.activities)
    comment = next(a.comment for a in timeline.activities if a.comment)
    assert comment is not None
    word = max(comment.split(), key=len).strip(".,;:!?()'\"")
    ranked = await use_case.execute(ListActivitiesRequest(wp_id, query=word))
    assert ranked.activities and all(a.score is not None and a.score > 0 for a in ranked.activities)


async def test_openapi_views_over_the_real_17_3_document() -> None:
    spec = json.loads(shared_path("openproject-spec", "openproject-apiv3-17.3-stable.bundled.json").read_text())
    use_case = GetApiSpec(InMemoryApiSpecRepository(spec), TenantCaches(), tenant_key("test-instance", "token"))
    summary = await use_case.execute(GetApiSpecRequest())
    assert summary.total_paths == len(spec["paths"]) and summary.tags
    path = await use_case.execute(GetApiSpecRequest(path="/API/V3/PROJECTS"))
    assert path.path == "/api/v3/projects" and path.operations and "get" in path.operations
    tag = await use_case.execute(GetApiSpecRequest(tag="work packages"))
    assert tag.tag == "Work Packages" and tag.paths and "/api/v3/work_packages" in tag.paths
    schema = await use_case.execute(GetApiSpecRequest(schema="workpackagemodel"))
    assert schema.schema_name == "WorkPackageModel" and schema.schema
    with pytest.raises(NotFoundError) as missing:
        await use_case.execute(GetApiSpecRequest(schema="NoSuchModel"))
    assert missing.value.hint and "Model" in missing.value.hint


async def test_openapi_document_is_cached_per_tenant_never_across_credentials() -> None:
    fetched: list[str] = []

    class Counting(InMemoryApiSpecRepository):
        def __init__(self, token: str) -> None:
            super().__init__({"openapi": "3.1.0", "info": {"title": "T", "version": "1"}, "paths": {}})
            self.token = token

        async def spec(self) -> dict[str, object]:
            fetched.append(self.token)
            if self.token == "rejected":
                raise AuthenticationError("OpenProject rejected the API token (HTTP 401).")
            return await super().spec()

    caches = TenantCaches()

    def use_case(token: str) -> GetApiSpec:
        return GetApiSpec(Counting(token), caches, tenant_key("instance-a", token))

    await use_case("alice").execute(GetApiSpecRequest())
    await use_case("alice").execute(GetApiSpecRequest())
    assert fetched == ["alice"]
    await use_case("alice").execute(GetApiSpecRequest(refresh=True))
    assert fetched == ["alice", "alice"]
    # Another credential is never answered from alice's entry: it asks the instance itself.
    await use_case("bob").execute(GetApiSpecRequest())
    assert fetched[-1] == "bob"
    with pytest.raises(AuthenticationError):
        await use_case("rejected").execute(GetApiSpecRequest())
    assert fetched[-1] == "rejected"
    assert len(caches.spec) == 2


async def test_an_oversized_openapi_document_is_served_but_not_kept() -> None:
    huge: dict[str, object] = {"openapi": "3.1.0", "info": {"title": "T", "version": "1"}, "paths": {}}
    huge["x"] = list(range(250_000))
    caches = TenantCaches()
    view = await GetApiSpec(InMemoryApiSpecRepository(huge), caches, tenant_key("i", "t")).execute(GetApiSpecRequest())
    assert view.title == "T"
    assert len(caches.spec) == 0


async def test_list_meetings_time_filter_splits_past_and_upcoming() -> None:
    async with scope_for(DEMO) as scope:
        use_case = await scope.resolve(ListMeetings)
        everything = await use_case.execute(ListMeetingsRequest(page_size=100))
        past = await use_case.execute(ListMeetingsRequest(time="past", page_size=100))
        upcoming = await use_case.execute(ListMeetingsRequest(time="upcoming", page_size=100))
    assert past.total + upcoming.total == everything.total
    assert past.total > 0 and upcoming.total > 0


async def test_wiki_page_links_for_an_unknown_work_package_are_not_found() -> None:
    async with scope_for(DEMO) as scope:
        use_case = await scope.resolve(ListWikiPageLinks)
        with pytest.raises(NotFoundError):
            await use_case.execute(ListWikiPageLinksRequest(999_999))


def test_acceptance_dataset_path_is_skipped_cleanly_when_absent(tmp_path: Path) -> None:
    assert shared_path("acceptance").is_dir()
