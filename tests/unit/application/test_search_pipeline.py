"""The two-phase pipeline's budgets and error classes, counted on a fake enrichment source."""

from __future__ import annotations

import asyncio
import sys
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from openproject_mcp.application.caching import (
    CacheSettings,
    EnrichmentCache,
    TenantCaches,
    TokenCache,
    TtlLruCache,
    tenant_key,
)
from openproject_mcp.application.search_pipeline import (
    Enriched,
    PipelineSettings,
    SearchSpec,
    lift,
    run_search,
)
from openproject_mcp.domain.errors import (
    AuthenticationError,
    ForbiddenError,
    NetworkError,
    NotFoundError,
    OpenProjectMcpError,
    RateLimitedError,
    UpstreamServerError,
)
from openproject_mcp.domain.search import Corpus, Field

BASE = datetime(2026, 11, 1, tzinfo=UTC)


@dataclass(frozen=True)
class Doc:
    id: int
    title: str
    updated: datetime


@dataclass
class DeepSource:
    """A fake deep-content source that counts calls and the peak of calls in flight."""

    bodies: dict[int, str]
    failures: dict[int, OpenProjectMcpError]
    delay: float = 0.001
    calls: list[int] | None = None
    in_flight: int = 0
    peak: int = 0

    def __post_init__(self) -> None:
        self.calls = []

    async def fetch(self, doc: Doc) -> str:
        assert self.calls is not None
        self.calls.append(doc.id)
        self.in_flight += 1
        self.peak = max(self.peak, self.in_flight)
        try:
            await asyncio.sleep(self.delay)
            if doc.id in self.failures:
                raise self.failures[doc.id]
            return self.bodies.get(doc.id, "")
        finally:
            self.in_flight -= 1


SHALLOW: tuple[Field[Doc], ...] = (Field("title", 3.0, lambda d: d.title),)


def spec_for(
    source: DeepSource, cache: EnrichmentCache[str] | None = None, *, reads_further: bool = False
) -> SearchSpec[Doc, str]:
    full: tuple[Field[Enriched[Doc, str]], ...] = (lift(SHALLOW[0]), Field("body", 1.0, lambda e: e.deep))
    return SearchSpec(
        reads_further=reads_further,
        shallow_fields=SHALLOW,
        full_fields=full,
        key=lambda d: d.id,
        version=lambda d: d.updated.isoformat(),
        recency=lambda d: d.updated,
        enrich=source.fetch,
        cache=cache,
    )


def corpus(n: int) -> list[Doc]:
    # id 1 is the oldest, id n the newest
    return [Doc(i, f"Routine item {i}", BASE + timedelta(hours=i)) for i in range(1, n + 1)]


async def test_never_more_than_sixteen_in_flight_and_never_more_than_25_fetches() -> None:
    source = DeepSource({}, {})
    result = await run_search(spec_for(source), corpus(200), "budget", "fuzzy")
    assert source.peak == 16  # 25 fetches in two rounds (16 + 9), not four (8 + 8 + 8 + 1)
    assert source.calls is not None and len(source.calls) == 25
    assert result.candidates == 200 and result.enriched == 25


async def test_the_bound_in_flight_is_the_one_configured() -> None:
    source = DeepSource({}, {})
    await run_search(spec_for(source), corpus(200), "budget", "fuzzy", settings=PipelineSettings(concurrency=5))
    assert source.peak == 5
    assert source.calls is not None and len(source.calls) == 25


async def test_backfill_takes_the_most_recently_updated_when_nothing_matches_shallowly() -> None:
    source = DeepSource({}, {})
    await run_search(spec_for(source), corpus(60), "budget", "fuzzy")
    assert source.calls is not None and sorted(source.calls) == list(range(36, 61))


async def test_shallow_matches_are_enriched_first() -> None:
    docs = corpus(60)
    docs[0] = Doc(1, "Budget review", BASE)  # the oldest, but a title match
    source = DeepSource({}, {})
    await run_search(spec_for(source), docs, "budget", "fuzzy")
    assert source.calls is not None and 1 in source.calls and len(source.calls) == 25


async def test_a_deep_only_old_record_is_found_when_the_server_says_it_matches() -> None:
    source = DeepSource({3: "We finally agreed on the escrow account."}, {})
    without_hint = await run_search(spec_for(source), corpus(100), "escrow", "fuzzy")
    assert [h.candidate.id for h in without_hint.hits] == []
    source = DeepSource({3: "We finally agreed on the escrow account."}, {})
    with_hint = await run_search(spec_for(source), corpus(100), "escrow", "fuzzy", server_matches={3})
    assert [h.candidate.id for h in with_hint.hits] == [3]
    assert with_hint.hits[0].matched_fields == ("body",)


async def test_final_score_is_the_max_of_shallow_and_deep_not_the_sum() -> None:
    docs = [Doc(1, "Budget", BASE), Doc(2, "Other", BASE)]
    source = DeepSource({1: "budget budget budget", 2: "budget"}, {})
    result = await run_search(spec_for(source), docs, "budget", "fuzzy")
    by_id = {h.candidate.id: h.score for h in result.hits}
    assert by_id[1] == 1.0
    assert by_id[2] == pytest.approx(0.64)  # a body-only hit stays below a perfect title hit (ADR 0041)


@pytest.mark.parametrize(
    "fatal",
    [
        AuthenticationError("token expired", status=401),
        ForbiddenError("no permission", status=403),
        RateLimitedError("slow down", retry_after_seconds=5),
    ],
)
async def test_401_403_429_abort_the_whole_search(fatal: OpenProjectMcpError) -> None:
    source = DeepSource({}, {55: fatal})
    with pytest.raises(type(fatal)):
        await run_search(spec_for(source), corpus(60), "budget", "fuzzy")


@pytest.mark.parametrize(
    "error", [UpstreamServerError("500"), NotFoundError("gone"), NetworkError("reset")], ids=["500", "404", "network"]
)
async def test_other_failures_degrade_one_record_and_are_counted(error: OpenProjectMcpError) -> None:
    docs = corpus(30)
    docs[-1] = Doc(30, "Budget approval", docs[-1].updated)
    source = DeepSource({}, {30: error, 29: UpstreamServerError("boom")})
    result = await run_search(spec_for(source), docs, "budget", "fuzzy")
    assert result.failures == 2
    assert [h.candidate.id for h in result.hits] == [30]  # still found on its shallow score


async def test_a_repeated_search_costs_no_enrichment_once_its_window_is_cached() -> None:
    caches = TenantCaches()
    cache: EnrichmentCache[str] = EnrichmentCache(caches, tenant_key("https://op.example/", "alice"), "body")
    docs = corpus(80)
    first = DeepSource({}, {})
    await run_search(spec_for(first, cache), docs, "budget", "fuzzy")
    second = DeepSource({}, {})
    result = await run_search(spec_for(second, cache), docs, "budget", "fuzzy")
    assert first.calls is not None and len(first.calls) == 25
    assert second.calls == []
    assert result.enriched == 25


async def test_a_repeat_of_a_search_that_found_nothing_reads_the_next_records_in_order() -> None:
    caches = TenantCaches()
    cache: EnrichmentCache[str] = EnrichmentCache(caches, "tenant:x", "body")
    docs = corpus(80)  # id 80 the newest
    bodies = {10: "We decided to use an escrow account."}
    reads: list[list[int]] = []
    results = []
    for _ in range(4):
        source = DeepSource(bodies, {})
        results.append(await run_search(spec_for(source, cache, reads_further=True), docs, "escrow", "fuzzy"))
        assert source.calls is not None
        reads.append(sorted(source.calls))
    # Each call that found nothing leaves the next 25 for the repeat; none is read twice.
    assert reads[:3] == [list(range(56, 81)), list(range(31, 56)), list(range(6, 31))]
    assert [[h.candidate.id for h in r.hits] for r in results] == [[], [], [10], [10]]
    assert [(r.enriched, r.unread, r.next_reads) for r in results[:2]] == [(25, 55, 25), (50, 30, 25)]
    assert results[2].next_reads == results[2].unread == 0
    # Once it answers, a repeat reads nothing: the cache holds what it found.
    assert reads[3] == []


async def test_a_repeat_reads_further_while_its_hits_match_only_part_of_the_query() -> None:
    caches = TenantCaches()
    cache: EnrichmentCache[str] = EnrichmentCache(caches, "tenant:x", "body")
    docs = corpus(80)
    bodies = {70: "The escrow account is open.", 40: "Escrow decision: we use an escrow account."}
    first = await run_search(
        spec_for(DeepSource(bodies, {}), cache, reads_further=True), docs, "escrow decision", "fuzzy"
    )
    # 70 holds one of the two words: an answer, but a partial one, so a repeat reads on.
    assert [h.candidate.id for h in first.hits] == [70] and first.next_reads == 25
    again = DeepSource(bodies, {})
    second = await run_search(spec_for(again, cache, reads_further=True), docs, "escrow decision", "fuzzy")
    assert again.calls is not None and sorted(again.calls) == list(range(31, 56))
    assert [h.candidate.id for h in second.hits][:1] == [40] and second.next_reads == 0
    # 40 matches the whole query: a repeat reads nothing more.
    last = DeepSource(bodies, {})
    third = await run_search(spec_for(last, cache, reads_further=True), docs, "escrow decision", "fuzzy")
    assert last.calls == [] and [h.candidate.id for h in third.hits] == [h.candidate.id for h in second.hits]


async def test_a_search_that_found_nothing_cold_reads_no_more_than_its_budget() -> None:
    caches = TenantCaches()
    cache: EnrichmentCache[str] = EnrichmentCache(caches, "tenant:x", "body")
    docs = corpus(80)
    source = DeepSource({}, {})
    result = await run_search(spec_for(source, cache, reads_further=True), docs, "escrow", "fuzzy")
    assert source.calls is not None and len(source.calls) == 25
    assert result.hits == () and result.next_reads == 25
    # Everything read: nothing is left for a repeat to read, and the answer does not offer it.
    for _ in range(3):
        result = await run_search(spec_for(DeepSource({}, {}), cache, reads_further=True), docs, "escrow", "fuzzy")
    last = DeepSource({}, {})
    result = await run_search(spec_for(last, cache, reads_further=True), docs, "escrow", "fuzzy")
    assert last.calls == [] and result.enriched == 80 and result.unread == result.next_reads == 0


async def test_a_search_whose_deep_content_the_server_searches_repeats_without_reading_further() -> None:
    caches = TenantCaches()
    cache: EnrichmentCache[str] = EnrichmentCache(caches, "tenant:x", "body")
    docs = corpus(80)
    await run_search(spec_for(DeepSource({}, {}), cache), docs, "escrow", "fuzzy")
    again = DeepSource({}, {})
    result = await run_search(spec_for(again, cache), docs, "escrow", "fuzzy")
    assert again.calls == [] and result.next_reads == 0 and result.enriched == 25


async def test_with_more_matches_than_the_budget_a_repeat_reads_the_next_ones() -> None:
    caches = TenantCaches()
    cache: EnrichmentCache[str] = EnrichmentCache(caches, "tenant:x", "body")
    docs = [Doc(i, f"Budget line {i}", BASE + timedelta(hours=i)) for i in range(1, 61)]
    bodies = dict.fromkeys(range(1, 61), "approved")
    first = DeepSource(bodies, {})
    once = await run_search(spec_for(first, cache), docs, "budget line", "fuzzy")
    second = DeepSource(bodies, {})
    twice = await run_search(spec_for(second, cache), docs, "budget line", "fuzzy")
    assert first.calls is not None and second.calls is not None
    assert len(first.calls) == len(second.calls) == 25
    assert not set(first.calls) & set(second.calls)
    assert once.enriched == 25 and twice.enriched == 50
    assert all(hit.score <= 1 for hit in twice.hits)


async def test_cached_content_beyond_the_window_is_used_for_free() -> None:
    caches = TenantCaches()
    cache: EnrichmentCache[str] = EnrichmentCache(caches, "tenant:x", "body")
    docs = corpus(40)
    cache.put(1, docs[0].updated.isoformat(), "the escrow decision")  # the oldest: never in the window
    source = DeepSource({}, {})
    result = await run_search(spec_for(source, cache), docs, "escrow", "fuzzy")
    assert [h.candidate.id for h in result.hits] == [1]
    assert source.calls is not None and 1 not in source.calls and len(source.calls) == 25


async def test_an_updated_record_is_fetched_again() -> None:
    caches = TenantCaches()
    cache: EnrichmentCache[str] = EnrichmentCache(caches, "tenant:x", "body")
    docs = corpus(3)
    await run_search(spec_for(DeepSource({}, {}), cache), docs, "budget", "fuzzy")
    edited = [Doc(3, docs[2].title, docs[2].updated + timedelta(minutes=1)), *docs[:2]]
    again = DeepSource({}, {})
    await run_search(spec_for(again, cache), edited, "budget", "fuzzy")
    assert again.calls == [3]


async def test_tenants_never_share_cache_entries() -> None:
    caches = TenantCaches()
    alice: EnrichmentCache[str] = EnrichmentCache(caches, tenant_key("https://op.example/", "alice"), "body")
    bob: EnrichmentCache[str] = EnrichmentCache(caches, tenant_key("https://op.example/", "bob"), "body")
    docs = corpus(10)
    await run_search(spec_for(DeepSource({7: "secret escrow"}, {}), alice), docs, "escrow", "fuzzy")
    bobs_source = DeepSource({}, {})
    result = await run_search(spec_for(bobs_source, bob), docs, "escrow", "fuzzy")
    assert bobs_source.calls is not None and sorted(bobs_source.calls) == list(range(1, 11))
    assert result.hits == ()
    assert all("alice" not in key[0] and "bob" not in key[0] for key in caches.enrichment.keys_snapshot())


def test_the_enrichment_cache_answers_many_records_as_one_look_up_each_would() -> None:
    now = [0.0]
    caches = TenantCaches(CacheSettings(enrichment_ttl_seconds=5.0), clock=lambda: now[0])
    alice: EnrichmentCache[str] = EnrichmentCache(caches, tenant_key("https://op.example/", "alice"), "body")
    bob: EnrichmentCache[str] = EnrichmentCache(caches, tenant_key("https://op.example/", "bob"), "body")
    alice.put(1, "v1", "first")
    alice.put(2, "v1", "second")
    now[0] = 4.0
    alice.put(3, "v1", "third")
    asked = [(3, "v1"), (1, "v2"), (1, "v1"), (4, "v1"), (2, "v1")]
    assert alice.get_many(asked) == [alice.get(*item) for item in asked] == ["third", None, "first", None, "second"]
    assert bob.get_many(asked) == [None] * len(asked)
    now[0] = 6.0  # the first two expired, the third has not
    assert alice.get_many([(1, "v1"), (2, "v1"), (3, "v1")]) == [None, None, "third"]


async def test_progress_is_reported_with_absolute_counts() -> None:
    seen: list[tuple[float, float | None]] = []

    async def progress(done: float, total: float | None, message: str | None) -> None:
        seen.append((done, total))

    await run_search(spec_for(DeepSource({}, {})), corpus(5), "x budget", "fuzzy", progress=progress)
    assert seen[0] == (0, 5) and seen[-1] == (5, 5)
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)


async def test_a_zero_budget_reads_nothing() -> None:
    source = DeepSource({}, {})
    result = await run_search(spec_for(source), corpus(5), "budget", "fuzzy", settings=PipelineSettings(0, 1))
    assert source.calls == [] and result.enriched == 0


# ------------------------------------------------------------------------ one scoring per text


@dataclass
class CountingTokens:
    """A token store that remembers nothing and counts how often each text was asked for."""

    asked: dict[str, int]

    def get(self, text: str) -> tuple[str, ...] | None:
        self.asked[text] = self.asked.get(text, 0) + 1
        return None

    def put(self, text: str, values: object) -> None:
        pass

    def get_many(self, texts: Sequence[str]) -> list[tuple[str, ...] | None]:
        return [self.get(text) for text in texts]

    def put_many(self, entries: object) -> None:
        pass

    def get_corpus(self, texts: object) -> None:
        return None

    def put_corpus(self, texts: object, corpus: object) -> None:
        pass


@dataclass(frozen=True)
class Ticket:
    id: int
    subject: str
    description: str
    updated: datetime


TICKET_SHALLOW: tuple[Field[Ticket], ...] = (
    Field("subject", 3.0, lambda t: t.subject),
    Field("description", 1.0, lambda t: t.description),
)


def ticket_spec(source: dict[int, str], tokens: Any) -> SearchSpec[Ticket, str]:
    async def fetch(ticket: Ticket) -> str:
        return source.get(ticket.id, "")

    lifted: list[Field[Enriched[Ticket, str]]] = [lift(field) for field in TICKET_SHALLOW]
    full: tuple[Field[Enriched[Ticket, str]], ...] = (*lifted, Field("comments", 1.0, lambda e: e.deep))
    return SearchSpec(
        shallow_fields=TICKET_SHALLOW,
        full_fields=full,
        key=lambda t: t.id,
        version=lambda t: t.updated.isoformat(),
        recency=lambda t: t.updated,
        enrich=fetch,
        tokens=tokens,
    )


def tickets(n: int) -> list[Ticket]:
    return [
        Ticket(i, f"Ticket {i} about budget approval" if i % 7 == 0 else f"Ticket {i}", f"Body {i % 5}", BASE)
        for i in range(1, n + 1)
    ]


async def test_a_search_tokenises_and_matches_every_text_once() -> None:
    # The descriptions are ranked in phase 1 and again, with the comments, in the final ranking.
    comments = {i: f"comment {i} on the budget" for i in range(1, 61)}
    counting = CountingTokens({})
    result = await run_search(ticket_spec(comments, counting), tickets(60), "budget approval", "fuzzy")
    assert result.hits
    assert counting.asked and max(counting.asked.values()) == 1
    # Matched (each once): the subjects holding the words, and every comment read (all say "budget").
    subjects = {t.subject for t in tickets(60) if "budget" in t.subject}
    assert result.enriched == 25
    assert result.texts_matched == len(subjects) + result.enriched


async def test_the_token_cache_changes_nothing_but_the_work() -> None:
    caches = TenantCaches()
    cache: EnrichmentCache[str] = EnrichmentCache(caches, tenant_key("https://op.example", "t"), "comments")
    comments = {i: f"comment {i}: the approvals for the budget are late. " * 6 for i in range(1, 61)}
    for query in ("budget approval", "budgt aproval", "approvals", "ticket 14", "the", "late budget comment"):
        plain = await run_search(ticket_spec(comments, None), tickets(60), query, "fuzzy")
        cold = await run_search(ticket_spec(comments, cache.token_store()), tickets(60), query, "fuzzy")
        warm = await run_search(ticket_spec(comments, cache.token_store()), tickets(60), query, "fuzzy")
        assert plain.hits == cold.hits == warm.hits, query
        assert plain.unmatched_terms == cold.unmatched_terms == warm.unmatched_terms
    assert len(caches.tokens) > 0


def test_the_token_cache_keeps_texts_per_tenant_and_short_ones_too() -> None:
    caches = TenantCaches()
    first, second = TokenCache(caches, "tenant:a"), TokenCache(caches, "tenant:b")
    first.put("Budget approval", ["budget", "approval"])
    # Another string object with the same content finds the entry (a fresh answer of the API).
    assert first.get("".join(["Budget ", "approval"])) == ("budget", "approval")
    assert second.get("Budget approval") is None
    assert first.get("Budget approvals") is None


def test_the_token_cache_holds_a_bounded_number_of_token_values() -> None:
    caches = TenantCaches(CacheSettings(token_entries=100, token_values=10))
    store = TokenCache(caches, "tenant:a")
    store.put("one two three four", ["one", "two", "three", "four"])
    store.put("five six seven", ["five", "six", "seven"])
    store.put("eight nine ten eleven", ["eight", "nine", "ten", "eleven"])
    assert caches.tokens.weight <= 10
    # The least recently used text went first; the newest stays.
    assert store.get("one two three four") is None
    assert store.get("eight nine ten eleven") == ("eight", "nine", "ten", "eleven")
    # One text over the whole budget is still kept alone rather than dropped at once.
    store.put("a b c d e f g h i j k l", list("abcdefghijkl"))
    assert len(caches.tokens) == 1 and caches.tokens.weight == 12


def test_a_weighted_cache_forgets_the_weight_of_what_it_replaces_drops_or_expires() -> None:
    now = [0.0]
    cache: TtlLruCache[str, str] = TtlLruCache(10, 5.0, lambda: now[0], weigh=len, max_weight=100)
    cache.put("a", "xxxx")
    cache.put("a", "yy")
    assert cache.weight == 2
    cache.put("b", "zzz")
    assert cache.discard_where(lambda key: key == "a") == 1
    assert cache.weight == 3
    now[0] = 10.0
    assert cache.get("b") is None
    assert cache.weight == 0 and len(cache) == 0
    with pytest.raises(ValueError, match="go together"):
        TtlLruCache(10, 5.0, weigh=len)


def test_the_batch_forms_of_a_cache_answer_and_evict_as_one_call_per_key_would() -> None:
    now = [0.0]
    cache: TtlLruCache[str, str] = TtlLruCache(3, 5.0, lambda: now[0], weigh=len, max_weight=8)
    cache.put_many([("a", "xx"), ("b", "yy"), ("c", "zz")])
    now[0] = 1.0
    assert cache.get_many(["a", "missing", "c"]) == ["xx", None, "zz"]
    # "b" is now the least recently used: the next entry evicts it, not "a".
    cache.put_many([("d", "ww")])
    assert cache.keys_snapshot() == ["a", "c", "d"]
    # Past the weight bound the oldest go first, within one batch as well.
    cache.put_many([("e", "vvvv"), ("a", "u")])
    assert cache.keys_snapshot() == ["d", "e", "a"] and cache.weight == 7
    now[0] = 7.0
    cache.put("f", "t")
    assert cache.get_many(["d", "e", "f"]) == [None, None, "t"]
    # "d" made room for "f"; "e" expired and went when read; "a" has expired but is unread yet.
    assert cache.keys_snapshot() == ["a", "f"] and cache.weight == 2
    caches = TenantCaches()
    store = TokenCache(caches, "tenant:a")
    store.put_many([("one two", ["one", "two"])])
    assert store.get_many(["one two", "three"]) == [("one", "two"), None]
    assert TokenCache(caches, "tenant:b").get_many(["one two"]) == [None]


def test_the_token_cache_keeps_corpora_per_tenant_and_within_their_weight() -> None:
    caches = TenantCaches(CacheSettings(corpus_weight=20))
    first, second = TokenCache(caches, "tenant:a"), TokenCache(caches, "tenant:b")
    texts = frozenset({"one two", "two three"})
    values = {"one two": ("one", "two"), "two three": ("two", "three")}
    corpus = Corpus(values, frozenset({"one", "two", "three"}), " one two three ")
    first.put_corpus(texts, corpus)
    assert first.get_corpus(frozenset({"two three", "one two"})) is corpus
    assert second.get_corpus(texts) is None
    assert first.get_corpus(frozenset({"one two"})) is None
    # Weighed by its token values and four per distinct token (4 + 12): the next corpus of
    # weight 9 passes the bound of 20 and evicts it, the one after fits beside that one.
    assert caches.corpora.weight == 16
    first.put_corpus(frozenset({"a"}), Corpus({"a": ("a",) * 5}, frozenset({"a"}), " a "))
    assert first.get_corpus(texts) is None
    first.put_corpus(frozenset({"b"}), Corpus({"b": ("b",) * 5}, frozenset({"b"}), " b "))
    assert first.get_corpus(frozenset({"a"})) is not None and first.get_corpus(frozenset({"b"})) is not None
    assert caches.corpora.weight == 18


def test_the_token_cache_holds_its_bounds_when_several_threads_use_it_at_once() -> None:
    caches = TenantCaches(CacheSettings(token_entries=50, token_values=400))
    store = TokenCache(caches, "tenant:a")
    failures: list[BaseException] = []

    def churn(offset: int) -> None:
        try:
            for i in range(3000):
                text = f"text {offset + i % 120}"
                if store.get(text) is None:
                    store.put(text, ["text", str(offset + i % 120)] * 3)
        except BaseException as exc:  # pragma: no cover - what the test is looking for
            failures.append(exc)

    threads = [threading.Thread(target=churn, args=(n * 60,)) for n in range(4)]
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads as often as the interpreter can
    try:
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(interval)
    assert failures == []
    assert len(caches.tokens) <= 50
    assert caches.tokens.weight == sum(len(store.get(key[1]) or ()) for key in caches.tokens.keys_snapshot())
    assert caches.tokens.weight <= 400


async def test_a_record_whose_read_failed_is_not_read_again_in_the_same_search() -> None:
    caches = TenantCaches()
    cache: EnrichmentCache[str] = EnrichmentCache(caches, "tenant:x", "body")
    docs = corpus(60)
    await run_search(spec_for(DeepSource({}, {}), cache, reads_further=True), docs, "escrow", "fuzzy")
    failing = DeepSource({}, {30: NetworkError("down")})
    result = await run_search(spec_for(failing, cache, reads_further=True), docs, "escrow", "fuzzy")
    assert failing.calls is not None and sorted(failing.calls) == list(range(11, 36))
    assert result.failures == 1
    # The next repeat tries the failed one again, with the ten not read yet.
    again = DeepSource({}, {})
    await run_search(spec_for(again, cache, reads_further=True), docs, "escrow", "fuzzy")
    assert again.calls is not None and sorted(again.calls) == [*range(1, 11), 30]


async def test_without_a_cache_a_search_promises_no_further_reads() -> None:
    result = await run_search(spec_for(DeepSource({}, {}), None, reads_further=True), corpus(60), "escrow", "fuzzy")
    assert result.next_reads == result.unread == 0
