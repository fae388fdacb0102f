"""The tools: names, titles, descriptions, argument structs, result types and handlers.

A handler only turns wire arguments into the use case's request, resolves that use case from
the call's scope and awaits it; everything else lives in the application layer.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

import msgspec

from openproject_mcp.adapters.mcp import arguments as a
from openproject_mcp.application import views as v
from openproject_mcp.application.activities import ListActivitiesRequest, ListWorkPackageActivities
from openproject_mcp.application.api_spec import GetApiSpec, GetApiSpecRequest
from openproject_mcp.application.instance import GetInstance, InstanceView
from openproject_mcp.application.meetings import GetMeeting, GetMeetingRequest, ListMeetings, ListMeetingsRequest
from openproject_mcp.application.metadata import (
    ListPriorities,
    ListStatuses,
    ListTypes,
    ListTypesRequest,
    ListUsers,
    ListUsersRequest,
)
from openproject_mcp.application.projects import GetProject, GetProjectRequest, ListProjects, ListProjectsRequest
from openproject_mcp.application.saved_queries import GetQuery, GetQueryRequest, ListQueries, ListQueriesRequest
from openproject_mcp.application.search_meetings import SearchMeetings, SearchMeetingsRequest
from openproject_mcp.application.search_pipeline import ProgressCallback
from openproject_mcp.application.search_wiki_pages import SearchWikiPages, SearchWikiPagesRequest
from openproject_mcp.application.search_work_packages import SearchWorkPackages, SearchWorkPackagesRequest
from openproject_mcp.application.wiki_pages import (
    GetWikiPage,
    GetWikiPageRequest,
    ListWikiPageLinks,
    ListWikiPageLinksRequest,
)
from openproject_mcp.application.work_packages import (
    GetWorkPackage,
    GetWorkPackageRequest,
    ListWorkPackages,
    ListWorkPackagesRequest,
    WorkPackageScope,
)
from openproject_mcp.application.write_tools import (
    AddCommentRequest,
    AddWorkPackageComment,
    CreateWorkPackage,
    CreateWorkPackageRequest,
    ListTimeEntries,
    ListTimeEntriesRequest,
    LogTime,
    LogTimeRequest,
    UpdateWorkPackage,
    UpdateWorkPackageRequest,
    WorkPackageFields,
)
from openproject_mcp.application.write_views import CommentResult, LogTimeResult, TimeEntryList, WorkPackageWriteResult

U = TypeVar("U")


class UseCaseScope(Protocol):
    """What one tool call may use: its own use cases, built with its own credentials."""

    async def resolve(self, use_case: type[U]) -> U: ...


R = TypeVar("R")

Handler = Callable[[Any, UseCaseScope, ProgressCallback | None], Awaitable[R]]


@dataclass(frozen=True, slots=True)
class ToolSpec:
    """One tool. ``result`` is what its handler returns and what its output schema describes;
    build it with :func:`tool`, which makes mypy check that the two agree."""

    name: str
    title: str
    description: str
    arguments: type[msgspec.Struct]
    result: type[Any]
    handler: Handler[Any]
    writes: bool = False
    destructive: bool = False
    """A write that may overwrite what is there (MCP ``destructiveHint``)."""
    idempotent: bool | None = None
    """Whether repeating the call has no further effect; ``None``: true for reads, false for writes."""

    @property
    def idempotent_hint(self) -> bool:
        return (not self.writes) if self.idempotent is None else self.idempotent


def tool(
    name: str,
    title: str,
    description: str,
    arguments: type[msgspec.Struct],
    result: type[R],
    handler: Handler[R],
    *,
    writes: bool = False,
    destructive: bool = False,
    idempotent: bool | None = None,
) -> ToolSpec:
    return ToolSpec(name, title, description, arguments, result, handler, writes, destructive, idempotent)


async def _list_projects(args: a.ListProjectsArgs, scope: UseCaseScope, _: ProgressCallback | None) -> v.ProjectList:
    request = ListProjectsRequest(
        page_size=args.page_size, offset=args.offset, sort_by=args.sort_by, filters=args.filters
    )
    return await (await scope.resolve(ListProjects)).execute(request)


async def _get_project(args: a.GetProjectArgs, scope: UseCaseScope, _: ProgressCallback | None) -> v.ProjectDetail:
    return await (await scope.resolve(GetProject)).execute(GetProjectRequest(args.project_id))


async def _list_work_packages(
    args: a.ListWorkPackagesArgs, scope: UseCaseScope, _: ProgressCallback | None
) -> v.WorkPackageList:
    request = ListWorkPackagesRequest(
        scope=WorkPackageScope(args.project_id, args.status, args.type, args.assignee_id),
        subject=args.subject,
        page_size=args.page_size,
        offset=args.offset,
        sort_by=args.sort_by,
        filters=args.filters,
    )
    return await (await scope.resolve(ListWorkPackages)).execute(request)


async def _get_work_package(
    args: a.GetWorkPackageArgs, scope: UseCaseScope, _: ProgressCallback | None
) -> v.WorkPackageDetail:
    return await (await scope.resolve(GetWorkPackage)).execute(GetWorkPackageRequest(args.work_package_id))


async def _list_activities(
    args: a.ListActivitiesArgs, scope: UseCaseScope, _: ProgressCallback | None
) -> v.ActivityList:
    request = ListActivitiesRequest(
        args.work_package_id, only_comments=args.only_comments, query=args.query, match_mode=args.match_mode
    )
    return await (await scope.resolve(ListWorkPackageActivities)).execute(request)


async def _search_work_packages(
    args: a.SearchWorkPackagesArgs, scope: UseCaseScope, progress: ProgressCallback | None
) -> v.WorkPackageSearchPage:
    request = SearchWorkPackagesRequest(
        query=args.query,
        scope=WorkPackageScope(args.project_id, args.status, args.type, args.assignee_id),
        match_mode=args.match_mode,
        offset=args.offset,
        page_size=args.page_size,
        progress=progress,
    )
    return await (await scope.resolve(SearchWorkPackages)).execute(request)


async def _list_queries(args: a.ListQueriesArgs, scope: UseCaseScope, _: ProgressCallback | None) -> v.SavedQueryList:
    request = ListQueriesRequest(args.project_id, page_size=args.page_size, offset=args.offset)
    return await (await scope.resolve(ListQueries)).execute(request)


async def _get_query(args: a.GetQueryArgs, scope: UseCaseScope, _: ProgressCallback | None) -> v.SavedQueryResult:
    request = GetQueryRequest(args.query_id, page_size=args.page_size, offset=args.offset)
    return await (await scope.resolve(GetQuery)).execute(request)


async def _list_types(args: a.ListTypesArgs, scope: UseCaseScope, _: ProgressCallback | None) -> v.TypeList:
    return await (await scope.resolve(ListTypes)).execute(ListTypesRequest(args.project_id))


async def _list_statuses(args: a.NoArguments, scope: UseCaseScope, _: ProgressCallback | None) -> v.StatusList:
    return await (await scope.resolve(ListStatuses)).execute()


async def _list_priorities(args: a.NoArguments, scope: UseCaseScope, _: ProgressCallback | None) -> v.PriorityList:
    return await (await scope.resolve(ListPriorities)).execute()


async def _list_users(args: a.ListUsersArgs, scope: UseCaseScope, _: ProgressCallback | None) -> v.UserList:
    request = ListUsersRequest(page_size=args.page_size, offset=args.offset, status=args.status, name=args.name)
    return await (await scope.resolve(ListUsers)).execute(request)


async def _get_api_spec(args: a.GetApiSpecArgs, scope: UseCaseScope, _: ProgressCallback | None) -> v.ApiSpecView:
    request = GetApiSpecRequest(path=args.path, tag=args.tag, schema=args.schema, full=args.full, refresh=args.refresh)
    return await (await scope.resolve(GetApiSpec)).execute(request)


async def _list_meetings(args: a.ListMeetingsArgs, scope: UseCaseScope, _: ProgressCallback | None) -> v.MeetingList:
    request = ListMeetingsRequest(args.project_id, time=args.time, offset=args.offset, page_size=args.page_size)
    return await (await scope.resolve(ListMeetings)).execute(request)


async def _get_meeting(args: a.GetMeetingArgs, scope: UseCaseScope, _: ProgressCallback | None) -> v.MeetingDetail:
    request = GetMeetingRequest(args.id, include_agenda_items=args.include_agenda_items)
    return await (await scope.resolve(GetMeeting)).execute(request)


async def _search_meetings(
    args: a.SearchMeetingsArgs, scope: UseCaseScope, progress: ProgressCallback | None
) -> v.MeetingSearchPage:
    request = SearchMeetingsRequest(
        args.query,
        project_id=args.project_id,
        match_mode=args.match_mode,
        offset=args.offset,
        page_size=args.page_size,
        progress=progress,
    )
    return await (await scope.resolve(SearchMeetings)).execute(request)


async def _get_wiki_page(args: a.GetWikiPageArgs, scope: UseCaseScope, _: ProgressCallback | None) -> v.WikiPageDetail:
    return await (await scope.resolve(GetWikiPage)).execute(GetWikiPageRequest(args.id))


async def _search_wiki_pages(
    args: a.SearchWikiPagesArgs, scope: UseCaseScope, progress: ProgressCallback | None
) -> v.WikiSearchPage:
    request = SearchWikiPagesRequest(
        args.query,
        project_id=args.project_id,
        limit=args.limit,
        refresh_cache=args.refresh_cache,
        match_mode=args.match_mode,
        progress=progress,
    )
    return await (await scope.resolve(SearchWikiPages)).execute(request)


async def _list_wiki_page_links(
    args: a.ListWikiPageLinksArgs, scope: UseCaseScope, _: ProgressCallback | None
) -> v.WikiPageLinkList:
    request = ListWikiPageLinksRequest(args.work_package_id, offset=args.offset, page_size=args.page_size)
    return await (await scope.resolve(ListWikiPageLinks)).execute(request)


class GetInstanceArgs(msgspec.Struct, forbid_unknown_fields=True, kw_only=True, frozen=True):
    """``openproject_get_instance`` takes no arguments."""


async def _get_instance(args: GetInstanceArgs, scope: UseCaseScope, _: ProgressCallback | None) -> InstanceView:
    return await (await scope.resolve(GetInstance)).execute()


def _fields(args: a.CreateWorkPackageArgs | a.UpdateWorkPackageArgs) -> WorkPackageFields:
    return WorkPackageFields(
        subject=args.subject,
        description=args.description,
        type=getattr(args, "type", None),
        status=args.status,
        priority=args.priority,
        assignee=args.assignee,
        parent=args.parent,
        start_date=args.start_date,
        due_date=args.due_date,
        estimated_time=args.estimated_time,
        percentage_done=getattr(args, "percentage_done", None),
    )


async def _create_work_package(
    args: a.CreateWorkPackageArgs, scope: UseCaseScope, _: ProgressCallback | None
) -> WorkPackageWriteResult:
    request = CreateWorkPackageRequest(args.project_id, _fields(args), dry_run=args.dry_run)
    return await (await scope.resolve(CreateWorkPackage)).execute(request)


async def _update_work_package(
    args: a.UpdateWorkPackageArgs, scope: UseCaseScope, _: ProgressCallback | None
) -> WorkPackageWriteResult:
    request = UpdateWorkPackageRequest(
        args.work_package_id, _fields(args), lock_version=args.lock_version, dry_run=args.dry_run
    )
    return await (await scope.resolve(UpdateWorkPackage)).execute(request)


async def _add_comment(
    args: a.AddWorkPackageCommentArgs, scope: UseCaseScope, _: ProgressCallback | None
) -> CommentResult:
    request = AddCommentRequest(args.work_package_id, args.comment, internal=args.internal)
    return await (await scope.resolve(AddWorkPackageComment)).execute(request)


async def _log_time(args: a.LogTimeArgs, scope: UseCaseScope, _: ProgressCallback | None) -> LogTimeResult:
    request = LogTimeRequest(
        args.work_package_id, args.hours, args.spent_on, args.activity, args.comment, dry_run=args.dry_run
    )
    return await (await scope.resolve(LogTime)).execute(request)


async def _list_time_entries(
    args: a.ListTimeEntriesArgs, scope: UseCaseScope, _: ProgressCallback | None
) -> TimeEntryList:
    request = ListTimeEntriesRequest(
        work_package_id=args.work_package_id,
        project_id=args.project_id,
        user=args.user,
        from_date=args.from_date,
        to_date=args.to_date,
        page_size=args.page_size,
        offset=args.offset,
    )
    return await (await scope.resolve(ListTimeEntries)).execute(request)


WRITE_TOOLS: tuple[ToolSpec, ...] = (
    tool(
        "openproject_create_work_package",
        "Create a work package",
        "WRITES: create a work package in a project. Called twice, it creates two.",
        a.CreateWorkPackageArgs,
        WorkPackageWriteResult,
        _create_work_package,
        writes=True,
        idempotent=False,
    ),
    tool(
        "openproject_update_work_package",
        "Update a work package",
        "WRITES: change the given fields of a work package; pass the lockVersion your read returned, "
        "so a change saved since is a conflict, not overwritten.",
        a.UpdateWorkPackageArgs,
        WorkPackageWriteResult,
        _update_work_package,
        writes=True,
        destructive=True,
        idempotent=True,
    ),
    tool(
        "openproject_add_work_package_comment",
        "Comment on a work package",
        "WRITES: add a Markdown comment to a work package (internal: OpenProject 16.0+). Called twice, it adds two.",
        a.AddWorkPackageCommentArgs,
        CommentResult,
        _add_comment,
        writes=True,
        idempotent=False,
    ),
    tool(
        "openproject_log_time",
        "Log time on a work package",
        "WRITES: log time on a work package (spentOn defaults to today, activity to the default). Called "
        "twice, it logs twice; see openproject_list_time_entries.",
        a.LogTimeArgs,
        LogTimeResult,
        _log_time,
        writes=True,
        idempotent=False,
    ),
    tool(
        "openproject_list_time_entries",
        "List time entries",
        "Logged time of a work package or project, by user and dates, oldest first; totalHours sums every "
        "match, not just the page.",
        a.ListTimeEntriesArgs,
        TimeEntryList,
        _list_time_entries,
    ),
)
"""The tools added to the 19: four that write (absent and refused in read-only mode) and the time entry list."""

READ_TOOLS: tuple[ToolSpec, ...] = (
    tool(
        "openproject_list_projects",
        "List projects",
        "Projects you can see, sortable and filterable. One project: openproject_get_project.",
        a.ListProjectsArgs,
        v.ProjectList,
        _list_projects,
    ),
    tool(
        "openproject_get_project",
        "Get a project",
        "One project by id or identifier: description, parent, status.",
        a.GetProjectArgs,
        v.ProjectDetail,
        _get_project,
    ),
    tool(
        "openproject_list_work_packages",
        "List work packages",
        "Work packages by exact filters (the arguments or raw OpenProject ones), unranked. By topic: "
        "openproject_search_work_packages.",
        a.ListWorkPackagesArgs,
        v.WorkPackageList,
        _list_work_packages,
    ),
    tool(
        "openproject_get_work_package",
        "Get a work package",
        "One work package by id or display id (DEMO-38, OpenProject 17.5+): description, parent, "
        "children, dates, people. Comments and history: openproject_list_work_package_activities.",
        a.GetWorkPackageArgs,
        v.WorkPackageDetail,
        _get_work_package,
    ),
    tool(
        "openproject_list_work_package_activities",
        "List work package activity",
        "A work package's comments and changes, oldest first; with query, the matching ones ranked with "
        "snippets. Which one discussed something: openproject_search_work_packages.",
        a.ListActivitiesArgs,
        v.ActivityList,
        _list_activities,
    ),
    tool(
        "openproject_search_work_packages",
        "Search work packages",
        "Find work packages by topic or question in subjects, descriptions and comments, ranked with "
        "snippets; '#1234' or 'DEMO-38' in the query ranks it first. Filtered lists: "
        "openproject_list_work_packages.",
        a.SearchWorkPackagesArgs,
        v.WorkPackageSearchPage,
        _search_work_packages,
    ),
    tool(
        "openproject_list_queries",
        "List saved queries",
        "Saved work package queries (views), in a project or all. Run one: openproject_get_query.",
        a.ListQueriesArgs,
        v.SavedQueryList,
        _list_queries,
    ),
    tool(
        "openproject_get_query",
        "Run a saved query",
        "A saved query's filters, columns and sort, and a page of its work packages as OpenProject runs it.",
        a.GetQueryArgs,
        v.SavedQueryResult,
        _get_query,
    ),
    tool(
        "openproject_list_types",
        "List work package types",
        "Work package types (Task, Bug...) of the instance or a project, for type arguments.",
        a.ListTypesArgs,
        v.TypeList,
        _list_types,
    ),
    tool(
        "openproject_list_statuses",
        "List statuses",
        "Every work package status and whether it counts as closed, for status arguments.",
        a.NoArguments,
        v.StatusList,
        _list_statuses,
    ),
    tool(
        "openproject_list_priorities",
        "List priorities",
        "Every work package priority, whether active, and the default.",
        a.NoArguments,
        v.PriorityList,
        _list_priorities,
    ),
    tool(
        "openproject_list_users",
        "List users",
        "Users by status and name, login or email. Without admin rights, only those sharing a project "
        "with you (notes say so).",
        a.ListUsersArgs,
        v.UserList,
        _list_users,
    ),
    tool(
        "openproject_get_openapi_spec",
        "Read the OpenProject API description",
        "The instance's OpenAPI description: a summary, one path, tag or schema, or all of it (full, "
        "large). Cached; refresh re-reads it.",
        a.GetApiSpecArgs,
        v.ApiSpecView,
        _get_api_spec,
    ),
    tool(
        "openproject_list_meetings",
        "List meetings",
        "Meetings in a project, upcoming or past. By topic, decision, agenda item or person: "
        "openproject_search_meetings.",
        a.ListMeetingsArgs,
        v.MeetingList,
        _list_meetings,
    ),
    tool(
        "openproject_get_meeting",
        "Get a meeting",
        "One meeting: participants, agenda items (notes, outcomes, linked work packages), backlog items "
        "apart in backlogItems; a note where the version has none.",
        a.GetMeetingArgs,
        v.MeetingDetail,
        _get_meeting,
    ),
    tool(
        "openproject_search_meetings",
        "Search meetings",
        "Find meetings by topic or question in titles, agenda items, notes, outcomes (decisions) and people, ranked.",
        a.SearchMeetingsArgs,
        v.MeetingSearchPage,
        _search_meetings,
    ),
    tool(
        "openproject_get_wiki_page",
        "Get a wiki page",
        "One wiki page: title, project, attachments with links; no released OpenProject API gives its "
        "text (the answer says so). Ids: openproject_search_wiki_pages.",
        a.GetWikiPageArgs,
        v.WikiPageDetail,
        _get_wiki_page,
    ),
    tool(
        "openproject_search_wiki_pages",
        "Search wiki pages",
        "Find wiki pages by title (text where available); no query lists them. OpenProject cannot list "
        "wiki pages: each call finds a bounded number by id, coverage says how far, the next goes "
        "further.",
        a.SearchWikiPagesArgs,
        v.WikiSearchPage,
        _search_wiki_pages,
    ),
    tool(
        "openproject_list_wiki_page_links",
        "List wiki page links",
        "Wiki pages linked to a work package: provider, link type (relation or inline) and, for "
        "OpenProject's own wiki, the page's id and title. OpenProject 17.6+.",
        a.ListWikiPageLinksArgs,
        v.WikiPageLinkList,
        _list_wiki_page_links,
    ),
    tool(
        "openproject_get_instance",
        "Describe the OpenProject instance",
        "The instance's name, address, version (admins only), the token's user and detected features: use "
        "it when a tool says something is unavailable, or whose view answers show.",
        GetInstanceArgs,
        InstanceView,
        _get_instance,
    ),
)

TOOLS: tuple[ToolSpec, ...] = READ_TOOLS + WRITE_TOOLS
