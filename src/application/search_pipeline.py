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

Ranking: one ``QueryScorer`` serves the whole search, so every text is tokenised and matched
once. Phase 1 ranks shallow fields only to order the enrichment; the answer is one ranking of
every candidate over all fields (deep fields empty where nothing was read), so term weights
come from one candidate set and a record's score is at least what its shallow fields give.

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
from openproject_mcp.application.ranking import RankingLimits, query_scorer, rank_with
from openproject_mcp.domain.errors import OpenProjectMcpError
from openproject_mcp.domain.search import DEFAULT_MIN_SCORE, Field, FieldMatch, MatchMode, TokenStore

C = TypeVar("C")
D = TypeVar("D")

ProgressCallback = Callable[[float, float | None, str | None], Awaitable[None]]

DEFAULT_ENRICH_LIMIT = 25
DEFAULT_CONCURRENCY = 16  # the default bound of requests in flight per user (OPENPROJECT_MAX_CONCURRENCY)
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


@dataclass(frozen=True, slots=True)
class Enriched(Generic[C, D]):
    """A candidate together with its deep content."""

    candidate: C
    deep: D


@dataclass(frozen=True, slots=True)
class _Final(Generic[C, D]):
    """A candidate in the final ranking: its deep content, when it was read."""

    candidate: C
    deep: D | None


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
    tokens: TokenStore | None = None  # token values kept between searches (tenant-scoped)


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
    unmatched_terms: tuple[str, ...] = ()
    texts_matched: int = 0  # distinct texts matched against the query (each once per search)


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
    tokens = spec.tokens if spec.tokens is not None else (spec.cache.token_store() if spec.cache else None)
    limits = RankingLimits()
    scorer = query_scorer(query, mode, limits, tokens)
    # Phase 1 only orders the enrichment: no matches or snippets are built for it.
    shallow = (
        await rank_with(
            scorer,
            by_key.values(),
            spec.shallow_fields,
            key=spec.key,
            min_score=settings.min_score,
            weight_scale=scale,
            limits=limits,
            details=False,
        )
    ).hits

    deep: dict[int, D] = {}
    to_fetch: list[C] = []
    evidence, backfill = _enrichment_order(spec, by_key, [spec.key(r.record) for r in shallow], server_matches)
    if spec.cache is not None:  # what other replicas already read: one round trip, before anything is chosen
        await spec.cache.preload((spec.key(c), spec.version(c)) for c in by_key.values())
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
    try:
        await map_bounded(to_fetch, settings.concurrency, fetch)
    finally:
        if spec.cache is not None:
            await spec.cache.flush()

    final = await rank_with(
        scorer,
        (_Final(candidate, deep.get(record_key)) for record_key, candidate in by_key.items()),
        _final_fields(spec),
        key=lambda f: spec.key(f.candidate),
        min_score=settings.min_score,
        weight_scale=scale,
        limits=limits,
    )
    hits = tuple(Hit(r.record.candidate, r.score, r.matches, r.record.deep) for r in final.hits)
    return PipelineResult(
        hits=hits,
        candidates=len(by_key),
        enriched=len(deep),
        fetched=len(to_fetch) - failures,
        failures=failures,
        notes=tuple(limits.notes()),
        unmatched_terms=final.unmatched_terms,
        texts_matched=scorer.texts_matched,
    )


def _final_fields(spec: SearchSpec[C, D]) -> tuple[Field[_Final[C, D]], ...]:
    """The full fields over final candidates: a deep field is empty where nothing was read.

    A full field named like a shallow one is that shallow field lifted (``lift``): it reads
    the candidate only, so it is read for every candidate.
    """
    shallow = {field.name: field.extract for field in spec.shallow_fields}

    def reading(field: Field[Enriched[C, D]]) -> Field[_Final[C, D]]:
        extract = field.extract
        lifted = shallow.get(field.name)
        if lifted is not None:
            read_candidate = lifted

            # A lifted field reads the candidate only: the shallow field itself, no wrapper built.
            def from_candidate(record: _Final[C, D]) -> str | Sequence[str] | None:
                return read_candidate(record.candidate)

            return Field(field.name, field.weight, from_candidate)

        def from_final(record: _Final[C, D]) -> str | Sequence[str] | None:
            if record.deep is None:
                return None
            return extract(Enriched(record.candidate, record.deep))

        return Field(field.name, field.weight, from_final)

    return tuple(reading(field) for field in spec.full_fields)


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
