"""The fake OpenProject server: an aiohttp ``TestServer`` on 127.0.0.1 with tenants, faults and a request log."""

from __future__ import annotations

import asyncio
import base64
import binascii
import json
import logging
import re
import ssl
import time
from collections.abc import Awaitable, Callable, Collection, Mapping
from dataclasses import dataclass, replace
from datetime import datetime
from types import TracebackType
from typing import Any

from aiohttp import web
from aiohttp.test_utils import TestServer
from aiohttp.typedefs import Middleware

from openproject_mcp.adapters.fixture import Dataset
from openproject_mcp.domain.errors import InvalidQueryError, NotFoundError
from tests.support.fake_openproject.attachments import EXTERNAL_PREFIX, ExternalStorage, Storage
from tests.support.fake_openproject.errors import HAL_JSON, ApiError, error_body, error_name_for
from tests.support.fake_openproject.oauth import FakeOAuth
from tests.support.fake_openproject.profiles import Profile, profile_named
from tests.support.fake_openproject.render import Renderer
from tests.support.fake_openproject.routes import TENANT, Call, Route, Routes
from tests.support.fake_openproject.tenant import Tenant
from tests.support.fake_openproject.write_routes import Answer, WriteCall, WriteRoute, WriteRoutes

_log = logging.getLogger(__name__)

WWW_AUTHENTICATE = 'Basic realm="OpenProject API"'

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


@dataclass(frozen=True)
class Fault:
    """A failure the server answers with instead of (or before) the normal answer.

    ``status``: the HTTP status to answer with (a HAL error body matching it unless ``body`` is
    given); ``0`` drops the connection without answering; ``200`` with a ``body`` sends that raw
    body (malformed or truncated JSON); ``200`` without a body answers normally, after ``delay``.
    ``path`` is a regular expression searched (``re.search``) in the request path without its
    query, both with and without the server's prefix. ``times`` is how many requests the fault
    applies to (``None``: every one). Faults are checked in the order they were injected; the
    first that matches applies, before authentication. Every request is logged, faulted or not.

    Note for ``status=0``: aiohttp's client silently resends a GET once when a kept-alive
    connection is dropped, so ``times=1`` may never reach the caller; use ``times>=2`` or ``None``.
    """

    status: int
    path: str
    times: int | None = None
    retry_after: str | None = None
    body: bytes | None = None
    delay: float = 0.0
    method: str | None = None
    """Only requests with this method (``POST``...); ``None``: any."""
    after_apply: bool = False
    """Answer normally first (a write is applied), then wait ``delay`` and answer the fault instead:
    the write happened, but its answer is lost (``status=0``), late (``200`` with a ``delay``) or an
    error. What a client sees when a write reached OpenProject and the answer did not come back."""


@dataclass(frozen=True)
class RecordedRequest:
    """One request as it arrived. ``path`` is the full request path (prefix included, without the
    query); ``token`` is the API token it presented (Basic ``apikey:<token>`` or Bearer), ``None``
    if none; ``started``/``finished`` are ``time.monotonic()`` readings. ``status`` is the HTTP status
    answered (``0`` while in flight, or when the connection was dropped) and ``error`` the name in
    the HAL error answered (``InvalidQuery``, ``NotFound``...), ``None`` for a success."""

    method: str
    path: str
    query: dict[str, str]
    token: str | None
    started: float
    finished: float
    status: int = 0
    error: str | None = None
    body: Any = None
    """The request body as sent: parsed JSON, or the raw text when it is not JSON; ``None`` without one."""


class _Lockstep:
    """Holds every request until the client has gone quiet, then lets all it holds be answered.

    "Quiet" is no new request for ``quiet`` seconds *and* for ``ticks`` turns of the event loop in
    a row (so a busy or descheduled process, which also stops the loop, does not count as quiet).
    Each release is one round; a request sent while a round is answered waits for the next one.
    """

    def __init__(self, quiet: float, ticks: int = 5) -> None:
        self.quiet = quiet
        self.ticks = ticks
        self.rounds = 0
        self._held: list[asyncio.Future[None]] = []
        self._arrivals = 0
        self._watcher: asyncio.Task[None] | None = None

    async def hold(self) -> None:
        held: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._held.append(held)
        self._arrivals += 1
        if self._watcher is None or self._watcher.done():
            self._watcher = asyncio.ensure_future(self._watch())
        await held

    async def _watch(self) -> None:
        loop = asyncio.get_running_loop()
        while self._held:
            seen, since, calm = self._arrivals, loop.time(), 0
            while calm < self.ticks or loop.time() - since < self.quiet:
                await asyncio.sleep(self.quiet / self.ticks)
                if self._arrivals != seen:
                    seen, since, calm = self._arrivals, loop.time(), 0
                else:
                    calm += 1
            self.release()

    def release(self) -> None:
        held, self._held = self._held, []
        if any(not f.done() for f in held):
            self.rounds += 1
        for future in held:
            if not future.done():
                future.set_result(None)

    async def close(self) -> None:
        self.release()
        if self._watcher is not None:
            self._watcher.cancel()
            await asyncio.gather(self._watcher, return_exceptions=True)


class _ArmedFault:
    def __init__(self, fault: Fault) -> None:
        self.fault = fault
        self.pattern = re.compile(fault.path)
        self.remaining = fault.times

    def matches(self, method: str, *paths: str) -> bool:
        if self.fault.method is not None and self.fault.method.upper() != method.upper():
            return False
        return (self.remaining is None or self.remaining > 0) and any(self.pattern.search(p) for p in paths)


def token_of(authorization: str | None) -> str | None:
    """The API token in an ``Authorization`` header, as OpenProject accepts it."""
    if not authorization:
        return None
    scheme, _, credentials = authorization.strip().partition(" ")
    credentials = credentials.strip()
    if scheme.lower() == "bearer":
        return credentials or None
    if scheme.lower() != "basic":
        return None
    try:
        decoded = base64.b64decode(credentials, validate=True).decode()
    except (binascii.Error, UnicodeDecodeError):
        return None
    user, colon, password = decoded.partition(":")
    return password if colon and user == "apikey" and password else None


def request_bearer(request: web.Request) -> bool:
    """OAuth access tokens are accepted as ``Bearer`` only (never as Basic ``apikey:``)."""
    return request.headers.get("Authorization", "").strip().lower().startswith("bearer ")


def _error_name(response: web.StreamResponse | None) -> str | None:
    """The name in a HAL error answer's ``errorIdentifier`` (``InvalidQuery``), if it is one."""
    if response is None or response.status < 400 or not isinstance(response, web.Response):
        return None
    try:
        document = json.loads(response.body) if isinstance(response.body, bytes) else None
    except ValueError:
        return None
    identifier = document.get("errorIdentifier") if isinstance(document, dict) else None
    return identifier.rsplit(":", 1)[-1] if isinstance(identifier, str) else None


def _normalised_prefix(prefix: str) -> str:
    stripped = prefix.strip("/")
    return f"/{stripped}" if stripped else ""


def _hal(payload: Any, status: int = 200) -> web.Response:
    body = json.dumps(payload, ensure_ascii=False).encode()
    return web.Response(status=status, body=body, content_type=HAL_JSON, charset="utf-8")


def _error(
    status: int,
    name: str,
    message: str | None = None,
    headers: Mapping[str, str] | None = None,
    embedded: Mapping[str, object] | None = None,
) -> web.Response:
    return web.Response(
        status=status,
        body=error_body(name, message, embedded),
        content_type=HAL_JSON,
        charset="utf-8",
        headers=dict(headers or {}),
    )


class FakeOpenProject:
    """An OpenProject API v3 over datasets, for tests: ``async with FakeOpenProject({...}) as fake``.

    ``tenants`` maps each API token to the dataset it sees; anything else is 401. The token's own
    user (``me``) is the first active user of its dataset. Tokens in ``non_admin_tokens`` get 403
    on ``GET /api/v3/users`` (use ``/principals``) and no ``coreVersion`` on the root. ``profile``
    picks the OpenProject version played: a version (``profiles.PROFILE_FOR_VERSION``) or a
    ``Profile`` (a variant of one, for a case no profile plays). ``latency`` delays every
    answer; ``page_size_max`` is ``apiv3_max_page_size`` (at most 1000, the fixture paging's cap);
    ``now`` is the clock of the meetings ``time`` filter; ``ssl_context`` serves HTTPS.
    ``lockstep`` (seconds, ``None``: off)
    answers in rounds: every request is held until no new one has arrived for that long (and for
    a few turns of the event loop), then all held requests are answered together, so the number
    of rounds a client needs (``rounds``, and ``waves.round_trips(requests)``) does not depend on
    how fast the machine is.
    ``attachment_storage="external"`` keeps attachments in a simulated external storage on another
    origin (``localhost``), which the content endpoint redirects to with a signed URL.
    """

    def __init__(
        self,
        tenants: Mapping[str, Dataset],
        *,
        profile: str | Profile = "18.0",
        latency: float = 0.0,
        spec: dict[str, object] | None = None,
        prefix: str = "",
        page_size_max: int = 1000,
        non_admin_tokens: Collection[str] = (),
        now: Callable[[], datetime] | None = None,
        oauth: FakeOAuth | None = None,
        lockstep: float | None = None,
        attachment_storage: Storage = "local",
        ssl_context: ssl.SSLContext | None = None,
    ) -> None:
        if not tenants:
            raise ValueError("at least one tenant (token -> dataset) is needed")
        unknown = set(non_admin_tokens) - set(tenants)
        if unknown:
            raise ValueError(f"non_admin_tokens names tokens that are not tenants: {sorted(unknown)}")
        if page_size_max < 1:
            raise ValueError("page_size_max must be positive")
        self.profile: Profile = profile if isinstance(profile, Profile) else profile_named(profile)
        self.ssl_context = ssl_context
        """Serve HTTPS with this context (``https://127.0.0.1:PORT/``) instead of plain HTTP."""
        self.latency = latency
        self.prefix = _normalised_prefix(prefix)
        self.page_size_max = page_size_max
        self.requests: list[RecordedRequest] = []
        self.max_in_flight = 0
        self.server_errors: list[BaseException] = []
        """Exceptions raised by the fake itself while answering (each answered as a 500)."""
        self._tenants = {
            token: Tenant(token, dataset, admin=token not in set(non_admin_tokens), now=now)
            for token, dataset in tenants.items()
        }
        self._writes = WriteRoutes(self.profile)
        self.oauth = oauth
        """OpenProject's OAuth provider (``/oauth/...``), when given; its access tokens act as their user."""
        self.external_storage = ExternalStorage()
        self._routes = Routes(self.profile, spec, attachment_storage, self.external_storage)
        self._faults: list[_ArmedFault] = []
        self._in_flight = 0
        self._lockstep = _Lockstep(lockstep) if lockstep is not None else None
        self._server: TestServer | None = None
        self._base_url: str | None = None

    def revoke(self, token: str) -> None:
        """Forget ``token``, as revoking it in OpenProject does: from now on it gets 401 everywhere."""
        del self._tenants[token]

    # Lifecycle --------------------------------------------------------------------------------

    async def __aenter__(self) -> FakeOpenProject:
        app = web.Application(middlewares=[self._middleware()])
        for path, route in self._routes.table():
            app.router.add_get(f"{self.prefix}{path}", self._handler(route))
        for method, path, write_route in self._writes.table():
            app.router.add_route(method, f"{self.prefix}{path}", self._write_handler(write_route))
        if self.oauth is not None:
            app.router.add_routes(self.oauth.routes(self.prefix))
        app.router.add_get(f"{EXTERNAL_PREFIX}{{key}}/{{name}}", self.external_storage.answer)
        server = TestServer(app, host="127.0.0.1")
        await server.start_server(ssl=self.ssl_context)
        scheme = "https" if self.ssl_context is not None else "http"
        self.external_storage.origin = f"{scheme}://localhost:{server.port}"
        self._server = server
        self._base_url = str(server.make_url(f"{self.prefix}/"))
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        server, self._server = self._server, None
        if self._lockstep is not None:
            await self._lockstep.close()
        if server is not None:
            await server.close()

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:PORT/<prefix>/`` (always with the trailing slash)."""
        if self._base_url is None:
            raise RuntimeError("the fake server is not running: use it as `async with FakeOpenProject(...)`")
        return self._base_url

    # Test controls ----------------------------------------------------------------------------

    def inject(self, fault: Fault) -> None:
        self._faults.append(_ArmedFault(fault))

    def clear(self) -> None:
        """Forget the recorded requests and the faults; the in-flight peak and the rounds restart from now."""
        self.requests.clear()
        self._faults.clear()
        self.max_in_flight = self._in_flight
        if self._lockstep is not None:
            self._lockstep.rounds = 0

    @property
    def rounds(self) -> int:
        """In ``lockstep`` mode, the rounds answered since the last :meth:`clear` (else 0)."""
        return self._lockstep.rounds if self._lockstep is not None else 0

    def tenant(self, token: str) -> Tenant:
        return self._tenants[token]

    # Request handling -------------------------------------------------------------------------

    def _take_fault(self, method: str, path: str) -> Fault | None:
        unprefixed = path[len(self.prefix) :] if self.prefix and path.startswith(self.prefix) else path
        for armed in self._faults:
            if armed.matches(method, path, unprefixed):
                if armed.remaining is not None:
                    armed.remaining -= 1
                return armed.fault
        return None

    def _finish(self, record: RecordedRequest, response: web.StreamResponse | None) -> None:
        status = 0 if response is None else response.status
        finished = replace(record, finished=time.monotonic(), status=status, error=_error_name(response))
        for index in range(len(self.requests) - 1, -1, -1):
            if self.requests[index] is record:
                self.requests[index] = finished
                return

    def _middleware(self) -> Middleware:
        @web.middleware
        async def middleware(request: web.Request, handler: Handler) -> web.StreamResponse:
            started = time.monotonic()
            token = token_of(request.headers.get("Authorization"))
            body = await _request_body(request)
            record = RecordedRequest(
                request.method, request.path, dict(request.query), token, started, started, body=body
            )
            self.requests.append(record)
            self._in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self._in_flight)
            response: web.StreamResponse | None = None
            try:
                if self._lockstep is not None:
                    await self._lockstep.hold()
                fault = self._take_fault(request.method, request.path)
                if fault is not None and fault.after_apply:
                    response = await self._answer(request, handler, token)  # the write is applied
                    if self.latency + fault.delay > 0:
                        await asyncio.sleep(self.latency + fault.delay)
                    if fault.status != 200 or fault.body is not None:
                        response = self._fault_answer(request, fault)
                    return response
                delay = self.latency + (fault.delay if fault is not None else 0.0)
                if delay > 0:
                    await asyncio.sleep(delay)
                if fault is not None and (fault.status != 200 or fault.body is not None):
                    response = self._fault_answer(request, fault)
                elif self.oauth is not None and request.path.startswith(f"{self.prefix}/oauth/"):
                    response = await handler(request)  # the provider authenticates its clients itself
                else:
                    response = await self._answer(request, handler, token)
                return response
            finally:
                self._in_flight -= 1
                self._finish(record, response)

        return middleware

    def _fault_answer(self, request: web.Request, fault: Fault) -> web.StreamResponse:
        if fault.status == 0:
            transport = request.transport
            if transport is not None:
                transport.abort()
            raise web.HTTPServiceUnavailable()  # never delivered: the connection is gone
        headers: dict[str, str] = {}
        if fault.retry_after is not None:
            headers["Retry-After"] = fault.retry_after
        if fault.status == 401:
            headers["WWW-Authenticate"] = WWW_AUTHENTICATE
        if fault.body is not None:
            return web.Response(status=fault.status, body=fault.body, content_type=HAL_JSON, headers=headers)
        return _error(fault.status, error_name_for(fault.status), headers=headers)

    async def _answer(self, request: web.Request, handler: Handler, token: str | None) -> web.StreamResponse:
        if request.path.startswith(EXTERNAL_PREFIX):
            return await handler(request)  # external storage: its signature, not a token, grants access
        tenant = self._tenants.get(token) if token is not None else None
        if tenant is None and token is not None and self.oauth is not None and request_bearer(request):
            user = self.oauth.user_for(token)
            tenant = self._tenants.get(user) if user is not None else None
        if tenant is None:
            return _error(401, "Unauthenticated", headers={"WWW-Authenticate": WWW_AUTHENTICATE})
        request[TENANT] = tenant
        try:
            return await handler(request)
        except web.HTTPNotFound:
            return _error(404, "NotFound", "The requested resource could not be found.")
        except web.HTTPMethodNotAllowed:
            return _error(405, "NotFound", f"{request.method} is not supported here.")
        except ApiError as exc:
            return _error(exc.status, exc.name, exc.message, exc.headers, exc.embedded)
        except NotFoundError as exc:
            return _error(404, "NotFound", exc.message)
        except InvalidQueryError as exc:
            return _error(400, "InvalidQuery", exc.message)
        except Exception as exc:
            _log.exception("the fake OpenProject failed on %s %s", request.method, request.path_qs)
            self.server_errors.append(exc)
            return _error(500, "InternalServerError")

    def _handler(self, route: Route) -> Handler:
        async def handle(request: web.Request) -> web.StreamResponse:
            tenant = request[TENANT]
            call = Call(
                tenant=tenant,
                render=Renderer(self.prefix, self.profile, tenant),
                match=request.match_info,
                query=request.query,
                page_size_max=self.page_size_max,
            )
            answer = await route(call)
            return answer if isinstance(answer, web.StreamResponse) else _hal(answer)

        return handle

    def _write_handler(self, route: WriteRoute) -> Handler:
        async def handle(request: web.Request) -> web.StreamResponse:
            tenant = request[TENANT]
            call = WriteCall(
                tenant=tenant,
                render=Renderer(self.prefix, self.profile, tenant),
                match=request.match_info,
                query=request.query,
                body=await _request_body(request),
                page_size_max=self.page_size_max,
            )
            answer = await route(call)
            if isinstance(answer, Answer):
                return _hal(answer.payload, answer.status)
            return _hal(answer)

        return handle


async def _request_body(request: web.Request) -> Any:
    """The request body: parsed JSON, the text if it is not JSON, ``None`` if there is none."""
    if not request.body_exists:
        return None
    raw = await request.read()  # read once; aiohttp keeps it for the route
    if not raw:
        return None
    try:
        return json.loads(raw)
    except ValueError:
        return raw.decode("utf-8", "replace")
