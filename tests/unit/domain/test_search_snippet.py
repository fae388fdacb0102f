"""Snippets: cut around the earliest match, one line, marked where cut, bounded in length."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from openproject_mcp.domain.search import SNIPPET_LEAD, SNIPPET_LENGTH, snippet
from openproject_mcp.domain.search.snippet import needs_anchor

LONG_TEXT = (
    "The team met on Tuesday to review the quarterly plan. "
    "After a long discussion about staffing, we reached a decision on the hiring freeze. "
    "The remaining agenda items were deferred to the following week."
)


def test_the_window_opens_a_lead_before_the_match() -> None:
    text = LONG_TEXT + " " + LONG_TEXT
    offset = text.index("hiring")
    result = snippet(text, [offset])
    assert result.startswith("...")
    assert result.endswith("...")
    assert result[3:-3] == text[offset - SNIPPET_LEAD : offset - SNIPPET_LEAD + SNIPPET_LENGTH].strip()


def test_no_leading_ellipsis_at_the_start_of_the_text() -> None:
    result = snippet(LONG_TEXT, [0])
    assert not result.startswith("...")
    assert result.endswith("...")


def test_a_late_match_slides_the_window_back_instead_of_shrinking_it() -> None:
    offset = LONG_TEXT.index("following")
    result = snippet(LONG_TEXT, [offset])
    assert result.startswith("...")
    assert not result.endswith("...")
    assert len(result) == SNIPPET_LENGTH + 3


def test_short_text_is_returned_whole() -> None:
    assert snippet("Short note", [0]) == "Short note"


def test_no_offsets_means_the_head_of_the_text() -> None:
    result = snippet(LONG_TEXT, [])
    assert result.startswith("The team met")
    assert result.endswith("...")


def test_empty_text_gives_an_empty_snippet() -> None:
    assert snippet("", [5]) == ""
    assert snippet("", []) == ""


def test_the_earliest_offset_wins() -> None:
    first = LONG_TEXT.index("staffing")
    later = LONG_TEXT.index("deferred")
    assert "staffing" in snippet(LONG_TEXT, [later, first])


@pytest.mark.parametrize("max_length", [1, 20, 80])
def test_a_custom_length_is_respected(max_length: int) -> None:
    result = snippet(LONG_TEXT, [LONG_TEXT.index("decision")], max_length=max_length)
    assert len(result.removeprefix("...").removesuffix("...")) <= max_length


def test_whitespace_runs_collapse_to_single_spaces() -> None:
    text = "Agenda:\n\n  1. Budget\t\tapproval\r\n  2. Hiring"
    assert snippet(text, [text.index("Budget")]) == "Agenda: 1. Budget approval 2. Hiring"


def test_cutting_through_whitespace_only_adds_no_ellipsis() -> None:
    text = " " * 100 + "budget approval"
    assert snippet(text, [100], lead=10) == "budget approval"


@pytest.mark.parametrize("offset", [-5, 10_000])
def test_offsets_outside_the_text_are_clamped(offset: int) -> None:
    result = snippet(LONG_TEXT, [offset])
    assert 0 < len(result) <= SNIPPET_LENGTH + 6


def test_the_result_never_exceeds_the_length_plus_two_ellipses() -> None:
    text = "word " * 500
    for offset in range(0, len(text), 37):
        assert len(snippet(text, [offset])) <= SNIPPET_LENGTH + 6


@pytest.mark.parametrize(("max_length", "lead"), [(0, 40), (160, -1)])
def test_nonsense_bounds_are_refused(max_length: int, lead: int) -> None:
    with pytest.raises(ValueError, match="must be"):
        snippet(LONG_TEXT, [0], max_length=max_length, lead=lead)


@settings(database=None, deadline=None, max_examples=300)
@given(
    st.text(alphabet="ab \n\t.", max_size=2 * SNIPPET_LENGTH),
    st.lists(st.integers(min_value=-5, max_value=2 * SNIPPET_LENGTH + 5), max_size=3),
)
def test_a_text_that_needs_no_anchor_gives_one_snippet_wherever_it_matched(text: str, offsets: list[int]) -> None:
    if not needs_anchor(text):
        assert snippet(text, offsets) == snippet(text, [])
    else:
        assert len(text) > SNIPPET_LENGTH
