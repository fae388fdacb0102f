"""Use cases: list meetings, get one meeting with its agenda."""

from __future__ import annotations

from dataclasses import KW_ONLY, dataclass

from openproject_mcp.application.arguments import page_request, positive_id
from openproject_mcp.application.presenters import agenda_item_view, meeting_summary, meeting_view
from openproject_mcp.application.project_scope import ProjectResolver
from openproject_mcp.application.views import AgendaItemView, MeetingDetail, MeetingList, envelope
from openproject_mcp.domain.entities import AgendaItem
from openproject_mcp.domain.errors import InvalidArgumentError
from openproject_mcp.domain.queries import MeetingOrder, MeetingQuery, MeetingTime
from openproject_mcp.ports import MeetingRepository

AGENDA_UNAVAILABLE = (
    "Agenda items are not available on this OpenProject version (they arrived in 17.4); "
    "only the meeting itself is shown."
)
PARTICIPANTS_UNAVAILABLE = "This OpenProject version does not expose meeting participants."
OUTCOMES_UNAVAILABLE = (
    "This OpenProject version does not show agenda item outcomes through its API (they arrived in 17.6): "
    "an empty outcomes list means unknown, not none."
)
OUTCOMES_CUT = (
    "Some agenda items link more outcomes than are read for one meeting: only the first were read, "
    "the others are missing from the outcomes lists."
)
BACKLOG_NOTE = (
    "{count} item(s) are in this meeting's backlog (topics kept for a later meeting): they are listed "
    "in backlogItems, not on the agenda."
)


@dataclass(frozen=True, slots=True)
class ListMeetingsRequest:
    project_id: int | str | None = None
    _: KW_ONLY
    time: str | None = None
    offset: int = 1
    page_size: int = 20


class ListMeetings:
    def __init__(self, meetings: MeetingRepository, projects: ProjectResolver) -> None:
        self._meetings = meetings
        self._projects = projects

    async def execute(self, request: ListMeetingsRequest) -> MeetingList:
        page = page_request(request.offset, request.page_size)
        time: MeetingTime | None = None
        if request.time == "upcoming":
            time = "upcoming"
        elif request.time == "past":
            time = "past"
        elif request.time is not None:
            raise InvalidArgumentError(f"time must be 'upcoming' or 'past', got {request.time!r}.")
        project_id = await self._projects.resolve(request.project_id)
        # Upcoming meetings soonest first; past ones most recent first; without a time, by start.
        order: MeetingOrder = "newest_first" if time == "past" else "earliest_first"
        result = await self._meetings.list(MeetingQuery(project_id=project_id, time=time, order=order), page)
        return MeetingList(
            meetings=tuple(meeting_summary(m) for m in result.items),
            **envelope(page, result),
        )


@dataclass(frozen=True, slots=True)
class GetMeetingRequest:
    meeting_id: int
    _: KW_ONLY
    include_agenda_items: bool = True


class GetMeeting:
    def __init__(self, meetings: MeetingRepository) -> None:
        self._meetings = meetings

    async def execute(self, request: GetMeetingRequest) -> MeetingDetail:
        meeting_id = positive_id(request.meeting_id, "id")
        notes: list[str] = []
        agenda = backlog = None
        if request.include_agenda_items:
            # details() reads the meeting itself: get() after it costs no second request.
            details = await self._meetings.details(meeting_id)
            meeting = await self._meetings.get(meeting_id)
            participants = details.participants
            if details.agenda_items is None:
                notes.append(AGENDA_UNAVAILABLE)
            else:
                agenda = _items(details.agenda_items)
                if not details.outcomes_readable:
                    notes.append(OUTCOMES_UNAVAILABLE)
                if details.outcomes_cut:
                    notes.append(OUTCOMES_CUT)
            if details.backlog_items:
                backlog = _items(details.backlog_items)
                notes.append(BACKLOG_NOTE.format(count=len(backlog)))
        else:
            # Without the agenda no agenda request is sent: the participants come with the meeting.
            meeting = await self._meetings.get(meeting_id)
            participants = await self._meetings.participants(meeting_id)
        if participants is None:
            notes.append(PARTICIPANTS_UNAVAILABLE)
        return meeting_view(
            MeetingDetail,
            meeting,
            participants=participants or None,
            agenda_items=agenda,
            backlog_items=backlog,
            notes=tuple(notes) or None,
        )


def _items(items: tuple[AgendaItem, ...]) -> tuple[AgendaItemView, ...]:
    return tuple(agenda_item_view(i) for i in sorted(items, key=lambda i: (i.position, i.id)))
