"""Turning HTTP failures into the core's errors, with the API token kept out of every message.

OpenProject answers every 4xx/5xx with a HAL error object
(``{"_type": "Error", "errorIdentifier": "urn:openproject-org:api:v3:errors:<Name>", "message": ...}``).
The HTTP status decides the error type where it is unambiguous; the identifier decides for the
statuses that are not (a proxy's 418, OpenProject's 409...).
"""

from __future__ import annotations

import base64
from collections.abc import Iterable
from urllib.parse import quote

import msgspec

from openproject_mcp.domain.errors import (
    AuthenticationError,
    ForbiddenError,
    InvalidQueryError,
    NotFoundError,
    OpenProjectMcpError,
    RateLimitedError,
    UpstreamServerError,
)

RETRYABLE_STATUSES = frozenset({429, 502, 503, 504})

AUTH_HINT = (
    "Check OPENPROJECT_API_KEY. A token is created in OpenProject under My account → Access tokens "
    "(API), and it must belong to a user who can see the requested data."
)

_IDENTIFIER_PREFIX = "urn:openproject-org:api:v3:errors:"
_REDACTED = "[redacted]"

_INVALID_QUERY_IDENTIFIERS = frozenset(
    {
        "InvalidQuery",
        "InvalidRenderContext",
        "InvalidRequestBody",
        "InvalidSignal",
        "BadRequest",
        "MultipleErrors",
    }
)


class _ErrorDetail(msgspec.Struct, frozen=True, kw_only=True):
    message: str | None = None


class _ErrorEmbedded(msgspec.Struct, frozen=True, kw_only=True):
    errors: list[_ErrorDetail] = []


class _ErrorBody(msgspec.Struct, frozen=True, kw_only=True, rename="camel"):
    error_identifier: str | None = None
    message: str | None = None
    embedded: _ErrorEmbedded | None = msgspec.field(name="_embedded", default=None)


_ERROR_DECODER = msgspec.json.Decoder(_ErrorBody)


def secrets_for(api_key: str) -> tuple[str, ...]:
    """Every form in which the token could leak into a message: raw, base64, and the Basic credential."""
    if not api_key:
        return ()
    forms = {
        api_key,
        quote(api_key, safe=""),
        base64.b64encode(api_key.encode()).decode(),
        base64.b64encode(f"apikey:{api_key}".encode()).decode(),
        base64.urlsafe_b64encode(f"apikey:{api_key}".encode()).decode(),
    }
    # Base64 padding is often stripped when a value is echoed back; cover that too.
    forms |= {form.rstrip("=") for form in forms}
    # Longest first, so that a form containing another is replaced whole.
    return tuple(sorted((f for f in forms if f), key=len, reverse=True))


def redact(text: str, secrets: Iterable[str]) -> str:
    """``text`` with every occurrence of every secret replaced by a marker."""
    for secret in secrets:
        if secret:
            text = text.replace(secret, _REDACTED)
    return text


def parse_error_body(body: bytes) -> tuple[str | None, str | None]:
    """The error name (``NotFound``...) and message of a HAL error body; ``None`` where unreadable."""
    if not body:
        return None, None
    try:
        error = _ERROR_DECODER.decode(body)
    except (msgspec.DecodeError, msgspec.ValidationError):
        return None, None
    name = None
    if error.error_identifier:
        name = error.error_identifier.removeprefix(_IDENTIFIER_PREFIX)
    message = (error.message or "").strip() or None
    details = [d.message.strip() for d in error.embedded.errors if d.message] if error.embedded else []
    details = [d for d in details if d]
    # MultipleErrors carries a generic message; the useful text is in the embedded errors.
    if details and (name == "MultipleErrors" or message is None):
        message = " ".join(details)
    return name, message


def error_for_status(
    status: int,
    reason: str | None,
    body: bytes,
    *,
    path: str,
    retry_after: float | None,
    retries: int,
    secrets: Iterable[str],
) -> OpenProjectMcpError:
    """The core error for an HTTP error answer to ``GET path``."""
    secrets = tuple(secrets)
    name, upstream = parse_error_body(body)
    said = f": {upstream}" if upstream else "."
    status_text = f"HTTP {status}{f' {reason}' if reason else ''}"
    where = f"GET /{path}"

    def clean(text: str) -> str:
        return redact(text, secrets)

    kind = _kind_for(status, name)
    if kind is AuthenticationError:
        return AuthenticationError(
            clean(f"OpenProject rejected the API token ({status_text} on {where}){said}"),
            hint=AUTH_HINT,
            status=status,
        )
    if kind is ForbiddenError:
        return ForbiddenError(
            clean(f"The API token's user lacks the permission for this ({status_text} on {where}){said}"),
            hint="Ask an OpenProject administrator for the permission, or use a token of a user who has it.",
            status=status,
        )
    if kind is NotFoundError:
        return NotFoundError(clean(f"OpenProject has nothing visible at {where} ({status_text}){said}"), status=status)
    if kind is InvalidQueryError:
        return InvalidQueryError(
            clean(f"OpenProject refused the request ({status_text} on {where}){said}"),
            hint="Check the filter names, operators, values and sort keys.",
            status=status,
        )
    if kind is RateLimitedError:
        return rate_limited_error(path=path, retry_after=retry_after, retries=retries, secrets=secrets)
    retried = f" after {retries} {'retry' if retries == 1 else 'retries'}" if retries else ""
    return UpstreamServerError(
        clean(f"OpenProject failed to answer {where} ({status_text}{retried}){said}"),
        hint="The instance may be overloaded or down; try again later.",
        status=status,
    )


def rate_limited_error(
    *, path: str, retry_after: float | None, retries: int, secrets: Iterable[str]
) -> RateLimitedError:
    if retry_after is not None:
        wait = f"it asks to wait {_seconds(retry_after)} before the next request"
    else:
        wait = "wait a minute before the next request"
    retried = f" after {retries} {'retry' if retries == 1 else 'retries'}" if retries else ""
    return RateLimitedError(
        redact(f"OpenProject is rate limiting requests (HTTP 429 on GET /{path}{retried}); {wait}.", secrets),
        retry_after_seconds=retry_after,
        hint="Make fewer or smaller requests, then try again.",
    )


def _kind_for(status: int, name: str | None) -> type[OpenProjectMcpError]:
    if status == 401:
        return AuthenticationError
    if status == 403:
        return ForbiddenError
    if status == 404:
        return NotFoundError
    if status in (400, 422):
        return InvalidQueryError
    if status == 429:
        return RateLimitedError
    if status >= 500:
        return UpstreamServerError
    return _kind_for_identifier(name)


def _kind_for_identifier(name: str | None) -> type[OpenProjectMcpError]:
    if name == "Unauthenticated":
        return AuthenticationError
    if name in ("MissingPermission", "Unauthorized"):
        return ForbiddenError
    if name == "NotFound":
        return NotFoundError
    if name == "TooManyRequests":
        return RateLimitedError
    if name and (name in _INVALID_QUERY_IDENTIFIERS or name.startswith("Property")):
        return InvalidQueryError
    return UpstreamServerError


def _seconds(value: float) -> str:
    whole = round(value)
    return f"{whole} second{'' if whole == 1 else 's'}"
