"""How many round trips a search waits for, against the fake OpenProject answering in lockstep.

The fake holds every request until the client has gone quiet, then answers all it holds: a
round. ``round_trips`` counts the longest chain of requests each sent after the previous one was
answered (``tests/support/fake_openproject/waves.py``). Counts, never timings: how fast the machine
is changes neither number.

A cold search reads its candidate lists in one round and the deep content of 25 candidates in
two (16 + 9 in flight); a repeated one only its lists, unless it found nothing and left records
unread, which a repeat then reads (ADR 0066). Capabilities are found out once per
instance and process, by the first call that needs them; here another user's search pays for
it, so the searches measured are cold in every cache but that one.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
from typing import Any

import pytest

from openproject_mcp.adapters.fixture import Dataset, parse_dataset
from openproject_mcp.application.search_meetings import SearchMeetings, SearchMeetingsRequest
from openproject_mcp.application.search_work_packages import SearchWorkPackages, SearchWorkPackagesRequest
from openproject_mcp.application.work_packages import WorkPackageScope
from openproject_mcp.composition import Application
from tests.contract.conftest import http_settings
from tests.support.datasets import many_meetings, many_work_packages
from tests.support.fake_openproject import FakeOpenProject, RecordedRequest, round_trips

USER = "waves-user-token"
OTHER = "waves-other-token"
RECORDS = 300
QUIET = 0.05  # seconds without a new request before the fake answers a round
IN_FLIGHT = 16  # requests in flight per user at most (OPENPROJECT_MAX_CONCURRENCY's default)
COLD, WARM = 3, 1


def dataset() -> Dataset:
    document: dict[str, Any] = many_work_packages(RECORDS, old_comment="We moved the pool to PgBouncer.")
    for row in document["work_packages"]:
        row["displayId"] = f"OPS-{row['id']}"
    document["meetings"] = many_meetings(RECORDS, old_outcome="We decided to use an escrow account.")["meetings"]
    return parse_dataset(json.dumps(document).encode(), "waves dataset")


@dataclass(frozen=True)
class Cost:
    requests: tuple[RecordedRequest, ...]
    waves: int
    rounds: int
    in_flight: int
    page: Any

    def paths(self, ending: str) -> list[str]:
        return [r.path for r in self.requests if r.path.endswith(ending)]

    def __str__(self) -> str:
        return f"{len(self.requests)} requests in {self.waves} waves: {sorted(r.path for r in self.requests)}"


async def measure(app: Application, fake: FakeOpenProject, token: str, kind: type[Any], request: Any) -> Cost:
    fake.clear()
    async with app.scope(token) as scope:
        page = await (await scope.resolve(kind)).execute(request)
    requests = tuple(fake.requests)
    return Cost(requests, round_trips(requests), fake.rounds, fake.max_in_flight, page)


@pytest.mark.parametrize("profile", ["16.6", "17.3", "17.8", "18.0"])
async def test_a_cold_search_waits_for_at_most_three_round_trips_and_a_repeat_for_one(profile: str) -> None:
    served = dataset()
    async with FakeOpenProject({USER: served, OTHER: served}, profile=profile, lockstep=QUIET) as fake:
        app = Application(http_settings(fake.base_url, USER))
        try:
            detecting = await measure(app, fake, OTHER, SearchMeetings, SearchMeetingsRequest("status round"))
            # Two rounds of capability probes, the window read beside them, then the agendas.
            assert detecting.waves <= 2 + 2, detecting

            # Neither query matches a list field: the window is filled by the most recent records (and
            # the work package a full-text leg found); both find something there, so a repeat finds all
            # it needs cached. (A repeat of a search that found nothing reads further: below.)
            for kind, request, deep in (
                (SearchWorkPackages, SearchWorkPackagesRequest("pgbouncer"), "/activities"),
                (SearchMeetings, SearchMeetingsRequest("status round"), "/agenda_items"),
            ):
                cold = await measure(app, fake, USER, kind, request)
                assert cold.waves <= COLD, f"{kind.__name__} cold: {cold}"
                assert cold.waves == cold.rounds
                assert cold.in_flight <= IN_FLIGHT
                if kind is SearchWorkPackages or fake.profile.agenda_items:
                    # 25 records read in depth: more than one round's worth at 16 in flight.
                    assert len(cold.paths(deep)) == 25, cold
                    assert cold.waves == COLD
                warm = await measure(app, fake, USER, kind, request)
                assert warm.waves <= WARM, f"{kind.__name__} warm: {warm}"
                assert not warm.paths(deep)
                assert warm.page.elements == cold.page.elements
        finally:
            await app.aclose()


@pytest.mark.parametrize("profile", ["17.8", "18.0"])
async def test_a_repeat_of_a_meeting_search_that_found_nothing_reads_the_next_agendas_within_the_budget(
    profile: str,
) -> None:
    """The escrow decision is the outcome of the oldest of 300 meetings, and no release has a
    meetings full-text search: each repeat reads 25 agendas not read before, in the cold
    search's three round trips, until it is found (ADR 0066)."""
    served = dataset()
    async with FakeOpenProject({USER: served, OTHER: served}, profile=profile, lockstep=QUIET) as fake:
        app = Application(http_settings(fake.base_url, USER))
        try:
            await measure(app, fake, OTHER, SearchMeetings, SearchMeetingsRequest("status round"))
            read: set[str] = set()
            calls = 0
            while True:
                calls += 1
                cost = await measure(app, fake, USER, SearchMeetings, SearchMeetingsRequest("escrow decision"))
                agendas = cost.paths("/agenda_items")
                assert len(agendas) == 25 and not read.intersection(agendas), cost
                assert cost.waves <= COLD and cost.in_flight <= IN_FLIGHT, cost
                read.update(agendas)
                if cost.page.elements:
                    break
                assert cost.page.notes and "repeating this search reads the agendas of the next 25" in " ".join(
                    cost.page.notes
                )
                assert calls < RECORDS // 25
            assert calls == RECORDS // 25 and [e.meeting.id for e in cost.page.elements] == [1]
            warm = await measure(app, fake, USER, SearchMeetings, SearchMeetingsRequest("escrow decision"))
            assert warm.waves <= WARM and not warm.paths("/agenda_items"), warm
            assert warm.page.elements == cost.page.elements
        finally:
            await app.aclose()


async def test_two_searches_of_one_user_share_one_bound_of_sixteen_in_flight() -> None:
    served = dataset()
    async with FakeOpenProject({USER: served}, profile="18.0", lockstep=QUIET) as fake:
        app = Application(http_settings(fake.base_url, USER))
        try:

            async def search(query: str) -> None:
                async with app.scope(USER) as scope:
                    await (await scope.resolve(SearchWorkPackages)).execute(SearchWorkPackagesRequest(query))

            await asyncio.gather(search("maintenance"), search("routine"))
            # Each search alone would have 16 in flight; together they still have 16.
            assert len([r for r in fake.requests if r.path.endswith("/activities")]) == 50
            assert fake.max_in_flight == IN_FLIGHT
        finally:
            await app.aclose()


@pytest.mark.parametrize("profile", ["17.5", "18.0"])
async def test_a_display_id_inside_a_query_comes_first_at_no_extra_round_trip(profile: str) -> None:
    served = dataset()
    async with FakeOpenProject({USER: served}, profile=profile, lockstep=QUIET) as fake:
        app = Application(http_settings(fake.base_url, USER))
        try:
            # 299 is among the 250 most recently updated: its display id came with the list.
            listed = await measure(
                app, fake, USER, SearchWorkPackages, SearchWorkPackagesRequest("OPS-299 export timeout")
            )
            assert listed.page.elements[0].work_package.id == 299
            assert listed.page.elements[0].score == 1.0
            assert not listed.paths("/work_packages/OPS-299")

            # 3 is older and holds none of the words: looked up while comments are read, then asked
            # for with the caller's scope.
            old = await measure(app, fake, USER, SearchWorkPackages, SearchWorkPackagesRequest("ops-3 export timeout"))
            assert old.page.elements[0].work_package.id == 3, old
            assert old.paths("/work_packages/ops-3")
            assert old.waves <= COLD, old

            # 1 is closed: outside the scope "open", it is not returned.
            closed = await measure(
                app,
                fake,
                USER,
                SearchWorkPackages,
                SearchWorkPackagesRequest("OPS-1 export timeout", scope=WorkPackageScope(status="open")),
            )
            assert 1 not in [e.work_package.id for e in closed.page.elements]
            assert closed.paths("/work_packages/OPS-1")
        finally:
            await app.aclose()


async def test_an_instance_without_display_ids_is_not_asked_for_one() -> None:
    served = dataset()
    async with FakeOpenProject({USER: served}, profile="17.3", lockstep=QUIET) as fake:
        app = Application(http_settings(fake.base_url, USER))
        try:
            cost = await measure(app, fake, USER, SearchWorkPackages, SearchWorkPackagesRequest("OPS-3 export timeout"))
            assert not cost.paths("/work_packages/OPS-3")
            assert 3 not in [e.work_package.id for e in cost.page.elements[:1]]
        finally:
            await app.aclose()


async def test_a_long_word_no_work_package_holds_costs_one_round_trip_more_for_its_halves() -> None:
    # "kalinigrad" is in no record: its leg finds nothing, so its halves are asked for after the
    # lists, in one more round trip of two requests (ADR 0062); a word found as typed costs none.
    served = dataset()
    async with FakeOpenProject({USER: served, OTHER: served}, profile="17.8", lockstep=QUIET) as fake:
        app = Application(http_settings(fake.base_url, USER))
        try:
            typo = await measure(app, fake, USER, SearchWorkPackages, SearchWorkPackagesRequest("kalinigrad pgbouncer"))
            found = await measure(app, fake, OTHER, SearchWorkPackages, SearchWorkPackagesRequest("pgbouncer pool"))
        finally:
            await app.aclose()

    def searched(cost: Cost) -> list[str]:
        return [
            json.loads(r.query["filters"])[-1]["search"]["values"][0]
            for r in cost.requests
            if r.path.endswith("/work_packages") and '"search"' in r.query.get("filters", "")
        ]

    assert sorted(searched(typo)) == sorted(["kalinigrad", "pgbouncer", "kalinigrad pgbouncer", "kalin", "igrad"]), typo
    assert typo.waves <= COLD + 1, typo
    assert typo.page.elements[0].work_package.id == 1  # the old comment, by the other word
    assert not any(part in searched(found) for part in ("kalin", "igrad"))
    assert found.waves <= COLD, found
