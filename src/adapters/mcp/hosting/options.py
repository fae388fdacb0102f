"""What the hosting package reads from remote mode's settings, and the policies derived from them.

The settings themselves are read and validated with every other setting (``config.HttpSettings``);
this package depends only on the attributes named here. One is read here from the environment, with
the same reader: ``OPENPROJECT_HTTP_MAX_IN_FLIGHT_PER_CALLER``, whose range is bounded by
``OPENPROJECT_HTTP_MAX_IN_FLIGHT`` (ADR 0079).
"""

from __future__ import annotations

import ipaddress
from collections.abc import Mapping
from typing import Final, Protocol

from mcp.server.transport_security import TransportSecuritySettings

from openproject_mcp.adapters.environment import SettingError, read_number

LOOPBACK_NAMES: Final = ("localhost",)
PER_CALLER_SETTING: Final = "OPENPROJECT_HTTP_MAX_IN_FLIGHT_PER_CALLER"


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
