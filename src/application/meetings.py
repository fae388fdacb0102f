"""Use cases: list meetings, get one meeting with its agenda."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from openproject_mcp.application.arguments import page_request, positive_id
from openproject_mcp.application.presenters import agenda_item_view, meeting_fields, meeting_summary
from openproject_mcp.application.project_scope import ProjectResolver
from openproject_mcp.application.views import MeetingDetail, MeetingList, envelope
from openproject_mcp.domain.errors import InvalidArgumentError
from openproject_mcp.domain.queries import Filter, SortKey
from openproject_mcp.ports import MeetingRepository

AGENDA_UNAVAILABLE = (
    "Agenda items are not available on this OpenProject version (they arrived in 17.4); "
    "only the meeting itself is shown."
)
PARTICIPANTS_UNAVAILABLE = "This OpenProject version does not expose meeting participants."


@dataclass(frozen=True, slots=True)
class ListMeetingsRequest:
    project_id: int | str | None = None
    time: str | None = None
    offset: int = 1
    page_size: int = 20


class ListMeetings:
    def __init__(self, meetings: MeetingRepository, projects: ProjectResolver) -> None:
        self._meetings = meetings
        self._projects = projects

    async def execute(self, request: ListMeetingsRequest) -> MeetingList:
        page = page_request(request.offset, request.page_size)
        filters: list[Filter] = []
        sort = (SortKey("startTime", "asc"), SortKey("id", "asc"))
        if request.time is not None:
            if request.time not in ("upcoming", "past"):
                raise InvalidArgumentError(f"time must be 'upcoming' or 'past', got {request.time!r}.")
            filters.append(Filter("time", "=", (request.time,)))
            if request.time == "past":
                sort = (SortKey("startTime", "desc"), SortKey("id", "asc"))
        project_id = await self._projects.resolve(request.project_id)
        if project_id is not None:
            filters.append(Filter("project", "=", (str(project_id),)))
        result = await self._meetings.list(filters, sort, page)
        return MeetingList(
            meetings=tuple(meeting_summary(m) for m in result.items),
            **envelope(page, result),
        )


@dataclass(frozen=True, slots=True)
class GetMeetingRequest:
    meeting_id: int
    include_agenda_items: bool = True


class GetMeeting:
    def __init__(self, meetings: MeetingRepository) -> None:
        self._meetings = meetings

    async def execute(self, request: GetMeetingRequest) -> MeetingDetail:
        meeting_id = positive_id(request.meeting_id, "id")
        meeting, details = await asyncio.gather(self._meetings.get(meeting_id), self._meetings.details(meeting_id))
        notes: list[str] = []
        agenda = None
        if request.include_agenda_items:
            if details.agenda_items is None:
                notes.append(AGENDA_UNAVAILABLE)
            else:
                agenda = tuple(agenda_item_view(i) for i in sorted(details.agenda_items, key=lambda i: i.position))
        if details.participants is None:
            notes.append(PARTICIPANTS_UNAVAILABLE)
        return MeetingDetail(
            **meeting_fields(meeting),
            participants=details.participants or None,
            agenda_items=agenda,
            notes=tuple(notes) or None,
        )
