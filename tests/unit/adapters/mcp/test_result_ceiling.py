"""The server keeps every tool result within OPENPROJECT_MAX_RESULT_CHARS and says what it cut."""

from __future__ import annotations

import json

from mcp import Client

from openproject_mcp.adapters.mcp.server import build_server
from openproject_mcp.composition import Application
from openproject_mcp.config import Settings


async def test_a_result_over_the_ceiling_is_cut_and_its_notes_say_so() -> None:
    server = build_server(Application(Settings(backend="demo")).scope, max_result_chars=10_000)
    async with Client(server) as client:
        whole = await client.call_tool("openproject_list_work_packages", {"pageSize": 100})
        spec = await client.call_tool("openproject_get_openapi_spec", {"full": True})
    data = whole.structured_content
    assert data is not None and not whole.is_error
    assert len(json.dumps(data, separators=(",", ":"), ensure_ascii=False)) <= 10_000
    assert data["count"] == len(data["workPackages"]) < data["total"]
    assert any("OPENPROJECT_MAX_RESULT_CHARS" in note for note in data["notes"])
    # The demo's API description is small: it fits, and carries no note.
    assert spec.structured_content is not None and "notes" not in spec.structured_content


async def test_results_under_the_ceiling_are_unchanged() -> None:
    async with Client(build_server(Application(Settings(backend="demo")).scope)) as client:
        listed = await client.call_tool("openproject_list_work_packages", {"pageSize": 100})
    assert listed.structured_content is not None and "notes" not in listed.structured_content
