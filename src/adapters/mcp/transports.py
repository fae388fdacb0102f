"""Serving the MCP server over stdio, and calling it in-process with the real client."""

from __future__ import annotations

from typing import Any

from mcp import Client
from mcp.server import Server
from mcp.server.stdio import stdio_server
from mcp.types import CallToolResult


async def serve_stdio(server: Server[Any]) -> None:
    """Serve one client over stdin/stdout until it disconnects. Nothing else writes to stdout."""
    async with stdio_server() as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())


async def call_in_process(server: Server[Any], tool: str, arguments: dict[str, Any]) -> CallToolResult:
    """One tool call through an in-process MCP client: the same path a real client takes."""
    async with Client(server) as client:
        return await client.call_tool(tool, arguments)
