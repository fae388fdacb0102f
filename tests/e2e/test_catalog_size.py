"""The catalog a client sends its model: tools/list as the console command answers it over stdio.

A client passes the whole answer to the model at the start of every conversation; its size is
measured here the way it travels, as the bytes of the JSON-RPC response line (ADR 0028).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

import pytest

# The default catalog with every tool stays under this many bytes of JSON-RPC response.
CATALOG_BUDGET = 20_000


def listed(**settings: str) -> tuple[int, list[dict[str, Any]]]:
    """The size in bytes of the tools/list response line and its tools, with ``settings`` set."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("OPENPROJECT_")}
    env.update(settings)
    messages: list[dict[str, Any]] = [
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "m", "version": "1"},
            },
        },
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
    ]
    proc = subprocess.Popen(
        [sys.executable, "-m", "openproject_mcp", "serve", "--demo"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=env,
    )
    assert proc.stdin is not None and proc.stdout is not None
    try:
        lines: list[bytes] = []
        for message in messages:
            proc.stdin.write(json.dumps(message).encode() + b"\n")
            proc.stdin.flush()
            if "id" in message:
                lines.append(proc.stdout.readline())
    finally:
        proc.stdin.close()
        proc.wait(timeout=30)
        proc.stdout.close()
    answer = json.loads(lines[-1])
    assert answer["id"] == 2, answer
    return len(lines[-1]), answer["result"]["tools"]


def test_the_default_catalog_with_every_tool_is_under_its_budget() -> None:
    size, tools = listed()
    assert len(tools) == 25  # the 19, openproject_get_instance, four write tools and the time entry list
    assert size < CATALOG_BUDGET, f"tools/list is {size:,} bytes"
    for tool in tools:
        assert tool["outputSchema"]["type"] == "object" and tool["outputSchema"]["properties"], tool["name"]
        assert all(prop == {} for prop in tool["outputSchema"]["properties"].values()), tool["name"]
        assert "required" not in tool["outputSchema"], tool["name"]


@pytest.mark.parametrize("level", ["outline", "full"])
def test_the_other_output_schema_levels_still_type_every_key(level: str) -> None:
    default_size, _ = listed()
    size, tools = listed(OPENPROJECT_OUTPUT_SCHEMAS=level)
    assert size > default_size
    untyped = {
        (tool["name"], key) for tool in tools for key, prop in tool["outputSchema"]["properties"].items() if not prop
    }
    assert not untyped, untyped
    assert any(tool["outputSchema"].get("required") for tool in tools)
    assert any("$defs" in tool["outputSchema"] for tool in tools) is (level == "full")
