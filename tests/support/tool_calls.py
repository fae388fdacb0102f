"""Tool calls that together exercise every request the adapter can send, for the demo dataset's ids.

``ONE_CALL_PER_TOOL`` calls each tool once (what a request budget is measured on);
``MORE_CALLS`` adds the arguments that change what is requested (scopes, status, time, paging,
display ids, agenda items left out...).
"""

from __future__ import annotations

from typing import Any

from mcp.types import CallToolResult

ToolCall = tuple[str, dict[str, Any]]

ONE_CALL_PER_TOOL: tuple[ToolCall, ...] = (
    ("openproject_list_projects", {}),
    ("openproject_get_project", {"projectId": "webshop"}),
    ("openproject_list_work_packages", {}),
    ("openproject_get_work_package", {"workPackageId": 101}),
    ("openproject_list_work_package_activities", {"workPackageId": 101}),
    ("openproject_search_work_packages", {"query": "checkout payment"}),
    ("openproject_list_queries", {}),
    ("openproject_get_query", {"queryId": 41}),
    ("openproject_list_types", {}),
    ("openproject_list_statuses", {}),
    ("openproject_list_priorities", {}),
    ("openproject_list_users", {}),
    ("openproject_get_openapi_spec", {"path": "work_packages"}),
    ("openproject_list_meetings", {"time": "upcoming"}),
    ("openproject_get_meeting", {"id": 203}),
    ("openproject_search_meetings", {"query": "budget aproval"}),
    ("openproject_get_wiki_page", {"id": 301}),
    ("openproject_search_wiki_pages", {"query": "onboarding checklist"}),
    ("openproject_list_wiki_page_links", {"workPackageId": 116}),
    ("openproject_get_instance", {}),
)

MORE_CALLS: tuple[ToolCall, ...] = (
    ("openproject_list_projects", {"sortBy": "name:desc", "pageSize": 2, "offset": 2}),
    ("openproject_get_project", {"projectId": 2}),
    (
        "openproject_list_work_packages",
        {"projectId": "checkout", "status": "open", "type": "Bug", "assigneeId": "me", "subject": "pay"},
    ),
    ("openproject_list_work_packages", {"status": "closed", "sortBy": "updatedAt:desc", "pageSize": 5}),
    ("openproject_get_work_package", {"workPackageId": "SHOP-1"}),
    ("openproject_list_work_package_activities", {"workPackageId": 101, "onlyComments": True, "query": "refund"}),
    ("openproject_search_work_packages", {"query": "#116 double charge", "projectId": "checkout", "status": "open"}),
    ("openproject_list_queries", {"projectId": "checkout", "pageSize": 1}),
    ("openproject_get_query", {"queryId": 42, "pageSize": 2, "offset": 2}),
    ("openproject_list_types", {"projectId": "webshop"}),
    ("openproject_list_users", {"status": "active", "name": "a", "pageSize": 5}),
    ("openproject_list_users", {"status": "locked"}),
    ("openproject_get_openapi_spec", {}),
    ("openproject_list_meetings", {}),
    ("openproject_list_meetings", {"time": "past", "projectId": "webshop", "pageSize": 3}),
    ("openproject_get_meeting", {"id": 203, "includeAgendaItems": False}),
    ("openproject_search_meetings", {"query": "sprint planning", "projectId": "checkout"}),
    ("openproject_search_wiki_pages", {}),
    ("openproject_search_wiki_pages", {"query": "refund policy", "projectId": "checkout"}),
    ("openproject_list_wiki_page_links", {"workPackageId": 101}),
)


WRITE_TOOL_CALLS: tuple[ToolCall, ...] = (
    ("openproject_list_time_entries", {"workPackageId": 103}),
    ("openproject_list_time_entries", {"projectId": "webshop", "user": "me", "from": "2026-09-01", "to": "2026-09-30"}),
    ("openproject_create_work_package", {"projectId": "webshop", "subject": "Checked", "type": "Bug", "dryRun": True}),
    (
        "openproject_create_work_package",
        {
            "projectId": "checkout",
            "subject": "Created",
            "type": "Task",
            "status": "New",
            "priority": "High",
            "assignee": "me",
            "parent": 101,
            "description": "**Markdown**",
            "startDate": "2026-12-01",
            "dueDate": "2026-12-05",
            "estimatedTime": "PT4H",
        },
    ),
    ("openproject_update_work_package", {"workPackageId": 104, "status": "Confirmed", "dryRun": True}),
    (
        "openproject_update_work_package",
        {"workPackageId": 104, "status": "in progress", "assignee": "jalvarez", "percentageDone": 10},
    ),
    ("openproject_update_work_package", {"workPackageId": 104, "lockVersion": 0, "subject": "Conflicts"}),
    ("openproject_update_work_package", {"workPackageId": 103, "status": "Closed"}),
    ("openproject_add_work_package_comment", {"workPackageId": 104, "comment": "A *comment*"}),
    ("openproject_add_work_package_comment", {"workPackageId": 104, "comment": "Internal", "internal": True}),
    ("openproject_log_time", {"workPackageId": 104, "hours": 1.5, "activity": "Testing", "comment": "QA"}),
    ("openproject_log_time", {"workPackageId": 104, "hours": "PT30M", "spentOn": "2026-11-30", "dryRun": True}),
    ("openproject_list_time_entries", {"workPackageId": 104}),
)
"""Every tool beyond the 19, with the arguments that change what is sent (a conflict and a refused
transition included): each answers, or fails with a clean tool error."""


def text_of(result: CallToolResult) -> str:
    return "\n".join(getattr(c, "text", "") for c in result.content)


def crash_of(tool: str, result: CallToolResult) -> str | None:
    """Why a tool result is not acceptable: an internal error, or an error that is not a clean tool error."""
    if not result.is_error:
        return None if isinstance(result.structured_content, dict) else f"{tool}: no structured result"
    text = text_of(result)
    if not text.startswith("Error [") or text.startswith("Error [INTERNAL_ERROR]"):
        return f"{tool}: not a clean tool error: {text[:300]}"
    return None
