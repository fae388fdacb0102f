"""OpenProject's query vocabulary: filters, sort keys and pages, as plain values."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Generic, Literal, TypeVar

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Filter:
    """One OpenProject filter: ``{name: {"operator": operator, "values": values}}``."""

    name: str
    operator: str
    values: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class SortKey:
    attribute: str
    direction: str = "asc"  # "asc" | "desc"


MeetingTime = Literal["upcoming", "past"]
MeetingOrder = Literal["earliest_first", "newest_first"]


@dataclass(frozen=True, slots=True)
class MeetingQuery:
    """Which meetings, in which order: an intent that each backend translates to what it speaks.

    ``time``: ``upcoming`` (starting after now) or ``past`` (the others); ``None`` for both.
    ``text``: a server-side full-text match (each word in the title, an agenda item, an outcome
    or a participant's name), only where the capability ``meeting_search_filter`` holds. ``order``:
    ``earliest_first`` or ``newest_first`` by start time, ties by ascending id.
    """

    project_id: int | None = None
    time: MeetingTime | None = None
    text: str | None = None
    order: MeetingOrder = "earliest_first"


@dataclass(frozen=True, slots=True)
class PageRequest:
    """OpenProject pagination: ``offset`` is a 1-based page number, not a row offset."""

    offset: int = 1
    page_size: int = 20

    def window(self, items: Sequence[T]) -> Page[T]:
        """This page of ``items``, an ordered list held in memory (ranked hits)."""
        start = (self.offset - 1) * self.page_size
        return Page(tuple(items[start : start + self.page_size]), len(items), self.offset, self.page_size)


@dataclass(frozen=True, slots=True)
class Page(Generic[T]):
    """One page of a collection, with the collection's total."""

    items: tuple[T, ...]
    total: int
    offset: int
    page_size: int

    @property
    def has_more(self) -> bool:
        return more_pages(self.offset, self.page_size, self.total)


def more_pages(offset: int, page_size: int, total: int) -> bool:
    """Whether a page after page ``offset`` of ``page_size`` exists: the one rule for ``hasMore``."""
    return offset * page_size < total


def replace_filters(generated: Sequence[Filter], overrides: Sequence[Filter]) -> tuple[Filter, ...]:
    """Generated filters, with any of the same name replaced by the caller's raw filter."""
    names = {f.name for f in overrides}
    return tuple(f for f in generated if f.name not in names) + tuple(overrides)
