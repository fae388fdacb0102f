"""Running independent requests side by side without changing how their errors surface."""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Awaitable, Generator, Iterable, Iterator
from typing import Any, TypeVar

from openproject_mcp.domain.errors import OpenProjectMcpError

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
    if limit < 1:
        raise ValueError("limit must be at least 1")
    source: Iterator[Awaitable[T]] = iter(calls)
    results: dict[int, T] = {}
    running: dict[asyncio.Future[T], int] = {}
    taken = 0
    exhausted = False
    try:
        while True:
            while not exhausted and len(running) < limit:
                try:
                    call = next(source)
                except StopIteration:
                    exhausted = True
                    break
                running[asyncio.ensure_future(call)] = taken
                taken += 1
            if not running:
                return [results[i] for i in range(taken)]
            done, _ = await asyncio.wait(running, return_when=asyncio.FIRST_EXCEPTION)
            failures: list[BaseException] = []
            for task in done:
                index = running.pop(task)
                if task.cancelled():
                    failures.append(asyncio.CancelledError())
                elif (error := task.exception()) is not None:
                    failures.append(error)
                else:
                    results[index] = task.result()
            if failures:
                core = [e for e in failures if isinstance(e, OpenProjectMcpError)]
                chosen = next((e for e in core if e.aborts_search), core[0] if core else failures[0])
                raise chosen
    finally:
        pending = [t for t in running if not t.done()]
        for task in pending:
            task.cancel()
        if pending:
            await asyncio.gather(*pending, return_exceptions=True)
        if not exhausted:
            _discard(source)


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
