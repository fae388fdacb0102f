"""One JSON access-log line per HTTP request, built from facts that can never hold a token."""

from __future__ import annotations

import json
import logging
import re
import sys
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Final, TextIO

from starlette.types import Scope

from openproject_mcp.adapters.mcp.catalog import TOOLS

access_log = logging.getLogger("openproject_mcp.http.access")

MCP_PATH: Final = "/mcp"
SIGN_IN_PATHS: Final = (  # with sign-in on (``signin``); queries there carry codes, and are never logged
    "/authorize",
    "/token",
    "/register",
    "/revoke",
    "/oauth/callback",
    "/oauth/consent",
    "/.well-known/oauth-authorization-server",
    "/.well-known/oauth-protected-resource/mcp",
)
KNOWN_PATHS: Final = frozenset({MCP_PATH, "/healthz", "/readyz", *SIGN_IN_PATHS})
KNOWN_TOOLS: Final = frozenset(spec.name for spec in TOOLS)
EXCHANGE_KEY: Final = "openproject_mcp.exchange"

_REQUEST_ID = re.compile(r"^[A-Za-z0-9._:-]{1,64}$")
_ID_PIECES = re.compile(r"[._:-]")
# A request id is kept only when it cannot be a secret. Ids made by proxies are UUIDs or at most
# 32 hex digits (nginx's $request_id); an unbroken run longer than that is what API tokens look like.
_LONGEST_ID_PIECE: Final = 32
# What a client sends is logged only when it cannot be a secret: a token pasted in the wrong place
# (a path, a method, a tool name) must not end up in the access log.
_RPC_METHOD = re.compile(r"^[a-z][A-Za-z/_]{0,63}$")


@dataclass(slots=True)
class Exchange:
    """Facts about one HTTP request, filled in as it passes through; never holds a token."""

    request_id: str
    rpc_method: str | None = None
    tool: str | None = None
    tenant: str | None = None
    auth: str = "none"
    rejected: str | None = None
    query_ignored: bool = False


def exchange_of(scope: Scope) -> Exchange:
    found = scope.get(EXCHANGE_KEY)
    if isinstance(found, Exchange):
        return found
    created = Exchange(request_id=new_request_id())
    scope[EXCHANGE_KEY] = created
    return created


def new_request_id() -> str:
    return uuid.uuid4().hex[:16]


def acceptable_request_id(candidate: str, credential: str | None) -> bool:
    """Whether a client's ``X-Request-Id`` may be logged and echoed: short, plain and not token-like."""
    if not _REQUEST_ID.match(candidate):
        return False
    if credential and (credential in candidate or candidate in credential):
        return False
    return all(len(piece) <= _LONGEST_ID_PIECE for piece in _ID_PIECES.split(candidate))


def note_rpc(exchange: Exchange, method: str | None, params: Any) -> None:
    """The JSON-RPC method and tool name for the log, each only when it is one we know the shape of."""
    if method is None:
        return
    exchange.rpc_method = method if _RPC_METHOD.match(method) else "(other)"
    if method == "tools/call" and isinstance(params, dict) and isinstance(params.get("name"), str):
        exchange.tool = params["name"] if params["name"] in KNOWN_TOOLS else "(unknown)"


def is_mcp(scope: Scope) -> bool:
    return str(scope.get("path", "")).rstrip("/") == MCP_PATH


def _loggable_path(scope: Scope) -> str:
    """The path, never the query string; any path but ours is summarised, as it could hold anything."""
    path = str(scope.get("path", ""))
    return path if path in KNOWN_PATHS or is_mcp(scope) else "(other)"


_KNOWN_METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})


def _loggable_method(scope: Scope) -> str:
    """The HTTP method as sent when it is a standard one; anything else may carry text a client chose."""
    method = str(scope.get("method", ""))
    return method if method in _KNOWN_METHODS else "(other)"


def log_exchange(scope: Scope, exchange: Exchange, status: int, seconds: float) -> None:
    if not access_log.isEnabledFor(logging.INFO):
        return
    client = scope.get("client")
    record: dict[str, Any] = {
        "ts": datetime.now(UTC).isoformat(timespec="milliseconds"),
        "event": "http_request",
        "request_id": exchange.request_id,
        "method": _loggable_method(scope),
        "path": _loggable_path(scope),
        "status": status,
        "duration_ms": round(seconds * 1000, 2),
        "client": client[0] if client else None,
    }
    if exchange.rpc_method is not None:
        record["rpc_method"] = exchange.rpc_method
    if exchange.tool is not None:
        record["tool"] = exchange.tool
    if is_mcp(scope):
        record["auth"] = exchange.auth
    if exchange.tenant is not None:
        record["tenant"] = exchange.tenant
    if exchange.rejected is not None:
        record["rejected"] = exchange.rejected
    if exchange.query_ignored:
        record["query_string_ignored"] = True
    access_log.info(json.dumps(record, separators=(",", ":"), ensure_ascii=False))


def install_access_log_handler(stream: TextIO | None = None) -> None:
    """Access lines are bare JSON objects on stderr, one per line, ready for a log shipper."""
    if access_log.handlers:
        return
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(logging.Formatter("%(message)s"))
    access_log.addHandler(handler)
    access_log.propagate = False
