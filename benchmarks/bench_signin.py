"""What sign-in with OpenProject costs: the ``cryptography`` dependency, and the work per request.

1. The dependency: installed size of ``cryptography`` and what it brings (``cffi``, ``pycparser``),
   the time and memory ``import cryptography.fernet`` adds to a fresh interpreter (median of 5).
2. Sealing: median time to seal and to open one sign-in record (a grant, about 500 bytes).
3. Per request: median time for what a request with an issued token costs before the tool runs
   (look the token up, load the grant), on a sealed store and, for the ratio, an unsealed one.
"""

from __future__ import annotations

import asyncio
import os
import statistics
import subprocess
import sys
import time
from importlib import metadata

from openproject_mcp.adapters.mcp.hosting.signin import Grant, IssuedRecord, OpenProjectSignIn, SignInSite, digest
from openproject_mcp.adapters.shared_state.memory import MemoryStore
from openproject_mcp.adapters.shared_state.sealed import SealedStore
from openproject_mcp.ports.shared_state import SharedStore
from openproject_mcp.ports.signin import OpenProjectAuthorization, UpstreamTokens

RUNS = 2000
IMPORT_PROBE = """
import os, time
def rss_kib():
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 1024
before = rss_kib()
began = time.perf_counter()
import cryptography.fernet
took = time.perf_counter() - began
print(took, rss_kib() - before)
"""


def installed_bytes(*distributions: str) -> dict[str, int]:
    sizes = {}
    for name in distributions:
        try:
            files = metadata.distribution(name).files or []
        except metadata.PackageNotFoundError:
            continue
        sizes[name] = sum(f.size or 0 for f in files)
    return sizes


SDK_PROBE = "import sys, mcp.server.lowlevel.server; print('cryptography.hazmat.bindings._rust' in sys.modules)"


def already_required_by_mcp() -> tuple[bool, bool]:
    """Whether mcp's own requirements name cryptography (``pyjwt[crypto]``), and whether the SDK's
    server module already imports it (then neither install size nor import time is new)."""
    required = any(
        "pyjwt[crypto]" in requirement.replace(" ", "").lower() for requirement in metadata.requires("mcp") or []
    )
    out = subprocess.run([sys.executable, "-c", SDK_PROBE], capture_output=True, text=True, check=True)
    return required, out.stdout.strip() == "True"


def import_cost() -> tuple[float, float]:
    runs = []
    for _ in range(5):
        out = subprocess.run([sys.executable, "-c", IMPORT_PROBE], capture_output=True, text=True, check=True)
        seconds, kib = out.stdout.split()
        runs.append((float(seconds), float(kib)))
    return statistics.median(r[0] for r in runs) * 1000, statistics.median(r[1] for r in runs) / 1024


class Unused(OpenProjectAuthorization):
    """Never called here: no grant is due for refresh during the measurement."""

    def authorization_url(self, *, state: str, code_challenge: str) -> str:
        raise AssertionError

    async def exchange_code(self, code: str, code_verifier: str) -> UpstreamTokens:
        raise AssertionError

    async def refresh(self, refresh_token: str) -> UpstreamTokens:
        raise AssertionError

    async def revoke(self, token: str) -> None:
        raise AssertionError


def grant() -> Grant:
    return Grant(
        client_id="0b3f6a52-8f0e-4c1e-9d57-0c3b8b7d2a11",
        scopes=["openproject"],
        upstream_access="A" * 43,
        upstream_refresh="R" * 43,
        upstream_expires_at=time.time() + 7200,
        access_digest="d" * 64,
        refresh_digest="e" * 64,
    )


async def per_request_ms(store: SharedStore) -> float:
    provider = OpenProjectSignIn(store, Unused(), SignInSite("https://mcp.example.com"))
    token = "opmcp_at_" + "x" * 43
    await store.put("signin:grant:g", grant().model_dump_json().encode(), 3600)
    record = IssuedRecord(grant_id="g", client_id="c", scopes=["openproject"], expires_at=int(time.time()) + 3600)
    await store.put(f"signin:access:{digest(token)}", record.model_dump_json().encode(), 3600)
    times = []
    for _ in range(RUNS):
        began = time.perf_counter()
        access = await provider.load_access_token(token)
        assert access is not None
        credential = await provider.upstream_credential(access.grant_id)
        assert credential.startswith("signed-in:")
        times.append(time.perf_counter() - began)
    return statistics.median(times) * 1000


async def seal_ms() -> tuple[float, float]:
    sealed = SealedStore(MemoryStore(), [os.urandom(32)])
    value = grant().model_dump_json().encode()
    seals, opens = [], []
    for _ in range(RUNS):
        began = time.perf_counter()
        await sealed.put("signin:grant:g", value, 60)
        seals.append(time.perf_counter() - began)
        began = time.perf_counter()
        assert await sealed.get("signin:grant:g") == value
        opens.append(time.perf_counter() - began)
    return statistics.median(seals) * 1000, statistics.median(opens) * 1000


def main() -> None:
    sizes = installed_bytes("cryptography", "cffi", "pycparser")
    listed = ", ".join(f"{name} {size / 1e6:.1f} MB" for name, size in sizes.items())
    print(f"  installed: {listed} (total {sum(sizes.values()) / 1e6:.1f} MB)")
    required, loaded = already_required_by_mcp()
    print(f"  mcp requires pyjwt[crypto] (so cryptography): {required}; mcp.server already imports it: {loaded}")
    millis, mib = import_cost()
    print(f"  import cryptography.fernet in a fresh interpreter: {millis:.1f} ms, +{mib:.1f} MiB RSS (median of 5)")
    seal, open_ = asyncio.run(seal_ms())
    size = len(grant().model_dump_json())
    print(f"  one grant record ({size} bytes): seal {seal * 1000:.1f} µs, open {open_ * 1000:.1f} µs (median)")
    sealed = asyncio.run(per_request_ms(SealedStore(MemoryStore(), [os.urandom(32)])))
    plain = asyncio.run(per_request_ms(MemoryStore()))
    print(
        f"  per request with an issued token: {sealed * 1000:.1f} µs sealed, {plain * 1000:.1f} µs unsealed "
        f"({sealed / plain:.1f}x), {RUNS} runs"
    )
