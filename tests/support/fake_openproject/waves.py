"""Round-trip waves: how many answers a client had to wait for, one after the other.

A request *follows* another when it started after the other was answered (as the fake records
them: ``started`` when it arrived, ``finished`` when its answer was ready, before it was sent).
A request's wave is 1 when it follows none, else one more than the highest wave among those it
follows; the waves of a set of requests are the highest wave in it: the longest chain of requests
each sent after the previous one was answered, the critical path of dependent round trips.

A request that needed an answer (the next page, the comments of a listed record) always follows
that answer, and a request that waited for a free slot under a bound on requests in flight
follows the request whose end freed it, so the count never misses a round trip the client
waited for. It can only count too many: a request sent late for another reason (the client was
busy, the machine was loaded) follows answers it did not need. With ``latency`` L on every
answer, ``waves × L`` is a lower bound on the time spent waiting on the network. Run against a
fake in ``lockstep`` mode, where each round of requests is answered only once the client has
gone quiet, the count is the number of rounds and does not depend on timing at all.
"""

from __future__ import annotations

from collections.abc import Sequence

from tests.support.fake_openproject.server import RecordedRequest


def wave_of_each(requests: Sequence[RecordedRequest]) -> list[int]:
    """Each request's wave, in the order given."""
    order = sorted(range(len(requests)), key=lambda i: requests[i].started)
    waves = [0] * len(requests)
    for position, index in enumerate(order):
        started = requests[index].started
        before = (waves[j] for j in order[:position] if requests[j].finished <= started)
        waves[index] = 1 + max(before, default=0)
    return waves


def round_trips(requests: Sequence[RecordedRequest]) -> int:
    """The waves of these requests: the longest chain of requests each sent after the previous one was answered."""
    return max(wave_of_each(requests), default=0)
