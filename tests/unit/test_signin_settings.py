"""Sign-in's settings: all or nothing, each one checked, and no value ever repeated in a message."""

from __future__ import annotations

import base64
import os

import pytest

from openproject_mcp.config import SIGNIN_VARIABLES, ConfigurationError, load_signin_settings

KEY = base64.b64encode(os.urandom(32)).decode()
SECRET = "client-secret-0b7d4e2a"
COMPLETE = {
    "OPENPROJECT_OAUTH_CLIENT_ID": "app-id",
    "OPENPROJECT_OAUTH_CLIENT_SECRET": SECRET,
    "OPENPROJECT_PUBLIC_URL": "https://mcp.example.com/",
    "OPENPROJECT_OAUTH_ENCRYPTION_KEY": KEY,
}


def test_none_set_means_sign_in_is_off() -> None:
    assert load_signin_settings({}) is None


def test_all_set_gives_the_urls_derived_from_the_public_one() -> None:
    settings = load_signin_settings(COMPLETE)
    assert settings is not None
    assert settings.public_url == "https://mcp.example.com"
    assert settings.resource_url == "https://mcp.example.com/mcp"
    assert settings.callback_url == "https://mcp.example.com/oauth/callback"
    assert settings.encryption_keys == (base64.b64decode(KEY),)
    assert SECRET not in repr(settings) and KEY not in repr(settings)


@pytest.mark.parametrize("missing", SIGNIN_VARIABLES)
def test_a_partial_set_names_what_is_missing(missing: str) -> None:
    env = {name: value for name, value in COMPLETE.items() if name != missing}
    with pytest.raises(ConfigurationError, match=f"missing: {missing}"):
        load_signin_settings(env)


@pytest.mark.parametrize(
    ("url", "problem"),
    [
        ("http://mcp.example.com", "must use https"),
        ("https://mcp.example.com/openproject", "origin only"),
        ("https://user:pw@mcp.example.com", "origin only"),
        ("mcp.example.com", "such as https://"),
    ],
)
def test_the_public_url_must_be_an_https_origin(url: str, problem: str) -> None:
    with pytest.raises(ConfigurationError, match=problem) as caught:
        load_signin_settings({**COMPLETE, "OPENPROJECT_PUBLIC_URL": url})
    assert "pw" not in str(caught.value)


def test_plain_http_is_allowed_on_loopback() -> None:
    settings = load_signin_settings({**COMPLETE, "OPENPROJECT_PUBLIC_URL": "http://127.0.0.1:8000"})
    assert settings is not None and settings.public_url == "http://127.0.0.1:8000"


@pytest.mark.parametrize("key", ["too-short", base64.b64encode(b"x" * 31).decode(), "!!!!"])
def test_a_bad_key_is_refused_without_repeating_it(key: str) -> None:
    with pytest.raises(ConfigurationError, match="openssl rand -base64 32") as caught:
        load_signin_settings({**COMPLETE, "OPENPROJECT_OAUTH_ENCRYPTION_KEY": key})
    assert key not in str(caught.value)


def test_several_keys_rotate_and_urlsafe_base64_is_accepted() -> None:
    raw = os.urandom(32)
    urlsafe = base64.urlsafe_b64encode(raw).decode()
    settings = load_signin_settings({**COMPLETE, "OPENPROJECT_OAUTH_ENCRYPTION_KEY": f"{urlsafe}, {KEY}"})
    assert settings is not None and settings.encryption_keys == (raw, base64.b64decode(KEY))
