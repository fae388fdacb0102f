"""Cache policy: bounded, expiring, and always scoped to one tenant.

A tenant is one credential on one instance. Its key is a hash of both, so a raw token is never
held as a key, and two callers never see each other's cached content.
"""

from __future__ import annotations

import hashlib
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar, cast

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")

Clock = Callable[[], float]


def tenant_key(instance: str, credential: str) -> str:
    """A stable, non-reversible key for one credential on one instance."""
    digest = hashlib.sha256(f"{instance}\x00{credential}".encode()).hexdigest()
    return f"tenant:{digest[:32]}"


class TtlLruCache(Generic[K, V]):
    """A least-recently-used cache whose entries also expire after ``ttl_seconds``."""

    def __init__(self, max_entries: int, ttl_seconds: float, clock: Clock = time.monotonic) -> None:
        if max_entries < 1:
            raise ValueError("max_entries must be at least 1")
        self._max_entries = max_entries
        self._ttl = ttl_seconds
        self._clock = clock
        self._entries: OrderedDict[K, tuple[float, V]] = OrderedDict()

    def get(self, key: K) -> V | None:
        entry = self._entries.get(key)
        if entry is None:
            return None
        stored_at, value = entry
        if self._clock() - stored_at > self._ttl:
            del self._entries[key]
            return None
        self._entries.move_to_end(key)
        return value

    def put(self, key: K, value: V) -> None:
        self._entries[key] = (self._clock(), value)
        self._entries.move_to_end(key)
        while len(self._entries) > self._max_entries:
            self._entries.popitem(last=False)

    def __len__(self) -> int:
        return len(self._entries)

    def keys_snapshot(self) -> list[K]:
        return list(self._entries)


@dataclass(frozen=True, slots=True)
class CacheSettings:
    enrichment_entries: int = 20_000
    enrichment_ttl_seconds: float = 600.0
    wiki_entries: int = 256
    wiki_ttl_seconds: float = 1800.0
    wiki_id_instances: int = 64
    wiki_id_ttl_seconds: float = 86_400.0
    spec_entries: int = 16
    spec_ttl_seconds: float = 3600.0
    # Token values of searched texts; a 2 KB description holds about 350 tokens.
    token_entries: int = 5_000
    token_ttl_seconds: float = 600.0


class TenantCaches:
    """The long-lived caches of one process. Every key starts with a tenant key, except in
    ``wiki_ids``: which wiki page ids exist on an instance is shared by its callers (ids only,
    never a title or whether a caller may see the page)."""

    def __init__(self, settings: CacheSettings = CacheSettings(), clock: Clock = time.monotonic) -> None:
        self.enrichment: TtlLruCache[tuple[str, str, int, str], object] = TtlLruCache(
            settings.enrichment_entries, settings.enrichment_ttl_seconds, clock
        )
        self.wiki: TtlLruCache[tuple[str, int | None], object] = TtlLruCache(
            settings.wiki_entries, settings.wiki_ttl_seconds, clock
        )
        self.wiki_ids: TtlLruCache[str, object] = TtlLruCache(
            settings.wiki_id_instances, settings.wiki_id_ttl_seconds, clock
        )
        self.spec: TtlLruCache[str, dict[str, object]] = TtlLruCache(
            settings.spec_entries, settings.spec_ttl_seconds, clock
        )
        self.tokens: TtlLruCache[tuple[str, bytes], tuple[str, ...]] = TtlLruCache(
            settings.token_entries, settings.token_ttl_seconds, clock
        )


class TokenCache:
    """One tenant's token values of searched texts (subjects, descriptions, comments, agendas).

    Keyed by a digest of the text itself: a record's field at one version is one text, so the
    key changes exactly when the content does, and the cache never holds the text. Tokenising
    is the same pure function for every tenant, but the key is tenant-scoped all the same, so
    the cache says nothing about what another tenant searched. Texts under
    ``MIN_CACHED_LENGTH`` characters (subjects, titles) are tokenised as fast as they are hashed,
    so they are not kept.
    """

    MIN_CACHED_LENGTH = 200

    def __init__(self, caches: TenantCaches, tenant: str) -> None:
        self._store = caches.tokens
        self._tenant = tenant

    @staticmethod
    def _digest(text: str) -> bytes:
        return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).digest()

    def get(self, text: str) -> Sequence[str] | None:
        if len(text) < self.MIN_CACHED_LENGTH:
            return None
        return self._store.get((self._tenant, self._digest(text)))

    def put(self, text: str, values: Sequence[str]) -> None:
        if len(text) >= self.MIN_CACHED_LENGTH:
            self._store.put((self._tenant, self._digest(text)), tuple(values))


class EnrichmentCache(Generic[V]):
    """One tenant's view of the enrichment cache for one kind of deep content.

    Entries are keyed by record id and the record's ``updatedAt``, so an edited record is
    fetched again; they also expire and are evicted least-recently-used first.
    """

    def __init__(self, caches: TenantCaches, tenant: str, kind: str) -> None:
        self._caches = caches
        self._store = caches.enrichment
        self._tenant = tenant
        self._kind = kind

    def token_store(self) -> TokenCache:
        """The same tenant's token cache, for ranking what this cache's records hold."""
        return TokenCache(self._caches, self._tenant)

    def get(self, record_id: int, version: str) -> V | None:
        return cast("V | None", self._store.get((self._tenant, self._kind, record_id, version)))

    def put(self, record_id: int, version: str, value: V) -> None:
        self._store.put((self._tenant, self._kind, record_id, version), value)
