"""MCP prompts: what assistants are asked for, assembled from real data fetched by the tools' use cases.

A prompt's message holds the task and the data it needs, read with the caller's own scope when
the prompt is fetched (each read bounded like a tool call), rendered as the tools' text renders
results: one notice, then JSON with every user-written value fenced. The task names the tools
that go further, so a model that can call tools continues from there, and one that cannot still
has what it needs. What could not be read is said in the message, never left out silently.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import partial
from typing import Any, Final, TypeVar

from mcp.types import GetPromptResult, Prompt, PromptArgument, PromptMessage, TextContent

from openproject_mcp.adapters.mcp.catalog import UseCaseScope
from openproject_mcp.adapters.mcp.resources import text_parts
from openproject_mcp.adapters.mcp.wire import to_wire
from openproject_mcp.application.concurrency import map_bounded
from openproject_mcp.application.meetings import GetMeeting, GetMeetingRequest, ListMeetings, ListMeetingsRequest
from openproject_mcp.application.projects import GetProject, GetProjectRequest
from openproject_mcp.application.result_size import ResultFormat, fit_result
from openproject_mcp.application.search_meetings import SearchMeetings, SearchMeetingsRequest
from openproject_mcp.application.search_work_packages import SearchWorkPackages, SearchWorkPackagesRequest
from openproject_mcp.application.work_packages import (
    GetWorkPackage,
    GetWorkPackageRequest,
    ListWorkPackages,
    ListWorkPackagesRequest,
    WorkPackageScope,
)
from openproject_mcp.domain.errors import InvalidArgumentError, OpenProjectMcpError

T = TypeVar("T")

OPEN_WORK_PACKAGES: Final = 25
CLOSED_WORK_PACKAGES: Final = 10
MEETINGS_AHEAD: Final = 5
MEETINGS_BEHIND: Final = 3
DECISION_MEETINGS: Final = 3
"""Meetings read whole (with their outcomes) for "what did we decide"."""
SEARCH_HITS: Final = 5
LINKED_WORK_PACKAGES: Final = 10
SERIES_LOOKBACK: Final = 20
"""Past meetings of the project looked through for the previous one of the same title."""
MAX_TOPIC_CHARS: Final = 200


@dataclass(frozen=True, slots=True)
class Section:
    """One block of data in a prompt: a heading saying what it is and how it was read, and the data."""

    heading: str
    data: Any


@dataclass(frozen=True, slots=True)
class Assembled:
    description: str
    task: str
    sections: tuple[Section, ...]


Builder = Callable[[Mapping[str, str], UseCaseScope, int], Awaitable[Assembled]]


@dataclass(frozen=True, slots=True)
class PromptSpec:
    name: str
    title: str
    description: str
    arguments: tuple[PromptArgument, ...]
    build: Builder

    def model(self) -> Prompt:
        return Prompt(name=self.name, title=self.title, description=self.description, arguments=list(self.arguments))

    def checked(self, given: Mapping[str, str] | None) -> dict[str, str]:
        """The arguments, stripped; an error naming what is missing or unknown before anything is read."""
        values = {name: value.strip() for name, value in (given or {}).items()}
        names = [a.name for a in self.arguments]
        unknown = sorted(set(values) - set(names))
        if unknown:
            raise InvalidArgumentError(
                f"The prompt {self.name} has no argument {unknown[0]!r}; its arguments are {', '.join(names)}."
            )
        for argument in self.arguments:
            if argument.required and not values.get(argument.name):
                raise InvalidArgumentError(
                    f"The prompt {self.name} needs the argument {argument.name!r}: {argument.description}"
                )
        return {name: value for name, value in values.items() if value}


async def _attempt(heading: str, read: Callable[[], Awaitable[Any]], max_chars: int) -> Section:
    """A section, or one saying why its data could not be read (an expired token still fails the prompt)."""
    try:
        return Section(heading, to_wire(fit_result(await read(), max_chars)))
    except OpenProjectMcpError as error:
        if error.aborts_search:
            raise
        return Section(heading, {"notRead": error.message})


Read = tuple[str, Callable[[], Awaitable[Any]]]
"""A section's heading and how its data is read."""


async def _attempt_all(reads: Sequence[Read], max_chars: int) -> list[Section]:
    """The sections of independent reads, read at once (the per-user bound on requests in flight
    still holds), in the order given. A read that ends the prompt (an expired token) cancels the others."""
    if not reads:
        return []
    return await map_bounded(reads, len(reads), lambda read: _attempt(*read, max_chars))


@asynccontextmanager
async def _beside(work: Awaitable[T]) -> AsyncIterator[asyncio.Future[T]]:
    """``work`` started now, to be awaited later; cancelled if the block ends without it."""
    task = asyncio.ensure_future(work)
    try:
        yield task
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)


def _today() -> str:
    return datetime.now(UTC).date().isoformat()


async def _project_status(arguments: Mapping[str, str], scope: UseCaseScope, max_chars: int) -> Assembled:
    project_ref = arguments["project"]
    project = await (await scope.resolve(GetProject)).execute(GetProjectRequest(project_ref))
    work_packages = await scope.resolve(ListWorkPackages)
    meetings = await scope.resolve(ListMeetings)
    listed = await _attempt_all(
        (
            (
                f"Open work packages, the {OPEN_WORK_PACKAGES} most recently updated (openproject_list_work_packages "
                f"projectId={project.identifier} status=open)",
                lambda: work_packages.execute(
                    ListWorkPackagesRequest(
                        WorkPackageScope(project.id, "open"), page_size=OPEN_WORK_PACKAGES, sort_by="updatedAt:desc"
                    )
                ),
            ),
            (
                f"Closed work packages, the {CLOSED_WORK_PACKAGES} most recently updated (status=closed)",
                lambda: work_packages.execute(
                    ListWorkPackagesRequest(
                        WorkPackageScope(project.id, "closed"),
                        page_size=CLOSED_WORK_PACKAGES,
                        sort_by="updatedAt:desc",
                    )
                ),
            ),
            (
                f"The next {MEETINGS_AHEAD} meetings (openproject_list_meetings time=upcoming)",
                lambda: meetings.execute(ListMeetingsRequest(project.id, time="upcoming", page_size=MEETINGS_AHEAD)),
            ),
            (
                f"The last {MEETINGS_BEHIND} meetings (openproject_list_meetings time=past)",
                lambda: meetings.execute(ListMeetingsRequest(project.id, time="past", page_size=MEETINGS_BEHIND)),
            ),
        ),
        max_chars,
    )
    sections = (
        Section(f"The project (openproject_get_project projectId={project.identifier})", to_wire(project)),
        *listed,
    )
    task = (
        f"Write a status summary of the OpenProject project {project.identifier!r} (data below, read {_today()}). "
        "Cover: the overall state in two sentences; progress (what was closed recently); what is open, grouped by "
        f"status, with anything whose due date is before {_today()} called out as overdue; risks and blockers "
        "visible in the data; the next meetings. Cite work packages by display id or #id. Where a list's total is "
        "larger than its count, say the summary covers only part of it rather than guessing. To go deeper, use "
        "openproject_search_work_packages, openproject_get_work_package and openproject_get_meeting."
    )
    return Assembled(f"Status summary of project {project.identifier}", task, sections)


async def _what_did_we_decide(arguments: Mapping[str, str], scope: UseCaseScope, max_chars: int) -> Assembled:
    topic = arguments["topic"]
    if len(topic) > MAX_TOPIC_CHARS:
        raise InvalidArgumentError(f"topic must be at most {MAX_TOPIC_CHARS} characters, got {len(topic)}.")
    project = arguments.get("project")
    search_meetings = await scope.resolve(SearchMeetings)
    search_work_packages = await scope.resolve(SearchWorkPackages)
    get_meeting = await scope.resolve(GetMeeting)
    # The work package search does not wait for the meetings: both run at once.
    work_package_search = _attempt(
        f"Work packages matching the topic (openproject_search_work_packages query={topic!r})",
        lambda: search_work_packages.execute(
            SearchWorkPackagesRequest(topic, scope=WorkPackageScope(project), page_size=SEARCH_HITS)
        ),
        max_chars,
    )
    async with _beside(work_package_search) as work_packages_found:
        found = await search_meetings.execute(SearchMeetingsRequest(topic, project_id=project, page_size=SEARCH_HITS))
        sections = [
            Section(f"Meetings matching the topic (openproject_search_meetings query={topic!r})", to_wire(found))
        ]
        sections += await _attempt_all(
            [
                (
                    f"Meeting {hit.meeting.id} with its agenda items and outcomes "
                    f"(openproject_get_meeting id={hit.meeting.id})",
                    partial(get_meeting.execute, GetMeetingRequest(hit.meeting.id)),
                )
                for hit in found.elements[:DECISION_MEETINGS]
            ],
            max_chars,
        )
        sections.append(await work_packages_found)
    where = f" in project {project!r}" if project else ""
    task = (
        f"What did we decide about {topic!r}{where}? Answer from the OpenProject data below. Agenda items' outcomes "
        "are the decisions a meeting recorded: use them first, each with the meeting's title and date and the "
        "agenda item, quoting the outcome. Then add what work packages say (descriptions, comments), citing them "
        "by display id or #id. If no outcome records a decision on this topic, say that plainly and describe what "
        "was discussed instead; never present a discussion as a decision. The search answers' notes say what "
        "this instance could not search (for example agenda items before OpenProject 17.4): mention such gaps. "
        "To look further, use openproject_search_meetings and openproject_get_meeting."
    )
    return Assembled(f"Decisions about {topic[:60]}", task, tuple(sections))


async def _prepare_meeting(arguments: Mapping[str, str], scope: UseCaseScope, max_chars: int) -> Assembled:
    raw = arguments["meeting"]
    if not (raw.isascii() and raw.isdigit()) or int(raw) < 1:
        raise InvalidArgumentError(f"meeting must be a meeting id (a positive integer), got {raw[:50]!r}.")
    get_meeting = await scope.resolve(GetMeeting)
    meeting = await get_meeting.execute(GetMeetingRequest(int(raw)))
    sections = [
        Section(f"The meeting (openproject_get_meeting id={meeting.id})", to_wire(fit_result(meeting, max_chars)))
    ]
    linked: dict[int, str] = {}
    for item in meeting.agenda_items or ():
        if item.work_package is not None and len(linked) < LINKED_WORK_PACKAGES:
            linked.setdefault(item.work_package.id, item.title)
    get_work_package = await scope.resolve(GetWorkPackage)
    # The linked work packages and the search for the previous meeting of the series, at once.
    lookup = _previous_of_series(meeting.id, meeting.title, meeting.start_time, meeting.project.id, scope)
    async with _beside(lookup) as previous_found:
        sections += await _attempt_all(
            [
                (
                    f"Work package #{work_package_id}, linked from the agenda "
                    f"(openproject_get_work_package workPackageId={work_package_id})",
                    partial(get_work_package.execute, GetWorkPackageRequest(work_package_id)),
                )
                for work_package_id in linked
            ],
            max_chars,
        )
        previous = await previous_found
    if previous is not None:
        sections.append(
            await _attempt(
                f"The previous meeting of the same title, {previous}, with its outcomes (openproject_get_meeting "
                f"id={previous})",
                partial(get_meeting.execute, GetMeetingRequest(previous)),
                max_chars,
            )
        )
    else:
        sections.append(
            Section(
                "The previous meeting of the same title",
                {"notFound": f"None among the last {SERIES_LOOKBACK} past meetings of the project."},
            )
        )
    task = (
        f"Prepare me for meeting {meeting.id} on {meeting.start_time.date().isoformat()} (data below). For each "
        "agenda item: what it is about, the state of its linked work package (status, assignee, due date, what "
        "is still open) and the questions worth raising. Then: what the previous meeting of the same title "
        "decided (its outcomes) and whether the work it asked for shows progress; anything in the backlog "
        "worth pulling in; what to read beforehand. Base everything on the data; cite work packages by display "
        "id or #id. For more, use openproject_get_work_package, openproject_list_work_package_activities and "
        "openproject_search_meetings."
    )
    return Assembled(f"Preparation for meeting {meeting.id}", task, tuple(sections))


async def _previous_of_series(
    meeting_id: int, title: str, start: datetime, project_id: int, scope: UseCaseScope
) -> int | None:
    try:
        past = await (await scope.resolve(ListMeetings)).execute(
            ListMeetingsRequest(project_id, time="past", page_size=SERIES_LOOKBACK)
        )
    except OpenProjectMcpError as error:
        if error.aborts_search:
            raise
        return None
    earlier = [m for m in past.meetings if m.id != meeting_id and m.title == title and m.start_time < start]
    return max(earlier, key=lambda m: m.start_time).id if earlier else None


PROJECT_ARGUMENT = PromptArgument(
    name="project", description="A project id or identifier (completion lists yours).", required=True
)
PROMPTS: tuple[PromptSpec, ...] = (
    PromptSpec(
        "project_status",
        "Project status summary",
        "A status summary of one project: recent progress, open and overdue work, risks, the next meetings; "
        "built from the project's work packages and meetings as they are now.",
        (PROJECT_ARGUMENT,),
        _project_status,
    ),
    PromptSpec(
        "what_did_we_decide",
        "What did we decide about…",
        "What was decided about a topic: meeting outcomes first, then work packages, each cited; says so when "
        "nothing was decided.",
        (
            PromptArgument(name="topic", description="What the decision was about, in a few words.", required=True),
            PromptArgument(name="project", description="Only this project (id or identifier).", required=False),
        ),
        _what_did_we_decide,
    ),
    PromptSpec(
        "prepare_meeting",
        "Meeting preparation",
        "A briefing for one meeting: each agenda item with its linked work package's state, what the previous "
        "meeting of the same title decided, and what to read beforehand.",
        (PromptArgument(name="meeting", description="A meeting id (completion lists meetings).", required=True),),
        _prepare_meeting,
    ),
)
PROMPTS_BY_NAME: Final = {spec.name: spec for spec in PROMPTS}


def prompt_named(name: str) -> PromptSpec:
    spec = PROMPTS_BY_NAME.get(name)
    if spec is None:
        raise InvalidArgumentError(
            f"There is no prompt named {name[:100]!r}; the prompts are {', '.join(PROMPTS_BY_NAME)}."
        )
    return spec


async def get_prompt(
    name: str,
    arguments: Mapping[str, str] | None,
    scope: UseCaseScope,
    *,
    max_result_chars: int,
    result_format: ResultFormat = "full",
) -> GetPromptResult:
    spec = prompt_named(name)
    checked = spec.checked(arguments)
    assembled = await spec.build(checked, scope, max_result_chars)
    nonce = secrets.token_hex(4)  # one fence for every section, so the notice is said once
    blocks = [assembled.task]
    for index, section in enumerate(assembled.sections):
        notice, text = text_parts(section.data, result_format, nonce=nonce)
        if index == 0:
            blocks.append(notice)
        blocks.append(f"## {section.heading}\n{text}")
    message = PromptMessage(role="user", content=TextContent(type="text", text="\n\n".join(blocks)))
    return GetPromptResult(description=assembled.description, messages=[message])
