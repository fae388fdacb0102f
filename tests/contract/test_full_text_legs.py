"""The work package full-text legs over HTTP against the fake OpenProject: what they send (each
word as typed, then every word together) and that an old comment outside every saturated leg and
the recent window is found through the leg of every word."""

from __future__ import annotations

import json

import pytest

from openproject_mcp.adapters.fixture.dataset import parse_dataset
from openproject_mcp.application.search_work_packages import SearchWorkPackages, SearchWorkPackagesRequest
from openproject_mcp.composition import Application
from tests.contract.conftest import TOKEN, http_settings
from tests.support.datasets import crowded_work_packages
from tests.support.fake_openproject import FakeOpenProject


def _search_values(query: dict[str, str]) -> list[str]:
    filters = json.loads(query.get("filters", "[]"))
    return [value for f in filters if "search" in f for value in f["search"]["values"]]


@pytest.mark.parametrize("profile", ["16.6", "17.3", "18.0"])
async def test_an_old_comment_with_two_common_words_is_found_through_the_leg_of_both(profile: str) -> None:
    comments = dict.fromkeys(range(2, 162), "Budget figures updated.")
    comments |= dict.fromkeys(range(162, 322), "Forklift serviced.")
    comments[1] = "The forklift lease fits the Jürgen budget."
    served = parse_dataset(json.dumps(crowded_work_packages(600, comments)).encode(), "crowded")
    async with FakeOpenProject({TOKEN: served}, profile=profile) as fake:
        app = Application(http_settings(fake.base_url))
        try:
            async with app.scope(None) as scope:
                search = await scope.resolve(SearchWorkPackages)
                page = await search.execute(SearchWorkPackagesRequest("forklift Jürgen budget"))
        finally:
            await app.aclose()
        sent = sorted(value for request in fake.requests for value in _search_values(request.query))
    assert sent == sorted(["forklift", "Jürgen", "budget", "forklift budget Jürgen"])  # longest first
    assert page.elements and page.elements[0].work_package.id == 1
    assert page.elements[0].matched_fields == ("comments",)
