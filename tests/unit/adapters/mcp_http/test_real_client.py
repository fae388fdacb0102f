"""The real MCP client over streamable HTTP, with the token in a header, in both protocol eras."""

from __future__ import annotations

import asyncio

import httpx2
import pytest
from mcp import Client, MCPError
from mcp.client.streamable_http import streamable_http_client

from openproject_mcp.adapters.mcp.catalog import TOOLS
from tests.unit.adapters.mcp_http.serving import RecordingScopes, demo_app, serving


@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_the_real_client_lists_and_calls_tools_with_a_header_token(mode: str) -> None:
    scopes = RecordingScopes()
    async with (
        serving(demo_app(scopes)) as running,
        httpx2.AsyncClient(headers={"Authorization": "Bearer token-client"}) as http,
        Client(streamable_http_client(running.mcp_url, http_client=http), mode=mode) as client,
    ):
        tools = (await client.list_tools()).tools
        found = await client.call_tool("openproject_search_wiki_pages", {"query": "onbaording checklist"})
        missing = await client.call_tool("openproject_get_work_package", {"workPackageId": 999_999})
    assert len(tools) == len(TOOLS) == 25
    assert not found.is_error and found.structured_content is not None
    assert found.structured_content["elements"][0]["title"] == "Onboarding checklist"
    assert missing.is_error
    assert set(scopes.seen) == {"token-client"}


async def test_the_real_client_sees_the_401_message_when_it_sends_no_token() -> None:
    async with serving(demo_app()) as running, httpx2.AsyncClient() as http:
        with pytest.RaisesGroup(
            pytest.RaisesExc(MCPError, match="needs your own OpenProject API token"), flatten_subgroups=True
        ):
            async with Client(streamable_http_client(running.mcp_url, http_client=http)) as client:
                await client.list_tools()


async def test_concurrent_clients_each_reach_their_tool_calls_with_their_own_token() -> None:
    scopes = RecordingScopes()
    tokens = [f"token-{n}" for n in range(4)]

    async def one_client(token: str) -> int:
        async with (
            httpx2.AsyncClient(headers={"X-OpenProject-Api-Key": token}) as http,
            Client(streamable_http_client(running.mcp_url, http_client=http)) as client,
        ):
            results = await asyncio.gather(*(client.call_tool("openproject_list_statuses", {}) for _ in range(10)))
        return sum(not r.is_error for r in results)

    async with serving(demo_app(scopes)) as running:
        succeeded = await asyncio.gather(*(one_client(token) for token in tokens))
    assert succeeded == [10, 10, 10, 10]
    assert sorted(str(seen) for seen in scopes.seen) == sorted(token for token in tokens for _ in range(10))
