"""A ceiling on the size of one tool result, whatever the instance sent.

Every user text is already cut at :data:`~openproject_mcp.application.views.TEXT_LIMIT`, but a
page of a hundred records with long texts, a work package with hundreds of long custom fields
or a whole OpenAPI document can still be megabytes. :func:`fit_result` keeps a result within a
number of characters of compact JSON (the size of its text content): first by dropping the
last records of its longest list, then by cutting long texts further, and it says what it cut
in the result's ``notes`` (and ``truncated: true`` on each record whose text it shortened).
"""

from __future__ import annotations

import dataclasses
from datetime import date, datetime
from typing import Any, Literal, TypeVar

from openproject_mcp.domain.errors import UpstreamServerError

T = TypeVar("T")

# What a tool answer carries (OPENPROJECT_RESULT_FORMAT): both its forms, only its text, or only its data.
ResultFormat = Literal["full", "content", "structured"]
# How much of each result's schema tools/list shows (OPENPROJECT_OUTPUT_SCHEMAS).
OutputSchemas = Literal["keys", "outline", "full"]

DEFAULT_MAX_RESULT_CHARS = 2_000_000
SETTING = "OPENPROJECT_MAX_RESULT_CHARS"
# Texts are shortened in halving steps down to this length before the result is refused.
_SHORTEST_TEXT = 250


def json_size(value: Any) -> int:
    """The length of ``value`` as compact JSON, approximately (escapes are not counted)."""
    if value is None:
        return 4
    if isinstance(value, str):
        return len(value) + 2
    if isinstance(value, bool):
        return 5
    if isinstance(value, int | float):
        return len(repr(value))
    if isinstance(value, datetime | date):
        return 27
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        total = 2
        for field in dataclasses.fields(value):
            item = getattr(value, field.name)
            if item is not None:
                total += len(field.name) + 4 + json_size(item)
        return total
    if isinstance(value, tuple | list):
        return 2 + sum(json_size(v) + 1 for v in value)
    if isinstance(value, dict):
        return 2 + sum(len(str(k)) + 4 + json_size(v) for k, v in value.items())
    return len(str(value)) + 2


def fit_result(result: T, max_chars: int) -> T:
    """``result`` if it is at most ``max_chars`` characters of JSON; else cut to fit, saying so.

    Raises :class:`UpstreamServerError` if even the cut result does not fit (one record that is
    that large, such as a huge OpenAPI document asked for whole).
    """
    size = json_size(result)
    if size <= max_chars or not dataclasses.is_dataclass(result) or isinstance(result, type):
        return result
    cuts: list[str] = []
    fitted: Any = _drop_records(result, max_chars, cuts)
    text_limit = _longest_text(fitted) // 2
    shortened = False
    while json_size(fitted) > max_chars and text_limit >= _SHORTEST_TEXT:
        fitted = _shorten(fitted, text_limit)
        shortened = True
        text_limit //= 2
    if shortened:
        cuts.append(f"long texts were shortened to {text_limit * 2:,} characters (those records say truncated)")
    if json_size(fitted) > max_chars:
        raise UpstreamServerError(
            f"The result would be about {size:,} characters, more than the {max_chars:,} one result may have "
            f"({SETTING}), even with its texts cut.",
            hint="Ask for less: a smaller pageSize, one path, tag or schema of the API description instead of "
            f"full=true; or raise {SETTING}.",
        )
    note = f"This result was cut to stay within {max_chars:,} characters ({SETTING}): {'; '.join(cuts)}."
    noted: T = _with_note(fitted, note)
    return noted


def _drop_records(result: Any, max_chars: int, cuts: list[str]) -> Any:
    """``result`` without the last records of its largest list (top level or one level down)."""
    holder, name, items = _largest_list(result)
    if holder is None or len(items) < 2:
        return result
    overflow = json_size(result) - max_chars
    sizes = [json_size(item) + 1 for item in items]
    keep = len(items)
    dropped = 0
    while keep > 1 and dropped < overflow:
        keep -= 1
        dropped += sizes[keep]
    if keep == len(items):
        return result
    changes: dict[str, Any] = {name: tuple(items[:keep])}
    if "count" in _field_names(holder):
        changes["count"] = keep
    replaced = dataclasses.replace(holder, **changes)
    cuts.append(f"only the first {keep} of the {len(items)} {_words(name)} are shown; ask for a smaller page")
    if holder is result:
        return replaced
    for field in dataclasses.fields(result):
        if getattr(result, field.name) is holder:
            return dataclasses.replace(result, **{field.name: replaced})
    return result


def _largest_list(result: Any) -> tuple[Any, str, tuple[Any, ...]]:
    best: tuple[Any, str, tuple[Any, ...]] = (None, "", ())
    best_size = -1
    candidates = [result] + [
        getattr(result, f.name)
        for f in dataclasses.fields(result)
        if dataclasses.is_dataclass(getattr(result, f.name)) and not isinstance(getattr(result, f.name), type)
    ]
    for holder in candidates:
        for field in dataclasses.fields(holder):
            value = getattr(holder, field.name)
            if isinstance(value, tuple) and field.name != "notes" and (size := json_size(value)) > best_size:
                best, best_size = (holder, field.name, value), size
    return best


def _shorten(value: Any, limit: int) -> Any:
    """``value`` with every string longer than ``limit`` cut, marking the records that held one."""
    if isinstance(value, str):
        return value[:limit] if len(value) > limit else value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        changes: dict[str, Any] = {}
        cut = False
        for field in dataclasses.fields(value):
            if field.name == "notes":
                continue
            item = getattr(value, field.name)
            shortened = _shorten(item, limit)
            if shortened is not item:
                changes[field.name] = shortened
                cut = cut or _own_text(item)
        if cut and "truncated" in _field_names(value):
            changes["truncated"] = True
        return dataclasses.replace(value, **changes) if changes else value
    if isinstance(value, tuple):
        items = tuple(_shorten(v, limit) for v in value)
        return items if any(a is not b for a, b in zip(items, value, strict=True)) else value
    if isinstance(value, list):
        return [_shorten(v, limit) for v in value]
    if isinstance(value, dict):
        return {k: _shorten(v, limit) for k, v in value.items()}
    return value


def _own_text(value: Any) -> bool:
    """Whether ``value`` is text of the record holding it (not of records nested in it)."""
    if isinstance(value, tuple | list):
        return not all(dataclasses.is_dataclass(v) for v in value)
    return not dataclasses.is_dataclass(value)


def _longest_text(value: Any) -> int:
    longest = 0
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            longest = max(longest, len(item))
        elif dataclasses.is_dataclass(item) and not isinstance(item, type):
            stack.extend(getattr(item, f.name) for f in dataclasses.fields(item))
        elif isinstance(item, tuple | list):
            stack.extend(item)
        elif isinstance(item, dict):
            stack.extend(item.values())
    return longest


def _with_note(result: Any, note: str) -> Any:
    if "notes" not in _field_names(result):
        return result
    notes = tuple(result.notes or ())
    return dataclasses.replace(result, notes=(*notes, note))


def _field_names(value: Any) -> set[str]:
    return {f.name for f in dataclasses.fields(value)}


def _words(name: str) -> str:
    return name.replace("_", " ")
