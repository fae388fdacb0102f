"""How requests reach the instance: through which proxy (``HTTPS_PROXY``, ``HTTP_PROXY``,
``NO_PROXY``) and trusting which certificates (the system's, plus ``OPENPROJECT_CA_BUNDLE``).

Every request of the server goes to one address, so the proxy is chosen once, from the
environment, by the rules curl and Python's ``urllib`` share: the lower-case variable wins over
the upper-case one, ``NO_PROXY`` lists host names (a leading dot or ``*.`` covers subdomains),
``host:port`` pairs, or ``*`` for every host.
"""

from __future__ import annotations

import ipaddress
import ssl
from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import urlsplit, urlunsplit


@dataclass(frozen=True, slots=True)
class ProxyChoice:
    """The proxy for the instance's address: ``url`` (``None``: direct), the variable it came from,
    and, when ``NO_PROXY`` turned a configured proxy off, the variable that did."""

    url: str | None = None
    variable: str | None = None
    bypassed_by: str | None = None

    @property
    def shown(self) -> str:
        """The proxy's address without any credentials in it (for messages and logs)."""
        return without_credentials(self.url) if self.url else "none"


def without_credentials(url: str) -> str:
    parts = urlsplit(url)
    host = parts.hostname or ""
    if ":" in host:
        host = f"[{host}]"
    netloc = f"{host}:{parts.port}" if parts.port else host
    return urlunsplit((parts.scheme, netloc, parts.path, "", ""))


def _variable(env: Mapping[str, str], name: str) -> tuple[str, str] | None:
    for variable in (name.lower(), name.upper()):
        value = env.get(variable, "").strip()
        if value:
            return variable, value
    return None


def _bypassed(host: str, port: int, no_proxy: str) -> bool:
    host = host.lower().strip("[]")
    for raw in no_proxy.split(","):
        entry = raw.strip().lower()
        if not entry:
            continue
        if entry == "*":
            return True
        name, _, entry_port = entry.rpartition(":") if entry.count(":") == 1 else (entry, "", "")
        if entry_port and entry_port.isdigit():
            if int(entry_port) != port:
                continue
        else:
            name = entry
        name = name.strip("[]")
        if name.startswith("*."):
            name = name[1:]
        try:
            network = ipaddress.ip_network(name, strict=False)
        except ValueError:
            network = None
        if network is not None:
            try:
                if ipaddress.ip_address(host) in network:
                    return True
            except ValueError:
                pass
            continue
        if host == name.lstrip(".") or host.endswith(name if name.startswith(".") else f".{name}"):
            return True
    return False


def proxy_for(url: str, env: Mapping[str, str]) -> ProxyChoice:
    """Which proxy, if any, requests to ``url`` go through."""
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    found = _variable(env, f"{scheme}_proxy") or _variable(env, "all_proxy")
    if found is None:
        return ProxyChoice()
    variable, value = found
    if "://" not in value:
        value = f"http://{value}"
    no_proxy = _variable(env, "no_proxy")
    port = parts.port or (443 if scheme == "https" else 80)
    if no_proxy is not None and _bypassed(parts.hostname or "", port, no_proxy[1]):
        return ProxyChoice(bypassed_by=no_proxy[0], variable=variable)
    return ProxyChoice(url=value, variable=variable)


def check_proxy_url(url: str) -> str | None:
    """What is wrong with a proxy URL, or ``None`` if it is usable."""
    parts = urlsplit(url)
    if parts.scheme.lower() not in ("http", "https"):
        return f"a proxy must be an http:// or https:// URL (got {parts.scheme or 'no'} scheme)"
    if not parts.hostname:
        return "the proxy URL has no host name"
    try:
        _ = parts.port
    except ValueError:
        return "the proxy URL has an invalid port"
    return None


def tls_context(ca_bundle: str | None) -> ssl.SSLContext:
    """The system's trusted certificates, plus those of ``ca_bundle`` (PEM) when given.

    Raises ``ValueError`` naming the file when it cannot be read as certificates.
    """
    context = ssl.create_default_context()
    if ca_bundle:
        try:
            context.load_verify_locations(cafile=ca_bundle)
        except (OSError, ssl.SSLError) as exc:
            reason = getattr(exc, "strerror", None) or getattr(exc, "reason", None) or str(exc)
            raise ValueError(f"{ca_bundle} could not be read as PEM certificates ({reason})") from None
    return context
