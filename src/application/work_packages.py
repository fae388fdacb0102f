"""Use cases: list work packages, get one work package."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import KW_ONLY, dataclass

from openproject_mcp.application.arguments import JsonArgument, page_request, parse_filters, parse_sort_by, positive_id
from openproject_mcp.application.names import Named, fold_name, resolve_name
from openproject_mcp.application.presenters import work_package_detail, work_package_summary
from openproject_mcp.application.project_scope import ProjectResolver, project_ref
from openproject_mcp.application.views import WorkPackageDetail, WorkPackageList, envelope
from openproject_mcp.application.wiki_knowledge import WikiReferences
from openproject_mcp.domain.errors import InvalidArgumentError
from openproject_mcp.domain.queries import Filter, replace_filters
from openproject_mcp.ports import MetadataRepository, WorkPackageRepository


@dataclass(frozen=True, slots=True)
class WorkPackageScope:
    """The structured filters shared by listing and searching work packages."""

    project_id: int | str | None = None
    status: int | str = "all"
    type: int | str | None = None
    assignee_id: int | str | None = None


async def scope_filters(
    scope: WorkPackageScope, projects: ProjectResolver, metadata: MetadataRepository
) -> list[Filter]:
    """OpenProject filters for a scope. The status filter is always explicit."""
    check_scope(scope)
    filters = [await _status_filter(scope.status, metadata)]
    project_id = await projects.resolve(scope.project_id)
    if project_id is not None:
        filters.append(Filter("project", "=", (str(project_id),)))
    if scope.type is not None:
        filters.append(Filter("type", "=", (str(await _type_id(scope.type, metadata, project_id)),)))
    if scope.assignee_id is not None:
        filters.append(Filter("assignee", "=", (_assignee(scope.assignee_id),)))
    return filters


def check_scope(scope: WorkPackageScope) -> None:
    """Every check of a scope that needs no request: a malformed scope is refused before any is sent."""
    status_filter(scope.status)
    if scope.project_id is not None:
        project_ref(scope.project_id)
    if isinstance(scope.type, str) and not fold_name(scope.type):
        raise InvalidArgumentError(
            "type must not be blank: give a work package type id or name, e.g. Bug.",
            hint="See openproject_list_types.",
        )
    if scope.type is not None and not isinstance(scope.type, str):
        positive_id(scope.type, "type")
    if scope.assignee_id is not None:
        _assignee(scope.assignee_id)


_STATUS_CHOICES = "open, closed, all, a status id or a status name"


def status_filter(status: int | str) -> Filter | None:
    """The filter for a status scope given as a word or an id; ``None`` for what may be a name."""
    if isinstance(status, bool):
        raise InvalidArgumentError(f"status must be {_STATUS_CHOICES}, got {status!r}.")
    if isinstance(status, int):
        return Filter("status", "=", (str(positive_id(status, "status")),))
    value = status.strip().lower()
    if value == "open":
        return Filter("status", "o")
    if value == "closed":
        return Filter("status", "c")
    if value == "all":
        return Filter("status", "*")
    if value.isdigit() and int(value) > 0:
        return Filter("status", "=", (str(int(value)),))
    if not fold_name(value):
        raise InvalidArgumentError(f"status must be {_STATUS_CHOICES}, got a blank string.")
    return None


async def _status_filter(status: int | str, metadata: MetadataRepository) -> Filter:
    found = status_filter(status)
    if found is not None:
        return found
    assert isinstance(status, str)
    status_id = resolve_name(
        status, await metadata.statuses(), argument="status", what="status", listing="openproject_list_statuses"
    )
    return Filter("status", "=", (str(status_id),))


def _assignee(value: int | str) -> str:
    if isinstance(value, str) and value.strip().lower() == "me":
        return "me"
    if isinstance(value, str) and not value.strip().isdigit():
        raise InvalidArgumentError(f"assigneeId must be a user id or 'me', got {value!r}.")
    return str(positive_id(value, "assigneeId"))


async def _type_id(value: int | str, metadata: MetadataRepository, project_id: int | None) -> int:
    if isinstance(value, int) or (isinstance(value, str) and value.strip().isdigit()):
        return positive_id(value, "type")
    types = await metadata.types(project_id)
    return resolve_name(value, types, argument="type", what="work package type", listing="openproject_list_types")


# Raw filters whose values are ids of these, which a caller may also give by name.
_NAMED_FILTERS = ("status", "type", "priority")


async def named_filter_values(
    filters: Sequence[Filter], metadata: MetadataRepository, project_id: int | None
) -> tuple[Filter, ...]:
    """Raw filters with status, type and priority names replaced by their ids."""
    resolved: list[Filter] = []
    for entry in filters:
        names = [v for v in entry.values if not v.strip().isdigit()]
        if entry.name not in _NAMED_FILTERS or not names:
            resolved.append(entry)
            continue
        candidates: Sequence[Named]
        if entry.name == "status":
            candidates, listing = await metadata.statuses(), "openproject_list_statuses"
        elif entry.name == "type":
            candidates, listing = await metadata.types(project_id), "openproject_list_types"
        else:
            candidates, listing = await metadata.priorities(), "openproject_list_priorities"
        values = tuple(
            value
            if value.strip().isdigit()
            else str(
                resolve_name(value, candidates, argument=f"filters ({entry.name})", what=entry.name, listing=listing)
            )
            for value in entry.values
        )
        resolved.append(Filter(entry.name, entry.operator, values))
    return tuple(resolved)


# What a caller may sort work packages by; the snake_case spellings (``updated_at``) are accepted
# too and sent in this camelCase form, which OpenProject's work package query reads.
WORK_PACKAGE_SORT_ATTRIBUTES = (
    "id",
    "subject",
    "type",
    "status",
    "priority",
    "assignee",
    "author",
    "project",
    "startDate",
    "dueDate",
    "createdAt",
    "updatedAt",
    "percentageDone",
)


EVERYWHERE = WorkPackageScope()


@dataclass(frozen=True, slots=True)
class ListWorkPackagesRequest:
    scope: WorkPackageScope = EVERYWHERE
    _: KW_ONLY
    subject: str | None = None
    page_size: int = 20
    offset: int = 1
    sort_by: JsonArgument | None = None
    filters: JsonArgument | None = None


class ListWorkPackages:
    def __init__(
        self, work_packages: WorkPackageRepository, metadata: MetadataRepository, projects: ProjectResolver
    ) -> None:
        self._work_packages = work_packages
        self._metadata = metadata
        self._projects = projects

    async def execute(self, request: ListWorkPackagesRequest) -> WorkPackageList:
        page = page_request(request.offset, request.page_size)
        raw_filters = parse_filters(request.filters)
        sort_by = parse_sort_by(request.sort_by, allowed=WORK_PACKAGE_SORT_ATTRIBUTES)
        generated = await scope_filters(request.scope, self._projects, self._metadata)
        project_id = await self._projects.resolve(request.scope.project_id)
        raw_filters = await named_filter_values(raw_filters, self._metadata, project_id)
        if request.subject is not None and request.subject.strip():
            generated.append(Filter("subject", "~", (request.subject.strip(),)))
        filters = replace_filters(generated, raw_filters)
        result = await self._work_packages.list(filters, sort_by, page)
        return WorkPackageList(
            work_packages=tuple(work_package_summary(w) for w in result.items),
            **envelope(page, result),
        )


@dataclass(frozen=True, slots=True)
class GetWorkPackageRequest:
    work_package_id: int | str


WORK_PACKAGE_FORMS = "an integer id such as 101 (also written #101) or a display id such as DEMO-38"


def work_package_ref(value: int | str, argument: str = "workPackageId") -> int | str:
    """A numeric id, or a display id such as ``DEMO-38``; ``#101`` and spaces around are read too."""
    if isinstance(value, str):
        text = value.strip()
        digits = text.removeprefix("#")
        if digits.isascii() and digits.isdigit():
            return positive_id(digits, argument)
        head, dash, tail = text.rpartition("-")
        if dash and head and tail.isascii() and tail.isdigit() and head.replace("_", "").isalnum():
            return text
        raise InvalidArgumentError(f"{argument} must be {WORK_PACKAGE_FORMS}, got {value!r}.")
    return positive_id(value, argument)


async def work_package_id(value: int | str, work_packages: WorkPackageRepository) -> int:
    """The numeric id ``value`` names: a display id is looked up (one request), an id is not.

    Where the instance has no display ids (before OpenProject 17.5) the lookup answers
    ``OPENPROJECT_NOT_FOUND`` with a hint to use the numeric id, as ``openproject_get_work_package`` does.
    """
    ref = work_package_ref(value)
    if isinstance(ref, int):
        return ref
    return (await work_packages.get(ref)).id


class GetWorkPackage:
    def __init__(self, work_packages: WorkPackageRepository, references: WikiReferences | None = None) -> None:
        self._work_packages = work_packages
        self._references = references

    async def execute(self, request: GetWorkPackageRequest) -> WorkPackageDetail:
        ref = work_package_ref(request.work_package_id)
        found = await self._work_packages.get(ref)
        if self._references is not None:
            self._references.note_texts((found.description,))
        return work_package_detail(found)
