"""Low-level checks of the way to an instance: name resolution, a TCP connection, the TLS
handshake and an unauthenticated look at ``/api/v3``, each reporting what went wrong in words a
person can act on. ``openproject-mcp doctor`` runs them before the authenticated checks.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import ssl
import time
from dataclasses import dataclass
from urllib.parse import urlsplit

import aiohttp

from openproject_mcp.adapters.openproject.client import ClientSettings, new_connector
from openproject_mcp.adapters.openproject.network import tls_context, without_credentials

CA_BUNDLE_FIX = (
    "if the instance's certificate comes from an internal or self-signed CA, save that CA's certificate as PEM "
    "(e.g. from `openssl s_client -connect HOST:443 -showcerts`) and set OPENPROJECT_CA_BUNDLE to its path"
)


@dataclass(frozen=True, slots=True)
class Probe:
    """One check's outcome: ``ok``, what was found (or what went wrong), and how to fix a failure."""

    ok: bool
    detail: str
    fix: str = ""
    seconds: float = 0.0


def _target(base_url: str) -> tuple[str, int, bool]:
    parts = urlsplit(base_url)
    https = parts.scheme == "https"
    return parts.hostname or "", parts.port or (443 if https else 80), https


async def resolve(base_url: str, wait_seconds: float) -> Probe:
    """Whether the instance's host name resolves, and to what."""
    host, port, _ = _target(base_url)
    loop = asyncio.get_running_loop()
    try:
        infos = await asyncio.wait_for(loop.getaddrinfo(host, port, type=socket.SOCK_STREAM), wait_seconds)
    except TimeoutError:
        return Probe(
            False, f"resolving {host} took longer than {wait_seconds:g} s", "check this machine's DNS settings"
        )
    except OSError as exc:
        return Probe(
            False,
            f"{host} does not resolve ({exc.strerror or exc})",
            "check the host name in OPENPROJECT_BASE_URL; if this network reaches the instance only through a "
            "proxy, set HTTPS_PROXY (or HTTP_PROXY for http://)",
        )
    addresses = sorted({str(info[4][0]) for info in infos})
    return Probe(True, f"{host} is {', '.join(addresses[:4])}")


async def connect(host: str, port: int, wait_seconds: float, what: str, fix: str) -> Probe:
    """Whether a TCP connection to ``host:port`` opens."""
    started = time.monotonic()
    try:
        _, writer = await asyncio.wait_for(asyncio.open_connection(host, port), wait_seconds)
    except TimeoutError:
        return Probe(False, f"{what} {host}:{port} did not accept a connection within {wait_seconds:g} s", fix)
    except OSError as exc:
        return Probe(False, f"{what} {host}:{port} refused the connection ({exc.strerror or exc})", fix)
    writer.close()
    with contextlib.suppress(OSError):
        await writer.wait_closed()
    return Probe(True, f"{what} {host}:{port} accepts connections", seconds=time.monotonic() - started)


def certificate_problem(error: BaseException) -> str:
    """OpenSSL's reason for refusing a certificate, as one phrase."""
    message = getattr(error, "verify_message", None) or getattr(error, "reason", None) or str(error)
    return str(message)


async def handshake(base_url: str, ca_bundle: str | None, wait_seconds: float) -> Probe:
    """Whether the TLS handshake succeeds with the certificates this server trusts."""
    host, port, _ = _target(base_url)
    try:
        context = tls_context(ca_bundle)
    except ValueError as exc:
        return Probe(False, f"OPENPROJECT_CA_BUNDLE: {exc}", "give the path of a readable PEM file")
    try:
        _, writer = await asyncio.wait_for(
            asyncio.open_connection(host, port, ssl=context, server_hostname=host), wait_seconds
        )
    except ssl.SSLCertVerificationError as exc:
        return Probe(False, f"the certificate of {host} is not trusted: {certificate_problem(exc)}", CA_BUNDLE_FIX)
    except ssl.SSLError as exc:
        return Probe(
            False,
            f"the TLS handshake with {host}:{port} failed: {certificate_problem(exc)}",
            "check that the port speaks TLS (https://) and that OPENPROJECT_BASE_URL names the right scheme",
        )
    except TimeoutError:
        return Probe(False, f"the TLS handshake with {host}:{port} took longer than {wait_seconds:g} s", "try again")
    except OSError as exc:
        return Probe(False, f"the TLS connection to {host}:{port} failed ({exc})", "check the address and port")
    version = writer.get_extra_info("ssl_object").version() if writer.get_extra_info("ssl_object") else "TLS"
    writer.close()
    with contextlib.suppress(OSError, ssl.SSLError):
        await writer.wait_closed()
    trusted = "the system's CAs" + (" and OPENPROJECT_CA_BUNDLE" if ca_bundle else "")
    return Probe(True, f"{version}, certificate of {host} trusted ({trusted})")


async def api_root(settings: ClientSettings) -> Probe:
    """``GET api/v3`` without credentials, through the proxy if one is set: does OpenProject answer?"""
    timeout = aiohttp.ClientTimeout(total=settings.timeout_seconds)
    url = f"{settings.base_url}api/v3"
    started = time.monotonic()
    try:
        async with (
            aiohttp.ClientSession(
                connector=new_connector(settings),
                timeout=timeout,
                proxy=settings.proxy,
                cookie_jar=aiohttp.DummyCookieJar(),
            ) as session,
            session.get(url, allow_redirects=False, headers={"Accept": "application/hal+json"}) as response,
        ):
            elapsed = time.monotonic() - started
            body = await response.content.read(64 * 1024)
            location = response.headers.get("Location", "")
            status = response.status
    except aiohttp.ClientConnectorCertificateError as exc:
        problem = certificate_problem(exc.certificate_error)
        return Probe(False, f"the instance's certificate is not trusted: {problem}", CA_BUNDLE_FIX)
    except aiohttp.ClientProxyConnectionError as exc:
        return Probe(
            False,
            f"the proxy {without_credentials(settings.proxy or '')} could not be reached ({exc.os_error})",
            "check HTTPS_PROXY / HTTP_PROXY, or list the instance's host in NO_PROXY if it is reached directly",
        )
    except aiohttp.ClientHttpProxyError as exc:
        fix = "put the proxy's user and password in the proxy URL (http://user:password@proxy:port)"
        if exc.status != 407:
            fix = "check that the proxy lets this machine reach the instance"
        return Probe(False, f"the proxy refused the connection: HTTP {exc.status} {exc.message}", fix)
    except aiohttp.ClientConnectorDNSError as exc:
        return Probe(
            False,
            f"{urlsplit(url).hostname} does not resolve ({exc.os_error})",
            "check the host name in OPENPROJECT_BASE_URL, or set HTTPS_PROXY if the network needs a proxy",
        )
    except aiohttp.ClientConnectorError as exc:
        return Probe(
            False,
            f"could not connect ({exc.os_error})",
            "check that the instance runs and OPENPROJECT_BASE_URL has the right host and port",
        )
    except TimeoutError:
        return Probe(
            False,
            f"no answer within {settings.timeout_seconds:g} s",
            "check the address; raise OPENPROJECT_TIMEOUT if the instance is just slow",
        )
    except aiohttp.ClientError as exc:
        return Probe(False, f"the request failed ({type(exc).__name__}: {exc})", "check OPENPROJECT_BASE_URL")
    if status == 407:
        return Probe(
            False,
            f"the proxy {without_credentials(settings.proxy or '')} wants credentials (HTTP 407)",
            "put the proxy's user and password in the proxy URL (http://user:password@proxy:port)",
        )
    if status in (301, 302, 303, 307, 308):
        return Probe(
            False,
            f"GET /api/v3 is redirected (HTTP {status}) to {location or 'another address'}",
            "set OPENPROJECT_BASE_URL to the address the instance is served at (https://, the sub-path)",
        )
    if status == 404:
        return Probe(
            False,
            "there is no OpenProject API at /api/v3 of this address (HTTP 404)",
            "check OPENPROJECT_BASE_URL: an install under a sub-path needs it (https://host/openproject)",
        )
    if status >= 500:
        return Probe(False, f"OpenProject answered HTTP {status}", "the instance has a problem: try again later")
    if b"_type" not in body:
        return Probe(
            False,
            f"HTTP {status}, but the answer is not OpenProject's API (no HAL document)",
            "check OPENPROJECT_BASE_URL: it should be the OpenProject address, not a login page or another site",
        )
    return Probe(True, f"OpenProject answers at {url} (HTTP {status} without a token)", seconds=elapsed)
