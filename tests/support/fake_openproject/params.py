"""Query parameters as OpenProject reads them: JSON ``filters`` and ``sortBy``, ``offset``/``pageSize``.

Anything OpenProject refuses with 400 raises :class:`ApiError` here, before any record is read.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from openproject_mcp.domain.queries import Filter, PageRequest, SortKey
from tests.support.fake_openproject.errors import ApiError, bad_request, invalid_query

DEFAULT_PAGE_SIZE = 20
"""``Setting.per_page_options_array.min`` with OpenProject's default "20,100"."""


def parse_filters(raw: str) -> list[Filter]:
    """``[{"name": {"operator": "=", "values": [...]}}, ...]``; ``values`` may be ``null`` or absent."""
    try:
        document: Any = json.loads(raw)
    except ValueError:
        raise invalid_query("Filters is not valid JSON.") from None
    if not isinstance(document, list):
        raise invalid_query("Filters must be a JSON array of filter objects.")
    filters: list[Filter] = []
    for entry in document:
        if not isinstance(entry, dict) or len(entry) != 1:
            raise invalid_query("Filters Each filter must be an object with exactly one filter name.")
        ((name, spec),) = entry.items()
        if not isinstance(spec, dict) or not isinstance(spec.get("operator"), str):
            raise invalid_query(f"Filters The filter '{name}' needs an operator.")
        values = spec.get("values")
        if values is None:
            values = []
        if not isinstance(values, list) or any(isinstance(v, dict | list) for v in values):
            raise invalid_query(f"Filters The values of the filter '{name}' must be a list of strings.")
        filters.append(Filter(str(name), spec["operator"], tuple(_value_text(v) for v in values if v is not None)))
    return filters


def _value_text(value: object) -> str:
    if isinstance(value, bool):
        return "t" if value else "f"
    return str(value)


def parse_sort(raw: str) -> list[SortKey]:
    """``[["updatedAt", "desc"], ...]``, or OpenProject's string form ``updatedAt:desc,id``."""
    text = raw.strip()
    if text.startswith("["):
        try:
            document: Any = json.loads(text)
        except ValueError:
            raise invalid_query("Sort by is not valid JSON.") from None
        keys: list[SortKey] = []
        for entry in document if isinstance(document, list) else [None]:
            if (
                not isinstance(entry, list)
                or not 1 <= len(entry) <= 2
                or not all(isinstance(part, str) for part in entry)
            ):
                raise invalid_query('Sort by must be a JSON array of ["attribute", "asc|desc"] pairs.')
            keys.append(SortKey(entry[0], entry[1] if len(entry) == 2 else "asc"))
        return keys
    keys = []
    for part in filter(None, (p.strip() for p in text.split(","))):
        attribute, _, direction = part.partition(":")
        keys.append(SortKey(attribute, direction or "asc"))
    return keys


def _integer(query: Mapping[str, str], name: str) -> int | None:
    raw = query.get(name)
    if raw is None or raw == "":
        return None
    try:
        return int(raw)
    except ValueError:
        raise bad_request(f"{name} is invalid: '{raw}' is not an integer.") from None


def parse_page(query: Mapping[str, str], page_size_max: int) -> PageRequest:
    """The page asked for: 1-based ``offset`` (below 1 means 1), ``pageSize`` clamped to the maximum
    (``-1`` or any negative size means the maximum), 20 by default."""
    offset = _integer(query, "offset")
    size = _integer(query, "pageSize")
    if size is None:
        size = min(DEFAULT_PAGE_SIZE, page_size_max)
    elif size < 0 or size > page_size_max:
        size = page_size_max
    return PageRequest(offset=max(1, offset if offset is not None else 1), page_size=size)


@dataclass(frozen=True, slots=True)
class Listing:
    """What a collection request asked for."""

    filters: list[Filter] | None
    """``None`` when the request carried no ``filters`` parameter at all."""
    sort_by: list[SortKey]
    page: PageRequest


def parse_listing(query: Mapping[str, str], page_size_max: int) -> Listing:
    raw_filters = query.get("filters")
    raw_sort = query.get("sortBy")
    return Listing(
        filters=None if raw_filters is None else parse_filters(raw_filters),
        sort_by=[] if raw_sort is None or not raw_sort.strip() else parse_sort(raw_sort),
        page=parse_page(query, page_size_max),
    )


def filters_json(filters: list[Filter]) -> str:
    return json.dumps(
        [{f.name: {"operator": f.operator, "values": list(f.values)}} for f in filters],
        separators=(",", ":"),
        ensure_ascii=False,
    )


def sort_json(sort_by: list[SortKey]) -> str:
    return json.dumps([[s.attribute, s.direction] for s in sort_by], separators=(",", ":"))


__all__ = [
    "DEFAULT_PAGE_SIZE",
    "ApiError",
    "Listing",
    "filters_json",
    "parse_filters",
    "parse_listing",
    "parse_page",
    "parse_sort",
    "sort_json",
]
