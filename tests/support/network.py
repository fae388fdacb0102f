"""Network pieces for tests: a self-signed certificate (made with the ``openssl`` binary) and a
tiny forwarding HTTP proxy on 127.0.0.1 that maps every host name to the loopback address."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import dataclasses
import shutil
import ssl
import subprocess
from collections.abc import AsyncIterator, Mapping
from pathlib import Path
from types import TracebackType
from typing import Any

import pytest


def self_signed_certificate(directory: Path) -> tuple[Path, Path]:
    """``(certificate, key)`` PEM files for 127.0.0.1, localhost and ``openproject.invalid`` (a name
    only :class:`ForwardingProxy` reaches), valid for two days."""
    openssl = shutil.which("openssl")
    if openssl is None:
        pytest.skip("the openssl binary is needed to make a test certificate")
    cert, key = directory / "cert.pem", directory / "key.pem"
    subprocess.run(
        [
            openssl,
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-days",
            "2",
            "-subj",
            "/CN=127.0.0.1",
            "-addext",
            "subjectAltName=IP:127.0.0.1,DNS:localhost,DNS:openproject.invalid",
            "-keyout",
            str(key),
            "-out",
            str(cert),
        ],
        check=True,
        capture_output=True,
        timeout=60,
    )
    return cert, key


def server_context(cert: Path, key: Path) -> ssl.SSLContext:
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    return context


class ForwardingProxy:
    """``async with ForwardingProxy() as proxy``: an HTTP proxy at ``proxy.url``.

    It forwards absolute-form requests (``GET http://host:port/path``) and tunnels ``CONNECT``,
    always to 127.0.0.1 at the requested port, so a host name that does not resolve is reachable
    only through it. ``credentials`` (``user:password``) makes it answer 407 without them.
    ``targets`` records each requested ``host:port``.
    """

    def __init__(self, credentials: str | None = None) -> None:
        self._credentials = credentials
        self._server: asyncio.Server | None = None
        self.targets: list[str] = []
        self.url = ""

    async def __aenter__(self) -> ForwardingProxy:
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        port = self._server.sockets[0].getsockname()[1]
        self.url = f"http://127.0.0.1:{port}"
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            await self._forward(reader, writer)
        except (asyncio.CancelledError, ConnectionError, OSError):  # the test ended, or a side hung up
            writer.close()

    async def _forward(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10)
        except (asyncio.IncompleteReadError, asyncio.LimitOverrunError, TimeoutError):
            writer.close()
            return
        lines = head.decode("latin-1").split("\r\n")
        method, target, version = lines[0].split(" ", 2)
        headers = [line for line in lines[1:] if line]
        if self._credentials is not None:
            expected = "basic " + base64.b64encode(self._credentials.encode()).decode().lower()
            given = [
                h.split(":", 1)[1].strip().lower() for h in headers if h.lower().startswith("proxy-authorization:")
            ]
            if expected not in given:
                writer.write(b"HTTP/1.1 407 Proxy Authentication Required\r\nContent-Length: 0\r\n\r\n")
                await writer.drain()
                writer.close()
                return
        if method == "CONNECT":
            host_port = target
            rest = b""
        else:
            without_scheme = target.split("://", 1)[1]
            host_port, _, path = without_scheme.partition("/")
            kept = [h for h in headers if not h.lower().startswith(("proxy-", "connection:"))]
            rest = "\r\n".join([f"{method} /{path} {version}", *kept, "Connection: close", "", ""]).encode("latin-1")
        self.targets.append(host_port)
        port = int(host_port.rsplit(":", 1)[1]) if ":" in host_port else 80
        try:
            upstream_reader, upstream_writer = await asyncio.open_connection("127.0.0.1", port)
        except OSError:
            writer.write(b"HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n")
            await writer.drain()
            writer.close()
            return
        if method == "CONNECT":
            writer.write(b"HTTP/1.1 200 Connection established\r\n\r\n")
            await writer.drain()
        else:
            upstream_writer.write(rest)
            await upstream_writer.drain()
        await asyncio.gather(_pipe(reader, upstream_writer), _pipe(upstream_reader, writer))


async def _pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    try:
        while data := await reader.read(65536):
            writer.write(data)
            await writer.drain()
    except (ConnectionError, OSError):
        pass
    finally:
        with contextlib.suppress(OSError, RuntimeError):
            writer.close()


HIDDEN_HOST = "openproject.invalid"
"""A name only the proxy resolves (to the loopback address): reaching it proves the proxy was used."""


@dataclasses.dataclass(frozen=True)
class HiddenInstance:
    """A fake OpenProject over HTTPS with a self-signed certificate, reachable by name only
    through ``proxy``; ``cert`` is the CA bundle that trusts it."""

    fake: Any
    proxy: ForwardingProxy
    cert: Path

    @property
    def address(self) -> str:
        """``host:port`` as the proxy sees the target."""
        return f"{HIDDEN_HOST}:{self.fake.base_url.rsplit(':', 1)[1].split('/', 1)[0]}"

    @property
    def url(self) -> str:
        return f"https://{self.address}"


@contextlib.asynccontextmanager
async def instance_behind_proxy(tmp_path: Path, tenants: Mapping[str, Any]) -> AsyncIterator[HiddenInstance]:
    from tests.support.fake_openproject import FakeOpenProject

    cert, key = self_signed_certificate(tmp_path)
    async with (
        FakeOpenProject(dict(tenants), ssl_context=server_context(cert, key)) as fake,
        ForwardingProxy() as proxy,
    ):
        yield HiddenInstance(fake, proxy, cert)
