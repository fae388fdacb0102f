"""Settings from the environment and the command line (flags win), checked before serving."""

from __future__ import annotations

import base64
import binascii
import os
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Literal, cast, get_args
from urllib.parse import urlsplit

from openproject_mcp.adapters.environment import read_flag, read_number, read_words
from openproject_mcp.adapters.openproject.client import normalize_base_url
from openproject_mcp.adapters.openproject.network import ProxyChoice, check_proxy_url, proxy_for, tls_context
from openproject_mcp.application.result_size import OutputSchemas, ResultFormat

Backend = Literal["demo", "dataset", "openproject"]


class ConfigurationError(ValueError):
    """A setting is missing or invalid; the message says how to fix it."""


@dataclass(frozen=True, slots=True)
class Settings:
    backend: Backend
    dataset_path: Path | None = None
    base_url: str | None = None
    api_key: str | None = field(default=None, repr=False)
    read_only: bool = False
    timeout_seconds: float = 30.0
    max_retries: int = 3
    max_concurrency: int = 16
    single_tenant: bool = False
    log_level: str = "INFO"
    limits: UpstreamLimits = field(default_factory=lambda: UpstreamLimits())
    result_format: ResultFormat = "full"
    output_schemas: OutputSchemas = "keys"
    redis_url: str | None = field(default=None, repr=False)  # may carry a password
    redis_timeout_seconds: float = 0.5
    resources: ResourceSettings = field(default_factory=lambda: ResourceSettings())
    network: NetworkSettings = field(default_factory=lambda: NetworkSettings())

    def __post_init__(self) -> None:
        if self.base_url is not None:
            object.__setattr__(self, "base_url", check_base_url(self.base_url))
        if self.backend == "openproject" and not self.base_url:
            raise ConfigurationError("OPENPROJECT_BASE_URL is not set.")

    @property
    def adapter(self) -> Literal["fixture", "openproject"]:
        """Which adapter serves the ports: the in-memory one (demo, dataset) or OpenProject."""
        return "openproject" if self.backend == "openproject" else "fixture"

    @property
    def instance(self) -> str:
        """What identifies the data source in cache keys (never the token)."""
        if self.backend == "openproject":
            return self.base_url or ""
        if self.backend == "dataset":
            return f"dataset:{self.dataset_path}"
        return "demo"


# Bounds on the work one call does upstream ----------------------------------------------------
# (OPENPROJECT_MAX_RESPONSE_BYTES, OPENPROJECT_MAX_REQUESTS_PER_CALL, OPENPROJECT_MAX_RESULT_CHARS)


@dataclass(frozen=True, slots=True)
class UpstreamLimits:
    """What one tool call may read from OpenProject and return, whatever the instance sends."""

    max_response_bytes: int = 32 * 1024 * 1024  # one response body, decompressed
    max_requests_per_call: int = 200
    max_result_chars: int = 2_000_000  # one tool result, as compact JSON


def load_limits(env: Mapping[str, str]) -> UpstreamLimits:
    defaults = UpstreamLimits()
    return UpstreamLimits(
        max_response_bytes=int(
            _number(env, "OPENPROJECT_MAX_RESPONSE_BYTES", defaults.max_response_bytes, 65_536, 1024**3)
        ),
        max_requests_per_call=int(
            _number(env, "OPENPROJECT_MAX_REQUESTS_PER_CALL", defaults.max_requests_per_call, 1, 100_000)
        ),
        max_result_chars=int(_number(env, "OPENPROJECT_MAX_RESULT_CHARS", defaults.max_result_chars, 10_000, 10**9)),
    )


# How much of each result's schema tools/list shows (OPENPROJECT_OUTPUT_SCHEMAS) ------------


def load_output_schemas(env: Mapping[str, str]) -> OutputSchemas:
    raw = env.get("OPENPROJECT_OUTPUT_SCHEMAS", "").strip().lower() or "keys"
    for choice in get_args(OutputSchemas):
        if raw == choice:
            return cast(OutputSchemas, choice)
    raise ConfigurationError(
        "OPENPROJECT_OUTPUT_SCHEMAS must be keys (each result's top-level keys; the default), outline (those keys "
        "with their types and the required ones) or full (every nested record's schema too), "
        f"got {env.get('OPENPROJECT_OUTPUT_SCHEMAS')!r}."
    )


# What each tool answer carries (OPENPROJECT_RESULT_FORMAT) ----------------------------------


def load_result_format(env: Mapping[str, str]) -> ResultFormat:
    raw = env.get("OPENPROJECT_RESULT_FORMAT", "").strip().lower() or "full"
    for choice in get_args(ResultFormat):
        if raw == choice:
            return cast(ResultFormat, choice)
    raise ConfigurationError(
        f"OPENPROJECT_RESULT_FORMAT must be full (structured content and its JSON text), content (compact text "
        f"only) or structured (structured content only), got {env.get('OPENPROJECT_RESULT_FORMAT')!r}."
    )


# MCP resources and prompts ---------------------------------------------------------------------
# (OPENPROJECT_MAX_ATTACHMENT_BYTES)


@dataclass(frozen=True, slots=True)
class ResourceSettings:
    """What reading a resource may cost: the largest attachment read, in bytes."""

    max_attachment_bytes: int = 5 * 1024 * 1024


def load_resource_settings(env: Mapping[str, str]) -> ResourceSettings:
    defaults = ResourceSettings()
    return ResourceSettings(
        max_attachment_bytes=int(
            _number(env, "OPENPROJECT_MAX_ATTACHMENT_BYTES", defaults.max_attachment_bytes, 1024, 256 * 1024 * 1024)
        ),
    )


# How requests reach the instance ---------------------------------------------------------------
# (OPENPROJECT_CA_BUNDLE; and the proxy variables every HTTP client reads: HTTPS_PROXY,
# HTTP_PROXY, ALL_PROXY, NO_PROXY, in either letter case)


@dataclass(frozen=True, slots=True)
class NetworkSettings:
    """The proxy chosen for the instance's address, and a CA bundle trusted besides the system's."""

    proxy: ProxyChoice = field(default_factory=ProxyChoice)
    ca_bundle: Path | None = None


def load_network(env: Mapping[str, str], base_url: str) -> NetworkSettings:
    proxy = proxy_for(base_url, env)
    if proxy.url is not None:
        problem = check_proxy_url(proxy.url)
        if problem:
            raise ConfigurationError(f"{proxy.variable} is invalid: {problem}.")
    raw = env.get("OPENPROJECT_CA_BUNDLE", "").strip()
    if not raw:
        return NetworkSettings(proxy=proxy)
    path = Path(raw).expanduser()
    if not path.is_file():
        raise ConfigurationError(
            f"OPENPROJECT_CA_BUNDLE: no such file {raw!r}; give the path of a PEM file with the CA certificate(s) "
            "that signed the instance's certificate."
        )
    try:
        tls_context(str(path))
    except ValueError as exc:
        raise ConfigurationError(f"OPENPROJECT_CA_BUNDLE: {exc}.") from None
    return NetworkSettings(proxy=proxy, ca_bundle=path)


# ---------------------------------------------------------------------------------------------


# Shared state between replicas (OPENPROJECT_REDIS_URL) ---------------------------------------

REDIS_SCHEMES = ("redis", "rediss", "unix")


def load_redis_url(env: Mapping[str, str]) -> str | None:
    """``OPENPROJECT_REDIS_URL``, checked for its form only (never echoed: it may hold a password)."""
    url = env.get("OPENPROJECT_REDIS_URL", "").strip()
    if not url:
        return None
    scheme, _, rest = url.partition("://")
    if scheme.lower() not in REDIS_SCHEMES or not rest:
        raise ConfigurationError(
            "OPENPROJECT_REDIS_URL must be a redis://host:port/db, rediss://... (TLS) or unix:///path URL; "
            "leave it empty to keep state in each process."
        )
    return url


def env_flag(env: Mapping[str, str], name: str) -> bool:
    return read_flag(env, name, ConfigurationError)


def _number(env: Mapping[str, str], name: str, default: float, minimum: float, maximum: float) -> float:
    return read_number(env, name, default, minimum, maximum, ConfigurationError)


def check_base_url(url: str) -> str:
    """``OPENPROJECT_BASE_URL`` normalised by the client's own rule, or a ConfigurationError.

    The message names the setting and never repeats the value: a URL can carry a password.
    """
    try:
        return normalize_base_url(url)
    except ValueError as exc:
        raise ConfigurationError(f"OPENPROJECT_BASE_URL is invalid: {exc}") from None


def load_settings(
    env: Mapping[str, str] | None = None,
    *,
    demo: bool = False,
    dataset: str | None = None,
    read_only: bool | None = None,
    require_api_key: bool = True,
) -> Settings:
    """Settings for one process. ``demo``/``dataset`` pick an in-memory backend; else OpenProject."""
    env = os.environ if env is None else env
    flag_read_only = env_flag(env, "OPENPROJECT_READ_ONLY") if read_only is None else read_only
    timeout = _number(env, "OPENPROJECT_TIMEOUT", 30.0, 1.0, 600.0)
    retries = int(_number(env, "OPENPROJECT_MAX_RETRIES", 3, 0, 10))
    concurrency = int(_number(env, "OPENPROJECT_MAX_CONCURRENCY", 16, 1, 64))
    log_level = env.get("OPENPROJECT_LOG_LEVEL", "INFO").strip().upper() or "INFO"
    if log_level not in ("DEBUG", "INFO", "WARNING", "ERROR"):
        raise ConfigurationError(f"OPENPROJECT_LOG_LEVEL must be DEBUG, INFO, WARNING or ERROR, got {log_level!r}.")
    base = Settings(
        backend="demo",
        read_only=flag_read_only,
        timeout_seconds=timeout,
        max_retries=retries,
        max_concurrency=concurrency,
        log_level=log_level,
        limits=load_limits(env),
        result_format=load_result_format(env),
        output_schemas=load_output_schemas(env),
        redis_url=load_redis_url(env),
        redis_timeout_seconds=_number(env, "OPENPROJECT_REDIS_TIMEOUT", 0.5, 0.05, 10.0),
        resources=load_resource_settings(env),
    )
    if demo and dataset:
        raise ConfigurationError("Pass either --demo or --dataset PATH, not both.")
    if demo:
        return base
    if dataset:
        path = Path(dataset).expanduser()
        if not path.is_file():
            raise ConfigurationError(f"--dataset {dataset}: no such file.")
        return replace(base, backend="dataset", dataset_path=path)

    base_url = env.get("OPENPROJECT_BASE_URL", "").strip()
    if not base_url:
        raise ConfigurationError(
            "OPENPROJECT_BASE_URL is not set. Set it to your OpenProject address "
            "(e.g. https://openproject.example.com), or try the server on its demo data with --demo."
        )
    api_key = env.get("OPENPROJECT_API_KEY", "").strip() or None
    single_tenant = env_flag(env, "OPENPROJECT_SINGLE_TENANT")
    if require_api_key and api_key is None:
        raise ConfigurationError(
            "OPENPROJECT_API_KEY is not set. Create a token in OpenProject under My account → Access tokens "
            "(API) and set OPENPROJECT_API_KEY to it."
        )
    normalized = check_base_url(base_url)
    return replace(
        base,
        backend="openproject",
        base_url=normalized,
        api_key=api_key,
        single_tenant=single_tenant,
        network=load_network(env, normalized),
    )


# --- remote mode (serve --http) ---------------------------------------------------------------
# Read here with the same readers as every other setting; the hosting package in the MCP adapter
# only consumes the result.


@dataclass(frozen=True, slots=True)
class HttpSettings:
    """How the remote server listens, what it accepts and how long it waits (``OPENPROJECT_HTTP_*``)."""

    host: str = "127.0.0.1"
    port: int = 8000
    max_body_bytes: int = 1024 * 1024
    request_timeout_seconds: float = 120.0
    header_timeout_seconds: float = 10.0
    body_timeout_seconds: float = 30.0
    shutdown_grace_seconds: float = 25.0
    allowed_origins: tuple[str, ...] = ()
    allowed_hosts: tuple[str, ...] = ()
    ready_checks_instance: bool = False
    max_connections: int = 1000
    max_in_flight: int = 64
    rate_limit_per_minute: int = 600
    rate_limit_burst: int = 60


def load_http_settings(
    env: Mapping[str, str] | None = None, *, host: str | None = None, port: int | None = None
) -> HttpSettings:
    """Remote mode's settings; ``host`` and ``port`` come from the command line."""
    env = os.environ if env is None else env
    defaults = HttpSettings()
    chosen_port = defaults.port if port is None else port
    if not 1 <= chosen_port <= 65535:
        raise ConfigurationError(f"--port must be between 1 and 65535, got {chosen_port}.")

    def whole(name: str, default: int, minimum: float, maximum: float) -> int:
        return int(_number(env, name, default, minimum, maximum))

    return HttpSettings(
        host=(host or defaults.host).strip(),
        port=chosen_port,
        max_body_bytes=whole("OPENPROJECT_HTTP_MAX_BODY_BYTES", defaults.max_body_bytes, 1024, 64e6),
        request_timeout_seconds=_number(
            env, "OPENPROJECT_HTTP_REQUEST_TIMEOUT", defaults.request_timeout_seconds, 1, 3600
        ),
        header_timeout_seconds=_number(env, "OPENPROJECT_HTTP_HEADER_TIMEOUT", defaults.header_timeout_seconds, 1, 600),
        body_timeout_seconds=_number(env, "OPENPROJECT_HTTP_BODY_TIMEOUT", defaults.body_timeout_seconds, 1, 3600),
        shutdown_grace_seconds=_number(
            env, "OPENPROJECT_HTTP_SHUTDOWN_GRACE", defaults.shutdown_grace_seconds, 0, 3600
        ),
        allowed_origins=read_words(env, "OPENPROJECT_HTTP_ALLOWED_ORIGINS"),
        allowed_hosts=read_words(env, "OPENPROJECT_HTTP_ALLOWED_HOSTS"),
        ready_checks_instance=env_flag(env, "OPENPROJECT_HTTP_READY_CHECKS_INSTANCE"),
        max_connections=whole("OPENPROJECT_HTTP_MAX_CONNECTIONS", defaults.max_connections, 16, 1_000_000),
        max_in_flight=whole("OPENPROJECT_HTTP_MAX_IN_FLIGHT", defaults.max_in_flight, 1, 100_000),
        rate_limit_per_minute=whole("OPENPROJECT_HTTP_RATE_LIMIT", defaults.rate_limit_per_minute, 0, 1_000_000),
        rate_limit_burst=whole("OPENPROJECT_HTTP_RATE_BURST", defaults.rate_limit_burst, 1, 1_000_000),
    )


# --- sign in with OpenProject (serve --http) --------------------------------------------------
# (OPENPROJECT_OAUTH_CLIENT_ID, OPENPROJECT_OAUTH_CLIENT_SECRET, OPENPROJECT_PUBLIC_URL,
# OPENPROJECT_OAUTH_ENCRYPTION_KEY): all four, or none (sign-in off, header tokens only).

SIGNIN_VARIABLES: tuple[str, ...] = (
    "OPENPROJECT_OAUTH_CLIENT_ID",
    "OPENPROJECT_OAUTH_CLIENT_SECRET",
    "OPENPROJECT_PUBLIC_URL",
    "OPENPROJECT_OAUTH_ENCRYPTION_KEY",
)
KEY_HINT = "32 random bytes in base64, e.g. the output of `openssl rand -base64 32`"


@dataclass(frozen=True, slots=True)
class SignInSettings:
    """The OAuth application registered in OpenProject, where this server is reached, and the
    keys that encrypt sign-in state at rest (the first encrypts; every one decrypts, for rotation)."""

    client_id: str
    client_secret: str = field(repr=False)
    public_url: str
    encryption_keys: tuple[bytes, ...] = field(repr=False)

    @property
    def resource_url(self) -> str:
        """The MCP endpoint, the resource every issued token is for."""
        return f"{self.public_url}/mcp"

    @property
    def callback_url(self) -> str:
        """Where OpenProject sends the user back: the redirect URI registered in OpenProject."""
        return f"{self.public_url}/oauth/callback"


def check_public_url(raw: str) -> str:
    """``OPENPROJECT_PUBLIC_URL``: an https origin (http only on loopback), without path, query or fragment."""
    text = raw.strip().rstrip("/")
    parts = urlsplit(text)
    loopback = parts.hostname in ("127.0.0.1", "localhost", "::1")
    problem = None
    if parts.scheme not in ("https", "http") or not parts.hostname:
        problem = "it must be an address such as https://mcp.example.com"
    elif parts.scheme == "http" and not loopback:
        problem = "it must use https (plain http only for 127.0.0.1 or localhost)"
    elif parts.path or parts.query or parts.fragment or parts.username or parts.password:
        problem = "it must be the server's origin only (scheme, host and port), without path, query or login"
    if problem:
        raise ConfigurationError(f"OPENPROJECT_PUBLIC_URL is invalid: {problem}.")
    return text


def check_encryption_keys(raw: str) -> tuple[bytes, ...]:
    """Comma-separated base64 keys of 32 bytes each; the message never repeats a value."""
    keys: list[bytes] = []
    for position, word in enumerate((w.strip() for w in raw.split(",") if w.strip()), start=1):
        try:
            key = base64.b64decode(word.replace("-", "+").replace("_", "/"), validate=True)
        except (binascii.Error, ValueError):
            key = b""
        if len(key) != 32:
            raise ConfigurationError(f"OPENPROJECT_OAUTH_ENCRYPTION_KEY: key {position} is not {KEY_HINT}.")
        keys.append(key)
    if not keys:
        raise ConfigurationError(f"OPENPROJECT_OAUTH_ENCRYPTION_KEY is empty; set it to {KEY_HINT}.")
    return tuple(keys)


def load_signin_settings(env: Mapping[str, str] | None = None) -> SignInSettings | None:
    """Sign-in's settings, or ``None`` when none of its variables is set (sign-in off)."""
    env = os.environ if env is None else env
    given = {name: env.get(name, "").strip() for name in SIGNIN_VARIABLES}
    if not any(given.values()):
        return None
    missing = [name for name, value in given.items() if not value]
    if missing:
        raise ConfigurationError(
            f"Sign-in with OpenProject needs all of {', '.join(SIGNIN_VARIABLES)}; missing: {', '.join(missing)}. "
            "Unset them all to serve header tokens only."
        )
    return SignInSettings(
        client_id=given["OPENPROJECT_OAUTH_CLIENT_ID"],
        client_secret=given["OPENPROJECT_OAUTH_CLIENT_SECRET"],
        public_url=check_public_url(given["OPENPROJECT_PUBLIC_URL"]),
        encryption_keys=check_encryption_keys(given["OPENPROJECT_OAUTH_ENCRYPTION_KEY"]),
    )
