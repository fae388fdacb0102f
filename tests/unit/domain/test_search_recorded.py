"""Rankings over a generated corpus equal the recorded ones, hit by hit, snippet by snippet.

The recording (``data/recorded_rankings.json``) was made by ``tests/support/ranking_corpus.py``
from the rules of ADR 0016. Speed work on the search unit must leave every ranking exactly as
recorded: ids, rounded scores, order, field and item scores to the last bit, snippets and
unmatched terms. The digest covers the full answer; the readable hit list shows where it moved.
"""

from __future__ import annotations

import json
from functools import cache

import pytest

from tests.support.ranking_corpus import (
    PIPELINE_CASES,
    RECORDING,
    TWO_EVERY,
    Case,
    Doc,
    build_corpus,
    rank_directly,
    rank_in_two_rankings,
    search_through_pipeline,
)


@cache
def corpus() -> tuple[tuple[Doc, ...], tuple[Case, ...]]:
    return build_corpus()


@cache
def recorded() -> dict[str, dict[str, dict[str, object]]]:
    loaded: dict[str, dict[str, dict[str, object]]] = json.loads(RECORDING.read_text(encoding="utf-8"))
    return loaded


def test_the_recording_covers_the_generated_cases() -> None:
    _, cases = corpus()
    names = [f"{case.mode}:{case.query}" for case in cases]
    assert list(recorded()["direct"]) == names
    assert list(recorded()["two_rankings"]) == names[::TWO_EVERY]
    assert list(recorded()["pipeline"]) == names[:PIPELINE_CASES]
    # The cases reach every kind of answer: many hits, a few, none, and unmatched words.
    hit_counts = [len(str(entry["hits"]).split()) for entry in recorded()["direct"].values()]
    assert max(hit_counts) > 50 and 0 in hit_counts and any(0 < count < 5 for count in hit_counts)
    assert any(entry["unmatched"] for entry in recorded()["direct"].values())


def test_every_ranking_equals_the_recorded_one() -> None:
    docs, cases = corpus()
    expected = recorded()["direct"]
    for case in cases:
        assert rank_directly(docs, case) == expected[f"{case.mode}:{case.query}"], case


@pytest.mark.parametrize("cached", [False, True], ids=["plain", "token-cache"])
def test_two_rankings_by_one_scorer_equal_the_recorded_ones(cached: bool) -> None:
    docs, cases = corpus()
    expected = recorded()["two_rankings"]
    for case in cases[::TWO_EVERY]:
        assert rank_in_two_rankings(docs, case, cached=cached) == expected[f"{case.mode}:{case.query}"], case


def test_pipeline_searches_equal_the_recorded_ones() -> None:
    docs, cases = corpus()
    expected = recorded()["pipeline"]
    for case in cases[:PIPELINE_CASES]:
        assert search_through_pipeline(docs, case) == expected[f"{case.mode}:{case.query}"], case
