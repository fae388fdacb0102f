"""map_bounded: at most the limit in flight, results in order, the first failure stops the rest."""

from __future__ import annotations

import asyncio

import pytest

from openproject_mcp.application.concurrency import map_bounded
from openproject_mcp.domain.errors import AuthenticationError, NotFoundError

# Long enough for any scheduling delay on a loaded machine; a test only waits this long when
# the behaviour it checks is missing.
STUCK = 10.0


async def test_never_more_than_the_limit_in_flight_and_results_in_input_order() -> None:
    in_flight = 0
    most = 0

    async def call(item: int) -> int:
        nonlocal in_flight, most
        in_flight += 1
        most = max(most, in_flight)
        for _ in range(item % 4):
            await asyncio.sleep(0)
        in_flight -= 1
        return -item

    assert await map_bounded(range(40), 3, call) == [-item for item in range(40)]
    assert most == 3


async def test_the_first_failure_cancels_the_calls_still_running_and_is_raised_itself() -> None:
    cancelled: list[int] = []

    async def call(item: int) -> int:
        if item == 1:
            raise NotFoundError("gone")
        try:
            await asyncio.sleep(STUCK)
        except asyncio.CancelledError:
            cancelled.append(item)
            raise
        return item

    with pytest.raises(NotFoundError, match="gone"):
        await map_bounded(range(10), 4, call)
    assert sorted(cancelled) == [0, 2, 3]


async def test_among_failures_finishing_together_the_one_that_aborts_a_search_is_raised() -> None:
    async def call(item: int) -> int:
        if item == 0:
            raise NotFoundError("one record")
        raise AuthenticationError("token expired")

    with pytest.raises(AuthenticationError):
        await map_bounded(range(2), 2, call)


async def test_a_limit_below_one_is_refused() -> None:
    async def call(item: int) -> int:
        return item

    with pytest.raises(ValueError, match="at least 1"):
        await map_bounded([1], 0, call)
