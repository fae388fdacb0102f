"""One use-case suite, run against every backend (see conftest.py): same dataset, same answers."""

from __future__ import annotations

from typing import Any, TypeVar

import pytest

from openproject_mcp.application.activities import ListActivitiesRequest, ListWorkPackageActivities
from openproject_mcp.application.instance import GetInstance
from openproject_mcp.application.meetings import GetMeeting, GetMeetingRequest, ListMeetings, ListMeetingsRequest
from openproject_mcp.application.metadata import ListStatuses, ListUsers, ListUsersRequest
from openproject_mcp.application.projects import GetProject, GetProjectRequest, ListProjects, ListProjectsRequest
from openproject_mcp.application.saved_queries import GetQuery, GetQueryRequest
from openproject_mcp.application.search_meetings import SearchMeetings, SearchMeetingsRequest
from openproject_mcp.application.search_wiki_pages import DiscoverySettings, SearchWikiPages, SearchWikiPagesRequest
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
from openproject_mcp.domain.errors import NotFoundError, UnsupportedError
from tests.contract.conftest import Backend

U = TypeVar("U")


async def run(backend: Backend, kind: type[Any], request: Any = None) -> Any:
    async with backend.app.scope(None) as scope:
        use_case = await scope.resolve(kind)
        return await (use_case.execute() if request is None else use_case.execute(request))


def needs_dataset(backend: Backend) -> Any:
    if backend.dataset is None:
        pytest.skip("this check compares with the dataset; a live instance has its own data")
    return backend.dataset


async def test_projects_are_listed_and_found_by_identifier(backend: Backend) -> None:
    page = await run(backend, ListProjects, ListProjectsRequest(page_size=100))
    assert page.count == len(page.projects) <= page.total
    first = page.projects[0]
    by_identifier = await run(backend, GetProject, GetProjectRequest(first.identifier))
    by_id = await run(backend, GetProject, GetProjectRequest(first.id))
    assert by_identifier.id == by_id.id == first.id
    if backend.dataset is not None:
        assert page.total == len(backend.dataset.projects)


async def test_work_packages_default_to_all_statuses(backend: Backend) -> None:
    everything = await run(backend, ListWorkPackages, ListWorkPackagesRequest(page_size=100))
    open_ = await run(backend, ListWorkPackages, ListWorkPackagesRequest(WorkPackageScope(status="open"), page_size=1))
    closed = await run(
        backend, ListWorkPackages, ListWorkPackagesRequest(WorkPackageScope(status="closed"), page_size=1)
    )
    assert everything.total == open_.total + closed.total
    if backend.dataset is not None:
        assert everything.total == len(backend.dataset.work_packages)
        assert closed.total == sum(1 for row in backend.dataset.work_package_rows.values() if row.is_closed)


async def test_work_package_detail_and_timeline(backend: Backend) -> None:
    dataset = needs_dataset(backend)
    wp_id = 101
    detail = await run(backend, GetWorkPackage, GetWorkPackageRequest(wp_id))
    expected = dataset.work_packages[wp_id]
    assert (detail.subject, detail.status, detail.type, detail.project) == (
        expected.subject,
        expected.status,
        expected.type,
        expected.project,
    )
    assert sorted(c.id for c in detail.children or ()) == sorted(c.id for c in expected.children or ())
    timeline = await run(backend, ListWorkPackageActivities, ListActivitiesRequest(wp_id))
    assert [a.id for a in timeline.activities] == [a.id for a in dataset.activities[wp_id]]
    assert all(a.user is not None and a.user.name for a in timeline.activities)


async def test_display_ids_where_the_version_has_them(backend: Backend) -> None:
    dataset = needs_dataset(backend)
    expected = dataset.work_packages[101]
    assert expected.display_id is not None
    if backend.has("17.5"):
        found = await run(backend, GetWorkPackage, GetWorkPackageRequest(expected.display_id))
        assert found.id == 101 and found.display_id == expected.display_id
    else:
        with pytest.raises(NotFoundError):
            await run(backend, GetWorkPackage, GetWorkPackageRequest(expected.display_id))


async def test_a_comment_only_word_finds_its_closed_work_package(backend: Backend) -> None:
    needs_dataset(backend)
    page = await run(backend, SearchWorkPackages, SearchWorkPackagesRequest("honeypot"))
    assert [e.work_package.id for e in page.elements] == [110]
    assert page.elements[0].matched_fields == ("comments",)
    assert page.degraded is False


async def test_meetings_list_on_every_version(backend: Backend) -> None:
    # Mounted since 14.4 (opf/openproject@4911b8a:modules/meeting/lib/api/v3/meetings/meetings_api.rb).
    try:
        page = await run(backend, ListMeetings, ListMeetingsRequest(page_size=100))
    except UnsupportedError:
        if backend.version != "live":
            raise
        pytest.skip("this live instance refuses the meeting list (is the meetings module off?)")
    if backend.dataset is not None:
        assert page.total == len(backend.dataset.meetings)


async def test_a_meeting_comes_with_its_agenda_or_a_note(backend: Backend) -> None:
    dataset = needs_dataset(backend)
    meeting = await run(backend, GetMeeting, GetMeetingRequest(203))
    assert meeting.title == dataset.meetings[203].title
    if backend.has("17.4"):
        assert meeting.agenda_items
        if backend.plays("outcomes_embedded") or backend.plays("meeting_outcomes_endpoint"):
            assert meeting.agenda_items[0].outcomes
        else:
            assert meeting.notes and any("outcomes" in n for n in meeting.notes)
    else:
        assert meeting.agenda_items is None
        assert meeting.notes and any("Agenda items are not available" in n for n in meeting.notes)


async def test_a_decision_is_found_in_an_outcome_or_the_notes_say_why_not(backend: Backend) -> None:
    needs_dataset(backend)
    request = SearchMeetingsRequest("what did we decide about the printed catalogue")
    page = await run(backend, SearchMeetings, request)
    if backend.has("17.4"):
        assert page.elements[0].meeting.id == 203
        assert page.elements[0].match_type == "agenda_item"
    else:
        assert page.notes and any("no agenda item API" in n for n in page.notes)
    title_hit = await run(backend, SearchMeetings, SearchMeetingsRequest("quartely roadmap reveiw"))
    assert [e.meeting.id for e in title_hit.elements][:2] == [201, 211]


async def test_wiki_search_finds_pages_above_id_300_at_a_bounded_cost_per_call(backend: Backend) -> None:
    # Every demo page has an id above 300 (301-308). Released versions have no wiki page list
    # and no page text: pages are found by id, by title, over as many calls as it takes.
    dataset = needs_dataset(backend)
    calls = []
    for _ in range(12):
        if backend.fake is not None:
            backend.fake.clear()
        page = await run(backend, SearchWikiPages, SearchWikiPagesRequest("refund policy"))
        calls.append(len(backend.fake.requests) if backend.fake is not None else 0)
        assert page.coverage is not None
        if page.elements:
            break
        assert not page.coverage.complete, "an empty answer is only final once the discovery is complete"
        assert page.notes and any(n.startswith("No wiki pages were found") for n in page.notes)
    assert page.elements and page.elements[0].id == 305
    assert max(calls) <= DiscoverySettings().cold_probes + 6, calls  # its probes and a few other requests
    if backend.version == "fixture":
        assert calls == [0] and page.coverage.complete
        return
    assert page.notes and any("only page titles were searched" in n for n in page.notes)
    coverage = page.coverage
    assert coverage.ids_probed >= coverage.pages_found >= 1 and coverage.enriched == 0
    if backend.has("17.6"):
        assert len(calls) == 1, "the instance's wiki page links name the pages"
    else:
        assert coverage.highest_id_probed is not None and coverage.highest_id_probed >= 305
    until_complete = 0
    while not page.coverage.complete and until_complete < 12:
        until_complete += 1  # each new search goes on where the last one stopped
        page = await run(backend, SearchWikiPages, SearchWikiPagesRequest(f"topic {until_complete}"))
    assert page.coverage.complete and page.coverage.pages_found == len(dataset.wiki_pages)
    if backend.fake is not None:
        backend.fake.clear()
        warm = await run(backend, SearchWikiPages, SearchWikiPagesRequest())
        assert len(backend.fake.requests) <= 2
        assert warm.total == len(dataset.wiki_pages)


async def test_wiki_page_text_or_a_note(backend: Backend) -> None:
    dataset = needs_dataset(backend)
    page = await run(backend, GetWikiPage, GetWikiPageRequest(301))
    assert page.title == dataset.wiki_pages[301].title
    if backend.version == "fixture":  # no released OpenProject serves wiki page texts
        assert page.text and "Onboarding" in page.text
    else:
        assert page.text is None and page.notes and "text" in page.notes[0]


async def test_wiki_page_links_need_17_6(backend: Backend) -> None:
    dataset = needs_dataset(backend)
    request = ListWikiPageLinksRequest(116)
    if backend.has("17.6"):
        page = await run(backend, ListWikiPageLinks, request)
        [row] = [row for row in dataset.wiki_page_links.values() if row.work_package_id == 116]
        assert page.total == 1
        [link] = page.links
        assert link.wiki_page is not None and row.wiki_page_id is not None
        assert (link.wiki_page.id, link.wiki_page.title) == (row.wiki_page_id, dataset.wiki_pages[304].title)
        assert (link.provider, link.link_type, link.identifier) == ("internal", "relation", "304")
        assert link.work_package is not None and link.work_package.id == 116
    else:
        with pytest.raises(UnsupportedError) as caught:
            await run(backend, ListWikiPageLinks, request)
        assert "17.6" in caught.value.message


async def test_saved_query_runs_as_openproject_runs_it(backend: Backend) -> None:
    dataset = needs_dataset(backend)
    result = await run(backend, GetQuery, GetQueryRequest(41, page_size=100))
    assert result.query.name == dataset.queries[41].name
    assert result.results.total == len(result.results.work_packages)


async def test_metadata_and_users(backend: Backend) -> None:
    statuses = await run(backend, ListStatuses)
    assert statuses.statuses and any(s.is_closed for s in statuses.statuses)
    users = await run(backend, ListUsers, ListUsersRequest(page_size=100))
    assert users.users
    if backend.dataset is not None:
        assert {u.id for u in users.users} <= set(backend.dataset.users)


async def test_me_in_an_assignee_filter_is_the_user_the_instance_names(backend: Backend) -> None:
    facts = await run(backend, GetInstance)
    assert facts.current_user is not None
    me = facts.current_user.id
    mine = await run(
        backend, ListWorkPackages, ListWorkPackagesRequest(WorkPackageScope(assignee_id="me"), page_size=100)
    )
    assert all(wp.assignee is not None and wp.assignee.id == me for wp in mine.work_packages)
    by_id = await run(
        backend, ListWorkPackages, ListWorkPackagesRequest(WorkPackageScope(assignee_id=me), page_size=100)
    )
    assert [wp.id for wp in mine.work_packages] == [wp.id for wp in by_id.work_packages]
    if backend.dataset is not None:
        expected = {wp.id for wp in backend.dataset.work_packages.values() if wp.assignee and wp.assignee.id == me}
        assert expected and {wp.id for wp in mine.work_packages} == expected
