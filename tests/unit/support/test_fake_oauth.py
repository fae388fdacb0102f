"""The fake's OAuth provider refuses what OpenProject's refuses, so the sign-in tests can fail."""

from __future__ import annotations

import base64
import hashlib
from urllib.parse import parse_qs, urlencode, urlsplit

import aiohttp

from openproject_mcp.adapters.fixture.dataset import load_demo_dataset
from tests.support.fake_openproject import FakeOAuth, FakeOpenProject

REDIRECT = "https://mcp.example.com/oauth/callback"


def challenge(verifier: str) -> str:
    return base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).decode().rstrip("=")


async def code_for(http: aiohttp.ClientSession, fake: FakeOpenProject, verifier: str) -> str:
    query = {
        "response_type": "code",
        "client_id": "app",
        "redirect_uri": REDIRECT,
        "scope": "api_v3",
        "state": "s",
        "code_challenge": challenge(verifier),
        "code_challenge_method": "S256",
    }
    async with http.get(f"{fake.base_url}oauth/authorize?{urlencode(query)}", allow_redirects=False) as answer:
        assert answer.status == 302
        location = answer.headers["Location"]
    assert location.startswith(REDIRECT)
    return parse_qs(urlsplit(location).query)["code"][0]


async def test_pkce_the_content_type_and_single_use_codes_are_enforced() -> None:
    oauth = FakeOAuth(signed_in_as="token-a")
    oauth.register("app", "secret", REDIRECT)
    form = {"grant_type": "authorization_code", "redirect_uri": REDIRECT, "client_id": "app", "client_secret": "secret"}
    async with FakeOpenProject({"token-a": load_demo_dataset()}, oauth=oauth) as fake, aiohttp.ClientSession() as http:
        code = await code_for(http, fake, "right-verifier-" * 4)
        async with http.post(f"{fake.base_url}oauth/token", json={**form, "code": code}) as as_json:
            assert as_json.status == 400  # OpenProject accepts form-encoded token requests only
        wrong = {**form, "code": code, "code_verifier": "wrong-verifier-" * 4}
        async with http.post(f"{fake.base_url}oauth/token", data=wrong) as refused:
            assert refused.status == 400 and (await refused.json())["error"] == "invalid_grant"
        right = {**form, "code": code, "code_verifier": "right-verifier-" * 4}
        async with http.post(f"{fake.base_url}oauth/token", data=right) as granted:
            assert granted.status == 200
            tokens = await granted.json()
        async with http.post(f"{fake.base_url}oauth/token", data=right) as reused:
            assert reused.status == 400
        assert tokens["expires_in"] == 7200 and tokens["scope"] == "api_v3" and tokens["token_type"] == "Bearer"
        headers = {"Authorization": f"Bearer {tokens['access_token']}"}
        async with http.get(f"{fake.base_url}api/v3/projects", headers=headers) as as_user:
            assert as_user.status == 200
        as_basic = {"Authorization": aiohttp.encode_basic_auth("apikey", tokens["access_token"])}
        async with http.get(f"{fake.base_url}api/v3/projects", headers=as_basic) as basic:
            assert basic.status == 401  # an OAuth token is a Bearer token, not an API key
        oauth.revoke_all_for("token-a")
        async with http.get(f"{fake.base_url}api/v3/projects", headers=headers) as after:
            assert after.status == 401
