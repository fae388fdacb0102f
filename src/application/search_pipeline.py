"""The two-phase search: rank what the list gave, enrich a bounded few, rank again.

Phase 1 ranks every candidate on the fields a list request already returned. Phase 2 fetches
the deep content (comments, agenda items...) of at most ``enrich_limit`` candidates that are
not in the enrichment cache, at most ``concurrency`` at a time, and ranks those candidates on
all their fields. A record's final score is the higher of the two; both phases normalise
against one weight scale, so a deep-only hit never ties a perfect title hit.

Which candidates are enriched: first those with evidence of a match — the shallow matches,
best first, then candidates the server's full-text search returned (their match is deep,
however old they are) — and up to ``enrich_limit`` of them that are not cached are fetched;
then, while fewer than ``enrich_limit`` positions are used (fetched or cached), the most
recently updated fill the window. Cached deep content is used for every candidate it exists
for and costs nothing, so a repeated search costs only its candidate requests, and a search
with more matches than the budget sees the next ones when it is repeated.

An error that ``aborts_search`` (401, 403, 429) fails the whole search; any other failure to
enrich one record leaves it at its shallow score and is counted.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Collection, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Generic, TypeVar

from openproject_mcp.application.caching import EnrichmentCache
from openproject_mcp.application.concurrency import map_bounded
from openproject_mcp.application.ranking import RankingLimits, rank
from openproject_mcp.domain.errors import OpenProjectMcpError
from openproject_mcp.domain.search import DEFAULT_MIN_SCORE, Field, FieldMatch, MatchMode

C = TypeVar("C")
D = TypeVar("D")

ProgressCallback = Callable[[float, float | None, str | None], Awaitable[None]]

DEFAULT_ENRICH_LIMIT = 25
DEFAULT_CONCURRENCY = 8
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


@dataclass(frozen=True, slots=True)
class Enriched(Generic[C, D]):
    """A candidate together with its deep content."""

    candidate: C
    deep: D


@dataclass(frozen=True, slots=True)
class SearchSpec(Generic[C, D]):
    """What to search in one kind of record, and how to fetch its deep content."""

    shallow_fields: Sequence[Field[C]]
    full_fields: Sequence[Field[Enriched[C, D]]]  # every field, shallow ones included, in priority order
    key: Callable[[C], int]
    version: Callable[[C], str]
    recency: Callable[[C], datetime | None]
    enrich: Callable[[C], Awaitable[D]]
    cache: EnrichmentCache[D] | None = None
    what: str = "records"


@dataclass(frozen=True, slots=True)
class PipelineSettings:
    enrich_limit: int = DEFAULT_ENRICH_LIMIT
    concurrency: int = DEFAULT_CONCURRENCY
    min_score: float = DEFAULT_MIN_SCORE


DEFAULT_PIPELINE = PipelineSettings()


@dataclass(frozen=True, slots=True)
class Hit(Generic[C, D]):
    candidate: C
    score: float
    matches: tuple[FieldMatch, ...]
    deep: D | None

    @property
    def matched_fields(self) -> tuple[str, ...]:
        return tuple(m.field for m in self.matches)


@dataclass(frozen=True, slots=True)
class PipelineResult(Generic[C, D]):
    hits: tuple[Hit[C, D], ...]
    candidates: int
    enriched: int
    fetched: int
    failures: int
    notes: tuple[str, ...] = ()  # what ranking cut to stay within its bounds


async def run_search(
    spec: SearchSpec[C, D],
    candidates: Sequence[C],
    query: str,
    mode: MatchMode,
    *,
    server_matches: Collection[int] = (),
    settings: PipelineSettings = DEFAULT_PIPELINE,
    progress: ProgressCallback | None = None,
) -> PipelineResult[C, D]:
    scale = max([f.weight for f in spec.shallow_fields] + [f.weight for f in spec.full_fields])
    by_key = {spec.key(c): c for c in candidates}
    limits = RankingLimits()
    shallow = await rank(
        by_key.values(),
        query,
        spec.shallow_fields,
        key=spec.key,
        mode=mode,
        min_score=settings.min_score,
        weight_scale=scale,
        limits=limits,
    )

    deep: dict[int, D] = {}
    to_fetch: list[C] = []
    evidence, backfill = _enrichment_order(spec, by_key, [spec.key(r.record) for r in shallow], server_matches)
    window = 0  # enrichment positions used: fetched or already cached
    for candidates, backfilling in ((evidence, False), (backfill, True)):
        for candidate in candidates:
            cached = spec.cache.get(spec.key(candidate), spec.version(candidate)) if spec.cache else None
            if cached is not None:
                deep[spec.key(candidate)] = cached
                window += 1
            elif len(to_fetch) < settings.enrich_limit and not (backfilling and window >= settings.enrich_limit):
                to_fetch.append(candidate)
                window += 1

    failures = 0
    done = 0

    async def fetch(candidate: C) -> None:
        nonlocal failures, done
        try:
            content = await spec.enrich(candidate)
        except OpenProjectMcpError as error:
            if error.aborts_search:
                raise
            failures += 1
        else:
            deep[spec.key(candidate)] = content
            if spec.cache is not None:
                spec.cache.put(spec.key(candidate), spec.version(candidate), content)
        done += 1
        if progress is not None:
            await progress(done, len(to_fetch), f"Read {done} of {len(to_fetch)} {spec.what}")

    if to_fetch and progress is not None:
        await progress(0, len(to_fetch), f"Reading {len(to_fetch)} {spec.what} in depth")
    await map_bounded(to_fetch, settings.concurrency, fetch)

    hits: dict[int, Hit[C, D]] = {
        spec.key(r.record): Hit(r.record, r.score, r.matches, deep.get(spec.key(r.record))) for r in shallow
    }
    full = await rank(
        (Enriched(by_key[k], d) for k, d in deep.items()),
        query,
        spec.full_fields,
        key=lambda e: spec.key(e.candidate),
        mode=mode,
        min_score=settings.min_score,
        weight_scale=scale,
        limits=limits,
    )
    for ranked in full:
        record_key = spec.key(ranked.record.candidate)
        current = hits.get(record_key)
        if current is None or ranked.score >= current.score:
            hits[record_key] = Hit(ranked.record.candidate, ranked.score, ranked.matches, ranked.record.deep)
    ordered = sorted(hits.values(), key=lambda h: (-h.score, spec.key(h.candidate)))
    return PipelineResult(
        hits=tuple(ordered),
        candidates=len(by_key),
        enriched=len(deep),
        fetched=len(to_fetch) - failures,
        failures=failures,
        notes=tuple(limits.notes()),
    )


def _enrichment_order(
    spec: SearchSpec[C, D], by_key: dict[int, C], shallow_keys: list[int], server_matches: Collection[int]
) -> tuple[list[C], list[C]]:
    """Candidates with evidence of a match (shallow hits, then server full-text hits), and the rest."""
    seen = set(shallow_keys)
    hinted = [by_key[k] for k in by_key if k in server_matches and k not in seen]
    seen.update(spec.key(c) for c in hinted)
    rest = [c for k, c in by_key.items() if k not in seen]

    def newest_first(candidate: C) -> tuple[float, int]:
        moment = spec.recency(candidate) or _EPOCH
        return (-moment.timestamp(), spec.key(candidate))

    return [by_key[k] for k in shallow_keys] + sorted(hinted, key=newest_first), sorted(rest, key=newest_first)


def lift(field: Field[C]) -> Field[Enriched[C, D]]:
    """A shallow field read from an enriched record."""
    extract = field.extract

    def from_enriched(record: Enriched[C, D]) -> str | Sequence[str] | None:
        return extract(record.candidate)

    return Field(field.name, field.weight, from_enriched)
