"""Remote mode's settings: environment parsing (with every other setting), loopback and the Host/Origin policy."""

from __future__ import annotations

import pytest

from openproject_mcp.adapters.mcp.hosting.options import (
    check_http_options,
    is_loopback,
    origin_allowlist,
    transport_security,
)
from openproject_mcp.config import ConfigurationError, HttpSettings, load_http_settings


def test_defaults_listen_on_loopback_with_bounded_bodies_and_deadlines() -> None:
    options = load_http_settings({})
    assert (options.host, options.port) == ("127.0.0.1", 8000)
    assert options.max_body_bytes == 1024 * 1024
    assert options.request_timeout_seconds == 120
    assert options.shutdown_grace_seconds == 25
    assert is_loopback(options.host)
    assert (options.header_timeout_seconds, options.body_timeout_seconds) == (10, 30)
    assert (options.max_connections, options.max_in_flight) == (1000, 64)
    assert (options.rate_limit_per_minute, options.rate_limit_burst) == (600, 60)
    assert not options.ready_checks_instance


def test_the_environment_and_the_command_line_set_every_option() -> None:
    env = {
        "OPENPROJECT_HTTP_MAX_BODY_BYTES": "65536",
        "OPENPROJECT_HTTP_REQUEST_TIMEOUT": "30",
        "OPENPROJECT_HTTP_SHUTDOWN_GRACE": "5.5",
        "OPENPROJECT_HTTP_ALLOWED_ORIGINS": "https://chat.example.com, https://ide.example.com",
        "OPENPROJECT_HTTP_ALLOWED_HOSTS": "mcp.example.com",
        "OPENPROJECT_HTTP_READY_CHECKS_INSTANCE": "yes",
        "OPENPROJECT_HTTP_HEADER_TIMEOUT": "5",
        "OPENPROJECT_HTTP_BODY_TIMEOUT": "7",
        "OPENPROJECT_HTTP_MAX_CONNECTIONS": "200",
        "OPENPROJECT_HTTP_MAX_IN_FLIGHT": "8",
        "OPENPROJECT_HTTP_RATE_LIMIT": "0",
        "OPENPROJECT_HTTP_RATE_BURST": "5",
    }
    options = load_http_settings(env, host="0.0.0.0", port=9000)
    assert options == HttpSettings(
        host="0.0.0.0",
        port=9000,
        max_body_bytes=65536,
        request_timeout_seconds=30,
        shutdown_grace_seconds=5.5,
        allowed_origins=("https://chat.example.com", "https://ide.example.com"),
        allowed_hosts=("mcp.example.com",),
        ready_checks_instance=True,
        header_timeout_seconds=5,
        body_timeout_seconds=7,
        max_connections=200,
        max_in_flight=8,
        rate_limit_per_minute=0,
        rate_limit_burst=5,
    )


@pytest.mark.parametrize(
    ("env", "port", "says"),
    [
        ({"OPENPROJECT_HTTP_MAX_BODY_BYTES": "lots"}, None, "OPENPROJECT_HTTP_MAX_BODY_BYTES must be a number"),
        ({"OPENPROJECT_HTTP_MAX_BODY_BYTES": "10"}, None, "between 1024 and"),
        ({"OPENPROJECT_HTTP_REQUEST_TIMEOUT": "0"}, None, "OPENPROJECT_HTTP_REQUEST_TIMEOUT must be between"),
        ({"OPENPROJECT_HTTP_READY_CHECKS_INSTANCE": "maybe"}, None, "must be true or false"),
        ({"OPENPROJECT_HTTP_HEADER_TIMEOUT": "0"}, None, "OPENPROJECT_HTTP_HEADER_TIMEOUT must be between"),
        ({"OPENPROJECT_HTTP_MAX_CONNECTIONS": "2"}, None, "OPENPROJECT_HTTP_MAX_CONNECTIONS must be between 16"),
        ({"OPENPROJECT_HTTP_RATE_LIMIT": "-1"}, None, "OPENPROJECT_HTTP_RATE_LIMIT must be between 0"),
        ({}, 70000, "--port must be between 1 and 65535"),
    ],
)
def test_a_bad_setting_is_refused_with_what_to_fix(env: dict[str, str], port: int | None, says: str) -> None:
    with pytest.raises(ConfigurationError, match=says):
        load_http_settings(env, port=port)


@pytest.mark.parametrize(
    ("host", "loopback"),
    [
        ("127.0.0.1", True),
        ("127.0.0.2", True),
        ("localhost", True),
        ("::1", True),
        ("[::1]", True),
        ("0.0.0.0", False),
        ("::", False),
        ("10.1.2.3", False),
        ("mcp.internal", False),
    ],
)
def test_loopback_binds_are_recognised(host: str, loopback: bool) -> None:
    assert is_loopback(host) is loopback


def test_a_loopback_bind_turns_dns_rebinding_protection_on() -> None:
    security = transport_security(HttpSettings(host="127.0.0.1", allowed_origins=("https://chat.example.com",)))
    assert security.enable_dns_rebinding_protection
    assert "127.0.0.1:*" in security.allowed_hosts and "localhost:*" in security.allowed_hosts
    assert security.allowed_origins == [
        "http://127.0.0.1:*",
        "http://localhost:*",
        "http://[::1]:*",
        "https://chat.example.com",
    ]


def test_a_public_bind_checks_hosts_only_when_the_operator_names_them() -> None:
    assert not transport_security(HttpSettings(host="0.0.0.0")).enable_dns_rebinding_protection
    named = transport_security(HttpSettings(host="0.0.0.0", allowed_hosts=("mcp.example.com",)))
    assert named.enable_dns_rebinding_protection
    assert named.allowed_hosts == ["mcp.example.com"]
    assert origin_allowlist(HttpSettings(host="0.0.0.0")) == ()


@pytest.mark.parametrize(
    "options",
    [
        HttpSettings(allowed_hosts=("mcp.example.com", "mcp.example.com:8443", "mcp.internal:*", "10.0.0.5:8000")),
        HttpSettings(allowed_hosts=("[::1]", "[2001:db8::1]:8000", "localhost")),
        HttpSettings(allowed_origins=("https://app.example.com", "http://localhost:5173", "http://127.0.0.1:*")),
        HttpSettings(allowed_origins=("https://[2001:db8::1]:8443", "https://app.example.com:8443")),
    ],
)
def test_hosts_and_origins_in_the_forms_the_checks_compare_are_accepted(options: HttpSettings) -> None:
    check_http_options(options)
