"""Levenshtein distance that gives up as soon as the answer is known to exceed a limit."""

from __future__ import annotations

__all__ = ["bounded_distance", "bounded_distance_rows"]


def bounded_distance(a: str, b: str, limit: int) -> int:
    """The edit distance of ``a`` and ``b`` when it is at most ``limit``, else exactly ``limit + 1``."""
    return bounded_distance_rows(a, b, limit)[0]


def bounded_distance_rows(a: str, b: str, limit: int) -> tuple[int, int]:
    """``bounded_distance`` plus the number of matrix rows it computed (for tests of the early exit).

    Almost every pair the scorer sees is a non-match, so the cheap rejections come first: the
    length difference, then a shared prefix and suffix are trimmed, then only a diagonal band of
    width ``2 * limit + 1`` is filled, and the loop stops on the first row whose every cell
    exceeds ``limit`` (costs never decrease further down the matrix).
    """
    if limit < 0:
        raise ValueError(f"limit must be >= 0, got {limit}")
    over = limit + 1
    if abs(len(a) - len(b)) > limit:
        return over, 0
    if a == b:
        return 0, 0

    head = 0
    shortest = min(len(a), len(b))
    while head < shortest and a[head] == b[head]:
        head += 1
    tail_a, tail_b = len(a), len(b)
    while tail_a > head and tail_b > head and a[tail_a - 1] == b[tail_b - 1]:
        tail_a -= 1
        tail_b -= 1
    a, b = a[head:tail_a], b[head:tail_b]
    if len(a) > len(b):
        a, b = b, a
    columns = len(a)
    if columns == 0:
        return (len(b) if len(b) <= limit else over), 0

    # Cells outside the band cost more than `limit`; `over` stands in for all of them, which is
    # safe because a path of cost <= limit never leaves the band.
    previous = [j if j <= limit else over for j in range(columns + 1)]
    rows = 0
    for i, char in enumerate(b, start=1):
        rows += 1
        current = [over] * (columns + 1)
        row_min = current[0] = i if i <= limit else over
        for j in range(max(1, i - limit), min(columns, i + limit) + 1):
            cost = previous[j - 1] if a[j - 1] == char else previous[j - 1] + 1
            if previous[j] + 1 < cost:
                cost = previous[j] + 1
            if current[j - 1] + 1 < cost:
                cost = current[j - 1] + 1
            if cost > over:
                cost = over
            current[j] = cost
            if cost < row_min:
                row_min = cost
        if row_min > limit:
            return over, rows
        previous = current
    distance = previous[columns]
    return (distance if distance <= limit else over), rows
