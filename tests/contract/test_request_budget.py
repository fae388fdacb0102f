"""What one search costs in requests against the fake OpenProject (counts, never timings)."""

from __future__ import annotations

from typing import Any

from openproject_mcp.application.search_meetings import SearchMeetings, SearchMeetingsRequest
from openproject_mcp.application.search_work_packages import SearchWorkPackages, SearchWorkPackagesRequest
from openproject_mcp.composition import Application
from tests.contract.conftest import TOKEN, http_settings, served_dataset
from tests.support.fake_openproject import FakeOpenProject

SEED_BUDGET = 1 + 25 * 2  # one list, 25 enrichments of two requests each


async def test_a_cold_search_stays_within_the_seed_budget_and_a_repeat_costs_at_most_3_requests() -> None:
    searches: list[tuple[type[Any], Any]] = [
        (SearchMeetings, SearchMeetingsRequest("catalogue")),
        (SearchWorkPackages, SearchWorkPackagesRequest("honeypot")),
    ]
    async with FakeOpenProject({TOKEN: served_dataset()}) as fake:
        app = Application(http_settings(fake.base_url))
        try:
            for kind, request in searches:
                counts = []
                for _ in range(2):
                    fake.clear()
                    async with app.scope(None) as scope:
                        await (await scope.resolve(kind)).execute(request)
                    counts.append(len(fake.requests))
                cold, warm = counts
                assert cold <= SEED_BUDGET, kind.__name__
                assert warm <= 3, f"{kind.__name__}: {[r.path for r in fake.requests]}"
                assert fake.max_in_flight <= 16
        finally:
            await app.aclose()
