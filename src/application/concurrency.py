"""Running coroutines with a bound on how many are in flight."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterable
from typing import TypeVar

T = TypeVar("T")
R = TypeVar("R")


async def map_bounded(items: Iterable[T], limit: int, call: Callable[[T], Awaitable[R]]) -> list[R]:
    """``call`` on every item, at most ``limit`` at a time, results in input order.

    The first exception cancels the calls still running and is raised as itself (not wrapped
    in a group), so a fatal error such as an expired token stops the work at once.
    """
    if limit < 1:
        raise ValueError("limit must be at least 1")
    semaphore = asyncio.Semaphore(limit)

    async def guarded(item: T) -> R:
        async with semaphore:
            return await call(item)

    tasks = [asyncio.ensure_future(guarded(item)) for item in items]
    if not tasks:
        return []
    try:
        done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_EXCEPTION)
        for task in done:
            failure = None if task.cancelled() else task.exception()
            if failure is not None:
                raise failure
        return [task.result() for task in tasks]
    finally:
        for task in tasks:
            if not task.done():
                task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
