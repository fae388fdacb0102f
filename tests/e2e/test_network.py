"""Tool calls reach the instance the way the network allows: through HTTP(S)_PROXY unless NO_PROXY
exempts the host, and over HTTPS trusting OPENPROJECT_CA_BUNDLE besides the system's CAs."""

from __future__ import annotations

import base64
from pathlib import Path

import pytest
from mcp import Client

from openproject_mcp.adapters.fixture import load_demo_dataset
from openproject_mcp.adapters.mcp.hosting.health import InstanceProbe
from openproject_mcp.adapters.mcp.server import build_server
from openproject_mcp.composition import Application
from openproject_mcp.config import ConfigurationError, load_settings, load_signin_settings
from openproject_mcp.entrypoint import instance_route
from openproject_mcp.ports.signin import GrantRefusedError, ProviderUnavailableError
from tests.support.fake_openproject import FakeOAuth, FakeOpenProject
from tests.support.network import ForwardingProxy, instance_behind_proxy, self_signed_certificate, server_context

TOKEN = "network-token-81c2"


async def list_projects(env: dict[str, str]) -> tuple[bool, str]:
    app = Application(load_settings({"OPENPROJECT_API_KEY": TOKEN, **env}))
    try:
        async with Client(build_server(app.scope)) as client:
            result = await client.call_tool("openproject_list_projects", {})
    finally:
        await app.aclose()
    return result.is_error, "\n".join(getattr(c, "text", "") for c in result.content)


async def test_tools_go_through_the_proxy_and_not_when_no_proxy_exempts_the_host() -> None:
    async with FakeOpenProject({TOKEN: load_demo_dataset()}) as fake, ForwardingProxy() as proxy:
        port = fake.base_url.rsplit(":", 1)[1].split("/", 1)[0]
        env = {"OPENPROJECT_BASE_URL": f"http://openproject.invalid:{port}", "HTTP_PROXY": proxy.url}
        failed, text = await list_projects(env)
        assert not failed, text
        assert proxy.targets and all(t == f"openproject.invalid:{port}" for t in proxy.targets)
        seen = len(proxy.targets)
        failed, text = await list_projects({**env, "NO_PROXY": "openproject.invalid"})
        assert failed and text.startswith("Error [OPENPROJECT_NETWORK_ERROR]")
        assert len(proxy.targets) == seen


async def test_https_with_a_private_ca_fails_naming_the_certificate_and_works_with_the_bundle(tmp_path: Path) -> None:
    cert, key = self_signed_certificate(tmp_path)
    async with FakeOpenProject({TOKEN: load_demo_dataset()}, ssl_context=server_context(cert, key)) as fake:
        failed, text = await list_projects({"OPENPROJECT_BASE_URL": fake.base_url})
        assert failed and "certificate" in text and "OPENPROJECT_CA_BUNDLE" in text
        failed, text = await list_projects({"OPENPROJECT_BASE_URL": fake.base_url, "OPENPROJECT_CA_BUNDLE": str(cert)})
        assert not failed, text


def test_a_ca_bundle_that_is_missing_or_not_pem_and_a_bad_proxy_stop_the_server_at_start(tmp_path: Path) -> None:
    base = {"OPENPROJECT_BASE_URL": "https://openproject.example.com", "OPENPROJECT_API_KEY": TOKEN}
    with pytest.raises(ConfigurationError, match="OPENPROJECT_CA_BUNDLE: no such file"):
        load_settings({**base, "OPENPROJECT_CA_BUNDLE": str(tmp_path / "missing.pem")})
    junk = tmp_path / "junk.pem"
    junk.write_text("not a certificate\n")
    with pytest.raises(ConfigurationError, match="could not be read as PEM certificates"):
        load_settings({**base, "OPENPROJECT_CA_BUNDLE": str(junk)})
    with pytest.raises(ConfigurationError, match="HTTPS_PROXY is invalid"):
        load_settings({**base, "HTTPS_PROXY": "socks5://proxy:1080"})
    chosen = load_settings({**base, "https_proxy": "proxy.internal:3128", "HTTPS_PROXY": "http://other:1"})
    assert chosen.network.proxy.url == "http://proxy.internal:3128"  # lower case wins, scheme defaults to http
    exempt = load_settings({**base, "HTTPS_PROXY": "http://p:1", "NO_PROXY": "localhost,.example.com"})
    assert exempt.network.proxy.url is None and exempt.network.proxy.bypassed_by == "NO_PROXY"
    everything = load_settings({**base, "HTTPS_PROXY": "http://p:1", "no_proxy": "*"})
    assert everything.network.proxy.url is None
    other = load_settings({**base, "HTTPS_PROXY": "http://p:1", "NO_PROXY": "example.org,10.0.0.0/8"})
    assert other.network.proxy.url == "http://p:1"


async def test_https_through_the_proxy_tunnels_and_trusts_the_bundle(tmp_path: Path) -> None:
    async with instance_behind_proxy(tmp_path, {TOKEN: load_demo_dataset()}) as hidden:
        env = {"OPENPROJECT_BASE_URL": hidden.url, "HTTPS_PROXY": hidden.proxy.url}
        failed, text = await list_projects(env)
        assert failed and "certificate" in text and "OPENPROJECT_CA_BUNDLE" in text
        failed, text = await list_projects({**env, "OPENPROJECT_CA_BUNDLE": str(hidden.cert)})
        assert not failed, text
    assert hidden.address in hidden.proxy.targets  # CONNECT, not a direct connection


SIGNIN = {
    "OPENPROJECT_OAUTH_CLIENT_ID": "mcp-app",
    "OPENPROJECT_OAUTH_CLIENT_SECRET": "mcp-app-secret-5e1f",
    "OPENPROJECT_PUBLIC_URL": "https://mcp.example.com",
}


async def refused_refresh(env: dict[str, str]) -> type[Exception]:
    """What a refresh with an unknown refresh token ends in, through the sign-in's own sessions."""
    settings = load_settings({"OPENPROJECT_API_KEY": TOKEN, **env})
    signin = load_signin_settings({**SIGNIN, "OPENPROJECT_OAUTH_ENCRYPTION_KEY": base64.b64encode(b"k" * 32).decode()})
    assert signin is not None
    app = Application(settings)
    try:
        _, upstream = app.signin_parts(signin)
        try:
            await upstream.refresh("no-such-refresh-token")
        except (GrantRefusedError, ProviderUnavailableError) as exc:
            return type(exc)
    finally:
        await app.aclose()
    raise AssertionError("an unknown refresh token was accepted")


async def test_sign_in_reaches_openproject_the_way_the_tools_do_through_the_proxy_and_the_ca_bundle(
    tmp_path: Path,
) -> None:
    cert, key = self_signed_certificate(tmp_path)
    oauth = FakeOAuth()
    oauth.register(SIGNIN["OPENPROJECT_OAUTH_CLIENT_ID"], SIGNIN["OPENPROJECT_OAUTH_CLIENT_SECRET"], "https://x/cb")
    async with (
        FakeOpenProject({TOKEN: load_demo_dataset()}, ssl_context=server_context(cert, key), oauth=oauth) as fake,
        ForwardingProxy() as proxy,
    ):
        # OpenProject answered (and refused the grant): the TLS handshake trusted the bundle.
        assert await refused_refresh({"OPENPROJECT_BASE_URL": fake.base_url}) is ProviderUnavailableError
        assert oauth.token_requests == []
        bundle = {"OPENPROJECT_BASE_URL": fake.base_url, "OPENPROJECT_CA_BUNDLE": str(cert)}
        assert await refused_refresh(bundle) is GrantRefusedError
        assert oauth.token_requests == ["refresh_token"]
        via_proxy = {**bundle, "HTTPS_PROXY": proxy.url}
        assert await refused_refresh(via_proxy) is GrantRefusedError
        assert proxy.targets, "the token request went through the proxy"


async def test_the_readiness_probe_reaches_the_instance_the_way_the_tools_do(tmp_path: Path) -> None:
    async with instance_behind_proxy(tmp_path, {TOKEN: load_demo_dataset()}) as hidden:
        # The instance's name resolves only through the proxy, and its certificate is the bundle's.
        env = {"OPENPROJECT_BASE_URL": hidden.url, "HTTPS_PROXY": hidden.proxy.url}
        trusted = load_settings({"OPENPROJECT_API_KEY": TOKEN, **env, "OPENPROJECT_CA_BUNDLE": str(hidden.cert)})
        assert await InstanceProbe(hidden.url, route=instance_route(trusted)).reachable()
        assert hidden.address in hidden.proxy.targets
        # Without the bundle the handshake fails, and so does the probe; with no route at all too.
        untrusted = load_settings({"OPENPROJECT_API_KEY": TOKEN, **env})
        assert not await InstanceProbe(hidden.url, route=instance_route(untrusted)).reachable()
        assert not await InstanceProbe(hidden.url).reachable()
