"""The bounded edit distance: exact within the limit, limit + 1 beyond it, and it stops early."""

from __future__ import annotations

import time

import pytest

from openproject_mcp.domain.search import bounded_distance
from openproject_mcp.domain.search.distance import bounded_distance_rows


@pytest.mark.parametrize(
    ("a", "b", "limit", "expected"),
    [
        ("budget", "budget", 2, 0),
        ("budget", "budgt", 2, 1),
        ("approval", "aproval", 2, 1),
        ("kitten", "sitting", 3, 3),
        ("migraton", "migrate", 2, 2),
        ("", "", 0, 0),
        ("", "ab", 2, 2),
        ("ab", "", 1, 2),
        ("cat", "dog", 1, 2),  # true distance 3, capped at limit + 1
        ("meeting", "xyz", 2, 3),
        ("brain", "brazil", 1, 2),
        ("metro", "metrics", 1, 2),
        ("abc", "cba", 2, 2),
        ("flaw", "lawn", 2, 2),
    ],
)
def test_bounded_distance_table(a: str, b: str, limit: int, expected: int) -> None:
    assert bounded_distance(a, b, limit) == expected
    assert bounded_distance(b, a, limit) == expected


def test_length_difference_is_rejected_before_any_row() -> None:
    assert bounded_distance_rows("a", "abcdefgh", 2) == (3, 0)


@pytest.mark.parametrize("length", [1_000, 50_000])
def test_a_hopeless_pair_stops_after_a_few_rows(length: int) -> None:
    # A full matrix would be length**2 cells (2.5e9 for the long pair); the early exit stops
    # on the first row whose cells all exceed the limit.
    a, b = "a" * length, "b" * length
    distance, rows = bounded_distance_rows(a, b, 2)
    assert distance == 3
    assert rows <= 3


def test_the_early_exit_is_fast_on_long_dissimilar_strings() -> None:
    a = "x" * 100_000
    b = "y" * 100_000
    started = time.perf_counter()
    assert bounded_distance(a, b, 2) == 3
    # Generous: the early exit needs microseconds, a full matrix would need hours.
    assert time.perf_counter() - started < 1.0


def test_shared_prefix_and_suffix_cost_no_rows() -> None:
    assert bounded_distance_rows("reconciliation", "reconcilation", 2) == (1, 0)


def test_a_negative_limit_is_refused() -> None:
    with pytest.raises(ValueError, match="limit"):
        bounded_distance("a", "b", -1)
