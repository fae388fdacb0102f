"""Tool arguments as they arrive on the wire: validated against these before anything runs.

Each tool's input schema is generated from its struct here, and the same struct validates the
call's arguments, so the schema a client sees and the checks the server applies never drift.
"""

from __future__ import annotations

from typing import Annotated, Any, Final

import msgspec

from openproject_mcp.application.arguments import MAX_PAGE_SIZE, MAX_QUERY_LENGTH
from openproject_mcp.application.metadata import UserStatus
from openproject_mcp.application.search_wiki_pages import MAX_LIMIT as MAX_WIKI_RESULTS
from openproject_mcp.application.views import MatchModeName
from openproject_mcp.domain.queries import MeetingTime

# The limits and enumerations come from the use cases, which check them again: one definition each.
_STRUCT = {"rename": "camel", "forbid_unknown_fields": True, "kw_only": True, "frozen": True}

# Notes are short, and the ones the server's instructions give once for every tool (paging, ids,
# dates, matchMode, dryRun) are in :data:`EXPLAINED_ONCE`: tools/list leaves them out, while the
# argument errors, worded from the full schema, still quote them. Every byte of what tools/list
# shows is read by the model for every tool on every conversation.
OFFSET_NOTE = "Page number, from 1."
PROJECT_NOTE = "Project id or identifier."
WORK_PACKAGE_NOTE = "Work package id such as 101, or display id such as DEMO-38."
DAY_NOTE = "YYYY-MM-DD."
MATCH_NOTE = "fuzzy (default): typos, word forms, any order, questions; exact: the literal text only."
DRY_RUN_NOTE = "Validate and show the changes; save nothing."
NAME_NOTE = "Id or name."
QUERY_NOTE = "What to look for, in natural words."
EXPLAINED_ONCE: Final = frozenset(
    {OFFSET_NOTE, PROJECT_NOTE, WORK_PACKAGE_NOTE, DAY_NOTE, MATCH_NOTE, DRY_RUN_NOTE, NAME_NOTE, QUERY_NOTE}
)

PageSize = Annotated[int, msgspec.Meta(ge=1, le=MAX_PAGE_SIZE)]
Offset = Annotated[int, msgspec.Meta(ge=1, description=OFFSET_NOTE)]
Id = Annotated[int, msgspec.Meta(ge=1)]
ProjectRef = Annotated[
    Annotated[int, msgspec.Meta(ge=1)] | Annotated[str, msgspec.Meta(min_length=1, max_length=255)],
    msgspec.Meta(description=PROJECT_NOTE),
]
MatchMode = Annotated[MatchModeName, msgspec.Meta(description=MATCH_NOTE)]
Query = Annotated[str, msgspec.Meta(max_length=MAX_QUERY_LENGTH, description=QUERY_NOTE)]
StatusScope = Annotated[
    Annotated[str, msgspec.Meta(min_length=1, max_length=100)] | Annotated[int, msgspec.Meta(ge=1)],
    msgspec.Meta(description="open, closed, all, or a status id or name."),
]
TypeRef = Annotated[
    Annotated[int, msgspec.Meta(ge=1)] | Annotated[str, msgspec.Meta(min_length=1, max_length=100)],
    msgspec.Meta(description="Type id or name, e.g. Bug."),
]
# "me" in any case, as status takes "OPEN" and the write tools' assignee takes "ME".
AssigneeRef = Annotated[
    Annotated[int, msgspec.Meta(ge=1)] | Annotated[str, msgspec.Meta(pattern=r"^\s*[Mm][Ee]\s*$")],
    msgspec.Meta(description="User id, or me."),
]
SortBy = Annotated[
    Annotated[str, msgspec.Meta(max_length=500)] | Annotated[list[Any], msgspec.Meta(max_length=10)],
    msgspec.Meta(description='name, name:desc or [["updatedAt","desc"]].'),
]
Filters = Annotated[
    Annotated[str, msgspec.Meta(max_length=5000)] | Annotated[list[Any], msgspec.Meta(max_length=50)],
    msgspec.Meta(
        description=(
            'e.g. [{"status":{"operator":"o","values":[]}}], or as text; each replaces the filter of its name.'
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
    | Annotated[str, msgspec.Meta(pattern=r"^\s*(?:#?[0-9]+|[A-Za-z][A-Za-z0-9_]*-[0-9]+)\s*$")],
    msgspec.Meta(description=WORK_PACKAGE_NOTE),
]


class GetWorkPackageArgs(msgspec.Struct, **_STRUCT):
    work_package_id: WorkPackageRef


class ListActivitiesArgs(msgspec.Struct, **_STRUCT):
    work_package_id: WorkPackageRef
    only_comments: bool = False
    query: Annotated[str, msgspec.Meta(max_length=MAX_QUERY_LENGTH)] | None = None
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
            msgspec.Meta(max_length=300, description="e.g. projects or /work_packages/42."),
        ]
        | None
    ) = None
    tag: Annotated[str, msgspec.Meta(max_length=100, description="e.g. Work Packages.")] | None = None
    schema: Annotated[str, msgspec.Meta(max_length=200, description="e.g. WorkPackageModel.")] | None = None
    full: bool = False
    refresh: bool = False


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
    query: Annotated[str, msgspec.Meta(max_length=MAX_QUERY_LENGTH, description=QUERY_NOTE)] | None = None
    project_id: ProjectRef | None = None
    limit: Annotated[int, msgspec.Meta(ge=1, le=MAX_WIKI_RESULTS)] = 20
    refresh_cache: Annotated[bool, msgspec.Meta(description="Discover the wiki pages again.")] = False
    match_mode: MatchMode = "fuzzy"


class ListWikiPageLinksArgs(msgspec.Struct, **_STRUCT):
    work_package_id: WorkPackageRef
    offset: Offset = 1
    page_size: PageSize = 30


# Write tools ------------------------------------------------------------------------------------

NameOrId = Annotated[
    Annotated[int, msgspec.Meta(ge=1)] | Annotated[str, msgspec.Meta(min_length=1, max_length=255)],
    msgspec.Meta(description=NAME_NOTE),
]
Day = Annotated[str, msgspec.Meta(pattern=r"^\d{4}-\d{2}-\d{2}$", description=DAY_NOTE)]
Hours = Annotated[
    Annotated[float, msgspec.Meta(ge=0, le=1000)] | Annotated[str, msgspec.Meta(max_length=40)],
    msgspec.Meta(description="1.5 or PT1H30M."),
]
DryRun = Annotated[bool, msgspec.Meta(description=DRY_RUN_NOTE)]
Markdown = Annotated[str, msgspec.Meta(max_length=100_000, description="Markdown.")]
Assignee = Annotated[
    Annotated[str, msgspec.Meta(min_length=1, max_length=255)] | Annotated[int, msgspec.Meta(ge=1)],
    msgspec.Meta(description="me, a login, name or user id."),
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
    lock_version: (
        Annotated[int, msgspec.Meta(ge=0, description="lockVersion from the read your change is based on.")] | None
    ) = None
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
    comment: Annotated[str, msgspec.Meta(min_length=1, max_length=100_000)]
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


# What tools/list shows: the same arguments, without the defensive bounds ------------------------

# Limits that guard the server, not choices a model makes: the server still checks every one and
# answers a value beyond them with INVALID_ARGUMENT naming the argument and what it accepts.
_GUARDS = frozenset({"maxLength", "minLength", "maxItems", "minItems", "pattern"})
# The JSON types each keyword constrains (JSON Schema applies it to instances of those types only).
_APPLIES_TO = {
    "minimum": "number",
    "maximum": "number",
    "exclusiveMinimum": "number",
    "exclusiveMaximum": "number",
    "multipleOf": "number",
    "format": "string",
    "items": "array",
}
_FAMILY = {"integer": "number", "number": "number"}


def advertised_schema(struct: type[msgspec.Struct]) -> dict[str, Any]:
    """The input schema as tools/list shows it: :func:`input_schema` without its guards.

    Every value the full schema accepts is accepted here too, and what it rejects the server
    still rejects with a message that names the argument and the valid choices (they are worded
    from the full schema). Left out: length, item-count and pattern limits, a lower bound with no
    upper one (ids from 1), and ``additionalProperties: false`` (an unknown argument is answered
    with the closest real one). Kept: ranges with an upper bound (pageSize up to 100),
    enumerations, defaults, formats and the required list. A union of distinct JSON types whose
    keywords each constrain only their own type becomes one ``type`` list, which accepts the same.
    """
    full = input_schema(struct)
    full.pop("additionalProperties", None)
    full["properties"] = {name: _compact(_unexplained(prop)) for name, prop in full["properties"].items()}
    if "$defs" in full:
        full["$defs"] = {name: _compact(d) for name, d in full["$defs"].items()}
    return full


def _unexplained(prop: dict[str, Any]) -> dict[str, Any]:
    """The argument without a note the server's instructions give for every tool."""
    if prop.get("description") in EXPLAINED_ONCE:
        return {k: v for k, v in prop.items() if k != "description"}
    return prop


def _compact(node: dict[str, Any]) -> dict[str, Any]:
    out = {k: v for k, v in node.items() if k not in _GUARDS}
    if out.get("minimum") in (0, 1) or ("minimum" in out and "maximum" not in out):
        out.pop("minimum")  # counts and ids start there; the upper bound is what a model needs
    if isinstance(out.get("items"), dict):
        out["items"] = _compact(out["items"])
    branches = out.get("anyOf")
    if isinstance(branches, list):
        kept = [_compact(b) for b in branches]
        merged = _merged(kept)
        if merged is None:
            out["anyOf"] = kept
        else:
            out.pop("anyOf")
            out.update(merged)
    return out


def _merged(branches: list[dict[str, Any]]) -> dict[str, Any] | None:
    """One schema with a ``type`` list accepting what ``branches`` accept, if there is one."""
    types: list[str] = []
    families: set[str] = set()
    merged: dict[str, Any] = {}
    for branch in branches:
        kind = branch.get("type")
        if not isinstance(kind, str):
            return None
        family = _FAMILY.get(kind, kind)
        if family in families:
            return None
        for keyword, value in branch.items():
            if keyword == "type":
                continue
            if _APPLIES_TO.get(keyword) != family or keyword in merged:
                return None
            merged[keyword] = value
        types.append(kind)
        families.add(family)
    return {"type": types, **merged}
