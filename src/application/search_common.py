"""Pieces shared by the three search use cases: legs, notes and paging of ranked hits."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from openproject_mcp.domain.search import query_tokens

T = TypeVar("T")

MAX_FULL_TEXT_LEGS = 4
FULL_TEXT_LEG_SIZE = 100
SUBJECT_LEG_SIZE = 100
RECENCY_WINDOW = 250


def full_text_terms(query: str) -> tuple[str, ...]:
    """The words worth one server-side full-text request each: longest first, at most four."""
    terms = [t for t in query_tokens(query) if len(t) >= 3]
    return tuple(sorted(terms, key=lambda t: (-len(t), t))[:MAX_FULL_TEXT_LEGS])


@dataclass(slots=True)
class CandidateSet(Generic[T]):
    """Candidates gathered from several requests, deduplicated by id in arrival order."""

    by_id: dict[int, T] = field(default_factory=dict)
    server_matches: set[int] = field(default_factory=set)
    limit_reached: bool = False
    failed_legs: int = 0
    notes: list[str] = field(default_factory=list)

    def add(self, records: Iterable[T], key: Callable[[T], int], *, server_match: bool = False) -> None:
        for record in records:
            self.by_id.setdefault(key(record), record)
            if server_match:
                self.server_matches.add(key(record))

    @property
    def items(self) -> list[T]:
        return list(self.by_id.values())


def enrichment_note(enriched: int, candidates: int, what: str, how_else: str) -> str | None:
    if candidates == 0 or enriched >= candidates:
        return None
    return (
        f"{what} were read for {enriched} of {candidates} candidates (the best shallow matches, then the "
        f"server's full-text hits, then the most recently updated); {how_else}"
    )


def failure_note(failures: int, what: str) -> str | None:
    if not failures:
        return None
    noun = "record" if failures == 1 else "records"
    return f"{failures} {noun} could not be read in full ({what} missing); they were ranked on what the list returned."
