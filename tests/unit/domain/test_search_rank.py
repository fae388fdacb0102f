"""rank_records: weights on one scale, record-level coverage, the gate, modes, order, matches."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import pytest

from openproject_mcp.domain.search import (
    DEFAULT_MIN_SCORE,
    STEM_SCORE,
    Corpus,
    Field,
    FieldMatch,
    ItemMatch,
    Ranked,
    field_ratio,
    rank_records,
    score_token,
    snippet,
)
from openproject_mcp.domain.search.score import vocabulary_hits


@dataclass(frozen=True)
class Doc:
    id: int
    title: str
    body: str | None = None
    tags: tuple[str, ...] | None = None
    author: str | None = None


FIELDS: tuple[Field[Doc], ...] = (
    Field("title", 3.0, lambda d: d.title),
    Field("body", 1.0, lambda d: d.body),
    Field("tags", 0.5, lambda d: d.tags),
)

DOCS = (
    Doc(1, "Budget approval", body="Nothing relevant here"),
    Doc(2, "Weekly sync", body="We discussed the budget approval process at length"),
    Doc(3, "Retrospective", body="No overlap", tags=("budget",)),
    Doc(4, "Unrelated", body="Completely different subject matter"),
)


def rank(
    query: str, docs: Sequence[Doc] = DOCS, fields: Sequence[Field[Doc]] = FIELDS, **options: Any
) -> list[Ranked[Doc]]:
    return rank_records(docs, query, fields, key=lambda d: d.id, **options)


def ids(results: list[Ranked[Doc]]) -> list[int]:
    return [result.record.id for result in results]


# ------------------------------------------------------------------------ the seed's ranking table


def test_a_title_match_ranks_above_a_body_match() -> None:
    assert ids(rank("budget approval"))[:2] == [1, 2]


def test_records_below_the_gate_are_left_out() -> None:
    assert 4 not in ids(rank("budget approval"))


@pytest.mark.parametrize("query", ["budgt aproval", "approval budget", "Budget Approval", "BUDGET approvals"])
def test_typos_order_and_case_do_not_hide_the_title_match(query: str) -> None:
    assert ids(rank(query))[0] == 1


def test_matches_name_the_fields_with_snippets() -> None:
    second = next(result for result in rank("budget approval") if result.record.id == 2)
    assert second.matched_fields == ("body",)
    assert second.matches[0].snippet == "We discussed the budget approval process at length"


def test_list_valued_fields_are_searched() -> None:
    assert 3 in ids(rank("budget"))


def test_ties_break_by_ascending_key() -> None:
    tied = (Doc(9, "Budget"), Doc(4, "Budget"), Doc(7, "Budget"))
    assert ids(rank("budget", tied)) == [4, 7, 9]


def test_the_limit_applies_after_sorting() -> None:
    results = rank("budget", tuple(reversed(DOCS)), limit=1)
    assert ids(results) == [1]
    assert rank("budget", limit=0) == []


def test_exact_mode_matches_only_literal_substrings() -> None:
    assert sorted(ids(rank("budget approval", mode="exact"))) == [1, 2]


def test_exact_mode_finds_nothing_for_a_typo() -> None:
    assert rank("budgt aproval", mode="exact") == []


def test_exact_mode_keeps_low_weight_hits_under_the_fuzzy_gate() -> None:
    light = (*FIELDS[:2], Field("tags", 0.25, lambda d: d.tags))
    results = rank("budget", fields=light, mode="exact")
    tag_hit = next(result for result in results if result.record.id == 3)
    # 0.25 on a scale of 3, saturated (ADR 0041): 0.25 * 4.2 / (3 * 1.45) = 0.241.
    assert tag_hit.score == pytest.approx(0.24)
    assert tag_hit.score < DEFAULT_MIN_SCORE


@pytest.mark.parametrize("query", ["", "   ", "\n\t"])
def test_a_blank_query_returns_every_record_unscored_by_key(query: str) -> None:
    results = rank(query, tuple(reversed(DOCS)))
    assert ids(results) == [1, 2, 3, 4]
    assert all(result.score == 0.0 and result.matches == () for result in results)
    assert ids(rank(query, DOCS, limit=2)) == [1, 2]


@pytest.mark.parametrize(("query", "expected"), [("bu", []), ("B", []), (" q3 ", [5]), ("us", [6])])
def test_a_query_under_three_characters_matches_whole_words_only(query: str, expected: list[int]) -> None:
    docs = (*DOCS, Doc(5, "Approval of Q3 budget"), Doc(6, "About us"))
    results = rank(query, docs)
    assert ids(results) == expected
    assert all(match.score == 1.0 for result in results for match in result.matches)


@pytest.mark.parametrize("query", ["the", "a", "of the"])
def test_a_stopword_only_query_matches_whole_words_only(query: str) -> None:
    docs = (
        Doc(1, "There and then"),  # "the" is a prefix here, never a word
        Doc(2, "Approval of the budget"),
        Doc(3, "Hiring plan"),
        Doc(4, "A plan"),
    )
    words = set(query.split())
    for result in rank(query, docs):
        assert words & set(result.record.title.lower().split())
    assert 1 not in ids(rank(query, docs)) and 3 not in ids(rank(query, docs))


def test_a_stopword_only_query_ranks_by_phrase() -> None:
    docs = (Doc(1, "be quick or not, to be fair"), Doc(2, "to be or not to be"), Doc(3, "not to be missed"))
    assert ids(rank("to be or not to be", docs))[0] == 2


def test_a_query_without_letters_or_digits_uses_containment() -> None:
    docs = (Doc(1, "Why?!? nobody knows"), Doc(2, "Plain title"))
    assert ids(rank("?!?", docs)) == [1]


# ------------------------------------------------------------------------ one weight scale


def test_a_deep_only_hit_scores_below_a_perfect_title_hit_on_the_shared_scale() -> None:
    shallow: tuple[Field[Doc], ...] = (Field("title", 3.0, lambda d: d.title),)
    deep: tuple[Field[Doc], ...] = (Field("body", 1.5, lambda d: d.body),)
    scale = max(f.weight for f in (*shallow, *deep))
    title_hit = rank("glossary", (Doc(1, "Glossary"),), shallow, weight_scale=scale)
    body_hit = rank("flamegraph", (Doc(2, "Profiling", body="Read the flamegraph"),), deep, weight_scale=scale)
    assert title_hit[0].score == 1.0
    # 1.5 on a scale of 3, saturated (ADR 0041): 1.5 * 4.2 / (3 * 2.7) = 0.778.
    assert body_hit[0].score == 0.78
    # Normalised against its own fields only, the deep hit would have tied the title hit.
    assert rank("flamegraph", (Doc(2, "Profiling", body="Read the flamegraph"),), deep)[0].score == 1.0


def test_the_default_scale_is_the_highest_declared_weight() -> None:
    (result,) = rank("overlap", (Doc(1, "x", body="overlap"),))
    assert result.score == round(field_ratio(1.0, 3.0), 2) == 0.64


def test_a_strong_body_only_match_passes_the_gate_below_title_matches() -> None:
    docs = (Doc(1, "Pgbouncer pool sizing"), Doc(2, "Database tuning", body="We moved pgbouncer to transaction mode"))
    light_body: tuple[Field[Doc], ...] = (FIELDS[0], Field("body", 0.25, lambda d: d.body))
    results = rank("pgbouncer", docs, light_body)
    assert ids(results) == [1, 2]
    assert results[1].score < DEFAULT_MIN_SCORE  # gated on the unweighted body score, not this


def test_the_gate_is_the_min_score_option() -> None:
    # Doc 3 holds one of the two words (a tag "budget"): 0.25, under the default gate only.
    assert ids(rank("budget approval")) == [1, 2]
    assert ids(rank("budget approval", min_score=0.0)) == [1, 2, 3]
    assert rank("budget approval", min_score=1.01) == []


# ------------------------------------------------------------------------ record-level coverage

PEOPLE: tuple[Field[Doc], ...] = (
    Field("title", 3.0, lambda d: d.title),
    Field("author", 0.5, lambda d: d.author),
)


def test_a_person_and_a_topic_in_different_fields_outrank_either_alone() -> None:
    docs = (
        Doc(1, "Budget review", author="Ben Carter"),  # the topic only
        Doc(2, "Team offsite", author="Anna Müller"),  # the person only
        Doc(3, "Budget review", author="Anna Müller"),  # both, in two fields
    )
    results = rank("Müller's budget review", docs, PEOPLE)
    assert ids(results) == [3, 1]
    assert results[0].score > results[1].score
    assert results[0].matched_fields == ("title", "author")


def test_coverage_across_fields_can_lift_a_record_over_the_gate() -> None:
    # Each field covers one of three words (under the gate); together they cover two.
    docs = (Doc(1, "Budget", author="Anna Keller"), Doc(2, "Offsite review", author="Ben"))
    assert 1 in ids(rank("keller budget review", docs, PEOPLE))
    # With "keller" held by another candidate only, "budget" alone is a third: gated out.
    others = (Doc(1, "Budget", author="Ben"), Doc(2, "Offsite review", author="Anna Keller"))
    assert 1 not in ids(rank("keller budget review", others, PEOPLE))


def test_record_coverage_uses_the_weight_scale() -> None:
    (result,) = rank("keller budget", (Doc(1, "Budget", author="Anna Keller"),), PEOPLE)
    assert result.score == round((1.0 + field_ratio(0.5, 3.0)) / 2, 2) == 0.71


def test_the_per_field_phrase_bonus_survives_record_coverage() -> None:
    docs = (Doc(1, "Approval of the budget, then q3"), Doc(2, "Budget approv"))
    # "budgt approval": doc 2 holds the phrase (with a typo and a prefix) and earns the bonus.
    assert ids(rank("budgt approval", docs))[0] == 2


# ------------------------------------------------------------------------ matches and items


def test_matches_are_ordered_by_weighted_score_then_declaration() -> None:
    fields: tuple[Field[Doc], ...] = (
        Field("tags", 1.0, lambda d: d.tags),
        Field("body", 1.0, lambda d: d.body),
        Field("title", 3.0, lambda d: d.title),
    )
    (result,) = rank("budget", (Doc(1, "Budget", body="budget", tags=("budget",)),), fields)
    assert result.matched_fields == ("title", "tags", "body")


def test_list_fields_report_every_matching_element_best_first() -> None:
    doc = Doc(1, "Weekly sync", tags=("hiring", "budgets approved", "budget", "misc", "budget"))
    (result,) = rank("budget", (doc,))
    (match,) = result.matches
    assert (match.field, match.score, match.snippet) == ("tags", 1.0, "budget")
    assert [(item.index, item.snippet) for item in match.items] == [
        (2, "budget"),
        (4, "budget"),
        (1, "budgets approved"),
    ]
    assert [item.score for item in match.items] == pytest.approx([1.0, 1.0, STEM_SCORE])


def test_exact_mode_reports_list_items_too() -> None:
    doc = Doc(1, "Sync", tags=("Budget review", "misc", "the BUDGET"))
    (result,) = rank("budget", (doc,), mode="exact")
    assert result.matches == (
        FieldMatch("tags", 1.0, "Budget review", (ItemMatch(0, 1.0, "Budget review"), ItemMatch(2, 1.0, "the BUDGET"))),
    )


def test_field_scores_keep_full_precision() -> None:
    (result,) = rank("approvl", (Doc(1, "Approval"),))
    assert result.matches[0].score == pytest.approx(1 - 1 / 7 * 0.6)
    assert result.score == round(1 - 1 / 7 * 0.6, 2)


def test_string_fields_have_no_items() -> None:
    (result,) = rank("approval", (DOCS[0],))
    assert result.matches[0].items == ()


def test_a_field_snippet_centres_on_its_matched_words() -> None:
    body = "Intro. " + "filler words here. " * 20 + "The hiring freeze was confirmed. " + "more filler. " * 10
    (result,) = rank("hiring freeze", (Doc(1, "Weekly sync", body=body),))
    offset = body.index("hiring")
    assert result.matches[0].snippet == snippet(body, [offset])
    assert "hiring freeze" in (result.matches[0].snippet or "")


def test_an_exact_mode_snippet_is_anchored_on_the_original_offset() -> None:
    body = "ﬁﬁﬁ Straße — " * 30 + "the Idempotency-Key header" + " tail" * 40
    (result,) = rank("idempotency-key", (Doc(1, "API", body=body),), mode="exact")
    assert result.matches[0].snippet == snippet(body, [body.index("Idempotency-Key")])


# ------------------------------------------------------------------------ scores and order


def test_scores_are_rounded_to_two_decimals_and_bounded() -> None:
    docs = tuple(Doc(i, title) for i, title in enumerate(["Budgets", "Budget approvl", "Budgeting", "xbudgetx"]))
    for result in rank("budget approval", docs, min_score=0.0):
        assert 0.0 <= result.score <= 1.0
        assert result.score == round(result.score, 2)


def test_order_does_not_depend_on_input_order() -> None:
    forwards = rank("budget", DOCS)
    backwards = rank("budget", tuple(reversed(DOCS)))
    assert forwards == backwards


def test_records_are_consumed_from_any_iterable() -> None:
    assert ids(rank_records(iter(DOCS), "budget", FIELDS, key=lambda d: d.id))[0] == 1


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"limit": -1}, "limit"),
        ({"mode": "regex"}, "mode"),
        ({"weight_scale": 0.0}, "scale"),
    ],
)
def test_invalid_options_are_refused(options: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        rank("budget", **options)


def test_a_negative_weight_is_refused() -> None:
    with pytest.raises(ValueError, match="negative"):
        rank("budget", fields=(Field("title", -1.0, lambda d: d.title),))


class BatchStore:
    """Token values kept in a dict; counts the calls, so a test sees texts asked for in batches."""

    def __init__(self) -> None:
        self.values: dict[str, Sequence[str]] = {}
        self.corpora: dict[frozenset[str], Corpus] = {}
        self.calls: list[str] = []

    def get(self, text: str) -> Sequence[str] | None:
        self.calls.append("get")
        return self.values.get(text)

    def put(self, text: str, values: Sequence[str]) -> None:
        self.calls.append("put")
        self.values[text] = values

    def get_many(self, texts: Sequence[str]) -> list[Sequence[str] | None]:
        self.calls.append(f"get_many:{len(texts)}")
        return [self.values.get(text) for text in texts]

    def put_many(self, entries: Sequence[tuple[str, Sequence[str]]]) -> None:
        self.calls.append(f"put_many:{len(entries)}")
        self.values.update(entries)

    def get_corpus(self, texts: frozenset[str]) -> Corpus | None:
        self.calls.append(f"get_corpus:{len(texts)}")
        return self.corpora.get(texts)

    def put_corpus(self, texts: frozenset[str], corpus: Corpus) -> None:
        self.calls.append(f"put_corpus:{len(texts)}")
        self.corpora[texts] = corpus


def test_a_ranking_asks_its_store_once_for_its_texts_and_puts_what_it_tokenised_once() -> None:
    from openproject_mcp.domain.search import QueryScorer

    store = BatchStore()
    first = QueryScorer("budget approval", store=store).rank(DOCS, FIELDS, key=lambda d: d.id)
    texts = {text for doc in DOCS for text in (doc.title, doc.body, *(doc.tags or ())) if text}
    assert store.calls == [f"get_many:{len(texts)}", f"put_many:{len(texts)}"]
    assert set(store.values) == texts

    store.calls.clear()
    again = QueryScorer("budget approval", store=store).rank(DOCS, FIELDS, key=lambda d: d.id)
    assert store.calls == [f"get_many:{len(texts)}"]
    assert again == first


# Enough texts for a ranking to keep them as one corpus (``CORPUS_TEXTS``), in two languages.
MANY_DOCS = tuple(
    Doc(
        number,
        f"Ticket {number}: {subject}",
        body=f"{body} (note {number})",
    )
    for number, (subject, body) in enumerate(
        [
            ("Budget approval for the fair", "The board approved the budget; the decision was unanimous."),
            ("Hiring freeze", "We reached a decision on the hiring freeze after the review."),
            ("Straße closed", "Die Straße vor dem Büro von Herrn Müller ist gesperrt."),
            ("Migrate the mail server", "Migration of e-mail to the new host, max_connections raised."),
            ("Deployment failed", "The deployment failure came from a stale certificate."),
        ]
        * 4,
        start=1,
    )
)


def test_a_ranking_keeps_its_texts_as_one_corpus_that_a_later_search_learns_at_once() -> None:
    from openproject_mcp.domain.search import QueryScorer
    from openproject_mcp.domain.search.rank import CORPUS_TEXTS

    texts = list(dict.fromkeys(text for doc in MANY_DOCS for text in (doc.title, doc.body) if text))
    assert len(texts) >= CORPUS_TEXTS
    store = BatchStore()
    first = QueryScorer("budget decision", store=store).rank(MANY_DOCS, FIELDS, key=lambda d: d.id)
    count = len(texts)
    assert store.calls == [f"get_corpus:{count}", f"get_many:{count}", f"put_many:{count}", f"put_corpus:{count}"]
    (corpus,) = store.corpora.values()
    assert corpus.tokens == frozenset().union(*(store.values[text] for text in texts))
    # Another query over the same texts: one question to the store, no text read one by one.
    for query in ("budget decision", "decide hiring", "strasse mueller", "maxConnections email", "deploy fail"):
        store.calls.clear()
        kept = QueryScorer(query, store=store).rank(MANY_DOCS, FIELDS, key=lambda d: d.id)
        assert store.calls == [f"get_corpus:{count}"], query
        assert kept == QueryScorer(query).rank(MANY_DOCS, FIELDS, key=lambda d: d.id), query
    store.calls.clear()
    assert QueryScorer("budget decision", store=store).rank(MANY_DOCS, FIELDS, key=lambda d: d.id) == first
    # The word forms the searches looked up are remembered with the corpus, only for its tokens.
    assert corpus.stems and set(corpus.stems) <= corpus.tokens
    # So are its tokens by length, for the typo candidates' scan: every token, once.
    assert sorted(" ".join(corpus.lengths.values()).split()) == sorted(corpus.tokens)
    # And each query word's hits among its tokens, exactly as a lexicon of them gives them.
    assert ("mueller", True) in corpus.hits
    for (word, weak), hits in corpus.hits.items():
        assert hits == vocabulary_hits(word, corpus.tokens, weak=weak), word


def test_a_corpus_remembers_a_bounded_number_of_query_words() -> None:
    from openproject_mcp.domain.search import QueryScorer
    from openproject_mcp.domain.search.rank import CORPUS_WORDS

    store = BatchStore()
    words = [f"word{letter}{other}" for letter in "abcdefghij" for other in "klmnopqr"]
    assert len(words) > CORPUS_WORDS
    for word in words:
        QueryScorer(word, store=store).rank(MANY_DOCS, FIELDS, key=lambda d: d.id)
        (corpus,) = store.corpora.values()
        assert 0 < len(corpus.hits) <= CORPUS_WORDS
        assert sum(map(len, corpus.hits.values())) <= len(corpus.tokens)
    # A short word hits many tokens: what is remembered stays within the corpus's size.
    for word in ("the", "tion", "ment", "ing", "mig", "dec"):
        QueryScorer(f"{word}x {word}", store=store).rank(MANY_DOCS, FIELDS, key=lambda d: d.id)
        assert sum(map(len, corpus.hits.values())) <= len(corpus.tokens)
    # Remembered or not, a word ranks as it does with nothing kept.
    for query in ("budgt decison", "hiring", "worda"):
        expected = QueryScorer(query).rank(MANY_DOCS, FIELDS, key=lambda d: d.id)
        assert QueryScorer(query, store=store).rank(MANY_DOCS, FIELDS, key=lambda d: d.id) == expected
        assert QueryScorer(query, store=store).rank(MANY_DOCS, FIELDS, key=lambda d: d.id) == expected


def test_a_ranking_of_a_few_texts_keeps_no_corpus() -> None:
    from openproject_mcp.domain.search import QueryScorer

    store = BatchStore()
    QueryScorer("budget approval", store=store).rank(DOCS, FIELDS, key=lambda d: d.id)
    assert store.corpora == {}
    assert not any(call.startswith(("get_corpus", "put_corpus")) for call in store.calls)


def test_a_corpus_serves_exactly_its_texts_in_any_order() -> None:
    from openproject_mcp.domain.search import QueryScorer

    store = BatchStore()
    QueryScorer("budget", store=store).rank(MANY_DOCS, FIELDS, key=lambda d: d.id)
    # The same records in another order hold the same texts: the corpus serves them.
    store.calls.clear()
    reordered = tuple(reversed(MANY_DOCS))
    ranked = QueryScorer("budget", store=store).rank(reordered, FIELDS, key=lambda d: d.id)
    assert ranked == QueryScorer("budget").rank(reordered, FIELDS, key=lambda d: d.id)
    assert [call.split(":")[0] for call in store.calls] == ["get_corpus"]
    # One record fewer is another set of texts, and another corpus.
    fewer = MANY_DOCS[:-1]
    ranked = QueryScorer("budget", store=store).rank(fewer, FIELDS, key=lambda d: d.id)
    assert ranked == QueryScorer("budget").rank(fewer, FIELDS, key=lambda d: d.id)
    assert len(store.corpora) == 2


def test_a_later_ranking_that_makes_a_word_verbatim_keeps_the_earlier_matches_and_drops_their_typos() -> None:
    from openproject_mcp.domain.search import QueryScorer

    field: Field[str] = Field("text", 1.0, lambda text: text)

    def twice(query: str, first: list[str], second: list[str]) -> list[tuple[str, float]]:
        scorer = QueryScorer(query)
        scorer.rank(first, [field], key=first.index)
        return [(hit.record, hit.score) for hit in scorer.rank(second, [field], key=second.index).hits]

    def fresh(query: str, texts: list[str]) -> list[tuple[str, float]]:
        return [(hit.record, hit.score) for hit in QueryScorer(query).rank(texts, [field], key=texts.index).hits]

    # "report" becomes a word of the search only in its second ranking: the terms present
    # verbatim change, and what the first ranking matched still counts, on the new terms.
    assert twice("budget report", ["budget summary"], ["budget summary", "report"]) == fresh(
        "budget report", ["budget summary", "report"]
    )
    assert "budget summary" in dict(twice("budget report", ["budget summary"], ["budget summary", "report"]))
    # A typo matched first ("budgit") no longer counts once "budget" itself is among the texts.
    assert twice("budget", ["budgit plan"], ["budgit plan", "budget"]) == fresh("budget", ["budgit plan", "budget"])


def test_unknown_takes_known_texts_from_the_store_in_one_batch() -> None:
    from openproject_mcp.domain.search import QueryScorer

    store = BatchStore()
    store.values["kept text"] = ("kept", "text")
    scorer = QueryScorer("kept", store=store)
    assert scorer.unknown(["kept text", "new text", "other text", "kept text", "new text"]) == {
        "new text",
        "other text",
    }
    assert store.calls == ["get_many:3"]
    # Asked again, no text goes back to the store: one is held, the others known absent.
    assert scorer.unknown(["other text", "kept text", "new text"]) == {"other text", "new text"}
    assert scorer.knows("new text") is False
    assert scorer.knows("kept text") is True
    assert store.calls == ["get_many:3"]
    # A text the store was not asked about yet is asked about alone, beside those known absent.
    store.values["late text"] = ("late", "text")
    assert scorer.unknown(["new text", "late text", "fresh text"]) == {"new text", "fresh text"}
    assert store.calls == ["get_many:3", "get_many:2"]
    assert QueryScorer("kept").unknown(["kept text", "kept text"]) == {"kept text"}
    field: Field[str] = Field("text", 1.0, lambda text: text)
    hits = scorer.rank(["kept text", "new text"], [field], key=len).hits
    assert [hit.record for hit in hits] == ["kept text"]
    assert store.calls == ["get_many:3", "get_many:2", "put_many:1"]


@pytest.mark.parametrize(
    ("query", "word", "other"), [("cod", "cod", "code"), ("pin", "pin", "pine"), ("code", "code", "cod")]
)
def test_a_three_letter_word_and_it_with_an_e_are_two_words_not_two_forms(query: str, word: str, other: str) -> None:
    # Dropping the final "e" gives both one stem key; present verbatim, the query word keeps only
    # its own forms, and the other word is no form of it.
    docs = (Doc(1, f"Frozen {word} supplier"), Doc(2, f"The {other} review"))
    assert ids(rank(query, docs)) == [1]
    assert score_token(query, other) < STEM_SCORE


def test_a_three_letter_word_still_meets_its_own_forms() -> None:
    assert score_token("fix", "fixes") == STEM_SCORE
    assert score_token("fix", "fixed") == STEM_SCORE
    assert score_token("run", "running") == STEM_SCORE
    assert score_token("hire", "hiring") == STEM_SCORE


# ------------------------------------------------------------------------ field weights (ADR 0041)


def test_field_weights_count_with_diminishing_returns() -> None:
    assert field_ratio(3.0, 3.0) == 1.0
    assert field_ratio(0.0, 3.0) == 0.0
    ratios = [field_ratio(weight, 3.0) for weight in (0.5, 1.0, 1.5, 2.0, 2.9)]
    assert ratios == sorted(ratios) and ratios[-1] < 1.0  # lighter counts less, never ties the top
    assert ratios[1] == pytest.approx(4.2 / 6.6)  # weight 1 of 3: 0.64, not a third


def test_a_body_holding_every_word_outranks_a_title_holding_some() -> None:
    # Every word is somewhere else too, so none is rare enough to decide alone; counted a third
    # of a title, the body holding all five (two of them adjacent pairs) ranked third.
    docs = (
        Doc(1, "Split the customs declaration in the carrier API"),
        Doc(2, "Clean up the manifest", body="Root cause: the carrier API drops the customs reference on long files."),
        Doc(3, "Carrier API reference"),
        Doc(4, "Scanner drops the connection"),
        Doc(5, "Customs reference for Norway"),
        Doc(6, "Carrier invoices", body="The API drops duplicates."),
    )
    assert ids(rank("carrier api drops customs reference", docs))[:3] == [2, 3, 1]


# ------------------------------------------------------------------------ stopwords of the text (ADR 0057)


def test_a_query_word_one_letter_from_a_stopword_is_not_matched_by_it() -> None:
    # "bug" is one edit from the "but" of an unrelated record: counted as a rare word matched
    # there, it outweighed the words the answer holds and the search came back empty.
    from openproject_mcp.domain.search import QueryScorer

    docs = (
        Doc(1, "Payouts get HTTP 429 from the PSP", body="The payments batch retries too fast."),
        Doc(2, "Dunning letters", body="The letter shows euros, but UK invoices are in pounds."),
        *(Doc(10 + n, f"Payments report {n}") for n in range(6)),
    )
    ranking = QueryScorer("the payments bug about payouts getting 429s").rank(docs, FIELDS, key=lambda d: d.id)
    assert "bug" in ranking.unmatched_terms
    assert [hit.record.id for hit in ranking.hits][:1] == [1]
    assert 2 not in [hit.record.id for hit in ranking.hits]


# ------------------------------------------------------------------ unmatched words beside typo neighbours (ADR 0059)

PORTAL_DOCS = (
    Doc(1, "Portal feedback form"),
    Doc(2, "Partner portal search"),
    Doc(3, "Urlaubsantrag für die Reiseleiter"),
    Doc(4, "Dock door scanner"),
)


def test_words_matching_nothing_beside_only_a_typo_neighbour_find_nothing() -> None:
    # "vorpal" is two letters from "portal"; the other words are nowhere: no portal record is an answer.
    assert rank("frumious bandersnatch vorpal", PORTAL_DOCS) == []
    assert ids(rank("vorpal", PORTAL_DOCS)) == [1, 2]  # a lone typo still finds its neighbours


def test_words_matching_nothing_are_still_left_out_beside_a_word_held_as_typed() -> None:
    assert ids(rank("portal florpish", PORTAL_DOCS)) == [1, 2]  # exactly
    assert ids(rank("beantrage urlaub", PORTAL_DOCS)) == [3]  # the beginning of a German compound


# ------------------------------------------------------------------------ the clauses of a long question (ADR 0061)


def test_a_long_question_splits_into_the_clauses_that_hold_two_words_or_more() -> None:
    from openproject_mcp.domain.search import query_clauses

    question = (
        "hi, quick HR question, my partner and I want to spend a few weeks in Portugal; am I allowed to work abroad?"
    )
    assert query_clauses(question) == (
        "quick HR question",
        "my partner and I want to spend a few weeks in Portugal",
        "am I allowed to work abroad",
    )
    assert query_clauses("what did we decide about the budget?") == ()  # short: answered whole
    assert query_clauses("release 4.0 notes for the iOS app and the Android app and the web portal") == ()  # one clause
    # "4.0" stays whole; "who signs it off" holds one significant word and is no clause.
    assert query_clauses("upgrade to 4.0.1 planned, rollback plan for the 4.0 release, who signs it off?") == (
        "upgrade to 4.0.1 planned",
        "rollback plan for the 4.0 release",
    )


# ------------------------------------------------------------------ numbers in groups of three (ADR 0064)


def test_a_number_is_one_term_with_or_without_its_thousands_separators() -> None:
    from openproject_mcp.domain.search.query import plan_query

    def terms(query: str) -> list[tuple[str, str | None, tuple[tuple[str, ...], ...]]]:
        return [(t.text, t.word, t.sequences) for t in plan_query(query, query.lower()).terms]

    assert terms("18400 euros") == [("18400", "18400", (("18", "400"),)), ("euros", "euros", ())]
    assert terms("€1,450 per truck")[0] == ("1,450", "1450", (("1", "450"),))
    assert terms("1,000,000 rows")[0] == ("1,000,000", "1000000", (("1", "000", "000"),))
    assert terms("v2.14.1")[0][1] is None  # a version stays a version
    assert terms("0123 and 450") == [("0123", "0123", ()), ("450", "450", ())]  # a leading zero, three digits


AMOUNTS = (
    Doc(1, "NAT gateway change drops idle connections"),
    Doc(2, "Cloud cost spike", body="The bill shows €18,400 for NAT gateway data processing."),
    Doc(3, "Budget 18400", body="Approved for the NAT gateway."),
)


def test_a_number_meets_itself_written_in_groups_of_three_both_ways() -> None:
    assert ids(rank("18400 nat gateway", AMOUNTS))[:2] == [3, 2]  # as typed first, then grouped
    assert set(ids(rank("€18,400 nat gateway", AMOUNTS))[:2]) == {2, 3}
    assert set(ids(rank("18,400", AMOUNTS))) == {2, 3}  # the number alone: both, and nothing else


def test_a_snippet_opens_at_a_version_standing_whole_not_at_its_first_number_alone() -> None:
    text = (
        "Step 2 of the plan is to look at the disks, the network, the backup jobs, the alerting and the "
        "on-call rota, and only then, once all of that is signed off, upgrade every node to 2.3 in the window."
    )
    hit = rank("2.3", (Doc(1, "Upgrade", body=text),))[0]
    snippet = next(m.snippet for m in hit.matches if m.field == "body")
    assert snippet is not None and "2.3" in snippet


# ------------------------------------------------------------------ from a review of ADRs 0057-0064 (ADR 0065)


def test_a_word_some_record_shouts_is_not_read_as_an_acronym_of_a_phrase() -> None:
    docs = (
        Doc(1, "Network team on-call rota", body="Who is on call for the network this week"),
        Doc(2, "Printer does not print", body="The office printer is not working"),
        Doc(3, "Release checklist", body="Do NOT deploy on Fridays"),
        Doc(4, "VPN does not connect", body="not sure why"),
    )
    assert ids(rank("network operations team", docs)) == [1]
    stock = (
        Doc(1, "North east depot stock count"),
        Doc(2, "NEW starter checklist"),
        Doc(3, "New laptop for Ben"),
    )
    assert ids(rank("north east warehouse stock", stock))[:1] == [1]


def test_a_german_plural_is_held_as_typed_by_its_singular() -> None:
    docs = (
        Doc(1, "Rechnung an Kunde Müller doppelt verschickt"),
        Doc(2, "Kunde meldet falsche Rechnung"),
        Doc(3, "Freigabe der Bestellung durch Einkauf"),
        Doc(4, "Schnittstelle zu SAP bricht ab"),
    )
    assert set(ids(rank("invoices Rechnungen", docs))) == {1, 2}
    assert ids(rank("purchase orders Bestellungen", docs)) == [3]
    assert ids(rank("Schnittstellen Salesforce", docs)) == [4]


def test_an_english_word_in_er_is_not_held_as_typed_by_its_stem() -> None:
    # "start" is no German plural's singular of "starter": the words matching nothing still count,
    # so a query about something else finds nothing (ADR 0068).
    docs = (
        Doc(1, "Onboarding", body="Temps start with a half-day safety briefing."),
        Doc(2, "VAT filing", body="The return is filed every quarter."),
    )
    assert ids(rank("sourdough starter hydration", docs)) == []
    # Nor a four-letter word of an English word in -en (ADR 0072).
    assert ids(rank("sourdough golden hydration", (*docs, Doc(4, "Gold customers", body="Premium tier.")))) == []
    assert ids(rank("starter kit", (*docs, Doc(3, "Starter kit for new drivers")))) == [3]


def test_two_groups_of_three_digits_stay_two_numbers() -> None:
    assert ids(rank("502,503", (Doc(1, "Gateway returns 502 and 503 errors"), Doc(2, "Gateway timeout")))) == [1]


def test_the_clauses_of_a_question_are_each_read_once_within_the_words_ranking_reads() -> None:
    from openproject_mcp.domain.search import query_clauses

    chatter = ", ".join(["budget office"] * 40 + ["travel policy", "coffee machine"])
    question = f"hi there, what about the meeting room, {chatter}?"
    assert query_clauses(question) == (
        "what about the meeting room",
        "budget office",
        "travel policy",
        "coffee machine",
    )
    assert query_clauses(question, max_words=8) == ("what about the meeting room", "budget office")


# ------------------------------------------------------------------------ whole answers (ADR 0066)


def test_a_ranking_says_whether_some_hit_matches_every_word_of_the_query() -> None:
    from openproject_mcp.domain.search import QueryScorer, extract_texts

    def whole(query: str, docs: Sequence[Doc] = DOCS) -> tuple[list[int], bool]:
        ranking = QueryScorer(query).rank(docs, FIELDS, key=lambda d: d.id, extracted=extract_texts(docs, FIELDS))
        return ids(ranking.hits), ranking.whole

    assert whole("budget approval") == ([1, 2], True)
    # Each hit holds one of the words: an answer, not a whole one.
    split = (Doc(1, "Budget review"), Doc(2, "Approval workflow"), Doc(3, "Unrelated"))
    hits, complete = whole("budget approval", split)
    assert sorted(hits) == [1, 2] and not complete
    # A word the records never hold: the answer is partial however well the rest matches.
    assert whole("budget approval escrow") == ([1, 2], False)
    # Words spread over a record's fields count together.
    assert whole("retrospective budget") == ([3], True)
    assert whole("xyzzy plugh") == ([], False)
