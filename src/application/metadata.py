"""Use cases: types, statuses, priorities and users."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, get_args

from openproject_mcp.application.arguments import page_request
from openproject_mcp.application.project_scope import ProjectResolver
from openproject_mcp.application.views import (
    PriorityList,
    StatusList,
    TypeList,
    UserList,
    envelope,
)
from openproject_mcp.domain.errors import ForbiddenError, InvalidArgumentError
from openproject_mcp.domain.queries import Filter
from openproject_mcp.ports import MetadataRepository

UserStatus = Literal["active", "registered", "locked", "invited"]
USER_STATUSES: tuple[str, ...] = get_args(UserStatus)


@dataclass(frozen=True, slots=True)
class ListTypesRequest:
    project_id: int | str | None = None


class ListTypes:
    def __init__(self, metadata: MetadataRepository, projects: ProjectResolver) -> None:
        self._metadata = metadata
        self._projects = projects

    async def execute(self, request: ListTypesRequest) -> TypeList:
        project_id = await self._projects.resolve(request.project_id)
        types = await self._metadata.types(project_id)
        return TypeList(tuple(types))


class ListStatuses:
    def __init__(self, metadata: MetadataRepository) -> None:
        self._metadata = metadata

    async def execute(self) -> StatusList:
        statuses = await self._metadata.statuses()
        return StatusList(tuple(statuses))


class ListPriorities:
    def __init__(self, metadata: MetadataRepository) -> None:
        self._metadata = metadata

    async def execute(self) -> PriorityList:
        priorities = await self._metadata.priorities()
        return PriorityList(tuple(priorities))


@dataclass(frozen=True, slots=True, kw_only=True)
class ListUsersRequest:
    page_size: int = 20
    offset: int = 1
    status: str | None = None
    name: str | None = None


class ListUsers:
    """Users through ``/users``; where that needs admin rights, through ``/principals``."""

    def __init__(self, metadata: MetadataRepository) -> None:
        self._metadata = metadata

    async def execute(self, request: ListUsersRequest) -> UserList:
        page = page_request(request.offset, request.page_size)
        filters: list[Filter] = []
        if request.status is not None:
            status = request.status.strip().lower()
            if status not in USER_STATUSES:
                raise InvalidArgumentError(f"status must be one of {', '.join(USER_STATUSES)}, got {request.status!r}.")
            filters.append(Filter("status", "=", (status,)))
        if request.name is not None and request.name.strip():
            filters.append(Filter("name", "~", (request.name.strip(),)))
        notes: tuple[str, ...] | None = None
        try:
            result = await self._metadata.users(filters, page)
        except ForbiddenError:
            result = await self._metadata.principals(filters, page)
            notes = (
                "Listing users needs admin rights on this instance, so these are the users visible to you "
                "as project members (/api/v3/principals); login, email and status may be missing.",
            )
        return UserList(
            users=tuple(result.items),
            **envelope(page, result),
            notes=notes,
        )
