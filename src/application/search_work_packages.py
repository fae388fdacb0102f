"""Use case: ranked fuzzy search over work package subjects, descriptions and comments."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable, Sequence
from dataclasses import KW_ONLY, dataclass

from openproject_mcp.application.arguments import match_mode, page_request, search_query
from openproject_mcp.application.caching import EnrichmentCache
from openproject_mcp.application.presenters import work_package_summary
from openproject_mcp.application.project_scope import ProjectResolver
from openproject_mcp.application.search_common import (
    FULL_TEXT_LEG_SIZE,
    RECENCY_WINDOW,
    SUBJECT_LEG_SIZE,
    CandidateSet,
    all_words_term,
    enrichment_note,
    evidence_weight,
    failure_note,
    full_text_terms,
    typo_halves,
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
from openproject_mcp.application.views import Coverage, MatchModeName, WorkPackageHit, WorkPackageSearchPage, envelope
from openproject_mcp.application.wiki_knowledge import WikiReferences
from openproject_mcp.application.work_packages import EVERYWHERE, WorkPackageScope, scope_filters
from openproject_mcp.domain.entities import WorkPackage
from openproject_mcp.domain.errors import OpenProjectMcpError
from openproject_mcp.domain.queries import Filter, Page, PageRequest, SortKey
from openproject_mcp.domain.search import Field, FieldMatch
from openproject_mcp.ports import MetadataRepository, WorkPackageRepository

Comments = tuple[str, ...]

SHALLOW_FIELDS: tuple[Field[WorkPackage], ...] = (
    Field("subject", 3.0, lambda w: w.subject),
    Field("description", 1.0, lambda w: w.description),
)
_lift: Callable[[Field[WorkPackage]], Field[Enriched[WorkPackage, Comments]]] = lift
FULL_FIELDS: tuple[Field[Enriched[WorkPackage, Comments]], ...] = (
    *(_lift(f) for f in SHALLOW_FIELDS),
    Field("comments", 1.0, lambda e: e.deep),
)
NEWEST_FIRST = (SortKey("updatedAt", "desc"), SortKey("id", "asc"))
_ID_QUERY = re.compile(r"^#?(\d+)$")
_ID_IN_QUERY = re.compile(r"(?<![\w#])#(\d+)\b")
_DISPLAY_ID_IN_QUERY = re.compile(r"(?<![\w#-])([A-Za-z][A-Za-z0-9_]*-\d+)(?![\w-])")


@dataclass(frozen=True, slots=True)
class SearchWorkPackagesRequest:
    query: str
    _: KW_ONLY
    scope: WorkPackageScope = EVERYWHERE
    match_mode: MatchModeName = "fuzzy"
    offset: int = 1
    page_size: int = 20
    progress: ProgressCallback | None = None


@dataclass(frozen=True, slots=True)
class _Leg:
    label: str
    extra: tuple[Filter, ...]
    size: int
    full_text: bool


class SearchWorkPackages:
    def __init__(
        self,
        work_packages: WorkPackageRepository,
        metadata: MetadataRepository,
        projects: ProjectResolver,
        cache: EnrichmentCache[Comments] | None = None,
        settings: PipelineSettings = DEFAULT_PIPELINE,
        references: WikiReferences | None = None,
    ) -> None:
        self._work_packages = work_packages
        self._metadata = metadata
        self._projects = projects
        self._cache = cache
        self._settings = settings
        self._references = references

    async def execute(self, request: SearchWorkPackagesRequest) -> WorkPackageSearchPage:
        query = search_query(request.query, required=True)
        mode = match_mode(request.match_mode)
        page = page_request(request.offset, request.page_size)
        base = await scope_filters(request.scope, self._projects, self._metadata)
        referenced = _numeric_reference(query)
        key = _display_reference(query) if referenced is None else None
        found = await self._candidates(query, base, referenced)
        if self._references is not None:
            self._references.note_texts(w.description for w in found.items)
        notes = list(found.notes)
        # A display id is usually among the candidates, which carry theirs; otherwise it is looked up
        # while the comments are read, and asked again with the caller's scope, so it costs no wave of its own.
        named = _by_display_id(found, key) if key is not None else None
        if named is not None:
            referenced = named.id
        lookup = (
            asyncio.ensure_future(self._named_in_scope(key, base))
            if key is not None and named is None and _may_have_display_ids(found)
            else None
        )

        spec: SearchSpec[WorkPackage, Comments] = SearchSpec(
            shallow_fields=SHALLOW_FIELDS,
            full_fields=FULL_FIELDS,
            key=lambda w: w.id,
            version=lambda w: w.updated_at.isoformat() if w.updated_at else "",
            recency=lambda w: w.updated_at,
            enrich=self._comments,
            cache=self._cache,
            what="work package timelines",
        )
        try:
            result = await run_search(
                spec,
                found.items,
                query,
                mode,
                server_matches=found.server_matches,
                settings=self._settings,
                progress=request.progress,
            )
            if lookup is not None:
                looked_up, note = await lookup
                if looked_up is not None:
                    found.by_id.setdefault(looked_up.id, looked_up)
                    referenced = looked_up.id
                if note:
                    notes.append(note)
        finally:
            if lookup is not None and not lookup.done():
                lookup.cancel()
            if lookup is not None:
                await asyncio.gather(lookup, return_exceptions=True)
        if found.limit_reached:
            notes.append(
                f"The candidate window was cut: only the {RECENCY_WINDOW} most recently updated work packages in "
                "scope, plus subject and server full-text matches, were ranked. Narrow the search with projectId, "
                "status, type or assigneeId to reach older ones."
            )
        for note in (
            enrichment_note(
                result.enriched,
                result.candidates,
                "Comments",
                "comments of the others were searched only through the server's full-text search.",
            ),
            failure_note(result.failures, "comments"),
        ):
            if note:
                notes.append(note)
        notes.extend(result.notes)
        hits = _with_reference_first(result.hits, found, referenced)
        window = page.window(hits)
        elements = tuple(
            WorkPackageHit(
                work_package=work_package_summary(hit.candidate),
                score=hit.score,
                matched_fields=hit.matched_fields,
                snippet=next((m.snippet for m in hit.matches if m.snippet), None),
            )
            for hit in window.items
        )
        return WorkPackageSearchPage(
            **envelope(page, window),
            elements=elements,
            match_mode=request.match_mode,
            degraded=result.failures > 0 or found.failed_legs > 0,
            enrichment_failures=result.failures,
            coverage=Coverage(result.candidates, result.enriched, found.limit_reached),
            notes=tuple(notes) or None,
            unmatched_terms=result.unmatched_terms or None,
        )

    async def _named_in_scope(self, key: str, base: Sequence[Filter]) -> tuple[WorkPackage | None, str | None]:
        """The work package a display id names, if it is in the caller's scope (and a note if that
        could not be told)."""
        try:
            work_package = await self._work_packages.get(key)
        except OpenProjectMcpError as error:
            if error.aborts_search:
                raise
            return None, None  # not a display id here (or an older instance): the text is searched as it is
        leg = _Leg("id", (Filter("id", "=", (str(work_package.id),)),), 1, False)
        try:
            page = await self._run_leg(base, leg)
        except OpenProjectMcpError as error:
            if error.aborts_search:
                raise
            return None, _leg_failure_note(leg, error)
        return next((w for w in page.items if w.id == work_package.id), None), None

    async def _candidates(self, query: str, base: list[Filter], referenced: int | None) -> CandidateSet[WorkPackage]:
        terms = full_text_terms(query)
        every = all_words_term(terms)
        # The subject must hold each word of the value (`~`), so it gets the significant words
        # a leg sends, not the question around them ("what", "did", a "?").
        subject = every or (terms[0] if terms else query)
        legs = [_Leg("subject", (Filter("subject", "~", (subject,)),), SUBJECT_LEG_SIZE, False)]
        if referenced is not None:
            # Asked with the caller's scope, so a named work package outside it is not returned.
            legs.append(_Leg("id", (Filter("id", "=", (str(referenced),)),), 1, False))
        legs += [_Leg(term, (Filter("search", "**", (term,)),), FULL_TEXT_LEG_SIZE, True) for term in terms]
        if every is not None:
            # Every word in one text: narrow where a common word's own leg is cut at its page size.
            legs.append(_Leg(every, (Filter("search", "**", (every,)),), FULL_TEXT_LEG_SIZE, True))
        legs.append(_Leg("recent", (), RECENCY_WINDOW, False))
        found: CandidateSet[WorkPackage] = CandidateSet()
        errors: list[OpenProjectMcpError] = []
        answered = await self._send(base, legs, found, errors)
        if len(errors) == len(legs):
            raise errors[0]
        # A long word that no work package holds as typed may hold a typo: its halves are asked for
        # in one more round trip, taken only then (ADR 0062).
        halves = [
            (leg.label, parts)
            for leg, page in answered
            if leg.full_text and leg.label in terms and page.total == 0 and (parts := typo_halves(leg.label))
        ]
        if halves:
            retries = [
                _Leg(part, (Filter("search", "**", (part,)),), FULL_TEXT_LEG_SIZE, True)
                for _, parts in halves
                for part in parts
            ]
            answered += await self._send(base, retries, found, errors)
            found.notes.extend(
                f"The full-text search for {word!r} found nothing; its halves {first!r} and {second!r} were searched "
                "too, in case of a typo."
                for word, (first, second) in halves
            )
        # How many work packages are in scope: the recent leg's total (the largest total seen, if it failed).
        population = max((page.total for leg, page in answered if leg.label == "recent" or leg.full_text), default=0)
        for leg, page in answered:
            if leg.label == "recent" and page.total > len(page.items):
                found.limit_reached = True
            weight = evidence_weight(population, page.total) if leg.full_text else None
            found.add(page.items, lambda w: w.id, evidence=weight)
        found.failed_legs = len(errors)
        return found

    async def _send(
        self,
        base: Sequence[Filter],
        legs: Sequence[_Leg],
        found: CandidateSet[WorkPackage],
        errors: list[OpenProjectMcpError],
    ) -> list[tuple[_Leg, Page[WorkPackage]]]:
        """The pages of ``legs``, asked for at once; a leg that failed is noted in ``found`` and its
        error kept in ``errors``; a failure that aborts the search is raised."""
        outcomes = await asyncio.gather(*(self._run_leg(base, leg) for leg in legs), return_exceptions=True)
        answered: list[tuple[_Leg, Page[WorkPackage]]] = []
        for leg, outcome in zip(legs, outcomes, strict=True):
            if isinstance(outcome, BaseException):
                if not isinstance(outcome, OpenProjectMcpError) or outcome.aborts_search:
                    raise outcome
                errors.append(outcome)
                found.notes.append(_leg_failure_note(leg, outcome))
                continue
            answered.append((leg, outcome))
        return answered

    async def _run_leg(self, base: Sequence[Filter], leg: _Leg) -> Page[WorkPackage]:
        return await self._work_packages.list((*base, *leg.extra), NEWEST_FIRST, PageRequest(1, leg.size))

    async def _comments(self, wp: WorkPackage) -> Comments:
        comments = tuple(await self._work_packages.comments(wp.id))
        if self._references is not None:
            self._references.note_texts(comments)
        return comments


def _numeric_reference(query: str) -> int | None:
    """The work package a query names by id: the whole query (``#1234``, ``1234``) or ``#1234`` inside it."""
    text = query.strip()
    numeric = _ID_QUERY.match(text) or _ID_IN_QUERY.search(text)
    return int(numeric.group(1)) if numeric else None


def _display_reference(query: str) -> str | None:
    """The display id a query names (``DEMO-38``, or ``PROJ-42 export timeout``): its first one."""
    found = _DISPLAY_ID_IN_QUERY.search(query)
    return found.group(1) if found else None


def _by_display_id(found: CandidateSet[WorkPackage], key: str) -> WorkPackage | None:
    wanted = key.casefold()
    return next((w for w in found.items if w.display_id is not None and w.display_id.casefold() == wanted), None)


def _may_have_display_ids(found: CandidateSet[WorkPackage]) -> bool:
    """False when the candidates show the instance has no display ids (before 17.4 none carries one):
    then looking one up would only be refused."""
    return not found.by_id or any(w.display_id is not None for w in found.items)


def _with_reference_first(
    hits: Sequence[Hit[WorkPackage, Comments]], found: CandidateSet[WorkPackage], referenced: int | None
) -> list[Hit[WorkPackage, Comments]]:
    """Hits with the work package the query names by id first, scored as a perfect match."""
    if referenced is None or referenced not in found.by_id:
        return list(hits)
    named = next((h for h in hits if h.candidate.id == referenced), None)
    matches = (FieldMatch("id", 1.0, None), *(named.matches if named else ()))
    promoted = Hit(found.by_id[referenced], 1.0, matches, named.deep if named else None)
    others = [h for h in hits if h.candidate.id != referenced]
    return [promoted, *others]


def _leg_failure_note(leg: _Leg, error: OpenProjectMcpError) -> str:
    if leg.full_text:
        return (
            f"The full-text search for {leg.label!r} failed ({error.message}); records whose only match is in an "
            "older comment may be missing."
        )
    what = {"subject": "subject search", "id": "lookup by id"}.get(leg.label, "list of recently updated work packages")
    return f"The {what} failed ({error.message}); results may be incomplete."
