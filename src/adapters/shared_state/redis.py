"""The shared store on Redis: what every replica of the server reads and writes.

An outage never fails a tool call. Every command has a short timeout and is tried once; the
first failure marks the store down for ``retry_seconds``, logs one warning (never the URL, which
may carry a password) and, until then, every read answers ``None`` and every write is dropped
without touching the network. The first command after that window tries again; success logs one
line saying the store is back. ``healthy`` says whether it is reachable now (``/readyz``).
The :meth:`RedisStore.strict` view (what sign-in uses) shares that state, but raises
``StoreUnavailableError`` where the store itself would answer ``None`` or drop a write.

Keys get the ``openproject-mcp:`` prefix, so the server can share a Redis with other programs.
Entries expire through Redis itself (``SET ... PX``); what bounds the memory as a whole is the
server's ``maxmemory`` with an eviction policy such as ``allkeys-lru``.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import TYPE_CHECKING, TypeVar
from urllib.parse import urlsplit

from openproject_mcp.ports.shared_state import SharedStore, StoreUnavailableError

if TYPE_CHECKING:  # the client is imported only when a Redis URL is configured
    from redis.asyncio import Redis

LOGGER = logging.getLogger("openproject_mcp.shared_state")
PREFIX = "openproject-mcp:"
T = TypeVar("T")


def describe(url: str) -> str:
    """Where the store is, for a log line: scheme, host, port and database, never a password."""
    parts = urlsplit(url)
    host = parts.hostname or parts.path or "?"
    port = f":{parts.port}" if parts.port else ""
    database = parts.path if parts.hostname and parts.path not in ("", "/") else ""
    return f"{parts.scheme}://{host}{port}{database}"


def _as_bytes(value: bytes | str | None) -> bytes | None:
    """What the client answered (bytes: it never decodes responses here)."""
    return value.encode() if isinstance(value, str) else value


class RedisStore(SharedStore):
    """A :class:`SharedStore` on one Redis server (``redis://``, ``rediss://`` or ``unix://`` URL)."""

    def __init__(
        self,
        url: str,
        *,
        timeout_seconds: float = 0.5,
        retry_seconds: float = 5.0,
        max_connections: int = 64,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        from redis.asyncio import Redis
        from redis.asyncio.retry import Retry
        from redis.backoff import NoBackoff

        self._where = describe(url)
        self._client: Redis = Redis.from_url(
            url,
            socket_timeout=timeout_seconds,
            socket_connect_timeout=timeout_seconds,
            retry=Retry(NoBackoff(), 0),
            max_connections=max_connections,
            health_check_interval=0,
        )
        self._retry = retry_seconds
        self._clock = clock
        self._down_until: float | None = None  # set while the store counts as unreachable
        self._outages = 0

    @property
    def shared(self) -> bool:
        return True

    @property
    def where(self) -> str:
        return self._where

    async def _run(self, command: Callable[[], Awaitable[T]], fallback: T, *, strict: bool = False) -> T:
        from redis.exceptions import RedisError

        if self._down_until is not None and self._clock() < self._down_until:
            if strict:
                raise StoreUnavailableError(self._down_until - self._clock())
            return fallback
        outage = self._outages  # a command sent before the latest failure proves nothing about now
        try:
            result = await command()
        except (RedisError, OSError, TimeoutError) as error:
            if self._down_until is None:
                LOGGER.warning(
                    "The shared store at %s cannot be reached (%s); serving without the shared cache "
                    "until it answers again.",
                    self._where,
                    type(error).__name__,
                )
                self._outages += 1
            self._down_until = self._clock() + self._retry
            if strict:
                raise StoreUnavailableError(self._retry) from None
            return fallback
        if self._down_until is not None and outage == self._outages:
            self._down_until = None
            LOGGER.warning("The shared store at %s answers again; the shared cache is back.", self._where)
        return result

    def strict(self) -> SharedStore:
        return _StrictRedis(self)

    async def get(self, key: str, *, strict: bool = False) -> bytes | None:
        async def command() -> bytes | None:
            value = await self._client.get(PREFIX + key)
            return _as_bytes(value)

        return await self._run(command, None, strict=strict)

    async def get_many(self, keys: Sequence[str], *, strict: bool = False) -> list[bytes | None]:
        if not keys:
            return []

        async def command() -> list[bytes | None]:
            values = await self._client.mget([PREFIX + key for key in keys])
            return [_as_bytes(value) for value in values]

        return await self._run(command, [None] * len(keys), strict=strict)

    async def put(self, key: str, value: bytes, ttl_seconds: float, *, strict: bool = False) -> None:
        await self.put_many({key: value}, ttl_seconds, strict=strict)

    async def put_many(self, entries: Mapping[str, bytes], ttl_seconds: float, *, strict: bool = False) -> None:
        if not entries:
            return
        milliseconds = int(ttl_seconds * 1000)

        async def command() -> None:
            async with self._client.pipeline(transaction=False) as pipe:
                for key, value in entries.items():
                    if milliseconds > 0:
                        pipe.set(PREFIX + key, value, px=milliseconds)
                    else:
                        pipe.delete(PREFIX + key)
                await pipe.execute()

        await self._run(command, None, strict=strict)

    async def delete(self, key: str, *, strict: bool = False) -> None:
        async def command() -> None:
            await self._client.delete(PREFIX + key)

        await self._run(command, None, strict=strict)

    async def take(self, key: str, *, strict: bool = False) -> bytes | None:
        async def command() -> bytes | None:
            value = await self._client.getdel(PREFIX + key)
            return _as_bytes(value)

        return await self._run(command, None, strict=strict)

    async def healthy(self) -> bool:
        """Asks the server (a ``PING``), unless it failed less than ``retry_seconds`` ago."""

        async def command() -> bool:
            return bool(await self._client.ping())

        return await self._run(command, False)

    async def close(self) -> None:
        await self._client.aclose()


class _StrictRedis(SharedStore):
    """The same store and connections, its outage state shared, but an outage raises."""

    def __init__(self, store: RedisStore) -> None:
        self._store = store

    @property
    def shared(self) -> bool:
        return True

    async def get(self, key: str) -> bytes | None:
        return await self._store.get(key, strict=True)

    async def get_many(self, keys: Sequence[str]) -> list[bytes | None]:
        return await self._store.get_many(keys, strict=True)

    async def put(self, key: str, value: bytes, ttl_seconds: float) -> None:
        await self._store.put(key, value, ttl_seconds, strict=True)

    async def put_many(self, entries: Mapping[str, bytes], ttl_seconds: float) -> None:
        await self._store.put_many(entries, ttl_seconds, strict=True)

    async def delete(self, key: str) -> None:
        await self._store.delete(key, strict=True)

    async def take(self, key: str) -> bytes | None:
        return await self._store.take(key, strict=True)

    def strict(self) -> SharedStore:
        return self

    async def healthy(self) -> bool:
        return await self._store.healthy()

    async def close(self) -> None:
        await self._store.close()
