"""Settings from the environment and the command line (flags win), checked before serving."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Literal
from urllib.parse import urlsplit

from openproject_mcp.adapters.environment import read_flag, read_number

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
    max_concurrency: int = 8
    single_tenant: bool = False
    log_level: str = "INFO"
    limits: UpstreamLimits = field(default_factory=lambda: UpstreamLimits())

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


# ---------------------------------------------------------------------------------------------


def env_flag(env: Mapping[str, str], name: str) -> bool:
    return read_flag(env, name, ConfigurationError)


def _number(env: Mapping[str, str], name: str, default: float, minimum: float, maximum: float) -> float:
    return read_number(env, name, default, minimum, maximum, ConfigurationError)


def check_base_url(url: str) -> str:
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ConfigurationError(
            f"OPENPROJECT_BASE_URL must be an http(s) URL such as https://openproject.example.com "
            f"(or https://host/openproject for a sub-path install), got {url!r}."
        )
    if parts.query or parts.fragment:
        raise ConfigurationError("OPENPROJECT_BASE_URL must not carry a query string or fragment.")
    path = parts.path.rstrip("/")
    if path.endswith("/api/v3"):
        path = path[: -len("/api/v3")]
    return f"{parts.scheme}://{parts.netloc}{path}/"


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
    concurrency = int(_number(env, "OPENPROJECT_MAX_CONCURRENCY", 8, 1, 64))
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
    return replace(
        base, backend="openproject", base_url=check_base_url(base_url), api_key=api_key, single_tenant=single_tenant
    )
