"""What makes one incoming JSON-RPC message acceptable, checked the same way on every transport.

The SDK validates messages too, but over stdio it drops a message it cannot validate without an
answer, so a client whose request carried an id would wait forever. Every transport runs this
check first and answers a refused message itself: a parse error with ``id: null``, anything else
with the request's own id where one can be read.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Final

from mcp.types import INVALID_REQUEST, PARSE_ERROR

MAX_DEPTH: Final = 64
NOT_ONE_MESSAGE: Final = (
    'A request must be one JSON-RPC 2.0 message: {"jsonrpc": "2.0", "id": 1, "method": "...", '
    '"params": {...}}. Batches are not supported.'
)

RequestId = str | int


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why a message is refused: the JSON-RPC error to answer with, and which kind for the access log."""

    code: int
    message: str
    request_id: RequestId | None
    kind: str


@dataclass(frozen=True, slots=True)
class Inspected:
    """An acceptable message, with what the access log may say about it."""

    message: dict[str, Any]
    request_id: RequestId | None
    method: str | None


def inspect_message(raw: bytes | str, *, what: str = "request body", responses: bool = False) -> Inspected | Refusal:
    """``raw`` as one JSON-RPC 2.0 message, or why not.

    ``responses`` allows messages without a method that answer a request of the server (stdio
    clients answer pings and sampling requests); a stateless HTTP server sends no requests.
    """
    try:
        message = json.loads(raw)
    except (ValueError, RecursionError):
        return Refusal(PARSE_ERROR, f"Parse error: the {what} is not valid JSON.", None, "(unparsable)")
    if not isinstance(message, dict):
        return Refusal(
            INVALID_REQUEST, NOT_ONE_MESSAGE, None, "(batch)" if isinstance(message, list) else "(not an object)"
        )
    raw_id = message.get("id")
    request_id: RequestId | None = raw_id if isinstance(raw_id, str | int) and not isinstance(raw_id, bool) else None
    if "id" in message and raw_id is not None and request_id is None:
        return Refusal(INVALID_REQUEST, "The id must be a string or an integer.", None, "(bad id)")
    depth = _depth(message)
    if depth > MAX_DEPTH:
        return Refusal(
            INVALID_REQUEST,
            f"The message is nested {depth} levels deep; at most {MAX_DEPTH} are accepted.",
            request_id,
            "(too deep)",
        )
    if _has_lone_surrogate(message):
        return Refusal(
            INVALID_REQUEST,
            "The message contains a lone UTF-16 surrogate (such as \\ud800), which is not valid Unicode text.",
            request_id,
            "(bad text)",
        )
    method = message.get("method")
    if message.get("jsonrpc") != "2.0":
        return Refusal(INVALID_REQUEST, NOT_ONE_MESSAGE, request_id, "(not 2.0)")
    if method is None and responses and request_id is not None and ("result" in message or "error" in message):
        return Inspected(message, request_id, None)
    if not isinstance(method, str):
        return Refusal(INVALID_REQUEST, NOT_ONE_MESSAGE, request_id, "(no method)")
    params = message.get("params")
    if params is not None and not isinstance(params, dict):
        return Refusal(
            INVALID_REQUEST,
            f"params must be a JSON object (named parameters), got a JSON {_json_kind(params)}.",
            request_id,
            "(bad params)",
        )
    return Inspected(message, request_id, method)


def _depth(value: Any) -> int:
    """How deeply containers nest in ``value``, counted without recursion (and stopped past the limit)."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, level = stack.pop()
        if level > deepest:
            deepest = level
            if deepest > MAX_DEPTH:
                return deepest
        if isinstance(item, dict):
            stack.extend((child, level + 1) for child in item.values() if isinstance(child, dict | list))
        elif isinstance(item, list):
            stack.extend((child, level + 1) for child in item if isinstance(child, dict | list))
    return deepest


def _has_lone_surrogate(value: Any) -> bool:
    stack: list[Any] = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if _surrogate(item):
                return True
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


def _surrogate(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def _json_kind(value: Any) -> str:
    if isinstance(value, list):
        return "array"
    if isinstance(value, str):
        return "string"
    if isinstance(value, bool):
        return "boolean"
    return "number" if isinstance(value, int | float) else "value"


def error_message(refusal: Refusal) -> dict[str, Any]:
    """The JSON-RPC error response for ``refusal``."""
    return {"jsonrpc": "2.0", "id": refusal.request_id, "error": {"code": refusal.code, "message": refusal.message}}
