"""Round trips counted from the fake's request log, and the fake's lockstep rounds."""

from __future__ import annotations

import asyncio

from tests.support.fake_openproject import RecordedRequest, round_trips, wave_of_each
from tests.unit.support.fake_client import ServeDemo


def request(started: float, finished: float) -> RecordedRequest:
    return RecordedRequest("GET", "/api/v3/types", {}, "t", started, finished)


def test_requests_sent_together_are_one_wave() -> None:
    assert round_trips([request(0, 5), request(0.1, 5), request(0.2, 4)]) == 1


def test_each_request_sent_after_an_answer_is_one_more_wave() -> None:
    chain = [request(0, 1), request(1.5, 2), request(2.5, 3)]
    assert wave_of_each(chain) == [1, 2, 3]
    assert round_trips(list(reversed(chain))) == 3


def test_a_request_follows_the_answers_before_it_not_the_ones_after() -> None:
    # A slow list (0-3) and a quick one (0-1). A request sent after the quick answer is wave 2; one
    # sent after the slow answer is wave 3 when the wave-2 request was answered before it, else 2.
    log = [request(0, 3), request(0, 1), request(1.1, 2), request(3.1, 4)]
    assert wave_of_each(log) == [1, 1, 2, 3]
    assert round_trips([request(0, 3), request(0, 1), request(1.1, 4), request(3.1, 5)]) == 2


def test_no_request_is_no_wave() -> None:
    assert round_trips([]) == 0


async def test_lockstep_answers_what_arrived_together_in_one_round(serve_demo: ServeDemo) -> None:
    async with serve_demo(lockstep=0.02) as (fake, api):
        paths = ["api/v3/types", "api/v3/statuses", "api/v3/priorities"]
        first = await asyncio.gather(*(api.get(p) for p in paths))
        second = await api.get("api/v3/projects")
        assert [a.status for a in (*first, second)] == [200] * 4
        assert fake.rounds == 2
        assert round_trips(fake.requests) == 2
        assert fake.max_in_flight == 3
        fake.clear()
        assert fake.rounds == 0


async def test_lockstep_holds_a_request_until_the_client_is_quiet(serve_demo: ServeDemo) -> None:
    async with serve_demo(lockstep=0.05) as (fake, api):

        async def late() -> None:
            await asyncio.sleep(0.01)  # sent while the first one is held: the same round
            await api.get("api/v3/statuses")

        await asyncio.gather(api.get("api/v3/types"), late())
        assert fake.rounds == 1
        assert round_trips(fake.requests) == 1
