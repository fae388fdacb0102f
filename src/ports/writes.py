"""Write ports: what the write tools need from wherever data lives.

Every method that changes data checks the process's write policy first (``WritePolicy.check``),
so a server running read-only refuses with ``ReadOnlyError`` before anything is sent, whoever
calls it. The ``check_*`` methods change nothing: they ask the backend's own validation (on
OpenProject, the ``/form`` endpoints) whether a draft would be accepted.

Errors, beyond those of the read ports:

- ``ConflictError``: an update named a lock version that is no longer current (OpenProject's 409);
  nothing was changed.
- ``InvalidArgumentError``: the backend refused the write itself (OpenProject's 422), naming the
  attribute and its message; nothing was saved.
- ``NetworkError`` / ``UpstreamServerError`` saying "the outcome is unknown": the request may
  have reached the backend and was not sent again.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence

from openproject_mcp.domain.entities import Activity, User, WorkPackage
from openproject_mcp.domain.writes import (
    FormCheck,
    TimeEntry,
    TimeEntryActivity,
    TimeEntryDraft,
    TimeEntryQuery,
    WorkPackageDraft,
)


class WorkPackageWriteRepository(ABC):
    @abstractmethod
    async def current_user(self) -> User:
        """The user whose credential is used (who ``me`` is)."""

    @abstractmethod
    async def available_assignees(self, project_id: int) -> Sequence[User]:
        """The principals a work package of this project may be assigned to."""

    @abstractmethod
    async def check_create(self, project_id: int, draft: WorkPackageDraft) -> FormCheck:
        """Whether a new work package with ``draft`` would be accepted; nothing is saved."""

    @abstractmethod
    async def create(self, project_id: int, draft: WorkPackageDraft) -> WorkPackage:
        """Create a work package; the result is the saved record."""

    @abstractmethod
    async def check_update(self, work_package_id: int, lock_version: int | None, draft: WorkPackageDraft) -> FormCheck:
        """Whether changing the work package by ``draft`` would be accepted; nothing is saved (the
        form does not check the lock version; ``None`` sends none)."""

    @abstractmethod
    async def update(self, work_package_id: int, lock_version: int, draft: WorkPackageDraft) -> WorkPackage:
        """Change the attributes ``draft`` gives, if ``lock_version`` is still current (else ``ConflictError``)."""

    @abstractmethod
    async def add_comment(self, work_package_id: int, text: str, *, internal: bool = False) -> Activity:
        """Add a Markdown comment to the work package's activity; the result is the new activity."""


class TimeEntryRepository(ABC):
    @abstractmethod
    async def activities(self, work_package_id: int) -> Sequence[TimeEntryActivity]:
        """The time entry activities that may be logged on this work package."""

    @abstractmethod
    async def check(self, draft: TimeEntryDraft) -> FormCheck:
        """Whether the time entry would be accepted; nothing is saved."""

    @abstractmethod
    async def create(self, draft: TimeEntryDraft) -> TimeEntry:
        """Log the time entry; the result is the saved record."""

    @abstractmethod
    async def entries(self, query: TimeEntryQuery) -> Sequence[TimeEntry]:
        """Every time entry matching the query, oldest ``spentOn`` first (then by id)."""
