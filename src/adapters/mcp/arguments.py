"""Tool arguments as they arrive on the wire: validated against these before anything runs.

Each tool's input schema is generated from its struct here, and the same struct validates the
call's arguments, so the schema a client sees and the checks the server applies never drift.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec

from openproject_mcp.application.arguments import MAX_PAGE_SIZE, MAX_QUERY_LENGTH
from openproject_mcp.application.metadata import UserStatus
from openproject_mcp.application.search_wiki_pages import MAX_LIMIT as MAX_WIKI_RESULTS
from openproject_mcp.application.views import MatchModeName
from openproject_mcp.domain.queries import MeetingTime

# The limits and enumerations come from the use cases, which check them again: one definition each.
_STRUCT = {"rename": "camel", "forbid_unknown_fields": True, "kw_only": True, "frozen": True}

# Descriptions are short: the server's instructions explain paging and search once for all tools,
# and every byte here is read by the model for every tool on every conversation.
PageSize = Annotated[int, msgspec.Meta(ge=1, le=MAX_PAGE_SIZE)]
Offset = Annotated[int, msgspec.Meta(ge=1, description="Page number, from 1.")]
Id = Annotated[int, msgspec.Meta(ge=1)]
ProjectRef = Annotated[
    Annotated[int, msgspec.Meta(ge=1)] | Annotated[str, msgspec.Meta(min_length=1, max_length=255)],
    msgspec.Meta(description="Project id or identifier."),
]
MatchMode = Annotated[
    MatchModeName,
    msgspec.Meta(description="fuzzy (default): typos, word forms, any order, questions; exact: the literal text only."),
]
Query = Annotated[str, msgspec.Meta(max_length=MAX_QUERY_LENGTH, description="What to look for, in natural words.")]
StatusScope = Annotated[
    Annotated[str, msgspec.Meta(min_length=1, max_length=100)] | Annotated[int, msgspec.Meta(ge=1)],
    msgspec.Meta(description="open, closed, all, or a status id or name."),
]
TypeRef = Annotated[
    Annotated[int, msgspec.Meta(ge=1)] | Annotated[str, msgspec.Meta(min_length=1, max_length=100)],
    msgspec.Meta(description="Type id or name, e.g. Bug."),
]
AssigneeRef = Annotated[Annotated[int, msgspec.Meta(ge=1)] | Literal["me"], msgspec.Meta(description="User id, or me.")]
SortBy = Annotated[
    Annotated[str, msgspec.Meta(max_length=500)] | Annotated[list[Any], msgspec.Meta(max_length=10)],
    msgspec.Meta(description='name, name:desc, or [["updatedAt","desc"]] (array or JSON text).'),
]
Filters = Annotated[
    Annotated[str, msgspec.Meta(max_length=5000)] | Annotated[list[Any], msgspec.Meta(max_length=50)],
    msgspec.Meta(
        description=(
            'OpenProject filters, e.g. [{"status":{"operator":"o","values":[]}}] (array or JSON text); '
            "each replaces the generated filter of its name."
        )
    ),
]


class NoArguments(msgspec.Struct, **_STRUCT):
    pass


class ListProjectsArgs(msgspec.Struct, **_STRUCT):
    page_size: PageSize = 20
    offset: Offset = 1
    sort_by: SortBy | None = None
    filters: Filters | None = None


class GetProjectArgs(msgspec.Struct, **_STRUCT):
    project_id: ProjectRef


class ListWorkPackagesArgs(msgspec.Struct, **_STRUCT):
    project_id: ProjectRef | None = None
    status: StatusScope = "all"
    type: TypeRef | None = None
    assignee_id: AssigneeRef | None = None
    subject: Annotated[str, msgspec.Meta(max_length=500, description="Subject contains this text.")] | None = None
    page_size: PageSize = 20
    offset: Offset = 1
    sort_by: SortBy | None = None
    filters: Filters | None = None


WorkPackageRef = Annotated[
    Annotated[int, msgspec.Meta(ge=1)]
    | Annotated[str, msgspec.Meta(pattern=r"^(?:[0-9]+|[A-Za-z][A-Za-z0-9_]*-[0-9]+)$")],
    msgspec.Meta(description="Work package id, or display id such as DEMO-38."),
]


class GetWorkPackageArgs(msgspec.Struct, **_STRUCT):
    work_package_id: WorkPackageRef


class ListActivitiesArgs(msgspec.Struct, **_STRUCT):
    work_package_id: Id
    only_comments: bool = False
    query: (
        Annotated[str, msgspec.Meta(max_length=MAX_QUERY_LENGTH, description="Rank activities against this.")] | None
    ) = None
    match_mode: MatchMode = "fuzzy"


class SearchWorkPackagesArgs(msgspec.Struct, **_STRUCT):
    query: Query
    project_id: ProjectRef | None = None
    status: StatusScope = "all"
    type: TypeRef | None = None
    assignee_id: AssigneeRef | None = None
    match_mode: MatchMode = "fuzzy"
    offset: Offset = 1
    page_size: PageSize = 20


class ListQueriesArgs(msgspec.Struct, **_STRUCT):
    project_id: ProjectRef | None = None
    page_size: PageSize = 20
    offset: Offset = 1


class GetQueryArgs(msgspec.Struct, **_STRUCT):
    query_id: Id
    page_size: PageSize = 20
    offset: Offset = 1


class ListTypesArgs(msgspec.Struct, **_STRUCT):
    project_id: ProjectRef | None = None


class ListUsersArgs(msgspec.Struct, **_STRUCT):
    page_size: PageSize = 20
    offset: Offset = 1
    status: UserStatus | None = None
    name: Annotated[str, msgspec.Meta(max_length=200, description="Name, login or email contains this.")] | None = None


class GetApiSpecArgs(msgspec.Struct, **_STRUCT):
    path: (
        Annotated[
            str,
            msgspec.Meta(
                max_length=300, description="One endpoint: '/api/v3/projects', 'projects' or '/work_packages/42'."
            ),
        ]
        | None
    ) = None
    tag: Annotated[str, msgspec.Meta(max_length=100, description="One tag, e.g. 'Work Packages'.")] | None = None
    schema: Annotated[str, msgspec.Meta(max_length=200, description="One schema, e.g. 'WorkPackageModel'.")] | None = (
        None
    )
    full: Annotated[bool, msgspec.Meta(description="The whole document (large).")] = False
    refresh: Annotated[bool, msgspec.Meta(description="Fetch the document again instead of the cached copy.")] = False


class ListMeetingsArgs(msgspec.Struct, **_STRUCT):
    project_id: ProjectRef | None = None
    time: MeetingTime | None = None
    offset: Offset = 1
    page_size: PageSize = 20


class GetMeetingArgs(msgspec.Struct, **_STRUCT):
    id: Id
    include_agenda_items: bool = True


class SearchMeetingsArgs(msgspec.Struct, **_STRUCT):
    query: Query
    project_id: ProjectRef | None = None
    match_mode: MatchMode = "fuzzy"
    offset: Offset = 1
    page_size: PageSize = 20


class GetWikiPageArgs(msgspec.Struct, **_STRUCT):
    id: Id


class SearchWikiPagesArgs(msgspec.Struct, **_STRUCT):
    query: (
        Annotated[str, msgspec.Meta(max_length=MAX_QUERY_LENGTH, description="What to look for; omit to list pages.")]
        | None
    ) = None
    project_id: ProjectRef | None = None
    limit: Annotated[int, msgspec.Meta(ge=1, le=MAX_WIKI_RESULTS, description="At most this many results.")] = 20
    refresh_cache: Annotated[bool, msgspec.Meta(description="Discover the wiki pages again.")] = False
    match_mode: MatchMode = "fuzzy"


class ListWikiPageLinksArgs(msgspec.Struct, **_STRUCT):
    work_package_id: Id
    offset: Offset = 1
    page_size: PageSize = 30


# Write tools ------------------------------------------------------------------------------------

NameOrId = Annotated[
    Annotated[int, msgspec.Meta(ge=1)] | Annotated[str, msgspec.Meta(min_length=1, max_length=255)],
    msgspec.Meta(description="Id or name."),
]
Day = Annotated[str, msgspec.Meta(pattern=r"^\d{4}-\d{2}-\d{2}$", description="YYYY-MM-DD.")]
Hours = Annotated[
    Annotated[float, msgspec.Meta(ge=0, le=1000)] | Annotated[str, msgspec.Meta(max_length=40)],
    msgspec.Meta(description="Hours: 1.5 or PT1H30M."),
]
DryRun = Annotated[bool, msgspec.Meta(description="Validate and show the changes; save nothing.")]
Markdown = Annotated[str, msgspec.Meta(max_length=100_000, description="Markdown.")]
Assignee = Annotated[
    Annotated[str, msgspec.Meta(min_length=1, max_length=255)] | Annotated[int, msgspec.Meta(ge=1)],
    msgspec.Meta(description="me, a login, a name or a user id."),
]


class CreateWorkPackageArgs(msgspec.Struct, **_STRUCT):
    project_id: ProjectRef
    subject: Annotated[str, msgspec.Meta(min_length=1, max_length=255)]
    type: NameOrId | None = None
    description: Markdown | None = None
    status: NameOrId | None = None
    priority: NameOrId | None = None
    assignee: Assignee | None = None
    parent: WorkPackageRef | None = None
    start_date: Day | None = None
    due_date: Day | None = None
    estimated_time: Hours | None = None
    dry_run: DryRun = False


class UpdateWorkPackageArgs(msgspec.Struct, **_STRUCT):
    work_package_id: WorkPackageRef
    lock_version: Annotated[int, msgspec.Meta(ge=0, description="The lockVersion you read.")] | None = None
    subject: Annotated[str, msgspec.Meta(min_length=1, max_length=255)] | None = None
    description: Markdown | None = None
    status: NameOrId | None = None
    priority: NameOrId | None = None
    assignee: Assignee | None = None
    parent: WorkPackageRef | None = None
    start_date: Day | None = None
    due_date: Day | None = None
    estimated_time: Hours | None = None
    percentage_done: Annotated[int, msgspec.Meta(ge=0, le=100)] | None = None
    dry_run: DryRun = False


class AddWorkPackageCommentArgs(msgspec.Struct, **_STRUCT):
    work_package_id: WorkPackageRef
    comment: Annotated[str, msgspec.Meta(min_length=1, max_length=100_000, description="Markdown.")]
    internal: bool = False


class LogTimeArgs(msgspec.Struct, **_STRUCT):
    work_package_id: WorkPackageRef
    hours: Hours
    spent_on: Day | None = None
    activity: NameOrId | None = None
    comment: Annotated[str, msgspec.Meta(max_length=10_000)] | None = None
    dry_run: DryRun = False


class ListTimeEntriesArgs(msgspec.Struct, **_STRUCT):
    work_package_id: WorkPackageRef | None = None
    project_id: ProjectRef | None = None
    user: AssigneeRef | None = None
    from_date: Day | None = msgspec.field(name="from", default=None)
    to_date: Day | None = msgspec.field(name="to", default=None)
    page_size: PageSize = 20
    offset: Offset = 1


def input_schema(struct: type[msgspec.Struct]) -> dict[str, Any]:
    """The struct's JSON Schema as a top-level object (MCP requires ``type: object``)."""
    generated = msgspec.json.schema(struct)
    defs = dict(generated.get("$defs", {}))
    top = dict(defs.pop(struct.__name__))
    top.pop("title", None)
    top.pop("description", None)
    top.setdefault("properties", {})
    for prop in top["properties"].values():
        _drop_null_default(prop)
    if not top.get("required"):
        top.pop("required", None)
    if defs:
        top["$defs"] = defs
    return top


def _drop_null_default(prop: dict[str, Any]) -> None:
    """Optional arguments are simply omitted: advertise them without a ``null`` alternative."""
    branches = prop.get("anyOf")
    if isinstance(branches, list):
        kept = [b for b in branches if b != {"type": "null"}]
        if len(kept) == 1:
            prop.pop("anyOf")
            prop.update(kept[0])
        else:
            prop["anyOf"] = kept
    if prop.get("default", ...) is None:
        prop.pop("default")
