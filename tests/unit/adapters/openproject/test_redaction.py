"""The token and the base URL's password are redacted in every spelling a layer might echo."""

from __future__ import annotations

import base64
import html
import json
import logging
from urllib.parse import quote, quote_plus

import pytest

from openproject_mcp.adapters.openproject import endpoints, fetching
from openproject_mcp.adapters.openproject.http_errors import redact, redact_bytes, secrets_for, url_password
from tests.unit.adapters.openproject.conftest import ClientMaker

TOKEN = "Tok/en+with=odd&chars<0123456789>"
PASSWORD = "S3cret PW/+&"


def spellings(secret: str) -> list[str]:
    return [
        secret,
        secret.upper(),
        secret.lower(),
        secret.swapcase(),
        quote(secret, safe=""),
        quote(secret, safe="").lower(),
        quote(secret),
        quote_plus(secret),
        quote_plus(secret).upper(),
        html.escape(secret),
        html.escape(secret, quote=False),
        html.escape(quote_plus(secret)),
        json.dumps(secret)[1:-1],
    ]


@pytest.mark.parametrize("spelling", spellings(TOKEN))
def test_every_spelling_of_the_token_is_redacted(spelling: str) -> None:
    secrets = secrets_for(TOKEN)
    assert redact(f"before {spelling} after", secrets) == "before [redacted] after"
    assert redact_bytes(f'{{"raw": "x {spelling} y"}}'.encode(), secrets) == b'{"raw": "x [redacted] y"}'


@pytest.mark.parametrize(
    "credential",
    [
        base64.b64encode(f"apikey:{TOKEN}".encode()).decode(),
        base64.b64encode(f"apikey:{TOKEN}".encode()).decode().rstrip("="),
        base64.b64encode(TOKEN.encode()).decode(),
    ],
)
def test_the_basic_credential_is_redacted_in_any_case(credential: str) -> None:
    secrets = secrets_for(TOKEN)
    assert TOKEN not in redact(credential, secrets)
    assert redact(credential.lower(), secrets) == "[redacted]"


@pytest.mark.parametrize("spelling", spellings(PASSWORD))
def test_the_base_urls_password_is_redacted_in_every_spelling(spelling: str) -> None:
    url = f"https://alice:{quote(PASSWORD, safe='')}@op.example.com/"
    password = url_password(url)
    assert password is not None
    secrets = secrets_for(TOKEN, password)
    assert redact(f"got {spelling}!", secrets) == "got [redacted]!"


def test_url_password_is_none_without_one() -> None:
    assert url_password("https://op.example.com/") is None
    assert url_password("https://alice@op.example.com/") is None
    assert url_password(None) is None


def test_short_secrets_are_not_hunted_in_bodies_but_still_in_messages() -> None:
    secrets = secrets_for("abc")
    assert redact_bytes(b'{"raw": "abcdef"}', secrets) == b'{"raw": "abcdef"}'
    assert redact("token abc", secrets) == "token [redacted]"


async def test_the_not_followed_link_warning_is_redacted(
    make_client: ClientMaker, caplog: pytest.LogCaptureFixture
) -> None:
    client = await make_client(api_key=TOKEN)
    with caplog.at_level(logging.WARNING):
        href = f"https://evil.example/?t={quote_plus(TOKEN).upper()}"
        assert fetching.follow(client, href, endpoints.USER) is None
    assert "[redacted]" in caplog.text and quote_plus(TOKEN).lower() not in caplog.text.lower()
