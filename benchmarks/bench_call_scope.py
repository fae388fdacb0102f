"""What the composition root costs per tool call: opening a call's scope and resolving its use case.

Fixture backend (the embedded demo data), no I/O: the time measured is only the wiring, which
every tool call pays before its use case runs. Each line is the median over several batches of
calls of one use case through ``Application.scope``, in one process built once; the first and
last batch are printed too, because wiring that retains something of every call gets slower as
calls accumulate. For the OpenProject backend the same is measured against the fake server
with the session opened and closed (still no request sent).
"""

from __future__ import annotations

import asyncio
import statistics
import time
from typing import Any

from openproject_mcp.application.projects import ListProjects
from openproject_mcp.application.search_meetings import SearchMeetings
from openproject_mcp.application.work_packages import ListWorkPackages
from openproject_mcp.composition import Application
from openproject_mcp.config import Settings
from tests.support.datasets import DEMO
from tests.support.fake_openproject import FakeOpenProject

WARMUP = 200
BATCHES = 7
CALLS_PER_BATCH = 500
USE_CASES: tuple[type[Any], ...] = (ListProjects, ListWorkPackages, SearchMeetings)
TOKEN = "bench-scope-token"


async def batches(app: Application, kind: type[Any], credential: str | None) -> list[float]:
    """Microseconds per call (scope opened, use case resolved, scope closed), one value per batch."""
    for _ in range(WARMUP):
        async with app.scope(credential) as scope:
            await scope.resolve(kind)
    per_call = []
    for _ in range(BATCHES):
        started = time.perf_counter()
        for _ in range(CALLS_PER_BATCH):
            async with app.scope(credential) as scope:
                await scope.resolve(kind)
        per_call.append((time.perf_counter() - started) / CALLS_PER_BATCH * 1e6)
    return per_call


def line(label: str, per_call: list[float]) -> str:
    return (
        f"  {label:<34} median {statistics.median(per_call):8.1f} us per call   "
        f"(first batch {per_call[0]:.1f}, last {per_call[-1]:.1f})"
    )


async def run() -> None:
    print(
        f"scope + resolve + close, {BATCHES} batches x {CALLS_PER_BATCH} calls after {WARMUP} warm-up calls; "
        "one process, one Application"
    )
    app = Application(DEMO)
    for kind in USE_CASES:
        print(line(f"fixture, {kind.__name__}", await batches(app, kind, None)), flush=True)
    async with FakeOpenProject({TOKEN: app.container.dataset()}) as fake:
        remote = Application(Settings(backend="openproject", base_url=fake.base_url, api_key=TOKEN))
        try:
            for kind in USE_CASES:
                print(line(f"openproject, {kind.__name__}", await batches(remote, kind, TOKEN)), flush=True)
        finally:
            await remote.aclose()
        assert not fake.requests, "resolving a use case sends no request"


def main() -> None:
    asyncio.run(run())


if __name__ == "__main__":
    main()
