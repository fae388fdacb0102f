"""The mistakes assistants make with arguments, each answered with what to send instead."""

from __future__ import annotations

import base64
from typing import Any

import pytest
from mcp import Client
from mcp.types import CallToolResult

from openproject_mcp.adapters.mcp.argument_errors import closest_argument
from openproject_mcp.adapters.mcp.server import build_server, credential_from_headers
from openproject_mcp.composition import Application
from openproject_mcp.config import Settings


def text_of(result: CallToolResult) -> str:
    return "\n".join(getattr(c, "text", "") for c in result.content)


# (tool, arguments, what the message and hint must say)
MISTAKES: list[tuple[str, dict[str, Any], tuple[str, ...]]] = [
    ("openproject_get_meeting", {"meetingId": 203}, ("'meetingId'", "did you mean 'id'")),
    ("openproject_get_wiki_page", {"wikiPageId": 301}, ("did you mean 'id'",)),
    ("openproject_get_work_package", {"id": 101}, ("did you mean 'workPackageId'",)),
    ("openproject_list_work_package_activities", {"work_package_id": 101}, ("did you mean 'workPackageId'",)),
    ("openproject_search_work_packages", {"q": "refund"}, ("did you mean 'query'",)),
    ("openproject_search_meetings", {"search": "budget"}, ("did you mean 'query'",)),
    ("openproject_list_work_packages", {"limit": 5}, ("did you mean 'pageSize'",)),
    ("openproject_list_projects", {"page": 2}, ("did you mean 'offset'",)),
    ("openproject_list_work_packages", {"project": "webshop"}, ("did you mean 'projectId'",)),
    ("openproject_list_work_packages", {"sort": "updatedAt:desc"}, ("did you mean 'sortBy'",)),
    ("openproject_list_work_packages", {"assignee": "me"}, ("did you mean 'assigneeId'",)),
    ("openproject_get_project", {"projectId": 1, "verbose": True}, ("no argument 'verbose'", "projectId")),
    ("openproject_list_statuses", {"projectId": 1}, ("takes no arguments",)),
    ("openproject_list_meetings", {"time": "yesterday"}, ("'yesterday'", "'past'", "'upcoming'")),
    ("openproject_search_work_packages", {"query": "x", "matchMode": "regex"}, ("'regex'", "'exact'", "'fuzzy'")),
    ("openproject_list_users", {"status": "blocked"}, ("'blocked'", "'active'", "'locked'")),
    ("openproject_list_work_packages", {"status": "Closd"}, ("'Closd'", "Did you mean 'Closed'", "'In progress'")),
    ("openproject_list_work_packages", {"type": "Bgu"}, ("Did you mean 'Bug'", "openproject_list_types")),
    ("openproject_list_work_packages", {"pageSize": 1000}, ("pageSize", "from 1 to 100")),
    ("openproject_list_work_packages", {"pageSize": "ten"}, ("pageSize", "an integer", "from 1 to 100")),
    ("openproject_get_work_package", {"workPackageId": "abc"}, ("workPackageId", "display id such as")),
    ("openproject_search_meetings", {}, ("query is required",)),
    (
        "openproject_list_work_packages",
        {"filters": [{"priority": {"operator": "=", "values": ["Urgnt"]}}]},
        ("'Urgnt'", "'Immediate'", "openproject_list_priorities"),
    ),
    ("openproject_list_projects", {"filters": {"status": "open"}}, ("filters", "an array")),
    ("openproject_list_projects", {"sortBy": [["name", "sideways"]]}, ("'asc' or 'desc'",)),
]


@pytest.mark.parametrize(("tool", "arguments", "expected"), MISTAKES, ids=[f"{t}-{a}" for t, a, _ in MISTAKES])
async def test_each_common_mistake_gets_a_message_naming_the_valid_choice(
    tool: str, arguments: dict[str, Any], expected: tuple[str, ...]
) -> None:
    async with Client(build_server(Application(Settings(backend="demo")).scope)) as client:
        result = await client.call_tool(tool, arguments)
    text = text_of(result)
    assert result.is_error
    assert text.startswith("Error [INVALID_ARGUMENT]: "), text
    for part in expected:
        assert part in text, f"{part!r} missing from {text!r}"


async def test_filters_and_sort_by_accept_the_json_value_as_well_as_its_text() -> None:
    async with Client(build_server(Application(Settings(backend="demo")).scope)) as client:
        as_text = await client.call_tool(
            "openproject_list_work_packages",
            {"filters": '[{"status":{"operator":"o","values":[]}}]', "sortBy": '[["id","desc"]]', "pageSize": 100},
        )
        as_value = await client.call_tool(
            "openproject_list_work_packages",
            {"filters": [{"status": {"operator": "o", "values": []}}], "sortBy": [["id", "desc"]], "pageSize": 100},
        )
        as_strings = await client.call_tool("openproject_list_work_packages", {"sortBy": ["id:desc"], "pageSize": 100})
    assert not as_text.is_error and not as_value.is_error, text_of(as_value)
    assert as_text.structured_content == as_value.structured_content
    ids = [w["id"] for w in (as_value.structured_content or {})["workPackages"]]
    assert ids == sorted(ids, reverse=True) and ids
    everything = [w["id"] for w in (as_strings.structured_content or {})["workPackages"]]
    assert set(ids) < set(everything), "the open filter must leave the closed work packages out"


async def test_status_type_and_priority_are_accepted_by_name() -> None:
    async with Client(build_server(Application(Settings(backend="demo")).scope)) as client:
        by_name = await client.call_tool("openproject_list_work_packages", {"status": "in PROGRESS", "pageSize": 100})
        statuses = (await client.call_tool("openproject_list_statuses", {})).structured_content or {}
        in_progress = next(s["id"] for s in statuses["statuses"] if s["name"] == "In progress")
        by_id = await client.call_tool("openproject_list_work_packages", {"status": in_progress, "pageSize": 100})
        by_filter = await client.call_tool(
            "openproject_list_work_packages",
            {"filters": [{"status": {"operator": "=", "values": ["In progress"]}}], "pageSize": 100},
        )
        priority = await client.call_tool(
            "openproject_list_work_packages",
            {"filters": [{"priority": {"operator": "=", "values": ["immediate"]}}], "pageSize": 100},
        )
    assert by_name.structured_content == by_id.structured_content == by_filter.structured_content
    packages = (by_name.structured_content or {})["workPackages"]
    assert packages and all(w["status"] == "In progress" for w in packages)
    urgent = (priority.structured_content or {})["workPackages"]
    assert urgent and all(w.get("priority") == "Immediate" for w in urgent)


def test_closest_argument_prefers_the_real_spelling_then_synonyms_then_the_one_id() -> None:
    assert closest_argument("PROJECT_ID", ["projectId", "pageSize"]) == "projectId"
    assert closest_argument("perPage", ["pageSize", "offset"]) == "pageSize"
    assert closest_argument("meetingId", ["id", "includeAgendaItems"]) == "id"
    assert closest_argument("id", ["workPackageId", "offset"]) == "workPackageId"
    assert closest_argument("querry", ["query", "projectId"]) == "query"
    assert closest_argument("colour", ["query", "projectId"]) is None


def test_openprojects_own_basic_scheme_carries_the_token() -> None:
    encoded = base64.b64encode(b"apikey:tok-123").decode()
    assert credential_from_headers({"Authorization": f"Basic {encoded}"}) == "tok-123"
    other_user = base64.b64encode(b"alice:secret").decode()
    assert credential_from_headers({"Authorization": f"Basic {other_user}"}) is None
    assert credential_from_headers({"Authorization": "Basic not-base64!"}) is None
    assert credential_from_headers({"Authorization": "Bearer tok-9"}) == "tok-9"
