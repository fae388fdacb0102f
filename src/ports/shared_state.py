"""The shared-state port: a small expiring key-value store that replicas may share.

What lives here is state that must survive a call and may be read by another process: cached
deep content, capability answers, wiki discovery, and sign-in records. Keys are strings the
caller builds (always starting with a tenant key or a purpose prefix, never a raw token);
values are bytes the caller encodes. Every entry has a time to live.

A store that cannot be reached behaves as an empty one for reads and drops writes: callers
must treat every ``get`` as possibly ``None`` and never fail a tool call because the store is
down. ``healthy`` tells health checks whether the shared part is currently reachable.

Sign-in is the one caller that must not read an outage as "absent" (an unknown token is refused,
and the client then discards it): it works on :meth:`SharedStore.strict`, a view of the same
store in which an outage raises :class:`StoreUnavailableError` instead.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from typing import Any, Generic, TypeVar

T = TypeVar("T")


class StoreUnavailableError(Exception):
    """The store could not be read or written just now (raised only by a :meth:`SharedStore.strict`
    view); ``retry_after`` is how many seconds until it is tried again."""

    def __init__(self, retry_after: float) -> None:
        super().__init__("the shared store cannot be reached just now")
        self.retry_after = retry_after


class SharedStore(ABC):
    @abstractmethod
    async def get(self, key: str) -> bytes | None:
        """The value stored under ``key``, or ``None`` when absent, expired or unreachable."""

    @abstractmethod
    async def put(self, key: str, value: bytes, ttl_seconds: float) -> None:
        """Store ``value`` under ``key`` for ``ttl_seconds`` (replacing any earlier value)."""

    @abstractmethod
    async def delete(self, key: str) -> None:
        """Remove ``key``; removing an absent key is not an error."""

    @abstractmethod
    async def take(self, key: str) -> bytes | None:
        """Read and remove ``key`` in one step: two callers never both receive the value
        (single-use authorization codes, refresh-token rotation)."""

    async def get_many(self, keys: Sequence[str]) -> list[bytes | None]:
        """The values of ``keys``, in order (``None`` where absent); a shared store answers in one round trip."""
        return [await self.get(key) for key in keys]

    async def put_many(self, entries: Mapping[str, bytes], ttl_seconds: float) -> None:
        """Store every entry for ``ttl_seconds``; a shared store sends them in one round trip."""
        for key, value in entries.items():
            await self.put(key, value, ttl_seconds)

    @property
    def shared(self) -> bool:
        """Whether other processes see what this store holds (an in-process store: no)."""
        return False

    async def healthy(self) -> bool:
        """Whether the store is reachable now; an in-process store always is."""
        return True

    def strict(self) -> SharedStore:
        """This store, where an outage raises :class:`StoreUnavailableError` rather than reading as
        absent and dropping writes; a store that is never unreachable (in-process) is itself."""
        return self

    @abstractmethod
    async def close(self) -> None:
        """Release connections; the store is not used afterwards."""


class Codec(ABC, Generic[T]):
    """Turns one kind of cached value into bytes and back (implemented by an adapter)."""

    @abstractmethod
    def encode(self, value: T) -> bytes: ...

    @abstractmethod
    def decode(self, data: bytes) -> T:
        """The value ``data`` holds; ``ValueError`` when it is not one (another version wrote it)."""


class Codecs(ABC):
    """Makes a :class:`Codec` for a type built from builtins, tuples, sets and dataclasses."""

    @abstractmethod
    def codec(self, tp: Any) -> Codec[Any]:
        """A codec for ``tp`` (a type or a generic alias such as ``tuple[str, ...]``)."""
