"""This server's own consent page for sign-in: which application asks, where the approval goes,
and what it may do (ADR 0077).

OpenProject's consent screen, when it shows one at all, can only name the operator's single OAuth
application, never the MCP client that registered itself here a minute ago; so before a browser
is sent to OpenProject, this page names that client and asks. Everything a client registered is
untrusted text: it is escaped, cut short, and its redirect URI is shown by the host it really
points at (``urlsplit(...).hostname``, so ``https://trusted@evil.example`` shows ``evil.example``).
"""

from __future__ import annotations

import ipaddress
from html import escape
from typing import Final
from urllib.parse import urlsplit

from starlette.responses import HTMLResponse

CONSENT_PATH: Final = "/oauth/consent"
NAME_LIMIT: Final = 80

# Neither framed (clickjacking) nor cached; nothing loads but the page's own inline style.
PAGE_HEADERS: Final = {
    "Cache-Control": "no-store",
    "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'",
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
}

ACCESS: Final = (
    "use this server's OpenProject tools with your OpenProject account and your permissions there: "
    "read projects, work packages, meetings, wiki pages, users and time entries, and create and "
    "change work packages, comment on them and log time, until you or it ends the sign-in"
)

_STYLE: Final = (
    "body{font:16px/1.5 system-ui,sans-serif;max-width:36em;margin:3em auto;padding:0 1em}"
    ".where{font-size:1.4em;font-weight:bold;word-break:break-all}"
    ".small{color:#555;font-size:.9em;word-break:break-all}"
    "button{font-size:1em;padding:.5em 1.5em;margin-right:1em}"
)


def _text(value: str, limit: int = NAME_LIMIT) -> str:
    """Untrusted text, made printable, cut short, and escaped for HTML."""
    printable = "".join(ch if ch.isprintable() else " " for ch in value).strip()
    if len(printable) > limit:
        printable = printable[: limit - 1] + "…"
    return escape(printable, quote=True)


def where_it_goes(redirect_uri: str) -> tuple[str, str | None]:
    """The redirect URI's origin as a user should read it, and a note on what kind of place it is."""
    parts = urlsplit(redirect_uri)
    host = parts.hostname or ""
    try:
        port = parts.port
    except ValueError:
        port = None
    origin = f"{parts.scheme}://{host}{f':{port}' if port else ''}"
    note: str | None = None
    if parts.scheme not in ("http", "https"):
        note = f"an application on your device (the '{parts.scheme}' link type)"
    else:
        try:
            loopback = host == "localhost" or ipaddress.ip_address(host).is_loopback
        except ValueError:
            loopback = False
        if loopback:
            note = "an application on your own computer"
        elif parts.scheme == "http":
            note = "a web site reached without encryption"
    return origin, note


def consent_page(
    *, client_name: str | None, client_id: str, redirect_uri: str, request_id: str, confirm: str
) -> HTMLResponse:
    """The page asking whether the client may sign in; its form posts back to ``CONSENT_PATH``."""
    name = _text(client_name) if client_name and client_name.strip() else "An application that gave no name"
    origin, note = where_it_goes(redirect_uri)
    body = (
        "<!doctype html><html lang=en><meta charset=utf-8>"
        '<meta name=viewport content="width=device-width,initial-scale=1">'
        f"<title>Allow access to OpenProject?</title><style>{_STYLE}</style>"
        f"<h1>Allow <q>{name}</q> to act in OpenProject as you?</h1>"
        "<p>This application registered itself with this server; its name is only what it says about "
        "itself. If you allow it, your approval and the access it brings are sent to:</p>"
        f"<p class=where id=where>{_text(origin, 200)}</p>"
        + (f"<p>That is {escape(note)}.</p>" if note else "")
        + f"<p class=small>Full address: {_text(redirect_uri, 400)}<br>Client ID: {_text(client_id)}</p>"
        f"<p>You then sign in with OpenProject, and the application can {ACCESS}.</p>"
        "<p><strong>Only allow this if you started this sign-in yourself, from an application you trust, "
        "and the address above is that application's.</strong></p>"
        f'<form method=post action="{CONSENT_PATH}">'
        f'<input type=hidden name=request value="{escape(request_id, quote=True)}">'
        f'<input type=hidden name=confirm value="{escape(confirm, quote=True)}">'
        "<button type=submit name=decision value=approve>Allow</button>"
        "<button type=submit name=decision value=deny>Deny</button>"
        "</form></html>"
    )
    return HTMLResponse(body, status_code=200, headers=PAGE_HEADERS)


def notice_page(status: int, title: str, advice: str) -> HTMLResponse:
    """A short page for the browser when sign-in cannot go on (our own text only)."""
    body = (
        "<!doctype html><html lang=en><meta charset=utf-8><title>Sign in with OpenProject</title>"
        f"<h1>{escape(title)}</h1><p>{escape(advice)}</p></html>"
    )
    return HTMLResponse(body, status_code=status, headers=PAGE_HEADERS)
