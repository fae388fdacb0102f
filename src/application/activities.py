"""Use case: a work package's activity timeline, optionally ranked against a query."""

from __future__ import annotations

from dataclasses import KW_ONLY, dataclass

from openproject_mcp.application.arguments import match_mode, positive_id, search_query
from openproject_mcp.application.presenters import activity_view
from openproject_mcp.application.ranking import rank
from openproject_mcp.application.views import ActivityList, MatchModeName
from openproject_mcp.application.wiki_knowledge import WikiReferences
from openproject_mcp.domain.entities import Activity
from openproject_mcp.domain.search import Field
from openproject_mcp.ports import WorkPackageRepository

ACTIVITY_FIELDS: tuple[Field[Activity], ...] = (
    Field("comment", 1.0, lambda a: a.comment),
    Field("details", 0.5, lambda a: a.details),
)


@dataclass(frozen=True, slots=True)
class ListActivitiesRequest:
    work_package_id: int
    _: KW_ONLY
    only_comments: bool = False
    query: str | None = None
    match_mode: MatchModeName = "fuzzy"


class ListWorkPackageActivities:
    def __init__(self, work_packages: WorkPackageRepository, references: WikiReferences | None = None) -> None:
        self._work_packages = work_packages
        self._references = references

    async def execute(self, request: ListActivitiesRequest) -> ActivityList:
        work_package_id = positive_id(request.work_package_id, "workPackageId")
        query = search_query(request.query, required=False)
        mode = match_mode(request.match_mode)
        timeline = list(await self._work_packages.activities(work_package_id))
        if self._references is not None:
            self._references.note_texts(a.comment for a in timeline)
        if request.only_comments:
            timeline = [a for a in timeline if a.is_comment]
        if not query:
            views = tuple(activity_view(a) for a in sorted(timeline, key=lambda a: (a.created_at, a.id)))
            return ActivityList(work_package_id, views, total=len(views), count=len(views))
        ranked = await rank(timeline, query, ACTIVITY_FIELDS, key=lambda a: a.id, mode=mode)
        views = tuple(
            activity_view(r.record, score=r.score, snippet=r.matches[0].snippet if r.matches else None) for r in ranked
        )
        return ActivityList(work_package_id, views, total=len(views), count=len(views), match_mode=request.match_mode)
