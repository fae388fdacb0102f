"""Wiki page discovery by id, where the backend cannot list pages (every released OpenProject)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from openproject_mcp.adapters.fixture.dataset import Dataset, load_dataset
from openproject_mcp.adapters.fixture.metadata_repository import InMemoryMetadataRepository
from openproject_mcp.adapters.fixture.project_repository import InMemoryProjectRepository
from openproject_mcp.adapters.fixture.wiki_repositories import (
    InMemoryWikiPageLinkRepository,
    InMemoryWikiPageRepository,
)
from openproject_mcp.adapters.fixture.work_package_repository import InMemoryWorkPackageRepository
from openproject_mcp.application.activities import ListActivitiesRequest, ListWorkPackageActivities
from openproject_mcp.application.caching import TenantCaches
from openproject_mcp.application.project_scope import ProjectResolver
from openproject_mcp.application.search_wiki_pages import DiscoverySettings, SearchWikiPages, SearchWikiPagesRequest
from openproject_mcp.application.search_work_packages import SearchWorkPackages, SearchWorkPackagesRequest
from openproject_mcp.application.views import WikiSearchPage
from openproject_mcp.application.wiki_knowledge import WikiReferences, page_ids_in
from openproject_mcp.application.work_packages import GetWorkPackage, GetWorkPackageRequest
from openproject_mcp.domain.entities import WikiPage, WikiPageLink
from openproject_mcp.domain.errors import RequestLimitError, UnsupportedError, UpstreamServerError
from tests.support.datasets import base_document, write

SETTINGS = DiscoverySettings()


def wiki_document(ids: Sequence[int], mention: dict[int, int] | None = None, texts: bool = True) -> dict[str, Any]:
    document = base_document()
    document["wiki_pages"] = [
        {
            "id": page_id,
            "project": 1,
            "title": f"Page {page_id}",
            **(
                {"text": f"See wiki_pages/{mention[page_id]}" if mention and page_id in mention else "Routine."}
                if texts
                else {}
            ),
        }
        for page_id in ids
    ]
    return document


class PagesById(InMemoryWikiPageRepository):
    """Pages readable one by one only, as on OpenProject; counts and optionally fails reads."""

    def __init__(self, dataset: Dataset, failing: frozenset[int] = frozenset()) -> None:
        super().__init__(dataset)
        self.asked: list[int] = []
        self._failing = set(failing)

    async def get(self, page_id: int) -> WikiPage:
        self.asked.append(page_id)
        if page_id in self._failing:
            self._failing.discard(page_id)
            raise UpstreamServerError("OpenProject answered 500.", status=500)
        return await super().get(page_id)

    async def list_pages(self, project_id: int | None) -> Sequence[WikiPage] | None:
        return None


class NoGlobalLinks(InMemoryWikiPageLinkRepository):
    async def list_all(self, limit: int) -> Sequence[WikiPageLink]:
        raise UnsupportedError("no /api/v3/wiki_page_links before 17.6", status=404)


def search_over(
    dataset: Dataset,
    caches: TenantCaches,
    tenant: str = "tenant:a",
    *,
    pages: PagesById | None = None,
    links: InMemoryWikiPageLinkRepository | None = None,
) -> tuple[SearchWikiPages, PagesById]:
    reader = pages or PagesById(dataset)
    search = SearchWikiPages(
        reader,
        links or NoGlobalLinks(dataset),
        ProjectResolver(InMemoryProjectRepository(dataset)),
        caches,
        tenant,
        WikiReferences(caches, "https://op.example.com/"),
        SETTINGS,
    )
    return search, reader


async def calls_until_complete(search: SearchWikiPages, pages: PagesById, limit: int = 40) -> list[int]:
    """Reads per call, searching for something new each time until nothing is left to try."""
    reads = []
    for call in range(limit):
        before = len(pages.asked)
        page = await search.execute(SearchWikiPagesRequest(f"topic {call}", limit=100))
        reads.append(len(pages.asked) - before)
        assert page.coverage is not None
        if page.coverage.complete:
            return reads
    raise AssertionError(f"not complete after {limit} calls: {reads}")


async def test_ids_far_past_the_first_empty_window_are_found_with_a_bounded_cost(tmp_path: Path) -> None:
    # Pages 1-30 and 45; page 45 mentions page 400, far beyond any window of misses.
    ids = [*range(1, 31), 45, 400]
    dataset = load_dataset(write(tmp_path, wiki_document(ids, mention={45: 400})))
    search, pages = search_over(dataset, TenantCaches())
    first = await search.execute(SearchWikiPagesRequest(limit=100))
    assert len(pages.asked) <= SETTINGS.cold_probes
    assert sorted(e.id for e in first.elements) == ids, "ids after 15 misses (45) and mentioned ones (400)"
    coverage = first.coverage
    assert coverage is not None and not coverage.complete and coverage.candidate_limit_reached
    assert coverage.probed_from == 1 and coverage.probed_to is not None and coverage.probed_to >= 46
    assert coverage.pages_found == len(ids) and coverage.ids_probed == len(set(pages.asked))
    assert first.notes and any("another search goes on from there" in n for n in first.notes)
    reads = await calls_until_complete(search, pages)
    assert max(reads) <= SETTINGS.cold_probes
    assert len(pages.asked) == len(set(pages.asked)), "no id is read twice by one caller"
    # Every id up to 416 (400 and a margin) was tried; above it only a few samples.
    done = await search.execute(SearchWikiPagesRequest(limit=100))
    assert done.coverage is not None and done.coverage.complete
    assert done.coverage.probed_to is not None and done.coverage.probed_to >= 400 + SETTINGS.gap


async def test_a_repeated_search_reads_at_most_two_ids_whatever_the_wiki_size(tmp_path: Path) -> None:
    dataset = load_dataset(write(tmp_path, wiki_document(range(1, 3001))))
    search, pages = search_over(dataset, TenantCaches())
    first = await search.execute(SearchWikiPagesRequest("page 7"))
    assert first.coverage is not None and not first.coverage.complete
    probed = first.coverage.ids_probed
    for _ in range(3):
        before = len(pages.asked)
        again = await search.execute(SearchWikiPagesRequest("page 7"))
        assert len(pages.asked) - before <= SETTINGS.warm_probes
        assert again.coverage is not None and again.coverage.ids_probed > probed, "and still goes further"
        probed = again.coverage.ids_probed
    before = len(pages.asked)
    other = await search.execute(SearchWikiPagesRequest("page 9"))
    assert SETTINGS.warm_probes < len(pages.asked) - before <= SETTINGS.cold_probes, "a new search goes on"
    assert other.coverage is not None and other.coverage.ids_probed > probed


async def test_a_warm_call_reads_at_most_two_ids_and_later_calls_extend_coverage(tmp_path: Path) -> None:
    dataset = load_dataset(write(tmp_path, wiki_document(range(1, 31))))
    search, pages = search_over(dataset, TenantCaches())
    first = await search.execute(SearchWikiPagesRequest("page"))
    assert first.coverage is not None and first.coverage.complete, "30 pages fit in one call"
    assert len(pages.asked) <= SETTINGS.cold_probes
    probed = first.coverage.ids_probed
    for _ in range(3):
        before = len(pages.asked)
        again = await search.execute(SearchWikiPagesRequest("page"))
        assert len(pages.asked) - before <= SETTINGS.warm_probes
        assert again.total == 30 and again.coverage is not None
        assert again.coverage.ids_probed > probed, "every call tries ids not tried before"
        probed = again.coverage.ids_probed


async def test_warm_calls_find_a_wiki_between_the_samples(tmp_path: Path) -> None:
    # Two wikis far apart: the first call finds one, declares its range done, and only sampled
    # above; warm calls (two reads each) sample finer until they hit the other.
    ids = [*range(1, 21), *range(201, 221)]
    dataset = load_dataset(write(tmp_path, wiki_document(ids)))
    search, pages = search_over(dataset, TenantCaches())
    first = await search.execute(SearchWikiPagesRequest(limit=100))
    assert first.total == 20 and first.coverage is not None and first.coverage.complete
    assert first.notes and any("between the sampled ones" in n for n in first.notes)
    for _ in range(200):
        before = len(pages.asked)
        page = await search.execute(SearchWikiPagesRequest(limit=100))
        assert len(pages.asked) - before <= SETTINGS.cold_probes
        if page.total == len(ids):
            break
    assert sorted(e.id for e in page.elements) == ids


async def test_a_wiki_above_a_deleted_range_is_found_by_the_first_call(tmp_path: Path) -> None:
    # Ids 1-300 deleted or hidden: every page is above 300. Every 16th id is tried first.
    dataset = load_dataset(write(tmp_path, wiki_document(range(301, 309), texts=False)))
    search, pages = search_over(dataset, TenantCaches())
    page = await search.execute(SearchWikiPagesRequest(limit=100))
    assert len(pages.asked) <= SETTINGS.cold_probes
    assert [e.id for e in page.elements] == list(range(301, 309))
    assert page.coverage is not None and not page.coverage.complete
    assert page.coverage.highest_id_probed is not None and page.coverage.highest_id_probed >= 308


async def test_no_page_found_says_so_and_later_calls_go_on(tmp_path: Path) -> None:
    # Ids 1-304 deleted or hidden, and the pages sit between the samples (304 and 320).
    ids = range(305, 308)
    dataset = load_dataset(write(tmp_path, wiki_document(ids, texts=False)))
    search, pages = search_over(dataset, TenantCaches())
    answers: list[WikiSearchPage] = []
    for _ in range(10):
        before = len(pages.asked)
        answers.append(await search.execute(SearchWikiPagesRequest("page 305")))
        assert len(pages.asked) - before <= SETTINGS.cold_probes
        if answers[-1].elements:
            break
    found = answers[-1]
    assert 305 in [e.id for e in found.elements]
    assert len(answers) <= -(-308 // SETTINGS.cold_probes) + 1
    for empty in answers[:-1]:
        assert empty.total == 0 and empty.coverage is not None and not empty.coverage.complete
        assert empty.notes and empty.notes[0].startswith("No wiki pages were found")
        assert "A later call tries further ids." in empty.notes[0]
    assert found.notes and any("only page titles were searched" in n for n in found.notes)


async def test_no_visible_page_at_all_ends_in_a_plain_answer(tmp_path: Path) -> None:
    dataset = load_dataset(write(tmp_path, wiki_document([])))
    search, pages = search_over(dataset, TenantCaches())
    reads = await calls_until_complete(search, pages)
    assert max(reads) <= SETTINGS.cold_probes
    final = await search.execute(SearchWikiPagesRequest("anything"))
    assert final.total == 0 and final.coverage is not None and final.coverage.pages_found == 0
    assert final.notes and final.notes[0].startswith("No wiki pages were found")
    assert "A later call" not in final.notes[0]
    assert final.coverage.probed_to is not None and final.coverage.probed_to >= SETTINGS.blind_floor


async def test_what_one_caller_learned_leads_the_next_but_visibility_stays_per_caller(tmp_path: Path) -> None:
    everything = load_dataset(write(tmp_path, wiki_document([*range(1, 21), *range(31, 51)]), "all.json"))
    hidden = load_dataset(write(tmp_path, wiki_document(range(31, 51)), "some.json"))
    caches = TenantCaches()
    first, first_pages = search_over(everything, caches, "tenant:a")
    await calls_until_complete(first, first_pages)
    second, pages = search_over(hidden, caches, "tenant:b")
    page = await second.execute(SearchWikiPagesRequest(limit=100))
    assert pages.asked[:40] == [*range(1, 21), *range(31, 51)], "ids known to exist come first"
    assert sorted(e.id for e in page.elements) == list(range(31, 51)), "pages 1-20 are not visible to b"


async def test_ids_named_in_work_package_texts_are_read_first(tmp_path: Path) -> None:
    document = wiki_document([7, 305])
    document["work_packages"] = [
        {
            "id": 1,
            "project": 1,
            "subject": "Refunds",
            "description": "Rules: [[[1:305]]] and the API page https://op.example.com/api/v3/wiki_pages/7.",
            "type": 1,
            "status": 1,
            "priority": 1,
            "author": 1,
            "createdAt": "2026-01-01T00:00:00Z",
            "updatedAt": "2026-01-01T00:00:00Z",
        }
    ]
    dataset = load_dataset(write(tmp_path, document))
    caches = TenantCaches()
    references = WikiReferences(caches, "https://op.example.com/")
    await GetWorkPackage(InMemoryWorkPackageRepository(dataset), references).execute(GetWorkPackageRequest(1))
    search, pages = search_over(dataset, caches)
    page = await search.execute(SearchWikiPagesRequest(limit=100))
    assert pages.asked[:2] == [7, 305]
    assert sorted(e.id for e in page.elements) == [7, 305]


@pytest.mark.parametrize("reader", ["activities", "search"])
async def test_ids_named_in_comments_are_read_first(tmp_path: Path, reader: str) -> None:
    document = wiki_document([9, 412])
    document["work_packages"] = [
        {
            "id": 1,
            "project": 1,
            "subject": "Refund rules",
            "type": 1,
            "status": 1,
            "createdAt": "2026-01-01T00:00:00Z",
            "updatedAt": "2026-01-01T00:00:00Z",
            "activities": [
                {"id": 1, "version": 1, "createdAt": "2026-01-01T00:00:00Z", "comment": "Moved to [[[2:412]]]."},
                {"id": 2, "version": 2, "createdAt": "2026-01-02T00:00:00Z", "comment": "See /api/v3/wiki_pages/9"},
            ],
        }
    ]
    dataset = load_dataset(write(tmp_path, document))
    caches = TenantCaches()
    references = WikiReferences(caches, "https://op.example.com/")
    work_packages = InMemoryWorkPackageRepository(dataset)
    if reader == "activities":
        await ListWorkPackageActivities(work_packages, references).execute(ListActivitiesRequest(1))
    else:
        projects = ProjectResolver(InMemoryProjectRepository(dataset))
        search = SearchWorkPackages(work_packages, InMemoryMetadataRepository(dataset), projects, references=references)
        await search.execute(SearchWorkPackagesRequest("refund"))
    wiki, pages = search_over(dataset, caches)
    await wiki.execute(SearchWikiPagesRequest(limit=100))
    assert pages.asked[:2] == [9, 412]


async def test_global_wiki_page_links_name_pages(tmp_path: Path) -> None:
    document = wiki_document(range(301, 309))
    document["work_packages"] = [
        {
            "id": 1,
            "project": 1,
            "subject": "Refunds",
            "type": 1,
            "status": 1,
            "createdAt": "2026-01-01T00:00:00Z",
            "updatedAt": "2026-01-01T00:00:00Z",
        }
    ]
    document["wiki_page_links"] = [
        {"id": 1, "workPackage": 1, "wikiPage": 304, "provider": "internal", "linkType": "relation"},
        {"id": 2, "workPackage": 1, "identifier": "Sandbox.WebHome", "provider": "XWiki", "linkType": "inline"},
    ]
    dataset = load_dataset(write(tmp_path, document))
    search, pages = search_over(dataset, TenantCaches(), links=InMemoryWikiPageLinkRepository(dataset))
    page = await search.execute(SearchWikiPagesRequest(limit=100))
    assert pages.asked[0] == 304
    assert sorted(e.id for e in page.elements) == list(range(301, 309)), "found around the linked page"


async def test_a_failed_read_is_counted_and_tried_again(tmp_path: Path) -> None:
    dataset = load_dataset(write(tmp_path, wiki_document(range(1, 11))))
    pages = PagesById(dataset, failing=frozenset({3}))
    search, _ = search_over(dataset, TenantCaches(), pages=pages)
    first = await search.execute(SearchWikiPagesRequest(limit=100))
    assert first.degraded and first.enrichment_failures == 1 and 3 not in [e.id for e in first.elements]
    assert first.notes and any("could not be read" in n for n in first.notes)
    second = await search.execute(SearchWikiPagesRequest(limit=100))
    assert 3 in [e.id for e in second.elements] and not second.degraded


async def test_refresh_starts_afresh_for_this_caller(tmp_path: Path) -> None:
    dataset = load_dataset(write(tmp_path, wiki_document(range(1, 11))))
    search, pages = search_over(dataset, TenantCaches())
    await search.execute(SearchWikiPagesRequest())
    first = len(pages.asked)
    await search.execute(SearchWikiPagesRequest(refresh_cache=True))
    assert len(pages.asked) - first == first, "the same ids are read again"


@pytest.mark.parametrize(
    ("text", "ids"),
    [
        ("see /api/v3/wiki_pages/12 and wiki_pages/7/attachments", {12, 7}),
        ("[[[3:305]]] and [[[3:/wiki/path/to/kiwi]]] and [[[x:9]]]", {305}),
        ("wiki_pages/0 [[[1:0]]] wiki_pages/abc", set()),
        (None, set()),
    ],
)
def test_page_ids_in_texts(text: str | None, ids: set[int]) -> None:
    assert page_ids_in(text) == ids


class OnePageForEveryId(PagesById):
    """A mock that answers every id with the same example page (as a spec-driven mock does)."""

    async def get(self, page_id: int) -> WikiPage:
        self.asked.append(page_id)
        return await InMemoryWikiPageRepository.get(self, 72)


async def test_an_answer_for_another_page_is_taken_for_that_page(tmp_path: Path) -> None:
    dataset = load_dataset(write(tmp_path, wiki_document([72])))
    pages = OnePageForEveryId(dataset)
    search, _ = search_over(dataset, TenantCaches(), pages=pages)
    reads = await calls_until_complete(search, pages)
    assert max(reads) <= SETTINGS.cold_probes and len(reads) <= 3
    page = await search.execute(SearchWikiPagesRequest())
    assert [e.id for e in page.elements] == [72]
    assert page.coverage is not None and page.coverage.pages_found == 1


class CeilingAfter(PagesById):
    """Reads that hit the call's request ceiling after ``allowed`` of them."""

    def __init__(self, dataset: Dataset, allowed: int) -> None:
        super().__init__(dataset)
        self.allowed = allowed

    async def get(self, page_id: int) -> WikiPage:
        if self.allowed <= 0:
            raise RequestLimitError("This call reached its ceiling of 10 requests.", limit=10)
        self.allowed -= 1
        return await super().get(page_id)


async def test_the_request_ceiling_stops_a_call_and_the_next_search_goes_on(tmp_path: Path) -> None:
    dataset = load_dataset(write(tmp_path, wiki_document(range(1, 41))))
    pages = CeilingAfter(dataset, allowed=10)
    search, _ = search_over(dataset, TenantCaches(), pages=pages)
    first = await search.execute(SearchWikiPagesRequest("page"))
    assert first.total == 10 and not first.degraded, "ids not tried are no failures"
    assert first.notes and any("ceiling of requests" in n for n in first.notes)
    assert len(pages.asked) == 10
    pages.allowed = 100
    second = await search.execute(SearchWikiPagesRequest("other"))
    assert second.coverage is not None and second.coverage.pages_found == 40
