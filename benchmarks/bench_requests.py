"""Requests and round-trip waves of a search against a fake OpenProject with 50 ms per request.

A meeting search and a work package search over a 1,000-record dataset, and a wiki search over
30 pages (found by id: no released version lists them), in the 17.3 and 18.0 profiles:

- cold, capabilities unknown: the first call of the process against the instance (another user's);
- cold: nothing of this user cached, the instance's capabilities known;
- warm: the same search again (a meeting search that found nothing, repeated, reads the next 25
  agendas instead: ADR 0066).

A **wave** is one round trip waited for: a request's wave is 1 if it started before any answer
it could have waited for, else one more than the highest wave among the requests answered before
it started; a search's waves are the longest such chain, the critical path of dependent round
trips (``tests.support.fake_openproject.waves``). It counts a request that waited for a free slot
under the bound of requests in flight as its own wave. With 50 ms per request, waves x 50 ms is a
lower bound on the time spent waiting on the network. The contract test
``tests/contract/test_request_waves.py`` holds the same counts without any timing, against the
fake in lockstep mode.

The seed design's budget is printed beside them: one list request, then 25 enrichments of two
requests each, 8 at a time (51 requests, 1 + 4 x 2 = 9 waves).
"""

from __future__ import annotations

import asyncio
import json
import math
import time
from dataclasses import dataclass
from typing import Any

from openproject_mcp.adapters.fixture import Dataset, parse_dataset
from openproject_mcp.application.search_meetings import SearchMeetings, SearchMeetingsRequest
from openproject_mcp.application.search_wiki_pages import SearchWikiPages, SearchWikiPagesRequest
from openproject_mcp.application.search_work_packages import SearchWorkPackages, SearchWorkPackagesRequest
from openproject_mcp.composition import Application
from openproject_mcp.config import Settings
from tests.support.datasets import many_meetings, many_work_packages
from tests.support.fake_openproject import FakeOpenProject, round_trips

LATENCY = 0.05
RECORDS = 1000
TOKEN = "bench-token"
FIRST_CALLER = "bench-first-caller"
SECOND_USER = "bench-second-user"  # the meeting search that finds something: nothing of it cached
PROFILES = ("17.3", "18.0")
SEED_REQUESTS = 1 + 25 * 2
SEED_WAVES = 1 + math.ceil(25 / 8) * 2
WIKI_PAGES = 30


@dataclass(frozen=True)
class Row:
    profile: str
    search: str
    phase: str
    requests: int
    waves: int
    in_flight: int
    elapsed: float


def dataset() -> Dataset:
    document: dict[str, Any] = many_work_packages(RECORDS, old_comment="We moved the pool to PgBouncer.")
    document["meetings"] = many_meetings(RECORDS, old_outcome="We decided to use an escrow account.")["meetings"]
    document["wiki_pages"] = [{"id": i, "project": 1, "title": f"Runbook {i}"} for i in range(1, WIKI_PAGES + 1)]
    return parse_dataset(json.dumps(document).encode(), "benchmark dataset")


async def measure_profile(profile: str, served: Dataset) -> list[Row]:
    rows: list[Row] = []
    tokens = {TOKEN: served, FIRST_CALLER: served, SECOND_USER: served}
    async with FakeOpenProject(tokens, latency=LATENCY, profile=profile) as fake:
        app = Application(Settings(backend="openproject", base_url=fake.base_url, api_key=TOKEN))

        async def run(label: str, phase: str, token: str, kind: type[Any], request: Any) -> None:
            fake.clear()
            started = time.perf_counter()
            async with app.scope(token) as scope:
                await (await scope.resolve(kind)).execute(request)
            elapsed = time.perf_counter() - started
            requests = list(fake.requests)
            rows.append(Row(profile, label, phase, len(requests), round_trips(requests), fake.max_in_flight, elapsed))

        try:
            searches: list[tuple[str, type[Any], Any, tuple[str, ...]]] = [
                # The escrow decision is in the oldest meeting, outside the window: nothing is found, and a
                # repeat reads the next 25 agendas where the version has them (ADR 0066).
                (
                    "meetings 'escrow decision'",
                    SearchMeetings,
                    SearchMeetingsRequest("escrow decision"),
                    ("cold", "repeated, nothing found"),
                ),
                ("meetings 'status round'", SearchMeetings, SearchMeetingsRequest("status round"), ("cold", "warm")),
                (
                    "work packages 'pgbouncer'",
                    SearchWorkPackages,
                    SearchWorkPackagesRequest("pgbouncer"),
                    ("cold", "warm"),
                ),
                (
                    f"wiki pages 'runbook 7' ({WIKI_PAGES})",
                    SearchWikiPages,
                    SearchWikiPagesRequest("runbook 7"),
                    ("cold", "warm"),
                ),
            ]
            label, kind, request, _ = searches[0]
            await run(label, "cold, capabilities unknown", FIRST_CALLER, kind, request)
            for label, kind, request, phases in searches:
                token = SECOND_USER if "status round" in label else TOKEN
                for phase in phases:
                    await run(label, phase, token, kind, request)
        finally:
            await app.aclose()
    return rows


async def measure() -> list[Row]:
    served = dataset()
    return [row for profile in PROFILES for row in await measure_profile(profile, served)]


def main() -> None:
    rows = asyncio.run(measure())
    print(f"requests and round-trip waves per search, fake OpenProject with {LATENCY * 1000:.0f} ms per request")
    print(f"  seed design budget (cold): {SEED_REQUESTS} requests, {SEED_WAVES} waves, 8 in flight")
    for row in rows:
        print(
            f"  {row.profile} {row.search:<28} {row.phase:<27}: {row.requests:3d} requests, {row.waves:2d} waves"
            f" (seed {SEED_WAVES}), {row.in_flight:2d} in flight, {row.elapsed * 1000:6.0f} ms"
        )


if __name__ == "__main__":
    main()
