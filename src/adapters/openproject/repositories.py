"""The repository ports over OpenProject's API v3.

Each repository takes the :class:`OpenProjectClient` of the current tool call. Paths come from
:mod:`endpoints`, filters and sort keys are serialised there with ``json.dumps``, and every
payload is decoded with the typed structs of :mod:`hal` and mapped by :mod:`mapping`. A payload
that cannot be read becomes ``UpstreamServerError``; the client's errors pass through as they are.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any, TypeVar

from openproject_mcp.adapters.openproject import endpoints, hal, mapping
from openproject_mcp.adapters.openproject.capabilities import AiohttpCapabilityRepository, CapabilityCache
from openproject_mcp.adapters.openproject.client import FileTooLargeError, OpenProjectClient
from openproject_mcp.adapters.openproject.concurrency import together
from openproject_mcp.adapters.openproject.endpoints import Endpoint, filters_param, page_params, sort_param
from openproject_mcp.adapters.openproject.fetching import fetch as _fetch
from openproject_mcp.adapters.openproject.fetching import follow as _follow
from openproject_mcp.adapters.openproject.fetching import reading as _reading
from openproject_mcp.adapters.openproject.meetings import AiohttpMeetingRepository
from openproject_mcp.domain.entities import (
    Activity,
    Attachment,
    AttachmentContent,
    Priority,
    Project,
    SavedQuery,
    Status,
    User,
    WikiPage,
    WikiPageLink,
    WorkPackage,
    WorkPackageType,
)
from openproject_mcp.domain.errors import (
    ForbiddenError,
    InvalidQueryError,
    NotFoundError,
    RequestLimitError,
    UnsupportedError,
    UpstreamServerError,
    attachment_too_large,
)
from openproject_mcp.domain.queries import Filter, Page, PageRequest, SortKey, replace_filters
from openproject_mcp.ports.repositories import (
    ApiSpecRepository,
    AttachmentRepository,
    MetadataRepository,
    ProjectRepository,
    QueryRepository,
    WikiPageLinkRepository,
    WikiPageRepository,
    WorkPackageRepository,
)

__all__ = [
    "AiohttpApiSpecRepository",
    "AiohttpAttachmentRepository",
    "AiohttpCapabilityRepository",
    "AiohttpMeetingRepository",
    "AiohttpMetadataRepository",
    "AiohttpProjectRepository",
    "AiohttpQueryRepository",
    "AiohttpWikiPageLinkRepository",
    "AiohttpWikiPageRepository",
    "AiohttpWorkPackageRepository",
    "CapabilityCache",
]

T = TypeVar("T")

_log = logging.getLogger(__name__)


def _resource_ref(ref: int | str, what: str) -> int | str:
    """A numeric id as ``int``, anything else as a stripped string; blank refs find nothing."""
    if isinstance(ref, int) and not isinstance(ref, bool):
        return ref
    value = str(ref).strip()
    if value.startswith("#") and value[1:].isdigit():
        value = value[1:]
    if value.isdigit():
        return int(value)
    if not value:
        raise NotFoundError(f"No {what} was named (an empty id).")
    return value


# Projects ------------------------------------------------------------------------------------


class AiohttpProjectRepository(ProjectRepository):
    def __init__(self, client: OpenProjectClient) -> None:
        self._client = client

    async def list(self, filters: Sequence[Filter], sort_by: Sequence[SortKey], page: PageRequest) -> Page[Project]:
        params: dict[str, str | int] = {"filters": filters_param(filters), **page_params(page)}
        if sort_by:
            params["sortBy"] = sort_param(sort_by)
        path = endpoints.PROJECTS.path()
        collection = await _fetch(self._client, path, hal.Collection[hal.ProjectHal], params)
        with _reading(self._client, path):
            items = tuple(mapping.project(e) for e in collection.elements)
        return mapping.page_of(collection, items, page)

    async def get(self, ref: int | str) -> Project:
        path = endpoints.PROJECT.path(id=_resource_ref(ref, "project"))
        resource = await _fetch(self._client, path, hal.ProjectHal)
        with _reading(self._client, path):
            return mapping.project(resource)


# Work packages -------------------------------------------------------------------------------


class AiohttpWorkPackageRepository(WorkPackageRepository):
    def __init__(self, client: OpenProjectClient) -> None:
        self._client = client
        self._user_names: dict[int, str] = {}

    async def list(self, filters: Sequence[Filter], sort_by: Sequence[SortKey], page: PageRequest) -> Page[WorkPackage]:
        # Always sent, even empty: without it OpenProject applies its default "open only" filter.
        params: dict[str, str | int] = {"filters": filters_param(filters), **page_params(page)}
        if sort_by:
            params["sortBy"] = sort_param(sort_by)
        path = endpoints.WORK_PACKAGES.path()
        collection = await _fetch(self._client, path, hal.Collection[hal.WorkPackageHal], params)
        with _reading(self._client, path):
            items = tuple(mapping.work_package(e) for e in collection.elements)
        return mapping.page_of(collection, items, page)

    async def get(self, ref: int | str) -> WorkPackage:
        key = _resource_ref(ref, "work package")
        path = endpoints.WORK_PACKAGE.path(id=key)
        try:
            data = await self._client.get(path)
        except (NotFoundError, InvalidQueryError) as exc:
            if isinstance(key, int):
                raise
            raise NotFoundError(
                self._client.redact(f"No work package with the display id {key!r} is visible."),
                hint="Display ids such as DEMO-38 need OpenProject 17.5 or newer; otherwise use the numeric id.",
                status=exc.status,
            ) from exc
        with _reading(self._client, path):
            resource = hal.decode(data, hal.WorkPackageHal)
            raw: dict[str, Any] = hal.decode(data, dict[str, Any])
            values = mapping.custom_field_values(raw)
        names = await self._custom_field_names(resource) if values else {}
        custom_fields = tuple((names.get(key, key), value) for key, value in values.items())
        with _reading(self._client, path):
            return mapping.work_package(resource, custom_fields)

    async def _custom_field_names(self, resource: hal.WorkPackageHal) -> dict[str, str]:
        """Custom field names from the work package's schema; none (keys shown) if it is unavailable."""
        schema = resource.links.schema
        path = _follow(self._client, schema.href if schema else None, endpoints.WORK_PACKAGE_SCHEMA)
        if path is None:
            return {}
        try:
            document = await _fetch(self._client, path, dict[str, Any])
        except (NotFoundError, ForbiddenError, UpstreamServerError):
            return {}
        return mapping.custom_field_names(document)

    async def activities(self, work_package_id: int) -> Sequence[Activity]:
        path = endpoints.WORK_PACKAGE_ACTIVITIES.path(id=work_package_id)
        collection = await _fetch(self._client, path, hal.Collection[hal.ActivityHal])
        # Activity links name no user (OpenProject renders only the href): look the names up.
        untitled = {
            user_id
            for a in collection.elements
            if a.links.user is not None
            and a.links.user.title is None
            and (user_id := mapping.id_from_href(a.links.user.href)) is not None
        }
        names = await self._names_of(untitled)
        with _reading(self._client, path):
            items = [mapping.activity(e, names) for e in collection.elements]
        return sorted(items, key=lambda a: (a.created_at, a.version, a.id))

    async def comments(self, work_package_id: int) -> Sequence[str]:
        path = endpoints.WORK_PACKAGE_ACTIVITIES.path(id=work_package_id)
        collection = await _fetch(self._client, path, hal.Collection[hal.ActivityHal])
        with _reading(self._client, path):
            timeline = sorted(
                (mapping.activity(e, {}) for e in collection.elements), key=lambda a: (a.created_at, a.version, a.id)
            )
        return tuple(a.comment for a in timeline if a.comment and a.comment.strip())

    async def _names_of(self, user_ids: set[int]) -> dict[int, str]:
        missing = sorted(user_ids - self._user_names.keys())
        if missing:
            names = await together(self._name_of(uid) for uid in missing)
            self._user_names.update(zip(missing, names, strict=True))
        return {uid: self._user_names[uid] for uid in user_ids}

    async def _name_of(self, user_id: int) -> str:
        try:
            resource = await _fetch(self._client, endpoints.USER.path(id=user_id), hal.UserHal)
        except (NotFoundError, ForbiddenError, RequestLimitError):
            resource = None  # deleted, not visible to this user, or past this call's request ceiling
        if resource is None or not resource.name:
            return f"User #{user_id}"
        return resource.name


# Saved queries -------------------------------------------------------------------------------


class AiohttpQueryRepository(QueryRepository):
    def __init__(self, client: OpenProjectClient) -> None:
        self._client = client

    async def list(self, project_id: int | None, page: PageRequest) -> Page[SavedQuery]:
        params: dict[str, str | int] = {}
        if project_id is not None:
            params["filters"] = filters_param([Filter("project", "=", (str(project_id),))])
        path = endpoints.QUERIES.path()
        # Unpaginated on the server: the whole list comes back and the page is cut here.
        collection = await _fetch(self._client, path, hal.Collection[hal.QueryHal], params)
        with _reading(self._client, path):
            items = tuple(mapping.saved_query(e) for e in collection.elements)
        return mapping.slice_page(items, page)

    async def get(self, query_id: int, page: PageRequest) -> tuple[SavedQuery, Page[WorkPackage]]:
        path = endpoints.QUERY.path(id=query_id)
        resource = await _fetch(self._client, path, hal.QueryWithResultsHal, page_params(page))
        with _reading(self._client, path):
            query = mapping.saved_query(resource)
            results = resource.embedded.results
            if results is None:
                raise hal.PayloadError(f"the results of query {query_id} are missing")
            items = tuple(mapping.work_package(e) for e in results.elements)
        return query, mapping.page_of(results, items, page)


# Metadata ------------------------------------------------------------------------------------


class AiohttpMetadataRepository(MetadataRepository):
    def __init__(self, client: OpenProjectClient) -> None:
        self._client = client

    async def types(self, project_id: int | None) -> Sequence[WorkPackageType]:
        path = endpoints.TYPES.path() if project_id is None else endpoints.PROJECT_TYPES.path(id=project_id)
        collection = await _fetch(self._client, path, hal.Collection[hal.TypeHal])
        with _reading(self._client, path):
            return tuple(mapping.work_package_type(e) for e in collection.elements)

    async def statuses(self) -> Sequence[Status]:
        path = endpoints.STATUSES.path()
        collection = await _fetch(self._client, path, hal.Collection[hal.StatusHal])
        with _reading(self._client, path):
            return tuple(mapping.status(e) for e in collection.elements)

    async def priorities(self) -> Sequence[Priority]:
        path = endpoints.PRIORITIES.path()
        collection = await _fetch(self._client, path, hal.Collection[hal.PriorityHal])
        with _reading(self._client, path):
            return tuple(mapping.priority(e) for e in collection.elements)

    async def users(self, filters: Sequence[Filter], page: PageRequest) -> Page[User]:
        return await self._people(endpoints.USERS, filters, page)

    async def principals(self, filters: Sequence[Filter], page: PageRequest) -> Page[User]:
        only_users = Filter("type", "=", ("User",))
        sent = [_principal_status(f) if f.name == "status" else f for f in filters]
        return await self._people(endpoints.PRINCIPALS, replace_filters([only_users], sent), page)

    async def _people(self, endpoint: Endpoint, filters: Sequence[Filter], page: PageRequest) -> Page[User]:
        params: dict[str, str | int] = dict(page_params(page))
        if filters:
            params["filters"] = filters_param(filters)
        path = endpoint.path()
        collection = await _fetch(self._client, path, hal.Collection[hal.UserHal], params)
        with _reading(self._client, path):
            items = tuple(mapping.user(e) for e in collection.elements)
        return mapping.page_of(collection, items, page)


PRINCIPAL_STATUS_NUMBERS = {"active": "1", "registered": "2", "locked": "3", "invited": "4"}
"""The principals ``status`` filter takes ``Principal.statuses`` numbers, not names
(opf/openproject@cef85bf:app/models/queries/principals/filters/status_filter.rb; the 17.3 spec: "status
number (active = 1, registered = 2, locked = 3, invited = 4)"); the users filter takes the names."""


def _principal_status(f: Filter) -> Filter:
    unknown = [v for v in f.values if v not in PRINCIPAL_STATUS_NUMBERS and v not in PRINCIPAL_STATUS_NUMBERS.values()]
    if unknown:
        raise InvalidQueryError(
            f"Unknown user status {', '.join(unknown)}: one of {', '.join(PRINCIPAL_STATUS_NUMBERS)} is expected."
        )
    return Filter(f.name, f.operator, tuple(PRINCIPAL_STATUS_NUMBERS.get(v, v) for v in f.values))


# API description -----------------------------------------------------------------------------


class AiohttpApiSpecRepository(ApiSpecRepository):
    def __init__(self, client: OpenProjectClient) -> None:
        self._client = client

    async def spec(self) -> dict[str, object]:
        path = endpoints.ROOT_SPEC.path()
        try:
            document = await _fetch(self._client, path, dict[str, Any])
        except NotFoundError as exc:
            raise UnsupportedError(
                "This OpenProject instance does not serve its API description at /api/v3/spec.json.",
                status=exc.status,
            ) from exc
        return dict(document)

    async def confirm_access(self) -> None:
        # ``/users/me`` is the smallest answer that needs the credential: a revoked or unknown
        # token gets 401 there (AuthenticationError), as it would on the document itself.
        await self._client.get(endpoints.USER.path(id="me"))


# Wiki ----------------------------------------------------------------------------------------


class AiohttpWikiPageRepository(WikiPageRepository):
    def __init__(self, client: OpenProjectClient) -> None:
        self._client = client

    async def get(self, page_id: int) -> WikiPage:
        path = endpoints.WIKI_PAGE.path(id=page_id)
        resource = await _fetch(self._client, path, hal.WikiPageHal)
        with _reading(self._client, path):
            return mapping.wiki_page(resource)

    async def attachments(self, page_id: int) -> Sequence[Attachment]:
        path = endpoints.WIKI_PAGE_ATTACHMENTS.path(id=page_id)
        collection = await _fetch(self._client, path, hal.Collection[hal.AttachmentHal])
        with _reading(self._client, path):
            return tuple(mapping.attachment(e, self._client.absolute_url) for e in collection.elements)

    async def list_pages(self, project_id: int | None) -> Sequence[WikiPage] | None:
        # No released version has a wiki page list in APIv3 (the list and page text exist only
        # in a development branch), so none is asked for: pages are found by id.
        return None


class AiohttpWikiPageLinkRepository(WikiPageLinkRepository):
    def __init__(self, client: OpenProjectClient) -> None:
        self._client = client

    async def list(self, work_package_id: int, page: PageRequest) -> Page[WikiPageLink]:
        path = endpoints.WORK_PACKAGE_WIKI_PAGE_LINKS.path(id=work_package_id)
        try:
            collection = await _fetch(self._client, path, hal.Collection[hal.WikiPageLinkHal], page_params(page))
        except NotFoundError as exc:
            # An unknown work package is reported as such; a known one means the endpoint is missing.
            await _fetch(self._client, endpoints.WORK_PACKAGE.path(id=work_package_id), hal.WorkPackageHal)
            raise UnsupportedError(
                f"Links between work packages and wiki pages need OpenProject "
                f"{endpoints.WORK_PACKAGE_WIKI_PAGE_LINKS.since} or newer; this instance "
                "has no GET /api/v3/work_packages/{id}/wiki_page_links.",
                status=exc.status,
            ) from exc
        if page.offset > 1 and collection.offset == 1:
            # Some versions read only pageSize: ask for everything up to the page wanted and cut here.
            wanted = {"offset": 1, "pageSize": min(page.offset * page.page_size, endpoints.MAX_PAGE_SIZE)}
            collection = await _fetch(self._client, path, hal.Collection[hal.WikiPageLinkHal], wanted)
            with _reading(self._client, path):
                items = tuple(mapping.wiki_page_link(e) for e in collection.elements)
            return mapping.slice_page(items, page, total=collection.total)
        with _reading(self._client, path):
            items = tuple(mapping.wiki_page_link(e) for e in collection.elements)
        if collection.page_size is None:
            return mapping.slice_page(items, page)  # the server sent everything at once
        return mapping.page_of(collection, items, page)

    async def list_all(self, limit: int) -> Sequence[WikiPageLink]:
        path = endpoints.WIKI_PAGE_LINKS.path()
        params: dict[str, str | int] = {"pageSize": max(1, min(limit, endpoints.MAX_PAGE_SIZE))}
        try:
            collection = await _fetch(self._client, path, hal.Collection[hal.WikiPageLinkHal], params)
        except NotFoundError as exc:
            raise UnsupportedError(
                "Listing every wiki page link needs OpenProject 17.6 or newer; this instance has no "
                "GET /api/v3/wiki_page_links.",
                status=exc.status,
            ) from exc
        with _reading(self._client, path):
            return tuple(mapping.wiki_page_link(e) for e in collection.elements[:limit])


# Attachments ---------------------------------------------------------------------------------


class AiohttpAttachmentRepository(AttachmentRepository):
    """Work package attachments, and any attachment's content (``/attachments/{id}/content``)."""

    def __init__(self, client: OpenProjectClient) -> None:
        self._client = client

    async def of_work_package(self, work_package_id: int) -> Sequence[Attachment]:
        path = endpoints.WORK_PACKAGE_ATTACHMENTS.path(id=work_package_id)
        collection = await _fetch(self._client, path, hal.Collection[hal.AttachmentHal])
        with _reading(self._client, path):
            return tuple(mapping.attachment(e, self._client.absolute_url) for e in collection.elements)

    async def content(self, attachment_id: int, max_bytes: int) -> AttachmentContent:
        # Always the instance's own content path (the staticDownloadLocation), never the
        # downloadLocation, which is the external storage's URL where there is one.
        path = endpoints.ATTACHMENT_CONTENT.path(id=attachment_id)
        try:
            download = await self._client.download(path, max_bytes)
        except FileTooLargeError:
            raise attachment_too_large(attachment_id, max_bytes) from None
        return AttachmentContent(download.body, download.content_type)
