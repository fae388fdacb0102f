"""Use cases: list saved queries, run one saved query."""

from __future__ import annotations

from dataclasses import KW_ONLY, dataclass

from openproject_mcp.application.arguments import page_request, positive_id
from openproject_mcp.application.presenters import derive, work_package_summary
from openproject_mcp.application.project_scope import ProjectResolver
from openproject_mcp.application.views import (
    SavedQueryDefinition,
    SavedQueryList,
    SavedQueryResult,
    SavedQuerySummary,
    WorkPackageList,
    envelope,
)
from openproject_mcp.ports import QueryRepository


@dataclass(frozen=True, slots=True)
class ListQueriesRequest:
    project_id: int | str | None = None
    _: KW_ONLY
    page_size: int = 20
    offset: int = 1


class ListQueries:
    def __init__(self, queries: QueryRepository, projects: ProjectResolver) -> None:
        self._queries = queries
        self._projects = projects

    async def execute(self, request: ListQueriesRequest) -> SavedQueryList:
        page = page_request(request.offset, request.page_size)
        project_id = await self._projects.resolve(request.project_id)
        result = await self._queries.list(project_id, page)
        return SavedQueryList(
            queries=tuple(derive(SavedQuerySummary, q) for q in result.items),
            **envelope(page, result),
        )


@dataclass(frozen=True, slots=True)
class GetQueryRequest:
    query_id: int
    _: KW_ONLY
    page_size: int = 20
    offset: int = 1


class GetQuery:
    def __init__(self, queries: QueryRepository) -> None:
        self._queries = queries

    async def execute(self, request: GetQueryRequest) -> SavedQueryResult:
        query_id = positive_id(request.query_id, "queryId")
        page = page_request(request.offset, request.page_size)
        query, results = await self._queries.get(query_id, page)
        return SavedQueryResult(
            query=derive(SavedQueryDefinition, query),
            results=WorkPackageList(
                work_packages=tuple(work_package_summary(w) for w in results.items),
                **envelope(page, results),
            ),
        )
