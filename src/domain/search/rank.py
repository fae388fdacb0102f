"""Rank records against a query over declared fields: the one entry point the application uses.

Callers say *what* to search (``Field`` declarations); this module says *how well* it matches.
Everything is computed per call from the arguments: no state survives a call, so nothing can
leak between requests or tenants.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Generic, Literal, TypeVar

from openproject_mcp.domain.search.normalize import (
    fold_for_containment,
    locate_folded,
    query_tokens,
    token_start,
    token_values,
)
from openproject_mcp.domain.search.score import combine_field_score, phrase_present, vocabulary_hits
from openproject_mcp.domain.search.snippet import snippet

__all__ = [
    "DEFAULT_MIN_SCORE",
    "MIN_FUZZY_QUERY_LENGTH",
    "Field",
    "FieldMatch",
    "ItemMatch",
    "MatchMode",
    "Ranked",
    "rank_records",
]

T = TypeVar("T")

MatchMode = Literal["fuzzy", "exact"]

DEFAULT_MIN_SCORE = 0.35
# Edit distance means nothing for one or two characters; such queries fall back to containment.
MIN_FUZZY_QUERY_LENGTH = 3


@dataclass(frozen=True, slots=True)
class Field(Generic[T]):
    """A searchable part of a record. A list-valued field is scored element by element."""

    name: str
    weight: float
    extract: Callable[[T], str | Sequence[str] | None]


@dataclass(frozen=True, slots=True)
class ItemMatch:
    """One matching element of a list-valued field."""

    index: int
    score: float
    snippet: str | None


@dataclass(frozen=True, slots=True)
class FieldMatch:
    """A field that matched: its unweighted score (best element for lists) and an excerpt.

    Field and item scores keep full precision (rounding could show a real match as 0.0); only
    ``Ranked.score``, the one callers sort and display, is rounded.
    """

    field: str
    score: float
    snippet: str | None
    items: tuple[ItemMatch, ...] = ()


@dataclass(frozen=True, slots=True)
class Ranked(Generic[T]):
    """A record with its score (0..1, two decimals, on the call's weight scale) and its matches."""

    record: T
    score: float
    matches: tuple[FieldMatch, ...]

    @property
    def matched_fields(self) -> tuple[str, ...]:
        return tuple(match.field for match in self.matches)


# One text's verdict: its field score and the best score per query token.
_Verdict = tuple[float, tuple[float, ...]]


def rank_records(
    records: Iterable[T],
    query: str,
    fields: Sequence[Field[T]],
    *,
    key: Callable[[T], int],
    mode: MatchMode = "fuzzy",
    min_score: float = DEFAULT_MIN_SCORE,
    weight_scale: float | None = None,
    limit: int | None = None,
) -> list[Ranked[T]]:
    """Records matching ``query``, best first, ties by ascending ``key``; see ADR 0003 for the rules.

    ``weight_scale`` is the weight a perfect hit is measured against (default: the highest weight
    in ``fields``); a pipeline ranking shallow and deep fields separately passes the highest
    weight of both, so the two rankings share one scale. ``limit`` cuts after sorting.
    """
    if mode not in ("fuzzy", "exact"):
        raise ValueError(f"unknown match mode {mode!r}")
    if limit is not None and limit < 0:
        raise ValueError(f"limit must be >= 0, got {limit}")
    scale = _scale(fields, weight_scale)
    candidates = list(records)
    needle = fold_for_containment(query)
    ranked: list[Ranked[T]]
    if not needle:
        ranked = [Ranked(record, 0.0, ()) for record in candidates]
    else:
        tokens = query_tokens(query)
        if mode == "exact" or len(needle) < MIN_FUZZY_QUERY_LENGTH or not tokens:
            ranked = _rank_containment(candidates, needle, fields, scale)
        else:
            ranked = _rank_fuzzy(candidates, tokens, fields, scale, min_score)
    ranked.sort(key=lambda entry: (-entry.score, key(entry.record)))
    return ranked if limit is None else ranked[:limit]


def _scale(fields: Sequence[Field[T]], weight_scale: float | None) -> float:
    for field in fields:
        if field.weight < 0:
            raise ValueError(f"field {field.name!r} has a negative weight")
    if weight_scale is None:
        weight_scale = max((field.weight for field in fields), default=1.0)
    if weight_scale <= 0:
        raise ValueError(f"weight scale must be > 0, got {weight_scale}")
    return weight_scale


def _texts(field: Field[T], record: T) -> tuple[bool, Sequence[str]]:
    """(is the field list-valued, its texts); a bare string is one text, not a character list."""
    raw = field.extract(record)
    if raw is None:
        return False, ()
    if isinstance(raw, str):
        return False, (raw,)
    return True, raw


def _rank_fuzzy(
    records: list[T],
    query: tuple[str, ...],
    fields: Sequence[Field[T]],
    scale: float,
    min_score: float,
) -> list[Ranked[T]]:
    # Every distinct text is tokenised once and every distinct (query token, field token) pair
    # scored once per call, however often a text or a word recurs across records.
    extracted = [[_texts(field, record) for field in fields] for record in records]
    values_of: dict[str, list[str]] = {}
    for per_field in extracted:
        for _, texts in per_field:
            for text in texts:
                if text and text not in values_of:
                    values_of[text] = token_values(text)
    vocabulary: set[str] = set().union(*values_of.values())
    hits = [vocabulary_hits(token, vocabulary) for token in query]
    verdicts = _verdicts(values_of, query, hits)
    if not verdicts:
        return []

    count = len(query)
    ratios = [field.weight / scale for field in fields]
    ranked: list[Ranked[T]] = []
    for record, per_field in zip(records, extracted, strict=True):
        best_field = 0.0
        best_weighted = 0.0
        token_best = [0.0] * count
        token_best_weighted = [0.0] * count
        touched: list[int] = []
        for position, (_, texts) in enumerate(per_field):
            field_top = 0.0
            ratio = ratios[position]
            for text in texts:
                found = verdicts.get(text)
                if found is None:
                    continue
                score, best = found
                if score > field_top:
                    field_top = score
                for index, value in enumerate(best):
                    if value > token_best[index]:
                        token_best[index] = value
                    if value * ratio > token_best_weighted[index]:
                        token_best_weighted[index] = value * ratio
            if field_top > 0.0:
                touched.append(position)
                best_field = max(best_field, field_top)
                best_weighted = max(best_weighted, field_top * ratio)
        if not touched:
            continue
        # Record-level coverage: words spread over fields (a person in one, a topic in another)
        # count together, on the same weight scale as the per-field scores.
        if max(best_field, _coverage_score(token_best)) < min_score:
            continue
        score = min(1.0, max(best_weighted, _coverage_score(token_best_weighted)))
        matches = _fuzzy_matches(per_field, fields, touched, verdicts, values_of, hits, ratios)
        ranked.append(Ranked(record, round(score, 2), matches))
    return ranked


def _verdicts(
    values_of: dict[str, list[str]], query: tuple[str, ...], hits: list[dict[str, float]]
) -> dict[str, _Verdict]:
    """Field score and best score per query token of every text that matches at all."""
    hit_sets = [frozenset(found) for found in hits]
    anything: frozenset[str] = frozenset().union(*hit_sets)
    by_token = dict(zip(query, hits, strict=True))

    def pair_score(query_token: str, field_token: str) -> float:
        return by_token[query_token].get(field_token, 0.0)

    verdicts: dict[str, _Verdict] = {}
    for text, values in values_of.items():
        # Most texts share no word with any hit; this test stops at the first shared word.
        if anything.isdisjoint(values):
            continue
        best: list[float] = []
        for found, keys in zip(hits, hit_sets, strict=True):
            common = keys.intersection(values)
            best.append(max(map(found.__getitem__, common)) if common else 0.0)
        score = combine_field_score(best, partial(phrase_present, values, query, pair_score))
        verdicts[text] = (score, tuple(best))
    return verdicts


def _coverage_score(best: list[float]) -> float:
    matched = sum(1 for value in best if value > 0.0)
    return sum(best) / len(best) * (matched / len(best))


def _fuzzy_matches(
    per_field: list[tuple[bool, Sequence[str]]],
    fields: Sequence[Field[T]],
    touched: list[int],
    verdicts: dict[str, _Verdict],
    values_of: dict[str, list[str]],
    hits: list[dict[str, float]],
    ratios: list[float],
) -> tuple[FieldMatch, ...]:
    def excerpt(text: str) -> str | None:
        offsets = _matched_offsets(text, values_of[text], verdicts[text][1], hits)
        return snippet(text, offsets) or None

    weighted: list[tuple[float, int, FieldMatch]] = []
    for position in touched:
        is_list, texts = per_field[position]
        scored = sorted(
            ((verdicts[text][0], index, text) for index, text in enumerate(texts) if text in verdicts),
            key=lambda entry: (-entry[0], entry[1]),
        )
        top_score, top_index, top_text = scored[0]
        top_snippet = excerpt(top_text)
        items: tuple[ItemMatch, ...] = ()
        if is_list:
            items = tuple(
                ItemMatch(index, score, top_snippet if index == top_index else excerpt(text))
                for score, index, text in scored
            )
        match = FieldMatch(fields[position].name, top_score, top_snippet, items)
        weighted.append((top_score * ratios[position], position, match))
    weighted.sort(key=lambda entry: (-entry[0], entry[1]))
    return tuple(match for _, _, match in weighted)


def _matched_offsets(text: str, values: list[str], best: tuple[float, ...], hits: list[dict[str, float]]) -> list[int]:
    """Per matched query token, the start of the first field token reaching its best score.

    Same anchors as ``score_field``; only computed for texts that end up in a result.
    """
    targets = [
        frozenset(token for token, score in found.items() if score == top).intersection(values)
        for found, top in zip(hits, best, strict=True)
        if top > 0.0
    ]
    if text.isascii():
        lowered = text.lower()
        return [min(_first_whole_word(lowered, token) for token in wanted) for wanted in targets]
    # The token list already says which token comes first; only its offset is left to find.
    return [token_start(text, min(map(values.index, wanted))) for wanted in targets]


def _first_whole_word(lowered: str, word: str) -> int:
    """First offset of ``word`` as a whole ASCII token of ``lowered``; len(lowered) if absent."""
    start = lowered.find(word)
    while start >= 0:
        end = start + len(word)
        if (start == 0 or not lowered[start - 1].isalnum()) and (end == len(lowered) or not lowered[end].isalnum()):
            return start
        start = lowered.find(word, start + 1)
    return len(lowered)


def _rank_containment(records: list[T], needle: str, fields: Sequence[Field[T]], scale: float) -> list[Ranked[T]]:
    """Exact mode and very short queries: a field scores 1 when it contains the folded query."""
    folded: dict[str, bool] = {}

    def contains(text: str) -> bool:
        known = folded.get(text)
        if known is None:
            known = folded[text] = needle in fold_for_containment(text)
        return known

    def excerpt(text: str) -> str | None:
        return snippet(text, [locate_folded(text, needle)]) or None

    ranked: list[Ranked[T]] = []
    for record in records:
        weighted: list[tuple[float, int, FieldMatch]] = []
        for position, field in enumerate(fields):
            is_list, texts = _texts(field, record)
            indexes = [index for index, text in enumerate(texts) if text and contains(text)]
            if not indexes:
                continue
            top_snippet = excerpt(texts[indexes[0]])
            items: tuple[ItemMatch, ...] = ()
            if is_list:
                items = tuple(
                    ItemMatch(index, 1.0, top_snippet if index == indexes[0] else excerpt(texts[index]))
                    for index in indexes
                )
            weighted.append((field.weight / scale, position, FieldMatch(field.name, 1.0, top_snippet, items)))
        best = max((entry[0] for entry in weighted), default=0.0)
        if best > 0.0:
            weighted.sort(key=lambda entry: (-entry[0], entry[1]))
            matches = tuple(match for _, _, match in weighted)
            ranked.append(Ranked(record, round(min(1.0, best), 2), matches))
    return ranked
