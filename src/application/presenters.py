"""Entity-to-view mapping: what each tool shows of an entity."""

from __future__ import annotations

from typing import Any

from openproject_mcp.application.views import (
    ActivityView,
    AgendaItemView,
    MeetingSummary,
    ProjectDetail,
    ProjectSummary,
    WorkPackageDetail,
    WorkPackageSummary,
    cut_text,
)
from openproject_mcp.domain.entities import (
    Activity,
    AgendaItem,
    Meeting,
    Project,
    WorkPackage,
)


def project_summary(project: Project) -> ProjectSummary:
    return ProjectSummary(**_project_fields(project))


def project_detail(project: Project) -> ProjectDetail:
    return ProjectDetail(
        **_project_fields(project),
        status=project.status,
        status_explanation=project.status_explanation or None,
    )


def _project_fields(project: Project) -> dict[str, Any]:
    return {
        "id": project.id,
        "identifier": project.identifier,
        "name": project.name,
        "active": project.active,
        "public": project.public,
        "description": project.description or None,
        "parent": project.parent,
        "created_at": project.created_at,
        "updated_at": project.updated_at,
    }


def work_package_summary(wp: WorkPackage) -> WorkPackageSummary:
    return WorkPackageSummary(**_work_package_fields(wp))


def work_package_detail(wp: WorkPackage) -> WorkPackageDetail:
    description, truncated = cut_text(wp.description or None)
    return WorkPackageDetail(
        **_work_package_fields(wp),
        description=description,
        parent=wp.parent,
        children=wp.children or None,
        custom_fields=dict(wp.custom_fields) or None,
        truncated=truncated or None,
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
    comment, truncated = cut_text(activity.comment if activity.is_comment else None)
    return ActivityView(
        id=activity.id,
        version=activity.version,
        created_at=activity.created_at,
        details=activity.details,
        is_comment=activity.is_comment,
        user=activity.user,
        comment=comment,
        score=score,
        snippet=snippet,
        truncated=truncated or None,
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
    return AgendaItemView(
        id=item.id,
        title=item.title,
        position=item.position,
        outcomes=item.outcomes,
        notes=item.notes or None,
        duration_in_minutes=item.duration_in_minutes,
        work_package=item.work_package,
    )
