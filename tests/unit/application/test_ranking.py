"""Ranking within bounds: the query's words, the text scored per record, and work kept off the event loop."""

from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path

from openproject_mcp.application.caching import TenantCaches, TokenCache
from openproject_mcp.application.ranking import (
    INLINE_RECORDS,
    MAX_QUERY_WORDS,
    MAX_SCORED_CHARACTERS,
    RankingLimits,
    query_scorer,
    rank,
    rank_with,
)
from openproject_mcp.application.search_work_packages import SearchWorkPackages, SearchWorkPackagesRequest
from openproject_mcp.domain.search import Field, rank_records
from tests.support.datasets import dataset_settings, many_work_packages, use_case, write

FILLER = "lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor "


@dataclass(frozen=True)
class Note:
    id: int
    title: str
    body: str


def _title(note: Note) -> str:
    return note.title


def _body(note: Note) -> str:
    return note.body


FIELDS: tuple[Field[Note], ...] = (Field("title", 3.0, _title), Field("body", 1.0, _body))
WORDS = [f"{stem}{suffix}" for stem in ("alpha", "bravo", "charlie", "delta", "echo") for suffix in "klmnpqrstv"]


class Where:
    """Which threads a ranking ran on: it sorts by ``key``, so ``key`` notes its thread."""

    def __init__(self) -> None:
        self.threads: set[str] = set()

    def key(self, note: Note) -> int:
        self.threads.add(threading.current_thread().name)
        return note.id

    def take(self) -> set[str]:
        seen, self.threads = self.threads, set()
        return seen

    def on_worker(self) -> bool:
        seen = self.take()
        return bool(seen) and all(name.startswith("ranking") for name in seen)

    def in_place(self) -> bool:
        return self.take() == {threading.current_thread().name}


BODY: tuple[Field[Note], ...] = (Field("body", 1.0, lambda note: note.body),)


def big_notes(marker: str = "") -> list[Note]:
    return [Note(i, "t", f"{i} {marker}{FILLER * 40}") for i in range(1, 40)]


async def test_a_query_with_too_many_words_is_ranked_on_its_first_ones_and_says_so() -> None:
    notes = [Note(1, "alphak bravok", "x"), Note(2, WORDS[-1], "y")]
    limits = RankingLimits()
    ranked = await rank(notes, " ".join(WORDS), FIELDS, key=lambda n: n.id, limits=limits)
    first_only = rank_records(notes, " ".join(WORDS[:MAX_QUERY_WORDS]), FIELDS, key=lambda n: n.id)
    assert [(r.record.id, r.score) for r in ranked] == [(r.record.id, r.score) for r in first_only]
    assert 2 not in [r.record.id for r in ranked], "a word past the limit does not count"
    assert limits.query_words == len(WORDS)
    assert any(f"only the first {MAX_QUERY_WORDS} were used" in note for note in limits.notes())


async def test_exact_mode_still_looks_for_the_whole_query() -> None:
    phrase = " ".join(WORDS)
    ranked = await rank([Note(1, "t", f"see {phrase} here")], phrase, FIELDS, key=lambda n: n.id, mode="exact")
    assert [r.record.id for r in ranked] == [1]


async def test_each_text_is_scored_on_its_first_characters_and_the_answer_says_so() -> None:
    padding = FILLER * (MAX_SCORED_CHARACTERS // len(FILLER) + 10)
    early = Note(1, "one", f"zeppelin {padding}")
    late = Note(2, "two", f"{padding} zeppelin")
    limits = RankingLimits()
    ranked = await rank([early, late], "zeppelin", FIELDS, key=lambda n: n.id, limits=limits)
    assert [r.record.id for r in ranked] == [1]
    assert limits.texts_cut == 2
    assert any(f"first {MAX_SCORED_CHARACTERS:,} characters" in note for note in limits.notes())


async def test_a_call_with_much_text_is_ranked_on_a_worker_thread_and_a_small_one_in_place() -> None:
    where = Where()
    big = [Note(i, "t", FILLER * 40) for i in range(1, 40)]
    await rank(big, "consectetur", BODY, key=where.key)
    assert where.on_worker()
    await rank(big[:1], "consectetur", BODY, key=where.key)
    assert where.in_place()


async def test_a_search_with_a_long_query_notes_what_was_left_out(tmp_path: Path) -> None:
    path = write(tmp_path, many_work_packages(5))
    search = await use_case(dataset_settings(path), SearchWorkPackages)
    page = await search.execute(SearchWorkPackagesRequest("routine maintenance " + " ".join(WORDS)))
    assert page.notes and any("significant words" in note for note in page.notes)


async def test_texts_the_search_has_tokenised_already_do_not_send_a_ranking_to_the_worker_thread() -> None:
    # The fields are read on the loop; the ranking runs where it is sent.
    where = Where()
    scorer = query_scorer("consectetur", "fuzzy")
    first = await rank_with(scorer, big_notes(), BODY, key=where.key)
    assert where.on_worker()
    # The same texts again (the final ranking of a search re-reads the first one's): in place.
    second = await rank_with(scorer, big_notes(), BODY, key=where.key)
    assert where.in_place()
    assert second.hits == first.hits
    # New text of the same size goes to the worker thread again.
    await rank_with(scorer, big_notes("fresh "), BODY, key=where.key)
    assert where.on_worker()


async def test_a_later_search_over_texts_in_the_token_cache_ranks_in_place_and_alike() -> None:
    where = Where()
    caches = TenantCaches()
    earlier = query_scorer("consectetur", "fuzzy", store=TokenCache(caches, "tenant:a"))
    assert (await rank_with(earlier, big_notes(), BODY, key=where.key)).hits
    assert where.on_worker()
    # A new search (a new scorer, another query) of the same tenant finds the token values kept.
    later = query_scorer("adipiscing", "fuzzy", store=TokenCache(caches, "tenant:a"))
    warm = await rank_with(later, big_notes(), BODY, key=where.key)
    assert where.in_place()
    cold = await rank_with(query_scorer("adipiscing", "fuzzy"), big_notes(), BODY, key=lambda n: n.id)
    assert warm.hits == cold.hits and warm.hits
    # Another tenant's search does not see them: it tokenises on the worker thread.
    other = query_scorer("adipiscing", "fuzzy", store=TokenCache(caches, "tenant:b"))
    await rank_with(other, big_notes(), BODY, key=where.key)
    assert where.on_worker()


async def test_many_records_leave_the_loop_even_when_their_texts_are_known() -> None:
    where = Where()
    fields: tuple[Field[Note], ...] = (Field("title", 1.0, lambda note: note.title),)
    many = [Note(i, f"budget {i}", "") for i in range(1, INLINE_RECORDS + 2)]
    scorer = query_scorer("budget", "fuzzy")
    await rank_with(scorer, many[:INLINE_RECORDS], fields, key=where.key)
    assert where.in_place()
    ranked = await rank_with(scorer, many, fields, key=where.key)
    assert where.on_worker()
    assert len(ranked.hits) == INLINE_RECORDS + 1
