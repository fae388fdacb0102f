"""The real console command over stdio, driven by the real MCP client and by raw JSON-RPC."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

from mcp import Client, StdioServerParameters

from tests.conftest import REPO_ROOT

DEMO_DATASET = REPO_ROOT / "src" / "adapters" / "fixture" / "demo_dataset.json"


def server_command(*args: str) -> list[str]:
    return [sys.executable, "-m", "openproject_mcp", *args]


async def test_the_real_client_lists_and_calls_tools_over_stdio() -> None:
    command = server_command("serve", "--dataset", str(DEMO_DATASET))
    params = StdioServerParameters(command=command[0], args=command[1:])
    async with Client(params) as client:
        tools = (await client.list_tools()).tools
        found = await client.call_tool("openproject_search_wiki_pages", {"query": "onbaording checklist"})
        missing = await client.call_tool("openproject_get_work_package", {"workPackageId": 999_999})
    assert len(tools) == 19
    assert not found.is_error and found.structured_content is not None
    assert found.structured_content["elements"][0]["title"] == "Onboarding checklist"
    assert missing.is_error


async def test_search_progress_arrives_over_stdio() -> None:
    seen: list[tuple[float, float | None]] = []

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        seen.append((progress, total))

    command = server_command("serve", "--demo")
    async with Client(StdioServerParameters(command=command[0], args=command[1:])) as client:
        result = await client.call_tool(
            "openproject_search_meetings", {"query": "budget"}, progress_callback=on_progress
        )
    assert not result.is_error
    assert seen and seen[-1][0] == seen[-1][1]


def test_nothing_but_json_rpc_reaches_stdout() -> None:
    messages: list[dict[str, Any]] = [
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-11-25",
                "capabilities": {},
                "clientInfo": {"name": "raw-test", "version": "0"},
            },
        },
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
        {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "openproject_list_statuses"}},
        {"jsonrpc": "2.0", "id": 4, "method": "no/such/method"},
        {"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {"name": "openproject_get_project"}},
    ]
    proc = subprocess.Popen(
        server_command("serve", "--demo"),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdin is not None and proc.stdout is not None
    answers: list[dict[str, Any]] = []
    try:
        for message in messages:
            proc.stdin.write(json.dumps(message) + "\n")
            proc.stdin.flush()
            if "id" in message:
                line = proc.stdout.readline()
                answers.append(json.loads(line))  # every line is JSON-RPC, or this raises
    finally:
        proc.stdin.close()
        proc.wait(timeout=30)
        proc.stdout.close()
        if proc.stderr is not None:
            proc.stderr.close()
    assert all(a.get("jsonrpc") == "2.0" for a in answers)
    by_id: dict[Any, Any] = {a["id"]: a for a in answers if "id" in a}
    assert set(by_id) >= {1, 2, 3, 4, 5}
    assert len(by_id[2]["result"]["tools"]) == 19
    assert by_id[3]["result"]["isError"] is False
    assert "error" in by_id[4]
    assert by_id[5]["result"]["isError"] is True and "INVALID_ARGUMENT" in by_id[5]["result"]["content"][0]["text"]
