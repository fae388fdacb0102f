"""Running remote mode: uvicorn with bounded connections, header timeouts and a draining shutdown."""

from __future__ import annotations

import asyncio
import contextlib
import errno
import logging
import resource
import signal
import socket
import time
from collections import OrderedDict
from collections.abc import Callable, Generator
from typing import Any, Final

import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from openproject_mcp.adapters.mcp.hosting.access import MCP_PATH, install_access_log_handler
from openproject_mcp.adapters.mcp.hosting.app import RemoteApp
from openproject_mcp.adapters.mcp.hosting.guard import FIRST_BYTE_KEY
from openproject_mcp.adapters.mcp.hosting.options import HttpOptions

log = logging.getLogger("openproject_mcp.http")

BACKLOG: Final = 128
FD_RESERVE: Final = 64  # descriptors kept for upstream connections, logs and the listening socket
EXHAUSTED: Final = frozenset({errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM})
FD_TARGET: Final = 65_536  # the soft limit is raised towards this, never past the hard limit
ACCEPT_ERROR_INTERVAL: Final = 30.0


def _canned(status: str, text: str, *extra: str) -> bytes:
    """A complete HTTP/1.1 response that closes the connection, for answers given below the ASGI app."""
    body = text.encode()
    head = [f"HTTP/1.1 {status}", "content-type: text/plain; charset=utf-8", *extra, "connection: close"]
    head.append(f"content-length: {len(body)}")
    return ("\r\n".join(head) + "\r\n\r\n").encode() + body


_TIMED_OUT: Final = _canned("408 Request Timeout", "The request headers did not arrive in time.")
_BUSY: Final = _canned("503 Service Unavailable", "The server has too many connections; retry.", "retry-after: 1")


class ConnectionBook:
    """The open connections of one server, oldest first, and how many it may hold at once."""

    def __init__(self, limit: int, header_timeout: float) -> None:
        self.limit = limit
        self.header_timeout = header_timeout
        self.open: OrderedDict[GuardedH11Protocol, None] = OrderedDict()
        self.evicted = 0
        self.refused = 0

    def admit(self, connection: GuardedH11Protocol) -> bool:
        """Make room for ``connection`` by closing the oldest idle one; False if every one is busy."""
        if len(self.open) >= self.limit and not self.close_oldest_idle():
            self.refused += 1
            return False
        self.open[connection] = None
        return True

    def close_oldest_idle(self) -> bool:
        idle = next((c for c in self.open if c.idle), None)
        if idle is None:
            return False
        self.evicted += 1
        idle.close_idle()
        return True

    def forget(self, connection: GuardedH11Protocol) -> None:
        self.open.pop(connection, None)


def protocol_for(book: ConnectionBook) -> type[H11Protocol]:
    """uvicorn's h11 protocol, bound to ``book``: one class per server, so servers never share a book."""

    class Bound(GuardedH11Protocol):
        connections_book = book

    return Bound


class GuardedH11Protocol(H11Protocol):
    """The h11 protocol with a header deadline and a connection cap.

    A connection must deliver a request's complete headers within the header timeout, counted
    from when it opened or its previous response ended, however slowly bytes trickle in; the
    keep-alive timer alone would restart on every byte. The moment the first byte of a request
    arrives is put in its scope, so the request's own deadline counts reading it.
    """

    connections_book: ConnectionBook

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._header_timer: asyncio.TimerHandle | None = None
        self._first_byte: float | None = None
        self._seen_cycle: object = None
        self._rejected = False

    @property
    def idle(self) -> bool:
        """No request is being answered: waiting for (the rest of) the headers, or between requests."""
        return not self._rejected and (self.cycle is None or self.cycle.response_complete)

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if not self.connections_book.admit(self):
            self._rejected = True
            transport.write(_BUSY)
            transport.close()
            return
        self._arm_header_timer()

    def connection_lost(self, exc: Exception | None) -> None:
        self.connections_book.forget(self)
        self._disarm_header_timer()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self._rejected:
            return
        if self._first_byte is None and self.idle:
            self._first_byte = time.monotonic()
            if self._header_timer is None:
                self._arm_header_timer()
        super().data_received(data)
        self._note_new_request()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._arm_header_timer()
            self._note_new_request()  # a pipelined request may have started right away

    def _note_new_request(self) -> None:
        cycle = self.cycle
        if cycle is not None and cycle is not self._seen_cycle:
            self._seen_cycle = cycle
            cycle.scope[FIRST_BYTE_KEY] = self._first_byte or time.monotonic()  # type: ignore[typeddict-unknown-key]
            self._first_byte = None
            self._disarm_header_timer()

    def _arm_header_timer(self) -> None:
        self._disarm_header_timer()
        self._header_timer = self.loop.call_later(self.connections_book.header_timeout, self._headers_overdue)

    def _disarm_header_timer(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _headers_overdue(self) -> None:
        self._header_timer = None
        if not self.idle or self.transport.is_closing():
            return
        if self._first_byte is not None:
            self.transport.write(_TIMED_OUT)
        self._first_byte = None
        self.close_idle()

    def close_idle(self) -> None:
        if not self.transport.is_closing():
            with contextlib.suppress(h11.LocalProtocolError):
                self.conn.send(h11.ConnectionClosed())
            self.transport.close()


class DrainingServer(uvicorn.Server):
    """uvicorn, with a shutdown that says what it is waiting for and ends the process normally.

    On SIGTERM or SIGINT it stops accepting connections, lets the requests in flight finish for
    up to ``timeout_graceful_shutdown`` seconds, cancels what is left, then stops. A second
    SIGINT forces the exit. Unlike uvicorn's own handler, the signal is not raised again
    afterwards, so a drained shutdown exits with status 0.
    """

    def __init__(self, config: uvicorn.Config, app: RemoteApp, book: ConnectionBook, *, handle_signals: bool) -> None:
        super().__init__(config)
        self._remote = app
        self.book = book
        self._handle_signals = handle_signals
        self._listeners: list[socket.socket] = []
        self._accepting: list[asyncio.Task[None]] = []
        self._connecting: set[asyncio.Future[Any]] = set()
        self.accept_errors = AcceptErrorLog()

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        """uvicorn's startup, but connections are accepted here, one at a time, not by asyncio's server.

        asyncio's server accepts a whole backlog at once before any connection reaches the
        protocol, and when descriptors run out it reports (and schedules a retry for) every
        pending connection: a flood of tracebacks and busy retries. Accepting here keeps the
        connection cap ahead of the descriptor limit, makes room by closing the oldest idle
        connection when descriptors do run out, and reports that once per interval.
        """
        listeners = list(sockets) if sockets is not None else [self.config.bind_socket()]
        await super().startup(sockets=[])
        loop = asyncio.get_running_loop()
        for sock in listeners:
            sock.listen(BACKLOG)
            sock.setblocking(False)
            self._listeners.append(sock)
            self._accepting.append(loop.create_task(self._accept_loop(sock)))

    def _stop_accepting(self) -> None:
        """New connections are refused from now on (the listening sockets close once their waits end)."""
        if not self._accepting or all(task.done() for task in self._accepting):
            return
        for task in self._accepting:
            task.cancel()
        listeners = list(self._listeners)

        def close() -> None:
            for sock in listeners:
                sock.close()

        asyncio.get_running_loop().call_soon(close)

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        self._stop_accepting()
        for task in self._accepting:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        if self._connecting:  # accepted just before the end: registered now, so uvicorn closes them too
            await asyncio.gather(*self._connecting, return_exceptions=True)
        for sock in self._listeners:
            sock.close()
        await super().shutdown(sockets=sockets)

    async def _accept_loop(self, listener: socket.socket) -> None:
        loop = asyncio.get_running_loop()
        config = self.config

        def create_protocol() -> asyncio.Protocol:
            return config.http_protocol_class(  # type: ignore[call-arg]
                config=config, server_state=self.server_state, app_state=self.lifespan.state, _loop=loop
            )

        while True:
            try:
                connection, _ = listener.accept()
            except (BlockingIOError, InterruptedError):
                await _readable(loop, listener)
                continue
            except OSError as error:
                if listener.fileno() == -1:
                    return  # closed: the server is stopping
                if error.errno in EXHAUSTED:
                    self.accept_errors.report(error)
                    if not self.book.close_oldest_idle():
                        await asyncio.sleep(0.1)  # nothing to close: wait for a connection to end
                else:  # a connection that failed while waiting (aborted, reset): the next one is fine
                    log.debug("a connection failed before it was accepted: %s", error)
                await asyncio.sleep(0)
                continue
            connection.setblocking(False)
            with contextlib.suppress(OSError):
                # Small answers must not wait for a delayed ACK (asyncio sets this only on IPPROTO_TCP sockets).
                connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            connecting = asyncio.ensure_future(self._connect(loop, create_protocol, connection))
            self._connecting.add(connecting)
            connecting.add_done_callback(self._connecting.discard)
            await asyncio.shield(connecting)  # a shutdown now still lets this connection be set up (and closed)

    @staticmethod
    async def _connect(
        loop: asyncio.AbstractEventLoop, create_protocol: Callable[[], asyncio.Protocol], connection: socket.socket
    ) -> None:
        try:
            await loop.connect_accepted_socket(create_protocol, connection)
        except OSError:
            connection.close()
        except Exception:  # never let one connection stop the accept loop
            log.exception("could not set up an accepted connection")
            connection.close()

    def request_shutdown(self) -> None:
        """What SIGTERM does: stop accepting, drain, stop."""
        self._stop_accepting()
        if not self._remote.lifecycle.draining:
            self._remote.lifecycle.draining = True
            log.info(
                "shutting down: %d request(s) in flight get up to %g s to finish",
                self._remote.lifecycle.in_flight,
                self.config.timeout_graceful_shutdown or 0,
            )
        self.should_exit = True

    @contextlib.contextmanager
    def capture_signals(self) -> Generator[None, None, None]:
        if not self._handle_signals:
            yield
            return
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, self._on_signal, sig)
        try:
            yield
        finally:
            for sig in (signal.SIGTERM, signal.SIGINT):
                loop.remove_signal_handler(sig)

    def _on_signal(self, sig: int) -> None:
        if self.should_exit and sig == signal.SIGINT:
            self.force_exit = True
            return
        log.info("received %s", signal.Signals(sig).name)
        self.request_shutdown()


async def _readable(loop: asyncio.AbstractEventLoop, listener: socket.socket) -> None:
    """Until ``listener`` has a connection to accept. Safe to cancel: nothing has been accepted yet.

    (``loop.sock_accept`` is not: cancelled at the wrong moment it accepts a connection and drops it.)
    """
    ready: asyncio.Future[None] = loop.create_future()

    def wake() -> None:
        if not ready.done():
            ready.set_result(None)

    loop.add_reader(listener.fileno(), wake)
    try:
        await ready
    finally:
        loop.remove_reader(listener.fileno())


def connection_limit(requested: int) -> int:
    """The connection cap: as asked, but always below the process's descriptor limit."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return requested
    return max(1, min(requested, soft - FD_RESERVE))


def raise_descriptor_limit(target: int = FD_TARGET) -> int:
    """Raise the soft descriptor limit towards ``target`` (within the hard limit); the limit now."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = target if hard == resource.RLIM_INFINITY else min(target, hard)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
            soft = wanted
    return soft


def make_server(app: RemoteApp, options: HttpOptions, *, handle_signals: bool = False) -> DrainingServer:
    # uvicorn's access line holds the raw request target, query string included, and is written
    # whenever that logger has a handler; ours replaces it, so it is switched off for good.
    logging.getLogger("uvicorn.access").disabled = True
    book = ConnectionBook(connection_limit(options.max_connections), options.header_timeout_seconds)
    config = uvicorn.Config(
        app,
        host=options.host,
        port=options.port,
        http=protocol_for(book),
        log_config=None,  # keep the process's logging as configured; uvicorn adds nothing
        access_log=False,
        # Annotated ``int | None``, but only ever handed to ``asyncio.wait_for``, which takes any float.
        timeout_graceful_shutdown=max(options.shutdown_grace_seconds, 0.001),  # type: ignore[arg-type]
        server_header=False,
        lifespan="on",
        ws="none",
        backlog=BACKLOG,
    )
    return DrainingServer(config, app, book, handle_signals=handle_signals)


class AcceptErrorLog:
    """Reports running out of descriptors once per interval, with how often it happened, never per attempt."""

    def __init__(self, interval: float = ACCEPT_ERROR_INTERVAL, *, clock: Callable[[], float] = time.monotonic) -> None:
        self._interval = interval
        self._clock = clock
        self._last: float | None = None
        self._suppressed = 0

    def report(self, error: OSError) -> None:
        now = self._clock()
        if self._last is not None and now - self._last < self._interval:
            self._suppressed += 1
            return
        log.warning(
            "cannot accept connections: %s (%d more time(s) since the last report); idle connections are "
            "closed to make room; lower OPENPROJECT_HTTP_MAX_CONNECTIONS or raise the descriptor limit (ulimit -n)",
            error.strerror or errno.errorcode.get(error.errno or 0, "resource exhausted"),
            self._suppressed,
        )
        self._last = now
        self._suppressed = 0


async def serve_http(app: RemoteApp, options: HttpOptions, *, sockets: list[socket.socket] | None = None) -> None:
    """Serve until SIGTERM/SIGINT, then drain (the entry point's runner)."""
    install_access_log_handler()
    if not logging.getLogger().isEnabledFor(logging.DEBUG):
        # The SDK notes every stateless exchange at INFO; the access log already has one line per request.
        logging.getLogger("mcp.server.streamable_http").setLevel(logging.WARNING)
    raise_descriptor_limit()
    server = make_server(app, options, handle_signals=True)
    log.info(
        "serving MCP over streamable HTTP at http://%s:%d%s (stateless, JSON responses; at most %d connections)",
        options.host,
        options.port,
        MCP_PATH,
        server.book.limit,
    )
    await server.serve(sockets=sockets)
