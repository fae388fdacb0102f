"""The results the tools return, shaped exactly as the tool contract describes them.

Field names are snake_case here; the MCP adapter writes them in camelCase and omits optional
fields that are ``None``. A tuple that the contract lists as optional is typed ``... | None``
and left ``None`` when empty, so it is omitted too.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from typing import Any, Literal, TypedDict

from openproject_mcp.domain.entities import (
    Attachment,
    NamedRef,
    Priority,
    QueryFilter,
    SortCriterion,
    Status,
    User,
    WikiPageLink,
    WorkPackageRef,
    WorkPackageType,
)
from openproject_mcp.domain.queries import Page, PageRequest, more_pages

MatchModeName = Literal["fuzzy", "exact"]
MeetingMatchType = Literal["title", "location", "agenda_item", "participant", "author", "project"]

# Long user text is cut here; the record then carries ``truncated: true``.
TEXT_LIMIT = 20_000


@dataclass(frozen=True, slots=True)
class Listing:
    """The pagination keys every list result carries (see :func:`envelope`)."""

    total: int
    count: int
    page_size: int
    offset: int
    has_more: bool


@dataclass(frozen=True, slots=True)
class ProjectSummary:
    id: int
    identifier: str
    name: str
    active: bool
    public: bool
    description: str | None = None
    parent: NamedRef | None = None
    created_at: datetime | None = None
    updated_at: datetime | None = None
    truncated: bool | None = None


@dataclass(frozen=True, slots=True)
class ProjectDetail(ProjectSummary):
    status: str | None = None
    status_explanation: str | None = None
    notes: tuple[str, ...] | None = None


@dataclass(frozen=True, slots=True)
class ProjectList(Listing):
    projects: tuple[ProjectSummary, ...]
    notes: tuple[str, ...] | None = None


@dataclass(frozen=True, slots=True)
class WorkPackageSummary:
    id: int
    subject: str
    type: str
    status: str
    project: NamedRef
    display_id: str | None = None
    priority: str | None = None
    assignee: NamedRef | None = None
    author: NamedRef | None = None
    start_date: date | None = None
    due_date: date | None = None
    percentage_done: int | None = None
    created_at: datetime | None = None
    updated_at: datetime | None = None


@dataclass(frozen=True, slots=True)
class WorkPackageDetail(WorkPackageSummary):
    description: str | None = None
    lock_version: int | None = None
    """The version an update based on this read passes as ``lockVersion`` (ADR 0076)."""
    parent: WorkPackageRef | None = None
    children: tuple[WorkPackageRef, ...] | None = None
    custom_fields: dict[str, str] | None = None
    truncated: bool | None = None
    notes: tuple[str, ...] | None = None


@dataclass(frozen=True, slots=True)
class WorkPackageList(Listing):
    work_packages: tuple[WorkPackageSummary, ...]
    notes: tuple[str, ...] | None = None


@dataclass(frozen=True, slots=True)
class ActivityView:
    id: int
    version: int
    created_at: datetime
    details: tuple[str, ...]
    is_comment: bool
    user: NamedRef | None = None
    comment: str | None = None
    score: float | None = None
    snippet: str | None = None
    truncated: bool | None = None


@dataclass(frozen=True, slots=True)
class ActivityList:
    work_package_id: int
    activities: tuple[ActivityView, ...]
    total: int
    count: int
    match_mode: MatchModeName | None = None
    notes: tuple[str, ...] | None = None


@dataclass(frozen=True, slots=True)
class Coverage:
    candidates: int
    enriched: int
    candidate_limit_reached: bool


@dataclass(frozen=True, slots=True)
class WorkPackageHit:
    work_package: WorkPackageSummary
    score: float
    matched_fields: tuple[str, ...]
    snippet: str | None = None


@dataclass(frozen=True, slots=True)
class SearchPage(Listing):
    """A page of ranked hits, with what the search could and could not read.

    unmatchedTerms lists the query words (folded: lower case, accents removed) that no candidate
    matched in any form; the hits were ranked on the other words. Rephrase or drop them.
    """

    elements: tuple[Any, ...]  # each search names its hits' type
    match_mode: MatchModeName
    degraded: bool
    enrichment_failures: int
    coverage: Coverage | None = None
    notes: tuple[str, ...] | None = None
    unmatched_terms: tuple[str, ...] | None = None


@dataclass(frozen=True, slots=True)
class WorkPackageSearchPage(SearchPage):
    elements: tuple[WorkPackageHit, ...]


@dataclass(frozen=True, slots=True)
class SavedQuerySummary:
    id: int
    name: str
    public: bool
    starred: bool | None = None
    project: NamedRef | None = None


@dataclass(frozen=True, slots=True)
class SavedQueryList(Listing):
    queries: tuple[SavedQuerySummary, ...]
    notes: tuple[str, ...] | None = None


@dataclass(frozen=True, slots=True)
class SavedQueryDefinition:
    id: int
    name: str
    public: bool
    filters: tuple[QueryFilter, ...]
    columns: tuple[str, ...]
    sort_by: tuple[SortCriterion, ...]
    starred: bool | None = None
    project: NamedRef | None = None


@dataclass(frozen=True, slots=True)
class SavedQueryResult:
    query: SavedQueryDefinition
    results: WorkPackageList
    notes: tuple[str, ...] | None = None


@dataclass(frozen=True, slots=True)
class TypeList:
    types: tuple[WorkPackageType, ...]
    notes: tuple[str, ...] | None = None


@dataclass(frozen=True, slots=True)
class StatusList:
    statuses: tuple[Status, ...]
    notes: tuple[str, ...] | None = None


@dataclass(frozen=True, slots=True)
class PriorityList:
    priorities: tuple[Priority, ...]
    notes: tuple[str, ...] | None = None


@dataclass(frozen=True, slots=True)
class UserList(Listing):
    users: tuple[User, ...]
    notes: tuple[str, ...] | None = None


@dataclass(frozen=True, slots=True)
class TagCount:
    name: str
    endpoint_count: int


@dataclass(frozen=True, slots=True)
class ApiSpecView:
    """One of the views of the instance's OpenAPI document; only the keys of that view are set."""

    title: str | None = None
    version: str | None = None
    total_paths: int | None = None
    tags: tuple[TagCount, ...] | None = None
    available_paths: tuple[str, ...] | None = None
    instructions: str | None = None
    path: str | None = None
    operations: dict[str, Any] | None = None
    tag: str | None = None
    paths: tuple[str, ...] | None = None
    schema_name: str | None = None
    schema: dict[str, Any] | None = None
    spec: dict[str, Any] | None = None
    notes: tuple[str, ...] | None = None


@dataclass(frozen=True, slots=True)
class MeetingSummary:
    id: int
    title: str
    start_time: datetime
    project: NamedRef
    end_time: datetime | None = None
    duration: int | None = None
    location: str | None = None
    state: str | None = None
    author: NamedRef | None = None


@dataclass(frozen=True, slots=True)
class MeetingList(Listing):
    meetings: tuple[MeetingSummary, ...]
    notes: tuple[str, ...] | None = None


@dataclass(frozen=True, slots=True)
class AgendaItemView:
    id: int
    title: str
    position: int
    outcomes: tuple[str, ...]
    notes: str | None = None
    duration_in_minutes: int | None = None
    work_package: WorkPackageRef | None = None
    truncated: bool | None = None


@dataclass(frozen=True, slots=True)
class MeetingDetail(MeetingSummary):
    """One meeting. ``agendaItems`` are the items on its agenda, never its backlog items;
    ``backlogItems`` are the items of the meeting's backlog section (OpenProject 17.6+), topics kept
    for a later meeting and not on this agenda, absent when there are none or the instance does not
    tell them apart. ``notes`` says what this OpenProject version could not provide."""

    participants: tuple[NamedRef, ...] | None = None
    agenda_items: tuple[AgendaItemView, ...] | None = None
    backlog_items: tuple[AgendaItemView, ...] | None = None
    notes: tuple[str, ...] | None = None


@dataclass(frozen=True, slots=True)
class MatchedAgendaItem:
    id: int
    title: str
    snippet: str | None = None


@dataclass(frozen=True, slots=True)
class MeetingHit:
    meeting: MeetingSummary
    match_type: MeetingMatchType
    score: float
    matched_fields: tuple[str, ...]
    matched_agenda_items: tuple[MatchedAgendaItem, ...] | None = None
    snippet: str | None = None


@dataclass(frozen=True, slots=True)
class MeetingSearchPage(SearchPage):
    elements: tuple[MeetingHit, ...]


@dataclass(frozen=True, slots=True)
class WikiPageDetail:
    id: int
    title: str
    project: NamedRef
    attachments: tuple[Attachment, ...]
    text: str | None = None
    updated_at: datetime | None = None
    truncated: bool | None = None
    notes: tuple[str, ...] | None = None


@dataclass(frozen=True, slots=True)
class WikiPageHit:
    id: int
    title: str
    project: NamedRef
    score: float
    matched_fields: tuple[str, ...]
    snippet: str | None = None


@dataclass(frozen=True, slots=True)
class WikiCoverage:
    """What a wiki search could look at.

    ``candidates`` pages (in scope) were found, ``enriched`` of them with their text.
    Where pages are found by id, every id from ``probed_from`` to ``probed_to`` was tried,
    ``ids_probed`` ids in all (some sampled above ``probed_to``, up to ``highest_id_probed``),
    and ``pages_found`` pages (in every project) turned up. ``complete`` is false while the
    discovery has ids left to try: a later call goes on from there
    (``candidate_limit_reached`` is its opposite, as in the other searches).
    """

    candidates: int
    enriched: int
    candidate_limit_reached: bool
    pages_found: int
    complete: bool
    ids_probed: int = 0
    probed_from: int | None = None
    probed_to: int | None = None
    highest_id_probed: int | None = None


@dataclass(frozen=True, slots=True)
class WikiSearchPage:
    """Ranked wiki pages, with what the search could and could not read.

    unmatchedTerms lists the query words (folded: lower case, accents removed) that no page
    matched in any form; the pages were ranked on the other words. Rephrase or drop them.
    """

    total: int
    count: int
    limit: int
    elements: tuple[WikiPageHit, ...]
    match_mode: MatchModeName
    degraded: bool
    enrichment_failures: int
    coverage: WikiCoverage | None = None
    notes: tuple[str, ...] | None = None
    unmatched_terms: tuple[str, ...] | None = None


@dataclass(frozen=True, slots=True)
class WikiPageLinkList(Listing):
    links: tuple[WikiPageLink, ...]
    notes: tuple[str, ...] | None = None


class Paging(TypedDict):
    """The fields of :class:`Listing`, typed, for ``View(**envelope(...), ...)``."""

    total: int
    count: int
    page_size: int
    offset: int
    has_more: bool


def envelope(requested: PageRequest, page: Page[Any]) -> Paging:
    """The pagination keys every list result carries, for the requested page of a collection."""
    return Paging(
        total=page.total,
        count=len(page.items),
        page_size=requested.page_size,
        offset=requested.offset,
        has_more=more_pages(requested.offset, requested.page_size, page.total),
    )


def cut_text(text: str | None) -> tuple[str | None, bool]:
    """User text cut at :data:`TEXT_LIMIT`, and whether it was cut."""
    if text is None or len(text) <= TEXT_LIMIT:
        return text, False
    return text[:TEXT_LIMIT], True


class TextCutter:
    """Cuts every user-written text of one record at :data:`TEXT_LIMIT`, remembering whether it did.

    ``truncated`` is then ``True`` or ``None`` (omitted), ready for the record's field.
    """

    __slots__ = ("_cut",)

    def __init__(self) -> None:
        self._cut = False

    def __call__(self, text: str | None) -> str | None:
        kept, cut = cut_text(text)
        self._cut = self._cut or cut
        return kept

    def all(self, texts: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(self(t) or "" for t in texts)

    @property
    def truncated(self) -> bool | None:
        return True if self._cut else None
