"""Serving the MCP server over stdio, and calling it in-process with the real client."""

from __future__ import annotations

import json
import sys
from collections.abc import AsyncIterator
from io import TextIOWrapper
from typing import Any, cast

import anyio
import mcp.types as types
from mcp import Client
from mcp.server import Server
from mcp.server.stdio import stdio_server
from mcp.shared.message import SessionMessage
from mcp.types import INVALID_REQUEST, CallToolResult

from openproject_mcp.adapters.mcp.jsonrpc import Refusal, inspect_message

WriteStream = anyio.abc.ObjectSendStream[SessionMessage]


class AnsweredLines:
    """The client's lines, each checked before the SDK sees it; a refused one is answered here.

    The SDK's stdio transport drops a line it cannot validate without a word, so a request that
    carried an id (a batch, ``"jsonrpc": "1.0"``, string params, deep nesting, a lone surrogate)
    would never be answered. This passes on only lines the SDK accepts and answers the others
    with the JSON-RPC error an HTTP client gets for the same body.
    """

    def __init__(self, lines: anyio.AsyncFile[str]) -> None:
        self._lines = lines
        self._ready = anyio.Event()
        self._out: WriteStream | None = None

    def attach(self, out: WriteStream) -> None:
        """Where answers go; lines wait for this, so none is answered before the transport is up."""
        self._out = out
        self._ready.set()

    def __aiter__(self) -> AsyncIterator[str]:
        return self._checked()

    async def _checked(self) -> AsyncIterator[str]:
        async for line in self._lines:
            if not line.strip():
                continue
            refusal = refused(line)
            if refusal is None:
                yield line
                continue
            if refusal.request_id is None and refusal.code == INVALID_REQUEST and _is_notification(line):
                continue  # a notification is never answered, valid or not
            await self._ready.wait()
            assert self._out is not None
            error = types.JSONRPCError(
                jsonrpc="2.0",
                id=refusal.request_id,
                error=types.ErrorData(code=refusal.code, message=refusal.message),
            )
            await self._out.send(SessionMessage(error))


def refused(line: str) -> Refusal | None:
    """Why the SDK would refuse ``line``, or None when it accepts it."""
    inspected = inspect_message(line, what="line", responses=True)
    if isinstance(inspected, Refusal):
        return inspected
    try:
        types.jsonrpc_message_adapter.validate_json(line, by_name=False)
    except ValueError as exc:
        reason = str(exc).splitlines()[0] if str(exc) else "it does not match any JSON-RPC message"
        return Refusal(INVALID_REQUEST, f"Invalid request: {reason}.", inspected.request_id, "(invalid)")
    return None


def _is_notification(line: str) -> bool:
    """Whether ``line`` is shaped like a notification (2.0, a method, no id), which gets no answer."""
    try:
        message = json.loads(line)
    except (ValueError, RecursionError):
        return False
    return (
        isinstance(message, dict)
        and "id" not in message
        and message.get("jsonrpc") == "2.0"
        and isinstance(message.get("method"), str)
    )


async def serve_stdio(server: Server[Any]) -> None:
    """Serve one client over stdin/stdout until it disconnects. Nothing else writes to stdout."""
    stdin = anyio.wrap_file(TextIOWrapper(sys.stdin.buffer, encoding="utf-8", errors="replace"))
    lines = AnsweredLines(stdin)
    async with stdio_server(stdin=cast("anyio.AsyncFile[str]", lines)) as (read_stream, write_stream):
        lines.attach(write_stream)
        await server.run(read_stream, write_stream, server.create_initialization_options())


async def call_in_process(server: Server[Any], tool: str, arguments: dict[str, Any]) -> CallToolResult:
    """One tool call through an in-process MCP client: the same path a real client takes."""
    async with Client(server) as client:
        return await client.call_tool(tool, arguments)
