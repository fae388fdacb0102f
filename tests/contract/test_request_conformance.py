"""Every request the adapter can send, on every played version, is documented and accepted.

Every tool (the 19 and the write tools), with the arguments that change what is requested, go
through the MCP server (a real in-process client, the server the composition root builds) to the
fake OpenProject of each
profile, as an administrator and as a user who may not list users. Each request is then checked
against the 17.3 OpenAPI document and the version's rules (``tests.support.conformance``).
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from mcp import Client

from openproject_mcp.adapters.fixture import load_demo_dataset
from openproject_mcp.adapters.mcp.catalog import TOOLS as CATALOG
from openproject_mcp.adapters.mcp.server import build_server
from openproject_mcp.composition import Application
from tests.contract.conftest import PROFILES, TOKEN, http_settings
from tests.support.conformance import request_problems, spec_17_3
from tests.support.fake_openproject import FakeOpenProject
from tests.support.tool_calls import MORE_CALLS, ONE_CALL_PER_TOOL, WRITE_TOOL_CALLS, crash_of

TOOLS = {name for name, _ in ONE_CALL_PER_TOOL}


def test_the_calls_cover_every_tool() -> None:
    assert len(TOOLS) == 20  # the 19 of the contract and openproject_get_instance
    assert {spec.name for spec in CATALOG} == TOOLS | {name for name, _ in WRITE_TOOL_CALLS}
    assert {name for name, _ in MORE_CALLS} <= TOOLS


@pytest.mark.parametrize("admin", [True, False], ids=["admin", "non-admin"])
@pytest.mark.parametrize("profile", PROFILES)
async def test_every_tool_sends_only_documented_accepted_requests(profile: str, admin: bool) -> None:
    spec: dict[str, Any] = json.loads(json.dumps(spec_17_3()))
    non_admin = () if admin else (TOKEN,)
    async with FakeOpenProject(
        {TOKEN: load_demo_dataset()}, profile=profile, spec=spec, non_admin_tokens=non_admin
    ) as fake:
        app = Application(http_settings(fake.base_url))
        crashes = []
        call_starts = []
        try:
            async with Client(build_server(app.scope)) as client:
                for tool, arguments in (*ONE_CALL_PER_TOOL, *MORE_CALLS, *WRITE_TOOL_CALLS):
                    call_starts.append(len(fake.requests))
                    crash = crash_of(tool, await client.call_tool(tool, arguments))
                    if crash:
                        crashes.append(f"{crash} (arguments {arguments})")
        finally:
            await app.aclose()
    assert not crashes, "\n".join(crashes)
    assert not fake.server_errors
    problems = request_problems(fake.requests, fake.profile, fake.prefix, call_starts)
    assert not problems, "\n".join(problems)
