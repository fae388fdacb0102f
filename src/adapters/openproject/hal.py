"""OpenProject's HAL+JSON resources as typed msgspec structs.

Decoding is tolerant where OpenProject varies between versions and strict where a value would
be wrong: unknown fields are skipped, almost every field is optional (``None`` or empty when
absent or ``null``), links may be ``{"href": null}``, and collections are never discriminated by
``_type`` (``Collection``, ``WorkPackageCollection``... differ between endpoints and versions).
A value of the wrong JSON type is an error, reported as :class:`PayloadError`.

The structs encode as well as they decode (``msgspec.json.encode``), with OpenProject's field
names, so a fake OpenProject server can render its payloads with the very types read here.
"""

from __future__ import annotations

import functools
from datetime import date, datetime
from typing import Any, Generic, TypeVar

import msgspec

T = TypeVar("T")
E = TypeVar("E")


class PayloadError(ValueError):
    """A payload that does not have the shape the adapter needs."""


@functools.cache
def _decoder(tp: Any) -> msgspec.json.Decoder[Any]:
    return msgspec.json.Decoder(tp)


# Untyped documents (the OpenAPI description, a work package's custom fields) are walked by
# recursive code later on; OpenProject's own nest about 20 levels deep.
MAX_UNTYPED_DEPTH = 128


def decode(data: bytes, tp: type[T]) -> T:
    """``data`` decoded as ``tp``; :class:`PayloadError` if it is not JSON of that shape."""
    try:
        spec: Any = tp  # a generic alias such as Collection[WorkPackageHal] is hashable too
        result: T = _decoder(spec).decode(data)
    except msgspec.ValidationError as exc:
        raise PayloadError(f"unexpected content ({exc})") from exc
    except msgspec.DecodeError as exc:
        raise PayloadError(f"not valid JSON ({exc})") from exc
    except RecursionError as exc:
        raise PayloadError("malformed: the JSON is nested too deeply") from exc
    if isinstance(result, dict | list):
        check_depth(result, MAX_UNTYPED_DEPTH)
    return result


def check_depth(value: object, limit: int) -> None:
    """:class:`PayloadError` if ``value`` nests dicts and lists more than ``limit`` levels deep."""
    stack: list[tuple[object, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if depth > limit:
            raise PayloadError(f"malformed: the JSON is nested more than {limit} levels deep")
        if isinstance(item, dict):
            stack.extend((child, depth + 1) for child in item.values() if isinstance(child, dict | list))
        elif isinstance(item, list):
            stack.extend((child, depth + 1) for child in item if isinstance(child, dict | list))


def encode(value: object) -> bytes:
    """JSON for a struct of this module (for fakes and tests)."""
    return msgspec.json.encode(value)


class _Hal(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True, rename="camel"):
    """Base of every struct here: immutable, keyword-built, OpenProject's camelCase names."""


class Link(_Hal, frozen=True, kw_only=True):
    href: str | None = None  # OpenProject sends {"href": null} for an empty association
    title: str | None = None
    templated: bool = False
    method: str | None = None


class Formattable(_Hal, frozen=True, kw_only=True):
    """Formatted text: ``raw`` is what the user typed (markdown), ``html`` its rendering."""

    format: str = "markdown"
    raw: str | None = None
    html: str | None = None


class SelfLinks(_Hal, frozen=True, kw_only=True):
    self_: Link | None = msgspec.field(name="self", default=None)


class CollectionEmbedded(_Hal, Generic[E], frozen=True, kw_only=True):
    elements: list[E] = []


class Collection(_Hal, Generic[E], frozen=True, kw_only=True):
    """Any collection: ``_type`` varies (``Collection``, ``WorkPackageCollection``...) and is not checked.

    ``pageSize``/``offset`` are present on paginated collections only.
    """

    type_: str | None = msgspec.field(name="_type", default=None)
    total: int | None = None
    count: int | None = None
    page_size: int | None = None
    offset: int | None = None
    # Required unless the collection says it is empty: without its elements a collection is a
    # malformed answer, not an empty page (it would read "total 3" over nothing).
    embedded: CollectionEmbedded[E] | None = msgspec.field(name="_embedded", default=None)
    links: SelfLinks = msgspec.field(name="_links", default_factory=SelfLinks)

    def __post_init__(self) -> None:
        if self.embedded is None and not (self.count == 0 or (self.count is None and self.total == 0)):
            raise ValueError("a collection without `_embedded` (its elements are missing)")

    @property
    def elements(self) -> list[E]:
        return self.embedded.elements if self.embedded is not None else []


# Projects ------------------------------------------------------------------------------------


class ProjectLinks(_Hal, frozen=True, kw_only=True):
    self_: Link | None = msgspec.field(name="self", default=None)
    parent: Link | None = None
    status: Link | None = None


class ProjectHal(_Hal, frozen=True, kw_only=True):
    type_: str | None = msgspec.field(name="_type", default=None)
    id: int
    identifier: str | None = None
    name: str | None = None
    active: bool | None = None
    public: bool | None = None
    description: Formattable | None = None
    status_explanation: Formattable | None = None
    created_at: datetime | None = None
    updated_at: datetime | None = None
    links: ProjectLinks = msgspec.field(name="_links", default_factory=ProjectLinks)


# Work packages -------------------------------------------------------------------------------


class WorkPackageLinks(_Hal, frozen=True, kw_only=True):
    self_: Link | None = msgspec.field(name="self", default=None)
    schema: Link | None = None
    project: Link | None = None
    type: Link | None = None
    status: Link | None = None
    priority: Link | None = None
    author: Link | None = None
    assignee: Link | None = None
    responsible: Link | None = None
    parent: Link | None = None
    children: list[Link] | None = None


class WorkPackageHal(_Hal, frozen=True, kw_only=True):
    type_: str | None = msgspec.field(name="_type", default=None)
    id: int
    display_id: str | int | None = None  # 17.4+: "DEMO-38" on instances with project-based ids
    lock_version: int | None = None
    estimated_time: str | None = None  # ISO 8601 duration (PT1H30M)
    subject: str | None = None
    description: Formattable | None = None
    start_date: date | None = None
    due_date: date | None = None
    milestone_date: date | None = msgspec.field(name="date", default=None)  # a milestone's only date
    percentage_done: float | None = None
    created_at: datetime | None = None
    updated_at: datetime | None = None
    links: WorkPackageLinks = msgspec.field(name="_links", default_factory=WorkPackageLinks)


class ActivityLinks(_Hal, frozen=True, kw_only=True):
    self_: Link | None = msgspec.field(name="self", default=None)
    user: Link | None = None
    work_package: Link | None = None


class ActivityHal(_Hal, frozen=True, kw_only=True):
    """``_type`` is ``Activity`` or ``Activity::Comment``."""

    type_: str | None = msgspec.field(name="_type", default=None)
    id: int
    version: int | None = None
    comment: Formattable | None = None
    details: list[Formattable] = []
    internal: bool | None = None
    created_at: datetime | None = None
    updated_at: datetime | None = None
    links: ActivityLinks = msgspec.field(name="_links", default_factory=ActivityLinks)


# Saved queries -------------------------------------------------------------------------------


class QueryFilterLinks(_Hal, frozen=True, kw_only=True):
    filter: Link | None = None
    operator: Link | None = None
    schema: Link | None = None
    values: list[Link] = []


class QueryFilterHal(_Hal, frozen=True, kw_only=True):
    type_: str | None = msgspec.field(name="_type", default=None)
    name: str | None = None
    values: list[Any] | None = None  # plain values (strings, numbers, booleans); links go in _links
    links: QueryFilterLinks = msgspec.field(name="_links", default_factory=QueryFilterLinks)


class ColumnLinks(_Hal, frozen=True, kw_only=True):
    columns: list[Link] = []


class ProjectionHal(_Hal, frozen=True, kw_only=True):
    type_: str | None = msgspec.field(name="_type", default=None)
    links: ColumnLinks = msgspec.field(name="_links", default_factory=ColumnLinks)


class QueryLinks(_Hal, frozen=True, kw_only=True):
    self_: Link | None = msgspec.field(name="self", default=None)
    project: Link | None = None
    columns: list[Link] = []
    sort_by: list[Link] = []


class QueryHal(_Hal, frozen=True, kw_only=True):
    """A saved query without its results (lists embed them too; they are skipped, not decoded)."""

    type_: str | None = msgspec.field(name="_type", default=None)
    id: int | None = None  # the default query has none
    name: str | None = None
    public: bool | None = None
    starred: bool | None = None
    filters: list[QueryFilterHal] = []
    projections: list[ProjectionHal] = []
    links: QueryLinks = msgspec.field(name="_links", default_factory=QueryLinks)


class QueryEmbedded(_Hal, frozen=True, kw_only=True):
    results: Collection[WorkPackageHal] | None = None


class QueryWithResultsHal(QueryHal, frozen=True, kw_only=True):
    """A saved query as ``GET /api/v3/queries/{id}`` renders it, results embedded."""

    embedded: QueryEmbedded = msgspec.field(name="_embedded", default_factory=QueryEmbedded)


# Metadata ------------------------------------------------------------------------------------


class TypeHal(_Hal, frozen=True, kw_only=True):
    type_: str | None = msgspec.field(name="_type", default=None)
    id: int
    name: str | None = None
    is_milestone: bool | None = None
    is_default: bool | None = None
    color: str | None = None


class StatusHal(_Hal, frozen=True, kw_only=True):
    type_: str | None = msgspec.field(name="_type", default=None)
    id: int
    name: str | None = None
    is_closed: bool | None = None
    is_default: bool | None = None
    color: str | None = None


class PriorityHal(_Hal, frozen=True, kw_only=True):
    type_: str | None = msgspec.field(name="_type", default=None)
    id: int
    name: str | None = None
    is_active: bool | None = None
    is_default: bool | None = None
    color: str | None = None


class UserHal(_Hal, frozen=True, kw_only=True):
    """A user, or any principal (``_type`` ``Group`` and ``PlaceholderUser`` share these fields)."""

    type_: str | None = msgspec.field(name="_type", default=None)
    id: int
    name: str | None = None
    login: str | None = None
    email: str | None = None
    status: str | None = None


class RootLinks(_Hal, frozen=True, kw_only=True):
    user: Link | None = None


class RootHal(_Hal, frozen=True, kw_only=True):
    """``GET /api/v3``: ``instanceName`` for everyone, ``coreVersion`` for administrators only."""

    instance_name: str | None = None
    core_version: str | None = None
    links: RootLinks = msgspec.field(name="_links", default_factory=RootLinks)


class CurrentUserHal(UserHal, frozen=True, kw_only=True):
    """``GET /api/v3/users/me``; ``admin`` is shown to administrators only."""

    admin: bool | None = None


# Meetings ------------------------------------------------------------------------------------


class MeetingLinks(_Hal, frozen=True, kw_only=True):
    self_: Link | None = msgspec.field(name="self", default=None)
    project: Link | None = None
    author: Link | None = None
    # 17.4/17.5+: `associated_resources :users, as: :participants`, one titled user link each
    # (opf/openproject@deedf43:modules/meeting/lib/api/v3/meetings/meeting_representer.rb).
    participants: list[Link] | Link | None = None


class MeetingHal(_Hal, frozen=True, kw_only=True):
    type_: str | None = msgspec.field(name="_type", default=None)
    id: int
    title: str | None = None
    location: str | None = None
    state: str | None = None  # 17.4/17.5+
    start_time: datetime | None = None
    end_time: datetime | None = None
    duration: float | str | None = None  # hours (14.4 code) or an ISO 8601 duration (17.6-dev code on)
    created_at: datetime | None = None
    updated_at: datetime | None = None
    links: MeetingLinks = msgspec.field(name="_links", default_factory=MeetingLinks)


class OutcomeHal(_Hal, frozen=True, kw_only=True):
    type_: str | None = msgspec.field(name="_type", default=None)
    id: int | None = None
    kind: str | None = None
    notes: Formattable | None = None


class MeetingSectionHal(_Hal, frozen=True, kw_only=True):
    """``MeetingSection``: ``backlog`` is true for the meeting's backlog section
    (opf/openproject@9610091:modules/meeting/lib/api/v3/meeting_sections/meeting_section_representer.rb)."""

    id: int | None = None
    title: str | None = None
    backlog: bool | None = None


class AgendaItemLinks(_Hal, frozen=True, kw_only=True):
    self_: Link | None = msgspec.field(name="self", default=None)
    work_package: Link | None = None
    # `/api/v3/meeting_sections/{id}` titled with the section's title (@899685:.../meeting_agenda_item_representer.rb).
    section: Link | None = None
    # A list of links to single outcomes (`/api/v3/meeting_outcomes/{id}`), or one link to a collection.
    outcomes: list[Link] | Link | None = None


class AgendaItemEmbedded(_Hal, frozen=True, kw_only=True):
    outcomes: list[OutcomeHal] | None = None
    section: MeetingSectionHal | None = None


class AgendaItemHal(_Hal, frozen=True, kw_only=True):
    type_: str | None = msgspec.field(name="_type", default=None)
    id: int
    title: str | None = None
    notes: Formattable | None = None
    position: int | None = None
    duration_in_minutes: int | None = None
    item_type: str | None = None
    links: AgendaItemLinks = msgspec.field(name="_links", default_factory=AgendaItemLinks)
    embedded: AgendaItemEmbedded = msgspec.field(name="_embedded", default_factory=AgendaItemEmbedded)


# Wiki ----------------------------------------------------------------------------------------


class WikiPageLinks(_Hal, frozen=True, kw_only=True):
    self_: Link | None = msgspec.field(name="self", default=None)
    project: Link | None = None
    attachments: Link | None = None


class WikiPageHal(_Hal, frozen=True, kw_only=True):
    type_: str | None = msgspec.field(name="_type", default=None)
    id: int
    title: str | None = None
    text: Formattable | None = None  # no released version renders it (only a development branch)
    updated_at: datetime | None = None
    links: WikiPageLinks = msgspec.field(name="_links", default_factory=WikiPageLinks)


class AttachmentLinks(_Hal, frozen=True, kw_only=True):
    self_: Link | None = msgspec.field(name="self", default=None)
    # Only the instance's own content path is read: ``downloadLocation`` is a pre-signed
    # external-storage URL where the file is kept outside the instance, a bearer credential.
    static_download_location: Link | None = None


class AttachmentHal(_Hal, frozen=True, kw_only=True):
    type_: str | None = msgspec.field(name="_type", default=None)
    id: int
    file_name: str | None = None
    file_size: int | None = None
    legacy_file_size: int | None = msgspec.field(name="filesize", default=None)  # the spec's example
    content_type: str | None = None
    links: AttachmentLinks = msgspec.field(name="_links", default_factory=AttachmentLinks)


class WikiPageLinkLinks(_Hal, frozen=True, kw_only=True):
    self_: Link | None = msgspec.field(name="self", default=None)
    provider: Link | None = None  # {href: /api/v3/wiki_providers/<universal identifier>, title: name}
    linkable: Link | None = None  # the work package
    author: Link | None = None  # relation links only


class WikiPageLinkHal(_Hal, frozen=True, kw_only=True):
    """One element of ``WikiPageLinkCollection`` (17.6+): ``PageLinkRepresenter`` and
    ``RelationPageLinkRepresenter`` render ``id``, ``identifier``, ``wikiPageLinkType`` (a URN
    ending in ``Inline`` or ``Relation``), timestamps and the links above; no page link, no
    provider or type as plain strings, no URL.
    """

    type_: str | None = msgspec.field(name="_type", default=None)
    id: int
    identifier: str | None = None
    wiki_page_link_type: str | None = None
    created_at: datetime | None = None
    updated_at: datetime | None = None
    links: WikiPageLinkLinks = msgspec.field(name="_links", default_factory=WikiPageLinkLinks)


# Writes ----------------------------------------------------------------------------------------


class ErrorDetails(_Hal, frozen=True, kw_only=True):
    attribute: str | None = None


class ErrorEmbedded(_Hal, frozen=True, kw_only=True):
    details: ErrorDetails | None = None
    errors: list[ErrorHal] = []


class ErrorHal(_Hal, frozen=True, kw_only=True):
    """OpenProject's error object; ``MultipleErrors`` embeds the single ones under ``errors``."""

    error_identifier: str | None = None
    message: str | None = None
    embedded: ErrorEmbedded | None = msgspec.field(name="_embedded", default=None)


class AllowedValue(_Hal, frozen=True, kw_only=True):
    id: int | None = None
    name: str | None = None
    default: bool | None = None
    links: SelfLinks = msgspec.field(name="_links", default_factory=SelfLinks)


class AllowedLinks(_Hal, frozen=True, kw_only=True):
    allowed_values: list[Link] = []


class AllowedEmbedded(_Hal, frozen=True, kw_only=True):
    allowed_values: list[AllowedValue] = []


class SchemaField(_Hal, frozen=True, kw_only=True):
    embedded: AllowedEmbedded | None = msgspec.field(name="_embedded", default=None)
    links: AllowedLinks | None = msgspec.field(name="_links", default=None)


class FormSchema(_Hal, frozen=True, kw_only=True):
    activity: SchemaField | None = None


class FormEmbedded(_Hal, frozen=True, kw_only=True):
    validation_errors: dict[str, ErrorHal] = {}
    schema: FormSchema | None = None


class FormHal(_Hal, frozen=True, kw_only=True):
    """A ``/form`` answer: the payload as OpenProject would save it, its schema, and the validation errors."""

    type_: str | None = msgspec.field(name="_type", default=None)
    embedded: FormEmbedded = msgspec.field(name="_embedded", default_factory=FormEmbedded)


class TimeEntryLinks(_Hal, frozen=True, kw_only=True):
    project: Link | None = None
    user: Link | None = None
    activity: Link | None = None
    entity: Link | None = None  # 17.x: a work package or a meeting
    work_package: Link | None = None  # before the entity link


class TimeEntryHal(_Hal, frozen=True, kw_only=True):
    id: int
    hours: str | float | None = None
    spent_on: date | None = None
    comment: Formattable | None = None
    created_at: datetime | None = None
    links: TimeEntryLinks = msgspec.field(name="_links", default_factory=TimeEntryLinks)
