"""Running coroutines with a bound on how many are in flight."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterable
from typing import TypeVar

from openproject_mcp.domain.errors import OpenProjectMcpError

T = TypeVar("T")
R = TypeVar("R")


async def map_bounded(items: Iterable[T], limit: int, call: Callable[[T], Awaitable[R]]) -> list[R]:
    """``call`` on every item, at most ``limit`` at a time, results in input order.

    Items are taken from ``items`` only as earlier calls finish, so at most ``limit`` tasks
    exist at any time, however long ``items`` is (a range of a million ids costs nothing).

    The first failure cancels the calls still running and is raised as itself (not wrapped in
    a group), so a fatal error such as an expired token stops the work at once. When several
    finish failed together, a core error is preferred, and among those one that aborts a search
    (401, 403, 429), since it is what the user must fix.
    """
    if limit < 1:
        raise ValueError("limit must be at least 1")
    source = iter(items)
    results: dict[int, R] = {}
    running: dict[asyncio.Future[R], int] = {}
    taken = 0
    exhausted = False
    try:
        while True:
            # Items are taken lazily: never more than ``limit`` tasks exist, whatever ``items`` holds.
            while not exhausted and len(running) < limit:
                try:
                    item = next(source)
                except StopIteration:
                    exhausted = True
                    break
                running[asyncio.ensure_future(call(item))] = taken
                taken += 1
            if not running:
                return [results[i] for i in range(taken)]
            done, _ = await asyncio.wait(running, return_when=asyncio.FIRST_EXCEPTION)
            failures: list[BaseException] = []
            for task in done:
                index = running.pop(task)
                failure = asyncio.CancelledError() if task.cancelled() else task.exception()
                if failure is not None:
                    failures.append(failure)
                else:
                    results[index] = task.result()
            if failures:
                raise _chosen(failures)
    finally:
        for task in running:
            if not task.done():
                task.cancel()
        await asyncio.gather(*running, return_exceptions=True)


def _chosen(failures: list[BaseException]) -> BaseException:
    core = [e for e in failures if isinstance(e, OpenProjectMcpError)]
    return next((e for e in core if e.aborts_search), core[0] if core else failures[0])
