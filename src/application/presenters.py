"""Entity-to-view mapping: what each tool shows of an entity.

A view takes every field it shares with its entity by name (:func:`derive`); a presenter names
only what differs: texts cut at the limit, renamed or reshaped fields, empty values left out.
"""

from __future__ import annotations

import dataclasses
from typing import Any, TypeVar

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
from openproject_mcp.domain.entities import Activity, AgendaItem, Meeting, Project, WorkPackage

V = TypeVar("V")
M = TypeVar("M", bound=MeetingSummary)


def derive(view: type[V], entity: object, **changes: Any) -> V:
    """``view`` with each of its fields taken from ``entity``'s field of the same name, then ``changes``.

    A view field the entity lacks keeps its default (``truncated``, ``notes``); a required one
    must be in ``changes``, or the view cannot be built.
    """
    own = {f.name for f in dataclasses.fields(entity)}  # type: ignore[arg-type]
    taken = {f.name: getattr(entity, f.name) for f in dataclasses.fields(view) if f.name in own}  # type: ignore[arg-type]
    return view(**(taken | changes))


def project_summary(project: Project) -> ProjectSummary:
    cut = TextCutter()
    return derive(ProjectSummary, project, description=cut(project.description or None), truncated=cut.truncated)


def project_detail(project: Project) -> ProjectDetail:
    cut = TextCutter()
    description, explanation = cut(project.description or None), cut(project.status_explanation or None)
    return derive(
        ProjectDetail, project, description=description, status_explanation=explanation, truncated=cut.truncated
    )


def work_package_summary(wp: WorkPackage) -> WorkPackageSummary:
    return derive(WorkPackageSummary, wp)


def work_package_detail(wp: WorkPackage) -> WorkPackageDetail:
    cut = TextCutter()
    description = cut(wp.description or None)
    custom_fields = {name: cut(value) or "" for name, value in wp.custom_fields}  # long text fields too
    return derive(
        WorkPackageDetail,
        wp,
        description=description,
        children=wp.children or None,
        custom_fields=custom_fields or None,
        truncated=cut.truncated,
    )


def activity_view(activity: Activity, *, score: float | None = None, snippet: str | None = None) -> ActivityView:
    cut = TextCutter()
    comment = cut(activity.comment if activity.is_comment else None)
    details = cut.all(activity.details)  # a change's details can quote a whole description
    return derive(
        ActivityView,
        activity,
        is_comment=activity.is_comment,
        comment=comment,
        details=details,
        score=score,
        snippet=cut(snippet),
        truncated=cut.truncated,
    )


def meeting_summary(meeting: Meeting) -> MeetingSummary:
    return meeting_view(MeetingSummary, meeting)


def meeting_view(view: type[M], meeting: Meeting, **details: Any) -> M:
    """A meeting as ``view`` (a summary, or a detail with its ``details``: participants, agenda...)."""
    return derive(view, meeting, duration=meeting.duration_minutes, location=meeting.location or None, **details)


def agenda_item_view(item: AgendaItem) -> AgendaItemView:
    cut = TextCutter()
    texts = {"title": cut(item.title) or "", "outcomes": cut.all(item.outcomes), "notes": cut(item.notes or None)}
    return derive(AgendaItemView, item, **texts, truncated=cut.truncated)
