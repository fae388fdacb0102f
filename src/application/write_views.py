"""The results of the write tools and of the time entry list (snake_case here, camelCase on the wire)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime

from openproject_mcp.application.views import ActivityView, Listing, WorkPackageDetail
from openproject_mcp.domain.entities import NamedRef, WorkPackageRef


@dataclass(frozen=True, slots=True)
class FieldChange:
    """One attribute a write changes (or would change): its value before and after, as shown to people."""

    field: str
    before: str | None = None
    after: str | None = None
    truncated: bool | None = None
    """``True`` when a long text (a description) is shown cut, as record texts are."""


@dataclass(frozen=True, slots=True)
class ValidationProblem:
    """One of OpenProject's validation errors: the attribute and OpenProject's own message."""

    field: str
    message: str


@dataclass(frozen=True, slots=True)
class WorkPackageWriteResult:
    """What a create or an update did. With ``dryRun`` nothing is saved: ``changes`` says what would
    change and ``accepted`` whether OpenProject's form accepts it (else ``validationErrors`` say why)."""

    dry_run: bool
    accepted: bool
    saved: bool
    changes: tuple[FieldChange, ...]
    work_package: WorkPackageDetail | None = None
    lock_version: int | None = None
    validation_errors: tuple[ValidationProblem, ...] | None = None
    notes: tuple[str, ...] | None = None


@dataclass(frozen=True, slots=True)
class CommentResult:
    """The comment as OpenProject saved it on the work package's activity; ``internal`` as OpenProject says."""

    work_package_id: int
    activity: ActivityView
    internal: bool


@dataclass(frozen=True, slots=True)
class TimeEntryView:
    id: int
    hours: float
    spent_on: date
    project: NamedRef
    user: NamedRef | None = None
    activity: str | None = None
    work_package: WorkPackageRef | None = None
    comment: str | None = None
    created_at: datetime | None = None


@dataclass(frozen=True, slots=True)
class LogTimeResult:
    """A logged time entry, or with ``dryRun`` what would be logged and whether OpenProject accepts it."""

    dry_run: bool
    accepted: bool
    saved: bool
    work_package_id: int
    hours: float
    spent_on: date
    activity: str | None = None
    time_entry: TimeEntryView | None = None
    validation_errors: tuple[ValidationProblem, ...] | None = None


@dataclass(frozen=True, slots=True)
class TimeEntryList(Listing):
    """One page of time entries; ``totalHours`` sums every matching entry, not only this page's."""

    time_entries: tuple[TimeEntryView, ...]
    total_hours: float
