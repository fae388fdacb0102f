"""Use case: a work package's activity timeline, optionally ranked against a query."""

from __future__ import annotations

from dataclasses import KW_ONLY, dataclass

from openproject_mcp.application.arguments import match_mode, search_query
from openproject_mcp.application.presenters import activity_view
from openproject_mcp.application.ranking import rank
from openproject_mcp.application.views import ActivityList, MatchModeName
from openproject_mcp.application.wiki_knowledge import WikiReferences
from openproject_mcp.application.work_packages import work_package_id, work_package_ref
from openproject_mcp.domain.entities import Activity
from openproject_mcp.domain.search import Field
from openproject_mcp.ports import WorkPackageRepository

ACTIVITY_FIELDS: tuple[Field[Activity], ...] = (
    Field("comment", 1.0, lambda a: a.comment),
    Field("details", 0.5, lambda a: a.details),
)


@dataclass(frozen=True, slots=True)
class ListActivitiesRequest:
    work_package_id: int | str
    _: KW_ONLY
    only_comments: bool = False
    query: str | None = None
    match_mode: MatchModeName = "fuzzy"


class ListWorkPackageActivities:
    def __init__(self, work_packages: WorkPackageRepository, references: WikiReferences | None = None) -> None:
        self._work_packages = work_packages
        self._references = references

    async def execute(self, request: ListActivitiesRequest) -> ActivityList:
        ref = work_package_ref(request.work_package_id)
        query = search_query(request.query, required=False)
        mode = match_mode(request.match_mode)
        numeric_id = await work_package_id(ref, self._work_packages)
        timeline = list(await self._work_packages.activities(numeric_id))
        if self._references is not None:
            self._references.note_texts(a.comment for a in timeline)
        if request.only_comments:
            timeline = [a for a in timeline if a.is_comment]
        if not query:
            views = tuple(activity_view(a) for a in sorted(timeline, key=lambda a: (a.created_at, a.id)))
            return ActivityList(numeric_id, views, total=len(views), count=len(views))
        ranked = await rank(timeline, query, ACTIVITY_FIELDS, key=lambda a: a.id, mode=mode)
        views = tuple(
            activity_view(r.record, score=r.score, snippet=r.matches[0].snippet if r.matches else None) for r in ranked
        )
        return ActivityList(numeric_id, views, total=len(views), count=len(views), match_mode=request.match_mode)
