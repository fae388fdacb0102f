"""Every request the adapter issues, as data: the HTTP method, path templates, the query
parameters sent, and the OpenProject version that introduced the endpoint.

The templates are the single source of the request paths (repositories build paths from them,
never by hand), so a test can check each one against the 17.3 OpenAPI document. Endpoints newer
than 17.3 carry ``since`` and are only used where their absence is detected and reported
(a 404 turns into ``None`` parts or ``UnsupportedError``).

Query parameter values are built here too: filters and sort keys are serialised with
``json.dumps``, never assembled from strings.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal
from urllib.parse import quote

from openproject_mcp.domain.queries import Filter, PageRequest, SortKey

Method = Literal["GET", "POST", "PATCH", "PUT", "DELETE"]
IDEMPOTENT_METHODS: frozenset[str] = frozenset({"GET", "PUT", "DELETE"})
"""Sending one of these twice has the effect of sending it once; POST and PATCH are not."""

MAX_PAGE_SIZE = 1000  # OpenProject's default ``apiv3_max_page_size``


@dataclass(frozen=True, slots=True)
class Endpoint:
    """One endpoint. ``template`` is relative to the base URL, e.g. ``api/v3/projects/{id}``.

    ``method`` is what the client sends; reads are ``GET``. A ``POST`` or ``PATCH`` endpoint is not
    idempotent, so the client never repeats it once it may have reached the server.
    """

    template: str
    params: frozenset[str] = frozenset()
    since: str | None = None
    """``None``: in the 17.3 OpenAPI document. Otherwise the first version that has it."""
    undocumented_params: Mapping[str, str] = field(default_factory=dict)
    """Parameters sent although the 17.3 document does not list them, each with the reason."""
    note: str = ""
    method: Method = "GET"

    @property
    def idempotent(self) -> bool:
        """Whether sending it twice has the effect of sending it once (so it may be retried)."""
        return self.method in IDEMPOTENT_METHODS

    def path(self, **values: int | str) -> str:
        """The request path with every placeholder filled in, URL-encoded (``/`` included)."""
        return self.template.format(**{name: quote(str(value), safe="") for name, value in values.items()})

    def matches(self, path: str) -> bool:
        """Whether a request path (without query) is an instance of this template."""
        return _pattern(self.template).fullmatch(path) is not None


def _pattern(template: str) -> re.Pattern[str]:
    parts = re.split(r"\{[^}]+\}", template)
    return re.compile("[^/?]+".join(re.escape(part) for part in parts))


_PAGE = frozenset({"offset", "pageSize"})

ROOT = Endpoint("api/v3", note="The root: instanceName for everyone, coreVersion for administrators only.")
ROOT_SPEC = Endpoint(
    "api/v3/spec.json",
    note="Served by every instance; named in the info section of the 17.3 document, not under paths.",
)

PROJECTS = Endpoint(
    "api/v3/projects",
    frozenset({"filters", "sortBy"}) | _PAGE,
    undocumented_params={
        "offset": "The response is an OffsetPaginatedCollection; the spec's own example links use it.",
        "pageSize": "The response is an OffsetPaginatedCollection; the spec's own example links use it.",
    },
)
PROJECT = Endpoint("api/v3/projects/{id}", note="Accepts a numeric id or a project identifier.")
PROJECT_TYPES = Endpoint("api/v3/projects/{id}/types")

WORK_PACKAGES = Endpoint("api/v3/work_packages", frozenset({"filters", "sortBy"}) | _PAGE)
WORK_PACKAGE = Endpoint("api/v3/work_packages/{id}", note="A numeric id; a display id on 17.5+.")
WORK_PACKAGE_ACTIVITIES = Endpoint("api/v3/work_packages/{id}/activities")
WORK_PACKAGE_SCHEMA = Endpoint("api/v3/work_packages/schemas/{identifier}")

QUERIES = Endpoint("api/v3/queries", frozenset({"filters"}), note="Unpaginated: pages are cut client-side.")
QUERY = Endpoint("api/v3/queries/{id}", _PAGE)

TYPES = Endpoint("api/v3/types")
STATUSES = Endpoint("api/v3/statuses")
PRIORITIES = Endpoint("api/v3/priorities")

USERS = Endpoint("api/v3/users", frozenset({"filters"}) | _PAGE)
USER = Endpoint("api/v3/users/{id}")
PRINCIPALS = Endpoint(
    "api/v3/principals",
    frozenset({"filters"}) | _PAGE,
    undocumented_params={
        "offset": "The response is an OffsetPaginatedCollection.",
        "pageSize": "The response is an OffsetPaginatedCollection.",
    },
)

MEETINGS = Endpoint(
    "api/v3/meetings",
    frozenset({"filters", "sortBy"}) | _PAGE,
    note="Mounted since 14.4 (opf/openproject@4911b8a:modules/meeting/lib/api/v3/meetings/meetings_api.rb); "
    "404 where the meetings module is off. The time filter's form and the sort keys differ between versions "
    "(see MEETINGS_TIME_FILTER and MEETING_SORT_KEY).",
    undocumented_params={
        "filters": "The spec's example self link carries filters; the list is OpenProject's generic "
        "Index endpoint over MeetingQuery.",
        "offset": "The response is a PaginatedCollection; the spec's example links use it.",
        "pageSize": "The response is a PaginatedCollection; the spec's example links use it.",
        "sortBy": "The list is OpenProject's generic Index endpoint over MeetingQuery, which sorts.",
    },
)
MEETING = Endpoint("api/v3/meetings/{id}")

WIKI_PAGE = Endpoint("api/v3/wiki_pages/{id}")
WIKI_PAGE_ATTACHMENTS = Endpoint("api/v3/wiki_pages/{id}/attachments")
WORK_PACKAGE_ATTACHMENTS = Endpoint("api/v3/work_packages/{id}/attachments")
ATTACHMENT_CONTENT = Endpoint(
    "api/v3/attachments/{id}/content",
    since="14.4",
    note="Mounted by AttachmentsAPI (opf/openproject@4911b8a:lib/api/v3/attachments/attachments_api.rb) and "
    "every attachment's staticDownloadLocation, but not a path of the 17.3 document. It answers the file, or "
    "a redirect to external storage (opf/openproject@4911b8a:lib/api/helpers/attachment_renderer.rb); "
    "14.4 is the oldest version read, not the first that has it.",
)

MEETING_SORT_KEY = "startTime"
"""The only meetings sort key every version from 16.6 to 18.0 registers: ``start_time`` is in the older
``Orders::Default`` (opf/openproject@ed2db48:modules/meeting/app/models/queries/meetings/orders/default.rb)
and in 18.0's ``DefaultOrder`` (``id|start_time``, @45b991b:.../orders/default_order.rb); ``id`` is not
in the older one, and an unregistered key answers 400 InvalidQuery. Ties are ordered client-side."""

MEETINGS_TIME_FILTER: Mapping[str, Mapping[str, tuple[str, tuple[str, ...]]]] = {
    # `type :list`, operator `=`, values PAST_VALUE/FUTURE_VALUE
    # (opf/openproject@4911b8a:modules/meeting/app/models/queries/meetings/filters/time_filter.rb).
    "list": {"upcoming": ("=", ("future",)), "past": ("=", ("past",))},
    # Operators Upcoming/Past, no value (@a27f373:.../filters/time_filter.rb, 18.0-dev;
    # @899685:app/models/queries/operators/upcoming.rb and past.rb).
    "operator": {"upcoming": ("upcoming", ()), "past": ("past", ())},
}
"""The two forms of the meetings ``time`` filter: (operator, values) for each intent."""

# Newer than 17.3: only used where a 404 is expected and reported.
MEETING_AGENDA_ITEMS = Endpoint("api/v3/meetings/{id}/agenda_items", since="17.4")
MEETING_SECTION = Endpoint(
    "api/v3/meeting_sections/{id}",
    since="17.4",
    note="Followed only when an agenda item links its section without embedding it (to tell backlog items apart).",
)
MEETING_AGENDA_ITEM_OUTCOMES = Endpoint(
    "api/v3/meetings/{meeting_id}/agenda_items/{id}/outcomes",
    since="17.6",
    note="Followed only when an agenda item links its outcomes as one collection instead of embedding them.",
)
MEETING_OUTCOME = Endpoint(
    "api/v3/meeting_outcomes/{id}",
    since="17.6",
    note="The flat outcome resource (17.6 'API for Meeting outcomes', opf/openproject@0170877:docs/release-notes/"
    "17-6-0/README.md). Followed only when an agenda item links its outcomes one by one instead of embedding them.",
)
WORK_PACKAGE_WIKI_PAGE_LINKS = Endpoint(
    "api/v3/work_packages/{id}/wiki_page_links",
    _PAGE,
    since="17.6",
    note="A WikiPageLinkCollection of {id, identifier, wikiPageLinkType, _links.provider, _links.linkable}; "
    "some versions ignore offset and answer the first pageSize links.",
)
WIKI_PAGE_LINKS = Endpoint(
    "api/v3/wiki_page_links",
    frozenset({"filters", "pageSize"}),
    since="17.6",
    note="Every link on a work package the caller can see; filters provider, identifier, wiki_page_link_type. "
    "Answers one page of pageSize links (offset is not read).",
)

# Writes (and the reads only the write tools need). Every create and update is validated by its
# ``/form`` endpoint first; POST and PATCH are never repeated once they may have reached the server.
WORK_PACKAGE_CREATE_FORM = Endpoint(
    "api/v3/projects/{id}/work_packages/form",
    method="POST",
    note="Validates a new work package (WorkPackageWriteModel) and answers a Form with _embedded.validationErrors; "
    "saves nothing.",
)
PROJECT_WORK_PACKAGES_CREATE = Endpoint("api/v3/projects/{id}/work_packages", method="POST")
WORK_PACKAGE_UPDATE_FORM = Endpoint(
    "api/v3/work_packages/{id}/form",
    method="POST",
    note="Validates a change (with lockVersion) and answers a Form; saves nothing and never conflicts.",
)
WORK_PACKAGE_UPDATE = Endpoint(
    "api/v3/work_packages/{id}", method="PATCH", note="WorkPackagePatchModel: lockVersion is required; 409 if stale."
)
WORK_PACKAGE_COMMENT = Endpoint("api/v3/work_packages/{id}/activities", method="POST")
PROJECT_AVAILABLE_ASSIGNEES = Endpoint("api/v3/projects/{id}/available_assignees")
TIME_ENTRY_FORM = Endpoint(
    "api/v3/time_entries/form",
    method="POST",
    note="Validates a time entry; its schema lists the activities allowed (activity._embedded.allowedValues).",
)
TIME_ENTRY_CREATE = Endpoint("api/v3/time_entries", method="POST")
TIME_ENTRIES = Endpoint(
    "api/v3/time_entries",
    frozenset({"filters", "sortBy"}) | _PAGE,
    note="Filters entity_type/entity_id (17.x), or work_package on versions before the entity link.",
)

ALL_ENDPOINTS: tuple[Endpoint, ...] = (
    ROOT,
    ROOT_SPEC,
    PROJECTS,
    PROJECT,
    PROJECT_TYPES,
    WORK_PACKAGES,
    WORK_PACKAGE,
    WORK_PACKAGE_ACTIVITIES,
    WORK_PACKAGE_SCHEMA,
    QUERIES,
    QUERY,
    TYPES,
    STATUSES,
    PRIORITIES,
    USERS,
    USER,
    PRINCIPALS,
    MEETINGS,
    MEETING,
    WIKI_PAGE,
    WIKI_PAGE_ATTACHMENTS,
    WORK_PACKAGE_ATTACHMENTS,
    ATTACHMENT_CONTENT,
    MEETING_AGENDA_ITEMS,
    MEETING_SECTION,
    MEETING_AGENDA_ITEM_OUTCOMES,
    MEETING_OUTCOME,
    WORK_PACKAGE_WIKI_PAGE_LINKS,
    WIKI_PAGE_LINKS,
    WORK_PACKAGE_CREATE_FORM,
    PROJECT_WORK_PACKAGES_CREATE,
    WORK_PACKAGE_UPDATE_FORM,
    WORK_PACKAGE_UPDATE,
    WORK_PACKAGE_COMMENT,
    PROJECT_AVAILABLE_ASSIGNEES,
    TIME_ENTRY_FORM,
    TIME_ENTRY_CREATE,
    TIME_ENTRIES,
)

NEWER_THAN_17_3: tuple[Endpoint, ...] = tuple(e for e in ALL_ENDPOINTS if e.since is not None)


def endpoint_for(path: str, method: str = "GET") -> Endpoint | None:
    """The declared endpoint a request path and method belong to (the most specific one), if any."""
    wanted = "GET" if method.upper() == "HEAD" else method.upper()
    candidates = [e for e in ALL_ENDPOINTS if e.method == wanted and e.matches(path)]
    if not candidates:
        return None
    # A literal segment beats a placeholder: prefer the template with the fewest placeholders.
    return min(candidates, key=lambda e: e.template.count("{"))


def filters_param(filters: Sequence[Filter]) -> str:
    """OpenProject's ``filters`` JSON: ``[{"name": {"operator": "=", "values": [...]}}, ...]``."""
    return json.dumps(
        [{f.name: {"operator": f.operator, "values": list(f.values)}} for f in filters],
        separators=(",", ":"),
        ensure_ascii=False,
    )


def sort_param(sort_by: Sequence[SortKey]) -> str:
    """OpenProject's ``sortBy`` JSON: ``[["attribute", "asc|desc"], ...]``."""
    return json.dumps([[s.attribute, s.direction] for s in sort_by], separators=(",", ":"))


def page_params(page: PageRequest) -> dict[str, str | int]:
    """``offset`` (1-based page number) and ``pageSize`` (at most the server maximum)."""
    return {"offset": max(1, page.offset), "pageSize": max(0, min(page.page_size, MAX_PAGE_SIZE))}
