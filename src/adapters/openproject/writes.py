"""The write ports over OpenProject's API v3: forms first, then one write, never repeated.

- A create or an update is first sent to its ``/form`` endpoint, which validates it with the
  instance's own rules and answers ``_embedded.validationErrors`` (one error per attribute, a
  ``MultipleErrors`` where an attribute has several); nothing is saved there. So a form request,
  although a ``POST``, is repeatable: the client retries it like a read (a reset connection, 502,
  503, 504), and when it still fails the error says that nothing was saved, never that the
  outcome is unknown.
- The write itself (``POST``, ``PATCH``) goes out once. The client never repeats it after it may
  have reached the server, and reports the outcome as unknown instead: after a timeout or a
  dropped connection, and after any 5xx or an answer it cannot interpret.
- A ``409 UpdateConflict`` becomes ``ConflictError``; a ``422`` (or ``400 InvalidRequestBody``)
  becomes ``InvalidArgumentError`` with OpenProject's message: nothing was saved.

Links in request bodies are paths under the instance's base path (``/api/v3/types/1``, or
``/sub/path/api/v3/types/1`` on a sub-path install), as OpenProject renders them itself.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from typing import Any, TypeVar

from yarl import URL

from openproject_mcp.adapters.openproject import endpoints, hal, mapping
from openproject_mcp.adapters.openproject.capabilities import CapabilityCache
from openproject_mcp.adapters.openproject.client import OpenProjectClient, full_stop
from openproject_mcp.adapters.openproject.endpoints import Endpoint, filters_param, sort_param
from openproject_mcp.adapters.openproject.fetching import fetch, reading
from openproject_mcp.application.writes import WritePolicy
from openproject_mcp.domain.durations import iso_hours
from openproject_mcp.domain.entities import Activity, NamedRef, User, WorkPackage
from openproject_mcp.domain.errors import (
    ConflictError,
    InvalidArgumentError,
    InvalidQueryError,
    NetworkError,
    OpenProjectMcpError,
    RequestLimitError,
    UpstreamServerError,
)
from openproject_mcp.domain.queries import Filter, SortKey
from openproject_mcp.domain.writes import (
    FieldError,
    FormCheck,
    TimeEntry,
    TimeEntryActivity,
    TimeEntryDraft,
    TimeEntryQuery,
    WorkPackageDraft,
)
from openproject_mcp.ports.writes import TimeEntryRepository, WorkPackageWriteRepository

T = TypeVar("T")

_MULTIPLE = "MultipleErrors"
TIME_ENTRY_PAGE = 1000
"""Time entries are read in pages of OpenProject's largest page size, to total their hours."""


def _api_path(client: OpenProjectClient, path: str) -> str:
    """``/api/v3/...`` under the instance's base path, as OpenProject's own links are written."""
    return URL(client.base_url).path + path


def _link(client: OpenProjectClient, path: str) -> dict[str, str]:
    return {"href": _api_path(client, path)}


def work_package_body(
    client: OpenProjectClient, draft: WorkPackageDraft, lock_version: int | None = None, *, creating: bool = False
) -> dict[str, Any]:
    """A WorkPackageWriteModel with exactly the attributes ``draft`` gives (and ``lockVersion``).

    A create always carries ``_links``, empty when no link is given: the create's request body
    (``WorkPackageModel``) requires ``subject`` and ``_links`` (the 17.3 document, S125)."""
    body: dict[str, Any] = {}
    if lock_version is not None:
        body["lockVersion"] = lock_version
    if draft.subject is not None:
        body["subject"] = draft.subject
    if draft.description is not None:
        body["description"] = {"raw": draft.description}
    if draft.start_date is not None:
        body["startDate"] = draft.start_date.isoformat()
    if draft.due_date is not None:
        body["dueDate"] = draft.due_date.isoformat()
    if draft.estimated_hours is not None:
        body["estimatedTime"] = iso_hours(draft.estimated_hours)
    if draft.percentage_done is not None:
        body["percentageDone"] = draft.percentage_done
    links: dict[str, dict[str, str]] = {}
    for name, value, template in (
        ("type", draft.type_id, "api/v3/types/{}"),
        ("status", draft.status_id, "api/v3/statuses/{}"),
        ("priority", draft.priority_id, "api/v3/priorities/{}"),
        ("assignee", draft.assignee_id, "api/v3/users/{}"),
        ("parent", draft.parent_id, "api/v3/work_packages/{}"),
    ):
        if value is not None:
            links[name] = _link(client, template.format(value))
    if links or creating:
        body["_links"] = links
    return body


def time_entry_body(client: OpenProjectClient, draft: TimeEntryDraft | None, work_package_id: int) -> dict[str, Any]:
    """A time entry on a work package. The work package goes in ``entity`` (17.x) and in
    ``workPackage`` (the link of earlier versions); each version reads the one it knows."""
    target = _link(client, f"api/v3/work_packages/{work_package_id}")
    links: dict[str, dict[str, str]] = {"entity": target, "workPackage": dict(target)}
    body: dict[str, Any] = {"_links": links}
    if draft is None:
        return body
    body["hours"] = iso_hours(draft.hours)
    body["spentOn"] = draft.spent_on.isoformat()
    if draft.comment:
        body["comment"] = {"raw": draft.comment}
    if draft.activity_id is not None:
        links["activity"] = _link(client, f"api/v3/time_entries/activities/{draft.activity_id}")
    return body


def field_errors(form: hal.FormHal) -> tuple[FieldError, ...]:
    """The form's validation errors, one per message (a ``MultipleErrors`` is unfolded)."""
    found: list[FieldError] = []
    for field, error in form.embedded.validation_errors.items():
        name = (error.error_identifier or "").rsplit(":", 1)[-1]
        singles = error.embedded.errors if name == _MULTIPLE and error.embedded else [error]
        for single in singles:
            found.append(FieldError(field, (single.message or "is invalid.").strip()))
    return tuple(found)


async def _send(
    client: OpenProjectClient, endpoint: Endpoint, path: str, body: dict[str, Any], *, repeatable: bool
) -> bytes:
    """One write (or form) request; OpenProject's refusals become the core's write errors.

    ``repeatable``: whether the request may be sent again after it may have reached OpenProject;
    true for a form only (it saves nothing), false for every write.
    """
    try:
        return await client.request(endpoint.method, path, body=body, repeatable=repeatable)
    except InvalidQueryError as exc:  # 400 InvalidRequestBody, 422 PropertyConstraintViolation / MultipleErrors
        raise InvalidArgumentError(
            exc.message.replace("OpenProject refused the request", "OpenProject refused the change", 1),
            hint="Nothing was saved. Correct the named fields and try again.",
            status=exc.status,
        ) from exc
    except UpstreamServerError as exc:
        if exc.status == 409:
            raise ConflictError(exc.message, status=409) from exc
        raise


def _decode(client: OpenProjectClient, endpoint: Endpoint, path: str, data: bytes, tp: type[T]) -> T:
    with _answer_of(client, endpoint, path):
        return hal.decode(data, tp)


@contextmanager
def _answer_of(client: OpenProjectClient, endpoint: Endpoint, path: str) -> Iterator[None]:
    """Reading a write's (or a form's) answer; an unreadable one says the write probably happened."""
    try:
        yield
    except hal.PayloadError as exc:
        form = path.endswith("/form")
        applied = "" if form else " OpenProject accepted the request, so the change was probably made."
        raise UpstreamServerError(
            client.redact(f"The answer of OpenProject to {endpoint.method} /{path} could not be read: {exc}.{applied}"),
            hint="Nothing was saved (a form only validates); try again later."
            if form
            else "Check the current state in OpenProject before trying again.",
        ) from exc


FORM_SAVES_NOTHING = "Nothing was saved: the change was only being checked (OpenProject's form saves nothing)."
"""What a failed form request adds to its error."""


async def _form(client: OpenProjectClient, endpoint: Endpoint, path: str, body: dict[str, Any]) -> hal.FormHal:
    """A form request: repeated like a read, and a failure says that nothing was saved."""
    try:
        data = await _send(client, endpoint, path, body, repeatable=True)
    except RequestLimitError:
        raise  # raised before the request left, and saying so already
    except (NetworkError, UpstreamServerError) as exc:
        kind = NetworkError if isinstance(exc, NetworkError) else UpstreamServerError
        raise kind(
            f"{full_stop(exc.message)} {FORM_SAVES_NOTHING}",
            hint=" ".join(filter(None, ["Trying again is safe.", exc.hint])),
            status=exc.status,
        ) from exc
    return _decode(client, endpoint, path, data, hal.FormHal)


class AiohttpWorkPackageWriteRepository(WorkPackageWriteRepository):
    def __init__(self, client: OpenProjectClient, policy: WritePolicy) -> None:
        self._client = client
        self._policy = policy

    async def current_user(self) -> User:
        path = endpoints.USER.path(id="me")
        resource = await fetch(self._client, path, hal.UserHal)
        with reading(self._client, path):
            return mapping.user(resource)

    async def available_assignees(self, project_id: int) -> Sequence[User]:
        path = endpoints.PROJECT_AVAILABLE_ASSIGNEES.path(id=project_id)
        collection = await fetch(self._client, path, hal.Collection[hal.UserHal])
        # A principal may come without a name (a group or placeholder rendered short): its login stands in.
        return tuple(
            User(u.id, u.name or u.login or f"User #{u.id}", u.login, u.email, u.status) for u in collection.elements
        )

    async def check_create(self, project_id: int, draft: WorkPackageDraft) -> FormCheck:
        endpoint = endpoints.WORK_PACKAGE_CREATE_FORM
        body = work_package_body(self._client, draft, creating=True)
        form = await _form(self._client, endpoint, endpoint.path(id=project_id), body)
        return FormCheck(field_errors(form))

    async def create(self, project_id: int, draft: WorkPackageDraft) -> WorkPackage:
        self._policy.check("Creating a work package")
        endpoint = endpoints.PROJECT_WORK_PACKAGES_CREATE
        path = endpoint.path(id=project_id)
        body = work_package_body(self._client, draft, creating=True)
        data = await _send(self._client, endpoint, path, body, repeatable=False)
        resource = _decode(self._client, endpoint, path, data, hal.WorkPackageHal)
        with _answer_of(self._client, endpoint, path):
            return mapping.work_package(resource)

    async def check_update(self, work_package_id: int, lock_version: int | None, draft: WorkPackageDraft) -> FormCheck:
        endpoint = endpoints.WORK_PACKAGE_UPDATE_FORM
        body = work_package_body(self._client, draft, lock_version)
        form = await _form(self._client, endpoint, endpoint.path(id=work_package_id), body)
        return FormCheck(field_errors(form))

    async def update(self, work_package_id: int, lock_version: int, draft: WorkPackageDraft) -> WorkPackage:
        self._policy.check("Updating a work package")
        endpoint = endpoints.WORK_PACKAGE_UPDATE
        path = endpoint.path(id=work_package_id)
        data = await _send(
            self._client, endpoint, path, work_package_body(self._client, draft, lock_version), repeatable=False
        )
        resource = _decode(self._client, endpoint, path, data, hal.WorkPackageHal)
        with _answer_of(self._client, endpoint, path):
            return mapping.work_package(resource)

    async def add_comment(self, work_package_id: int, text: str, *, internal: bool = False) -> Activity:
        self._policy.check("Commenting on a work package")
        endpoint = endpoints.WORK_PACKAGE_COMMENT
        path = endpoint.path(id=work_package_id)
        body: dict[str, Any] = {"comment": {"raw": text}}
        if internal:
            body["internal"] = True  # ActivityCommentWriteModel; OpenProject 16.0+
        data = await _send(self._client, endpoint, path, body, repeatable=False)
        resource = _decode(self._client, endpoint, path, data, hal.ActivityHal)
        with _answer_of(self._client, endpoint, path):
            activity = mapping.activity(resource)
        if activity.user is not None and not activity.user.name:
            # OpenProject links the author without a title; the author is the token's own user.
            try:
                me = await self.current_user()
            except OpenProjectMcpError:
                return activity
            if me.id == activity.user.id:
                activity = replace(activity, user=NamedRef(me.id, me.name))
        return activity


TIME_ENTRY_FILTER = "time_entry_filter"
"""The dialect key: ``entity`` (``entity_type``/``entity_id``, 17.x) or ``work_package`` (earlier)."""


class AiohttpTimeEntryRepository(TimeEntryRepository):
    def __init__(self, client: OpenProjectClient, policy: WritePolicy, capabilities: CapabilityCache) -> None:
        self._client = client
        self._policy = policy
        self._capabilities = capabilities

    async def activities(self, work_package_id: int) -> Sequence[TimeEntryActivity]:
        endpoint = endpoints.TIME_ENTRY_FORM
        form = await _form(
            self._client, endpoint, endpoint.path(), time_entry_body(self._client, None, work_package_id)
        )
        field = form.embedded.schema.activity if form.embedded.schema else None
        if field is None:
            return ()
        if field.embedded is not None and field.embedded.allowed_values:
            return tuple(
                TimeEntryActivity(value.id, value.name or "", bool(value.default))
                for value in field.embedded.allowed_values
                if value.id is not None
            )
        links = field.links.allowed_values if field.links else []
        found = ((mapping.id_from_href(link.href), link.title) for link in links)
        return tuple(TimeEntryActivity(i, title or "") for i, title in found if i is not None)

    async def check(self, draft: TimeEntryDraft) -> FormCheck:
        endpoint = endpoints.TIME_ENTRY_FORM
        body = time_entry_body(self._client, draft, draft.work_package_id)
        form = await _form(self._client, endpoint, endpoint.path(), body)
        return FormCheck(field_errors(form))

    async def create(self, draft: TimeEntryDraft) -> TimeEntry:
        self._policy.check("Logging time")
        endpoint = endpoints.TIME_ENTRY_CREATE
        path = endpoint.path()
        data = await _send(
            self._client, endpoint, path, time_entry_body(self._client, draft, draft.work_package_id), repeatable=False
        )
        resource = _decode(self._client, endpoint, path, data, hal.TimeEntryHal)
        with _answer_of(self._client, endpoint, path):
            return mapping.time_entry(resource)

    async def entries(self, query: TimeEntryQuery) -> Sequence[TimeEntry]:
        if query.work_package_id is None:
            return await self._entries(query, entity=True)
        base = self._client.base_url
        known = self._capabilities.dialect(base, TIME_ENTRY_FILTER)
        if known is not None:
            return await self._entries(query, entity=known == "entity")
        try:
            found = await self._entries(query, entity=True)
        except InvalidQueryError:
            # Before the entity link (17.x), time entries are filtered by `work_package`.
            found = await self._entries(query, entity=False)
            self._capabilities.learn_dialect(base, TIME_ENTRY_FILTER, "work_package")
            return found
        self._capabilities.learn_dialect(base, TIME_ENTRY_FILTER, "entity")
        return found

    async def _entries(self, query: TimeEntryQuery, *, entity: bool) -> list[TimeEntry]:
        filters: list[Filter] = []
        if query.work_package_id is not None:
            if entity:
                filters += [
                    Filter("entity_type", "=", ("WorkPackage",)),
                    Filter("entity_id", "=", (str(query.work_package_id),)),
                ]
            else:
                filters.append(Filter("work_package", "=", (str(query.work_package_id),)))
        if query.project_id is not None:
            filters.append(Filter("project_id", "=", (str(query.project_id),)))
        if query.user_id is not None:
            filters.append(Filter("user_id", "=", (str(query.user_id),)))
        if query.from_date is not None or query.to_date is not None:
            bounds = (
                query.from_date.isoformat() if query.from_date else "",
                query.to_date.isoformat() if query.to_date else "",
            )
            filters.append(Filter("spent_on", "<>d", bounds))
        path = endpoints.TIME_ENTRIES.path()
        found: list[TimeEntry] = []
        offset = 1
        while True:
            params: dict[str, str | int] = {
                "filters": filters_param(filters),
                "sortBy": sort_param([SortKey("spent_on", "asc"), SortKey("id", "asc")]),
                "offset": offset,
                "pageSize": TIME_ENTRY_PAGE,
            }
            collection = await fetch(self._client, path, hal.Collection[hal.TimeEntryHal], params)
            with reading(self._client, path):
                found += [mapping.time_entry(e) for e in collection.elements]
            total = collection.total if collection.total is not None else len(found)
            if len(collection.elements) < TIME_ENTRY_PAGE or len(found) >= total:
                return found
            offset += 1


__all__ = [
    "AiohttpTimeEntryRepository",
    "AiohttpWorkPackageWriteRepository",
    "field_errors",
    "time_entry_body",
    "work_package_body",
]
