"""Cache policy: bounded, expiring, and always scoped to one tenant.

A tenant is one credential on one instance. Its key is a hash of both, so a raw token is never
held as a key, and two callers never see each other's cached content.

Two tiers. The local tier (``TtlLruCache``) is what every read consults, synchronously, as
before. Where the process has a shared store (Redis, so that replicas share their caches), a
:class:`SharedTier` sits behind it: a call loads what it is about to read in one round trip
(``preload``), and sends what it added in one round trip when its step is done (``flush``).
Without a shared store those steps return at once, so one process alone pays nothing for them.
A shared store that cannot be reached reads as empty and drops writes: the caches then work as
one process's caches, and no call fails for it.
"""

from __future__ import annotations

import hashlib
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar, cast

from openproject_mcp.domain.search import Corpus
from openproject_mcp.ports.shared_state import Codec, Codecs, SharedStore

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")

Clock = Callable[[], float]


def tenant_key(instance: str, credential: str) -> str:
    """A stable, non-reversible key for one credential on one instance."""
    digest = hashlib.sha256(f"{instance}\x00{credential}".encode()).hexdigest()
    return f"tenant:{digest[:32]}"


class TtlLruCache(Generic[K, V]):
    """A least-recently-used cache whose entries also expire after ``ttl_seconds``.

    With ``weigh``, the entries' total weight (what ``weigh`` says each value costs) is held
    under ``max_weight`` too, least recently used out first. Safe to use from several threads
    (the token cache is read by rankings on the event loop and on the ranking thread at once).
    """

    def __init__(
        self,
        max_entries: int,
        ttl_seconds: float,
        clock: Clock = time.monotonic,
        *,
        weigh: Callable[[V], int] | None = None,
        max_weight: int | None = None,
    ) -> None:
        if max_entries < 1:
            raise ValueError("max_entries must be at least 1")
        if (weigh is None) != (max_weight is None):
            raise ValueError("weigh and max_weight go together")
        self._max_entries = max_entries
        self._ttl = ttl_seconds
        self._clock = clock
        self._weigh = weigh
        self._max_weight = max_weight
        self._weight = 0
        self._entries: OrderedDict[K, tuple[float, V]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: K) -> V | None:
        with self._lock:
            entry = self._entries.get(key)
            if entry is None:
                return None
            stored_at, value = entry
            if self._clock() - stored_at > self._ttl:
                self._drop(key)
                return None
            self._entries.move_to_end(key)
            return value

    def get_many(self, keys: Iterable[K]) -> list[V | None]:
        """``[get(key) for key in keys]`` under one lock and one reading of the clock."""
        found: list[V | None] = []
        with self._lock:
            entries = self._entries
            now = self._clock()
            for key in keys:
                entry = entries.get(key)
                if entry is None:
                    found.append(None)
                elif now - entry[0] > self._ttl:
                    self._drop(key)
                    found.append(None)
                else:
                    entries.move_to_end(key)
                    found.append(entry[1])
        return found

    def put(self, key: K, value: V) -> None:
        self.put_many(((key, value),))

    def put_many(self, items: Iterable[tuple[K, V]]) -> None:
        """``put(key, value)`` for each item, in order, under one lock and one reading of the clock."""
        weigh = self._weigh
        with self._lock:
            entries = self._entries
            now = self._clock()
            for key, value in items:
                if weigh is not None:
                    self._drop(key)
                    self._weight += weigh(value)
                entries[key] = (now, value)
                entries.move_to_end(key)
                while len(entries) > self._max_entries or (
                    self._max_weight is not None and self._weight > self._max_weight and len(entries) > 1
                ):
                    _, (_, evicted) = entries.popitem(last=False)
                    if weigh is not None:
                        self._weight -= weigh(evicted)

    def _drop(self, key: K) -> None:
        """Remove ``key`` (the caller holds the lock)."""
        entry = self._entries.pop(key, None)
        if entry is not None and self._weigh is not None:
            self._weight -= self._weigh(entry[1])

    @property
    def weight(self) -> int:
        """The entries' total weight (0 without ``weigh``)."""
        return self._weight

    def __len__(self) -> int:
        return len(self._entries)

    def keys_snapshot(self) -> list[K]:
        with self._lock:
            return list(self._entries)

    def discard_where(self, predicate: Callable[[K], bool]) -> int:
        """Drop every entry whose key satisfies ``predicate``; how many were dropped."""
        with self._lock:
            doomed = [key for key in self._entries if predicate(key)]
            for key in doomed:
                self._drop(key)
            return len(doomed)


def instance_key(instance: str) -> str:
    """A stable key for one instance (its address is no secret, but keys stay short and plain)."""
    return f"instance:{hashlib.sha256(instance.encode()).hexdigest()[:32]}"


@dataclass(slots=True)
class SharedTier:
    """The shared store behind the local caches, and how values travel through it.

    A value larger than ``max_value_bytes`` once encoded is kept locally only. A value that does
    not decode (written by another version of the server) is a miss.
    """

    store: SharedStore
    codecs: Codecs
    max_value_bytes: int = 4 * 1024 * 1024
    _codecs: dict[str, Codec[Any]] = field(default_factory=dict)

    def codec(self, name: str, tp: Any) -> Codec[Any]:
        codec = self._codecs.get(name)
        if codec is None:
            codec = self._codecs[name] = self.codecs.codec(tp)
        return codec

    async def load(self, keys: Sequence[str], codec: Codec[Any]) -> list[object | None]:
        found: list[object | None] = []
        for data in await self.store.get_many(keys):
            value: object | None = None
            if data is not None:
                try:
                    value = codec.decode(data)
                except ValueError:
                    value = None
            found.append(value)
        return found

    async def save(self, entries: Mapping[str, object], codec: Codec[Any], ttl_seconds: float) -> None:
        encoded = {key: codec.encode(value) for key, value in entries.items()}
        kept = {key: data for key, data in encoded.items() if len(data) <= self.max_value_bytes}
        if kept and ttl_seconds > 0:
            await self.store.put_many(kept, ttl_seconds)


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
    # Token values of searched texts, short ones too; a 2 KB description holds about 350
    # tokens, a subject 5 to 15. The tokens held are bounded as well (about 60 bytes each).
    token_entries: int = 20_000
    token_values: int = 1_000_000
    token_ttl_seconds: float = 600.0
    # The texts of one ranking kept together (``Corpus``): a repeated search over the same
    # records learns them in one look-up. Weighed like token values, plus three per distinct token.
    corpus_entries: int = 1_000
    corpus_weight: int = 1_000_000


class TenantCaches:
    """The long-lived caches of one process. Every key starts with a tenant key, except in
    ``wiki_ids``: which wiki page ids exist on an instance is shared by its callers (ids only,
    never a title or whether a caller may see the page)."""

    def __init__(
        self, settings: CacheSettings = CacheSettings(), clock: Clock = time.monotonic, shared: SharedTier | None = None
    ) -> None:
        self.settings = settings
        self.shared = shared
        """Where replicas share these caches; ``None`` keeps them in this process."""
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
        self.tokens: TtlLruCache[tuple[str, str], tuple[str, ...]] = TtlLruCache(
            settings.token_entries, settings.token_ttl_seconds, clock, weigh=len, max_weight=settings.token_values
        )
        self.corpora: TtlLruCache[tuple[str, frozenset[str]], Corpus] = TtlLruCache(
            settings.corpus_entries,
            settings.token_ttl_seconds,
            clock,
            weigh=_corpus_weight,
            max_weight=settings.corpus_weight,
        )

    async def shared_get(self, name: str, key: str, tp: Any) -> object | None:
        """The value under ``name:key`` in the shared tier (``None``: none, or no shared tier)."""
        if self.shared is None:
            return None
        return (await self.shared.load([f"{name}:{key}"], self.shared.codec(name, tp)))[0]

    async def shared_put(self, name: str, key: str, value: object, tp: Any, ttl_seconds: float) -> None:
        if self.shared is not None:
            await self.shared.save({f"{name}:{key}": value}, self.shared.codec(name, tp), ttl_seconds)


def _corpus_weight(corpus: Corpus) -> int:
    """A corpus's token values, counted as the token cache counts values (they are often the
    token cache's own tuples, but need not stay so), and four per distinct token: the token
    set, its two joined copies (whole and by length), the word-form keys searches add and the
    query words' hits they remember (never more in all than there are tokens)."""
    return sum(map(len, corpus.values.values())) + 4 * len(corpus.tokens)


class TokenCache:
    """One tenant's token values of searched texts (subjects, descriptions, comments, agendas).

    Keyed by the text itself under the tenant's key: a record's field at one version is one
    text, so the key changes exactly when the content does. Looking a text up costs a hash of
    it (kept by the string once computed) and, on a hit, one comparison, a small fraction of
    tokenising it again, so every text is kept, the shortest too. Tokenising is the same pure
    function for every tenant, but the key is tenant-scoped all the same, so the cache says
    nothing about what another tenant searched. The cache holds the texts it was asked about
    for as long as their entries live (bounded in number and in age, like every cache here).
    """

    def __init__(self, caches: TenantCaches, tenant: str) -> None:
        self._store = caches.tokens
        self._corpora = caches.corpora
        self._tenant = tenant

    def get(self, text: str) -> Sequence[str] | None:
        return self.get_many([text])[0]

    def put(self, text: str, values: Sequence[str]) -> None:
        self.put_many([(text, values)])

    def get_many(self, texts: Sequence[str]) -> list[Sequence[str] | None]:
        tenant = self._tenant
        found: list[Sequence[str] | None] = []
        found.extend(self._store.get_many([(tenant, text) for text in texts]))
        return found

    def put_many(self, entries: Sequence[tuple[str, Sequence[str]]]) -> None:
        tenant = self._tenant
        self._store.put_many([((tenant, text), tuple(values)) for text, values in entries])

    def get_corpus(self, texts: frozenset[str]) -> Corpus | None:
        return self._corpora.get((self._tenant, texts))

    def put_corpus(self, texts: frozenset[str], corpus: Corpus) -> None:
        self._corpora.put((self._tenant, texts), corpus)


class EnrichmentCache(Generic[V]):
    """One tenant's view of the enrichment cache for one kind of deep content.

    Entries are keyed by record id and the record's ``updatedAt``, so an edited record is
    fetched again; they also expire and are evicted least-recently-used first.
    """

    def __init__(self, caches: TenantCaches, tenant: str, kind: str, value_type: Any = None) -> None:
        self._caches = caches
        self._store = caches.enrichment
        self._tenant = tenant
        self._kind = kind
        shared = caches.shared if value_type is not None else None
        self._shared = shared
        self._codec = shared.codec(f"enrichment:{kind}", value_type) if shared is not None else None
        self._pending: dict[str, object] = {}

    def _shared_key(self, record_id: int, version: str) -> str:
        return f"enrichment:{self._tenant}:{self._kind}:{record_id}:{version}"

    async def preload(self, records: Iterable[tuple[int, str]]) -> int:
        """Copy from the shared tier what the local tier lacks of ``records`` (id, version); one round trip.

        Returns how many entries came from the shared tier.
        """
        if self._shared is None or self._codec is None:
            return 0
        asked = list(dict.fromkeys(records))
        wanted = [item for item, held in zip(asked, self.get_many(asked), strict=True) if held is None]
        if not wanted:
            return 0
        values = await self._shared.load([self._shared_key(*item) for item in wanted], self._codec)
        loaded = 0
        for (record_id, version), value in zip(wanted, values, strict=True):
            if value is not None:
                self._store.put((self._tenant, self._kind, record_id, version), value)
                loaded += 1
        return loaded

    async def flush(self) -> None:
        """Send what :meth:`put` added since the last flush to the shared tier (one round trip)."""
        if self._shared is None or self._codec is None or not self._pending:
            return
        pending, self._pending = self._pending, {}
        await self._shared.save(pending, self._codec, self._caches.settings.enrichment_ttl_seconds)

    def token_store(self) -> TokenCache:
        """The same tenant's token cache, for ranking what this cache's records hold."""
        return TokenCache(self._caches, self._tenant)

    def get(self, record_id: int, version: str) -> V | None:
        return cast("V | None", self._store.get((self._tenant, self._kind, record_id, version)))

    def get_many(self, records: Iterable[tuple[int, str]]) -> list[V | None]:
        """``[get(record_id, version) for record_id, version in records]`` under one lock."""
        tenant, kind = self._tenant, self._kind
        found = self._store.get_many([(tenant, kind, record_id, version) for record_id, version in records])
        return cast("list[V | None]", found)

    def put(self, record_id: int, version: str, value: V) -> None:
        self._store.put((self._tenant, self._kind, record_id, version), value)
        if self._codec is not None:
            self._pending[self._shared_key(record_id, version)] = value

    def drop(self, record_id: int) -> int:
        """Forget this tenant's locally cached content of one record, at every version."""
        tenant, kind = self._tenant, self._kind
        prefix = self._shared_key(record_id, "")
        self._pending = {key: value for key, value in self._pending.items() if not key.startswith(prefix)}
        return self._store.discard_where(lambda key: key[:3] == (tenant, kind, record_id))

    async def forget(self, record_id: int, versions: Iterable[str] = ()) -> None:
        """After a write: drop the record's content here, and in the shared tier at ``versions``
        (the versions it was read at, so no replica serves the content from before the write)."""
        self.drop(record_id)
        if self._shared is not None:
            for version in dict.fromkeys(versions):
                await self._shared.store.delete(self._shared_key(record_id, version))
