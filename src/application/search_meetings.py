"""Use case: ranked fuzzy search over meetings, their agenda items, outcomes and people."""

from __future__ import annotations

import asyncio
import dataclasses
import math
from collections.abc import Callable
from dataclasses import KW_ONLY, dataclass
from datetime import UTC

from openproject_mcp.application.arguments import match_mode, page_request, search_query
from openproject_mcp.application.caching import EnrichmentCache
from openproject_mcp.application.presenters import meeting_summary
from openproject_mcp.application.project_scope import ProjectResolver
from openproject_mcp.application.search_common import (
    FULL_TEXT_LEG_SIZE,
    CandidateSet,
    enrichment_note,
    evidence_weight,
    failure_note,
    full_text_terms,
)
from openproject_mcp.application.search_pipeline import (
    DEFAULT_PIPELINE,
    Enriched,
    Hit,
    PipelineSettings,
    ProgressCallback,
    SearchSpec,
    lift,
    run_search,
)
from openproject_mcp.application.views import (
    Coverage,
    MatchedAgendaItem,
    MatchModeName,
    MeetingHit,
    MeetingMatchType,
    MeetingSearchPage,
    envelope,
)
from openproject_mcp.domain.capabilities import InstanceCapabilities
from openproject_mcp.domain.entities import AgendaItem, Meeting, MeetingDetails, NamedRef
from openproject_mcp.domain.errors import InvalidQueryError, OpenProjectMcpError
from openproject_mcp.domain.queries import MeetingQuery, Page, PageRequest
from openproject_mcp.domain.search import Field
from openproject_mcp.domain.search.dates import date_names, date_words
from openproject_mcp.ports import CapabilityRepository, MeetingRepository

# Meetings are far fewer than work packages and ranked on short list fields, so the window is
# wider: one request of 500 covers a typical instance's whole history (ADR 0035).
CANDIDATE_LIMIT = 500


def _names(people: tuple[NamedRef, ...] | None) -> tuple[str, ...] | None:
    return tuple([p.name for p in people]) if people else None


# Weighed lightly: the date helps the words of a question that names it, never answers alone.
DATE_WEIGHT = 0.3


def date_field(named: dict[str, str]) -> Field[Meeting] | None:
    """A field holding, as the query spells them, the date words of ``named`` a meeting's start (UTC)
    answers, nothing else: so no other query word meets a date word as a typo or a part (``say`` is
    not ``May``); ``None`` when the query names no date (ADR 0070)."""
    if not named:
        return None

    def words(meeting: Meeting) -> str | None:
        held = date_names(meeting.start_time.astimezone(UTC))
        return " ".join(named[word] for word in held if word in named) or None

    return Field("date", DATE_WEIGHT, words)


# Where the list carries the participants (17.6+), they are ranked with the list, so a meeting
# found by a person's name needs no agenda read (ADR 0043). A question naming a date also ranks the
# meetings' dates (``date_field``); a meeting matching by its date alone is no answer (ADR 0070).
SHALLOW_FIELDS: tuple[Field[Meeting], ...] = (
    Field("title", 3.0, lambda m: m.title),
    Field("location", 1.0, lambda m: m.location),
    Field("participants", 1.0, lambda m: _names(m.participants)),
    Field("author", 0.5, lambda m: m.author.name if m.author else None),
    Field("project", 0.5, lambda m: m.project.name),
)


def agenda(details: MeetingDetails) -> tuple[AgendaItem, ...]:
    """Agenda items in the order the list-valued fields below index them."""
    return tuple(sorted(details.agenda_items or (), key=lambda i: (i.position, i.id)))


_lift: Callable[[Field[Meeting]], Field[Enriched[Meeting, MeetingDetails]]] = lift
_title, _location, _participants, _author, _project = (_lift(f) for f in SHALLOW_FIELDS)
FULL_FIELDS: tuple[Field[Enriched[Meeting, MeetingDetails]], ...] = (
    _title,
    _location,
    Field("agendaItemTitle", 2.0, lambda e: tuple(i.title for i in agenda(e.deep))),
    Field("agendaItemNotes", 1.5, lambda e: tuple(i.notes or "" for i in agenda(e.deep))),
    Field("outcomes", 1.5, lambda e: tuple("\n".join(i.outcomes) for i in agenda(e.deep))),
    _participants,
    _author,
    _project,
)
AGENDA_FIELDS = frozenset({"agendaItemTitle", "agendaItemNotes", "outcomes"})
MATCH_TYPES: dict[str, MeetingMatchType] = {
    "title": "title",
    "location": "location",
    "agendaItemTitle": "agenda_item",
    "agendaItemNotes": "agenda_item",
    "outcomes": "agenda_item",
    "participants": "participant",
    "author": "author",
    "project": "project",
}


@dataclass(frozen=True, slots=True)
class SearchMeetingsRequest:
    query: str
    _: KW_ONLY
    project_id: int | str | None = None
    match_mode: MatchModeName = "fuzzy"
    offset: int = 1
    page_size: int = 20
    progress: ProgressCallback | None = None


class SearchMeetings:
    def __init__(
        self,
        meetings: MeetingRepository,
        capabilities: CapabilityRepository,
        projects: ProjectResolver,
        cache: EnrichmentCache[MeetingDetails] | None = None,
        settings: PipelineSettings = DEFAULT_PIPELINE,
    ) -> None:
        self._meetings = meetings
        self._capabilities = capabilities
        self._projects = projects
        self._cache = cache
        self._settings = settings
        self._outcomes_unreadable = False

    async def execute(self, request: SearchMeetingsRequest) -> MeetingSearchPage:
        query = search_query(request.query, required=True)
        mode = match_mode(request.match_mode)
        page = page_request(request.offset, request.page_size)
        project_id = await self._projects.resolve(request.project_id)
        base = MeetingQuery(project_id=project_id, order="newest_first")
        # The window needs no capability: it is read while they are found out (the first call only).
        recent = asyncio.ensure_future(self._window(base))
        try:
            capabilities = await self._capabilities.capabilities()
            found = await self._candidates(query, base, capabilities, recent)
        finally:
            recent.cancel()
            await asyncio.gather(recent, return_exceptions=True)
        notes = list(found.notes)

        # The participants come with the list (ADR 0043): only an agenda is worth a read in depth.
        deep_available = capabilities.agenda_items
        dated = date_field(date_words(query)) if mode == "fuzzy" else None
        spec: SearchSpec[Meeting, MeetingDetails] = SearchSpec(
            shallow_fields=SHALLOW_FIELDS if dated is None else (*SHALLOW_FIELDS, dated),
            full_fields=FULL_FIELDS if dated is None else (*FULL_FIELDS, _lift(dated)),
            key=lambda m: m.id,
            version=lambda m: (m.updated_at or m.start_time).isoformat(),
            recency=lambda m: m.updated_at or m.start_time,
            enrich=self._details,
            cache=self._cache,
            what="meeting agendas",
            reads_further=not capabilities.meeting_search_filter,
        )
        settings = self._settings if deep_available else PipelineSettings(0, 1, self._settings.min_score)
        result = await run_search(
            spec,
            found.items,
            query,
            mode,
            server_matches=found.server_matches,
            settings=settings,
            progress=request.progress,
        )
        if found.limit_reached:
            notes.append(
                f"The candidate window was cut: the {CANDIDATE_LIMIT} most recent meetings in scope, plus the "
                "server's full-text matches, were ranked. Pass projectId to reach older meetings."
            )
        if not capabilities.agenda_items:
            notes.append(
                "This OpenProject version has no agenda item API (it arrived in 17.4): only titles, locations, "
                "authors, projects"
                + (" and participants" if capabilities.meeting_participants else "")
                + " were searched."
            )
        if self._outcomes_unreadable or any(
            h.deep is not None and h.deep.agenda_items is not None and not h.deep.outcomes_readable for h in result.hits
        ):
            notes.append(
                "This OpenProject version does not show agenda item outcomes through its API (they arrived in "
                "17.6): decisions recorded as outcomes were not searched."
            )
        # A meeting matching by its date alone is no answer: the date only helps other words (ADR 0070).
        answer = [h for h in result.hits if any(m.field != "date" for m in h.matches)]
        if deep_available:
            for note in (
                enrichment_note(
                    result.enriched,
                    result.candidates,
                    "Agendas",
                    "the agendas of the others were searched only through the server's full-text search."
                    if capabilities.meeting_search_filter
                    else "the agendas of the others were not searched.",
                    result.next_reads,
                    bool(answer),
                ),
                failure_note(result.failures, "agenda items"),
            ):
                if note:
                    notes.append(note)
        notes.extend(result.notes)
        window = page.window(answer)
        elements = tuple(_hit_view(hit) for hit in window.items)
        return MeetingSearchPage(
            **envelope(page, window),
            elements=elements,
            match_mode=request.match_mode,
            degraded=result.failures > 0 or found.failed_legs > 0,
            enrichment_failures=result.failures,
            coverage=Coverage(result.candidates, result.enriched, found.limit_reached),
            notes=tuple(notes) or None,
            unmatched_terms=result.unmatched_terms or None,
        )

    async def _candidates(
        self,
        query: str,
        base: MeetingQuery,
        capabilities: InstanceCapabilities,
        window: asyncio.Future[CandidateSet[Meeting]],
    ) -> CandidateSet[Meeting]:
        terms = full_text_terms(query) if capabilities.meeting_search_filter else ()
        # The full-text legs do not depend on the list, so they run while it is read.
        legs = asyncio.ensure_future(
            asyncio.gather(*(self._full_text(base, term) for term in terms), return_exceptions=True)
        )
        try:
            found = await window
            outcomes = await legs
        finally:
            for task in (window, legs):
                task.cancel()
            await asyncio.gather(window, legs, return_exceptions=True)

        if not capabilities.meeting_search_filter:
            if found.limit_reached:
                found.notes.append(
                    "This OpenProject version has no meeting full-text search, so older meetings were not searched."
                )
            return found
        population = max([len(found.by_id), *(o.total for o in outcomes if isinstance(o, Page))])
        for term, outcome in zip(terms, outcomes, strict=True):
            if isinstance(outcome, InvalidQueryError):
                found.notes.append(
                    "This OpenProject instance refused the meetings full-text filter, so meetings outside the "
                    "candidate window were not searched in their agendas."
                )
                break
            if isinstance(outcome, BaseException):
                if not isinstance(outcome, OpenProjectMcpError) or outcome.aborts_search:
                    raise outcome
                found.failed_legs += 1
                found.notes.append(f"The full-text search for {term!r} failed ({outcome.message}).")
                continue
            found.add(outcome.items, lambda m: m.id, evidence=evidence_weight(population, outcome.total))
        return found

    async def _window(self, base: MeetingQuery) -> CandidateSet[Meeting]:
        """The most recent meetings in scope, up to the candidate limit.

        One request covers the window unless the instance caps pageSize lower; then the other
        pages are read concurrently, now that the first one gave the total and the real size.
        """
        found: CandidateSet[Meeting] = CandidateSet()
        first = await self._meetings.list(base, PageRequest(1, CANDIDATE_LIMIT))
        found.add(first.items, lambda m: m.id)
        size = max(1, first.page_size)
        pages = math.ceil(min(first.total, CANDIDATE_LIMIT) / size)
        rest = await asyncio.gather(*(self._meetings.list(base, PageRequest(n, size)) for n in range(2, pages + 1)))
        for more in rest:
            found.add(more.items, lambda m: m.id)
        if len(found.by_id) > CANDIDATE_LIMIT:
            found.by_id = dict(list(found.by_id.items())[:CANDIDATE_LIMIT])
        found.limit_reached = first.total > CANDIDATE_LIMIT
        return found

    async def _full_text(self, base: MeetingQuery, term: str) -> Page[Meeting]:
        return await self._meetings.list(dataclasses.replace(base, text=term), PageRequest(1, FULL_TEXT_LEG_SIZE))

    async def _details(self, meeting: Meeting) -> MeetingDetails:
        details = await self._meetings.details(meeting.id)
        if details.agenda_items is not None and not details.outcomes_readable:
            self._outcomes_unreadable = True
        return details


def _hit_view(hit: Hit[Meeting, MeetingDetails]) -> MeetingHit:
    # The date is no match type of its own: the first match of another field names it.
    best = next((m.field for m in hit.matches if m.field in MATCH_TYPES), "title")
    items: dict[int, MatchedAgendaItem] = {}
    order: dict[int, float] = {}
    listed = agenda(hit.deep) if hit.deep is not None else ()
    for match in hit.matches:
        if match.field not in AGENDA_FIELDS:
            continue
        for item_match in match.items:
            if item_match.index >= len(listed):
                continue
            item = listed[item_match.index]
            if item.id not in order or item_match.score > order[item.id]:
                items[item.id] = MatchedAgendaItem(item.id, item.title, item_match.snippet)
                order[item.id] = item_match.score
    matched = tuple(items[i] for i in sorted(items, key=lambda i: (-order[i], i)))
    return MeetingHit(
        meeting=meeting_summary(hit.candidate),
        match_type=MATCH_TYPES.get(best, "title"),
        score=hit.score,
        matched_fields=hit.matched_fields,
        matched_agenda_items=matched or None,
        snippet=next((m.snippet for m in hit.matches if m.snippet), None),
    )
