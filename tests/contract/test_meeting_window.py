"""The meeting window over HTTP: where no released OpenProject has a meetings full-text filter,
the list is all there is, so an instance's older meetings must be inside the window to be found."""

from __future__ import annotations

import json

import pytest

from openproject_mcp.adapters.fixture.dataset import parse_dataset
from openproject_mcp.application.search_meetings import CANDIDATE_LIMIT, SearchMeetings, SearchMeetingsRequest
from openproject_mcp.composition import Application
from tests.contract.conftest import TOKEN, http_settings
from tests.support.datasets import many_meetings
from tests.support.fake_openproject import FakeOpenProject


@pytest.mark.parametrize("profile", ["16.6", "17.3", "18.0"])
async def test_the_oldest_of_330_meetings_is_found_by_its_title_in_one_list_request(profile: str) -> None:
    document = many_meetings(330)
    document["meetings"][0]["title"] = "Warehouse lease renewal"  # id 1, the oldest
    served = parse_dataset(json.dumps(document).encode(), "330 meetings")
    async with FakeOpenProject({TOKEN: served}, profile=profile) as fake:
        app = Application(http_settings(fake.base_url))
        try:
            async with app.scope(None) as scope:  # the instance's capabilities found out first
                await (await scope.resolve(SearchMeetings)).execute(SearchMeetingsRequest("status"))
            fake.clear()
            async with app.scope(None) as scope:
                page = await (await scope.resolve(SearchMeetings)).execute(SearchMeetingsRequest("lease renewal"))
        finally:
            await app.aclose()
    assert [e.meeting.id for e in page.elements][:1] == [1]
    assert page.coverage is not None and not page.coverage.candidate_limit_reached
    assert page.notes is None or not any("candidate window was cut" in n for n in page.notes)
    lists = [r for r in fake.requests if r.path.endswith("/meetings")]
    assert len(lists) == 1, [r.query for r in lists]
    # A profile that sorts by nothing we can send is read in full (up to a bound) and ordered here.
    assert int(lists[0].query["pageSize"]) >= CANDIDATE_LIMIT
