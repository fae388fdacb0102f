"""Use cases that write: create and update work packages, comment, log time; and list time entries.

Every write follows the same path (ADR 0018):

1. names are resolved to ids (``write_names``): an unknown or ambiguous one stops here;
2. the draft goes through the backend's own validation (OpenProject's ``/form``): its errors are
   ``INVALID_ARGUMENT`` naming the field and OpenProject's message, and nothing is saved;
   ``dryRun`` stops after this step and reports what would change;
3. the write is sent once; an update carries the lock version it was based on, and a conflict is
   reported with who changed what since, never retried over it;
4. the record's cached deep content is dropped for this user, and one audit line is logged.
"""

from __future__ import annotations

import logging
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, replace
from dataclasses import fields as dataclass_fields
from datetime import UTC, datetime
from typing import Any

from openproject_mcp.application.arguments import page_request, positive_id
from openproject_mcp.application.caching import EnrichmentCache
from openproject_mcp.application.presenters import activity_view, derive, work_package_detail
from openproject_mcp.application.project_scope import ProjectResolver
from openproject_mcp.application.views import TextCutter, envelope
from openproject_mcp.application.work_packages import work_package_id as numeric_work_package_id
from openproject_mcp.application.work_packages import work_package_ref
from openproject_mcp.application.write_names import (
    Choice,
    choose,
    choose_assignee,
    date_argument,
    hours_argument,
)
from openproject_mcp.application.write_views import (
    CommentResult,
    FieldChange,
    LogTimeResult,
    TimeEntryList,
    TimeEntryView,
    ValidationProblem,
    WorkPackageWriteResult,
)
from openproject_mcp.application.writes import WriteUseCase
from openproject_mcp.domain.entities import Activity, User, WorkPackage
from openproject_mcp.domain.errors import ConflictError, InvalidArgumentError, OpenProjectMcpError
from openproject_mcp.domain.queries import Page, PageRequest
from openproject_mcp.domain.writes import FormCheck, TimeEntry, TimeEntryDraft, TimeEntryQuery, WorkPackageDraft
from openproject_mcp.ports import MetadataRepository, WorkPackageRepository
from openproject_mcp.ports.writes import TimeEntryRepository, WorkPackageWriteRepository

AUDIT = logging.getLogger("openproject_mcp.audit")
MAX_SUBJECT = 255
MAX_TEXT = 100_000
CONFLICT_CHANGES_SHOWN = 5


def audit(tool: str, record: str, user: str, outcome: str) -> None:
    """One line per write: which tool, which record, whose (a hash, never the token), how it ended.
    The text written is never logged."""
    AUDIT.info("write tool=%s record=%s user=%s outcome=%s", tool, record, user, outcome)


def _outcome(error: OpenProjectMcpError) -> str:
    if "outcome is unknown" in error.message:
        return "unknown"
    if isinstance(error, ConflictError):
        return "conflict"
    if isinstance(error, InvalidArgumentError):
        return "refused"
    return f"failed:{type(error).__name__}"


def _how_to_check(error: OpenProjectMcpError, how: str) -> OpenProjectMcpError:
    """``error``, with how to check the record when the write's outcome is unknown."""
    if "outcome is unknown" not in error.message:
        return error
    checked = type(error)(error.message, hint=f"{how} {error.hint or ''}".strip(), status=error.status)
    checked.__cause__ = error
    return checked


def _problems(check: FormCheck) -> tuple[ValidationProblem, ...] | None:
    return tuple(ValidationProblem(e.field, e.message) for e in check.errors) or None


def _refusal(check: FormCheck, what: str) -> InvalidArgumentError:
    listed = "; ".join(f"{e.field}: {e.message}" for e in check.errors)
    return InvalidArgumentError(
        f"OpenProject does not accept {what}: {listed}",
        hint="Nothing was saved. Correct the named fields (dryRun: true checks without saving) and try again.",
        status=422,
    )


def _text(value: str | None, argument: str, limit: int = MAX_TEXT) -> str | None:
    if value is None:
        return None
    if len(value) > limit:
        raise InvalidArgumentError(f"{argument} is {len(value)} characters long; at most {limit} are accepted.")
    return value


# Characters that show nothing: white space, controls, format characters (zero-width spaces and
# joiners, direction marks, the byte order mark) and unassigned code points.
_INVISIBLE = frozenset({"Zs", "Zl", "Zp", "Cc", "Cf", "Cn"})


def _blank(text: str) -> bool:
    """Whether ``text`` shows nothing: only white space or characters without a glyph (a subject
    of one zero-width space is as empty as one of spaces)."""
    return all(char.isspace() or unicodedata.category(char) in _INVISIBLE for char in text)


def _visible(value: str | None, argument: str, limit: int) -> str | None:
    """``value`` within ``limit`` characters and not blank (``None`` stays ``None``)."""
    text = _text(value, argument, limit)
    if text is not None and _blank(text):
        raise InvalidArgumentError(f"{argument} must not be blank (it holds no visible character).")
    return text


# Work packages ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class WorkPackageFields:
    """The attributes a create or an update names, as the model wrote them."""

    subject: str | None = None
    description: str | None = None
    type: int | str | None = None
    status: int | str | None = None
    priority: int | str | None = None
    assignee: int | str | None = None
    parent: int | str | None = None
    start_date: str | None = None
    due_date: str | None = None
    estimated_time: float | int | str | None = None
    percentage_done: int | None = None

    def named(self) -> bool:
        """Whether any attribute is given at all."""
        return any(getattr(self, f.name) is not None for f in dataclass_fields(self))


@dataclass(frozen=True, slots=True)
class CreateWorkPackageRequest:
    project_id: int | str
    fields: WorkPackageFields
    dry_run: bool = False


@dataclass(frozen=True, slots=True)
class UpdateWorkPackageRequest:
    work_package_id: int | str
    fields: WorkPackageFields
    lock_version: int | None = None
    dry_run: bool = False


class _WorkPackageWriting:
    """What creating and updating share: resolving names and describing the change."""

    def __init__(
        self,
        work_packages: WorkPackageRepository,
        metadata: MetadataRepository,
        writes: WorkPackageWriteRepository,
        comment_cache: EnrichmentCache[tuple[str, ...]],
        user: str,
    ) -> None:
        self._work_packages = work_packages
        self._metadata = metadata
        self._writes = writes
        self._cache = comment_cache
        self._user = user
        self._names: dict[str, dict[int, str]] = {}

    async def _draft(self, fields: WorkPackageFields, plain: WorkPackageDraft, project_id: int) -> WorkPackageDraft:
        """``plain`` (:func:`_plain_fields` of ``fields``) with the names in ``fields`` resolved to ids."""
        return replace(
            plain,
            type_id=await self._type(fields.type, project_id),
            status_id=await self._status(fields.status),
            priority_id=await self._priority(fields.priority),
            assignee_id=await self._assignee(fields.assignee, project_id),
            parent_id=await self._parent(fields.parent),
        )

    async def _type(self, value: int | str | None, project_id: int) -> int | None:
        if value is None:
            return None
        types = await self._metadata.types(project_id)
        self._names["type"] = {t.id: t.name for t in types}
        return choose("type", value, [Choice(t.id, t.name) for t in types], "work package types of this project")

    async def _status(self, value: int | str | None) -> int | None:
        if value is None:
            return None
        statuses = await self._metadata.statuses()
        self._names["status"] = {s.id: s.name for s in statuses}
        return choose("status", value, [Choice(s.id, s.name) for s in statuses], "statuses")

    async def _priority(self, value: int | str | None) -> int | None:
        if value is None:
            return None
        priorities = [p for p in await self._metadata.priorities() if p.is_active]
        self._names["priority"] = {p.id: p.name for p in priorities}
        return choose("priority", value, [Choice(p.id, p.name) for p in priorities], "active priorities")

    async def _assignee(self, value: int | str | None, project_id: int) -> int | None:
        if value is None:
            return None
        candidates = await self._writes.available_assignees(project_id)
        me: User | None = None
        if isinstance(value, str) and value.strip().lower() == "me":
            me = await self._writes.current_user()
        self._names["assignee"] = {u.id: u.name for u in candidates}
        return choose_assignee(value, candidates, me)

    async def _parent(self, value: int | str | None) -> int | None:
        if value is None:
            return None
        return await numeric_work_package_id(value, self._work_packages)

    def _changes(self, before: WorkPackage | None, draft: WorkPackageDraft) -> tuple[FieldChange, ...]:
        def name(kind: str, ref_id: int | None) -> str | None:
            return None if ref_id is None else self._names.get(kind, {}).get(ref_id, f"#{ref_id}")

        def show(value: Any) -> str | None:
            if value is None:
                return None
            if isinstance(value, float):
                return f"{value:g}"
            return str(value)

        rows: list[tuple[str, Any, Any]] = [
            ("subject", before and before.subject, draft.subject),
            ("description", before and before.description, draft.description),
            ("type", before and before.type, name("type", draft.type_id)),
            ("status", before and before.status, name("status", draft.status_id)),
            ("priority", before and before.priority, name("priority", draft.priority_id)),
            ("assignee", before and before.assignee and before.assignee.name, name("assignee", draft.assignee_id)),
            ("parent", before and before.parent and f"#{before.parent.id}", draft.parent_id and f"#{draft.parent_id}"),
            ("startDate", before and before.start_date, draft.start_date),
            ("dueDate", before and before.due_date, draft.due_date),
            ("estimatedTime", before and before.estimated_hours, draft.estimated_hours),
            ("percentageDone", before and before.percentage_done, draft.percentage_done),
        ]
        changes: list[FieldChange] = []
        for field, old, new in rows:
            if new is None or show(old) == show(new):
                continue
            # A long text is shown as records show it: cut, and said to be (the write is whole).
            cut = TextCutter()
            changes.append(FieldChange(field, cut(show(old)), cut(show(new)), cut.truncated))
        return tuple(changes)

    def _audit(self, tool: str, record: str, outcome: str) -> None:
        audit(tool, record, self._user, outcome)


def _plain_fields(fields: WorkPackageFields) -> WorkPackageDraft:
    """The attributes that need no look-up, checked (before any request is sent): texts within
    their lengths and not blank, dates and their order, the percentage, the estimate."""
    subject = _visible(fields.subject, "subject", MAX_SUBJECT)
    start = date_argument(fields.start_date, "startDate")
    due = date_argument(fields.due_date, "dueDate")
    if start and due and due < start:
        raise InvalidArgumentError(f"dueDate {due} is before startDate {start}.")
    percentage = fields.percentage_done
    if percentage is not None and (isinstance(percentage, bool) or not 0 <= percentage <= 100):
        raise InvalidArgumentError(f"percentageDone must be between 0 and 100, got {percentage!r}.")
    return WorkPackageDraft(
        subject=subject.strip() if subject is not None else None,
        description=_text(fields.description, "description"),
        start_date=start,
        due_date=due,
        estimated_hours=None
        if fields.estimated_time is None
        else hours_argument(fields.estimated_time, "estimatedTime", positive=False),
        percentage_done=percentage,
    )


_FIELD_NAMES = (
    "subject, description, type, status, priority, assignee, parent, startDate, dueDate, estimatedTime or "
    "percentageDone"
)


class CreateWorkPackage(_WorkPackageWriting, WriteUseCase):
    TOOL = "openproject_create_work_package"

    def __init__(
        self,
        work_packages: WorkPackageRepository,
        metadata: MetadataRepository,
        writes: WorkPackageWriteRepository,
        comment_cache: EnrichmentCache[tuple[str, ...]],
        user: str,
        projects: ProjectResolver,
    ) -> None:
        super().__init__(work_packages, metadata, writes, comment_cache, user)
        self._projects = projects

    async def execute(self, request: CreateWorkPackageRequest) -> WorkPackageWriteResult:
        if request.fields.subject is None:
            raise InvalidArgumentError("subject is required to create a work package.")
        plain = _plain_fields(request.fields)  # a blank subject or a bad date stops here, before any request
        project_id = await self._projects.resolve(request.project_id)
        if project_id is None:
            raise InvalidArgumentError("projectId is required to create a work package.")
        draft = await self._draft(request.fields, plain, project_id)
        changes = self._changes(None, draft)
        check = await self._writes.check_create(project_id, draft)
        record = f"project:{project_id}"
        if request.dry_run:
            return WorkPackageWriteResult(
                dry_run=True, accepted=check.accepted, saved=False, changes=changes, validation_errors=_problems(check)
            )
        if not check.accepted:
            self._audit(self.TOOL, record, "refused")
            raise _refusal(check, "this work package")
        try:
            created = await self._writes.create(project_id, draft)
        except OpenProjectMcpError as exc:
            self._audit(self.TOOL, record, _outcome(exc))
            raise _how_to_check(
                exc, f"Look for it with openproject_list_work_packages (projectId {project_id}, subject) first."
            ) from exc
        self._audit(self.TOOL, f"work_package:{created.id}", "created")
        return WorkPackageWriteResult(
            dry_run=False,
            accepted=True,
            saved=True,
            changes=changes,
            work_package=work_package_detail(created),
            lock_version=created.lock_version,
        )


class UpdateWorkPackage(_WorkPackageWriting, WriteUseCase):
    TOOL = "openproject_update_work_package"

    async def execute(self, request: UpdateWorkPackageRequest) -> WorkPackageWriteResult:
        # What needs no request is checked before the first one.
        if not request.fields.named():
            raise InvalidArgumentError(f"Nothing to change: give at least one field ({_FIELD_NAMES}).")
        wanted = request.lock_version
        if wanted is not None and (isinstance(wanted, bool) or wanted < 0):
            raise InvalidArgumentError(f"lockVersion must be 0 or more, got {wanted!r}.")
        plain = _plain_fields(request.fields)
        current = await self._work_packages.get(work_package_ref(request.work_package_id))
        draft = await self._draft(request.fields, plain, current.project.id)
        notes: list[str] = []
        base = current.lock_version
        if wanted is not None:
            if base is not None and wanted > base:
                # Not a version this work package has had: no read gave it, and no write is sent.
                raise InvalidArgumentError(
                    f"lockVersion {wanted} is ahead of work package {current.id}'s current one ({base}); it did not "
                    "come from a read of this work package. Nothing was sent.",
                    hint=f"Pass the lockVersion that openproject_get_work_package ({current.id}) returns.",
                )
            if base is not None and wanted != base:
                notes.append(
                    f"lockVersion {wanted} is not the current one ({base}): the work package changed "
                    "since; a real update would be refused as a conflict."
                )
            base = wanted
        if base is None and not request.dry_run:
            raise InvalidArgumentError(
                f"Work package {current.id} came without a lockVersion; pass the one you read (lockVersion)."
            )
        changes = self._changes(current, draft)
        record = f"work_package:{current.id}"
        if not changes:
            # Every value given is the one it has: nothing to send (a write would only move its
            # lock version on and make other editors' next update a conflict).
            if not request.dry_run:
                self._audit(self.TOOL, record, "unchanged")
            return WorkPackageWriteResult(
                dry_run=request.dry_run,
                accepted=True,
                saved=False,
                changes=(),
                work_package=work_package_detail(current),
                lock_version=current.lock_version,
                notes=(
                    f"Nothing to save: work package {current.id} already has the values given; nothing was sent to "
                    "OpenProject.",
                    *notes,
                ),
            )
        check = await self._writes.check_update(current.id, base, draft)
        if request.dry_run:
            return WorkPackageWriteResult(
                dry_run=True,
                accepted=check.accepted,
                saved=False,
                changes=changes,
                work_package=work_package_detail(current),
                lock_version=current.lock_version,
                validation_errors=_problems(check),
                notes=tuple(notes) or None,
            )
        if not check.accepted:
            self._audit(self.TOOL, record, "refused")
            raise _refusal(check, f"this change of work package {current.id}")
        assert base is not None  # checked above: only a dry run goes on without one
        try:
            updated = await self._writes.update(current.id, base, draft)
        except ConflictError:
            self._audit(self.TOOL, record, "conflict")
            raise await self._conflict(current.id, base) from None
        except OpenProjectMcpError as exc:
            await self._cache.forget(current.id, [_version(current)])
            self._audit(self.TOOL, record, _outcome(exc))
            raise _how_to_check(exc, f"Read it with openproject_get_work_package ({current.id}) first.") from exc
        await self._cache.forget(current.id, [_version(current), _version(updated)])
        self._audit(self.TOOL, record, "updated")
        return WorkPackageWriteResult(
            dry_run=False,
            accepted=True,
            saved=True,
            changes=changes,
            work_package=work_package_detail(updated),
            lock_version=updated.lock_version,
        )

    async def _conflict(self, work_package_id: int, based_on: int) -> ConflictError:
        """The conflict, saying who changed what since ``based_on`` (read from the activities)."""
        hint = (
            "Nothing was changed. Read the work package again (openproject_get_work_package), decide whether your "
            "change still applies, and retry with its current lockVersion."
        )
        try:
            now = await self._work_packages.get(work_package_id)
            timeline = await self._work_packages.activities(work_package_id)
        except OpenProjectMcpError:
            return ConflictError(
                f"Work package {work_package_id} was changed by someone else since lockVersion {based_on}; "
                "your change was not saved.",
                hint=hint,
                status=409,
            )
        newer = (now.lock_version or 0) - based_on
        recent = list(timeline)[-max(1, min(newer, CONFLICT_CHANGES_SHOWN)) :] if newer > 0 else []
        since = "; ".join(_describe(a) for a in recent) or "no journal entry says what"
        return ConflictError(
            f"Work package {work_package_id} was changed since lockVersion {based_on} (it is now at "
            f"{now.lock_version}); your change was not saved. Changed since: {since}.",
            hint=hint,
            status=409,
        )


def _version(work_package: WorkPackage) -> str:
    """The version the search keys a work package's cached comments by (its ``updatedAt``)."""
    return work_package.updated_at.isoformat() if work_package.updated_at else ""


def _describe(activity: Activity) -> str:
    who = activity.user.name if activity.user else "someone"
    when = activity.created_at.astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC")
    what = ", ".join(activity.details) if activity.details else ""
    if activity.is_comment:
        what = f"{what}, a comment" if what else "a comment"
    return f"{who} at {when}: {what or 'a change'}"


# Comments --------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class AddCommentRequest:
    work_package_id: int | str
    comment: str
    internal: bool = False


class AddWorkPackageComment(WriteUseCase):
    TOOL = "openproject_add_work_package_comment"

    def __init__(
        self,
        work_packages: WorkPackageRepository,
        writes: WorkPackageWriteRepository,
        comment_cache: EnrichmentCache[tuple[str, ...]],
        user: str,
    ) -> None:
        self._work_packages = work_packages
        self._writes = writes
        self._cache = comment_cache
        self._user = user

    async def execute(self, request: AddCommentRequest) -> CommentResult:
        text = _visible(request.comment, "comment", MAX_TEXT) or ""
        # Read first: its version keys the cached comments to forget (and a display id is resolved).
        current = await self._work_packages.get(work_package_ref(request.work_package_id))
        work_package_id = current.id
        record = f"work_package:{work_package_id}"
        try:
            activity = await self._writes.add_comment(work_package_id, text, internal=request.internal)
        except OpenProjectMcpError as exc:
            await self._cache.forget(work_package_id, [_version(current)])
            audit(self.TOOL, record, self._user, _outcome(exc))
            raise _how_to_check(
                exc, f"Look at the latest comments with openproject_list_work_package_activities ({work_package_id})."
            ) from exc
        await self._cache.forget(work_package_id, [_version(current)])
        audit(self.TOOL, record, self._user, "commented")
        return CommentResult(work_package_id, activity_view(activity), activity.internal)


# Time entries ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class LogTimeRequest:
    work_package_id: int | str
    hours: float | int | str
    spent_on: str | None = None
    activity: int | str | None = None
    comment: str | None = None
    dry_run: bool = False


def time_entry_view(entry: TimeEntry) -> TimeEntryView:
    return derive(TimeEntryView, entry, activity=entry.activity.name if entry.activity else None)


class LogTime(WriteUseCase):
    TOOL = "openproject_log_time"

    def __init__(self, work_packages: WorkPackageRepository, time_entries: TimeEntryRepository, user: str) -> None:
        self._work_packages = work_packages
        self._time_entries = time_entries
        self._user = user

    async def execute(self, request: LogTimeRequest) -> LogTimeResult:
        hours = hours_argument(request.hours, "hours")
        spent_on = date_argument(request.spent_on, "spentOn") or datetime.now(UTC).date()
        comment = _text(request.comment, "comment", 10_000)
        work_package_id = await numeric_work_package_id(request.work_package_id, self._work_packages)
        activity_id: int | None = None
        activity_name: str | None = None
        if request.activity is not None:
            activities = await self._time_entries.activities(work_package_id)
            choices = [Choice(a.id, a.name) for a in activities]
            activity_id = choose("activity", request.activity, choices, "time entry activities")
            activity_name = next(a.name for a in activities if a.id == activity_id)
        draft = TimeEntryDraft(work_package_id, hours, spent_on, activity_id, comment)
        check = await self._time_entries.check(draft)
        record = f"work_package:{work_package_id}"
        if request.dry_run:
            return LogTimeResult(
                dry_run=True,
                accepted=check.accepted,
                saved=False,
                work_package_id=work_package_id,
                hours=hours,
                spent_on=spent_on,
                activity=activity_name,
                validation_errors=_problems(check),
            )
        if not check.accepted:
            audit(self.TOOL, record, self._user, "refused")
            raise _refusal(check, "this time entry")
        try:
            entry = await self._time_entries.create(draft)
        except OpenProjectMcpError as exc:
            audit(self.TOOL, record, self._user, _outcome(exc))
            raise _how_to_check(
                exc, f"List them with openproject_list_time_entries (workPackageId {work_package_id}) first."
            ) from exc
        audit(self.TOOL, f"time_entry:{entry.id}", self._user, "logged")
        return LogTimeResult(
            dry_run=False,
            accepted=True,
            saved=True,
            work_package_id=work_package_id,
            hours=entry.hours,
            spent_on=entry.spent_on,
            activity=entry.activity.name if entry.activity else activity_name,
            time_entry=time_entry_view(entry),
        )


@dataclass(frozen=True, slots=True, kw_only=True)
class ListTimeEntriesRequest:
    work_package_id: int | str | None = None
    project_id: int | str | None = None
    user: int | str | None = None
    from_date: str | None = None
    to_date: str | None = None
    page_size: int = 20
    offset: int = 1


class ListTimeEntries:
    def __init__(
        self,
        work_packages: WorkPackageRepository,
        time_entries: TimeEntryRepository,
        writes: WorkPackageWriteRepository,
        projects: ProjectResolver,
    ) -> None:
        self._work_packages = work_packages
        self._time_entries = time_entries
        self._writes = writes
        self._projects = projects

    async def execute(self, request: ListTimeEntriesRequest) -> TimeEntryList:
        page = page_request(request.offset, request.page_size)
        start = date_argument(request.from_date, "from")
        end = date_argument(request.to_date, "to")
        if start and end and end < start:
            raise InvalidArgumentError(f"to ({end}) is before from ({start}).")
        user_id: int | None = None
        if isinstance(request.user, str) and request.user.strip().lower() == "me":
            user_id = (await self._writes.current_user()).id
        elif request.user is not None:
            user_id = positive_id(request.user, "user")
        work_package_id: int | None = None
        if request.work_package_id is not None:
            work_package_id = await numeric_work_package_id(request.work_package_id, self._work_packages)
        project_id = await self._projects.resolve(request.project_id)
        query = TimeEntryQuery(work_package_id, project_id, user_id, start, end)
        entries = await self._time_entries.entries(query)
        chosen = _page(entries, page)
        return TimeEntryList(
            time_entries=tuple(time_entry_view(e) for e in chosen.items),
            total_hours=round(sum(e.hours for e in entries), 4),
            **envelope(page, chosen),
        )


def _page(entries: Sequence[TimeEntry], page: PageRequest) -> Page[TimeEntry]:
    first = (page.offset - 1) * page.page_size
    items = tuple(entries[first : first + page.page_size])
    return Page(items=items, total=len(entries), offset=page.offset, page_size=page.page_size)


__all__ = [
    "AddCommentRequest",
    "AddWorkPackageComment",
    "CreateWorkPackage",
    "CreateWorkPackageRequest",
    "ListTimeEntries",
    "ListTimeEntriesRequest",
    "LogTime",
    "LogTimeRequest",
    "UpdateWorkPackage",
    "UpdateWorkPackageRequest",
    "WorkPackageFields",
    "audit",
]
