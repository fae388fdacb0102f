"""Token and field scores: the seed's rules, plus the batch form the ranker uses."""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass

from openproject_mcp.domain.search.distance import bounded_distance
from openproject_mcp.domain.search.normalize import STOPWORDS, normalize, tokenize

__all__ = [
    "EDIT_PENALTY",
    "PHRASE_BONUS",
    "FieldScore",
    "combine_field_score",
    "edit_limit",
    "phrase_present",
    "score_field",
    "score_token",
    "vocabulary_hits",
]

PHRASE_BONUS = 0.15
EDIT_PENALTY = 0.6

PREFIX_SCORE = 0.9
CONTAINS_SCORE = 0.75
# Below this length a query token only matches itself: "cat" is one edit from far too much.
MIN_FUZZY_LENGTH = 3
# Containment of a 3-letter token ("art" in "start") is noise; from 4 letters it is a word part.
MIN_CONTAINS_LENGTH = 4
# Longer words tolerate two typos; shorter ones one, so "brain" never reaches "brazil".
LONG_TOKEN_LENGTH = 6


def edit_limit(query_length: int) -> int:
    """How many edits a query token of this length may absorb."""
    return 1 if query_length < LONG_TOKEN_LENGTH else 2


def score_token(query_token: str, field_token: str) -> float:
    """How well one field token answers one query token, 0..1; the first applicable rule wins."""
    if query_token == field_token:
        return 1.0
    length = len(query_token)
    if length < MIN_FUZZY_LENGTH:
        return 0.0
    if field_token.startswith(query_token):
        return PREFIX_SCORE
    if length >= MIN_CONTAINS_LENGTH and query_token in field_token:
        return CONTAINS_SCORE
    limit = edit_limit(length)
    distance = bounded_distance(query_token, field_token, limit)
    if distance > limit:
        return 0.0
    return 1.0 - distance / length * EDIT_PENALTY


def _pieces(token: str, limit: int) -> tuple[str, ...]:
    """``limit + 1`` contiguous parts: within ``limit`` edits, one part survives intact."""
    count = limit + 1
    size, extra = divmod(len(token), count)
    parts: list[str] = []
    start = 0
    for index in range(count):
        end = start + size + (1 if index < extra else 0)
        parts.append(token[start:end])
        start = end
    return tuple(part for part in parts if part)


def vocabulary_hits(query_token: str, vocabulary: Collection[str]) -> dict[str, float]:
    """``{token: score_token(query_token, token)}`` for every vocabulary token scoring above 0.

    Filters prove a zero before the rules run: a token shorter than the edit window cannot
    match; one that does not contain the query token can only match by edits, which needs a
    length within the window and (pigeonhole) one of ``limit + 1`` query parts verbatim.
    """
    length = len(query_token)
    if length < MIN_FUZZY_LENGTH:
        return {query_token: 1.0} if query_token in vocabulary else {}
    limit = edit_limit(length)
    shortest, longest = length - limit, length + limit
    pieces = _pieces(query_token, limit)
    hits: dict[str, float] = {}
    for token in vocabulary:
        size = len(token)
        if size < shortest:
            continue
        if query_token not in token:
            if size > longest:
                continue
            for piece in pieces:
                if piece in token:
                    break
            else:
                continue
        score = score_token(query_token, token)
        if score > 0.0:
            hits[token] = score
    return hits


def phrase_present(field_values: Sequence[str], query: Sequence[str], score: Callable[[str, str], float]) -> bool:
    """Whether the query tokens match consecutive field tokens, in order.

    Field stopwords are skipped (the query lost its own), so "approval of the budget" is the
    phrase "approval budget". Each position may match by any rule: an all-exact phrase already
    scores 1 and the bonus would be clamped away, so a literal-only test would never count.
    """
    width = len(query)
    if width < 2:
        return False
    wanted = set(query)
    sequence = [value for value in field_values if value in wanted or value not in STOPWORDS]
    first = query[0]
    for start in range(len(sequence) - width + 1):
        if score(first, sequence[start]) > 0.0 and all(
            score(query[offset], sequence[start + offset]) > 0.0 for offset in range(1, width)
        ):
            return True
    return False


def combine_field_score(best: Sequence[float], has_phrase: Callable[[], bool]) -> float:
    """mean(best) * coverage, plus the phrase bonus when it can still change anything, max 1."""
    count = len(best)
    matched = sum(1 for value in best if value > 0.0)
    if matched == 0:
        return 0.0
    score = sum(best) / count * (matched / count)
    if matched == count and count >= 2 and score < 1.0 and has_phrase():
        score += PHRASE_BONUS
    return min(1.0, score)


@dataclass(frozen=True, slots=True)
class FieldScore:
    """How well one text answers a query."""

    score: float
    token_scores: tuple[float, ...]
    matched_offsets: tuple[int, ...]


def score_field(query: Sequence[str], text: str) -> FieldScore:
    """Score ``text`` against query tokens (as from ``query_tokens``; they are folded again).

    ``matched_offsets`` holds, per matched query token, the start of the first field token
    reaching that token's best score: the anchors a snippet is cut around.
    """
    tokens = [normalize(value) for value in query]
    if not tokens:
        return FieldScore(0.0, (), ())
    field = tokenize(text)
    memo: dict[tuple[str, str], float] = {}

    def cached(query_token: str, field_token: str) -> float:
        pair = (query_token, field_token)
        found = memo.get(pair)
        if found is None:
            found = memo[pair] = score_token(query_token, field_token)
        return found

    best: list[float] = []
    offsets: set[int] = set()
    for query_token in tokens:
        top, at = 0.0, -1
        for token in field:
            value = cached(query_token, token.value)
            if value > top:
                top, at = value, token.start
                if value == 1.0:
                    break
        best.append(top)
        if at >= 0:
            offsets.add(at)
    values = [token.value for token in field]
    score = combine_field_score(best, lambda: phrase_present(values, tokens, cached))
    return FieldScore(score, tuple(best), tuple(sorted(offsets)))
