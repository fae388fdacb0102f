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

from collections.abc import Awaitable, Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from itertools import chain
from operator import itemgetter
from typing import Generic, TypeVar

from openproject_mcp.application.caching import EnrichmentCache
from openproject_mcp.application.concurrency import map_bounded
from openproject_mcp.application.ranking import RankingLimits, bounded_texts, query_scorer, rank_read
from openproject_mcp.domain.errors import OpenProjectMcpError
from openproject_mcp.domain.search import DEFAULT_MIN_SCORE, Extracted, Field, FieldMatch, MatchMode, TokenStore

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
    key = spec.key
    by_key = {key(c): c for c in candidates}
    records = list(by_key.values())
    tokens = spec.tokens if spec.tokens is not None else (spec.cache.token_store() if spec.cache else None)
    limits = RankingLimits()
    scorer = query_scorer(query, mode, limits, tokens)
    # Phase 1 only orders the enrichment: no matches or snippets are built for it.
    shallow_ranking, shallow_texts = await rank_read(
        scorer,
        lambda: bounded_texts(records, spec.shallow_fields, limits),
        len(records),
        spec.shallow_fields,
        key=key,
        min_score=settings.min_score,
        weight_scale=scale,
        details=False,
    )

    deep: dict[int, D] = {}
    to_fetch: list[tuple[int, C]] = []
    evidence, backfill = _enrichment_order(spec, by_key, [key(r.record) for r in shallow_ranking.hits], server_matches)
    cache = spec.cache
    versions: dict[int, str] = {}
    if cache is not None:  # what other replicas already read: one round trip, before anything is chosen
        version = spec.version
        versions = {record_key: version(c) for record_key, c in by_key.items()}
        await cache.preload(versions.items())
        window = 0  # enrichment positions used: fetched or already cached
        for chosen, backfilling in ((evidence, False), (backfill, True)):
            for record_key in chosen:
                cached = cache.get(record_key, versions[record_key])
                if cached is not None:
                    deep[record_key] = cached
                    window += 1
                elif len(to_fetch) < settings.enrich_limit and not (backfilling and window >= settings.enrich_limit):
                    to_fetch.append((record_key, by_key[record_key]))
                    window += 1
    else:  # nothing is cached: the first ones in order are fetched
        to_fetch = [
            (record_key, by_key[record_key]) for record_key in [*evidence, *backfill][: max(settings.enrich_limit, 0)]
        ]

    failures = 0
    done = 0

    async def fetch(item: tuple[int, C]) -> None:
        nonlocal failures, done
        record_key, candidate = item
        try:
            content = await spec.enrich(candidate)
        except OpenProjectMcpError as error:
            if error.aborts_search:
                raise
            failures += 1
        else:
            deep[record_key] = content
            if cache is not None:
                cache.put(record_key, versions[record_key], content)
        done += 1
        if progress is not None:
            await progress(done, len(to_fetch), f"Read {done} of {len(to_fetch)} {spec.what}")

    if to_fetch and progress is not None:
        await progress(0, len(to_fetch), f"Reading {len(to_fetch)} {spec.what} in depth")
    try:
        await map_bounded(to_fetch, settings.concurrency, fetch)
    finally:
        if cache is not None:
            await cache.flush()

    fields = _final_fields(spec, deep)
    final, _ = await rank_read(
        scorer,
        lambda: _final_texts(spec, by_key, shallow_texts, fields, deep, limits),
        len(records),
        fields,
        key=key,
        min_score=settings.min_score,
        weight_scale=scale,
    )
    hits = tuple(Hit(r.record, r.score, r.matches, deep.get(key(r.record))) for r in final.hits)
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


def _final_fields(spec: SearchSpec[C, D], deep: Mapping[int, D]) -> tuple[Field[C], ...]:
    """The full fields over candidates: a deep field is empty where nothing was read.

    A full field named like a shallow one is that shallow field lifted (``lift``): it reads
    the candidate only, so it is read for every candidate.
    """
    shallow = {field.name: field.extract for field in spec.shallow_fields}
    key = spec.key

    def reading(field: Field[Enriched[C, D]]) -> Field[C]:
        lifted = shallow.get(field.name)
        if lifted is not None:
            # A lifted field reads the candidate only: the shallow field itself, no wrapper built.
            return Field(field.name, field.weight, lifted)
        extract = field.extract

        def from_candidate(candidate: C) -> str | Sequence[str] | None:
            content = deep.get(key(candidate))
            if content is None:
                return None
            return extract(Enriched(candidate, content))

        return Field(field.name, field.weight, from_candidate)

    return tuple(reading(field) for field in spec.full_fields)


def _final_texts(
    spec: SearchSpec[C, D],
    by_key: Mapping[int, C],
    shallow: Extracted[C],
    fields: Sequence[Field[C]],
    deep: Mapping[int, D],
    limits: RankingLimits,
) -> Extracted[C]:
    """The texts of the final ranking (of the candidates ``by_key``, in its order, which the
    first phase ranked as ``shallow``): the first phase's texts of the lifted fields, and the
    deep fields read of the records whose deep content was read.

    The same texts, cuts and counts as reading every field of every candidate again.
    """
    layout = _final_layout(spec)
    if layout is None:
        return bounded_texts(shallow.records, fields, limits)
    source, deep_fields, same_flat = layout
    read = [
        (record_key, Enriched(by_key[record_key], content))
        for record_key, content in deep.items()
        if content is not None
    ]
    deep_texts = bounded_texts([record for _, record in read], deep_fields, limits)
    if shallow.texts_cut or shallow.lists_cut:  # the lifted fields are cut again as they are read again
        limits.add_cuts(shallow.texts_cut, shallow.lists_cut)
    read_deep = {record_key: texts for (record_key, _), texts in zip(read, deep_texts.per_record, strict=True)}
    nothing: list[tuple[bool, Sequence[str]]] = [(False, ())] * len(deep_fields)
    per_record: list[tuple[list[tuple[bool, Sequence[str]]], tuple[str, ...]]]
    if source is None:  # the shallow fields, then the deep ones: each record's texts in that order
        per_record = [
            (per_field + nothing, flat)
            if (found := read_deep.get(record_key)) is None
            else (per_field + found[0], flat + found[1])
            for record_key, (per_field, flat) in zip(by_key, shallow.per_record, strict=True)
        ]
    else:  # shallow and deep fields interleave: each record's fields put in the full fields' order
        pick = itemgetter(*source)
        per_record = []
        for record_key, (per_field, flat) in zip(by_key, shallow.per_record, strict=True):
            found = read_deep.get(record_key)
            entries: list[tuple[bool, Sequence[str]]] = list(pick(per_field + (nothing if found is None else found[0])))
            if found is not None or not same_flat:
                flat = tuple(chain.from_iterable(texts for _, texts in entries))
            per_record.append((entries, flat))
    distinct = dict.fromkeys(chain.from_iterable(map(itemgetter(1), per_record)))
    distinct.pop("", None)
    return Extracted(
        shallow.records,
        per_record,
        list(distinct),
        shallow.texts_cut + deep_texts.texts_cut,
        shallow.lists_cut + deep_texts.lists_cut,
    )


def _final_layout(
    spec: SearchSpec[C, D],
) -> tuple[list[int] | None, list[Field[Enriched[C, D]]], bool] | None:
    """Where the final ranking's fields come from, when every shallow field is lifted exactly once
    (``None`` otherwise: the first phase's cuts would not count the lifted texts).

    Returns the place of each full field among the shallow fields then the deep ones (``None``:
    that order already), the deep fields, and whether the lifted fields keep the shallow order,
    so a record without deep texts has the first phase's texts in the same order.
    """
    names = [field.name for field in spec.shallow_fields]
    at = {name: index for index, name in enumerate(names)}
    if len(at) != len(names) or sorted(field.name for field in spec.full_fields if field.name in at) != sorted(names):
        return None
    deep_fields = [field for field in spec.full_fields if field.name not in at]
    deep_at = iter(range(len(names), len(names) + len(deep_fields)))
    source = [at[field.name] if field.name in at else next(deep_at) for field in spec.full_fields]
    same_flat = [index for index in source if index < len(names)] == list(range(len(names)))
    return (None if source == list(range(len(source))) else source), deep_fields, same_flat


def _enrichment_order(
    spec: SearchSpec[C, D], by_key: dict[int, C], shallow_keys: list[int], server_matches: Collection[int]
) -> tuple[list[int], list[int]]:
    """Keys of the candidates with evidence of a match (shallow hits, then server full-text hits), and the rest."""
    seen = set(shallow_keys)
    hinted = [k for k in by_key if k in server_matches and k not in seen]
    seen.update(hinted)
    rest = [k for k in by_key if k not in seen]
    recency = spec.recency

    def newest_first(keys: list[int]) -> list[int]:
        """Most recently updated first, then by key."""
        order = [(-(recency(by_key[k]) or _EPOCH).timestamp(), k) for k in keys]
        order.sort()
        return [k for _, k in order]

    return shallow_keys + newest_first(hinted), newest_first(rest)


def lift(field: Field[C]) -> Field[Enriched[C, D]]:
    """A shallow field read from an enriched record."""
    extract = field.extract

    def from_enriched(record: Enriched[C, D]) -> str | Sequence[str] | None:
        return extract(record.candidate)

    return Field(field.name, field.weight, from_enriched)
