"""The in-process shared store: the default, bounded and expiring, for one process."""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable

from openproject_mcp.ports.shared_state import SharedStore


class MemoryStore(SharedStore):
    """Least-recently-used entries beyond ``max_entries`` are dropped; expired ones on read.

    All operations run on the event loop without awaiting, so ``take`` is atomic within the
    process.
    """

    def __init__(self, max_entries: int = 50_000, clock: Callable[[], float] = time.monotonic) -> None:
        if max_entries < 1:
            raise ValueError("max_entries must be at least 1")
        self._max_entries = max_entries
        self._clock = clock
        self._entries: OrderedDict[str, tuple[float, bytes]] = OrderedDict()

    async def get(self, key: str) -> bytes | None:
        entry = self._entries.get(key)
        if entry is None:
            return None
        expires_at, value = entry
        if self._clock() >= expires_at:
            del self._entries[key]
            return None
        self._entries.move_to_end(key)
        return value

    async def put(self, key: str, value: bytes, ttl_seconds: float) -> None:
        if ttl_seconds <= 0:
            self._entries.pop(key, None)
            return
        self._entries[key] = (self._clock() + ttl_seconds, value)
        self._entries.move_to_end(key)
        while len(self._entries) > self._max_entries:
            self._entries.popitem(last=False)

    async def delete(self, key: str) -> None:
        self._entries.pop(key, None)

    async def take(self, key: str) -> bytes | None:
        value = await self.get(key)
        self._entries.pop(key, None)
        return value

    async def close(self) -> None:
        self._entries.clear()

    def __len__(self) -> int:
        return len(self._entries)
