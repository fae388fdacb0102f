"""The HTTP client of the OpenProject backend: one instance per tool call.

It sends requests relative to the configured base URL (so an install under a sub-path such as
``https://host/openproject/`` keeps its prefix), with a bounded number of requests in flight per
tenant, and retries the answers worth retrying (429, 502, 503, 504, connection resets) with
exponential backoff and jitter, honouring ``Retry-After``, within a sleep budget per call. Whether
a request may be repeated is a property of the request: by default, whether its method is
idempotent (GET, PUT, DELETE); a caller says so for a POST that saves nothing (a ``/form``
check). A request that may not be repeated (a write: POST, PATCH) is retried only when OpenProject
said it did not process it (429); once it may have reached the server (a timeout, a reset, any
5xx, an answer the client cannot interpret), it fails with an error saying its outcome is
unknown, never repeated blindly. A refusal the client can read (400, 401, 403, 404, 409, 422)
says the write was not applied, and is reported as such.
Everything that goes wrong leaves as one of the core's errors, with the API token redacted.

What the instance sends decides nothing about how much work a call does: every response body
is read in chunks and decompressed here (never by aiohttp, which would inflate a whole chunk at
once), and reading stops at ``max_response_bytes`` of decoded content; one call sends at most
``max_requests_per_call`` requests and reads at most ``CALL_BYTES_FACTOR`` response caps in all.
"""

from __future__ import annotations

import asyncio
import email.utils
import logging
import math
import random
import re
import time
import weakref
import zlib
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import aiohttp
from yarl import URL

from openproject_mcp.adapters.openproject.endpoints import IDEMPOTENT_METHODS, Method
from openproject_mcp.adapters.openproject.http_errors import (
    AUTH_HINT,
    RETRYABLE_STATUSES,
    error_for_status,
    rate_limited_error,
    redact,
    redact_bytes,
    secrets_for,
    url_password,
)
from openproject_mcp.adapters.openproject.network import tls_context
from openproject_mcp.domain.errors import (
    AuthenticationError,
    NetworkError,
    OpenProjectMcpError,
    RequestLimitError,
    UpstreamServerError,
)
from openproject_mcp.ports.signin import signed_in_token

QueryParams = Mapping[str, str | int]

_log = logging.getLogger("openproject_mcp.adapters.openproject")
# Warnings one call writes about what it skipped in an answer (links not followed...): an answer
# with thousands of bad links must not write thousands of log lines.
WARNINGS_PER_CALL = 5

# The largest legitimate answers: the 17.3 OpenAPI document is 1.1 MB, a page of 1000 work
# packages (OpenProject's largest page) about 5 MB with short descriptions, 20 MB with long ones.
DEFAULT_MAX_RESPONSE_BYTES = 32 * 1024 * 1024
DEFAULT_MAX_REQUESTS_PER_CALL = 200
# One call reads at most this many response caps in all, however many requests it sends.
CALL_BYTES_FACTOR = 4
# Error answers are read for their message only.
ERROR_BODY_BYTES = 64 * 1024
_CHUNK_BYTES = 64 * 1024
# Query parameters whose values are never logged.
_SECRET_PARAM = re.compile(r"token|key|secret|password|passwd|auth|signature|session|credential", re.IGNORECASE)
# The encodings this client decodes itself, and therefore the only ones it asks for.
ACCEPT_ENCODING = "gzip, deflate"


def normalize_base_url(url: str) -> str:
    """The instance's root URL, ``http(s)://host[:port]/[sub/path/]``, always ending in ``/``.

    A trailing ``api/v3`` is dropped (a common paste), scheme and host are lower-cased and a
    default port is removed. Raises ``ValueError`` saying what is wrong and what is expected.
    """
    text = (url or "").strip()
    example = "for example https://openproject.example.com/ or https://example.com/openproject/"
    if not text:
        raise ValueError(f"The OpenProject base URL is empty; give the address of the instance, {example}.")
    parts = urlsplit(text)
    if "@" in parts.netloc:
        # Checked first, and the value is never repeated: the part before "@" may be a password.
        raise ValueError(
            "The OpenProject base URL must not contain credentials (user:password@); give the API "
            f"token separately (OPENPROJECT_API_KEY), {example}."
        )
    scheme = parts.scheme.lower()
    if scheme not in ("http", "https"):
        raise ValueError(
            f"The OpenProject base URL must be an http(s) URL, starting with http:// or https:// (got {text!r}); "
            f"{example}."
        )
    if not parts.hostname:
        raise ValueError(f"The OpenProject base URL {text!r} has no host name; {example}.")
    if parts.query or parts.fragment:
        # Not repeated either: a query string is where tokens get pasted.
        raise ValueError(f"The OpenProject base URL must not have a query or fragment; {example}.")
    try:
        port = parts.port
    except ValueError as exc:
        raise ValueError(f"The OpenProject base URL {text!r} has an invalid port; {example}.") from exc
    host = parts.hostname.lower()
    if ":" in host:  # IPv6 literal
        host = f"[{host}]"
    if port is not None and port != (443 if scheme == "https" else 80):
        host = f"{host}:{port}"
    path = parts.path.rstrip("/")
    for suffix in ("/api/v3", "/api"):
        if path.endswith(suffix):
            path = path[: -len(suffix)]
            break
    return urlunsplit((scheme, host, f"{path}/", "", ""))


@dataclass(frozen=True, slots=True)
class ClientSettings:
    """How the client talks to one OpenProject instance. ``base_url`` is normalised on creation."""

    base_url: str
    timeout_seconds: float = 30.0
    max_retries: int = 3
    retry_budget_seconds: float = 20.0
    max_retry_after_seconds: float = 30.0
    max_concurrency: int = 16
    backoff_base_seconds: float = 0.5
    backoff_max_seconds: float = 8.0
    max_response_bytes: int = DEFAULT_MAX_RESPONSE_BYTES
    max_requests_per_call: int = DEFAULT_MAX_REQUESTS_PER_CALL
    proxy: str | None = field(default=None, repr=False)
    """The proxy every request goes through (it may carry credentials), ``None`` for direct."""
    ca_bundle: str | None = None
    """A PEM file of certificates trusted besides the system's (an internal CA, a self-signed one)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "base_url", normalize_base_url(self.base_url))
        if not self.timeout_seconds > 0:
            raise ValueError("timeout_seconds must be positive")
        if self.max_retries < 0:
            raise ValueError("max_retries must not be negative")
        if self.retry_budget_seconds < 0 or self.max_retry_after_seconds < 0:
            raise ValueError("retry_budget_seconds and max_retry_after_seconds must not be negative")
        if self.max_concurrency < 1:
            raise ValueError("max_concurrency must be at least 1")
        if self.backoff_base_seconds < 0 or self.backoff_max_seconds < 0:
            raise ValueError("backoff_base_seconds and backoff_max_seconds must not be negative")
        if self.max_response_bytes < 1024:
            raise ValueError("max_response_bytes must be at least 1024")
        if self.max_requests_per_call < 1:
            raise ValueError("max_requests_per_call must be at least 1")


def new_connector(settings: ClientSettings, **options: Any) -> aiohttp.TCPConnector:
    """A connection pool that trusts the system's certificates and ``settings.ca_bundle``."""
    return aiohttp.TCPConnector(ssl=tls_context(settings.ca_bundle), **options)


def basic_credentials(api_key: str) -> str:
    """The ``Authorization`` header value for a credential: Basic ``apikey:<token>`` for an API
    token, ``Bearer <token>`` for an OAuth access token from sign-in (``ports.signin``)."""
    oauth_token = signed_in_token(api_key)
    if oauth_token is not None and oauth_token.strip():
        return f"Bearer {oauth_token.strip()}"
    if not api_key or not api_key.strip() or oauth_token is not None:
        raise AuthenticationError("No OpenProject API token was given.", hint=AUTH_HINT)
    return aiohttp.encode_basic_auth("apikey", api_key)


def new_session(
    settings: ClientSettings, api_key: str, connector: aiohttp.BaseConnector | None = None
) -> aiohttp.ClientSession:
    """An HTTP session for one tool call; the caller closes it (``await session.close()``).

    It runs on the shared connection pool when ``connector`` is given (and leaves it open),
    authenticates with the token as Basic ``apikey:<token>``, and asks for HAL+JSON. A blank
    token raises ``AuthenticationError`` before anything is opened.
    """
    return aiohttp.ClientSession(
        base_url=settings.base_url,
        connector=connector if connector is not None else new_connector(settings),
        connector_owner=connector is None,
        proxy=settings.proxy,
        headers={
            "Accept": "application/hal+json",
            "Accept-Encoding": ACCEPT_ENCODING,
            "Authorization": basic_credentials(api_key),
        },
        timeout=aiohttp.ClientTimeout(total=settings.timeout_seconds),
        raise_for_status=False,
        # Bodies are decompressed by the client, chunk by chunk within the response cap.
        auto_decompress=False,
    )


async def open_session(
    settings: ClientSettings, api_key: str, connector: aiohttp.BaseConnector | None = None
) -> AsyncIterator[aiohttp.ClientSession]:
    """:func:`new_session` as an async generator, closed when it ends (for ``asynccontextmanager``)."""
    session = new_session(settings, api_key, connector)
    try:
        yield session
    finally:
        await session.close()


class TenantLimiters:
    """One semaphore per tenant, shared by every call of that tenant that is running.

    Held weakly: a tenant's semaphore lives as long as some client uses it, so the registry
    does not grow with every token ever seen.
    """

    def __init__(self, max_concurrency: int = 16) -> None:
        if max_concurrency < 1:
            raise ValueError("max_concurrency must be at least 1")
        self._max_concurrency = max_concurrency
        self._limiters: weakref.WeakValueDictionary[str, asyncio.Semaphore] = weakref.WeakValueDictionary()

    def for_tenant(self, key: str) -> asyncio.Semaphore:
        limiter = self._limiters.get(key)
        if limiter is None:
            limiter = asyncio.Semaphore(self._max_concurrency)
            self._limiters[key] = limiter
        return limiter

    def __len__(self) -> int:
        return len(self._limiters)


class ForeignHrefError(ValueError):
    """An href that does not point into the configured instance; it is never followed."""


def relative_path_for(href: str, base_url: str) -> str:
    """The request path (relative to ``base_url``) for an href found in a payload, or refuse.

    Only hrefs on the same origin and under the base path are accepted, so that neither the
    token nor a request ever goes anywhere else.
    """
    base = URL(base_url)
    try:
        target = base.join(URL(href))
    except (ValueError, TypeError) as exc:
        raise ForeignHrefError(f"unusable link {href!r}") from exc
    same_origin = (target.scheme, target.host, target.port) == (base.scheme, base.host, base.port)
    if not same_origin or not target.raw_path.startswith(base.raw_path):
        raise ForeignHrefError(f"link {href!r} points outside the configured OpenProject instance")
    relative = target.raw_path[len(base.raw_path) :]
    if target.raw_query_string:
        relative = f"{relative}?{target.raw_query_string}"
    return relative


def absolute_url(href: str, base_url: str) -> str:
    """``href`` resolved against the instance's base URL (absolute hrefs are kept as they are)."""
    return str(URL(base_url).join(URL(href)))


def parse_retry_after(value: str | None, now: datetime) -> float | None:
    """Seconds to wait from a ``Retry-After`` header (delta seconds or an HTTP date)."""
    if not value or not value.strip():
        return None
    text = value.strip()
    try:
        seconds = float(text)
    except ValueError:
        pass
    else:
        return max(0.0, seconds) if math.isfinite(seconds) else None
    try:
        when = email.utils.parsedate_to_datetime(text)
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max(0.0, (when - now).total_seconds())


class BodyTooLargeError(Exception):
    """The decoded body passed the byte limit it was read with."""


class UnreadableEncodingError(Exception):
    """The body uses a content encoding this client does not decode, or does not decompress."""


class _Inflater:
    """Incremental gzip/deflate decoding that never produces more than it is allowed to."""

    def __init__(self, encoding: str) -> None:
        self._encoding = encoding
        # gzip, or zlib-wrapped deflate; raw deflate (sent by some servers) is tried on failure.
        self._decoder = zlib.decompressobj(16 + zlib.MAX_WBITS if encoding == "gzip" else zlib.MAX_WBITS)
        self._started = False

    def feed(self, chunk: bytes, room: int, out: bytearray) -> None:
        """Append at most ``room + 1`` decoded bytes of ``chunk`` to ``out`` (one more means too many)."""
        data = chunk
        while data and not self._decoder.eof:
            try:
                piece = self._decoder.decompress(data, room - len(out) + 1)  # never more than one too many
            except zlib.error as exc:
                if self._encoding == "deflate" and not self._started:
                    self._decoder = zlib.decompressobj(-zlib.MAX_WBITS)
                    self._started = True
                    continue
                raise UnreadableEncodingError(f"the {self._encoding} body could not be decompressed ({exc})") from exc
            self._started = True
            out += piece
            if len(out) > room:
                raise BodyTooLargeError
            data = self._decoder.unconsumed_tail

    def finish(self, room: int, out: bytearray) -> None:
        try:
            out += self._decoder.flush()
        except zlib.error as exc:
            raise UnreadableEncodingError(f"the {self._encoding} body could not be decompressed ({exc})") from exc
        if len(out) > room:
            raise BodyTooLargeError


async def read_bounded(response: aiohttp.ClientResponse, limit: int) -> bytes:
    """The body of ``response``, decoded, if it is at most ``limit`` bytes; else :class:`BodyTooLargeError`.

    The limit holds for what is on the wire and for what it decompresses to, and it is checked
    while reading: neither a huge body nor a small compressed one that inflates (a "gzip bomb")
    ever occupies more than ``limit`` bytes (plus one chunk) here.
    """
    declared = response.content_length
    if declared is not None and declared > limit:
        raise BodyTooLargeError
    encoding = response.headers.get("Content-Encoding", "").strip().lower()
    inflater: _Inflater | None
    if encoding in ("", "identity"):
        inflater = None
    elif encoding in ("gzip", "x-gzip", "deflate"):
        inflater = _Inflater("gzip" if encoding == "x-gzip" else encoding)
    else:
        raise UnreadableEncodingError(f"it uses the content encoding {encoding!r}, which was not asked for")
    out = bytearray()
    received = 0
    async for chunk in response.content.iter_chunked(_CHUNK_BYTES):
        received += len(chunk)
        if received > limit:
            raise BodyTooLargeError
        if inflater is None:
            out += chunk
            if len(out) > limit:
                raise BodyTooLargeError
        else:
            inflater.feed(chunk, limit, out)
    if inflater is not None:
        inflater.finish(limit, out)
    return bytes(out)


class FileTooLargeError(Exception):
    """A downloaded file has more bytes than the caller allowed; the rest was not read."""


@dataclass(frozen=True, slots=True, repr=False)
class Download:
    """A file's bytes and the media type it was served with."""

    body: bytes
    content_type: str
    external: bool
    """Whether it came from storage outside the instance (fetched without credentials)."""


MAX_DOWNLOAD_REDIRECTS = 3
_REDIRECTS = frozenset({301, 302, 303, 307, 308})


@dataclass(frozen=True, slots=True)
class _StatusFailure:
    status: int
    reason: str | None
    body: bytes
    retry_after: float | None


@dataclass(frozen=True, slots=True)
class _TransportFailure:
    error: OpenProjectMcpError
    retryable: bool
    reached: bool = True
    """Whether the request may have reached OpenProject (then a write's outcome is unknown)."""


_Failure = _StatusFailure | _TransportFailure


@dataclass(frozen=True, slots=True)
class _Redirect:
    """A download answered with a status of 300 or more; ``location`` is where a redirect points, if it is one."""

    failure: _StatusFailure
    location: str | None


def _media_type(response: aiohttp.ClientResponse) -> str:
    return response.headers.get("Content-Type", "").split(";")[0].strip().lower() or "application/octet-stream"


class OpenProjectClient:
    """GET requests against one instance for one tool call.

    ``limiter`` bounds the requests in flight for the tenant (see :class:`TenantLimiters`). The
    retry budget (total time slept between retries) is spent across every request of this
    client, which is why a client lives for one tool call only.
    """

    def __init__(
        self,
        session: aiohttp.ClientSession,
        settings: ClientSettings,
        api_key: str,
        limiter: asyncio.Semaphore,
        *,
        sleep: Callable[[float], Awaitable[object]] = asyncio.sleep,
        jitter: Callable[[], float] = random.random,
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
    ) -> None:
        self._session = session
        self._settings = settings
        self._secrets = secrets_for(api_key, *filter(None, [url_password(settings.base_url), signed_in_token(api_key)]))
        self._limiter = limiter
        self._sleep = sleep
        self._jitter = jitter
        self._clock = clock
        self._slept = 0.0
        self._requests = 0
        self._bytes_read = 0
        self._warnings = 0

    @property
    def settings(self) -> ClientSettings:
        return self._settings

    @property
    def base_url(self) -> str:
        return self._settings.base_url

    @property
    def slept_seconds(self) -> float:
        """Time spent waiting between retries so far (out of ``retry_budget_seconds``)."""
        return self._slept

    @property
    def requests_sent(self) -> int:
        """Requests this call has sent so far, retries included."""
        return self._requests

    def request_limit_error(self, message: str) -> RequestLimitError:
        """The error for work that would pass this call's ceiling of requests (``message`` says which)."""
        return RequestLimitError(
            self.redact(message),
            limit=self._settings.max_requests_per_call,
            hint="Ask for less (one project, a smaller page, a narrower query), or raise "
            "OPENPROJECT_MAX_REQUESTS_PER_CALL if the instance can take it.",
        )

    def warn(self, message: str) -> None:
        """Log ``message`` (redacted) as a warning, at most :data:`WARNINGS_PER_CALL` times per call."""
        self._warnings += 1
        if self._warnings <= WARNINGS_PER_CALL:
            _log.warning("%s", self.redact(message))
        elif self._warnings == WARNINGS_PER_CALL + 1:
            _log.warning("further warnings of this call are not logged (more than %d)", WARNINGS_PER_CALL)

    def redact(self, text: str) -> str:
        """``text`` without the API token in any of its forms."""
        return redact(text, self._secrets)

    def relative_path(self, href: str) -> str:
        """See :func:`relative_path_for`; raises :class:`ForeignHrefError` for a foreign href."""
        return relative_path_for(href, self._settings.base_url)

    def absolute_url(self, href: str) -> str:
        return absolute_url(href, self._settings.base_url)

    async def get(self, path: str, params: QueryParams | None = None) -> bytes:
        """The body of a successful ``GET path`` (relative, like ``api/v3/projects``).

        Raises the core's errors: ``AuthenticationError`` (401), ``ForbiddenError`` (403),
        ``NotFoundError`` (404), ``InvalidQueryError`` (400/422), ``RateLimitedError`` (429 after
        the retries), ``UpstreamServerError`` (5xx after the retries, unreadable body) and
        ``NetworkError`` (connection failure, timeout).
        """
        return await self.request("GET", path, params)

    async def request(
        self,
        method: Method,
        path: str,
        params: QueryParams | None = None,
        body: Any = None,
        *,
        repeatable: bool | None = None,
    ) -> bytes:
        """The body of a successful ``method path``; ``body`` (if any) is sent as JSON.

        ``repeatable`` says whether sending the request twice has the effect of sending it once;
        ``None`` (the default) takes that from the method (GET, PUT, DELETE are). A repeatable
        request is retried like a read, whatever its method: a POST to a ``/form``, which only
        validates, passes ``True``.

        The errors are those of :meth:`get`. A request that is not repeatable is sent again only
        after a 429 (OpenProject did not process it). Once it may have reached OpenProject, a
        failure says its outcome is unknown: a timeout or a dropped connection raises
        ``NetworkError``; any 5xx, a redirect or a status the client cannot interpret raises
        ``UpstreamServerError``.
        """
        if path.startswith("/") or "://" in path:
            raise ValueError(f"request paths are relative to the base URL, got {path!r}")
        may_repeat = method in IDEMPOTENT_METHODS if repeatable is None else repeatable
        retries = 0
        while True:
            self._count_request(method, path)
            outcome = await self._attempt(method, path, params, body)
            if isinstance(outcome, bytes):
                return redact_bytes(outcome, self._secrets)
            delay = self._retry_delay(outcome, retries, may_repeat)
            if delay is None:
                raise self._final_error(outcome, method, path, retries, may_repeat)
            retries += 1
            self._slept += delay
            await self._sleep(delay)

    async def download(self, path: str, limit: int) -> Download:
        """A file at ``path`` on the instance (``api/v3/attachments/1/content``), at most ``limit`` bytes.

        A redirect on the instance's own origin and base path is followed with the token. A
        redirect anywhere else (external attachment storage: a signed URL) is followed by a
        separate request that carries no token, no cookie and no header of this session, so the
        credential never leaves the configured address; its query string (a signature) never
        appears in an error or a log. ``FileTooLargeError`` beyond ``limit``; otherwise the errors
        of :meth:`get`. Not retried: a download is one request per hop.
        """
        if path.startswith("/") or "://" in path:
            raise ValueError(f"request paths are relative to the base URL, got {path!r}")
        target = path
        for _ in range(MAX_DOWNLOAD_REDIRECTS + 1):
            where = target.partition("?")[0]  # errors name the path only: a query may be a signature
            self._count_request("GET", where)
            outcome = await self._download_once(target, where, limit)
            if isinstance(outcome, Download):
                return outcome
            if isinstance(outcome, _TransportFailure):
                raise outcome.error
            if outcome.location is None:
                raise self._final_error(outcome.failure, "GET", where, 0)
            try:
                target = self.relative_path(outcome.location)
            except ForeignHrefError:
                return await self._download_elsewhere(outcome.location, limit)
        raise UpstreamServerError(
            self.redact(f"OpenProject redirected GET /{path} more than {MAX_DOWNLOAD_REDIRECTS} times; not followed."),
            hint="Check the instance's attachment storage configuration.",
        )

    def _count_request(self, method: str, path: str) -> None:
        if self._requests >= self._settings.max_requests_per_call:
            raise self.request_limit_error(
                f"This call reached its limit of {self._settings.max_requests_per_call} requests to "
                f"OpenProject (OPENPROJECT_MAX_REQUESTS_PER_CALL) before {method} /{path}; that answer, and "
                "whatever needed it, was not read."
            )
        self._requests += 1

    async def _download_once(self, target: str, path: str, limit: int) -> Download | _Redirect | _TransportFailure:
        """One GET of ``target`` (relative, maybe with a query); ``path`` is how errors name it."""
        try:
            async with (
                self._limiter,
                self._session.get(target, allow_redirects=False, headers={"Accept": "*/*"}) as response,
            ):
                if response.status < 300:
                    body = await self._read_file(response, limit)
                    return Download(redact_bytes(body, self._secrets), _media_type(response), external=False)
                try:
                    error_body = await read_bounded(response, ERROR_BODY_BYTES)
                except (aiohttp.ClientError, TimeoutError, BodyTooLargeError, UnreadableEncodingError):
                    response.close()
                    error_body = b""
                failure = _StatusFailure(
                    status=response.status,
                    reason=response.reason,
                    body=error_body if response.status >= 400 else b"",
                    retry_after=parse_retry_after(response.headers.get("Retry-After"), self._clock()),
                )
                location = response.headers.get("Location") if response.status in _REDIRECTS else None
                return _Redirect(failure, str(response.url.join(URL(location))) if location else None)
        except FileTooLargeError:
            raise
        except TimeoutError:
            return _TransportFailure(
                NetworkError(
                    self.redact(
                        f"OpenProject at {self.base_url} did not answer GET /{path} within "
                        f"{self._settings.timeout_seconds:g} seconds."
                    ),
                    hint="The instance may be slow or unreachable; try again.",
                ),
                retryable=False,
            )
        except aiohttp.ClientError as exc:
            return _TransportFailure(self._network_error("GET", path, exc), retryable=False)

    async def _download_elsewhere(self, url: str, limit: int) -> Download:
        """GET ``url`` off the instance with nothing of this session: no token, no cookie."""
        target = URL(url)
        host = target.host or "?"
        if target.scheme not in ("http", "https") or not target.host:
            raise UpstreamServerError(
                f"OpenProject redirected the download to an unusable location (scheme {target.scheme!r}); "
                "not followed.",
                hint="Check the instance's attachment storage configuration.",
            )
        self._count_request("GET", f"(external storage at {host})")
        timeout = aiohttp.ClientTimeout(total=self._settings.timeout_seconds)
        try:
            async with (
                aiohttp.ClientSession(
                    connector=self._session.connector,
                    connector_owner=False,
                    cookie_jar=aiohttp.DummyCookieJar(),
                    timeout=timeout,
                    auto_decompress=False,
                    headers={"Accept-Encoding": ACCEPT_ENCODING},
                ) as bare,
                self._limiter,
                bare.get(target, allow_redirects=True, max_redirects=MAX_DOWNLOAD_REDIRECTS) as response,
            ):
                if response.status >= 300:
                    raise UpstreamServerError(
                        self.redact(
                            f"The attachment storage at {host}, where OpenProject sent the download, answered "
                            f"HTTP {response.status}."
                        ),
                        hint="Its signed link may have expired: try again; if it persists, check the storage.",
                        status=response.status,
                    )
                body = await self._read_file(response, limit)
                return Download(redact_bytes(body, self._secrets), _media_type(response), external=True)
        except TimeoutError:
            raise NetworkError(
                f"The attachment storage at {host} did not answer within {self._settings.timeout_seconds:g} seconds.",
                hint="Try again later.",
            ) from None
        except aiohttp.TooManyRedirects:
            raise UpstreamServerError(
                f"The attachment storage at {host} redirected more than {MAX_DOWNLOAD_REDIRECTS} times; not followed.",
                hint="Check the instance's attachment storage configuration.",
            ) from None
        except aiohttp.ClientError as exc:
            raise NetworkError(
                self.redact(f"Could not reach the attachment storage at {host}: {type(exc).__name__}."),
                hint="The server must be able to reach the storage OpenProject redirects downloads to.",
            ) from None

    async def _read_file(self, response: aiohttp.ClientResponse, limit: int) -> bytes:
        try:
            body = await read_bounded(response, limit)
        except BodyTooLargeError:
            response.close()
            raise FileTooLargeError from None
        except UnreadableEncodingError as exc:
            response.close()
            raise UpstreamServerError(
                self.redact(f"A download from OpenProject could not be read: {exc}."),
                hint="Check the instance or a proxy in front of it.",
            ) from None
        self._bytes_read += len(body)
        return body

    def _log_request(self, method: str, path: str, params: QueryParams | None, outcome: str, started: float) -> None:
        """One DEBUG line per request sent: method, path, query (secrets redacted), outcome, duration."""
        if not _log.isEnabledFor(logging.DEBUG):
            return
        query = "&".join(
            f"{key}={'[redacted]' if _SECRET_PARAM.search(key) else value}" for key, value in (params or {}).items()
        )
        target = f"/{path}?{query}" if query else f"/{path}"
        elapsed = (time.monotonic() - started) * 1000
        _log.debug("%s", self.redact(f"{method} {target} -> {outcome} in {elapsed:.0f} ms"))

    async def _attempt(self, method: Method, path: str, params: QueryParams | None, payload: Any) -> bytes | _Failure:
        started = time.monotonic()
        outcome = "no answer"
        try:
            async with (
                self._limiter,
                self._session.request(method, path, params=params, json=payload, allow_redirects=False) as response,
            ):
                outcome = str(response.status)
                if response.status < 300:
                    return await self._read_body(response, method, path)
                try:
                    body = await read_bounded(response, ERROR_BODY_BYTES)
                except (aiohttp.ClientError, TimeoutError, BodyTooLargeError, UnreadableEncodingError):
                    response.close()  # the message is not needed that badly: drop the connection
                    body = b""
                return _StatusFailure(
                    status=response.status,
                    reason=response.reason,
                    body=body if response.status >= 400 else b"",
                    retry_after=parse_retry_after(response.headers.get("Retry-After"), self._clock()),
                )
        except TimeoutError:
            outcome = "timed out"
            # Checked before ClientError: aiohttp's ServerTimeoutError is both.
            return _TransportFailure(
                NetworkError(
                    self.redact(
                        f"OpenProject at {self.base_url} did not answer {method} /{path} within "
                        f"{self._settings.timeout_seconds:g} seconds."
                    ),
                    hint="The instance may be slow or unreachable; try again, or ask for less data.",
                ),
                retryable=False,
                reached=True,
            )
        except aiohttp.ClientPayloadError as exc:
            outcome = type(exc).__name__
            return _TransportFailure(
                UpstreamServerError(
                    self.redact(
                        f"The response of OpenProject to {method} /{path} could not be read "
                        f"(the body was cut off or malformed: {exc})."
                    ),
                    hint="Try again; if it persists, check the instance or a proxy in front of it.",
                ),
                retryable=False,
                reached=True,
            )
        except aiohttp.ClientConnectorError as exc:
            outcome = type(exc).__name__
            # No connection was made: the request never left.
            return _TransportFailure(self._network_error(method, path, exc), retryable=False, reached=False)
        except (aiohttp.ServerDisconnectedError, aiohttp.ClientOSError) as exc:
            outcome = type(exc).__name__
            # The connection was reset or dropped mid-request: worth another try if repeating is harmless.
            return _TransportFailure(self._network_error(method, path, exc), retryable=True, reached=True)
        except aiohttp.ClientError as exc:
            outcome = type(exc).__name__
            return _TransportFailure(self._network_error(method, path, exc), retryable=False, reached=True)
        finally:
            self._log_request(method, path, params, outcome, started)

    async def _read_body(self, response: aiohttp.ClientResponse, method: str, path: str) -> bytes | _Failure:
        limit = self._settings.max_response_bytes
        call_limit = limit * CALL_BYTES_FACTOR
        room = min(limit, call_limit - self._bytes_read)
        try:
            body = await read_bounded(response, room)
        except BodyTooLargeError:
            response.close()  # stop receiving: the rest of the body is never read
            if room < limit:
                message = (
                    f"This call has read {self._bytes_read:,} bytes from OpenProject, and the answer to "
                    f"{method} /{path} would pass the {call_limit:,} bytes one call may read "
                    f"({CALL_BYTES_FACTOR} times OPENPROJECT_MAX_RESPONSE_BYTES); it was not read."
                )
            else:
                message = (
                    f"The answer of OpenProject to {method} /{path} is larger than the limit of {limit:,} bytes "
                    "(OPENPROJECT_MAX_RESPONSE_BYTES, decompressed size); it was not read."
                )
            return _TransportFailure(
                UpstreamServerError(
                    self.redact(message),
                    hint="Ask for less (a smaller pageSize, one project), or raise OPENPROJECT_MAX_RESPONSE_BYTES "
                    "if such answers are legitimate on this instance.",
                ),
                retryable=False,
            )
        except UnreadableEncodingError as exc:
            response.close()
            return _TransportFailure(
                UpstreamServerError(
                    self.redact(f"The response of OpenProject to {method} /{path} could not be read: {exc}."),
                    hint="Check the instance or a proxy in front of it.",
                ),
                retryable=False,
            )
        self._bytes_read += len(body)
        return body

    def _network_error(self, method: str, path: str, exc: BaseException) -> NetworkError:
        detail = str(exc) or type(exc).__name__
        hint = "Check OPENPROJECT_BASE_URL and that the instance is reachable from this server."
        if isinstance(exc, aiohttp.ClientConnectorCertificateError):
            hint = (
                "The instance's TLS certificate is not trusted here. If it is signed by an internal or "
                "self-signed CA, set OPENPROJECT_CA_BUNDLE to a PEM file with that CA's certificate; "
                "`openproject-mcp doctor` names the problem."
            )
        elif isinstance(exc, aiohttp.ClientProxyConnectionError):
            hint = "The proxy (HTTPS_PROXY / HTTP_PROXY) could not be reached; check it, or NO_PROXY for this host."
        return NetworkError(
            self.redact(f"Could not reach OpenProject at {self.base_url} for {method} /{path}: {detail}"),
            hint=hint,
        )

    def _retry_delay(self, failure: _Failure, retries: int, repeatable: bool = True) -> float | None:
        """Seconds to wait before the next attempt, or ``None`` to give up now."""
        if retries >= self._settings.max_retries:
            return None
        if isinstance(failure, _TransportFailure):
            if not failure.retryable or not repeatable:
                return None
            retry_after = None
        else:
            if failure.status not in RETRYABLE_STATUSES or (not repeatable and failure.status != 429):
                # Only a 429 says a write was not processed; a gateway error may hide one that was.
                return None
            retry_after = failure.retry_after
        if retry_after is not None:
            if retry_after > self._settings.max_retry_after_seconds:
                return None
            delay = retry_after
        else:
            ceiling = min(self._settings.backoff_max_seconds, self._settings.backoff_base_seconds * 2**retries)
            # "Equal jitter": at least half the backoff, so retries never bunch up at zero.
            delay = ceiling / 2 + ceiling / 2 * self._jitter()
        if self._slept + delay > self._settings.retry_budget_seconds:
            return None
        return delay

    def _final_error(
        self, failure: _Failure, method: str, path: str, retries: int, repeatable: bool = True
    ) -> OpenProjectMcpError:
        if isinstance(failure, _TransportFailure):
            if not repeatable and failure.reached:
                return self._outcome_unknown(type(failure.error), failure.error.message)
            return failure.error
        if failure.status in _REDIRECTS:
            redirected = UpstreamServerError(
                self.redact(
                    f"OpenProject redirected {method} /{path} (HTTP {failure.status}); requests are not "
                    "followed off the configured address."
                ),
                hint="Check OPENPROJECT_BASE_URL: use the address the instance is served at (https?).",
                status=failure.status,
            )
            if not repeatable:
                # A redirect is no refusal: a 303 is how a web application answers a POST it applied.
                return self._outcome_unknown(
                    UpstreamServerError, redirected.message, status=failure.status, also=redirected.hint
                )
            return redirected
        if failure.status == 429:
            return rate_limited_error(
                path=path, retry_after=failure.retry_after, retries=retries, secrets=self._secrets, method=method
            )
        error = error_for_status(
            failure.status,
            failure.reason,
            failure.body,
            path=path,
            retry_after=failure.retry_after,
            retries=retries,
            secrets=self._secrets,
            method=method,
        )
        if not repeatable and not _is_refusal(failure.status, error):
            # Any 5xx (a 500 may come after the change was saved) or a status nothing here reads.
            return self._outcome_unknown(UpstreamServerError, error.message, status=failure.status)
        return error

    def _outcome_unknown(
        self, kind: type[OpenProjectMcpError], message: str, status: int | None = None, also: str | None = None
    ) -> OpenProjectMcpError:
        """A write that may have reached OpenProject failed: say so, and that it was not repeated.

        The hint is always to check first: the hint of the underlying failure ("try again later",
        "try again") is dropped, since following it could apply the change twice. ``also`` is a
        hint that stays true (where the configuration may be wrong).
        """
        return kind(
            f"{full_stop(message)} The outcome is unknown: OpenProject may or may not have applied the change, "
            "and it was not sent again.",
            hint=" ".join(filter(None, [OUTCOME_UNKNOWN_HINT, also])),
            status=status,
        )


def full_stop(text: str) -> str:
    """``text`` ending as a sentence does, so that another can follow it."""
    return text if text.endswith((".", "!", "?")) else f"{text}."


OUTCOME_UNKNOWN_HINT = (
    "Check the current state in OpenProject before trying again: sending the change again could apply it twice."
)
"""The hint of every write whose outcome is unknown."""

_REFUSAL_STATUSES = frozenset({400, 401, 403, 404, 409, 422, 429})
"""The 4xx statuses OpenProject answers a request it did not apply with."""


def _is_refusal(status: int, error: OpenProjectMcpError) -> bool:
    """Whether an error answer to a write says it was not applied: a 4xx OpenProject uses for that,
    or another 4xx carrying an OpenProject error the client knows (``error`` is then not the
    catch-all ``UpstreamServerError`` of an unexpected status)."""
    if not 400 <= status < 500:
        return False
    return status in _REFUSAL_STATUSES or type(error) is not UpstreamServerError
