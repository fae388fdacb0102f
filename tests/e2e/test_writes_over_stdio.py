"""The write tools through the real console command over stdio, driven by the real MCP client.

On the demo data a write lasts as long as the server process: the next call sees it, a new process
starts from the embedded data again. With ``--read-only`` (or ``OPENPROJECT_READ_ONLY=true``) the
write tools are not listed, and calling one is ``SERVER_READ_ONLY``.
"""

from __future__ import annotations

import os
import sys
from typing import Any

from mcp import Client, StdioServerParameters
from mcp.types import CallToolResult

WRITE_TOOLS = {
    "openproject_create_work_package",
    "openproject_update_work_package",
    "openproject_add_work_package_comment",
    "openproject_log_time",
}


def params(*args: str, env: dict[str, str] | None = None) -> StdioServerParameters:
    return StdioServerParameters(
        command=sys.executable, args=["-m", "openproject_mcp", "serve", "--demo", *args], env=env
    )


def text_of(result: CallToolResult) -> str:
    return "\n".join(getattr(c, "text", "") for c in result.content)


def data_of(result: CallToolResult) -> dict[str, Any]:
    assert not result.is_error, text_of(result)
    assert isinstance(result.structured_content, dict)
    return result.structured_content


async def test_writes_last_for_the_process_and_a_new_process_starts_from_the_demo_data() -> None:
    async with Client(params()) as client:
        listed = {t.name for t in (await client.list_tools()).tools}
        created = data_of(
            await client.call_tool(
                "openproject_create_work_package", {"projectId": "checkout", "subject": "Refund e-mail has no logo"}
            )
        )
        new_id = created["workPackage"]["id"]
        read = data_of(await client.call_tool("openproject_get_work_package", {"workPackageId": new_id}))
        instructions = client.instructions
    assert listed >= WRITE_TOOLS
    assert read["subject"] == "Refund e-mail has no logo" and read["project"]["name"]
    assert instructions is not None and "openproject_update_work_package" in instructions
    async with Client(params()) as client:
        again = await client.call_tool("openproject_get_work_package", {"workPackageId": new_id})
    assert again.is_error and text_of(again).startswith("Error [OPENPROJECT_NOT_FOUND]")


async def test_read_only_hides_and_refuses_every_write_tool() -> None:
    for server in (params("--read-only"), params(env={**os.environ, "OPENPROJECT_READ_ONLY": "true"})):
        async with Client(server) as client:
            listed = {t.name for t in (await client.list_tools()).tools}
            refused = [
                await client.call_tool(name, arguments)
                for name, arguments in (
                    ("openproject_create_work_package", {"projectId": "webshop", "subject": "x"}),
                    ("openproject_update_work_package", {"workPackageId": 104, "status": "Closed"}),
                    ("openproject_add_work_package_comment", {"workPackageId": 104, "comment": "x"}),
                    ("openproject_log_time", {"workPackageId": 104, "hours": 1}),
                )
            ]
            read = await client.call_tool("openproject_get_work_package", {"workPackageId": 104})
            entries = await client.call_tool("openproject_list_time_entries", {"projectId": "webshop"})
            instructions = client.instructions
        assert not listed & WRITE_TOOLS
        assert "openproject_list_time_entries" in listed and len(listed) == 21
        assert all(r.is_error and text_of(r).startswith("Error [SERVER_READ_ONLY]: ") for r in refused)
        assert data_of(read)["status"] == "New"
        assert data_of(entries)["total"] == 2
        assert instructions is not None and "Nothing can be created or changed" in instructions
