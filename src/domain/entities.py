"""The entities the tools read. Frozen and slotted: built once by an adapter, never changed.

Timestamps are timezone-aware ``datetime`` values (UTC); calendar dates are ``date`` values.
Optional attributes are ``None`` when OpenProject has no value, and tuples that an instance
cannot provide at all (agenda items on 17.3, for example) are ``None`` rather than empty, so
"nothing there" and "not available here" stay distinguishable.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime


@dataclass(frozen=True, slots=True)
class NamedRef:
    """A link to another resource by id, with its display name (a person, a project...)."""

    id: int
    name: str


@dataclass(frozen=True, slots=True)
class WorkPackageRef:
    """A link to a work package by id, with its subject."""

    id: int
    subject: str


@dataclass(frozen=True, slots=True)
class WikiPageRef:
    """A link to a wiki page by id, with its title."""

    id: int
    title: str


@dataclass(frozen=True, slots=True)
class Project:
    id: int
    identifier: str
    name: str
    active: bool
    public: bool
    description: str | None = None
    parent: NamedRef | None = None
    created_at: datetime | None = None
    updated_at: datetime | None = None
    status: str | None = None
    status_explanation: str | None = None


@dataclass(frozen=True, slots=True)
class WorkPackage:
    id: int
    subject: str
    type: str
    status: str
    project: NamedRef
    display_id: str | None = None
    description: str | None = None
    priority: str | None = None
    assignee: NamedRef | None = None
    author: NamedRef | None = None
    parent: WorkPackageRef | None = None
    children: tuple[WorkPackageRef, ...] | None = None
    start_date: date | None = None
    due_date: date | None = None
    percentage_done: int | None = None
    created_at: datetime | None = None
    updated_at: datetime | None = None
    custom_fields: tuple[tuple[str, str], ...] = ()
    lock_version: int | None = None
    """OpenProject's optimistic-locking counter: an update must name the version it was based on."""
    estimated_hours: float | None = None


@dataclass(frozen=True, slots=True)
class Activity:
    """One entry of a work package's timeline: a comment, a change, or both."""

    id: int
    version: int
    created_at: datetime
    user: NamedRef | None = None
    comment: str | None = None
    details: tuple[str, ...] = ()
    internal: bool = False
    """An internal comment (OpenProject 16.0+): visible only to those allowed to see internal comments."""

    @property
    def is_comment(self) -> bool:
        return bool(self.comment and self.comment.strip())


@dataclass(frozen=True, slots=True)
class QueryFilter:
    field: str
    operator: str
    values: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class SortCriterion:
    attribute: str
    direction: str  # "asc" | "desc"


@dataclass(frozen=True, slots=True)
class SavedQuery:
    id: int
    name: str
    public: bool
    starred: bool | None = None
    project: NamedRef | None = None
    filters: tuple[QueryFilter, ...] = ()
    columns: tuple[str, ...] = ()
    sort_by: tuple[SortCriterion, ...] = ()


@dataclass(frozen=True, slots=True)
class WorkPackageType:
    id: int
    name: str
    is_milestone: bool
    is_default: bool | None = None
    color: str | None = None


@dataclass(frozen=True, slots=True)
class Status:
    id: int
    name: str
    is_closed: bool
    is_default: bool | None = None
    color: str | None = None


@dataclass(frozen=True, slots=True)
class Priority:
    id: int
    name: str
    is_active: bool
    is_default: bool | None = None
    color: str | None = None


@dataclass(frozen=True, slots=True)
class User:
    id: int
    name: str
    login: str | None = None
    email: str | None = None
    status: str | None = None


@dataclass(frozen=True, slots=True)
class Meeting:
    """What a meeting list returns: cheap to have for every candidate of a search."""

    id: int
    title: str
    start_time: datetime
    project: NamedRef
    end_time: datetime | None = None
    duration_minutes: int | None = None
    location: str | None = None
    state: str | None = None
    author: NamedRef | None = None
    created_at: datetime | None = None
    updated_at: datetime | None = None
    participants: tuple[NamedRef, ...] | None = None
    """The participants where the list carries them (OpenProject 17.6+ renders a list's meetings as
    it renders one meeting); ``None`` where it does not."""


@dataclass(frozen=True, slots=True)
class AgendaItem:
    id: int
    title: str
    position: int
    notes: str | None = None
    duration_in_minutes: int | None = None
    work_package: WorkPackageRef | None = None
    outcomes: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class MeetingDetails:
    """The deep part of a meeting. ``None`` means the instance cannot provide that part."""

    meeting_id: int
    participants: tuple[NamedRef, ...] | None
    agenda_items: tuple[AgendaItem, ...] | None
    backlog_items: tuple[AgendaItem, ...] | None = None
    """Items in the meeting's backlog (OpenProject 17.6+ lists them with the agenda items, in a
    backlog section): topics kept for later, not on this meeting's agenda. ``None`` where the
    instance does not tell them apart."""
    outcomes_readable: bool = True
    """Whether the instance shows agenda items' outcomes at all (the outcomes API is 17.6's); when
    not, an item's empty ``outcomes`` means "unknown", not "none"."""
    outcomes_cut: bool = False
    """Some outcomes were only linked and were left unread (a bounded number is followed per meeting)."""


@dataclass(frozen=True, slots=True)
class WikiPage:
    """A wiki page. ``text`` is ``None`` where the instance exposes no page bodies."""

    id: int
    title: str
    project: NamedRef
    text: str | None = None
    updated_at: datetime | None = None


@dataclass(frozen=True, slots=True)
class Attachment:
    id: int
    file_name: str
    file_size: int
    content_type: str
    download_url: str


@dataclass(frozen=True, slots=True, repr=False)
class AttachmentContent:
    """The bytes of one attachment, and the media type they were served with."""

    data: bytes
    content_type: str

    def __repr__(self) -> str:
        return f"AttachmentContent({len(self.data)} bytes, {self.content_type!r})"


@dataclass(frozen=True, slots=True)
class WikiPageLink:
    """A link between a work package and a page of a wiki provider (OpenProject's own wiki, XWiki...).

    ``identifier`` is the page as the provider names it: for OpenProject's own wiki the page id,
    for XWiki a page reference. ``provider`` is the provider's display name and ``provider_id``
    its universal identifier. ``link_type`` is ``relation`` (added by hand) or ``inline`` (a
    mention in a text). ``wiki_page`` is set once the link is known to point at a page of
    OpenProject's own wiki that the caller can see.
    """

    id: int
    identifier: str | None = None
    provider: str | None = None
    link_type: str | None = None
    wiki_page: WikiPageRef | None = None
    url: str | None = None
    provider_id: str | None = None
    work_package: WorkPackageRef | None = None


@dataclass(frozen=True, slots=True)
class InstanceFacts:
    """What an instance says about itself and about whose token this is.

    ``version`` is ``None`` where the instance does not show it (OpenProject shows its version to
    administrators only); ``current_user`` is ``None`` for an anonymous caller; ``admin`` is
    ``None`` where the instance does not say.
    """

    name: str
    version: str | None
    current_user: User | None
    admin: bool | None = None
    url: str | None = None
    """Where the instance is served (``None`` for an in-memory dataset)."""
