"""Running independent requests side by side without changing how their errors surface."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Iterable
from typing import TypeVar

from openproject_mcp.domain.errors import OpenProjectMcpError

T = TypeVar("T")


async def together(calls: Iterable[Awaitable[T]]) -> list[T]:
    """Await every call concurrently; results in order, or one of their errors as itself.

    On the first failure the calls still running are cancelled, and the error raised is a core
    error, preferring one that aborts a search (401, 403, 429) since it is what the user must fix.

    ``asyncio.TaskGroup`` is deliberately not used: on a child's failure it cancels the *parent*
    task and un-cancels it later, which leaves anyio's cancel scopes (the MCP server runs every
    request in one) believing a cancellation is pending, so the server's task group ended with a
    stray ``CancelledError`` after an expired token.
    """
    tasks = [asyncio.ensure_future(call) for call in calls]
    if not tasks:
        return []
    try:
        await asyncio.wait(tasks, return_when=asyncio.FIRST_EXCEPTION)
        failures = [t.exception() for t in tasks if t.done() and not t.cancelled() and t.exception() is not None]
        if failures:
            core = [e for e in failures if isinstance(e, OpenProjectMcpError)]
            chosen = next((e for e in core if e.aborts_search), core[0] if core else failures[0])
            assert chosen is not None
            raise chosen
        return [t.result() for t in tasks]
    finally:
        pending = [t for t in tasks if not t.done()]
        for task in pending:
            task.cancel()
        if pending:
            await asyncio.gather(*pending, return_exceptions=True)
