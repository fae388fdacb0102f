"""``openproject-mcp doctor`` against real servers on 127.0.0.1: the fake OpenProject over HTTP and
HTTPS (a certificate made for the test), a closed port, and a forwarding proxy."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

from openproject_mcp import doctor
from openproject_mcp.adapters.fixture import load_demo_dataset
from tests.support.fake_openproject import FakeOpenProject
from tests.support.network import ForwardingProxy, instance_behind_proxy, self_signed_certificate, server_context

TOKEN = "doctor-token-5d1e"
NO_PROXY_ENV = {"HTTPS_PROXY": "", "HTTP_PROXY": "", "ALL_PROXY": "", "NO_PROXY": ""}


async def run(env: Mapping[str, str]) -> tuple[doctor.Report, list[str]]:
    lines: list[str] = []
    report = await doctor.diagnose({**NO_PROXY_ENV, **env}, emit=lines.append)
    return report, lines


def check(report: doctor.Report, name: str) -> doctor.Check:
    found = [c for c in report.checks if c.name == name]
    assert found, f"no check {name!r} in {[c.name for c in report.checks]}"
    return found[0]


def failures(report: doctor.Report) -> list[doctor.Check]:
    return [c for c in report.checks if c.status == "fail"]


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def test_a_healthy_instance_passes_every_check_and_names_the_user_version_and_features() -> None:
    async with FakeOpenProject({TOKEN: load_demo_dataset()}, profile="17.8") as fake:
        report, lines = await run({"OPENPROJECT_BASE_URL": fake.base_url, "OPENPROJECT_API_KEY": TOKEN})
    assert not failures(report), "\n".join(lines)
    assert not report.failed
    assert "Lena Müller" in check(report, "token").detail
    assert check(report, "version").detail == "OpenProject 17.8.0"
    assert check(report, "capability agenda_items").detail.startswith("yes")
    assert check(report, "capability wiki_page_list").status == "info"
    assert check(report, "users").status == "ok"
    assert check(report, "latency").status == "ok" and "ms" in check(report, "latency").detail
    assert len(lines) == len(report.checks)
    assert all(TOKEN not in line for line in lines)


async def test_a_member_sees_no_version_and_no_user_list_without_failing() -> None:
    async with FakeOpenProject({TOKEN: load_demo_dataset()}, profile="17.3", non_admin_tokens={TOKEN}) as fake:
        report, lines = await run({"OPENPROJECT_BASE_URL": fake.base_url, "OPENPROJECT_API_KEY": TOKEN})
    assert not failures(report), "\n".join(lines)
    assert check(report, "version").status == "info" and "administrators only" in check(report, "version").detail
    assert check(report, "users").status == "info"
    assert check(report, "capability agenda_items").detail.startswith("no")  # 17.3 has none


async def test_a_wrong_token_fails_naming_the_rejection_and_how_to_make_a_token() -> None:
    async with FakeOpenProject({TOKEN: load_demo_dataset()}) as fake:
        report, lines = await run({"OPENPROJECT_BASE_URL": fake.base_url, "OPENPROJECT_API_KEY": "wrong-token-123"})
    token = check(report, "token")
    assert token.status == "fail" and "rejected" in token.detail
    assert "Access tokens" in token.fix and "OPENPROJECT_API_KEY" in token.fix
    assert check(report, "openproject").status == "ok"  # the instance itself was reached
    assert all("wrong-token-123" not in line for line in lines)
    assert report.failed


async def test_an_unreachable_host_fails_at_the_connection_with_a_fix() -> None:
    port = closed_port()
    report, _ = await run({"OPENPROJECT_BASE_URL": f"http://127.0.0.1:{port}", "OPENPROJECT_API_KEY": TOKEN})
    connection = check(report, "connection")
    assert connection.status == "fail" and f"127.0.0.1:{port}" in connection.detail and "refused" in connection.detail
    assert "port" in connection.fix
    assert [c.status for c in report.checks if c.name.startswith("token")] == ["skip"]


async def test_a_self_signed_certificate_is_named_with_how_to_trust_its_ca(tmp_path: Path) -> None:
    cert, key = self_signed_certificate(tmp_path)
    async with FakeOpenProject({TOKEN: load_demo_dataset()}, ssl_context=server_context(cert, key)) as fake:
        assert fake.base_url.startswith("https://")
        env = {"OPENPROJECT_BASE_URL": fake.base_url, "OPENPROJECT_API_KEY": TOKEN}
        untrusted, _ = await run(env)
        trusted, lines = await run({**env, "OPENPROJECT_CA_BUNDLE": str(cert)})
    tls = check(untrusted, "tls")
    assert tls.status == "fail" and "not trusted" in tls.detail and "self-signed" in tls.detail
    assert "OPENPROJECT_CA_BUNDLE" in tls.fix and "PEM" in tls.fix
    assert not failures(trusted), "\n".join(lines)
    assert "OPENPROJECT_CA_BUNDLE" in check(trusted, "tls").detail


async def test_a_host_reachable_only_through_a_proxy_fails_without_it_and_passes_with_it() -> None:
    async with FakeOpenProject({TOKEN: load_demo_dataset()}) as fake, ForwardingProxy() as proxy:
        port = fake.base_url.rsplit(":", 1)[1].split("/", 1)[0]
        env = {"OPENPROJECT_BASE_URL": f"http://openproject.invalid:{port}", "OPENPROJECT_API_KEY": TOKEN}
        direct, _ = await run(env)
        proxied, lines = await run({**env, "HTTP_PROXY": proxy.url})
        bypassed, _ = await run({**env, "HTTP_PROXY": proxy.url, "NO_PROXY": ".invalid"})
    dns = check(direct, "dns")
    assert dns.status == "fail" and "openproject.invalid" in dns.detail and "HTTPS_PROXY" in dns.fix
    assert not failures(proxied), "\n".join(lines)
    assert proxy.url in check(proxied, "proxy").detail and "HTTP_PROXY" in check(proxied, "proxy").detail
    assert f"openproject.invalid:{port}" in proxy.targets
    assert "Lena Müller" in check(proxied, "token").detail
    assert "NO_PROXY exempts" in check(bypassed, "proxy").detail and check(bypassed, "dns").status == "fail"


async def test_a_proxy_that_is_down_or_wants_credentials_is_named() -> None:
    async with FakeOpenProject({TOKEN: load_demo_dataset()}) as fake, ForwardingProxy("alice:s3cret") as proxy:
        env = {"OPENPROJECT_BASE_URL": fake.base_url, "OPENPROJECT_API_KEY": TOKEN}
        down, _ = await run({**env, "HTTP_PROXY": f"http://127.0.0.1:{closed_port()}"})
        no_credentials, _ = await run({**env, "HTTP_PROXY": proxy.url})
        host_port = proxy.url.split("://", 1)[1]
        with_credentials, lines = await run({**env, "http_proxy": f"http://alice:s3cret@{host_port}"})
    assert check(down, "proxy connection").status == "fail" and "HTTP_PROXY" in check(down, "proxy connection").fix
    refused = check(no_credentials, "openproject")
    assert refused.status == "fail" and "407" in refused.detail and "user and password" in refused.fix
    assert not failures(with_credentials), "\n".join(lines)
    assert all("s3cret" not in line for line in lines)


async def test_missing_settings_fail_first_and_say_what_to_set() -> None:
    report, lines = await run({"OPENPROJECT_BASE_URL": ""})
    settings = check(report, "settings")
    assert settings.status == "fail" and "OPENPROJECT_BASE_URL is not set" in settings.detail
    assert len(lines) == 2  # the failure and one line of skipped checks


def test_the_command_exits_non_zero_on_a_failure_and_prints_one_line_per_check() -> None:
    env = {**os.environ, **NO_PROXY_ENV, "OPENPROJECT_BASE_URL": f"http://127.0.0.1:{closed_port()}"}
    env["OPENPROJECT_API_KEY"] = TOKEN
    done = subprocess.run(
        [sys.executable, "-m", "openproject_mcp", "doctor"], env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 1, done.stderr
    assert "FAIL  connection" in done.stdout and "Fix: " in done.stdout
    assert done.stdout.strip().endswith("1 check(s) failed.")
    assert "Traceback" not in done.stderr


async def test_through_a_proxy_an_untrusted_certificate_is_named_too(tmp_path: Path) -> None:
    async with instance_behind_proxy(tmp_path, {TOKEN: load_demo_dataset()}) as hidden:
        cert = hidden.cert
        env = {"OPENPROJECT_BASE_URL": hidden.url, "OPENPROJECT_API_KEY": TOKEN, "HTTPS_PROXY": hidden.proxy.url}
        untrusted, _ = await run(env)
        trusted, lines = await run({**env, "OPENPROJECT_CA_BUNDLE": str(cert)})
    refused = check(untrusted, "openproject")
    assert refused.status == "fail" and "not trusted" in refused.detail and "OPENPROJECT_CA_BUNDLE" in refused.fix
    assert not failures(trusted), "\n".join(lines)
