"""Folding, tokens with original offsets, query tokens and the literal lookup of exact mode."""

from __future__ import annotations

import pytest

from openproject_mcp.domain.search import Token, normalize, query_tokens, tokenize
from openproject_mcp.domain.search.normalize import (
    STOPWORDS,
    fold_for_containment,
    locate_folded,
    token_values,
)


@pytest.mark.parametrize(
    ("text", "folded"),
    [
        ("Müller", "muller"),
        ("Café", "cafe"),
        ("RÉSUMÉ", "resume"),
        ("Budget Approval", "budget approval"),
        ("Zürich", "zurich"),
        ("Genève", "geneve"),
        ("Søren", "søren"),  # ø is a letter of its own, not o with a mark: NFKD leaves it
        ("ﬁnance", "finance"),  # compatibility ligature expands
        ("Straße", "strasse"),  # casefold, so "strasse" finds it
        ("ΟΔΟΣ", "οδοσ"),  # no context-dependent final sigma: folding stays per character
        ("cafe\u0301", "cafe"),  # decomposed input folds like precomposed input
        ("", ""),
    ],
)
def test_normalize_folds_case_and_accents(text: str, folded: str) -> None:
    assert normalize(text) == folded


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ("Approval of Q3 budget!", ["approval", "of", "q3", "budget"]),
        ("", []),
        ("---  ...", []),
        ("Привет мир", ["привет", "мир"]),
        ("Müller's budget", ["muller", "s", "budget"]),
        ("Müller’s budget", ["muller", "s", "budget"]),  # typographic apostrophe splits too
        ("snake_case-and-kebab", ["snake", "case", "and", "kebab"]),
        ("cafe\u0301 au lait", ["cafe", "au", "lait"]),  # the mark stays inside its word
        # Spacing vowel signs do not cut a word; the virama (a combining mark) is folded away.
        ("हिन्दी भाषा", ["हिनदी", "भाषा"]),
        ("ﬁnal Straße", ["final", "strasse"]),
        ("2026-06-18 v17.4", ["2026", "06", "18", "v17", "4"]),
    ],
)
def test_tokenize_splits_on_non_alphanumerics(text: str, values: list[str]) -> None:
    assert [token.value for token in tokenize(text)] == values
    assert token_values(text) == values


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Der Müller Bericht", [("der", 0, 3), ("muller", 4, 10), ("bericht", 11, 18)]),
        # NFKD makes the ligature two letters and ß two letters; offsets still index the source.
        ("ﬁx Straße now", [("fix", 0, 2), ("strasse", 3, 9), ("now", 10, 13)]),
        ("a\u0301b c", [("ab", 0, 3), ("c", 4, 5)]),
        ("  x  ", [("x", 2, 3)]),
    ],
)
def test_tokenize_reports_offsets_into_the_original_text(text: str, expected: list[tuple[str, int, int]]) -> None:
    tokens = tokenize(text)
    assert [(token.value, token.start, token.end) for token in tokens] == expected
    for token in tokens:
        assert normalize(text[token.start : token.end]) == token.value


def test_token_is_a_frozen_value() -> None:
    token = Token("budget", 15, 21)
    assert token == Token("budget", 15, 21)
    with pytest.raises(AttributeError):
        token.value = "other"  # type: ignore[misc]


@pytest.mark.parametrize(
    ("query", "tokens"),
    [
        ("what did we decide about hiring", ("decide", "hiring")),
        ("Which trips have the currency rounding error?", ("trips", "currency", "rounding", "error")),
        ("why do push notifications arrive twice", ("push", "notifications", "arrive", "twice")),
        ("Müller's budget meeting", ("muller", "budget", "meeting")),
        ("don't skip it", ("skip",)),
        ("budget BUDGET approval budget", ("budget", "approval")),  # duplicates dropped, first kept
        ("the of", ("the", "of")),  # nothing significant left: keep everything rather than nothing
        ("what is it", ("what", "is", "it")),
        # German function words too, folded as the query is (ADR 0055).
        ("wie beantrage ich Urlaub", ("beantrage", "urlaub")),
        ("Was haben wir zum Budget für die Messe entschieden?", ("budget", "messe", "entschieden")),
        ("", ()),
        ("?!", ()),
    ],
)
def test_query_tokens_drop_stopwords_and_duplicates(query: str, tokens: tuple[str, ...]) -> None:
    assert query_tokens(query) == tokens


@pytest.mark.parametrize("word", ["the", "of", "what", "did", "we", "about", "which", "why", "do", "is", "s", "t"])
def test_the_stopwords_the_spec_names_are_listed(word: str) -> None:
    assert word in STOPWORDS


@pytest.mark.parametrize(
    "word",
    # German function words whose folded form is an English word a search may mean stay words.
    [
        "meeting",
        "budget",
        "decide",
        "hiring",
        "review",
        "sync",
        "offline",
        "war",
        "bin",
        "man",
        "hat",
        "es",
        "uber",
        "dir",
        "mir",
    ],
)
def test_words_that_carry_meaning_are_not_stopwords(word: str) -> None:
    assert word not in STOPWORDS


@pytest.mark.parametrize(
    ("text", "needle", "offset"),
    [
        ("Approval of Q3 budget", "q3 budget", 12),
        ("Hello   WORLD ﬁx", "world fix", 8),
        ("Zürich office\n\nmove", "office move", 7),
        ("ﬁﬁ budget", "budget", 3),  # two ligatures fold to four letters before the match
        ("Straße 5", "strasse 5", 0),
        ("no match here", "budget", -1),
        ("anything", "", -1),
    ],
)
def test_locate_folded_maps_a_literal_match_back_to_the_original(text: str, needle: str, offset: int) -> None:
    assert locate_folded(text, needle) == offset


def test_fold_for_containment_collapses_whitespace() -> None:
    assert fold_for_containment("  Idempotency\n\tKEY  ") == "idempotency key"


def test_letters_that_fold_with_spaces_give_tokens_without_them() -> None:
    # U+037A folds to a space and a mark, U+FDFA to a four-word phrase: no token holds a space.
    assert token_values("a\u037ab \u037a x\ufdfay") == ["ab", "xصلىاللهعليهوسلمy"]
    assert [token.value for token in tokenize("a\u037ab \u037a x\ufdfay")] == ["ab", "xصلىاللهعليهوسلمy"]
    assert query_tokens("1 \u00df\u037a") == ("1", "ss")


def test_every_letter_that_folds_to_nothing_is_known_as_such() -> None:
    import sys

    from openproject_mcp.domain.search.normalize import _FOLDS_TO_NOTHING

    folding_away = {
        char for char in map(chr, range(sys.maxunicode + 1)) if char.isalnum() and not normalize(char).replace(" ", "")
    }
    assert folding_away == set(_FOLDS_TO_NOTHING)


def test_a_query_with_a_letter_folding_to_a_space_finishes() -> None:
    # Such a query once made the vocabulary scan look for a lone space for ever (a search that
    # never ended took its worker, or the event loop, with it).
    import threading

    from openproject_mcp.domain.search import Field, QueryScorer

    field: Field[str] = Field("text", 1.0, lambda text: text)
    texts = ["1", *(f"filler {number}" for number in range(20))]
    outcome: list[object] = []

    def search() -> None:
        for query in ("1 \u00df\u037a", "\u037a", "ab\u037a cd\ufdfa"):
            outcome.append(QueryScorer(query).rank(texts, [field], key=texts.index).hits)

    worker = threading.Thread(target=search, daemon=True)
    worker.start()
    worker.join(timeout=10)
    assert not worker.is_alive(), "the search did not finish"
    assert len(outcome) == 3
