"""Use cases: list projects, get one project."""

from __future__ import annotations

from dataclasses import dataclass

from openproject_mcp.application.arguments import JsonArgument, page_request, parse_filters, parse_sort_by
from openproject_mcp.application.presenters import project_detail, project_summary
from openproject_mcp.application.project_scope import project_ref
from openproject_mcp.application.views import ProjectDetail, ProjectList, envelope
from openproject_mcp.ports import ProjectRepository

# What a caller may sort projects by, as results name it (either spelling is accepted), mapped to
# the snake_case name OpenProject's projects query documents.
PROJECT_SORT_ATTRIBUTES = {
    "id": "id",
    "name": "name",
    "typeahead": "typeahead",
    "createdAt": "created_at",
    "public": "public",
    "latestActivityAt": "latest_activity_at",
}


@dataclass(frozen=True, slots=True, kw_only=True)
class ListProjectsRequest:
    page_size: int = 20
    offset: int = 1
    sort_by: JsonArgument | None = None
    filters: JsonArgument | None = None


class ListProjects:
    def __init__(self, projects: ProjectRepository) -> None:
        self._projects = projects

    async def execute(self, request: ListProjectsRequest) -> ProjectList:
        page = page_request(request.offset, request.page_size)
        filters = parse_filters(request.filters)
        sort_by = parse_sort_by(request.sort_by, allowed=PROJECT_SORT_ATTRIBUTES)
        result = await self._projects.list(filters, sort_by, page)
        return ProjectList(
            projects=tuple(project_summary(p) for p in result.items),
            **envelope(page, result),
        )


@dataclass(frozen=True, slots=True)
class GetProjectRequest:
    project_id: int | str


class GetProject:
    def __init__(self, projects: ProjectRepository) -> None:
        self._projects = projects

    async def execute(self, request: GetProjectRequest) -> ProjectDetail:
        return project_detail(await self._projects.get(project_ref(request.project_id)))
