"""Per-caller limits for remote mode: a token bucket per caller, in bounded memory, and each
caller's share of the requests being answered at once."""

from __future__ import annotations

import math
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Final

MAX_CALLERS: Final = 10_000  # buckets kept; the least recently seen caller is forgotten first


class RateLimiter:
    """``per_minute`` requests per caller on average, up to ``burst`` at once; 0 turns it off.

    A forgotten caller starts again with a full bucket, which only ever errs on the side of
    letting a request through.
    """

    def __init__(self, per_minute: int, burst: int, *, clock: Callable[[], float] = time.monotonic) -> None:
        self._rate = per_minute / 60.0
        self._burst = float(max(burst, 1))
        self._clock = clock
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()

    @property
    def per_minute(self) -> float:
        return self._rate * 60.0

    @property
    def enabled(self) -> bool:
        return self._rate > 0

    def admit(self, caller: str) -> float | None:
        """None if ``caller`` may go ahead now, else the seconds until it may."""
        if not self.enabled:
            return None
        now = self._clock()
        tokens, seen = self._buckets.pop(caller, (self._burst, now))
        tokens = min(self._burst, tokens + (now - seen) * self._rate)
        if tokens >= 1.0:
            self._remember(caller, tokens - 1.0, now)
            return None
        self._remember(caller, tokens, now)
        return (1.0 - tokens) / self._rate

    def _remember(self, caller: str, tokens: float, now: float) -> None:
        self._buckets[caller] = (tokens, now)
        while len(self._buckets) > MAX_CALLERS:
            self._buckets.popitem(last=False)


class InFlightShares:
    """How many requests each caller has being answered, so that one caller cannot hold them all.

    A caller is counted only while one of its requests is answered: at most as many entries as
    requests in flight, each gone with its caller's last answer.
    """

    def __init__(self, per_caller: int) -> None:
        self.per_caller = max(per_caller, 1)
        self._held: dict[str, int] = {}

    def holding(self, caller: str) -> int:
        return self._held.get(caller, 0)

    def full(self, caller: str) -> bool:
        """Whether ``caller`` already has its whole share being answered."""
        return self.holding(caller) >= self.per_caller

    @property
    def callers(self) -> int:
        return len(self._held)

    @contextmanager
    def held(self, caller: str) -> Iterator[None]:
        """One of ``caller``'s slots for the block, given back however the block ends (cancelled too)."""
        self._held[caller] = self.holding(caller) + 1
        try:
            yield
        finally:
            left = self._held.get(caller, 1) - 1
            if left > 0:
                self._held[caller] = left
            else:
                self._held.pop(caller, None)


def retry_after(seconds: float) -> str:
    """A ``Retry-After`` value: whole seconds, at least one."""
    return str(max(1, math.ceil(seconds)))
