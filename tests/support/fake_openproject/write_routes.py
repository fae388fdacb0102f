"""The write endpoints of the fake OpenProject, as OpenProject answers them.

- ``POST …/form`` validates and answers ``200`` with a ``Form``: ``_embedded.payload``, ``schema``
  and ``validationErrors`` keyed by attribute (``API::Decorators::Form``); the update form resets
  the lock version, so it never conflicts (``create_work_package_form``, ``reset_lock_version: true``).
- ``PATCH /work_packages/{id}`` answers ``409 UpdateConflict`` when ``lockVersion`` is missing or
  not the current one, ``422`` (PropertyConstraintViolation, or MultipleErrors embedding each one
  under ``_embedded.errors``) when the form would have refused it, else applies it (``200``).
- ``POST /projects/{id}/work_packages``, ``/work_packages/{id}/activities`` and ``/time_entries``
  create (``201``), after the same validation.

The validation is the in-memory backend's own (``write_repositories``), run on the tenant's
copy of the dataset, so a write changes what the tenant's later reads return.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from datetime import date
from typing import Any

from openproject_mcp.adapters.fixture.write_repositories import (
    CONFLICT,
    available_assignees,
    check_time_entry,
    check_work_package,
    select_time_entries,
)
from openproject_mcp.domain.durations import parse_hours
from openproject_mcp.domain.errors import ConflictError, InvalidArgumentError
from openproject_mcp.domain.queries import Filter, Page
from openproject_mcp.domain.writes import FormCheck, TimeEntryDraft, TimeEntryQuery, WorkPackageDraft
from tests.support.fake_openproject.errors import (
    MULTIPLE_ERRORS_MESSAGE,
    ApiError,
    bad_request,
    error_object,
    invalid_query,
    not_found,
    validation_error,
    validation_failure,
)
from tests.support.fake_openproject.params import parse_listing
from tests.support.fake_openproject.profiles import Profile
from tests.support.fake_openproject.render import API, JSON, Renderer

_LINK = re.compile(r"/api/v3/(?P<kind>[a-z_/]+?)/(?P<id>\d+)$")


@dataclass(frozen=True, slots=True)
class Answer:
    """A route's answer with a status other than 200."""

    payload: JSON
    status: int


@dataclass(frozen=True, slots=True)
class WriteCall:
    tenant: Any
    render: Renderer
    match: Mapping[str, str]
    query: Mapping[str, str]
    body: Any
    page_size_max: int


WriteRoute = Callable[[WriteCall], Awaitable[JSON | Answer]]


def _id(text: str, what: str) -> int:
    if text.isascii() and text.isdigit():
        return int(text)
    raise bad_request(f"{what} id is invalid: '{text}' is not an integer.")


def _body(call: WriteCall) -> dict[str, Any]:
    if not isinstance(call.body, dict):
        raise ApiError(400, "InvalidRequestBody", "The request body was not a single JSON object.")
    return call.body


def _linked(links: Mapping[str, Any], name: str, kind: str) -> int | None:
    """The id behind ``_links.<name>.href`` (``/api/v3/<kind>/<id>``, any sub-path in front)."""
    link = links.get(name)
    if link is None:
        return None
    href = link.get("href") if isinstance(link, dict) else None
    match = _LINK.search(href or "")
    if match is None or match["kind"] != kind:
        raise ApiError(422, "ResourceTypeMismatch", f"Expected a link to {kind} for {name}, got {href!r}.")
    return int(match["id"])


def _day(body: Mapping[str, Any], name: str) -> date | None:
    value = body.get(name)
    if value is None:
        return None
    try:
        return date.fromisoformat(str(value))
    except ValueError:
        raise ApiError(422, "PropertyFormatError", f"{name} is not a valid date (ISO 8601 expected).") from None


def work_package_draft(body: Mapping[str, Any]) -> WorkPackageDraft:
    """A WorkPackageWriteModel read the way OpenProject's payload representer reads it."""
    links = body.get("_links") or {}
    description = body.get("description")
    estimated = body.get("estimatedTime")
    hours = parse_hours(estimated) if isinstance(estimated, str) else None
    if estimated is not None and hours is None:
        raise ApiError(422, "PropertyFormatError", "estimatedTime is not a valid ISO 8601 duration.")
    percentage = body.get("percentageDone")
    return WorkPackageDraft(
        subject=body.get("subject"),
        description=description.get("raw") if isinstance(description, dict) else None,
        type_id=_linked(links, "type", "types"),
        status_id=_linked(links, "status", "statuses"),
        priority_id=_linked(links, "priority", "priorities"),
        assignee_id=_linked(links, "assignee", "users"),
        parent_id=_linked(links, "parent", "work_packages"),
        start_date=_day(body, "startDate"),
        due_date=_day(body, "dueDate"),
        estimated_hours=hours,
        percentage_done=int(percentage) if isinstance(percentage, int | float) else None,
    )


def _validation_errors(check: FormCheck) -> dict[str, JSON]:
    grouped: dict[str, list[str]] = {}
    for error in check.errors:
        grouped.setdefault(error.field, []).append(error.message)
    answer: dict[str, JSON] = {}
    for field, messages in grouped.items():
        if len(messages) == 1:
            answer[field] = validation_error(field, messages[0])
        else:  # several on one attribute: MultipleErrors.create_if_many
            singles = [validation_error(field, m) for m in messages]
            answer[field] = error_object("MultipleErrors", MULTIPLE_ERRORS_MESSAGE, {"errors": singles})
    return answer


def _refuse(check: FormCheck) -> None:
    if check.errors:
        raise validation_failure([(e.field, e.message) for e in check.errors])


class WriteRoutes:
    def __init__(self, profile: Profile) -> None:
        self.profile = profile

    def table(self) -> list[tuple[str, str, WriteRoute]]:
        return [
            ("POST", f"{API}/projects/{{id}}/work_packages/form", self.create_form),
            ("POST", f"{API}/projects/{{id}}/work_packages", self.create),
            ("POST", f"{API}/work_packages/{{id}}/form", self.update_form),
            ("PATCH", f"{API}/work_packages/{{id}}", self.update),
            ("POST", f"{API}/work_packages/{{id}}/activities", self.comment),
            ("GET", f"{API}/projects/{{id}}/available_assignees", self.available_assignees),
            ("POST", f"{API}/time_entries/form", self.time_entry_form),
            ("POST", f"{API}/time_entries", self.log_time),
            ("GET", f"{API}/time_entries", self.time_entries),
        ]

    # Work packages ----------------------------------------------------------------------------

    def _project(self, call: WriteCall) -> int:
        ref = call.match["id"]
        dataset = call.tenant.dataset
        project_id = dataset.project_id_for(int(ref) if ref.isdigit() else ref)
        if project_id is None:
            raise not_found("The requested project does not exist.")
        return int(project_id)

    def _row(self, call: WriteCall) -> Any:
        work_package_id = _id(call.match["id"], "Work package")
        row = call.tenant.dataset.work_package_rows.get(work_package_id)
        if row is None:
            raise not_found("The requested work package does not exist.")
        return row

    async def create_form(self, call: WriteCall) -> JSON:
        self._project(call)
        body = _body(call)
        check = check_work_package(call.tenant.dataset, work_package_draft(body), None)
        path = f"{API}/projects/{call.match['id']}/work_packages/form"
        return call.render.form(path, body, {"_type": "Schema"}, _validation_errors(check))

    async def create(self, call: WriteCall) -> Answer:
        project_id = self._project(call)
        draft = work_package_draft(_body(call))
        _refuse(check_work_package(call.tenant.dataset, draft, None))
        created = call.tenant.writer.create(project_id, draft)
        return Answer(call.render.work_package(created), 201)

    async def update_form(self, call: WriteCall) -> JSON:
        row = self._row(call)
        body = _body(call)
        check = check_work_package(call.tenant.dataset, work_package_draft(body), row)
        path = f"{API}/work_packages/{row.work_package.id}/form"
        return call.render.form(path, body, {"_type": "Schema"}, _validation_errors(check))

    async def update(self, call: WriteCall) -> JSON:
        row = self._row(call)
        body = _body(call)
        lock_version = body.get("lockVersion")
        if not isinstance(lock_version, int) or lock_version != (row.work_package.lock_version or 0):
            raise ApiError(409, "UpdateConflict", CONFLICT)
        draft = work_package_draft(body)
        _refuse(check_work_package(call.tenant.dataset, draft, row))
        try:
            updated = call.tenant.writer.update(row.work_package.id, lock_version, draft)
        except ConflictError:
            raise ApiError(409, "UpdateConflict", CONFLICT) from None
        return call.render.work_package(updated)

    async def comment(self, call: WriteCall) -> Answer:
        row = self._row(call)
        body = _body(call)
        comment = body.get("comment")
        raw = comment.get("raw") if isinstance(comment, dict) else None
        if not isinstance(raw, str):
            raise ApiError(400, "InvalidRequestBody", "comment is missing.")
        internal = body.get("internal", False)
        if not isinstance(internal, bool):
            raise ApiError(422, "PropertyFormatError", "internal must be a boolean.")
        try:
            activity = call.tenant.writer.comment(row.work_package.id, raw, internal=internal)
        except InvalidArgumentError:
            raise validation_failure([("comment", "Comment can't be blank.")]) from None
        return Answer(call.render.activity(row.work_package.id, activity), 201)

    async def available_assignees(self, call: WriteCall) -> JSON:
        project_id = self._project(call)
        users = available_assignees(call.tenant.dataset)
        return call.render.collection(
            [call.render.user(u) for u in users], path=f"{API}/projects/{project_id}/available_assignees"
        )

    # Time entries -----------------------------------------------------------------------------

    def _time_entry_draft(self, call: WriteCall, body: Mapping[str, Any], *, complete: bool) -> TimeEntryDraft | None:
        links = body.get("_links") or {}
        # 17.x reads `entity`; earlier versions `workPackage` (time_entries.entity).
        target = "entity" if self.profile.time_entry_entity else "workPackage"
        work_package_id = _linked(links, target, "work_packages")
        activity_id = _linked(links, "activity", "time_entries/activities")
        hours_text = body.get("hours")
        hours = parse_hours(hours_text) if isinstance(hours_text, str) else None
        if hours_text is not None and hours is None:
            raise ApiError(422, "PropertyFormatError", "hours is not a valid ISO 8601 duration.")
        spent_on = _day(body, "spentOn")
        if work_package_id is None:
            if complete:
                raise validation_failure([("workPackage", "Work package can't be blank.")])
            return None
        comment = body.get("comment")
        return TimeEntryDraft(
            work_package_id=work_package_id,
            hours=hours if hours is not None else 0.0,
            spent_on=spent_on or date.today(),
            activity_id=activity_id,
            comment=comment.get("raw") if isinstance(comment, dict) else None,
        )

    async def time_entry_form(self, call: WriteCall) -> JSON:
        body = _body(call)
        draft = self._time_entry_draft(call, body, complete=False)
        errors: dict[str, JSON] = {}
        if draft is not None and "hours" in body:
            errors = _validation_errors(check_time_entry(call.tenant.dataset, draft))
        return call.render.form(f"{API}/time_entries/form", body, call.render.time_entry_schema(), errors)

    async def log_time(self, call: WriteCall) -> Answer:
        body = _body(call)
        draft = self._time_entry_draft(call, body, complete=True)
        assert draft is not None
        _refuse(check_time_entry(call.tenant.dataset, draft))
        entry = call.tenant.writer.log_time(draft)
        return Answer(call.render.time_entry(entry), 201)

    async def time_entries(self, call: WriteCall) -> JSON:
        listing = parse_listing(call.query, call.page_size_max)
        query = self._time_entry_query(listing.filters or [])
        found = select_time_entries(call.tenant.dataset, query)
        page = listing.page
        first = (page.offset - 1) * page.page_size
        items = found[first : first + page.page_size]
        result = Page(items=tuple(items), total=len(found), offset=page.offset, page_size=page.page_size)
        return call.render.collection(
            [call.render.time_entry(e) for e in items], path=f"{API}/time_entries", page=result
        )

    def _time_entry_query(self, filters: list[Filter]) -> TimeEntryQuery:
        """The filters of ``GET /api/v3/time_entries`` (17.3 spec: entity_type, entity_id, project_id,
        user_id, spent_on...); before the entity link, ``work_package`` instead of ``entity_*``."""
        values: dict[str, Any] = {}
        for f in filters:
            name = f.name
            if name in ("entity_type", "entity_id") and not self.profile.time_entry_entity:
                raise invalid_query(f"Filters {name} filter does not exist.")
            if name == "work_package" and self.profile.time_entry_entity:
                raise invalid_query("Filters Work package filter does not exist.")
            if name == "entity_type":
                if f.operator != "=" or list(f.values) != ["WorkPackage"]:
                    raise invalid_query("Filters Entity type filter has invalid values.")
            elif name in ("entity_id", "work_package"):
                values["work_package_id"] = self._single_id(f, name)
            elif name in ("project_id", "project"):
                values["project_id"] = self._single_id(f, name)
            elif name in ("user_id", "user"):
                values["user_id"] = self._single_id(f, name)
            elif name == "spent_on":
                if f.operator != "<>d" or len(f.values) != 2:
                    raise invalid_query("Filters Date filter has invalid values.")
                start, end = f.values
                values["from_date"] = date.fromisoformat(start) if start else None
                values["to_date"] = date.fromisoformat(end) if end else None
            else:
                raise invalid_query(f"Filters {name} filter does not exist.")
        return TimeEntryQuery(**values)

    @staticmethod
    def _single_id(f: Filter, name: str) -> int:
        if f.operator != "=" or len(f.values) != 1 or not f.values[0].isdigit():
            raise invalid_query(f"Filters {name} filter has invalid values.")
        return int(f.values[0])
