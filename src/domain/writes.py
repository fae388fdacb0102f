"""What the write tools send and get back: drafts of changes, OpenProject's verdict, time entries.

A draft names only what changes: ``None`` means "not given, leave it as it is". Ids are resolved
from names before a draft is built, so a draft never carries a name to guess from.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from datetime import date, datetime

from openproject_mcp.domain.entities import NamedRef, WorkPackageRef


@dataclass(frozen=True, slots=True)
class WorkPackageDraft:
    """The attributes a create or an update sets (``None``: not given)."""

    subject: str | None = None
    description: str | None = None
    type_id: int | None = None
    status_id: int | None = None
    priority_id: int | None = None
    assignee_id: int | None = None
    parent_id: int | None = None
    start_date: date | None = None
    due_date: date | None = None
    estimated_hours: float | None = None
    percentage_done: int | None = None

    def given(self) -> tuple[str, ...]:
        """The names of the attributes this draft sets, in declaration order."""
        return tuple(f.name for f in fields(self) if getattr(self, f.name) is not None)


@dataclass(frozen=True, slots=True)
class FieldError:
    """One validation error: the attribute as OpenProject names it (``subject``, ``status``...) and
    OpenProject's own message."""

    field: str
    message: str


@dataclass(frozen=True, slots=True)
class FormCheck:
    """What OpenProject's form said about a draft, before anything was saved."""

    errors: tuple[FieldError, ...] = ()

    @property
    def accepted(self) -> bool:
        return not self.errors


@dataclass(frozen=True, slots=True)
class TimeEntryActivity:
    """A time entry activity (Development, Management...): what kind of work was logged."""

    id: int
    name: str
    is_default: bool = False


@dataclass(frozen=True, slots=True)
class TimeEntryDraft:
    """A time entry to log on a work package."""

    work_package_id: int
    hours: float
    spent_on: date
    activity_id: int | None = None
    comment: str | None = None


@dataclass(frozen=True, slots=True)
class TimeEntry:
    id: int
    hours: float
    spent_on: date
    project: NamedRef
    user: NamedRef | None = None
    activity: NamedRef | None = None
    work_package: WorkPackageRef | None = None
    comment: str | None = None
    created_at: datetime | None = None


@dataclass(frozen=True, slots=True)
class TimeEntryQuery:
    """Which time entries to list: every condition given applies (AND)."""

    work_package_id: int | None = None
    project_id: int | None = None
    user_id: int | None = None
    from_date: date | None = None
    to_date: date | None = None
