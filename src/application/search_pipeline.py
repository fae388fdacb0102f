"""The two-phase search: rank what the list gave, enrich a bounded few, rank again.

Phase 1 ranks every candidate on the fields a list request already returned. Phase 2 fetches
the deep content (comments, agenda items...) of at most ``enrich_limit`` candidates that are
not in the enrichment cache, at most ``concurrency`` at a time, and ranks those candidates on
all their fields. A record's final score is the higher of the two; both phases normalise
against one weight scale, so a deep-only hit never ties a perfect title hit.

Which candidates are enriched: first those with evidence of a match — the shallow matches,
best first, taking turns with the candidates the server's full-text search returned (their
match may be deep, however old they are), those its legs say most of first — and up to
``enrich_limit`` of them that are not cached are fetched; then, while fewer than
``enrich_limit`` positions are used (fetched or cached), the most recently updated fill the
window. Cached deep content is used
for every candidate it exists for and costs nothing, so a repeated search costs only its
candidate requests, and a search with more matches than the budget sees the next ones when
it is repeated. Where the spec ``reads_further`` (deep content no server search reaches), a repeat
whose cached reads give no hit matching the whole query reads the next ``enrich_limit`` records in
the same order (ADR 0066).

Ranking: one ``QueryScorer`` serves the whole search, so every text is tokenised and matched
once. Phase 1 ranks shallow fields only to order the enrichment; the answer is one ranking of
every candidate over all fields (deep fields empty where nothing was read), so term weights
come from one candidate set and a record's score is at least what its shallow fields give.
Each text is read once per search: when every shallow field is lifted once, in order, phase 1
ranks the full fields with the deep ones empty (the same scores as the shallow fields alone),
and the final ranking reuses those texts, reading only the enriched records' deep fields.

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
from openproject_mcp.application.ranking import (
    RankingLimits,
    bounded_texts,
    query_scorer,
    rank_clauses,
    rank_read,
    read_acronyms,
)
from openproject_mcp.domain.errors import OpenProjectMcpError
from openproject_mcp.domain.search import (
    DEFAULT_MIN_SCORE,
    Extracted,
    Field,
    FieldMatch,
    MatchMode,
    QueryScorer,
    Ranked,
    Ranking,
    TokenStore,
)

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
    # Whether a repeat of a search whose answer is not whole (no hit matching every word) reads the
    # next records in depth: for records whose deep content no server search reaches (meeting
    # agendas; ADR 0066).
    reads_further: bool = False


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
    # With no hit matching the whole query (``Ranking.whole``), where the spec ``reads_further``: the
    # candidates still not read in depth, and how many of them a repeat of the search reads (ADR 0066).
    unread: int = 0
    next_reads: int = 0


async def run_search(
    spec: SearchSpec[C, D],
    candidates: Sequence[C],
    query: str,
    mode: MatchMode,
    *,
    server_matches: Collection[int] | Mapping[int, float] = (),
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
    deep: dict[int, D] = {}
    fields = _final_fields(spec, deep)  # deep fields read what ``deep`` holds: nothing yet
    layout = _final_layout(spec)
    # Phase 1 only orders the enrichment: no matches or snippets are built for it. Where the
    # layout allows, it ranks the full fields, the deep ones empty (which scores the same), so
    # the final ranking reuses its texts and reads only the deep fields of the enriched records.
    first_fields = spec.shallow_fields if layout is None else layout.first_fields

    async def first_ranking(scorer: QueryScorer, read: Extracted[C] | None = None) -> tuple[Ranking[C], Extracted[C]]:
        return await rank_read(
            scorer,
            (lambda: bounded_texts(records, first_fields, limits)) if read is None else (lambda: read),
            len(records),
            first_fields,
            key=key,
            min_score=settings.min_score,
            weight_scale=scale,
            details=False,
        )

    shallow_ranking, shallow_texts = await first_ranking(scorer)
    readings: tuple[str, ...] = ()
    if mode == "fuzzy":
        shallow_ranking, shallow_texts, scorer, readings = await _read_acronyms(
            query,
            scorer,
            shallow_ranking,
            shallow_texts,
            lambda text, acronyms: query_scorer(text, mode, limits, tokens, acronyms),
            first_ranking,
        )

    to_fetch: list[tuple[int, C]] = []
    evidence, backfill = _enrichment_order(spec, by_key, _best_then_newest(spec, shallow_ranking.hits), server_matches)
    cache = spec.cache
    versions: dict[int, str] = {}
    if cache is not None:  # what other replicas already read: one round trip, before anything is chosen
        version = spec.version
        versions = dict(zip(by_key, map(version, by_key.values()), strict=True))
        await cache.preload(versions.items())
    window = 0  # enrichment positions used: fetched or already cached
    # What the cache holds for every candidate, looked up at once, in the order considered.
    held: dict[int, D | None] = {}
    if cache is not None:
        order = [*evidence, *backfill]
        held = dict(zip(order, cache.get_many([(k, versions[k]) for k in order]), strict=True))
    for chosen, backfilling in ((evidence, False), (backfill, True)):
        for record_key in chosen:
            cached = held.get(record_key)
            if cached is not None:
                deep[record_key] = cached
                window += 1
            elif len(to_fetch) < settings.enrich_limit and not (backfilling and window >= settings.enrich_limit):
                to_fetch.append((record_key, by_key[record_key]))
                window += 1

    failures = 0
    done = 0
    total_to_read = len(to_fetch)

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
            await progress(done, total_to_read, f"Read {done} of {total_to_read} {spec.what}")

    async def read_in_depth(batch: list[tuple[int, C]]) -> None:
        if not batch:  # a search the cache answers starts no tasks
            return
        if progress is not None and not done:  # a second batch goes on counting (values only grow)
            await progress(done, total_to_read, f"Reading {len(batch)} {spec.what} in depth")
        try:
            await map_bounded(batch, settings.concurrency, fetch)
        finally:
            if cache is not None:
                await cache.flush()

    async def final_ranking() -> tuple[Ranking[C], Extracted[C]]:
        return await rank_read(
            scorer,
            lambda: _final_texts(spec, by_key, shallow_texts, fields, deep, limits, layout),
            len(records),
            fields,
            key=key,
            min_score=settings.min_score,
            weight_scale=scale,
        )

    await read_in_depth(to_fetch)
    cuts = limits.cuts()
    final, final_texts = await final_ranking()
    attempted = {record_key for record_key, _ in to_fetch}

    def unread() -> list[int]:
        """What a repeat would read next, in order: the records neither in depth (read or cached)
        nor tried in this call; none where the answer is whole or nothing would be cached."""
        if not spec.reads_further or cache is None or final.whole:
            return []
        return [k for k in (*evidence, *backfill) if k not in deep and k not in attempted]

    further = unread()
    if further and not to_fetch and settings.enrich_limit:
        # The cache answered every position and no record it held answers the whole query: a repeat
        # of a search that found nothing, or only records matching part of it, reads the next
        # records in the same order, in one batch (the cold search's round trips), so each repeat
        # reaches further back instead of giving the same answer (ADR 0066).
        more = [(k, by_key[k]) for k in further[: settings.enrich_limit]]
        to_fetch.extend(more)
        attempted.update(k for k, _ in more)
        total_to_read = len(to_fetch)
        await read_in_depth(more)
        limits.restore_cuts(cuts)  # the final texts are read again: their cuts count once
        final, final_texts = await final_ranking()
        further = unread()
    if not final.hits:
        # A long question may hold its topic in one clause (ADR 0061).
        clause = await rank_clauses(
            query, mode, tokens, final_texts, fields, key=key, min_score=settings.min_score, weight_scale=scale
        )
        if clause is not None:
            final, note = clause
            readings = (*readings, note)
    hits = tuple(Hit(r.record, r.score, r.matches, deep.get(key(r.record))) for r in final.hits)
    return PipelineResult(
        hits=hits,
        candidates=len(by_key),
        enriched=len(deep),
        fetched=len(to_fetch) - failures,
        failures=failures,
        unread=len(further),
        next_reads=min(len(further), settings.enrich_limit),
        notes=(*readings, *limits.notes()),
        unmatched_terms=final.unmatched_terms,
        texts_matched=scorer.texts_matched,
    )


async def _read_acronyms(
    query: str,
    scorer: QueryScorer,
    ranking: Ranking[C],
    texts: Extracted[C],
    scorer_for: Callable[[str, Mapping[str, tuple[str, ...]]], QueryScorer],
    first_ranking: Callable[[QueryScorer, Extracted[C]], Awaitable[tuple[Ranking[C], Extracted[C]]]],
) -> tuple[Ranking[C], Extracted[C], QueryScorer, tuple[str, ...]]:
    """The first ranking again when the query's acronyms are read (``read_acronyms``), with the
    scorer that reads them and a note per reading; as it was otherwise."""
    reading = await read_acronyms(query, scorer, texts.distinct)
    if reading is None:
        return ranking, texts, scorer, ()
    reader = scorer_for(reading.query, reading.acronyms)
    again, texts = await first_ranking(reader, texts)
    return again, texts, reader, reading.notes


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


def _unread(_: object) -> None:
    """A deep field before anything was read."""


@dataclass(frozen=True, slots=True)
class _Layout(Generic[C, D]):
    """How the first phase reads the full fields, so the final ranking can reuse its texts."""

    first_fields: tuple[Field[C], ...]  # the full fields, deep ones empty
    deep_fields: list[Field[Enriched[C, D]]]
    deep_positions: list[int]  # where each deep field stands among the full fields
    in_order: bool  # the shallow fields first, then the deep ones


def _final_layout(spec: SearchSpec[C, D]) -> _Layout[C, D] | None:
    """The layout, when the first phase can read the full fields, deep ones empty, and find
    exactly the texts and cuts of the shallow fields in the same order: every shallow field
    lifted exactly once, in the shallow order (``None`` otherwise).
    """
    shallow = {field.name: field for field in spec.shallow_fields}
    names = [field.name for field in spec.full_fields if field.name in shallow]
    if len(shallow) != len(spec.shallow_fields) or names != [field.name for field in spec.shallow_fields]:
        return None
    first = tuple(
        Field(field.name, field.weight, shallow[field.name].extract if field.name in shallow else _unread)
        for field in spec.full_fields
    )
    deep_positions = [position for position, field in enumerate(spec.full_fields) if field.name not in shallow]
    return _Layout(
        first,
        [spec.full_fields[position] for position in deep_positions],
        deep_positions,
        deep_positions == list(range(len(shallow), len(spec.full_fields))),
    )


def _final_texts(
    spec: SearchSpec[C, D],
    by_key: Mapping[int, C],
    first: Extracted[C],
    fields: Sequence[Field[C]],
    deep: Mapping[int, D],
    limits: RankingLimits,
    layout: _Layout[C, D] | None,
) -> Extracted[C]:
    """The texts of the final ranking (of the candidates ``by_key``, in its order, which the
    first phase ranked as ``first``): the first phase's, and the deep fields of the records
    whose deep content was read.

    The same texts, cuts and counts as reading every field of every candidate again.
    """
    if layout is None:
        return bounded_texts(first.records, fields, limits)
    read = [
        (record_key, Enriched(by_key[record_key], content))
        for record_key, content in deep.items()
        if content is not None
    ]
    deep_texts = bounded_texts([record for _, record in read], layout.deep_fields, limits)
    if first.texts_cut or first.lists_cut:  # the lifted fields are cut again as they are read again
        limits.add_cuts(first.texts_cut, first.lists_cut)
    if not read:
        return first
    index = dict(zip(by_key, range(len(first.per_record)), strict=True))
    per_record = list(first.per_record)
    in_order = layout.in_order
    for (record_key, _), (deep_fields, deep_flat) in zip(read, deep_texts.per_record, strict=True):
        at = index[record_key]
        entries = list(per_record[at][0])
        for position, texts in zip(layout.deep_positions, deep_fields, strict=True):
            entries[position] = texts
        # In order, the deep fields come last; otherwise the texts are put in the fields' order.
        flat = per_record[at][1] + deep_flat if in_order else tuple(chain.from_iterable(t for _, t in entries))
        per_record[at] = (entries, flat)
    distinct = dict.fromkeys(chain.from_iterable(map(itemgetter(1), per_record)))
    distinct.pop("", None)
    return Extracted(
        first.records,
        per_record,
        list(distinct),
        first.texts_cut + deep_texts.texts_cut,
        first.lists_cut + deep_texts.lists_cut,
    )


def _enrichment_order(
    spec: SearchSpec[C, D],
    by_key: dict[int, C],
    shallow_keys: list[int],
    server_matches: Collection[int] | Mapping[int, float],
) -> tuple[list[int], list[int]]:
    """Keys of the candidates with evidence of a match, and the rest (most recent first).

    The evidence takes turns: the best shallow hit, the best server full-text hit, the next
    shallow hit, the next server hit... (a record in both lists where it first comes). A shallow
    hit is already scored on its list fields, and a server hit is scored on nothing until it is
    read, so neither kind may take the whole budget: forty weak subject hits would otherwise
    leave unread the one record the leg of a rare word found (ADR 0038). Server hits come by
    what the server's legs say of them, when ``server_matches`` weighs them (hit by more legs,
    by a rarer word's leg, by the leg of every word: the larger the weight, the sooner), then
    most recent first.
    """
    seen = set(shallow_keys)
    recency = spec.recency

    def newest_first(keys: list[int]) -> list[int]:
        """Most recently updated first, then by key (by ``map`` and ``sorted``: most candidates pass here)."""
        ages = map(_age, map(recency, map(by_key.__getitem__, keys)))
        return list(map(itemgetter(1), sorted(zip(ages, keys, strict=True))))

    hinted: list[int] = []
    if server_matches:
        hinted = newest_first([k for k in by_key if k in server_matches])
        if isinstance(server_matches, Mapping):
            weights = server_matches
            hinted.sort(key=lambda k: -weights[k])  # stable: equal weights stay newest first
    evidence = _take_turns(shallow_keys, hinted)
    seen.update(evidence)
    return evidence, newest_first([k for k in by_key if k not in seen])


def _best_then_newest(spec: SearchSpec[C, D], hits: Sequence[Ranked[C]]) -> list[int]:
    """The shallow hits' keys, best first and, among equal scores, most recently updated first.

    Equal scores are common where one word is in many list fields (a person in every meeting, a
    recurring title); the reads in depth then go to the newest of them, as the backfill does,
    not to the oldest ids (ADR 0047). The order of the answer is not this one: it stays the ranking's.
    """
    recency, key = spec.recency, spec.key
    return [key(hit.record) for hit in sorted(hits, key=lambda hit: (-hit.score, _age(recency(hit.record))))]


def _take_turns(first: list[int], second: list[int]) -> list[int]:
    """``first[0], second[0], first[1], second[1]...``, each key once, where it first comes;
    the longer list's rest at the end."""
    turns = [key for pair in zip(first, second, strict=False) for key in pair]
    shorter = min(len(first), len(second))
    return list(dict.fromkeys(turns + first[shorter:] + second[shorter:]))


def _age(updated: datetime | None) -> float:
    """Sorts the most recently updated first (never updated: last)."""
    return -(updated or _EPOCH).timestamp()


def lift(field: Field[C]) -> Field[Enriched[C, D]]:
    """A shallow field read from an enriched record."""
    extract = field.extract

    def from_enriched(record: Enriched[C, D]) -> str | Sequence[str] | None:
        return extract(record.candidate)

    return Field(field.name, field.weight, from_enriched)
