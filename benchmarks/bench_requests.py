"""Request efficiency of a search against a fake OpenProject with 50 ms latency per request.

A meeting search and a work package search over a 1,000-record dataset, and a wiki search over
30 pages (found by id: no released version lists them), cold (nothing cached, capabilities
unknown) and warm (the same search again), printed beside the seed design's budget: one list
request, then 25 enrichments of two requests each, 8 at a time.

A "wave" is one round trip of waiting: a request that starts after the earliest answer of the
current wave arrived begins the next wave. With 50 ms per request, waves x 50 ms is roughly the
time a user waits on the network.
"""

from __future__ import annotations

import asyncio
import json
import math
import time
from collections.abc import Sequence
from typing import Any

from openproject_mcp.adapters.fixture import Dataset, parse_dataset
from openproject_mcp.application.search_meetings import SearchMeetings, SearchMeetingsRequest
from openproject_mcp.application.search_wiki_pages import SearchWikiPages, SearchWikiPagesRequest
from openproject_mcp.application.search_work_packages import SearchWorkPackages, SearchWorkPackagesRequest
from openproject_mcp.composition import Application
from openproject_mcp.config import Settings
from tests.support.datasets import many_meetings, many_work_packages
from tests.support.fake_openproject import FakeOpenProject, RecordedRequest

LATENCY = 0.05
RECORDS = 1000
TOKEN = "bench-token"
SEED_REQUESTS = 1 + 25 * 2
SEED_WAVES = 1 + math.ceil(25 / 8) * 2
WIKI_PAGES = 30


def waves(requests: Sequence[RecordedRequest]) -> int:
    count = 0
    wave_first_answer = -math.inf
    for request in sorted(requests, key=lambda r: r.started):
        if request.started >= wave_first_answer:
            count += 1
            wave_first_answer = request.finished
        else:
            wave_first_answer = min(wave_first_answer, request.finished)
    return count


def dataset() -> Dataset:
    document: dict[str, Any] = many_work_packages(RECORDS, old_comment="We moved the pool to PgBouncer.")
    document["meetings"] = many_meetings(RECORDS, old_outcome="We decided to use an escrow account.")["meetings"]
    document["wiki_pages"] = [{"id": i, "project": 1, "title": f"Runbook {i}"} for i in range(1, WIKI_PAGES + 1)]
    return parse_dataset(json.dumps(document).encode(), "benchmark dataset")


async def measure() -> list[tuple[str, str, int, int, float]]:
    rows: list[tuple[str, str, int, int, float]] = []
    async with FakeOpenProject({TOKEN: dataset()}, latency=LATENCY) as fake:
        app = Application(Settings(backend="openproject", base_url=fake.base_url, api_key=TOKEN))
        try:
            searches: list[tuple[str, type[Any], Any]] = [
                ("meetings 'escrow decision'", SearchMeetings, SearchMeetingsRequest("escrow decision")),
                ("work packages 'pgbouncer'", SearchWorkPackages, SearchWorkPackagesRequest("pgbouncer")),
                (f"wiki pages 'runbook 7' ({WIKI_PAGES})", SearchWikiPages, SearchWikiPagesRequest("runbook 7")),
            ]
            for label, kind, request in searches:
                for phase in ("cold", "warm"):
                    fake.clear()
                    started = time.perf_counter()
                    async with app.scope(None) as scope:
                        await (await scope.resolve(kind)).execute(request)
                    elapsed = time.perf_counter() - started
                    rows.append((label, phase, len(fake.requests), waves(fake.requests), elapsed))
        finally:
            await app.aclose()
    return rows


def main() -> None:
    rows = asyncio.run(measure())
    print(f"requests per search, fake OpenProject with {LATENCY * 1000:.0f} ms latency, {RECORDS} records each")
    print(f"  seed design budget (cold): {SEED_REQUESTS} requests, {SEED_WAVES} waves")
    for label, phase, requests, wave_count, elapsed in rows:
        print(f"  {label:<28} {phase}: {requests:3d} requests, {wave_count:2d} waves, {elapsed * 1000:6.0f} ms")


if __name__ == "__main__":
    main()
