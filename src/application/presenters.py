"""Entity-to-view mapping: what each tool shows of an entity."""

from __future__ import annotations

from typing import Any

from openproject_mcp.application.views import (
    ActivityView,
    AgendaItemView,
    MeetingSummary,
    ProjectDetail,
    ProjectSummary,
    TextCutter,
    WorkPackageDetail,
    WorkPackageSummary,
)
from openproject_mcp.domain.entities import (
    Activity,
    AgendaItem,
    Meeting,
    Project,
    WorkPackage,
)


def project_summary(project: Project) -> ProjectSummary:
    cut = TextCutter()
    return ProjectSummary(**_project_fields(project, cut), truncated=cut.truncated)


def project_detail(project: Project) -> ProjectDetail:
    cut = TextCutter()
    fields = _project_fields(project, cut)
    explanation = cut(project.status_explanation or None)
    return ProjectDetail(**fields, status=project.status, status_explanation=explanation, truncated=cut.truncated)


def _project_fields(project: Project, cut: TextCutter) -> dict[str, Any]:
    return {
        "id": project.id,
        "identifier": project.identifier,
        "name": project.name,
        "active": project.active,
        "public": project.public,
        "description": cut(project.description or None),
        "parent": project.parent,
        "created_at": project.created_at,
        "updated_at": project.updated_at,
    }


def work_package_summary(wp: WorkPackage) -> WorkPackageSummary:
    return WorkPackageSummary(**_work_package_fields(wp))


def work_package_detail(wp: WorkPackage) -> WorkPackageDetail:
    cut = TextCutter()
    description = cut(wp.description or None)
    custom_fields = {name: cut(value) or "" for name, value in wp.custom_fields}  # long text fields too
    return WorkPackageDetail(
        **_work_package_fields(wp),
        description=description,
        parent=wp.parent,
        children=wp.children or None,
        custom_fields=custom_fields or None,
        truncated=cut.truncated,
    )


def _work_package_fields(wp: WorkPackage) -> dict[str, Any]:
    return {
        "id": wp.id,
        "subject": wp.subject,
        "type": wp.type,
        "status": wp.status,
        "project": wp.project,
        "display_id": wp.display_id,
        "priority": wp.priority,
        "assignee": wp.assignee,
        "author": wp.author,
        "start_date": wp.start_date,
        "due_date": wp.due_date,
        "percentage_done": wp.percentage_done,
        "created_at": wp.created_at,
        "updated_at": wp.updated_at,
    }


def activity_view(activity: Activity, *, score: float | None = None, snippet: str | None = None) -> ActivityView:
    cut = TextCutter()
    comment = cut(activity.comment if activity.is_comment else None)
    return ActivityView(
        id=activity.id,
        version=activity.version,
        created_at=activity.created_at,
        details=cut.all(activity.details),  # a change's details can quote a whole description
        is_comment=activity.is_comment,
        user=activity.user,
        comment=comment,
        score=score,
        snippet=cut(snippet),
        truncated=cut.truncated,
    )


def meeting_summary(meeting: Meeting) -> MeetingSummary:
    return MeetingSummary(**meeting_fields(meeting))


def meeting_fields(meeting: Meeting) -> dict[str, Any]:
    """The summary fields of a meeting, for views that extend the summary."""
    return {
        "id": meeting.id,
        "title": meeting.title,
        "start_time": meeting.start_time,
        "project": meeting.project,
        "end_time": meeting.end_time,
        "duration": meeting.duration_minutes,
        "location": meeting.location or None,
        "state": meeting.state,
        "author": meeting.author,
    }


def agenda_item_view(item: AgendaItem) -> AgendaItemView:
    cut = TextCutter()
    return AgendaItemView(
        id=item.id,
        title=cut(item.title) or "",
        position=item.position,
        outcomes=cut.all(item.outcomes),
        notes=cut(item.notes or None),
        duration_in_minutes=item.duration_in_minutes,
        work_package=item.work_package,
        truncated=cut.truncated,
    )
