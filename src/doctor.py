"""``openproject-mcp doctor``: checks a setup end to end, one line per check, a fix for each failure.

The checks run in the order a request travels: the settings, the proxy, name resolution, the TCP
connection, TLS, OpenProject answering at ``/api/v3``, then with the token: whose it is, the
instance's version (shown to administrators only), each capability the adapter detects, whether
the user may list users, and the round-trip time. Once the way to the instance is blocked, the
checks behind it are skipped, saying why. The exit code is 1 when any check failed.
"""

from __future__ import annotations

import asyncio
import dataclasses
import os
import statistics
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Literal
from urllib.parse import urlsplit

from openproject_mcp.adapters.openproject import diagnostics
from openproject_mcp.adapters.openproject.capabilities import AiohttpCapabilityRepository, CapabilityCache
from openproject_mcp.adapters.openproject.client import ClientSettings, OpenProjectClient, new_session
from openproject_mcp.adapters.openproject.instance import AiohttpInstanceRepository
from openproject_mcp.adapters.openproject.repositories import AiohttpMetadataRepository
from openproject_mcp.application.instance import CAPABILITY_MEANINGS
from openproject_mcp.config import ConfigurationError, Settings, load_settings
from openproject_mcp.domain.errors import AuthenticationError, ForbiddenError, OpenProjectMcpError
from openproject_mcp.domain.queries import PageRequest

Status = Literal["ok", "info", "fail", "skip"]
LABELS: Mapping[Status, str] = {"ok": "ok  ", "info": "info", "fail": "FAIL", "skip": "skip"}
LATENCY_SAMPLES = 3
SLOW_SECONDS = 2.0

TOKEN_FIX = (
    "create an API token in OpenProject under My account -> Access tokens (API) and set OPENPROJECT_API_KEY to it"
)


@dataclass(frozen=True, slots=True)
class Check:
    name: str
    status: Status
    detail: str
    fix: str = ""

    def line(self) -> str:
        text = f"{LABELS[self.status]}  {self.name:<34} {self.detail}"
        return f"{text}. Fix: {self.fix}." if self.status == "fail" and self.fix else text


@dataclass
class Report:
    checks: list[Check] = dataclasses.field(default_factory=list)
    emit: Callable[[str], None] = print
    blocked: str | None = None
    """Why the checks that need the instance cannot run, once something on the way failed."""

    def add(self, name: str, status: Status, detail: str, fix: str = "") -> Check:
        check = Check(name, status, detail, fix)
        self.checks.append(check)
        self.emit(check.line())
        if status == "fail" and self.blocked is None:
            self.blocked = f"{name} failed"
        return check

    def probe(self, name: str, probe: diagnostics.Probe) -> bool:
        self.add(name, "ok" if probe.ok else "fail", probe.detail, probe.fix)
        return probe.ok

    def skip(self, *names: str) -> None:
        """One line for the checks that cannot run, saying why."""
        if names:
            label = ", ".join(dict.fromkeys(n.replace("capability ", "capabilities ").split(" ")[0] for n in names))
            self.add(label, "skip", f"not checked: {self.blocked}")

    @property
    def failed(self) -> bool:
        return any(check.status == "fail" for check in self.checks)


AUTHENTICATED = ("token", "version", *(f"capability {name}" for name in CAPABILITY_MEANINGS), "users", "latency")


def _settings(report: Report, env: Mapping[str, str]) -> Settings | None:
    try:
        settings = load_settings(env)
    except ConfigurationError as exc:
        report.add("settings", "fail", str(exc).rstrip("."), "set what the message names, then run doctor again")
        return None
    token = settings.api_key or ""
    bundle = f", CA bundle {settings.network.ca_bundle}" if settings.network.ca_bundle else ""
    report.add(
        "settings",
        "ok",
        f"OPENPROJECT_BASE_URL={settings.base_url}, OPENPROJECT_API_KEY set ({len(token)} character(s)){bundle}, "
        f"timeout {settings.timeout_seconds:g} s",
    )
    return settings


def client_settings(settings: Settings) -> ClientSettings:
    return ClientSettings(
        base_url=settings.base_url or "",
        timeout_seconds=settings.timeout_seconds,
        max_retries=0,
        proxy=settings.network.proxy.url,
        ca_bundle=str(settings.network.ca_bundle) if settings.network.ca_bundle else None,
    )


async def _way(report: Report, settings: Settings, client: ClientSettings) -> None:
    """Proxy, DNS, TCP, TLS and the unauthenticated API root: everything before the token counts."""
    proxy = settings.network.proxy
    parts = urlsplit(client.base_url)
    host, https = parts.hostname or "", parts.scheme == "https"
    port = parts.port or (443 if https else 80)
    timeout = min(settings.timeout_seconds, 10.0)
    if proxy.url is not None:
        report.add("proxy", "ok", f"requests go through {proxy.shown} ({proxy.variable})")
        proxy_parts = urlsplit(proxy.url)
        proxy_port = proxy_parts.port or (443 if proxy_parts.scheme == "https" else 80)
        reached = report.probe(
            "proxy connection",
            await diagnostics.connect(
                proxy_parts.hostname or "",
                proxy_port,
                timeout,
                "the proxy",
                f"check {proxy.variable}; or list {host} in NO_PROXY if the instance is reached directly",
            ),
        )
        if reached:
            report.add("dns", "info", f"{host} is resolved by the proxy")
            report.add("connection", "info", "made by the proxy")
    else:
        via = f"; {proxy.bypassed_by} exempts {host} from {proxy.variable}" if proxy.bypassed_by else ""
        report.add("proxy", "ok", f"none: direct connection{via} (HTTPS_PROXY / HTTP_PROXY / NO_PROXY are honoured)")
        if report.probe("dns", await diagnostics.resolve(client.base_url, timeout)):
            report.probe(
                "connection",
                await diagnostics.connect(
                    host,
                    port,
                    timeout,
                    "the instance at",
                    "check that the instance runs, the port in OPENPROJECT_BASE_URL, and any firewall on the way",
                ),
            )
        else:
            report.skip("connection")
    if report.blocked:
        report.skip(*(("tls",) if https else ()), "openproject")
        return
    if https and proxy.url is None:
        report.probe("tls", await diagnostics.handshake(client.base_url, client.ca_bundle, timeout))
    elif https:
        report.add("tls", "info", "checked through the proxy's tunnel by the next request")
    else:
        report.add("tls", "info", "not used: OPENPROJECT_BASE_URL is http://, so the token travels unencrypted")
    if report.blocked:
        report.skip("openproject")
        return
    report.probe("openproject", await diagnostics.api_root(client))


async def _authenticated(report: Report, settings: Settings, client_config: ClientSettings) -> None:
    session = new_session(client_config, settings.api_key or "")
    try:
        client = OpenProjectClient(session, client_config, settings.api_key or "", asyncio.Semaphore(8))
        try:
            facts = await AiohttpInstanceRepository(client).facts()
        except AuthenticationError as exc:
            report.add("token", "fail", exc.message.rstrip("."), TOKEN_FIX)
            report.blocked = "the token was rejected"
            report.skip(*AUTHENTICATED[1:])
            return
        except OpenProjectMcpError as exc:
            report.add("token", "fail", exc.message.rstrip("."), exc.hint or "check the instance")
            report.skip(*AUTHENTICATED[1:])
            return
        user = facts.current_user
        if user is None:
            report.add("token", "fail", "the instance answers as for an anonymous user", TOKEN_FIX)
        else:
            login = f", login {user.login}" if user.login else ""
            admin = {True: ", an administrator", False: ", not an administrator", None: ""}[facts.admin]
            report.add("token", "ok", f"belongs to {user.name} (id {user.id}{login}{admin}) on {facts.name!r}")
        if facts.version:
            report.add("version", "ok", f"OpenProject {facts.version}")
        else:
            report.add("version", "info", "not shown: OpenProject shows its version to administrators only")
        await _capabilities(report, client)
        await _users(report, client)
        await _latency(report, client)
    finally:
        await session.close()


async def _capabilities(report: Report, client: OpenProjectClient) -> None:
    try:
        found = await AiohttpCapabilityRepository(client, CapabilityCache()).capabilities()
    except OpenProjectMcpError as exc:
        for name in CAPABILITY_MEANINGS:
            report.add(f"capability {name}", "fail", exc.message.rstrip("."), exc.hint or "check the instance")
        return
    for field in dataclasses.fields(found):
        available = bool(getattr(found, field.name))
        meaning = CAPABILITY_MEANINGS.get(field.name, field.name)
        report.add(
            f"capability {field.name}", "ok" if available else "info", f"{'yes' if available else 'no'}: {meaning}"
        )


async def _users(report: Report, client: OpenProjectClient) -> None:
    try:
        await AiohttpMetadataRepository(client).users([], PageRequest(offset=1, page_size=1))
    except ForbiddenError:
        report.add(
            "users",
            "info",
            "may not list all users (needs the global 'manage users' permission); openproject_list_users shows "
            "the members of your projects instead",
        )
    except OpenProjectMcpError as exc:
        report.add("users", "fail", exc.message.rstrip("."), exc.hint or "check the instance")
    else:
        report.add("users", "ok", "may list all users")


async def _latency(report: Report, client: OpenProjectClient) -> None:
    samples: list[float] = []
    try:
        for _ in range(LATENCY_SAMPLES):
            started = time.monotonic()
            await client.get("api/v3")
            samples.append(time.monotonic() - started)
    except OpenProjectMcpError as exc:
        report.add("latency", "fail", exc.message.rstrip("."), exc.hint or "check the instance")
        return
    median = statistics.median(samples)
    detail = f"median {median * 1000:.0f} ms over {len(samples)} requests to /api/v3"
    if median > SLOW_SECONDS:
        report.add("latency", "info", f"{detail}: slow; a search sends 5 to 30 requests")
    else:
        report.add("latency", "ok", detail)


async def diagnose(env: Mapping[str, str] | None = None, emit: Callable[[str], None] = print) -> Report:
    """Run every check against the instance the environment names; each line goes to ``emit``."""
    env = os.environ if env is None else env
    report = Report(emit=emit)
    settings = _settings(report, env)
    if settings is None:
        report.blocked = "the settings are incomplete"
        report.skip("proxy", "dns", "connection", "tls", "openproject", *AUTHENTICATED)
        return report
    client = client_settings(settings)
    await _way(report, settings, client)
    if report.blocked:
        report.skip(*AUTHENTICATED)
        return report
    await _authenticated(report, settings, client)
    return report


def run(env: Mapping[str, str] | None = None, emit: Callable[[str], None] = print) -> int:
    """The ``doctor`` command: 0 when every check passed, 1 when one failed."""
    report = asyncio.run(diagnose(env, emit))
    failed = sum(check.status == "fail" for check in report.checks)
    emit(f"{failed} check(s) failed." if failed else "Every check passed.")
    return 1 if report.failed else 0
