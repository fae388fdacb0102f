"""Running independent requests side by side without changing how their errors surface."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from openproject_mcp.domain.errors import OpenProjectMcpError


@contextmanager
def first_error() -> Iterator[None]:
    """Around an ``asyncio.TaskGroup``: re-raise one of its errors instead of an exception group.

    Callers expect the core's error types, not ``ExceptionGroup``. The first core error wins,
    preferring one that aborts a search (401, 403, 429) since it is what the user must fix.
    """
    try:
        yield
    except BaseExceptionGroup as group:
        leaves = list(_leaves(group))
        core = [e for e in leaves if isinstance(e, OpenProjectMcpError)]
        chosen: BaseException = next((e for e in core if e.aborts_search), core[0] if core else leaves[0])
        raise chosen from None


def _leaves(group: BaseExceptionGroup[BaseException]) -> Iterator[BaseException]:
    for exc in group.exceptions:
        if isinstance(exc, BaseExceptionGroup):
            yield from _leaves(exc)
        else:
            yield exc
