"""What the hosting package reads from remote mode's settings, and the policies derived from them.

The settings themselves are read and validated with every other setting (``config.HttpSettings``);
this package depends only on the attributes named here. One is read here from the environment, with
the same reader: ``OPENPROJECT_HTTP_MAX_IN_FLIGHT_PER_CALLER``, whose range is bounded by
``OPENPROJECT_HTTP_MAX_IN_FLIGHT`` (ADR 0079).
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Mapping
from typing import Final, Protocol

from mcp.server.transport_security import TransportSecuritySettings

from openproject_mcp.adapters.environment import SettingError, read_number

LOOPBACK_NAMES: Final = ("localhost",)
PER_CALLER_SETTING: Final = "OPENPROJECT_HTTP_MAX_IN_FLIGHT_PER_CALLER"
_NAME: Final = r"(?:[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?)(?:\.[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?)*\.?|\[[0-9a-f:.]+\]"
_PORT: Final = r"(?::(?:[0-9]{1,5}|\*))?"
_DEFAULT_PORTS: Final = {"https": ":443", "http": ":80"}
_HOST_ENTRY: Final = re.compile(rf"(?:{_NAME}){_PORT}")
_ORIGIN_ENTRY: Final = re.compile(rf"https?://(?:{_NAME}){_PORT}")
HOST_FORM: Final = "host, host:port or host:* (the Host header clients send, e.g. mcp.example.com), in lower case"
ORIGIN_FORM: Final = (
    "scheme://host, scheme://host:port or scheme://host:* (a web origin exactly as browsers send it, "
    "e.g. https://app.example.com), in lower case and without a path"
)


class HttpOptions(Protocol):
    """How the remote server listens, what it accepts and how long it waits."""

    @property
    def host(self) -> str: ...
    @property
    def port(self) -> int: ...
    @property
    def max_body_bytes(self) -> int: ...
    @property
    def request_timeout_seconds(self) -> float: ...
    @property
    def header_timeout_seconds(self) -> float: ...
    @property
    def body_timeout_seconds(self) -> float: ...
    @property
    def shutdown_grace_seconds(self) -> float: ...
    @property
    def allowed_origins(self) -> tuple[str, ...]: ...
    @property
    def allowed_hosts(self) -> tuple[str, ...]: ...
    @property
    def ready_checks_instance(self) -> bool: ...
    @property
    def max_connections(self) -> int: ...
    @property
    def max_in_flight(self) -> int: ...
    @property
    def rate_limit_per_minute(self) -> int: ...
    @property
    def rate_limit_burst(self) -> int: ...


def is_loopback(host: str) -> bool:
    """Whether only this machine can connect to ``host`` (then DNS-rebinding protection is always on)."""
    bare = host.strip("[]")
    if bare in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(bare).is_loopback
    except ValueError:
        return False


def origin_allowlist(options: HttpOptions) -> tuple[str, ...]:
    loopback = ("http://127.0.0.1:*", "http://localhost:*", "http://[::1]:*") if is_loopback(options.host) else ()
    return (*loopback, *options.allowed_origins)


def transport_security(options: HttpOptions) -> TransportSecuritySettings:
    """The SDK's Host/Origin check: on for loopback binds and wherever the operator names the hosts."""
    hosts = list(options.allowed_hosts)
    if is_loopback(options.host):
        hosts += ["127.0.0.1:*", "localhost:*", "[::1]:*"]
    if not hosts:
        # Bound to a public interface with no known public name: the Host header cannot be
        # judged here (the reverse proxy does), but the Origin check in the guard still runs.
        return TransportSecuritySettings(enable_dns_rebinding_protection=False)
    return TransportSecuritySettings(
        enable_dns_rebinding_protection=True,
        allowed_hosts=hosts,
        allowed_origins=list(origin_allowlist(options)),
    )


def in_flight_per_caller(options: HttpOptions, env: Mapping[str, str]) -> int:
    """How many requests one caller may have answered at once: ``OPENPROJECT_HTTP_MAX_IN_FLIGHT_PER_CALLER``,
    by default a quarter of ``OPENPROJECT_HTTP_MAX_IN_FLIGHT`` (at least one), never more than it."""
    total = options.max_in_flight
    try:
        return int(read_number(env, PER_CALLER_SETTING, max(1, total // 4), 1, total, SettingError))
    except SettingError as exc:
        raise SettingError(f"{exc} It is one caller's share of OPENPROJECT_HTTP_MAX_IN_FLIGHT ({total}).") from None


def check_http_options(options: HttpOptions) -> None:
    """``OPENPROJECT_HTTP_ALLOWED_HOSTS`` and ``OPENPROJECT_HTTP_ALLOWED_ORIGINS`` as their checks compare
    them, or a ``SettingError`` naming the setting, the entry and the form it takes.

    Either check compares text exactly: an entry in another form would match nothing and refuse
    every request (hosts) or every browser (origins) without saying why. An entry with a login
    (``user@``) is not repeated, as it may hold a password.
    """
    for name, entries, pattern, form, anyone in (
        ("OPENPROJECT_HTTP_ALLOWED_HOSTS", options.allowed_hosts, _HOST_ENTRY, HOST_FORM, "any name"),
        ("OPENPROJECT_HTTP_ALLOWED_ORIGINS", options.allowed_origins, _ORIGIN_ENTRY, ORIGIN_FORM, "any web site"),
    ):
        for entry in entries:
            if "@" in entry:
                raise SettingError(f"{name}: an entry holds a login (user@...), which is never accepted; write {form}.")
            if entry == "*":
                raise SettingError(
                    f"{name}: '*' is not accepted, as it would let {anyone} through; name each one and write {form}."
                )
            if not (pattern.fullmatch(entry) and _port_in_range(entry)):
                raise SettingError(f"{name}: {entry!r} is not in the accepted form; write {form}.")
            if entry.endswith(_DEFAULT_PORTS.get(entry.partition("://")[0], "\0")):
                raise SettingError(
                    f"{name}: {entry!r} names its scheme's default port, which browsers leave out of the "
                    f"Origin they send; write {entry.rsplit(':', 1)[0]}."
                )


def _port_in_range(entry: str) -> bool:
    port = entry.rsplit(":", 1)[-1] if not entry.endswith("]") else ""
    return not port.isdigit() or 1 <= int(port) <= 65535
