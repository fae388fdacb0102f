"""Repository ports: everything the 19 tools read, whatever the backend.

Every method is a coroutine. Errors are the core's types (``openproject_mcp.domain.errors``):
an adapter never lets its own exceptions out, and never turns a failure into an empty result.

Common contract for collection reads:

- ``offset`` is a 1-based page number and ``page_size`` a page length (OpenProject semantics);
  the returned :class:`Page` echoes the offset and page size actually used and the total.
- Filters are OpenProject filters (:class:`Filter`), combined with AND. A filter name or
  operator the backend does not understand raises ``InvalidQueryError`` naming it.
- Sort keys apply in order; without any, the backend's natural order is used (ascending id).
- ``NotFoundError`` is raised for a single resource that does not exist or is not visible.
- ``AuthenticationError``, ``ForbiddenError`` and ``RateLimitedError`` are raised as they occur.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence

from openproject_mcp.domain.capabilities import InstanceCapabilities
from openproject_mcp.domain.entities import (
    Activity,
    Attachment,
    AttachmentContent,
    InstanceFacts,
    Meeting,
    MeetingDetails,
    NamedRef,
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
from openproject_mcp.domain.queries import Filter, MeetingQuery, Page, PageRequest, SortKey


class ProjectRepository(ABC):
    @abstractmethod
    async def list(self, filters: Sequence[Filter], sort_by: Sequence[SortKey], page: PageRequest) -> Page[Project]:
        """Projects visible to the caller."""

    @abstractmethod
    async def get(self, ref: int | str) -> Project:
        """One project by numeric id or by identifier (slug). ``NotFoundError`` if absent."""


class WorkPackageRepository(ABC):
    @abstractmethod
    async def list(self, filters: Sequence[Filter], sort_by: Sequence[SortKey], page: PageRequest) -> Page[WorkPackage]:
        """Work packages matching every filter.

        The filters given are exactly the filters applied: an empty sequence means *all* work
        packages, open and closed (an adapter must send an explicit empty filter list, since
        OpenProject otherwise returns open ones only). Elements carry their description.
        Supported filter names include ``status`` (``o``, ``c``, ``*``, ``=``, ``!``),
        ``project``, ``type``, ``assignee`` (``=`` with ids or ``me``; ``!*``), ``subject``
        (``~``: case-insensitive contains), ``search`` (``**``: full text over subject,
        description and comments), ``id`` and ``parent``.
        """

    @abstractmethod
    async def get(self, ref: int | str) -> WorkPackage:
        """One work package by id or display id (``DEMO-38``), with its children."""

    @abstractmethod
    async def activities(self, work_package_id: int) -> Sequence[Activity]:
        """The whole timeline of one work package, oldest first. ``NotFoundError`` if absent."""

    @abstractmethod
    async def comments(self, work_package_id: int) -> Sequence[str]:
        """The non-blank comment texts of one work package, oldest first: what search reads.

        One request at most; unlike :meth:`activities` it needs no user names, which some
        backends must look up separately. ``NotFoundError`` if the work package is absent.
        """


class QueryRepository(ABC):
    @abstractmethod
    async def list(self, project_id: int | None, page: PageRequest) -> Page[SavedQuery]:
        """Saved queries visible to the caller, in one project or everywhere."""

    @abstractmethod
    async def get(self, query_id: int, page: PageRequest) -> tuple[SavedQuery, Page[WorkPackage]]:
        """A saved query's definition and one page of its results, as OpenProject runs it."""


class MetadataRepository(ABC):
    @abstractmethod
    async def types(self, project_id: int | None) -> Sequence[WorkPackageType]:
        """Work package types, of one project or of the whole instance."""

    @abstractmethod
    async def statuses(self) -> Sequence[Status]:
        """Every work package status."""

    @abstractmethod
    async def priorities(self) -> Sequence[Priority]:
        """Every work package priority."""

    @abstractmethod
    async def users(self, filters: Sequence[Filter], page: PageRequest) -> Page[User]:
        """Users (``/users``; needs admin rights: ``ForbiddenError`` otherwise).

        Filters: ``status`` (``=`` with ``active``, ``invited``, ``locked``...) and ``name``
        (``~``: case- and accent-insensitive contains).
        """

    @abstractmethod
    async def principals(self, filters: Sequence[Filter], page: PageRequest) -> Page[User]:
        """Users the caller can see without admin rights (``/principals``, users only)."""


class ApiSpecRepository(ABC):
    @abstractmethod
    async def spec(self) -> dict[str, object]:
        """The instance's own OpenAPI document. ``UnsupportedError`` if it has none."""

    @abstractmethod
    async def confirm_access(self) -> None:
        """Ask the instance, as cheaply as it allows, whether it still accepts this credential.

        ``AuthenticationError`` when it refuses it; a cached document is served only after this.
        """


class MeetingRepository(ABC):
    @abstractmethod
    async def list(self, query: MeetingQuery, page: PageRequest) -> Page[Meeting]:
        """Meetings matching the query, in its order (see :class:`MeetingQuery`).

        The backend chooses how to ask (OpenProject's time filter and sort keys differ between
        versions); a list never fails because of the order asked for.
        ``UnsupportedError`` where the instance has no meeting list.
        """

    @abstractmethod
    async def get(self, meeting_id: int) -> Meeting:
        """One meeting. ``NotFoundError`` if absent."""

    @abstractmethod
    async def details(self, meeting_id: int) -> MeetingDetails:
        """Participants, agenda items (with outcomes) and backlog items; ``None`` parts where unavailable."""

    @abstractmethod
    async def participants(self, meeting_id: int) -> tuple[NamedRef, ...] | None:
        """Only the participants (no agenda request); ``None`` where the instance has none to give."""


class WikiPageRepository(ABC):
    @abstractmethod
    async def get(self, page_id: int) -> WikiPage:
        """One wiki page; ``text`` is ``None`` where the instance exposes no bodies.

        ``NotFoundError`` for a page that does not exist or that the caller cannot see (the two
        are indistinguishable).
        """

    @abstractmethod
    async def attachments(self, page_id: int) -> Sequence[Attachment]:
        """The attachments of one wiki page."""

    @abstractmethod
    async def list_pages(self, project_id: int | None) -> Sequence[WikiPage] | None:
        """Every wiki page (of one project, or of every project), by ascending id.

        ``None``, without any request, where the backend has no way to list pages: no released
        OpenProject version has one, so there pages are found by id. ``NotFoundError`` for an
        unknown project.
        """


class AttachmentRepository(ABC):
    @abstractmethod
    async def of_work_package(self, work_package_id: int) -> Sequence[Attachment]:
        """The attachments of one work package. ``NotFoundError`` for an unknown work package."""

    @abstractmethod
    async def content(self, attachment_id: int, max_bytes: int) -> AttachmentContent:
        """The bytes of one attachment, if there are at most ``max_bytes`` of them.

        ``UnsupportedError`` when the content is larger (nothing beyond ``max_bytes`` is read) or
        when the backend holds none for it; ``NotFoundError`` for an attachment that does not
        exist or that the caller cannot see. Credentials go only to the configured instance:
        content kept elsewhere (external storage) is fetched without them.
        """


class WikiPageLinkRepository(ABC):
    @abstractmethod
    async def list(self, work_package_id: int, page: PageRequest) -> Page[WikiPageLink]:
        """Links between one work package and wiki pages (OpenProject 17.6+).

        ``UnsupportedError`` on older instances, ``NotFoundError`` for an unknown work package.
        ``wiki_page`` may be ``None`` where the backend cannot tell which page it is.
        """

    @abstractmethod
    async def list_all(self, limit: int) -> Sequence[WikiPageLink]:
        """At most ``limit`` links on any work package the caller can see, in one request.

        ``UnsupportedError`` on instances without ``GET /api/v3/wiki_page_links`` (before 17.6).
        """


class CapabilityRepository(ABC):
    @abstractmethod
    async def capabilities(self) -> InstanceCapabilities:
        """What this instance can provide. Detected at most once per instance and cached."""


class InstanceRepository(ABC):
    @abstractmethod
    async def facts(self) -> InstanceFacts:
        """The instance's name and (where shown) version, and the user the token belongs to.

        ``AuthenticationError`` for a token the instance rejects.
        """
