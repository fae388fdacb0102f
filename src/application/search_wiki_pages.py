"""Use case: ranked fuzzy search over wiki page titles and bodies, with page discovery.

OpenProject has no instance-wide wiki page list. Where an instance lists the pages of a
project, every project's list is read. Elsewhere pages are found by probing ids in windows:
each window is read concurrently, the search goes on while the last window found pages and
stops after a full window of misses or at a cap; ids mentioned in page bodies are read too.
What was discovered is cached per tenant (and per project scope) until it expires or the
caller asks for ``refreshCache``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import KW_ONLY, dataclass

from openproject_mcp.application.arguments import match_mode, search_query
from openproject_mcp.application.caching import TenantCaches
from openproject_mcp.application.concurrency import map_bounded
from openproject_mcp.application.project_scope import ProjectResolver
from openproject_mcp.application.ranking import RankingLimits, rank
from openproject_mcp.application.search_pipeline import ProgressCallback
from openproject_mcp.application.views import Coverage, MatchModeName, WikiPageHit, WikiSearchPage
from openproject_mcp.domain.entities import WikiPage
from openproject_mcp.domain.errors import InvalidArgumentError, NotFoundError, OpenProjectMcpError
from openproject_mcp.domain.queries import PageRequest
from openproject_mcp.domain.search import Field
from openproject_mcp.ports import CapabilityRepository, ProjectRepository, WikiPageRepository

FIELDS: tuple[Field[WikiPage], ...] = (
    Field("title", 3.0, lambda p: p.title),
    Field("text", 1.0, lambda p: p.text),
)
MAX_LIMIT = 100
_PAGE_ID_IN_TEXT = re.compile(r"wiki_pages/(\d+)")


@dataclass(frozen=True, slots=True)
class DiscoverySettings:
    window: int = 25
    max_probe_id: int = 500
    concurrency: int = 8


@dataclass(frozen=True, slots=True)
class Discovery:
    pages: tuple[WikiPage, ...]
    limit_reached: bool
    failures: int
    listed: bool  # found through the list endpoint rather than by probing


@dataclass(frozen=True, slots=True)
class SearchWikiPagesRequest:
    query: str | None = None
    _: KW_ONLY
    project_id: int | str | None = None
    limit: int = 20
    refresh_cache: bool = False
    match_mode: MatchModeName = "fuzzy"
    progress: ProgressCallback | None = None


class SearchWikiPages:
    def __init__(
        self,
        pages: WikiPageRepository,
        projects: ProjectRepository,
        capabilities: CapabilityRepository,
        resolver: ProjectResolver,
        caches: TenantCaches,
        tenant: str,
        settings: DiscoverySettings = DiscoverySettings(),
    ) -> None:
        self._pages = pages
        self._projects = projects
        self._capabilities = capabilities
        self._resolver = resolver
        self._caches = caches
        self._tenant = tenant
        self._settings = settings

    async def execute(self, request: SearchWikiPagesRequest) -> WikiSearchPage:
        query = search_query(request.query, required=False)
        mode = match_mode(request.match_mode)
        if isinstance(request.limit, bool) or not isinstance(request.limit, int) or not 1 <= request.limit <= MAX_LIMIT:
            raise InvalidArgumentError(f"limit must be between 1 and {MAX_LIMIT}, got {request.limit!r}.")
        project_id = await self._resolver.resolve(request.project_id)
        discovery = await self._discover(project_id, refresh=request.refresh_cache, progress=request.progress)
        limits = RankingLimits()
        ranked = await rank(discovery.pages, query, FIELDS, key=lambda p: p.id, mode=mode, limits=limits)
        elements = tuple(
            WikiPageHit(
                id=r.record.id,
                title=r.record.title,
                project=r.record.project,
                score=r.score,
                matched_fields=r.matched_fields,
                snippet=next((m.snippet for m in r.matches if m.snippet), None),
            )
            for r in ranked[: request.limit]
        )
        notes: list[str] = limits.notes()
        with_text = sum(1 for p in discovery.pages if p.text is not None)
        if discovery.pages and with_text == 0:
            notes.append(
                "This OpenProject version does not expose wiki page text through its API, so only page titles "
                "were searched."
            )
        if not discovery.listed:
            notes.append(
                "This instance cannot list wiki pages, so pages were discovered by probing ids"
                + (
                    f" up to {self._settings.max_probe_id}; pages above that were not seen."
                    if discovery.limit_reached
                    else "."
                )
            )
        if discovery.failures:
            notes.append(f"{discovery.failures} wiki pages could not be read and were left out.")
        if not query:
            notes.append("No query was given, so every discovered page is listed with score 0.")
        return WikiSearchPage(
            total=len(ranked),
            count=len(elements),
            limit=request.limit,
            elements=elements,
            match_mode=request.match_mode,
            degraded=discovery.failures > 0,
            enrichment_failures=discovery.failures,
            coverage=Coverage(len(discovery.pages), with_text, discovery.limit_reached),
            notes=tuple(notes) or None,
        )

    async def _discover(self, project_id: int | None, *, refresh: bool, progress: ProgressCallback | None) -> Discovery:
        key = (self._tenant, project_id)
        if not refresh:
            cached = self._caches.wiki.get(key)
            if isinstance(cached, Discovery):
                return cached
        capabilities = await self._capabilities.capabilities()
        if capabilities.wiki_page_list:
            discovery = await self._list(project_id, progress)
        else:
            discovery = await self._probe(project_id, progress)
        self._caches.wiki.put(key, discovery)
        return discovery

    async def _list(self, project_id: int | None, progress: ProgressCallback | None) -> Discovery:
        if project_id is not None:
            project_ids = [project_id]
        else:
            project_ids = await self._all_project_ids()
        listed = 0

        async def list_one(project: int) -> Sequence[WikiPage]:
            nonlocal listed
            found = await self._pages.list_for_project(project)
            listed += 1
            if progress is not None:
                await progress(
                    listed, len(project_ids), f"Listed the wiki pages of {listed} of {len(project_ids)} projects"
                )
            return found

        per_project = await map_bounded(project_ids, self._settings.concurrency, list_one)
        pages = {p.id: p for batch in per_project for p in batch}
        return Discovery(tuple(pages[i] for i in sorted(pages)), limit_reached=False, failures=0, listed=True)

    async def _all_project_ids(self) -> list[int]:
        ids: list[int] = []
        offset = 1
        while True:
            page = await self._projects.list((), (), PageRequest(offset, 100))
            ids.extend(p.id for p in page.items)
            if not page.items or not page.has_more:
                return ids
            offset += 1

    async def _probe(self, project_id: int | None, progress: ProgressCallback | None) -> Discovery:
        found: dict[int, WikiPage] = {}
        failures = 0
        tried: set[int] = set()

        async def read(page_id: int) -> WikiPage | None:
            nonlocal failures
            try:
                return await self._pages.get(page_id)
            except NotFoundError:
                return None
            except OpenProjectMcpError as error:
                if error.aborts_search:
                    raise
                failures += 1
                return None

        async def read_all(ids: Sequence[int]) -> int:
            tried.update(ids)
            results = await map_bounded(ids, self._settings.concurrency, read)
            hits = [p for p in results if p is not None]
            found.update((p.id, p) for p in hits)
            return len(hits)

        start = 1
        limit_reached = False
        while True:
            end = min(start + self._settings.window, self._settings.max_probe_id + 1)
            hits = await read_all(range(start, end))
            if progress is not None:
                await progress(end - 1, None, f"Probed wiki page ids up to {end - 1}; {len(found)} pages found")
            if end > self._settings.max_probe_id:
                limit_reached = hits > 0
                break
            if hits == 0:
                break
            start = end
        mentioned = sorted(
            {
                int(m)
                for p in found.values()
                for m in _PAGE_ID_IN_TEXT.findall(p.text or "")
                if int(m) > 0 and int(m) not in tried
            }
        )
        if mentioned:
            await read_all(mentioned[: self._settings.window])
        pages = [p for p in found.values() if project_id is None or p.project.id == project_id]
        return Discovery(tuple(sorted(pages, key=lambda p: p.id)), limit_reached, failures, listed=False)
