"""Properties of the search unit, checked on generated inputs rather than chosen examples."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

from hypothesis import given, settings
from hypothesis import strategies as st

from openproject_mcp.domain.search import (
    Corpus,
    Field,
    MatchMode,
    QueryScorer,
    Ranked,
    bounded_distance,
    normalize,
    query_tokens,
    rank_records,
    score_field,
    score_token,
    tokenize,
)
from openproject_mcp.domain.search.normalize import (
    first_token_start,
    fold_for_containment,
    locate_folded,
    token_start,
    token_values,
)
from openproject_mcp.domain.search.score import Lexicon, vocabulary_hits

# No example database: these runs must not leave files in the checkout.
PROPERTY = settings(database=None, deadline=None, max_examples=300)


def levenshtein(a: str, b: str) -> int:
    """The textbook full-matrix distance, as the reference the bounded one must agree with."""
    previous = list(range(len(b) + 1))
    for i, char_a in enumerate(a, start=1):
        current = [i]
        for j, char_b in enumerate(b, start=1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (char_a != char_b)))
        previous = current
    return previous[-1]


# A small alphabet makes near-misses (the interesting case) common.
near_words = st.text(alphabet="abcde", max_size=12)
unicode_text = st.text(alphabet=st.characters(codec="utf-8"), max_size=40)
# Letters with and without accents, ligatures, whitespace and punctuation, for folding paths.
mixed_text = st.text(alphabet="aAbBéÉüÜßﬁ \n\t-'’.0Ως\u0301\u037a\ufdfa", max_size=30)
# Long Western European text with the odd exception (ø, ẞ, ™, ½, a non-Latin mark, a spacing
# vowel sign): it crosses every tokeniser path (ASCII, chunked, whole-text ASCII fold, exact).
LATIN = "abcdeé fghij klmnö pqrsß tuüvw xyzÄ ÉÈÇ İ ﬁ ’“”—… ,.;: \n\u0301\u0308"
RARE = "øẞ™½\u20d7\u093eΩ"
latin_text = st.text(alphabet=LATIN, min_size=20, max_size=300) | st.text(
    alphabet=LATIN + RARE, min_size=20, max_size=300
)


@PROPERTY
@given(near_words, near_words, st.integers(min_value=0, max_value=4))
def test_bounded_distance_agrees_with_the_full_matrix(a: str, b: str, limit: int) -> None:
    true = levenshtein(a, b)
    assert bounded_distance(a, b, limit) == (true if true <= limit else limit + 1)


@PROPERTY
@given(unicode_text, unicode_text)
def test_normalize_is_per_character_and_idempotent(a: str, b: str) -> None:
    assert normalize(a + b) == normalize(a) + normalize(b)
    assert normalize(normalize(a)) == normalize(a)


@PROPERTY
@given(st.one_of(unicode_text, mixed_text, latin_text))
def test_token_values_match_tokenize_and_offsets_index_the_source(text: str) -> None:
    tokens = tokenize(text)
    assert token_values(text) == [token.value for token in tokens]
    for index, token in enumerate(tokens):
        assert token.value and " " not in token.value
        # A token is its text folded, without the spaces a few letters fold with (U+FDFA).
        assert normalize(text[token.start : token.end]).replace(" ", "") == token.value
        assert token_start(text, index) == token.start
    assert all(left.end <= right.start for left, right in pairwise(tokens))


@PROPERTY
@given(st.one_of(unicode_text, mixed_text, latin_text))
def test_the_first_token_of_a_value_starts_where_counting_tokens_says(text: str) -> None:
    tokens = tokenize(text)
    firsts: dict[str, int] = {}
    for index, token in enumerate(tokens):
        firsts.setdefault(token.value, index)
    for value, index in firsts.items():
        assert first_token_start(text, value, index) == tokens[index].start


@PROPERTY
@given(latin_text)
def test_normalize_of_latin_text_is_per_character(text: str) -> None:
    assert normalize(text) == "".join(normalize(char) for char in text)


@PROPERTY
@given(mixed_text, st.text(alphabet="abéü ß", min_size=1, max_size=4))
def test_locate_folded_points_at_a_real_occurrence(text: str, needle_source: str) -> None:
    needle = fold_for_containment(needle_source)
    offset = locate_folded(text, needle)
    if needle and needle in fold_for_containment(text):
        assert 0 <= offset < len(text)
        assert needle in fold_for_containment(text[offset:])
    else:
        assert offset == -1


@PROPERTY
@given(
    # Tokens may hold spaces (U+FDFA folds to four words): both scans see the words between them.
    st.sets(st.text(alphabet="abcde ", min_size=1, max_size=9), max_size=40),
    st.text(alphabet="abcde", min_size=1, max_size=4),
    st.integers(min_value=0, max_value=6),
    st.integers(min_value=0, max_value=4),
)
def test_a_lexicon_scanned_by_length_finds_what_the_plain_scan_finds(
    tokens: set[str], part: str, shortest: int, extra: int
) -> None:
    plain = Lexicon(tokens)
    by_length = Lexicon(tokens, lengths={})
    longest = shortest + extra
    assert by_length.containing(part, shortest, longest) == plain.containing(part, shortest, longest)
    # Scanned again, from the lengths it built the first time.
    assert by_length.lengths or not " ".join(tokens).split()
    assert by_length.containing(part, 0, 9) == plain.containing(part, 0, 9)
    # Prefixes and unbounded scans read the joined tokens either way.
    assert by_length.containing(" " + part) == plain.containing(" " + part)


class KeepingStore:
    """Token values and corpora in dicts, as a tenant's token cache keeps them."""

    def __init__(self) -> None:
        self.values: dict[str, Sequence[str]] = {}
        self.corpora: dict[frozenset[str], Corpus] = {}

    def get_many(self, texts: Sequence[str]) -> list[Sequence[str] | None]:
        return [self.values.get(text) for text in texts]

    def put_many(self, entries: Sequence[tuple[str, Sequence[str]]]) -> None:
        self.values.update(entries)

    def get_corpus(self, texts: frozenset[str]) -> Corpus | None:
        return self.corpora.get(texts)

    def put_corpus(self, texts: frozenset[str], corpus: Corpus) -> None:
        self.corpora[texts] = corpus


# Words of letters, accents, digits and the odd character that folds to several words or none.
store_words = st.text(alphabet="abcdeéß12\u037a\ufdfa\u0301", min_size=1, max_size=8)
store_texts = st.lists(st.lists(store_words, min_size=1, max_size=6).map(" ".join), min_size=16, max_size=24)


@settings(database=None, deadline=None, max_examples=120)
@given(store_texts, st.lists(store_words, min_size=1, max_size=3).map(" ".join), store_words)
def test_a_store_and_its_corpora_change_no_ranking(texts: list[str], query: str, other: str) -> None:
    field: Field[str] = Field("text", 1.0, lambda text: text)
    store = KeepingStore()

    def ranked(scorer: QueryScorer, records: list[str]) -> list[Ranked[str]]:
        return scorer.rank(records, [field], key=lambda text: texts.index(text) if text in texts else -1).hits

    # The first search keeps the corpus; the second, another query, is served by it.
    for words in (query, other, query):
        kept, plain = QueryScorer(words, store=store), QueryScorer(words)
        assert ranked(kept, texts) == ranked(plain, texts)
        # A second ranking of the same search, over more texts, as the pipeline's final one.
        more = [*texts, f"{words} {texts[0]}"]
        assert ranked(kept, more) == ranked(plain, more)


@PROPERTY
@given(st.text(alphabet="abcdeé", max_size=9), st.sets(st.text(alphabet="abcdeé", min_size=1, max_size=10)))
def test_vocabulary_hits_are_exactly_the_positive_token_scores(query: str, vocabulary: set[str]) -> None:
    expected = {token: score_token(query, token) for token in vocabulary if score_token(query, token) > 0}
    assert vocabulary_hits(query, vocabulary) == expected


@PROPERTY
@given(st.text(alphabet="012v.", max_size=5), st.sets(st.text(alphabet="012v", min_size=1, max_size=6)))
def test_vocabulary_hits_of_numbers_are_exactly_the_positive_token_scores(query: str, vocabulary: set[str]) -> None:
    expected = {token: score_token(query, token) for token in vocabulary if score_token(query, token) > 0}
    assert vocabulary_hits(query, vocabulary) == expected
    assert vocabulary_hits(query, Lexicon(vocabulary, ())) == expected


@dataclass(frozen=True)
class Note:
    id: int
    title: str
    body: str
    people: tuple[str, ...]


FIELDS: tuple[Field[Note], ...] = (
    Field("title", 3.0, lambda n: n.title),
    Field("body", 1.0, lambda n: n.body),
    Field("people", 0.5, lambda n: n.people),
)

WORDS = ["budget", "budgets", "approval", "aproval", "müller", "muller", "zürich", "hiring", "the", "of", "q3", "brain"]
phrases = st.lists(st.sampled_from(WORDS), max_size=6).map(" ".join)
notes = st.lists(
    st.builds(
        Note,
        id=st.integers(min_value=0, max_value=10_000),
        title=phrases,
        body=phrases,
        people=st.lists(phrases, max_size=3).map(tuple),
    ),
    max_size=12,
    unique_by=lambda n: n.id,
)
queries = st.one_of(phrases, st.text(alphabet="abgüdetq3 ", max_size=10))
modes: st.SearchStrategy[MatchMode] = st.sampled_from(["fuzzy", "exact"])


def rank(notes: list[Note], query: str, mode: MatchMode = "fuzzy") -> list[Ranked[Note]]:
    return rank_records(notes, query, FIELDS, key=lambda n: n.id, mode=mode)


def texts_of(note: Note) -> list[str]:
    return [note.title, note.body, *note.people]


@PROPERTY
@given(notes, queries)
def test_exact_mode_returns_exactly_the_records_holding_the_literal(records: list[Note], query: str) -> None:
    needle = fold_for_containment(query)
    returned = {result.record.id for result in rank(records, query, "exact")}
    if not needle:
        assert returned == {note.id for note in records}
        return
    holding = {note.id for note in records if any(needle in fold_for_containment(t) for t in texts_of(note))}
    assert returned == holding


@PROPERTY
@given(notes, queries, modes, st.randoms(use_true_random=False))
def test_ranking_is_a_pure_function_of_its_inputs(
    records: list[Note], query: str, mode: MatchMode, rng: random.Random
) -> None:
    first = rank(records, query, mode)
    assert rank(records, query, mode) == first
    shuffled = list(records)
    rng.shuffle(shuffled)
    assert rank(shuffled, query, mode) == first


@PROPERTY
@given(notes, queries, modes)
def test_scores_lie_in_zero_to_one_with_two_decimals_and_sorted(
    records: list[Note], query: str, mode: MatchMode
) -> None:
    results = rank(records, query, mode)
    for result in results:
        assert 0.0 <= result.score <= 1.0
        assert result.score == round(result.score, 2)
        assert all(0.0 < match.score <= 1.0 for match in result.matches)
    # Best first. Equal scores are ordered by the score before the cap at 1 (a verbatim phrase
    # before the same words reordered), then by id, so the id alone no longer decides a tie.
    scores = [result.score for result in results]
    assert scores == sorted(scores, reverse=True)


ACCENTED = str.maketrans({"u": "ü", "e": "é", "a": "Á", "o": "Ö", "z": "Z"})


@PROPERTY
@given(notes, phrases, modes)
def test_accents_and_case_in_the_query_do_not_change_results(records: list[Note], query: str, mode: MatchMode) -> None:
    assert rank(records, query.translate(ACCENTED).upper(), mode) == rank(records, query, mode)


@PROPERTY
@given(st.lists(st.builds(Note, id=st.just(1), title=phrases, body=st.just(""), people=st.just(())), max_size=1))
def test_a_single_field_record_scores_like_score_field(records: list[Note]) -> None:
    title_only: tuple[Field[Note], ...] = (Field("title", 1.0, lambda n: n.title),)
    for query in ["budget approval", "budgt aproval", "muller zurich", "brain budgets"]:
        ranked = rank_records(records, query, title_only, key=lambda n: n.id, min_score=0.0)
        expected = [score_field(query_tokens(query), note.title).score for note in records]
        assert [result.score for result in ranked] == [round(score, 2) for score in expected if score > 0]
