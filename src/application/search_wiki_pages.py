"""Use case: ranked fuzzy search over wiki page titles and bodies, with page discovery.

A backend that can list wiki pages (the in-memory one) lists them. OpenProject cannot: no
released version has a wiki page list or page text in its API (ADR 0012), so pages are found
by reading ``/api/v3/wiki_pages/{id}`` id by id, at a bounded cost per call:

- ids known to exist on the instance (someone read them) and ids mentioned in texts and in wiki
  page links come first, then the ids around every page found (``gap`` either side); while no
  page has turned up among the first ``gap`` ids, every ``blind_stride``-th id up to
  ``blind_floor``; then every id from 1 up
  past the highest page id known (a margin of ``gap`` ids; while no page has turned up, up to
  ``blind_floor``); then a few sample ids further up (``ladder``), where a hit moves the highest
  id known and so the range probed;
- a call reads at most ``cold_probes`` pages (plus one request for the instance's wiki page
  links on 17.6+), and every new search goes on where the last one stopped;
- a search repeated (same query, project and match mode) once some pages are known, and any
  search once nothing is left to try, reads at most ``warm_probes`` ids and answers from
  memory: the next ids in order, or, with nothing left, one id past the range (new pages) and
  one finer sample above it.

What a caller could see (titles, which ids answered 404) is kept per caller for
``wiki_ttl_seconds`` (``refreshCache`` starts afresh); which ids exist is kept per instance.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import KW_ONLY, dataclass, field

from openproject_mcp.application.arguments import match_mode, search_query
from openproject_mcp.application.caching import TenantCaches, TokenCache
from openproject_mcp.application.concurrency import map_bounded
from openproject_mcp.application.presenters import derive
from openproject_mcp.application.project_scope import ProjectResolver
from openproject_mcp.application.ranking import (
    RankingLimits,
    bounded_texts,
    query_scorer,
    rank_clauses,
    rank_read,
    read_acronyms,
)
from openproject_mcp.application.search_pipeline import ProgressCallback
from openproject_mcp.application.views import MatchModeName, WikiCoverage, WikiPageHit, WikiSearchPage
from openproject_mcp.application.wiki_knowledge import InstanceWikiIds, WikiReferences, page_ids_in
from openproject_mcp.domain.entities import WikiPage
from openproject_mcp.domain.errors import (
    InvalidArgumentError,
    NotFoundError,
    OpenProjectMcpError,
    RequestLimitError,
    UnsupportedError,
)
from openproject_mcp.domain.search import Field
from openproject_mcp.ports import WikiPageLinkRepository, WikiPageRepository

FIELDS: tuple[Field[WikiPage], ...] = (
    Field("title", 3.0, lambda p: p.title),
    Field("text", 1.0, lambda p: p.text),
)
MAX_LIMIT = 100
TITLES_ONLY = (
    "This OpenProject version does not expose wiki page text through its API, so only page titles were searched."
)


@dataclass(frozen=True, slots=True)
class DiscoverySettings:
    cold_probes: int = 96
    """Pages read by a call that starts or extends a discovery."""
    warm_probes: int = 2
    """Requests of a call whose discovery has nothing left to try: one id past the probed range (new
    pages), one finer sample further up (pages between the samples); one less when the call had to
    look its project up."""
    gap: int = 16
    """Ids probed past the highest page id known."""
    blind_floor: int = 512
    """While no page has turned up, every id up to here is probed (over as many calls as it takes)."""
    blind_stride: int = 16
    """While no page has turned up, every ``blind_stride``-th id up to ``blind_floor`` comes first."""
    ladder: tuple[int, ...] = (64, 128, 256, 512, 1024, 2048, 4096)
    """Sample ids above the probed range; a page there moves the range up."""
    scout_top: int = 4096
    scout_stride: int = 32
    """Warm calls sample ids above the range coarse to fine, down to every ``scout_stride``-th id."""
    link_harvest: int = 1000
    """Wiki page links read, in one request, for the page ids they name (17.6+)."""
    concurrency: int = 16


@dataclass(frozen=True, slots=True)
class ExplorationSnapshot:
    """One caller's :class:`_Exploration` as it travels through the shared tier."""

    pages: tuple[WikiPage, ...] = ()
    missing: tuple[int, ...] = ()
    dense_to: int = 0
    links_read: bool = False
    searches: tuple[tuple[str, int | None, str], ...] = ()
    started_at: float = 0.0


@dataclass(slots=True)
class _Exploration:
    """One caller's view of the wiki: the pages it could read and the ids that answered 404."""

    pages: dict[int, WikiPage] = field(default_factory=dict)
    missing: set[int] = field(default_factory=set)
    dense_to: int = 0
    """Every id from 1 to here was tried."""
    links_read: bool = False
    searches: set[tuple[str, int | None, str]] = field(default_factory=set)
    """The searches answered so far (query, project, match mode): a repeat is cheap."""
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    started_at: float = field(default_factory=time.time)
    """When this discovery began (wall clock): it expires ``wiki_ttl_seconds`` later, on every replica."""

    def snapshot(self) -> ExplorationSnapshot:
        return ExplorationSnapshot(
            pages=tuple(self.pages[k] for k in sorted(self.pages)),
            missing=tuple(sorted(self.missing)),
            dense_to=self.dense_to,
            links_read=self.links_read,
            searches=tuple(sorted(self.searches, key=repr)),
            started_at=self.started_at,
        )

    def merge(self, shared: ExplorationSnapshot) -> None:
        """Add what another replica found for the same caller (pages, misses and searches only grow)."""
        for page in shared.pages:
            self.pages.setdefault(page.id, page)
        self.missing.update(shared.missing)
        self.dense_to = max(self.dense_to, shared.dense_to)
        self.links_read = self.links_read or shared.links_read
        self.searches.update(shared.searches)
        self.started_at = min(self.started_at, shared.started_at)
        self.advance()

    def tried(self, page_id: int) -> bool:
        return page_id <= self.dense_to or page_id in self.pages or page_id in self.missing

    def advance(self) -> None:
        while self.dense_to + 1 in self.pages or self.dense_to + 1 in self.missing:
            self.dense_to += 1


@dataclass(slots=True)
class _Call:
    """What one call did."""

    probes: int = 0
    failures: int = 0
    failed: set[int] = field(default_factory=set)
    link_failure: bool = False
    limited: bool = False
    """The call reached its ceiling of requests to OpenProject."""


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
        links: WikiPageLinkRepository,
        resolver: ProjectResolver,
        caches: TenantCaches,
        tenant: str,
        references: WikiReferences,
        settings: DiscoverySettings = DiscoverySettings(),
    ) -> None:
        self._pages = pages
        self._links = links
        self._resolver = resolver
        self._caches = caches
        self._tenant = tenant
        self._references = references
        self._settings = settings

    async def execute(self, request: SearchWikiPagesRequest) -> WikiSearchPage:
        query = search_query(request.query, required=False)
        mode = match_mode(request.match_mode)
        if isinstance(request.limit, bool) or not isinstance(request.limit, int) or not 1 <= request.limit <= MAX_LIMIT:
            raise InvalidArgumentError(f"limit must be between 1 and {MAX_LIMIT}, got {request.limit!r}.")
        project_id = await self._resolver.resolve(request.project_id)
        listed = await self._pages.list_pages(project_id)
        notes: list[str] = []
        if listed is not None:
            pages = tuple(sorted(listed, key=lambda p: p.id))
            with_text = sum(1 for p in pages if p.text is not None)
            coverage = WikiCoverage(len(pages), with_text, False, pages_found=len(pages), complete=True)
            failures = 0
        else:
            pages, coverage, failures = await self._discover(project_id, request, notes, query)
        limits = RankingLimits()
        tokens = TokenCache(self._caches, self._tenant)
        scorer = query_scorer(query or "", mode, limits, tokens)
        texts = bounded_texts(pages, FIELDS, limits)
        ranking, _ = await rank_read(scorer, lambda: texts, len(pages), FIELDS, key=_page_id)
        if query and mode == "fuzzy":
            # Acronyms read as their spellings and the other way round (ADRs 0046, 0050, 0060).
            reading = await read_acronyms(query, scorer, texts.distinct)
            if reading is not None:
                reader = query_scorer(reading.query, mode, None, tokens, reading.acronyms)
                ranking, _ = await rank_read(reader, lambda: texts, len(pages), FIELDS, key=_page_id)
                notes.extend(reading.notes)
        if not ranking.hits and query:
            # A long question may hold its topic in one clause (ADR 0061).
            clause = await rank_clauses(query, mode, tokens, texts, FIELDS, key=_page_id)
            if clause is not None:
                ranking, note = clause
                notes.append(note)
        ranked = ranking.hits
        notes.extend(limits.notes())
        elements = tuple(
            derive(
                WikiPageHit,
                r.record,
                score=r.score,
                matched_fields=r.matched_fields,
                snippet=next((m.snippet for m in r.matches if m.snippet), None),
            )
            for r in ranked[: request.limit]
        )
        if pages and coverage.enriched == 0:
            notes.insert(0, TITLES_ONLY)
        if failures:
            notes.append(f"{failures} wiki pages could not be read and were left out; a later call tries them again.")
        if not query and pages:
            notes.append("No query was given, so every discovered page is listed with score 0.")
        return WikiSearchPage(
            total=len(ranked),
            count=len(elements),
            limit=request.limit,
            elements=elements,
            match_mode=request.match_mode,
            degraded=failures > 0,
            enrichment_failures=failures,
            coverage=coverage,
            notes=tuple(notes) or None,
            unmatched_terms=ranking.unmatched_terms or None,
        )

    # Discovery by id --------------------------------------------------------------------------

    async def _discover(
        self, project_id: int | None, request: SearchWikiPagesRequest, notes: list[str], query: str | None
    ) -> tuple[tuple[WikiPage, ...], WikiCoverage, int]:
        key = (self._tenant, None)
        state = None if request.refresh_cache else self._caches.wiki.get(key)
        fresh = not isinstance(state, _Exploration)
        if not isinstance(state, _Exploration):
            state = _Exploration()
            self._caches.wiki.put(key, state)  # expires wiki_ttl_seconds after it was started
        call = _Call()
        async with state.lock:
            ids = await self._references.load()
            if not request.refresh_cache:
                shared = await self._caches.shared_get("wiki", self._tenant, ExplorationSnapshot)
                if isinstance(shared, ExplorationSnapshot):
                    fresh = fresh and not shared.pages and not shared.missing and not shared.dense_to
                    state.merge(shared)
            search = ((query or "").casefold(), project_id, request.match_mode)
            done = not fresh and not self._plan(state, ids, call, 1)
            repeat = search in state.searches and bool(state.pages)
            state.searches.add(search)
            warm = done or repeat
            if not warm and not state.links_read and not ids.links_missing():
                await self._harvest_links(state, ids, call)
            await self._explore(state, ids, call, warm, done, request.progress, self._resolver.lookups)
            complete = not self._plan(state, ids, call, 1)
            pages = tuple(
                sorted(
                    (p for p in state.pages.values() if project_id is None or p.project.id == project_id),
                    key=lambda p: p.id,
                )
            )
            tried = state.pages.keys() | state.missing
            coverage = WikiCoverage(
                candidates=len(pages),
                enriched=sum(1 for p in pages if p.text is not None),
                candidate_limit_reached=not complete,
                pages_found=len(state.pages),
                complete=complete,
                ids_probed=len(tried),
                probed_from=1 if state.dense_to else None,
                probed_to=state.dense_to or None,
                highest_id_probed=max(tried, default=None),
            )
            notes.extend(self._coverage_notes(state, coverage, len(pages), project_id, call))
            if self._caches.shared is not None:
                remaining = self._caches.settings.wiki_ttl_seconds - (time.time() - state.started_at)
                await self._caches.shared_put("wiki", self._tenant, state.snapshot(), ExplorationSnapshot, remaining)
                await self._references.publish()
        return pages, coverage, call.failures

    async def _harvest_links(self, state: _Exploration, ids: InstanceWikiIds, call: _Call) -> None:
        try:
            links = await self._links.list_all(self._settings.link_harvest)
        except UnsupportedError:
            ids.links_missing_since = time.monotonic()
            state.links_read = True
            return
        except OpenProjectMcpError as error:
            if error.aborts_search:
                raise
            call.link_failure = True
            return
        ids.links_missing_since = None
        ids.note_links(links)
        state.links_read = True

    def _target(self, state: _Exploration, ids: InstanceWikiIds) -> int:
        """The id up to which every id is probed."""
        highest = max(max(state.pages, default=0), ids.highest)
        target = highest + self._settings.gap
        return target if state.pages else max(target, self._settings.blind_floor)

    def _plan(self, state: _Exploration, ids: InstanceWikiIds, call: _Call, count: int) -> list[int]:
        """The next ``count`` ids to try, best first."""
        chosen: list[int] = []
        taken: set[int] = set()

        def take(page_id: int) -> bool:
            if page_id > 0 and page_id not in taken and page_id not in call.failed and not state.tried(page_id):
                chosen.append(page_id)
                taken.add(page_id)
            return len(chosen) >= count

        for page_id in sorted(ids.known | ids.hinted):
            if take(page_id):
                return chosen
        # Pages are created one after the other, so a wiki's pages sit close together: look
        # around every page found before sweeping from the start.
        anchors = sorted(p for p in state.pages.keys() | ids.known if p > state.dense_to - self._settings.gap)
        for distance in range(1, self._settings.gap + 1):
            for anchor in anchors:
                if take(anchor - distance) or take(anchor + distance):
                    return chosen
        if not state.pages and state.dense_to >= self._settings.gap:
            # Nothing among the first ids (deleted, or in projects hidden from this caller):
            # sample the range before sweeping it, so a wiki further up is found early.
            stride = self._settings.blind_stride
            for page_id in range(stride, self._settings.blind_floor + 1, stride):
                if take(page_id):
                    return chosen
        target = self._target(state, ids)
        for page_id in range(state.dense_to + 1, target + 1):
            if take(page_id):
                return chosen
        for page_id in self._settings.ladder:
            if page_id > target and take(page_id):
                return chosen
        return chosen

    def _warm_ids(self, state: _Exploration, ids: InstanceWikiIds, call: _Call, count: int) -> list[int]:
        """For a discovery with nothing left to try: a finer sample above the range (a wiki whose
        pages sit between the samples), then the first id past the range (a page created since)."""
        chosen: list[int] = []
        target = self._target(state, ids)
        top = max(self._settings.scout_top, 4 * target)
        stride = 1 << (top.bit_length() - 1)
        while stride >= self._settings.scout_stride and not chosen:
            for page_id in range(stride, top + 1, stride):
                if page_id > target and not state.tried(page_id) and page_id not in call.failed:
                    chosen.append(page_id)
                    break
            stride //= 2
        page_id = state.dense_to
        while len(chosen) < count:
            page_id += 1
            if not state.tried(page_id) and page_id not in call.failed and page_id not in chosen:
                chosen.append(page_id)
        return chosen[:count]

    async def _explore(
        self,
        state: _Exploration,
        ids: InstanceWikiIds,
        call: _Call,
        warm: bool,
        done: bool,
        progress: ProgressCallback | None,
        spent: int,
    ) -> None:
        settings = self._settings
        budget = max(0, settings.warm_probes - spent) if warm else settings.cold_probes

        async def read(page_id: int) -> None:
            try:
                page = await self._pages.get(page_id)
            except NotFoundError:
                state.missing.add(page_id)
                return
            except RequestLimitError:
                call.limited = True  # not tried: the next search tries it
                call.failed.add(page_id)
                return
            except OpenProjectMcpError as error:
                if error.aborts_search:
                    raise
                call.failures += 1
                call.failed.add(page_id)
                return
            if page.id != page_id:
                state.missing.add(page_id)  # an answer for another page: not what this id holds
            state.pages[page.id] = page
            ids.confirm(page.id)
            ids.hint(page_ids_in(page.text))

        while call.probes < budget and not call.limited:
            size = min(settings.concurrency, budget - call.probes)
            batch = self._warm_ids(state, ids, call, size) if done else self._plan(state, ids, call, size)
            if not batch:
                return
            call.probes += len(batch)
            await map_bounded(batch, settings.concurrency, read)
            state.advance()
            if progress is not None:
                await progress(
                    call.probes, budget, f"Read {call.probes} wiki page ids; {len(state.pages)} pages found so far"
                )

    def _coverage_notes(
        self, state: _Exploration, coverage: WikiCoverage, in_scope: int, project_id: int | None, call: _Call
    ) -> list[str]:
        probed = (
            f"ids 1-{state.dense_to} were all tried"
            if state.dense_to
            else "no contiguous range of ids has been tried yet"
        )
        beyond = coverage.ids_probed - state.dense_to
        if beyond > 0 and coverage.highest_id_probed:
            probed += f", and {beyond} more up to id {coverage.highest_id_probed}"
        notes: list[str] = []
        if coverage.pages_found == 0:
            notes.append(
                f"No wiki pages were found. OpenProject has no wiki page list, so pages are looked up by id: {probed}, "
                "and none of them is a page you can see."
                + (" A later call tries further ids." if not coverage.complete else "")
            )
        else:
            scope = f" ({in_scope} in this project)" if project_id is not None else ""
            notes.append(
                f"OpenProject has no wiki page list, so pages are looked up by id: {probed}; "
                f"{coverage.pages_found} pages found{scope}."
                + (
                    " More ids are left to try: another search goes on from there (repeating this one reads "
                    f"at most {self._settings.warm_probes} more ids)."
                    if not coverage.complete
                    else " Pages at ids between the sampled ones above that range would not have been seen."
                    if beyond > 0
                    else ""
                )
            )
        if call.limited:
            notes.append(
                "This call reached its ceiling of requests to OpenProject before it had tried every id it meant to; "
                "the next search goes on from there."
            )
        if call.link_failure:
            notes.append("The instance's wiki page links could not be read, so the pages they name were not looked up.")
        return notes


def _page_id(page: WikiPage) -> int:
    return page.id
