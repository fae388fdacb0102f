"""The forms an argument takes are the same in every tool, and a malformed one costs no request.

Through the MCP server against the in-memory backend and against the fake OpenProject over HTTP:
a work package is named by its id (``101``, ``#101``, `` 101 ``) or its display id (``SHOP-1``)
wherever a tool takes one; sort keys are taken in camelCase and snake_case; ``me`` in any case;
a blank type is refused before anything is sent; a refusal names the forms that are accepted.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest
from mcp import Client
from mcp.types import CallToolResult

from openproject_mcp.adapters.mcp.server import build_server
from openproject_mcp.composition import Application
from openproject_mcp.config import Settings
from tests.support.conformance import request_problems
from tests.support.datasets import DEMO
from tests.support.fake_openproject import FakeOpenProject
from tests.support.tool_calls import text_of

TOKEN = "argument-forms-token-5b1e"


@asynccontextmanager
async def served(profile: str | None) -> AsyncIterator[tuple[Client, FakeOpenProject | None]]:
    """An MCP client of the server: on the demo dataset in memory (``None``), or over HTTP against
    the fake OpenProject in that version's profile (every request checked against its rules)."""
    if profile is None:
        async with Client(build_server(Application(DEMO).scope)) as client:
            yield client, None
        return
    dataset = Application(DEMO).container.dataset()
    async with FakeOpenProject({TOKEN: dataset}, profile=profile) as fake:
        app = Application(Settings(backend="openproject", base_url=fake.base_url, api_key=TOKEN, max_retries=1))
        try:
            async with Client(build_server(app.scope)) as client:
                yield client, fake
        finally:
            await app.aclose()
    problems = request_problems(fake.requests, fake.profile, fake.prefix)
    assert not problems, "\n".join(problems)


async def ok(client: Client, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
    result = await client.call_tool(tool, arguments)
    assert not result.is_error, text_of(result)
    assert isinstance(result.structured_content, dict)
    return result.structured_content


def refusal(result: CallToolResult) -> str:
    text = text_of(result)
    assert result.is_error and text.startswith("Error [INVALID_ARGUMENT]: "), text
    return text


BACKENDS = [None, "17.8"]


@pytest.mark.parametrize("profile", BACKENDS, ids=["fixture", "http-17.8"])
async def test_activities_take_a_display_id_and_the_obvious_spellings_of_an_id(profile: str | None) -> None:
    async with served(profile) as (client, _):
        by_id = await ok(client, "openproject_list_work_package_activities", {"workPackageId": 101})
        assert by_id["workPackageId"] == 101 and by_id["activities"]
        for spelling in ("SHOP-1", "shop-1", " SHOP-1 ", "#101", " 101 ", "101"):
            same = await ok(client, "openproject_list_work_package_activities", {"workPackageId": spelling})
            assert same == by_id, spelling
        for spelling in ("#101", " 101 ", " SHOP-1 "):
            found = await ok(client, "openproject_get_work_package", {"workPackageId": spelling})
            assert found["id"] == 101, spelling


@pytest.mark.parametrize("profile", BACKENDS, ids=["fixture", "http-17.8"])
async def test_wiki_page_links_take_a_display_id_as_the_work_package_tools_do(profile: str | None) -> None:
    async with served(profile) as (client, _):
        found = await ok(client, "openproject_get_work_package", {"workPackageId": "PAY-3"})
        by_id = await ok(client, "openproject_list_wiki_page_links", {"workPackageId": found["id"]})
        assert by_id["links"], "PAY-3 links a wiki page in the demo"
        for spelling in ("PAY-3", " pay-3 ", f"#{found['id']}"):
            same = await ok(client, "openproject_list_wiki_page_links", {"workPackageId": spelling})
            assert same == by_id, spelling


async def test_a_display_id_on_an_instance_without_them_is_not_found_with_the_numeric_id_hint() -> None:
    async with served("16.6") as (client, _):
        result = await client.call_tool("openproject_list_work_package_activities", {"workPackageId": "SHOP-1"})
        by_id = await ok(client, "openproject_list_work_package_activities", {"workPackageId": 101})
    text = text_of(result)
    assert result.is_error and text.startswith("Error [OPENPROJECT_NOT_FOUND]: "), text
    assert "17.5" in text and "numeric id" in text
    assert by_id["activities"]


@pytest.mark.parametrize(
    ("tool", "arguments"),
    [
        ("openproject_get_work_package", {"workPackageId": "SHOP 1"}),
        ("openproject_get_work_package", {"workPackageId": "#SHOP-1x"}),
        ("openproject_list_work_package_activities", {"workPackageId": "work package 101"}),
        ("openproject_list_wiki_page_links", {"workPackageId": "101a"}),
        ("openproject_update_work_package", {"workPackageId": "1.5", "subject": "S"}),
    ],
)
async def test_a_malformed_work_package_id_is_refused_naming_the_accepted_forms(
    tool: str, arguments: dict[str, Any]
) -> None:
    async with served(None) as (client, _):
        text = refusal(await client.call_tool(tool, arguments))
    message = text.splitlines()[0]
    assert message.startswith("Error [INVALID_ARGUMENT]: workPackageId"), message
    assert "such as 101" in message and "such as DEMO-38" in message, message


@pytest.mark.parametrize(
    ("tool", "arguments"),
    [
        ("openproject_list_work_packages", {"type": " "}),
        ("openproject_list_work_packages", {"type": "\t", "status": "In progress", "projectId": "webshop"}),
        ("openproject_search_work_packages", {"query": "checkout", "type": "  "}),
        ("openproject_search_work_packages", {"query": "checkout", "type": " ", "status": "Closed"}),
    ],
)
async def test_a_blank_type_is_refused_before_any_request(tool: str, arguments: dict[str, Any]) -> None:
    async with served("17.8") as (client, fake):
        assert fake is not None
        fake.clear()
        text = refusal(await client.call_tool(tool, arguments))
        sent = [f"{r.method} {r.path}" for r in fake.requests]
    assert not sent, f"a blank type must be refused before any request, sent {sent}"
    assert "type" in text.splitlines()[0] and "blank" in text, text
    assert "openproject_list_types" in text, text


@pytest.mark.parametrize("profile", BACKENDS, ids=["fixture", "http-17.8"])
async def test_project_sort_keys_take_the_result_spelling_as_well_as_openprojects(profile: str | None) -> None:
    async with served(profile) as (client, fake):
        snake = await ok(client, "openproject_list_projects", {"sortBy": "created_at:desc"})
        if fake is not None:
            fake.clear()
        for spelling in ("createdAt:desc", [["createdAt", "desc"]], ["CreatedAt:desc"]):
            assert await ok(client, "openproject_list_projects", {"sortBy": spelling}) == snake, spelling
        if fake is not None:  # OpenProject is sent the name its projects query documents
            assert {r.query.get("sortBy") for r in fake.requests} == {'[["created_at","desc"]]'}
        refused = refusal(await client.call_tool("openproject_list_projects", {"sortBy": "bogus"}))
    assert "'bogus'" in refused and "createdAt" in refused and "name" in refused, refused


@pytest.mark.parametrize("profile", BACKENDS, ids=["fixture", "http-17.8"])
async def test_work_package_sort_keys_take_either_spelling_of_every_key(profile: str | None) -> None:
    async with served(profile) as (client, _):
        for camel, snake in (("updatedAt", "updated_at"), ("percentageDone", "percentage_done")):
            wanted = await ok(client, "openproject_list_work_packages", {"sortBy": f"{camel}:desc,id"})
            got = await ok(client, "openproject_list_work_packages", {"sortBy": f"{snake}:desc,id"})
            assert got == wanted, snake
        refused = refusal(await client.call_tool("openproject_list_work_packages", {"sortBy": "bogus"}))
    assert "'bogus'" in refused and "updatedAt" in refused and "percentageDone" in refused, refused


@pytest.mark.parametrize("profile", BACKENDS, ids=["fixture", "http-17.8"])
async def test_me_is_read_in_any_case_wherever_a_user_is_asked_for(profile: str | None) -> None:
    async with served(profile) as (client, _):
        mine = await ok(client, "openproject_list_work_packages", {"assigneeId": "me", "pageSize": 100})
        query = mine["workPackages"][0]["subject"]
        found = await ok(client, "openproject_search_work_packages", {"query": query, "assigneeId": "me"})
        logged = await ok(client, "openproject_list_time_entries", {"user": "me"})
        assert found["elements"] and logged["total"]
        for spelling in ("ME", "Me", " me "):
            listed = {"assigneeId": spelling, "pageSize": 100}
            assert await ok(client, "openproject_list_work_packages", listed) == mine, spelling
            searched = {"query": query, "assigneeId": spelling}
            assert await ok(client, "openproject_search_work_packages", searched) == found, spelling
            assert await ok(client, "openproject_list_time_entries", {"user": spelling}) == logged, spelling
        refused = refusal(await client.call_tool("openproject_list_work_packages", {"assigneeId": "you"}))
    assert refused.splitlines()[0].startswith("Error [INVALID_ARGUMENT]: assigneeId"), refused
    assert "me" in refused.splitlines()[0], refused
