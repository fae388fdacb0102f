"""Validation and parsing of tool arguments, done before any request is sent."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from openproject_mcp.domain.errors import InvalidArgumentError
from openproject_mcp.domain.queries import Filter, PageRequest, SortKey
from openproject_mcp.domain.search import MatchMode

MAX_PAGE_SIZE = 100
MAX_QUERY_LENGTH = 5000

# ``filters`` and ``sortBy`` arrive as a JSON value or as that value encoded in a string.
JsonArgument = str | Sequence[Any]

_FILTERS_EXAMPLE = '[{"status":{"operator":"o","values":[]}}]'
_SORT_EXAMPLE = '"name", "name:desc" or [["name","asc"]]'


def page_request(offset: int, page_size: int, *, max_page_size: int = MAX_PAGE_SIZE) -> PageRequest:
    """A validated page request: ``offset`` is a 1-based page number."""
    if isinstance(offset, bool) or not isinstance(offset, int) or offset < 1:
        raise InvalidArgumentError(f"offset must be a page number of 1 or more, got {offset!r}.")
    if isinstance(page_size, bool) or not isinstance(page_size, int) or not 1 <= page_size <= max_page_size:
        raise InvalidArgumentError(f"pageSize must be between 1 and {max_page_size}, got {page_size!r}.")
    return PageRequest(offset=offset, page_size=page_size)


def positive_id(value: object, argument: str) -> int:
    """A positive integer id, also accepted as a string of digits."""
    if isinstance(value, bool):
        raise InvalidArgumentError(f"{argument} must be a positive integer id, got {value!r}.")
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value.strip())
    if not isinstance(value, int) or value < 1:
        raise InvalidArgumentError(f"{argument} must be a positive integer id, got {value!r}.")
    return value


def search_query(query: str | None, *, required: bool) -> str:
    """A search query: stripped, bounded, and not blank when the tool needs one."""
    text = (query or "").strip()
    if required and not text:
        raise InvalidArgumentError(
            "query must not be blank.", hint="Pass the words to look for, e.g. 'budget approval'."
        )
    if len(text) > MAX_QUERY_LENGTH:
        raise InvalidArgumentError(f"query is {len(text)} characters long; at most {MAX_QUERY_LENGTH} are allowed.")
    return text


def match_mode(value: str) -> MatchMode:
    if value == "fuzzy":
        return "fuzzy"
    if value == "exact":
        return "exact"
    raise InvalidArgumentError(f"matchMode must be 'fuzzy' or 'exact', got {value!r}.")


def parse_filters(raw: JsonArgument | None) -> tuple[Filter, ...]:
    """Parse OpenProject filters: an array of ``{name: {operator, values}}`` objects, as JSON
    or as the JSON text of one."""
    if raw is None:
        return ()
    if not isinstance(raw, str):
        return _filters_from(raw)
    if not raw.strip():
        return ()
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise InvalidArgumentError(
            f"filters is not valid JSON ({exc.msg} at character {exc.pos}).",
            hint=f"Pass an OpenProject filter array such as {_FILTERS_EXAMPLE}.",
        ) from None
    except RecursionError:
        raise InvalidArgumentError(
            "filters is nested too deeply to be a filter array (an array of objects, two levels of nesting).",
            hint=f"Pass an OpenProject filter array such as {_FILTERS_EXAMPLE}.",
        ) from None
    return _filters_from(data)


def _filters_from(data: object) -> tuple[Filter, ...]:
    if not isinstance(data, list | tuple):
        raise _filters_error("filters must be a JSON array")
    parsed: list[Filter] = []
    for index, entry in enumerate(data):
        if not isinstance(entry, dict) or len(entry) != 1:
            raise _filters_error(f"filters[{index}] must be an object with exactly one filter name")
        ((name, spec),) = entry.items()
        if not isinstance(name, str) or not name.strip():
            raise _filters_error(f"filters[{index}] has an empty filter name")
        if not isinstance(spec, dict) or not isinstance(spec.get("operator"), str) or not spec["operator"]:
            raise _filters_error(f"filters[{index}] ({name}) needs an 'operator' string")
        values = spec.get("values", [])
        if values is None:
            values = []
        if not isinstance(values, list) or not all(_is_scalar(v) for v in values):
            raise _filters_error(f"filters[{index}] ({name}) 'values' must be an array of strings or numbers")
        parsed.append(Filter(name, spec["operator"], tuple(_filter_value(v) for v in values)))
    return tuple(parsed)


def parse_sort_by(
    raw: JsonArgument | None, *, allowed: Mapping[str, str] | Iterable[str] | None = None
) -> tuple[SortKey, ...]:
    """Parse ``name``, ``name:desc``, ``a,b:desc`` or OpenProject's ``[["name","asc"]]``, as JSON or
    as its JSON text.

    ``allowed`` names the attributes a caller may sort by, in camelCase, mapped to what OpenProject
    is sent (a plain list sends each name as it is). An attribute is matched ignoring case and
    underscores, so ``createdAt``, ``created_at`` and ``CREATED_AT`` are one key.
    """
    if raw is None:
        return ()
    keys: list[SortKey] = []
    text = raw.strip() if isinstance(raw, str) else ""
    if isinstance(raw, str) and not text:
        return ()
    if not isinstance(raw, str) or text.startswith("["):
        data: object = raw
        if isinstance(raw, str):
            try:
                data = json.loads(text)
            except json.JSONDecodeError as exc:
                raise InvalidArgumentError(
                    f"sortBy is not valid JSON ({exc.msg}).", hint=f"Use {_SORT_EXAMPLE}."
                ) from None
            except RecursionError:
                raise InvalidArgumentError("sortBy is nested too deeply.", hint=f"Use {_SORT_EXAMPLE}.") from None
        if not isinstance(data, list | tuple):
            raise InvalidArgumentError(f"sortBy must be {_SORT_EXAMPLE}.")
        for pair in data:
            if isinstance(pair, str):  # ["name", "updatedAt:desc"]
                attribute, _, direction = pair.strip().partition(":")
                keys.append(_sort_key(attribute, direction or "asc"))
                continue
            if (
                not isinstance(pair, list | tuple)
                or len(pair) != 2
                or not all(isinstance(part, str) and part for part in pair)
            ):
                raise InvalidArgumentError(
                    f"sortBy entries must be [attribute, direction] pairs; got {pair!r}.", hint=f"Use {_SORT_EXAMPLE}."
                )
            keys.append(_sort_key(pair[0], pair[1]))
    else:
        for part in text.split(","):
            attribute, _, direction = part.strip().partition(":")
            keys.append(_sort_key(attribute, direction or "asc"))
    if allowed is not None:
        sent = dict(allowed) if isinstance(allowed, Mapping) else {name: name for name in allowed}
        return tuple(_allowed_sort_key(key, sent) for key in keys)
    return tuple(keys)


def _allowed_sort_key(key: SortKey, sent: Mapping[str, str]) -> SortKey:
    by_fold = {_fold_attribute(name): wire for name, wire in sent.items()}
    wire = by_fold.get(_fold_attribute(key.attribute))
    if wire is None:
        raise InvalidArgumentError(
            f"sortBy cannot sort by {key.attribute!r}; use one of: {', '.join(sorted(sent))} (camelCase or snake_case)."
        )
    return SortKey(wire, key.direction)


def _fold_attribute(name: str) -> str:
    """``createdAt``, ``created_at`` and ``CreatedAt`` alike: lower case, without underscores."""
    return name.replace("_", "").casefold()


def _sort_key(attribute: str, direction: str) -> SortKey:
    attribute = attribute.strip()
    direction = direction.strip().lower()
    if not attribute:
        raise InvalidArgumentError(f"sortBy names no attribute; use {_SORT_EXAMPLE}.")
    if direction not in ("asc", "desc"):
        raise InvalidArgumentError(f"sortBy direction must be 'asc' or 'desc', got {direction!r}.")
    return SortKey(attribute, direction)


def _is_scalar(value: Any) -> bool:
    return isinstance(value, str | int | float | bool) or value is None


def _filter_value(value: Any) -> str:
    if isinstance(value, bool):
        return "t" if value else "f"
    return "" if value is None else str(value)


def _filters_error(problem: str) -> InvalidArgumentError:
    return InvalidArgumentError(f"{problem}.", hint=f"Pass an OpenProject filter array such as {_FILTERS_EXAMPLE}.")
