"""Running independent requests side by side without changing how their errors surface."""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Awaitable, Generator, Iterable, Iterator
from typing import Any, TypeVar

from openproject_mcp.application.concurrency import map_bounded

T = TypeVar("T")

# Calls started at once; the tenant's limiter bounds the requests in flight below this anyway.
MAX_STARTED = 16


async def together(calls: Iterable[Awaitable[T]], *, limit: int = MAX_STARTED) -> list[T]:
    """Await every call concurrently; results in order, or one of their errors as itself.

    Calls are taken from ``calls`` lazily, at most ``limit`` running at a time, so a generator
    derived from what the instance claims (a page count, a list of links) never turns into more
    tasks than that; and once one fails, the ones not yet taken are never started. Each call's
    requests count against the call's ceiling in the client, which is what ends a long loop.

    On the first failure the calls still running are cancelled, and the error raised is a core
    error, preferring one that aborts a search (401, 403, 429) since it is what the user must fix.

    ``asyncio.TaskGroup`` is deliberately not used: on a child's failure it cancels the *parent*
    task and un-cancels it later, which leaves anyio's cancel scopes (the MCP server runs every
    request in one) believing a cancellation is pending, so the server's task group ended with a
    stray ``CancelledError`` after an expired token.
    """
    source: Iterator[Awaitable[T]] = iter(calls)
    try:
        return await map_bounded(source, limit, _itself)
    finally:
        _discard(source)  # the calls never taken (none once every one was)


def _itself(call: Awaitable[T]) -> Awaitable[T]:
    return call


def _discard(source: Iterator[Any]) -> None:
    """Drop the calls never taken: a generator is closed (it never builds them), others are closed each."""
    if isinstance(source, Generator):
        source.close()
        return
    for call in source:
        if inspect.iscoroutine(call):
            call.close()
        elif isinstance(call, asyncio.Future):
            call.cancel()
