"""Ranking as the use cases run it: bounded work per call, done beside the event loop, never on it.

Ranking is pure CPU: it folds and tokenises every text and scores every word pair. One long
query over a few hundred long records takes seconds, and on the event loop those seconds would
hold every other caller (health checks included). So each call is bounded, and run on a small
worker thread, which the interpreter switches away from every few milliseconds:

- the query: at most ``MAX_QUERY_WORDS`` significant words are scored (the first ones, in the
  order written); exact-match mode still looks for the whole query;
- the records: each text is scored on its first ``MAX_SCORED_CHARACTERS`` characters, and a
  list-valued field on its first ``MAX_SCORED_ITEMS`` items.

What was cut is counted, so the answer can say so (``RankingLimits.notes``).
"""

from __future__ import annotations

import asyncio
import threading
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from itertools import chain
from typing import Final, TypeVar

from openproject_mcp.domain.search import (
    DEFAULT_MIN_SCORE,
    Extracted,
    Field,
    MatchMode,
    QueryScorer,
    Ranked,
    Ranking,
    TokenStore,
    extract_texts,
    query_clauses,
    query_tokens,
)
from openproject_mcp.domain.search.acronym import AcronymReading, may_read_acronyms
from openproject_mcp.domain.search.acronym import read_acronyms as acronym_reading

T = TypeVar("T")
R = TypeVar("R")

MAX_QUERY_WORDS: Final = 16
MAX_SCORED_CHARACTERS: Final = 10_000
MAX_SCORED_ITEMS: Final = 200
# Ranking is pure Python: threads share one interpreter lock, so a second ranking thread would add
# no speed, only a second contender the event loop must win the lock from.
RANKING_THREADS: Final = 1
# Below this much text to tokenise a call is ranked in place: the hop to a thread (two wake-ups,
# each a scheduling delay on a busy machine) would cost more than it saves.
INLINE_CHARACTERS: Final = 20_000
# Texts already tokenised still cost matching: past this many records a call leaves the loop.
INLINE_RECORDS: Final = 500

_pool: ThreadPoolExecutor | None = None
_pool_lock = threading.Lock()


def _executor() -> ThreadPoolExecutor:
    global _pool
    with _pool_lock:
        if _pool is None:
            _pool = ThreadPoolExecutor(max_workers=RANKING_THREADS, thread_name_prefix="ranking")
        return _pool


async def in_ranking_thread(work: Callable[[], R]) -> R:
    """``work()`` on the ranking thread, off the event loop (text scans that may be long)."""
    return await asyncio.get_running_loop().run_in_executor(_executor(), work)


@dataclass(slots=True)
class RankingLimits:
    """What one search call cut to stay within its bounds; shared by the rankings of the call."""

    query_words: int = 0
    texts_cut: int = 0
    items_cut: int = 0
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def notes(self) -> list[str]:
        said: list[str] = []
        if self.query_words > MAX_QUERY_WORDS:
            said.append(
                f"The query has {self.query_words} significant words; only the first {MAX_QUERY_WORDS} were used "
                "for ranking. Shorten it to the words that matter most."
            )
        if self.texts_cut:
            noun = "text was" if self.texts_cut == 1 else "texts were"
            said.append(
                f"{self.texts_cut} long {noun} ranked on their first {MAX_SCORED_CHARACTERS:,} characters only."
            )
        if self.items_cut:
            said.append(f"Records with more than {MAX_SCORED_ITEMS} comments or items were ranked on the first ones.")
        return said

    def add_cuts(self, texts: int, items: int) -> None:
        """Count texts and list fields cut by a reading of this call's records."""
        with self._lock:
            self.texts_cut += texts
            self.items_cut += items

    def cuts(self) -> tuple[int, int]:
        """The cuts counted so far, for ``restore_cuts`` before the same texts are read again."""
        with self._lock:
            return self.texts_cut, self.items_cut

    def restore_cuts(self, cuts: tuple[int, int]) -> None:
        with self._lock:
            self.texts_cut, self.items_cut = cuts


def scored_query(query: str, mode: MatchMode, limits: RankingLimits | None = None) -> str:
    """``query`` as ranking uses it: in fuzzy mode, its first ``MAX_QUERY_WORDS`` significant words."""
    if mode != "fuzzy":
        return query
    tokens = query_tokens(query)
    if limits is not None:
        limits.query_words = max(limits.query_words, len(tokens))
    if len(tokens) <= MAX_QUERY_WORDS:
        return query
    return " ".join(tokens[:MAX_QUERY_WORDS])


async def rank(
    records: Iterable[T],
    query: str,
    fields: Sequence[Field[T]],
    *,
    key: Callable[[T], int],
    mode: MatchMode = "fuzzy",
    min_score: float = DEFAULT_MIN_SCORE,
    weight_scale: float | None = None,
    limits: RankingLimits | None = None,
) -> list[Ranked[T]]:
    """One ranking of ``records`` by ``query`` within this module's bounds (``rank_with`` a scorer of its own)."""
    scorer = query_scorer(query, mode, limits)
    ranking = await rank_with(
        scorer, records, fields, key=key, min_score=min_score, weight_scale=weight_scale, limits=limits
    )
    return ranking.hits


def query_scorer(
    query: str,
    mode: MatchMode,
    limits: RankingLimits | None = None,
    store: TokenStore | None = None,
    acronyms: Mapping[str, Sequence[str]] | None = None,
    *,
    strong_only: bool = False,
) -> QueryScorer:
    """One search's scorer over the bounded query (see ``scored_query``); ``acronyms`` and
    ``strong_only`` as ``QueryScorer`` takes them."""
    return QueryScorer(
        scored_query(query, mode, limits), mode=mode, store=store, acronyms=acronyms, strong_only=strong_only
    )


async def rank_with(
    scorer: QueryScorer,
    records: Iterable[T],
    fields: Sequence[Field[T]],
    *,
    key: Callable[[T], int],
    min_score: float = DEFAULT_MIN_SCORE,
    weight_scale: float | None = None,
    limits: RankingLimits | None = None,
    details: bool = True,
) -> Ranking[T]:
    """``scorer.rank`` within this module's bounds, on a worker thread when the work is not small.

    The rankings of one search run one after another, so the scorer is never used by two
    threads at once.
    """
    candidates = list(records)
    ranking, _ = await rank_read(
        scorer,
        lambda: bounded_texts(candidates, fields, limits),
        len(candidates),
        fields,
        key=key,
        min_score=min_score,
        weight_scale=weight_scale,
        details=details,
    )
    return ranking


async def read_acronyms(query: str, scorer: QueryScorer, texts: Sequence[str]) -> AcronymReading | None:
    """``acronym.read_acronyms`` once ``scorer`` has ranked ``texts``, on the ranking thread, as the
    texts may be many; not started where nothing could be read (``may_read_acronyms``)."""
    unheld = scorer.unheld_terms()
    if not may_read_acronyms(query, unheld, scorer.holds):
        return None
    return await in_ranking_thread(
        lambda: acronym_reading(query, unheld, scorer.holds, texts, max_words=MAX_QUERY_WORDS)
    )


async def rank_clauses(
    query: str,
    mode: MatchMode,
    store: TokenStore | None,
    texts: Extracted[T],
    fields: Sequence[Field[T]],
    *,
    key: Callable[[T], int],
    min_score: float = DEFAULT_MIN_SCORE,
    weight_scale: float | None = None,
) -> tuple[Ranking[T], str] | None:
    """For a long question that found nothing as a whole: the ranking of the records' ``texts`` by
    the clause of it whose best record scores highest (the first on a tie), and a note saying so;
    ``None`` when the question has no clauses (``query_clauses``) or none finds anything (ADR 0061)."""
    clauses = query_clauses(query, MAX_QUERY_WORDS) if mode == "fuzzy" else ()
    if not clauses:
        return None

    def rank(scorer: QueryScorer, *, details: bool = True) -> Ranking[T]:
        return scorer.rank(
            texts.records,
            fields,
            key=key,
            min_score=min_score,
            weight_scale=weight_scale,
            details=details,
            extracted=texts,
        )

    def work() -> tuple[Ranking[T], str] | None:
        # The clause whose best record holds its words as written (or in other forms) scores highest
        # wins: a chatter clause met only by typo neighbours ("wall of text": "test") does not outrank
        # the one naming the topic (ADR 0069). Where no clause is held so, the best score as read.
        best: tuple[float, float, Ranking[T], str] | None = None
        for clause in clauses:
            ranking = rank(query_scorer(clause, mode, None, store))
            if not ranking.hits:
                continue
            held = rank(query_scorer(clause, mode, None, store, strong_only=True), details=False)
            measure = (held.hits[0].score if held.hits else 0.0, ranking.hits[0].score)
            if best is None or measure > best[:2]:
                best = (*measure, ranking, clause)
        return None if best is None else (best[2], best[3])

    # The clauses are ranked one after another on the ranking thread, off the event loop (ADR 0065).
    best = await in_ranking_thread(work)
    if best is None:
        return None
    ranking, clause = best
    return ranking, f"Nothing matched the whole question; these results match its part {clause!r}."


def bounded_texts(records: Sequence[T], fields: Sequence[Field[T]], limits: RankingLimits | None) -> Extracted[T]:
    """The texts of ``records`` as ranking reads them (cut to this module's bounds); cuts are counted."""
    texts = extract_texts(records, fields, max_characters=MAX_SCORED_CHARACTERS, max_items=MAX_SCORED_ITEMS)
    if limits is not None and (texts.texts_cut or texts.lists_cut):
        limits.add_cuts(texts.texts_cut, texts.lists_cut)
    return texts


async def rank_read(
    scorer: QueryScorer,
    read: Callable[[], Extracted[T]],
    count: int,
    fields: Sequence[Field[T]],
    *,
    key: Callable[[T], int],
    min_score: float = DEFAULT_MIN_SCORE,
    weight_scale: float | None = None,
    details: bool = True,
) -> tuple[Ranking[T], Extracted[T]]:
    """``scorer.rank`` of the ``count`` records whose texts ``read`` returns (within bounds, cuts
    counted), placed as :func:`rank_with` places it; the texts come back too, so a later ranking
    of the same records can reuse them.

    Past ``INLINE_RECORDS`` records, ``read`` runs on the worker thread with the ranking.
    """

    def work(texts: Extracted[T]) -> tuple[Ranking[T], Extracted[T]]:
        ranking = scorer.rank(
            texts.records,
            fields,
            key=key,
            min_score=min_score,
            weight_scale=weight_scale,
            details=details,
            extracted=texts,
        )
        return ranking, texts

    loop = asyncio.get_running_loop()
    if count > INLINE_RECORDS:
        return await loop.run_in_executor(_executor(), lambda: work(read()))
    # Read once, here: what the scorer (or its store) has tokenised already costs no tokenising.
    texts = read()
    if _tokenising(scorer, texts) > INLINE_CHARACTERS:
        return await loop.run_in_executor(_executor(), work, texts)
    return work(texts)


def _tokenising(scorer: QueryScorer, texts: Extracted[T]) -> int:
    """How many characters ranking ``texts`` must still tokenise, counted per record, as the
    matching is: a text many records share costs each of them (past ``INLINE_CHARACTERS`` the
    count may stop early)."""
    # Each distinct text is asked about once (the store in one batch); its size counts at least once.
    distinct = texts.distinct
    unknown = scorer.unknown(distinct)
    if not unknown:
        return 0
    size = sum(map(len, unknown))
    if size > INLINE_CHARACTERS:
        return size
    # Then per record occurrence: a text read by several records counts for each of them.
    occurrences = Counter(chain.from_iterable(flat for _, flat in texts.per_record))
    return sum(len(text) * occurrences[text] for text in unknown)
