"""Turning HTTP failures into the core's errors, with the API token kept out of every message.

OpenProject answers every 4xx/5xx with a HAL error object
(``{"_type": "Error", "errorIdentifier": "urn:openproject-org:api:v3:errors:<Name>", "message": ...}``).
The HTTP status decides the error type where it is unambiguous; the identifier decides for the
statuses that are not (a proxy's 418, OpenProject's 409...).
"""

from __future__ import annotations

import base64
import html
import json
import re
from collections.abc import Iterable
from urllib.parse import quote, quote_plus, unquote, urlsplit

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


def _echoes(secret: str) -> set[str]:
    """The spellings in which a secret comes back when some layer escapes it on the way."""
    escaped = {
        secret,
        quote(secret, safe=""),
        quote(secret),
        quote_plus(secret, safe=""),
        quote_plus(secret),
        json.dumps(secret)[1:-1],
        json.dumps(secret, ensure_ascii=False)[1:-1],
    }
    # HTML escapes, also of the URL-encoded forms (a query string echoed into an HTML page).
    for form in list(escaped):
        escaped |= {html.escape(form), html.escape(form, quote=False), html.escape(form).replace("&#x27;", "&#39;")}
    return escaped


def secrets_for(api_key: str, *others: str) -> tuple[str, ...]:
    """Every form in which the token (or another secret) could leak into a message.

    The token raw, URL-encoded (``quote``, ``quote_plus``), JSON- and HTML-escaped, base64 and
    as the Basic credential; ``others`` (such as the password of a base URL) in the same escaped
    spellings. :func:`redact` matches them regardless of case.
    """
    forms: set[str] = set()
    if api_key:
        forms |= _echoes(api_key)
        encoded = {
            base64.b64encode(api_key.encode()).decode(),
            base64.b64encode(f"apikey:{api_key}".encode()).decode(),
            base64.urlsafe_b64encode(f"apikey:{api_key}".encode()).decode(),
        }
        # Base64 padding is often stripped when a value is echoed back; cover that too.
        for form in encoded | {f.rstrip("=") for f in encoded}:
            forms |= _echoes(form)
    for secret in others:
        if secret:
            forms |= _echoes(secret)
            decoded = unquote(secret)  # a password taken from a URL may still be percent-encoded
            if decoded != secret:
                forms |= _echoes(decoded)
    # Longest first, so that a form containing another is replaced whole.
    return tuple(sorted((f for f in forms if f), key=lambda f: (-len(f), f)))


def url_password(url: str | None) -> str | None:
    """The password embedded in a URL (``https://user:pass@host/``), if any."""
    if not url:
        return None
    try:
        return urlsplit(url.strip()).password or None
    except ValueError:
        return None


def _pattern(secrets: tuple[str, ...]) -> re.Pattern[str] | None:
    forms = [s for s in secrets if s]
    if not forms:
        return None
    return re.compile("|".join(re.escape(s) for s in forms), re.IGNORECASE)


def redact(text: str, secrets: Iterable[str]) -> str:
    """``text`` with every occurrence of every secret, in any letter case, replaced by a marker."""
    pattern = _pattern(tuple(secrets))
    if pattern is None or not text:
        return text
    return pattern.sub(_REDACTED, text)


# Secrets shorter than this are not looked for inside response bodies: a short test token
# would otherwise match ordinary words. Real OpenProject tokens are 64 characters long.
_MIN_BODY_SECRET = 8


def redact_bytes(body: bytes, secrets: Iterable[str]) -> bytes:
    """A response body with the secrets replaced (case-insensitively), so no result can echo them.

    Cheap when nothing matches (a lower-cased copy and a substring search per form), which is
    the normal case; the replacement keeps the JSON valid (the marker needs no escaping).
    """
    forms = tuple(s for s in secrets if len(s) >= _MIN_BODY_SECRET and s.isascii())
    if not forms or not body:
        return body
    lowered = body.lower()
    if not any(form.lower().encode() in lowered for form in forms):
        return body
    pattern = _pattern_bytes(forms)
    return pattern.sub(_REDACTED.encode(), body)


def _pattern_bytes(secrets: tuple[str, ...]) -> re.Pattern[bytes]:
    return re.compile(b"|".join(re.escape(s.encode()) for s in secrets), re.IGNORECASE)


def parse_error_body(body: bytes) -> tuple[str | None, str | None]:
    """The error name (``NotFound``...) and message of a HAL error body; ``None`` where unreadable."""
    if not body:
        return None, None
    try:
        error = _ERROR_DECODER.decode(body)
    except (msgspec.DecodeError, msgspec.ValidationError, RecursionError):
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
    method: str = "GET",
) -> OpenProjectMcpError:
    """The core error for an HTTP error answer to ``method path``."""
    secrets = tuple(secrets)
    name, upstream = parse_error_body(body)
    said = f": {upstream}" if upstream else "."
    status_text = f"HTTP {status}{f' {reason}' if reason else ''}"
    where = f"{method} /{path}"

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
    if kind is InvalidQueryError and name is None:
        # Not OpenProject's answer to a bad filter (that one always names its error): a proxy or
        # the web server refused the request itself, typically an oversized header or URL.
        return UpstreamServerError(
            clean(
                f"{where} was refused with {status_text} by OpenProject or a proxy in front of it, "
                f"without an OpenProject error{said}"
            ),
            hint="This is not about the filters: a proxy or web server may refuse an oversized request "
            "header or URL. Check its limits (for nginx, large_client_header_buffers), or ask for less.",
            status=status,
        )
    if kind is InvalidQueryError:
        return InvalidQueryError(
            clean(f"OpenProject refused the request ({status_text} on {where}){said}"),
            hint="Check the filter names, operators, values and sort keys.",
            status=status,
        )
    if kind is RateLimitedError:
        return rate_limited_error(path=path, retry_after=retry_after, retries=retries, secrets=secrets)
    retried = f" after {retries} {'retry' if retries == 1 else 'retries'}" if retries else ""
    if status >= 500:
        return UpstreamServerError(
            clean(f"OpenProject failed to answer {where} ({status_text}{retried}){said}"),
            hint="The instance may be overloaded or down; try again later.",
            status=status,
        )
    if status == 409:
        return UpstreamServerError(
            clean(f"OpenProject reported a conflict on {where} ({status_text}){said}"),
            hint="A read should not conflict with anything: try again, and if it persists check for a "
            "plugin or proxy in front of OpenProject that answers 409.",
            status=status,
        )
    return UpstreamServerError(
        clean(f"OpenProject answered {where} with an unexpected status ({status_text}){said}"),
        hint="This status is not one OpenProject uses for reads; check for a proxy or plugin in front of it.",
        status=status,
    )


def rate_limited_error(
    *, path: str, retry_after: float | None, retries: int, secrets: Iterable[str], method: str = "GET"
) -> RateLimitedError:
    if retry_after is not None:
        wait = f"it asks to wait {_seconds(retry_after)} before the next request"
    else:
        wait = "wait a minute before the next request"
    retried = f" after {retries} {'retry' if retries == 1 else 'retries'}" if retries else ""
    return RateLimitedError(
        redact(f"OpenProject is rate limiting requests (HTTP 429 on {method} /{path}{retried}); {wait}.", secrets),
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
