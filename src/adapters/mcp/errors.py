"""Core errors as tool errors: ``Error [CODE]: message`` plus an optional hint line."""

from __future__ import annotations

from typing import Any

from mcp import MCPError
from mcp.types import CallToolResult, TextContent

from openproject_mcp.domain import errors as core

CODES: tuple[tuple[type[core.OpenProjectMcpError], str], ...] = (
    (core.InvalidArgumentError, "INVALID_ARGUMENT"),
    (core.AuthenticationError, "OPENPROJECT_AUTH_ERROR"),
    (core.ForbiddenError, "OPENPROJECT_FORBIDDEN"),
    (core.NotFoundError, "OPENPROJECT_NOT_FOUND"),
    (core.InvalidQueryError, "OPENPROJECT_INVALID_QUERY"),
    (core.RateLimitedError, "OPENPROJECT_RATE_LIMIT"),
    (core.UpstreamServerError, "OPENPROJECT_SERVER_ERROR"),
    (core.NetworkError, "OPENPROJECT_NETWORK_ERROR"),
    (core.UnsupportedError, "OPENPROJECT_UNSUPPORTED"),
    (core.ReadOnlyError, "SERVER_READ_ONLY"),
    (core.ConflictError, "OPENPROJECT_CONFLICT"),
)
INTERNAL_ERROR = "INTERNAL_ERROR"


def code_of(error: core.OpenProjectMcpError) -> str:
    for kind, code in CODES:
        if isinstance(error, kind):
            return code
    return INTERNAL_ERROR


def error_result(code: str, message: str, *, hint: str | None = None, status: int | None = None) -> CallToolResult:
    text = f"Error [{code}]: {message}"
    if hint:
        text += f"\n{hint}"
    data: dict[str, Any] = {"code": code, "message": message}
    if hint:
        data["hint"] = hint
    if status is not None:
        data["status"] = status
    return CallToolResult(content=[TextContent(type="text", text=text)], structured_content=data, is_error=True)


def core_error_result(error: core.OpenProjectMcpError) -> CallToolResult:
    return error_result(code_of(error), error.message, hint=error.hint, status=error.status)


# Outside tools/call (resources, prompts, completions) an error is a JSON-RPC error: the same code
# and message as a tool error, in the error's message and data.
INVALID_PARAMS = -32602
JSONRPC_INTERNAL_ERROR = -32603
_CALLER_CODES = frozenset({"INVALID_ARGUMENT", "OPENPROJECT_NOT_FOUND"})


def protocol_error(code: str, message: str, *, hint: str | None = None, status: int | None = None) -> MCPError:
    """``Error [CODE]: message`` as a JSON-RPC error; ``data`` carries code, message, hint and status.

    What the caller asked for wrongly (a bad argument, a record that does not exist) is
    ``-32602`` (invalid params); everything else ``-32603``.
    """
    text = f"Error [{code}]: {message}"
    if hint:
        text += f" {hint}"
    data: dict[str, Any] = {"code": code, "message": message}
    if hint:
        data["hint"] = hint
    if status is not None:
        data["status"] = status
    return MCPError(INVALID_PARAMS if code in _CALLER_CODES else JSONRPC_INTERNAL_ERROR, text, data)


def core_protocol_error(error: core.OpenProjectMcpError) -> MCPError:
    return protocol_error(code_of(error), error.message, hint=error.hint, status=error.status)
